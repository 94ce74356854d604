//! Choices: the atoms of a test case.
//!
//! Every generator, whatever it builds, does so by drawing numbered choices
//! from a [`TestCase`](crate::TestCase). The sequence of choices *is* the
//! test case: replaying it rebuilds the same value, persisting it survives
//! changes of seed, and shrinking works on it without knowing the type
//! (the Hypothesis / minithesis design).
//!
//! Each choice is a number in `0..=max` where `0` is the simplest option;
//! typed draws (integers, floats, characters) map their values to such
//! numbers so that a smaller number always means a simpler value.

use std::cmp::Ordering;
use std::fmt;

use base64::Engine as _;

/// What a choice stands for. Shrink passes and exhaustive enumeration use
/// it to pick sensible moves; replay uses it to detect stale sequences.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChoiceKind {
    /// An integer, stored as its distance-order index from the shrink target.
    Integer,
    /// A boolean (`max == 1`).
    Boolean,
    /// Which of `max + 1` alternatives (a constructor, a `one_of` branch).
    Index,
    /// "Does the collection go on?" (`max == 1`): one per element.
    More,
    /// A float's magnitude in simplicity order (see `draw::float`).
    Float,
    /// A character in simplicity order (see `draw::char`).
    Char,
}

impl ChoiceKind {
    fn code(self) -> u8 {
        match self {
            ChoiceKind::Integer => 0,
            ChoiceKind::Boolean => 1,
            ChoiceKind::Index => 2,
            ChoiceKind::More => 3,
            ChoiceKind::Float => 4,
            ChoiceKind::Char => 5,
        }
    }

    fn from_code(code: u8) -> Option<Self> {
        Some(match code {
            0 => ChoiceKind::Integer,
            1 => ChoiceKind::Boolean,
            2 => ChoiceKind::Index,
            3 => ChoiceKind::More,
            4 => ChoiceKind::Float,
            5 => ChoiceKind::Char,
            _ => return None,
        })
    }
}

/// One recorded choice: `value` in `0..=max`, `0` being the simplest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Choice {
    /// The option taken.
    pub value: u64,
    /// The largest option that was available.
    pub max: u64,
    /// What the number means.
    pub kind: ChoiceKind,
}

impl Choice {
    /// A choice of `value` out of `0..=max`.
    pub fn new(value: u64, max: u64, kind: ChoiceKind) -> Self {
        debug_assert!(value <= max, "choice {value} out of 0..={max}");
        Choice { value, max, kind }
    }
}

/// A whole test case as the choices it made.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct ChoiceSequence(pub Vec<Choice>);

impl ChoiceSequence {
    /// The empty sequence: every draw takes its simplest option.
    pub fn new() -> Self {
        ChoiceSequence(Vec::new())
    }

    /// Number of choices.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when no choice was made.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The chosen values, without their bounds.
    pub fn values(&self) -> impl Iterator<Item = u64> + '_ {
        self.0.iter().map(|c| c.value)
    }

    /// Shortlex order: fewer choices first, then lexicographically smaller
    /// values. This is the order shrinking descends.
    pub fn shortlex_cmp(&self, other: &Self) -> Ordering {
        shortlex(&self.0, &other.0)
    }

    /// A compact, copy-pasteable form (`SPECCHECK_REPLAY=...`), with no
    /// property tag (see [`to_tagged_replay_string`](Self::to_tagged_replay_string)).
    pub fn to_replay_string(&self) -> String {
        self.encode_replay(None)
    }

    /// The replay string of these choices as inputs of the property
    /// `tag` identifies: replaying it on another property is refused.
    pub fn to_tagged_replay_string(&self, tag: ReplayTag) -> String {
        self.encode_replay(Some(tag))
    }

    fn encode_replay(&self, tag: Option<ReplayTag>) -> String {
        let mut bytes = Vec::with_capacity(self.0.len() * 3 + 9);
        match tag {
            None => bytes.push(1u8), // format version 1: choices only
            Some(t) => {
                bytes.push(2u8); // version 2: the property's tag, then choices
                bytes.extend_from_slice(&t.property.to_le_bytes());
                bytes.extend_from_slice(&t.input.to_le_bytes());
            }
        }
        for c in &self.0 {
            bytes.push(c.kind.code());
            write_varint(&mut bytes, c.value);
            write_varint(&mut bytes, c.max);
        }
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
    }

    /// Parses a replay string, dropping its tag if it has one.
    pub fn from_replay_string(s: &str) -> Result<Self, ReplayParseError> {
        Self::parse_replay_string(s).map(|(_, seq)| seq)
    }

    /// Parses a replay string: the tag of the property it was made for
    /// (absent in untagged strings) and its choices.
    pub fn parse_replay_string(s: &str) -> Result<(Option<ReplayTag>, Self), ReplayParseError> {
        let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(s.trim())
            .map_err(|_| ReplayParseError("not base64url".into()))?;
        let (&version, mut rest) = bytes.split_first().ok_or_else(|| ReplayParseError("empty".into()))?;
        let tag = match version {
            1 => None,
            2 => {
                if rest.len() < 8 {
                    return Err(ReplayParseError("truncated property tag".into()));
                }
                let word = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                let tag = ReplayTag { property: word(&rest[..4]), input: word(&rest[4..8]) };
                rest = &rest[8..];
                Some(tag)
            }
            _ => return Err(ReplayParseError(format!("unknown format version {version}"))),
        };
        let mut out = Vec::new();
        while let Some((&code, tail)) = rest.split_first() {
            let kind =
                ChoiceKind::from_code(code).ok_or_else(|| ReplayParseError(format!("unknown choice kind {code}")))?;
            let (value, tail) = read_varint(tail)?;
            let (max, tail) = read_varint(tail)?;
            if value > max {
                return Err(ReplayParseError(format!("choice {value} exceeds its bound {max}")));
            }
            out.push(Choice { value, max, kind });
            rest = tail;
        }
        Ok((tag, ChoiceSequence(out)))
    }
}

/// What a replay string carries to tell which property it belongs to: a
/// hash of the property's name and one of its input type, so a string
/// given to another property (or to one whose generator changed type) is
/// refused instead of silently replaying something else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReplayTag {
    /// Hash of the property's name.
    pub property: u32,
    /// Hash of the type of its inputs.
    pub input: u32,
}

impl ReplayTag {
    /// The tag of the property `name` whose inputs have type `input_type`.
    pub fn new(name: &str, input_type: &str) -> Self {
        let fold = |h: u64| (h ^ (h >> 32)) as u32;
        ReplayTag {
            property: fold(crate::seed::fnv1a(name.as_bytes())),
            input: fold(crate::seed::fnv1a(input_type.as_bytes())),
        }
    }
}

impl fmt::Debug for ChoiceSequence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.values()).finish()
    }
}

impl From<Vec<Choice>> for ChoiceSequence {
    fn from(v: Vec<Choice>) -> Self {
        ChoiceSequence(v)
    }
}

/// Shortlex comparison of two choice slices (length, then values).
pub fn shortlex(a: &[Choice], b: &[Choice]) -> Ordering {
    a.len().cmp(&b.len()).then_with(|| a.iter().map(|c| c.value).cmp(b.iter().map(|c| c.value)))
}

/// True when `a` is shortlex-smaller than or equal to `b`.
pub fn shortlex_le(a: &[Choice], b: &[Choice]) -> bool {
    shortlex(a, b) != Ordering::Greater
}

/// A 64-bit fingerprint of a sequence's values (not its bounds), for sets
/// of inputs already tried: a multiply-rotate per value and a final mix. A
/// collision only makes a shrinker skip one candidate.
pub(crate) fn fingerprint(choices: &[Choice]) -> u64 {
    fingerprint_values(choices.iter().map(|c| c.value))
}

/// [`fingerprint`] of any sequence of numbers. Four lanes take the values
/// in turn, so the multiplications of consecutive values overlap instead
/// of waiting on each other (a shrinker fingerprints every candidate).
pub(crate) fn fingerprint_values(values: impl IntoIterator<Item = u64>) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut lanes = [0x243f_6a88_85a3_08d3u64, 0x1319_8a2e_0370_7344, 0xa409_3822_299f_31d0, 0x082e_fa98_ec4e_6c89];
    let mut n = 0u64;
    let mut values = values.into_iter();
    while let Some(a) = values.next() {
        lanes[0] = (lanes[0].rotate_left(26) ^ a).wrapping_mul(K);
        n += 1;
        let Some(b) = values.next() else { break };
        lanes[1] = (lanes[1].rotate_left(26) ^ b).wrapping_mul(K);
        n += 1;
        let Some(c) = values.next() else { break };
        lanes[2] = (lanes[2].rotate_left(26) ^ c).wrapping_mul(K);
        n += 1;
        let Some(d) = values.next() else { break };
        lanes[3] = (lanes[3].rotate_left(26) ^ d).wrapping_mul(K);
        n += 1;
    }
    // The lanes, the length, then splitmix64's finalizer: every input bit
    // reaches the low bits, which pick the hash table's bucket.
    let mut h = lanes.iter().fold(n, |h, &l| (h.rotate_left(23) ^ l).wrapping_mul(K));
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

/// A set of [`fingerprint`]s: they are hashes already, so the table uses
/// them as they are.
pub(crate) type FingerprintSet = std::collections::HashSet<u64, std::hash::BuildHasherDefault<PreHashed>>;

/// A `Hasher` for keys that are hashes already (`u64` only).
#[derive(Default)]
pub(crate) struct PreHashed(u64);

impl std::hash::Hasher for PreHashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys are hashed here; fold anything else in anyway.
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// A replay string that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayParseError(pub String);

impl fmt::Display for ReplayParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid replay string: {}", self.0)
    }
}

impl std::error::Error for ReplayParseError {}

fn write_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn read_varint(bytes: &[u8]) -> Result<(u64, &[u8]), ReplayParseError> {
    let mut v: u64 = 0;
    for (i, &b) in bytes.iter().enumerate().take(10) {
        v |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return Ok((v, &bytes[i + 1..]));
        }
    }
    Err(ReplayParseError("truncated number".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replay_string_round_trips() {
        let seq = ChoiceSequence(vec![
            Choice::new(0, 1, ChoiceKind::More),
            Choice::new(300, u64::MAX, ChoiceKind::Integer),
            Choice::new(u64::MAX, u64::MAX, ChoiceKind::Float),
            Choice::new(2, 4, ChoiceKind::Index),
        ]);
        let s = seq.to_replay_string();
        assert_eq!(ChoiceSequence::from_replay_string(&s).unwrap(), seq);
    }

    #[test]
    fn tagged_replay_strings_carry_their_property() {
        let seq = ChoiceSequence(vec![Choice::new(7, 9, ChoiceKind::Integer)]);
        let tag = ReplayTag::new("tests::p", "(u8,)");
        let s = seq.to_tagged_replay_string(tag);
        assert_eq!(ChoiceSequence::parse_replay_string(&s).unwrap(), (Some(tag), seq.clone()));
        assert_eq!(ChoiceSequence::parse_replay_string(&seq.to_replay_string()).unwrap(), (None, seq));
        assert_ne!(tag, ReplayTag::new("tests::q", "(u8,)"));
    }

    #[test]
    fn replay_string_rejects_garbage() {
        assert!(ChoiceSequence::from_replay_string("%%%").is_err());
        assert!(ChoiceSequence::from_replay_string("").is_err());
        // A value above its bound is rejected rather than replayed.
        let mut bytes = vec![1u8, 0];
        write_varint(&mut bytes, 9);
        write_varint(&mut bytes, 3);
        let s = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
        assert!(ChoiceSequence::from_replay_string(&s).is_err());
    }

    #[test]
    fn shortlex_prefers_shorter_then_smaller() {
        let c = |v| Choice::new(v, 10, ChoiceKind::Integer);
        assert_eq!(shortlex(&[c(9)], &[c(0), c(0)]), Ordering::Less);
        assert_eq!(shortlex(&[c(1), c(2)], &[c(1), c(3)]), Ordering::Less);
        assert_eq!(shortlex(&[c(1)], &[c(1)]), Ordering::Equal);
    }
}
