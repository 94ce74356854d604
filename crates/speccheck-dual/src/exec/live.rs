//! The live side of one execution: the connections to the system under
//! test, the bytes and requests pending on each, the trace, and the
//! validator every message goes through as it is sent or received.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::{Transport, TransportError, Verdict};
use crate::dual::{Invalid, Rejection, Validator};
use crate::model::{Conn, Model};
use crate::protocol::{Answering, Decoded, Protocol, Req, TraceEntry, Wire};
use crate::rule::Level;
use crate::solver::Solver;

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

/// The connections of one execution and what is known of them.
pub(super) struct Live<'a, P: Protocol, S: Solver> {
    protocol: &'a P,
    pub(super) transport: Box<dyn Transport>,
    pub(super) validator: Validator<P::Model, S>,
    /// A second validator, shown what the validator accepted. Stricter
    /// (every rule, beside one enforcing MUSTs only): the first observation
    /// it rejects and the other accepts is a finding (a SHOULD not
    /// followed). Laxer (MUSTs only, beside a strict one): an observation
    /// the strict one rejects for a MUST and it accepts is a deviation
    /// from an earlier SHOULD ([`Rejection::after_should`]). Dropped once
    /// it has a finding, or has no verdict.
    shadow: Option<Validator<P::Model, S>>,
    /// The finding.
    pub(super) finding: Option<Rejection>,
    /// A stricter shadow was dropped for having no verdict: findings were
    /// not looked for to the end.
    pub(super) shadow_lost: bool,
    execution: u64,
    /// Per transport slot: the model's number of the connection open there
    /// (a reconnection gets a new number).
    ids: Vec<Conn>,
    next_id: Conn,
    pub(super) bufs: Vec<Vec<u8>>,
    /// Per slot: labels and requests still owed a response, oldest first.
    awaiting: Vec<VecDeque<(u32, Req<P>)>>,
    /// Per slot: responses received on the connection open there.
    answered: Vec<usize>,
    pub(super) trace: Vec<TraceEntry>,
    last_progress: Duration,
    /// Requests sent.
    pub(super) sent: usize,
    /// Responses received.
    pub(super) received: usize,
    /// Time spent validating observations.
    pub(super) validation: Duration,
}

impl<'a, P: Protocol, S: Solver> Live<'a, P, S> {
    /// The `conns` connections just opened on `transport`, validated by
    /// `validator`.
    pub(super) fn new(
        protocol: &'a P,
        transport: Box<dyn Transport>,
        validator: Validator<P::Model, S>,
        shadow: Option<Validator<P::Model, S>>,
        conns: usize,
    ) -> Self {
        let now = transport.clock();
        Live {
            protocol,
            transport,
            validator,
            shadow,
            finding: None,
            shadow_lost: false,
            execution: execution_id(),
            ids: (0..conns).collect(),
            next_id: conns,
            bufs: vec![Vec::new(); conns],
            awaiting: (0..conns).map(|_| VecDeque::new()).collect(),
            answered: vec![0; conns],
            trace: Vec::new(),
            last_progress: now,
            sent: 0,
            received: 0,
            validation: Duration::ZERO,
        }
    }

    /// Requests still owed a response, over every connection.
    pub(super) fn pending(&self) -> usize {
        self.awaiting.iter().map(VecDeque::len).sum()
    }

    /// Is a response to one of `labels` still owed (its request sent,
    /// on a connection still open)?
    pub(super) fn awaited(&self, labels: &[u32]) -> bool {
        labels
            .iter()
            .any(|&l| l % 2 == 0 && self.awaiting.iter().any(|q| q.iter().any(|(req, _)| req.wrapping_add(1) == l)))
    }

    /// Advances time one tick, then reads and validates everything that
    /// arrived. Returns a failure verdict if any.
    pub(super) fn poll(&mut self, liveness: Duration) -> Option<Verdict> {
        self.transport.idle();
        self.read(liveness)
    }

    /// Reads and validates everything that arrived, without letting time
    /// pass (between the requests of a burst, so that they reach the
    /// server together: pipelining).
    pub(super) fn read(&mut self, liveness: Duration) -> Option<Verdict> {
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
            // Bytes of a response that never completed, on a connection
            // still owed one.
            let partial = (0..self.bufs.len())
                .find(|&slot| !self.bufs[slot].is_empty() && !self.awaiting[slot].is_empty())
                .map(|slot| (self.ids[slot], self.bufs[slot].clone()));
            return Some(Verdict::Liveness { pending, waited, cause: self.transport.stalled(), partial });
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
                    let observed = self.beside(observed, |v| v.observe_recv(conn, &resp));
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
        let observed = self.validator.observe_close(conn);
        if let Err(e) = self.beside(observed, |v| v.observe_close(conn)) {
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

    /// Sends `req`, labelled `label`, on `slot`: then it is owed a response
    /// (when the protocol expects one), in the trace, and observed by the
    /// validator.
    pub(super) fn request(&mut self, slot: usize, label: u32, req: Req<P>) -> Result<(), Verdict> {
        self.send(slot, &req)?;
        let conn = self.ids[slot];
        if self.protocol.expects_response(&req) {
            if self.pending() == 0 {
                self.last_progress = self.transport.clock();
            }
            self.awaiting[slot].push_back((label, req.clone()));
        }
        let ir = self.protocol.request_to_ir(&req);
        self.trace.push(TraceEntry { label, conn, sent: true, closed: false, ir });
        self.sent += 1;
        let t = Instant::now();
        let observed = if self.shadow.is_some() {
            let observed = self.validator.observe_send(conn, req.clone());
            self.beside(observed, |v| v.observe_send(conn, req))
        } else {
            self.validator.observe_send(conn, req)
        };
        self.validation += t.elapsed();
        observed.map_err(Verdict::from)
    }

    /// The validator's answer `observed` to an observation, with the
    /// shadow shown the same (`observe`): what the validator accepted, or,
    /// for a laxer shadow, what it rejected for a MUST (see
    /// [`Live::shadow`](Self::shadow)'s field).
    fn beside(
        &mut self,
        observed: Result<(), Invalid>,
        observe: impl FnOnce(&mut Validator<P::Model, S>) -> Result<(), Invalid>,
    ) -> Result<(), Invalid> {
        match observed {
            Ok(()) => {
                self.shadow(observe);
                Ok(())
            }
            Err(Invalid::Rejected(mut r)) if r.level() == Level::Must && self.laxer() => {
                if self.shadow.as_mut().is_some_and(|v| observe(v).is_ok()) {
                    r.after_should = true;
                    r.following = self.validator.pruned_by_shoulds().to_vec();
                }
                Err(Invalid::Rejected(r))
            }
            Err(e) => Err(e),
        }
    }

    /// Whether the shadow enforces fewer rules than the validator.
    fn laxer(&self) -> bool {
        self.shadow.as_ref().is_some_and(|v| v.enforced() < self.validator.enforced())
    }

    /// Shows the shadow validator what the validator accepted.
    fn shadow(&mut self, observe: impl FnOnce(&mut Validator<P::Model, S>) -> Result<(), Invalid>) {
        let Some(v) = self.shadow.as_mut() else { return };
        match observe(v) {
            Ok(()) => {}
            // A laxer shadow rejecting what the validator accepted has no
            // verdict to add.
            Err(_) if self.laxer() => self.shadow = None,
            Err(Invalid::Rejected(mut r)) => {
                // What the finding is about: the rules the validator does
                // not enforce (the others only say which way each branch
                // went).
                let enforced = self.validator.enforced();
                if r.broken.iter().any(|b| b.rule.level > enforced) {
                    r.broken.retain(|b| b.rule.level > enforced);
                }
                // A MUST the validator did not see broken: it follows from
                // an earlier response the stricter one could explain one
                // way only.
                r.after_should = r.level() == Level::Must;
                if r.after_should {
                    r.following = self.shadow.as_ref().map(|v| v.pruned_by_shoulds().to_vec()).unwrap_or_default();
                }
                self.finding = Some(*r);
                self.shadow = None;
            }
            // No verdict from the stricter validator: no finding either,
            // and the execution says its findings stopped short.
            Err(_) => {
                self.shadow = None;
                self.shadow_lost = true;
            }
        }
    }
}
