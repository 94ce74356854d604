//! `bytes` 1.11.1 (ETNA: `alpaylan/bytes-etna`): `Buf::get_int`
//! sign-extends a partial integer, `Chain::remaining` saturates,
//! `[u8]` compares with `Bytes` in the right order, and
//! `Bytes::slice_ref(&[])` gives an empty `Bytes`. Built with overflow
//! checks, as ETNA builds it.
//!
//! ETNA's fifth bug (`sign_extend_zero_nbytes_acd1e0f_1`, `get_int(0)`) is
//! not here: its fix came after 1.11.1, so the release has the bug.

use std::cmp::Ordering;

use ::bytes::{Buf, Bytes};
use proptest::prelude as pt;
use speccheck::gens;

use super::Workload;
use crate::harness::{self, Bug, EtnaProperty, Outcome, PropertyResult, RunSpec, Tool, hg};

pub fn workload() -> Workload {
    Workload {
        name: "bytes",
        properties: vec![
            EtnaProperty { name: "GetIntSignExtension", run: get_int_sign_extension },
            EtnaProperty { name: "ChainRemainingSaturating", run: chain_remaining_saturating },
            EtnaProperty { name: "PartialOrdBytesReversed", run: partialord_bytes_reversed },
            EtnaProperty { name: "SliceRefEmpty", run: slice_ref_empty },
        ],
        bugs: vec![
            Bug { patch: "get_int_sign_extension_79fb853_1", properties: &["GetIntSignExtension"] },
            Bug { patch: "chain_remaining_saturating_2428c15_1", properties: &["ChainRemainingSaturating"] },
            Bug { patch: "partialord_bytes_reversed_939a5ed_1", properties: &["PartialOrdBytesReversed"] },
            Bug { patch: "slice_ref_empty_f330ef6_1", properties: &["SliceRefEmpty"] },
        ],
    }
}

fn caught<T>(f: impl FnOnce() -> T) -> Option<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).ok()
}

/// `get_int(n)` on `[0xff; n]`, `n = select % 8 + 1`, is `-1`.
fn property_get_int_sign_extension(n_byte_select: u8) -> PropertyResult {
    let n = n_byte_select as usize % 8 + 1;
    let buf = vec![0xffu8; n];
    let mut s: &[u8] = &buf;
    match caught(|| s.get_int(n)) {
        None => PropertyResult::Fail(format!("get_int({n}) panicked for buffer of {n} 0xff bytes")),
        Some(-1) => PropertyResult::Pass,
        Some(got) => PropertyResult::Fail(format!("get_int({n}) on [0xff; {n}] returned {got}, expected -1")),
    }
}

/// A `Buf` that says it has `remaining` bytes and has none.
struct FakeBuf {
    remaining: usize,
}

impl Buf for FakeBuf {
    fn remaining(&self) -> usize {
        self.remaining
    }
    fn chunk(&self) -> &[u8] {
        &[]
    }
    fn advance(&mut self, cnt: usize) {
        self.remaining = self.remaining.saturating_sub(cnt);
    }
}

/// `a.chain(b).remaining()` is at least `max(a.remaining(), b.remaining())`.
fn property_chain_remaining_saturating(a_rem: usize, b_rem: usize) -> PropertyResult {
    let chain = FakeBuf { remaining: a_rem }.chain(FakeBuf { remaining: b_rem });
    let Some(got) = caught(|| chain.remaining()) else {
        return PropertyResult::Fail(format!("chain.remaining() panicked with a_rem={a_rem}, b_rem={b_rem}"));
    };
    let lower = a_rem.max(b_rem);
    if got >= lower {
        PropertyResult::Pass
    } else {
        PropertyResult::Fail(format!("chain.remaining() = {got}, below max({a_rem}, {b_rem}) = {lower}"))
    }
}

/// `<[u8] as PartialOrd<Bytes>>::partial_cmp(lhs, rhs)` equals
/// `lhs.partial_cmp(rhs)` on the slices.
fn property_partialord_bytes_reversed(lhs: Vec<u8>, rhs: Vec<u8>) -> PropertyResult {
    let bytes_rhs = Bytes::copy_from_slice(&rhs);
    let got: Option<Ordering> = <[u8] as PartialOrd<Bytes>>::partial_cmp(&lhs[..], &bytes_rhs);
    let expected = lhs[..].partial_cmp(&rhs[..]);
    if got == expected {
        PropertyResult::Pass
    } else {
        PropertyResult::Fail(format!(
            "[u8]::partial_cmp(&Bytes) = {got:?}, expected {expected:?} (lhs={lhs:?}, rhs={rhs:?})"
        ))
    }
}

/// `Bytes::slice_ref(&[])` gives an empty `Bytes` and does not panic.
fn property_slice_ref_empty(payload: Vec<u8>) -> PropertyResult {
    let haystack = Bytes::from(payload.clone());
    let empty: &[u8] = &[];
    match caught(|| haystack.slice_ref(empty)) {
        Some(b) if b.is_empty() => PropertyResult::Pass,
        Some(b) => PropertyResult::Fail(format!(
            "slice_ref(&[]) on Bytes of len {} returned non-empty Bytes of len {}",
            payload.len(),
            b.len()
        )),
        None => PropertyResult::Fail(format!("slice_ref(&[]) panicked on Bytes of len {}", payload.len())),
    }
}

fn get_int_sign_extension(tool: Tool, spec: RunSpec) -> Outcome {
    match tool {
        Tool::Speccheck => harness::speccheck(spec, gens::any::<u8>(), property_get_int_sign_extension),
        Tool::Hegeltest => harness::hegeltest(spec, hg::any::<u8>, property_get_int_sign_extension),
        Tool::Proptest | Tool::Quickcheck => {
            harness::peer(tool, spec, pt::any::<u8>(), property_get_int_sign_extension)
        }
    }
}

fn chain_remaining_saturating(tool: Tool, spec: RunSpec) -> Outcome {
    let f = |(a, b): (usize, usize)| property_chain_remaining_saturating(a, b);
    match tool {
        Tool::Speccheck => harness::speccheck(spec, (gens::any::<usize>(), gens::any::<usize>()), f),
        Tool::Hegeltest => harness::hegeltest(spec, |tc| (hg::any::<usize>(tc), hg::any::<usize>(tc)), f),
        Tool::Proptest | Tool::Quickcheck => harness::peer(tool, spec, (pt::any::<usize>(), pt::any::<usize>()), f),
    }
}

fn partialord_bytes_reversed(tool: Tool, spec: RunSpec) -> Outcome {
    let f = |(l, r): (Vec<u8>, Vec<u8>)| property_partialord_bytes_reversed(l, r);
    match tool {
        Tool::Speccheck => {
            harness::speccheck(spec, (gens::vec(gens::any::<u8>(), 1..16), gens::vec(gens::any::<u8>(), 1..16)), f)
        }
        Tool::Hegeltest => harness::hegeltest(spec, |tc| (hg::bytes(tc, 1, 15), hg::bytes(tc, 1, 15)), f),
        Tool::Proptest | Tool::Quickcheck => harness::peer(
            tool,
            spec,
            (pt::prop::collection::vec(pt::any::<u8>(), 1..16), pt::prop::collection::vec(pt::any::<u8>(), 1..16)),
            f,
        ),
    }
}

fn slice_ref_empty(tool: Tool, spec: RunSpec) -> Outcome {
    match tool {
        Tool::Speccheck => harness::speccheck(spec, gens::vec(gens::any::<u8>(), 1..32), property_slice_ref_empty),
        Tool::Hegeltest => harness::hegeltest(spec, |tc| hg::bytes(tc, 1, 31), property_slice_ref_empty),
        Tool::Proptest | Tool::Quickcheck => {
            harness::peer(tool, spec, pt::prop::collection::vec(pt::any::<u8>(), 1..32), property_slice_ref_empty)
        }
    }
}
