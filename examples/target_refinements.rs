//! Type targeted testing (Target): say what a valid input is, and test
//! every valid input up to a depth instead of random ones.
//!
//! Sorted lists are the classic case: a random list is almost never
//! sorted, so filtering random lists tests almost nothing. Here the type
//! carries its invariant (`#[refine]` on a field, with a `#[measure]` the
//! spec calls), and the lazy strategy builds only sorted lists, refuting a
//! prefix as soon as it breaks the order (Lazy SmallCheck); `smt` asks z3
//! for them (Target's query, decode, refute).
//!
//! The planted bug: `insert` puts an element equal to the head after the
//! whole list instead of before the head, which only a list of two or more
//! elements shows. Random lists filtered by the spec rarely reach that
//! shape; every valid list up to depth 4 contains it.
//!
//! In a test file you would write
//! `#[property(strategy = lazy, depth = 4)] fn insert_keeps_order(l: Sorted, #[refine(x >= 0 && x <= 3)] x: i64)`;
//! `main` builds the same property by hand, as the macro does.
//! Run: `cargo run -p speccheck-examples --example target_refinements`.

use speccheck::Property;
use speccheck::prelude::*;
use speccheck::spec::{Targetable, Value};
use speccheck::target::{ArgSpec, Strategy, apply};
use speccheck::{Targetable, measure};

/// A list whose elements never decrease: each tail holds values at least
/// its head.
#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq)]
enum Sorted {
    Nil,
    Cons(i64, #[refine(at_least(_1, _0))] Box<Sorted>),
}

/// Every element of `l` is at least `x` (a measure: the spec language and
/// the solver unfold it along the list).
#[measure]
fn at_least(l: &Sorted, x: i64) -> bool {
    match l {
        Sorted::Nil => true,
        Sorted::Cons(h, t) => *h >= x && at_least(t, x),
    }
}

/// Inserts `x` in order. Planted bug: an element equal to the head goes
/// to the end.
fn insert(x: i64, l: Sorted) -> Sorted {
    match l {
        Sorted::Nil => Sorted::Cons(x, Box::new(Sorted::Nil)),
        Sorted::Cons(h, t) if x < h => Sorted::Cons(x, Box::new(Sorted::Cons(h, t))),
        Sorted::Cons(h, t) if x == h => append(Sorted::Cons(h, t), x),
        Sorted::Cons(h, t) => Sorted::Cons(h, Box::new(insert(x, *t))),
    }
}

fn append(l: Sorted, x: i64) -> Sorted {
    match l {
        Sorted::Nil => Sorted::Cons(x, Box::new(Sorted::Nil)),
        Sorted::Cons(h, t) => Sorted::Cons(h, Box::new(append(*t, x))),
    }
}

fn to_vec(l: &Sorted) -> Vec<i64> {
    let mut out = Vec::new();
    let mut at = l;
    while let Sorted::Cons(h, t) = at {
        out.push(*h);
        at = t;
    }
    out
}

fn main() {
    for strategy in [Strategy::Random, Strategy::Lazy, Strategy::Auto] {
        // The arguments as the spec language sees them, and their
        // refinements: `x` between 0 and 3; `l` carries its own.
        let params = vec![("l".to_string(), Sorted::ty()), ("x".to_string(), i64::ty())];
        let spec = ArgSpec::new(params, &[("x >= 0 && x <= 3", "x >= 0 && x <= 3")]).expect("a spec in the language");
        let admit = spec.clone();
        let reify = |vals: &[Value]| Some((Sorted::reify(vals.first()?)?, i64::reify(vals.get(1)?)?));
        let property = Property::new(any::<(Sorted, i64)>())
            .named(format!("insert_keeps_order ({strategy:?})"))
            .configure(|c| c.seed = Some(7));
        let report = apply(property, &spec, strategy, 4, reify).run(move |(l, x): (Sorted, i64)| {
            // Inputs the spec rejects (random ones) are discarded here.
            admit.admit(&[l.reflect(), x.reflect()]);
            let out = to_vec(&insert(x, l));
            out.windows(2).all(|w| w[0] <= w[1])
        });
        println!("── strategy {strategy:?} ──\n{report}\n");
    }
}
