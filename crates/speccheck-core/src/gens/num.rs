//! Numbers in ranges: `ints(0..10)`, `floats(0.0..=1.0)`, and [`range`],
//! which turns a range of integers, floats or characters into its
//! generator.

use std::ops::{Bound, Range, RangeBounds, RangeInclusive};

use super::Generator;
use crate::draw::float::FloatSpec;
use crate::draw::int::Integer;
use crate::encode::{EncodeError, Encoder};
use crate::span::{SpanKind, TypeInfo};
use crate::test_case::TestCase;

/// Integers in an inclusive range; see [`ints`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ints<T> {
    lo: T,
    hi: T,
}

impl<T: Integer> Ints<T> {
    /// Shrinks toward `towards` instead of 0.
    pub fn towards(self, towards: T) -> IntsTowards<T> {
        IntsTowards { lo: self.lo, hi: self.hi, towards }
    }
}

/// Integers in a range shrinking toward a chosen value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntsTowards<T> {
    lo: T,
    hi: T,
    towards: T,
}

/// Integers in `range` (any range syntax), shrinking toward 0 or the bound
/// nearest it. Panics, at the caller, on an empty range.
///
/// Draws lean toward 0, ±1 and the bounds (see [`crate::draw::int`]);
/// [`uniform`] draws without that lean.
#[track_caller]
pub fn ints<T: Integer, R: RangeBounds<T>>(range: R) -> Ints<T> {
    match bounds(&range) {
        Some((lo, hi)) => Ints { lo, hi },
        None => panic!(
            "gens::ints({}): the range is empty, no integer is in it (a range with one value is written `a..=a`)",
            show_range(&range)
        ),
    }
}

/// The inclusive bounds of `range`, `None` when it is empty.
fn bounds<T: Integer, R: RangeBounds<T>>(range: &R) -> Option<(T, T)> {
    let lo = match range.start_bound() {
        Bound::Included(&v) => v,
        Bound::Excluded(&v) if v < T::MAX => T::from_key(v.to_key() + 1),
        Bound::Excluded(_) => return None,
        Bound::Unbounded => T::MIN,
    };
    let hi = match range.end_bound() {
        Bound::Included(&v) => v,
        Bound::Excluded(&v) if v > T::MIN => T::from_key(v.to_key() - 1),
        Bound::Excluded(_) => return None,
        Bound::Unbounded => T::MAX,
    };
    (lo <= hi).then_some((lo, hi))
}

/// A range as it was written: `5..5`, `3..=1`, `..10`.
pub(crate) fn show_range<T: std::fmt::Debug, R: RangeBounds<T>>(range: &R) -> String {
    let start = match range.start_bound() {
        Bound::Included(v) | Bound::Excluded(v) => format!("{v:?}"),
        Bound::Unbounded => String::new(),
    };
    match range.end_bound() {
        Bound::Included(v) => format!("{start}..={v:?}"),
        Bound::Excluded(v) => format!("{start}..{v:?}"),
        Bound::Unbounded => format!("{start}.."),
    }
}

/// Integers drawn uniformly from a range; see [`uniform`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Uniform<T> {
    lo: T,
    hi: T,
}

/// Integers in `range` drawn uniformly (as proptest and `rand` draw them),
/// without [`ints`]'s bias toward 0, ±1 and the bounds; they shrink toward
/// 0 (or the bound nearest it) like [`ints`]. For bugs that need values
/// spread over a wide range; `ints` finds boundary bugs sooner.
#[track_caller]
pub fn uniform<T: Integer, R: RangeBounds<T>>(range: R) -> Uniform<T> {
    match bounds(&range) {
        Some((lo, hi)) => Uniform { lo, hi },
        None => panic!("gens::uniform({}): the range is empty, no integer is in it", show_range(&range)),
    }
}

impl<T: Integer> Generator for Uniform<T> {
    type Value = T;
    #[inline]
    fn generate(&self, tc: &mut TestCase) -> T {
        if tc.is_plain() {
            return tc.draw_int_uniform(self.lo, self.hi);
        }
        tc.start_span(SpanKind::Value, int_info::<T>, "");
        let v = tc.draw_int_uniform(self.lo, self.hi);
        tc.stop_span(SpanKind::Value);
        v
    }
    fn encode(&self, value: &T, enc: &mut Encoder) -> Result<(), EncodeError> {
        enc.write_int(*value, self.lo, self.hi)
    }
}

fn int_info<T: 'static>() -> TypeInfo {
    TypeInfo::primitive::<T>()
}

impl<T: Integer> Generator for Ints<T> {
    type Value = T;
    #[inline]
    fn generate(&self, tc: &mut TestCase) -> T {
        tc.start_span(SpanKind::Value, int_info::<T>, "");
        let v = tc.draw_int(self.lo, self.hi);
        tc.stop_span(SpanKind::Value);
        v
    }
    #[inline]
    fn generate_into(&self, tc: &mut TestCase, n: usize, out: &mut impl Extend<T>) {
        if !crate::draw::int::sample_batch(tc, self.lo, self.hi, n, out) {
            crate::draw::one_by_one(tc, n, out, |tc| self.generate(tc));
        }
    }
    fn encode(&self, value: &T, enc: &mut Encoder) -> Result<(), EncodeError> {
        enc.write_int(*value, self.lo, self.hi)
    }
}

impl<T: Integer> Generator for IntsTowards<T> {
    type Value = T;
    fn generate(&self, tc: &mut TestCase) -> T {
        tc.start_span(SpanKind::Value, int_info::<T>, "");
        let v = tc.draw_int_towards(self.lo, self.hi, self.towards);
        tc.stop_span(SpanKind::Value);
        v
    }
    fn encode(&self, value: &T, enc: &mut Encoder) -> Result<(), EncodeError> {
        enc.write_int_towards(*value, self.lo, self.hi, self.towards)
    }
}

/// A range that stands for a generator of its values: integers, floats
/// (`f64`) or characters. Ranges are not generators themselves (a range is
/// an `Iterator`, and `(0..n).map(..)` must keep meaning what it means in
/// Rust); [`range`] turns one into its generator.
pub trait RangeGenerator {
    /// The generator of the range's values.
    type Generator: Generator;
    /// That generator.
    fn generator(self) -> Self::Generator;
}

/// The generator of the values of `range`: `gens::range(0..10u8)` is
/// `gens::ints(0..10u8)`, `gens::range(0.0..1.0)` is `gens::floats(0.0..1.0)`,
/// `gens::range('a'..='z')` draws those characters (what
/// `#[speccheck(range = a..b)]` uses).
pub fn range<R: RangeGenerator>(range: R) -> R::Generator {
    range.generator()
}

impl<T: Integer> RangeGenerator for Range<T> {
    type Generator = Ints<T>;
    fn generator(self) -> Ints<T> {
        ints(self)
    }
}

impl<T: Integer> RangeGenerator for RangeInclusive<T> {
    type Generator = Ints<T>;
    fn generator(self) -> Ints<T> {
        ints(self)
    }
}

/// Floats described by a [`FloatSpec`]; see [`floats`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Floats {
    spec: FloatSpec,
}

impl Floats {
    /// Allows NaN.
    pub fn with_nan(mut self) -> Self {
        self.spec.allow_nan = true;
        self
    }

    /// Allows infinities (where the range includes them).
    pub fn with_infinity(mut self) -> Self {
        self.spec.allow_infinity = true;
        self
    }
}

/// Finite `f64`s in `range` (use `..` for every finite float; add
/// [`with_nan`](Floats::with_nan) / [`with_infinity`](Floats::with_infinity)
/// for the rest).
pub fn floats<R: RangeBounds<f64>>(range: R) -> Floats {
    Floats { spec: float_spec(&range, false) }
}

/// Finite `f64`s that are exactly representable as `f32`, in `range`.
pub fn floats_f32<R: RangeBounds<f64>>(range: R) -> Floats {
    Floats { spec: float_spec(&range, true) }
}

#[track_caller]
fn float_spec<R: RangeBounds<f64>>(range: &R, single: bool) -> FloatSpec {
    let min = match range.start_bound() {
        Bound::Included(&v) | Bound::Excluded(&v) => v,
        Bound::Unbounded => f64::NEG_INFINITY,
    };
    let max = match range.end_bound() {
        Bound::Included(&v) => v,
        Bound::Excluded(&v) => {
            // The largest float below v.
            if v == f64::NEG_INFINITY { v } else { next_down(v) }
        }
        Bound::Unbounded => f64::INFINITY,
    };
    assert!(
        min <= max,
        "gens::floats({}): the range is empty, no float is in it (a range with one value is written `a..=a`)",
        show_range(range)
    );
    FloatSpec { min, max, allow_nan: false, allow_infinity: false, single }
}

fn next_down(v: f64) -> f64 {
    if v.is_nan() || v == f64::NEG_INFINITY {
        return v;
    }
    if v == 0.0 {
        return -5e-324;
    }
    let bits = v.to_bits();
    f64::from_bits(if v > 0.0 { bits - 1 } else { bits + 1 })
}

impl Generator for Floats {
    type Value = f64;
    fn generate(&self, tc: &mut TestCase) -> f64 {
        tc.start_span(SpanKind::Value, int_info::<f64>, "");
        let v = tc.draw_float(&self.spec);
        tc.stop_span(SpanKind::Value);
        v
    }
    fn encode(&self, value: &f64, enc: &mut Encoder) -> Result<(), EncodeError> {
        enc.write_float(*value, &self.spec)
    }
}

impl RangeGenerator for Range<f64> {
    type Generator = Floats;
    fn generator(self) -> Floats {
        floats(self)
    }
}

impl RangeGenerator for RangeInclusive<f64> {
    type Generator = Floats;
    fn generator(self) -> Floats {
        floats(self)
    }
}

impl RangeGenerator for Range<char> {
    type Generator = super::CharsIn;
    fn generator(self) -> super::CharsIn {
        super::chars_in(char_class(&self))
    }
}

impl RangeGenerator for RangeInclusive<char> {
    type Generator = super::CharsIn;
    fn generator(self) -> super::CharsIn {
        super::chars_in(char_class(&self))
    }
}

fn char_class<R: RangeBounds<char>>(r: &R) -> crate::draw::char::CharClass {
    let lo = match r.start_bound() {
        Bound::Included(&c) => c,
        Bound::Excluded(&c) => char::from_u32(c as u32 + 1).unwrap_or(c),
        Bound::Unbounded => '\0',
    };
    let hi = match r.end_bound() {
        Bound::Included(&c) => c,
        Bound::Excluded(&c) => char::from_u32((c as u32).saturating_sub(1)).unwrap_or(c),
        Bound::Unbounded => char::MAX,
    };
    crate::draw::char::CharClass::from_ranges([(lo, hi)])
}
