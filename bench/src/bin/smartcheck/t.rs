//! (a) The paper's motivating example (§2, Figure 1): five lists of
//! `Int16`; precondition: each list sums (wrapping, as `Int16` does) below
//! 256; property: the whole sums below 5 · 256. It fails by overflow.
//! Size: the number of `i16` values (the paper's measure).

use proptest::prelude::{Strategy, any};
use quickcheck::{Arbitrary as QcArbitrary, Gen};

use super::common::{self, Check, Sample, Tool};

#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub struct T(pub Vec<i16>, pub Vec<i16>, pub Vec<i16>, pub Vec<i16>, pub Vec<i16>);

impl T {
    fn lists(&self) -> [&Vec<i16>; 5] {
        [&self.0, &self.1, &self.2, &self.3, &self.4]
    }
}

fn sum<'a>(xs: impl IntoIterator<Item = &'a i16>) -> i16 {
    xs.into_iter().fold(0i16, |a, &b| a.wrapping_add(b))
}

pub fn check(t: &T) -> Check {
    if !t.lists().iter().all(|l| sum(l.iter()) < 256) {
        return Check::Discard;
    }
    if sum(t.lists().iter().flat_map(|l| l.iter())) < 5 * 256 { Check::Pass } else { Check::Fail }
}

pub fn size(t: &T) -> usize {
    t.lists().iter().map(|l| l.len()).sum()
}

/// quickcheck: the five lists shrunk as a 5-tuple (each in turn, its
/// elements included) — what `genericShrink` derives.
#[derive(Clone, Debug)]
pub struct QcT(pub T);

impl QcArbitrary for QcT {
    fn arbitrary(g: &mut Gen) -> Self {
        QcT(T(Vec::arbitrary(g), Vec::arbitrary(g), Vec::arbitrary(g), Vec::arbitrary(g), Vec::arbitrary(g)))
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let t = &self.0;
        let tuple = (t.0.clone(), t.1.clone(), t.2.clone(), t.3.clone(), t.4.clone());
        Box::new(tuple.shrink().map(|(a, b, c, d, e)| QcT(T(a, b, c, d, e))))
    }
}

fn qc_check(t: &QcT) -> Check {
    check(&t.0)
}

pub fn run(tool: Tool, seed: u64) -> Option<Sample> {
    common::timed(|| match tool {
        _ if tool.is_speccheck() => {
            common::speccheck(speccheck::any::<T>(), common::speccheck_config(tool, seed, None), check)
                .map(|t| size(&t))
        }
        Tool::Proptest => {
            let list = || proptest::collection::vec(any::<i16>(), 0..100);
            let s = (list(), list(), list(), list(), list()).prop_map(|(a, b, c, d, e)| T(a, b, c, d, e));
            common::proptest(s, seed, check).map(|t| size(&t))
        }
        Tool::Quickcheck => common::quickcheck::<QcT>(seed, true, qc_check).map(|t| size(&t.0)),
        _ => common::quickcheck::<QcT>(seed, false, qc_check).map(|t| size(&t.0)),
    })
}
