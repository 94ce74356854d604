//! The core engine as a user meets it: derive a type, state properties,
//! read the reports. Run with
//! `cargo run -p speccheck-examples --example core_properties`.
//!
//! (In a test file you would write `#[property] fn name(args…)` instead of
//! building `Property` values by hand; see `crates/speccheck/tests/`.)

use speccheck::prelude::*;
use speccheck::{Config, Property};

/// A tiny expression language with a constant-folding optimizer.
#[derive(Arbitrary, Debug, Clone, PartialEq)]
enum Expr {
    Num(i8),
    Neg(Box<Expr>),
    Add(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
}

fn eval(e: &Expr) -> i64 {
    match e {
        Expr::Num(n) => i64::from(*n),
        Expr::Neg(a) => -eval(a),
        Expr::Add(a, b) => eval(a) + eval(b),
        Expr::Mul(a, b) => eval(a) * eval(b),
    }
}

/// Buggy: folds `x * 0` to `x` instead of `0`.
fn optimize(e: &Expr) -> Expr {
    match e {
        Expr::Mul(a, b) if **b == Expr::Num(0) => optimize(a),
        Expr::Neg(a) => Expr::Neg(Box::new(optimize(a))),
        Expr::Add(a, b) => Expr::Add(Box::new(optimize(a)), Box::new(optimize(b))),
        Expr::Mul(a, b) => Expr::Mul(Box::new(optimize(a)), Box::new(optimize(b))),
        other => other.clone(),
    }
}

/// Buggy: inserts before the first element that is *greater or equal*,
/// except that it skips the head.
fn sorted_insert(xs: &mut Vec<u8>, x: u8) {
    let at = xs.iter().skip(1).position(|&y| y >= x).map_or(xs.len(), |p| p + 1);
    xs.insert(at, x);
}

fn main() {
    let config = || Config { database: None, seed: Some(2024), ..Config::named("example") };

    println!("== an optimizer that must preserve meaning ==");
    let report = Property::new(any::<Expr>())
        .config(config())
        .named("optimize_preserves_eval")
        .run(|e: Expr| eval(&optimize(&e)) == eval(&e));
    println!("{report}");

    println!("== sorted insert keeps a vector sorted ==");
    let report = Property::new((any::<Vec<u8>>(), any::<u8>())).config(config()).named("sorted_insert").run(
        |(mut xs, x): (Vec<u8>, u8)| {
            xs.sort();
            label(if xs.is_empty() { "empty" } else { "non-empty" });
            sorted_insert(&mut xs, x);
            xs.windows(2).all(|w| w[0] <= w[1])
        },
    );
    println!("{report}");

    println!("== a correct property passes, with statistics ==");
    let report = Property::new(gens::vec(gens::ints(0..100u32), 0..20)).config(config()).named("sum_commutes").run(
        |xs: Vec<u32>| {
            collect(&(xs.len() / 5 * 5));
            let forward: u32 = xs.iter().sum();
            let backward: u32 = xs.iter().rev().sum();
            forward == backward
        },
    );
    println!("{report}");
}
