//! Integers as choices.
//!
//! An integer in `lo..=hi` is recorded as its position in the order
//! `t, t+1, t-1, t+2, t-2, …` around the shrink target `t` (0 clamped into
//! the range), continuing on one side once the other is used up. Smaller
//! positions are simpler values, so shrinking the number shrinks the value
//! toward 0 from both signs. Ranges wider than 64 bits take two choices.
//!
//! Random draws mix three kinds, from one selector of 64. The fixed mix:
//! a special value (the target, ±1, the bounds `MIN` and `MAX`) 9 times,
//! a value within `size` of the target 16 times (`NEAR_LAST`), anywhere in
//! the range the other 39 (three in five). The mix keeps Hypothesis's two
//! strengths: boundary and small values come often enough to trigger the
//! bugs they trigger, and most draws spread over the whole range, so a
//! collection holds many distinct values and an index reduced modulo a
//! length reaches every position. With `IntegerMix::PerCase` (the
//! default) each case takes one of four mixes from its seed (`MIXES`,
//! `Mix::of_seed`), as Hypothesis varies its weights per test case. The
//! bias lives only in sampling, never in the recorded choice.

use std::fmt::Debug;

use rand::rngs::SmallRng;
use rand::{Rng, RngCore};

use crate::choice::ChoiceKind;
use crate::encode::{EncodeError, Encoder};
use crate::test_case::TestCase;

/// Integer types speccheck can draw. Values map to an order-preserving
/// `u128` key.
pub trait Integer: Copy + Ord + Debug + Send + Sync + 'static {
    /// Smallest value.
    const MIN: Self;
    /// Largest value.
    const MAX: Self;
    /// Order-preserving map into `u128`.
    fn to_key(self) -> u128;
    /// Inverse of [`to_key`](Self::to_key).
    fn from_key(key: u128) -> Self;
    /// The key of zero.
    fn zero_key() -> u128;
}

macro_rules! unsigned {
    ($($t:ty),*) => {$(
        impl Integer for $t {
            const MIN: Self = <$t>::MIN;
            const MAX: Self = <$t>::MAX;
            #[inline] fn to_key(self) -> u128 { self as u128 }
            #[inline] fn from_key(key: u128) -> Self { key as $t }
            #[inline] fn zero_key() -> u128 { 0 }
        }
    )*};
}
macro_rules! signed {
    ($($t:ty => $u:ty),*) => {$(
        impl Integer for $t {
            const MIN: Self = <$t>::MIN;
            const MAX: Self = <$t>::MAX;
            #[inline] fn to_key(self) -> u128 { ((self as $u) ^ (1 << (<$u>::BITS - 1))) as u128 }
            #[inline] fn from_key(key: u128) -> Self { ((key as $u) ^ (1 << (<$u>::BITS - 1))) as $t }
            #[inline] fn zero_key() -> u128 { 1u128 << (<$u>::BITS - 1) }
        }
    )*};
}
unsigned!(u8, u16, u32, u64, u128, usize);
signed!(i8 => u8, i16 => u16, i32 => u32, i64 => u64, i128 => u128, isize => usize);

/// The simplicity order of `0..=w` around `t`, in both directions, for one
/// word size (64 bits on the hot path, 128 for the widest ranges).
macro_rules! zigzag {
    ($to_index:ident, $to_offset:ident, $t:ty) => {
        /// Position of offset `v` in the order `t, t+1, t-1, t+2, …` of
        /// `0..=w`, continuing on one side once the other is used up.
        #[inline(always)]
        fn $to_index(v: $t, w: $t, t: $t) -> $t {
            let (up_max, down_max) = (w - t, t);
            if v >= t {
                let up = v - t;
                if up <= down_max { if up == 0 { 0 } else { 2 * up - 1 } } else { down_max + up }
            } else {
                let down = t - v;
                if down <= up_max { 2 * down } else { up_max + down }
            }
        }

        /// Inverse of the above; positions past `w` clamp.
        #[inline(always)]
        fn $to_offset(k: $t, w: $t, t: $t) -> $t {
            let (up_max, down_max) = (w - t, t);
            let k = k.min(w);
            let m = up_max.min(down_max);
            if k <= m.saturating_mul(2) {
                if k == 0 {
                    t
                } else if k & 1 == 1 {
                    t + k.div_ceil(2)
                } else {
                    t - k / 2
                }
            } else if up_max > down_max {
                t + (k - m)
            } else {
                t - (k - m)
            }
        }
    };
}

zigzag!(offset_to_index, index_to_offset, u64);
zigzag!(offset_to_index_128, index_to_offset_128, u128);

/// Position of key `v` in the simplicity order of `lo..=hi` around `t`.
#[inline]
pub fn key_to_index(v: u128, lo: u128, hi: u128, t: u128) -> u128 {
    offset_to_index_128(v - lo, hi - lo, t - lo)
}

/// Inverse of [`key_to_index`]; indices past the range's width clamp.
#[inline]
pub fn index_to_key(k: u128, lo: u128, hi: u128, t: u128) -> u128 {
    lo + index_to_offset_128(k, hi - lo, t - lo)
}

/// [`sample_key`] in offsets (`0..=w`, target `t`). One RNG call covers
/// both the bias selector (low 6 bits) and, for ranges up to 2^58, the
/// value (the other 58 bits).
#[inline(always)]
fn sample_offset(rng: &mut SmallRng, w: u64, t: u64, size: usize, mix: Mix) -> u64 {
    let bits = rng.next_u64();
    let rest = bits >> 6;
    let class = mix.class(bits & 63);
    if class >= NEAR && w < 1 << 58 {
        // The two common cases (near the target, anywhere), about equally
        // likely: pick the range with selects, not a branch that would be
        // mispredicted half the time.
        let near = class == NEAR;
        let s = size.max(1) as u64;
        let lo = std::hint::select_unpredictable(near, t.saturating_sub(s), 0);
        let hi = std::hint::select_unpredictable(near, t.saturating_add(s).min(w), w);
        return lo + scale58(rest, hi - lo);
    }
    match class {
        0..=2 => t,
        3 => 0,
        4 => w,
        5 => 1.min(w),
        6 => w.saturating_sub(1),
        7 => t.saturating_add(1).min(w),
        8 => t.saturating_sub(1),
        NEAR => {
            let s = size.max(1) as u64;
            let (a, b) = (t.saturating_sub(s), t.saturating_add(s).min(w));
            a + scale58(rest, b - a)
        }
        _ => below(rng, w),
    }
}

/// The last of the 64 selectors that draw near the target (9 up to it)
/// in the fixed mix; the ones after it draw anywhere in the range. It was
/// 37 (near and anywhere about equally likely): measured on the ETNA
/// workloads and the real-crate interface bench, a quarter near found the
/// same bugs in as many inputs or fewer (a ropey slice bug whose position
/// is a `u16` modulo the length: 80 inputs instead of 110), and the
/// real-crate deep bugs sooner (indexset with the defaults on 9 seeds of 10
/// instead of 5, ropey in 7 ms instead of 36).
const NEAR_LAST: u8 = 24;

/// The class of a selector that draws near the target; classes 0–8 are
/// the special values, the class after `NEAR` draws anywhere.
const NEAR: u8 = 9;
const ANYWHERE: u8 = 10;

/// The mixes a case's integer draws can follow: where the special
/// selectors end and where the near ones end, of 64. The first is the
/// fixed mix (9 special, 16 near, 39 anywhere); with
/// [`IntegerMix::PerCase`](crate::runner::config::IntegerMix) a case takes
/// one of the others now and then (see [`Mix::of_seed`]): *spread* (2, 4,
/// 58: nearly every value anywhere, so a collection holds as many distinct
/// values as it has elements), *small* (6, 40, 18: most values near the
/// target, so values repeat) and *edges* (32, 8, 24: half the values at
/// the bounds, the target and their neighbours).
const MIXES: [(u8, u8); 4] = [(9, NEAR_LAST + 1), (2, 6), (6, 46), (32, 40)];

/// The class of each of the 64 selectors, per mix: a special value
/// (0–8, as in the fixed mix, spread over the special selectors), near the
/// target, or anywhere.
static CLASSES: [[u8; 64]; 4] = {
    let mut out = [[0u8; 64]; 4];
    let mut m = 0;
    while m < 4 {
        let (special, near) = MIXES[m];
        let mut sel = 0;
        while sel < 64 {
            out[m][sel] = if sel < special as usize {
                (sel * 9 / special as usize) as u8
            } else if sel < near as usize {
                NEAR
            } else {
                ANYWHERE
            };
            sel += 1;
        }
        m += 1;
    }
    out
};

/// Which mix a test case's integer draws follow (see [`MIXES`]). Sampling
/// only: the recorded choice is the same whatever mix drew it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Mix(u8);

impl Mix {
    /// The fixed mix.
    pub(crate) const FIXED: Mix = Mix(0);

    /// The mix of the case drawn from `seed` when mixes vary per case: the
    /// fixed one in half of the cases, spread in a quarter, small and
    /// edges in an eighth each (swarm testing over the mix: a case that
    /// leans one way reaches what the average mix rarely does, such as a
    /// collection of thousands of distinct values in one range).
    #[inline]
    pub(crate) fn of_seed(seed: u64) -> Mix {
        const BY_EIGHTH: [u8; 8] = [0, 0, 0, 0, 1, 1, 2, 3];
        Mix(BY_EIGHTH[(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 61) as usize])
    }

    #[inline(always)]
    fn class(self, selector: u64) -> u8 {
        CLASSES[usize::from(self.0 & 3)][(selector & 63) as usize]
    }
}

/// Maps 58 random bits uniformly (up to a bias below 2^-26 for the widest
/// ranges this is used for) onto `0..=max`, `max < 2^58`.
/// Multiply-shift, exact for power-of-two widths, with no branch on the
/// width.
#[inline(always)]
fn scale58(bits58: u64, max: u64) -> u64 {
    // `max + 1 <= 2^58` fits in 64 bits: one 64×64 multiply, high half.
    ((u128::from(bits58 << 6) * u128::from(max + 1)) >> 64) as u64
}

/// Uniform in `0..=max` by multiply-shift (no rejection loop: the bias is
/// below `max / 2^64`, far under what a test could notice).
#[inline]
pub(crate) fn below(rng: &mut SmallRng, max: u64) -> u64 {
    if max == u64::MAX {
        rng.next_u64()
    } else if max & (max + 1) == 0 {
        rng.next_u64() & max
    } else {
        ((u128::from(rng.next_u64()) * (u128::from(max) + 1)) >> 64) as u64
    }
}

#[inline]
fn uniform(rng: &mut SmallRng, lo: u128, hi: u128) -> u128 {
    let width = hi - lo;
    if width == u128::MAX {
        rng.random::<u128>()
    } else if width <= u64::MAX as u128 {
        lo + rng.random_range(0..=width as u64) as u128
    } else {
        lo + rng.random_range(0..=width)
    }
}

/// Samples a key of `lo..=hi` with the bias described in the module docs
/// (the fixed mix).
#[inline]
pub fn sample_key(rng: &mut SmallRng, lo: u128, hi: u128, t: u128, size: usize) -> u128 {
    sample_key_in(rng, lo, hi, t, size, Mix::FIXED)
}

#[inline]
fn sample_key_in(rng: &mut SmallRng, lo: u128, hi: u128, t: u128, size: usize, mix: Mix) -> u128 {
    let r: u32 = rng.random_range(0..64);
    match mix.class(u64::from(r)) {
        0..=2 => t,
        3 => lo,
        4 => hi,
        5 => lo.saturating_add(1).min(hi),
        6 => hi.saturating_sub(1).max(lo),
        7 => t.saturating_add(1).min(hi),
        8 => t.saturating_sub(1).max(lo),
        NEAR => {
            let s = size.max(1) as u128;
            uniform(rng, t.saturating_sub(s).max(lo), t.saturating_add(s).min(hi))
        }
        _ => uniform(rng, lo, hi),
    }
}

#[inline]
fn target(lo: u128, hi: u128, zero: u128) -> u128 {
    zero.clamp(lo, hi)
}

/// The range `lo..=hi` as the fast sampling path sees it: its lowest key,
/// its width and the offset of its target (the value nearest 0). `None`
/// for a single value or a range wider than 64 bits (drawn by
/// `draw_key`).
#[inline(always)]
fn sampled_offsets<T: Integer>(lo: T, hi: T) -> Option<(u128, u64, u64)> {
    let (lo, hi) = (lo.to_key(), hi.to_key());
    let width = hi - lo;
    (width != 0 && width <= u64::MAX as u128).then(|| (lo, width as u64, (target(lo, hi, T::zero_key()) - lo) as u64))
}

/// `n` integers of `lo..=hi` into `out` in one loop, consuming the random
/// source exactly as `n` calls of [`TestCase::draw_int`] would (the
/// recorded re-run of a failing case must see the same values). False when
/// the case cannot take the batch (not plain, near the bound on draws, a
/// single value or wider than 64 bits): draw one by one then.
#[inline(always)]
pub(crate) fn sample_batch<T: Integer>(tc: &mut TestCase, lo: T, hi: T, n: usize, out: &mut impl Extend<T>) -> bool {
    let Some((lo, w, to)) = sampled_offsets(lo, hi) else {
        return false;
    };
    let mix = tc.mix();
    let Some((rng, size)) = tc.plain_batch(n) else {
        return false;
    };
    // The values are drawn into a local chunk, then handed to `out`: with
    // the generator state and the chunk both local, the state stays in
    // registers (stores into `out`, reached through a pointer, could alias
    // it, which kept the state in memory: a store and a reload on every
    // draw's critical path).
    let mut local = rng.clone();
    let mut chunk = [T::from_key(lo); BATCH_CHUNK];
    let mut left = n;
    if w < 1 << 58 {
        // The range each selector picks, worked out once for the batch:
        // the loop then has no branch to mispredict (one draw in seven is
        // a special value, at random).
        let table = SelectorTable::new(w, to, size, mix);
        while left > 0 {
            let k = left.min(BATCH_CHUNK);
            for slot in &mut chunk[..k] {
                *slot = T::from_key(lo + table.sample(local.next_u64()) as u128);
            }
            out.extend(chunk[..k].iter().copied());
            left -= k;
        }
    } else {
        while left > 0 {
            let k = left.min(BATCH_CHUNK);
            for slot in &mut chunk[..k] {
                *slot = T::from_key(lo + sample_offset(&mut local, w, to, size, mix) as u128);
            }
            out.extend(chunk[..k].iter().copied());
            left -= k;
        }
    }
    *rng = local;
    true
}

/// Values [`sample_batch`] draws before it hands them on.
const BATCH_CHUNK: usize = 64;

/// [`sample_offset`]'s choice of range per selector, for one range, size
/// and mix: each special class one value, the near class the range near
/// the target, the last the whole range. Same values as `sample_offset`
/// for the same random bits (ranges below 2^58).
struct SelectorTable {
    /// `(low, width)` per class: the nine special values, near, anywhere.
    ranges: [(u64, u64); 11],
    mix: Mix,
}

impl SelectorTable {
    #[inline(always)]
    fn new(w: u64, t: u64, size: usize, mix: Mix) -> Self {
        let s = size.max(1) as u64;
        let one = |v: u64| (v, 0);
        let (near_lo, near_hi) = (t.saturating_sub(s), t.saturating_add(s).min(w));
        SelectorTable {
            ranges: [
                one(t),
                one(t),
                one(t),
                one(0),
                one(w),
                one(1.min(w)),
                one(w.saturating_sub(1)),
                one(t.saturating_add(1).min(w)),
                one(t.saturating_sub(1)),
                (near_lo, near_hi - near_lo),
                (0, w),
            ],
            mix,
        }
    }

    #[inline(always)]
    fn sample(&self, bits: u64) -> u64 {
        let (low, width) = self.ranges[usize::from(self.mix.class(bits))];
        low + scale58(bits >> 6, width)
    }
}

impl TestCase {
    /// An integer in `lo..=hi`, shrinking toward 0 (or the bound nearest 0).
    #[inline(always)]
    pub fn draw_int<T: Integer>(&mut self, lo: T, hi: T) -> T {
        assert!(lo <= hi, "draw_int: empty range {lo:?}..={hi:?}");
        // The generation phase's path, inlined so that constant bounds
        // (`any::<i32>()`) fold away.
        let mix = self.mix();
        if let Some((key_lo, w, to)) = sampled_offsets(lo, hi)
            && let Some(v) = self.try_sample(
                w,
                ChoiceKind::Integer,
                |rng, size| sample_offset(rng, w, to, size, mix),
                |&v| offset_to_index(v, w, to),
            )
        {
            return T::from_key(key_lo + v as u128);
        }
        let (lo, hi) = (lo.to_key(), hi.to_key());
        T::from_key(self.draw_key(lo, hi, target(lo, hi, T::zero_key())))
    }

    /// An integer in `lo..=hi` drawn uniformly at random (no bias toward
    /// small values or the bounds), recorded and shrunk as
    /// [`draw_int`](Self::draw_int) records and shrinks it.
    pub fn draw_int_uniform<T: Integer>(&mut self, lo: T, hi: T) -> T {
        assert!(lo <= hi, "draw_int_uniform: empty range {lo:?}..={hi:?}");
        let (lo, hi) = (lo.to_key(), hi.to_key());
        let t = target(lo, hi, T::zero_key());
        T::from_key(self.draw_key_by(lo, hi, t, |rng, w, _, _| below(rng, w), |rng, _| uniform(rng, lo, hi)))
    }

    /// An integer in `lo..=hi` shrinking toward `towards` (clamped into the
    /// range).
    pub fn draw_int_towards<T: Integer>(&mut self, lo: T, hi: T, towards: T) -> T {
        assert!(lo <= hi, "draw_int: empty range {lo:?}..={hi:?}");
        let (lo, hi) = (lo.to_key(), hi.to_key());
        let t = towards.to_key().clamp(lo, hi);
        T::from_key(self.draw_key(lo, hi, t))
    }

    #[inline(never)]
    fn draw_key(&mut self, lo: u128, hi: u128, t: u128) -> u128 {
        // A fuzzer's bytes, nothing recorded: the choice read here, not
        // through one more call out of line (see `draw_plain_bytes`).
        if self.is_plain_bytes() && hi - lo <= u64::MAX as u128 {
            let (w, t) = ((hi - lo) as u64, (t - lo) as u64);
            if w == 0 {
                return lo;
            }
            let k = self.next_plain_bytes(w, ChoiceKind::Integer);
            return lo + index_to_offset(k, w, t) as u128;
        }
        let mix = self.mix();
        self.draw_key_by(
            lo,
            hi,
            t,
            |rng, w, t, size| sample_offset(rng, w, t, size, mix),
            |rng, size| sample_key_in(rng, lo, hi, t, size, mix),
        )
    }

    /// A key of `lo..=hi` around target `t`, sampled by `narrow` (an offset
    /// in `0..=w` given the range's width, target offset and the size) or,
    /// for ranges wider than 64 bits, by `wide` (a key); recorded the same
    /// way whatever the sampling.
    #[inline(always)]
    fn draw_key_by(
        &mut self,
        lo: u128,
        hi: u128,
        t: u128,
        narrow: impl FnOnce(&mut SmallRng, u64, u64, usize) -> u64,
        wide: impl FnOnce(&mut SmallRng, usize) -> u128,
    ) -> u128 {
        let width = hi - lo;
        if width == 0 {
            return lo;
        }
        if width <= u64::MAX as u128 {
            // Work in 64-bit offsets from `lo`: u128 arithmetic is the
            // generation phase's main cost otherwise.
            let (w, t) = (width as u64, (t - lo) as u64);
            let k = self.draw_raw(
                w,
                ChoiceKind::Integer,
                |rng, size| offset_to_index(narrow(rng, w, t, size), w, t),
                |budget| 2 * u64::from(budget) + 1,
            );
            return lo + index_to_offset(k, w, t) as u128;
        }
        // Wider than 64 bits: high half, then low half.
        let sampled = self.pre_sample(|rng, size| key_to_index(wide(rng, size), lo, hi, t));
        let hi_max = (width >> 64) as u64;
        let high = self.draw_raw(hi_max, ChoiceKind::Integer, |_, _| sampled.map_or(0, |k| (k >> 64) as u64), |_| 1);
        let lo_max = if high == hi_max { width as u64 } else { u64::MAX };
        let low = self.draw_raw(
            lo_max,
            ChoiceKind::Integer,
            |_, _| sampled.map_or(0, |k| (k as u64).min(lo_max)),
            |budget| 2 * u64::from(budget) + 1,
        );
        index_to_key(((high as u128) << 64) | low as u128, lo, hi, t)
    }
}

impl Encoder {
    /// Twin of [`TestCase::draw_int`].
    pub fn write_int<T: Integer>(&mut self, v: T, lo: T, hi: T) -> Result<(), EncodeError> {
        self.write_int_towards(v, lo, hi, T::from_key(T::zero_key()))
    }

    /// Twin of [`TestCase::draw_int_towards`].
    pub fn write_int_towards<T: Integer>(&mut self, v: T, lo: T, hi: T, towards: T) -> Result<(), EncodeError> {
        let (lk, hk) = (lo.to_key(), hi.to_key());
        self.write_key(v, lo, hi, towards.to_key().clamp(lk, hk))
    }

    fn write_key<T: Integer>(&mut self, v: T, lo: T, hi: T, t: u128) -> Result<(), EncodeError> {
        if v < lo || v > hi {
            return Err(EncodeError::OutOfRange { value: format!("{v:?}"), range: format!("{lo:?}..={hi:?}") });
        }
        let (lo, hi) = (lo.to_key(), hi.to_key());
        let width = hi - lo;
        if width == 0 {
            return Ok(());
        }
        let k = key_to_index(v.to_key(), lo, hi, t);
        if width <= u64::MAX as u128 {
            self.write_raw(k as u64, width as u64, ChoiceKind::Integer);
        } else {
            let hi_max = (width >> 64) as u64;
            let high = (k >> 64) as u64;
            self.write_raw(high, hi_max, ChoiceKind::Integer);
            let lo_max = if high == hi_max { width as u64 } else { u64::MAX };
            self.write_raw(k as u64, lo_max, ChoiceKind::Integer);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_case::Tail;

    #[test]
    fn the_fixed_mix_classes_selectors_as_before_and_every_mix_has_every_kind() {
        // The fixed mix: selectors 0-8 the nine special values, up to
        // `NEAR_LAST` near, the rest anywhere (what generation always did).
        for sel in 0..64u64 {
            let before = (sel.min(9) + u64::from(sel > u64::from(NEAR_LAST))) as u8;
            assert_eq!(Mix::FIXED.class(sel), before, "selector {sel}");
        }
        for m in 0..4u8 {
            let classes: std::collections::BTreeSet<u8> = (0..64).map(|sel| Mix(m).class(sel)).collect();
            assert!(classes.contains(&0) && classes.contains(&NEAR) && classes.contains(&ANYWHERE), "mix {m}");
        }
        // Half of the seeds keep the fixed mix; each other mix is taken.
        let picked: Vec<Mix> = (0..4000u64).map(|s| Mix::of_seed(crate::seed::case_seed(7, s))).collect();
        let fixed = picked.iter().filter(|m| **m == Mix::FIXED).count();
        assert!((1800..2200).contains(&fixed), "{fixed} of 4000 fixed");
        for m in 1..4 {
            assert!(picked.contains(&Mix(m)), "mix {m} never taken");
        }
    }

    #[test]
    fn a_spread_case_draws_distinct_values_where_the_fixed_mix_repeats() {
        // 2000 values of a 16-bit range: the fixed mix repeats its special
        // and near values; the spread mix is nearly all distinct.
        let distinct = |mix: Mix| {
            let mut rng = <SmallRng as rand::SeedableRng>::seed_from_u64(3);
            let values: std::collections::HashSet<u64> =
                (0..2000).map(|_| sample_offset(&mut rng, 65_535, 0, 100, mix)).collect();
            values.len()
        };
        let (fixed, spread) = (distinct(Mix::FIXED), distinct(Mix(1)));
        assert!(fixed < 1500, "fixed mix: {fixed} distinct of 2000");
        assert!(spread > 1800, "spread mix: {spread} distinct of 2000");
    }

    #[test]
    fn index_order_is_a_bijection_on_small_ranges() {
        for (lo, hi, t) in [(0u128, 10, 0), (0, 10, 10), (0, 10, 3), (5, 5, 5), (0, 1, 1), (3, 20, 17)] {
            let mut seen = vec![false; (hi - lo + 1) as usize];
            for k in 0..=(hi - lo) {
                let v = index_to_key(k, lo, hi, t);
                assert!((lo..=hi).contains(&v), "{k} -> {v} outside {lo}..={hi}");
                assert_eq!(key_to_index(v, lo, hi, t), k);
                assert!(!seen[(v - lo) as usize]);
                seen[(v - lo) as usize] = true;
            }
        }
    }

    #[test]
    fn offsets_agree_with_keys() {
        for (w, t) in [(10u64, 0u64), (10, 10), (10, 3), (0, 0), (1, 1), (17, 14), (u64::MAX, 1 << 63)] {
            for k in (0..=w.min(300)).chain([w / 2, w]) {
                let v = index_to_offset(k, w, t);
                assert_eq!(v as u128, index_to_key(k as u128, 0, w as u128, t as u128));
                assert_eq!(offset_to_index(v, w, t), k);
            }
        }
    }

    #[test]
    fn simplicity_order_around_zero() {
        let lo = i32::MIN.to_key();
        let hi = i32::MAX.to_key();
        let t = i32::zero_key();
        let order: Vec<i32> = (0..5).map(|k| i32::from_key(index_to_key(k, lo, hi, t))).collect();
        assert_eq!(order, vec![0, 1, -1, 2, -2]);
        assert_eq!(key_to_index(i32::MIN.to_key(), lo, hi, t), u32::MAX as u128);
    }

    #[test]
    fn draws_round_trip_through_the_encoder() {
        fn check<T: Integer>(lo: T, hi: T) {
            for seed in 0..200 {
                let mut tc = TestCase::random(seed, 50);
                let v = tc.draw_int(lo, hi);
                assert!(lo <= v && v <= hi);
                let (seq, _) = tc.finish();
                let mut enc = Encoder::new();
                enc.write_int(v, lo, hi).unwrap();
                assert_eq!(enc.finish(), seq, "{v:?}");
                let mut again = TestCase::replay(seq.0, Tail::Stop);
                assert_eq!(again.draw_int(lo, hi), v);
            }
        }
        check(i8::MIN, i8::MAX);
        check(-3i64, 1_000_000);
        check(u64::MIN, u64::MAX);
        check(i128::MIN, i128::MAX);
        check(u128::MIN, u128::MAX);
        check(10u16, 10u16);
    }

    #[test]
    fn bias_hits_the_extremes() {
        let mut seen_min = false;
        let mut seen_max = false;
        let mut seen_zero = false;
        for seed in 0..2000 {
            let mut tc = TestCase::random(seed, 10);
            match tc.draw_int(i64::MIN, i64::MAX) {
                i64::MIN => seen_min = true,
                i64::MAX => seen_max = true,
                0 => seen_zero = true,
                _ => {}
            }
        }
        assert!(seen_min && seen_max && seen_zero);
    }

    #[test]
    fn most_draws_spread_over_the_range_and_some_hit_its_special_values() {
        // 0..=65535 at size 100: a special value is one of 0, 1, 65534,
        // 65535; "near" is 0..=100; the rest is spread.
        let (mut special, mut near, mut spread) = (0u32, 0u32, 0u32);
        let n = 20_000u32;
        for seed in 0..u64::from(n) {
            let mut tc = TestCase::random(seed, 100);
            match tc.draw_int(0u32, 65_535) {
                0 | 1 | 65_534 | 65_535 => special += 1,
                2..=100 => near += 1,
                _ => spread += 1,
            }
        }
        let share = |k: u32| f64::from(k) / f64::from(n);
        // Expected: specials 9/64 (0.14), near about 16/64 (0.25), spread
        // about 39/64 (0.61), less the few uniform draws that land low.
        assert!((0.10..0.18).contains(&share(special)), "specials {}", share(special));
        assert!((0.20..0.31).contains(&share(near)), "near {}", share(near));
        assert!((0.55..0.66).contains(&share(spread)), "spread {}", share(spread));
    }

    #[test]
    fn a_batch_draws_what_one_by_one_draws_would() {
        use crate::test_case::CaseControl as _;
        let mut batched = 0;
        for (lo, hi) in [(0u64, 10), (0, 200_000), (5, 1 << 40), (0, (1 << 58) - 1), (0, u64::MAX)] {
            for seed in 0..40 {
                // Every mix: a case's mix comes from its seed.
                let case = |seed| TestCase::random(seed, 50).record_choices(false).with_varied_mix(seed % 2 == 1);
                let mut batch = Vec::new();
                let mut tc = case(seed);
                if !sample_batch(&mut tc, lo, hi, 64, &mut batch) {
                    continue;
                }
                batched += 1;
                let mut tc = case(seed);
                let single: Vec<u64> = (0..64).map(|_| tc.draw_int(lo, hi)).collect();
                assert_eq!(batch, single, "{lo}..={hi}, seed {seed}");
            }
        }
        // Only a single value or a range wider than 64 bits is not batched.
        assert_eq!(batched, 5 * 40);
    }
}
