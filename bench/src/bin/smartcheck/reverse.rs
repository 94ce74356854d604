//! (b) Reverse: `xs == reverse(xs)`, false for any list that is not a
//! palindrome (from QuickCheck's documentation). Size: the list's length.

use proptest::prelude::{Strategy, any};
use quickcheck::{Arbitrary as QcArbitrary, Gen};

use super::common::{self, Check, Sample, Tool};

/// The common distribution: up to 99 uniform `i32`s.
fn strategy() -> impl Strategy<Value = Vec<i32>> {
    proptest::collection::vec(any::<i32>(), 0..100)
}

/// quickcheck: values from the same strategy, shrunk by `Vec`'s shrinker.
#[derive(Clone, Debug)]
pub struct QcList(pub Vec<i32>);

impl QcArbitrary for QcList {
    fn arbitrary(g: &mut Gen) -> Self {
        QcList(common::sample(&strategy(), common::qc_seed(g)))
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(self.0.shrink().map(QcList))
    }
}

impl common::QcSubject for QcList {
    fn check(&self) -> Check {
        check(&self.0)
    }
}

// The tools hand the property a `&Vec<i32>` (their value type).
#[allow(clippy::ptr_arg)]
pub fn check(xs: &Vec<i32>) -> Check {
    if xs.iter().eq(xs.iter().rev()) { Check::Pass } else { Check::Fail }
}

pub fn run(tool: Tool, seed: u64) -> Option<Sample> {
    common::timed(|| match tool {
        _ if tool.is_speccheck() => {
            // speccheck's combinators draw exactly the same distribution.
            let g = speccheck::gens::vec(speccheck::gens::uniform(i32::MIN..=i32::MAX), 0..100);
            common::speccheck(g, common::speccheck_config(tool, seed, None), check).map(|xs| xs.len())
        }
        Tool::Proptest => common::proptest(strategy(), seed, check).map(|xs| xs.len()),
        Tool::Quickcheck => common::quickcheck::<QcList>(seed, true).map(|xs| xs.0.len()),
        Tool::Hegeltest => {
            common::hegel(seed, |tc| common::hg_vec(tc, 100, speccheck_bench::hegel_peer::gs::integers::<i32>()), check)
                .map(|xs| xs.len())
        }
        _ => common::quickcheck::<QcList>(seed, false).map(|xs| xs.0.len()),
    })
}
