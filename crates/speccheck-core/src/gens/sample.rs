//! Picking from given values: [`select`] one of them, a [`subsequence`]
//! of them, or a [`shuffle`] of a generated `Vec`. Every pick is an index
//! or a yes/no choice drawn uniformly, so a pool of values is sampled
//! evenly (unlike indexing it with [`ints`](super::ints), whose draws lean
//! toward the ends) and shrinks toward its first values, kept in order.

use rand::Rng;

use super::Generator;
use super::collections::{SizeRange, elem_info};
use crate::choice::ChoiceKind;
use crate::encode::{EncodeError, Encoder};
use crate::span::SpanKind;
use crate::test_case::TestCase;

/// One of a fixed list of values; see [`select`].
#[derive(Clone, Debug)]
pub struct Select<T> {
    values: Vec<T>,
}

/// One of `values`, each equally likely; shrinks toward the first.
/// proptest's `sample::select`, Hypothesis's `sampled_from`. Panics, at the
/// caller, when `values` is empty.
#[track_caller]
pub fn select<T: Clone + PartialEq + Send + Sync>(values: impl Into<Vec<T>>) -> Select<T> {
    let values = values.into();
    assert!(!values.is_empty(), "gens::select: no values to choose from");
    Select { values }
}

/// Hypothesis's name for [`select`].
#[track_caller]
pub fn sampled_from<T: Clone + PartialEq + Send + Sync>(values: impl Into<Vec<T>>) -> Select<T> {
    select(values)
}

impl<T: Clone + PartialEq + Send + Sync> Generator for Select<T> {
    type Value = T;
    fn generate(&self, tc: &mut TestCase) -> T {
        self.values[tc.draw_index(self.values.len())].clone()
    }
    fn encode(&self, value: &T, enc: &mut Encoder) -> Result<(), EncodeError> {
        match self.values.iter().position(|v| v == value) {
            Some(i) => enc.write_index(i, self.values.len()),
            None => Err(EncodeError::Other("`select` only produces the values it was given".into())),
        }
    }
}

/// Indices in `0..n`, uniformly; see [`index`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Index(usize);

/// An index in `0..n`, each equally likely, shrinking toward 0: for
/// picking from a pool of values that are not `PartialEq` (`pool[i]`).
/// proptest's `sample::Index`. Panics, at the caller, when `n` is 0.
#[track_caller]
pub fn index(n: usize) -> Index {
    assert!(n > 0, "gens::index(0): no index is below 0");
    Index(n)
}

impl Generator for Index {
    type Value = usize;
    fn generate(&self, tc: &mut TestCase) -> usize {
        tc.draw_index(self.0)
    }
    fn encode(&self, value: &usize, enc: &mut Encoder) -> Result<(), EncodeError> {
        enc.write_index(*value, self.0)
    }
}

/// Order-keeping selections of a fixed list; see [`subsequence`].
#[derive(Clone, Debug)]
pub struct Subsequence<T> {
    values: Vec<T>,
    len: SizeRange,
}

/// Some of `values`, in their order, with a length in `len` (uniform, and
/// every selection of one length equally likely). Each kept value is a
/// "more?" choice and its position, so shrinking drops values and moves
/// the kept ones toward the front. proptest's
/// `sample::subsequence`. Panics, at the caller, when `len` allows no
/// length between 0 and the number of values.
#[track_caller]
pub fn subsequence<T: Clone + PartialEq + Send + Sync>(
    values: impl Into<Vec<T>>,
    len: impl Into<SizeRange>,
) -> Subsequence<T> {
    let values = values.into();
    let len = len.into().checked("gens::subsequence");
    let len = SizeRange { min: len.min, max: len.max.min(values.len()) };
    assert!(
        len.min <= len.max,
        "gens::subsequence: {} values cannot make a subsequence of at least {} of them",
        values.len(),
        len.min
    );
    Subsequence { values, len }
}

impl<T> Subsequence<T> {
    /// The last position value number `kept` may come from: enough values
    /// must be left after it for the minimum length. (Positions before the
    /// one after the last kept value count as that one.)
    fn last_position(&self, kept: usize) -> usize {
        self.values.len() - 1 - self.len.min.saturating_sub(kept + 1)
    }

    /// Whether a "more?" choice is drawn before value number `kept`
    /// (`None`: no more can be kept, `Some(false)`: the minimum keeps it).
    /// It is drawn even when no value is left to keep (a "yes" then keeps
    /// nothing): every selection of a length then ends the same way, so
    /// the shrinker weighs selections by their positions alone.
    fn asks_more(&self, kept: usize) -> Option<bool> {
        if kept >= self.len.max { None } else { Some(kept >= self.len.min) }
    }
}

impl<T: Clone + PartialEq + Send + Sync + 'static> Generator for Subsequence<T> {
    type Value = Vec<T>;
    fn generate(&self, tc: &mut TestCase) -> Vec<T> {
        // When sampling, the selection is planned up front (a uniform length,
        // then a uniform set of positions of that length) and the choices
        // answer to the plan; replay reads them back.
        let (n, SizeRange { min, max }) = (self.values.len(), self.len);
        let plan = tc.pre_sample(|rng, _| {
            let k = rng.random_range(min..=max);
            // Floyd's algorithm: k distinct positions, every set equally likely.
            let mut picks = std::collections::BTreeSet::new();
            for j in n - k..n {
                let t = rng.random_range(0..=j);
                if !picks.insert(t) {
                    picks.insert(j);
                }
            }
            picks.into_iter().collect::<Vec<usize>>()
        });
        let mut out = Vec::new();
        let mut pos = 0;
        while let Some(asks) = self.asks_more(out.len()) {
            tc.start_span(SpanKind::Slot, elem_info::<T>, "");
            if asks {
                let planned = plan.as_ref().is_some_and(|p| out.len() < p.len());
                if tc.draw_raw(1, ChoiceKind::More, |_, _| u64::from(planned), |_| 2) == 0 || pos >= n {
                    tc.cancel_span(SpanKind::Slot);
                    break;
                }
            }
            // The position itself, not the gap from the last one: deleting a
            // kept value leaves the later ones where they were.
            let last = self.last_position(out.len());
            let planned = plan.as_ref().and_then(|p| p.get(out.len())).map_or(0, |&at| at as u64);
            let at = if last == 0 {
                0
            } else {
                tc.draw_raw(last as u64, ChoiceKind::Index, |_, _| planned, |_| last as u64 + 1) as usize
            };
            pos = at.clamp(pos, last);
            out.push(self.values[pos].clone());
            pos += 1;
            tc.stop_span(SpanKind::Slot);
        }
        out
    }
    fn encode(&self, value: &Vec<T>, enc: &mut Encoder) -> Result<(), EncodeError> {
        let not_one =
            || EncodeError::Other("the value is not a subsequence of the given values with a length in range".into());
        if value.len() < self.len.min || value.len() > self.len.max {
            return Err(not_one());
        }
        // The earliest matching positions: the simplest gaps, and the most
        // room left for the values still to match.
        let mut pos = 0;
        for (kept, v) in value.iter().enumerate() {
            if self.asks_more(kept).ok_or_else(not_one)? {
                enc.write_raw(1, 1, ChoiceKind::More);
            }
            let at = pos + self.values[pos..].iter().position(|w| w == v).ok_or_else(not_one)?;
            let last = self.last_position(kept);
            if at > last {
                return Err(not_one());
            }
            if last > 0 {
                enc.write_index(at, last + 1)?;
            }
            pos = at + 1;
        }
        if self.asks_more(value.len()) == Some(true) {
            enc.write_raw(0, 1, ChoiceKind::More);
        }
        Ok(())
    }
}

/// Permutations of generated `Vec`s; see [`shuffle`].
#[derive(Clone, Debug)]
pub struct Shuffle<G>(G);

/// The `Vec`s of `g` in a random order: a Fisher–Yates shuffle whose
/// swaps are index choices, so shrinking undoes swaps back toward `g`'s
/// own order. proptest's `prop_shuffle`.
pub fn shuffle<T, G: Generator<Value = Vec<T>>>(g: G) -> Shuffle<G> {
    Shuffle(g)
}

impl<T, G: Generator<Value = Vec<T>>> Generator for Shuffle<G> {
    type Value = Vec<T>;
    fn generate(&self, tc: &mut TestCase) -> Vec<T> {
        let mut v = self.0.generate(tc);
        let n = v.len();
        for i in 0..n.saturating_sub(1) {
            let j = tc.draw_index(n - i);
            v.swap(i, i + j);
        }
        v
    }
    /// The value as `g` encodes it, left in that order (no swaps).
    fn encode(&self, value: &Vec<T>, enc: &mut Encoder) -> Result<(), EncodeError> {
        self.0.encode(value, enc)?;
        for i in 0..value.len().saturating_sub(1) {
            enc.write_index(0, value.len() - i)?;
        }
        Ok(())
    }
}
