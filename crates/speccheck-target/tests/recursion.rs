//! Recursion found from the type graph (issue #41 item 3): a type that
//! reaches itself through other types — `Option<Box<Self>>`, a tree and its
//! forest, two enums naming each other — is bounded by the depth under
//! every strategy, like a type naming itself. Each strategy's inputs come
//! once each and are exactly those of a brute-force enumerator over the
//! types (written here from the rules of `speccheck_target::depth`)
//! filtered by the evaluator. A type with no finite value is an error
//! naming it, never a hang.

use std::collections::BTreeSet;
#[cfg(feature = "z3")]
use std::time::Duration;

use speccheck::{Arbitrary, Targetable, any, enumerate};
use speccheck_spec::{DataRef, Measures, Targetable, Ty, Value, parse_str};
use speccheck_target::lazy::{Lazy, LazyError};
use speccheck_target::strategy::ArgSpec;

mod common;
use common::{admitted, distinct};

#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq)]
enum Ping {
    Stop,
    Pong(Box<Pong>),
}

#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq)]
enum Pong {
    Stop,
    Ping(bool, Box<Ping>),
}

/// Recursive through `Option` only: no constructor names the type.
#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq)]
struct Node {
    v: u8,
    next: Option<Box<Node>>,
}

#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq)]
struct Tree {
    #[refine(v <= 2)]
    v: u8,
    kids: Forest,
}

#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq)]
enum Forest {
    Nil,
    Cons(Box<Tree>, Box<Forest>),
}

/// No finite value: each needs the other.
#[derive(Targetable, Clone, Debug, PartialEq)]
struct Chicken {
    egg: Box<Egg>,
}

#[derive(Targetable, Clone, Debug, PartialEq)]
struct Egg {
    chicken: Box<Chicken>,
}

/// Holds an unbounded type behind a leaf: the type is still an error.
#[derive(Targetable, Clone, Debug, PartialEq)]
enum Farm {
    Empty,
    Coop(Chicken),
}

/// Every value of `ty` at depth `d` under `path`, by the rules of
/// `speccheck_target::depth`, built without any strategy's code.
fn brute(ty: &Ty, d: u32, path: &[DataRef]) -> Vec<Value> {
    let below = d.saturating_sub(1);
    match ty {
        Ty::Bool => vec![Value::Bool(false), Value::Bool(true)],
        Ty::Int { lo, hi } => {
            let (lo, hi) = speccheck_target::depth::int_window(*lo, *hi, d);
            (lo..=hi).map(Value::Int).collect()
        }
        Ty::Seq(elem) => {
            let elems = brute(elem, below, path);
            let mut out = vec![Vec::new()];
            let mut all = vec![Value::Seq(Vec::new())];
            for _ in 0..d {
                out = out
                    .iter()
                    .flat_map(|xs| elems.iter().map(move |e| [xs.clone(), vec![e.clone()]].concat()))
                    .collect();
                all.extend(out.iter().cloned().map(Value::Seq));
            }
            all
        }
        Ty::Set(_) => unreachable!("no sets here"),
        Ty::Data(r) => {
            let def = r.get();
            let mut path = path.to_vec();
            path.push(r.clone());
            let mut out = Vec::new();
            for (c, ctor) in def.ctors.iter().enumerate() {
                let back = ctor.fields.iter().any(|f| matches!(&f.ty, Ty::Data(t) if path.contains(t)));
                if d == 0 && (ctor.recursive || back) {
                    continue;
                }
                let mut rows: Vec<Vec<Value>> = vec![Vec::new()];
                for f in &ctor.fields {
                    let values = brute(&f.ty, below, &path);
                    rows = rows
                        .iter()
                        .flat_map(|row| values.iter().map(move |v| [row.clone(), vec![v.clone()]].concat()))
                        .collect();
                }
                out.extend(rows.into_iter().map(|fields| Value::Data { def, ctor: c, fields: fields.into() }));
            }
            out
        }
    }
}

/// The brute-force inputs the evaluator admits.
fn brute_admitted<T: Targetable>(d: u32, spec: Option<&str>) -> BTreeSet<Value> {
    admitted(brute(&T::ty(), d, &[]), spec, &Measures::new())
}

/// The core's exhaustive enumeration (the `exhaustive` strategy), filtered
/// by the evaluator; at most `LIMIT` cases, so an enumeration without end
/// fails instead of hanging.
fn exhaustive<T: Targetable + Arbitrary + std::fmt::Debug>(d: u32, spec: Option<&str>) -> BTreeSet<Value> {
    const LIMIT: u64 = 100_000;
    let mut n = 0;
    let generator = any::<T>();
    let values = enumerate(&generator, d).limit(LIMIT).inspect(|_| n += 1).map(|(_, v)| Ok(vec![v.reflect()]));
    let all = distinct("exhaustive", values);
    assert!(n < LIMIT, "the enumeration of {} at depth {d} did not end", std::any::type_name::<T>());
    admitted(all, spec, &Measures::new())
}

fn lazy<T: Targetable>(d: u32, spec: Option<&str>) -> BTreeSet<Value> {
    let requires: Vec<_> = spec.map(|s| parse_str(s).unwrap()).into_iter().collect();
    let m = Measures::new();
    let lazy = Lazy::new(&[("x".into(), T::ty())], &requires, &m, d).limit(1_000_000);
    distinct("lazy", lazy.map(|v| v.map_err(|e| e.to_string())))
}

#[cfg(feature = "z3")]
fn smt<T: Targetable>(d: u32, spec: Option<&str>) -> BTreeSet<Value> {
    let requires: Vec<_> = spec.map(|s| parse_str(s).unwrap()).into_iter().collect();
    let m = Measures::new();
    let search =
        speccheck_target::smt::Search::new(&[("x".into(), T::ty())], &requires, &m, d, Duration::from_secs(30))
            .unwrap();
    distinct("smt", search.map(|v| v.map_err(|e| e.to_string())))
}

/// Every strategy yields the brute-force inputs, each once; and the depths
/// grow them (the comparison is not between a few fixed sets).
fn agree<T: Targetable + Arbitrary + std::fmt::Debug>(depths: std::ops::RangeInclusive<u32>, spec: Option<&str>) {
    let (first, last) = (*depths.start(), *depths.end());
    let sizes = (brute_admitted::<T>(first, spec).len(), brute_admitted::<T>(last, spec).len());
    assert!(sizes.0 < sizes.1, "depths {first}..={last} of {} have {sizes:?} inputs", std::any::type_name::<T>());
    for d in depths {
        let b = brute_admitted::<T>(d, spec);
        let name = std::any::type_name::<T>();
        assert_eq!(exhaustive::<T>(d, spec), b, "exhaustive: {name} at depth {d} under {spec:?}");
        assert_eq!(lazy::<T>(d, spec), b, "lazy: {name} at depth {d} under {spec:?}");
        #[cfg(feature = "z3")]
        assert_eq!(smt::<T>(d, spec), b, "SMT: {name} at depth {d} under {spec:?}");
    }
}

#[test]
fn a_type_recursive_through_option_is_bounded_by_the_depth() {
    agree::<Node>(0..=4, None);
    agree::<Node>(0..=4, Some("x.v != 1"));
    // A node and its `Option` cost a level each: depth 3 holds the first
    // two-node lists, and no three-node list.
    let nodes = |d| brute_admitted::<Node>(d, None).iter().map(|v| v.to_string().matches("Some").count()).max();
    assert_eq!((nodes(0), nodes(2), nodes(3), nodes(4)), (Some(0), Some(0), Some(1), Some(1)));
}

#[test]
fn mutually_recursive_enums_are_bounded_by_the_depth() {
    agree::<Ping>(0..=5, None);
    agree::<Pong>(0..=5, None);
}

#[test]
fn a_tree_and_its_forest_are_bounded_by_the_depth() {
    agree::<Tree>(0..=4, None);
    agree::<Forest>(0..=4, None);
    agree::<Vec<Tree>>(0..=3, None);
}

#[test]
fn a_type_without_finite_values_is_an_error_naming_it() {
    for ty in [Chicken::ty(), Farm::ty()] {
        let err = ArgSpec::new(vec![("x".into(), ty.clone())], &[]).unwrap_err();
        assert!(err.contains("`Chicken` cannot be bounded") || err.contains("`Egg` cannot be bounded"), "{err}");
        let m = Measures::new();
        let mut lazy = Lazy::new(&[("x".into(), ty.clone())], &[], &m, 3);
        assert!(matches!(lazy.next(), Some(Err(LazyError::Unbounded(e))) if e.contains("cannot be bounded")));
        assert!(lazy.next().is_none());
        let sampler = speccheck_target::sample::Sampler::new(&[("x".into(), ty.clone())], &[], &m);
        assert!(matches!(sampler, Err(LazyError::Unbounded(e)) if e.contains("cannot be bounded")));
        #[cfg(feature = "z3")]
        {
            let e = speccheck_target::smt::Search::new(&[("x".into(), ty)], &[], &m, 3, Duration::from_secs(5));
            assert!(matches!(e, Err(speccheck_target::smt::SmtError::Unbounded(e)) if e.contains("cannot be bounded")));
        }
    }
    assert_eq!(Node::ty().unbounded(), None);
    assert_eq!(Ping::ty().unbounded(), None);
}

/// The sampler (the default strategy's) builds types that recurse through
/// others too: every input one the evaluator admits (the refinement inside
/// `Tree` included), none taller than the size asked for (in recursive
/// steps on a way down, as the solver's heights count them), many
/// distinct ones.
#[test]
fn the_sampler_builds_types_recursive_through_others() {
    fn check<T: Targetable>(spec: Option<&str>) {
        let name = std::any::type_name::<T>();
        let requires: Vec<_> = spec.map(|s| parse_str(s).unwrap()).into_iter().collect();
        let m = Measures::new();
        let mut sampler = speccheck_target::sample::Sampler::new(&[("x".into(), T::ty())], &requires, &m).unwrap();
        let (mut made, mut tallest) = (BTreeSet::new(), 0);
        for seed in 0..500 {
            let Some(mut v) = sampler.sample(seed, 3).unwrap() else { continue };
            let x = v.remove(0);
            assert_eq!(
                admitted([x.clone()], spec, &m).len(),
                1,
                "{name}: the sampler made {x}, which the spec rejects"
            );
            let height = speccheck_target::depth::input_height(std::slice::from_ref(&x), &[T::ty()]);
            assert!(height <= 3, "{name}: the sampler made {x}, of height {height}, at size 3");
            tallest = tallest.max(height);
            made.insert(x);
        }
        assert!(made.len() >= 10 && tallest >= 2, "{name}: {} distinct inputs, the tallest {tallest}", made.len());
    }
    check::<Node>(Some("x.v != 1"));
    check::<Ping>(None);
    check::<Pong>(None);
    check::<Tree>(None);
    check::<Forest>(None);
}
