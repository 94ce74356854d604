//! The sampling strategy: random valid inputs of a chosen size. Filtering
//! random values cannot reach large valid inputs (a random tree of sixteen
//! nodes is almost never a red-black tree), and enumerating reaches them
//! only after every smaller one. The sampler builds an input the way the
//! lazy strategy does ([`crate::lazy`]) — from an input that is all holes,
//! filling only the hole the spec needs, dropping a partial input the spec
//! refutes together with every completion — but tries each hole's options
//! in random order and stops at the first complete input (the use of lazy
//! refutation in Claessen, Duregård and Pałka, "Generating constrained
//! random data with uniform distribution", FLOPS 2014).
//!
//! Size: a hole of a type that can grow (recursion found from the type
//! graph, or a sequence) carries a budget. A recursive step spends one and
//! splits the rest at random among the fields that can grow, so a sampled
//! tree takes the shape of a random split (as a random search tree's root
//! rank is uniform); a sequence spends one per element. A refuted option
//! is undone (chronological backtracking, bounded per attempt); an attempt
//! that runs out of steps starts again, and after every few the size
//! shrinks (after one attempt each past a work limit), so a spec that only small inputs
//! meet still gets inputs, and a spec nothing meets ends with a clear "none
//! found". The sampler keeps a record of how often attempts at each size
//! class found an input, and starts most samples below the first class
//! where fewer than one in sixteen did: past the sizes where valid inputs
//! are hard to build (a red-black tree of 60 nodes), an attempt mostly
//! spends its steps and finds nothing. An integer hole is drawn first where the comparisons it met
//! ([`Hint`]) say it must be: `h >= 3` from a sorted list's refinement,
//! `key < 7` from a search tree's; uniform draws would almost never fit
//! the narrowing intervals of a large ordered structure.
//!
//! Splicing: building node by node costs hundreds of judgements per large
//! input, most of them on fills that are undone. Past the first hundred
//! inputs (a default run's, each built afresh and so independent of the
//! others), 255 cases in 256 first try to splice: each growing argument is
//! a constructor whose growing fields take *parts* of earlier inputs (up
//! to 256 kept per type), 12 at random as the options of the field's
//! hole, the largest first within its share of a size drawn up to the
//! case's: a red-black tree over two subtrees of trees found before, its
//! colour and key drawn as any hole's. The judgement decides each part as
//! any fill, so a part that does not fit (another black height, keys on
//! the wrong side) is refuted and the next one tried. A part's own
//! refinements are not judged again (it comes from an input the judgement
//! accepted), and what measures said of the parts is remembered from one
//! splicing attempt to the next, so a large input costs tens of
//! judgements on the new node alone. A splice that makes an input one of
//! the last few thousand splices made is tried again (a root with nothing
//! of its own to draw, over parts drawn before). The case in 256 that
//! builds afresh brings new shapes into the parts (every spliced input
//! brings a new node and its keys). Such a build (and that of a case
//! whose splices all fail) starts small, at 16 nodes at most
//! (`RENEW_SIZE`; higher only when the spec wants larger inputs), since
//! splicing grows the large inputs from the parts. Hypothesis splices
//! parts of earlier inputs the same way.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use speccheck_spec::{BinOp, DataDef, DataRef, Expr, Hint, Measures, Memo, Side, Ty, Value};

use crate::depth::{constructors, recursive_step};
use crate::incremental::Pending;
use crate::judge::{Decision, Judge, Open, Partial, fill_args, has_refinements, locate};
use crate::lazy::LazyError;

/// How many values an integer hole tries before its choice is undone.
const INT_TRIES: usize = 6;
/// How many random splits of its budget a recursive step tries.
const SPLIT_TRIES: usize = 3;
/// How much work one input may take at its size before smaller sizes are
/// tried faster, in judgements weighted by the size tried (what one costs
/// grows with it): at most tens of milliseconds on this project's benchmarks, so a run
/// of 100 cases stays within seconds even where large valid inputs are
/// hard to build. Work, not time, so that a seed makes the same inputs on
/// every machine.
pub const WORK_LIMIT: u64 = 8_000;
/// The largest size tried when no smaller input meets the spec.
const UPWARD_LIMIT: u32 = 64;
/// A size class pays while at least one attempt in this many finds an
/// input there.
const PAYING_ONE_IN: u32 = 16;
/// One sample in this many may start above the sizes that pay.
const EXPLORE_ONE_IN: u32 = 16;
/// Attempts at one size before the size shrinks by a quarter.
const ATTEMPTS_PER_SIZE: u32 = 10;

/// Fresh starts of a case whose work ran out at every size, when earlier
/// cases found inputs (see [`Sampler::sample`]).
const RETRIES: u32 = 4;

/// Parts of earlier inputs kept per data type (see [`Parts`]).
const PARTS_KEPT: usize = 256;
/// Splicing attempts per case, when a case splices.
const SPLICE_ATTEMPTS: usize = 8;
/// Parts of earlier inputs a hole of a splicing attempt tries first (the
/// largest of them first). More options, more chances that a large part
/// fits: measured on the Target bench's sampler rates (seed 1, builds
/// alternated), 12 against 8 made twice the red-black trees of 16 nodes
/// or more a second, 1.6x the maps, and 7x the red-black trees of 32 or
/// more, for 1.5% fewer red-black trees of 8 or more, 5% fewer maps and
/// 17% fewer lists.
const PART_OPTIONS: usize = 12;
/// Past the first inputs, one case in this many builds afresh; the others
/// splice (see the module documentation). Measured on the Target bench's
/// sampler rates: one in 8 spent two thirds of the time building, one in
/// 64 still a third to a half (a red-black tree built afresh took about
/// 30 times a splice's judgements), one in 256 gave 1.2-2.3x the valid
/// inputs a second of one in 64, with the same times to each planted bug
/// over 40 seeds. A case whose splice size comes out 0 cannot splice (a
/// splice is a root over parts) and builds afresh as well: about one case
/// in a hundred at the default size of 100. Those builds are kept on
/// purpose: drawing splice sizes from 1 instead left one case in 256 to
/// build afresh, and the kept parts, then mostly spliced, grew smaller:
/// red-black trees of 16 nodes or more a second fell by a third.
const BUILD_ONE_IN: u32 = 256;
/// Inputs built afresh before any is spliced from parts of earlier ones.
const SPLICE_AFTER: u64 = 100;
/// The largest size a build afresh starts at once cases splice (unless
/// the spec wants larger inputs). Such a build renews the parts later
/// splices take; what it costs grows faster than its size (each node is a
/// hole judged, and a constrained shape backtracks more the larger it
/// is), while a splice grows an input from parts at the cost of its new
/// root. Measured on the Target bench's sampler rates over three seeds, with
/// 8 part options per hole (see [`PART_OPTIONS`] for 12):
/// against builds up to the case's size, 1.1-1.4x (per seed) the
/// red-black trees of 8 nodes or more a second, 1.4-1.9x the maps, 2x
/// the lists, 3x the StackSets; the trees and maps of 32 nodes or more,
/// which only splices of large parts make, fell (maps: 223-284 to 46-74
/// in 3 s). 8 made more inputs of 8 or more but a third
/// fewer of 16 or more (the parts then grew too slowly).
const RENEW_SIZE: u32 = 16;
/// Measure results the judgement keeps before it starts again (see
/// [`Memo::with_limit`]): splices take parts of the last few hundred
/// inputs, so a small table holds what they look up.
pub(crate) const JUDGE_MEMO_LIMIT: usize = 4096;

/// A filled hole whose other options are still to try.
struct Frame {
    args: Vec<Value>,
    /// The holes open besides the one filled.
    open: Vec<Open>,
    decided: bool,
    /// What the specs left undecided before the hole was filled.
    pending: Option<Rc<Pending>>,
    hole: u32,
    /// Where that hole is.
    way: Option<Rc<Vec<usize>>>,
    /// Options left, the next one last.
    options: Vec<(Value, Vec<Open>)>,
}

/// Random valid inputs of a spec, each no larger than the size asked for.
pub struct Sampler<'m> {
    judge: Judge<'m>,
    rng: SmallRng,
    next_hole: u32,
    /// The integers' magnitude in the current attempt.
    magnitude: i128,
    /// How far past a bound a hinted integer goes, in the current attempt.
    stride: i128,
    /// What the last judgement's comparisons said of holes.
    hints: Vec<Hint>,
    /// What each hole of the current partial input was filled with (by
    /// hole; kept in step with the frames: see [`crate::incremental`]).
    fills: Vec<Option<Value>>,
    growable: HashMap<DataRef, bool>,
    /// Partial inputs judged, over every sample.
    pub evaluated: u64,
    /// Attempts abandoned (their steps spent, or every option refuted).
    pub restarts: u64,
    /// Inputs spliced from parts of earlier ones (see the module
    /// documentation), over every sample.
    pub spliced: u64,
    /// After this long on one input, smaller sizes are tried faster.
    work_limit: u64,
    /// Work spent on the current input (see [`WORK_LIMIT`]).
    work: u64,
    /// The largest size the last [`Sampler::sample`] tried.
    pub largest_tried: u32,
    /// The largest size an input has been found at so far.
    reached: u32,
    /// The smallest size an input has been built at so far.
    smallest: u32,
    /// How often attempts at each size class found an input.
    record: SizeRecord,
    /// See [`Sampler::verify_every_step`].
    verify_steps: bool,
    /// Parts of the inputs found so far, to build later ones from.
    parts: Parts,
    /// The current attempt builds its arguments from parts.
    splicing: bool,
    /// Inputs found so far.
    found: u64,
    /// The latest spliced inputs, to splice none twice.
    spliced_before: Recent,
}

impl<'m> Sampler<'m> {
    /// A sampler of the inputs `params` satisfying every spec in
    /// `requires` and the refinements inside their types.
    pub fn new(params: &[(String, Ty)], requires: &[Expr], measures: &'m Measures) -> Result<Self, LazyError> {
        if let Some(why) = params.iter().find_map(|(_, ty)| ty.unbounded()) {
            return Err(LazyError::Unbounded(why));
        }
        if let Some((_, ty)) = params.iter().find(|(_, ty)| has_set(ty)) {
            return Err(LazyError::Type(format!("a set-typed input (inside `{}`)", ty.name())));
        }
        let judge = Judge::new(params, requires, measures);
        judge.memo.replace(Memo::with_limit(JUDGE_MEMO_LIMIT));
        Ok(Sampler {
            judge,
            rng: SmallRng::seed_from_u64(0),
            next_hole: 0,
            magnitude: 8,
            stride: 4,
            hints: Vec::new(),
            fills: Vec::new(),
            growable: HashMap::new(),
            evaluated: 0,
            restarts: 0,
            spliced: 0,
            work_limit: WORK_LIMIT,
            work: 0,
            largest_tried: 0,
            reached: 0,
            smallest: u32::MAX,
            record: SizeRecord::default(),
            verify_steps: false,
            parts: Parts::default(),
            splicing: false,
            found: 0,
            spliced_before: Recent::default(),
        })
    }

    /// After `limit` work on one input, each size gets one attempt
    /// ([`WORK_LIMIT`] unless set), so that an input that is hard to build
    /// at its size comes smaller instead of late.
    pub fn work_limit(mut self, limit: u64) -> Self {
        self.work_limit = limit;
        self
    }

    /// A valid input no larger than `size` (recursive steps and sequence
    /// elements, over all arguments; at most about twice as large as the
    /// largest found so far), drawn from `seed` — or, when no
    /// input that small meets the spec, the smallest larger size that
    /// gives one; `None` when no attempt found one, down to size 0 and up
    /// to 64 (or `size`).
    ///
    /// The input is the one the incremental judgement accepted, not judged
    /// whole again here: the caller re-checks it with the evaluator, as
    /// [`crate::SampleInputs`] re-checks every input it hands out, so a
    /// bug in the judgement is reported there and no input it let through
    /// is used. ([`Sampler::verify_every_step`] checks each step instead.)
    pub fn sample(&mut self, seed: u64, size: u32) -> Result<Option<Vec<Value>>, LazyError> {
        self.rng = SmallRng::seed_from_u64(seed);
        self.work = 0;
        // The size is a bound, as QuickCheck's is: a case takes a size up to
        // it at random (the smaller ones are cheap, and the small scope
        // holds many bugs).
        // And no more than twice the largest size that has given an input
        // so far (plus a little): a spec met only by small inputs
        // (`len(xs) == 3`) is not tried at size 100 on every case.
        // And no larger than the sizes at which attempts still pay (a
        // red-black tree of 60 nodes is rarely built before an attempt's
        // steps run out; one of 20 is built at once).
        // One case in `EXPLORE_ONE_IN` may still try larger ones, so that
        // the record of those follows the run.
        let mut cap = self.reached.saturating_mul(2).saturating_add(4);
        if self.rng.random_range(0..EXPLORE_ONE_IN) != 0 {
            cap = cap.min(self.record.paying());
        }
        // Past the first inputs, most cases first try a few attempts that
        // build the arguments from parts of earlier inputs (see [`Parts`]),
        // at a size up to the case's: they cost tens of judgements each,
        // so the sizes where building node by node stops paying do not
        // bound them, and they are kept out of that record. One case in
        // `BUILD_ONE_IN` still builds afresh, so that the parts keep
        // renewing. The first inputs (a default run's) are all built
        // afresh: each is then independent of the others, which a run of
        // few cases needs more than it needs speed.
        let splices = self.found >= SPLICE_AFTER && self.has_parts_to_splice();
        if splices && self.rng.random_range(0..BUILD_ONE_IN) != 0 {
            self.splicing = true;
            let mut found = None;
            let target = self.rng.random_range(0..=size);
            for _ in 0..SPLICE_ATTEMPTS {
                found = self.attempt(target).transpose();
                // An input spliced before (the same parts under a root with
                // nothing of its own to draw) tests nothing new: another try.
                if let Some(Ok(input)) = &found
                    && !self.spliced_before.insert(input)
                {
                    found = None;
                }
                if found.is_some() {
                    break;
                }
                self.restarts += 1;
            }
            self.splicing = false;
            if let Some(found) = found.transpose()? {
                self.spliced += 1;
                return Ok(Some(self.found_one(found)));
            }
            // The work spent splicing counts toward this input's
            // allowance: the limit bounds what one input costs.
        }
        // Once cases splice, a build afresh is there to renew the parts
        // (new keys, new shapes), and splicing makes the large inputs from
        // them: it starts small (see [`RENEW_SIZE`]), or at the smallest
        // size that gave an input when the spec wants larger ones.
        if splices {
            cap = cap.min(RENEW_SIZE.max(self.smallest));
        }
        let mut start = self.rng.random_range(0..=size.min(cap));
        self.largest_tried = start;
        let mut target = start;
        // Down to 0, then (a spec met only by larger inputs: `len(xs) >= 3`
        // in a case of size 1) up, to a bound.
        let mut up = false;
        let mut retries = 0;
        loop {
            for _ in 0..ATTEMPTS_PER_SIZE {
                let found = self.attempt(target)?;
                self.record.note(target, found.is_some());
                if let Some(found) = found {
                    self.reached = self.reached.max(target);
                    self.smallest = self.smallest.min(target);
                    return Ok(Some(self.found_one(found)));
                }
                self.restarts += 1;
                if self.work > self.work_limit {
                    break;
                }
            }
            if target == 0 && !up {
                up = true;
                target = start;
            }
            if up {
                // By a quarter, so that a spec fixing the size exactly
                // (`len(xs) == 3`) meets its size on the way.
                target = target.saturating_add((target / 4).max(1));
                if target > UPWARD_LIMIT.max(size) {
                    // Earlier cases found inputs up to `reached`: a spec
                    // that few completions meet (an exact count) can miss
                    // them all once this case's work is spent, a size at a
                    // time. Again from a size that gave inputs, with a
                    // fresh allowance, a few times before the run is told
                    // none exist.
                    if self.reached > 0 && retries < RETRIES {
                        retries += 1;
                        self.work = 0;
                        (start, up) = (self.rng.random_range(1..=self.reached), false);
                        target = start;
                        continue;
                    }
                    return Ok(None);
                }
                self.largest_tried = self.largest_tried.max(target);
                continue;
            }
            // Past the work limit, one attempt per size.
            target = target * 3 / 4;
        }
    }

    /// `input`, counted, and its parts kept.
    fn found_one(&mut self, input: Vec<Value>) -> Vec<Value> {
        // Every part, those a splice took included: a part kept again is
        // likelier to be drawn again. (Keeping a splice's new nodes only
        // was measured: the kept parts then lean to the large spliced
        // inputs, splices grow past the sizes asked for, and large inputs
        // a second fall by half.)
        self.parts.keep(&input, &mut self.rng);
        let mut memo = self.judge.memo.borrow_mut();
        for v in &input {
            mark_verified(v, &mut memo);
        }
        drop(memo);
        // The clauses over the arguments, evaluated on the input with the
        // memo: each of its data values is a part of later splices, and
        // what the clauses' measures say of it (a subtree's black height,
        // whether it is a red-black tree) is then looked up, not walked.
        // The judgement decided them conjunct by conjunct, on the partial
        // input's values, which leaves nothing to look up. Only the memo
        // is wanted here: the input's validity is the caller's re-check.
        let mut env = self.judge.arguments(&input);
        for spec in &self.judge.shared_requires {
            let _ = env.bool(spec);
        }
        self.found += 1;
        input
    }

    /// One try at an input of size `target`.
    fn attempt(&mut self, target: u32) -> Result<Option<Vec<Value>>, LazyError> {
        self.draw_magnitude(target);
        // A splicing attempt keeps what measures said of data (its parts
        // are the same shared values from one attempt to the next). One
        // that builds afresh forgets it: what it would remember is of
        // partial values no later attempt shares, and a table grown large
        // cost builds more per lookup than it saved (1.2x slower,
        // measured). Which parts hold their refinements is kept either way.
        let mut memo = self.judge.memo.borrow_mut();
        if self.splicing {
            memo.new_fills();
        } else {
            memo.clear_results();
        }
        drop(memo);
        self.fills.clear();
        let params = self.judge.params.clone();
        let grows: Vec<bool> = params.iter().map(|(_, ty)| self.can_grow(ty)).collect();
        let mut shares = self.split(target, grows.iter().filter(|g| **g).count()).into_iter();
        self.next_hole = params.len() as u32;
        let open = params
            .iter()
            .zip(&grows)
            .enumerate()
            .map(|(i, ((_, ty), grows))| Open {
                id: i as u32,
                ty: ty.clone(),
                bound: if *grows { shares.next().unwrap_or(0) } else { 0 },
                path: Rc::default(),
            })
            .collect();
        let current = Partial {
            args: (0..params.len() as u32).map(Value::Hole).collect(),
            open,
            decided: false,
            pending: None,
            filled: None,
        };
        self.search(current, target)
    }

    /// Per attempt, as Hypothesis mixes per test case: small integers
    /// (that repeat, and meet equalities), up to wide ones.
    fn draw_magnitude(&mut self, target: u32) {
        let floor = 4 * i128::from(target.max(2));
        self.magnitude = match self.rng.random_range(0..4) {
            0 => floor,
            1 => floor.max(1000),
            2 => floor.max(1 << 20),
            _ => i128::MAX,
        };
        self.stride = (self.magnitude / i128::from(target.max(1))).clamp(2, 1 << 32);
    }

    /// Completes `start` (its holes open, `self.next_hole` past them,
    /// `self.fills` empty), backtracking over the options of each hole
    /// filled, within a number of steps that grows with `target`.
    fn search(&mut self, start: Partial, target: u32) -> Result<Option<Vec<Value>>, LazyError> {
        let mut start = Some(start);
        let mut frames: Vec<Frame> = Vec::new();
        // Short attempts, many of them: a search that went wrong early
        // thrashes below its mistake; a fresh start is cheaper.
        let limit = 16 + 8 * u64::from(target);
        let mut steps = 0u64;
        // The next option of the last frame, judged before it is made into
        // a partial input (most options are refuted: a part that does not
        // fit, an integer out of its bounds).
        let mut candidate: Option<(Value, Vec<Open>)> = None;
        loop {
            if steps >= limit {
                return Ok(None);
            }
            steps += 1;
            self.hints.clear();
            let (current, decision) = match candidate.take() {
                Some((value, new)) => {
                    let f = frames.last().expect("an option comes from a frame");
                    match &f.pending {
                        Some(before) if !f.decided && !self.verify_steps => {
                            let (decision, pending) = self.resumed(before, f.hole, &value, target)?;
                            let current = match decision {
                                Decision::Refuted => None,
                                _ => {
                                    let mut p = partial(f, value, new);
                                    p.pending = Some(Rc::new(pending));
                                    Some(p)
                                }
                            };
                            (current, decision)
                        }
                        _ => {
                            let mut p = partial(f, value, new);
                            let decision = self.judged(&mut p, target)?;
                            (Some(p), decision)
                        }
                    }
                }
                None => {
                    let mut p = start.take().expect("the attempt's partial input, judged first");
                    let decision = self.judged(&mut p, target)?;
                    (Some(p), decision)
                }
            };
            let (Some(mut current), false) = (current, matches!(decision, Decision::Refuted)) else {
                match next_option(&mut frames, &mut self.fills) {
                    Some(c) => candidate = Some(c),
                    None => return Ok(None),
                }
                continue;
            };
            let hole = match self.hole_to_fill(decision, &mut current) {
                Some(hole) => hole,
                None => return Ok(Some(current.args)),
            };
            match self.push_frame(&mut frames, current, hole)? {
                Some(c) => candidate = Some(c),
                None => return Ok(None),
            }
        }
    }

    /// What the specs say of `current`, judged by its last fill (or whole,
    /// at an attempt's start); what they leave undecided kept in it.
    fn judged(&mut self, current: &mut Partial, target: u32) -> Result<Decision, LazyError> {
        if current.decided {
            return Ok(Decision::True);
        }
        let (decision, pending) = match (&current.pending, &current.filled) {
            (Some(before), Some((hole, by))) => self.resumed(before, *hole, by, target)?,
            _ => {
                self.count_judgement(target);
                self.judge.start(&current.args, &mut self.hints).map_err(LazyError::Eval)?
            }
        };
        current.pending = Some(Rc::new(pending));
        if self.verify_steps {
            self.agrees(&current.args, &decision)?;
        }
        Ok(decision)
    }

    /// What the last fill (`hole` by `by`) changed, judged against what
    /// the specs left undecided before it.
    fn resumed(
        &mut self,
        before: &Pending,
        hole: u32,
        by: &Value,
        target: u32,
    ) -> Result<(Decision, Pending), LazyError> {
        self.count_judgement(target);
        self.judge.resume(before, hole, by, &self.fills, &mut self.hints).map_err(LazyError::Eval)
    }

    /// Counts a judgement, weighted by the size tried (see [`WORK_LIMIT`]).
    fn count_judgement(&mut self, target: u32) {
        self.evaluated += 1;
        self.work += u64::from(target) + 1;
    }

    /// The hole to fill next in `current`, which the specs did not refute
    /// (`None`: it is complete and valid).
    fn hole_to_fill(&mut self, decision: Decision, current: &mut Partial) -> Option<u32> {
        match decision {
            Decision::Refuted => unreachable!("a refuted partial input is not filled further"),
            // A scalar compared with a side not built yet: that side
            // first, so that the scalar is drawn within its bound.
            Decision::Needs(h) => Some(self.built_first(h, &current.open)),
            // Structures before scalars no spec needs, so that those can
            // take values the structures hold.
            Decision::True => {
                let o = current.open.iter().find(|o| !is_scalar(&o.ty)).or(current.open.first())?;
                let id = o.id;
                current.decided = current.open.iter().all(|o| !has_refinements(&o.ty, &mut Vec::new()));
                Some(id)
            }
        }
    }

    /// A frame filling `hole` of `current` with its options; the first
    /// option (`None` when it has none and no frame below has any left).
    fn push_frame(
        &mut self,
        frames: &mut Vec<Frame>,
        mut current: Partial,
        hole: u32,
    ) -> Result<Option<(Value, Vec<Open>)>, LazyError> {
        let i = current.open.iter().position(|o| o.id == hole).expect("a needed hole is open");
        let filled = current.open.remove(i);
        let mut options = self.options(&filled, &current.args)?;
        options.reverse();
        let way = locate(&current.args, filled.id).map(Rc::new);
        frames.push(Frame {
            way,
            args: current.args,
            open: current.open,
            decided: current.decided,
            pending: current.pending,
            hole: filled.id,
            options,
        });
        Ok(next_option(frames, &mut self.fills))
    }

    /// Judges every partial input whole as well, and fails on a different
    /// verdict (a test of the incremental judgement; slow).
    pub fn verify_every_step(mut self) -> Self {
        self.verify_steps = true;
        self
    }

    fn agrees(&self, args: &[Value], decision: &Decision) -> Result<(), LazyError> {
        let whole = self.judge.decide(args, &mut Vec::new()).map_err(LazyError::Eval)?;
        let kind = |d: &Decision| match d {
            Decision::Refuted => "refuted",
            Decision::True => "true",
            Decision::Needs(_) => "undecided",
        };
        if kind(&whole) == kind(decision) {
            return Ok(());
        }
        Err(LazyError::Disagreement(format!(
            "by the last fill {}, whole {}, on {}",
            kind(decision),
            kind(&whole),
            args.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
        )))
    }

    /// The hole to fill when the spec needs `h`: the one the other side of
    /// a comparison with `h` needs, when `h` is a scalar with no bound yet.
    fn built_first(&self, h: u32, open: &[Open]) -> u32 {
        let on_h = || self.hints.iter().filter(|x| x.hole == h);
        if on_h().any(|x| matches!(x.other, Side::Known(_))) {
            return h;
        }
        if !open.iter().any(|o| o.id == h && is_scalar(&o.ty)) {
            return h;
        }
        on_h()
            .find_map(|x| match x.other {
                Side::Needs(g) if open.iter().any(|o| o.id == g) => Some(g),
                _ => None,
            })
            .unwrap_or(h)
    }

    /// The values `hole` may take, in the order to try them, each with the
    /// new holes inside it.
    fn options(&mut self, hole: &Open, args: &[Value]) -> Result<Vec<(Value, Vec<Open>)>, LazyError> {
        let b = hole.bound;
        Ok(match &hole.ty {
            Ty::Int { lo, hi } => {
                // Where the comparisons met on this hole say it must be,
                // first; the last tries anywhere (a hint may sit under a
                // disjunction).
                let hinted = narrowed(*lo, *hi, self.hints.iter().filter(|h| h.hole == hole.id));
                let mut xs: Vec<i128> = Vec::with_capacity(INT_TRIES);
                // Unsteered, now and then a value the input already holds
                // (Hypothesis reuses values too): a key to look up or
                // delete is one the structure has.
                if hinted.is_none() && self.rng.random_range(0..3) == 0 {
                    let mut held = Vec::new();
                    ints_in(args, &mut held);
                    held.retain(|x| (*lo..=*hi).contains(x));
                    if !held.is_empty() {
                        xs.push(held[self.rng.random_range(0..held.len())]);
                    }
                }
                for t in 0..INT_TRIES {
                    let x = match hinted {
                        Some(range) if t + 2 < INT_TRIES => self.int_within(range),
                        _ => self.int(*lo, *hi),
                    };
                    if !xs.contains(&x) {
                        xs.push(x);
                    }
                }
                xs.into_iter().map(|x| (Value::Int(x), Vec::new())).collect()
            }
            Ty::Bool => {
                let first = self.rng.random_bool(0.5);
                vec![(Value::Bool(first), Vec::new()), (Value::Bool(!first), Vec::new())]
            }
            Ty::Seq(elem) => {
                let mut lengths = vec![b];
                if b > 0 {
                    lengths.push(self.rng.random_range(0..b));
                    lengths.push(0);
                }
                lengths.dedup();
                let grows = self.can_grow(elem);
                lengths
                    .into_iter()
                    .map(|n| {
                        let shares = if grows { self.split(b - n, n as usize) } else { vec![0; n as usize] };
                        let (xs, open): (Vec<Value>, Vec<Open>) =
                            shares.into_iter().map(|s| self.fresh(elem, s, &hole.path)).unzip();
                        (Value::Seq(xs), open)
                    })
                    .collect()
            }
            Ty::Set(_) => return Err(LazyError::Type(format!("a set-typed input (`{}`)", hole.ty.name()))),
            Ty::Data(r) => {
                let def = r.get();
                let path = hole.path_into(r);
                let (mut allowed, _) = constructors(def, &path, b, false);
                allowed.shuffle(&mut self.rng);
                let (steps, rest): (Vec<usize>, Vec<usize>) =
                    allowed.into_iter().partition(|&c| def.ctors[c].recursive || recursive_step(&def.ctors[c], &path));
                // With budget left, a recursive step first (a few splits of
                // what is left: first a near-even one, then uniform ones),
                // then the others, passing the budget on.
                let mut plan: Vec<(usize, u32, bool)> = Vec::new();
                if b > 0 && !steps.is_empty() {
                    for t in 0..SPLIT_TRIES {
                        plan.push((steps[self.rng.random_range(0..steps.len())], b - 1, t == 0));
                    }
                }
                // In a splicing attempt, an argument that grows takes only
                // constructors with a field that grows, and each such field
                // (right below the argument) takes parts of earlier inputs
                // as its options (each refuted as any fill), or the steps of
                // any attempt when no part is small enough.
                let argument = (hole.id as usize) < self.judge.params.len();
                let splicing = self.splicing && self.can_grow(&hole.ty);
                plan.extend(rest.into_iter().map(|c| (c, b, false)));
                if splicing && argument {
                    plan.retain(|(c, _, _)| def.ctors[*c].fields.iter().any(|f| self.can_grow(&f.ty)));
                }
                if splicing && !argument && hole.path.len() == 1 {
                    let parts = self.parts.some(r, b, PART_OPTIONS, &mut self.rng);
                    if !parts.is_empty() {
                        return Ok(parts.into_iter().map(|v| (v, Vec::new())).collect());
                    }
                }
                plan.into_iter().map(|(c, left, even)| self.step(def, c, left, even, &path)).collect()
            }
        })
    }

    /// Whether an argument is of a data type with parts kept to splice.
    fn has_parts_to_splice(&self) -> bool {
        self.judge.params.iter().any(|(_, ty)| matches!(ty, Ty::Data(r) if self.parts.holds(r)))
    }

    /// Constructor `c` of `def`, its fields holes, `left` steps shared
    /// among those that grow (near evenly when `even`).
    fn step(
        &mut self,
        def: &'static DataDef,
        c: usize,
        left: u32,
        even: bool,
        path: &Rc<Vec<DataRef>>,
    ) -> (Value, Vec<Open>) {
        let fields = &def.ctors[c].fields;
        let grows: Vec<bool> = fields.iter().map(|f| self.can_grow(&f.ty)).collect();
        let n = grows.iter().filter(|g| **g).count();
        let mut shares = if even { self.split_even(left, n) } else { self.split(left, n) }.into_iter();
        let mut open = Vec::new();
        let values: Vec<Value> = fields
            .iter()
            .zip(grows)
            .map(|(f, g)| {
                let share = if g { shares.next().unwrap_or(0) } else { 0 };
                let (v, o) = self.fresh(&f.ty, share, path);
                open.push(o);
                v
            })
            .collect();
        (Value::Data { def, ctor: c, fields: values.into() }, open)
    }

    fn fresh(&mut self, ty: &Ty, budget: u32, path: &Rc<Vec<DataRef>>) -> (Value, Open) {
        let id = self.next_hole;
        self.next_hole += 1;
        (Value::Hole(id), Open { id, ty: ty.clone(), bound: budget, path: path.clone() })
    }

    /// An integer of `lo..=hi`: one in eight a special value (an end of
    /// the range, 0, ±1), one in four a small one (within 4 of the range's
    /// value nearest 0), else uniform within the attempt's magnitude.
    fn int(&mut self, lo: i128, hi: i128) -> i128 {
        let m = match self.rng.random_range(0..8) {
            0 => {
                let special = [lo, hi, 0, 1, -1, lo.saturating_add(1), hi.saturating_sub(1)];
                return special[self.rng.random_range(0..special.len())].clamp(lo, hi);
            }
            1 | 2 => 4,
            _ => self.magnitude,
        };
        let (a, b) =
            if lo < 0 { (lo.max(-m), hi.min(m)) } else { (lo, hi.min(lo.saturating_add(m.saturating_mul(2)))) };
        // A range wholly past the magnitude: uniform over it.
        if a > b { self.rng.random_range(lo..=hi) } else { self.rng.random_range(a..=b) }
    }

    /// An integer within hinted bounds: uniform between two, a stride's
    /// random part past one.
    fn int_within(&mut self, r: Narrowed) -> i128 {
        match (r.lo_hinted, r.hi_hinted) {
            (true, false) => r.lo.saturating_add(self.rng.random_range(0..=self.stride)).min(r.hi),
            (false, true) => r.hi.saturating_sub(self.rng.random_range(0..=self.stride)).max(r.lo),
            // Between two bounds around zero (a precondition's range), the
            // same mix as anywhere; between two elsewhere (a search tree's
            // interval), uniform.
            (true, true) if r.lo > 0 || r.hi < 0 => self.rng.random_range(r.lo..=r.hi),
            _ => self.int(r.lo, r.hi),
        }
    }

    /// `total` split into `parts` unit by unit, each to a part at random:
    /// shares near even (balanced shapes, which invariants such as equal
    /// black heights need).
    fn split_even(&mut self, total: u32, parts: usize) -> Vec<u32> {
        let mut out = vec![0; parts];
        if parts > 0 {
            for _ in 0..total {
                out[self.rng.random_range(0..parts)] += 1;
            }
        }
        out
    }

    /// `total` split at random into `parts` (uniform over compositions).
    fn split(&mut self, total: u32, parts: usize) -> Vec<u32> {
        if parts == 0 {
            return Vec::new();
        }
        let mut cuts: Vec<u32> = (1..parts).map(|_| self.rng.random_range(0..=total)).collect();
        cuts.sort_unstable();
        let mut out = Vec::with_capacity(parts);
        let mut prev = 0;
        for c in cuts {
            out.push(c - prev);
            prev = c;
        }
        out.push(total - prev);
        out
    }

    /// Whether values of `ty` can be arbitrarily large (a sequence, or a
    /// data type that reaches itself or a sequence).
    fn can_grow(&mut self, ty: &Ty) -> bool {
        match ty {
            Ty::Seq(_) => true,
            Ty::Int { .. } | Ty::Bool | Ty::Set(_) => false,
            Ty::Data(r) => {
                // By type, not name: `Option<i64>` does not grow,
                // `Option<Box<Self>>` does.
                if let Some(g) = self.growable.get(r) {
                    return *g;
                }
                let g = grows(ty, &mut Vec::new());
                self.growable.insert(r.clone(), g);
                g
            }
        }
    }
}

/// Parts of the inputs found so far: every value of a data type with at
/// least one recursive step, inside each input (the input itself
/// included), by type, with its size; at most [`PARTS_KEPT`] per type,
/// and once full each new part replaces one at random (so the kept parts
/// lean to recent inputs). In a splicing attempt a growing argument is a
/// constructor whose growing fields of a data type are parts (a field
/// with no part small enough is built as in any attempt): the judgement
/// decides it as any other fill (the refinements inside, and how the
/// parts fit together and with the spec), so a part is only a proposal.
/// Where refinements compose (a search tree's subtree is one), a large
/// valid input is then a few choices of parts that fit, where building it
/// node by node takes a judgement per node and backtracks on each
/// violation.
#[derive(Default)]
struct Parts {
    /// By the address of the type's definition (one per type for the
    /// process's life).
    by_type: HashMap<usize, Vec<(u32, Value)>>,
}

impl Parts {
    /// Keeps the parts of `input`.
    fn keep(&mut self, input: &[Value], rng: &mut SmallRng) {
        for v in input {
            self.walk(v, rng);
        }
    }

    /// Keeps `v`, a part of type `def` of `size` steps.
    fn add(&mut self, def: &'static DataDef, size: u32, v: &Value, rng: &mut SmallRng) {
        let kept = self.by_type.entry(address(def)).or_default();
        if kept.len() < PARTS_KEPT {
            kept.push((size, v.clone()));
        } else {
            kept[rng.random_range(0..PARTS_KEPT)] = (size, v.clone());
        }
    }

    /// Keeps the parts of `v`; returns its size: constructors declared
    /// recursive, and sequence elements. (The budget also counts a step
    /// that re-enters a type through another, `Option<Box<Self>>`'s
    /// `Some`; a part of such a type may take up to about twice its share.)
    fn walk(&mut self, v: &Value, rng: &mut SmallRng) -> u32 {
        match v {
            Value::Data { def, ctor, fields } => {
                let inside: u32 = fields.iter().map(|f| self.walk(f, rng)).sum();
                let size = inside + u32::from(def.ctors[*ctor].recursive);
                if size > 0 {
                    self.add(def, size, v, rng);
                }
                size
            }
            Value::Seq(xs) => xs.iter().map(|x| self.walk(x, rng)).sum::<u32>() + xs.len() as u32,
            _ => 0,
        }
    }

    /// Whether parts of type `r` are kept.
    fn holds(&self, r: &DataRef) -> bool {
        self.by_type.contains_key(&address(r.get()))
    }

    /// Up to `n` kept parts of type `r` no larger than `bound`, drawn at
    /// random, the largest first (the bound is the share of the case's
    /// size this part may take), none twice.
    fn some(&self, r: &DataRef, bound: u32, n: usize, rng: &mut SmallRng) -> Vec<Value> {
        let Some(kept) = self.by_type.get(&address(r.get())) else { return Vec::new() };
        let mut picked: Vec<&(u32, Value)> =
            (0..2 * n).map(|_| &kept[rng.random_range(0..kept.len())]).filter(|(size, _)| *size <= bound).collect();
        picked.sort_by_key(|(size, _)| std::cmp::Reverse(*size));
        let mut out: Vec<Value> = Vec::with_capacity(n);
        for (_, v) in picked {
            if out.len() < n && !out.iter().any(|o| same(o, v)) {
                out.push(v.clone());
            }
        }
        out
    }
}

/// The last [`Recent::KEPT`] inputs, by a hash of their values.
#[derive(Default)]
struct Recent {
    order: std::collections::VecDeque<u64>,
    seen: std::collections::HashSet<u64>,
}

impl Recent {
    const KEPT: usize = 4096;

    /// Notes `input`; false when it is among the last ones noted.
    fn insert(&mut self, input: &[Value]) -> bool {
        use std::hash::{Hash as _, Hasher as _};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        input.hash(&mut h);
        let key = h.finish();
        if !self.seen.insert(key) {
            return false;
        }
        self.order.push_back(key);
        if self.order.len() > Self::KEPT
            && let Some(old) = self.order.pop_front()
        {
            self.seen.remove(&old);
        }
        true
    }
}

/// Whether two kept parts are the same value (kept parts are shared).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Data { fields: x, .. }, Value::Data { fields: y, .. }) => Arc::ptr_eq(x, y),
        _ => false,
    }
}

/// Notes in `memo` that the data inside `v`, a part of a checked input,
/// holds its refinements (a splice that takes it need not check them).
fn mark_verified(v: &Value, memo: &mut speccheck_spec::Memo) {
    match v {
        Value::Data { fields, .. } => {
            if memo.verified(fields) {
                return;
            }
            for f in fields.iter() {
                mark_verified(f, memo);
            }
            memo.set_verified(fields);
        }
        Value::Seq(xs) => xs.iter().for_each(|x| mark_verified(x, memo)),
        _ => {}
    }
}

/// The key of a type's definition.
fn address(def: &'static DataDef) -> usize {
    std::ptr::from_ref(def) as usize
}

/// Attempts and the inputs they found, by size class (0, 1, 2–3, 4–7, …),
/// halved now and then so that the record follows the run.
struct SizeRecord {
    tried: [u32; 33],
    found: [u32; 33],
}

impl Default for SizeRecord {
    fn default() -> Self {
        SizeRecord { tried: [0; 33], found: [0; 33] }
    }
}

impl SizeRecord {
    /// Attempts a class needs before its record counts.
    const SEEN: u32 = 8;
    /// Attempts after which a class's counts are halved.
    const HALVE_AT: u32 = 256;

    fn class(size: u32) -> usize {
        (u32::BITS - size.leading_zeros()) as usize
    }

    fn note(&mut self, size: u32, found: bool) {
        let c = Self::class(size);
        self.tried[c] += 1;
        self.found[c] += u32::from(found);
        if self.tried[c] >= Self::HALVE_AT {
            self.tried[c] /= 2;
            self.found[c] /= 2;
        }
    }

    /// Whether attempts at class `c` find an input often enough (or are
    /// too few to say).
    fn pays(&self, c: usize) -> bool {
        self.tried[c] < Self::SEEN || self.found[c] * PAYING_ONE_IN >= self.tried[c]
    }

    /// The largest size of the classes below the first that does not pay,
    /// above the first that was seen to (`u32::MAX` when all do; at least
    /// 1). The small classes below it may fail for want of inputs that
    /// small (`len(xs) >= 3`), not because they are hard to build.
    fn paying(&self) -> u32 {
        let proven = |c: usize| self.tried[c] >= Self::SEEN && self.pays(c);
        let Some(first) = (0..self.tried.len()).find(|&c| proven(c)) else { return u32::MAX };
        match (first + 1..self.tried.len()).find(|&c| !self.pays(c)) {
            // Class `c` holds `2^(c-1)..2^c`.
            Some(c) => ((1u32 << (c - 1)) - 1).max(1),
            None => u32::MAX,
        }
    }
}

/// An integer range narrowed by hints, and which ends they moved.
#[derive(Clone, Copy)]
struct Narrowed {
    lo: i128,
    hi: i128,
    lo_hinted: bool,
    hi_hinted: bool,
}

/// `lo..=hi` narrowed by `hints` (`None` when they leave nothing, or say
/// nothing).
fn narrowed<'h>(lo: i128, hi: i128, hints: impl Iterator<Item = &'h Hint>) -> Option<Narrowed> {
    let mut r = Narrowed { lo, hi, lo_hinted: false, hi_hinted: false };
    let mut any = false;
    for h in hints {
        let Side::Known(v) = h.other else { continue };
        any = true;
        let (low, high) = match h.op {
            BinOp::Lt => (None, v.checked_sub(1)),
            BinOp::Le => (None, Some(v)),
            BinOp::Gt => (v.checked_add(1), None),
            BinOp::Ge => (Some(v), None),
            BinOp::Eq => (Some(v), Some(v)),
            _ => (None, None),
        };
        if let Some(l) = low.filter(|l| *l > r.lo) {
            r.lo = l;
            r.lo_hinted = true;
        }
        if let Some(u) = high.filter(|u| *u < r.hi) {
            r.hi = u;
            r.hi_hinted = true;
        }
    }
    (any && r.lo <= r.hi).then_some(r)
}

/// The partial input of frame `f` with its hole filled by `value`, whose
/// own holes are `new`.
fn partial(f: &Frame, value: Value, new: Vec<Open>) -> Partial {
    let args = fill_args(&f.args, f.way.as_deref().map(Vec::as_slice), f.hole, &value);
    let mut open = f.open.clone();
    open.extend(new);
    Partial { args, open, decided: f.decided, pending: f.pending.clone(), filled: Some((f.hole, value)) }
}

/// The next option of the innermost frame that has one: its value, noted
/// in `fills`, and the holes inside it.
fn next_option(frames: &mut Vec<Frame>, fills: &mut Vec<Option<Value>>) -> Option<(Value, Vec<Open>)> {
    while let Some(f) = frames.last_mut() {
        let at = f.hole as usize;
        if let Some((v, new)) = f.options.pop() {
            if fills.len() <= at {
                fills.resize(at + 1, None);
            }
            fills[at] = Some(v.clone());
            return Some((v, new));
        }
        if let Some(x) = fills.get_mut(at) {
            *x = None;
        }
        frames.pop();
    }
    None
}

fn grows(ty: &Ty, visiting: &mut Vec<DataRef>) -> bool {
    match ty {
        Ty::Seq(_) => true,
        Ty::Int { .. } | Ty::Bool | Ty::Set(_) => false,
        Ty::Data(r) => {
            if visiting.contains(r) {
                return true;
            }
            visiting.push(r.clone());
            let def = r.get();
            let g = def.ctors.iter().any(|c| c.recursive || c.fields.iter().any(|f| grows(&f.ty, visiting)));
            visiting.pop();
            g
        }
    }
}

/// Whether `ty` holds no structure (an integer or a boolean).
fn is_scalar(ty: &Ty) -> bool {
    matches!(ty, Ty::Int { .. } | Ty::Bool)
}

/// Every integer in `args`.
fn ints_in(args: &[Value], out: &mut Vec<i128>) {
    for a in args {
        match a {
            Value::Int(i) => out.push(*i),
            Value::Data { fields, .. } => ints_in(fields, out),
            Value::Seq(xs) => ints_in(xs, out),
            _ => {}
        }
    }
}

pub(crate) fn has_set(ty: &Ty) -> bool {
    fn walk(ty: &Ty, seen: &mut Vec<DataRef>) -> bool {
        match ty {
            Ty::Set(_) => true,
            Ty::Int { .. } | Ty::Bool => false,
            Ty::Seq(t) => walk(t, seen),
            Ty::Data(r) => {
                if seen.contains(r) {
                    return false;
                }
                seen.push(r.clone());
                r.get().ctors.iter().flat_map(|c| &c.fields).any(|f| walk(&f.ty, seen))
            }
        }
    }
    walk(ty, &mut Vec::new())
}
