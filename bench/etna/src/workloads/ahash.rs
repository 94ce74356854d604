//! `ahash` 0.8.10 (ETNA: `alpaylan/ahash-etna`): all-zero inputs of
//! different lengths hash differently (the length is mixed into the
//! state). Built without `+aes`, so the fallback hasher is the one run;
//! ETNA's patch removes the length mix from both.

use std::hash::{BuildHasher, Hasher};

use ::ahash::RandomState;
use speccheck::gens;

use super::Workload;
use crate::harness::{self, Bug, EtnaProperty, Outcome, PropertyResult, RunSpec, Tool, hg};

pub fn workload() -> Workload {
    Workload {
        name: "ahash",
        properties: vec![EtnaProperty { name: "NullPaddingDistinct", run: null_padding_distinct }],
        bugs: vec![Bug { patch: "null_padding_collisions_5c99070_1", properties: &["NullPaddingDistinct"] }],
    }
}

/// ETNA caps the lengths at 64.
const MAX_LEN: u8 = 64;

fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut hasher = RandomState::with_seeds(0, 0, 0, 0).build_hasher();
    hasher.write(bytes);
    hasher.finish()
}

/// For distinct `n` and `m`, `[0u8; n]` and `[0u8; m]` hash differently
/// under `RandomState::with_seeds(0, 0, 0, 0)`.
fn property_null_padding_distinct(n: u8, m: u8) -> PropertyResult {
    if n == m {
        return PropertyResult::Discard;
    }
    let (h1, h2) = (hash_bytes(&vec![0u8; n as usize]), hash_bytes(&vec![0u8; m as usize]));
    if h1 == h2 {
        PropertyResult::Fail(format!("hash([0u8; {n}]) == hash([0u8; {m}]) == {h1:#x}"))
    } else {
        PropertyResult::Pass
    }
}

fn null_padding_distinct(tool: Tool, spec: RunSpec) -> Outcome {
    let f = |(n, m): (u8, u8)| property_null_padding_distinct(n, m);
    match tool {
        Tool::Speccheck => harness::speccheck(spec, (gens::ints(0u8..=MAX_LEN), gens::ints(0u8..=MAX_LEN)), f),
        Tool::Hegeltest => harness::hegeltest(spec, |tc| (hg::int(tc, 0u8, MAX_LEN), hg::int(tc, 0u8, MAX_LEN)), f),
        Tool::Proptest | Tool::Quickcheck => harness::peer(tool, spec, (0u8..=MAX_LEN, 0u8..=MAX_LEN), f),
    }
}
