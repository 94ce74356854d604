//! The executor (thesis §4.4): runs the derived tester against a live
//! system.
//!
//! One *execution* starts a fresh system under test ([`Target`]), opens
//! several client connections ([`Transport`]), and then alternates: poll
//! every connection without blocking and validate each response as it
//! arrives; draw the next [`Step`](crate::harness::script::Step) of the
//! script and send it. It ends when the script ends (then it drains: waits
//! for the responses still due), when fuel (the script's length) or the
//! wall-clock budget runs out, or at the first failure:
//!
//! * a response no branch of the model explains → [`Verdict::Rejected`];
//! * bytes that are not a message → [`Verdict::Malformed`], bytes shown;
//! * requests pending with no response for the liveness window →
//!   [`Verdict::Liveness`] (silence is never a rejection; this is the
//!   separate check that caught the thesis's server hanging on pipelined
//!   requests);
//! * a connection reset or closed by the server → [`Verdict::ConnectionLost`],
//!   unless the model allows the server to close connections
//!   ([`Model::CLOSES`](crate::model::Model::CLOSES)): then the validator
//!   takes note, the requests still waiting on it are no longer owed a
//!   response, and the tester reconnects (the new connection gets a new
//!   number in the trace and the model) — except when the server closes a
//!   connection before answering any of its requests, which is a refusal or
//!   a crash, not a keep-alive policy;
//! * the validator cannot decide (too many branches, a branch out of fuel
//!   before no branch was left) → [`Verdict::Inconclusive`]: counted and
//!   reported, never a rejection.
//!
//! A connection that cannot be opened, or a failure on the tester's own
//! side ([`TransportError::Harness`]), is a [`SetupError`], never a verdict.
//!
//! One file a concern: [`Target`] and [`Transport`] (target.rs), their
//! errors (error.rs), [`Settings`] (settings.rs), [`Verdict`] (verdict.rs),
//! the record of an execution, [`Execution`] (execution.rs), the live
//! connections of one (live.rs), and the loop that runs it (run.rs);
//! the targets themselves are [`inproc`], [`tcp`] and [`local`].

pub mod inproc;
pub mod local;
pub mod tcp;

mod error;
mod execution;
mod live;
mod run;
mod settings;
mod target;
mod verdict;

pub use error::{SetupError, TransportError};
pub use execution::Execution;
pub use run::{draw_script, execute, execute_paced, execute_script};
pub use settings::Settings;
pub use target::{Target, Transport};
pub use verdict::Verdict;
