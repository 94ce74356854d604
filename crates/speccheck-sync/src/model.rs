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

use std::collections::BTreeMap;

use speccheck_dual::model::{Cx, Model, Step, Symbolic};
use speccheck_dual::sym::{Expr, Syms, Value};

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

/// The model: the file system and the synchronizer.
#[derive(Clone, Copy, Debug)]
pub struct SyncModel {
    /// Whether permission bits are enforced on the tester's own
    /// operations (false for the superuser, who may read, write and
    /// remove regardless).
    pub enforce: bool,
}

impl Model for SyncModel {
    type State = SyncState;
    type Req = SyncReq;
    type Resp = SyncSym;

    fn init(&self) -> SyncState {
        let root = || BTreeMap::from([(String::new(), Expr::str(tree::dir_code(0o755)))]);
        SyncState { a: root(), b: root(), g: BTreeMap::new() }
    }

    fn serve(&self, s: &mut SyncState, cx: &mut Cx<'_, Self>) -> Step {
        let (conn, req) = cx.recv()?;
        let mut a = settle(&s.a, cx)?;
        let mut b = settle(&s.b, cx)?;
        let g = settle(&s.g, cx)?;
        let fs = Fs { enforce: self.enforce };
        let resp = match req {
            SyncReq::Sync => {
                let (resp, next) = synchronize(cx, a, b, g)?;
                *s = next;
                return cx.send(conn, resp);
            }
            SyncReq::Delay => SyncSym::Done,
            SyncReq::Read { at, path } => fs.read(pick(at, &a, &b), &path),
            SyncReq::List { at, path } => fs.list(pick(at, &a, &b), &path),
            SyncReq::Write { at, path, content } => fs.write(pick_mut(at, &mut a, &mut b), &path, &content),
            SyncReq::Mkdir { at, path } => fs.mkdir(pick_mut(at, &mut a, &mut b), &path),
            SyncReq::Remove { at, path } => fs.remove(pick_mut(at, &mut a, &mut b), &path),
            SyncReq::Chmod { at, path, mode } => fs.chmod(pick_mut(at, &mut a, &mut b), &path, mode),
        };
        *s = SyncState { a: terms(&a), b: terms(&b), g: terms(&g) };
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
            Node::Absent => SyncSym::Failed(NOT_FOUND),
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
            Node::Absent => SyncSym::Failed(NOT_FOUND),
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
        if let Err(e) = self.walk(t, path) {
            return SyncSym::Failed(e);
        }
        if get(t, path) != Node::Absent {
            return SyncSym::Failed(EXISTS);
        }
        if !self.parent_writable(t, path) {
            return SyncSym::Failed(DENIED);
        }
        t.insert(path.to_string(), tree::dir_code(0o755));
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
            Node::Absent => return SyncSym::Failed(NOT_FOUND),
            Node::Dir { .. } => tree::dir_code(mode),
            Node::File { key, .. } => tree::file_code(mode, key),
            Node::Other => return SyncSym::Failed(DENIED),
        };
        t.insert(path.to_string(), code);
        SyncSym::Done
    }
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

/// One synchronization: the exit code's constraint and both replicas and
/// the archive after it, as terms over the propagations' booleans.
fn synchronize(cx: &mut Cx<'_, SyncModel>, a: Tree, b: Tree, g: Tree) -> Step<(SyncSym, SyncState)> {
    // A missing root is a path like any other to reconcile (deleted on
    // one side: the deletion propagates; never synchronized: it is
    // created), or a fatal error where nothing happens (exit 3).
    if (!a.contains_key("") || !b.contains_key("")) && cx.or()? {
        let (a, b, g) = (terms(&a), terms(&b), terms(&g));
        let resp = SyncSym::Synced { code: Expr::int(3), a: a.clone(), b: b.clone() };
        return Ok((resp, SyncState { a, b, g }));
    }
    let mut plan = Plan { a2: terms(&a), b2: terms(&b), g2: terms(&g), chosen: Vec::new(), conflicts: 0 };
    plan.reconcile(cx, &a, &b, &g, "")?;
    let code = cx.fresh_int("exit code")?;
    let all = Expr::and(plan.chosen.iter().cloned());
    let finished = if plan.conflicts == 0 { 0 } else { 1 };
    // Exit 0 (or 1, conflicts left) means every propagation was made; a
    // run that stopped early (2) may have made any of them, and nothing
    // else.
    cx.require(Expr::or([Expr::and([code.equals(Expr::int(finished)), all]), code.equals(Expr::int(2))]))?;
    let Plan { a2, b2, g2, .. } = plan;
    let resp = SyncSym::Synced { code, a: a2.clone(), b: b2.clone() };
    Ok((resp, SyncState { a: a2, b: b2, g: g2 }))
}

/// What a synchronization does, being worked out.
struct Plan {
    a2: Replica_,
    b2: Replica_,
    g2: Replica_,
    /// One boolean per propagation: whether the synchronizer made it.
    chosen: Vec<Expr>,
    conflicts: usize,
}

fn subtree<'t>(t: &'t Tree, at: &str) -> BTreeMap<&'t String, &'t String> {
    t.iter().filter(|(p, _)| tree::is_under(p, at)).collect()
}

fn code_of(t: &Tree, path: &str) -> Expr {
    Expr::str(t.get(path).map_or(ABSENT, String::as_str))
}

impl Plan {
    /// Balasubramaniam and Pierce's reconciliation of the subtrees at `at`.
    fn reconcile(&mut self, cx: &mut Cx<'_, SyncModel>, a: &Tree, b: &Tree, g: &Tree, at: &str) -> Step {
        let (sa, sb, sg) = (subtree(a, at), subtree(b, at), subtree(g, at));
        if sa == sb {
            // Agreement (unchanged, or the same change on both sides).
            self.g2.retain(|p, _| !tree::is_under(p, at));
            self.g2.extend(sa.iter().map(|(p, c)| ((*p).clone(), Expr::str((*c).clone()))));
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
                if ma != mb {
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
            let (new, old) = (code_of(from, p), code_of(to, p));
            if new == old {
                self.g2.insert(p.clone(), new);
                continue;
            }
            let made = cx.fresh_bool("propagated")?;
            self.chosen.push(made.clone());
            let target = match side {
                Replica::A => &mut self.a2,
                Replica::B => &mut self.b2,
            };
            target.insert(p.clone(), Expr::ite(made.clone(), new.clone(), old));
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
        let target = match side {
            Replica::A => &mut self.a2,
            Replica::B => &mut self.b2,
        };
        target.insert(at.to_string(), Expr::ite(made.clone(), new.clone(), old));
        self.g2.insert(at.to_string(), Expr::ite(made, new, agreed));
        Ok(())
    }
}
