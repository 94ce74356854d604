//! The test case: where generators draw their choices.
//!
//! A [`TestCase`] hands out choices from one of three sources:
//!
//! * **random** — sampled from a seeded RNG (the generation phase);
//! * **replay** — read back from a recorded prefix, then continued by the
//!   simplest options, by random ones, or not at all (shrinking, the
//!   failure database, replay strings). A *splice* replays the prefix but
//!   draws one chosen span afresh, then resumes the old suffix: that is how
//!   a sub-value is replaced by a new random one (SmartCheck §4);
//! * **enumerate** — every option within a depth budget, in order
//!   (SmallCheck-style exhaustive testing, see [`crate::enumerate`]).
//!
//! Whatever the source, the choices actually taken are recorded, so the
//! result is always a replayable [`ChoiceSequence`].

use std::panic;
use std::sync::{Arc, Mutex};

use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::choice::{Choice, ChoiceKind, ChoiceSequence, FingerprintSet, fingerprint, fingerprint_values};
use crate::span::{Span, SpanKind, SpanTree, TypeInfo};
use crate::term::Term;

/// Default bound on the number of choices of one test case.
pub const DEFAULT_MAX_CHOICES: usize = 64 * 1024;
/// Default nesting depth after which recursive types pick leaf constructors.
pub const DEFAULT_MAX_DEPTH: u32 = 12;

/// Why a test case stopped being usable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Invalid {
    /// More choices were needed than the bound (or, on replay without a
    /// tail, than the recorded sequence holds).
    Overrun,
    /// A filter rejected every candidate it was allowed to draw.
    FilterExhausted {
        /// The filter's name.
        name: String,
        /// How many candidates it drew.
        tries: u32,
    },
    /// A spliced sub-value was not smaller than the bound asked for.
    NotSmaller,
    /// The input was generated before (see [`Seen`]): running the property
    /// again would tell nothing new.
    Duplicate,
    /// A generator declared the case unusable.
    Other(String),
}

/// Payload used to unwind out of generation when a test case becomes
/// invalid; the runner catches it and never reports it as a failure.
pub(crate) struct StopTest;

/// What to do once a replayed prefix runs out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tail {
    /// Take the simplest option (0) of every further draw.
    Simplest,
    /// Draw further choices at random (the test case's RNG).
    Random,
    /// Stop: the case is invalid ([`Invalid::Overrun`]).
    Stop,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Random,
    Replay,
    Enumerate,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SpliceState {
    Waiting,
    Fresh { open_depth: usize },
    Resumed,
}

/// Inputs already tried, by a hash of their choices. Shrinking and
/// reduction attach one to their candidates ([`TestCase::with_seen`]): a
/// candidate that generates an input already tried is not run again.
#[derive(Clone, Debug, Default)]
pub struct Seen(Arc<Mutex<FingerprintSet>>);

impl Seen {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records `choices`; false if they were already there.
    pub fn insert(&self, choices: &[Choice]) -> bool {
        let key = fingerprint(choices);
        self.0.lock().unwrap_or_else(|e| e.into_inner()).insert(key)
    }
}

/// Where the choices of a spliced span come from.
#[derive(Clone, Debug)]
pub struct Fresh {
    /// Choices to use first.
    pub prefix: Vec<Choice>,
    /// What to do after them: [`Tail::Simplest`] gives the simplest value
    /// that starts with `prefix`, [`Tail::Random`] a random one.
    pub tail: Tail,
    /// Seed of the random tail.
    pub seed: u64,
    /// Size parameter inside the span.
    pub size: usize,
}

impl Fresh {
    /// The simplest value of the span's generator.
    pub fn simplest() -> Self {
        Fresh { prefix: Vec::new(), tail: Tail::Simplest, seed: 0, size: 0 }
    }

    /// A random value drawn from `seed` with size `size`.
    pub fn random(seed: u64, size: usize) -> Self {
        Fresh { prefix: Vec::new(), tail: Tail::Random, seed, size }
    }

    /// The given choices, then the simplest ones.
    pub fn starting_with(prefix: Vec<Choice>) -> Self {
        Fresh { prefix, tail: Tail::Simplest, seed: 0, size: 0 }
    }
}

/// Draw one span afresh during a replay.
#[derive(Clone, Debug)]
struct Splice {
    ordinal: usize,
    /// The span's nesting depth: a collection's last, cancelled slot may
    /// open under the same ordinal first (deeper), and must not be taken
    /// for it.
    depth: u16,
    resume_at: usize,
    fresh: Fresh,
    fresh_pos: usize,
    max_constructors: Option<usize>,
    state: SpliceState,
}

/// Bookkeeping for exhaustive enumeration: how many options each draw had.
#[derive(Clone, Debug, Default)]
pub(crate) struct EnumState {
    pub(crate) budget: u32,
    pub(crate) widths: Vec<u64>,
    /// A random walk down the enumeration tree instead of the odometer's
    /// prefix: each draw takes a uniform option among its width (Knuth's
    /// estimator of a search tree's size, see
    /// [`crate::enumerate::estimate_count`]).
    pub(crate) probe: Option<SmallRng>,
}

/// One test case: the choices it makes and the spans that group them.
pub struct TestCase {
    mode: Mode,
    rng: SmallRng,
    prefix: Vec<Choice>,
    pos: usize,
    tail: Tail,
    splice: Option<Splice>,
    enumeration: Option<EnumState>,
    choices: Vec<Choice>,
    /// Draws left before the case overruns [`DEFAULT_MAX_CHOICES`] (or the
    /// bound set).
    remaining: usize,
    record_choices: bool,
    /// Random, recording nothing: the generation phase's hot path, decided
    /// once instead of per draw (see [`TestCase::refresh`]).
    plain: bool,
    spans: Vec<Span>,
    open: Vec<u32>,
    record_spans: bool,
    nesting: u32,
    size: usize,
    max_depth: u32,
    max_choices: usize,
    misaligned: usize,
    invalid: Option<Invalid>,
    notes: Vec<String>,
    shown: Vec<(String, Term)>,
    generated: bool,
    final_run: bool,
    seen: Option<Seen>,
    /// Answers to give the next draws, last first (see
    /// [`TestCase::with_forced`]).
    forced: Vec<Choice>,
}

impl TestCase {
    fn blank(mode: Mode, seed: u64, size: usize) -> Self {
        let mut tc = TestCase {
            mode,
            rng: SmallRng::seed_from_u64(seed),
            prefix: Vec::new(),
            pos: 0,
            tail: Tail::Simplest,
            splice: None,
            enumeration: None,
            choices: Vec::new(),
            remaining: DEFAULT_MAX_CHOICES,
            record_choices: true,
            plain: false,
            spans: Vec::new(),
            open: Vec::new(),
            record_spans: false,
            nesting: 0,
            size,
            max_depth: DEFAULT_MAX_DEPTH,
            max_choices: DEFAULT_MAX_CHOICES,
            misaligned: 0,
            invalid: None,
            notes: Vec::new(),
            shown: Vec::new(),
            generated: false,
            final_run: false,
            seen: None,
            forced: Vec::new(),
        };
        tc.refresh();
        tc
    }

    /// Recomputes the hot-path flag after a setting changed.
    fn refresh(&mut self) {
        self.plain = self.mode == Mode::Random && !self.record_spans && !self.record_choices && self.forced.is_empty();
    }

    /// A test case drawing every choice at random from `seed`, with the
    /// size parameter `size`.
    pub fn random(seed: u64, size: usize) -> Self {
        Self::blank(Mode::Random, seed, size)
    }

    /// A test case replaying `choices`, then continuing as `tail` says.
    pub fn replay(choices: impl Into<Vec<Choice>>, tail: Tail) -> Self {
        let mut tc = Self::blank(Mode::Replay, 0, 0);
        tc.prefix = choices.into();
        // A replay makes about as many choices as it replays, and a few
        // spans per choice (a struct's fields, empty collections): size the
        // buffers once, growing them costs more than the whole replay.
        tc.choices.reserve(tc.prefix.len() + 8);
        tc.spans.reserve(3 * tc.prefix.len() + 16);
        tc.open.reserve(16);
        tc.tail = tail;
        tc
    }

    /// Replays `choices` but draws `span` — span number `ordinal` (its
    /// pre-order index in the span tree of the replayed case) — afresh
    /// from `fresh`, then resumes the old choices at the old span's end.
    /// With `max_constructors`, the case is invalid unless the new
    /// sub-value has fewer constructors than that ([`Invalid::NotSmaller`],
    /// recorded when the span closes; generation finishes without
    /// unwinding and the runner does not run the property).
    pub fn splice(
        choices: impl Into<Vec<Choice>>,
        ordinal: usize,
        span: &Span,
        fresh: Fresh,
        max_constructors: Option<usize>,
    ) -> Self {
        let mut tc = Self::replay(choices, Tail::Simplest);
        tc.rng = SmallRng::seed_from_u64(fresh.seed);
        tc.record_spans = true;
        tc.refresh();
        tc.splice = Some(Splice {
            ordinal,
            depth: span.depth,
            resume_at: span.end as usize,
            fresh,
            fresh_pos: 0,
            max_constructors,
            state: SpliceState::Waiting,
        });
        tc
    }

    /// A fingerprint of what a splice will do (the replayed choices, the
    /// span, and where its fresh choices come from), so that a shrinker can
    /// skip a splice it already ran on the same case without generating it
    /// again. `None` for other test cases.
    pub(crate) fn splice_key(&self) -> Option<u64> {
        let s = self.splice.as_ref()?;
        let tail = match s.fresh.tail {
            Tail::Simplest => 0,
            Tail::Random => 1,
            Tail::Stop => 2,
        };
        let fields = [
            s.ordinal as u64,
            s.resume_at as u64,
            tail,
            s.fresh.seed,
            s.fresh.size as u64,
            s.max_constructors.map_or(u64::MAX, |m| m as u64),
            self.prefix.len() as u64,
        ];
        let values = self.prefix.iter().chain(&s.fresh.prefix).map(|c| c.value);
        Some(fingerprint_values(values.chain(fields)))
    }

    pub(crate) fn enumerate(prefix: Vec<u64>, budget: u32) -> Self {
        let mut tc = Self::blank(Mode::Enumerate, 0, budget as usize);
        tc.prefix = prefix.into_iter().map(|v| Choice::new(v, v, ChoiceKind::Index)).collect();
        tc.enumeration = Some(EnumState { budget, widths: Vec::new(), probe: None });
        tc
    }

    /// An enumerating case that walks one random path of the enumeration
    /// tree within `budget` (see [`crate::enumerate::estimate_count`]).
    pub(crate) fn enumeration_probe(seed: u64, budget: u32) -> Self {
        let mut tc = Self::blank(Mode::Enumerate, 0, budget as usize);
        tc.enumeration = Some(EnumState { budget, widths: Vec::new(), probe: Some(SmallRng::seed_from_u64(seed)) });
        tc
    }

    /// Runs `f` with one more level of enumeration depth and recursion
    /// depth: the value `f` generates is a list of arguments, not a
    /// constructor, so it must not cost a level (a property's arguments
    /// each get the whole depth, as SmallCheck's do).
    pub(crate) fn free_level<R>(&mut self, f: impl FnOnce(&mut TestCase) -> R) -> R {
        if let Some(e) = self.enumeration.as_mut() {
            e.budget += 1;
        }
        self.max_depth = self.max_depth.saturating_add(1);
        let r = f(self);
        if let Some(e) = self.enumeration.as_mut() {
            e.budget -= 1;
        }
        self.max_depth = self.max_depth.saturating_sub(1);
        r
    }

    /// Reuses this test case's buffers for a fresh random case.
    pub fn reset_random(&mut self, seed: u64, size: usize) {
        self.mode = Mode::Random;
        self.rng = SmallRng::seed_from_u64(seed);
        self.prefix.clear();
        self.pos = 0;
        self.splice = None;
        self.enumeration = None;
        self.choices.clear();
        self.remaining = self.max_choices;
        self.spans.clear();
        self.open.clear();
        self.nesting = 0;
        self.size = size;
        self.misaligned = 0;
        self.invalid = None;
        self.notes.clear();
        self.shown.clear();
        self.generated = false;
        self.refresh();
    }

    /// Records spans (off by default: the generation phase does not need
    /// them, shrinking and explaining do).
    pub fn with_spans(mut self, on: bool) -> Self {
        self.record_spans = on;
        self.refresh();
        self
    }

    /// Whether to keep the choices made (on by default). The generation
    /// phase turns it off: a random case is determined by its seed, so a
    /// failing one is simply run again with recording on.
    pub fn record_choices(mut self, on: bool) -> Self {
        self.record_choices = on;
        self.refresh();
        self
    }

    /// Sets the bound on choices.
    pub fn with_max_choices(mut self, n: usize) -> Self {
        self.max_choices = n;
        self.remaining = n.saturating_sub(self.choices.len());
        self
    }

    /// Sets the nesting depth after which recursive types take leaves.
    pub fn with_max_depth(mut self, d: u32) -> Self {
        self.max_depth = d;
        self
    }

    /// Sets the size parameter.
    pub fn with_size(mut self, size: usize) -> Self {
        self.size = size;
        self
    }

    /// Marks this run as the final replay of a counterexample: generators
    /// and properties may record extra information for the report.
    pub fn with_final(mut self, on: bool) -> Self {
        self.final_run = on;
        self
    }

    /// Lets the property skip an input already in `seen` (and records it
    /// otherwise): see [`check_unseen`](Self::check_unseen).
    pub fn with_seen(mut self, seen: Seen) -> Self {
        self.seen = Some(seen);
        self
    }

    /// True when a [`Seen`] set is attached.
    pub fn has_seen(&self) -> bool {
        self.seen.is_some()
    }

    /// Seeds the RNG used by a random tail.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.rng = SmallRng::seed_from_u64(seed);
        self
    }

    // ----- what generators see -------------------------------------------

    /// The size parameter: how large generated values should be.
    pub fn size(&self) -> usize {
        match &self.splice {
            Some(s) if matches!(s.state, SpliceState::Fresh { .. }) => s.fresh.size,
            _ => self.size,
        }
    }

    /// Runs `f` with the size parameter set to `size`.
    pub fn scoped_size<R>(&mut self, size: usize, f: impl FnOnce(&mut TestCase) -> R) -> R {
        let saved = self.size;
        self.size = size;
        let r = f(self);
        self.size = saved;
        r
    }

    /// Current nesting depth of values being generated.
    pub fn depth(&self) -> u32 {
        self.nesting
    }

    /// Depth after which recursive types should only take leaves.
    pub fn max_depth(&self) -> u32 {
        self.max_depth
    }

    /// True on the final replay of a counterexample (for the report).
    pub fn is_final(&self) -> bool {
        self.final_run
    }

    /// True when the next draw will be sampled at random (so a generator
    /// may pre-sample a whole value and record it choice by choice).
    pub fn is_sampling(&self) -> bool {
        match self.mode {
            Mode::Random => true,
            Mode::Enumerate => false,
            Mode::Replay => match &self.splice {
                Some(s) if matches!(s.state, SpliceState::Fresh { .. }) => {
                    s.fresh_pos >= s.fresh.prefix.len() && s.fresh.tail == Tail::Random
                }
                _ => self.pos >= self.prefix.len() && self.tail == Tail::Random,
            },
        }
    }

    /// Runs `f` on the RNG if the next draw is random (see
    /// [`is_sampling`](Self::is_sampling)), so a multi-choice value can be
    /// sampled as a whole and then recorded part by part.
    pub fn pre_sample<X>(&mut self, f: impl FnOnce(&mut SmallRng, usize) -> X) -> Option<X> {
        if self.is_sampling() {
            let size = self.size();
            Some(f(&mut self.rng, size))
        } else {
            None
        }
    }

    /// Runs `f` with `choices` as the answers to its first draws (then
    /// drawing as before). A value sampled some other way, encoded as the
    /// choices of the generator `f` runs, is then recorded as if that
    /// generator had drawn it: it shrinks, replays and persists like any
    /// drawn value (see [`gens::represent`](crate::gens::represent)).
    pub fn with_forced<R>(&mut self, mut choices: Vec<Choice>, f: impl FnOnce(&mut TestCase) -> R) -> R {
        choices.reverse();
        let outer = std::mem::replace(&mut self.forced, choices);
        self.refresh();
        let r = f(self);
        self.forced = outer;
        self.refresh();
        r
    }

    /// Remaining depth budget under exhaustive enumeration (`None` when not
    /// enumerating).
    pub fn enumeration_budget(&self) -> Option<u32> {
        // The value being drawn opened its own span: the root has the whole
        // budget, each level below one less (SmallCheck's depth).
        self.enumeration.as_ref().map(|e| e.budget.saturating_sub(self.nesting.saturating_sub(1)))
    }

    /// The primitive every draw goes through: a choice in `0..=max`.
    ///
    /// `sample` picks the value when the choice is random (it may bias, it
    /// must stay within `0..=max`); `width` says how many of the simplest
    /// options exhaustive enumeration should try given the remaining depth
    /// budget.
    #[inline]
    pub fn draw_raw(
        &mut self,
        max: u64,
        kind: ChoiceKind,
        sample: impl FnOnce(&mut SmallRng, usize) -> u64,
        width: impl FnOnce(u32) -> u64,
    ) -> u64 {
        if self.remaining == 0 {
            self.mark_invalid(Invalid::Overrun);
        }
        self.remaining -= 1;
        if self.plain {
            return sample(&mut self.rng, self.size);
        }
        let value = if let Some(c) = self.forced.pop() {
            c.value.min(max)
        } else if self.mode == Mode::Random {
            sample(&mut self.rng, self.size)
        } else {
            self.draw_slow(max, kind, sample, width)
        };
        debug_assert!(value <= max, "sampled {value} above bound {max}");
        self.record(Choice { value, max, kind });
        value
    }

    /// The generation phase's fast path: when the next draw is plainly
    /// random, `sample` draws a value and `index` gives its choice number
    /// (only computed when choices are recorded); the value comes back
    /// as is, sparing a decode. `None` means "use
    /// [`draw_raw`](Self::draw_raw)".
    #[inline(always)]
    pub fn try_sample<R>(
        &mut self,
        max: u64,
        kind: ChoiceKind,
        sample: impl FnOnce(&mut SmallRng, usize) -> R,
        index: impl FnOnce(&R) -> u64,
    ) -> Option<R> {
        if self.plain && self.remaining > 0 {
            self.remaining -= 1;
            return Some(sample(&mut self.rng, self.size));
        }
        if self.mode != Mode::Random || self.remaining == 0 || !self.forced.is_empty() {
            return None;
        }
        self.remaining -= 1;
        let r = sample(&mut self.rng, self.size);
        if self.record_choices {
            let value = index(&r);
            debug_assert!(value <= max);
            self.choices.push(Choice { value, max, kind });
        }
        Some(r)
    }

    /// Plain mode only: reserves `n` draws at once and lends the random
    /// source and size, so a generator can draw many values in one tight
    /// loop (a collection of integers). It must consume the source exactly
    /// as `n` single draws would, so that the recorded re-run of a failing
    /// case sees the same values. `None` when not plain or when fewer than
    /// `n` draws remain (draw one by one then: the overrun is reported
    /// where it happens).
    #[inline(always)]
    pub fn plain_batch(&mut self, n: usize) -> Option<(&mut SmallRng, usize)> {
        if self.plain && self.remaining >= n {
            self.remaining -= n;
            Some((&mut self.rng, self.size))
        } else {
            None
        }
    }

    /// Accounts for `n` draws whose outcomes are already known (plain mode
    /// only); see [`count_implicit_draw`](Self::count_implicit_draw).
    #[inline(always)]
    pub(crate) fn count_implicit_draws(&mut self, n: usize) {
        debug_assert!(self.plain);
        if self.remaining < n {
            self.mark_invalid(Invalid::Overrun);
        }
        self.remaining -= n;
    }

    /// Accounts for a draw whose outcome is already known without drawing
    /// (plain mode only: a collection's "more?" answers), so the bound on
    /// choices stays the same as when the choice is recorded.
    #[inline(always)]
    pub(crate) fn count_implicit_draw(&mut self) {
        self.count_implicit_draws(1);
    }

    /// True when nothing observes the structure of the draws (random
    /// generation without spans): primitives may then skip their value
    /// span, which no one would see.
    #[inline(always)]
    pub fn is_plain(&self) -> bool {
        self.plain
    }

    #[inline(always)]
    fn record(&mut self, c: Choice) {
        if self.record_choices {
            self.choices.push(c);
        }
    }

    #[cold]
    fn draw_slow(
        &mut self,
        max: u64,
        kind: ChoiceKind,
        sample: impl FnOnce(&mut SmallRng, usize) -> u64,
        width: impl FnOnce(u32) -> u64,
    ) -> u64 {
        if self.mode == Mode::Enumerate {
            let budget = self.enumeration_budget().unwrap_or(0);
            let w = width(budget).clamp(1, max.saturating_add(1).max(1));
            let e = self.enumeration.as_mut().expect("an enumerating case has its state");
            let v = match e.probe.as_mut() {
                Some(rng) => rand::Rng::random_range(rng, 0..w),
                None => self.prefix.get(self.pos).map_or(0, |c| c.value).min(w - 1),
            };
            self.pos += 1;
            e.widths.push(w);
            return v;
        }
        if let Some(s) = self.splice.as_mut()
            && matches!(s.state, SpliceState::Fresh { .. })
        {
            if let Some(&c) = s.fresh.prefix.get(s.fresh_pos) {
                s.fresh_pos += 1;
                return replayed(c, max, kind, &mut self.misaligned);
            }
            return match s.fresh.tail {
                Tail::Random => {
                    let size = s.fresh.size;
                    sample(&mut self.rng, size).min(max)
                }
                _ => 0,
            };
        }
        if let Some(&c) = self.prefix.get(self.pos) {
            self.pos += 1;
            return replayed(c, max, kind, &mut self.misaligned);
        }
        match self.tail {
            Tail::Simplest => 0,
            Tail::Random => {
                let size = self.size;
                sample(&mut self.rng, size).min(max)
            }
            Tail::Stop => self.mark_invalid(Invalid::Overrun),
        }
    }

    /// Declares this test case unusable and unwinds out of it. The runner
    /// counts it as invalid, never as a failure.
    pub fn mark_invalid(&mut self, why: Invalid) -> ! {
        self.invalid = Some(why);
        panic::resume_unwind(Box::new(StopTest))
    }

    /// Adds a note to show with the counterexample (only kept on the final
    /// replay, so it costs nothing while searching).
    pub fn note(&mut self, note: impl FnOnce() -> String) {
        if self.final_run {
            self.notes.push(note());
        }
    }

    /// Records how an input looks, for the report (kept on the final
    /// replay only).
    pub fn show(&mut self, name: &str, term: impl FnOnce() -> Term) {
        if self.final_run {
            self.shown.push((name.to_string(), term()));
        }
    }

    /// Marks the end of input generation: a panic after this point is a
    /// failure of the property, before it a failure of a generator.
    pub fn mark_generated(&mut self) {
        self.generated = true;
    }

    /// For a property whose inputs are all drawn before its body runs: if
    /// the input was already tried (see [`with_seen`](Self::with_seen)),
    /// marks the case [`Invalid::Duplicate`] and returns false. A property
    /// that draws more as it runs must not call this: its choices so far
    /// do not identify its input.
    pub fn check_unseen(&mut self) -> bool {
        if let Some(seen) = &self.seen
            && self.invalid.is_none()
            && !seen.insert(&self.choices)
        {
            self.invalid = Some(Invalid::Duplicate);
            return false;
        }
        true
    }

    /// True once the property's inputs are generated.
    pub fn is_generated(&self) -> bool {
        self.generated
    }

    // ----- spans ---------------------------------------------------------

    /// Opens a span. Value spans also count as one level of nesting.
    #[inline]
    pub fn start_span(&mut self, kind: SpanKind, info: fn() -> TypeInfo, name: &'static str) {
        if kind == SpanKind::Value {
            self.nesting += 1;
        }
        if self.record_spans {
            self.start_span_slow(kind, info, name);
        }
    }

    #[cold]
    fn start_span_slow(&mut self, kind: SpanKind, info: fn() -> TypeInfo, name: &'static str) {
        let ordinal = self.spans.len();
        if let Some(s) = self.splice.as_mut()
            && s.state == SpliceState::Waiting
            && s.ordinal == ordinal
            && usize::from(s.depth) == self.open.len()
        {
            s.state = SpliceState::Fresh { open_depth: self.open.len() };
        }
        self.spans.push(Span {
            start: self.choices.len() as u32,
            end: u32::MAX,
            parent: self.open.last().copied(),
            depth: self.open.len() as u16,
            kind,
            ctor: 0,
            info,
            name,
        });
        self.open.push(ordinal as u32);
    }

    /// Records which constructor the innermost open span took.
    #[inline]
    pub fn set_constructor(&mut self, ctor: usize) {
        if self.record_spans
            && let Some(&i) = self.open.last()
        {
            self.spans[i as usize].ctor = ctor as u16;
        }
    }

    /// Closes the innermost open span.
    #[inline]
    pub fn stop_span(&mut self, kind: SpanKind) {
        if kind == SpanKind::Value {
            self.nesting = self.nesting.saturating_sub(1);
        }
        if self.record_spans {
            self.stop_span_slow();
        }
    }

    #[cold]
    fn stop_span_slow(&mut self) {
        let Some(i) = self.open.pop() else { return };
        let end = self.choices.len() as u32;
        self.spans[i as usize].end = end;
        let Some(s) = self.splice.as_mut() else { return };
        if let SpliceState::Fresh { open_depth } = s.state
            && open_depth == self.open.len()
        {
            s.state = SpliceState::Resumed;
            self.pos = s.resume_at;
            if let Some(limit) = s.max_constructors {
                let tree = SpanTree { spans: std::mem::take(&mut self.spans) };
                let too_big = tree.constructor_count(i as usize) >= limit;
                self.spans = tree.spans;
                if too_big {
                    // Deferred, not unwound: the rest of the case is a cheap
                    // replay, and unwinding costs more than finishing it.
                    // The runner skips the property of an invalid case.
                    self.invalid.get_or_insert(Invalid::NotSmaller);
                }
            }
        }
    }

    /// Closes and forgets the innermost open span (a collection's last
    /// "no more" choice is not an element).
    #[inline]
    pub fn cancel_span(&mut self, kind: SpanKind) {
        if kind == SpanKind::Value {
            self.nesting = self.nesting.saturating_sub(1);
        }
        if self.record_spans
            && let Some(i) = self.open.pop()
        {
            // Nothing was opened after it, so it is the last one.
            debug_assert_eq!(i as usize, self.spans.len() - 1);
            self.spans.truncate(i as usize);
        }
    }

    /// Opens a value span for a value of type `info`.
    #[inline]
    pub fn start_value(&mut self, info: fn() -> TypeInfo) {
        self.start_span(SpanKind::Value, info, "");
    }

    /// Closes the value span opened by [`start_value`](Self::start_value).
    #[inline]
    pub fn stop_value(&mut self) {
        self.stop_span(SpanKind::Value);
    }

    // ----- results -------------------------------------------------------

    /// The choices made so far. Empty while choices are not recorded (the
    /// runner's generation phase): a generator must not depend on it.
    pub fn choices(&self) -> &[Choice] {
        &self.choices
    }

    /// Why the case is invalid, if it is.
    pub fn invalid(&self) -> Option<&Invalid> {
        self.invalid.as_ref()
    }

    /// How many replayed choices did not fit the generator.
    pub fn misaligned(&self) -> usize {
        self.misaligned
    }

    /// True when a replayed prefix was not used up.
    pub fn prefix_unused(&self) -> bool {
        self.mode == Mode::Replay && self.pos < self.prefix.len()
    }

    /// Notes recorded on the final run.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// Inputs shown on the final run.
    pub fn shown(&self) -> &[(String, Term)] {
        &self.shown
    }

    pub(crate) fn take_report_parts(&mut self) -> (Vec<(String, Term)>, Vec<String>) {
        (std::mem::take(&mut self.shown), std::mem::take(&mut self.notes))
    }

    /// Takes the recorded choices and spans, closing any span left open
    /// (by a panic in the middle of generation).
    pub fn finish(mut self) -> (ChoiceSequence, SpanTree) {
        let end = self.choices.len() as u32;
        while let Some(i) = self.open.pop() {
            self.spans[i as usize].end = end;
        }
        (ChoiceSequence(self.choices), SpanTree { spans: self.spans })
    }

    /// Like [`finish`](Self::finish) but keeps the buffers for reuse.
    pub fn take_choices(&mut self) -> ChoiceSequence {
        ChoiceSequence(std::mem::take(&mut self.choices))
    }

    pub(crate) fn take_enumeration(&mut self) -> Option<EnumState> {
        self.enumeration.take()
    }
}

impl std::fmt::Debug for TestCase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestCase")
            .field("mode", &self.mode)
            .field("choices", &self.choices.len())
            .field("size", &self.size)
            .field("depth", &self.nesting)
            .finish_non_exhaustive()
    }
}

/// The value a replayed choice gives a draw of `0..=max` of `kind`. When
/// the recorded sequence does not fit the generator any more (or a shrink
/// pass moved choices around), a value out of bounds becomes the simplest
/// option, and the replay is counted as not exact.
fn replayed(c: Choice, max: u64, kind: ChoiceKind, misaligned: &mut usize) -> u64 {
    if c.value > max || c.kind != kind {
        *misaligned += 1;
        if c.value > max {
            return 0;
        }
    }
    c.value
}

/// Runs `f` with `tc`, turning the unwind of an invalid case into `Err`.
/// Other panics propagate.
pub fn catch_invalid<R>(tc: &mut TestCase, f: impl FnOnce(&mut TestCase) -> R) -> Result<R, Invalid> {
    match panic::catch_unwind(panic::AssertUnwindSafe(|| f(tc))) {
        Ok(r) => Ok(r),
        Err(payload) if payload.is::<StopTest>() => Err(tc.invalid.clone().unwrap_or(Invalid::Overrun)),
        Err(payload) => panic::resume_unwind(payload),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draw(tc: &mut TestCase, max: u64) -> u64 {
        tc.draw_raw(max, ChoiceKind::Integer, |rng, _| rand::Rng::random_range(rng, 0..=max), |_| 3)
    }

    #[test]
    fn random_cases_replay_identically() {
        let mut tc = TestCase::random(7, 10);
        let drawn: Vec<u64> = (0..20).map(|i| draw(&mut tc, i * 3)).collect();
        let (seq, _) = tc.finish();
        let mut replay = TestCase::replay(seq.0.clone(), Tail::Stop);
        let again: Vec<u64> = (0..20).map(|i| draw(&mut replay, i * 3)).collect();
        assert_eq!(drawn, again);
        assert_eq!(replay.misaligned(), 0);
    }

    #[test]
    fn replay_tail_simplest_gives_zeros_and_stop_is_invalid() {
        let mut tc = TestCase::replay(vec![Choice::new(2, 5, ChoiceKind::Integer)], Tail::Simplest);
        assert_eq!(draw(&mut tc, 5), 2);
        assert_eq!(draw(&mut tc, 5), 0);
        let mut tc = TestCase::replay(Vec::new(), Tail::Stop);
        assert_eq!(catch_invalid(&mut tc, |tc| draw(tc, 5)), Err(Invalid::Overrun));
    }

    #[test]
    fn out_of_bound_replay_is_misaligned_not_a_crash() {
        let mut tc = TestCase::replay(vec![Choice::new(9, 9, ChoiceKind::Integer)], Tail::Simplest);
        assert_eq!(draw(&mut tc, 3), 0);
        assert_eq!(tc.misaligned(), 1);
    }

    #[test]
    fn overrun_bound_stops_infinite_generators() {
        let mut tc = TestCase::random(1, 10).with_max_choices(100);
        let r = catch_invalid(&mut tc, |tc| {
            loop {
                draw(tc, 1);
            }
        });
        assert_eq!(r, Err(Invalid::Overrun));
    }

    #[test]
    fn splice_redraws_one_span_and_keeps_the_rest() {
        // Three spans of two choices each; redraw the middle one.
        let build = |tc: &mut TestCase| -> Vec<u64> {
            let mut out = Vec::new();
            for _ in 0..3 {
                tc.start_value(crate::span::no_type);
                out.push(draw(tc, 1000));
                out.push(draw(tc, 1000));
                tc.stop_value();
            }
            out
        };
        let mut tc = TestCase::random(3, 10).with_spans(true);
        let before = build(&mut tc);
        let (seq, tree) = tc.finish();
        let mid = tree.spans[1];
        let mut sp = TestCase::splice(seq.0.clone(), 1, &mid, Fresh::random(99, 10), None);
        let after = build(&mut sp);
        assert_eq!(&before[..2], &after[..2]);
        assert_eq!(&before[4..], &after[4..]);
        assert_ne!(&before[2..4], &after[2..4]);
        // The simplest replacement draws zeros for the span only.
        let mut sp = TestCase::splice(seq.0.clone(), 1, &mid, Fresh::simplest(), None);
        let after = build(&mut sp);
        assert_eq!(&after[2..4], &[0, 0]);
        assert_eq!(&before[4..], &after[4..]);
    }

    #[test]
    fn a_splice_after_an_empty_collection_redraws_its_own_span() {
        // An empty `Vec` opens a slot for its "no more" choice and cancels
        // it; that slot's ordinal is the next span's, one level deeper.
        let build = |tc: &mut TestCase| <(Vec<u8>, u16) as crate::Arbitrary>::generate(tc);
        let mut tc = TestCase::replay(Vec::new(), Tail::Simplest).with_spans(true);
        assert_eq!(build(&mut tc), (vec![], 0));
        let (seq, tree) = tc.finish();
        let ordinal = tree.spans.iter().position(|s| s.type_info().full_name == "u16").expect("a u16 span");
        let fresh = Fresh::starting_with(vec![Choice::new(7, u64::from(u16::MAX), ChoiceKind::Integer)]);
        let mut sp = TestCase::splice(seq.0.clone(), ordinal, &tree.spans[ordinal], fresh, None);
        let (xs, n) = build(&mut sp);
        assert!(xs.is_empty());
        assert_ne!(n, 0, "the u16 was redrawn");
    }
}
