//! `ropey` 1.6.1 (ETNA: `alpaylan/ropey-etna`), built with debug
//! assertions: line counting (of ropes and of slices that cut a CRLF),
//! slice equality and hashing across chunk layouts, UTF-16 index
//! conversion, and `RopeBuilder::default()`.

use std::hash::{Hash, Hasher};

use ::ropey::{Rope, RopeBuilder};
use proptest::prelude as pt;
use proptest::strategy::Strategy as _;
use speccheck::gens::{self, Generator};

use super::Workload;
use crate::harness::{self, Bug, EtnaProperty, Outcome, PropertyResult, RunSpec, Tool, hg};

pub fn workload() -> Workload {
    Workload {
        name: "ropey",
        properties: vec![
            EtnaProperty { name: "LinesMatchModel", run: lines_match_model },
            EtnaProperty { name: "RopeEqChunkInvariant", run: rope_eq_chunk_invariant },
            EtnaProperty { name: "RopeHashChunkInvariant", run: rope_hash_chunk_invariant },
            EtnaProperty { name: "Utf16CharRoundtrip", run: utf16_char_roundtrip },
            EtnaProperty { name: "RopeBuilderDefaultBuild", run: rope_builder_default_build },
            EtnaProperty { name: "SliceCrlfLenLines", run: slice_crlf_len_lines },
        ],
        bugs: vec![
            Bug { patch: "lines_empty_total_lines_faf6738_1", properties: &["LinesMatchModel"] },
            Bug { patch: "rope_eq_utf8_boundary_cc516d5_1", properties: &["RopeEqChunkInvariant"] },
            Bug { patch: "rope_hash_chunk_boundary_fef5be9_1", properties: &["RopeHashChunkInvariant"] },
            Bug { patch: "utf16_code_unit_conversion_c0af16b_1", properties: &["Utf16CharRoundtrip"] },
            Bug { patch: "rope_builder_default_empty_stack_dfcac8b_1", properties: &["RopeBuilderDefaultBuild"] },
            Bug { patch: "slice_crlf_split_end_info_8699de0_1", properties: &["SliceCrlfLenLines"] },
        ],
    }
}

// ---------------------------------------------------------------------
// Helpers.

/// A rope whose leaves are exactly the pieces of `text` cut every
/// `chunk_size` bytes (pushed forward to the next char boundary), built
/// without the tree fix-up so the layout survives; `Rope::from_str` when
/// `chunk_size` is 0 or the text is empty.
fn rope_from_str_chunked(text: &str, chunk_size: usize) -> Rope {
    if chunk_size == 0 || text.is_empty() {
        return Rope::from_str(text);
    }
    let mut b = RopeBuilder::new();
    let mut i = 0;
    while i < text.len() {
        let mut end = (i + chunk_size).min(text.len());
        while end < text.len() && !text.is_char_boundary(end) {
            end += 1;
        }
        b._append_chunk(&text[i..end]);
        i = end;
    }
    b._finish_no_fix()
}

/// Reference line count under ropey's Unicode line breaks (LF, CR, CRLF
/// as one, VT, FF, NEL, LS, PS): one more than the number of breaks.
fn slow_line_count(text: &str) -> usize {
    let b = text.as_bytes();
    let (mut count, mut i) = (1usize, 0usize);
    while i < b.len() {
        let step = match b[i] {
            b'\r' if b.get(i + 1) == Some(&b'\n') => Some(2),
            b'\n' | b'\r' | 0x0B | 0x0C => Some(1),
            0xC2 if b.get(i + 1) == Some(&0x85) => Some(2),
            0xE2 if b.get(i + 1) == Some(&0x80) && matches!(b.get(i + 2), Some(&0xA8) | Some(&0xA9)) => Some(3),
            _ => None,
        };
        match step {
            Some(n) => {
                count += 1;
                i += n;
            }
            None => i += 1,
        }
    }
    count
}

/// 64-bit FNV-1a that mixes in a 0xFF byte after every `write`, so the
/// hash depends on how the data is split between calls (ETNA wraps
/// `fnv::FnvHasher` the same way).
struct BoundaryFnv(u64);

impl Default for BoundaryFnv {
    fn default() -> Self {
        BoundaryFnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for BoundaryFnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes.iter().chain(std::iter::once(&0xFF)) {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

fn hash_rope(r: &Rope) -> u64 {
    let mut h = BoundaryFnv::default();
    r.hash(&mut h);
    h.finish()
}

// ---------------------------------------------------------------------
// Properties.

/// `lines().len()` and `lines().count()` equal the reference line count
/// (an empty rope has one line); asking the size after one step must not
/// panic.
fn property_lines_match_model(text: String) -> PropertyResult {
    let rope = Rope::from_str(&text);
    let want = slow_line_count(&text);
    let len = rope.lines().len();
    if len != want {
        return PropertyResult::Fail(format!("lines().len() = {len}, model {want}, {} bytes", text.len()));
    }
    let counted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut it = rope.lines();
        let _ = it.next();
        let _ = it.size_hint();
        rope.lines().count()
    }));
    match counted {
        Ok(n) if n == want => PropertyResult::Pass,
        Ok(n) => PropertyResult::Fail(format!("lines().count() = {n}, model {want}, {} bytes", text.len())),
        Err(_) => PropertyResult::Fail(format!("lines() panicked, {} bytes", text.len())),
    }
}

/// Comparing every line of a non-ASCII rope with every line of a copy
/// that had a char range removed, both ways round, never panics (the
/// result of `==` is not checked).
fn property_rope_eq_chunk_invariant(text: String, remove_start: u16, remove_len: u16) -> PropertyResult {
    if text.is_ascii() {
        return PropertyResult::Discard;
    }
    let rope1 = Rope::from_str(&text);
    let n = rope1.len_chars();
    if n < 8 {
        return PropertyResult::Discard;
    }
    let start = usize::from(remove_start) % n;
    let len = (usize::from(remove_len) % (n - start)).max(1);
    let mut rope2 = Rope::from_str(&text);
    rope2.remove(start..start + len);
    let compared = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let lines2: Vec<_> = rope2.lines().collect();
        for l1 in rope1.lines() {
            for l2 in &lines2 {
                let _ = l1 == *l2;
                let _ = *l2 == l1;
            }
        }
    }));
    match compared {
        Ok(()) => PropertyResult::Pass,
        Err(_) => PropertyResult::Fail(format!(
            "line comparison panicked ({} bytes, removed {start}..{})",
            text.len(),
            start + len
        )),
    }
}

/// The same text laid out in chunks of two different sizes hashes the
/// same under a hasher that sees `write` boundaries.
fn property_rope_hash_chunk_invariant(text: String, chunk_a: u16, chunk_b: u16) -> PropertyResult {
    if chunk_a == 0 || chunk_b == 0 || chunk_a == chunk_b {
        return PropertyResult::Discard;
    }
    let ha = hash_rope(&rope_from_str_chunked(&text, usize::from(chunk_a)));
    let hb = hash_rope(&rope_from_str_chunked(&text, usize::from(chunk_b)));
    if ha == hb {
        PropertyResult::Pass
    } else {
        PropertyResult::Fail(format!(
            "chunks of {chunk_a} hash to {ha:x}, chunks of {chunk_b} to {hb:x} ({} bytes)",
            text.len()
        ))
    }
}

/// For every char index `i` (end included), converting to UTF-16 code
/// units and back gives `i`.
fn property_utf16_char_roundtrip(text: String) -> PropertyResult {
    let rope = Rope::from_str(&text);
    let n = rope.len_chars();
    for i in 0..=n {
        let cu = rope.char_to_utf16_cu(i);
        let back = rope.utf16_cu_to_char(cu);
        if back != i {
            return PropertyResult::Fail(format!("char {i} -> utf16 {cu} -> char {back} (len_chars {n})"));
        }
    }
    PropertyResult::Pass
}

/// A `RopeBuilder::default()` works like `new()`: appending `text` and
/// finishing does not panic and yields exactly `text`.
fn property_rope_builder_default_build(text: String) -> PropertyResult {
    let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut b = RopeBuilder::default();
        b.append(&text);
        b.finish()
    }));
    match built {
        Ok(rope) => {
            let got: String = rope.chars().collect();
            if got == text {
                PropertyResult::Pass
            } else {
                PropertyResult::Fail(format!("default builder gave {got:?}, want {text:?}"))
            }
        }
        Err(_) => PropertyResult::Fail(format!("default builder panicked on {text:?}")),
    }
}

/// `slice(..i).len_lines()` equals the reference count of the text before
/// char `i`, with `i = prefix % (len_chars + 1)`, also when `i` splits a
/// CRLF.
fn property_slice_crlf_len_lines(text: String, prefix: u16) -> PropertyResult {
    let rope = Rope::from_str(&text);
    let n = rope.len_chars();
    if n == 0 {
        return PropertyResult::Discard;
    }
    let at = usize::from(prefix) % (n + 1);
    let head = &text[..rope.char_to_byte(at)];
    let want = slow_line_count(head);
    let got = rope.slice(..at).len_lines();
    if got == want {
        PropertyResult::Pass
    } else {
        PropertyResult::Fail(format!("slice(..{at}).len_lines() = {got}, model {want}, prefix {head:?}"))
    }
}

// ---------------------------------------------------------------------
// Generators: ETNA's proptest strategies, and the same shapes for
// speccheck.

const GEN_CHARS: &[char] = &[
    'a', 'b', 'c', 'x', 'y', 'z', ' ', '.', ',', '0', '9', '\n', '\r', '\u{000B}', '\u{000C}', '\u{0085}', '\u{2028}',
    'é', 'ñ', 'あ', 'が', '字', '𝄞', '🎉',
];
const NON_ASCII_CHARS: &[char] = &['a', 'b', ' ', 'é', 'ñ', 'ü', 'あ', 'が', '字', '国', '𝄞', '🎉', '\n', '\r'];
const CRLF_POOL: &[char] = &['\r', '\n', '\r', '\n', '\r', '\n', 'a', 'b', ' ', '.', '0'];

fn collect_chars(cs: Vec<char>) -> String {
    cs.into_iter().collect()
}

fn non_ascii_text(cs: Vec<char>) -> String {
    let mut s: String = cs.iter().collect();
    if s.chars().all(|c| c.is_ascii()) {
        s.push('é');
    }
    s
}

fn text_any_pt() -> pt::BoxedStrategy<String> {
    pt::prop_oneof![
        1 => pt::Just(String::new()),
        4 => pt::prop::collection::vec(pt::prop::sample::select(GEN_CHARS.to_vec()), 1..=96)
            .prop_map(collect_chars),
    ]
    .boxed()
}

fn text_any_gen() -> gens::BoxedGenerator<String> {
    gens::frequency(vec![
        (1, gens::just(String::new()).boxed()),
        (4, gens::vec(gens::select(GEN_CHARS.to_vec()), 1..=96).map(collect_chars).boxed()),
    ])
    .boxed()
}

fn text_non_ascii_pt() -> pt::BoxedStrategy<String> {
    pt::prop::collection::vec(pt::prop::sample::select(NON_ASCII_CHARS.to_vec()), 1..=48)
        .prop_map(non_ascii_text)
        .boxed()
}

fn text_non_ascii_gen() -> gens::BoxedGenerator<String> {
    gens::vec(gens::select(NON_ASCII_CHARS.to_vec()), 1..=48).map(non_ascii_text).boxed()
}

fn text_chunky_pt() -> pt::BoxedStrategy<String> {
    pt::prop::collection::vec(pt::prop::sample::select(GEN_CHARS.to_vec()), 1..=256).prop_map(collect_chars).boxed()
}

fn text_chunky_gen() -> gens::BoxedGenerator<String> {
    gens::vec(gens::select(GEN_CHARS.to_vec()), 1..=256).map(collect_chars).boxed()
}

fn text_crlf_pt() -> pt::BoxedStrategy<String> {
    pt::prop::collection::vec(pt::prop::sample::select(CRLF_POOL.to_vec()), 640..=1536).prop_map(collect_chars).boxed()
}

fn text_crlf_gen() -> gens::BoxedGenerator<String> {
    gens::vec(gens::select(CRLF_POOL.to_vec()), 640..=1536).map(collect_chars).boxed()
}

fn text_any_hg(tc: &hg::TestCase) -> String {
    // One in five empty, as the other tools' `frequency(1, 4)`.
    if hg::int(tc, 0u8, 4) == 0 { String::new() } else { collect_chars(hg::vec_of(tc, GEN_CHARS, 1, 96)) }
}

fn text_non_ascii_hg(tc: &hg::TestCase) -> String {
    non_ascii_text(hg::vec_of(tc, NON_ASCII_CHARS, 1, 48))
}

fn text_chunky_hg(tc: &hg::TestCase) -> String {
    collect_chars(hg::vec_of(tc, GEN_CHARS, 1, 256))
}

fn text_crlf_hg(tc: &hg::TestCase) -> String {
    collect_chars(hg::vec_of(tc, CRLF_POOL, 640, 1536))
}

fn small_chunk_hg(tc: &hg::TestCase) -> u16 {
    hg::int(tc, 1u16, 32)
}

fn small_chunk_pt() -> pt::BoxedStrategy<u16> {
    (1u16..=32u16).boxed()
}

fn small_chunk_gen() -> gens::BoxedGenerator<u16> {
    gens::ints(1u16..=32u16).boxed()
}

fn prefix_idx_pt() -> pt::BoxedStrategy<u16> {
    (0u16..=u16::MAX).boxed()
}

fn prefix_idx_gen() -> gens::BoxedGenerator<u16> {
    gens::ints(0u16..=u16::MAX).boxed()
}

// ---------------------------------------------------------------------
// Runners.

fn lines_match_model(tool: Tool, spec: RunSpec) -> Outcome {
    match tool {
        Tool::Speccheck => harness::speccheck(spec, text_any_gen(), property_lines_match_model),
        Tool::Hegeltest => harness::hegeltest(spec, text_any_hg, property_lines_match_model),
        Tool::Proptest | Tool::Quickcheck => harness::peer(tool, spec, text_any_pt(), property_lines_match_model),
    }
}

fn rope_eq_chunk_invariant(tool: Tool, spec: RunSpec) -> Outcome {
    let f = |(text, start, len): (String, u16, u16)| property_rope_eq_chunk_invariant(text, start, len);
    match tool {
        Tool::Speccheck => harness::speccheck(spec, (text_non_ascii_gen(), small_chunk_gen(), small_chunk_gen()), f),
        Tool::Hegeltest => {
            harness::hegeltest(spec, |tc| (text_non_ascii_hg(tc), small_chunk_hg(tc), small_chunk_hg(tc)), f)
        }
        Tool::Proptest | Tool::Quickcheck => {
            harness::peer(tool, spec, (text_non_ascii_pt(), small_chunk_pt(), small_chunk_pt()), f)
        }
    }
}

fn rope_hash_chunk_invariant(tool: Tool, spec: RunSpec) -> Outcome {
    let f = |(text, a, b): (String, u16, u16)| property_rope_hash_chunk_invariant(text, a, b);
    match tool {
        Tool::Speccheck => harness::speccheck(spec, (text_chunky_gen(), small_chunk_gen(), small_chunk_gen()), f),
        Tool::Hegeltest => {
            harness::hegeltest(spec, |tc| (text_chunky_hg(tc), small_chunk_hg(tc), small_chunk_hg(tc)), f)
        }
        Tool::Proptest | Tool::Quickcheck => {
            harness::peer(tool, spec, (text_chunky_pt(), small_chunk_pt(), small_chunk_pt()), f)
        }
    }
}

fn utf16_char_roundtrip(tool: Tool, spec: RunSpec) -> Outcome {
    match tool {
        Tool::Speccheck => harness::speccheck(spec, text_non_ascii_gen(), property_utf16_char_roundtrip),
        Tool::Hegeltest => harness::hegeltest(spec, text_non_ascii_hg, property_utf16_char_roundtrip),
        Tool::Proptest | Tool::Quickcheck => {
            harness::peer(tool, spec, text_non_ascii_pt(), property_utf16_char_roundtrip)
        }
    }
}

fn rope_builder_default_build(tool: Tool, spec: RunSpec) -> Outcome {
    match tool {
        Tool::Speccheck => harness::speccheck(spec, text_any_gen(), property_rope_builder_default_build),
        Tool::Hegeltest => harness::hegeltest(spec, text_any_hg, property_rope_builder_default_build),
        Tool::Proptest | Tool::Quickcheck => {
            harness::peer(tool, spec, text_any_pt(), property_rope_builder_default_build)
        }
    }
}

fn slice_crlf_len_lines(tool: Tool, spec: RunSpec) -> Outcome {
    let f = |(text, prefix): (String, u16)| property_slice_crlf_len_lines(text, prefix);
    match tool {
        Tool::Speccheck => harness::speccheck(spec, (text_crlf_gen(), prefix_idx_gen()), f),
        Tool::Hegeltest => harness::hegeltest(spec, |tc| (text_crlf_hg(tc), hg::any::<u16>(tc)), f),
        Tool::Proptest | Tool::Quickcheck => harness::peer(tool, spec, (text_crlf_pt(), prefix_idx_pt()), f),
    }
}
