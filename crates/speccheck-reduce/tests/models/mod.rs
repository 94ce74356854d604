//! Small buggy programs the tests reduce and generalize.

#![allow(dead_code)]

use speccheck::prelude::*;

/// SmartCheck's calculator language (§4.3.1), as the tour and the
/// benchmark use it.
#[allow(unused_imports)] // each test binary uses its own part
pub use speccheck_examples::smartcheck::div0::{Exp, div_sub_terms, eval, size};

pub fn render(e: &Exp) -> Vec<(String, speccheck::Term)> {
    vec![("e".into(), e.to_term())]
}

/// Arithmetic with a simplifier that has two independent bugs.
#[derive(Arbitrary, Debug, Clone, PartialEq)]
pub enum Expr {
    Num(i8),
    Neg(Box<Expr>),
    Add(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
}

pub fn value(e: &Expr) -> i64 {
    match e {
        Expr::Num(n) => i64::from(*n),
        Expr::Neg(a) => -value(a),
        Expr::Add(a, b) => value(a) + value(b),
        Expr::Mul(a, b) => value(a) * value(b),
    }
}

/// Bug one: `--x` becomes `-x`. Bug two: `x * 1` becomes `1`.
pub fn simplify(e: &Expr) -> Expr {
    match e {
        Expr::Neg(a) => match &**a {
            Expr::Neg(inner) => Expr::Neg(Box::new(simplify(inner))),
            _ => Expr::Neg(Box::new(simplify(a))),
        },
        Expr::Mul(_, b) if **b == Expr::Num(1) => Expr::Num(1),
        Expr::Add(a, b) => Expr::Add(Box::new(simplify(a)), Box::new(simplify(b))),
        Expr::Mul(a, b) => Expr::Mul(Box::new(simplify(a)), Box::new(simplify(b))),
        other => other.clone(),
    }
}
