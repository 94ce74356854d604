//! `PathBuf` and `OsString`. A path is drawn as components joined by `/`
//! (a leading empty component makes it absolute), so deleting a component
//! shrinks it.

use std::ffi::OsString;
use std::path::PathBuf;

use super::Arbitrary;
use super::leaf::opaque_debug;
use crate::encode::{EncodeError, Encoder};
use crate::span::TypeInfo;
use crate::test_case::TestCase;

impl Arbitrary for PathBuf {
    fn type_info() -> TypeInfo {
        TypeInfo::primitive::<Self>()
    }
    fn draw(tc: &mut TestCase) -> Self {
        PathBuf::from(Vec::<String>::generate(tc).join("/"))
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        let Some(s) = self.to_str() else {
            return Err(EncodeError::Other("a path that is not UTF-8 is never generated".into()));
        };
        let parts: Vec<String> = if s.is_empty() { Vec::new() } else { s.split('/').map(str::to_owned).collect() };
        parts.encode(enc)
    }
}
opaque_debug!(PathBuf);

impl Arbitrary for OsString {
    fn type_info() -> TypeInfo {
        TypeInfo::primitive::<Self>()
    }
    fn draw(tc: &mut TestCase) -> Self {
        OsString::from(String::generate(tc))
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        match self.to_str() {
            Some(s) => s.to_owned().encode(enc),
            None => Err(EncodeError::Other("an OsString that is not UTF-8 is never generated".into())),
        }
    }
}
opaque_debug!(OsString);
