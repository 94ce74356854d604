//! `buf-list` 1.1.2 (ETNA: `alpaylan/buf-list-etna`): a `Cursor` over a
//! `BufList` whose `read_exact` runs out moves to the end, as
//! `std::io::Cursor<&[u8]>` does since Rust 1.80.

use std::io::{Cursor as StdCursor, Read};

use ::buf_list::{BufList, Cursor};
use ::bytes::Bytes;
use proptest::prelude as pt;
use speccheck::gens;

use super::Workload;
use crate::harness::{self, Bug, EtnaProperty, Outcome, PropertyResult, RunSpec, Tool, hg};

pub fn workload() -> Workload {
    Workload {
        name: "buf-list",
        properties: vec![EtnaProperty { name: "ReadExactPosOnEof", run: read_exact_pos_on_eof }],
        bugs: vec![Bug { patch: "read_exact_pos_on_eof_b58396d_1", properties: &["ReadExactPosOnEof"] }],
    }
}

/// From `start_pos % (total + 1)`, a `read_exact` of `remaining + extra % 32
/// + 1` bytes fails with the error kind `std::io::Cursor<&[u8]>` gives, and
/// leaves the cursor where that one is: at the end.
fn property_read_exact_pos_on_eof(chunks: Vec<Vec<u8>>, start_pos: u32, extra: u32) -> PropertyResult {
    let mut bl = BufList::new();
    let mut flat = Vec::new();
    for c in chunks.iter().filter(|c| !c.is_empty()) {
        flat.extend_from_slice(c);
        bl.push_chunk(Bytes::copy_from_slice(c));
    }
    let total = bl.num_bytes() as u64;
    let start = start_pos as u64 % (total + 1);
    let buf_len = total - start + extra as u64 % 32 + 1;
    if buf_len > 4096 {
        return PropertyResult::Discard;
    }
    let mut cursor = Cursor::new(&bl);
    cursor.set_position(start);
    let mut buf = vec![0u8; buf_len as usize];
    let got = cursor.read_exact(&mut buf);
    let pos = cursor.position();
    let mut oracle = StdCursor::new(flat.as_slice());
    oracle.set_position(start);
    let mut o_buf = vec![0u8; buf_len as usize];
    let want = oracle.read_exact(&mut o_buf);
    let o_pos = oracle.position();
    match (got, want) {
        (Err(a), Err(b)) if a.kind() != b.kind() => {
            return PropertyResult::Fail(format!("error kind mismatch: buf_list={:?} oracle={:?}", a.kind(), b.kind()));
        }
        (Err(_), Err(_)) => {}
        (Ok(()), Ok(())) => return PropertyResult::Discard,
        (a, b) => {
            return PropertyResult::Fail(format!(
                "result shape mismatch: buf_list ok={} oracle ok={}",
                a.is_ok(),
                b.is_ok()
            ));
        }
    }
    if pos != o_pos {
        return PropertyResult::Fail(format!(
            "position mismatch after read_exact EOF: buf_list={pos} oracle={o_pos} (total={total} start={start} buf_len={buf_len})"
        ));
    }
    if pos != total {
        return PropertyResult::Fail(format!(
            "read_exact EOF did not advance position to total: pos={pos} total={total} (start={start} buf_len={buf_len})"
        ));
    }
    PropertyResult::Pass
}

fn read_exact_pos_on_eof(tool: Tool, spec: RunSpec) -> Outcome {
    let f = |(c, s, e): (Vec<Vec<u8>>, u32, u32)| property_read_exact_pos_on_eof(c, s, e);
    match tool {
        Tool::Speccheck => harness::speccheck(
            spec,
            (gens::vec(gens::vec(gens::any::<u8>(), 0..16), 0..8), gens::any::<u32>(), gens::any::<u32>()),
            f,
        ),
        Tool::Hegeltest => {
            harness::hegeltest(spec, |tc| (hg::byte_chunks(tc, 0, 7, 0, 15), hg::any::<u32>(tc), hg::any::<u32>(tc)), f)
        }
        Tool::Proptest | Tool::Quickcheck => harness::peer(
            tool,
            spec,
            (
                pt::prop::collection::vec(pt::prop::collection::vec(pt::any::<u8>(), 0..16), 0..8),
                pt::any::<u32>(),
                pt::any::<u32>(),
            ),
            f,
        ),
    }
}
