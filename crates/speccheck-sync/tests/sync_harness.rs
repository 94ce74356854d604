//! The file-synchronizer tester's harness and model against trivial
//! synchronizers (shell commands): what they do is known, so the verdict is.

use speccheck::Config;
use speccheck::runner::report::RunVerdict;
use speccheck_dual::Tester;
use speccheck_dual::exec::local::Local;
use speccheck_sync::Sync;
use speccheck_sync::session::Synchronizer;

fn config(name: &str, cases: u32) -> Config {
    Config { cases, database: None, seed: Some(0x5c), ..Config::named(name) }
}

fn tester(command: &str) -> Tester<Sync> {
    let target: Local = Synchronizer::new(command).target().expect("sh exists");
    Tester::new(Sync::detect(), target).with_settings(|s| {
        s.conns = 1;
        s.fuel = 30;
    })
}

#[test]
fn a_synchronizer_that_does_nothing_and_says_it_synced_is_rejected() {
    let r = tester("true").config(config("sync-true", 50)).run();
    match &r.run.verdict {
        RunVerdict::Failed(c) => assert!(c.failure.message.contains("REJECTED"), "{r}"),
        other => panic!("expected a rejection, got {other:?}\n{r}"),
    }
}

#[test]
fn a_synchronizer_that_always_stops_early_and_says_so_is_allowed() {
    // Exit 2 allows any subset of the propagations, none included.
    let r = tester("exit 2").config(config("sync-exit-2", 30)).run();
    assert!(r.passed(), "{r}");
}

#[test]
fn a_missing_command_is_a_setup_error_naming_it() {
    let err = Synchronizer::new("no-such-synchronizer {a} {b}").target().err().expect("not found");
    assert!(err.to_string().contains("`no-such-synchronizer`"), "{err}");
}

/// A session whose own side fails on its third request (as when the
/// sandbox's disk is full): the run ends with an error that says so, never
/// a verdict on the synchronizer.
#[test]
fn a_failure_of_the_tester_itself_is_an_error_not_a_verdict() {
    use speccheck_dual::exec::local::{CallError, Session};
    use speccheck_sync::session::{Sandbox, permissions_enforced};

    struct FailsOnThird(Sandbox, usize);
    impl Session for FailsOnThird {
        fn call(&mut self, request: &[u8]) -> Result<Vec<u8>, CallError> {
            self.1 += 1;
            if self.1 == 3 {
                return Err(CallError::Harness("no space left on the sandbox's device".into()));
            }
            self.0.call(request)
        }
    }
    let sync = Synchronizer::new("exit 2");
    let enforce = permissions_enforced();
    let target = Local::new("fails-on-third", move |_| {
        Ok(Box::new(FailsOnThird(Sandbox::new(sync.clone(), enforce)?, 0)) as Box<dyn Session>)
    });
    // `exit 2` (stopped early, nothing done) always passes: the run must
    // not pass when the tester could not do its part.
    let r = Tester::new(Sync::detect(), target)
        .with_settings(|s| {
            s.conns = 1;
            s.fuel = 30;
        })
        .config(config("sync-harness-fails", 20))
        .run();
    match &r.run.verdict {
        RunVerdict::Error(e) => {
            assert!(e.contains("no space left") && e.contains("not a verdict"), "{e}");
        }
        other => panic!("expected an error, got {other:?}\n{r}"),
    }
}

mod model {
    use std::sync::Arc;

    use speccheck_dual::dual::{Limits, Observation, validate};
    use speccheck_dual::solver::Native;
    use speccheck_sync::{Content, Replica, SyncModel, SyncReq, SyncResp, Synced, Tree};

    fn tree(entries: &[(&str, &str)]) -> Option<Tree> {
        Some(entries.iter().map(|(p, c)| (p.to_string(), c.to_string())).collect())
    }

    fn synced(code: i64, a: &[(&str, &str)], b: &[(&str, &str)]) -> SyncResp {
        SyncResp::Synced(Synced { code, a: tree(a), b: tree(b), outside: Vec::new() })
    }

    /// Runs a script of (request, response) pairs through the model.
    fn accepts(script: Vec<(SyncReq, SyncResp)>) -> bool {
        let trace: Vec<_> =
            script.into_iter().flat_map(|(q, r)| [Observation::Sent(0, q), Observation::Received(0, r)]).collect();
        validate::<SyncModel, Native>(Arc::new(SyncModel { enforce: false }), &trace, Limits::default()).is_ok()
    }

    fn write(at: Replica, path: &str, text: &str) -> (SyncReq, SyncResp) {
        (SyncReq::Write { at, path: path.into(), content: Content::Text(text.into()) }, SyncResp::Done)
    }

    fn remove(at: Replica, path: &str) -> (SyncReq, SyncResp) {
        (SyncReq::Remove { at, path: path.into() }, SyncResp::Done)
    }

    #[test]
    fn a_deletion_on_both_sides_is_an_agreement_the_archive_learns() {
        // Found by testing Unison: the model once kept the deleted file in
        // its archive, so the new directory later counted as a conflict.
        let root = ("", "d755");
        let script = |propagated: bool| {
            let z_in_b: &[(&str, &str)] =
                if propagated { &[root, ("x", "f644:b"), ("z", "d755")] } else { &[root, ("x", "f644:b")] };
            vec![
                write(Replica::B, "z", "h"),
                (SyncReq::Sync, synced(0, &[root, ("z", "f644:h")], &[root, ("z", "f644:h")])),
                remove(Replica::A, "z"),
                remove(Replica::B, "z"),
                write(Replica::A, "x", "b"),
                (SyncReq::Sync, synced(0, &[root, ("x", "f644:b")], &[root, ("x", "f644:b")])),
                (SyncReq::Mkdir { at: Replica::A, path: "z".into() }, SyncResp::Done),
                (SyncReq::Sync, synced(0, &[root, ("x", "f644:b"), ("z", "d755")], z_in_b)),
            ]
        };
        assert!(accepts(script(true)), "the new directory propagates");
        assert!(!accepts(script(false)), "and must, when the synchronizer says it finished");
    }

    #[test]
    fn a_write_write_conflict_is_left_alone_and_exits_1() {
        let root = ("", "d755");
        let base = vec![
            write(Replica::A, "x", "a"),
            (SyncReq::Sync, synced(0, &[root, ("x", "f644:a")], &[root, ("x", "f644:a")])),
            write(Replica::A, "x", "hello"),
            write(Replica::B, "x", "world"),
        ];
        let ending = |code, b: &'static str| {
            let mut s = base.clone();
            s.push((SyncReq::Sync, synced(code, &[root, ("x", "f644:hello")], &[root, ("x", b)])));
            s
        };
        assert!(accepts(ending(1, "f644:world")));
        assert!(!accepts(ending(0, "f644:world")), "exit 0 with a conflict left");
        assert!(!accepts(ending(1, "f644:hello")), "a conflicting write propagated");
        assert!(!accepts(ending(2, "f644:hello")), "a crash propagates nothing unexpected");
        assert!(accepts(ending(2, "f644:world")), "a crash may propagate nothing");
    }

    #[test]
    fn a_run_that_stops_early_may_have_propagated_part_of_a_directory() {
        // Found by testing Unison as an ordinary user: it sets a directory's
        // new permission bits (555) before creating the new entry inside
        // it, cannot create it, and exits 2.
        let root = ("", "d755");
        let script = |code| {
            vec![
                (SyncReq::Mkdir { at: Replica::B, path: "y".into() }, SyncResp::Done),
                (SyncReq::Sync, synced(0, &[root, ("y", "d755")], &[root, ("y", "d755")])),
                (SyncReq::Mkdir { at: Replica::B, path: "y/z".into() }, SyncResp::Done),
                (SyncReq::Chmod { at: Replica::B, path: "y".into(), mode: 0o555 }, SyncResp::Done),
                (SyncReq::Sync, synced(code, &[root, ("y", "d555")], &[root, ("y", "d555"), ("y/z", "d755")])),
            ]
        };
        assert!(accepts(script(2)), "part of the changes, and exit 2");
        assert!(!accepts(script(0)), "part of the changes, and exit 0");
    }
}
