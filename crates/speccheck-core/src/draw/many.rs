//! Collection lengths as choices.
//!
//! Each element is preceded by a "more?" choice instead of drawing a length
//! up front (Hypothesis's `many`): deleting an element is then deleting its
//! slot — the "more" choice and the element's choices — so the shrinker
//! removes elements without knowing the collection exists. The target
//! length is sampled when generating (uniform within the bounds) but only
//! the yes/no answers are recorded.

use rand::RngCore;

use crate::choice::ChoiceKind;
use crate::encode::{EncodeError, Encoder};
use crate::test_case::TestCase;

/// How many rejected (duplicate) elements a unique collection tolerates in
/// a row before it stops growing.
const MAX_REJECTIONS: u32 = 64;

/// Drives the length of one collection.
#[derive(Clone, Debug)]
pub struct Many {
    min: usize,
    max: usize,
    target: usize,
    count: usize,
    rejections: u32,
}

impl Many {
    /// Starts a collection of `min..=max` elements. When generating at
    /// random, its length is uniform in `min..=min(max, min + size)`.
    pub fn new(tc: &mut TestCase, min: usize, max: usize) -> Self {
        let size = tc.size();
        Self::with_size(tc, min, max, size)
    }

    /// Like [`new`](Self::new) with an explicit size parameter.
    pub fn with_size(tc: &mut TestCase, min: usize, max: usize, size: usize) -> Self {
        assert!(min <= max, "collection bounds {min}..={max} are empty");
        let target = tc
            .pre_sample(|rng, _| {
                let hi = max.min(min.saturating_add(size));
                let bits = rng.next_u64();
                if bits & 15 == 0 { min } else { min + crate::draw::int::below(rng, (hi - min) as u64) as usize }
            })
            .unwrap_or(min);
        Many { min, max, target, count: 0, rejections: 0 }
    }

    /// Like [`new`](Self::new) but with a length uniform over the whole of
    /// `min..=max`, whatever the size (explicit bounds, as proptest reads them).
    pub fn uniform(tc: &mut TestCase, min: usize, max: usize) -> Self {
        assert!(min <= max, "collection bounds {min}..={max} are empty");
        let target =
            tc.pre_sample(|rng, _| min + crate::draw::int::below(rng, (max - min) as u64) as usize).unwrap_or(min);
        Many { min, max, target, count: 0, rejections: 0 }
    }

    /// Should another element be drawn? Draws a choice unless the bounds
    /// decide.
    #[inline]
    pub fn more(&mut self, tc: &mut TestCase) -> bool {
        let (count, target) = (self.count, self.target);
        self.step(tc, |tc| {
            tc.draw_raw(
                1,
                ChoiceKind::More,
                |_, _| u64::from(count < target),
                |budget| if (count as u64) < u64::from(budget) { 2 } else { 1 },
            ) == 1
        })
    }

    /// [`more`](Self::more) out of line, for a test case reading a fuzzer's
    /// bytes and recording nothing ([`TestCase::is_plain_bytes`]): compiled
    /// in this crate only, so a fuzz build that leaves speccheck
    /// uninstrumented traces none of it. It reads its byte itself, without
    /// the call out of line that `draw_raw` makes for generic callers.
    #[inline(never)]
    pub(crate) fn more_bytes(&mut self, tc: &mut TestCase) -> bool {
        self.step(tc, |tc| tc.next_plain_bytes(1, ChoiceKind::More) == 1)
    }

    /// [`more`](Self::more) in plain mode ([`TestCase::is_plain`]): the
    /// answer is known from the target, nothing is recorded.
    #[inline(always)]
    pub(crate) fn more_plain(&mut self, tc: &mut TestCase) -> bool {
        let (count, target) = (self.count, self.target);
        self.step(tc, |tc| {
            tc.count_implicit_draw();
            count < target
        })
    }

    /// One "more?": the bounds decide, else `ask` (a draw) does; counts
    /// the element, or notes the length at the end.
    #[inline(always)]
    fn step(&mut self, tc: &mut TestCase, ask: impl FnOnce(&mut TestCase) -> bool) -> bool {
        let go = if self.count < self.min {
            true
        } else if self.count >= self.max {
            false
        } else {
            ask(tc)
        };
        if go {
            self.count += 1;
        } else {
            tc.note_length(self.count);
        }
        go
    }

    /// Plain mode, for collections that keep every element: the whole
    /// length at once (the target), with the "more?" answers [`more_plain`](Self::more_plain)
    /// would have counted one by one.
    #[inline(always)]
    pub(crate) fn plain_all(&mut self, tc: &mut TestCase) -> usize {
        let n = self.target.clamp(self.min, self.max);
        let answered = (n - self.min) + usize::from(n < self.max);
        tc.count_implicit_draws(answered);
        tc.note_length(n);
        self.count = n;
        n
    }

    /// The element just drawn was a duplicate and was not kept. Returns
    /// `false` once too many were rejected in a row (stop growing).
    pub fn reject(&mut self) -> bool {
        self.count -= 1;
        self.rejections += 1;
        if self.rejections > MAX_REJECTIONS {
            self.max = self.count.max(self.min);
            self.min = self.min.min(self.count);
            false
        } else {
            true
        }
    }

    /// The length being aimed for (a capacity hint; the minimum on replay).
    pub fn target(&self) -> usize {
        self.target
    }

    /// Elements accepted so far.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The most elements this collection may take (its bound, after any
    /// depth limit).
    pub(crate) fn max(&self) -> usize {
        self.max
    }
}

/// Writes the "more?" choices of a collection being encoded.
#[derive(Clone, Debug)]
pub struct ManyWriter {
    min: usize,
    max: usize,
    count: usize,
}

impl ManyWriter {
    /// Starts encoding a collection of `len` elements with bounds `min..=max`.
    pub fn new(len: usize, min: usize, max: usize) -> Result<Self, EncodeError> {
        if len < min || len > max {
            return Err(EncodeError::OutOfRange { value: format!("length {len}"), range: format!("{min}..={max}") });
        }
        Ok(ManyWriter { min, max, count: 0 })
    }

    /// Writes the choice that precedes each element.
    pub fn element(&mut self, enc: &mut Encoder) {
        if self.count >= self.min && self.count < self.max {
            enc.write_raw(1, 1, ChoiceKind::More);
        }
        self.count += 1;
    }

    /// Writes the final "no more" choice.
    pub fn finish(self, enc: &mut Encoder) {
        if self.count >= self.min && self.count < self.max {
            enc.write_raw(0, 1, ChoiceKind::More);
        }
    }
}
