//! The SMT strategy yields exactly the inputs the core's exhaustive
//! enumeration yields at the same depth (and that satisfy the spec), each
//! once.

#![cfg(feature = "z3")]

use std::collections::BTreeSet;
use std::time::Duration;

use speccheck::{Arbitrary, Targetable, any, enumerate};
use speccheck_spec::{Measures, Targetable, Value, parse_str};
use speccheck_target::smt::Search;

#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq)]
enum List {
    Nil,
    Cons(i64, Box<List>),
}

fn measures() -> Measures {
    Measures::new()
        .with("fn size(l: &List) -> i64 { match l { List::Nil => 0, List::Cons(_, t) => 1 + size(t) } }")
        .unwrap()
        .with("fn sorted(l: &List) -> bool { match l { Nil => true, Cons(h, t) => all_ge(t, *h) && sorted(t) } }")
        .unwrap()
        .with("fn all_ge(l: &List, x: i64) -> bool { match l { Nil => true, Cons(h, t) => *h >= x && all_ge(t, x) } }")
        .unwrap()
}

/// The SMT inputs for one argument of type `T` at depth `d` under `spec`,
/// checked to be distinct.
fn smt<T: Targetable>(d: u32, spec: Option<&str>) -> BTreeSet<Value> {
    let requires: Vec<_> = spec.map(|s| parse_str(s).unwrap()).into_iter().collect();
    let search = Search::new(&[("x".into(), T::ty())], &requires, &measures(), d, Duration::from_secs(30)).unwrap();
    let mut out = BTreeSet::new();
    for v in search {
        let v = v.unwrap().remove(0);
        assert!(out.insert(v.clone()), "the solver gave {v} twice");
    }
    out
}

/// The core's enumeration of `T` at depth `d`, filtered by `spec`.
fn enumerated<T: Targetable + Arbitrary + std::fmt::Debug>(d: u32, spec: Option<&str>) -> BTreeSet<Value> {
    let m = measures();
    let spec = spec.map(|s| parse_str(s).unwrap());
    enumerate(&any::<T>(), d)
        .map(|(_, v)| v.reflect())
        .filter(|v| spec.as_ref().is_none_or(|s| speccheck_spec::Env::new(&m).with("x", v.clone()).bool(s).unwrap()))
        .collect()
}

fn agree<T: Targetable + Arbitrary + std::fmt::Debug>(depths: std::ops::RangeInclusive<u32>, spec: Option<&str>) {
    for d in depths {
        let (s, e) = (smt::<T>(d, spec), enumerated::<T>(d, spec));
        assert!(d == 0 || spec.is_some() || s.len() > 1, "a trivial comparison at depth {d}");
        assert_eq!(s, e, "{} at depth {d} under {spec:?}", std::any::type_name::<T>());
    }
}

#[test]
fn integers_booleans_and_options() {
    agree::<i64>(0..=3, None);
    agree::<u8>(0..=3, None);
    agree::<bool>(0..=1, None);
    agree::<Option<i8>>(0..=3, None);
    agree::<(i64, bool)>(0..=2, None);
}

#[test]
fn sequences() {
    agree::<Vec<i64>>(0..=3, None);
    agree::<Vec<Vec<bool>>>(0..=3, None);
}

#[test]
fn recursive_data_types() {
    agree::<List>(0..=4, None);
}

#[test]
fn specs_select_the_same_inputs() {
    agree::<i64>(0..=4, Some("x % 2 == 0 && x != 0"));
    agree::<Vec<i64>>(0..=4, Some("forall!(i in 0..len(x) - 1, x[i] < x[i + 1])"));
    agree::<List>(0..=5, Some("sorted(x) && size(x) >= 2"));
    agree::<Vec<i64>>(0..=3, Some("exists!(e in x, e > 1) ==> len(x) == 1"));
}

#[test]
fn an_unsatisfiable_spec_has_no_inputs() {
    assert!(smt::<List>(4, Some("size(x) > 4")).is_empty());
}
