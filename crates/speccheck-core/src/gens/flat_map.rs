//! `flat_map`: dependent generation. Both stages draw from the same test
//! case, so shrinking the first stage's choices re-runs the second stage on
//! the new value — the case proptest's per-value shrinkers cannot handle.

use std::fmt;

use super::Generator;
use crate::test_case::TestCase;

/// See [`Generator::flat_map`].
#[derive(Clone)]
pub struct FlatMap<G, F> {
    inner: G,
    f: F,
}

impl<G, F> FlatMap<G, F> {
    pub(crate) fn new(inner: G, f: F) -> Self {
        FlatMap { inner, f }
    }
}

impl<G: fmt::Debug, F> fmt::Debug for FlatMap<G, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FlatMap").field("inner", &self.inner).finish_non_exhaustive()
    }
}

impl<G: Generator, H: Generator, F: Fn(G::Value) -> H + Send + Sync> Generator for FlatMap<G, F> {
    type Value = H::Value;
    fn generate(&self, tc: &mut TestCase) -> H::Value {
        let first = self.inner.generate(tc);
        (self.f)(first).generate(tc)
    }
}
