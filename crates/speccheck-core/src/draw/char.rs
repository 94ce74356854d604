//! Characters as choices, in simplicity order: `a`–`z`, `A`–`Z`, `0`–`9`,
//! space and ASCII punctuation, ASCII control characters, then every other
//! Unicode scalar value in code point order (surrogates skipped).

use rand::Rng;

use crate::choice::ChoiceKind;
use crate::encode::{EncodeError, Encoder};
use crate::test_case::TestCase;

/// Number of Unicode scalar values.
const SCALARS: u64 = 0x11_0000 - 0x800;

/// ASCII in simplicity order.
const ASCII_ORDER: &[u8; 128] = &{
    let mut out = [0u8; 128];
    let mut n = 0;
    let mut c = b'a';
    while c <= b'z' {
        out[n] = c;
        n += 1;
        c += 1;
    }
    c = b'A';
    while c <= b'Z' {
        out[n] = c;
        n += 1;
        c += 1;
    }
    c = b'0';
    while c <= b'9' {
        out[n] = c;
        n += 1;
        c += 1;
    }
    c = 0x20;
    while c < 0x7f {
        if !c.is_ascii_alphanumeric() {
            out[n] = c;
            n += 1;
        }
        c += 1;
    }
    c = 0;
    while c < 0x20 {
        out[n] = c;
        n += 1;
        c += 1;
    }
    out[n] = 0x7f;
    out
};

const ASCII_RANK: [u8; 128] = {
    let mut rank = [0u8; 128];
    let mut i = 0;
    while i < 128 {
        rank[ASCII_ORDER[i] as usize] = i as u8;
        i += 1;
    }
    rank
};

/// Simplicity index of a character.
pub fn char_to_index(c: char) -> u64 {
    let cp = c as u32;
    if cp < 128 {
        ASCII_RANK[cp as usize] as u64
    } else if cp < 0xD800 {
        cp as u64
    } else {
        cp as u64 - 0x800
    }
}

/// Inverse of [`char_to_index`]; out-of-range indices clamp.
pub fn index_to_char(i: u64) -> char {
    let i = i.min(SCALARS - 1);
    let cp = if i < 128 {
        ASCII_ORDER[i as usize] as u32
    } else if i < 0xD800 {
        i as u32
    } else {
        i as u32 + 0x800
    };
    char::from_u32(cp).unwrap_or('a')
}

/// A set of characters: sorted, non-overlapping inclusive ranges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CharClass {
    ranges: Vec<(char, char)>,
    len: u64,
}

impl CharClass {
    /// The class of all characters in the given inclusive ranges.
    pub fn from_ranges(ranges: impl IntoIterator<Item = (char, char)>) -> Self {
        let mut rs: Vec<(char, char)> = ranges.into_iter().filter(|(a, b)| a <= b).collect();
        rs.sort();
        let mut merged: Vec<(char, char)> = Vec::new();
        for (a, b) in rs {
            match merged.last_mut() {
                Some((_, end)) if (*end as u32) + 1 >= a as u32 => {
                    if b > *end {
                        *end = b;
                    }
                }
                _ => merged.push((a, b)),
            }
        }
        let len = merged.iter().map(|&(a, b)| count(a, b)).sum();
        CharClass { ranges: merged, len }
    }

    /// The characters of `s`.
    pub fn from_chars(s: &str) -> Self {
        Self::from_ranges(s.chars().map(|c| (c, c)))
    }

    /// Number of characters in the class.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True for the empty class.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// True when `c` belongs to the class.
    pub fn contains(&self, c: char) -> bool {
        self.ranges.iter().any(|&(a, b)| a <= c && c <= b)
    }

    /// The `i`-th character of the class (in code point order).
    pub fn nth(&self, mut i: u64) -> char {
        for &(a, b) in &self.ranges {
            let n = count(a, b);
            if i < n {
                let mut cp = a as u32 + i as u32;
                if (a as u32) < 0xD800 && cp >= 0xD800 {
                    cp += 0x800;
                }
                return char::from_u32(cp).unwrap_or(a);
            }
            i -= n;
        }
        self.ranges.last().map_or('a', |r| r.1)
    }

    /// Position of `c` in the class.
    pub fn position(&self, c: char) -> Option<u64> {
        let mut base = 0;
        for &(a, b) in &self.ranges {
            if a <= c && c <= b {
                let mut off = c as u32 - a as u32;
                if (a as u32) < 0xD800 && c as u32 > 0xDFFF {
                    off -= 0x800;
                }
                return Some(base + off as u64);
            }
            base += count(a, b);
        }
        None
    }

    /// ASCII letters and digits.
    pub fn alphanumeric() -> Self {
        Self::from_ranges([('a', 'z'), ('A', 'Z'), ('0', '9')])
    }

    /// Printable ASCII (space to `~`).
    pub fn ascii_printable() -> Self {
        Self::from_ranges([(' ', '~')])
    }

    /// All of ASCII.
    pub fn ascii() -> Self {
        Self::from_ranges([('\0', '\x7f')])
    }

    /// Decimal digits.
    pub fn digits() -> Self {
        Self::from_ranges([('0', '9')])
    }

    /// Lowercase ASCII letters.
    pub fn lowercase() -> Self {
        Self::from_ranges([('a', 'z')])
    }
}

fn count(a: char, b: char) -> u64 {
    let n = b as u64 - a as u64 + 1;
    if (a as u32) < 0xD800 && (b as u32) > 0xDFFF { n - 0x800 } else { n }
}

fn sample_any(rng: &mut rand::rngs::SmallRng) -> u64 {
    match rng.random_range(0..100u32) {
        0..=54 => rng.random_range(0..62),    // letters and digits
        55..=74 => rng.random_range(0..95),   // printable ASCII
        75..=79 => rng.random_range(95..128), // control characters
        80..=84 => char_to_index(
            ['\u{0}', '\u{FFFD}', '\u{FEFF}', 'é', 'ß', '😀', '\u{10FFFF}', '\u{202E}'][rng.random_range(0..8)],
        ),
        85..=94 => rng.random_range(128..0x3000), // Latin, Greek, Cyrillic, CJK punctuation…
        _ => rng.random_range(0..SCALARS),
    }
}

impl TestCase {
    /// Any Unicode scalar value.
    pub fn draw_char(&mut self) -> char {
        let i = self.draw_raw(SCALARS - 1, ChoiceKind::Char, |rng, _| sample_any(rng), |b| u64::from(b).max(1));
        index_to_char(i)
    }

    /// A character of `class` (which must not be empty).
    pub fn draw_char_in(&mut self, class: &CharClass) -> char {
        assert!(!class.is_empty(), "draw_char_in: empty character class");
        let max = class.len() - 1;
        if max == 0 {
            return class.nth(0);
        }
        let i = self.draw_raw(max, ChoiceKind::Char, |rng, _| rng.random_range(0..=max), |b| u64::from(b).max(1));
        class.nth(i)
    }
}

impl Encoder {
    /// Twin of [`TestCase::draw_char`].
    pub fn write_char(&mut self, c: char) {
        self.write_raw(char_to_index(c), SCALARS - 1, ChoiceKind::Char);
    }

    /// Twin of [`TestCase::draw_char_in`].
    pub fn write_char_in(&mut self, c: char, class: &CharClass) -> Result<(), EncodeError> {
        let i = class
            .position(c)
            .ok_or_else(|| EncodeError::OutOfRange { value: format!("{c:?}"), range: format!("{class:?}") })?;
        if class.len() > 1 {
            self.write_raw(i, class.len() - 1, ChoiceKind::Char);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn char_index_is_a_bijection() {
        for i in (0..SCALARS).step_by(97).chain(0..300).chain([0xD7FF, 0xD800, SCALARS - 1]) {
            assert_eq!(char_to_index(index_to_char(i)), i);
        }
        assert_eq!(index_to_char(0), 'a');
        assert_eq!(index_to_char(26), 'A');
    }

    #[test]
    fn classes_index_their_members() {
        let class = CharClass::from_ranges([('a', 'c'), ('x', 'z'), ('\u{D7FE}', '\u{E001}')]);
        assert_eq!(class.len(), 6 + 2 + 2);
        for i in 0..class.len() {
            let c = class.nth(i);
            assert!(class.contains(c));
            assert_eq!(class.position(c), Some(i));
        }
    }
}
