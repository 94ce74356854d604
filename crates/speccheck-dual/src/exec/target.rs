//! What the executor drives: a [`Target`] starts a fresh system under test
//! for each execution, and hands back its client connections as a
//! [`Transport`].

use std::time::Duration;

use super::{SetupError, TransportError};
use crate::model::Conn;

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
