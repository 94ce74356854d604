//! `bstr` 1.12.1, `std` only (ETNA: `alpaylan/bstr-etna`): `splitn_str`
//! and `rsplitn_str` stop at the split count, `&BStr` and `Cow<BStr>`
//! compare by bytes, and `Debug` of a `BStr` keeps a valid U+FFFD and
//! escapes control and invalid bytes as lowercase `\xNN`.

use std::borrow::Cow;

use ::bstr::{BStr, ByteSlice};
use proptest::prelude as pt;
use speccheck::gens;

use super::Workload;
use crate::harness::{self, Bug, EtnaProperty, Outcome, PropertyResult, RunSpec, Tool, hg};

pub fn workload() -> Workload {
    Workload {
        name: "bstr",
        properties: vec![
            EtnaProperty { name: "SplitnBounded", run: splitn_bounded },
            EtnaProperty { name: "CowPartialeqBstr", run: cow_partialeq_bstr },
            EtnaProperty { name: "DebugValidFffdPreserved", run: debug_valid_fffd_preserved },
            EtnaProperty { name: "DebugAsciiControlHex", run: debug_ascii_control_hex },
            EtnaProperty { name: "DebugHexLowercase", run: debug_hex_lowercase },
        ],
        bugs: vec![
            Bug { patch: "splitn_trailing_empty_aed424a_1", properties: &["SplitnBounded"] },
            Bug { patch: "cow_partialeq_self_compare_b2111b6_1", properties: &["CowPartialeqBstr"] },
            Bug { patch: "debug_fffd_not_escaped_eafb495_1", properties: &["DebugValidFffdPreserved"] },
            Bug { patch: "debug_non_ascii_control_unicode_escape_8e2041e_1", properties: &["DebugAsciiControlHex"] },
            Bug { patch: "debug_control_chars_x1a_732fc99_1", properties: &["DebugAsciiControlHex"] },
            Bug { patch: "debug_hex_uppercase_af99a6e_1", properties: &["DebugHexLowercase"] },
        ],
    }
}

/// For a non-empty needle, `splitn_str(n, ..)` and `rsplitn_str(n, ..)`
/// must each yield `min(n, split_str(..).count())` pieces.
fn property_splitn_bounded(haystack: Vec<u8>, needle: Vec<u8>, n: u32) -> PropertyResult {
    if needle.is_empty() {
        return PropertyResult::Discard;
    }
    let n = n as usize;
    let all = haystack.split_str(&needle).count();
    let want = n.min(all);
    let fail = |name: &str, got: usize| {
        PropertyResult::Fail(format!(
            "{name}({n}, {:?}) on {:?} gave {got} pieces, expected {want} (split_str gives {all})",
            needle.as_bstr(),
            haystack.as_bstr()
        ))
    };
    let forward = haystack.splitn_str(n, &needle).count();
    if forward != want {
        return fail("splitn_str", forward);
    }
    let backward = haystack.rsplitn_str(n, &needle).count();
    if backward != want {
        return fail("rsplitn_str", backward);
    }
    PropertyResult::Pass
}

/// `&BStr == Cow<BStr>` and `Cow<BStr> == &BStr` must both say whether the
/// bytes are equal.
fn property_cow_partialeq_bstr(a: Vec<u8>, b: Vec<u8>) -> PropertyResult {
    let (sa, sb) = (a.as_bstr(), b.as_bstr());
    let (ca, cb): (Cow<'_, BStr>, Cow<'_, BStr>) = (Cow::Borrowed(sa), Cow::Borrowed(sb));
    let equal = a == b;
    let forward = sa == cb;
    if forward != equal {
        return PropertyResult::Fail(format!("{sa:?} == Cow({sb:?}) is {forward}, bytes equal is {equal}"));
    }
    let backward = ca == sb;
    if backward != equal {
        return PropertyResult::Fail(format!("Cow({sa:?}) == {sb:?} is {backward}, bytes equal is {equal}"));
    }
    PropertyResult::Pass
}

/// `Debug` of `prefix ++ EF BF BD ++ suffix` must contain the bytes
/// EF BF BD (a valid U+FFFD is shown as itself).
fn property_debug_valid_fffd_preserved(prefix: Vec<u8>, suffix: Vec<u8>) -> PropertyResult {
    const FFFD: &[u8] = b"\xEF\xBF\xBD";
    let mut input = prefix;
    input.extend_from_slice(FFFD);
    input.extend_from_slice(&suffix);
    let shown = format!("{:?}", input.as_bstr());
    if shown.as_bytes().windows(FFFD.len()).any(|w| w == FFFD) {
        PropertyResult::Pass
    } else {
        PropertyResult::Fail(format!("Debug of {:?} lost the raw U+FFFD: {shown:?}", input.as_bstr()))
    }
}

/// `Debug` of a single ASCII control byte other than NUL, TAB, LF and CR
/// must be `"\xNN"` in lowercase hex.
fn property_debug_ascii_control_hex(byte: u8) -> PropertyResult {
    if matches!(byte, b'\0' | b'\t' | b'\n' | b'\r') || !(byte < 0x20 || byte == 0x7f) {
        return PropertyResult::Discard;
    }
    let shown = format!("{:?}", [byte].as_bstr());
    let want = format!("\"\\x{byte:02x}\"");
    if shown == want {
        PropertyResult::Pass
    } else {
        PropertyResult::Fail(format!("Debug of [{byte:#04x}] is {shown:?}, expected {want:?}"))
    }
}

/// `Debug` of a single byte >= 0x80 (invalid UTF-8 alone) must be
/// `"\xNN"` in lowercase hex.
fn property_debug_hex_lowercase(byte: u8) -> PropertyResult {
    if byte < 0x80 {
        return PropertyResult::Discard;
    }
    let shown = format!("{:?}", [byte].as_bstr());
    let want = format!("\"\\x{byte:02x}\"");
    if shown == want {
        PropertyResult::Pass
    } else {
        PropertyResult::Fail(format!("Debug of [{byte:#04x}] is {shown:?}, expected {want:?}"))
    }
}

fn splitn_bounded(tool: Tool, spec: RunSpec) -> Outcome {
    let f = |(haystack, needle, n): (Vec<u8>, Vec<u8>, u32)| property_splitn_bounded(haystack, needle, n);
    match tool {
        Tool::Speccheck => harness::speccheck(
            spec,
            (gens::vec(gens::any::<u8>(), 0..32), gens::vec(gens::any::<u8>(), 1..4), gens::ints(0u32..8)),
            f,
        ),
        Tool::Hegeltest => {
            harness::hegeltest(spec, |tc| (hg::bytes(tc, 0, 31), hg::bytes(tc, 1, 3), hg::int(tc, 0u32, 7)), f)
        }
        Tool::Proptest | Tool::Quickcheck => harness::peer(
            tool,
            spec,
            (
                pt::prop::collection::vec(pt::any::<u8>(), 0..32),
                pt::prop::collection::vec(pt::any::<u8>(), 1..4),
                0u32..8,
            ),
            f,
        ),
    }
}

/// Two byte strings of ETNA's `bytes_strategy`, for the two-argument
/// properties.
fn two_bytes_run(tool: Tool, spec: RunSpec, p: fn(Vec<u8>, Vec<u8>) -> PropertyResult) -> Outcome {
    let f = move |(a, b): (Vec<u8>, Vec<u8>)| p(a, b);
    match tool {
        Tool::Speccheck => {
            harness::speccheck(spec, (gens::vec(gens::any::<u8>(), 0..32), gens::vec(gens::any::<u8>(), 0..32)), f)
        }
        Tool::Hegeltest => harness::hegeltest(spec, |tc| (hg::bytes(tc, 0, 31), hg::bytes(tc, 0, 31)), f),
        Tool::Proptest | Tool::Quickcheck => harness::peer(
            tool,
            spec,
            (pt::prop::collection::vec(pt::any::<u8>(), 0..32), pt::prop::collection::vec(pt::any::<u8>(), 0..32)),
            f,
        ),
    }
}

fn cow_partialeq_bstr(tool: Tool, spec: RunSpec) -> Outcome {
    two_bytes_run(tool, spec, property_cow_partialeq_bstr)
}

fn debug_valid_fffd_preserved(tool: Tool, spec: RunSpec) -> Outcome {
    two_bytes_run(tool, spec, property_debug_valid_fffd_preserved)
}

fn debug_ascii_control_hex(tool: Tool, spec: RunSpec) -> Outcome {
    match tool {
        Tool::Speccheck => harness::speccheck(spec, gens::any::<u8>(), property_debug_ascii_control_hex),
        Tool::Hegeltest => harness::hegeltest(spec, hg::any::<u8>, property_debug_ascii_control_hex),
        Tool::Proptest | Tool::Quickcheck => {
            harness::peer(tool, spec, pt::any::<u8>(), property_debug_ascii_control_hex)
        }
    }
}

fn debug_hex_lowercase(tool: Tool, spec: RunSpec) -> Outcome {
    match tool {
        Tool::Speccheck => harness::speccheck(spec, gens::any::<u8>(), property_debug_hex_lowercase),
        Tool::Hegeltest => harness::hegeltest(spec, hg::any::<u8>, property_debug_hex_lowercase),
        Tool::Proptest | Tool::Quickcheck => harness::peer(tool, spec, pt::any::<u8>(), property_debug_hex_lowercase),
    }
}
