//! Strings matching a regular expression: [`string_matching`], parsed by
//! `regex-syntax` (the parser of the `regex` crate, as proptest's
//! `string_regex` uses). Every choice is one of the pattern's own
//! decisions (which alternative, how many repetitions, which character of
//! a class), so shrinking gives the shortest, earliest match.

use std::fmt;

use regex_syntax::hir::{Class, Hir, HirKind, Look};

use super::Generator;
use crate::draw::many::Many;
use crate::span::{SpanKind, TypeInfo};
use crate::test_case::TestCase;

/// Repetitions allowed past the minimum of an unbounded `*`, `+` or `{n,}`.
const UNBOUNDED_EXTRA: u32 = 32;

/// A pattern speccheck cannot generate from: a syntax error, or a part
/// that no string (or no UTF-8 string) matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegexError(String);

impl fmt::Display for RegexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RegexError {}

/// The pattern as the generator walks it.
#[derive(Clone, Debug)]
enum Node {
    Literal(String),
    /// Inclusive code point ranges (no surrogates), and how many chars.
    Class(Vec<(u32, u32)>, u64),
    Repeat {
        min: usize,
        max: usize,
        sub: Box<Node>,
    },
    Concat(Vec<Node>),
    Alternation(Vec<Node>),
}

/// Strings matching a pattern; see [`string_matching`].
#[derive(Clone, Debug)]
pub struct Matching {
    pattern: String,
    root: Node,
}

/// Strings that match `pattern` (the `regex` crate's syntax) in full.
/// Unbounded repetitions stop 32 past their minimum. Anchors (`^`, `$`)
/// match the empty string, so they hold at the ends of the string (an
/// anchor in the middle is not enforced). Errors name the problem: a
/// syntax error, an empty class, a word boundary (`\b`, which no
/// generator can guarantee), a byte class outside ASCII.
///
/// ```
/// use speccheck_core::gens::{self, Generator};
/// let ids = gens::string_matching("[a-z][a-z0-9_]{0,7}").unwrap();
/// # let _ = ids;
/// ```
pub fn string_matching(pattern: &str) -> Result<Matching, RegexError> {
    let hir = regex_syntax::Parser::new()
        .parse(pattern)
        .map_err(|e| RegexError(format!("gens::string_matching({pattern:?}): {e}")))?;
    let root = compile(&hir).map_err(|why| RegexError(format!("gens::string_matching({pattern:?}): {why}")))?;
    Ok(Matching { pattern: pattern.to_string(), root })
}

fn compile(hir: &Hir) -> Result<Node, String> {
    Ok(match hir.kind() {
        HirKind::Empty => Node::Literal(String::new()),
        // Line and text anchors hold at the ends of a generated string; a
        // word boundary depends on its neighbours, which are not chosen to
        // suit it, so it is refused rather than silently ignored.
        HirKind::Look(look) if is_anchor(*look) => Node::Literal(String::new()),
        HirKind::Look(look) => {
            return Err(format!("{look:?} (a word boundary) cannot be guaranteed by a generator; leave it out"));
        }
        HirKind::Literal(lit) => Node::Literal(
            String::from_utf8(lit.0.to_vec()).map_err(|_| "a literal is not UTF-8 (a `(?-u)` byte)".to_string())?,
        ),
        HirKind::Class(Class::Unicode(c)) => {
            class(c.ranges().iter().map(|r| (u32::from(r.start()), u32::from(r.end()))))?
        }
        HirKind::Class(Class::Bytes(c)) => {
            if c.ranges().iter().any(|r| r.end() > 0x7f) {
                return Err("a byte class reaches past ASCII, so its strings would not be UTF-8".into());
            }
            class(c.ranges().iter().map(|r| (u32::from(r.start()), u32::from(r.end()))))?
        }
        HirKind::Repetition(rep) => {
            let min = rep.min as usize;
            let max = rep.max.unwrap_or(rep.min.saturating_add(UNBOUNDED_EXTRA)) as usize;
            Node::Repeat { min, max, sub: Box::new(compile(&rep.sub)?) }
        }
        HirKind::Capture(cap) => compile(&cap.sub)?,
        HirKind::Concat(parts) => Node::Concat(parts.iter().map(compile).collect::<Result<_, _>>()?),
        HirKind::Alternation(alts) => Node::Alternation(alts.iter().map(compile).collect::<Result<_, _>>()?),
    })
}

fn is_anchor(look: Look) -> bool {
    matches!(look, Look::Start | Look::End | Look::StartLF | Look::EndLF | Look::StartCRLF | Look::EndCRLF)
}

/// A class as code point ranges with the surrogate gap cut out.
fn class(ranges: impl Iterator<Item = (u32, u32)>) -> Result<Node, String> {
    const GAP: (u32, u32) = (0xD800, 0xDFFF);
    let mut out = Vec::new();
    for (lo, hi) in ranges {
        if lo < GAP.0 {
            out.push((lo, hi.min(GAP.0 - 1)));
        }
        if hi > GAP.1 {
            out.push((lo.max(GAP.1 + 1), hi));
        }
    }
    let total: u64 = out.iter().map(|&(lo, hi)| u64::from(hi - lo) + 1).sum();
    if total == 0 {
        return Err("a character class matches no character".into());
    }
    Ok(Node::Class(out, total))
}

fn draw(node: &Node, tc: &mut TestCase, out: &mut String) {
    match node {
        Node::Literal(s) => out.push_str(s),
        Node::Class(ranges, total) => {
            let mut k = tc.draw_int(0, total - 1);
            for &(lo, hi) in ranges {
                let width = u64::from(hi - lo) + 1;
                if k < width {
                    out.push(char::from_u32(lo + k as u32).expect("surrogates were cut out"));
                    return;
                }
                k -= width;
            }
        }
        Node::Repeat { min, max, sub } => {
            let mut many = Many::new(tc, *min, *max);
            while many.more(tc) {
                draw(sub, tc, out);
            }
        }
        Node::Concat(parts) => parts.iter().for_each(|p| draw(p, tc, out)),
        Node::Alternation(alts) => draw(&alts[tc.draw_index(alts.len())], tc, out),
    }
}

impl Matching {
    /// The pattern the strings match.
    pub fn pattern(&self) -> &str {
        &self.pattern
    }
}

impl Generator for Matching {
    type Value = String;
    fn generate(&self, tc: &mut TestCase) -> String {
        tc.start_span(SpanKind::Value, TypeInfo::primitive::<String>, "");
        let mut s = String::new();
        draw(&self.root, tc, &mut s);
        tc.stop_span(SpanKind::Value);
        s
    }
}
