//! `one_of` and `frequency`: choose among generators of the same type. The
//! branch index is a choice (shrinking prefers earlier branches) and the
//! branch is recorded as the span's constructor, so existential
//! generalization can ask whether every branch fails.

use super::{BoxedGenerator, Generator};
use crate::encode::{EncodeError, Encoder};
use crate::span::{SpanKind, no_type};
use crate::test_case::TestCase;

/// See [`one_of`] and [`frequency`].
#[derive(Clone, Debug)]
pub struct OneOf<T> {
    options: Vec<BoxedGenerator<T>>,
    weights: Option<Vec<u32>>,
}

/// Uniformly one of `options` (at least one).
pub fn one_of<T>(options: Vec<BoxedGenerator<T>>) -> OneOf<T> {
    assert!(!options.is_empty(), "one_of: no options");
    OneOf { options, weights: None }
}

/// One of `options`, picked with the given weights.
pub fn frequency<T>(options: Vec<(u32, BoxedGenerator<T>)>) -> OneOf<T> {
    assert!(!options.is_empty(), "frequency: no options");
    let (weights, options) = options.into_iter().unzip();
    OneOf { options, weights: Some(weights) }
}

impl<T> Generator for OneOf<T> {
    type Value = T;
    fn generate(&self, tc: &mut TestCase) -> T {
        tc.start_span(SpanKind::Group, no_type, "one_of");
        let i = match &self.weights {
            Some(w) => tc.draw_weighted(w),
            None => tc.draw_index(self.options.len()),
        };
        tc.set_constructor(i);
        let v = self.options[i].generate(tc);
        tc.stop_span(SpanKind::Group);
        v
    }
    fn encode(&self, value: &T, enc: &mut Encoder) -> Result<(), EncodeError> {
        // The first branch that can produce the value wins.
        for (i, g) in self.options.iter().enumerate() {
            let mut sub = Encoder::new();
            if g.encode(value, &mut sub).is_ok() {
                enc.write_index(i, self.options.len())?;
                for c in sub.choices() {
                    enc.write_raw(c.value, c.max, c.kind);
                }
                return Ok(());
            }
        }
        Err(EncodeError::Other("no branch of one_of can produce the value".into()))
    }
}
