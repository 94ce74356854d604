//! `map` and `map_inv`: transform generated values.

use std::fmt;

use super::Generator;
use crate::encode::{EncodeError, Encoder};
use crate::span::{MAP_SPAN, SpanKind, no_type};
use crate::test_case::TestCase;

/// See [`Generator::map`].
#[derive(Clone)]
pub struct Map<G, F> {
    inner: G,
    f: F,
}

impl<G, F> Map<G, F> {
    pub(crate) fn new(inner: G, f: F) -> Self {
        Map { inner, f }
    }
}

impl<G: fmt::Debug, F> fmt::Debug for Map<G, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Map").field("inner", &self.inner).finish_non_exhaustive()
    }
}

impl<G: Generator, U, F: Fn(G::Value) -> U + Send + Sync> Generator for Map<G, F> {
    type Value = U;
    #[inline]
    fn generate(&self, tc: &mut TestCase) -> U {
        tc.start_span(SpanKind::Group, no_type, MAP_SPAN);
        let v = self.inner.generate(tc);
        tc.stop_span(SpanKind::Group);
        (self.f)(v)
    }
}

/// See [`Generator::map_inv`].
#[derive(Clone)]
pub struct MapInv<G, F, I> {
    inner: G,
    f: F,
    inv: I,
}

impl<G, F, I> MapInv<G, F, I> {
    pub(crate) fn new(inner: G, f: F, inv: I) -> Self {
        MapInv { inner, f, inv }
    }
}

impl<G: fmt::Debug, F, I> fmt::Debug for MapInv<G, F, I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MapInv").field("inner", &self.inner).finish_non_exhaustive()
    }
}

impl<G, U, F, I> Generator for MapInv<G, F, I>
where
    G: Generator,
    F: Fn(G::Value) -> U + Send + Sync,
    I: Fn(&U) -> Option<G::Value> + Send + Sync,
{
    type Value = U;
    fn generate(&self, tc: &mut TestCase) -> U {
        tc.start_span(SpanKind::Group, no_type, MAP_SPAN);
        let v = self.inner.generate(tc);
        tc.stop_span(SpanKind::Group);
        (self.f)(v)
    }
    fn encode(&self, value: &U, enc: &mut Encoder) -> Result<(), EncodeError> {
        let pre = (self.inv)(value)
            .ok_or_else(|| EncodeError::Other("the inverse of `map_inv` rejected the value".into()))?;
        self.inner.encode(&pre, enc)
    }
}
