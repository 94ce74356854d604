//! The reference model (thesis §6.2.1): two replicas under a file-system
//! interface, and a synchronizer that reconciles them against the last
//! state they agreed on (Balasubramaniam and Pierce's `reconcile(a, b, g)`).
//!
//! The file-system operations are deterministic: the model computes what
//! each returns. The synchronizer is not: it may stop early (exit 2) having
//! propagated any subset of what it should have, and the real Unison does
//! (the thesis's loosened specification: any subset of the changed paths).
//! Each path's propagation is therefore a boolean the synchronizer chooses, and the replicas after a run are
//! if-then-else terms over those booleans ([`Expr::ite`]): one branch with
//! one unknown per propagation, which the observed replicas settle, where
//! a fork per propagation would be 2^n branches.
//!
//! A synchronizer's [`crate::profile::Profile`] may take some of
//! the model's documented freedoms ([`Rules`]): conflicts renamed,
//! directories, permission bits or symbolic links not propagated, a
//! deletion losing to a change, writes judged by timestamps, its own exit
//! codes, a set-up run and a safety abort. Each changes exactly the rule it
//! names ([`crate::profile`] lists them). Renames made by the tester reach
//! the synchronizer as what they leave behind: the old path gone, the new
//! one new (a synchronizer sees replicas, not the operations that made
//! them).

use std::collections::{BTreeMap, BTreeSet};

use speccheck_dual::model::{Cx, Model, Step, Symbolic};
use speccheck_dual::sym::{Expr, Syms, Value};

use crate::profile::{ExitCodes, Freedoms, Profile, SetupEffect};
use crate::tree::{self, ABSENT, Node, Tree};
use crate::{Content, Replica, SyncReq, SyncResp};

/// Why a file-system operation failed (errno, by name).
pub mod error {
    /// `ENOENT`.
    pub const NOT_FOUND: &str = "not-found";
    /// `ENOTDIR`: a path goes through a file.
    pub const NOT_DIR: &str = "not-dir";
    /// `EISDIR`: a file operation on a directory.
    pub const IS_DIR: &str = "is-dir";
    /// `EEXIST`.
    pub const EXISTS: &str = "exists";
    /// `EACCES`: the permission bits forbid it.
    pub const DENIED: &str = "denied";
    /// `ELOOP`: a write to a symbolic link (the tester never follows one).
    pub const LINK: &str = "link";
}
use error::*;

/// A replica in the model: path → node code, as a term (an if-then-else
/// over the synchronizer's choices until an observation settles it).
pub type Replica_ = BTreeMap<String, Expr>;

/// The model's state: both replicas and the synchronizer's archive (the
/// last state they agreed on, path by path).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SyncState {
    /// Replica A.
    pub a: Replica_,
    /// Replica B.
    pub b: Replica_,
    /// The archive.
    pub g: Replica_,
    /// Whether the profile's set-up run comes before the next
    /// synchronization (first, and after a safety abort).
    pub setup_due: bool,
    /// Paths written in each replica since the last synchronization (the
    /// `timestamps` freedom: a write is a change).
    pub written: [BTreeSet<String>; 2],
}

impl Syms for SyncState {
    fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        self.a.visit_exprs(f);
        self.b.visit_exprs(f);
        self.g.visit_exprs(f);
    }
}

/// A response as the model sends it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SyncSym {
    /// See [`SyncResp::Done`].
    Done,
    /// See [`SyncResp::Contents`].
    Contents(String),
    /// See [`SyncResp::Names`].
    Names(Vec<String>),
    /// See [`SyncResp::Failed`].
    Failed(&'static str),
    /// A synchronization: its exit code and both replicas after it (a
    /// replica whose root does not exist is empty).
    Synced {
        /// The exit code.
        code: Expr,
        /// Replica A.
        a: Replica_,
        /// Replica B.
        b: Replica_,
    },
}

impl Syms for SyncSym {
    fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        if let SyncSym::Synced { code, a, b } = self {
            f(code);
            a.visit_exprs(f);
            b.visit_exprs(f);
        }
    }
}

/// The guard that an observed replica is the model's, path by path (a
/// replica without a root has no entries).
fn tree_matches(model: &Replica_, seen: &Option<Tree>) -> Expr {
    let empty = Tree::new();
    let t = seen.as_ref().unwrap_or(&empty);
    let paths = model.keys().chain(t.keys().filter(|p| !model.contains_key(*p)));
    Expr::and(paths.map(|p| {
        let expected = model.get(p).cloned().unwrap_or_else(|| Expr::str(ABSENT));
        expected.equals(Expr::str(t.get(p).map_or(ABSENT, String::as_str)))
    }))
}

impl Symbolic for SyncSym {
    type Concrete = SyncResp;

    fn matches(&self, obs: &SyncResp) -> Expr {
        match (self, obs) {
            (SyncSym::Done, SyncResp::Done) => Expr::bool(true),
            (SyncSym::Contents(k), SyncResp::Contents(o)) => Expr::bool(k == o),
            (SyncSym::Names(n), SyncResp::Names(o)) => Expr::bool(n == o),
            (SyncSym::Failed(e), SyncResp::Failed(o)) => Expr::bool(e == o),
            (SyncSym::Synced { code, a, b }, SyncResp::Synced(s)) => Expr::and([
                code.equals(Expr::int(s.code)),
                // Nothing outside the replicas is ever expected.
                Expr::bool(s.outside.is_empty()),
                tree_matches(a, &s.a),
                tree_matches(b, &s.b),
            ]),
            _ => Expr::bool(false),
        }
    }

    fn concretize(&self) -> Option<SyncResp> {
        let tree = |m: &Replica_| -> Option<Option<Tree>> {
            let mut t = Tree::new();
            for (p, e) in m {
                let v = e.eval_ground()?.as_str()?.to_string();
                if v != ABSENT {
                    t.insert(p.clone(), v);
                }
            }
            Some(t.contains_key("").then_some(t))
        };
        Some(match self {
            SyncSym::Done => SyncResp::Done,
            SyncSym::Contents(k) => SyncResp::Contents(k.clone()),
            SyncSym::Names(n) => SyncResp::Names(n.clone()),
            SyncSym::Failed(e) => SyncResp::Failed(e.to_string()),
            SyncSym::Synced { code, a, b } => SyncResp::Synced(crate::Synced {
                code: code.eval_ground()?.as_int()?,
                a: tree(a)?,
                b: tree(b)?,
                outside: Vec::new(),
            }),
        })
    }

    fn show(obs: &SyncResp) -> String {
        obs.to_string()
    }
}

/// What a synchronizer's profile tells the model: its exit codes, its
/// freedoms, and what its set-up run does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    /// Exit codes by meaning.
    pub exit: ExitCodes,
    /// The freedoms taken.
    pub freedoms: Freedoms,
    /// The set-up run's effect, if there is one.
    pub setup: Option<SetupEffect>,
}

impl Rules {
    /// The rules of a profile.
    pub fn of(profile: &Profile) -> Self {
        Rules {
            exit: profile.exit.clone(),
            freedoms: profile.freedoms.clone(),
            setup: profile.setup.as_ref().map(|s| s.effect),
        }
    }

    /// A node code as the synchronizer compares it.
    fn cmp(&self, code: &str) -> String {
        if self.freedoms.no_modes { tree::without_mode(code) } else { code.to_string() }
    }

    /// Whether the synchronizer sees a node at all.
    fn sees(&self, code: &str) -> bool {
        !(self.freedoms.no_symlinks && matches!(tree::node(code), Node::Link { .. }))
    }

    /// What a copy of `new` over `old` leaves (`no_modes`: the new node
    /// with the old one's bits if the same kind, else the default bits).
    fn copy(&self, new: &str, old: &str) -> String {
        if !self.freedoms.no_modes {
            return new.to_string();
        }
        match (tree::node(new), tree::node(old)) {
            (Node::File { key, .. }, Node::File { mode, .. }) => tree::file_code(mode, key),
            (Node::File { key, .. }, _) => tree::file_code(0o644, key),
            (Node::Dir { .. }, Node::Dir { mode }) => tree::dir_code(mode),
            (Node::Dir { .. }, _) => tree::dir_code(0o755),
            _ => new.to_string(),
        }
    }
}

/// The model: the file system and the synchronizer.
#[derive(Clone, Debug)]
pub struct SyncModel {
    /// Whether permission bits are enforced on the tester's own
    /// operations (false for the superuser, who may read, write and
    /// remove regardless).
    pub enforce: bool,
    /// The synchronizer's profile, as the model needs it.
    pub rules: Rules,
}

impl SyncModel {
    /// The strict model.
    pub fn new(enforce: bool) -> Self {
        SyncModel { enforce, rules: Rules::default() }
    }

    /// The model of a profile's synchronizer.
    pub fn of(profile: &Profile, enforce: bool) -> Self {
        SyncModel { enforce, rules: Rules::of(profile) }
    }
}

fn side(at: Replica) -> usize {
    match at {
        Replica::A => 0,
        Replica::B => 1,
    }
}

impl Model for SyncModel {
    type State = SyncState;
    type Req = SyncReq;
    type Resp = SyncSym;

    fn init(&self) -> SyncState {
        let root = || BTreeMap::from([(String::new(), Expr::str(tree::dir_code(0o755)))]);
        let setup_due = self.rules.setup.is_some();
        SyncState { a: root(), b: root(), g: BTreeMap::new(), setup_due, written: Default::default() }
    }

    fn serve(&self, s: &mut SyncState, cx: &mut Cx<'_, Self>) -> Step {
        let (conn, req) = cx.recv()?;
        let mut a = settle(&s.a, cx)?;
        let mut b = settle(&s.b, cx)?;
        let g = settle(&s.g, cx)?;
        if req == SyncReq::Sync {
            let (resp, next) = synchronize(cx, &self.rules, [a, b, g], s)?;
            *s = next;
            return cx.send(conn, resp);
        }
        let resp = apply(&req, &mut a, &mut b, self.enforce).unwrap_or(SyncSym::Done);
        if resp == SyncSym::Done {
            // A written or renamed entry is a change by its timestamps.
            match &req {
                SyncReq::Write { at, path, .. } => {
                    s.written[side(*at)].insert(path.clone());
                }
                SyncReq::Rename { at, to, .. } => {
                    let t = pick(*at, &a, &b);
                    s.written[side(*at)].extend(t.keys().filter(|p| tree::is_under(p, to)).cloned());
                }
                _ => {}
            }
        }
        s.a = terms(&a);
        s.b = terms(&b);
        s.g = terms(&g);
        cx.send(conn, resp)
    }
}

fn pick<'t>(at: Replica, a: &'t Tree, b: &'t Tree) -> &'t Tree {
    match at {
        Replica::A => a,
        Replica::B => b,
    }
}

fn pick_mut<'t>(at: Replica, a: &'t mut Tree, b: &'t mut Tree) -> &'t mut Tree {
    match at {
        Replica::A => a,
        Replica::B => b,
    }
}

/// A replica with every entry concrete: the choices of the last
/// synchronization are settled by then (its observation fixed them); one
/// that is not is explored both ways.
fn settle(r: &Replica_, cx: &mut Cx<'_, SyncModel>) -> Step<Tree> {
    let mut out = Tree::new();
    for (path, e) in r {
        let mut e = e;
        let code = loop {
            match e {
                Expr::Const(Value::Str(s)) => break s.clone(),
                Expr::Ite(c, then, otherwise) => e = if cx.branch((**c).clone())? { then } else { otherwise },
                // Nothing else is ever stored: a behaviour without one.
                _ => {
                    cx.require(Expr::bool(false))?;
                    break ABSENT.to_string();
                }
            }
        };
        if code != ABSENT {
            out.insert(path.clone(), code);
        }
    }
    Ok(out)
}

fn terms(t: &Tree) -> Replica_ {
    t.iter().map(|(p, c)| (p.clone(), Expr::str(c.clone()))).collect()
}

fn get<'t>(t: &'t Tree, path: &str) -> Node<'t> {
    t.get(path).map_or(Node::Absent, |c| tree::node(c))
}

/// The file-system operations on one replica (POSIX, as the tester's own
/// process sees them).
struct Fs {
    enforce: bool,
}

impl Fs {
    fn allows(&self, mode: u32, bit: u32) -> bool {
        !self.enforce || mode & bit != 0
    }

    /// Path resolution: every ancestor must be a directory the tester may
    /// search.
    fn walk(&self, t: &Tree, path: &str) -> Result<(), &'static str> {
        let mut ancestors = Vec::new();
        let mut p = tree::parent(path);
        while let Some(q) = p {
            ancestors.push(q);
            p = tree::parent(q);
        }
        for q in ancestors.into_iter().rev() {
            match get(t, q) {
                Node::Absent => return Err(NOT_FOUND),
                Node::Dir { mode } if !self.allows(mode, 0o100) => return Err(DENIED),
                Node::Dir { .. } => {}
                // The tester's links dangle: resolving one finds nothing.
                Node::Link { .. } => return Err(NOT_FOUND),
                Node::File { .. } | Node::Other => return Err(NOT_DIR),
            }
        }
        Ok(())
    }

    /// The parent may get a new entry or lose one.
    fn parent_writable(&self, t: &Tree, path: &str) -> bool {
        match tree::parent(path) {
            None => true, // the root's parent is the tester's sandbox
            Some(p) => matches!(get(t, p), Node::Dir { mode } if self.allows(mode, 0o200)),
        }
    }

    fn read(&self, t: &Tree, path: &str) -> SyncSym {
        if let Err(e) = self.walk(t, path) {
            return SyncSym::Failed(e);
        }
        match get(t, path) {
            Node::Absent | Node::Link { .. } => SyncSym::Failed(NOT_FOUND),
            Node::Dir { .. } | Node::Other => SyncSym::Failed(IS_DIR),
            Node::File { mode, .. } if !self.allows(mode, 0o400) => SyncSym::Failed(DENIED),
            Node::File { key, .. } => SyncSym::Contents(key.to_string()),
        }
    }

    fn list(&self, t: &Tree, path: &str) -> SyncSym {
        if let Err(e) = self.walk(t, path) {
            return SyncSym::Failed(e);
        }
        match get(t, path) {
            Node::Absent | Node::Link { .. } => SyncSym::Failed(NOT_FOUND),
            Node::File { .. } | Node::Other => SyncSym::Failed(NOT_DIR),
            Node::Dir { mode } if !self.allows(mode, 0o400) => SyncSym::Failed(DENIED),
            Node::Dir { .. } => SyncSym::Names(tree::children(t.keys(), path)),
        }
    }

    fn write(&self, t: &mut Tree, path: &str, content: &Content) -> SyncSym {
        if let Err(e) = self.walk(t, path) {
            return SyncSym::Failed(e);
        }
        let key = content.key();
        match get(t, path) {
            Node::Dir { .. } | Node::Other => SyncSym::Failed(IS_DIR),
            Node::Link { .. } => SyncSym::Failed(LINK),
            Node::File { mode, .. } if !self.allows(mode, 0o200) => SyncSym::Failed(DENIED),
            Node::File { mode, .. } => {
                t.insert(path.to_string(), tree::file_code(mode, &key));
                SyncSym::Done
            }
            Node::Absent if !self.parent_writable(t, path) => SyncSym::Failed(DENIED),
            Node::Absent => {
                t.insert(path.to_string(), tree::file_code(0o644, &key));
                SyncSym::Done
            }
        }
    }

    fn mkdir(&self, t: &mut Tree, path: &str) -> SyncSym {
        self.create(t, path, tree::dir_code(0o755))
    }

    /// A new entry (a directory, a link) where nothing is.
    fn create(&self, t: &mut Tree, path: &str, code: String) -> SyncSym {
        if let Err(e) = self.walk(t, path) {
            return SyncSym::Failed(e);
        }
        if get(t, path) != Node::Absent {
            return SyncSym::Failed(EXISTS);
        }
        if !self.parent_writable(t, path) {
            return SyncSym::Failed(DENIED);
        }
        t.insert(path.to_string(), code);
        SyncSym::Done
    }

    fn remove(&self, t: &mut Tree, path: &str) -> SyncSym {
        if let Err(e) = self.walk(t, path) {
            return SyncSym::Failed(e);
        }
        if get(t, path) == Node::Absent {
            return SyncSym::Failed(NOT_FOUND);
        }
        if !removal_allowed(t, path, self.enforce) {
            return SyncSym::Failed(DENIED);
        }
        t.retain(|p, _| !tree::is_under(p, path));
        SyncSym::Done
    }

    fn chmod(&self, t: &mut Tree, path: &str, mode: u32) -> SyncSym {
        if let Err(e) = self.walk(t, path) {
            return SyncSym::Failed(e);
        }
        let code = match get(t, path) {
            Node::Absent | Node::Link { .. } => return SyncSym::Failed(NOT_FOUND),
            Node::Dir { .. } => tree::dir_code(mode),
            Node::File { key, .. } => tree::file_code(mode, key),
            Node::Other => return SyncSym::Failed(DENIED),
        };
        t.insert(path.to_string(), code);
        SyncSym::Done
    }

    fn symlink(&self, t: &mut Tree, path: &str, target: &str) -> SyncSym {
        self.create(t, path, tree::link_code(target))
    }

    /// A rename within one directory, never over an entry.
    fn rename(&self, t: &mut Tree, from: &str, to: &str) -> SyncSym {
        if let Err(e) = self.walk(t, from) {
            return SyncSym::Failed(e);
        }
        if get(t, from) == Node::Absent {
            return SyncSym::Failed(NOT_FOUND);
        }
        if get(t, to) != Node::Absent {
            return SyncSym::Failed(EXISTS);
        }
        if !self.parent_writable(t, from) {
            return SyncSym::Failed(DENIED);
        }
        let moved: Vec<(String, String)> = t
            .iter()
            .filter(|(p, _)| tree::is_under(p, from))
            .map(|(p, c)| (format!("{to}{}", &p[from.len()..]), c.clone()))
            .collect();
        t.retain(|p, _| !tree::is_under(p, from));
        t.extend(moved);
        SyncSym::Done
    }
}

/// A file operation applied to concrete replicas, as the model does it
/// (for figures over an observed trace: [`crate::coverage`]); `None` for a
/// synchronization or a delay.
pub fn apply(req: &SyncReq, a: &mut Tree, b: &mut Tree, enforce: bool) -> Option<SyncSym> {
    let fs = Fs { enforce };
    Some(match req {
        SyncReq::Sync | SyncReq::Delay => return None,
        SyncReq::Read { at, path } => fs.read(pick(*at, a, b), path),
        SyncReq::List { at, path } => fs.list(pick(*at, a, b), path),
        SyncReq::Write { at, path, content } => fs.write(pick_mut(*at, a, b), path, content),
        SyncReq::Mkdir { at, path } => fs.mkdir(pick_mut(*at, a, b), path),
        SyncReq::Remove { at, path } => fs.remove(pick_mut(*at, a, b), path),
        SyncReq::Chmod { at, path, mode } => fs.chmod(pick_mut(*at, a, b), path, *mode),
        SyncReq::Symlink { at, path, target } => fs.symlink(pick_mut(*at, a, b), path, target),
        SyncReq::Rename { at, path, to } => fs.rename(pick_mut(*at, a, b), path, to),
    })
}

/// Whether a recursive removal of `path` goes through: with permissions
/// enforced, its parent must be writable and every non-empty directory
/// beneath it readable, writable and searchable. The tester checks this
/// before removing anything (its removal never stops halfway), and so
/// does the model.
pub fn removal_allowed(t: &Tree, path: &str, enforce: bool) -> bool {
    let fs = Fs { enforce };
    !enforce
        || fs.parent_writable(t, path)
            && t.iter().filter(|(p, _)| tree::is_under(p, path)).all(|(p, c)| match tree::node(c) {
                Node::Dir { mode } => mode & 0o700 == 0o700 || tree::children(t.keys(), p).is_empty(),
                _ => true,
            })
}

/// The set of exit codes as a condition on `code`.
fn one_of(code: &Expr, codes: &[i64]) -> Expr {
    Expr::or(codes.iter().map(|c| code.equals(Expr::int(*c))))
}

/// One synchronization (the profile's set-up run first, when due): the
/// exit code's constraint, and both replicas and the archive after it, as
/// terms over the propagations' booleans.
fn synchronize(
    cx: &mut Cx<'_, SyncModel>,
    rules: &Rules,
    [mut a, mut b, mut g]: [Tree; 3],
    before: &SyncState,
) -> Step<(SyncSym, SyncState)> {
    let exit = &rules.exit;
    let mut written = before.written.clone();
    let missing_root = !a.contains_key("") || !b.contains_key("");
    let unchanged = |code: Expr, a: &Tree, b: &Tree, g: &Tree, setup_due: bool| {
        let (a, b, g) = (terms(a), terms(b), terms(g));
        let resp = SyncSym::Synced { code, a: a.clone(), b: b.clone() };
        (resp, SyncState { a, b, g, setup_due, written: before.written.clone() })
    };
    if before.setup_due
        && let Some(effect) = rules.setup
    {
        // A set-up run needs both roots (rclone: "the base directories on
        // both Path1 and Path2 filesystems must exist"): without one it
        // fails, changing nothing, and is still due.
        if missing_root {
            let code = cx.fresh_int("exit code")?;
            cx.require(one_of(&code, &[exit.abort.as_slice(), exit.fatal.as_slice()].concat()))?;
            return Ok(unchanged(code, &a, &b, &g, true));
        }
        let done = setup(rules, effect, &a, &b);
        // It may abort like any run, having made any part of its merge,
        // and is then still due; blocked, it cannot succeed.
        if done.blocked || !exit.abort.is_empty() && cx.or()? {
            let code = cx.fresh_int("exit code")?;
            cx.require(one_of(&code, &[exit.abort.as_slice(), exit.stopped.as_slice()].concat()))?;
            let (a2, b2) = (partly(cx, &a, &done.a)?, partly(cx, &b, &done.b)?);
            let resp = SyncSym::Synced { code, a: a2.clone(), b: b2.clone() };
            return Ok((resp, SyncState { a: a2, b: b2, g: terms(&g), setup_due: true, written }));
        }
        (a, b, g) = (done.a, done.b, done.g);
        // Its listings are the synchronizer's new record: nothing written
        // before it is a change.
        written = Default::default();
    }
    // A missing root is a path like any other to reconcile (deleted on
    // one side: the deletion propagates; never synchronized: it is
    // created), or a fatal error where nothing happens.
    if missing_root && !exit.fatal.is_empty() && cx.or()? {
        let code = cx.fresh_int("exit code")?;
        cx.require(one_of(&code, &exit.fatal))?;
        return Ok(unchanged(code, &a, &b, &g, false));
    }
    let mut plan = Plan::new(rules, &a, &b, &g);
    if rules.freedoms.no_directories {
        plan.reconcile_files(cx, &a, &b, &g, &written)?;
    } else {
        // Links the synchronizer does not see are kept out of its view.
        let seen = |t: &Tree| -> Tree {
            t.iter().filter(|(_, c)| rules.sees(c)).map(|(p, c)| (p.clone(), c.clone())).collect()
        };
        let (va, vb) = (seen(&a), seen(&b));
        plan.a2 = terms(&va);
        plan.b2 = terms(&vb);
        plan.reconcile(cx, &va, &vb, &g, "")?;
        plan.keep_unseen(&a, Replica::A);
        plan.keep_unseen(&b, Replica::B);
    }
    let code = cx.fresh_int("exit code")?;
    let all = Expr::and(plan.chosen.iter().cloned());
    let finishing = if plan.conflicts == 0 { &exit.synced } else { &exit.conflicts };
    // A finished run (synced, or conflicts left) made every propagation; a
    // run that stopped early (or aborted) may have made any of them, and
    // nothing else. A copy blocked by what is in its way cannot finish.
    let finished = if plan.blocked { Expr::bool(false) } else { Expr::and([one_of(&code, finishing), all]) };
    let stopped = one_of(&code, &[exit.stopped.as_slice(), exit.abort.as_slice()].concat());
    cx.require(Expr::or([finished, stopped]))?;
    let setup_due = !exit.abort.is_empty() && cx.branch(one_of(&code, &exit.abort))?;
    let Plan { a2, b2, g2, .. } = plan;
    let resp = SyncSym::Synced { code, a: a2.clone(), b: b2.clone() };
    Ok((resp, SyncState { a: a2, b: b2, g: g2, setup_due, written: Default::default() }))
}

/// What the set-up run does to the replicas (both roots exist): the
/// replicas and the archive after it, and whether a copy was blocked by
/// what is in its way (a directory at a file's place, a file on its way:
/// then the run cannot succeed).
struct SetUp {
    a: Tree,
    b: Tree,
    g: Tree,
    blocked: bool,
}

fn setup(rules: &Rules, effect: SetupEffect, a: &Tree, b: &Tree) -> SetUp {
    let files_only = rules.freedoms.no_directories;
    let merged = |t: &Tree| -> Vec<(String, String)> {
        t.iter()
            .filter(|(p, c)| {
                !p.is_empty() && rules.sees(c) && !(files_only && matches!(tree::node(c), Node::Dir { .. }))
            })
            .map(|(p, c)| (p.clone(), c.clone()))
            .collect()
    };
    let (mut a2, mut b2, mut blocked) = (a.clone(), b.clone(), false);
    let (first, second) = match effect {
        SetupEffect::None => return SetUp { a: a2, b: b2, g: Tree::new(), blocked },
        SetupEffect::MergePreferA => ((merged(a), Replica::B), (merged(b), Replica::A)),
        SetupEffect::MergePreferB => ((merged(b), Replica::A), (merged(a), Replica::B)),
    };
    // The preferred side's entries everywhere, then the other side's where
    // nothing is.
    for (entries, to, overwrite) in [(first.0, first.1, true), (second.0, second.1, false)] {
        let t = pick_mut(to, &mut a2, &mut b2);
        for (p, c) in entries {
            let old = t.get(&p).cloned().unwrap_or_else(|| ABSENT.to_string());
            let dir = |c: &str| matches!(tree::node(c), Node::Dir { .. });
            let in_the_way = !dir(&c) && dir(&old)
                || ancestors(&p).iter().any(|q| t.get(*q).is_some_and(|c| !matches!(tree::node(c), Node::Dir { .. })));
            if in_the_way {
                blocked = true;
                continue;
            }
            if old != ABSENT && !overwrite {
                continue;
            }
            for q in ancestors(&p) {
                t.entry(q.to_string()).or_insert_with(|| tree::dir_code(0o755));
            }
            t.insert(p, rules.copy(&c, &old));
        }
    }
    if files_only {
        // The merge ends by making the other side a copy of the preferred
        // one (rclone's resync: "sync the Path1 tree to Path2"): its
        // directories the preferred side lacks go (none holds a file by
        // then), and the preferred side's empty ones are not made.
        let (kept, other) = match effect {
            SetupEffect::MergePreferB => (b2.clone(), &mut a2),
            _ => (a2.clone(), &mut b2),
        };
        other.retain(|p, c| p.is_empty() || !matches!(tree::node(c), Node::Dir { .. }) || kept.contains_key(p));
    }
    let g = a2
        .iter()
        .filter(|(_, c)| rules.sees(c) && !(files_only && matches!(tree::node(c), Node::Dir { .. })))
        .map(|(p, c)| (p.clone(), c.clone()))
        .collect();
    SetUp { a: a2, b: b2, g, blocked }
}

/// A replica that may have gone part of the way from `old` to `new`: each
/// path that differs, if the synchronizer made it.
fn partly(cx: &mut Cx<'_, SyncModel>, old: &Tree, new: &Tree) -> Step<Replica_> {
    let mut out = terms(old);
    for p in old.keys().chain(new.keys()) {
        let (o, n) = (str_of(old, p), str_of(new, p));
        if o != n {
            let made = cx.fresh_bool("set up")?;
            out.insert(p.clone(), Expr::ite(made, Expr::str(n), Expr::str(o)));
        }
    }
    Ok(out)
}

/// The ancestors of a path, the root first (the root excluded).
fn ancestors(path: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut p = tree::parent(path);
    while let Some(q) = p {
        if !q.is_empty() {
            out.push(q);
        }
        p = tree::parent(q);
    }
    out.reverse();
    out
}

/// What a synchronization does, being worked out.
struct Plan<'r> {
    rules: &'r Rules,
    a2: Replica_,
    b2: Replica_,
    g2: Replica_,
    /// One boolean per propagation: whether the synchronizer made it.
    chosen: Vec<Expr>,
    conflicts: usize,
    /// A copy was blocked by what is in its way: the run cannot finish.
    blocked: bool,
}

fn subtree<'t>(t: &'t Tree, at: &str) -> BTreeMap<&'t String, &'t String> {
    t.iter().filter(|(p, _)| tree::is_under(p, at)).collect()
}

fn code_of(t: &Tree, path: &str) -> Expr {
    Expr::str(t.get(path).map_or(ABSENT, String::as_str))
}

fn str_of<'t>(t: &'t Tree, path: &str) -> &'t str {
    t.get(path).map_or(ABSENT, String::as_str)
}

impl<'r> Plan<'r> {
    fn new(rules: &'r Rules, a: &Tree, b: &Tree, g: &Tree) -> Self {
        Plan { rules, a2: terms(a), b2: terms(b), g2: terms(g), chosen: Vec::new(), conflicts: 0, blocked: false }
    }

    fn target(&mut self, side: Replica) -> &mut Replica_ {
        match side {
            Replica::A => &mut self.a2,
            Replica::B => &mut self.b2,
        }
    }

    /// A subtree as the synchronizer compares it.
    fn view(&self, t: &Tree, at: &str) -> BTreeMap<String, String> {
        subtree(t, at).into_iter().map(|(p, c)| (p.clone(), self.rules.cmp(c))).collect()
    }

    /// Balasubramaniam and Pierce's reconciliation of the subtrees at `at`.
    fn reconcile(&mut self, cx: &mut Cx<'_, SyncModel>, a: &Tree, b: &Tree, g: &Tree, at: &str) -> Step {
        let (sa, sb, sg) = (self.view(a, at), self.view(b, at), self.view(g, at));
        if sa == sb {
            // Agreement (unchanged, or the same change on both sides).
            self.g2.retain(|p, _| !tree::is_under(p, at));
            self.g2.extend(subtree(a, at).iter().map(|(p, c)| ((*p).clone(), Expr::str((*c).clone()))));
            return Ok(());
        }
        let (da, db) = (sa != sg, sb != sg);
        if !da {
            return self.propagate(cx, b, a, g, at, Replica::A);
        }
        if !db {
            return self.propagate(cx, a, b, g, at, Replica::B);
        }
        match (get(a, at), get(b, at)) {
            (Node::Dir { mode: ma }, Node::Dir { mode: mb }) => {
                if ma != mb && !self.rules.freedoms.no_modes {
                    let (ca, cb, cg) = (code_of(a, at), code_of(b, at), code_of(g, at));
                    if ca == cg {
                        self.propagate_node(cx, at, Replica::A, cb, ca, cg)?;
                    } else if cb == cg {
                        self.propagate_node(cx, at, Replica::B, ca, cb, cg)?;
                    } else {
                        self.conflicts += 1;
                    }
                } else {
                    self.g2.insert(at.to_string(), code_of(a, at));
                }
                // Children in the archive too: one deleted on both sides is
                // an agreement the archive must learn (else it would count
                // as a change later; Unison learns it).
                let names = tree::children(a.keys().chain(b.keys()).chain(g.keys()), at);
                for name in names {
                    self.reconcile(cx, a, b, g, &tree::join(at, &name))?;
                }
                Ok(())
            }
            // Deleted on one side, changed on the other: the change wins,
            // for a synchronizer that says so.
            (Node::Absent, _) if self.rules.freedoms.change_beats_delete => self.propagate(cx, b, a, g, at, Replica::A),
            (_, Node::Absent) if self.rules.freedoms.change_beats_delete => self.propagate(cx, a, b, g, at, Replica::B),
            // Changed on both sides, differently: left as it is.
            _ => {
                self.conflicts += 1;
                Ok(())
            }
        }
    }

    /// The subtree at `at` of `from` replaces the one of `to` (replica
    /// `side`): each path that differs, if the synchronizer chooses to. A
    /// run that finishes makes every one of them; one that stops early
    /// (exit 2) may have made any (Unison sets a directory's permission
    /// bits before it fills the directory, and can fail halfway), and
    /// nothing it should not have.
    fn propagate(
        &mut self,
        cx: &mut Cx<'_, SyncModel>,
        from: &Tree,
        to: &Tree,
        g: &Tree,
        at: &str,
        side: Replica,
    ) -> Step {
        let mut paths: Vec<&String> = subtree(from, at).into_keys().chain(subtree(to, at).into_keys()).collect();
        paths.sort();
        paths.dedup();
        for p in subtree(g, at).into_keys() {
            if !from.contains_key(p) && !to.contains_key(p) {
                self.g2.remove(p); // absent on both sides: agreed
            }
        }
        for p in paths {
            let (old_s, new_s) = (str_of(to, p), self.rules.copy(str_of(from, p), str_of(to, p)));
            let (new, old) = (Expr::str(new_s.clone()), Expr::str(old_s));
            if new_s == old_s {
                self.g2.insert(p.clone(), new);
                continue;
            }
            let made = cx.fresh_bool("propagated")?;
            self.chosen.push(made.clone());
            self.target(side).insert(p.clone(), Expr::ite(made.clone(), new.clone(), old));
            self.g2.insert(p.clone(), Expr::ite(made, new, code_of(g, p)));
        }
        Ok(())
    }

    /// A directory's own attributes (its permission bits) propagate to
    /// replica `side`, if the synchronizer chooses to.
    fn propagate_node(
        &mut self,
        cx: &mut Cx<'_, SyncModel>,
        at: &str,
        side: Replica,
        new: Expr,
        old: Expr,
        agreed: Expr,
    ) -> Step {
        let made = cx.fresh_bool("propagated")?;
        self.chosen.push(made.clone());
        self.target(side).insert(at.to_string(), Expr::ite(made.clone(), new.clone(), old));
        self.g2.insert(at.to_string(), Expr::ite(made, new, agreed));
        Ok(())
    }

    /// Entries the synchronizer does not see stay where they were, unless
    /// what held them went (`no_symlinks`) or something replaced them.
    fn keep_unseen(&mut self, t: &Tree, side: Replica) {
        for (p, c) in t.iter().filter(|(_, c)| !self.rules.sees(c)) {
            let target = self.target(side);
            if target.contains_key(p) {
                continue;
            }
            let Some(parent) = tree::parent(p).and_then(|q| target.get(q)).cloned() else { continue };
            target.insert(
                p.clone(),
                Expr::ite(parent.equals(Expr::str(ABSENT)), Expr::str(ABSENT), Expr::str(c.clone())),
            );
        }
    }

    /// Reconciliation of files and links only (`no_directories`): each
    /// path on its own; a directory is made to hold a copied file and never
    /// removed.
    fn reconcile_files(
        &mut self,
        cx: &mut Cx<'_, SyncModel>,
        a: &Tree,
        b: &Tree,
        g: &Tree,
        written: &[BTreeSet<String>; 2],
    ) -> Step {
        let rules = self.rules;
        let entry = |t: &Tree, p: &str| -> String {
            let c = str_of(t, p);
            match tree::node(c) {
                Node::File { .. } => c.to_string(),
                Node::Link { .. } if rules.sees(c) => c.to_string(),
                _ => ABSENT.to_string(),
            }
        };
        let mut paths: BTreeSet<&String> = BTreeSet::new();
        for t in [a, b, g] {
            paths.extend(t.keys().filter(|p| entry(t, p) != ABSENT));
        }
        let timestamps = rules.freedoms.timestamps;
        for p in paths {
            let (ca, cb, cg) = (entry(a, p), entry(b, p), entry(g, p));
            let changed = |c: &str, w: &BTreeSet<String>| {
                rules.cmp(c) != rules.cmp(&cg) || timestamps && c != ABSENT && w.contains(p.as_str())
            };
            let (da, db) = (changed(&ca, &written[0]), changed(&cb, &written[1]));
            if !da && !db {
                continue;
            }
            if da && db {
                let agree = ca == ABSENT && cb == ABSENT || !timestamps && rules.cmp(&ca) == rules.cmp(&cb);
                if agree {
                    self.set_archive(p, &ca);
                } else if (ca == ABSENT || cb == ABSENT) && rules.freedoms.change_beats_delete {
                    let (from, side) = if ca == ABSENT { (&cb, Replica::A) } else { (&ca, Replica::B) };
                    self.copy_file(cx, p, from, side, a, b, g)?;
                } else if let Some(patterns) = &rules.freedoms.conflict_rename {
                    self.rename_conflict(cx, p, [&ca, &cb], patterns, a, b, g)?;
                } else {
                    self.conflicts += 1;
                }
                continue;
            }
            let (from, side) = if da { (&ca, Replica::B) } else { (&cb, Replica::A) };
            self.copy_file(cx, p, from, side, a, b, g)?;
        }
        Ok(())
    }

    fn set_archive(&mut self, p: &str, code: &str) {
        if code == ABSENT {
            self.g2.remove(p);
        } else {
            self.g2.insert(p.to_string(), Expr::str(code));
        }
    }

    /// One file (or link, or its absence) copied to replica `side`, if the
    /// synchronizer chooses to; the directories it needs are made (mode
    /// 755). A directory at its place, or a file or link on its way,
    /// blocks it: the run cannot finish.
    #[allow(clippy::too_many_arguments)]
    fn copy_file(
        &mut self,
        cx: &mut Cx<'_, SyncModel>,
        p: &str,
        new: &str,
        side: Replica,
        a: &Tree,
        b: &Tree,
        g: &Tree,
    ) -> Step {
        let to = pick(side, a, b);
        let old = str_of(to, p);
        if new != ABSENT {
            let in_the_way = matches!(tree::node(old), Node::Dir { .. })
                || ancestors(p).iter().any(|q| !matches!(get(to, q), Node::Dir { .. } | Node::Absent));
            if in_the_way {
                self.blocked = true;
                return Ok(());
            }
        } else if matches!(tree::node(old), Node::Dir { .. }) || !self.rules.sees(old) {
            // Nothing of the synchronizer's to delete there.
            self.set_archive(p, ABSENT);
            return Ok(());
        }
        let copied = if new == ABSENT { ABSENT.to_string() } else { self.rules.copy(new, old) };
        let made = cx.fresh_bool("propagated")?;
        self.chosen.push(made.clone());
        let target = self.target(side);
        if new != ABSENT {
            for q in ancestors(p) {
                if get(to, q) == Node::Absent {
                    let now = target.get(q).cloned().unwrap_or_else(|| Expr::str(ABSENT));
                    target.insert(q.to_string(), Expr::ite(made.clone(), Expr::str(tree::dir_code(0o755)), now));
                }
            }
        }
        target.insert(p.to_string(), Expr::ite(made.clone(), Expr::str(copied), Expr::str(old)));
        self.g2.insert(p.to_string(), Expr::ite(made, Expr::str(new), code_of(g, p)));
        Ok(())
    }

    /// A conflict resolved by renaming (`conflict_rename`): in both
    /// replicas the entry goes, A's version appears under the first
    /// pattern and B's under the second (each side's own renamed, the other
    /// side's copied), all or nothing.
    #[allow(clippy::too_many_arguments)]
    fn rename_conflict(
        &mut self,
        cx: &mut Cx<'_, SyncModel>,
        p: &str,
        versions: [&str; 2],
        patterns: &[String; 2],
        a: &Tree,
        b: &Tree,
        g: &Tree,
    ) -> Step {
        let name = p.rsplit('/').next().unwrap_or(p);
        let parent = tree::parent(p).unwrap_or("");
        let made = cx.fresh_bool("renamed")?;
        self.chosen.push(made.clone());
        let ite = |new: &str, old: &str| Expr::ite(made.clone(), Expr::str(new), Expr::str(old));
        for (side, t) in [(Replica::A, a), (Replica::B, b)] {
            let e = ite(ABSENT, str_of(t, p));
            self.target(side).insert(p.to_string(), e);
        }
        self.g2.insert(p.to_string(), Expr::ite(made.clone(), Expr::str(ABSENT), code_of(g, p)));
        for (i, version) in versions.into_iter().enumerate() {
            if version == ABSENT {
                continue;
            }
            let q = tree::join(parent, &patterns[i].replace("{name}", name));
            for (j, (side, t)) in [(Replica::A, a), (Replica::B, b)].into_iter().enumerate() {
                let old = str_of(t, &q);
                // Its own side's version is renamed, the other's a copy.
                let new = if i == j { version.to_string() } else { self.rules.copy(version, old) };
                let e = ite(&new, old);
                self.target(side).insert(q.clone(), e);
            }
            self.g2.insert(q.clone(), Expr::ite(made.clone(), Expr::str(version), code_of(g, &q)));
        }
        Ok(())
    }
}
