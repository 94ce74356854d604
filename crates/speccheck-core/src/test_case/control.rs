//! What the runner and the engines do with test cases, beyond drawing:
//! build cases that replay, splice or enumerate, set what they record, and
//! read what they recorded. Generator authors do not need any of it; it is
//! a trait so that it stays out of [`TestCase`]'s own surface (bring it in
//! with `use speccheck_core::test_case::CaseControl`).

use std::sync::{Arc, Mutex};

use rand::SeedableRng;
use rand::rngs::SmallRng;

use super::source::{Source, Splice, SpliceState};
use super::{Fresh, Invalid, TestCase};
use crate::choice::{Choice, ChoiceSequence, FingerprintSet, fingerprint};
use crate::draw::int::Mix;
use crate::span::Span;
use crate::term::Term;

/// Inputs already tried, by a hash of their choices. Shrinking and
/// reduction attach one to their candidates ([`CaseControl::with_seen`]): a
/// candidate that generates an input already tried is not run again.
#[derive(Clone, Debug, Default)]
pub struct Seen(Arc<Mutex<FingerprintSet>>);

impl Seen {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty set with room for `n` inputs (growing a hash set costs
    /// more than the short replays a shrinker records in it).
    pub fn with_capacity(n: usize) -> Self {
        Seen(Arc::new(Mutex::new(FingerprintSet::with_capacity_and_hasher(n, Default::default()))))
    }

    /// Records `choices`; false if they were already there.
    pub fn insert(&self, choices: &[Choice]) -> bool {
        let key = fingerprint(choices);
        self.0.lock().unwrap_or_else(|e| e.into_inner()).insert(key)
    }
}

/// The runner's and the engines' side of a [`TestCase`].
pub trait CaseControl: Sized {
    /// Replays `choices` but draws `span` — span number `ordinal` (its
    /// pre-order index in the span tree of the replayed case) — afresh
    /// from `fresh`, then resumes the old choices at the old span's end.
    /// With `max_constructors`, the case is invalid unless the new
    /// sub-value has fewer constructors than that ([`Invalid::NotSmaller`],
    /// recorded when the span closes; generation finishes without
    /// unwinding and the runner does not run the property).
    fn splice(
        choices: impl Into<Vec<Choice>>,
        ordinal: usize,
        span: &Span,
        fresh: Fresh,
        max_constructors: Option<usize>,
    ) -> Self;

    /// Reuses this test case's buffers for a fresh random case.
    fn reset_random(&mut self, seed: u64, size: usize);

    /// Records spans (off by default: the generation phase does not need
    /// them, shrinking and explaining do).
    fn with_spans(self, on: bool) -> Self;

    /// True when spans are recorded.
    fn keeps_spans(&self) -> bool;

    /// Whether to keep the choices made (on by default). The generation
    /// phase turns it off: a random case is determined by its seed, so a
    /// failing one is simply run again with recording on.
    fn record_choices(self, on: bool) -> Self;

    /// Sets the bound on choices.
    fn with_max_choices(self, n: usize) -> Self;

    /// Sets the nesting depth after which recursive types take leaves.
    fn with_max_depth(self, d: u32) -> Self;

    /// Sets the size parameter.
    fn with_size(self, size: usize) -> Self;

    /// How far this case's input reached ([`TestCase::reach`]), and how
    /// far everything it drew reached, values a filter rejected included.
    fn reaches(&self) -> (super::Reach, super::Reach);

    /// Lets each random case drawn from a seed ([`reset_random`](Self::reset_random))
    /// take the integer mix that seed picks, instead of the fixed mix
    /// (`Config::integer_mix`).
    fn with_varied_mix(self, on: bool) -> Self;

    /// Marks this run as the final replay of a counterexample: generators
    /// and properties may record extra information for the report.
    fn with_final(self, on: bool) -> Self;

    /// Lets the property skip an input already in `seen` (and records it
    /// otherwise): see [`check_unseen`](Self::check_unseen).
    fn with_seen(self, seen: Seen) -> Self;

    /// True when a [`Seen`] set is attached.
    fn has_seen(&self) -> bool;

    /// Seeds the RNG used by a random tail.
    fn with_seed(self, seed: u64) -> Self;

    /// Marks the end of input generation: a panic after this point is a
    /// failure of the property, before it a failure of a generator.
    fn mark_generated(&mut self);

    /// True once the property's inputs are generated.
    fn is_generated(&self) -> bool;

    /// For a property whose inputs are all drawn before its body runs: if
    /// the input was already tried (see [`with_seen`](Self::with_seen)),
    /// marks the case [`Invalid::Duplicate`] and returns false. A property
    /// that draws more as it runs must not call this: its choices so far
    /// do not identify its input.
    fn check_unseen(&mut self) -> bool;

    /// Why the case is invalid, if it is.
    fn invalid(&self) -> Option<&Invalid>;

    /// How many replayed choices did not fit the generator.
    fn misaligned(&self) -> usize;

    /// True when a replayed prefix was not used up.
    fn prefix_unused(&self) -> bool;

    /// Notes recorded on the final run.
    fn notes(&self) -> &[String];

    /// Inputs shown on the final run.
    fn shown(&self) -> &[(String, Term)];

    /// Like [`TestCase::finish`] but keeps the buffers for reuse.
    fn take_choices(&mut self) -> ChoiceSequence;
}

impl CaseControl for TestCase {
    fn splice(
        choices: impl Into<Vec<Choice>>,
        ordinal: usize,
        span: &Span,
        fresh: Fresh,
        max_constructors: Option<usize>,
    ) -> Self {
        let mut tc = TestCase::replay(choices, super::Tail::Simplest);
        tc.rng = SmallRng::seed_from_u64(fresh.seed);
        tc.rng_seed = fresh.seed;
        tc.record.keep_spans = true;
        if let Source::Replay(r) = &mut tc.source {
            r.splice = Some(Box::new(Splice {
                ordinal,
                depth: span.depth,
                resume_at: span.end as usize,
                fresh,
                fresh_pos: 0,
                max_constructors,
                state: SpliceState::Waiting,
                fresh_constructors: 0,
                opaque_at: None,
            }));
        }
        tc.refresh();
        tc
    }

    fn reset_random(&mut self, seed: u64, size: usize) {
        self.source = Source::Random;
        self.rng = SmallRng::seed_from_u64(seed);
        self.rng_seed = seed;
        self.record.clear();
        self.remaining = self.max_choices;
        self.nesting = 0;
        self.size = size;
        self.invalid = None;
        self.generated = false;
        self.reach = Default::default();
        if self.vary_mix {
            self.mix = Mix::of_seed(seed);
        }
        self.refresh();
    }

    fn with_spans(mut self, on: bool) -> Self {
        self.record.keep_spans = on;
        self.refresh();
        self
    }

    fn keeps_spans(&self) -> bool {
        self.record.keep_spans
    }

    fn record_choices(mut self, on: bool) -> Self {
        self.record.keep_choices = on;
        self.refresh();
        self
    }

    fn with_max_choices(mut self, n: usize) -> Self {
        self.max_choices = n;
        self.remaining = n.saturating_sub(self.record.choices.len());
        self
    }

    fn with_max_depth(mut self, d: u32) -> Self {
        self.max_depth = d;
        self
    }

    fn with_size(mut self, size: usize) -> Self {
        self.size = size;
        self
    }

    fn reaches(&self) -> (super::Reach, super::Reach) {
        (self.reach.kept, self.reach.drawn())
    }

    fn with_varied_mix(mut self, on: bool) -> Self {
        self.vary_mix = on;
        self.mix = if on { Mix::of_seed(self.rng_seed) } else { Mix::FIXED };
        self
    }

    fn with_final(mut self, on: bool) -> Self {
        self.final_run = on;
        self
    }

    fn with_seen(mut self, seen: Seen) -> Self {
        self.seen = Some(seen);
        self
    }

    fn has_seen(&self) -> bool {
        self.seen.is_some()
    }

    fn with_seed(mut self, seed: u64) -> Self {
        self.rng = SmallRng::seed_from_u64(seed);
        self.rng_seed = seed;
        self
    }

    fn mark_generated(&mut self) {
        self.generated = true;
    }

    fn is_generated(&self) -> bool {
        self.generated
    }

    fn check_unseen(&mut self) -> bool {
        if let Some(seen) = &self.seen
            && self.invalid.is_none()
            && !seen.insert(&self.record.choices)
        {
            self.invalid = Some(Invalid::Duplicate);
            return false;
        }
        true
    }

    fn invalid(&self) -> Option<&Invalid> {
        self.invalid.as_ref()
    }

    fn misaligned(&self) -> usize {
        match &self.source {
            Source::Replay(r) => r.misaligned,
            _ => 0,
        }
    }

    fn prefix_unused(&self) -> bool {
        matches!(&self.source, Source::Replay(r) if r.prefix_unused())
    }

    fn notes(&self) -> &[String] {
        &self.record.notes
    }

    fn shown(&self) -> &[(String, Term)] {
        &self.record.shown
    }

    fn take_choices(&mut self) -> ChoiceSequence {
        ChoiceSequence(std::mem::take(&mut self.record.choices))
    }
}
