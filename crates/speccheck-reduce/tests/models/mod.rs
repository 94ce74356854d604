//! Small buggy programs the tests reduce and generalize.

#![allow(dead_code)]

use speccheck::prelude::*;

/// SmartCheck's calculator language (§4.3.1).
#[derive(Arbitrary, Debug, Clone, PartialEq)]
pub enum Exp {
    C(i32),
    Add(Box<Exp>, Box<Exp>),
    Div(Box<Exp>, Box<Exp>),
}

pub fn eval(e: &Exp) -> Option<i64> {
    match e {
        Exp::C(i) => Some(i64::from(*i)),
        Exp::Add(a, b) => Some(eval(a)?.wrapping_add(eval(b)?)),
        Exp::Div(a, b) => {
            let d = eval(b)?;
            if d == 0 { None } else { Some(eval(a)?.div_euclid(d)) }
        }
    }
}

/// The flawed precondition: only a literal `C(0)` divisor is ruled out.
pub fn div_sub_terms(e: &Exp) -> bool {
    match e {
        Exp::C(_) => true,
        Exp::Div(_, b) if **b == Exp::C(0) => false,
        Exp::Add(a, b) | Exp::Div(a, b) => div_sub_terms(a) && div_sub_terms(b),
    }
}

pub fn size(e: &Exp) -> usize {
    match e {
        Exp::C(_) => 1,
        Exp::Add(a, b) | Exp::Div(a, b) => 1 + size(a) + size(b),
    }
}

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
