//! `half` 2.7.1 (ETNA: `alpaylan/half-etna`): `f16` min/max follow the IEEE
//! NaN rules, comparisons agree with `f32`'s, and the software conversion
//! of subnormals to `f32` is exact.

use ::half::f16;
use proptest::prelude as pt;
use proptest::strategy::Strategy;
use speccheck::gens::{self, Generator};

use super::Workload;
use crate::harness::{self, Bug, EtnaProperty, Outcome, PropertyResult, RunSpec, Tool, hg};

pub fn workload() -> Workload {
    Workload {
        name: "half",
        properties: vec![
            EtnaProperty { name: "F16MaxMinNan", run: f16_max_min_nan },
            EtnaProperty { name: "F16OrdSignMagnitude", run: f16_ord_sign_magnitude },
            EtnaProperty { name: "F16SubnormalRoundtrip", run: f16_subnormal_roundtrip },
        ],
        bugs: vec![
            Bug { patch: "max_min_nan_handling_a61f31b_1", properties: &["F16MaxMinNan"] },
            Bug { patch: "partial_cmp_sign_magnitude_22b5bd6_1", properties: &["F16OrdSignMagnitude"] },
            Bug { patch: "subnormal_conversion_18e6467_1", properties: &["F16SubnormalRoundtrip"] },
        ],
    }
}

/// `min` (if `is_min`) or `max` of two `f16`s: NaN only when both are NaN,
/// the other operand when one is, else the smaller / larger by the `f32`
/// values (either of two equal values will do).
fn property_f16_max_min_nan(is_min: bool, a_bits: u16, b_bits: u16) -> PropertyResult {
    let (a, b) = (f16::from_bits(a_bits), f16::from_bits(b_bits));
    let r = if is_min { a.min(b) } else { a.max(b) };
    let op = if is_min { "min" } else { "max" };
    let (r_bits, r_nan) = (r.to_bits(), r.is_nan());
    match (a.is_nan(), b.is_nan()) {
        (true, true) if r_nan => PropertyResult::Pass,
        (true, true) => {
            PropertyResult::Fail(format!("{op}(NaN {a_bits:#06x}, NaN {b_bits:#06x}) = {r_bits:#06x}, not NaN"))
        }
        (true, false) if r_bits == b_bits => PropertyResult::Pass,
        (true, false) => PropertyResult::Fail(format!("{op}(NaN {a_bits:#06x}, {b_bits:#06x}) = {r_bits:#06x}")),
        (false, true) if r_bits == a_bits => PropertyResult::Pass,
        (false, true) => PropertyResult::Fail(format!("{op}({a_bits:#06x}, NaN {b_bits:#06x}) = {r_bits:#06x}")),
        (false, false) if r_nan => PropertyResult::Fail(format!("{op}({a_bits:#06x}, {b_bits:#06x}) is NaN")),
        (false, false) => {
            let (af, bf) = (a.to_f32(), b.to_f32());
            let want = if is_min {
                if af <= bf { a } else { b }
            } else if af >= bf {
                a
            } else {
                b
            };
            if r_bits == want.to_bits() || r.to_f32() == want.to_f32() {
                PropertyResult::Pass
            } else {
                PropertyResult::Fail(format!(
                    "{op}({a_bits:#06x}, {b_bits:#06x}) = {r_bits:#06x} ({}), want {:#06x} ({})",
                    r.to_f32(),
                    want.to_bits(),
                    want.to_f32()
                ))
            }
        }
    }
}

/// For non-NaN `f16`s, `partial_cmp`, `==` and `<` give what they give on
/// the `f32` values.
fn property_f16_ord_sign_magnitude(a_bits: u16, b_bits: u16) -> PropertyResult {
    let (a, b) = (f16::from_bits(a_bits), f16::from_bits(b_bits));
    if a.is_nan() || b.is_nan() {
        return PropertyResult::Discard;
    }
    let (af, bf) = (a.to_f32(), b.to_f32());
    let (got, want) = (a.partial_cmp(&b), af.partial_cmp(&bf));
    if got != want {
        return PropertyResult::Fail(format!("partial_cmp({af}, {bf}) = {got:?}, f32 gives {want:?}"));
    }
    if (a == b) != (af == bf) {
        return PropertyResult::Fail(format!("({af} == {bf}) = {}, f32 gives {}", a == b, af == bf));
    }
    if (a < b) != (af < bf) {
        return PropertyResult::Fail(format!("({af} < {bf}) = {}, f32 gives {}", a < b, af < bf));
    }
    PropertyResult::Pass
}

/// A subnormal `f16` (exponent 0, mantissa m ≠ 0) converts in software
/// (`to_f32_const`) to exactly ±m·2⁻²⁴, and that converts back to the same
/// bits (`from_f32_const`); other bit patterns are out of scope.
fn property_f16_subnormal_roundtrip(bits: u16) -> PropertyResult {
    let (exp, mant) = ((bits >> 10) & 0x1f, bits & 0x3ff);
    if exp != 0 || mant == 0 {
        return PropertyResult::Discard;
    }
    let sign = if bits & 0x8000 != 0 { -1.0_f32 } else { 1.0_f32 };
    let want = sign * f32::from(mant) * 2.0_f32.powi(-24);
    let got = f16::from_bits(bits).to_f32_const();
    if got != want {
        return PropertyResult::Fail(format!("{bits:#06x}.to_f32_const() = {got:e}, want {want:e}"));
    }
    let back = f16::from_f32_const(got).to_bits();
    if back != bits {
        return PropertyResult::Fail(format!("{bits:#06x} -> {got:e} -> {back:#06x}"));
    }
    PropertyResult::Pass
}

fn f16_max_min_nan(tool: Tool, spec: RunSpec) -> Outcome {
    let f = |(is_min, a, b): (bool, u16, u16)| property_f16_max_min_nan(is_min, a, b);
    match tool {
        Tool::Speccheck => harness::speccheck(spec, (gens::any::<bool>(), gens::any::<u16>(), gens::any::<u16>()), f),
        Tool::Hegeltest => harness::hegeltest(spec, |tc| (hg::bool(tc), hg::any::<u16>(tc), hg::any::<u16>(tc)), f),
        Tool::Proptest | Tool::Quickcheck => {
            harness::peer(tool, spec, (pt::any::<bool>(), pt::any::<u16>(), pt::any::<u16>()), f)
        }
    }
}

fn f16_ord_sign_magnitude(tool: Tool, spec: RunSpec) -> Outcome {
    let f = |(a, b): (u16, u16)| property_f16_ord_sign_magnitude(a, b);
    match tool {
        Tool::Speccheck => harness::speccheck(spec, (gens::any::<u16>(), gens::any::<u16>()), f),
        Tool::Hegeltest => harness::hegeltest(spec, |tc| (hg::any::<u16>(tc), hg::any::<u16>(tc)), f),
        Tool::Proptest | Tool::Quickcheck => harness::peer(tool, spec, (pt::any::<u16>(), pt::any::<u16>()), f),
    }
}

fn f16_subnormal_roundtrip(tool: Tool, spec: RunSpec) -> Outcome {
    match tool {
        Tool::Speccheck => harness::speccheck(
            spec,
            gens::one_of(vec![
                gens::ints(1u16..=0x03FF).map(|m| m).boxed(),
                gens::ints(1u16..=0x03FF).map(|m| 0x8000 | m).boxed(),
                gens::any::<u16>().boxed(),
            ]),
            property_f16_subnormal_roundtrip,
        ),
        Tool::Hegeltest => harness::hegeltest(
            spec,
            |tc| match hg::int(tc, 0u8, 2) {
                0 => hg::int(tc, 1u16, 0x03FF),
                1 => 0x8000 | hg::int(tc, 1u16, 0x03FF),
                _ => hg::any::<u16>(tc),
            },
            property_f16_subnormal_roundtrip,
        ),
        Tool::Proptest | Tool::Quickcheck => harness::peer(
            tool,
            spec,
            pt::prop_oneof![
                (1u16..=0x03FF).prop_map(|m| m),
                (1u16..=0x03FF).prop_map(|m| 0x8000 | m),
                pt::any::<u16>(),
            ],
            property_f16_subnormal_roundtrip,
        ),
    }
}
