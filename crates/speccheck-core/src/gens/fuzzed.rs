//! The bridge from fuzzing code: any type implementing
//! [`arbitrary::Arbitrary`] (what `cargo fuzz` targets take) as a
//! generator, [`from_arbitrary`], or as a property argument, [`Fuzzed`].
//!
//! The value is built by `arbitrary` from a byte string whose bytes are
//! choices, as a fuzzer builds it from its input: shrinking deletes and
//! lowers bytes, which shortens and simplifies what `arbitrary` builds.
//! Such values cannot be encoded back (`arbitrary` has no inverse).

use std::fmt;
use std::marker::PhantomData;

use super::Generator;
use crate::arbitrary::Arbitrary;
use crate::draw::many::Many;
use crate::encode::{EncodeError, Encoder};
use crate::span::TypeInfo;
use crate::test_case::{Invalid, TestCase};

/// Most bytes one value is built from.
const MAX_BYTES: usize = 1 << 16;
/// Bytes per unit of the size parameter: early cases build from a few
/// bytes (small values), later ones from up to a few hundred.
const BYTES_PER_SIZE: usize = 8;

/// Values of an `arbitrary::Arbitrary` type; see [`from_arbitrary`].
pub struct FromArbitrary<T>(PhantomData<fn() -> T>);

impl<T> Clone for FromArbitrary<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for FromArbitrary<T> {}

impl<T> fmt::Debug for FromArbitrary<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "from_arbitrary::<{}>()", std::any::type_name::<T>())
    }
}

/// Values of `T` built by its `arbitrary::Arbitrary` implementation from
/// drawn bytes. A value `arbitrary` refuses to build (`IncorrectFormat`)
/// makes the case invalid, as a rejected input, not a failure.
pub fn from_arbitrary<T: for<'a> arbitrary::Arbitrary<'a>>() -> FromArbitrary<T> {
    FromArbitrary(PhantomData)
}

impl<T: for<'a> arbitrary::Arbitrary<'a>> Generator for FromArbitrary<T> {
    type Value = T;
    fn generate(&self, tc: &mut TestCase) -> T {
        let size = tc.size().saturating_mul(BYTES_PER_SIZE);
        let mut many = Many::with_size(tc, 0, MAX_BYTES, size);
        let mut bytes = Vec::with_capacity(many.target());
        while many.more(tc) {
            bytes.push(tc.draw_int(0u8, u8::MAX));
        }
        match T::arbitrary_take_rest(arbitrary::Unstructured::new(&bytes)) {
            Ok(v) => v,
            Err(e) => tc.mark_invalid(Invalid::Other(format!(
                "arbitrary::Arbitrary for {} refused the bytes: {e}",
                std::any::type_name::<T>()
            ))),
        }
    }
    fn encode(&self, _: &T, _: &mut Encoder) -> Result<(), EncodeError> {
        Err(EncodeError::Other("a value built by `arbitrary` cannot be encoded back into bytes".into()))
    }
}

/// A property argument of any `arbitrary::Arbitrary` type: write
/// `Fuzzed<MyInput>` where a speccheck [`Arbitrary`] type would go (speccheck
/// cannot implement its own trait for every such type). Prints as the
/// value it holds.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Fuzzed<T>(pub T);

impl<T: fmt::Debug> fmt::Debug for Fuzzed<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<T> std::ops::Deref for Fuzzed<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: for<'a> arbitrary::Arbitrary<'a> + 'static> Arbitrary for Fuzzed<T> {
    fn type_info() -> TypeInfo {
        TypeInfo::primitive::<T>()
    }
    fn draw(tc: &mut TestCase) -> Self {
        Fuzzed(from_arbitrary::<T>().generate(tc))
    }
    fn encode(&self, _: &mut Encoder) -> Result<(), EncodeError> {
        Err(EncodeError::Other("a value built by `arbitrary` cannot be encoded back into bytes".into()))
    }
}

crate::arbitrary::opaque_debug!({T: fmt::Debug + 'static} Fuzzed<T>);
