//! Every bundled example: the planted bug is found, the counterexample
//! program really fails when replayed on its own, and the correct variant
//! passes.

use speccheck_core::FailureKind;
use speccheck_examples::interface::catalogue;
use speccheck_interface::{Config, StopReason, Verdict};

/// Settings small enough for debug builds.
fn quick(base: Config, seed: u64) -> Config {
    Config { seed: Some(seed), required: base.required.min(4_000), ..base }
}

#[test]
fn every_planted_bug_is_found_and_its_program_fails_when_replayed() {
    for ex in catalogue() {
        for seed in [1, 7, 42] {
            let api = (ex.buggy)();
            let report = api.check(Config { seed: Some(seed), ..(ex.config)() });
            let cx = match &report.verdict {
                Verdict::Failed(cx) => cx,
                _ => panic!("{} (seed {seed}): the planted bug ({}) was not found\n{report}", ex.name, ex.bug),
            };
            assert_ne!(cx.kind, FailureKind::Timeout, "{report}");
            assert!(cx.calls >= 1 && cx.calls <= cx.original_calls, "{report}");
            assert!(!cx.program.is_empty());
            assert_eq!(report.stats.stop, StopReason::Found);
            // The reduced program, replayed alone, fails the same way.
            let replay = cx.replay.clone().expect("a replayable program");
            let again = api.check(Config { replay: Some(replay), reduce: false, ..Config::seeded(seed) });
            let cx2 = again.counterexample().unwrap_or_else(|| panic!("{}: replay passed\n{again}", ex.name));
            assert_eq!((cx2.kind, &cx2.location), (cx.kind, &cx.location), "{}", ex.name);
            assert_eq!(cx2.program, cx.program, "{}", ex.name);
        }
    }
}

#[test]
fn every_correct_variant_passes() {
    for ex in catalogue() {
        let report = (ex.correct)().check(quick((ex.config)(), 3));
        assert!(report.passed(), "{}: the correct variant failed\n{report}", ex.name);
        assert!(report.stats.calls > 100, "{report}");
        assert!(report.stats.abstract_instances() >= 1000, "{report}");
        for t in &report.stats.types {
            assert!(t.max_held <= t.bound, "{report}");
        }
    }
}

#[test]
fn the_paper_examples_find_their_bugs_with_small_programs() {
    use speccheck_examples::interface::{bdd, rbt_zipper, sorted_list};
    let r = sorted_list::buggy::api().check(Config::seeded(5));
    let cx = r.assert_failed();
    assert_eq!(cx.calls, 3, "{r}");
    assert!(cx.program.contains("SortedList::empty()") && cx.program.contains("assert!(l.is_sorted())"), "{r}");

    let r = rbt_zipper::exposed::api().check(Config::seeded(5));
    let cx = r.assert_failed();
    // Which zipper operation leads there depends on the search (rounds or
    // walks); the program is small and takes a zipper out of a pair.
    assert!(cx.calls <= 6 && cx.program.contains("zip_"), "{r}");
    assert!(
        cx.program.contains("let Some((_, z") || cx.program.contains("let (_, z"),
        "the zipper is taken out of a destructed pair\n{r}"
    );

    let r = bdd::buggy::api().check(Config::seeded(5));
    let cx = r.assert_failed();
    assert!(cx.program.contains(".restrict("), "{r}");
}

/// Deep search does not lengthen what the rounds find: walk instances
/// (and what their calls return) stay out of the pools, so the rounds
/// still build the smallest instances first (the AVL bug needs ten calls).
#[test]
fn deep_search_keeps_the_rounds_programs_short() {
    let ex = catalogue().into_iter().find(|e| e.name == "avl").expect("the AVL example");
    // Walk lineages leaking into the rounds gave 17 to 24 calls on every
    // seed; the rounds alone give about 10, now and then a longer program
    // they found late.
    let mut calls = Vec::new();
    for seed in 1..=7 {
        let r = (ex.buggy)().check(Config { seed: Some(seed), ..(ex.config)() });
        let cx = r.assert_failed();
        assert!(r.stats.walks > 0, "{r}");
        assert!(cx.calls <= 16, "{} calls\n{r}", cx.calls);
        calls.push(cx.calls);
    }
    calls.sort_unstable();
    assert!(calls[calls.len() / 2] <= 11, "median of {calls:?}");
}
