//! `sized` and `resize`: generators that read or set the size parameter.

use super::Generator;
use crate::encode::{EncodeError, Encoder};
use crate::test_case::TestCase;

/// See [`sized`].
#[derive(Clone)]
pub struct SizedGen<F>(F);

impl<F> std::fmt::Debug for SizedGen<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("sized(..)")
    }
}

/// A generator chosen from the current size parameter (QuickCheck's
/// `sized`).
pub fn sized<G: Generator, F: Fn(usize) -> G + Send + Sync>(f: F) -> SizedGen<F> {
    SizedGen(f)
}

impl<G: Generator, F: Fn(usize) -> G + Send + Sync> Generator for SizedGen<F> {
    type Value = G::Value;
    fn generate(&self, tc: &mut TestCase) -> G::Value {
        let size = tc.size();
        (self.0)(size).generate(tc)
    }
}

/// See [`resize`].
#[derive(Clone, Debug)]
pub struct Resize<G> {
    inner: G,
    size: usize,
}

/// Runs `inner` with the size parameter set to `size`.
pub fn resize<G: Generator>(inner: G, size: usize) -> Resize<G> {
    Resize { inner, size }
}

impl<G: Generator> Generator for Resize<G> {
    type Value = G::Value;
    fn generate(&self, tc: &mut TestCase) -> G::Value {
        tc.scoped_size(self.size, |tc| self.inner.generate(tc))
    }
    fn encode(&self, value: &G::Value, enc: &mut Encoder) -> Result<(), EncodeError> {
        self.inner.encode(value, enc)
    }
}
