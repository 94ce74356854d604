//! `filter`: keep values satisfying a predicate, within a bounded number of
//! tries; a filter that never succeeds makes the case invalid with its name
//! (never a hang), and the runner reports it if it keeps happening.

use std::fmt;

use super::Generator;
use crate::encode::{EncodeError, Encoder};
use crate::span::{SpanKind, no_type};
use crate::test_case::{Invalid, TestCase};

/// How many candidates a filter draws before giving up on the case.
pub const DEFAULT_FILTER_TRIES: u32 = 100;

/// See [`Generator::filter`].
#[derive(Clone)]
pub struct Filter<G, F> {
    inner: G,
    name: &'static str,
    pred: F,
    tries: u32,
}

impl<G, F> Filter<G, F> {
    pub(crate) fn new(inner: G, name: &'static str, pred: F) -> Self {
        Filter { inner, name, pred, tries: DEFAULT_FILTER_TRIES }
    }

    /// Sets how many candidates to draw before the case is invalid.
    pub fn tries(mut self, tries: u32) -> Self {
        self.tries = tries.max(1);
        self
    }
}

impl<G: fmt::Debug, F> fmt::Debug for Filter<G, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Filter").field("name", &self.name).field("inner", &self.inner).finish_non_exhaustive()
    }
}

impl<G: Generator, F: Fn(&G::Value) -> bool + Send + Sync> Generator for Filter<G, F> {
    type Value = G::Value;
    fn generate(&self, tc: &mut TestCase) -> G::Value {
        for _ in 0..self.tries {
            // Each attempt is a group, so the shrinker can delete rejected
            // attempts as a whole.
            let before = tc.reach();
            tc.start_span(SpanKind::Group, no_type, self.name);
            let v = self.inner.generate(tc);
            tc.stop_span(SpanKind::Group);
            if (self.pred)(&v) {
                return v;
            }
            tc.reject_drawn_since(before);
        }
        tc.mark_invalid(Invalid::FilterExhausted { name: self.name.to_string(), tries: self.tries })
    }
    fn encode(&self, value: &G::Value, enc: &mut Encoder) -> Result<(), EncodeError> {
        if !(self.pred)(value) {
            return Err(EncodeError::Other(format!("value rejected by filter `{}`", self.name)));
        }
        self.inner.encode(value, enc)
    }
}
