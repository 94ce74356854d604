//! `char` and `String`.

use super::Arbitrary;
use super::num::opaque_leaf;
use crate::draw::many::{Many, ManyWriter};
use crate::encode::{EncodeError, Encoder};
use crate::span::TypeInfo;
use crate::test_case::TestCase;

impl Arbitrary for char {
    fn type_info() -> TypeInfo {
        TypeInfo::primitive::<char>()
    }
    fn draw(tc: &mut TestCase) -> Self {
        tc.draw_char()
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        enc.write_char(*self);
        Ok(())
    }
}

opaque_leaf!(char, String);

impl Arbitrary for String {
    fn type_info() -> TypeInfo {
        TypeInfo::primitive::<String>()
    }
    fn draw(tc: &mut TestCase) -> Self {
        let mut many = Many::new(tc, 0, usize::MAX);
        let mut s = String::new();
        while many.more(tc) {
            s.push(tc.draw_char());
        }
        s
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        let mut w = ManyWriter::new(self.chars().count(), 0, usize::MAX)?;
        for c in self.chars() {
            w.element(enc);
            enc.write_char(c);
        }
        w.finish(enc);
        Ok(())
    }
}
