//! The four strategies of a refined property, as a user meets them: the
//! same valid inputs by construction (lazy, SMT) or by filtering (random,
//! exhaustive); a bug found and shrunk whichever made the input; and the
//! bad inputs (a vacuous spec, a spec outside the solver's fragment, a
//! measure that does not terminate) each reported as what they are.

use speccheck::spec::{Targetable as _, Value};
use speccheck::target::{ArgSpec, Strategy, apply, apply_default, apply_topped_up};
use speccheck::{Property, RunReport, RunVerdict, any, gens, measure, property};

mod common;
use common::{List, ordered, size};

/// Goes round forever on a `Cons` (the spec evaluator must say so).
#[measure]
#[allow(dead_code)]
fn spins(l: &List) -> bool {
    match l {
        List::Nil => true,
        List::Cons(_, _) => spins(l),
    }
}

fn insert(l: List, x: i64) -> List {
    match l {
        List::Cons(h, t) if h < x => List::Cons(h, Box::new(insert(*t, x))),
        l => List::Cons(x, Box::new(l)),
    }
}

/// Drops duplicates: not what `insert` promises.
fn insert_dedup(l: List, x: i64) -> List {
    match l {
        List::Cons(h, t) if h < x => List::Cons(h, Box::new(insert_dedup(*t, x))),
        List::Cons(h, t) if h == x => List::Cons(h, t),
        l => List::Cons(x, Box::new(l)),
    }
}

fn reify(v: &[Value]) -> Option<(List, i64)> {
    Some((List::reify(v.first()?)?, i64::reify(v.get(1)?)?))
}

/// The spec of the argument pair `(l, x)`: `requires` over them.
fn list_spec(requires: &str) -> ArgSpec {
    ArgSpec::new(vec![("l".into(), List::ty()), ("x".into(), i64::ty())], &[(requires, requires)]).unwrap()
}

/// A property over the pair `(l, x)`, its settings the caller's.
fn list_property() -> Property<impl speccheck::Generator<Value = (List, i64)> + 'static> {
    Property::new(gens::arguments((any::<List>(), any::<i64>())))
}

fn run(strategy: Strategy, requires: &str, depth: u32, f: fn(List, i64) -> List) -> RunReport {
    let spec = list_spec(requires);
    let admit = spec.clone();
    let p = list_property().configure(|c| {
        c.name = format!("insert by {strategy}");
        c.database = None;
        c.cases = 300;
    });
    apply(p, &spec, strategy, depth, reify).run(move |(l, x): (List, i64)| {
        admit.admit(&[l.reflect(), x.reflect()]);
        let n = size(&l);
        let r = f(l, x);
        assert!(ordered(&r), "not ordered: {r:?}");
        assert_eq!(size(&r), n + 1, "lost an element: {r:?}");
    })
}

#[test]
fn every_strategy_tests_the_same_valid_inputs() {
    let counts: Vec<u64> = [Strategy::Exhaustive, Strategy::Lazy, Strategy::Smt, Strategy::Auto]
        .into_iter()
        .map(|s| {
            let r = run(s, "ordered(l)", 4, insert);
            assert!(matches!(r.verdict, RunVerdict::Passed), "{s}: {}", r.summary());
            r.stats.passed
        })
        .collect();
    assert!(counts[0] > 10 && counts.iter().all(|&c| c == counts[0]), "{counts:?}");
    let lazy = run(Strategy::Lazy, "ordered(l)", 4, insert);
    assert!(lazy.summary().contains(&format!("all {} valid inputs up to depth 4", counts[0])), "{}", lazy.summary());
    let random = run(Strategy::Random, "ordered(l)", 4, insert);
    assert!(matches!(random.verdict, RunVerdict::Passed), "{}", random.summary());
}

/// The same inputs as sets, not only as counts: the exhaustive strategy
/// (the core's enumeration, filtered by the evaluator) against the lazy
/// enumeration, the solver and `auto` (which takes the lazy enumeration
/// here; the solver's pick is checked the same way below).
#[test]
fn every_strategy_tests_exactly_the_inputs_the_brute_force_admits() {
    let inputs = |s: Strategy| {
        let spec = list_spec("ordered(l)");
        let p = list_property().configure(|c| {
            c.name = format!("the inputs of {s}");
            c.database = None;
            c.cases = u32::MAX;
        });
        let seen = std::sync::Arc::new(std::sync::Mutex::new(std::collections::BTreeSet::new()));
        let into = seen.clone();
        let admit = spec.clone();
        let r = apply(p, &spec, s, 4, reify).run(move |(l, x): (List, i64)| {
            // The prologue `#[property]` writes: the exhaustive strategy's
            // filter, a check of the others' inputs.
            admit.admit(&[l.reflect(), x.reflect()]);
            let input = format!("{l:?}, {x}");
            assert!(into.lock().unwrap().insert(input.clone()), "{input} twice");
        });
        assert!(matches!(r.verdict, RunVerdict::Passed), "{s}: {}", r.summary());
        seen.lock().unwrap().clone()
    };
    let brute = inputs(Strategy::Exhaustive);
    assert!(brute.len() > 10, "{brute:?}");
    for s in [Strategy::Lazy, Strategy::Smt, Strategy::Auto] {
        let got = inputs(s);
        let (extra, missed) = (got.difference(&brute).count(), brute.difference(&got).count());
        assert_eq!((extra, missed), (0, 0), "{s}: inputs the brute force lacks, and inputs missed");
    }
}

#[test]
fn a_bug_is_found_and_shrunk_whichever_strategy_made_the_input() {
    for s in [Strategy::Exhaustive, Strategy::Lazy, Strategy::Smt, Strategy::Auto] {
        let r = run(s, "ordered(l)", 3, insert_dedup);
        let RunVerdict::Failed(c) = &r.verdict else { panic!("{s}: {}", r.summary()) };
        let shown = c.inputs.iter().map(|(n, t)| format!("{n} = {t}")).collect::<Vec<_>>().join(", ");
        // The smallest duplicate: one element, inserted again.
        assert!(shown.contains("(Cons(0, Nil), 0)"), "{s}: {shown}");
    }
}

#[test]
fn a_vacuous_spec_is_reported_not_passed() {
    for s in [Strategy::Lazy, Strategy::Smt, Strategy::Auto] {
        let r = run(s, "size(l) > 9", 3, insert);
        let RunVerdict::GaveUp { reason } = &r.verdict else { panic!("{s}: {}", r.summary()) };
        assert!(reason.contains("no valid inputs up to depth 3") && reason.contains("vacuous"), "{reason}");
        assert!(reason.contains("size(l) > 9"), "names the spec: {reason}");
        // The advice fits: nothing was rejected, nothing exists.
        let text = r.to_string();
        assert!(text.contains("No input satisfies") && !text.contains("rejections by reason"), "{text}");
    }
}

#[test]
fn a_spec_outside_the_solvers_fragment_falls_back_to_lazy_with_a_warning() {
    let r = run(Strategy::Smt, "ordered(l) && x * x < size(l) * 3", 3, insert);
    assert!(matches!(r.verdict, RunVerdict::Passed), "{}", r.summary());
    let w = r.warnings.join("\n");
    assert!(w.contains("x * x") && w.contains("lazy strategy instead"), "{w}");
    let text = r.to_string();
    assert!(text.contains("(from the lazy enumeration (the spec is outside the SMT fragment))"), "{text}");
    let lazy = run(Strategy::Lazy, "ordered(l) && x * x < size(l) * 3", 3, insert);
    assert!(r.stats.passed > 0 && r.stats.passed == lazy.stats.passed, "{} vs {}", r.stats.passed, lazy.stats.passed);
}

#[test]
fn a_measure_that_does_not_terminate_is_reported_as_such() {
    for s in [Strategy::Lazy, Strategy::Exhaustive, Strategy::Smt] {
        let r = run(s, "spins(l)", 2, insert);
        let text = format!("{r:?}");
        assert!(!r.passed(), "{s}: {}", r.summary());
        assert!(text.contains("`spins` does not terminate"), "{s}: {text}");
    }
}

// The same through `#[property]`: refined arguments, each strategy.

#[property(strategy = smt, depth = 4)]
fn insert_keeps_order_smt(#[refine(ordered(l))] l: List, x: i64) {
    assert!(ordered(&insert(l, x)));
}

#[property(strategy = lazy, depth = 4)]
fn insert_keeps_order_lazy(#[refine(ordered(l))] l: List, x: i64) {
    assert!(ordered(&insert(l, x)));
}

#[property(strategy = "exhaustive", depth = 3)]
fn insert_keeps_order_exhaustive(#[refine(ordered(l))] l: List, #[refine(x >= 0 ==> size(l) < 3)] x: i64) {
    assert!(ordered(&insert(l, x)));
}

#[property(cases = 50)]
fn insert_keeps_order_random(#[refine(ordered(l))] l: List, x: i64) {
    assert!(ordered(&insert(l, x)));
}

#[test]
fn auto_takes_a_spec_outside_the_solver_without_a_warning() {
    // Non-linear arithmetic: smt warns and falls back; auto just enumerates.
    let spec = "ordered(l) && x * x < size(l) * 3";
    let smt = run(Strategy::Smt, spec, 3, insert);
    let auto = run(Strategy::Auto, spec, 3, insert);
    assert!(matches!(auto.verdict, RunVerdict::Passed), "{}", auto.summary());
    assert_eq!(auto.stats.passed, smt.stats.passed);
    assert!(auto.warnings.is_empty(), "{:?}", auto.warnings);
    // The report says how the inputs were found: not by the solver.
    let text = auto.to_string();
    assert!(text.contains("the lazy enumeration (outside the SMT solver's fragment"), "{text}");
}

#[test]
fn auto_says_which_way_was_faster_and_goes_on_from_its_trial() {
    // 12,012 valid inputs at depth 6: more than a trial of either way
    // makes in a debug build, so the way picked goes on from its trial.
    let all = |s: Strategy| {
        let spec = list_spec("ordered(l)");
        let p = list_property().configure(|c| {
            c.name = format!("insert by {s}, every input");
            c.database = None;
            c.cases = u32::MAX;
        });
        apply(p, &spec, s, 6, reify).run(|(l, x): (List, i64)| assert!(ordered(&insert(l, x))))
    };
    let (lazy, auto) = (all(Strategy::Lazy), all(Strategy::Auto));
    assert!(matches!(auto.verdict, RunVerdict::Passed), "{}", auto.summary());
    // Every input once: none lost or repeated between the trial and the rest.
    assert_eq!((auto.stats.passed, lazy.stats.passed), (12_012, 12_012));
    let text = auto.to_string();
    assert!(text.contains("auto's trial at depth 6: the lazy enumeration made"), "{text}");
    assert!(text.contains(", the SMT solver "), "{text}");
    assert!(auto.warnings.is_empty(), "{:?}", auto.warnings);
}

#[test]
fn auto_takes_the_solver_where_the_enumeration_cannot_refute_partial_inputs() {
    // Five integers of -8..=8 summing to 37: the lazy enumeration refutes
    // nothing before all five are drawn (1.4 million inputs to judge for
    // 35 valid ones); the solver makes the 35 at once.
    let names = ["a", "b", "c", "d", "e"];
    let sum = "a + b + c + d + e == 37";
    let spec = ArgSpec::new(names.iter().map(|n| (n.to_string(), i64::ty())).collect(), &[(sum, sum)]).unwrap();
    let p = Property::new(gens::arguments((any::<i64>(), any::<i64>(), any::<i64>(), any::<i64>(), any::<i64>())))
        .configure(|c| {
            c.name = "five integers by auto".into();
            c.database = None;
            c.cases = u32::MAX;
        });
    let reify = |v: &[Value]| {
        let i = |k: usize| i64::reify(v.get(k)?);
        Some((i(0)?, i(1)?, i(2)?, i(3)?, i(4)?))
    };
    let seen = std::sync::Arc::new(std::sync::Mutex::new(std::collections::BTreeSet::new()));
    let into = seen.clone();
    let r = apply(p, &spec, Strategy::Auto, 8, reify).run(move |(a, b, c, d, e)| {
        assert_eq!(a + b + c + d + e, 37);
        assert!(into.lock().unwrap().insert([a, b, c, d, e]), "{:?} twice", [a, b, c, d, e]);
    });
    assert!(matches!(r.verdict, RunVerdict::Passed), "{}", r.summary());
    assert_eq!(r.stats.passed, 35, "{}", r.summary());
    // Exactly the 35 a brute force over the depth's integers finds.
    let w = -8i64..=8;
    let mut brute = std::collections::BTreeSet::new();
    for a in w.clone() {
        for b in w.clone() {
            for c in w.clone() {
                for d in w.clone() {
                    let e = 37 - a - b - c - d;
                    if w.contains(&e) {
                        brute.insert([a, b, c, d, e]);
                    }
                }
            }
        }
    }
    assert_eq!(*seen.lock().unwrap(), brute);
    let text = r.to_string();
    assert!(text.contains("the SMT solver (z3) (auto's trial at depth 8"), "{text}");
    assert!(text.contains("the SMT solver all 35 valid inputs"), "{text}");
}

#[test]
fn a_height_bound_keeps_only_the_inputs_that_tall_or_says_there_are_none() {
    let run_from = |s: Strategy, height: u32| {
        let spec = list_spec("ordered(l)").from_height(height);
        let p = list_property().configure(|c| {
            c.name = format!("insert by {s}, lists at least {height} long");
            c.database = None;
            c.cases = u32::MAX;
        });
        apply(p, &spec, s, 4, reify).run(move |(l, x): (List, i64)| {
            assert!(size(&l) >= i64::from(height), "{l:?} is shorter than {height}");
            assert!(ordered(&insert(l, x)));
        })
    };
    // Lists of length 3 and 4 only (a list is as tall as it is long).
    let all = run(Strategy::Lazy, "ordered(l)", 4, insert).stats.passed;
    let counts: Vec<u64> = [Strategy::Lazy, Strategy::Smt, Strategy::Auto]
        .into_iter()
        .map(|s| {
            let r = run_from(s, 3);
            assert!(matches!(r.verdict, RunVerdict::Passed), "{s}: {}", r.summary());
            assert!(r.summary().contains("only those of height at least 3"), "{}", r.summary());
            r.stats.passed
        })
        .collect();
    assert!(counts[0] > 0 && counts[0] < all && counts.iter().all(|&c| c == counts[0]), "{counts:?} of {all}");
    // No list up to depth 4 is 5 long: said, never a pass.
    for s in [Strategy::Lazy, Strategy::Smt, Strategy::Auto] {
        let r = run_from(s, 5);
        let RunVerdict::GaveUp { reason } = &r.verdict else { panic!("{s}: {}", r.summary()) };
        assert!(reason.contains("no valid inputs of height at least 5 up to depth 4"), "{reason}");
    }
}

/// A failure saved before the bound was set (a short list) is not an input
/// under it: the replay discards it, as it discards an input a refinement
/// rejects, instead of failing the property on it.
#[test]
fn a_failure_saved_before_a_height_bound_is_not_an_input_under_it() {
    let dir = tempfile::tempdir().unwrap();
    let run = |height: u32| {
        let spec = list_spec("ordered(l)").from_height(height);
        let admit = spec.clone();
        let db = dir.path().to_path_buf();
        let p = list_property().configure(move |c| {
            c.name = "lists at least three long".into();
            c.database = Some(db.clone());
            c.database_writes = true;
            c.cases = 1000;
        });
        apply(p, &spec, Strategy::Lazy, 4, reify).run(move |(l, x): (List, i64)| {
            admit.admit(&[l.reflect(), x.reflect()]);
            assert!(size(&l) >= 3, "{l:?} is shorter than 3");
        })
    };
    let before = run(0);
    assert!(matches!(before.verdict, RunVerdict::Failed { .. }), "{}", before.summary());
    let after = run(3);
    assert!(matches!(after.verdict, RunVerdict::Passed), "{}", after.summary());
    assert!(after.to_string().contains("a saved failure of `lists at least three long` no longer fits"), "{after}");
}

/// The same bound from `#[property]`: every list the body sees is at least
/// three long (a shorter one fails the assertion).
#[property(strategy = smt, depth = 4, min_height = 3, cases = 100_000)]
fn a_property_with_min_height_sees_only_inputs_that_tall(#[refine(ordered(l))] l: List, x: i64) {
    assert!(size(&l) >= 3, "{l:?} is shorter than 3");
    assert!(ordered(&insert(l, x)));
}

/// A bound no input up to the depth meets gives up from `#[property]` too.
#[property(strategy = lazy, depth = 3, min_height = 4)]
#[should_panic(expected = "no valid inputs of height at least 4 up to depth 3")]
fn a_property_whose_min_height_no_input_meets_gives_up(#[refine(ordered(l))] l: List) {
    let _ = l;
}

/// Filtered random values, topped up from the solver or the lazy
/// enumeration when the filter rejects most of them ([`apply_topped_up`]),
/// or the default (the sampler).
fn run_with(topped_up: bool, requires: &str, body: fn(List, i64)) -> RunReport {
    let spec = list_spec(requires);
    let admit = spec.clone();
    let p = list_property().configure(|c| {
        c.name = format!("default strategy, {requires}");
        c.database = None;
        c.cases = 50;
    });
    let p = if topped_up { apply_topped_up(p, &spec, 5, reify) } else { apply_default(p, &spec, 5, reify) };
    p.run(move |(l, x): (List, i64)| {
        admit.admit(&[l.reflect(), x.reflect()]);
        body(l, x)
    })
}

fn run_default(requires: &str, body: fn(List, i64)) -> RunReport {
    run_with(false, requires, body)
}

fn run_topped_up(requires: &str, body: fn(List, i64)) -> RunReport {
    run_with(true, requires, body)
}

/// Random lists are rarely ordered lists of three.
const RARE: &str = "size(l) == 3 && ordered(l)";

#[test]
fn a_filter_random_values_rarely_meet_is_met_by_the_solver_for_the_rest() {
    let r = run_topped_up(RARE, |l, _| assert!(size(&l) == 3 && ordered(&l)));
    assert!(matches!(r.verdict, RunVerdict::Passed), "{}", r.summary());
    assert!(r.stats.passed >= 50 && r.stats.topped_up.is_some(), "{:?}", r.stats);
    let notes = r.notes.join("\n");
    assert!(notes.contains("random inputs met the filter") && notes.contains("more inputs came from"), "{notes}");
    assert!(r.warnings.iter().all(|w| !w.contains("most generated inputs were rejected")), "{:?}", r.warnings);
    // A filter random values mostly meet is left to them.
    let r = run_topped_up("x != 3", |_, x| assert_ne!(x, 3));
    assert!(matches!(r.verdict, RunVerdict::Passed) && r.stats.topped_up.is_none(), "{}", r.summary());
}

#[test]
fn the_default_meets_a_rare_filter_with_every_input() {
    let r = run_default(RARE, |l, _| assert!(size(&l) == 3 && ordered(&l)));
    assert!(matches!(r.verdict, RunVerdict::Passed) && r.stats.passed == 50, "{}", r.summary());
    assert_eq!(r.stats.discarded + r.stats.invalid, 0, "{:?}", r.stats);
    assert!(r.notes.iter().any(|n| n.starts_with("the 50 inputs came from the sampler")), "{:?}", r.notes);
}

#[test]
fn the_fallback_finds_a_bug_on_the_inputs_it_supplies() {
    let r = run_topped_up(RARE, |l, _| assert!(size(&l) < 3, "a list of three"));
    assert!(matches!(r.verdict, RunVerdict::Failed(_)), "{}", r.summary());
    assert!(format!("{r}").contains("a list of three"), "{r}");
    // And the default, from the sampler.
    let r = run_default(RARE, |l, _| assert!(size(&l) < 3, "a list of three"));
    assert!(matches!(r.verdict, RunVerdict::Failed(_)), "{}", r.summary());
    assert!(format!("{r}").contains("a list of three"), "{r}");
}

#[test]
fn a_fallback_cut_short_of_the_cases_gives_up_and_says_how_far_it_got() {
    let spec = list_spec(RARE);
    let admit = spec.clone();
    let p = list_property().configure(|c| {
        c.name = "fallback cut short".into();
        c.database = None;
        c.cases = 50;
        c.max_enumerated = 3;
    });
    let r =
        apply_topped_up(p, &spec, 5, reify).run(move |(l, x): (List, i64)| admit.admit(&[l.reflect(), x.reflect()]));
    let RunVerdict::GaveUp { reason } = &r.verdict else { panic!("a short run is no pass: {}", r.summary()) };
    assert!(reason.contains("stopped after 3 inputs") && reason.contains("of the 50 cases asked for"), "{reason}");
}

#[test]
fn a_vacuous_filter_gives_up_after_the_fallback_finds_nothing() {
    let r = run_topped_up("x == 1 && x == 2", |_, _| {});
    let RunVerdict::GaveUp { reason } = &r.verdict else { panic!("{}", r.summary()) };
    assert!(
        reason.contains("random inputs met the filter in none of")
            && reason.contains("found no valid inputs up to depth 5"),
        "{reason}"
    );
    // The default: the sampler finds none, and says so.
    let r = run_default("x == 1 && x == 2", |_, _| {});
    let RunVerdict::GaveUp { reason } = &r.verdict else { panic!("{}", r.summary()) };
    assert!(reason.contains("found no input satisfying `x == 1 && x == 2` of any size"), "{reason}");
}

#[property(cases = 30)]
fn a_refined_property_without_a_strategy_reaches_rare_values(#[refine(size(l) == 3 && ordered(l))] l: List) {
    assert!(size(&l) == 3 && ordered(&l));
}

/// A strategy that goes a long way between inputs does not hold the run
/// past its time budget: the lazy enumeration of a spec it cannot refute
/// early (only whole lists have a size, and none up to depth 12 is longer
/// than 12) makes no input for hours, and the run ends when the budget
/// does, incomplete, having tested nothing.
#[test]
fn a_strategy_slow_to_its_next_input_ends_with_the_time_budget() {
    let spec = list_spec("ordered(l) && size(l) > 12");
    let p = list_property().configure(|c| {
        c.name = "nothing for hours".into();
        c.database = None;
        c.time_budget = Some(std::time::Duration::from_millis(300));
    });
    let r = apply(p, &spec, Strategy::Lazy, 12, reify).run(|_: (List, i64)| -> bool { panic!("no input is valid") });
    let RunVerdict::Incomplete { reason } = &r.verdict else { panic!("{}", r.summary()) };
    assert!(reason.contains("stopped after 0 inputs because the time budget of 300.0 ms ran out"), "{reason}");
}

/// Neither the sampler nor the enumerations build set-typed inputs: a
/// rare filter on one is met by random values alone, and when they
/// rarely meet it the run gives up, saying how far it got and why the
/// rest could not come from elsewhere (not an error of the property).
#[test]
fn a_set_typed_argument_random_values_rarely_meet_gives_up_and_says_why() {
    use std::collections::BTreeSet;
    let run_with = |requires: &str, allow_partial: bool| {
        let spec = ArgSpec::new(vec![("s".into(), BTreeSet::<i64>::ty())], &[(requires, requires)]).unwrap();
        let admit = spec.clone();
        let p = Property::new(gens::arguments((any::<BTreeSet<i64>>(),))).configure(|c| {
            c.name = format!("a set, {requires}");
            c.database = None;
            c.cases = 50;
            c.seed = Some(1);
            c.allow_partial = allow_partial;
        });
        let reify = |v: &[Value]| Some((BTreeSet::<i64>::reify(v.first()?)?,));
        apply_default(p, &spec, 4, reify).run(move |(s,): (BTreeSet<i64>,)| admit.admit(&[s.reflect()]))
    };
    let run = |requires: &str| run_with(requires, false);
    let run_partial = |requires: &str| run_with(requires, true);
    let r = run("member(7, s) && member(8, s)");
    let RunVerdict::GaveUp { reason } = &r.verdict else { panic!("{}", r.summary()) };
    assert!(
        reason.starts_with("random inputs met the filter")
            && reason.contains("the lazy enumeration or the solver stopped after 0 inputs")
            && reason.contains("neither builds a set-typed input (argument `s` holds a set)")
            && reason.contains("of the 50 cases asked for were tested"),
        "{reason}"
    );
    // A partial run allowed: it passes on what random generation found,
    // claims no top-up, and keeps the filter's warning.
    let r = run_partial("member(0, s) && member(1, s) && member(2, s)");
    assert!(r.passed() && r.stats.passed > 0 && r.stats.topped_up.is_none(), "{}", r.summary());
    assert!(r.warnings.iter().any(|w| w.contains("most generated inputs were rejected")), "{:?}\n{r}", r.warnings);
    assert!(r.notes.iter().any(|n| n.contains("0 more inputs came from the lazy enumeration or the solver")), "{r}");
    // A filter random sets mostly meet needs no other source.
    let r = run("!member(7, s)");
    assert!(r.passed() && r.stats.topped_up.is_none(), "{}", r.summary());
}

/// True the first time it sees a value, false after: a spec that is not
/// a function of its input (a predicate reading state, time or
/// randomness), so judging an input again changes the answer.
static SEEN: std::sync::Mutex<Vec<i64>> = std::sync::Mutex::new(Vec::new());

#[speccheck::predicate]
fn first_sight(x: &i64) -> bool {
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    if seen.contains(x) {
        return false;
    }
    seen.push(*x);
    true
}

/// Every input a strategy builds is judged again by the evaluator before
/// the body sees it: one the second judgement rejects ends the run with an
/// error naming the input (never a case run on it, never a silent
/// rejection), and the error names what causes that besides a bug.
#[test]
fn an_input_the_evaluator_rejects_after_a_strategy_built_it_ends_the_run() {
    for strategy in [Strategy::Lazy, Strategy::Sample] {
        let spec = ArgSpec::new(vec![("x".into(), i64::ty())], &[("first_sight(x)", "first_sight(x)")]).unwrap();
        let p = Property::new(gens::arguments((any::<i64>(),))).configure(|c| {
            c.name = format!("a predicate with a memory, by {strategy}");
            c.database = None;
            c.cases = 20;
        });
        let ran = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let body_ran = ran.clone();
        let reify = |v: &[Value]| Some((i64::reify(v.first()?)?,));
        let r = apply(p, &spec, strategy, 2, reify).run(move |(_,): (i64,)| {
            body_ran.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        });
        let RunVerdict::Error(e) = &r.verdict else { panic!("{strategy}: {}", r.summary()) };
        assert!(
            e.contains("produced the input")
                && e.contains("which the spec")
                && e.contains("not a function of its input"),
            "{strategy}: {e}"
        );
        assert!(ran.load(std::sync::atomic::Ordering::SeqCst) <= 1, "{strategy}: the body ran on rejected inputs");
    }
}
