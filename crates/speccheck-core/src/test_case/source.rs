//! Where a test case's choices come from: one source per case, behind one
//! interface ([`Source::next`]).
//!
//! * [`Source::Random`]: sampled from the case's RNG (generation);
//! * [`Source::Replay`]: read back from a recorded prefix, then continued
//!   as its [`Tail`] says; optionally *splicing* one span — drawing it
//!   afresh, then resuming the old suffix (shrinking, reduction);
//! * [`Source::Enumerate`]: every option within a depth budget, by an
//!   odometer over prefixes, or one random path (exhaustive testing and
//!   its size estimate);
//! * [`Source::Bytes`]: read from a fuzzer's input (see [`crate::bytes`]).
//!
//! The RNG itself belongs to the test case: random generation and random
//! tails (and the plain fast path) share it.

use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::bytes::ByteStream;
use crate::choice::{Choice, ChoiceKind, fingerprint_values};

/// What to do once a replayed prefix runs out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tail {
    /// Take the simplest option (0) of every further draw.
    Simplest,
    /// Draw further choices at random (the test case's RNG).
    Random,
    /// Stop: the case is invalid ([`Invalid::Overrun`](super::Invalid::Overrun)).
    Stop,
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

/// The source of a test case's choices.
#[derive(Clone, Debug)]
pub(crate) enum Source {
    Random,
    Replay(Replay),
    // Boxed, as is a replay's splice: a test case is moved by value from
    // builder to runner, and the rare sources must not make every move
    // larger.
    Enumerate(Box<Enumerate>),
    Bytes(Box<ByteStream>),
}

/// One draw: a choice in `0..=max` of `kind`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ask {
    pub(crate) max: u64,
    pub(crate) kind: ChoiceKind,
}

/// The answer to a draw: a value, or "no more choices" (a replay that
/// ended with [`Tail::Stop`]).
pub(crate) enum Next {
    Value(u64),
    Overrun,
}

impl Source {
    /// The next choice of the draw `ask`. `sample` picks a random value
    /// (with the size in effect), `width` the number of options
    /// enumeration tries at the remaining depth `budget`.
    #[inline]
    pub(crate) fn next(
        &mut self,
        rng: &mut SmallRng,
        size: usize,
        ask: Ask,
        budget: u32,
        sample: impl FnOnce(&mut SmallRng, usize) -> u64,
        width: impl FnOnce(u32) -> u64,
    ) -> Next {
        match self {
            Source::Random => Next::Value(sample(rng, size)),
            Source::Replay(r) => r.next(rng, size, ask.max, ask.kind, sample),
            Source::Enumerate(e) => Next::Value(e.next(ask.max, budget, width)),
            Source::Bytes(b) => Next::Value(b.next(ask.max, ask.kind)),
        }
    }

    /// True when the next draw is sampled at random.
    pub(crate) fn is_sampling(&self) -> bool {
        match self {
            Source::Random => true,
            Source::Enumerate(_) | Source::Bytes(_) => false,
            Source::Replay(r) => r.is_sampling(),
        }
    }
}

/// Replaying a recorded prefix, then its tail; with an optional splice.
#[derive(Clone, Debug)]
pub(crate) struct Replay {
    pub(crate) prefix: Vec<Choice>,
    pub(crate) pos: usize,
    pub(crate) tail: Tail,
    pub(crate) splice: Option<Box<Splice>>,
    /// Replayed choices that did not fit the generator.
    pub(crate) misaligned: usize,
}

impl Replay {
    pub(crate) fn new(prefix: Vec<Choice>, tail: Tail) -> Self {
        Replay { prefix, pos: 0, tail, splice: None, misaligned: 0 }
    }

    #[inline]
    fn next(
        &mut self,
        rng: &mut SmallRng,
        size: usize,
        max: u64,
        kind: ChoiceKind,
        sample: impl FnOnce(&mut SmallRng, usize) -> u64,
    ) -> Next {
        if let Some(s) = self.splice.as_mut()
            && matches!(s.state, SpliceState::Fresh { .. })
        {
            if let Some(&c) = s.fresh.prefix.get(s.fresh_pos) {
                s.fresh_pos += 1;
                return Next::Value(replayed(c, max, kind, &mut self.misaligned));
            }
            return Next::Value(match s.fresh.tail {
                Tail::Random => sample(rng, s.fresh.size).min(max),
                _ => 0,
            });
        }
        if let Some(&c) = self.prefix.get(self.pos) {
            self.pos += 1;
            return Next::Value(replayed(c, max, kind, &mut self.misaligned));
        }
        match self.tail {
            Tail::Simplest => Next::Value(0),
            Tail::Random => Next::Value(sample(rng, size).min(max)),
            Tail::Stop => Next::Overrun,
        }
    }

    /// The next recorded choice, when the replay is plainly reading its
    /// prefix (no splice): the common case, kept small enough to inline.
    #[inline(always)]
    pub(crate) fn next_recorded(&mut self, max: u64, kind: ChoiceKind) -> Option<u64> {
        if self.splice.is_some() {
            return None;
        }
        let &c = self.prefix.get(self.pos)?;
        self.pos += 1;
        Some(replayed(c, max, kind, &mut self.misaligned))
    }

    fn is_sampling(&self) -> bool {
        match &self.splice {
            Some(s) if matches!(s.state, SpliceState::Fresh { .. }) => {
                s.fresh_pos >= s.fresh.prefix.len() && s.fresh.tail == Tail::Random
            }
            _ => self.pos >= self.prefix.len() && self.tail == Tail::Random,
        }
    }

    /// The size in effect inside a fresh span, if one is being drawn.
    pub(crate) fn fresh_size(&self) -> Option<usize> {
        self.splice.as_ref().filter(|s| matches!(s.state, SpliceState::Fresh { .. })).map(|s| s.fresh.size)
    }

    /// True when the recorded prefix was not used up.
    pub(crate) fn prefix_unused(&self) -> bool {
        self.pos < self.prefix.len()
    }
}

/// The value a replayed choice gives a draw of `0..=max` of `kind`. When
/// the recorded sequence does not fit the generator any more (or a shrink
/// pass moved choices around), a value out of bounds becomes the simplest
/// option, and the replay is counted as not exact.
#[inline(always)]
fn replayed(c: Choice, max: u64, kind: ChoiceKind, misaligned: &mut usize) -> u64 {
    if c.value > max || c.kind != kind {
        *misaligned += 1;
        if c.value > max {
            return 0;
        }
    }
    c.value
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SpliceState {
    Waiting,
    Fresh { open_depth: usize },
    Resumed,
}

/// Draw one span afresh during a replay.
#[derive(Clone, Debug)]
pub(crate) struct Splice {
    pub(crate) ordinal: usize,
    /// The span's nesting depth: a collection's last, cancelled slot may
    /// open under the same ordinal first (deeper), and must not be taken
    /// for it.
    pub(crate) depth: u16,
    pub(crate) resume_at: usize,
    pub(crate) fresh: Fresh,
    pub(crate) fresh_pos: usize,
    pub(crate) max_constructors: Option<usize>,
    pub(crate) state: SpliceState,
    /// Constructors of the fresh span so far (counted as its spans open,
    /// when it has a bound): a random value past the bound is known not
    /// smaller before it is finished.
    pub(crate) fresh_constructors: usize,
    /// The nesting at which an opaque value opened inside the fresh span:
    /// nothing inside it counts (see [`crate::span::SpanTree::constructor_count`]).
    pub(crate) opaque_at: Option<usize>,
}

impl Splice {
    /// Span number `ordinal` opened at nesting `open` (spans open around
    /// it): the fresh choices start if it is the spliced one.
    pub(crate) fn on_start(&mut self, ordinal: usize, open: usize) {
        if self.state == SpliceState::Waiting && self.ordinal == ordinal && usize::from(self.depth) == open {
            self.state = SpliceState::Fresh { open_depth: open };
        }
    }

    /// Span `i` of `spans` opened inside the fresh span, `open` spans now
    /// open: counts its constructors (an element's when it closes: the
    /// last slot of a collection is opened, then cancelled). Returns true
    /// once the fresh value has reached its bound, so it cannot be
    /// smaller: its remaining draws then take the simplest options (the
    /// case is invalid whatever they are; finishing it is all that is
    /// left).
    pub(crate) fn count_opened(&mut self, spans: &[crate::span::Span], i: usize, open: usize) -> bool {
        if !self.counting() {
            return false;
        }
        if spans[i].is_opaque_leaf() {
            self.opaque_at = Some(open);
            return false;
        }
        spans[i].kind != crate::span::SpanKind::Slot && self.add(crate::span::own_constructors(spans, i))
    }

    /// Span `i` closed (`closed`) or was cancelled inside the fresh span,
    /// leaving `open` spans open. Returns true as [`count_opened`](Self::count_opened) does.
    pub(crate) fn count_closed(&mut self, spans: &[crate::span::Span], i: usize, open: usize, closed: bool) -> bool {
        let reached = closed
            && self.counting()
            && spans[i].kind == crate::span::SpanKind::Slot
            && self.add(crate::span::own_constructors(spans, i));
        if self.opaque_at.is_some_and(|at| at > open) {
            self.opaque_at = None;
        }
        reached
    }

    /// True while constructors of the fresh span are being counted.
    fn counting(&self) -> bool {
        self.max_constructors.is_some() && matches!(self.state, SpliceState::Fresh { .. }) && self.opaque_at.is_none()
    }

    fn add(&mut self, constructors: usize) -> bool {
        self.fresh_constructors += constructors;
        if self.max_constructors.is_some_and(|limit| self.fresh_constructors >= limit) {
            self.fresh.tail = Tail::Simplest;
            self.fresh_pos = self.fresh.prefix.len();
            return true;
        }
        false
    }

    /// A span closed, leaving `open` spans open: if it was the spliced one,
    /// the replay resumes at the old span's end; returns the bound on its
    /// constructors to check, if any.
    pub(crate) fn on_stop(&mut self, open: usize, pos: &mut usize) -> Option<Option<usize>> {
        if let SpliceState::Fresh { open_depth } = self.state
            && open_depth == open
        {
            self.state = SpliceState::Resumed;
            *pos = self.resume_at;
            return Some(self.max_constructors);
        }
        None
    }

    /// A fingerprint of what the splice does to `prefix`.
    pub(crate) fn key(&self, prefix: &[Choice]) -> u64 {
        let tail = match self.fresh.tail {
            Tail::Simplest => 0,
            Tail::Random => 1,
            Tail::Stop => 2,
        };
        let fields = [
            self.ordinal as u64,
            self.resume_at as u64,
            tail,
            self.fresh.seed,
            self.fresh.size as u64,
            self.max_constructors.map_or(u64::MAX, |m| m as u64),
            prefix.len() as u64,
        ];
        let values = prefix.iter().chain(&self.fresh.prefix).map(|c| c.value);
        fingerprint_values(values.chain(fields))
    }
}

/// Exhaustive enumeration: the odometer's prefix, or one random path, and
/// how many options each draw had.
#[derive(Clone, Debug, Default)]
pub(crate) struct Enumerate {
    pub(crate) prefix: Vec<u64>,
    pub(crate) pos: usize,
    pub(crate) budget: u32,
    pub(crate) widths: Vec<u64>,
    /// The types of the value spans open now, outermost first: a value
    /// whose type is open above it, drawn where its parent's budget is
    /// spent, is cut off (see [`TestCase::start_span`](super::TestCase::start_span)).
    pub(crate) open: Vec<std::any::TypeId>,
    /// A random walk down the enumeration tree instead of the odometer's
    /// prefix: each draw takes a uniform option among its width (Knuth's
    /// estimator of a search tree's size, see
    /// [`crate::enumerate::estimate_count`]).
    pub(crate) probe: Option<SmallRng>,
}

impl Enumerate {
    pub(crate) fn odometer(prefix: Vec<u64>, budget: u32) -> Self {
        Enumerate { prefix, budget, ..Enumerate::default() }
    }

    pub(crate) fn probe(seed: u64, budget: u32) -> Self {
        Enumerate { budget, probe: Some(SmallRng::seed_from_u64(seed)), ..Enumerate::default() }
    }

    fn next(&mut self, max: u64, budget: u32, width: impl FnOnce(u32) -> u64) -> u64 {
        let w = width(budget).clamp(1, max.saturating_add(1).max(1));
        let v = match self.probe.as_mut() {
            Some(rng) => rand::Rng::random_range(rng, 0..w),
            None => self.prefix.get(self.pos).map_or(0, |&v| v).min(w - 1),
        };
        self.pos += 1;
        self.widths.push(w);
        v
    }
}
