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
    let r = tester("true # {a} {b}").config(config("sync-true", 50)).run();
    match &r.run.verdict {
        RunVerdict::Failed(c) => assert!(c.failure.message.contains("REJECTED"), "{r}"),
        other => panic!("expected a rejection, got {other:?}\n{r}"),
    }
}

#[test]
fn a_synchronizer_that_always_stops_early_and_says_so_is_allowed() {
    // Exit 2 allows any subset of the propagations, none included.
    let r = tester("exit 2 # {a} {b}").config(config("sync-exit-2", 30)).run();
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
    let sync = Synchronizer::new("exit 2 # {a} {b}");
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
    use speccheck_sync::{Content, Profile, Replica, SyncModel, SyncReq, SyncResp, Synced, Tree};

    pub(super) fn tree(entries: &[(&str, &str)]) -> Option<Tree> {
        Some(entries.iter().map(|(p, c)| (p.to_string(), c.to_string())).collect())
    }

    pub(super) fn synced(code: i64, a: &[(&str, &str)], b: &[(&str, &str)]) -> SyncResp {
        SyncResp::Synced(Synced { code, a: tree(a), b: tree(b), outside: Vec::new() })
    }

    /// Runs a script of (request, response) pairs through the strict model.
    pub(super) fn accepts(script: Vec<(SyncReq, SyncResp)>) -> bool {
        accepted_by(SyncModel::new(false), script)
    }

    /// Runs a script through a model.
    pub(super) fn accepted_by(model: SyncModel, script: Vec<(SyncReq, SyncResp)>) -> bool {
        let trace: Vec<_> =
            script.into_iter().flat_map(|(q, r)| [Observation::Sent(0, q), Observation::Received(0, r)]).collect();
        validate::<SyncModel, Native>(Arc::new(model), &trace, Limits::default()).is_ok()
    }

    /// The model of the strict profile with `edit` applied.
    pub(super) fn with(edit: impl FnOnce(&mut Profile)) -> SyncModel {
        let mut p = Profile::strict("test", "s {a} {b}");
        edit(&mut p);
        p.validate().unwrap();
        SyncModel::of(&p, false)
    }

    pub(super) fn sync(code: i64, a: &[(&str, &str)], b: &[(&str, &str)]) -> (SyncReq, SyncResp) {
        (SyncReq::Sync, synced(code, a, b))
    }

    pub(super) const ROOT: (&str, &str) = ("", "d755");

    pub(super) fn write(at: Replica, path: &str, text: &str) -> (SyncReq, SyncResp) {
        (SyncReq::Write { at, path: path.into(), content: Content::Text(text.into()) }, SyncResp::Done)
    }

    pub(super) fn remove(at: Replica, path: &str) -> (SyncReq, SyncResp) {
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

/// Each freedom a profile may take, against the strict model: the same
/// trace is accepted with it and rejected without.
mod freedoms {
    use super::model::*;
    use speccheck_sync::profile::{ExitCodes, Setup, SetupEffect};
    use speccheck_sync::{Profile, Replica, SyncModel, SyncReq, SyncResp};

    fn both(freedom: SyncModel, script: Vec<(SyncReq, SyncResp)>) -> (bool, bool) {
        (accepted_by(freedom, script.clone()), accepted_by(SyncModel::new(false), script))
    }

    fn files_only(p: &mut Profile) {
        p.freedoms.no_directories = true;
    }

    #[test]
    fn conflicts_renamed_with_a_pattern() {
        let renamed = with(|p| {
            files_only(p);
            p.freedoms.conflict_rename = Some(["{name}..path1".into(), "{name}..path2".into()]);
        });
        let both_sides: &[(&str, &str)] = &[ROOT, ("x..path1", "f644:hello"), ("x..path2", "f644:world")];
        let script = vec![
            write(Replica::A, "x", "a"),
            sync(0, &[ROOT, ("x", "f644:a")], &[ROOT, ("x", "f644:a")]),
            write(Replica::A, "x", "hello"),
            write(Replica::B, "x", "world"),
            sync(0, both_sides, both_sides),
        ];
        assert_eq!(both(renamed.clone(), script.clone()), (true, false));
        // Swapped sides are another behaviour: rejected.
        let mut swapped = script.clone();
        let wrong: &[(&str, &str)] = &[ROOT, ("x..path1", "f644:world"), ("x..path2", "f644:hello")];
        swapped[4] = sync(0, wrong, wrong);
        assert!(!accepted_by(renamed.clone(), swapped));
        // Left alone with exit 1 is not what a renaming synchronizer does.
        let mut left = script;
        left[4] = sync(1, &[ROOT, ("x", "f644:hello")], &[ROOT, ("x", "f644:world")]);
        assert!(!accepted_by(renamed, left));
    }

    #[test]
    fn directories_not_propagated() {
        let script = vec![
            (SyncReq::Mkdir { at: Replica::A, path: "d".into() }, SyncResp::Done),
            sync(0, &[ROOT, ("d", "d755")], &[ROOT]),
        ];
        assert_eq!(both(with(files_only), script), (true, false));
        // A file's directory is made to hold it.
        let script = vec![
            (SyncReq::Mkdir { at: Replica::A, path: "d".into() }, SyncResp::Done),
            write(Replica::A, "d/f", "a"),
            sync(0, &[ROOT, ("d", "d755"), ("d/f", "f644:a")], &[ROOT, ("d", "d755"), ("d/f", "f644:a")]),
            remove(Replica::A, "d"),
            sync(0, &[ROOT], &[ROOT, ("d", "d755")]),
        ];
        assert_eq!(both(with(files_only), script), (true, false));
    }

    #[test]
    fn modes_not_propagated() {
        let script = vec![
            write(Replica::A, "x", "a"),
            (SyncReq::Chmod { at: Replica::A, path: "x".into(), mode: 0o600 }, SyncResp::Done),
            sync(0, &[ROOT, ("x", "f600:a")], &[ROOT, ("x", "f644:a")]),
        ];
        assert_eq!(both(with(|p| p.freedoms.no_modes = true), script.clone()), (true, false));
        // The strict model wants the bits copied.
        let mut strict = script;
        strict[2] = sync(0, &[ROOT, ("x", "f600:a")], &[ROOT, ("x", "f600:a")]);
        assert_eq!(both(with(|p| p.freedoms.no_modes = true), strict), (false, true));
    }

    #[test]
    fn symlinks_not_seen() {
        let link = (SyncReq::Symlink { at: Replica::A, path: "l".into(), target: "nowhere".into() }, SyncResp::Done);
        let ignored = vec![link.clone(), sync(0, &[ROOT, ("l", "l:nowhere")], &[ROOT])];
        assert_eq!(both(with(|p| p.freedoms.no_symlinks = true), ignored), (true, false));
        let copied = vec![link, sync(0, &[ROOT, ("l", "l:nowhere")], &[ROOT, ("l", "l:nowhere")])];
        assert_eq!(both(with(|p| p.freedoms.no_symlinks = true), copied), (false, true));
    }

    #[test]
    fn a_change_beats_a_deletion() {
        let script = vec![
            write(Replica::A, "x", "a"),
            sync(0, &[ROOT, ("x", "f644:a")], &[ROOT, ("x", "f644:a")]),
            remove(Replica::A, "x"),
            write(Replica::B, "x", "b"),
            sync(0, &[ROOT, ("x", "f644:b")], &[ROOT, ("x", "f644:b")]),
        ];
        assert_eq!(both(with(|p| p.freedoms.change_beats_delete = true), script), (true, false));
    }

    #[test]
    fn writes_judged_by_timestamps() {
        // The same contents written again on A, a change on B: a conflict
        // for a synchronizer that judges by timestamps, B's change
        // propagated for one that judges by contents.
        let rules = |p: &mut Profile| {
            files_only(p);
            p.freedoms.timestamps = true;
        };
        let script = vec![
            write(Replica::A, "x", "a"),
            sync(0, &[ROOT, ("x", "f644:a")], &[ROOT, ("x", "f644:a")]),
            write(Replica::A, "x", "a"),
            write(Replica::B, "x", "b"),
            sync(1, &[ROOT, ("x", "f644:a")], &[ROOT, ("x", "f644:b")]),
        ];
        assert_eq!(both(with(rules), script), (true, false));
    }

    #[test]
    fn a_safety_abort_brings_the_set_up_run_back() {
        // Exit 2 aborts (nothing done); the next synchronization starts
        // with the set-up run, a merge where A wins.
        let model = with(|p| {
            files_only(p);
            p.exit = ExitCodes { synced: vec![0], conflicts: vec![], stopped: vec![1], fatal: vec![], abort: vec![2] };
            p.setup = Some(Setup { command: "s {a} {b} --resync".into(), effect: SetupEffect::MergePreferA });
        });
        let same: &[(&str, &str)] = &[ROOT, ("x", "f644:a")];
        let script = vec![
            write(Replica::A, "x", "a"),
            write(Replica::B, "x", "b"),
            // The set-up run: A's x wins.
            sync(0, same, same),
            write(Replica::B, "y", "y"),
            sync(2, same, &[ROOT, ("x", "f644:a"), ("y", "f644:y")]),
            write(Replica::B, "x", "c"),
            // Set-up again: A's x wins over B's change, B's y reaches A.
            sync(0, &[ROOT, ("x", "f644:a"), ("y", "f644:y")], &[ROOT, ("x", "f644:a"), ("y", "f644:y")]),
        ];
        assert!(accepted_by(model.clone(), script.clone()));
        // Without the set-up run after the abort, B's change would win.
        let mut no_setup = script;
        let changed: &[(&str, &str)] = &[ROOT, ("x", "f644:c"), ("y", "f644:y")];
        no_setup[6] = sync(0, changed, changed);
        assert!(!accepted_by(model, no_setup));
    }

    #[test]
    fn renames_reach_the_synchronizer_as_a_deletion_and_a_creation() {
        let script = |case: &str| {
            vec![
                write(Replica::A, "x", "a"),
                sync(0, &[ROOT, ("x", "f644:a")], &[ROOT, ("x", "f644:a")]),
                (SyncReq::Rename { at: Replica::A, path: "x".into(), to: case.into() }, SyncResp::Done),
                sync(0, &[ROOT, (case, "f644:a")], &[ROOT, (case, "f644:a")]),
            ]
        };
        assert!(accepts(script("X")), "case-only");
        assert!(accepts(script("y")));
        let mut kept = script("X");
        kept[3] = sync(0, &[ROOT, ("X", "f644:a")], &[ROOT, ("X", "f644:a"), ("x", "f644:a")]);
        assert!(!accepts(kept), "the old name must go");
    }
}

/// The set-up run's merge, as rclone's `--resync` does it: B's empty
/// directories go (found by testing rclone bisync 1.60).
mod setup {
    use super::model::*;
    use speccheck_sync::profile::{Setup, SetupEffect};
    use speccheck_sync::{Replica, SyncReq, SyncResp};

    #[test]
    fn a_merge_preferring_a_removes_the_directories_b_has_and_a_lacks() {
        let model = with(|p| {
            p.freedoms.no_directories = true;
            p.setup = Some(Setup { command: "s {a} {b} --resync".into(), effect: SetupEffect::MergePreferA });
        });
        let script = |b_after: &'static [(&'static str, &'static str)]| {
            vec![
                (SyncReq::Mkdir { at: Replica::B, path: "z".into() }, SyncResp::Done),
                (SyncReq::Mkdir { at: Replica::A, path: "y".into() }, SyncResp::Done),
                write(Replica::B, "x", "b"),
                sync(0, &[ROOT, ("x", "f644:b"), ("y", "d755")], b_after),
            ]
        };
        assert!(accepted_by(model.clone(), script(&[ROOT, ("x", "f644:b")])));
        // Writes before it are no changes after it, timestamps or not
        // (found by testing rclone bisync: the model once saw a conflict).
        let stamped = with(|p| {
            p.freedoms.no_directories = true;
            p.freedoms.timestamps = true;
            p.setup = Some(Setup { command: "s {a} {b} --resync".into(), effect: SetupEffect::MergePreferA });
        });
        let same: &[(&str, &str)] = &[ROOT, ("x", "f644:")];
        let both_written = vec![write(Replica::A, "x", ""), write(Replica::B, "x", ""), sync(0, same, same)];
        assert!(accepted_by(stamped, both_written));
        assert!(!accepted_by(model, script(&[ROOT, ("x", "f644:b"), ("z", "d755")])));
    }

    #[test]
    fn a_set_up_run_blocked_by_a_directory_cannot_succeed_and_comes_again() {
        use speccheck_sync::profile::ExitCodes;
        let model = with(|p| {
            p.freedoms.no_directories = true;
            p.exit = ExitCodes { synced: vec![0], conflicts: vec![], stopped: vec![1], fatal: vec![3], abort: vec![2] };
            p.setup = Some(Setup { command: "s {a} {b} --resync".into(), effect: SetupEffect::MergePreferA });
        });
        let script = |code, b_after: &'static [(&'static str, &'static str)]| {
            vec![
                (SyncReq::Mkdir { at: Replica::B, path: "x".into() }, SyncResp::Done),
                write(Replica::A, "x", "a"),
                sync(code, &[ROOT, ("x", "f644:a")], b_after),
                (SyncReq::Remove { at: Replica::B, path: "x".into() }, SyncResp::Done),
                // Due again: the merge now goes through.
                sync(0, &[ROOT, ("x", "f644:a")], &[ROOT, ("x", "f644:a")]),
            ]
        };
        assert!(accepted_by(model.clone(), script(2, &[ROOT, ("x", "d755")])));
        assert!(!accepted_by(model.clone(), script(0, &[ROOT, ("x", "d755")])), "blocked, it cannot succeed");
        let mut not_again = script(2, &[ROOT, ("x", "d755")]);
        not_again[4] = sync(0, &[ROOT, ("x", "f644:a")], &[ROOT]);
        assert!(!accepted_by(model, not_again), "once the way is clear, the file reaches B");
    }
}
