//! The test case: where generators draw their choices.
//!
//! A [`TestCase`] has a small surface for generator authors: typed draws
//! (`draw_*`, in [`crate::draw`], and [`TestCase::draw`] for any
//! generator), spans that mark sub-values ([`start_span`](TestCase::start_span)
//! and its kin), the size and depth parameters, and notes for the report.
//! Everything the runner and the engines need besides — building cases
//! that replay, splice or enumerate, and reading what a case recorded — is
//! the [`CaseControl`] trait, kept apart on purpose.
//!
//! Inside, a case is two parts: where its choices come from (a
//! *source* per case: random, replay with an optional splice, or
//! enumeration) and what it records (choices, spans, notes),
//! each only when asked. Whatever the source, the choices actually taken
//! are recorded, so the result is always a replayable
//! [`ChoiceSequence`]. (minithesis's `TestCase` and
//! Hypothesis's `ConjectureData` are the models.)

mod control;
pub(crate) mod pool;
mod reach;
mod record;
mod source;
pub mod spec;

use std::panic;

use rand::SeedableRng;
use rand::rngs::SmallRng;

pub use control::{CaseControl, Seen};
pub use reach::Reach;
pub use source::{Fresh, Tail};

use crate::bytes::ByteStream;
use crate::choice::{Choice, ChoiceKind, ChoiceSequence};
use crate::draw::int::Mix;
use crate::span::{SpanKind, SpanTree, TypeInfo};
use crate::term::Term;
use reach::CaseReach;
use record::Record;
use source::{Ask, Enumerate, Next, Replay, Source};

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

/// One test case: the choices it makes and the spans that group them.
pub struct TestCase {
    source: Source,
    rng: SmallRng,
    /// The seed `rng` was last seeded with (a case is rebuilt from it in
    /// another process: see [`spec`]).
    rng_seed: u64,
    record: Record,
    /// Draws left before the case overruns [`DEFAULT_MAX_CHOICES`] (or the
    /// bound set).
    remaining: usize,
    max_choices: usize,
    /// Random, recording nothing: the generation phase's hot path, decided
    /// once instead of per draw (see [`TestCase::refresh`]).
    plain: bool,
    /// Reading a fuzzer's bytes, recording nothing: the fuzz target's hot
    /// path. Its draws and spans go to small out-of-line functions of this
    /// crate, so that a fuzz build which leaves speccheck uninstrumented
    /// (`speccheck-fuzz-rustc`) traces none of this machinery.
    bytes_plain: bool,
    nesting: u32,
    size: usize,
    max_depth: u32,
    invalid: Option<Invalid>,
    generated: bool,
    final_run: bool,
    seen: Option<Seen>,
    /// Answers to give the next draws, last first (see
    /// [`TestCase::with_forced`]).
    forced: Vec<Choice>,
    /// How large the input grew (the generation phase's size health check).
    reach: CaseReach,
    /// The mix random integer draws follow (sampling only).
    mix: Mix,
    /// Each random case takes its mix from its seed (see [`Mix::of_seed`]).
    vary_mix: bool,
    /// The choices rebuild an input its source already checked against
    /// the refinements of its types (see
    /// [`TestCase::refinements_prechecked`]).
    prechecked: bool,
}

impl TestCase {
    fn blank(source: Source, seed: u64, size: usize) -> Self {
        let mut tc = TestCase {
            source,
            rng: SmallRng::seed_from_u64(seed),
            rng_seed: seed,
            record: Record::new(),
            remaining: DEFAULT_MAX_CHOICES,
            max_choices: DEFAULT_MAX_CHOICES,
            plain: false,
            bytes_plain: false,
            nesting: 0,
            size,
            max_depth: DEFAULT_MAX_DEPTH,
            invalid: None,
            generated: false,
            final_run: false,
            seen: None,
            forced: Vec::new(),
            reach: CaseReach::default(),
            mix: Mix::FIXED,
            vary_mix: false,
            prechecked: false,
        };
        tc.refresh();
        tc
    }

    /// Recomputes the hot-path flags (`plain`, `bytes_plain`) after a
    /// setting changed.
    fn refresh(&mut self) {
        let unobserved = !self.record.keep_spans && !self.record.keep_choices && self.forced.is_empty();
        self.plain = unobserved && matches!(self.source, Source::Random);
        self.bytes_plain = unobserved && matches!(self.source, Source::Bytes(_));
    }

    // ----- making and finishing cases (for users' own tooling) -----------

    /// A test case drawing every choice at random from `seed`, with the
    /// size parameter `size`.
    pub fn random(seed: u64, size: usize) -> Self {
        Self::blank(Source::Random, seed, size)
    }

    /// A test case reading its choices from a fuzzer's input, as
    /// [`crate::bytes`] documents: the same bytes always make the same
    /// choices, and once they are used up every choice is the simplest.
    pub fn from_bytes(bytes: &[u8]) -> Self {
        Self::blank(Source::Bytes(Box::new(ByteStream::new(bytes))), 0, 0)
    }

    /// A test case replaying `choices`, then continuing as `tail` says.
    pub fn replay(choices: impl Into<Vec<Choice>>, tail: Tail) -> Self {
        let prefix: Vec<Choice> = choices.into();
        let n = prefix.len();
        let mut tc = Self::blank(Source::Replay(Replay::new(prefix, tail)), 0, 0);
        // A replay is never cut short by the bound: it may replay a case
        // recorded under a larger one (a long program built by a search).
        if n + 1024 > tc.max_choices {
            tc.max_choices = n + 1024;
            tc.remaining = tc.max_choices;
        }
        // A replay makes about as many choices as it replays, and a few
        // spans per choice (a struct's fields, empty collections): size the
        // buffers once (reused from earlier cases: see `pool`), growing
        // them costs more than the whole replay.
        tc.record.choices = pool::choices(n + 8);
        tc.record.spans = pool::spans(2 * n + 16);
        tc.record.open.reserve(16);
        tc
    }

    /// The choices made so far. Empty while choices are not recorded (the
    /// runner's generation phase): a generator must not depend on it.
    pub fn choices(&self) -> &[Choice] {
        &self.record.choices
    }

    /// Takes the recorded choices and spans, closing any span left open
    /// (by a panic in the middle of generation).
    pub fn finish(mut self) -> (ChoiceSequence, SpanTree) {
        self.record.close_all();
        let choices = std::mem::take(&mut self.record.choices);
        let spans = std::mem::take(&mut self.record.spans);
        (ChoiceSequence(choices), SpanTree { spans })
    }

    // ----- what generators see -------------------------------------------

    /// The size parameter: how large generated values should be.
    pub fn size(&self) -> usize {
        match &self.source {
            Source::Replay(r) => r.fresh_size().unwrap_or(self.size),
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

    /// How far the input drawn so far reached (its longest collection,
    /// its deepest nesting), leaving out values a filter rejected.
    pub fn reach(&self) -> Reach {
        self.reach.kept
    }

    /// A generator that retries (a filter) rejected the value it drew since
    /// [`reach`](Self::reach) returned `before`: that value no longer counts
    /// as part of the input, so a run whose filters keep only small values
    /// can say so.
    pub fn reject_drawn_since(&mut self, before: Reach) {
        self.reach.drop_since(before);
    }

    /// The mix this case's random integer draws follow.
    #[inline(always)]
    pub(crate) fn mix(&self) -> Mix {
        self.mix
    }

    /// A collection of `n` elements was drawn.
    #[inline(always)]
    pub(crate) fn note_length(&mut self, n: usize) {
        self.reach.length(n);
    }

    /// True when the choices rebuild an input that the run's source (a
    /// Target strategy) produced and checked against every refinement of
    /// the types inside it (`#[refine]` on fields): `#[derive(Arbitrary)]`
    /// then does not check them again as it draws. A rebuild that does not
    /// use exactly the source's choices is still an error of the run, and a
    /// refined argument's prologue still compares the rebuilt input with
    /// the one checked. Shrinking, replays and random generation check.
    pub fn refinements_prechecked(&self) -> bool {
        self.prechecked
    }

    /// Marks the choices as rebuilding an input checked by its source (see
    /// [`TestCase::refinements_prechecked`]).
    pub(crate) fn with_refinements_prechecked(mut self, on: bool) -> Self {
        self.prechecked = on;
        self
    }

    /// Remaining depth budget under exhaustive enumeration (`None` when not
    /// enumerating).
    pub fn enumeration_budget(&self) -> Option<u32> {
        // The value being drawn opened its own span: the root has the whole
        // budget, each level below one less (SmallCheck's depth).
        match &self.source {
            Source::Enumerate(e) => Some(e.budget.saturating_sub(self.nesting.saturating_sub(1))),
            _ => None,
        }
    }

    /// True on the final replay of a counterexample (for the report).
    pub fn is_final(&self) -> bool {
        self.final_run
    }

    /// Adds a note to show with the counterexample (only kept on the final
    /// replay, so it costs nothing while searching).
    pub fn note(&mut self, note: impl FnOnce() -> String) {
        if self.final_run {
            self.record.notes.push(note());
        }
    }

    /// Records how an input looks, for the report (kept on the final
    /// replay only).
    pub fn show(&mut self, name: &str, term: impl FnOnce() -> Term) {
        if self.final_run {
            self.record.shown.push((name.to_string(), term()));
        }
    }

    /// Declares this test case unusable and unwinds out of it. The runner
    /// counts it as invalid, never as a failure.
    pub fn mark_invalid(&mut self, why: Invalid) -> ! {
        self.invalid = Some(why);
        panic::resume_unwind(Box::new(StopTest))
    }

    // ----- drawing ---------------------------------------------------------

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
        if self.plain {
            self.spend_choice();
            return sample(&mut self.rng, self.size);
        }
        if self.bytes_plain {
            return self.draw_plain_bytes(max, kind);
        }
        self.spend_choice();
        let value = if let Some(c) = self.forced.pop() {
            c.value.min(max)
        } else if matches!(self.source, Source::Random) {
            sample(&mut self.rng, self.size)
        } else if let Source::Replay(r) = &mut self.source
            && let Some(v) = r.next_recorded(max, kind)
        {
            // The shrinker's hot path: a recorded choice, no splice.
            v
        } else {
            self.draw_from_source(max, kind, sample, width)
        };
        debug_assert!(value <= max, "sampled {value} above bound {max}");
        self.record.choice(Choice { value, max, kind });
        value
    }

    /// Counts one choice against the case's bound; past it, the case is an
    /// overrun (which unwinds).
    #[inline(always)]
    fn spend_choice(&mut self) {
        if self.remaining == 0 {
            self.mark_invalid(Invalid::Overrun);
        }
        self.remaining -= 1;
    }

    /// [`draw_raw`](Self::draw_raw) when reading bytes and recording
    /// nothing. Out of line and not generic, so it is compiled in this
    /// crate only (see `bytes_plain`).
    #[inline(never)]
    fn draw_plain_bytes(&mut self, max: u64, kind: ChoiceKind) -> u64 {
        self.next_plain_bytes(max, kind)
    }

    /// [`draw_plain_bytes`](Self::draw_plain_bytes) inlined, for callers in
    /// this crate that are themselves out of line (an integer's draw, a
    /// constructor's, a collection's "one more?").
    #[inline(always)]
    pub(crate) fn next_plain_bytes(&mut self, max: u64, kind: ChoiceKind) -> u64 {
        self.spend_choice();
        match &mut self.source {
            Source::Bytes(b) => b.next(max, kind),
            _ => unreachable!("bytes_plain is set only for a bytes source"),
        }
    }

    #[cold]
    fn draw_from_source(
        &mut self,
        max: u64,
        kind: ChoiceKind,
        sample: impl FnOnce(&mut SmallRng, usize) -> u64,
        width: impl FnOnce(u32) -> u64,
    ) -> u64 {
        let budget = self.enumeration_budget().unwrap_or(0);
        match self.source.next(&mut self.rng, self.size, Ask { max, kind }, budget, sample, width) {
            Next::Value(v) => v,
            Next::Overrun => self.mark_invalid(Invalid::Overrun),
        }
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
        // Implied by the source test below, but a flag's test is no
        // comparison for a fuzz build to trace (see `bytes_plain`).
        if self.bytes_plain {
            return None;
        }
        if !matches!(self.source, Source::Random) || self.remaining == 0 || !self.forced.is_empty() {
            return None;
        }
        self.remaining -= 1;
        let r = sample(&mut self.rng, self.size);
        if self.record.keep_choices {
            let value = index(&r);
            debug_assert!(value <= max);
            self.record.choices.push(Choice { value, max, kind });
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

    /// True when reading a fuzzer's bytes and recording nothing (the fuzz
    /// target's hot path): like [`is_plain`](Self::is_plain), nothing
    /// observes spans; unlike it, the choices come from the bytes, one draw
    /// at a time.
    #[inline(always)]
    pub(crate) fn is_plain_bytes(&self) -> bool {
        self.bytes_plain
    }

    /// True when nothing observes spans ([`is_plain`](Self::is_plain) or
    /// [`is_plain_bytes`](Self::is_plain_bytes)): a leaf, which nests
    /// nothing, may then skip its value span. (One test of two flags, no
    /// branch between them for a fuzz build to count.)
    #[inline(always)]
    pub(crate) fn spans_unobserved(&self) -> bool {
        self.plain | self.bytes_plain
    }

    /// On a replay, how many recorded choices are still to come (0
    /// otherwise): a collection being replayed has at most that many
    /// elements left, a bound to size its buffer by.
    #[inline]
    pub(crate) fn recorded_left(&self) -> usize {
        match &self.source {
            Source::Replay(r) => r.prefix.len().saturating_sub(r.pos),
            _ => 0,
        }
    }

    /// Reading a fuzzer's bytes: how many are left unread (0 otherwise). A
    /// collection past its minimum reads a byte per element, so it has at
    /// most that many elements more: a bound to size its buffer by. Out of
    /// line, so that a fuzz build does not trace it.
    #[inline(never)]
    pub(crate) fn bytes_left(&self) -> usize {
        match &self.source {
            Source::Bytes(b) => b.remaining(),
            _ => 0,
        }
    }

    /// True when the next draw will be sampled at random (so a generator
    /// may pre-sample a whole value and record it choice by choice).
    pub fn is_sampling(&self) -> bool {
        self.source.is_sampling()
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
    pub fn with_forced<R>(&mut self, choices: &[Choice], f: impl FnOnce(&mut TestCase) -> R) -> R {
        let mut reversed = Vec::with_capacity(choices.len());
        reversed.extend(choices.iter().rev());
        let outer = std::mem::replace(&mut self.forced, reversed);
        self.refresh();
        let r = f(self);
        self.forced = outer;
        self.refresh();
        r
    }

    /// Runs `f` with one more level of enumeration depth and recursion
    /// depth: the value `f` generates is a list of arguments, not a
    /// constructor, so it must not cost a level (a property's arguments
    /// each get the whole depth, as SmallCheck's do).
    pub(crate) fn free_level<R>(&mut self, f: impl FnOnce(&mut TestCase) -> R) -> R {
        if let Source::Enumerate(e) = &mut self.source {
            e.budget += 1;
        }
        self.max_depth = self.max_depth.saturating_add(1);
        let r = f(self);
        if let Source::Enumerate(e) = &mut self.source {
            e.budget -= 1;
        }
        self.max_depth = self.max_depth.saturating_sub(1);
        r
    }

    // ----- spans ---------------------------------------------------------

    /// Opens a span. Value spans also count as one level of nesting.
    ///
    /// Under exhaustive enumeration, a value whose type is already open
    /// above it, drawn where its parent's depth budget is spent, makes the
    /// case an overrun: past the depth only leaves are taken, and a leaf
    /// holds no value of a type it sits in. So recursion found through any
    /// path of the type graph (`struct N { next: Option<Box<N>> }`, mutually
    /// recursive types) ends at the depth, as a type naming itself does.
    #[inline]
    pub fn start_span(&mut self, kind: SpanKind, info: fn() -> TypeInfo, name: &'static str) {
        if self.bytes_plain {
            return self.enter_plain_bytes(kind);
        }
        if kind == SpanKind::Value {
            self.nesting += 1;
            self.reach.depth(self.nesting);
            if matches!(self.source, Source::Enumerate(_)) {
                self.enter_enumerated(info);
            }
        }
        if self.record.keep_spans {
            self.start_span_slow(kind, info, name);
        }
    }

    // Not `cold`: every replay (shrinking, explaining) records spans, and
    // the call's prologue cost a third of the recording. A splice's
    // bookkeeping is kept out of line.
    #[inline]
    fn start_span_slow(&mut self, kind: SpanKind, info: fn() -> TypeInfo, name: &'static str) {
        if self.is_splice() {
            return self.start_span_spliced(kind, info, name);
        }
        self.record.open_span(kind, info, name);
    }

    #[inline(always)]
    fn is_splice(&self) -> bool {
        matches!(&self.source, Source::Replay(Replay { splice: Some(_), .. }))
    }

    #[inline(never)]
    fn start_span_spliced(&mut self, kind: SpanKind, info: fn() -> TypeInfo, name: &'static str) {
        let Source::Replay(Replay { splice: Some(s), .. }) = &mut self.source else { return };
        s.on_start(self.record.spans.len(), self.record.open.len());
        self.record.open_span(kind, info, name);
        if s.count_opened(&self.record.spans, self.record.spans.len() - 1, self.record.open.len()) {
            self.invalid.get_or_insert(Invalid::NotSmaller);
        }
    }

    /// [`start_span`](Self::start_span) when reading bytes and recording
    /// nothing: only the nesting (out of line: see `bytes_plain`).
    #[inline(never)]
    fn enter_plain_bytes(&mut self, kind: SpanKind) {
        if kind == SpanKind::Value {
            self.nesting += 1;
            self.reach.depth(self.nesting);
        }
    }

    /// [`stop_span`](Self::stop_span) and [`cancel_span`](Self::cancel_span)
    /// when reading bytes and recording nothing.
    #[inline(never)]
    fn leave_plain_bytes(&mut self, kind: SpanKind) {
        if kind == SpanKind::Value {
            self.nesting = self.nesting.saturating_sub(1);
        }
    }

    /// Records which constructor the innermost open span took.
    #[inline]
    pub fn set_constructor(&mut self, ctor: usize) {
        if self.record.keep_spans {
            self.record.set_constructor(ctor);
        }
    }

    /// Under enumeration: notes the value span of type `info` just opened,
    /// and cuts the case off when its type is open above it and its
    /// parent's budget is spent (see [`start_span`](Self::start_span)).
    #[cold]
    fn enter_enumerated(&mut self, info: fn() -> TypeInfo) {
        let Source::Enumerate(e) = &mut self.source else { return };
        let id = info().type_id;
        // A value at nesting `n` has budget `budget - (n - 1)`; its parent
        // (at `n - 1`) has `budget - (n - 2)`.
        let parent_spent = self.nesting >= 2 && e.budget <= self.nesting - 2;
        let again = e.open.contains(&id);
        e.open.push(id);
        if parent_spent && again {
            self.mark_invalid(Invalid::Overrun);
        }
    }

    /// Under enumeration: forgets the innermost open value span's type.
    #[inline]
    fn leave_enumerated(&mut self) {
        if let Source::Enumerate(e) = &mut self.source {
            e.open.pop();
        }
    }

    /// Closes the innermost open span.
    #[inline]
    pub fn stop_span(&mut self, kind: SpanKind) {
        if self.bytes_plain {
            return self.leave_plain_bytes(kind);
        }
        if kind == SpanKind::Value {
            self.nesting = self.nesting.saturating_sub(1);
            self.leave_enumerated();
        }
        if self.record.keep_spans {
            self.stop_span_slow();
        }
    }

    #[inline]
    fn stop_span_slow(&mut self) {
        let Some(i) = self.record.close_span() else { return };
        if self.is_splice() {
            self.stop_span_spliced(i);
        }
    }

    #[inline(never)]
    fn stop_span_spliced(&mut self, i: usize) {
        let Source::Replay(Replay { splice: Some(s), pos, .. }) = &mut self.source else { return };
        if s.count_closed(&self.record.spans, i, self.record.open.len(), true) {
            self.invalid.get_or_insert(Invalid::NotSmaller);
        }
        if let Some(Some(limit)) = s.on_stop(self.record.open.len(), pos)
            && self.record.constructors_of(i) >= limit
        {
            // Deferred, not unwound: the rest of the case is a cheap
            // replay, and unwinding costs more than finishing it. The
            // runner skips the property of an invalid case.
            self.invalid.get_or_insert(Invalid::NotSmaller);
        }
    }

    /// Closes and forgets the innermost open span (a collection's last
    /// "no more" choice is not an element).
    #[inline]
    pub fn cancel_span(&mut self, kind: SpanKind) {
        if self.bytes_plain {
            return self.leave_plain_bytes(kind);
        }
        if kind == SpanKind::Value {
            self.nesting = self.nesting.saturating_sub(1);
            self.leave_enumerated();
        }
        if self.record.keep_spans {
            if let Source::Replay(Replay { splice: Some(s), .. }) = &mut self.source {
                let last = self.record.spans.len() - 1;
                s.count_closed(&self.record.spans, last, self.record.open.len() - 1, false);
            }
            self.record.cancel_span();
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

    // ----- for the runner (crate-internal) ---------------------------------

    pub(crate) fn enumerate(prefix: Vec<u64>, budget: u32) -> Self {
        Self::blank(Source::Enumerate(Box::new(Enumerate::odometer(prefix, budget))), 0, budget as usize)
    }

    /// An enumerating case that walks one random path of the enumeration
    /// tree within `budget` (see [`crate::enumerate::estimate_count`]).
    pub(crate) fn enumeration_probe(seed: u64, budget: u32) -> Self {
        Self::blank(Source::Enumerate(Box::new(Enumerate::probe(seed, budget))), 0, budget as usize)
    }

    /// The option counts of an enumerating case's draws.
    pub(crate) fn take_widths(&mut self) -> Vec<u64> {
        match &mut self.source {
            Source::Enumerate(e) => std::mem::take(&mut e.widths),
            _ => Vec::new(),
        }
    }

    /// A fingerprint of what a splice will do (the replayed choices, the
    /// span, and where its fresh choices come from), so that a shrinker can
    /// skip a splice it already ran on the same case without generating it
    /// again. `None` for other test cases.
    pub(crate) fn splice_key(&self) -> Option<u64> {
        match &self.source {
            Source::Replay(Replay { splice: Some(s), prefix, .. }) => Some(s.key(prefix)),
            _ => None,
        }
    }

    pub(crate) fn take_report_parts(&mut self) -> (Vec<(String, Term)>, Vec<String>) {
        (std::mem::take(&mut self.record.shown), std::mem::take(&mut self.record.notes))
    }
}

impl Drop for TestCase {
    fn drop(&mut self) {
        // The replayed prefix and any recording not taken serve the next
        // case on this thread.
        if let Source::Replay(r) = &mut self.source {
            pool::give_choices(std::mem::take(&mut r.prefix));
        }
        pool::recycle(std::mem::take(&mut self.record.choices), std::mem::take(&mut self.record.spans));
    }
}

impl std::fmt::Debug for TestCase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let source = match &self.source {
            Source::Random => "random",
            Source::Replay(r) if r.splice.is_some() => "splice",
            Source::Replay(_) => "replay",
            Source::Enumerate(_) => "enumerate",
            Source::Bytes(_) => "bytes",
        };
        f.debug_struct("TestCase")
            .field("source", &source)
            .field("choices", &self.record.choices.len())
            .field("size", &self.size)
            .field("depth", &self.nesting)
            .finish_non_exhaustive()
    }
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
        let mut sp = <TestCase as CaseControl>::splice(seq.0.clone(), 1, &mid, Fresh::random(99, 10), None);
        let after = build(&mut sp);
        assert_eq!(&before[..2], &after[..2]);
        assert_eq!(&before[4..], &after[4..]);
        assert_ne!(&before[2..4], &after[2..4]);
        // The simplest replacement draws zeros for the span only.
        let mut sp = <TestCase as CaseControl>::splice(seq.0.clone(), 1, &mid, Fresh::simplest(), None);
        let after = build(&mut sp);
        assert_eq!(&after[2..4], &[0, 0]);
        assert_eq!(&before[4..], &after[4..]);
    }

    #[test]
    fn a_bounded_splice_judges_as_the_whole_random_value_would() {
        // A random replacement with a bound on its constructors stops early
        // once it reaches the bound; its verdict must be the one the whole
        // value (drawn without a bound, from the same seed) gets.
        type V = Vec<(Option<u8>, Vec<bool>, u16)>;
        let (mut early, mut checked) = (0, 0);
        for seed in 0..200u64 {
            let mut tc = TestCase::random(seed, 8).with_spans(true);
            let _ = <V as crate::Arbitrary>::generate(&mut tc);
            let (base, tree) = tc.finish();
            for (i, span) in tree.spans.iter().enumerate().filter(|(_, s)| s.kind == SpanKind::Value).take(4) {
                let fresh = Fresh::random(seed * 31 + i as u64, 12);
                let mut whole = <TestCase as CaseControl>::splice(base.0.clone(), i, span, fresh.clone(), None);
                let _ = catch_invalid(&mut whole, <V as crate::Arbitrary>::generate);
                let size = whole.record.constructors_of(i);
                for bound in [1, 2, 3, 5, 8, 13] {
                    let mut bounded =
                        <TestCase as CaseControl>::splice(base.0.clone(), i, span, fresh.clone(), Some(bound));
                    let _ = catch_invalid(&mut bounded, <V as crate::Arbitrary>::generate);
                    let not_smaller = bounded.invalid() == Some(&Invalid::NotSmaller);
                    assert_eq!(not_smaller, size >= bound, "seed {seed}, span {i}, bound {bound}: size {size}");
                    checked += 1;
                    early += usize::from(not_smaller && bounded.record.choices.len() < whole.record.choices.len());
                }
            }
        }
        assert!(early > 50, "only {early} of {checked} bounded splices stopped early");
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
        let mut sp = <TestCase as CaseControl>::splice(seq.0.clone(), ordinal, &tree.spans[ordinal], fresh, None);
        let (xs, n) = build(&mut sp);
        assert!(xs.is_empty());
        assert_ne!(n, 0, "the u16 was redrawn");
    }
}
