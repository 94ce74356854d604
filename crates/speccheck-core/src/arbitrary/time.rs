//! `Duration`: whole seconds and nanoseconds, both shrinking toward 0.

use std::time::Duration;

use super::Arbitrary;
use super::leaf::opaque_debug;
use crate::encode::{EncodeError, Encoder};
use crate::span::TypeInfo;
use crate::test_case::TestCase;

const MAX_NANOS: u32 = 999_999_999;

impl Arbitrary for Duration {
    fn type_info() -> TypeInfo {
        TypeInfo::primitive::<Duration>()
    }
    fn draw(tc: &mut TestCase) -> Self {
        let secs = tc.draw_int(0, u64::MAX);
        Duration::new(secs, tc.draw_int(0, MAX_NANOS))
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        enc.write_int(self.as_secs(), 0, u64::MAX)?;
        enc.write_int(self.subsec_nanos(), 0, MAX_NANOS)
    }
}

opaque_debug!(Duration);
