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

/// The common distribution (proptest's recursive strategy).
fn pt_exp() -> impl Strategy<Value = Exp> + 'static {
    any::<i32>().prop_map(Exp::C).prop_recursive(6, 64, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Exp::Add(Box::new(a), Box::new(b))),
            (inner.clone(), inner).prop_map(|(a, b)| Exp::Div(Box::new(a), Box::new(b))),
        ]
    })
}

/// quickcheck: values from the common strategy, and `genericShrink`'s
/// shrink (sub-terms, then each field shrunk in turn).
#[derive(Clone, Debug)]
pub struct QcExp(pub Exp);

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
        QcExp(common::sample_from(pt_exp, common::qc_seed(g)))
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(qc_shrink(&self.0).into_iter().map(QcExp))
    }
}

impl common::QcSubject for QcExp {
    fn check(&self) -> Check {
        check(&self.0)
    }
}

/// hegeltest: the strategy's shape as a composite of draws (a constant,
/// or below the depth bound of 6 one of the two binary constructors), each
/// choice drawn from the test case so its engine shrinks it.
fn hg_exp(tc: &speccheck_bench::hegel_peer::TestCase, depth: usize) -> Exp {
    use speccheck_bench::hegel_peer::gs;
    let choice = if depth == 0 { 0 } else { common::hg_below(tc, 3) };
    match choice {
        0 => Exp::C(tc.draw(gs::integers::<i32>())),
        1 => Exp::Add(Box::new(hg_exp(tc, depth - 1)), Box::new(hg_exp(tc, depth - 1))),
        _ => Exp::Div(Box::new(hg_exp(tc, depth - 1)), Box::new(hg_exp(tc, depth - 1))),
    }
}

pub fn run(tool: Tool, seed: u64) -> Option<Sample> {
    common::timed(|| match tool {
        _ if tool.is_speccheck() => {
            common::speccheck(common::sampled(pt_exp), common::speccheck_config(tool, seed, None), check)
                .map(|e| size(&e))
        }
        Tool::Proptest => common::proptest(pt_exp(), seed, check).map(|e| size(&e)),
        Tool::Quickcheck => common::quickcheck::<QcExp>(seed, true).map(|e| size(&e.0)),
        Tool::Hegeltest => common::hegel(seed, |tc| hg_exp(tc, 6), check).map(|e| size(&e)),
        _ => common::quickcheck::<QcExp>(seed, false).map(|e| size(&e.0)),
    })
}
