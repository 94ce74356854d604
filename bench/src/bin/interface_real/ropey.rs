//! ropey 1.5.0 (fixed in 1.5.1, cessen/ropey commit 8699de0): a slice
//! that spans more than one leaf (leaves hold about 1 KB) and ends between
//! the `\r` and the `\n` of a CRLF counts one line too few.
//! Reference: a `String`.
//!
//! The calls are those of a text buffer a user would check: insert, remove,
//! lengths, the line count of a slice, the text itself (not `cmp`, which
//! has a shallower bug of its own in this release: see
//! `bench/interface-real/CANDIDATES.md`). Positions are taken modulo
//! `len_chars() + 1`, so they land in the text whatever its length: the
//! same for both tools. Inserted text is 1 to 8 tokens from a small
//! alphabet with line breaks and multi-byte characters.

use proptest::prelude::*;
use ropey::Rope;
use speccheck::interface::{Api, interface};
use speccheck::{Generator, gens};
use speccheck_bench::hegel_peer::{self, gs};

use super::Target;

/// What both texts provide (positions in chars).
pub trait Text {
    fn new() -> Self;
    /// Inserts `text` at char `at % (len_chars + 1)`.
    fn insert(&mut self, at: u32, text: String);
    /// Removes up to `n` chars from char `at % (len_chars + 1)`.
    fn remove(&mut self, at: u32, n: u8);
    fn len_chars(&self) -> usize;
    fn len_lines(&self) -> usize;
    /// The line count of the slice between two positions.
    fn slice_lines(&self, from: u32, to: u32) -> usize;
    fn contents(&self) -> String;
}

/// The tokens inserted text is made of.
pub const TOKENS: [&str; 10] = ["a", "b", "c", " ", "\n", "\r", "\r\n", "é", "日", "😀"];

fn position(at: u32, len: usize) -> usize {
    at as usize % (len + 1)
}

fn span(from: u32, to: u32, len: usize) -> (usize, usize) {
    let (a, b) = (position(from, len), position(to, len));
    (a.min(b), a.max(b))
}

impl Text for Rope {
    fn new() -> Self {
        Rope::new()
    }
    fn insert(&mut self, at: u32, text: String) {
        let at = position(at, self.len_chars());
        Rope::insert(self, at, &text);
    }
    fn remove(&mut self, at: u32, n: u8) {
        let len = self.len_chars();
        let at = position(at, len);
        Rope::remove(self, at..(at + n as usize).min(len));
    }
    fn len_chars(&self) -> usize {
        Rope::len_chars(self)
    }
    fn len_lines(&self) -> usize {
        Rope::len_lines(self)
    }
    fn slice_lines(&self, from: u32, to: u32) -> usize {
        let (a, b) = span(from, to, self.len_chars());
        self.slice(a..b).len_lines()
    }
    fn contents(&self) -> String {
        self.to_string()
    }
}

/// Lines as ropey counts them (its default `unicode_lines`; the alphabet
/// has no other break than `\n`, `\r` and CRLF): one more than the breaks.
fn lines(s: &str) -> usize {
    let mut chars = s.chars().peekable();
    let mut n = 1;
    while let Some(c) = chars.next() {
        n += usize::from(c == '\n' || (c == '\r' && chars.peek() != Some(&'\n')));
    }
    n
}

fn byte_at(s: &str, char_idx: usize) -> usize {
    s.char_indices().nth(char_idx).map_or(s.len(), |(b, _)| b)
}

impl Text for String {
    fn new() -> Self {
        String::new()
    }
    fn insert(&mut self, at: u32, text: String) {
        let at = byte_at(self, position(at, self.chars().count()));
        self.insert_str(at, &text);
    }
    fn remove(&mut self, at: u32, n: u8) {
        let len = self.chars().count();
        let at = position(at, len);
        let (a, b) = (byte_at(self, at), byte_at(self, (at + n as usize).min(len)));
        self.replace_range(a..b, "");
    }
    fn len_chars(&self) -> usize {
        self.chars().count()
    }
    fn len_lines(&self) -> usize {
        lines(self)
    }
    fn slice_lines(&self, from: u32, to: u32) -> usize {
        let (a, b) = span(from, to, self.chars().count());
        lines(&self[byte_at(self, a)..byte_at(self, b)])
    }
    fn contents(&self) -> String {
        self.clone()
    }
}

/// The reference-model description, at speccheck's defaults.
pub fn api() -> Api {
    interface! {
        name = "ropey 1.5.0 vs String";
        ground u32 = gens::ints(0..=u32::MAX);
        ground u8 = gens::ints(1..=6u8);
        ground String = gens::vec(gens::select(TOKENS), 1..=8).map(|t: Vec<&str>| t.concat());
        compare Rope with String by Text {
            fn new() -> Self;
            fn insert(&mut self, at: u32, text: String);
            fn remove(&mut self, at: u32, n: u8);
            fn len_chars(&self) -> usize;
            fn len_lines(&self) -> usize;
            fn slice_lines(&self, from: u32, to: u32) -> usize;
            fn contents(&self) -> String;
        }
    }
    .expect("a valid description")
}

/// One operation of the proptest harness.
#[derive(Clone, Debug)]
pub enum Op {
    Insert(u32, String),
    Remove(u32, u8),
    LenChars,
    LenLines,
    SliceLines(u32, u32),
    Contents,
}

impl Op {
    fn name(&self) -> &'static str {
        match self {
            Op::Insert(..) => "insert",
            Op::Remove(..) => "remove",
            Op::LenChars => "len_chars",
            Op::LenLines => "len_lines",
            Op::SliceLines(..) => "slice_lines",
            Op::Contents => "contents",
        }
    }
}

/// The same calls, equally likely, arguments from the same ranges.
pub fn op() -> impl Strategy<Value = Op> {
    let text = proptest::collection::vec(proptest::sample::select(&TOKENS[..]), 1..=8).prop_map(|t| t.concat());
    prop_oneof![
        (any::<u32>(), text).prop_map(|(at, t)| Op::Insert(at, t)),
        (any::<u32>(), 1..=6u8).prop_map(|(at, n)| Op::Remove(at, n)),
        Just(Op::LenChars),
        Just(Op::LenLines),
        (any::<u32>(), any::<u32>()).prop_map(|(a, b)| Op::SliceLines(a, b)),
        Just(Op::Contents),
    ]
}

/// The same calls for hegeltest, equally likely, from the same ranges.
pub fn hegel_op() -> impl hegel_peer::PrintableGenerator<Op> {
    hegel::compose!(|tc| {
        let at = || gs::integers::<u32>();
        match tc.draw(gs::integers::<u8>().max_value(5)) {
            0 => {
                let tokens = tc.draw(gs::vecs(gs::sampled_from(&TOKENS[..])).min_size(1).max_size(8));
                Op::Insert(tc.draw(at()), tokens.concat())
            }
            1 => Op::Remove(tc.draw(at()), tc.draw(gs::integers::<u8>().min_value(1).max_value(6))),
            2 => Op::LenChars,
            3 => Op::LenLines,
            4 => Op::SliceLines(tc.draw(at()), tc.draw(at())),
            _ => Op::Contents,
        }
    })
}

/// Runs `ops` on both texts; the first disagreement, with its index.
pub fn run(ops: &[Op], done: &mut u64) -> super::Outcome {
    let mut c = <Rope as Text>::new();
    let mut r = <String as Text>::new();
    for (i, op) in ops.iter().enumerate() {
        *done += 1;
        match op {
            Op::Insert(at, t) => {
                same!(i, op, Text::insert(&mut c, *at, t.clone()), Text::insert(&mut r, *at, t.clone()))
            }
            Op::Remove(at, n) => same!(i, op, Text::remove(&mut c, *at, *n), Text::remove(&mut r, *at, *n)),
            Op::LenChars => same!(i, op, Text::len_chars(&c), Text::len_chars(&r)),
            Op::LenLines => same!(i, op, Text::len_lines(&c), Text::len_lines(&r)),
            Op::SliceLines(a, b) => same!(i, op, Text::slice_lines(&c, *a, *b), Text::slice_lines(&r, *a, *b)),
            Op::Contents => same!(i, op, Text::contents(&c), Text::contents(&r)),
        }
    }
    Ok(())
}

/// The target.
pub fn target() -> Target {
    Target {
        name: "ropey",
        release: "ropey 1.5.0 (fixed in 1.5.1)",
        bug: "a multi-leaf slice ending inside a CRLF counts one line too few",
        symptom: &["slice_lines"],
        api,
        proptest: |seed, max_ops| super::proptest_hunt(proptest::collection::vec(op(), 0..max_ops), seed, run),
        hegel: |seed, max_ops| super::hegel_hunt(hegel_op, seed, max_ops, run),
    }
}
