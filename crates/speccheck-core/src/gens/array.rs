//! Fixed-size arrays of generated values.

use super::Generator;
use crate::encode::{EncodeError, Encoder};
use crate::span::{SpanKind, TypeInfo};
use crate::test_case::TestCase;

/// See [`array()`].
#[derive(Clone, Debug)]
pub struct Array<G, const N: usize>(G);

/// `[T; N]` with every element from `elem`.
pub fn array<G: Generator, const N: usize>(elem: G) -> Array<G, N> {
    Array(elem)
}

fn info<T: 'static>() -> TypeInfo {
    TypeInfo::of::<T>(&[], false)
}

impl<G: Generator, const N: usize> Generator for Array<G, N>
where
    G::Value: 'static,
{
    type Value = [G::Value; N];
    fn generate(&self, tc: &mut TestCase) -> Self::Value {
        tc.start_span(SpanKind::Value, info::<Self::Value>, "");
        let v = std::array::from_fn(|_| self.0.generate(tc));
        tc.stop_span(SpanKind::Value);
        v
    }
    fn encode(&self, value: &Self::Value, enc: &mut Encoder) -> Result<(), EncodeError> {
        value.iter().try_for_each(|x| self.0.encode(x, enc))
    }
}
