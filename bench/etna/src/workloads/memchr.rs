//! `memchr` 2.8.3 (ETNA: `alpaylan/memchr-etna`): the forward and reverse
//! single-byte iterators report exactly the positions a naive scan finds.

use ::memchr::{memchr, memchr_iter, memrchr, memrchr_iter};
use proptest::prelude as pt;
use speccheck::gens;

use super::Workload;
use crate::harness::{self, Bug, EtnaProperty, Outcome, PropertyResult, RunSpec, Tool, hg};

pub fn workload() -> Workload {
    Workload {
        name: "memchr",
        properties: vec![
            EtnaProperty { name: "MemchrIterMatchesNaive", run: memchr_iter_matches_naive },
            EtnaProperty { name: "MemrchrIterMatchesNaive", run: memrchr_iter_matches_naive },
        ],
        bugs: vec![
            Bug { patch: "memchr_iter_offbyone_8313aeb_1", properties: &["MemchrIterMatchesNaive"] },
            Bug { patch: "memrchr_iter_forward_1b37466_1", properties: &["MemrchrIterMatchesNaive"] },
        ],
    }
}

/// Needles, and haystack bytes drawn so that haystacks often hold them.
const NEEDLE_POOL: &[u8] = &[b'a', b'b', b'c', b'z', 0x00, 0x01, 0x7f, 0xff];
const HAYSTACK_POOL: &[u8] = &[b'a', b'a', b'a', b'b', b'c', b'z', 0x00, 0x01, 0x7f, 0xff, b'_', b'.', b' '];

/// Every index of `needle` in `haystack`, in ascending order.
fn naive_positions(needle: u8, haystack: &[u8]) -> Vec<usize> {
    haystack.iter().enumerate().filter(|&(_, &b)| b == needle).map(|(i, _)| i).collect()
}

/// `memchr_iter` yields the naive positions, in order.
fn property_memchr_iter_matches_naive(needle: u8, haystack: Vec<u8>) -> PropertyResult {
    let got: Vec<usize> = memchr_iter(needle, &haystack).collect();
    let want = naive_positions(needle, &haystack);
    if got == want {
        PropertyResult::Pass
    } else {
        PropertyResult::Fail(format!("memchr_iter({needle}) gave {got:?}, want {want:?} in {haystack:?}"))
    }
}

/// `memrchr_iter` yields the naive positions back to front, and `memchr` /
/// `memrchr` return its last / first item.
fn property_memrchr_iter_matches_naive(needle: u8, haystack: Vec<u8>) -> PropertyResult {
    let got: Vec<usize> = memrchr_iter(needle, &haystack).collect();
    let mut want = naive_positions(needle, &haystack);
    want.reverse();
    if got != want {
        return PropertyResult::Fail(format!("memrchr_iter({needle}) gave {got:?}, want {want:?} in {haystack:?}"));
    }
    let (last, first) = (want.first().copied(), want.last().copied());
    if memchr(needle, &haystack) != first {
        return PropertyResult::Fail(format!("memchr({needle}) is not {first:?} in {haystack:?}"));
    }
    if memrchr(needle, &haystack) != last {
        return PropertyResult::Fail(format!("memrchr({needle}) is not {last:?} in {haystack:?}"));
    }
    PropertyResult::Pass
}

fn memchr_iter_matches_naive(tool: Tool, spec: RunSpec) -> Outcome {
    let f = |(needle, haystack): (u8, Vec<u8>)| property_memchr_iter_matches_naive(needle, haystack);
    match tool {
        Tool::Speccheck => harness::speccheck(
            spec,
            (gens::select(NEEDLE_POOL.to_vec()), gens::vec(gens::select(HAYSTACK_POOL.to_vec()), 0..=128)),
            f,
        ),
        Tool::Hegeltest => {
            harness::hegeltest(spec, |tc| (hg::pick(tc, NEEDLE_POOL), hg::vec_of(tc, HAYSTACK_POOL, 0, 128)), f)
        }
        Tool::Proptest | Tool::Quickcheck => harness::peer(
            tool,
            spec,
            (
                pt::prop::sample::select(NEEDLE_POOL.to_vec()),
                pt::prop::collection::vec(pt::prop::sample::select(HAYSTACK_POOL.to_vec()), 0..=128),
            ),
            f,
        ),
    }
}

fn memrchr_iter_matches_naive(tool: Tool, spec: RunSpec) -> Outcome {
    let f = |(needle, haystack): (u8, Vec<u8>)| property_memrchr_iter_matches_naive(needle, haystack);
    match tool {
        Tool::Speccheck => harness::speccheck(
            spec,
            (gens::select(NEEDLE_POOL.to_vec()), gens::vec(gens::select(HAYSTACK_POOL.to_vec()), 0..=128)),
            f,
        ),
        Tool::Hegeltest => {
            harness::hegeltest(spec, |tc| (hg::pick(tc, NEEDLE_POOL), hg::vec_of(tc, HAYSTACK_POOL, 0, 128)), f)
        }
        Tool::Proptest | Tool::Quickcheck => harness::peer(
            tool,
            spec,
            (
                pt::prop::sample::select(NEEDLE_POOL.to_vec()),
                pt::prop::collection::vec(pt::prop::sample::select(HAYSTACK_POOL.to_vec()), 0..=128),
            ),
            f,
        ),
    }
}
