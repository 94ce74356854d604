//! Div0 (SmartCheck §4.3.1): a calculator language; `div_sub_terms` is meant to
//! rule out division by zero but only looks for a literal `C(0)` divisor,
//! so `Div(x, Add(C(-5), C(5)))` slips through. Size: constructors.

/// A calculator expression.
#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub enum Exp {
    /// A constant.
    C(i32),
    /// Sum (wrapping).
    Add(Box<Exp>, Box<Exp>),
    /// Floor division; fails on a zero divisor.
    Div(Box<Exp>, Box<Exp>),
}

/// Haskell's `div` rounds toward negative infinity.
fn div_floor(a: i64, b: i64) -> i64 {
    let q = a.wrapping_div(b);
    if (a % b != 0) && ((a < 0) != (b < 0)) { q - 1 } else { q }
}

/// Evaluates `e`; `None` on division by zero.
pub fn eval(e: &Exp) -> Option<i64> {
    match e {
        Exp::C(i) => Some(i64::from(*i)),
        Exp::Add(a, b) => Some(eval(a)?.wrapping_add(eval(b)?)),
        Exp::Div(a, b) => {
            let d = eval(b)?;
            if d == 0 { None } else { Some(div_floor(eval(a)?, d)) }
        }
    }
}

/// The flawed precondition: no divisor is a literal zero.
pub fn div_sub_terms(e: &Exp) -> bool {
    match e {
        Exp::C(_) => true,
        Exp::Div(_, b) if **b == Exp::C(0) => false,
        Exp::Add(a, b) | Exp::Div(a, b) => div_sub_terms(a) && div_sub_terms(b),
    }
}

/// The property (under the precondition [`div_sub_terms`]): evaluation succeeds.
pub fn evaluates(e: &Exp) -> bool {
    eval(e).is_some()
}

/// The benchmark's size: constructors.
pub fn size(e: &Exp) -> usize {
    match e {
        Exp::C(_) => 1,
        Exp::Add(a, b) | Exp::Div(a, b) => 1 + size(a) + size(b),
    }
}
