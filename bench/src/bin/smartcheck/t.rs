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

/// The common distribution: five lists of up to 99 uniform `i16`s.
fn strategy() -> impl Strategy<Value = T> {
    let list = || proptest::collection::vec(any::<i16>(), 0..100);
    (list(), list(), list(), list(), list()).prop_map(|(a, b, c, d, e)| T(a, b, c, d, e))
}

/// speccheck's combinators draw exactly that distribution.
fn speccheck_gen() -> impl speccheck::Generator<Value = T> + Clone {
    use speccheck::gens;
    let list = || gens::vec(gens::uniform(i16::MIN..=i16::MAX), 0..100);
    speccheck::Generator::map((list(), list(), list(), list(), list()), |(a, b, c, d, e)| T(a, b, c, d, e))
}

/// quickcheck: values from the same strategy; the five lists shrunk as a
/// 5-tuple (each in turn, its elements included) — what `genericShrink`
/// derives.
#[derive(Clone, Debug)]
pub struct QcT(pub T);

impl QcArbitrary for QcT {
    fn arbitrary(g: &mut Gen) -> Self {
        QcT(common::sample(&strategy(), common::qc_seed(g)))
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let t = &self.0;
        let tuple = (t.0.clone(), t.1.clone(), t.2.clone(), t.3.clone(), t.4.clone());
        Box::new(tuple.shrink().map(|(a, b, c, d, e)| QcT(T(a, b, c, d, e))))
    }
}

impl common::QcSubject for QcT {
    fn check(&self) -> Check {
        check(&self.0)
    }
}

/// hegeltest: five lists, each of a length uniform in 0..100, of its
/// `i16`s (Hypothesis's integers: not uniform).
fn hg_t(tc: &speccheck_bench::hegel_peer::TestCase) -> T {
    let list = || common::hg_vec(tc, 100, speccheck_bench::hegel_peer::gs::integers::<i16>());
    T(list(), list(), list(), list(), list())
}

pub fn run(tool: Tool, seed: u64) -> Option<Sample> {
    common::timed(|| match tool {
        _ if tool.is_speccheck() => {
            common::speccheck(speccheck_gen(), common::speccheck_config(tool, seed, None), check).map(|t| size(&t))
        }
        Tool::Proptest => common::proptest(strategy(), seed, check).map(|t| size(&t)),
        Tool::Quickcheck => common::quickcheck::<QcT>(seed, true).map(|t| size(&t.0)),
        Tool::Hegeltest => common::hegel(seed, hg_t, check).map(|t| size(&t)),
        _ => common::quickcheck::<QcT>(seed, false).map(|t| size(&t.0)),
    })
}
