//! A system under test on this machine, driven one request at a time
//! (thesis §6.2: the file synchronizer is "run as a foreground process
//! that blocks other interactions").
//!
//! A [`Session`] answers each request synchronously: it applies a file
//! operation, runs a command and observes what it did, and returns the
//! response bytes. The [`Local`] target makes a fresh session per
//! execution (fresh replicas, a fresh archive), and drops it when the
//! execution ends, which is where a session cleans up after itself — on
//! unwinding too.
//!
//! A session that cannot answer because the system hung (a command past
//! its time limit, stopped) says so with [`CallError::Stalled`]: the request then
//! stays unanswered, the executor's liveness check fails the execution,
//! and the verdict carries the session's explanation.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{SetupError, Target, Transport, TransportError};
use crate::model::Conn;

/// Why a session could not answer a request.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CallError {
    /// The system did not finish in time and was stopped: no response.
    #[error("{0}")]
    Stalled(String),
    /// The tester's own side failed (a temporary file could not be
    /// written): not a verdict on the system.
    #[error("{0}")]
    Harness(String),
}

/// A system under test answering one request at a time.
pub trait Session: Send {
    /// Handles one request (the protocol's bytes) and returns the response
    /// (the protocol's bytes).
    fn call(&mut self, request: &[u8]) -> Result<Vec<u8>, CallError>;
}

type Factory = Arc<dyn Fn(u64) -> Result<Box<dyn Session>, SetupError> + Send + Sync>;

/// A fresh [`Session`] per execution.
#[derive(Clone)]
pub struct Local {
    factory: Factory,
    name: String,
}

impl Local {
    /// Starts each execution with a session from `factory` (given the
    /// execution's seed).
    pub fn new(
        name: impl Into<String>,
        factory: impl Fn(u64) -> Result<Box<dyn Session>, SetupError> + Send + Sync + 'static,
    ) -> Self {
        Local { factory: Arc::new(factory), name: name.into() }
    }
}

impl Target for Local {
    fn start(&self, seed: u64) -> Result<Box<dyn Transport>, SetupError> {
        let session = (self.factory)(seed)?;
        Ok(Box::new(Driver { session, outbox: Vec::new(), started: Instant::now(), stalled: None }))
    }

    fn describe(&self) -> String {
        format!("{} (local process)", self.name)
    }
}

/// The transport over a session: every connection shares the one session
/// (requests are handled in the order sent), responses queue per
/// connection.
struct Driver {
    session: Box<dyn Session>,
    outbox: Vec<Vec<u8>>,
    started: Instant,
    stalled: Option<String>,
}

impl Transport for Driver {
    fn connect(&mut self, conn: Conn) -> Result<(), TransportError> {
        if self.outbox.len() <= conn {
            self.outbox.resize(conn + 1, Vec::new());
        }
        Ok(())
    }

    fn send(&mut self, conn: Conn, bytes: &[u8]) -> Result<(), TransportError> {
        if self.stalled.is_some() {
            // A stalled system gets nothing more: the execution is failing.
            return Ok(());
        }
        match self.session.call(bytes) {
            Ok(resp) => {
                self.connect(conn)?;
                self.outbox[conn].extend_from_slice(&resp);
                Ok(())
            }
            Err(CallError::Stalled(why)) => {
                self.stalled = Some(why);
                Ok(())
            }
            Err(CallError::Harness(detail)) => Err(TransportError::Harness { detail }),
        }
    }

    fn recv(&mut self, conn: Conn, buf: &mut Vec<u8>) -> Result<usize, TransportError> {
        let out = self.outbox.get_mut(conn).map(std::mem::take).unwrap_or_default();
        buf.extend_from_slice(&out);
        Ok(out.len())
    }

    fn idle(&mut self) {
        // Nothing runs between requests: waiting is only the liveness
        // check's, after a stall.
        std::thread::sleep(Duration::from_millis(1));
    }

    fn clock(&self) -> Duration {
        self.started.elapsed()
    }

    fn stalled(&self) -> Option<String> {
        self.stalled.clone()
    }
}
