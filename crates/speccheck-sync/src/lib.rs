//! # speccheck-sync
//!
//! File synchronizers for testing by dualization (Yishuai Li, *Testing by
//! Dualization*, §6.2, the thesis's second case study): the tester owns two
//! replicas, changes them through the file system, runs the synchronizer
//! as a foreground command, and checks both replicas and its exit code
//! against a model of reconciliation. The engine (validator, solver,
//! executor, shrinking) is [`speccheck_dual`]'s; this crate is one
//! [`Protocol`] and the local system it drives.
//!
//! | thesis | module |
//! |---|---|
//! | §6.2.1 the file system and the synchronizer's QA model, `reconcile(a, b, g)` | [`model`] |
//! | §6.2.1 replicas as trees of files and directories | [`tree`] |
//! | §6.2 the synchronizer run in the foreground, replicas observed | [`session`] |
//! | §5.2 generation heuristics | `heuristics.rs` ([`Sync`]'s `propose`) |
//! | §6.2.2 testing Unison; (ours) other synchronizers | [`profile`]: how to run one, which freedoms it takes |
//! | (ours) what a run exercised | [`coverage`] |
//!
//! Requests are file-system operations on one replica (read, write,
//! mkdir, list, recursive remove, chmod, symbolic links, renames within a
//! directory — case-only ones too), a synchronization, and a delay
//! (file-system timestamps have a granularity: a synchronizer that trusts
//! them — Unison's fast check — may miss a change made within it). The
//! system under test runs locally ([`session`], through
//! [`speccheck_dual::exec::local`]): each execution gets fresh replicas and
//! a fresh archive in a temporary directory, removed afterwards.
//!
//! ```no_run
//! use speccheck_sync::{Profile, session::Synchronizer};
//!
//! let unison = Synchronizer::from_profile(Profile::unison());
//! let (tester, coverage) = unison.tester().unwrap();
//! let report = tester.configure(|c| c.cases = 100).run();
//! println!("{report}\n  exercised: {}", coverage.get());
//! ```
#![warn(missing_docs)]

pub mod coverage;
mod heuristics;
pub mod model;
pub mod profile;
pub mod session;
pub mod tree;

use std::fmt;
use std::sync::Arc;

use rand::rngs::SmallRng;
use serde_json::{Value as Json, json};
use speccheck_dual::harness::jexp::JExp;
use speccheck_dual::protocol::{Answering, Decoded, Protocol, View, Wire};

pub use coverage::Coverage;
pub use model::{Rules, SyncModel, SyncState, SyncSym};
pub use profile::{Profile, ProfileError};
pub use tree::Tree;

/// Which replica an operation works on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Replica {
    /// The first root given to the synchronizer.
    A,
    /// The second.
    B,
}

impl Replica {
    fn name(self) -> &'static str {
        match self {
            Replica::A => "a",
            Replica::B => "b",
        }
    }

    fn parse(s: &str) -> Option<Replica> {
        match s {
            "a" => Some(Replica::A),
            "b" => Some(Replica::B),
            _ => None,
        }
    }
}

/// What a write puts in a file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Content {
    /// These bytes.
    Text(String),
    /// `n` bytes of a fixed pattern (a large file).
    Pattern(usize),
}

/// The largest [`Content::Pattern`] a request may ask for.
pub const MAX_PATTERN: usize = 1 << 20;

impl Content {
    /// The bytes written.
    pub fn bytes(&self) -> Vec<u8> {
        match self {
            Content::Text(s) => s.as_bytes().to_vec(),
            Content::Pattern(n) => (0..*n).map(|i| (i * 31 % 251) as u8).collect(),
        }
    }

    /// Its key in node codes ([`tree::content_key`]).
    pub fn key(&self) -> String {
        tree::content_key(&self.bytes())
    }
}

/// A request: an operation on a replica, or a synchronization.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SyncReq {
    /// Read a file.
    Read {
        /// Where.
        at: Replica,
        /// The path (relative, `/`-separated).
        path: String,
    },
    /// Create or overwrite a file (new files get mode 644).
    Write {
        /// Where.
        at: Replica,
        /// The path.
        path: String,
        /// What.
        content: Content,
    },
    /// Create a directory (mode 755); `""` recreates a removed root.
    Mkdir {
        /// Where.
        at: Replica,
        /// The path.
        path: String,
    },
    /// List a directory.
    List {
        /// Where.
        at: Replica,
        /// The path (`""`: the root).
        path: String,
    },
    /// Remove a file or a directory with everything in it (`""`: the
    /// whole replica).
    Remove {
        /// Where.
        at: Replica,
        /// The path.
        path: String,
    },
    /// Set the permission bits.
    Chmod {
        /// Where.
        at: Replica,
        /// The path.
        path: String,
        /// The bits (`0o777` at most).
        mode: u32,
    },
    /// Make a symbolic link (never followed by the tester; its target is
    /// a relative path the tester never creates, so it dangles).
    Symlink {
        /// Where.
        at: Replica,
        /// The link's path.
        path: String,
        /// What it points to (relative, inside the replica).
        target: String,
    },
    /// Rename a file, link or directory within its directory (a case-only
    /// rename when the names differ only in case). The new name must be
    /// free: the tester never renames over an entry.
    Rename {
        /// Where.
        at: Replica,
        /// The old path.
        path: String,
        /// The new path: a sibling of the old one.
        to: String,
    },
    /// Run the synchronizer.
    Sync,
    /// Let the file system's timestamp granularity pass.
    Delay,
}

/// What a synchronization did, as observed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Synced {
    /// The exit code (128 + n when killed by signal n).
    pub code: i64,
    /// Replica A after it (`None`: its root does not exist).
    pub a: Option<Tree>,
    /// Replica B after it.
    pub b: Option<Tree>,
    /// What appeared beside the replicas: written outside them.
    pub outside: Vec<String>,
}

/// A response, as observed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyncResp {
    /// The operation succeeded.
    Done,
    /// A file's contents (their key, [`tree::content_key`]).
    Contents(String),
    /// A directory's entries, sorted.
    Names(Vec<String>),
    /// The operation failed ([`model::error`]).
    Failed(String),
    /// A synchronization.
    Synced(Synced),
}

impl fmt::Display for SyncResp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&response_to_ir(self).to_string())
    }
}

/// The file-synchronizer protocol.
#[derive(Clone, Debug)]
pub struct Sync {
    model: Arc<SyncModel>,
}

impl Sync {
    /// The protocol, for a tester whose own operations are (`enforce`) or
    /// are not (the superuser) held to permission bits.
    pub fn new(enforce: bool) -> Self {
        Sync { model: Arc::new(SyncModel::new(enforce)) }
    }

    /// The protocol for this process: whether permission bits bind it is
    /// found out by trying ([`session::permissions_enforced`]).
    pub fn detect() -> Self {
        Sync::new(session::permissions_enforced())
    }

    /// The protocol for a synchronizer with this profile (its freedoms
    /// and exit codes in the model), for this process.
    pub fn for_profile(profile: &Profile) -> Self {
        Sync { model: Arc::new(SyncModel::of(profile, session::permissions_enforced())) }
    }
}

impl Protocol for Sync {
    type Model = SyncModel;

    fn name(&self) -> &str {
        "sync"
    }

    fn model(&self) -> Arc<SyncModel> {
        self.model.clone()
    }

    fn encode_request(&self, req: &SyncReq, _: &Wire) -> Vec<u8> {
        let mut line = request_to_ir(req).to_string();
        line.push('\n');
        line.into_bytes()
    }

    fn decode_response(&self, bytes: &[u8], _: &Answering<'_, SyncReq>) -> Decoded<SyncResp> {
        let Some(end) = bytes.iter().position(|&b| b == b'\n') else { return Decoded::Incomplete };
        match serde_json::from_slice::<Json>(&bytes[..end]).ok().and_then(|ir| response_from_ir(&ir)) {
            Some(resp) => Decoded::Message(resp, end + 1),
            None => Decoded::Malformed("not a response of the synchronizer harness".into()),
        }
    }

    fn request_to_ir(&self, req: &SyncReq) -> Json {
        request_to_ir(req)
    }

    fn request_from_ir(&self, ir: &Json) -> Option<SyncReq> {
        request_from_ir(ir)
    }

    fn response_to_ir(&self, resp: &SyncResp) -> Json {
        response_to_ir(resp)
    }

    fn propose(&self, view: &View<'_, Self>, rng: &mut SmallRng) -> JExp {
        heuristics::propose(view, rng)
    }
}

/// A path the tester may name: `""` or names of letters, digits, `.`,
/// `-`, `_` joined by `/`, never `.` or `..` (the tester never reaches
/// outside its replicas).
pub fn valid_path(p: &str) -> bool {
    p.is_empty()
        || p.split('/').all(|n| {
            !n.is_empty()
                && n != "."
                && n != ".."
                && n.len() <= 64
                && n.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
        })
}

/// A request in the intermediate representation (also the wire format of
/// the local session).
pub fn request_to_ir(req: &SyncReq) -> Json {
    let op = |name: &str, at: &Replica, path: &str| json!({"op": name, "at": at.name(), "path": path});
    match req {
        SyncReq::Read { at, path } => op("read", at, path),
        SyncReq::List { at, path } => op("list", at, path),
        SyncReq::Mkdir { at, path } => op("mkdir", at, path),
        SyncReq::Remove { at, path } => op("remove", at, path),
        SyncReq::Write { at, path, content } => {
            let mut o = op("write", at, path);
            o["content"] = match content {
                Content::Text(s) => json!(s),
                Content::Pattern(n) => json!({"pattern": n}),
            };
            o
        }
        SyncReq::Chmod { at, path, mode } => {
            let mut o = op("chmod", at, path);
            o["mode"] = json!(format!("{mode:03o}"));
            o
        }
        SyncReq::Symlink { at, path, target } => {
            let mut o = op("symlink", at, path);
            o["target"] = json!(target);
            o
        }
        SyncReq::Rename { at, path, to } => {
            let mut o = op("rename", at, path);
            o["to"] = json!(to);
            o
        }
        SyncReq::Sync => json!({"op": "sync"}),
        SyncReq::Delay => json!({"op": "delay"}),
    }
}

/// The request an IR value stands for.
pub fn request_from_ir(ir: &Json) -> Option<SyncReq> {
    let op = ir.get("op")?.as_str()?;
    match op {
        "sync" => return Some(SyncReq::Sync),
        "delay" => return Some(SyncReq::Delay),
        _ => {}
    }
    let at = Replica::parse(ir.get("at")?.as_str()?)?;
    let path = ir.get("path")?.as_str().filter(|p| valid_path(p))?.to_string();
    Some(match op {
        "read" => SyncReq::Read { at, path },
        "list" => SyncReq::List { at, path },
        "mkdir" => SyncReq::Mkdir { at, path },
        "remove" => SyncReq::Remove { at, path },
        // A file at the root's place is not something a replica can be.
        "write" if !path.is_empty() => {
            let content = match ir.get("content")? {
                Json::String(s) => Content::Text(s.clone()),
                other => {
                    let n = other.get("pattern")?.as_u64()?;
                    Content::Pattern(usize::try_from(n).ok().filter(|n| *n <= MAX_PATTERN)?)
                }
            };
            SyncReq::Write { at, path, content }
        }
        "symlink" if !path.is_empty() => {
            let target = ir.get("target")?.as_str().filter(|t| !t.is_empty() && valid_path(t))?.to_string();
            SyncReq::Symlink { at, path, target }
        }
        // Within one directory, never the root, never onto itself.
        "rename" if !path.is_empty() => {
            let to = ir.get("to")?.as_str().filter(|t| valid_path(t) && !t.is_empty() && *t != path)?.to_string();
            if tree::parent(&to) != tree::parent(&path) {
                return None;
            }
            SyncReq::Rename { at, path, to }
        }
        "chmod" => {
            let mode = u32::from_str_radix(ir.get("mode")?.as_str()?, 8).ok().filter(|m| *m <= 0o777)?;
            SyncReq::Chmod { at, path, mode }
        }
        _ => return None,
    })
}

/// A response in the intermediate representation (also the wire format).
pub fn response_to_ir(resp: &SyncResp) -> Json {
    match resp {
        SyncResp::Done => json!({"ok": true}),
        SyncResp::Contents(k) => json!({"contents": k}),
        SyncResp::Names(n) => json!({"names": n}),
        SyncResp::Failed(e) => json!({"error": e}),
        SyncResp::Synced(s) => {
            let mut o = json!({"exit": s.code, "a": s.a, "b": s.b});
            if !s.outside.is_empty() {
                o["outside"] = json!(s.outside);
            }
            o
        }
    }
}

/// The response an IR value stands for.
pub fn response_from_ir(ir: &Json) -> Option<SyncResp> {
    if ir.get("ok").is_some() {
        return Some(SyncResp::Done);
    }
    if let Some(k) = ir.get("contents") {
        return Some(SyncResp::Contents(k.as_str()?.to_string()));
    }
    if let Some(n) = ir.get("names") {
        return Some(SyncResp::Names(serde_json::from_value(n.clone()).ok()?));
    }
    if let Some(e) = ir.get("error") {
        return Some(SyncResp::Failed(e.as_str()?.to_string()));
    }
    let tree = |v: &Json| -> Option<Option<Tree>> { serde_json::from_value(v.clone()).ok() };
    Some(SyncResp::Synced(Synced {
        code: ir.get("exit")?.as_i64()?,
        a: tree(ir.get("a")?)?,
        b: tree(ir.get("b")?)?,
        outside: match ir.get("outside") {
            None => Vec::new(),
            Some(v) => serde_json::from_value(v.clone()).ok()?,
        },
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_responses_round_trip_through_the_ir() {
        let reqs = [
            SyncReq::Write { at: Replica::A, path: "x/y".into(), content: Content::Text("hi".into()) },
            SyncReq::Write { at: Replica::B, path: "x".into(), content: Content::Pattern(70_000) },
            SyncReq::Chmod { at: Replica::B, path: "".into(), mode: 0o555 },
            SyncReq::Remove { at: Replica::A, path: "".into() },
            SyncReq::Symlink { at: Replica::A, path: "x/l".into(), target: "nowhere".into() },
            SyncReq::Rename { at: Replica::B, path: "x/y".into(), to: "x/Y".into() },
            SyncReq::Sync,
            SyncReq::Delay,
        ];
        for r in reqs {
            assert_eq!(request_from_ir(&request_to_ir(&r)), Some(r));
        }
        let synced = SyncResp::Synced(Synced {
            code: 1,
            a: Some(Tree::from([("".into(), "d755".into())])),
            b: None,
            outside: vec!["escaped".into()],
        });
        for r in [SyncResp::Done, SyncResp::Names(vec!["x".into()]), SyncResp::Failed("denied".into()), synced] {
            assert_eq!(response_from_ir(&response_to_ir(&r)), Some(r));
        }
    }

    #[test]
    fn paths_never_leave_the_replica() {
        for bad in ["..", "x/..", "../x", "/x", "x//y", "x/", ".", "a b"] {
            assert!(!valid_path(bad), "{bad}");
            let ir = json!({"op": "write", "at": "a", "path": bad, "content": "x"});
            assert_eq!(request_from_ir(&ir), None, "{bad}");
        }
        assert!(valid_path("") && valid_path("x/y.txt"));
        let root_file = json!({"op": "write", "at": "a", "path": "", "content": "x"});
        assert_eq!(request_from_ir(&root_file), None);
        // A rename stays in its directory; a link points inside the replica.
        for to in ["y", "x/z/y", "x/y", "../y"] {
            let ir = json!({"op": "rename", "at": "a", "path": "x/y", "to": to});
            assert_eq!(request_from_ir(&ir), None, "{to}");
        }
        for target in ["../../etc", "/etc", ""] {
            let ir = json!({"op": "symlink", "at": "a", "path": "l", "target": target});
            assert_eq!(request_from_ir(&ir), None, "{target}");
        }
    }
}
