//! What a refined property's report says it tested (issue #41 item 3):
//! a generated function is enumerated as a few variants, and the report
//! says so instead of "all N valid inputs"; inputs the default strategy
//! added to random ones (the smallest valid inputs, from the solver or the
//! lazy enumeration) are reported with their sizes.

use speccheck::spec::{Targetable, Value};
use speccheck::target::{ArgSpec, Fun, Strategy, apply, apply_default, apply_topped_up};
use speccheck::{Property, RunReport, RunVerdict, any, gens};

mod common;
use common::{List, ordered, size};

/// `f` raises a score and keeps it a score: `s <= f(s) <= 10`.
const RAISE: &str = "0 <= s && s <= 10 ==> s <= result && result <= 10";

fn reify_fun(v: &[Value]) -> Option<(Fun<i64, i64>, i64)> {
    Some((Fun::reify(v.first()?)?, i64::reify(v.get(1)?)?))
}

/// Tests `s <= f(s)` for every valid input the strategy yields at depth 2.
fn run_fun(strategy: Strategy) -> RunReport {
    let spec = ArgSpec::new(
        vec![("f".into(), Fun::<i64, i64>::ty()), ("s".into(), i64::ty())],
        &[("0 <= s && s <= 10", "0 <= s && s <= 10")],
    )
    .unwrap()
    .with_functions(&[("f", <Fun<i64, i64> as Targetable>::FUNCTION), ("s", <i64 as Targetable>::FUNCTION)]);
    let admit = spec.clone();
    let raise = std::sync::Arc::new(speccheck::target::FunSpec::new("f", "s", RAISE).unwrap());
    let p = Property::new(gens::arguments((any::<Fun<i64, i64>>(), any::<i64>()))).configure(|c| {
        c.name = format!("raise by {strategy}");
        c.database = None;
    });
    apply(p, &spec, strategy, 2, reify_fun).run(move |(f, s): (Fun<i64, i64>, i64)| {
        admit.admit(&[f.reflect(), s.reflect()]);
        let f = f.refined(&raise);
        assert!(s <= f.call(s));
    })
}

#[test]
fn a_generated_function_is_reported_as_variants_not_every_function() {
    for strategy in [Strategy::Exhaustive, Strategy::Lazy, Strategy::Smt] {
        let r = run_fun(strategy);
        assert!(matches!(r.verdict, RunVerdict::Passed), "{strategy}: {}", r.summary());
        let summary = r.summary();
        // Depth 2: variants 0..=4 of `f`, scores 0..=2.
        assert_eq!(r.stats.passed, 5 * 3, "{strategy}: {summary}");
        let caveat = "the generated function `f` only as its 5 variants 0..=4 (at depth 2), not as every function";
        assert!(summary.contains(caveat), "{strategy}: {summary}");
        assert!(r.notes.iter().any(|n| n.contains(caveat)), "{strategy}: {:?}", r.notes);
    }
}

#[test]
fn without_a_generated_function_the_count_is_every_valid_input() {
    let spec = ArgSpec::new(vec![("l".into(), List::ty())], &[]).unwrap().with_functions(&[("l", false)]);
    assert_eq!(spec.coverage_caveat(3), None);
    let p = Property::new(gens::arguments((any::<List>(),))).configure(|c| c.database = None);
    let r = apply(p, &spec, Strategy::Lazy, 2, |v| Some((List::reify(v.first()?)?,))).run(|_: (List,)| {});
    assert!(r.summary().contains("valid inputs up to depth 2)"), "{}", r.summary());
}

/// A filter random lists rarely meet: filtered random generation is topped
/// up from the solver or the enumeration, whose inputs are the smallest
/// valid ones, and says how large they were.
#[test]
fn a_top_up_says_how_large_its_inputs_were() {
    let rare = "ordered(l) && size(l) >= 3";
    let spec = ArgSpec::new(vec![("l".into(), List::ty())], &[(rare, rare)]).unwrap();
    let admit = spec.clone();
    let p = Property::new(gens::arguments((any::<List>(),))).configure(|c| {
        c.name = "top-up sizes".into();
        c.database = None;
        c.cases = 100;
    });
    let r = apply_topped_up(p, &spec, 5, |v| Some((List::reify(v.first()?)?,))).run(move |(l,): (List,)| {
        admit.admit(&[l.reflect()]);
        assert!(ordered(&l) && size(&l) >= 3);
    });
    assert!(matches!(r.verdict, RunVerdict::Passed) && r.stats.topped_up.is_some(), "{}", r.summary());
    let note = r.notes.iter().find(|n| n.contains("more inputs came from")).expect("a top-up note");
    // "… N more inputs came from …; their sizes in constructors: 4 ×a, 5 ×b (mean …)".
    let added: u64 = note.split(" more inputs came from").next().unwrap().rsplit(' ').next().unwrap().parse().unwrap();
    let sizes = note.split("their sizes in constructors: ").nth(1).unwrap_or_else(|| panic!("no sizes: {note}"));
    let histogram: Vec<(u64, u64)> = sizes
        .split(" (mean")
        .next()
        .unwrap()
        .split(", ")
        .map(|e| {
            let (size, n) = e.split_once(" ×").unwrap();
            (size.parse().unwrap(), n.parse().unwrap())
        })
        .collect();
    assert_eq!(histogram.iter().map(|(_, n)| n).sum::<u64>(), added, "{note}");
    // Three cells and `Nil` at least; the smallest first.
    assert!(histogram.iter().all(|&(size, _)| size >= 4), "{note}");
    assert_eq!(histogram[0].0, 4, "{note}");
    assert!(note.contains("the smallest valid inputs, not a random sample"), "{note}");
}

/// The same filter under the default strategy: every input comes from the
/// sampler, valid by construction and of many sizes (not only the
/// smallest), and the report says so.
#[test]
fn the_default_samples_valid_inputs_of_many_sizes_and_says_so() {
    let rare = "ordered(l) && size(l) >= 3";
    let spec = ArgSpec::new(vec![("l".into(), List::ty())], &[(rare, rare)]).unwrap();
    let admit = spec.clone();
    let p = Property::new(gens::arguments((any::<List>(),))).configure(|c| {
        c.name = "sampled sizes".into();
        c.database = None;
        c.cases = 100;
    });
    let r = apply_default(p, &spec, 5, |v| Some((List::reify(v.first()?)?,))).run(move |(l,): (List,)| {
        admit.admit(&[l.reflect()]);
        assert!(ordered(&l) && size(&l) >= 3);
    });
    assert!(matches!(r.verdict, RunVerdict::Passed) && r.stats.passed == 100, "{}", r.summary());
    assert_eq!(r.stats.discarded + r.stats.invalid, 0, "{:?}", r.stats);
    let note = r.notes.iter().find(|n| n.contains("inputs came from the sampler")).expect("a sampler note");
    assert!(note.starts_with("the 100 inputs came from the sampler"), "{note}");
    let sizes = note.split("their sizes in constructors: ").nth(1).unwrap_or_else(|| panic!("no sizes: {note}"));
    let distinct = sizes.split(" (mean").next().unwrap().split(", ").count();
    assert!(distinct >= 10, "{note}");
    assert!(note.contains("random valid inputs, sized by the run's size ramp"), "{note}");
    // The first hundred are built afresh, and the note says nothing more.
    assert!(!note.contains("spliced"), "{note}");
}

/// Past the first hundred inputs most are spliced from parts of earlier
/// ones; the report says how many, so that they are not taken for
/// independent draws.
#[test]
fn a_long_sampled_run_says_how_many_inputs_were_spliced() {
    let rare = "ordered(l) && size(l) >= 3";
    let spec = ArgSpec::new(vec![("l".into(), List::ty())], &[(rare, rare)]).unwrap();
    let p = Property::new(gens::arguments((any::<List>(),))).configure(|c| {
        c.name = "spliced sizes".into();
        c.database = None;
        c.cases = 400;
    });
    let r = apply_default(p, &spec, 5, |v| Some((List::reify(v.first()?)?,))).run(move |(l,): (List,)| {
        assert!(ordered(&l) && size(&l) >= 3);
    });
    assert!(matches!(r.verdict, RunVerdict::Passed) && r.stats.passed == 400, "{}", r.summary());
    let note = r.notes.iter().find(|n| n.contains("inputs came from the sampler")).expect("a sampler note");
    let spliced: u64 = note
        .split(" of them, after the first 100, spliced from parts of earlier ones")
        .next()
        .and_then(|before| before.rsplit("; ").next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count of spliced inputs: {note}"));
    assert!((100..=300).contains(&spliced), "{note}");
}
