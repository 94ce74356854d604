//! The executor loop: one execution from the start of the system under
//! test to its verdict. Its steps, in order: open the connections
//! ([`open`]); take the script's steps one by one, reading what arrived
//! before each ([`Run::take_steps`]); wait for the responses still due
//! ([`Run::drain`]); refuse bytes left over ([`Run::no_leftover_bytes`]);
//! record the execution ([`Run::finish`]).

use std::time::{Duration, Instant};

use rand::Rng;
use rand::rngs::SmallRng;
use speccheck_core::TestCase;

use super::live::Live;
use super::{Execution, Settings, SetupError, Target, Transport, TransportError, Verdict};
use crate::dual::{Validator, ValidatorStats};
use crate::harness::jexp::JExp;
use crate::harness::script::{Grammar, ScriptDrawer, Step};
use crate::protocol::{Protocol, View};
use crate::rule::Level;
use crate::solver::Solver;

/// Runs one execution of `protocol` against a fresh system from `target`,
/// drawing the script from `tc` (heuristics when generating, choices when
/// replaying). `repeat` replays a known script when generating (the
/// confirmation of an adaptively found failure). `S` is the constraint
/// solver of the validator.
pub fn execute<P: Protocol, S: Solver>(
    protocol: &P,
    target: &dyn Target,
    settings: &Settings,
    tc: &mut TestCase,
    seed: u64,
    repeat: Option<&[Step]>,
) -> Result<Execution, SetupError> {
    if repeat.is_some() || !tc.is_sampling() {
        let steps = draw_script(protocol, settings, tc, repeat);
        return execute_script::<P, S>(protocol, target, settings, seed, &steps);
    }
    run::<P, S>(protocol, target, settings, seed, Source::Adaptive(tc))
}

/// The grammar of a protocol's scripts under `settings`.
fn grammar<P: Protocol>(protocol: &P, settings: &Settings) -> Grammar {
    Grammar { conns: settings.conns.max(1), funcs: protocol.functions().len() }
}

/// Draws a whole script from `tc` without running it: the steps of
/// `repeat` when given (recorded as choices), else the steps the choices
/// decode to (replaying).
pub fn draw_script<P: Protocol>(
    protocol: &P,
    settings: &Settings,
    tc: &mut TestCase,
    repeat: Option<&[Step]>,
) -> Vec<Step> {
    let grammar = grammar(protocol, settings);
    let mut drawer = match repeat {
        Some(steps) => ScriptDrawer::repeating(grammar, settings.fuel, steps.len()),
        None => ScriptDrawer::new(tc, grammar, settings.fuel),
    };
    let mut out = Vec::new();
    while let Some(step) = drawer.next(tc, |_| repeat.and_then(|r| r.get(out.len())).cloned().unwrap_or(Step::Wait)) {
        out.push(step);
    }
    out
}

/// Runs a known script against a fresh system from `target`.
pub fn execute_script<P: Protocol, S: Solver>(
    protocol: &P,
    target: &dyn Target,
    settings: &Settings,
    seed: u64,
    script: &[Step],
) -> Result<Execution, SetupError> {
    run::<P, S>(protocol, target, settings, seed, Source::Fixed(script, None))
}

/// Runs a known script against a fresh system from `target`, taking each
/// step no earlier than at its offset in `pacing` (from the start of the
/// execution): a failure that needed the server to see requests in some
/// order and at some pace is repeated at that pace.
pub fn execute_paced<P: Protocol, S: Solver>(
    protocol: &P,
    target: &dyn Target,
    settings: &Settings,
    seed: u64,
    script: &[Step],
    pacing: &[Duration],
) -> Result<Execution, SetupError> {
    run::<P, S>(protocol, target, settings, seed, Source::Fixed(script, Some(pacing)))
}

/// Where an execution's steps come from.
enum Source<'a> {
    /// Drawn as the execution goes, by the heuristics (recorded in the case).
    Adaptive(&'a mut TestCase),
    /// A known script, maybe with the pace to take it at.
    Fixed(&'a [Step], Option<&'a [Duration]>),
}

/// A [`Source`] ready to give steps.
enum Script<'a> {
    /// The heuristics' steps, drawn through the case.
    Drawn(&'a mut TestCase, ScriptDrawer),
    /// A known script, maybe with the pace to take it at.
    Fixed(&'a [Step], Option<&'a [Duration]>),
}

fn run<P: Protocol, S: Solver>(
    protocol: &P,
    target: &dyn Target,
    settings: &Settings,
    seed: u64,
    source: Source<'_>,
) -> Result<Execution, SetupError> {
    let started = Instant::now();
    let conns = settings.conns.max(1);
    let transport = open(target, seed, conns)?;
    let mut script = match source {
        Source::Adaptive(tc) => {
            let drawer = ScriptDrawer::new(tc, grammar(protocol, settings), settings.fuel);
            Script::Drawn(tc, drawer)
        }
        Source::Fixed(steps, pace) => Script::Fixed(steps, pace),
    };
    let validator = match Validator::<P::Model, S>::new(protocol.model(), settings.limits) {
        Ok(v) => v.enforcing(settings.enforce).waiving(settings.waived.clone()),
        Err(e) => return Ok(unstarted(Verdict::Model(e), started)),
    };
    // Findings need a second validator that enforces what this one does
    // not; a strict run, one that enforces MUSTs only, to tell a MUST
    // broken from one that follows an earlier SHOULD.
    let beside = match settings.enforce {
        Level::Should => Some(Level::Must),
        _ if settings.findings => Some(Level::Should),
        _ => None,
    };
    let shadow = beside.and_then(|level| {
        Validator::<P::Model, S>::new(protocol.model(), settings.limits).ok().map(|v| v.enforcing(level))
    });
    let mut run = Run {
        protocol,
        settings,
        started,
        conns,
        live: Live::new(protocol, transport, validator, shadow, conns),
        steps: Vec::new(),
        pacing: Vec::new(),
        skipped: 0,
        next_label: 1,
    };
    let verdict = run.play(&mut script);
    run.finish(verdict)
}

/// Starts a fresh system and opens `conns` connections to it.
fn open(target: &dyn Target, seed: u64, conns: usize) -> Result<Box<dyn Transport>, SetupError> {
    let mut transport = target.start(seed)?;
    for c in 0..conns {
        transport.connect(c).map_err(SetupError::Connect)?;
    }
    Ok(transport)
}

/// The record of an execution that ended before its first step (the model
/// could not start).
fn unstarted(verdict: Verdict, started: Instant) -> Execution {
    Execution {
        verdict,
        steps: Vec::new(),
        pacing: Vec::new(),
        trace: Vec::new(),
        sent: 0,
        received: 0,
        skipped: 0,
        elapsed: started.elapsed(),
        validator: ValidatorStats::default(),
        validation: Duration::ZERO,
        finding: None,
        findings_cut_short: false,
    }
}

/// One execution under way.
struct Run<'a, P: Protocol, S: Solver> {
    protocol: &'a P,
    settings: &'a Settings,
    started: Instant,
    conns: usize,
    live: Live<'a, P, S>,
    /// The steps taken so far.
    steps: Vec<Step>,
    /// When each was taken, from `started`.
    pacing: Vec<Duration>,
    /// Steps whose J-expression stood for no request.
    skipped: usize,
    /// The label the next request gets.
    next_label: u32,
}

/// `Err` ends the execution with its verdict (usually a failure; an
/// acceptance when the time ran out while draining).
type Going<T = ()> = Result<T, Verdict>;

impl<P: Protocol, S: Solver> Run<'_, P, S> {
    /// Takes the script's steps, then waits for what is still due: the
    /// verdict.
    fn play(&mut self, script: &mut Script<'_>) -> Verdict {
        let played = self.take_steps(script).and_then(|budget_hit| {
            self.drain()?;
            self.no_leftover_bytes()?;
            Ok(budget_hit)
        });
        match played {
            Ok(budget_hit) => Verdict::Accepted { budget_hit },
            Err(ended) => ended,
        }
    }

    /// Takes steps until the script ends (`Ok(false)`) or the wall-clock
    /// budget runs out (`Ok(true)`).
    fn take_steps(&mut self, script: &mut Script<'_>) -> Going<bool> {
        loop {
            // Consecutive requests go out back to back (a burst the server
            // sees pipelined); time passes after anything else.
            if matches!(self.steps.last(), Some(Step::Send { .. })) {
                self.read()?;
            } else {
                self.poll()?;
            }
            if self.started.elapsed() > self.settings.budget {
                return Ok(true);
            }
            let Some(step) = self.next_step(script)? else { return Ok(false) };
            self.take(step)?;
        }
    }

    /// The script's next step (`None`: it ended).
    fn next_step(&mut self, script: &mut Script<'_>) -> Going<Option<Step>> {
        match script {
            Script::Drawn(tc, drawer) => Ok(drawer.next(tc, |rng| self.propose(rng))),
            Script::Fixed(steps, pace) => self.next_known(steps, *pace),
        }
    }

    /// The heuristics' next step: a wait (when enough is in flight, or by
    /// chance), or a request proposed from the model's states and the trace.
    fn propose(&self, rng: &mut SmallRng) -> Step {
        let (live, settings) = (&self.live, self.settings);
        if live.sent > 0 && (live.pending() >= settings.max_in_flight || rng.random_bool(settings.p_wait)) {
            return Step::Wait;
        }
        let conn = rng.random_range(0..self.conns);
        let branch = &live.validator.branches()[0];
        let view = View::<P> {
            states: live.validator.states(),
            in_flight: branch.net.pending_requests().collect(),
            trace: &live.trace,
            label: self.next_label,
            conn,
            conns: self.conns,
        };
        Step::Send { label: self.next_label, conn, body: self.protocol.propose(&view, rng) }
    }

    /// The next step of a known script, taken at its pace and once what it
    /// reads has arrived.
    fn next_known(&mut self, script: &[Step], pace: Option<&[Duration]>) -> Going<Option<Step>> {
        let at = pace.and_then(|p| p.get(self.steps.len())).copied();
        while let Some(at) = at
            && self.started.elapsed() < at
        {
            self.poll()?;
        }
        let step = script.get(self.steps.len()).cloned();
        // A step that reads the trace (an entity tag, a location) was drawn
        // after what it reads arrived: it waits for that, else a replay
        // would send the reference's default. A reference that names no
        // message of this run (shrinking removed or renumbered it) resolves
        // loosely, against whatever has arrived: it waits for every
        // response due, so that each replay reads the same trace.
        if let Some(Step::Send { body, .. }) = &step {
            let wanted = body.referenced_labels();
            let live = &self.live;
            let exact = wanted.iter().all(|l| live.trace.iter().any(|e| e.label == *l) || live.awaited(&[*l]));
            while if exact { self.live.awaited(&wanted) } else { self.live.pending() > 0 } {
                self.poll()?;
            }
        }
        Ok(step)
    }

    /// Takes one step.
    fn take(&mut self, step: Step) -> Going {
        self.steps.push(step.clone());
        self.pacing.push(self.started.elapsed());
        match step {
            Step::Send { label, conn, body } => self.send(label, conn, &body),
            Step::Wait => self.wait(),
        }
    }

    /// Sends the request `body` stands for on connection slot `slot` (a
    /// body that stands for none is skipped).
    fn send(&mut self, label: u32, slot: usize, body: &JExp) -> Going {
        // Labels stay unique and increasing in the order of the steps,
        // whatever shrinking did to them: a reference then resolves by the
        // script, not by the order in which responses on different
        // connections happened to arrive.
        let label = label.max(self.next_label);
        self.next_label = label.saturating_add(2) | 1;
        let labelled: Vec<(u32, &serde_json::Value)> = self.live.trace.iter().map(|e| (e.label, &e.ir)).collect();
        let ir = body.instantiate(&labelled, self.protocol.functions());
        let Some(req) = self.protocol.request_from_ir(&ir) else {
            self.skipped += 1;
            return Ok(());
        };
        self.live.request(slot, label, req)
    }

    /// Waits for a response, at most the settings' wait.
    fn wait(&mut self) -> Going {
        let (until, before) = (self.live.transport.clock() + self.settings.wait, self.live.received);
        let wall = Instant::now() + self.settings.wait.max(Duration::from_millis(1)) * 4;
        while self.live.pending() > 0
            && self.live.received == before
            && self.live.transport.clock() < until
            && Instant::now() < wall
        {
            self.poll()?;
        }
        Ok(())
    }

    /// Waits for the responses still due, within the liveness window
    /// (measured on the transport's clock). The wall-clock guard only
    /// bounds the loop: reaching it means the budget ran out, not that the
    /// system is silent.
    fn drain(&mut self) -> Going {
        let hard_stop = self.started + self.settings.budget + self.settings.liveness * 2;
        while self.live.pending() > 0 {
            self.poll()?;
            if Instant::now() > hard_stop && self.live.pending() > 0 {
                return Err(Verdict::Accepted { budget_hit: true });
            }
        }
        Ok(())
    }

    /// Bytes after the last response are a malformed message.
    fn no_leftover_bytes(&mut self) -> Going {
        for conn in 0..self.conns {
            if !self.live.bufs[conn].is_empty() {
                let bytes = std::mem::take(&mut self.live.bufs[conn]);
                let reason = "bytes after the last response that do not form a complete message".to_string();
                return Err(Verdict::Malformed { conn, bytes, reason });
            }
        }
        Ok(())
    }

    /// Lets time pass, then reads and validates what arrived.
    fn poll(&mut self) -> Going {
        self.live.poll(self.settings.liveness).map_or(Ok(()), Err)
    }

    /// Reads and validates what arrived, without letting time pass.
    fn read(&mut self) -> Going {
        self.live.read(self.settings.liveness).map_or(Ok(()), Err)
    }

    /// The execution's record, once it ended with `verdict`; a failure of
    /// the tester's own side is no verdict but a setup error.
    fn finish(self, verdict: Verdict) -> Result<Execution, SetupError> {
        if let Verdict::ConnectionLost(TransportError::Harness { detail }) = verdict {
            return Err(SetupError::Harness(detail));
        }
        Ok(Execution {
            verdict,
            steps: self.steps,
            pacing: self.pacing,
            sent: self.live.sent,
            received: self.live.received,
            skipped: self.skipped,
            elapsed: self.started.elapsed(),
            validator: self.live.validator.stats(),
            validation: self.live.validation,
            trace: self.live.trace,
            finding: self.live.finding,
            findings_cut_short: self.live.shadow_lost,
        })
    }
}
