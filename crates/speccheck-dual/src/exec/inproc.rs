//! An in-process system under test behind a simulated network.
//!
//! A [`Service`] is a server as a state machine over bytes. The
//! [`InProcess`] target runs a fresh one per execution behind a network
//! that delays every message by a random number of ticks — keeping the
//! order within a connection, reordering across connections — seeded per
//! execution, so runs are reproducible and fast (time is virtual: one tick
//! per poll of the tester).

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::{SetupError, Target, Transport, TransportError};
use crate::model::Conn;

/// A server as a state machine over bytes.
pub trait Service: Send {
    /// Bytes arrived on connection `conn`.
    fn receive(&mut self, conn: Conn, bytes: &[u8]);
    /// Gives the server a turn; it appends what it sends to `out`.
    fn poll(&mut self, out: &mut Vec<(Conn, Vec<u8>)>);

    /// Connections the server closes now, after what it sent so far
    /// (appended to `out`; by default it never closes one). A connection
    /// number is never reused: a client that reconnects gets a new one.
    fn closing(&mut self, out: &mut Vec<Conn>) {
        let _ = out;
    }
}

/// A line-oriented server: one request per `\n`-terminated line.
pub trait LineServer: Send {
    /// Handles one request line (without its newline) from `conn`;
    /// response lines (without newlines) go to `out`.
    fn line(&mut self, conn: Conn, line: &str, out: &mut Vec<(Conn, String)>);
}

/// A closure from a request line to its response line is a line server
/// (answering on the request's connection).
impl<F: FnMut(&str) -> String + Send> LineServer for F {
    fn line(&mut self, conn: Conn, line: &str, out: &mut Vec<(Conn, String)>) {
        out.push((conn, self(line)));
    }
}

/// Adapts a [`LineServer`] to a [`Service`].
pub struct Lines<S> {
    inner: S,
    bufs: Vec<Vec<u8>>,
    out: Vec<(Conn, String)>,
}

impl<S: LineServer> Lines<S> {
    /// Wraps a line server.
    pub fn new(inner: S) -> Self {
        Lines { inner, bufs: Vec::new(), out: Vec::new() }
    }
}

impl<S: LineServer> Service for Lines<S> {
    fn receive(&mut self, conn: Conn, bytes: &[u8]) {
        if self.bufs.len() <= conn {
            self.bufs.resize(conn + 1, Vec::new());
        }
        self.bufs[conn].extend_from_slice(bytes);
        while let Some(end) = self.bufs[conn].iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.bufs[conn].drain(..=end).collect();
            let text = String::from_utf8_lossy(&line[..line.len() - 1]).into_owned();
            self.inner.line(conn, &text, &mut self.out);
        }
    }

    fn poll(&mut self, out: &mut Vec<(Conn, Vec<u8>)>) {
        for (c, mut l) in self.out.drain(..) {
            l.push('\n');
            out.push((c, l.into_bytes()));
        }
    }
}

type Factory = Arc<dyn Fn(u64) -> Box<dyn Service> + Send + Sync>;

/// A fresh in-process [`Service`] per execution, behind a simulated network.
#[derive(Clone)]
pub struct InProcess {
    factory: Factory,
    max_delay: u64,
    tick: Duration,
    name: String,
}

impl InProcess {
    /// Serves each execution with a new service from `factory`, which gets
    /// the execution's seed (for the service's own nondeterminism: tags,
    /// resets — different in every execution, reproducible from the seed).
    pub fn new(name: impl Into<String>, factory: impl Fn(u64) -> Box<dyn Service> + Send + Sync + 'static) -> Self {
        InProcess { factory: Arc::new(factory), max_delay: 16, tick: Duration::from_micros(100), name: name.into() }
    }

    /// Each message is delayed by up to `ticks` polls (default 16; 0: no
    /// reordering at all).
    pub fn max_delay(mut self, ticks: u64) -> Self {
        self.max_delay = ticks;
        self
    }

    /// The virtual duration of one tick (default 100 µs).
    pub fn tick(mut self, d: Duration) -> Self {
        self.tick = d;
        self
    }
}

impl Target for InProcess {
    fn start(&self, seed: u64) -> Result<Box<dyn Transport>, SetupError> {
        Ok(Box::new(Simulated {
            service: (self.factory)(seed),
            rng: SmallRng::seed_from_u64(seed),
            now: 0,
            max_delay: self.max_delay,
            tick: self.tick,
            up: VecDeque::new(),
            down: Vec::new(),
            last_up: Vec::new(),
            last_down: Vec::new(),
            scratch: Vec::new(),
            sids: Vec::new(),
            next_sid: 0,
            shut: Vec::new(),
        }))
    }

    fn describe(&self) -> String {
        format!("{} (in process, simulated network)", self.name)
    }
}

struct Simulated {
    service: Box<dyn Service>,
    rng: SmallRng,
    now: u64,
    max_delay: u64,
    tick: Duration,
    /// Towards the service: (due tick, connection, bytes), by due tick.
    up: VecDeque<(u64, Conn, Vec<u8>)>,
    /// Towards the tester, per connection: (due tick, bytes or close).
    down: Vec<VecDeque<(u64, Down)>>,
    last_up: Vec<u64>,
    last_down: Vec<u64>,
    scratch: Vec<(Conn, Vec<u8>)>,
    /// Per tester connection: the service's number for it (a reconnection
    /// is a new connection to the service).
    sids: Vec<Conn>,
    next_sid: Conn,
    /// Per tester connection: the service closed it (what the tester sends
    /// there is lost until it reconnects).
    shut: Vec<bool>,
}

/// What travels towards the tester on one connection.
enum Down {
    Bytes(Vec<u8>),
    /// The service closed the connection.
    Close,
}

impl Simulated {
    fn grow(&mut self, conn: Conn) {
        while self.down.len() <= conn {
            self.down.push(VecDeque::new());
            self.last_up.push(0);
            self.last_down.push(0);
            self.sids.push(self.next_sid);
            self.next_sid += 1;
            self.shut.push(false);
        }
    }

    /// The tester connection the service's connection `sid` is, if open.
    fn slot(&self, sid: Conn) -> Option<Conn> {
        self.sids.iter().position(|&s| s == sid).filter(|&c| !self.shut[c])
    }

    fn push_down(&mut self, c: Conn, what: Down) {
        let due = (self.now + self.delay()).max(self.last_down[c]);
        self.last_down[c] = due;
        self.down[c].push_back((due, what));
    }

    fn delay(&mut self) -> u64 {
        if self.max_delay == 0 { 0 } else { self.rng.random_range(0..=self.max_delay) }
    }

    /// Delivers what is due to the service and collects what it sends.
    fn pump(&mut self) {
        loop {
            let due = self.up.iter().position(|(t, _, _)| *t <= self.now);
            let Some(i) = due else { break };
            let (_, sid, bytes) = self.up.remove(i).expect("a due message");
            self.service.receive(sid, &bytes);
        }
        self.service.poll(&mut self.scratch);
        for (sid, bytes) in std::mem::take(&mut self.scratch) {
            if let Some(c) = self.slot(sid) {
                self.push_down(c, Down::Bytes(bytes));
            }
        }
        let mut closing = Vec::new();
        self.service.closing(&mut closing);
        for sid in closing {
            if let Some(c) = self.slot(sid) {
                self.shut[c] = true;
                // Requests still on their way to the closed connection are lost.
                self.up.retain(|(_, s, _)| *s != sid);
                self.push_down(c, Down::Close);
            }
        }
    }
}

impl Transport for Simulated {
    fn connect(&mut self, conn: Conn) -> Result<(), TransportError> {
        self.grow(conn);
        if self.shut[conn] {
            // A reconnection: a new connection to the service.
            self.sids[conn] = self.next_sid;
            self.next_sid += 1;
            self.shut[conn] = false;
            self.down[conn].clear();
        }
        Ok(())
    }

    fn send(&mut self, conn: Conn, bytes: &[u8]) -> Result<(), TransportError> {
        self.grow(conn);
        if self.shut[conn] {
            // Sent into a connection the service closed: lost (the tester
            // learns of the close when it reads).
            return Ok(());
        }
        let due = (self.now + self.delay()).max(self.last_up[conn]);
        self.last_up[conn] = due;
        // Keep `up` ordered by due tick (stable among equals).
        let at = self.up.iter().position(|(t, _, _)| *t > due).unwrap_or(self.up.len());
        self.up.insert(at, (due, self.sids[conn], bytes.to_vec()));
        Ok(())
    }

    fn recv(&mut self, conn: Conn, buf: &mut Vec<u8>) -> Result<usize, TransportError> {
        self.grow(conn);
        let mut n = 0;
        while let Some((t, what)) = self.down[conn].front() {
            if *t > self.now {
                break;
            }
            if let Down::Close = what {
                if n > 0 {
                    return Ok(n); // the close is reported on the next read
                }
                self.down[conn].pop_front();
                return Err(TransportError::Closed { conn });
            }
            let Some((_, Down::Bytes(bytes))) = self.down[conn].pop_front() else { unreachable!("bytes") };
            n += bytes.len();
            buf.extend_from_slice(&bytes);
        }
        Ok(n)
    }

    fn idle(&mut self) {
        self.now += 1;
        self.pump();
    }

    fn clock(&self) -> Duration {
        self.tick * u32::try_from(self.now).unwrap_or(u32::MAX)
    }
}
