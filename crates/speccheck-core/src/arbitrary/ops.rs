//! `Ordering`, `Bound`, `Range` and `RangeInclusive`.

use std::cmp::Ordering;
use std::fmt::Debug;
use std::ops::{Bound, Range, RangeInclusive};

use super::Arbitrary;
use super::leaf::opaque_debug;
use crate::encode::{EncodeError, Encoder};
use crate::span::TypeInfo;
use crate::test_case::TestCase;

/// `Equal` first: the simplest answer shrinking heads for.
const ORDERINGS: [Ordering; 3] = [Ordering::Equal, Ordering::Less, Ordering::Greater];

impl Arbitrary for Ordering {
    fn type_info() -> TypeInfo {
        TypeInfo::primitive::<Self>()
    }
    fn draw(tc: &mut TestCase) -> Self {
        ORDERINGS[tc.draw_index(3)]
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        let i = ORDERINGS.iter().position(|o| o == self).expect("every ordering is listed");
        enc.write_index(i, 3)
    }
}
opaque_debug!(Ordering);

/// `Unbounded` first (the simplest), then `Included`, then `Excluded`.
impl<T: Arbitrary> Arbitrary for Bound<T> {
    fn type_info() -> TypeInfo {
        TypeInfo::primitive::<Self>()
    }
    fn draw(tc: &mut TestCase) -> Self {
        match tc.draw_index(3) {
            0 => Bound::Unbounded,
            1 => Bound::Included(T::generate(tc)),
            _ => Bound::Excluded(T::generate(tc)),
        }
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        match self {
            Bound::Unbounded => enc.write_index(0, 3),
            Bound::Included(v) => {
                enc.write_index(1, 3)?;
                v.encode(enc)
            }
            Bound::Excluded(v) => {
                enc.write_index(2, 3)?;
                v.encode(enc)
            }
        }
    }
}
opaque_debug!({T: Debug + 'static} Bound<T>);

/// Two values, the smaller first (as proptest orders them), so ranges are
/// never backwards; equal ends make an empty `Range`.
fn ordered<T: Arbitrary + PartialOrd>(tc: &mut TestCase) -> (T, T) {
    let (a, b) = (T::generate(tc), T::generate(tc));
    if b < a { (b, a) } else { (a, b) }
}

impl<T: Arbitrary + PartialOrd> Arbitrary for Range<T> {
    fn type_info() -> TypeInfo {
        TypeInfo::primitive::<Self>()
    }
    fn draw(tc: &mut TestCase) -> Self {
        let (a, b) = ordered(tc);
        a..b
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        if self.end < self.start {
            return Err(EncodeError::Other("a backwards range is never generated".into()));
        }
        self.start.encode(enc)?;
        self.end.encode(enc)
    }
}
opaque_debug!({T: Debug + 'static} Range<T>);

impl<T: Arbitrary + PartialOrd> Arbitrary for RangeInclusive<T> {
    fn type_info() -> TypeInfo {
        TypeInfo::primitive::<Self>()
    }
    fn draw(tc: &mut TestCase) -> Self {
        let (a, b) = ordered(tc);
        a..=b
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        if self.end() < self.start() {
            return Err(EncodeError::Other("a backwards range is never generated".into()));
        }
        self.start().encode(enc)?;
        self.end().encode(enc)
    }
}
opaque_debug!({T: Debug + 'static} RangeInclusive<T>);
