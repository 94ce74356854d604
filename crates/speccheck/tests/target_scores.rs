//! Target's §2 examples (the Scores module): each first version has a bug
//! the SMT strategy finds among the valid inputs, and each fixed version
//! passes on every valid input up to the depth. `padAverage`, the
//! higher-order one, takes a generated function (`Fun`) whose refinement
//! says it only raises a score.

use speccheck::property;
use speccheck::spec::{Targetable, Ty, Value};
use speccheck::target::{ArgSpec, Fun, Strategy, apply};
use speccheck::{Arbitrary, Generator, Property, RunReport, RunVerdict, gens};

#[allow(clippy::too_many_arguments)] // one call per example, every part named
fn run<G>(
    name: &str,
    inputs: G,
    params: Vec<(&str, Ty)>,
    requires: &[&str],
    depth: u32,
    reify: fn(&[Value]) -> Option<G::Value>,
    reflect: fn(&G::Value) -> Vec<Value>,
    body: impl Fn(G::Value) + Send + Sync + 'static,
) -> RunReport
where
    G: Generator + Send + Sync + 'static,
    G::Value: std::fmt::Debug + Send + 'static,
{
    let clauses: Vec<(&str, &str)> = requires.iter().map(|r| (*r, *r)).collect();
    let spec = ArgSpec::new(params.into_iter().map(|(n, t)| (n.to_string(), t)).collect(), &clauses).unwrap();
    let admit = spec.clone();
    let p = Property::new(inputs).configure(|c| {
        c.name = name.into();
        c.database = None;
    });
    apply(p, &spec, Strategy::Smt, depth, reify).run(move |v| {
        admit.admit(&reflect(&v));
        body(v);
    })
}

fn failing_input(r: &RunReport) -> String {
    match &r.verdict {
        RunVerdict::Failed(c) => c.inputs.iter().map(|(_, t)| t.to_string()).collect::<Vec<_>>().join(", "),
        _ => panic!("expected a counterexample: {}", r.summary()),
    }
}

fn three() -> impl Generator<Value = (i64, i64, i64)> {
    gens::arguments((gens::any::<i64>(), gens::any::<i64>(), gens::any::<i64>()))
}

fn reify3(v: &[Value]) -> Option<(i64, i64, i64)> {
    Some((i64::reify(&v[0])?, i64::reify(&v[1])?, i64::reify(&v[2])?))
}

fn reflect3(v: &(i64, i64, i64)) -> Vec<Value> {
    vec![v.0.reflect(), v.1.reflect(), v.2.reflect()]
}

fn rescale(r1: i64, r2: i64, s: i64) -> i64 {
    s * (r2 / r1)
}

#[test]
fn rescale_into_an_empty_range_is_found_then_fixed() {
    let params = || vec![("r1", i64::ty()), ("r2", i64::ty()), ("s", i64::ty())];
    let post = |(r1, r2, s): (i64, i64, i64)| {
        let v = rescale(r1, r2, s);
        assert!(0 <= v && v < r2, "rescale {r1} {r2} {s} = {v}, not in [0, {r2})");
    };
    let nat = ["r1 >= 0 && r2 >= 0 && 0 <= s && s < r1"];
    let r = run("rescale", three(), params(), &nat, 3, reify3, reflect3, post);
    assert_eq!(failing_input(&r), "(1, 0, 0)", "the paper's `rescale 1 0 0`");
    let pos = ["r1 > 0 && r2 > 0 && 0 <= s && s < r1"];
    let r = run("rescale fixed", three(), params(), &pos, 4, reify3, reflect3, post);
    assert!(matches!(r.verdict, RunVerdict::Passed), "{}", r.summary());
    assert!(r.summary().contains("valid inputs up to depth 4"), "{}", r.summary());
}

/// A weighted score (weight, score).
#[derive(Arbitrary, speccheck::Targetable, Clone, Debug, PartialEq)]
struct Weighted(i64, #[refine(0 <= _1 && _1 <= 100)] i64);

fn average(wxs: &[Weighted]) -> i64 {
    if wxs.is_empty() {
        return 0;
    }
    let total: i64 = wxs.iter().map(|w| w.0 * w.1).sum();
    let n: i64 = wxs.iter().map(|w| w.0).sum();
    total / n
}

#[test]
fn average_with_weights_summing_to_zero_is_found_then_fixed() {
    let inputs = || gens::arguments((gens::any::<Vec<Weighted>>(),));
    let reify = |v: &[Value]| Some((Vec::<Weighted>::reify(&v[0])?,));
    let reflect = |v: &(Vec<Weighted>,)| vec![v.0.reflect()];
    let post = |(wxs,): (Vec<Weighted>,)| {
        let a = average(&wxs);
        assert!((0..=100).contains(&a), "average {wxs:?} = {a}");
    };
    let nonzero = ["forall!(w in wxs, w.0 != 0)"];
    let r = run("average", inputs(), vec![("wxs", Vec::<Weighted>::ty())], &nonzero, 3, reify, reflect, post);
    let shown = failing_input(&r);
    assert!(shown.contains("Weighted(1, 0)") && shown.contains("Weighted(-1, 0)"), "weights 1 and -1: {shown}");
    let positive = ["forall!(w in wxs, w.0 > 0)"];
    let r = run("average fixed", inputs(), vec![("wxs", Vec::<Weighted>::ty())], &positive, 3, reify, reflect, post);
    assert!(matches!(r.verdict, RunVerdict::Passed), "{}", r.summary());
}

fn best(k: i64, xs: &[i64]) -> Vec<i64> {
    let mut s = xs.to_vec();
    s.sort();
    s.reverse();
    s.into_iter().take(k as usize).collect()
}

#[test]
fn best_of_too_few_scores_is_found_then_fixed() {
    let inputs = || gens::arguments((gens::any::<i64>(), gens::any::<Vec<i64>>()));
    let reify = |v: &[Value]| Some((i64::reify(&v[0])?, Vec::<i64>::reify(&v[1])?));
    let reflect = |v: &(i64, Vec<i64>)| vec![v.0.reflect(), v.1.reflect()];
    let post = |(k, xs): (i64, Vec<i64>)| {
        let b = best(k, &xs);
        assert_eq!(b.len() as i64, k, "best {k} {xs:?} = {b:?}");
    };
    let params = || vec![("k", i64::ty()), ("xs", Vec::<i64>::ty())];
    let r = run("best", inputs(), params(), &["k >= 0"], 3, reify, reflect, post);
    assert_eq!(failing_input(&r), "(1, [])", "one best score of none");
    let r = run("best fixed", inputs(), params(), &["k >= 0 && k <= len(xs)"], 3, reify, reflect, post);
    assert!(matches!(r.verdict, RunVerdict::Passed), "{}", r.summary());
}

/// `average` with each score padded by `f` first (the paper's `padAverage`).
fn pad_average(f: &Fun<i64, i64>, wxs: &[Weighted]) -> i64 {
    if wxs.is_empty() {
        return f.call(0);
    }
    let total: i64 = wxs.iter().map(|w| w.0 * f.call(w.1)).sum();
    let n: i64 = wxs.iter().map(|w| w.0).sum();
    total / n
}

// Target's check that `padAverage` generalizes `average` safely (with
// positive weights and any padding that keeps a score a score and never
// lowers it, the result is a score) is README.md's sample: tests/readme_fun.rs.

/// Pads the empty average from 100, which is not a score the padding
/// takes: the call breaks `f`'s precondition, and that is the counterexample.
fn pad_average_from_full(f: &Fun<i64, i64>, wxs: &[Weighted]) -> i64 {
    if wxs.is_empty() {
        return f.call(101);
    }
    pad_average(f, wxs)
}

#[property(strategy = lazy, depth = 3)]
#[should_panic(expected = "`f` was called with s = 101, outside its precondition `(0 <= s) && (s <= 100)`")]
fn a_call_outside_the_functions_precondition_is_a_counterexample(
    #[refine(|s| 0 <= s && s <= 100 ==> s <= result && result <= 100)] f: Fun<i64, i64>,
    #[refine(forall!(w in wxs, w.0 > 0))] wxs: Vec<Weighted>,
) -> bool {
    (0..=100).contains(&pad_average_from_full(&f, &wxs))
}
