//! Floats as choices: a sign choice and a magnitude choice.
//!
//! The magnitude is recorded in *simplicity order* (after Hypothesis's
//! lexicographic float encoding): non-negative integers below 2^56 are
//! their own index, so `0.0 < 1.0 < 2.0 < …`; every other float sets the
//! top bit and orders its exponent so that `[1, 2)` comes first, larger
//! exponents next, smaller ones after, infinities and NaN last; and the
//! fractional bits of the mantissa are reversed so that "fewer fractional
//! bits" is simpler (1.5 before 1.25 before 1.1). Shrinking the index
//! therefore shrinks toward small, round numbers.
//!
//! Random draws are biased toward NaN, ±infinity, ±0.0, subnormals, the
//! extremes and small round values.

use rand::Rng;

use crate::choice::ChoiceKind;
use crate::encode::{EncodeError, Encoder};
use crate::test_case::TestCase;

const SIMPLE_LIMIT: u64 = 1 << 56;
const MANTISSA_BITS: u32 = 52;
const MANTISSA_MASK: u64 = (1 << MANTISSA_BITS) - 1;

/// What floats a draw may produce.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FloatSpec {
    /// Smallest allowed value (may be `-inf`).
    pub min: f64,
    /// Largest allowed value (may be `+inf`).
    pub max: f64,
    /// Whether NaN may be produced.
    pub allow_nan: bool,
    /// Whether infinities may be produced (when within `min..=max`).
    pub allow_infinity: bool,
    /// Draw values representable as `f32`.
    pub single: bool,
}

impl FloatSpec {
    /// Every `f64`, NaN and infinities included.
    pub const ANY: FloatSpec =
        FloatSpec { min: f64::NEG_INFINITY, max: f64::INFINITY, allow_nan: true, allow_infinity: true, single: false };

    /// Finite values in `min..=max`.
    pub fn range(min: f64, max: f64) -> Self {
        FloatSpec { min, max, allow_nan: false, allow_infinity: false, single: false }
    }

    fn allows(&self, x: f64) -> bool {
        if x.is_nan() {
            return self.allow_nan;
        }
        if x.is_infinite() && !self.allow_infinity {
            return false;
        }
        if self.single && (x as f32) as f64 != x {
            return false;
        }
        self.min <= x && x <= self.max
    }

    /// The value a misfit decodes to: into range, never NaN unless allowed.
    fn repair(&self, x: f64) -> f64 {
        if self.allows(x) {
            return x;
        }
        let lo = if self.min.is_infinite() && !self.allow_infinity { f64::MIN } else { self.min };
        let hi = if self.max.is_infinite() && !self.allow_infinity { f64::MAX } else { self.max };
        let y = if x.is_nan() { 0.0f64.clamp(lo, hi) } else { x.clamp(lo, hi) };
        if self.single { round_into_f32(y, lo, hi) } else { y }
    }

    fn negative_possible(&self) -> bool {
        self.min < 0.0 || (self.min == 0.0 && self.min.is_sign_negative())
    }

    fn positive_possible(&self) -> bool {
        self.max > 0.0 || (self.max == 0.0 && self.max.is_sign_positive())
    }

    fn needs_sign(&self) -> bool {
        self.negative_possible() && self.positive_possible()
    }
}

fn round_into_f32(y: f64, lo: f64, hi: f64) -> f64 {
    let f = y as f32 as f64;
    if f < lo {
        f32::from_bits((y as f32).to_bits() + 1) as f64
    } else if f > hi {
        f32::from_bits((y as f32).to_bits().saturating_sub(1)) as f64
    } else {
        f
    }
}

fn exponent_key(e: u64) -> u64 {
    match e {
        1023..=2046 => e - 1023,
        0..=1022 => 1024 + (1022 - e),
        _ => 2047,
    }
}

fn exponent_from_key(k: u64) -> u64 {
    match k {
        0..=1023 => k + 1023,
        1024..=2046 => 1022 - (k - 1024),
        _ => 2047,
    }
}

fn reverse_low_bits(m: u64, n: u32) -> u64 {
    if n == 0 {
        return m;
    }
    let low = m & ((1u64 << n) - 1);
    let rev = low.reverse_bits() >> (64 - n);
    (m & !((1u64 << n) - 1)) | rev
}

fn fractional_bits(e: u64) -> u32 {
    let unbiased = e as i64 - 1023;
    if unbiased <= 0 {
        MANTISSA_BITS
    } else if unbiased < MANTISSA_BITS as i64 {
        MANTISSA_BITS - unbiased as u32
    } else {
        0
    }
}

/// Simplicity index of a non-negative float (its sign bit is ignored).
pub fn magnitude_to_index(x: f64) -> u64 {
    let x = x.abs();
    if x.is_finite() && x.fract() == 0.0 && x < SIMPLE_LIMIT as f64 {
        return x as u64;
    }
    let bits = x.to_bits() & !(1u64 << 63);
    let e = bits >> MANTISSA_BITS;
    let m = reverse_low_bits(bits & MANTISSA_MASK, fractional_bits(e));
    (1u64 << 63) | (exponent_key(e) << MANTISSA_BITS) | m
}

/// Inverse of [`magnitude_to_index`] (total: every index decodes).
pub fn index_to_magnitude(i: u64) -> f64 {
    if i >> 63 == 0 {
        return (i % SIMPLE_LIMIT) as f64;
    }
    let k = (i >> MANTISSA_BITS) & 0x7ff;
    let e = exponent_from_key(k);
    let m = reverse_low_bits(i & MANTISSA_MASK, fractional_bits(e));
    f64::from_bits((e << MANTISSA_BITS) | m)
}

const SPECIALS: [f64; 18] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    -0.5,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    f64::MIN_POSITIVE,
    -f64::MIN_POSITIVE,
    5e-324, // smallest subnormal
    -5e-324,
    f64::MAX,
    f64::MIN,
    f64::EPSILON,
    1.0e-300,
    1.0e300,
];

fn sample_float(rng: &mut rand::rngs::SmallRng, size: usize, spec: &FloatSpec) -> f64 {
    for _ in 0..8 {
        let r: u32 = rng.random_range(0..100);
        let x = if r < 15 {
            SPECIALS[rng.random_range(0..SPECIALS.len())]
        } else if r < 55 {
            let s = size.max(1) as i64;
            let n = rng.random_range(-s..=s) as f64;
            match rng.random_range(0..4) {
                0 => n,
                1 => n / 2.0,
                2 => n + rng.random::<f64>(),
                _ => n / 10.0,
            }
        } else if spec.single {
            f32::from_bits(rng.random()) as f64
        } else {
            f64::from_bits(rng.random())
        };
        let x = if spec.single { x as f32 as f64 } else { x };
        if spec.allows(x) {
            return x;
        }
    }
    // Fall back to a uniform draw inside the range.
    let lo = spec.min.max(f64::MIN);
    let hi = spec.max.min(f64::MAX);
    let x = lo + (hi - lo) * rng.random::<f64>();
    spec.repair(if x.is_finite() { x } else { lo / 2.0 + hi / 2.0 })
}

impl TestCase {
    /// A float allowed by `spec`.
    pub fn draw_float(&mut self, spec: &FloatSpec) -> f64 {
        let sampled = self.pre_sample(|rng, size| sample_float(rng, size, spec));
        let negative = if spec.needs_sign() {
            self.draw_raw(1, ChoiceKind::Boolean, |_, _| sampled.map_or(0, |x| u64::from(x.is_sign_negative())), |_| 2)
                == 1
        } else {
            !spec.positive_possible()
        };
        let index = self.draw_raw(
            u64::MAX,
            ChoiceKind::Float,
            |_, _| sampled.map_or(0, magnitude_to_index),
            |budget| u64::from(budget) + 1,
        );
        let m = index_to_magnitude(index);
        spec.repair(if negative { -m } else { m })
    }
}

impl Encoder {
    /// Twin of [`TestCase::draw_float`].
    pub fn write_float(&mut self, x: f64, spec: &FloatSpec) -> Result<(), EncodeError> {
        if !spec.allows(x) {
            return Err(EncodeError::OutOfRange { value: format!("{x:?}"), range: format!("{spec:?}") });
        }
        if spec.needs_sign() {
            self.write_raw(u64::from(x.is_sign_negative()), 1, ChoiceKind::Boolean);
        }
        self.write_raw(magnitude_to_index(x), u64::MAX, ChoiceKind::Float);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_case::Tail;

    #[test]
    fn magnitude_index_round_trips() {
        for x in [0.0, 1.0, 2.0, 1.5, 0.1, 1e-310, f64::MAX, f64::INFINITY, 123456.789, 2f64.powi(60), 5e-324] {
            let i = magnitude_to_index(x);
            assert_eq!(index_to_magnitude(i).to_bits(), x.to_bits(), "{x}");
        }
        assert!(index_to_magnitude(magnitude_to_index(f64::NAN)).is_nan());
    }

    #[test]
    fn simpler_floats_have_smaller_indices() {
        let order = [0.0, 1.0, 2.0, 1000.0, 1.5, 1.25, 1e300, 0.5, 1e-300, f64::INFINITY];
        for w in order.windows(2) {
            assert!(magnitude_to_index(w[0]) < magnitude_to_index(w[1]), "{} !< {}", w[0], w[1]);
        }
    }

    #[test]
    fn draws_respect_spec_and_round_trip() {
        let specs = [
            FloatSpec::ANY,
            FloatSpec::range(-1.0, 1.0),
            FloatSpec::range(5.0, 10.0),
            FloatSpec { single: true, ..FloatSpec::ANY },
        ];
        for spec in specs {
            for seed in 0..300 {
                let mut tc = TestCase::random(seed, 30);
                let x = tc.draw_float(&spec);
                assert!(spec.allows(x), "{x} not allowed by {spec:?}");
                let (seq, _) = tc.finish();
                let mut enc = Encoder::new();
                enc.write_float(x, &spec).unwrap();
                let mut replay = TestCase::replay(enc.finish().0, Tail::Stop);
                let y = replay.draw_float(&spec);
                assert!(x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()), "{x} vs {y}");
                let mut replay = TestCase::replay(seq.0, Tail::Stop);
                let z = replay.draw_float(&spec);
                assert!(x.to_bits() == z.to_bits() || (x.is_nan() && z.is_nan()));
            }
        }
    }

    #[test]
    fn any_float_reaches_the_special_values() {
        let mut nan = false;
        let mut inf = false;
        let mut neg_zero = false;
        let mut subnormal = false;
        for seed in 0..3000 {
            let x = TestCase::random(seed, 10).draw_float(&FloatSpec::ANY);
            nan |= x.is_nan();
            inf |= x.is_infinite();
            neg_zero |= x == 0.0 && x.is_sign_negative();
            subnormal |= x.is_subnormal();
        }
        assert!(nan && inf && neg_zero && subnormal);
    }
}
