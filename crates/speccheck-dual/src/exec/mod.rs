//! The executor (thesis §4.4): runs the derived tester against a live
//! system.
//!
//! One *execution* starts a fresh system under test ([`Target`]), opens
//! several client connections ([`Transport`]), and then alternates: poll
//! every connection without blocking and validate each response as it
//! arrives; draw the next [`Step`] of the script and send it. It ends when
//! the script ends (then it drains: waits for the responses still due),
//! when fuel (the script's length) or the wall-clock budget runs out, or at
//! the first failure:
//!
//! * a response no branch of the model explains → [`Verdict::Rejected`];
//! * bytes that are not a message → [`Verdict::Malformed`], bytes shown;
//! * requests pending with no response for the liveness window →
//!   [`Verdict::Liveness`] (silence is never a rejection; this is the
//!   separate check that caught the thesis's server hanging on pipelined
//!   requests);
//! * a connection reset or closed by the server → [`Verdict::ConnectionLost`],
//!   unless the model allows the server to close connections
//!   ([`Model::CLOSES`], HTTP/1.1): then the
//!   validator takes note, the requests still waiting on it are no longer
//!   owed a response, and the tester reconnects (the new connection gets a
//!   new number in the trace and the model) — except when the server closes
//!   a connection before answering any of its requests, which is a refusal
//!   or a crash, not a keep-alive policy;
//! * the validator cannot decide (too many branches, a branch out of fuel
//!   before no branch was left) → [`Verdict::Inconclusive`]: counted and
//!   reported, never a rejection.
//!
//! A connection that cannot be opened, or a failure on the tester's own
//! side ([`TransportError::Harness`]), is a [`SetupError`], never a verdict.

pub mod inproc;
pub mod local;
pub mod tcp;

use std::collections::VecDeque;
use std::fmt;
use std::time::{Duration, Instant};

use rand::Rng;
use speccheck_core::TestCase;

use crate::dual::{Invalid, Limits, Rejection, Validator, ValidatorStats};
use crate::harness::script::{Grammar, ScriptDrawer, Step};
use crate::model::{Conn, Model, ModelError};
use crate::protocol::{Answering, Decoded, Protocol, Req, TraceEntry, View, Wire, show_bytes};
use crate::solver::Solver;

/// Why a transport operation failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TransportError {
    /// Nothing listens at the address.
    #[error("connection to {addr} refused: {detail}")]
    Refused {
        /// The address.
        addr: String,
        /// The system's message.
        detail: String,
    },
    /// The server reset the connection.
    #[error("connection {conn} reset by the server: {detail}")]
    Reset {
        /// The connection.
        conn: Conn,
        /// The system's message.
        detail: String,
    },
    /// The server closed the connection.
    #[error("connection {conn} closed by the server")]
    Closed {
        /// The connection.
        conn: Conn,
    },
    /// Another I/O error.
    #[error("I/O error on connection {conn}: {detail}")]
    Io {
        /// The connection.
        conn: Conn,
        /// The system's message.
        detail: String,
    },
    /// The tester's own side failed (a temporary file could not be
    /// written, a request could not be handed over): not a verdict on the
    /// system; the execution ends as a [`SetupError::Harness`].
    #[error("the tester failed: {detail}")]
    Harness {
        /// What failed.
        detail: String,
    },
}

/// The system under test could not be set up, or the tester failed while
/// running it: not a verdict on it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A connection could not be opened.
    #[error("could not connect: {0}")]
    Connect(TransportError),
    /// Resetting the server failed.
    #[error("could not reset the server: {0}")]
    Reset(String),
    /// The tester's own side failed in the middle of an execution.
    #[error("the tester failed during an execution: {0}")]
    Harness(String),
    /// Anything else.
    #[error("{0}")]
    Io(String),
}

/// Client connections to one running system under test.
pub trait Transport: Send {
    /// Opens connection `conn`.
    fn connect(&mut self, conn: Conn) -> Result<(), TransportError>;
    /// Sends bytes on `conn`.
    fn send(&mut self, conn: Conn, bytes: &[u8]) -> Result<(), TransportError>;
    /// Appends the bytes that arrived on `conn` to `buf` without blocking;
    /// returns how many.
    fn recv(&mut self, conn: Conn, buf: &mut Vec<u8>) -> Result<usize, TransportError>;
    /// Lets a little time pass (a simulated network advances one tick).
    fn idle(&mut self);
    /// Time since the transport started (virtual for simulated networks).
    fn clock(&self) -> Duration;
    /// Why the system stopped answering, when the transport knows (a
    /// local process stopped after its time limit): said in the liveness
    /// verdict.
    fn stalled(&self) -> Option<String> {
        None
    }
}

/// Something that starts a fresh system under test for each execution.
pub trait Target: Send + Sync {
    /// Starts (or resets) the system; `seed` drives any simulated
    /// nondeterminism.
    fn start(&self, seed: u64) -> Result<Box<dyn Transport>, SetupError>;
    /// A description for reports.
    fn describe(&self) -> String;
}

/// Settings of one execution.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Concurrent client connections.
    pub conns: usize,
    /// Fuel: the most steps a script may have.
    pub fuel: usize,
    /// Wall-clock budget of one execution; when it runs out the script
    /// stops and the execution drains.
    pub budget: Duration,
    /// Liveness window: requests pending with no response for this long
    /// fail the execution.
    pub liveness: Duration,
    /// Longest a `Wait` step waits.
    pub wait: Duration,
    /// Probability that a generated step is a `Wait`.
    pub p_wait: f64,
    /// Most requests the heuristics keep in flight: beyond it they wait
    /// for responses (each pending request multiplies the orders in which
    /// the server may have handled them, which the validator explores).
    pub max_in_flight: usize,
    /// Bounds on the validator.
    pub limits: Limits,
    /// Executions of a known failing script before it counts as not
    /// reproducing (the confirmation of a failure found adaptively, and
    /// the final run of the shrunk one): the interleaving of concurrent
    /// connections is the system's, so a failure that needs one may take
    /// more than one try. Reported with the attempt it took.
    pub attempts: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            conns: 2,
            fuel: 40,
            budget: Duration::from_secs(5),
            liveness: Duration::from_millis(500),
            wait: Duration::from_millis(20),
            p_wait: 0.15,
            max_in_flight: 4,
            limits: Limits::default(),
            attempts: 8,
        }
    }
}

/// How an execution ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every observation was explained.
    Accepted {
        /// The wall-clock budget cut the script short.
        budget_hit: bool,
    },
    /// A response no behaviour of the model explains.
    Rejected(Rejection),
    /// Bytes that are not a message of the protocol.
    Malformed {
        /// The connection.
        conn: Conn,
        /// The bytes.
        bytes: Vec<u8>,
        /// What the decoder said.
        reason: String,
    },
    /// Requests pending and no response for the liveness window.
    Liveness {
        /// Requests without a response.
        pending: usize,
        /// How long the tester waited.
        waited: Duration,
        /// What the transport knows of the cause.
        cause: Option<String>,
    },
    /// The server reset or closed a connection (and the model does not
    /// allow it, or reconnecting failed).
    ConnectionLost(TransportError),
    /// The model is broken.
    Model(ModelError),
    /// The validator could not decide (too many branches, or no branch
    /// left after some were abandoned for lack of fuel): no verdict.
    Inconclusive(Invalid),
}

impl From<Invalid> for Verdict {
    fn from(e: Invalid) -> Self {
        match e {
            Invalid::Rejected(r) => Verdict::Rejected(r),
            Invalid::Model(e) => Verdict::Model(e),
            inconclusive => Verdict::Inconclusive(inconclusive),
        }
    }
}

impl Verdict {
    /// True for a failure of the system under test (or of its model).
    pub fn is_failure(&self) -> bool {
        !matches!(self, Verdict::Accepted { .. } | Verdict::Inconclusive(_))
    }

    /// A short name for the kind of failure (also what identifies "the
    /// same failure" while shrinking).
    pub fn kind(&self) -> &'static str {
        match self {
            Verdict::Accepted { .. } => "accepted",
            Verdict::Rejected(_) => "rejected",
            Verdict::Malformed { .. } => "malformed message",
            Verdict::Liveness { .. } => "liveness",
            Verdict::ConnectionLost(_) => "connection lost",
            Verdict::Model(_) => "model error",
            Verdict::Inconclusive(_) => "inconclusive",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Accepted { budget_hit } => {
                write!(f, "accepted{}", if *budget_hit { " (wall-clock budget reached)" } else { "" })
            }
            Verdict::Rejected(r) => write!(f, "REJECTED: {r}"),
            Verdict::Malformed { conn, bytes, reason } => {
                write!(f, "MALFORMED response on connection {conn}: {reason}\n  bytes: {}", show_bytes(bytes))
            }
            Verdict::Liveness { pending, waited, cause } => {
                write!(
                    f,
                    "LIVENESS: no response within {} while {pending} request{} pending",
                    speccheck_core::human::duration(*waited),
                    if *pending == 1 { " was" } else { "s were" }
                )?;
                match cause {
                    Some(c) => write!(f, " ({c})"),
                    None => Ok(()),
                }
            }
            Verdict::ConnectionLost(e) => write!(f, "CONNECTION LOST: {e}"),
            Verdict::Model(e) => write!(f, "MODEL ERROR: {e}"),
            Verdict::Inconclusive(e) => write!(f, "INCONCLUSIVE: {e}"),
        }
    }
}

/// Everything one execution produced.
#[derive(Clone, Debug)]
pub struct Execution {
    /// How it ended.
    pub verdict: Verdict,
    /// The script as executed.
    pub steps: Vec<Step>,
    /// When each step was taken, from the start of the execution (to
    /// repeat a script at the pace it failed at).
    pub pacing: Vec<Duration>,
    /// Messages sent and received, in the intermediate representation.
    pub trace: Vec<TraceEntry>,
    /// Requests sent.
    pub sent: usize,
    /// Responses received.
    pub received: usize,
    /// Steps whose J-expression did not stand for a request.
    pub skipped: usize,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// The validator's counters.
    pub validator: ValidatorStats,
    /// Time spent validating observations (the validator's share of
    /// `elapsed`).
    pub validation: Duration,
}

impl Execution {
    /// Messages sent and received.
    pub fn interactions(&self) -> usize {
        self.sent + self.received
    }

    /// The trace, one message per line.
    pub fn trace_lines(&self) -> String {
        let mut s = String::new();
        for (i, e) in self.trace.iter().enumerate() {
            if e.closed {
                s.push_str(&format!("#{i:<3}       conn {} closed by the server\n", e.conn));
                continue;
            }
            let arrow = if e.sent { "->" } else { "<-" };
            s.push_str(&format!("#{i:<3} [{:>3}] conn {} {arrow} {}\n", e.label, e.conn, e.ir));
        }
        s
    }
}

/// A number unique to each execution in this process (and, through the
/// clock, across processes), for [`Wire::execution`].
fn execution_id() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    RandomState::new().hash_one((n, now, std::process::id()))
}

struct Live<'a, P: Protocol, S: Solver> {
    protocol: &'a P,
    transport: Box<dyn Transport>,
    validator: Validator<P::Model, S>,
    execution: u64,
    /// Per transport slot: the model's number of the connection open there
    /// (a reconnection gets a new number).
    ids: Vec<Conn>,
    next_id: Conn,
    bufs: Vec<Vec<u8>>,
    /// Per slot: labels and requests still owed a response, oldest first.
    awaiting: Vec<VecDeque<(u32, Req<P>)>>,
    /// Per slot: responses received on the connection open there.
    answered: Vec<usize>,
    trace: Vec<TraceEntry>,
    last_progress: Duration,
    received: usize,
    validation: Duration,
}

impl<P: Protocol, S: Solver> Live<'_, P, S> {
    fn pending(&self) -> usize {
        self.awaiting.iter().map(VecDeque::len).sum()
    }

    /// Is a response to one of `labels` still owed (its request sent,
    /// on a connection still open)?
    fn awaited(&self, labels: &[u32]) -> bool {
        labels
            .iter()
            .any(|&l| l % 2 == 0 && self.awaiting.iter().any(|q| q.iter().any(|(req, _)| req.wrapping_add(1) == l)))
    }

    /// Advances time one tick, then reads and validates everything that
    /// arrived. Returns a failure verdict if any.
    fn poll(&mut self, liveness: Duration) -> Option<Verdict> {
        self.transport.idle();
        self.read(liveness)
    }

    /// Reads and validates everything that arrived, without letting time
    /// pass (between the requests of a burst, so that they reach the
    /// server together: pipelining).
    fn read(&mut self, liveness: Duration) -> Option<Verdict> {
        let mut progressed = false;
        for slot in 0..self.bufs.len() {
            match self.transport.recv(slot, &mut self.bufs[slot]) {
                Ok(_) => {}
                Err(e) => {
                    // Whatever arrived before the loss is still validated.
                    if let Some(v) = self.decode_all(slot, true, &mut progressed) {
                        return Some(v);
                    }
                    if let Some(v) = self.closed(slot, e) {
                        return Some(v);
                    }
                    progressed = true;
                    continue;
                }
            }
            if let Some(v) = self.decode_all(slot, false, &mut progressed) {
                return Some(v);
            }
        }
        let now = self.transport.clock();
        if progressed {
            self.last_progress = now;
        }
        let pending = self.pending();
        if pending > 0 && now.saturating_sub(self.last_progress) > liveness {
            let waited = now.saturating_sub(self.last_progress);
            return Some(Verdict::Liveness { pending, waited, cause: self.transport.stalled() });
        }
        None
    }

    /// Decodes and validates the complete responses buffered on `slot`
    /// (`closed`: no more bytes will come).
    fn decode_all(&mut self, slot: usize, closed: bool, progressed: &mut bool) -> Option<Verdict> {
        let conn = self.ids[slot];
        loop {
            if self.bufs[slot].is_empty() {
                return None;
            }
            let answering = Answering {
                wire: Wire { execution: self.execution, conn },
                request: self.awaiting[slot].front().map(|(_, q)| q),
                closed,
            };
            match self.protocol.decode_response(&self.bufs[slot], &answering) {
                Decoded::Incomplete if closed => {
                    let reason = "the server closed the connection in the middle of a response".to_string();
                    return Some(Verdict::Malformed { conn, bytes: std::mem::take(&mut self.bufs[slot]), reason });
                }
                Decoded::Incomplete => return None,
                Decoded::Malformed(reason) => {
                    return Some(Verdict::Malformed { conn, bytes: std::mem::take(&mut self.bufs[slot]), reason });
                }
                Decoded::Message(resp, used) => {
                    let used = used.clamp(1, self.bufs[slot].len());
                    self.bufs[slot].drain(..used);
                    *progressed = true;
                    self.received += 1;
                    let label = self.awaiting[slot].pop_front().map_or(0, |(l, _)| l.wrapping_add(1));
                    self.answered[slot] += 1;
                    let ir = self.protocol.response_to_ir(&resp);
                    self.trace.push(TraceEntry { label, conn, sent: false, closed: false, ir });
                    let t = Instant::now();
                    let observed = self.validator.observe_recv(conn, &resp);
                    self.validation += t.elapsed();
                    if let Err(e) = observed {
                        return Some(e.into());
                    }
                }
            }
        }
    }

    /// The server closed (or reset) the connection in `slot`: a verdict,
    /// unless the model allows it — then the validator takes note and the
    /// slot reconnects under a new connection number.
    fn closed(&mut self, slot: usize, e: TransportError) -> Option<Verdict> {
        let lost = matches!(e, TransportError::Closed { .. } | TransportError::Reset { .. });
        // A server may close a connection it has served (a request limit,
        // an idle timeout), not one whose requests it never answered: that
        // is a server refusing or crashing, and no pass.
        let never_served = self.answered[slot] == 0 && !self.awaiting[slot].is_empty();
        if !lost || !<P::Model as Model>::CLOSES || never_served {
            return Some(Verdict::ConnectionLost(e));
        }
        let conn = self.ids[slot];
        if let Err(e) = self.validator.observe_close(conn) {
            return Some(e.into());
        }
        self.trace.push(TraceEntry { label: 0, conn, sent: false, closed: true, ir: serde_json::Value::Null });
        self.awaiting[slot].clear();
        self.bufs[slot].clear();
        if let Err(e) = self.transport.connect(slot) {
            return Some(Verdict::ConnectionLost(e));
        }
        self.ids[slot] = self.next_id;
        self.next_id += 1;
        self.answered[slot] = 0;
        None
    }

    /// Sends `req` on `slot`; a connection the server closed in the
    /// meantime (when the model allows it) is reopened and the request
    /// sent once more on the new one.
    fn send(&mut self, slot: usize, req: &Req<P>) -> Result<(), Verdict> {
        for attempt in 0..2 {
            let wire = Wire { execution: self.execution, conn: self.ids[slot] };
            let bytes = self.protocol.encode_request(req, &wire);
            match self.transport.send(slot, &bytes) {
                Ok(()) => return Ok(()),
                Err(e) if attempt == 0 => {
                    let mut progressed = false;
                    if let Some(v) = self.decode_all(slot, true, &mut progressed) {
                        return Err(v);
                    }
                    if let Some(v) = self.closed(slot, e) {
                        return Err(v);
                    }
                }
                Err(e) => return Err(Verdict::ConnectionLost(e)),
            }
        }
        unreachable!("the loop returns")
    }
}

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

fn run<P: Protocol, S: Solver>(
    protocol: &P,
    target: &dyn Target,
    settings: &Settings,
    seed: u64,
    mut source: Source<'_>,
) -> Result<Execution, SetupError> {
    let started = Instant::now();
    let conns = settings.conns.max(1);
    let mut transport = target.start(seed)?;
    for c in 0..conns {
        transport.connect(c).map_err(SetupError::Connect)?;
    }
    let mut drawer = match &mut source {
        Source::Adaptive(tc) => Some(ScriptDrawer::new(tc, grammar(protocol, settings), settings.fuel)),
        Source::Fixed(..) => None,
    };
    let mut steps: Vec<Step> = Vec::new();
    let mut pacing: Vec<Duration> = Vec::new();
    let mut sent = 0;
    let mut skipped = 0;
    let finish =
        |verdict: Verdict, (steps, pacing): (Vec<Step>, Vec<Duration>), live: Option<Live<'_, P, S>>, sent, skipped| {
            let (trace, received, validator, validation) = match live {
                Some(l) => (l.trace, l.received, l.validator.stats(), l.validation),
                None => (Vec::new(), 0, ValidatorStats::default(), Duration::ZERO),
            };
            if let Verdict::ConnectionLost(TransportError::Harness { detail }) = verdict {
                // The tester's failure, not the system's: no verdict.
                return Err(SetupError::Harness(detail));
            }
            let elapsed = started.elapsed();
            Ok(Execution { verdict, steps, pacing, trace, sent, received, skipped, elapsed, validator, validation })
        };
    let validator = match Validator::<P::Model, S>::new(protocol.model(), settings.limits) {
        Ok(v) => v,
        Err(e) => return finish(Verdict::Model(e), (steps, pacing), None, 0, 0),
    };
    let now = transport.clock();
    let mut live = Live {
        protocol,
        transport,
        validator,
        execution: execution_id(),
        ids: (0..conns).collect(),
        next_id: conns,
        bufs: vec![Vec::new(); conns],
        awaiting: (0..conns).map(|_| VecDeque::new()).collect(),
        answered: vec![0; conns],
        trace: Vec::new(),
        last_progress: now,
        received: 0,
        validation: Duration::ZERO,
    };
    let funcs = protocol.functions();
    let mut next_label = 1u32;
    let mut budget_hit = false;
    loop {
        // Consecutive requests go out back to back (a burst the server
        // sees pipelined); time passes after anything else.
        let burst = matches!(steps.last(), Some(Step::Send { .. }));
        let polled = if burst { live.read(settings.liveness) } else { live.poll(settings.liveness) };
        if let Some(v) = polled {
            return finish(v, (steps, pacing), Some(live), sent, skipped);
        }
        if started.elapsed() > settings.budget {
            budget_hit = true;
            break;
        }
        let proposed = |rng: &mut rand::rngs::SmallRng| -> Step {
            if sent > 0 && (live.pending() >= settings.max_in_flight || rng.random_bool(settings.p_wait)) {
                return Step::Wait;
            }
            let conn = rng.random_range(0..conns);
            let branch = &live.validator.branches()[0];
            let view = View::<P> {
                states: live.validator.states(),
                in_flight: branch.net.pending_requests().collect(),
                trace: &live.trace,
                label: next_label,
                conn,
                conns,
            };
            Step::Send { label: next_label, conn, body: protocol.propose(&view, rng) }
        };
        let next = match (&mut source, &mut drawer) {
            (Source::Adaptive(tc), Some(drawer)) => drawer.next(tc, proposed),
            (Source::Fixed(script, pace), _) => {
                let at = pace.and_then(|p| p.get(steps.len())).copied();
                while let Some(at) = at
                    && started.elapsed() < at
                {
                    if let Some(v) = live.poll(settings.liveness) {
                        return finish(v, (steps, pacing), Some(live), sent, skipped);
                    }
                }
                let step = script.get(steps.len()).cloned();
                // A step that reads the trace (an entity tag, a location)
                // was drawn after what it reads arrived: it waits for
                // that, else a replay would send the reference's default.
                // A reference that names no message of this run (shrinking
                // removed or renumbered it) resolves loosely, against
                // whatever has arrived: it waits for every response due,
                // so that each replay reads the same trace.
                if let Some(Step::Send { body, .. }) = &step {
                    let wanted = body.referenced_labels();
                    let exact = wanted.iter().all(|l| live.trace.iter().any(|e| e.label == *l) || live.awaited(&[*l]));
                    while if exact { live.awaited(&wanted) } else { live.pending() > 0 } {
                        if let Some(v) = live.poll(settings.liveness) {
                            return finish(v, (steps, pacing), Some(live), sent, skipped);
                        }
                    }
                }
                step
            }
            (Source::Adaptive(_), None) => unreachable!("an adaptive source has a drawer"),
        };
        let Some(step) = next else { break };
        steps.push(step.clone());
        pacing.push(started.elapsed());
        match step {
            Step::Send { label, conn, body } => {
                // Labels stay unique and increasing in the order of the
                // steps, whatever shrinking did to them: a reference then
                // resolves by the script, not by the order in which
                // responses on different connections happened to arrive.
                let label = label.max(next_label);
                next_label = label.saturating_add(2) | 1;
                let labelled: Vec<(u32, &serde_json::Value)> = live.trace.iter().map(|e| (e.label, &e.ir)).collect();
                let ir = body.instantiate(&labelled, funcs);
                let Some(req) = protocol.request_from_ir(&ir) else {
                    skipped += 1;
                    continue;
                };
                let slot = conn;
                if let Err(v) = live.send(slot, &req) {
                    return finish(v, (steps, pacing), Some(live), sent, skipped);
                }
                let conn = live.ids[slot];
                if protocol.expects_response(&req) {
                    if live.pending() == 0 {
                        live.last_progress = live.transport.clock();
                    }
                    live.awaiting[slot].push_back((label, req.clone()));
                }
                let ir = protocol.request_to_ir(&req);
                live.trace.push(TraceEntry { label, conn, sent: true, closed: false, ir });
                sent += 1;
                let t = Instant::now();
                let observed = live.validator.observe_send(conn, req);
                live.validation += t.elapsed();
                if let Err(e) = observed {
                    return finish(e.into(), (steps, pacing), Some(live), sent, skipped);
                }
            }
            Step::Wait => {
                let (until, before) = (live.transport.clock() + settings.wait, live.received);
                let wall = Instant::now() + settings.wait.max(Duration::from_millis(1)) * 4;
                while live.pending() > 0
                    && live.received == before
                    && live.transport.clock() < until
                    && Instant::now() < wall
                {
                    if let Some(v) = live.poll(settings.liveness) {
                        return finish(v, (steps, pacing), Some(live), sent, skipped);
                    }
                }
            }
        }
    }
    // Drain: wait for the responses still due, within the liveness window
    // (measured on the transport's clock). The wall-clock guard only bounds
    // the loop: reaching it means the budget ran out, not that the system
    // is silent.
    let hard_stop = started + settings.budget + settings.liveness * 2;
    while live.pending() > 0 {
        if let Some(v) = live.poll(settings.liveness) {
            return finish(v, (steps, pacing), Some(live), sent, skipped);
        }
        if Instant::now() > hard_stop && live.pending() > 0 {
            return finish(Verdict::Accepted { budget_hit: true }, (steps, pacing), Some(live), sent, skipped);
        }
    }
    for conn in 0..conns {
        if !live.bufs[conn].is_empty() {
            let bytes = std::mem::take(&mut live.bufs[conn]);
            let reason = "bytes after the last response that do not form a complete message".to_string();
            return finish(Verdict::Malformed { conn, bytes, reason }, (steps, pacing), Some(live), sent, skipped);
        }
    }
    finish(Verdict::Accepted { budget_hit }, (steps, pacing), Some(live), sent, skipped)
}
