//! The workloads: per crate, ETNA's properties (restated over the crate's
//! public API, invariants unchanged), the generators ETNA's proptest
//! adapter uses mirrored for speccheck, and which bug each property
//! catches (ETNA's `etna.toml`).

use crate::harness::{Bug, EtnaProperty};

mod ahash;
mod aho_corasick;
mod bstr;
mod buf_list;
mod bytes;
mod chrono;
mod compact_str;
mod half;
mod hex;
mod lz4_flex;
mod memchr;
mod ropey;
mod tinyvec;

/// One crate under test.
pub struct Workload {
    pub name: &'static str,
    pub properties: Vec<EtnaProperty>,
    pub bugs: Vec<Bug>,
}

pub fn all() -> Vec<Workload> {
    vec![
        hex::workload(),
        memchr::workload(),
        tinyvec::workload(),
        lz4_flex::workload(),
        half::workload(),
        bstr::workload(),
        ropey::workload(),
        ahash::workload(),
        aho_corasick::workload(),
        buf_list::workload(),
        bytes::workload(),
        chrono::workload(),
        compact_str::workload(),
    ]
}
