//! `#[derive(Targetable)]`, `#[refine]` and `#[measure]` as a user writes
//! them: the SMT strategy's inputs are the core's enumeration filtered by
//! the refinements, and measures run as Rust and as specs alike.

use std::collections::BTreeSet;
use std::time::Duration;

use speccheck::spec::prelude::*;
use speccheck::spec::{Env, Measures, Value, parse_str};
use speccheck::{Arbitrary, Targetable, any, enumerate, measure};

/// A list whose tail's elements are no smaller than its head.
#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq)]
enum OrdList {
    Nil,
    Cons {
        head: i64,
        #[refine(all_ge(tail, head))]
        tail: Box<OrdList>,
    },
}

#[measure]
fn all_ge(l: &OrdList, x: i64) -> bool {
    match l {
        OrdList::Nil => true,
        OrdList::Cons { head, tail } => *head >= x && all_ge(tail, x),
    }
}

#[measure]
fn keys(l: &OrdList) -> Set<i64> {
    match l {
        OrdList::Nil => empty(),
        OrdList::Cons { head, tail } => union(singleton(*head), keys(tail)),
    }
}

#[measure]
fn nonneg_sorted(l: &OrdList) -> bool {
    match l {
        OrdList::Nil => true,
        OrdList::Cons { head, tail } => *head < 0 || nonneg_sorted(tail),
    }
}

#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq)]
struct Pair(u8, #[refine(_1 > _0)] u8);

#[test]
fn derived_types_round_trip() {
    let l = OrdList::Cons { head: 1, tail: Box::new(OrdList::Cons { head: 3, tail: Box::new(OrdList::Nil) }) };
    assert_eq!(OrdList::reify(&l.reflect()), Some(l.clone()));
    assert_eq!(l.reflect().to_string(), "Cons { head: 1, tail: Cons { head: 3, tail: Nil } }");
    assert_eq!(Pair::reify(&Pair(1, 2).reflect()), Some(Pair(1, 2)));
}

#[test]
fn measures_mean_the_same_as_rust_and_as_specs() {
    let l = OrdList::Cons { head: 2, tail: Box::new(OrdList::Cons { head: -1, tail: Box::new(OrdList::Nil) }) };
    let m = Measures::global();
    let mut env = Env::new(m).with("l", l.reflect());
    assert_eq!(env.bool(&parse_str("all_ge(l, -1)").unwrap()).unwrap(), all_ge(&l, -1));
    assert_eq!(env.bool(&parse_str("all_ge(l, 0)").unwrap()).unwrap(), all_ge(&l, 0));
    assert_eq!(env.bool(&parse_str("nonneg_sorted(l)").unwrap()).unwrap(), nonneg_sorted(&l));
    let keys_spec = env.eval(&parse_str("keys(l)").unwrap()).unwrap();
    assert_eq!(keys_spec, Value::Set(keys(&l).iter().map(|k| Value::Int(i128::from(*k))).collect()));
}

#[cfg(feature = "smt")]
#[test]
fn the_solver_yields_exactly_the_refined_values_the_enumerator_yields() {
    use speccheck::target::smt::Search;
    fn check<T: Targetable + Arbitrary + std::fmt::Debug>(depth: u32, ok: impl Fn(&T) -> bool) {
        let search = Search::new(&[("x".into(), T::ty())], &[], Measures::global(), depth, Duration::from_secs(30));
        let mut solved = BTreeSet::new();
        for v in search.unwrap() {
            let v = v.unwrap().remove(0);
            assert!(solved.insert(v.clone()), "{v} twice");
        }
        let enumerated: BTreeSet<Value> =
            enumerate(&any::<T>(), depth).map(|(_, v)| v).filter(|v| ok(v)).map(|v| v.reflect()).collect();
        assert!(depth < 2 || !enumerated.is_empty(), "a trivial comparison at depth {depth}");
        assert_eq!(solved, enumerated, "depth {depth}");
    }
    fn sorted(l: &OrdList) -> bool {
        match l {
            OrdList::Nil => true,
            OrdList::Cons { head, tail } => all_ge(tail, *head) && sorted(tail),
        }
    }
    for d in 0..=4 {
        check::<OrdList>(d, sorted);
        check::<Pair>(d, |p| p.1 > p.0);
    }
}
