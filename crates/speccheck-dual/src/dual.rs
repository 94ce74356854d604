//! Dualization and validation (thesis §3.2, §4.2.2–4.2.3, §4.3.2, §4.4.1).
//!
//! From a [`Model`] the tester side is derived, event by event
//! ([`dualize`], the thesis's Figure 4.6):
//!
//! | the model…                         | the tester…                                   |
//! |-----------------------------------|-----------------------------------------------|
//! | receives a request                | generated and sent it (the network delivers it) |
//! | sends a symbolic response         | receives a concrete one and adds a *guard*    |
//! | branches on a symbolic condition  | takes both ways (`or`), each with a *unify* constraint |
//! | branches nondeterministically     | takes every way                               |
//! | makes an internal choice          | creates a fresh variable                      |
//!
//! The [`Validator`] interprets the derived observer against a stream of
//! observations, keeping every branch that still explains them (the
//! thesis's backtracking, breadth-first): a branch is the composed model —
//! server [`Thread`], [`Network`] buffers — plus its constraint store
//! ([`Solver`]). A branch whose constraints become unsatisfiable dies; an
//! observation is rejected only when no branch remains.
//!
//! **Composition with the network** (§4.3.2). A request the tester sends
//! enters the network in every branch. When the tester receives a response
//! on connection `c`, a branch that already holds a response for `c`
//! guards it; otherwise the server is run — the server is scheduled
//! before the network, and only as far as needed: while it wants to
//! receive, the network delivers the oldest in-flight request of *some*
//! connection (one branch per choice), until it sends on `c`. A server
//! blocked on a receive with nothing in flight cannot explain the
//! response. Scheduling the server lazily is complete: any server step not
//! needed to explain an observation can be postponed, because postponing
//! a receive never violates causality and later sends are only observed
//! later. It also keeps the tester from "explaining" a wrong response by
//! imagining further requests — the divergence the thesis avoids by giving
//! the server priority. Silence is never a rejection.

use std::collections::HashSet;
use std::fmt::{self, Debug};
use std::sync::Arc;

use crate::model::{Answer, Conn, Event, Model, ModelError, Symbolic, Thread};
use crate::network::Network;
use crate::rule::{self, Broken, Check, Level};
use crate::solver::{Native, Solver};
use crate::sym::{Expr, Sort, Syms, Var};

/// What the tester does for one model event (the result of dualizing it).
#[derive(Debug, PartialEq, Eq)]
pub enum Observer<'a, R> {
    /// The model receives: the tester generates and sends a request; the
    /// network delivers it.
    FromTester,
    /// The model sends `resp` on `conn`: the tester receives a concrete
    /// response there and guards it against `resp`.
    ToTester(Conn, &'a R),
    /// The model branches on `cond`: the tester takes both ways, unifying
    /// `cond` with `true` in one and `false` in the other.
    Unify(&'a Expr),
    /// The model requires `cond`: the tester constrains it.
    Assume(&'a Expr),
    /// The model branches nondeterministically: the tester takes each way.
    Fork(usize),
    /// The model makes an internal choice: the tester names it with a fresh
    /// variable.
    FreshVar(Sort, &'static str),
}

/// Dualizes one model event (thesis Figure 4.6).
pub fn dualize<R>(ev: &Event<R>) -> Observer<'_, R> {
    match ev {
        Event::Recv => Observer::FromTester,
        Event::Send(c, r) => Observer::ToTester(*c, r),
        Event::Branch(cond) => Observer::Unify(cond),
        Event::Require(cond) => Observer::Assume(cond),
        Event::Choose(n) => Observer::Fork(*n),
        Event::Fresh(sort, hint) => Observer::FreshVar(*sort, hint),
    }
}

/// One branch of the derived tester: the composed model and its
/// constraints.
pub struct Branch<M: Model, S: Solver> {
    /// The server model.
    pub server: Thread<M>,
    /// Messages in flight.
    pub net: Network<M::Req, M::Resp>,
    /// Constraints on the server's internal choices.
    pub store: S,
}

impl<M: Model, S: Solver> Clone for Branch<M, S> {
    fn clone(&self) -> Self {
        Branch { server: self.server.clone(), net: self.net.clone(), store: self.store.clone() }
    }
}
impl<M: Model, S: Solver> PartialEq for Branch<M, S> {
    fn eq(&self, o: &Self) -> bool {
        self.server == o.server && self.net == o.net && self.store == o.store
    }
}
impl<M: Model, S: Solver> Eq for Branch<M, S> {}
impl<M: Model, S: Solver> std::hash::Hash for Branch<M, S> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.server.hash(h);
        self.net.hash(h);
        self.store.hash(h);
    }
}
impl<M: Model, S: Solver> Debug for Branch<M, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Branch").field("server", &self.server).field("net", &self.net).finish_non_exhaustive()
    }
}

/// Bounds on the validator's work.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Most branches alive at once; more is reported as
    /// [`Invalid::TooManyBranches`] (never as a verdict on the system).
    pub max_branches: usize,
    /// Most model steps one branch may take to explain one observation. A
    /// branch that needs more is abandoned and counted; should no branch
    /// be left to explain some later observation, the verdict is
    /// [`Invalid::OutOfFuel`] — inconclusive, never a rejection, because
    /// the abandoned branch might have explained it.
    pub fuel: usize,
    /// Longest the validator may work on one observation, over all its
    /// branches; past it the execution has no verdict
    /// ([`Invalid::TooSlow`]), never a hang of the tester.
    pub time: std::time::Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_branches: 4_096, fuel: 10_000, time: std::time::Duration::from_secs(3) }
    }
}

/// Why an observation was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Invalid {
    /// No behaviour of the model explains the observations: the system
    /// under test is wrong (or the model is). Boxed: the rejection's
    /// report is much larger than the other variants.
    Rejected(Box<Rejection>),
    /// The model itself is broken (nondeterministic, diverging).
    Model(ModelError),
    /// The validator gave up: too many branches alive. Inconclusive.
    TooManyBranches(usize),
    /// The validator gave up: explaining one observation took longer than
    /// [`Limits::time`]. Inconclusive.
    TooSlow(std::time::Duration),
    /// No live branch explains the observation, but branches were
    /// abandoned earlier for lack of fuel, and one of them might have.
    /// Inconclusive: a deep explanation is not a wrong system.
    OutOfFuel {
        /// The fuel per observation.
        fuel: usize,
        /// Branches abandoned so far.
        abandoned: u64,
        /// The observation no live branch explains.
        rejection: Box<Rejection>,
    },
}

impl Invalid {
    /// True when the validator could not decide (no verdict on the system).
    pub fn is_inconclusive(&self) -> bool {
        matches!(self, Invalid::TooManyBranches(_) | Invalid::TooSlow(_) | Invalid::OutOfFuel { .. })
    }
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Invalid::Rejected(r) => write!(f, "{r}"),
            Invalid::Model(e) => write!(f, "model error: {e}"),
            Invalid::TooManyBranches(n) => write!(
                f,
                "the validator gave up: more than {n} branches of the model explain the observations so far \
                 (raise Limits::max_branches or use fewer concurrent connections)"
            ),
            Invalid::TooSlow(t) => write!(
                f,
                "the validator gave up: explaining one observation took more than {} (raise Limits::time or use \
                 fewer concurrent connections)",
                speccheck_core::human::duration(*t)
            ),
            Invalid::OutOfFuel { fuel, abandoned, rejection } => write!(
                f,
                "inconclusive: no live branch of the model explains observation #{} on connection {}, but {abandoned} \
                 branch{} needed more than {fuel} model steps to explain one observation and {} abandoned \
                 (raise Limits::fuel): {}",
                rejection.index,
                rejection.conn,
                if *abandoned == 1 { "" } else { "es" },
                if *abandoned == 1 { "was" } else { "were" },
                rejection.observed
            ),
        }
    }
}

/// A rejected observation and why the model's branches could not explain it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    /// Index of the observation (0-based, over sends and receipts).
    pub index: usize,
    /// Its connection.
    pub conn: Conn,
    /// The observed response, printed.
    pub observed: String,
    /// Branches alive before it.
    pub branches_before: u32,
    /// Why branches died (distinct reasons, a few).
    pub reasons: Vec<String>,
    /// The rules the response broke in the branches that explained most of
    /// it (see [`crate::rule`]): what the report names.
    pub broken: Vec<Broken>,
    /// The rules it broke in any branch (each order of concurrent requests,
    /// each choice of the server): what a narrower form of the same
    /// failure may break.
    pub all_broken: Vec<Broken>,
    /// A validator enforcing MUSTs only accepts the response: the rules
    /// broken are MUSTs only under what an earlier response implied by
    /// following a SHOULD (a response without a validator implies the
    /// server issues none; a later one that sends it is then "wrong"). The
    /// deviation is that SHOULD's, so the rejection is one of SHOULD level.
    pub after_should: bool,
    /// For a rejection after a SHOULD: the SHOULDs that ended branches of
    /// the model earlier in the execution while others went on (the ones
    /// the MUST-only validator kept): where the server departed from a
    /// recommendation. Empty when the validator did not see them.
    pub following: Vec<Broken>,
}

impl Rejection {
    /// What identifies this failure: the rules it breaks.
    pub fn identity(&self) -> String {
        let rules = rule::identity(&self.broken);
        match (self.after_should, self.following.is_empty()) {
            (false, _) => rules,
            (true, true) => format!("after an earlier response that did not follow a SHOULD: {rules}"),
            (true, false) => format!(
                "after an earlier response that did not follow a SHOULD ({}): {rules}",
                rule::identity(&self.following)
            ),
        }
    }

    /// Whether this rejection is `other`'s or a narrower form of it: it
    /// breaks rules `other` broke in some branch, and no other (fewer
    /// interleavings of concurrent requests, fewer branches, fewer rules).
    pub fn is_within(&self, other: &Rejection) -> bool {
        self.after_should == other.after_should
            && !self.broken.is_empty()
            && self.broken.iter().all(|b| other.all_broken.contains(b))
    }

    /// The strongest level among the broken rules (`Must` when none is
    /// named: the model's own expectation); `Should` after a SHOULD (see
    /// [`Rejection::after_should`]).
    pub fn level(&self) -> Level {
        if self.after_should {
            return Level::Should;
        }
        self.broken.iter().map(|b| b.rule.level).min().unwrap_or(Level::Must)
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "observation #{} (response on connection {}): {}\n  no behaviour of the model explains it ({} branch{} alive before it):",
            self.index,
            self.conn,
            self.observed,
            self.branches_before,
            if self.branches_before == 1 { "" } else { "es" }
        )?;
        for r in &self.reasons {
            write!(f, "\n  - {r}")?;
        }
        if !self.broken.is_empty() {
            write!(f, "\n  breaks: {}", self.identity())?;
        }
        Ok(())
    }
}

/// Counters of a validator's work.
#[derive(Clone, Copy, Debug, Default)]
pub struct ValidatorStats {
    /// Observations processed.
    pub observations: usize,
    /// Most branches alive at once.
    pub max_branches: usize,
    /// Model steps taken.
    pub model_steps: u64,
    /// Constraints asserted.
    pub constraints: u64,
    /// Branches abandoned because explaining one observation took more
    /// than the fuel.
    pub abandoned: u64,
    /// Connections the server closed.
    pub closes: u64,
}

/// The derived validator: accepts a stream of observations as long as some
/// branch of the model explains them (see the [module docs](self)).
pub struct Validator<M: Model, S: Solver = Native> {
    model: Arc<M>,
    branches: Vec<Branch<M, S>>,
    limits: Limits,
    stats: ValidatorStats,
    failed: Option<Invalid>,
    enforce: Level,
    /// Rules not enforced whatever their level.
    waived: Vec<rule::Rule>,
    /// SHOULDs that alone ended branches on responses other branches
    /// explained (see [`Rejection::following`]), the first few.
    pruned: Vec<Broken>,
}

/// Most distinct death reasons kept for a report.
const MAX_REASONS: usize = 6;

/// Most distinct broken rules kept for a rejection.
const MAX_BROKEN: usize = 16;

/// Most SHOULDs kept that ended branches others outlived.
const MAX_PRUNED: usize = 4;

/// What the branches that died on one observation left behind.
struct Dead<'a> {
    /// When the validator gives up on this observation.
    deadline: std::time::Instant,
    reasons: &'a mut Vec<String>,
    /// Each broken rule with the position of its check among the response's.
    broken: &'a mut Vec<(usize, Broken)>,
    /// The SHOULDs that ended branches every MUST would have kept.
    should_only: &'a mut Vec<Broken>,
}

/// The first check a branch (with constraints `store`) could not meet, and
/// its position: the first false on its own, else the first that
/// contradicts the ones before it.
fn broken_rule<S: Solver>(mut store: S, checks: &[Check]) -> (usize, rule::Rule) {
    if let Some(i) = checks.iter().position(|c| store.resolve(&c.holds).truth() == Some(false)) {
        return (i, checks[i].rule);
    }
    for (i, c) in checks.iter().enumerate() {
        if !store.assert(c.holds.clone()) {
            return (i, c.rule);
        }
    }
    (0, rule::Rule::MODEL)
}

impl<M: Model, S: Solver> Validator<M, S> {
    /// The validator for a freshly started server.
    pub fn new(model: Arc<M>, limits: Limits) -> Result<Self, ModelError> {
        let server = Thread::start(&*model)?;
        let branches = vec![Branch { server, net: Network::new(), store: S::empty() }];
        Ok(Validator {
            model,
            branches,
            limits,
            stats: ValidatorStats { max_branches: 1, ..Default::default() },
            failed: None,
            enforce: Level::Must,
            waived: Vec::new(),
            pruned: Vec::new(),
        })
    }

    /// Enforces the rules up to `level` (MUSTs only by default; `Should`
    /// enforces every rule). Set before the first observation.
    pub fn enforcing(mut self, level: Level) -> Self {
        self.enforce = level;
        self
    }

    /// Does not enforce `rules`, whatever their level (a failure already
    /// reported, while a search looks for others). Set before the first
    /// observation.
    pub fn waiving(mut self, rules: Vec<rule::Rule>) -> Self {
        self.waived = rules;
        self
    }

    /// Whether `rule` is enforced.
    fn enforces(&self, rule: &rule::Rule) -> bool {
        rule.level <= self.enforce && !self.waived.contains(rule)
    }

    /// The SHOULDs that ended branches on responses other branches
    /// explained, so far (the first few): what a later rejection that only
    /// a validator enforcing them makes may follow from.
    pub fn pruned_by_shoulds(&self) -> &[Broken] {
        &self.pruned
    }

    /// The level of rules enforced.
    pub fn enforced(&self) -> Level {
        self.enforce
    }

    /// The branches alive.
    pub fn branches(&self) -> &[Branch<M, S>] {
        &self.branches
    }

    /// Number of branches alive.
    pub fn live(&self) -> usize {
        self.branches.len()
    }

    /// The model's states across the live branches (for state-based
    /// generation heuristics), without duplicates.
    pub fn states(&self) -> Vec<&M::State> {
        let mut out: Vec<&M::State> = Vec::new();
        for b in &self.branches {
            if !out.contains(&b.server.state()) {
                out.push(b.server.state());
            }
        }
        out
    }

    /// Work counters.
    pub fn stats(&self) -> ValidatorStats {
        self.stats
    }

    /// The failure, once an observation was not accepted.
    pub fn failure(&self) -> Option<&Invalid> {
        self.failed.as_ref()
    }

    /// The tester sent `req` on `conn`.
    pub fn observe_send(&mut self, conn: Conn, req: M::Req) -> Result<(), Invalid> {
        if let Some(f) = &self.failed {
            return Err(f.clone());
        }
        self.stats.observations += 1;
        for b in &mut self.branches {
            b.net.absorb_request(conn, req.clone());
        }
        Ok(())
    }

    /// The server closed connection `conn` (the tester saw the end of its
    /// byte stream or a reset). Only for models that allow it
    /// ([`Model::CLOSES`]); the tester then opens a new connection under a
    /// new number. In every branch, responses the model still owed on
    /// `conn` are lost, and requests it had not received stay in flight —
    /// the server may have read and acted on them before closing (safe
    /// ones, [`Model::is_safe`], are forgotten: acting on them changes
    /// nothing).
    pub fn observe_close(&mut self, conn: Conn) -> Result<(), Invalid> {
        if let Some(f) = &self.failed {
            return Err(f.clone());
        }
        self.stats.closes += 1;
        let mut seen: HashSet<Branch<M, S>> = HashSet::new();
        let mut out = Vec::with_capacity(self.branches.len());
        let model = self.model.clone();
        for mut b in std::mem::take(&mut self.branches) {
            b.net.close(conn);
            b.net.forget_requests(conn, |q| model.is_safe(q));
            let b = compact(b);
            if seen.insert(b.clone()) {
                out.push(b);
            }
        }
        self.branches = out;
        Ok(())
    }

    /// The tester received `obs` on `conn`.
    pub fn observe_recv(&mut self, conn: Conn, obs: &<M::Resp as Symbolic>::Concrete) -> Result<(), Invalid> {
        if let Some(f) = &self.failed {
            return Err(f.clone());
        }
        let index = self.stats.observations;
        self.stats.observations += 1;
        let before = self.branches.len();
        let mut reasons: Vec<String> = Vec::new();
        let mut broken: Vec<(usize, Broken)> = Vec::new();
        let mut should_only: Vec<Broken> = Vec::new();
        let mut survivors: Vec<Branch<M, S>> = Vec::new();
        let mut seen: HashSet<Branch<M, S>> = HashSet::new();
        let deadline = std::time::Instant::now() + self.limits.time;
        for b in std::mem::take(&mut self.branches) {
            let mut dead = Dead { reasons: &mut reasons, broken: &mut broken, should_only: &mut should_only, deadline };
            if let Err(e) = self.explain(b, conn, obs, &mut survivors, &mut seen, &mut dead) {
                self.failed = Some(e.clone());
                return Err(e);
            }
        }
        if survivors.is_empty() {
            // The response breaks the rules of the branches that explained
            // most of it (their first unmet expectation came latest): a
            // branch that expected another status entirely (another order
            // of concurrent requests, a choice the server did not make)
            // says less about what is wrong.
            let deepest = broken.iter().map(|(d, _)| *d).max().unwrap_or(0);
            let mut all_broken: Vec<Broken> = Vec::new();
            for (_, b) in &broken {
                if !all_broken.contains(b) {
                    all_broken.push(b.clone());
                }
            }
            let broken = broken.into_iter().filter(|(d, _)| *d == deepest).map(|(_, b)| b).collect();
            let observed = M::Resp::show(obs);
            let rejection = Rejection {
                index,
                conn,
                observed,
                branches_before: u32::try_from(before).unwrap_or(u32::MAX),
                reasons,
                broken,
                all_broken,
                after_should: false,
                following: Vec::new(),
            };
            let rejection = Box::new(rejection);
            let e = if self.stats.abandoned > 0 {
                Invalid::OutOfFuel { fuel: self.limits.fuel, abandoned: self.stats.abandoned, rejection }
            } else {
                Invalid::Rejected(rejection)
            };
            self.failed = Some(e.clone());
            return Err(e);
        }
        for b in should_only {
            if self.pruned.len() < MAX_PRUNED && !self.pruned.contains(&b) {
                self.pruned.push(b);
            }
        }
        self.stats.max_branches = self.stats.max_branches.max(survivors.len());
        self.branches = survivors;
        Ok(())
    }

    /// Runs one branch until it explains `obs` on `conn` (possibly forking);
    /// survivors go to `out`.
    fn explain(
        &mut self,
        start: Branch<M, S>,
        conn: Conn,
        obs: &<M::Resp as Symbolic>::Concrete,
        out: &mut Vec<Branch<M, S>>,
        seen: &mut HashSet<Branch<M, S>>,
        dead: &mut Dead<'_>,
    ) -> Result<(), Invalid> {
        let model = self.model.clone();
        let mut work = vec![(start, 0usize)];
        let reasons = &mut *dead.reasons;
        let mut note = |r: String| {
            if reasons.len() < MAX_REASONS && !reasons.contains(&r) {
                reasons.push(r);
            }
        };
        let mut popped = 0u32;
        while let Some((mut b, steps)) = work.pop() {
            popped = popped.wrapping_add(1);
            if popped.is_multiple_of(16) && std::time::Instant::now() > dead.deadline {
                return Err(Invalid::TooSlow(self.limits.time));
            }
            if let Some(expected) = b.net.emit_response(conn) {
                let checks: Vec<Check> = expected.checks(obs).into_iter().filter(|c| self.enforces(&c.rule)).collect();
                let guard = Expr::and(checks.iter().map(|c| c.holds.clone()));
                self.stats.constraints += 1;
                let resolved = b.store.resolve(&guard);
                // Kept to find the broken rule should the guard fail (it cannot
                // when it already resolves to true).
                let before = (resolved.truth() != Some(true)).then(|| b.store.clone());
                if b.store.assert(guard) {
                    let b = compact(b);
                    if seen.insert(b.clone()) {
                        out.push(b);
                        if out.len() > self.limits.max_branches {
                            return Err(Invalid::TooManyBranches(self.limits.max_branches));
                        }
                    }
                } else {
                    // A copy to tell a branch a SHOULD alone ended, made only
                    // where SHOULDs are enforced (branch deaths are frequent).
                    let should_store = if self.enforce == Level::Should { before.clone() } else { None };
                    let (depth, rule) = before.map_or((0, rule::Rule::MODEL), |store| broken_rule(store, &checks));
                    let broke = (depth, Broken { rule, answering: expected.answering() });
                    // Ended by a SHOULD alone: every MUST of the response holds.
                    if rule.level == Level::Should
                        && let Some(mut store) = should_store
                        && store.assert(Expr::and(
                            checks.iter().filter(|c| c.rule.level == Level::Must).map(|c| c.holds.clone()),
                        ))
                        && !dead.should_only.contains(&broke.1)
                    {
                        dead.should_only.push(broke.1.clone());
                    }
                    if dead.broken.len() < MAX_BROKEN && !dead.broken.contains(&broke) {
                        dead.broken.push(broke);
                    }
                    note(match resolved.truth() {
                        // The response itself differs from what this branch sends.
                        Some(false) => format!("expected {expected:?}"),
                        // It could match, but only on terms earlier observations rule out.
                        _ => format!(
                            "expected {expected:?}, which it matches only if {}: that contradicts what was \
                             observed before",
                            resolved.residue()
                        ),
                    });
                }
                continue;
            }
            if steps >= self.limits.fuel {
                // Abandoned, not failed: a later rejection becomes inconclusive.
                self.stats.abandoned += 1;
                note(format!("a branch needed more than {} model steps and was abandoned", self.limits.fuel));
                continue;
            }
            self.stats.model_steps += 1;
            let step = |mut b: Branch<M, S>, a: Answer<M::Req>| -> Result<Branch<M, S>, Invalid> {
                b.server.answer(&model, a).map_err(Invalid::Model)?;
                Ok(b)
            };
            match dualize(b.server.pending()) {
                Observer::FromTester => {
                    let conns: Vec<Conn> = b.net.deliverable().collect();
                    if conns.is_empty() {
                        note(format!(
                            "the server would still have to receive a request before responding on connection {conn}, \
                             but none is in flight"
                        ));
                    }
                    for c in conns {
                        let mut next = b.clone();
                        let q = next.net.deliver(c).expect("a deliverable request");
                        let others = next.net.pending_requests().filter(|(o, _)| *o != c).count();
                        work.push((step(next, Answer::Recv(c, q, others))?, steps + 1));
                    }
                }
                Observer::ToTester(c, r) => {
                    let r = r.clone();
                    b.net.absorb_response(c, r);
                    work.push((step(b, Answer::Done)?, steps + 1));
                }
                Observer::Unify(cond) => {
                    let cond = cond.clone();
                    for way in [true, false] {
                        let mut next = b.clone();
                        self.stats.constraints += 1;
                        let c = if way { cond.clone() } else { !cond.clone() };
                        if next.store.assert(c) {
                            work.push((step(next, Answer::Branch(way))?, steps + 1));
                        } else {
                            note(format!("the branch where `{cond}` is {way} contradicts earlier observations"));
                        }
                    }
                }
                Observer::Assume(cond) => {
                    let cond = cond.clone();
                    self.stats.constraints += 1;
                    if b.store.assert(cond.clone()) {
                        work.push((step(b, Answer::Done)?, steps + 1));
                    } else {
                        note(format!("the model requires `{cond}`, which contradicts earlier observations"));
                    }
                }
                Observer::Fork(n) => {
                    for i in 0..n {
                        work.push((step(b.clone(), Answer::Choose(i))?, steps + 1));
                    }
                }
                Observer::FreshVar(sort, hint) => {
                    let v = b.store.fresh(sort, hint);
                    work.push((step(b, Answer::Fresh(Expr::Var(v)))?, steps + 1));
                }
            }
            if work.len() > self.limits.max_branches {
                return Err(Invalid::TooManyBranches(self.limits.max_branches));
            }
        }
        Ok(())
    }
}

/// Puts a branch in canonical form: variables the constraints fix are
/// replaced by their values, constraints nothing refers to are dropped,
/// and the remaining variables are numbered in order of appearance — so
/// branches that reached the same situation by different histories (the
/// server handled concurrent requests in different orders, an old value
/// was overwritten) become equal and merge.
pub fn compact<M: Model, S: Solver>(mut b: Branch<M, S>) -> Branch<M, S> {
    let Branch { server, net, store } = &mut b;
    if !store.is_sat() {
        return b;
    }
    // Fixed variables become their values, and what is then ground is
    // evaluated: two branches holding `"a" == "b"` and `false` are one.
    let settle = |e: &mut Expr| {
        let resolved = store.resolve(e);
        *e = match resolved.eval_ground() {
            Some(v) => Expr::Const(v),
            None => resolved,
        };
    };
    server.visit_exprs(&mut |e| settle(e));
    for r in net.responses_mut() {
        r.visit_exprs(&mut |e| settle(e));
    }
    let mut keep: Vec<Var> = Vec::new();
    let mut collect = |e: &mut Expr| {
        let mut vs = Vec::new();
        e.vars(&mut vs);
        for v in vs {
            if !keep.iter().any(|k| k.id == v.id) {
                keep.push(v);
            }
        }
    };
    server.visit_exprs(&mut collect);
    for r in net.responses_mut() {
        r.visit_exprs(&mut collect);
    }
    let projected = store.project(&keep);
    let mut rename = |v: &mut Var| {
        if let Some(i) = keep.iter().position(|k| k.id == v.id) {
            v.id = i as u32;
        }
    };
    server.visit_exprs(&mut |e| e.visit_vars_mut(&mut rename));
    for r in net.responses_mut() {
        r.visit_exprs(&mut |e| e.visit_vars_mut(&mut rename));
    }
    *store = projected;
    b
}

/// One observation of a trace, for offline validation.
#[derive(Clone, Debug, PartialEq)]
pub enum Observation<Q, A> {
    /// The tester sent a request.
    Sent(Conn, Q),
    /// The tester received a response.
    Received(Conn, A),
}

/// Validates a whole trace offline: `Ok` with the branches alive at the end,
/// or why it was not accepted.
pub fn validate<M: Model, S: Solver>(
    model: Arc<M>,
    trace: &[Observation<M::Req, <M::Resp as Symbolic>::Concrete>],
    limits: Limits,
) -> Result<usize, Invalid> {
    validate_enforcing::<M, S>(model, trace, limits, Level::Must)
}

/// [`validate`], enforcing the rules up to `level` (see [`crate::rule`]).
pub fn validate_enforcing<M: Model, S: Solver>(
    model: Arc<M>,
    trace: &[Observation<M::Req, <M::Resp as Symbolic>::Concrete>],
    limits: Limits,
    level: Level,
) -> Result<usize, Invalid> {
    let mut v = Validator::<M, S>::new(model, limits).map_err(Invalid::Model)?.enforcing(level);
    for o in trace {
        match o {
            Observation::Sent(c, q) => v.observe_send(*c, q.clone())?,
            Observation::Received(c, a) => v.observe_recv(*c, a)?,
        }
    }
    Ok(v.live())
}
