//! README.md's first example, as a user copies it (tests/readme_samples.rs
//! checks the README shows exactly this).

use speccheck::prelude::*;

#[derive(Arbitrary, Debug, Clone, PartialEq)]
enum Expr {
    Num(i64),
    Add(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
}

fn eval(e: &Expr) -> i64 {
    match e {
        Expr::Num(n) => *n,
        Expr::Add(a, b) => eval(a).wrapping_add(eval(b)),
        Expr::Mul(a, b) => eval(a).wrapping_mul(eval(b)),
    }
}

fn optimize(e: &Expr) -> Expr {
    match e {
        Expr::Mul(_, b) if **b == Expr::Num(0) => Expr::Num(0),
        Expr::Add(a, b) => Expr::Add(Box::new(optimize(a)), Box::new(optimize(b))),
        Expr::Mul(a, b) => Expr::Mul(Box::new(optimize(a)), Box::new(optimize(b))),
        other => other.clone(),
    }
}

#[property]
fn optimize_preserves_meaning(e: Expr) {
    assert_eq!(eval(&optimize(&e)), eval(&e));
}

#[property(cases = 1000)]
fn search_finds_keys(#[from(gens::vec(gens::ints(0..1000u32), 1..50))] mut xs: Vec<u32>, i: usize) {
    xs.sort();
    let key = xs[i % xs.len()];
    assert!(xs.binary_search(&key).is_ok());
}
