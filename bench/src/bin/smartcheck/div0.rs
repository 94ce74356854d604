//! (c) Div0 (§4.3.1): the model (types, buggy function, property, size) is
//! [`speccheck_examples::smartcheck::div0`], shared with the tour and the
//! example; here are the peers' generators and shrinkers for it.

use proptest::prelude::{Strategy, any};
use proptest::prop_oneof;
use quickcheck::{Arbitrary as QcArbitrary, Gen};

use super::common::{self, Check, Sample, Tool};

pub use speccheck_examples::smartcheck::div0::{Exp, div_sub_terms, evaluates, size};

pub fn check(e: &Exp) -> Check {
    if !div_sub_terms(e) {
        Check::Discard
    } else if evaluates(e) {
        Check::Pass
    } else {
        Check::Fail
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
