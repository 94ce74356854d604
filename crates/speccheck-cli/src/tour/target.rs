//! Tour stop: type targeted testing (Target) — a refinement on the input
//! type, the SMT solver producing every valid input up to a depth, the
//! lazy and exhaustive baselines testing the same inputs, and a spec with
//! no valid input reported as vacuous.

use speccheck::spec::{Targetable as _, Value};
use speccheck::target::{ArgSpec, Strategy, apply};
use speccheck::{Arbitrary, Config, Property, RunReport, Targetable, gens, measure};

use super::{Expect, Finding, Stop, check, check_that};

pub fn stop() -> Stop {
    Stop { name: "target", title: "refinement specs solved by SMT: every valid input up to a depth (Target)", run }
}

/// A list whose tail's elements are never smaller than its head.
#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq)]
pub enum Sorted {
    Nil,
    Cons(i64, #[refine(at_least(_1, _0))] Box<Sorted>),
}

#[measure]
pub fn at_least(l: &Sorted, x: i64) -> bool {
    match l {
        Sorted::Nil => true,
        Sorted::Cons(h, t) => *h >= x && at_least(t, x),
    }
}

#[measure]
pub fn length(l: &Sorted) -> i64 {
    match l {
        Sorted::Nil => 0,
        Sorted::Cons(_, t) => 1 + length(t),
    }
}

/// Insertion with a planted bug: an element already there is dropped.
fn insert(x: i64, l: Sorted, buggy: bool) -> Sorted {
    match l {
        Sorted::Cons(h, t) if h < x => Sorted::Cons(h, Box::new(insert(x, *t, buggy))),
        Sorted::Cons(h, t) if h == x && buggy => Sorted::Cons(h, t),
        l => Sorted::Cons(x, Box::new(l)),
    }
}

fn sorted(l: &Sorted) -> bool {
    match l {
        Sorted::Nil => true,
        Sorted::Cons(h, t) => at_least(t, *h) && sorted(t),
    }
}

fn run_insert(seed: u64, strategy: Strategy, requires: &str, buggy: bool) -> RunReport {
    let spec = ArgSpec::new(
        vec![("x".into(), i64::ty()), ("l".into(), Sorted::ty())],
        &[(requires, requires)][..usize::from(!requires.is_empty())],
    )
    .expect("a spec in the language");
    let admit = spec.clone();
    let p = Property::new(gens::arguments((gens::argument::<i64>("x"), gens::argument::<Sorted>("l"))))
        .config(Config { seed: Some(seed), database: None, ..Config::named(format!("insert ({strategy})")) });
    let reify = |v: &[Value]| Some((i64::reify(v.first()?)?, Sorted::reify(v.get(1)?)?));
    apply(p, &spec, strategy, 5, reify).run(move |(x, l): (i64, Sorted)| {
        admit.admit(&[x.reflect(), l.reflect()]);
        let n = length(&l);
        let r = insert(x, l, buggy);
        assert!(sorted(&r), "not sorted: {r:?}");
        assert_eq!(length(&r), n + 1, "insert {x} lost an element: {r:?}");
    })
}

fn run(seed: u64) -> anyhow::Result<Vec<Finding>> {
    println!(
        "A sorted list type (`#[refine(at_least(_1, _0))]` on the tail) and `insert`, tested on every valid input up \
         to depth 5: the SMT solver builds only sorted lists, the lazy strategy refutes unsorted prefixes, the \
         exhaustive one filters every list.\n"
    );
    let complete = |r: &RunReport| {
        if r.summary().contains("valid inputs up to depth 5") || r.notes.iter().any(|n| n.contains("depth 5")) {
            Ok(())
        } else {
            Err(format!("the report does not say every valid input up to depth 5 was tested: {}", r.summary()))
        }
    };
    Ok(vec![
        check("insert drops duplicates (SMT)", Expect::Bug, || run_insert(seed, Strategy::Smt, "", true)),
        check_that("insert, fixed (SMT)", Expect::Pass, complete, || run_insert(seed, Strategy::Smt, "", false)),
        check_that("insert, fixed (lazy)", Expect::Pass, complete, || run_insert(seed, Strategy::Lazy, "", false)),
        check("insert, fixed (exhaustive, filtered)", Expect::Pass, || {
            run_insert(seed, Strategy::Exhaustive, "", false)
        }),
        check("a spec no input meets: length(l) > 9 at depth 5", Expect::GiveUp, || {
            run_insert(seed, Strategy::Smt, "length(l) > 9", false)
        }),
    ])
}
