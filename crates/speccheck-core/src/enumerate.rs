//! Exhaustive enumeration by depth (SmallCheck-style), for every generator.
//!
//! Instead of a per-type enumerator, speccheck enumerates *choice
//! sequences*: each draw offers only its simplest options within the
//! remaining depth budget (integers `-d..=d` around their target,
//! collections up to `d` elements, leaf constructors only once the budget
//! is spent), and a depth-first walk visits every combination, building
//! each value by replaying its choices through the generator. So any
//! generator — derived, hand-written, dependent — can be enumerated, and
//! each enumerated value arrives with the choices that rebuild it (ready to
//! shrink, replay and persist).

use crate::choice::ChoiceSequence;
use crate::gens::Generator;
use crate::test_case::CaseControl as _;
use crate::test_case::{Invalid, TestCase, catch_invalid};

/// Iterator over every value of a generator up to a depth; see
/// [`enumerate`].
pub struct Enumeration<'g, G: Generator> {
    generator: &'g G,
    depth: u32,
    next: Option<Vec<u64>>,
    limit: Option<u64>,
    produced: u64,
    /// Prefixes that could not be generated (filters, overruns).
    pub skipped: u64,
}

/// Every value `generator` can make within depth `depth`, each with its choices.
/// Values come in order of their choices (simplest first).
pub fn enumerate<G: Generator>(generator: &G, depth: u32) -> Enumeration<'_, G> {
    Enumeration { generator, depth, next: Some(Vec::new()), limit: None, produced: 0, skipped: 0 }
}

impl<G: Generator> Enumeration<'_, G> {
    /// Stops after `n` values.
    pub fn limit(mut self, n: u64) -> Self {
        self.limit = Some(n);
        self
    }
}

impl<G: Generator> Iterator for Enumeration<'_, G> {
    type Item = (ChoiceSequence, G::Value);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.limit.is_some_and(|l| self.produced >= l) {
                return None;
            }
            let prefix = self.next.take()?;
            let mut tc = TestCase::enumerate(prefix, self.depth).with_max_depth(self.depth.max(1));
            let result: Result<G::Value, Invalid> = catch_invalid(&mut tc, |tc| self.generator.generate(tc));
            let widths = tc.take_widths();
            let (choices, _) = tc.finish();
            self.next = next_prefix(&choices, &widths);
            match result {
                Ok(v) => {
                    self.produced += 1;
                    return Some((choices, v));
                }
                Err(_) => self.skipped += 1,
            }
        }
    }
}

/// The depth-first odometer: after a case made `choices` with `widths`
/// options per draw, the prefix of the next case (bump the last draw that
/// has options left), or `None` when every combination was visited.
pub fn next_prefix(choices: &ChoiceSequence, widths: &[u64]) -> Option<Vec<u64>> {
    let used: Vec<u64> = choices.values().collect();
    next_prefix_of(&used, widths)
}

/// [`next_prefix`] for a walk over choices of its own (`used[i]` taken
/// of `widths[i]` options), for enumerators outside the core.
pub fn next_prefix_of(used: &[u64], widths: &[u64]) -> Option<Vec<u64>> {
    let mut k = used.len().min(widths.len());
    while k > 0 {
        k -= 1;
        if used[k] + 1 < widths[k] {
            let mut n = used[..k].to_vec();
            n.push(used[k] + 1);
            return Some(n);
        }
    }
    None
}

/// A test case that enumerates from `prefix` within depth `depth` (for
/// runners that drive the odometer themselves).
pub fn enumerating_case(prefix: Vec<u64>, depth: u32) -> TestCase {
    TestCase::enumerate(prefix, depth).with_max_depth(depth.max(1))
}

/// Estimates how many inputs an exhaustive run to `depth` visits: the
/// number of leaves of the enumeration tree, by Knuth's estimator (walk
/// `probes` random root-to-leaf paths, taking each draw's option uniformly;
/// the product of the widths met on a path is an unbiased estimate of the
/// leaf count, and the mean over paths converges to it). `draw` generates
/// one input from the test case. Costs `probes` generations, whatever the
/// size of the tree.
pub fn estimate_count(draw: &dyn Fn(&mut TestCase), depth: u32, probes: u32, seed: u64) -> f64 {
    let probes = probes.max(1);
    let mut total = 0.0;
    for i in 0..probes {
        let seed = crate::seed::case_seed(seed, u64::from(i));
        let mut tc = TestCase::enumeration_probe(seed, depth).with_max_depth(depth.max(1));
        // A panicking generator still visited its path; its leaf counts.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| catch_invalid(&mut tc, |tc| draw(tc))));
        total += take_widths(&mut tc).iter().fold(1.0f64, |p, &w| p * w as f64);
    }
    total / f64::from(probes)
}

/// [`estimate_count`] for a generator: about how many values
/// [`enumerate`]`(generator, depth)` visits.
pub fn estimate<G: Generator>(generator: &G, depth: u32, probes: u32) -> f64 {
    estimate_count(
        &|tc: &mut TestCase| {
            generator.generate(tc);
        },
        depth,
        probes,
        0x006b_6e75_7468,
    )
}

/// The option counts of an enumerating case's draws.
pub fn take_widths(tc: &mut TestCase) -> Vec<u64> {
    tc.take_widths()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gens;

    #[test]
    fn integers_enumerate_around_zero() {
        let vals: Vec<i32> = enumerate(&gens::any::<i32>(), 2).map(|(_, v)| v).collect();
        assert_eq!(vals, vec![0, 1, -1, 2, -2]);
    }

    #[test]
    fn bools_and_pairs_are_exhaustive() {
        let vals: Vec<(bool, bool)> = enumerate(&gens::any::<(bool, bool)>(), 3).map(|(_, v)| v).collect();
        assert_eq!(vals.len(), 4);
        let mut sorted = vals.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 4);
    }

    #[test]
    fn vectors_are_bounded_by_depth() {
        let vals: Vec<Vec<bool>> = enumerate(&gens::any::<Vec<bool>>(), 2).map(|(_, v)| v).collect();
        // Lengths 0..=2 at depth 2 (elements have budget left): 1 + 2 + 4.
        assert!(vals.iter().all(|v| v.len() <= 2));
        assert_eq!(vals.len(), 7, "{vals:?}");
    }

    #[test]
    fn knuths_estimate_is_exact_on_uniform_trees_and_close_on_others() {
        // Every path of a pair of bools has width 2 × 2: exact.
        assert_eq!(estimate(&gens::any::<(bool, bool)>(), 3, 10), 4.0);
        for depth in 1..=4 {
            let exact = enumerate(&gens::any::<Vec<Option<u8>>>(), depth).count() as f64;
            let est = estimate(&gens::any::<Vec<Option<u8>>>(), depth, 4000);
            assert!((est / exact - 1.0).abs() < 0.25, "depth {depth}: estimated {est}, exact {exact}");
        }
    }

    #[test]
    fn enumerated_choices_replay_to_the_same_value() {
        for (choices, v) in enumerate(&gens::any::<Vec<Option<u8>>>(), 3) {
            let again = crate::arbitrary::decode_value::<Vec<Option<u8>>>(&choices).unwrap();
            assert_eq!(again, v);
        }
    }
}
