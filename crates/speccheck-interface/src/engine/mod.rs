//! Bottom-up generation (ArtiCheck §3): pools of instances per type,
//! filled by applying every function to the instances available, until
//! the fixpoint of bounded pools (§3.3).
//!
//! Rounds follow Jacobi iteration: round `r` applies each function to the
//! pools as they were when it started (a `Snapshot`) and adds what the
//! calls return, destructed into parts, with generation `r`. Only argument
//! tuples with at least one instance from round `r - 1` are tried
//! (semi-naive evaluation), in a pseudo-random order and up to a budget
//! per function (`crate::space`). Laws are tested the same way on the
//! new instances. The search stops at the first counterexample, when no
//! round makes anything new (the true fixpoint), when every abstract type
//! has its required number of instances (the paper's `{required;
//! produced}` lattice), or when a budget runs out.
//!
//! The engine runs on a worker thread; before each call it stamps the
//! shared `Watch` and publishes the call's provenance, so the watching
//! thread can report a hanging call as a counterexample program.

use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::SmallRng;
use speccheck_core::runner::{FailureInfo, FailureKind};
use speccheck_core::seed::case_seed;
use speccheck_core::test_case::CaseControl as _;
use speccheck_core::watch::{Phase, Watch};
use speccheck_core::{Term, TestCase};

use crate::config::{Config, DEPTH_CALLS, DISTINCT_COUNTED, REUSE_FACTOR, REUSE_FLOOR};
use crate::describe::Args;
use crate::describe::Dyn;
use crate::describe::{Api, CallError, LawVerdict, Mode, Shape};
use crate::panics::{Caught, capture};
use crate::pool::{Container, Insert};
use crate::provenance::{ArgProv, CallNode, Literal, Origin, Step};
use crate::report::{FnStats, LawStats, Stats, StopReason, TypeStats};
use crate::space::{Inst, Product, Snapshot, Tree, Walk};

mod walk;

/// Seed salt for fresh ground values.
const GROUND_SALT: u64 = 0x9a0d_17e5;

/// What failed, with the provenance to rebuild it.
#[derive(Clone, Debug)]
pub(crate) enum Found {
    /// A call panicked, disagreed with the reference, or hung.
    Call { call: Arc<CallNode> },
    /// A law failed (or panicked) on these instances.
    Law { law: usize, args: Vec<ArgProv> },
}

impl Found {
    /// Calls in the program that rebuilds it.
    pub(crate) fn program_len(&self) -> usize {
        match self {
            Found::Call { call } => crate::program::Program::slice_call(call).len(),
            Found::Law { law, args } => crate::program::Program::slice_law(*law, args).len(),
        }
    }
}

/// A counterexample as the search found it.
#[derive(Clone, Debug)]
pub(crate) struct Finding {
    pub(crate) found: Found,
    pub(crate) failure: FailureInfo,
    pub(crate) what: String,
    pub(crate) time: Duration,
    pub(crate) calls: u64,
}

// ----- how failures are named: the reducer must name them the same way -------

pub(crate) fn law_failed(api: &Api, law: usize) -> (FailureInfo, String) {
    let name = &api.laws[law].law.name;
    (
        FailureInfo {
            kind: FailureKind::Returned,
            message: format!("law `{name}` does not hold"),
            location: Some(format!("law `{name}`")),
            in_generator: false,
        },
        format!("law `{name}` fails"),
    )
}

pub(crate) fn law_panicked(api: &Api, law: usize, c: Caught) -> (FailureInfo, String) {
    let name = &api.laws[law].law.name;
    (
        FailureInfo {
            kind: FailureKind::Panic,
            message: c.message,
            location: Some(c.location.unwrap_or_else(|| format!("law `{name}`"))),
            in_generator: false,
        },
        format!("law `{name}` panics"),
    )
}

pub(crate) fn call_panicked(api: &Api, f: usize, c: Caught) -> (FailureInfo, String) {
    let name = &api.functions[f].f.name;
    (
        FailureInfo {
            kind: FailureKind::Panic,
            message: c.message,
            location: Some(c.location.unwrap_or_else(|| format!("`{name}`"))),
            in_generator: false,
        },
        format!("`{name}` panics"),
    )
}

pub(crate) fn mismatch(api: &Api, f: usize, message: String) -> (FailureInfo, String) {
    let name = &api.functions[f].f.name;
    let reference = api.reference.as_deref().unwrap_or("the reference");
    (
        FailureInfo {
            kind: FailureKind::Returned,
            message,
            location: Some(format!("`{name}` against {reference}")),
            in_generator: false,
        },
        format!("`{name}` disagrees with {reference}"),
    )
}

pub(crate) fn hang(api: &Api, found: &Found, after: Duration) -> (FailureInfo, String) {
    let what = match found {
        Found::Call { call } => format!("`{}`", api.functions[call.fun].f.name),
        Found::Law { law, .. } => format!("law `{}`", api.laws[*law].law.name),
    };
    (
        FailureInfo {
            kind: FailureKind::Timeout,
            message: format!(
                "no result after {}; the thread running it was abandoned",
                speccheck_core::human::duration(after)
            ),
            location: Some(what.clone()),
            in_generator: false,
        },
        format!("{what} does not return"),
    )
}

/// What the watching thread needs to report a hang.
pub(crate) enum InFlight {
    Call(Arc<CallNode>),
    Law { law: usize, args: Vec<ArgProv> },
}

/// Shared between the engine's thread and the thread watching it.
pub(crate) struct Shared {
    pub(crate) watch: Watch,
    pub(crate) enabled: bool,
    pub(crate) in_flight: Mutex<Option<InFlight>>,
    pub(crate) progress: Mutex<Option<Stats>>,
    pub(crate) calls: AtomicU64,
}

impl Shared {
    pub(crate) fn new(enabled: bool) -> Self {
        Shared {
            watch: Watch::new(1, enabled),
            enabled,
            in_flight: Mutex::new(None),
            progress: Mutex::new(None),
            calls: AtomicU64::new(0),
        }
    }
}

/// What the search produced.
pub(crate) struct Output {
    pub(crate) finding: Option<Finding>,
    pub(crate) stats: Stats,
    pub(crate) error: Option<String>,
}

pub(crate) enum Halt {
    Found(Box<Finding>),
    Stop(StopReason),
    Error(String),
}

struct Pool {
    container: Box<dyn Container<Rc<Inst>>>,
    stats: TypeStats,
}

pub(crate) struct Engine<'a> {
    api: &'a Api,
    cfg: &'a Config,
    shared: &'a Shared,
    seed: u64,
    rng: SmallRng,
    /// Set when a walk's call took a snapshot of the walk's instance as an
    /// argument (see `walk`).
    took_snapshot: bool,
    pools: Vec<Pool>,
    round: u32,
    serial: u64,
    ground_draws: u64,
    functions: Vec<FnStats>,
    laws: Vec<LawStats>,
    /// Per type, the laws over a single instance of it: checked as soon
    /// as an instance is accepted.
    unary: Vec<Vec<usize>>,
    /// Distinct new instances offered this round, kept or not.
    novel: u64,
    /// Whether a budget cut an argument product short this round.
    truncated: bool,
    started: Instant,
    /// Deep search (see `walk`).
    lineages: walk::Lineages,
    /// The lineage of the failing call or law's arguments, once found.
    found_depth: u64,
    /// The test case fresh ground values are drawn from (reused).
    ground_tc: TestCase,
    /// Per ground type, the hashes of the distinct values drawn (counted
    /// up to `DISTINCT_COUNTED`).
    distinct: Vec<std::collections::HashSet<u64>>,
    /// Per ground type, the longest `Debug` form of a value drawn.
    longest_drawn: Vec<usize>,
    /// A failure a walk found, held while the rounds look for a shorter
    /// program failing the same way (see [`Engine::run`]).
    pending: Option<Box<Finding>>,
    /// The call count at which the rounds stop looking.
    pending_until: u64,
    /// Whether a walk is running (its results are not pooled).
    in_walk: bool,
    /// The memory budget, ticked once per call and law check.
    memory: crate::memory::Meter,
    /// The recorded calls alive (see `Config::recorded_calls_budget`).
    pub(crate) ledger: crate::provenance::Ledger,
}

impl<'a> Engine<'a> {
    pub(crate) fn new(api: &'a Api, cfg: &'a Config, shared: &'a Shared, seed: u64) -> Self {
        let pools = api
            .types
            .iter()
            .map(|t| {
                let container = cfg.container.make::<Rc<Inst>>(t.bound.unwrap_or(cfg.pool_bound));
                let bound = container.bound();
                Pool {
                    container,
                    stats: TypeStats {
                        name: t.name.clone(),
                        is_abstract: t.is_abstract(),
                        bound,
                        ..TypeStats::default()
                    },
                }
            })
            .collect();
        Engine {
            api,
            cfg,
            shared,
            seed,
            rng: SmallRng::seed_from_u64(seed),
            took_snapshot: false,
            pools,
            round: 0,
            serial: 0,
            ground_draws: 0,
            functions: api.functions.iter().map(|f| FnStats { name: f.f.name.clone(), ..FnStats::default() }).collect(),
            laws: api.laws.iter().map(|l| LawStats { name: l.law.name.clone(), ..LawStats::default() }).collect(),
            unary: (0..api.types.len())
                .map(|k| {
                    (0..api.laws.len())
                        .filter(|&l| matches!(api.laws[l].args.as_slice(), [Shape::Atom(j)] if *j == k))
                        .collect()
                })
                .collect(),
            novel: 0,
            truncated: false,
            started: Instant::now(),
            lineages: walk::Lineages::new(api),
            found_depth: 0,
            ground_tc: TestCase::random(0, 0),
            distinct: vec![std::collections::HashSet::new(); api.types.len()],
            longest_drawn: vec![0; api.types.len()],
            pending: None,
            pending_until: 0,
            in_walk: false,
            memory: crate::memory::Meter::new(cfg.memory_budget),
            ledger: crate::provenance::Ledger::default(),
        }
    }

    pub(crate) fn stats(&self, stop: StopReason) -> Stats {
        Stats {
            types: self
                .pools
                .iter()
                .zip(&self.distinct)
                .map(|(p, d)| TypeStats {
                    held: p.container.len(),
                    distinct: if p.stats.is_abstract { p.stats.built } else { d.len() as u64 },
                    ..p.stats.clone()
                })
                .collect(),
            deepest: self.deepest(),
            walks: self.lineages.walks,
            walk_calls: self.lineages.calls,
            longest_walk: self.lineages.longest,
            depth_target: if self.lineages.enabled() { self.cfg.depth } else { 0 },
            recorded_peak: self.ledger.peak(),
            functions: self.functions.clone(),
            laws: self.laws.clone(),
            rounds: self.round,
            calls: self.serial,
            search_time: self.started.elapsed(),
            reduce_time: Duration::ZERO,
            stop,
            seed: self.seed,
            container: self.cfg.container,
            reference: self.api.reference.clone(),
        }
    }

    /// Runs the search to its end.
    ///
    /// A failure found by a walk comes with a long lineage of calls, most
    /// of which reduction cannot drop one at a time (each changes the
    /// state the next builds on), while the rounds build the smallest
    /// instances first. So the rounds go on alone to their own target (the
    /// `required` instances; searching to a budget, for as many calls
    /// again as the search had made), and a failure of the same kind they
    /// find with a shorter program is reported instead (the time and calls
    /// to find stay those of the first).
    pub(crate) fn run(mut self) -> Output {
        let halt = self.search();
        let halt = match (self.pending.take(), halt) {
            (Some(first), Halt::Found(other)) => {
                let shorter = other.what == first.what
                    && other.failure.kind == first.failure.kind
                    && other.found.program_len() < first.found.program_len();
                Halt::Found(if shorter {
                    Box::new(Finding { time: first.time, calls: first.calls, ..*other })
                } else {
                    first
                })
            }
            (Some(first), Halt::Stop(_)) => Halt::Found(first),
            (_, halt) => halt,
        };
        let (finding, stop, error) = match halt {
            Halt::Found(f) => (Some(*f), StopReason::Found, None),
            Halt::Stop(r) => (None, r, None),
            Halt::Error(e) => (None, StopReason::Found, Some(e)),
        };
        let stats = self.stats(stop);
        Output { finding, stats, error }
    }

    fn search(&mut self) -> Halt {
        for k in 0..self.api.types.len() {
            if let Some(g) = self.api.types[k].ground() {
                let n = g.initial.unwrap_or(self.cfg.ground_initial);
                if let Err(h) = self.fresh(k, n) {
                    return h;
                }
            }
        }
        // Whether the previous round combined everything the pools held,
        // without a budget cut, and built nothing new: the fixpoint.
        let mut exhausted = false;
        loop {
            if self.round >= self.cfg.max_rounds {
                return self.finish(StopReason::Rounds);
            }
            self.round += 1;
            let mut snap = self.snapshot(self.round - 1);
            let mut everything = self.round == 1;
            if self.round > 1 && !snap.has_delta() {
                if exhausted {
                    return Halt::Stop(StopReason::Fixpoint);
                }
                // Nothing new was kept, but budgets cut earlier rounds short
                // (or the pools' sampling dropped what was new): combine
                // everything the pools hold again.
                snap.all_new();
                everything = true;
            }
            self.novel = 0;
            self.truncated = false;
            for f in 0..self.api.functions.len() {
                if let Err(h) = self.apply(f, &snap) {
                    return self.halted(h);
                }
            }
            for l in 0..self.api.laws.len() {
                if let Err(h) = self.check_law(l, &snap) {
                    return self.halted(h);
                }
            }
            drop(snap);
            exhausted = everything && !self.truncated && self.novel == 0;
            for k in 0..self.api.types.len() {
                if let Some(g) = self.api.types[k].ground()
                    && (self.pools[k].stats.built as usize) < self.pools[k].container.bound()
                {
                    let n = g.per_round.unwrap_or(self.cfg.ground_per_round);
                    if let Err(h) = self.fresh(k, n) {
                        return h;
                    }
                }
            }
            match self.walk_phase() {
                Ok(()) => {}
                Err(Halt::Found(f)) if f.failure.kind != FailureKind::Timeout => {
                    // Until the rounds' own target; searching to a budget
                    // (no target), or with the rounds at their target
                    // already, for as many calls again.
                    let open_ended = self.cfg.required == u64::MAX || self.rounds_at_target();
                    self.pending_until = if open_ended { self.serial.saturating_mul(2) } else { u64::MAX };
                    self.pending = Some(f);
                }
                Err(h) => return self.halted(h),
            }
            *self.shared.progress.lock().unwrap_or_else(|e| e.into_inner()) = Some(self.stats(StopReason::Found));
            // A held failure with a call budget waits for that budget.
            let waiting = self.pending.is_some() && self.pending_until != u64::MAX;
            if !waiting && self.deep_enough() && self.rounds_at_target() {
                return self.finish(StopReason::Target);
            }
            if let Some(r) = self.out_of_budget() {
                return self.finish(r);
            }
        }
    }

    /// Whether the walks have reached the depth target (or need not): a
    /// lineage that deep, and [`DEPTH_CALLS`] times as many walk calls.
    fn deep_enough(&self) -> bool {
        !self.lineages.enabled()
            || self.pending.is_some()
            || (self.lineages.depths().1 >= self.cfg.depth
                && self.lineages.calls >= self.cfg.depth.saturating_mul(DEPTH_CALLS))
    }

    /// Whether every abstract type has its `required` instances (or a
    /// full pool that keeps no more).
    fn rounds_at_target(&self) -> bool {
        self.pools
            .iter()
            .filter(|p| p.stats.is_abstract)
            .all(|p| p.stats.built >= self.cfg.required || p.container.saturated())
    }

    /// A budget stopped the round: the instances made so far still get
    /// their laws checked.
    fn halted(&mut self, h: Halt) -> Halt {
        match h {
            Halt::Stop(r @ (StopReason::Calls | StopReason::Time)) => self.finish(r),
            other => other,
        }
    }

    /// Tests the laws on the last round's instances, then stops.
    fn finish(&mut self, reason: StopReason) -> Halt {
        let snap = self.snapshot(self.round);
        for l in 0..self.api.laws.len() {
            if let Err(h) = self.check_law(l, &snap) {
                return h;
            }
        }
        Halt::Stop(reason)
    }

    fn out_of_budget(&self) -> Option<StopReason> {
        if self.serial >= self.cfg.max_calls || (self.pending.is_some() && self.serial >= self.pending_until) {
            return Some(StopReason::Calls);
        }
        if self.cfg.time_budget.is_some_and(|b| self.started.elapsed() >= b) {
            return Some(StopReason::Time);
        }
        if self.shared.watch.is_abandoned() {
            return Some(StopReason::Hang);
        }
        self.over_memory()
    }

    /// The stop at a memory budget, if one is exceeded: the recorded calls
    /// (a count: one load), then the resident memory (read now and then),
    /// the safety net for instances that grow by themselves.
    pub(crate) fn over_memory(&self) -> Option<StopReason> {
        let alive = self.ledger.alive();
        if let Some(budget) = self.cfg.recorded_calls_budget
            && alive >= budget
        {
            return Some(StopReason::RecordedCalls { alive, budget });
        }
        if self.memory.tick() {
            let e = self.memory.exceeded();
            return Some(StopReason::Memory(e.unwrap_or(crate::memory::Exceeded { resident: 0, budget: 0 })));
        }
        None
    }

    /// The pools at the start of round `round + 1`: instances of
    /// generation `delta_gen` are the new ones.
    fn snapshot(&self, delta_gen: u32) -> Snapshot {
        let mut items = Vec::with_capacity(self.pools.len());
        let mut old = Vec::with_capacity(self.pools.len());
        for p in &self.pools {
            let mut olds = Vec::with_capacity(p.container.len());
            let mut news = Vec::new();
            p.container.for_each(&mut |i: &Rc<Inst>| {
                if i.round < delta_gen {
                    olds.push(i.clone());
                } else if i.round == delta_gen {
                    news.push(i.clone());
                }
            });
            old.push(olds.len());
            olds.extend(news);
            items.push(olds);
        }
        Snapshot { items, old }
    }

    // ----- instances ---------------------------------------------------------

    fn offer(&mut self, k: usize, value: Dyn, origin: Origin) -> Result<(), Halt> {
        // What a walk's calls return stays out of the pools like the walk's
        // instance (see `walk::keep`): a value's program includes the
        // lineage of the call that returned it.
        if self.in_walk {
            return Ok(());
        }
        let t = &self.api.types[k];
        if let Some(g) = t.ground()
            && !matches!(origin, Origin::Literal(_))
        {
            let limit = (REUSE_FACTOR * self.longest_drawn[k]).max(REUSE_FLOOR);
            if (g.size)(&*value, limit) > limit {
                self.pools[k].stats.oversized += 1;
                return Ok(());
            }
        }
        let key = (t.ops.hash)(&*value);
        let inst = Rc::new(Inst { value, origin, key, ty: k, round: self.round, eq: t.ops.eq });
        self.insert(k, inst)
    }

    fn insert(&mut self, k: usize, inst: Rc<Inst>) -> Result<(), Halt> {
        let pool = &mut self.pools[k];
        let kept = match pool.container.insert(inst.clone(), &mut self.rng) {
            Insert::Added => {
                pool.stats.produced += 1;
                true
            }
            Insert::Replaced(_) => {
                pool.stats.produced += 1;
                pool.stats.evicted += 1;
                true
            }
            Insert::Duplicate => {
                pool.stats.duplicates += 1;
                return Ok(());
            }
            Insert::Dropped(_) => {
                pool.stats.dropped += 1;
                false
            }
        };
        self.novel += 1;
        let pool = &mut self.pools[k];
        pool.stats.built += 1;
        pool.stats.max_held = pool.stats.max_held.max(pool.container.len());
        if kept {
            for i in 0..self.unary[k].len() {
                let l = self.unary[k][i];
                self.test_law(l, &[Tree::Atom(inst.clone())])?;
            }
        }
        Ok(())
    }

    /// Draws `n` fresh values of ground type `k` (each different from the
    /// pool's, if a few tries allow).
    fn fresh(&mut self, k: usize, n: usize) -> Result<(), Halt> {
        for _ in 0..n {
            for _attempt in 0..8 {
                let Some(inst) = self.fresh_inst(k, self.cfg.ground_size)? else { continue };
                if self.pools[k].container.contains(&inst) {
                    continue;
                }
                self.insert(k, inst)?;
                break;
            }
        }
        Ok(())
    }

    /// One fresh value of ground type `k`, drawn at `size` (`None` when the
    /// generator rejected its draw).
    fn fresh_inst(&mut self, k: usize, size: usize) -> Result<Option<Rc<Inst>>, Halt> {
        let Some(g) = self.api.types[k].ground() else { return Ok(None) };
        let t = &self.api.types[k];
        self.ground_draws += 1;
        let tc = &mut self.ground_tc;
        tc.reset_random(case_seed(self.seed ^ GROUND_SALT, self.ground_draws), size);
        let drawn = capture(|| speccheck_core::test_case::catch_invalid(tc, |tc| (g.draw)(tc)).ok())
            .map_err(|c| Halt::Error(format!("the generator of fresh `{}` values panicked: {c}", t.name)))?;
        let Some(value) = drawn else { return Ok(None) };
        let key = (t.ops.hash)(&*value);
        if self.distinct[k].len() < DISTINCT_COUNTED {
            self.distinct[k].insert(key);
        }
        let term = (g.term)(&*value);
        let len = match &term {
            Term::Atom(text) => text.len(),
            other => other.to_string().len(),
        };
        self.longest_drawn[k] = self.longest_drawn[k].max(len);
        let lit = Arc::new(Literal { term, choices: self.ground_tc.choices().to_vec() });
        Ok(Some(Rc::new(Inst { value, origin: Origin::Literal(lit), key, ty: k, round: self.round, eq: t.ops.eq })))
    }

    /// The longest lineage of any instance kept.
    fn deepest(&self) -> u64 {
        let mut d = self.lineages.depths().0.max(self.found_depth);
        for p in &self.pools {
            p.container.for_each(&mut |i: &Rc<Inst>| d = d.max(i.origin.depth()));
        }
        d
    }

    // ----- calls -------------------------------------------------------------

    fn apply(&mut self, f: usize, snap: &Snapshot) -> Result<(), Halt> {
        let spec = &self.api.functions[f];
        if spec.args.is_empty() && self.round > 1 {
            return Ok(());
        }
        let products = Product::semi_naive(snap, &spec.args, self.cfg.list_max_len);
        let budget = u128::from(self.cfg.calls_per_round);
        let total: u128 = products.iter().map(|p| p.total).fold(0, u128::saturating_add);
        if total == 0 {
            return Ok(());
        }
        for p in &products {
            if p.total == 0 {
                continue;
            }
            let share = if total <= budget { p.total } else { (budget * p.total / total).max(1) };
            self.truncated |= share < p.total;
            let mut walk = Walk::new(p.total, share, &mut self.rng);
            while let Some(i) = walk.next(&mut self.rng) {
                let trees = p.decode(snap, i, self.cfg.list_max_len);
                self.call(f, &trees)?;
                if self.serial.is_multiple_of(256)
                    && let Some(r) = self.out_of_budget()
                {
                    return Err(Halt::Stop(r));
                }
            }
        }
        Ok(())
    }

    fn call(&mut self, f: usize, trees: &[Tree<'_>]) -> Result<(), Halt> {
        if let Some(r) = self.over_memory() {
            return Err(Halt::Stop(r));
        }
        let api = self.api;
        let spec = &api.functions[f];
        self.serial += 1;
        self.functions[f].calls += 1;
        let node = Arc::new(CallNode::new(f, trees.iter().map(Tree::prov).collect(), self.serial, &self.ledger));
        let mut args = Args::with_capacity(trees.len());
        for (t, p) in trees.iter().zip(&spec.f.params) {
            match (p.mode, t) {
                (Mode::Ref, Tree::Atom(inst)) => args.push_borrowed(&*inst.value),
                (_, t) => args.push_owned(t.build(api)),
            }
        }
        let r = self.watched(&node, || (spec.call)(&mut args));
        match r {
            Err(caught) => {
                if spec.f.panics_allowed {
                    self.functions[f].panics_allowed += 1;
                    Ok(())
                } else {
                    let (failure, what) = call_panicked(api, f, caught);
                    Err(self.found(Found::Call { call: node }, failure, what))
                }
            }
            Ok(Err(CallError::Refused)) => {
                self.functions[f].refused += 1;
                Ok(())
            }
            Ok(Err(CallError::Mismatch(m))) => {
                let (failure, what) = mismatch(api, f, m);
                Err(self.found(Found::Call { call: node }, failure, what))
            }
            Ok(Ok(result)) => {
                for (i, p) in spec.f.params.iter().enumerate() {
                    if p.mode == Mode::Mut
                        && let (Shape::Atom(k), Some(v)) = (&spec.args[i], args.take_dyn(i))
                    {
                        self.offer(*k, v, Origin::Mutated { call: node.clone(), arg: i as u32 })?;
                    }
                }
                drop(args);
                self.destruct(&spec.ret, result, &node, &mut Vec::new())
            }
        }
    }

    /// Runs a call, watched for hangs: the watching thread can name it by
    /// its provenance.
    fn watched<R>(&self, node: &Arc<CallNode>, call: impl FnOnce() -> R) -> Result<R, crate::panics::Caught> {
        if self.shared.enabled {
            *self.shared.in_flight.lock().unwrap_or_else(|e| e.into_inner()) = Some(InFlight::Call(node.clone()));
            self.shared.calls.store(self.serial, Ordering::Relaxed);
            self.shared.watch.begin(0, Phase::Generate, self.serial);
        }
        let r = capture(call);
        if self.shared.enabled {
            self.shared.watch.end(0);
        }
        r
    }

    fn found(&mut self, found: Found, failure: FailureInfo, what: String) -> Halt {
        self.found_depth = self.found_depth.max(match &found {
            Found::Call { call } => call.depth,
            Found::Law { args, .. } => args.iter().map(ArgProv::depth).max().unwrap_or(0),
        });
        Halt::Found(Box::new(Finding { found, failure, what, time: self.started.elapsed(), calls: self.serial }))
    }

    /// Feeds every part of a result to the pool of its type.
    fn destruct(&mut self, shape: &Shape, value: Dyn, call: &Arc<CallNode>, path: &mut Vec<Step>) -> Result<(), Halt> {
        if self.in_walk {
            // Nothing a walk's call returns is pooled (see `offer`): taking
            // a large result apart would only cost time.
            return Ok(());
        }
        shape.parts(value, path, &mut |k, v, at| {
            self.offer(k, v, Origin::Part { call: call.clone(), path: at.to_vec() })
        })
    }

    // ----- laws --------------------------------------------------------------

    /// Tests a law on the new combinations of a round (laws over a single
    /// instance were tested when each instance was accepted).
    fn check_law(&mut self, l: usize, snap: &Snapshot) -> Result<(), Halt> {
        let api = self.api;
        let spec = &api.laws[l];
        if self.unary.iter().any(|u| u.contains(&l)) || (spec.args.is_empty() && self.round > 1) {
            return Ok(());
        }
        let products = Product::semi_naive(snap, &spec.args, self.cfg.list_max_len);
        let budget = u128::from(self.cfg.checks_per_round);
        let total: u128 = products.iter().map(|p| p.total).fold(0, u128::saturating_add);
        for p in &products {
            if p.total == 0 {
                continue;
            }
            let share = if total <= budget { p.total } else { (budget * p.total / total).max(1) };
            let mut walk = Walk::new(p.total, share, &mut self.rng);
            while let Some(i) = walk.next(&mut self.rng) {
                let trees = p.decode(snap, i, self.cfg.list_max_len);
                self.test_law(l, &trees)?;
            }
        }
        Ok(())
    }

    /// Tests law `l` on one tuple of instances.
    fn test_law(&mut self, l: usize, trees: &[Tree<'_>]) -> Result<(), Halt> {
        if let Some(r) = self.over_memory() {
            return Err(Halt::Stop(r));
        }
        let api = self.api;
        let spec = &api.laws[l];
        let mut args = Args::with_capacity(trees.len());
        for (t, prm) in trees.iter().zip(&spec.law.params) {
            match (prm.mode, t) {
                (Mode::Ref, Tree::Atom(inst)) => args.push_borrowed(&*inst.value),
                (_, t) => args.push_owned(t.build(api)),
            }
        }
        if self.shared.enabled {
            let provs = trees.iter().map(Tree::prov).collect();
            *self.shared.in_flight.lock().unwrap_or_else(|e| e.into_inner()) =
                Some(InFlight::Law { law: l, args: provs });
            self.shared.watch.begin(0, Phase::Generate, self.serial);
        }
        let r = capture(|| (spec.check)(&mut args));
        if self.shared.enabled {
            self.shared.watch.end(0);
        }
        drop(args);
        let stats = &mut self.laws[l];
        let failed = match r {
            Ok(LawVerdict::Holds) => {
                stats.checked += 1;
                None
            }
            Ok(LawVerdict::Aborted) => {
                stats.aborted += 1;
                None
            }
            Ok(LawVerdict::Fails) => {
                stats.checked += 1;
                Some(law_failed(api, l))
            }
            Err(caught) => {
                stats.checked += 1;
                Some(law_panicked(api, l, caught))
            }
        };
        match failed {
            None => Ok(()),
            Some((failure, what)) => {
                let args = trees.iter().map(Tree::prov).collect();
                Err(self.found(Found::Law { law: l, args }, failure, what))
            }
        }
    }
}
