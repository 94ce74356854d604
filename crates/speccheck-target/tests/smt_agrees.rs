//! The SMT and lazy strategies yield exactly the inputs the core's
//! exhaustive enumeration yields at the same depth (and that satisfy the
//! spec and the refinements inside the types), each once; the sampler
//! (the default strategy's) yields only such inputs, no larger than asked,
//! and on a small space every one of them.

use std::collections::BTreeSet;
use std::time::Duration;

use speccheck::{Arbitrary, Targetable, any, enumerate};
use speccheck_spec::{Measures, Targetable, Ty, Value, parse_str};
use speccheck_target::lazy::Lazy;

mod common;
use common::{admitted, distinct};

#[path = "common/trees.rs"]
mod trees;
use trees::{Rbt, Sorted};

#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq)]
enum List {
    Nil,
    Cons(i64, Box<List>),
}

const TREE_MEASURES: [&str; 7] = [
    "fn black(c: &Color) -> bool { match c { R => false, B => true } }",
    "fn all_lt(t: &Rbt, k: i64) -> bool { match t { Leaf => true, Node { key, left, right, .. } => *key < k && all_lt(left, k) && all_lt(right, k) } }",
    "fn all_gt(t: &Rbt, k: i64) -> bool { match t { Leaf => true, Node { key, left, right, .. } => *key > k && all_gt(left, k) && all_gt(right, k) } }",
    "fn red(t: &Rbt) -> bool { match t { Leaf => false, Node { color, .. } => !black(color) } }",
    "fn is_rb(t: &Rbt) -> bool { match t { Leaf => true, Node { color, left, right, .. } => (black(color) || (!red(left) && !red(right))) && is_rb(left) && is_rb(right) } }",
    "fn bh(t: &Rbt) -> i64 { match t { Leaf => 0, Node { color, left, .. } => bh(left) + if black(color) { 1 } else { 0 } } }",
    "fn bh_ok(t: &Rbt) -> bool { match t { Leaf => true, Node { left, right, .. } => bh(left) == bh(right) && bh_ok(left) && bh_ok(right) } }",
];

fn measures() -> Measures {
    Measures::new()
        .with("fn size(l: &List) -> i64 { match l { List::Nil => 0, List::Cons(_, t) => 1 + size(t) } }")
        .unwrap()
        .with("fn sorted(l: &List) -> bool { match l { Nil => true, Cons(h, t) => all_ge(t, *h) && sorted(t) } }")
        .unwrap()
        .with("fn all_ge(l: &List, x: i64) -> bool { match l { Nil => true, Cons(h, t) => *h >= x && all_ge(t, x) } }")
        .unwrap()
        .with("fn at_least(l: &Sorted, x: i64) -> bool { match l { Empty => true, Link(h, t) => *h >= x && at_least(t, x) } }")
        .unwrap()
        .with("fn length(l: &Sorted) -> i64 { match l { Empty => 0, Link(_, t) => 1 + length(t) } }")
        .unwrap()
        .with("fn balanced(l: i64, r: i64) -> bool { l + r <= 1 || (l <= 3 * r && r <= 3 * l) }")
        .unwrap()
        .with(TREE_MEASURES[0])
        .and_then(|m| m.with(TREE_MEASURES[1]))
        .and_then(|m| m.with(TREE_MEASURES[2]))
        .and_then(|m| m.with(TREE_MEASURES[3]))
        .and_then(|m| m.with(TREE_MEASURES[4]))
        .and_then(|m| m.with(TREE_MEASURES[5]))
        .and_then(|m| m.with(TREE_MEASURES[6]))
        .unwrap()
}

/// The SMT inputs for one argument of type `T` at depth `d` under `spec`,
/// checked to be distinct.
#[cfg(feature = "z3")]
fn smt<T: Targetable>(d: u32, spec: Option<&str>, m: &Measures) -> BTreeSet<Value> {
    let requires: Vec<_> = spec.map(|s| parse_str(s).unwrap()).into_iter().collect();
    let search =
        speccheck_target::smt::Search::new(&[("x".into(), T::ty())], &requires, m, d, Duration::from_secs(30)).unwrap();
    distinct("SMT", search.map(|v| v.map_err(|e| e.to_string())))
}

/// The lazy strategy's inputs, checked to be distinct.
fn lazy<T: Targetable>(d: u32, spec: Option<&str>, m: &Measures) -> BTreeSet<Value> {
    let requires: Vec<_> = spec.map(|s| parse_str(s).unwrap()).into_iter().collect();
    distinct("lazy", Lazy::new(&[("x".into(), T::ty())], &requires, m, d).map(|v| v.map_err(|e| e.to_string())))
}

/// The core's enumeration of `T` at depth `d`, filtered by `spec`.
fn enumerated<T: Targetable + Arbitrary + std::fmt::Debug>(
    d: u32,
    spec: Option<&str>,
    m: &Measures,
) -> BTreeSet<Value> {
    admitted(enumerate(&any::<T>(), d).map(|(_, v)| v.reflect()), spec, m)
}

fn agree<T: Targetable + Arbitrary + std::fmt::Debug>(depths: std::ops::RangeInclusive<u32>, spec: Option<&str>) {
    agree_with::<T>(&measures(), depths, spec);
}

/// [`agree`] with the measures `m`; the number of inputs at the last depth.
fn agree_with<T: Targetable + Arbitrary + std::fmt::Debug>(
    m: &Measures,
    depths: std::ops::RangeInclusive<u32>,
    spec: Option<&str>,
) -> usize {
    let mut count = 0;
    for d in depths {
        let e = enumerated::<T>(d, spec, m);
        assert!(d == 0 || spec.is_some() || e.len() > 1, "a trivial comparison at depth {d}");
        #[cfg(feature = "z3")]
        assert_eq!(smt::<T>(d, spec, m), e, "SMT: {} at depth {d} under {spec:?}", std::any::type_name::<T>());
        assert_eq!(lazy::<T>(d, spec, m), e, "lazy: {} at depth {d} under {spec:?}", std::any::type_name::<T>());
        count = e.len();
    }
    count
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
    // A measure over integers, defined by one expression.
    agree::<(List, List)>(0..=4, Some("balanced(size(x.0), size(x.1)) && size(x.0) + size(x.1) >= 2"));
}

/// `==` and `!=` on data values and sequences compare them whole, as the
/// evaluator does: the same constructor with equal fields, the same length
/// with equal elements.
#[test]
fn equality_of_data_and_sequences() {
    agree::<(List, List)>(0..=3, Some("x.0 == x.1"));
    agree::<(List, List)>(0..=3, Some("x.0 != x.1 && size(x.0) == size(x.1)"));
    agree::<(Vec<i64>, Vec<i64>)>(0..=3, Some("x.0 == x.1 && len(x.0) >= 1"));
    agree::<(Option<List>, Option<List>)>(0..=3, Some("x.0 == x.1"));
}

/// A red node with a red child, written with nested patterns, as a
/// red-black tree's invariant usually is.
const RED_RED: &str = "fn red_red(t: &Rbt) -> bool { match t { \
    Rbt::Node { color: Color::R, left: Rbt::Node { color: Color::R, .. }, .. } => true, \
    Node { color: R, right: box_red @ Node { color: R, .. }, .. } => matches!(box_red, Node { .. }), \
    Node { left, right, .. } => red_red(left) || red_red(right), \
    Leaf => false } }";

/// The same, in Rust.
fn red_red(t: &Rbt) -> bool {
    let red = |t: &Rbt| matches!(t, Rbt::Node { color: trees::Color::R, .. });
    match t {
        Rbt::Node { color: trees::Color::R, left, right, .. } if red(left) || red(right) => true,
        Rbt::Node { left, right, .. } => red_red(left) || red_red(right),
        Rbt::Leaf => false,
    }
}

/// Nested patterns in a measure's arms (a field matched against a
/// constructor or a literal, `name @ pattern`) and `matches!` in a spec
/// mean what they mean in Rust: the evaluator agrees with the Rust
/// function on every tree, and the solver and the lazy enumeration select
/// the inputs the evaluator admits.
#[test]
fn nested_patterns_and_constructor_tests() {
    let m = measures().with(RED_RED).unwrap();
    let trees: Vec<Rbt> = enumerate(&any::<Rbt>(), 3).map(|(_, t)| t).collect();
    let spec = vec![("red_red(x)".to_string(), parse_str("red_red(x)").unwrap())];
    let mut reds = 0;
    for t in &trees {
        let admitted = speccheck_spec::admits(&[("x", t.reflect())], &spec, &m).unwrap().is_none();
        assert_eq!(admitted, red_red(t), "{t:?}");
        reds += usize::from(admitted);
    }
    assert!(reds > 10 && reds < trees.len(), "{reds} of {}", trees.len());
    agree_with::<Rbt>(&m, 0..=3, Some("!red_red(x)"));
    agree_with::<Rbt>(&m, 0..=3, Some("red_red(x) && all_lt(x, 2)"));
    // `matches!` in a spec: constructors, nested ones, literals, `|`.
    assert!(agree_with::<Rbt>(&m, 3..=3, Some("matches!(x, Rbt::Node { left: Rbt::Node { .. }, key: 0, .. })")) > 0);
    assert!(agree_with::<Rbt>(&m, 3..=3, Some("matches!(x, Leaf | Node { color: B, .. })")) > 1);
    agree::<List>(0..=3, Some("matches!(x, List::Cons(_, Cons(..)))"));
    agree::<List>(0..=3, Some("!matches!(x, Cons(1, _))"));
}

/// Quantifiers over sets (a measure's set of keys, a sequence's elements,
/// their intersections and differences) unroll over the set's possible
/// members; where the body is partial, the evaluator's order (increasing)
/// decides, as for a sequence.
#[test]
fn quantifiers_over_sets() {
    let keys =
        "fn keys(l: &List) -> Set<i64> { match l { Nil => empty(), Cons(h, t) => union(singleton(*h), keys(t)) } }";
    let m = measures().with(keys).unwrap();
    let with_keys = |depths, spec| agree_with::<(List, List)>(&m, depths, Some(spec));
    with_keys(0..=3, "forall!(k in keys(x.0), k > 0)");
    with_keys(0..=3, "exists!(k in union(keys(x.0), keys(x.1)), k == 1) && size(x.1) >= 1");
    with_keys(
        0..=3,
        "forall!(k in diff(keys(x.0), keys(x.1)), k < 0) && forall!(k in inter(keys(x.0), keys(x.1)), k != 0)",
    );
    assert!(with_keys(3..=3, "exists!(k in keys(x.0), exists!(j in keys(x.1), j == k + 1))") > 5);
    agree::<Vec<i64>>(0..=3, Some("forall!(e in elems(x), e != 0)"));
    // A partial body: the index is the element, out of range for some.
    agree::<Vec<i64>>(0..=3, Some("forall!(e in elems(x), x[e] >= 0)"));
    agree::<Vec<i64>>(0..=3, Some("exists!(e in elems(x), x[e] == 0)"));
}

/// Sets of any element type the solver has — booleans, data, sequences,
/// as well as integers — with membership, equality, inclusion, `len` and
/// `is_empty`, and quantifiers over them, whose partial bodies follow the
/// evaluator's order of the members.
#[test]
fn sets_of_any_element_type() {
    // Each spec keeps some inputs at the last depth (the sets compared are
    // not all empty).
    fn nonempty<T: Targetable + Arbitrary + std::fmt::Debug>(
        depths: std::ops::RangeInclusive<u32>,
        spec: Option<&str>,
    ) {
        assert!(agree_with::<T>(&measures(), depths, spec) > 0, "{spec:?} keeps no input");
    }
    nonempty::<Vec<i64>>(0..=3, Some("len(elems(x)) == 2"));
    nonempty::<Vec<bool>>(0..=3, Some("len(elems(x)) == 2"));
    nonempty::<Vec<bool>>(0..=3, Some("member(true, elems(x)) && !member(false, elems(x))"));
    nonempty::<(Vec<bool>, Vec<bool>)>(0..=3, Some("subset(elems(x.0), elems(x.1)) && len(x.0) > len(x.1)"));
    nonempty::<(Vec<bool>, Vec<bool>)>(0..=3, Some("is_empty(inter(elems(x.0), elems(x.1))) && len(x.0) >= 1"));
    // Data elements: distinct options, a duplicate, one present in both.
    nonempty::<Vec<Option<bool>>>(0..=3, Some("len(elems(x)) == len(x) && len(x) >= 2"));
    nonempty::<Vec<Option<bool>>>(0..=3, Some("len(elems(x)) < len(x)"));
    nonempty::<(Vec<Option<bool>>, Vec<Option<bool>>)>(
        0..=3,
        Some("!is_empty(inter(elems(x.0), elems(x.1))) && elems(x.0) != elems(x.1)"),
    );
    nonempty::<Vec<Option<bool>>>(0..=3, Some("forall!(o in elems(x), matches!(o, Some(_))) && len(x) >= 2"));
    // A sequence is never equal to a set, its own elements' included.
    nonempty::<Vec<i64>>(0..=3, Some("x != elems(x) && len(x) == 1"));
    nonempty::<Vec<i64>>(0..=3, Some("!(elems(x) == x) && len(x) == 2"));
    // Sequence elements, and a set of sets' equality.
    nonempty::<Vec<Vec<bool>>>(0..=3, Some("len(elems(x)) == 1 && len(x) == 2"));
    nonempty::<(Vec<Vec<bool>>, Vec<Vec<bool>>)>(0..=3, Some("elems(x.0) == elems(x.1) && x.0 != x.1"));
    // A body that may be undefined, over sequences: the evaluator goes
    // through the members in its order (`[]` before `[1]`) and stops at the
    // first that decides, and so does the solver's encoding.
    nonempty::<Vec<Vec<i64>>>(0..=3, Some("!forall!(v in elems(x), v[0] > 0)"));
    nonempty::<Vec<Vec<i64>>>(0..=3, Some("exists!(v in elems(x), v[0] == 1)"));
    nonempty::<Vec<Option<i64>>>(0..=3, Some("exists!(o in elems(x), o.0 == 1) && len(x) >= 2"));
}

/// A partial operation (an index out of range, a field of another
/// constructor, a division by zero) makes the spec false where evaluation
/// reaches it — not its negation true, not a free value — in the
/// enumeration filtered by the evaluator, the lazy strategy and the solver
/// alike; `&&`, `||`, `if` and the quantifiers stop where Rust's would.
#[test]
fn partial_operations_mean_the_same_everywhere() {
    agree::<Vec<i64>>(0..=3, Some("x[1] > 0"));
    agree::<Vec<i64>>(0..=3, Some("!(x[1] > 0)"));
    agree::<Vec<i64>>(0..=3, Some("len(x) > 1 && x[1] > 0 || len(x) == 0"));
    agree::<Vec<i64>>(0..=3, Some("exists!(i in 0..3, x[i] > 0)"));
    agree::<Vec<i64>>(0..=3, Some("!forall!(i in 0..3, x[i] != 1)"));
    agree::<Vec<i64>>(0..=3, Some("if len(x) > 2 { x[2] == 0 } else { x[5] == 0 }"));
    agree::<Option<i8>>(0..=3, Some("x.0 > 0"));
    agree::<Option<i8>>(0..=3, Some("!(x.0 > 0)"));
    agree::<i64>(0..=4, Some("x > 1 || x / 0 > 0"));
    agree::<List>(0..=3, Some("x.0 >= 0 ==> size(x) == 1"));
}

#[test]
fn refinements_inside_data_select_the_same_inputs() {
    agree::<Sorted>(0..=5, None);
    agree::<Sorted>(0..=5, Some("length(x) >= 3"));
    agree::<Vec<Sorted>>(0..=3, None);
    agree::<(i64, Rbt)>(0..=4, Some("is_rb(x.1) && bh_ok(x.1)"));
}

#[test]
fn the_lazy_strategy_skips_refuted_subtrees() {
    let m = measures();
    let mut lazy = Lazy::new(&[("x".into(), Sorted::ty())], &[], &m, 6);
    let found = lazy.by_ref().count() as u64;
    // Every list of that shape, sorted or not (`Sorted`'s own generator
    // makes only sorted ones).
    let all = enumerate(&any::<List>(), 6).count() as u64;
    // Each refuted prefix stands for many enumerated inputs.
    assert!(lazy.evaluated < all / 4, "found {found}, evaluated {} partial inputs, of {all}", lazy.evaluated);
}

/// A height bound in the enumeration itself ([`Lazy::at_least`]) yields
/// exactly the inputs the height function keeps, and skips partial inputs
/// that cannot grow that tall (sequences of data check the bound's
/// arithmetic: an element sits below its predecessors).
#[test]
fn the_lazy_enumeration_from_a_height_makes_exactly_the_inputs_that_tall() {
    fn check<T: Targetable + Arbitrary + std::fmt::Debug>(
        d: u32,
        spec: Option<&str>,
        heights: std::ops::RangeInclusive<u32>,
        brute: bool,
    ) {
        let requires: Vec<_> = spec.map(|s| parse_str(s).unwrap()).into_iter().collect();
        let m = measures();
        let params = [("x".to_string(), T::ty())];
        // The brute-force enumeration filtered by the evaluator, then by
        // the height function; where that takes long (sequences of data),
        // the lazy enumeration's own, which `agree` checks against it.
        let all = if brute { enumerated::<T>(d, spec, &m) } else { lazy::<T>(d, spec, &m) };
        for h in heights {
            let mut bounded = Lazy::new(&params, &requires, &m, d).at_least(h);
            let tall = distinct("lazy from a height", bounded.by_ref().map(|v| v.map_err(|e| e.to_string())));
            let expected: BTreeSet<Value> = all
                .iter()
                .filter(|v| speccheck_target::depth::input_height(std::slice::from_ref(*v), &[T::ty()]) >= h)
                .cloned()
                .collect();
            assert_eq!(tall, expected, "{} from height {h}", std::any::type_name::<T>());
            assert!(h == 0 || bounded.pruned > 0, "height {h}: nothing skipped");
        }
    }
    check::<List>(3, Some("sorted(x)"), 0..=4, true);
    check::<Rbt>(3, Some("is_rb(x) && bh_ok(x)"), 0..=4, true);
    check::<List>(4, Some("sorted(x)"), 0..=5, false);
    check::<Rbt>(4, Some("is_rb(x) && bh_ok(x)"), 0..=5, false);
    check::<Vec<Sorted>>(3, None, 0..=6, false);
    check::<Vec<Vec<bool>>>(3, None, 0..=6, false);
}

/// An enumeration paused ([`Lazy::pause_at`]) goes on where it was: the
/// same inputs in the same order as one never paused; one told to stop
/// ([`Lazy::stop_when`]) says so within its first few partial inputs.
#[test]
fn an_interrupted_enumeration_loses_nothing() {
    let m = measures();
    let params = [("x".to_string(), Rbt::ty())];
    let requires = [parse_str("is_rb(x) && bh_ok(x)").unwrap()];
    let whole: Vec<_> = Lazy::new(&params, &requires, &m, 4).map(Result::unwrap).collect();
    let mut paused = Lazy::new(&params, &requires, &m, 4);
    let (mut got, mut pauses) = (Vec::new(), 0);
    loop {
        paused.pause_at(Some(std::time::Instant::now()));
        match paused.next() {
            Some(Ok(v)) => got.push(v),
            Some(Err(speccheck_target::lazy::LazyError::Interrupted)) => pauses += 1,
            Some(Err(e)) => panic!("{e}"),
            None => break,
        }
    }
    assert!(pauses > 0 && paused.is_complete(), "{pauses} pauses");
    assert_eq!(got, whole);
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let mut stopped = Lazy::new(&params, &requires, &m, 4).stop_when(flag);
    let before = stopped.by_ref().take_while(Result::is_ok).count();
    assert!(before < whole.len(), "{before} inputs of {} before it stopped", whole.len());
}

#[test]
fn an_unsatisfiable_spec_has_no_inputs() {
    #[cfg(feature = "z3")]
    assert!(smt::<List>(4, Some("size(x) > 4"), &measures()).is_empty());
    assert!(lazy::<List>(4, Some("size(x) > 4"), &measures()).is_empty());
}

/// Searches run one after another on a thread (each depth, each height)
/// do not disturb each other: z3 4.8.12 lost inputs when two solvers in one
/// context shared constant names.
#[cfg(feature = "z3")]
#[test]
fn searches_in_one_thread_are_independent() {
    let m = measures();
    let params = vec![("x".to_string(), <i64 as Targetable>::ty()), ("t".to_string(), Rbt::ty())];
    let req = vec![parse_str("is_rb(t) && bh_ok(t)").unwrap()];
    let search = |d| speccheck_target::smt::Search::new(&params, &req, &m, d, Duration::from_secs(30)).unwrap();
    for d in 1..3 {
        assert!(search(d).all(|v| v.is_ok()));
    }
    let smt: BTreeSet<_> = search(3).map(|v| v.unwrap()).collect();
    let lazy: BTreeSet<_> = Lazy::new(&params, &req, &m, 3).map(|v| v.unwrap()).collect();
    assert_eq!(smt, lazy);
}

/// "Smallest first" holds for sequences too: a sequence's height is its
/// length, so the solver yields every shorter sequence before a longer one.
#[cfg(feature = "z3")]
#[test]
fn the_solver_yields_shorter_sequences_first() {
    let m = measures();
    let ty = <Vec<i64> as Targetable>::ty();
    let search = speccheck_target::smt::Search::new(&[("x".into(), ty)], &[], &m, 3, Duration::from_secs(30)).unwrap();
    let lengths: Vec<usize> = search
        .map(|v| match &v.unwrap()[0] {
            Value::Seq(xs) => xs.len(),
            other => panic!("not a sequence: {other}"),
        })
        .collect();
    assert!(lengths.windows(2).all(|w| w[0] <= w[1]), "lengths out of order: {lengths:?}");
    assert_eq!(lengths.last(), Some(&3));
}

#[cfg(feature = "z3")]
#[test]
fn the_solver_started_at_a_height_makes_exactly_the_inputs_that_tall() {
    // Checked against the brute-force enumeration filtered by the
    // evaluator and the height function, on a list and a vector (height =
    // length) and a red-black tree.
    fn check<T: Targetable + Arbitrary + std::fmt::Debug>(
        d: u32,
        spec: Option<&str>,
        heights: std::ops::RangeInclusive<u32>,
    ) {
        let requires: Vec<_> = spec.map(|s| parse_str(s).unwrap()).into_iter().collect();
        let m = measures();
        let all = enumerated::<T>(d, spec, &m);
        for h in heights {
            let search = speccheck_target::smt::Search::at_least(
                &[("x".into(), T::ty())],
                &requires,
                &m,
                d,
                h,
                Duration::from_secs(30),
            )
            .unwrap();
            let tall = distinct("SMT from a height", search.map(|v| v.map_err(|e| e.to_string())));
            let expected: BTreeSet<Value> = all
                .iter()
                .filter(|v| speccheck_target::depth::input_height(std::slice::from_ref(*v), &[T::ty()]) >= h)
                .cloned()
                .collect();
            assert_eq!(tall, expected, "height {h}");
        }
    }
    check::<List>(3, Some("sorted(x)"), 0..=4);
    check::<Vec<i64>>(3, Some("forall!(i in 0..len(x) - 1, x[i] < x[i + 1])"), 0..=4);
    check::<Rbt>(3, Some("is_rb(x) && bh_ok(x)"), 0..=4);
}

/// Integers no spec mentions are not asked of the solver: one model stands
/// for its shape with every value of them (the sets still agree, above);
/// an integer a spec reads costs a model per value.
#[cfg(feature = "z3")]
#[test]
fn free_integers_cost_one_model_per_shape() {
    let m = measures();
    let count = |ty: speccheck_spec::Ty, spec: Option<&str>, d: u32| {
        let requires: Vec<_> = spec.map(|s| parse_str(s).unwrap()).into_iter().collect();
        let mut search =
            speccheck_target::smt::Search::new(&[("x".into(), ty)], &requires, &m, d, Duration::from_secs(30)).unwrap();
        let inputs = search.by_ref().inspect(|v| assert!(v.is_ok(), "{v:?}")).count() as u64;
        assert!(search.is_complete());
        (inputs, search.models())
    };
    // Lists up to length 4 at depth 4, the elements' ranges narrowing
    // down the list (-3..=3, -2..=2, -1..=1, 0): one model per length.
    let (inputs, models) = count(List::ty(), None, 4);
    assert_eq!((inputs, models), (1 + 7 + 7 * 5 + 7 * 5 * 3 + 7 * 5 * 3, 5));
    // A spec on the length only leaves the elements free as well.
    let (inputs, models) = count(List::ty(), Some("size(x) >= 2"), 4);
    assert_eq!((inputs, models), (7 * 5 + 7 * 5 * 3 + 7 * 5 * 3, 3));
    // The pair's first integer (in -2..=2 one level down) is free, and so
    // is the key of a node whose children can only be leaves here; the
    // other keys are read by the ordering refinements.
    let pair = <(i64, Rbt)>::ty();
    let (inputs, models) = count(pair, Some("is_rb(x.1) && bh_ok(x.1)"), 3);
    assert!(inputs % 5 == 0 && models <= inputs / 5 && models > 1, "{inputs} inputs from {models} models");
    // A spec that reads every element: a model per input.
    let (inputs, models) = count(<Vec<i64>>::ty(), Some("forall!(i in 0..len(x), x[i] > -100)"), 3);
    assert_eq!(inputs, models);
    assert!(inputs > 50);
}

/// A measure of several arguments that calls itself on the same ones is
/// named as not terminating, as one of one argument is (unfoldings are
/// known by every argument, not the matched node alone).
#[cfg(feature = "z3")]
#[test]
fn a_measure_calling_itself_on_the_same_arguments_is_named() {
    let m = measures()
        .with("fn spin_with(l: &List, k: i64) -> bool { match l { Nil => true, Cons(_, _) => spin_with(l, k) } }")
        .unwrap();
    let requires = vec![parse_str("spin_with(x, 3)").unwrap()];
    // Height 0 (the empty list) unfolds no call; height 1 meets the loop.
    let mut search =
        speccheck_target::smt::Search::new(&[("x".into(), List::ty())], &requires, &m, 3, Duration::from_secs(30))
            .unwrap();
    let err = search.find_map(Result::err).expect("the spec does not terminate");
    assert!(err.to_string().contains("`spin_with` does not terminate"), "{err}");
}

/// Every value of `ty` of at most `n` steps (a constructor declared
/// recursive, a sequence's element: what the sampler's size counts), its
/// integers within `ints`, with its steps; written apart from any
/// strategy's code. For types that recurse through themselves only.
fn up_to(ty: &Ty, n: u32, ints: (i128, i128)) -> Vec<(Value, u32)> {
    match ty {
        Ty::Bool => vec![(Value::Bool(false), 0), (Value::Bool(true), 0)],
        Ty::Int { lo, hi } => (ints.0.max(*lo)..=ints.1.min(*hi)).map(|i| (Value::Int(i), 0)).collect(),
        Ty::Seq(elem) => {
            let elems = up_to(elem, n.saturating_sub(1), ints);
            let mut all = vec![(Vec::new(), 0)];
            let mut last = all.clone();
            for _ in 0..n {
                last = last
                    .iter()
                    .flat_map(|(xs, k): &(Vec<Value>, u32)| {
                        elems.iter().filter(move |(_, e)| k + 1 + e <= n).map(move |(e, s)| {
                            let mut ys = xs.clone();
                            ys.push(e.clone());
                            (ys, k + 1 + s)
                        })
                    })
                    .collect();
                all.extend(last.iter().cloned());
            }
            all.into_iter().map(|(xs, k)| (Value::Seq(xs), k)).collect()
        }
        Ty::Set(_) => unreachable!("no sets here"),
        Ty::Data(r) => {
            let def = r.get();
            let mut out = Vec::new();
            for (c, ctor) in def.ctors.iter().enumerate() {
                let own = u32::from(ctor.recursive);
                if own > n {
                    continue;
                }
                let mut rows: Vec<(Vec<Value>, u32)> = vec![(Vec::new(), own)];
                for f in &ctor.fields {
                    let values = up_to(&f.ty, n - own, ints);
                    rows = rows
                        .iter()
                        .flat_map(|(row, k)| {
                            values.iter().filter(move |(_, s)| k + s <= n).map(move |(v, s)| {
                                let mut r = row.clone();
                                r.push(v.clone());
                                (r, k + s)
                            })
                        })
                        .collect();
                }
                out.extend(
                    rows.into_iter().map(|(fields, k)| (Value::Data { def, ctor: c, fields: fields.into() }, k)),
                );
            }
            out
        }
    }
}

/// The sampler (the default strategy's) against that brute force, on
/// specs whose valid inputs of at most a few steps are few (their
/// integers bounded by the spec; the brute force's wider, so that the
/// filter has values to reject): every input it makes is one the
/// evaluator admits and no larger than asked, and 4,000 samples make
/// every one of them (past its first hundred inputs the sampler splices
/// parts of earlier ones; on a space this small most splices remake an
/// input and are dropped, and larger sizes below splice hundreds). A
/// partial operation (an index past the end) makes its spec false for
/// the sampler as for the evaluator.
#[test]
fn the_sampler_makes_exactly_the_valid_inputs_up_to_its_size() {
    let m = measures()
        .with("fn within(l: &List, lo: i64, hi: i64) -> bool { match l { Nil => true, Cons(h, t) => *h >= lo && *h <= hi && within(t, lo, hi) } }")
        .unwrap()
        .with("fn keys_within(t: &Rbt, lo: i64, hi: i64) -> bool { match t { Leaf => true, Node { key, left, right, .. } => *key >= lo && *key <= hi && keys_within(left, lo, hi) && keys_within(right, lo, hi) } }")
        .unwrap();
    let check = |ty: Ty, size: u32, spec: &str, at_least: usize| {
        let expected = admitted(up_to(&ty, size, (-1, 3)).into_iter().map(|(v, _)| v), Some(spec), &m);
        assert!(expected.len() >= at_least, "{spec}: only {} valid inputs", expected.len());
        let requires = [parse_str(spec).unwrap()];
        let mut sampler = speccheck_target::sample::Sampler::new(&[("x".into(), ty.clone())], &requires, &m).unwrap();
        let mut made = BTreeSet::new();
        for seed in 0..4_000 {
            let Some(mut v) = sampler.sample(seed, size).unwrap() else { continue };
            let x = v.remove(0);
            assert!(expected.contains(&x), "{spec}: the sampler made {x}, not a valid input of at most {size} steps");
            made.insert(x);
        }
        let missed: Vec<String> = expected.difference(&made).map(ToString::to_string).collect();
        assert!(
            missed.is_empty(),
            "{spec}: {} of {} valid inputs never made: {missed:?}",
            missed.len(),
            expected.len()
        );
    };
    check(List::ty(), 3, "sorted(x) && within(x, 0, 2)", 15);
    check(Rbt::ty(), 3, "is_rb(x) && bh_ok(x) && keys_within(x, 0, 2)", 12);
    check(<Vec<i64>>::ty(), 3, "forall!(e in x, e >= 0 && e <= 2) && x[0] == 1", 13);
    // Larger, with integers unbounded: every input admitted and no larger
    // than asked, those of data types mostly spliced.
    let steps = |v: &Value| up_to_steps(v);
    for (ty, spec) in [(List::ty(), "sorted(x)"), (Rbt::ty(), "is_rb(x) && bh_ok(x)"), (<Vec<i64>>::ty(), "x[0] == 1")]
    {
        let requires = [parse_str(spec).unwrap()];
        let mut sampler = speccheck_target::sample::Sampler::new(&[("x".into(), ty.clone())], &requires, &m).unwrap();
        let mut made = BTreeSet::new();
        for seed in 0..2_000 {
            let Some(mut v) = sampler.sample(seed, 12).unwrap() else { continue };
            let x = v.remove(0);
            assert_eq!(admitted([x.clone()], Some(spec), &m).len(), 1, "{spec}: the sampler made {x}");
            assert!(steps(&x) <= 12, "{spec}: {x} has {} steps", steps(&x));
            made.insert(x);
        }
        // Data types splice; a sequence of integers is built afresh.
        let data = matches!(ty, Ty::Data(_));
        assert!(
            made.len() > 1_500 && (!data || sampler.spliced > 500),
            "{spec}: {} spliced, {} made",
            sampler.spliced,
            made.len()
        );
    }
}

/// A value's steps as [`up_to`] counts them.
fn up_to_steps(v: &Value) -> u32 {
    match v {
        Value::Data { def, ctor, fields } => {
            u32::from(def.ctors[*ctor].recursive) + fields.iter().map(up_to_steps).sum::<u32>()
        }
        Value::Seq(xs) => xs.len() as u32 + xs.iter().map(up_to_steps).sum::<u32>(),
        _ => 0,
    }
}
