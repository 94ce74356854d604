//! Choices from bytes: how a fuzzer's input becomes a test case.
//!
//! A coverage-guided fuzzer (libFuzzer, through `cargo fuzz`) hands a
//! target a byte string and mutates it. [`TestCase::from_bytes`] reads a
//! test case's choices from such a string, so any generator is a fuzz
//! target's input decoder and the fuzzer's mutations are mutations of
//! choices. The mapping is a fixed function of the bytes and the draws
//! (format 1, stable across runs and releases: a corpus saved today
//! decodes to the same choices tomorrow, as long as the generator draws
//! the same way):
//!
//! * A draw of `0..=max` reads a chunk of [`width`]`(max)` bytes: none for
//!   `max == 0`, 1 up to `0xff`, 2 up to `0xffff`, 4 up to `0xffff_ffff`,
//!   8 beyond. The chunk is a little-endian number `r`; the choice is `r`
//!   when `r <= max`, else `r % (max + 1)`. A value in range is its own
//!   bytes: an unsigned integer (whose choice is the value itself) appears
//!   verbatim in the input, where libFuzzer's comparison tracing finds and
//!   replaces it. One exception: a collection's "one more element?" is
//!   yes for any byte but `0`, so that a collection runs on until a zero
//!   byte or the end of the input (a `Vec<u8>` of an input of `2n` bytes
//!   with no zero in its back half is its first `n` bytes), as the
//!   fuzzer's own length mutations would have it.
//! * **Data** choices (integers, floats, characters) read their chunks
//!   from the front of the input, in order. **Structure** choices ("one
//!   more element?", booleans, which alternative) read theirs from the back,
//!   moving toward the front (the `arbitrary` crate takes collection
//!   lengths from the back the same way). A `Vec<u8>` is then its bytes,
//!   contiguous at the front, and its length decisions at the back, so a
//!   real file used as a seed keeps its content, and a mutation of the
//!   content does not reshape the value.
//! * When the two ends meet, the input is used up: a chunk cut short is
//!   read as if padded with zero bytes, and every later choice is `0`, the
//!   simplest. A short input is a simple test case, never an error.
//!
//! The inverse, [`to_bytes`], writes any choice sequence as the bytes
//! that decode to it (each value in its chunk, data in order at the
//! front, structure reversed at the back): a replay string becomes a
//! corpus entry, and a corpus entry's recorded choices become a replay
//! string again.
//!
//! [`TestCase::from_bytes`]: crate::TestCase::from_bytes

use crate::choice::{Choice, ChoiceKind};

/// The version of the byte → choice mapping described in this module.
pub const FORMAT: u32 = 1;

/// Bytes one draw of `0..=max` reads.
#[inline]
pub fn width(max: u64) -> usize {
    match max {
        0 => 0,
        1..=0xff => 1,
        0x100..=0xffff => 2,
        0x1_0000..=0xffff_ffff => 4,
        _ => 8,
    }
}

/// True for the choices that read from the back of the input (the shape
/// of a value: continuation, booleans, alternatives); the others (its
/// data) read from the front.
#[inline]
pub fn from_back(kind: ChoiceKind) -> bool {
    matches!(kind, ChoiceKind::More | ChoiceKind::Boolean | ChoiceKind::Index)
}

/// Reduces a chunk's number `raw` into `0..=max` for a choice of `kind`.
#[inline]
fn reduce(raw: u64, max: u64, kind: ChoiceKind) -> u64 {
    if raw <= max {
        raw
    } else if kind == ChoiceKind::More {
        1
    } else if max & (max + 1) == 0 {
        // `max + 1` a power of two (no overflow: `raw > max`, so `max <
        // u64::MAX`): the remainder without a division.
        raw & max
    } else {
        raw % (max + 1)
    }
}

/// The little-endian number of a whole chunk (`bytes.len()` a width).
#[inline]
fn whole_chunk(bytes: &[u8]) -> u64 {
    match *bytes {
        // The input used up: every later choice is the simplest.
        [] => 0,
        [a] => u64::from(a),
        [a, b] => u64::from(u16::from_le_bytes([a, b])),
        [a, b, c, d] => u64::from(u32::from_le_bytes([a, b, c, d])),
        [a, b, c, d, e, f, g, h] => u64::from_le_bytes([a, b, c, d, e, f, g, h]),
        _ => short_chunk(bytes),
    }
}

/// The little-endian number of a chunk cut short by the input's end: its
/// missing high bytes are zeros.
#[cold]
fn short_chunk(bytes: &[u8]) -> u64 {
    bytes.iter().rev().fold(0, |n, &b| (n << 8) | u64::from(b))
}

/// A fuzzer's input being read as choices (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct ByteStream {
    bytes: Vec<u8>,
    /// Next unread byte of the front.
    front: usize,
    /// One past the next unread byte of the back.
    back: usize,
}

impl ByteStream {
    /// A stream over `bytes`.
    pub fn new(bytes: &[u8]) -> Self {
        ByteStream { bytes: bytes.to_vec(), front: 0, back: bytes.len() }
    }

    /// The next choice of a draw of `0..=max` of `kind`.
    #[inline(always)]
    pub fn next(&mut self, max: u64, kind: ChoiceKind) -> u64 {
        let w = width(max);
        if w == 0 {
            return 0;
        }
        let n = w.min(self.back - self.front);
        let at = if from_back(kind) {
            self.back -= n;
            self.back
        } else {
            self.front += n;
            self.front - n
        };
        reduce(whole_chunk(&self.bytes[at..at + n]), max, kind)
    }

    /// Bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.back - self.front
    }
}

/// The bytes that decode to `choices` (the inverse of reading them with a
/// [`ByteStream`], for a generator that makes the same draws).
pub fn to_bytes(choices: &[Choice]) -> Vec<u8> {
    let mut front = Vec::new();
    let mut back = Vec::new();
    for c in choices {
        let w = width(c.max);
        // Each chunk holds the value's little-endian bytes. The back is
        // read from the end, a chunk's low byte first in memory: write it
        // reversed, then reverse the whole back once.
        let bytes = &c.value.to_le_bytes()[..w];
        if from_back(c.kind) {
            back.extend(bytes.iter().rev());
        } else {
            front.extend_from_slice(bytes);
        }
    }
    back.reverse();
    front.extend_from_slice(&back);
    front
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_follow_the_bound() {
        assert_eq!(width(0), 0);
        assert_eq!(width(1), 1);
        assert_eq!(width(255), 1);
        assert_eq!(width(256), 2);
        assert_eq!(width(0xffff), 2);
        assert_eq!(width(0x1_0000), 4);
        assert_eq!(width(0x10_ffff), 4);
        assert_eq!(width(u64::MAX), 8);
    }

    #[test]
    fn data_reads_the_front_and_structure_the_back() {
        let mut s = ByteStream::new(&[0x34, 0x12, 7, 1, 0]);
        assert_eq!(s.next(0xffff, ChoiceKind::Integer), 0x1234);
        assert_eq!(s.next(1, ChoiceKind::More), 0);
        assert_eq!(s.next(1, ChoiceKind::More), 1);
        assert_eq!(s.next(255, ChoiceKind::Integer), 7);
        assert_eq!(s.remaining(), 0);
        // Used up: the simplest choice, whatever the kind.
        assert_eq!(s.next(u64::MAX, ChoiceKind::Float), 0);
        assert_eq!(s.next(1, ChoiceKind::Boolean), 0);
    }

    #[test]
    fn out_of_range_chunks_wrap_and_short_chunks_pad() {
        let mut s = ByteStream::new(&[200]);
        assert_eq!(s.next(9, ChoiceKind::Integer), 200 % 10);
        let mut s = ByteStream::new(&[0xff, 0xff, 0x01]);
        assert_eq!(s.next(u64::from(u32::MAX), ChoiceKind::Integer), 0x01ffff);
        let mut s = ByteStream::new(&[5, 4]);
        assert_eq!(s.next(1, ChoiceKind::Boolean), 0);
        // "One more?" goes on for any byte but 0.
        assert_eq!(s.next(1, ChoiceKind::More), 1);
    }

    #[test]
    fn the_mapping_is_pinned() {
        // Format 1, as documented: changing these numbers breaks every
        // saved corpus.
        let bytes = [0x10, 0x27, 0, 0, 0x41, 0, 0, 0, 3, 0x80];
        let mut s = ByteStream::new(&bytes);
        let got = [
            s.next(u64::from(u32::MAX), ChoiceKind::Integer),
            s.next(1, ChoiceKind::More),
            s.next(0x10_ffff, ChoiceKind::Char),
            s.next(4, ChoiceKind::Index),
            s.next(1, ChoiceKind::More),
        ];
        assert_eq!(got, [10_000, 1, 0x41, 3, 0]);
    }

    #[test]
    fn bytes_of_choices_decode_to_them() {
        let cs = vec![
            Choice::new(1, 1, ChoiceKind::More),
            Choice::new(300, 0xffff, ChoiceKind::Integer),
            Choice::new(2, 4, ChoiceKind::Index),
            Choice::new(0, 0, ChoiceKind::Integer),
            Choice::new(u64::MAX - 3, u64::MAX, ChoiceKind::Float),
            Choice::new(0x1234, 0x10_ffff, ChoiceKind::Char),
            Choice::new(700, 1000, ChoiceKind::Index),
            Choice::new(0, 1, ChoiceKind::More),
        ];
        let bytes = to_bytes(&cs);
        assert_eq!(bytes.len(), 1 + 2 + 1 + 8 + 4 + 2 + 1);
        let mut s = ByteStream::new(&bytes);
        let back: Vec<u64> = cs.iter().map(|c| s.next(c.max, c.kind)).collect();
        assert_eq!(back, cs.iter().map(|c| c.value).collect::<Vec<_>>());
        assert_eq!(s.remaining(), 0);
    }

    /// The format's definition read literally: a chunk copied into eight
    /// zero bytes, then reduced with a division.
    struct Literal {
        bytes: Vec<u8>,
        front: usize,
        back: usize,
    }

    impl Literal {
        fn next(&mut self, max: u64, kind: ChoiceKind) -> u64 {
            let n = width(max).min(self.back - self.front);
            let mut chunk = [0u8; 8];
            if from_back(kind) {
                chunk[..n].copy_from_slice(&self.bytes[self.back - n..self.back]);
                self.back -= n;
            } else {
                chunk[..n].copy_from_slice(&self.bytes[self.front..self.front + n]);
                self.front += n;
            }
            let raw = u64::from_le_bytes(chunk);
            match (raw <= max, kind) {
                (true, _) => raw,
                (false, ChoiceKind::More) => 1,
                (false, _) => raw % (max + 1),
            }
        }
    }

    #[test]
    fn reading_agrees_with_the_format_read_literally() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        let kinds = [
            ChoiceKind::Integer,
            ChoiceKind::More,
            ChoiceKind::Index,
            ChoiceKind::Boolean,
            ChoiceKind::Char,
            ChoiceKind::Float,
        ];
        for _ in 0..2_000 {
            let len = rng.random_range(0..40);
            let bytes: Vec<u8> = (0..len).map(|_| rng.random()).collect();
            let (mut fast, mut literal) =
                (ByteStream::new(&bytes), Literal { bytes: bytes.clone(), front: 0, back: len });
            for _ in 0..30 {
                // Bounds of every width, powers of two and not.
                let max = match rng.random_range(0..4) {
                    0 => rng.random_range(0..300),
                    1 => (1u64 << rng.random_range(0..64)) - 1,
                    2 => u64::MAX >> rng.random_range(0..64),
                    _ => rng.random(),
                };
                let kind = kinds[rng.random_range(0..kinds.len())];
                let max = if matches!(kind, ChoiceKind::More | ChoiceKind::Boolean) { 1 } else { max };
                assert_eq!(fast.next(max, kind), literal.next(max, kind), "{bytes:?}, max {max}, {kind:?}");
            }
        }
    }
}
