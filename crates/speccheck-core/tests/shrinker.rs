//! The shrinker, tested with speccheck itself: over random failure
//! predicates and random failing inputs, shrinking only ever returns an
//! input that still fails, in the same way, and is no larger than the one it
//! started from.

use speccheck_core::test_case::CaseControl as _;
use std::time::Duration;

use speccheck_core::case::{CaseResult, TestFn, execute};
use speccheck_core::gens::{self, Generator};
use speccheck_core::shrink::{ShrinkBudget, ShrinkStats, Shrinker};
use speccheck_core::{Config, Outcome, Property, Tail, TestCase, any, shortlex_le};

/// Shrinks the failing case of each seed in `seeds` that fails (a random
/// case of `size`, spans recorded) with a budget of `max_steps`, and gives
/// `check` the seed, the shrunk case and the shrink's statistics. Returns
/// how many seeds failed.
fn shrink_failures(
    test: &TestFn,
    seeds: std::ops::Range<u64>,
    size: usize,
    max_steps: u32,
    mut check: impl FnMut(u64, CaseResult, ShrinkStats),
) -> usize {
    let mut failed = 0;
    for seed in seeds {
        let first = execute(test, TestCase::random(seed, size).with_spans(true));
        if !first.outcome.is_fail() {
            continue;
        }
        let mut run = |tc: TestCase| execute(test, tc);
        let budget = ShrinkBudget { max_steps, max_time: Duration::from_secs(5) };
        let (best, stats) = Shrinker::new(&mut run, first, budget, 12).shrink();
        check(seed, best, stats);
        failed += 1;
    }
    failed
}

/// A family of failure predicates over vectors of small numbers.
fn fails(kind: u8, threshold: u32, xs: &[u16]) -> bool {
    match kind {
        0 => xs.iter().map(|&x| u32::from(x)).sum::<u32>() > threshold,
        1 => xs.len() as u32 > threshold % 12,
        2 => xs.iter().any(|&x| u32::from(x) > threshold),
        3 => xs.windows(2).any(|w| w[0] > w[1]),
        _ => xs.iter().filter(|&&x| x % 7 == 3).count() >= 2,
    }
}

#[test]
fn shrinking_only_moves_to_smaller_failing_cases() {
    let config = Config { cases: 150, seed: Some(11), database: None, ..Config::named("shrinker") };
    let r = Property::new((gens::ints(0..5u8), gens::ints(0..3000u32), any::<u64>())).config(config).run(
        |(kind, threshold, seed): (u8, u32, u64)| {
            let inputs = gens::vec(gens::ints(0..1000u16), 0..60);
            let test = move |tc: &mut TestCase| {
                let xs = inputs.generate(tc);
                if fails(kind, threshold, &xs) {
                    Outcome::Fail(speccheck_core::FailureInfo::returned("fails"))
                } else {
                    Outcome::Pass
                }
            };
            // Find a failing input by random search.
            let Some(first) = (0..200u64).find_map(|i| {
                let r = execute(&test, TestCase::random(seed ^ i, 60).with_spans(true));
                r.outcome.is_fail().then_some(r)
            }) else {
                speccheck_core::reject("no failing input for this predicate");
            };
            let mut run = |tc: TestCase| execute(&test, tc);
            let budget = ShrinkBudget { max_steps: 2000, max_time: Duration::from_secs(5) };
            let (best, _) = Shrinker::new(&mut run, first.clone(), budget, 12).shrink();
            // Replayed on its own, the result fails.
            let again = execute(&test, TestCase::replay(best.choices.0.clone(), Tail::Stop));
            assert!(again.outcome.is_fail(), "shrunk input passes");
            // And it is no larger: in choices and in the value.
            assert!(shortlex_le(&best.choices.0, &first.choices.0));
            let value = |c: &[speccheck_core::Choice]| {
                gens::vec(gens::ints(0..1000u16), 0..60).generate(&mut TestCase::replay(c.to_vec(), Tail::Simplest))
            };
            assert!(value(&best.choices.0).len() <= value(&first.choices.0).len());
        },
    );
    assert!(r.passed(), "{r}");
}

/// `represent`: generated one way (even numbers only), recorded as plain
/// vectors, so the shrinker reaches values the source never makes.
#[test]
fn represented_values_shrink_as_their_structure() {
    let evens = gens::vec(gens::ints(0..500u32), 0..10).map(|v| v.into_iter().map(|x| x * 2).collect::<Vec<u32>>());
    let config = Config { cases: 500, seed: Some(3), database: None, ..Config::named("represent") };
    let r = Property::new(gens::represent(evens, gens::vec(gens::ints(0..1000u32), 0..10)))
        .config(config)
        .run(|v: Vec<u32>| v.iter().sum::<u32>() < 3);
    let ce = r.counterexample().expect("a vector summing to 3 or more fails");
    let shrunk =
        gens::vec(gens::ints(0..1000u32), 0..10).generate(&mut TestCase::replay(ce.choices.0.clone(), Tail::Stop));
    // Every generated value is even; the smallest failing structure is not.
    assert_eq!(shrunk, vec![3]);

    // Generated values come from the source.
    let config = Config { cases: 300, seed: Some(4), database: None, ..Config::named("represent-source") };
    let evens = gens::vec(gens::ints(0..500u32), 0..10).map(|v| v.into_iter().map(|x| x * 2).collect::<Vec<u32>>());
    let r = Property::new(gens::represent(evens, gens::vec(gens::ints(0..1000u32), 0..10)))
        .config(config)
        .run(|v: Vec<u32>| v.iter().all(|x| x % 2 == 0));
    assert!(r.passed(), "{r}");
}

/// A collection the failure does not need goes in one step, however long
/// it is, and once nothing improves, no candidate is run twice: the case
/// below (a long vector beside a flag that alone makes it fail) shrinks in
/// a handful of runs.
#[test]
fn an_irrelevant_collection_goes_whole_and_nothing_runs_twice() {
    let test = |tc: &mut TestCase| {
        let (xs, flag) = (gens::vec(gens::ints(0..1000u16), 0..60), any::<bool>()).generate(tc);
        let _ = xs;
        if flag { Outcome::Fail(speccheck_core::FailureInfo::returned("flag set")) } else { Outcome::Pass }
    };
    let mut checked = 0;
    for seed in 0..200u64 {
        let first = execute(&test, TestCase::random(seed, 60).with_spans(true));
        let long = gens::vec(gens::ints(0..1000u16), 0..60)
            .generate(&mut TestCase::replay(first.choices.0.clone(), Tail::Simplest))
            .len()
            >= 20;
        if !first.outcome.is_fail() || !long {
            continue;
        }
        let mut seen = std::collections::HashSet::new();
        let mut repeats = 0;
        let mut run = |tc: TestCase| {
            let r = execute(&test, tc);
            repeats += usize::from(!seen.insert(r.choices.0.iter().map(|c| c.value).collect::<Vec<_>>()));
            r
        };
        let budget = ShrinkBudget { max_steps: 2000, max_time: Duration::from_secs(5) };
        let (best, stats) = Shrinker::new(&mut run, first, budget, 12).shrink();
        // The empty vector and `true`: a "no more" choice and the flag.
        assert_eq!(best.choices.0.iter().map(|c| c.value).collect::<Vec<_>>(), vec![0, 1], "seed {seed}");
        assert!(stats.steps <= 6, "seed {seed}: {} runs to drop an irrelevant vector", stats.steps);
        assert_eq!(repeats, 0, "seed {seed}: a case was generated twice");
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} long failing vectors");
}

#[test]
fn values_that_must_stay_equal_shrink_together() {
    // An index used twice: lowering either copy alone loses the failure.
    for seed in 0..5 {
        let config = Config { cases: 5_000, seed: Some(seed), database: None, ..Config::named("duplicates") };
        let r = Property::new(gens::vec(gens::ints(0..=255u8), 2..=6))
            .config(config)
            .run(|xs: Vec<u8>| !(xs[0] == xs[xs.len() - 1] && xs[0] >= 5));
        let c = r.counterexample().unwrap_or_else(|| panic!("seed {seed}: expected a failure: {r}"));
        assert_eq!(c.inputs[0].1.to_line(), "[5, 5]", "seed {seed}: {r}");
    }
}

#[test]
fn equal_picks_from_different_pools_shrink_together() {
    // The same byte sits at different positions of the two pools: the two
    // choices must move at once (memchr's needle in its haystack).
    const NEEDLES: &[u8] = b"abcz";
    const BYTES: &[u8] = b"._abcz ";
    for seed in 0..10 {
        let config = Config { cases: 5_000, seed: Some(seed), database: None, ..Config::named("pools") };
        let r = Property::new((gens::select(NEEDLES.to_vec()), gens::vec(gens::select(BYTES.to_vec()), 0..=64)))
            .config(config)
            .run(|(needle, hay): (u8, Vec<u8>)| !hay.contains(&needle));
        let c = r.counterexample().unwrap_or_else(|| panic!("seed {seed}: expected a failure: {r}"));
        assert_eq!(c.value::<(u8, Vec<u8>)>(), Some((b'a', vec![b'a'])), "seed {seed}: {r}");
        // Twice in the haystack: three choices move at once.
        let r = Property::new((gens::select(NEEDLES.to_vec()), gens::vec(gens::select(BYTES.to_vec()), 0..=64)))
            .config(Config { cases: 5_000, seed: Some(seed), database: None, ..Config::named("pools") })
            .run(|(needle, hay): (u8, Vec<u8>)| hay.iter().filter(|&&b| b == needle).count() < 2);
        let c = r.counterexample().unwrap_or_else(|| panic!("seed {seed}: expected a failure: {r}"));
        assert_eq!(c.value::<(u8, Vec<u8>)>(), Some((b'a', vec![b'a', b'a'])), "seed {seed}: {r}");
    }
}

#[test]
fn nested_irrelevant_collections_go_outermost_first() {
    // A list of lists the failure does not need: emptying the outer list
    // drops every inner one in one step, instead of inner ones one by one.
    let inner = || gens::vec(gens::vec(gens::ints(0..1000u16), 1..8), 0..10);
    let test = move |tc: &mut TestCase| {
        let (xss, flag) = (inner(), any::<bool>()).generate(tc);
        let _ = xss;
        if flag { Outcome::Fail(speccheck_core::FailureInfo::returned("flag set")) } else { Outcome::Pass }
    };
    let checked = shrink_failures(&test, 0..100, 60, 2000, |seed, best, stats| {
        assert_eq!(best.choices.0.iter().map(|c| c.value).collect::<Vec<_>>(), vec![0, 1], "seed {seed}");
        assert!(stats.steps <= 8, "seed {seed}: {} runs to drop an irrelevant list of lists", stats.steps);
    });
    assert!(checked > 20);
}

/// A failure that needs only the value's shape (here: an optional record
/// being present) among collections and numbers it does not need goes to
/// its minimum in one step: every collection emptied and every number at
/// its simplest at once, where one collection and one number at a time
/// took a run each.
#[test]
fn a_failure_in_the_shape_alone_shrinks_in_one_step() {
    let value = || {
        (
            gens::vec(gens::ints(0..1000u16), 0..10),
            gens::option((gens::ints(0..100u8), gens::vec(gens::ints(0..50u32), 0..5))),
            gens::ints(0..1000i32),
            gens::vec(gens::vec(gens::ints(0..9u8), 0..4), 0..6),
        )
    };
    let test = move |tc: &mut TestCase| {
        let (_, record, _, _) = value().generate(tc);
        if record.is_some() { Outcome::Fail(speccheck_core::FailureInfo::returned("present")) } else { Outcome::Pass }
    };
    let checked = shrink_failures(&test, 0..100, 60, 2000, |seed, best, stats| {
        let shrunk = value().generate(&mut TestCase::replay(best.choices.0.clone(), Tail::Simplest));
        assert_eq!(shrunk, (vec![], Some((0, vec![])), 0, vec![]), "seed {seed}");
        assert_eq!(stats.improvements, 1, "seed {seed}: {} improvements", stats.improvements);
        assert!(stats.steps <= 4, "seed {seed}: {} runs", stats.steps);
    });
    assert!(checked > 20, "only {checked} failing cases");
}

#[test]
fn a_sum_that_must_stay_moves_between_its_terms_in_few_steps() {
    // SmartCheck's T in two values: each below 256, their wrapping sum at
    // least 1280 — only by overflow, so neither value can shrink alone;
    // magnitude must move from one to the other, many times.
    let test = |tc: &mut TestCase| {
        let (a, b) = (gens::uniform(i16::MIN..=i16::MAX), gens::uniform(i16::MIN..=i16::MAX)).generate(tc);
        if a >= 256 || b >= 256 {
            return Outcome::Discard { reason: "each below 256".into() };
        }
        if a.wrapping_add(b) >= 1280 {
            Outcome::Fail(speccheck_core::FailureInfo::returned("sum"))
        } else {
            Outcome::Pass
        }
    };
    let checked = shrink_failures(&test, 0..2000, 100, 5000, |seed, _, stats| {
        assert!(stats.steps <= 400, "seed {seed}: {} runs", stats.steps);
    });
    assert!(checked > 10, "only {checked} failing seeds");
}

#[test]
fn a_tail_the_failure_does_not_need_goes_in_a_few_runs() {
    // The failure needs only the first field; the twelve after it are
    // irrelevant. Zeroing them one by one from the end would take a run
    // each: once the last one is gone, the rest of the tail is cut in
    // growing runs, then bisected.
    type Tail12 = (u16, u16, u16, u16, u16, u16, u16, u16, u16, u16, u16, u16);
    let test = |tc: &mut TestCase| {
        let (head, tail) = (gens::ints(0..1000u16), any::<Tail12>()).generate(tc);
        let _ = tail;
        if head >= 500 { Outcome::Fail(speccheck_core::FailureInfo::returned("head too large")) } else { Outcome::Pass }
    };
    let mut checked = 0;
    for seed in 0..100u64 {
        let first = execute(&test, TestCase::random(seed, 100).with_spans(true));
        let nonzero_tail = first.choices.0[1..].iter().filter(|c| c.value != 0).count();
        if !first.outcome.is_fail() || nonzero_tail < 10 {
            continue;
        }
        // Runs until the first failing case whose tail is all zeros.
        let (mut runs, mut tail_gone_after) = (0, None);
        let mut run = |tc: TestCase| {
            let r = execute(&test, tc);
            runs += 1;
            if tail_gone_after.is_none() && r.outcome.is_fail() && r.choices.0[1..].iter().all(|c| c.value == 0) {
                tail_gone_after = Some(runs);
            }
            r
        };
        let budget = ShrinkBudget { max_steps: 2000, max_time: Duration::from_secs(5) };
        let (best, _) = Shrinker::new(&mut run, first, budget, 12).shrink();
        assert!(best.choices.0[1..].iter().all(|c| c.value == 0), "seed {seed}: the tail stayed");
        assert_eq!(best.choices.0[0].value, 500, "seed {seed}");
        let after = tail_gone_after.expect("the tail went");
        assert!(after <= nonzero_tail / 2 + 4, "seed {seed}: {after} runs to drop a tail of {nonzero_tail} values");
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} cases with a long tail");
}

#[test]
fn an_element_below_the_minimum_length_can_go() {
    // `vec(.., 1..)` holding `[47, 92]` fails for its 92 alone: the first
    // element drew no "more?" choice (the collection needs one), so
    // deleting it must take the next element's "more?" choice with it.
    for seed in 0..20 {
        let config = Config { cases: 2_000, seed: Some(seed), database: None, ..Config::named("below_min") };
        let r =
            Property::new(gens::vec(gens::ints(0..=255u8), 1..8)).config(config).run(|xs: Vec<u8>| !xs.contains(&92));
        let c = r.counterexample().unwrap_or_else(|| panic!("seed {seed}: expected a failure: {r}"));
        assert_eq!(c.inputs[0].1.to_line(), "[92]", "seed {seed}: {r}");
    }
    // And from the input of the report that found the gap.
    let test = |tc: &mut TestCase| {
        let xs = gens::vec(gens::ints(0..=255u8), 1..8).generate(tc);
        if xs.contains(&92) { Outcome::Fail(speccheck_core::FailureInfo::returned("92")) } else { Outcome::Pass }
    };
    let mut enc = speccheck_core::encode::Encoder::new();
    gens::vec(gens::ints(0..=255u8), 1..8).encode(&vec![47u8, 92], &mut enc).expect("encodes");
    let first = execute(&test, TestCase::replay(enc.finish().0, Tail::Simplest).with_spans(true));
    assert!(first.outcome.is_fail());
    let mut run = |tc: TestCase| execute(&test, tc);
    let budget = ShrinkBudget { max_steps: 500, max_time: Duration::from_secs(5) };
    let (best, _) = Shrinker::new(&mut run, first, budget, 12).shrink();
    let xs = gens::vec(gens::ints(0..=255u8), 1..8).generate(&mut TestCase::replay(best.choices.0, Tail::Simplest));
    assert_eq!(xs, vec![92]);
}

/// Failing need not be monotone in a choice: signed integers are ordered
/// 0, 1, -1, 2, -2, …, so "negative" fails at -1 and -2 but not at 1 or 2.
/// Bisection alone can stop above the minimum; the smallest values are
/// tried one by one.
#[test]
fn signed_minima_are_found_where_bisection_skips_them() {
    for seed in 0..20 {
        let config = Config { database: None, seed: Some(seed), ..Config::named("neg") };
        let r = Property::new(any::<(i64, u8)>()).config(config).run(|(a, _): (i64, u8)| a >= 0);
        let speccheck_core::RunVerdict::Failed(c) = &r.verdict else { panic!("seed {seed}: {r}") };
        assert_eq!(c.inputs[0].1.to_line(), "(-1, 0)", "seed {seed}: {r}");
    }
}
