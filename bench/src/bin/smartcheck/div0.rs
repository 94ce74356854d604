//! (c) Div0 (§4.3.1): a calculator language; `div_sub_terms` is meant to
//! rule out division by zero but only looks for a literal `C(0)` divisor,
//! so `Div(x, Add(C(-5), C(5)))` slips through. Size: constructors.

use proptest::prelude::{Strategy, any};
use proptest::prop_oneof;
use quickcheck::{Arbitrary as QcArbitrary, Gen};

use super::common::{self, Check, Sample, Tool};

#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub enum Exp {
    C(i32),
    Add(Box<Exp>, Box<Exp>),
    Div(Box<Exp>, Box<Exp>),
}

/// Haskell's `div` rounds toward negative infinity.
fn div_floor(a: i64, b: i64) -> i64 {
    let q = a.wrapping_div(b);
    if (a % b != 0) && ((a < 0) != (b < 0)) { q - 1 } else { q }
}

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

pub fn check(e: &Exp) -> Check {
    if !div_sub_terms(e) {
        Check::Discard
    } else if eval(e).is_some() {
        Check::Pass
    } else {
        Check::Fail
    }
}

pub fn size(e: &Exp) -> usize {
    match e {
        Exp::C(_) => 1,
        Exp::Add(a, b) | Exp::Div(a, b) => 1 + size(a) + size(b),
    }
}

fn pt_exp() -> impl Strategy<Value = Exp> {
    any::<i32>().prop_map(Exp::C).prop_recursive(6, 64, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Exp::Add(Box::new(a), Box::new(b))),
            (inner.clone(), inner).prop_map(|(a, b)| Exp::Div(Box::new(a), Box::new(b))),
        ]
    })
}

/// quickcheck: the paper's sized generator (`mkM`), and `genericShrink`'s
/// shrink (sub-terms, then each field shrunk in turn).
#[derive(Clone, Debug)]
pub struct QcExp(pub Exp);

fn qc_exp(g: &mut Gen, n: usize) -> Exp {
    if n == 0 {
        return Exp::C(i32::arbitrary(g));
    }
    let sub = |g: &mut Gen| {
        let m = common::qc_below(g, n);
        Box::new(qc_exp(g, m))
    };
    if bool::arbitrary(g) { Exp::Add(sub(g), sub(g)) } else { Exp::Div(sub(g), sub(g)) }
}

fn qc_shrink(e: &Exp) -> Vec<Exp> {
    match e {
        Exp::C(i) => i.shrink().map(Exp::C).collect(),
        Exp::Add(a, b) | Exp::Div(a, b) => {
            let mk = |x: Exp, y: Exp| match e {
                Exp::Add(..) => Exp::Add(Box::new(x), Box::new(y)),
                _ => Exp::Div(Box::new(x), Box::new(y)),
            };
            let mut out = vec![(**a).clone(), (**b).clone()];
            out.extend(qc_shrink(a).into_iter().map(|x| mk(x, (**b).clone())));
            out.extend(qc_shrink(b).into_iter().map(|y| mk((**a).clone(), y)));
            out
        }
    }
}

impl QcArbitrary for QcExp {
    fn arbitrary(g: &mut Gen) -> Self {
        let n = g.size();
        QcExp(qc_exp(g, n))
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(qc_shrink(&self.0).into_iter().map(QcExp))
    }
}

fn qc_check(e: &QcExp) -> Check {
    check(&e.0)
}

pub fn run(tool: Tool, seed: u64) -> Option<Sample> {
    common::timed(|| match tool {
        _ if tool.is_speccheck() => {
            common::speccheck(speccheck::any::<Exp>(), common::speccheck_config(tool, seed, None), check)
                .map(|e| size(&e))
        }
        Tool::Proptest => common::proptest(pt_exp(), seed, check).map(|e| size(&e)),
        Tool::Quickcheck => common::quickcheck::<QcExp>(seed, true, qc_check).map(|e| size(&e.0)),
        _ => common::quickcheck::<QcExp>(seed, false, qc_check).map(|e| size(&e.0)),
    })
}
