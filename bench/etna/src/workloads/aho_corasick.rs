//! `aho-corasick` 1.1.4 (ETNA: `alpaylan/aho-corasick-etna`):
//! `replace_all` on a `&str` skips byte-pattern matches that split a
//! codepoint instead of panicking, and the prefilter keeps its pattern IDs
//! in step with the automaton's in leftmost-first mode (`find_iter` gives
//! the same matches with the prefilter on and off).

use ::aho_corasick::{AhoCorasick, MatchKind};
use proptest::prelude as pt;
use proptest::strategy::Strategy as _;
use speccheck::gens;
use speccheck::gens::Generator as _;

use super::Workload;
use crate::harness::{self, Bug, EtnaProperty, Outcome, PropertyResult, RunSpec, Tool, hg};

pub fn workload() -> Workload {
    Workload {
        name: "aho-corasick",
        properties: vec![
            EtnaProperty { name: "ReplaceAllUtf8Safe", run: replace_all_utf8_safe },
            EtnaProperty { name: "FindIterPrefilterParity", run: find_iter_prefilter_parity },
        ],
        bugs: vec![
            Bug { patch: "replace_all_utf8_boundary_e453f60_1", properties: &["ReplaceAllUtf8Safe"] },
            Bug { patch: "prefilter_pattern_id_sync_2df0983_1", properties: &["FindIterPrefilterParity"] },
        ],
    }
}

/// `replace_all(haystack, [replacement; N])` with byte patterns over a
/// `&str` haystack never panics (matches that split a codepoint are
/// skipped), and its output stays within a sane length bound.
fn property_replace_all_utf8_safe(patterns: Vec<Vec<u8>>, haystack: String, replacement: String) -> PropertyResult {
    if patterns.is_empty() || patterns.len() > 8 || haystack.len() > 256 || replacement.len() > 16 {
        return PropertyResult::Discard;
    }
    if patterns.iter().any(|p| p.is_empty() || p.len() > 8) {
        return PropertyResult::Discard;
    }
    let Ok(ac) = AhoCorasick::new(&patterns) else {
        return PropertyResult::Discard;
    };
    let reps: Vec<&str> = patterns.iter().map(|_| replacement.as_str()).collect();
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| ac.replace_all(&haystack, &reps))) {
        Ok(out) if out.len() > haystack.len() + (patterns.len() + 1) * replacement.len() * 64 => {
            PropertyResult::Fail(format!("output length {} exceeds sane bound for haystack {haystack:?}", out.len()))
        }
        Ok(_) => PropertyResult::Pass,
        Err(_) => PropertyResult::Fail(format!("replace_all panicked on patterns={patterns:?} haystack={haystack:?}")),
    }
}

/// In leftmost-first mode, `find_iter` reports the same (pattern, start,
/// end) sequence with the prefilter enabled and disabled.
fn property_find_iter_prefilter_parity(patterns: Vec<String>, haystack: String) -> PropertyResult {
    if patterns.is_empty() || patterns.len() > 6 || haystack.len() > 256 {
        return PropertyResult::Discard;
    }
    if patterns.iter().any(|p| p.is_empty() || p.len() > 16) {
        return PropertyResult::Discard;
    }
    let build = |prefilter: bool| {
        AhoCorasick::builder().match_kind(MatchKind::LeftmostFirst).prefilter(prefilter).build(&patterns)
    };
    let (Ok(with_pre), Ok(without_pre)) = (build(true), build(false)) else {
        return PropertyResult::Discard;
    };
    let matches = |ac: &AhoCorasick| -> Vec<(usize, usize, usize)> {
        ac.find_iter(&haystack).map(|m| (m.pattern().as_usize(), m.start(), m.end())).collect()
    };
    let (a, b) = (matches(&with_pre), matches(&without_pre));
    if a != b {
        return PropertyResult::Fail(format!("prefilter divergence: with_pre={a:?}, without_pre={b:?}"));
    }
    PropertyResult::Pass
}

// ---------------------------------------------------------------------
// Generators: ETNA's proptest strategies, and the same shapes for the
// other tools.

/// ASCII and UTF-8 lead/continuation bytes, so byte patterns land inside
/// multi-byte codepoints.
const BYTE_POOL: &[u8] = &[
    0x61, 0x62, 0x63, 0x64, 0x78, 0x79, 0x7A, 0x20, b'.', b',', 0xC3, 0xA9, 0xB1, 0xBC, 0xE3, 0x81, 0x82, 0xF0, 0x9D,
    0x84, 0x9E,
];
const HAY_CHARS: &[char] = &['a', 'b', 'c', 'x', 'y', 'z', ' ', '.', ',', 'é', 'ñ', 'ü', 'あ', 'が', '字', '𝄞', '🎉'];
const REPL_CHARS: &[char] = &['Z', 'Q', '!', ' '];
const PAT_PREFIXES: &[&str] = &["abcd", "mnop", "wxyz", "1234", "pqrs"];
const PAT_SUFFIX_CHARS: &[char] = &['a', 'b', 'c', 'x', 'y', 'z', '0', '1'];

fn collect_chars(cs: Vec<char>) -> String {
    cs.into_iter().collect()
}

/// ETNA's `pattern_set_strategy` map: 4–5 prefix+suffix patterns (deduped)
/// with a superstring of the first inserted at position 1.
fn pattern_set(parts: Vec<(&'static str, Vec<char>)>, extra: Vec<char>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (prefix, suffix) in parts {
        let p = format!("{prefix}{}", collect_chars(suffix));
        if !p.is_empty() && !out.contains(&p) {
            out.push(p);
        }
    }
    if out.is_empty() {
        out.push("abcd".to_string());
    }
    let superstring = format!("{}{}", out[0], collect_chars(extra));
    if !out.contains(&superstring) {
        let at = out.len().min(1);
        out.insert(at, superstring);
    }
    out
}

/// ETNA's `mix_haystack_strategy` map: segments that are a pattern, filler
/// or a space.
fn mix_haystack(ps: Vec<String>, segs: Vec<(u8, usize, Vec<char>)>) -> (Vec<String>, String) {
    let mut s = String::new();
    for (choice, pick, filler) in segs {
        match choice {
            0 => s.push_str(&ps[pick % ps.len()]),
            1 => s.extend(filler),
            _ => s.push(' '),
        }
    }
    (ps, s)
}

fn replace_all_utf8_safe(tool: Tool, spec: RunSpec) -> Outcome {
    let f = |(p, h, r): (Vec<Vec<u8>>, String, String)| property_replace_all_utf8_safe(p, h, r);
    match tool {
        Tool::Speccheck => harness::speccheck(
            spec,
            (
                gens::vec(gens::vec(gens::select(BYTE_POOL.to_vec()), 1..=4), 1..=4),
                gens::vec(gens::select(HAY_CHARS.to_vec()), 0..=32).map(collect_chars),
                gens::vec(gens::select(REPL_CHARS.to_vec()), 0..=4).map(collect_chars),
            ),
            f,
        ),
        Tool::Hegeltest => harness::hegeltest(
            spec,
            |tc| {
                let n = hg::int(tc, 1usize, 4);
                let patterns = (0..n).map(|_| hg::vec_of(tc, BYTE_POOL, 1, 4)).collect();
                (
                    patterns,
                    collect_chars(hg::vec_of(tc, HAY_CHARS, 0, 32)),
                    collect_chars(hg::vec_of(tc, REPL_CHARS, 0, 4)),
                )
            },
            f,
        ),
        Tool::Proptest | Tool::Quickcheck => harness::peer(
            tool,
            spec,
            (
                pt::prop::collection::vec(
                    pt::prop::collection::vec(pt::prop::sample::select(BYTE_POOL.to_vec()), 1..=4),
                    1..=4,
                ),
                pt::prop::collection::vec(pt::prop::sample::select(HAY_CHARS.to_vec()), 0..=32).prop_map(collect_chars),
                pt::prop::collection::vec(pt::prop::sample::select(REPL_CHARS.to_vec()), 0..=4).prop_map(collect_chars),
            ),
            f,
        ),
    }
}

fn find_iter_prefilter_parity(tool: Tool, spec: RunSpec) -> Outcome {
    let f = |(p, h): (Vec<String>, String)| property_find_iter_prefilter_parity(p, h);
    match tool {
        Tool::Speccheck => {
            let parts = gens::vec(
                (gens::select(PAT_PREFIXES.to_vec()), gens::vec(gens::select(PAT_SUFFIX_CHARS.to_vec()), 0..=3)),
                4..=5,
            );
            let extra = gens::vec(gens::select(PAT_SUFFIX_CHARS.to_vec()), 1..=3);
            let segs = gens::vec(
                (gens::ints(0u8..3), gens::ints(0usize..64), gens::vec(gens::select(PAT_SUFFIX_CHARS.to_vec()), 1..=6)),
                2..=8,
            );
            harness::speccheck(
                spec,
                ((parts, extra).map(|(parts, extra)| pattern_set(parts, extra)), segs)
                    .map(|(ps, segs)| mix_haystack(ps, segs)),
                f,
            )
        }
        Tool::Hegeltest => harness::hegeltest(
            spec,
            |tc| {
                let n = hg::int(tc, 4usize, 5);
                let parts =
                    (0..n).map(|_| (hg::pick(tc, PAT_PREFIXES), hg::vec_of(tc, PAT_SUFFIX_CHARS, 0, 3))).collect();
                let ps = pattern_set(parts, hg::vec_of(tc, PAT_SUFFIX_CHARS, 1, 3));
                let k = hg::int(tc, 2usize, 8);
                let segs = (0..k)
                    .map(|_| (hg::int(tc, 0u8, 2), hg::int(tc, 0usize, 63), hg::vec_of(tc, PAT_SUFFIX_CHARS, 1, 6)))
                    .collect();
                mix_haystack(ps, segs)
            },
            f,
        ),
        Tool::Proptest | Tool::Quickcheck => {
            let parts = pt::prop::collection::vec(
                (
                    pt::prop::sample::select(PAT_PREFIXES.to_vec()),
                    pt::prop::collection::vec(pt::prop::sample::select(PAT_SUFFIX_CHARS.to_vec()), 0..=3),
                ),
                4..=5,
            );
            let extra = pt::prop::collection::vec(pt::prop::sample::select(PAT_SUFFIX_CHARS.to_vec()), 1..=3);
            let segs = pt::prop::collection::vec(
                (
                    0u8..3,
                    0usize..64,
                    pt::prop::collection::vec(pt::prop::sample::select(PAT_SUFFIX_CHARS.to_vec()), 1..=6),
                ),
                2..=8,
            );
            harness::peer(
                tool,
                spec,
                ((parts, extra).prop_map(|(parts, extra)| pattern_set(parts, extra)), segs)
                    .prop_map(|(ps, segs)| mix_haystack(ps, segs)),
                f,
            )
        }
    }
}
