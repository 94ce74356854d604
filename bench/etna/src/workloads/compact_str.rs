//! `compact_str` 0.9.0 (ETNA: `alpaylan/compact_str-etna`):
//! `try_reserve` past `usize::MAX` is an error, and `retain` whose
//! predicate panics leaves what `String::retain` leaves.

use std::cell::Cell;

use ::compact_str::CompactString;
use proptest::prelude as pt;
use proptest::strategy::Strategy as _;
use speccheck::gens;
use speccheck::gens::Generator as _;

use super::Workload;
use crate::harness::{self, Bug, EtnaProperty, Outcome, PropertyResult, RunSpec, Tool, hg};

pub fn workload() -> Workload {
    Workload {
        name: "compact_str",
        properties: vec![
            EtnaProperty { name: "TryReserveOverflowReturnsErr", run: try_reserve_overflow_returns_err },
            EtnaProperty { name: "RetainPanicPreservesUtf8", run: retain_panic_preserves_utf8 },
        ],
        bugs: vec![
            Bug { patch: "try_reserve_overflow_silent_ae5f2bc_1", properties: &["TryReserveOverflowReturnsErr"] },
            Bug { patch: "retain_leaves_stale_len_on_panic_042b64a_1", properties: &["RetainPanicPreservesUtf8"] },
        ],
    }
}

/// When `len + additional` overflows, `try_reserve(additional)` is `Err`.
fn property_try_reserve_overflow_returns_err(initial: String, additional: usize) -> PropertyResult {
    let len = initial.len();
    if len.checked_add(additional).is_some() {
        return PropertyResult::Discard;
    }
    let mut s = CompactString::from(&initial);
    match s.try_reserve(additional) {
        Ok(()) => PropertyResult::Fail(format!("try_reserve({additional}) on len={len} returned Ok despite overflow")),
        Err(_) => PropertyResult::Pass,
    }
}

fn retain_panicking(s: &mut impl FnMut(&mut dyn FnMut(char) -> bool), panic_after: usize) -> bool {
    let seen = Cell::new(0usize);
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        s(&mut |_| {
            let i = seen.get();
            seen.set(i + 1);
            if i == panic_after {
                panic!("boom");
            }
            true
        })
    }))
    .is_err()
}

/// When the predicate panics at char `panic_after`, `CompactString::retain`
/// propagates the panic and leaves the same string (and length) as
/// `String::retain` does.
fn property_retain_panic_preserves_utf8(input: String, panic_after: usize) -> PropertyResult {
    let total_chars = input.chars().count();
    if total_chars == 0 || panic_after >= total_chars {
        return PropertyResult::Discard;
    }
    let mut reference = input.clone();
    if !retain_panicking(&mut |p| reference.retain(p), panic_after) {
        return PropertyResult::Discard;
    }
    let mut compact = CompactString::from(&input);
    if !retain_panicking(&mut |p| compact.retain(p), panic_after) {
        return PropertyResult::Fail(format!(
            "CompactString::retain did not propagate predicate panic (panic_after={panic_after})"
        ));
    }
    if compact.as_str() != reference.as_str() {
        return PropertyResult::Fail(format!(
            "after panic: CompactString={compact:?} but String={reference:?} (panic_after={panic_after})"
        ));
    }
    if compact.len() != reference.len() {
        return PropertyResult::Fail(format!(
            "after panic: CompactString::len={} but String::len={} (panic_after={panic_after})",
            compact.len(),
            reference.len()
        ));
    }
    PropertyResult::Pass
}

/// ETNA's `[ -~]`: printable ASCII.
const PRINTABLE: [char; 95] = {
    let mut cs = [' '; 95];
    let mut i = 0;
    while i < 95 {
        cs[i] = (b' ' + i as u8) as char;
        i += 1;
    }
    cs
};

fn collect_chars(cs: Vec<char>) -> String {
    cs.into_iter().collect()
}

/// ETNA's `near_max_usize_from_u8`.
fn near_max(k: u8) -> usize {
    usize::MAX - k as usize
}

/// ETNA's `retain_strategy` map: `panic_after = k % chars`.
fn retain_input(input: String, k: usize) -> (String, usize) {
    let len = input.chars().count().max(1);
    (input, k % len)
}

fn try_reserve_overflow_returns_err(tool: Tool, spec: RunSpec) -> Outcome {
    let f = |(s, a): (String, usize)| property_try_reserve_overflow_returns_err(s, a);
    match tool {
        Tool::Speccheck => harness::speccheck(
            spec,
            (gens::vec(gens::select(PRINTABLE.to_vec()), 1..=32).map(collect_chars), gens::any::<u8>().map(near_max)),
            f,
        ),
        Tool::Hegeltest => harness::hegeltest(
            spec,
            |tc| (collect_chars(hg::vec_of(tc, &PRINTABLE, 1, 32)), near_max(hg::any::<u8>(tc))),
            f,
        ),
        Tool::Proptest | Tool::Quickcheck => harness::peer(
            tool,
            spec,
            (pt::prop::string::string_regex("[ -~]{1,32}").expect("a regex"), (0u8..=255).prop_map(near_max)),
            f,
        ),
    }
}

fn retain_panic_preserves_utf8(tool: Tool, spec: RunSpec) -> Outcome {
    let f = |(s, k): (String, usize)| property_retain_panic_preserves_utf8(s, k);
    match tool {
        Tool::Speccheck => harness::speccheck(
            spec,
            (gens::vec(gens::select(PRINTABLE.to_vec()), 1..=16).map(collect_chars), gens::ints(0usize..16))
                .map(|(s, k)| retain_input(s, k)),
            f,
        ),
        Tool::Hegeltest => harness::hegeltest(
            spec,
            |tc| retain_input(collect_chars(hg::vec_of(tc, &PRINTABLE, 1, 16)), hg::int(tc, 0usize, 15)),
            f,
        ),
        Tool::Proptest | Tool::Quickcheck => harness::peer(
            tool,
            spec,
            (pt::prop::string::string_regex("[ -~]{1,16}").expect("a regex"), 0usize..16)
                .prop_map(|(s, k)| retain_input(s, k)),
            f,
        ),
    }
}
