//! # speccheck-dual
//!
//! Testing by dualization (Yishuai Li, *Testing by Dualization*, PhD
//! thesis, University of Pennsylvania): a symbolic, nondeterministic
//! reference model of an interactive system is turned — *dualized* — into
//! a tester of a live implementation. The tester sends what the model
//! would receive, and checks what it receives against what the model could
//! send, keeping every branch of the model's nondeterminism that still
//! explains the observations.
//!
//! | thesis | module |
//! |---|---|
//! | §2 validators, soundness and completeness; §3.2 symbolic validation | [`dual`], [`solver`] |
//! | §3.1, §4.1–4.2.1 specification language (interaction trees) | [`model`] |
//! | §4.2.1 symbolic expressions (booleans, integers and their order, strings) | [`sym`] |
//! | §4.2.2 dualization, §4.2.3 unification, §4.4.1 backtracking | [`dual`] |
//! | §4.3 network model and composition (external nondeterminism) | [`network`], [`dual`] |
//! | §4.4.2 executing the tester (fuel, non-blocking I/O) | [`exec`] |
//! | §5.2 state- and trace-based heuristics | [`protocol::View`], [`protocols`] |
//! | §5.3 J-expressions, loose evaluation, shrinking | [`harness`], [`tester`] |
//! | §5.3.1 protocol-independent architecture (bytes ↔ IR ↔ messages) | [`protocol`] |
//! | §2.3, §3.3 correctness (checked here by testing, not proof) | [`brute`] and `tests/agreement.rs` |
//!
//! A protocol implements [`protocol::Protocol`] (model, codecs, IR,
//! heuristics); a [`tester::Tester`] runs it against a [`exec::Target`] —
//! an in-process [`exec::inproc::Service`] behind a simulated network, or
//! a server over TCP on 127.0.0.1 — as a speccheck property, so seeds,
//! replay, shrinking and reports are the core runner's.
//!
//! ```
//! use speccheck_dual::exec::inproc::InProcess;
//! use speccheck_dual::protocols::cmp::{Cmp, CmpBug, CmpServer};
//! use speccheck_dual::tester::Tester;
//!
//! // CMP-SET with a planted bug: the tester finds and shrinks it.
//! let report = Tester::new(Cmp::set(), InProcess::new("cmp-set", |_| CmpServer::set(Some(CmpBug::EqualIsSmaller))))
//!     .configure(|c| c.seed = Some(1))
//!     .run();
//! assert!(!report.passed());
//! ```
#![warn(missing_docs)]

pub mod brute;
pub mod dual;
pub mod exec;
pub mod harness;
pub mod model;
pub mod network;
pub mod protocol;
pub mod protocols;
pub mod solver;
pub mod sym;
pub mod tester;

/// Re-exported for protocol implementations (heuristics draw from a
/// [`rand::rngs::SmallRng`]; the intermediate representation is
/// [`serde_json::Value`]).
pub use rand;
pub use serde_json;

pub use dual::{Invalid, Limits, Observation, Rejection, Validator, validate};
pub use exec::{Execution, Settings, Target, Verdict};
pub use harness::jexp::{JExp, JFn, JPath};
pub use harness::script::Step;
pub use model::{Conn, Cx, Model, Symbolic};
pub use protocol::{Answering, Decoded, Protocol, View, Wire};
pub use sym::{Expr, Sort, SymJson, Value, Var};
pub use tester::{DualReport, Tester};
