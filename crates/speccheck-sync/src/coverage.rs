//! What a run exercised: the changes its synchronizations were given
//! (conflicts, deletions, directory changes, mode changes, symbolic
//! links), the renames made before one, and the exit codes seen — so a
//! pass says what it covered.
//!
//! Figures come from an execution's trace alone: the tester's successful
//! operations are applied to concrete replicas (the model's file system,
//! [`crate::model::apply`]); each synchronization's observed replicas
//! replace them. A change is judged against the last state both replicas
//! showed for that path (the synchronizer's archive, as far as the tester
//! can see it): a path changed on both sides, differently, is a conflict;
//! one gone from a side where it was agreed is a deletion; one whose
//! directory appears, goes or changes bits is a directory change; one
//! whose bits alone changed is a mode change.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::AddAssign;

use serde_json::{Value as Json, json};
use speccheck_dual::Execution;

use crate::model::apply;
use crate::tree::{self, ABSENT, Node, Tree};
use crate::{SyncReq, SyncResp, request_from_ir, response_from_ir};

/// Figures over one or more executions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Executions.
    pub executions: u64,
    /// Synchronizations, by exit code.
    pub exit_codes: BTreeMap<i64, u64>,
    /// Paths changed on both sides, differently, when a synchronization ran.
    pub conflicts: u64,
    /// Paths deleted on a side where they were agreed.
    pub deletions: u64,
    /// Directories made, removed or with new bits.
    pub directory_changes: u64,
    /// Files or directories whose permission bits alone changed.
    pub mode_changes: u64,
    /// Symbolic links made or removed.
    pub symlink_changes: u64,
    /// Renames made before a synchronization.
    pub renames: u64,
    /// Of those, renames that changed only the case of a name.
    pub case_renames: u64,
}

impl Coverage {
    /// The figures of one execution.
    pub fn of(execution: &Execution) -> Self {
        let mut c = Coverage { executions: 1, ..Coverage::default() };
        let (mut a, mut b, mut g) = (root(), root(), Tree::new());
        let (mut renames, mut case_renames) = (0, 0);
        let mut pending: Option<SyncReq> = None;
        for entry in execution.trace.iter().filter(|e| !e.closed) {
            if entry.sent {
                pending = request_from_ir(&entry.ir);
                continue;
            }
            let (Some(req), Some(resp)) = (pending.take(), response_from_ir(&entry.ir)) else { continue };
            match (&req, resp) {
                (SyncReq::Sync, SyncResp::Synced(s)) => {
                    c.count_changes(&a, &b, &g);
                    c.renames += std::mem::take(&mut renames);
                    c.case_renames += std::mem::take(&mut case_renames);
                    *c.exit_codes.entry(s.code).or_default() += 1;
                    a = s.a.unwrap_or_default();
                    b = s.b.unwrap_or_default();
                    g = agreed(&a, &b, &g);
                }
                (_, SyncResp::Done) => {
                    if let SyncReq::Rename { path, to, .. } = &req {
                        renames += 1;
                        case_renames += u64::from(path.to_lowercase() == to.to_lowercase());
                    }
                    // Applied as done: the tester saw it succeed.
                    let _ = apply(&req, &mut a, &mut b, false);
                }
                _ => {}
            }
        }
        c
    }

    /// Synchronizations run.
    pub fn synchronizations(&self) -> u64 {
        self.exit_codes.values().sum()
    }

    fn count_changes(&mut self, a: &Tree, b: &Tree, g: &Tree) {
        let mut paths: Vec<&String> = a.keys().chain(b.keys()).chain(g.keys()).filter(|p| !p.is_empty()).collect();
        paths.sort();
        paths.dedup();
        let code = |t: &Tree, p: &str| t.get(p).map_or(ABSENT.to_string(), String::clone);
        for p in paths {
            let (ca, cb, cg) = (code(a, p), code(b, p), code(g, p));
            let (da, db) = (ca != cg, cb != cg);
            self.conflicts += u64::from(da && db && ca != cb);
            for (changed, c) in [(da, &ca), (db, &cb)] {
                if !changed {
                    continue;
                }
                let (now, then) = (tree::node(c), tree::node(&cg));
                self.deletions += u64::from(now == Node::Absent && then != Node::Absent);
                let dir = |n: &Node<'_>| matches!(n, Node::Dir { .. });
                let link = |n: &Node<'_>| matches!(n, Node::Link { .. });
                self.directory_changes += u64::from(dir(&now) || dir(&then));
                self.symlink_changes += u64::from(link(&now) || link(&then));
                self.mode_changes += u64::from(match (now, then) {
                    (Node::File { key, .. }, Node::File { key: old, .. }) => key == old,
                    (Node::Dir { .. }, Node::Dir { .. }) => true,
                    _ => false,
                });
            }
        }
    }

    /// The kinds of change exercised, by name, with their counts (renames
    /// and case-only renames included).
    pub fn kinds(&self) -> [(&'static str, u64); 7] {
        [
            ("conflicts", self.conflicts),
            ("deletions", self.deletions),
            ("directory changes", self.directory_changes),
            ("mode changes", self.mode_changes),
            ("symlink changes", self.symlink_changes),
            ("renames", self.renames),
            ("case-only renames", self.case_renames),
        ]
    }

    /// The kinds of change exercised fewer than `n` times.
    pub fn fewer_than(&self, n: u64) -> Vec<&'static str> {
        self.kinds().into_iter().filter(|(_, k)| *k < n).map(|(name, _)| name).collect()
    }

    /// The figures as JSON (the CLI's report).
    pub fn to_json(&self) -> Json {
        json!({
            "executions": self.executions,
            "synchronizations": self.synchronizations(),
            "exit_codes": self.exit_codes.iter().map(|(c, n)| (c.to_string(), *n)).collect::<BTreeMap<_, _>>(),
            "conflicts": self.conflicts,
            "deletions": self.deletions,
            "directory_changes": self.directory_changes,
            "mode_changes": self.mode_changes,
            "symlink_changes": self.symlink_changes,
            "renames": self.renames,
            "case_renames": self.case_renames,
        })
    }
}

fn root() -> Tree {
    Tree::from([(String::new(), tree::dir_code(0o755))])
}

/// The archive after a synchronization, as the tester sees it: each path
/// both replicas show the same, and the old entry elsewhere.
fn agreed(a: &Tree, b: &Tree, g: &Tree) -> Tree {
    let mut out = Tree::new();
    for p in a.keys().chain(b.keys()).chain(g.keys()) {
        let (ca, cb) = (a.get(p), b.get(p));
        let entry = if ca == cb { ca } else { g.get(p) };
        if let Some(c) = entry {
            out.insert(p.clone(), c.clone());
        }
    }
    out
}

impl AddAssign for Coverage {
    fn add_assign(&mut self, other: Coverage) {
        self.executions += other.executions;
        for (code, n) in other.exit_codes {
            *self.exit_codes.entry(code).or_default() += n;
        }
        self.conflicts += other.conflicts;
        self.deletions += other.deletions;
        self.directory_changes += other.directory_changes;
        self.mode_changes += other.mode_changes;
        self.symlink_changes += other.symlink_changes;
        self.renames += other.renames;
        self.case_renames += other.case_renames;
    }
}

impl fmt::Display for Coverage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let codes: Vec<String> = self.exit_codes.iter().map(|(c, n)| format!("exit {c}: {n}")).collect();
        write!(
            f,
            "{} synchronizations ({}) over {} executions; conflicts {}, deletions {}, directory changes {}, \
             mode changes {}, symlink changes {}, renames {} ({} case-only)",
            self.synchronizations(),
            if codes.is_empty() { "none".to_string() } else { codes.join(", ") },
            self.executions,
            self.conflicts,
            self.deletions,
            self.directory_changes,
            self.mode_changes,
            self.symlink_changes,
            self.renames,
            self.case_renames
        )
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use speccheck_dual::Verdict;
    use speccheck_dual::protocol::TraceEntry;

    use super::*;
    use crate::{Content, Replica, Synced, request_to_ir, response_to_ir};

    fn execution(script: &[(SyncReq, SyncResp)]) -> Execution {
        let mut trace = Vec::new();
        for (i, (q, r)) in script.iter().enumerate() {
            let label = 2 * i as u32;
            trace.push(TraceEntry { label, conn: 0, sent: true, closed: false, ir: request_to_ir(q) });
            trace.push(TraceEntry { label: label + 1, conn: 0, sent: false, closed: false, ir: response_to_ir(r) });
        }
        Execution {
            verdict: Verdict::Accepted { budget_hit: false },
            steps: Vec::new(),
            pacing: Vec::new(),
            sent: script.len(),
            received: script.len(),
            trace,
            skipped: 0,
            elapsed: Duration::ZERO,
            validator: Default::default(),
            validation: Duration::ZERO,
            finding: None,
            findings_cut_short: false,
        }
    }

    fn tree(entries: &[(&str, &str)]) -> Option<Tree> {
        Some(entries.iter().map(|(p, c)| (p.to_string(), c.to_string())).collect())
    }

    fn synced(code: i64, a: &[(&str, &str)], b: &[(&str, &str)]) -> (SyncReq, SyncResp) {
        (SyncReq::Sync, SyncResp::Synced(Synced { code, a: tree(a), b: tree(b), outside: Vec::new() }))
    }

    fn done(req: SyncReq) -> (SyncReq, SyncResp) {
        (req, SyncResp::Done)
    }

    #[test]
    fn each_kind_of_change_a_synchronization_was_given_is_counted_once() {
        let write = |at, path: &str, text: &str| {
            done(SyncReq::Write { at, path: path.into(), content: Content::Text(text.into()) })
        };
        let root = ("", "d755");
        let agreed: &[(&str, &str)] = &[root, ("d", "d755"), ("x", "f644:a"), ("y", "f644:a")];
        let c = Coverage::of(&execution(&[
            done(SyncReq::Mkdir { at: Replica::A, path: "d".into() }),
            write(Replica::A, "x", "a"),
            write(Replica::A, "y", "a"),
            synced(0, agreed, agreed),
            // A conflict on x, a deletion of y, a mode change and a
            // case-only rename of d, a link, a failed operation (not counted).
            write(Replica::A, "x", "hello"),
            write(Replica::B, "x", "world"),
            done(SyncReq::Remove { at: Replica::B, path: "y".into() }),
            done(SyncReq::Chmod { at: Replica::A, path: "x".into(), mode: 0o600 }),
            done(SyncReq::Rename { at: Replica::B, path: "d".into(), to: "D".into() }),
            done(SyncReq::Symlink { at: Replica::A, path: "l".into(), target: "nowhere".into() }),
            (SyncReq::Remove { at: Replica::A, path: "nothing".into() }, SyncResp::Failed("not-found".into())),
            synced(1, agreed, agreed),
        ]));
        assert_eq!(c.executions, 1);
        assert_eq!(c.exit_codes, BTreeMap::from([(0, 1), (1, 1)]));
        assert_eq!(c.conflicts, 1, "{c}");
        // y deleted on B; d gone from B (renamed away).
        assert_eq!(c.deletions, 2, "{c}");
        // The first sync's new d; d gone and D new on B.
        assert_eq!(c.directory_changes, 3, "{c}");
        assert_eq!(c.mode_changes, 0, "x's bits changed with its contents: not a mode-only change: {c}");
        assert_eq!(c.symlink_changes, 1, "{c}");
        assert_eq!((c.renames, c.case_renames), (1, 1), "{c}");
        let only_bits = Coverage::of(&execution(&[
            write(Replica::A, "x", "a"),
            synced(0, &[root, ("x", "f644:a")], &[root, ("x", "f644:a")]),
            done(SyncReq::Chmod { at: Replica::B, path: "x".into(), mode: 0o600 }),
            synced(0, &[root, ("x", "f600:a")], &[root, ("x", "f600:a")]),
        ]));
        assert_eq!((only_bits.mode_changes, only_bits.conflicts), (1, 0), "{only_bits}");
    }
}
