//! Typed draws: how integers, floats, characters, booleans and collection
//! lengths map to choices, each with its `write_*` twin on
//! [`Encoder`] so that encoding mirrors generation exactly.

pub mod char;
pub mod float;
pub mod int;
pub mod many;

use rand::Rng;

use crate::choice::ChoiceKind;
use crate::encode::{EncodeError, Encoder};
use crate::test_case::TestCase;

/// `n` draws of `draw`, in order, into `out`: what
/// [`Generator::generate_into`](crate::Generator::generate_into) does when there is no faster batch.
#[inline]
pub(crate) fn one_by_one<T>(
    tc: &mut TestCase,
    n: usize,
    out: &mut impl Extend<T>,
    mut draw: impl FnMut(&mut TestCase) -> T,
) {
    out.extend(std::iter::repeat_with(|| draw(tc)).take(n));
}

impl TestCase {
    /// A boolean that is `true` with probability `p`. Certain outcomes
    /// (`p <= 0` or `p >= 1`) make no choice.
    #[inline]
    pub fn draw_bool(&mut self, p: f64) -> bool {
        if p <= 0.0 {
            return false;
        }
        if p >= 1.0 {
            return true;
        }
        self.draw_raw(1, ChoiceKind::Boolean, |rng, _| u64::from(rng.random_bool(p)), |_| 2) == 1
    }

    /// An index in `0..n`, uniformly at random; `0` is the simplest. A single
    /// option makes no choice.
    #[inline]
    pub fn draw_index(&mut self, n: usize) -> usize {
        assert!(n > 0, "draw_index(0): nothing to choose from");
        if n == 1 {
            return 0;
        }
        let max = (n - 1) as u64;
        self.draw_raw(max, ChoiceKind::Index, |rng, _| rng.random_range(0..=max), |_| max + 1) as usize
    }

    /// An index in `0..n` picked with the given weights (sampling only; the
    /// recorded choice is the index, so shrinking moves toward index 0).
    pub fn draw_weighted(&mut self, weights: &[u32]) -> usize {
        let n = weights.len();
        assert!(n > 0, "draw_weighted: no weights");
        if n == 1 {
            return 0;
        }
        let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
        assert!(total > 0, "draw_weighted: all weights are zero");
        let max = (n - 1) as u64;
        self.draw_raw(
            max,
            ChoiceKind::Index,
            |rng, _| {
                let mut r = rng.random_range(0..total);
                for (i, &w) in weights.iter().enumerate() {
                    if r < u64::from(w) {
                        return i as u64;
                    }
                    r -= u64::from(w);
                }
                max
            },
            |_| max + 1,
        ) as usize
    }

    /// A constructor index for a recursive type with `n` constructors of
    /// which the first `leaves` do not recurse. The deeper the nesting, the
    /// likelier a leaf; past [`max_depth`](TestCase::max_depth) only leaves.
    /// Enumeration with no budget left tries leaves only.
    pub fn draw_constructor(&mut self, n: usize, leaves: usize) -> usize {
        self.draw_constructor_weighted(&vec![1; n], leaves)
    }

    /// [`draw_constructor`](Self::draw_constructor) with a sampling weight
    /// per constructor (in choice order: leaves first). The weights and the
    /// depth shape random draws only: replayed choices and a fuzzer's bytes
    /// pick the constructor as they say.
    pub fn draw_constructor_weighted(&mut self, weights: &[u32], leaves: usize) -> usize {
        let n = weights.len();
        assert!(n > 0, "a type without constructors cannot be generated");
        if n == 1 {
            return 0;
        }
        let max = (n - 1) as u64;
        // From a fuzzer's bytes, recording nothing: the choice read here
        // (`draw_raw` would make one more call out of line to read it).
        if self.is_plain_bytes() {
            return self.next_plain_bytes(max, ChoiceKind::Index) as usize;
        }
        let depth = self.depth();
        let max_depth = self.max_depth().max(1);
        // A constructor of `range` by weight, from 32 random bits
        // (multiply-shift: no division, no rejection loop).
        let pick = |bits: u64, range: std::ops::Range<usize>| -> u64 {
            let scale = |total: u64| ((u128::from(bits) * u128::from(total)) >> 32) as u64;
            let total: u64 = weights[range.clone()].iter().map(|&w| u64::from(w)).sum();
            if total == 0 {
                return range.start as u64 + scale(range.len() as u64);
            }
            let mut r = scale(total);
            for i in range.clone() {
                if r < u64::from(weights[i]) {
                    return i as u64;
                }
                r -= u64::from(weights[i]);
            }
            (range.end - 1) as u64
        };
        self.draw_raw(
            max,
            ChoiceKind::Index,
            |rng, _| {
                let leaves = leaves.clamp(1, n);
                // Depth counts the value span of the type itself, hence -1.
                let d = depth.saturating_sub(1) as u64;
                let max_depth = u64::from(max_depth);
                // One draw for both questions: the low half says whether
                // this depth takes a leaf (probability depth / max depth),
                // the high half which constructor.
                let bits = rand::RngCore::next_u64(rng);
                let leaf = d >= max_depth || (d > 0 && ((bits & 0xffff_ffff) * max_depth) >> 32 < d);
                pick(bits >> 32, if leaf { 0..leaves } else { 0..n })
            },
            |budget| if budget == 0 { leaves.max(1) as u64 } else { max + 1 },
        ) as usize
    }
}

impl Encoder {
    /// Twin of [`TestCase::draw_bool`].
    pub fn write_bool(&mut self, b: bool, p: f64) -> Result<(), EncodeError> {
        if p <= 0.0 || p >= 1.0 {
            if b != (p >= 1.0) {
                return Err(EncodeError::OutOfRange { value: b.to_string(), range: format!("p = {p}") });
            }
            return Ok(());
        }
        self.write_raw(u64::from(b), 1, ChoiceKind::Boolean);
        Ok(())
    }

    /// Twin of [`TestCase::draw_index`] and [`TestCase::draw_weighted`].
    pub fn write_index(&mut self, i: usize, n: usize) -> Result<(), EncodeError> {
        if i >= n {
            return Err(EncodeError::OutOfRange { value: i.to_string(), range: format!("0..{n}") });
        }
        if n > 1 {
            self.write_raw(i as u64, (n - 1) as u64, ChoiceKind::Index);
        }
        Ok(())
    }

    /// Twin of [`TestCase::draw_constructor`].
    pub fn write_constructor(&mut self, i: usize, n: usize) -> Result<(), EncodeError> {
        self.write_index(i, n)
    }
}
