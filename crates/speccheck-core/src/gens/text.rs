//! Characters and strings from character classes (no regular expressions:
//! a class is a set of ranges).

use std::ops::RangeBounds;

use super::Generator;
use super::collections::SizeRange;
use crate::draw::char::CharClass;
use crate::draw::many::{Many, ManyWriter};
use crate::encode::{EncodeError, Encoder};
use crate::span::{SpanKind, TypeInfo};
use crate::test_case::TestCase;

/// Characters of a class; see [`chars_in`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CharsIn {
    class: CharClass,
}

/// Characters of `class`, shrinking toward its first one.
pub fn chars_in(class: CharClass) -> CharsIn {
    assert!(!class.is_empty(), "chars_in: empty class");
    CharsIn { class }
}

fn char_info() -> TypeInfo {
    TypeInfo::primitive::<char>()
}

fn string_info() -> TypeInfo {
    TypeInfo::primitive::<String>()
}

impl Generator for CharsIn {
    type Value = char;
    fn generate(&self, tc: &mut TestCase) -> char {
        tc.start_span(SpanKind::Value, char_info, "");
        let c = tc.draw_char_in(&self.class);
        tc.stop_span(SpanKind::Value);
        c
    }
    fn encode(&self, value: &char, enc: &mut Encoder) -> Result<(), EncodeError> {
        enc.write_char_in(*value, &self.class)
    }
}

/// Strings over a class; see [`string_of`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StringOf {
    class: CharClass,
    len: SizeRange,
}

/// Strings of `len` characters (in chars) from `class`.
#[track_caller]
pub fn string_of(class: CharClass, len: impl RangeBounds<usize>) -> StringOf {
    assert!(!class.is_empty(), "string_of: empty class");
    StringOf { class, len: SizeRange::from_bounds(&len).checked("gens::string_of") }
}

impl Generator for StringOf {
    type Value = String;
    fn generate(&self, tc: &mut TestCase) -> String {
        tc.start_span(SpanKind::Value, string_info, "");
        let mut many = Many::uniform(tc, self.len.min, self.len.max);
        let mut s = String::new();
        while many.more(tc) {
            s.push(tc.draw_char_in(&self.class));
        }
        tc.stop_span(SpanKind::Value);
        s
    }
    fn encode(&self, value: &String, enc: &mut Encoder) -> Result<(), EncodeError> {
        let mut w = ManyWriter::new(value.chars().count(), self.len.min, self.len.max)?;
        for c in value.chars() {
            w.element(enc);
            enc.write_char_in(c, &self.class)?;
        }
        w.finish(enc);
        Ok(())
    }
}
