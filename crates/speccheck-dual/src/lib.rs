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
//! | §5.2 state- and trace-based heuristics | [`protocol::View`] (each protocol's own `propose`) |
//! | §5.3 J-expressions, loose evaluation, shrinking | [`harness`], [`tester`] |
//! | §5.3.1 protocol-independent architecture (bytes ↔ IR ↔ messages) | [`protocol`], [`lines`] |
//! | §2.3, §3.3 correctness (checked here by testing, not proof) | [`brute`] and `tests/agreement.rs` |
//!
//! This crate is the engine; protocols are their own crates, each a
//! [`protocol::Protocol`] (model, codecs, IR, heuristics): `speccheck-http`
//! (HTTP/1.1, the thesis's case study, for real servers over TCP) and
//! `speccheck-sync` (file synchronizers, run as local commands). A
//! [`tester::Tester`] runs a protocol against a [`exec::Target`] — an
//! in-process [`exec::inproc::Service`] behind a simulated network, a
//! server over TCP on 127.0.0.1, or a local process — as a speccheck
//! property, so seeds, replay, shrinking and reports are the core
//! runner's.
//!
//! A protocol in a few lines: a server that answers each number with
//! itself, and a system under test with a planted bug, which the tester
//! finds and shrinks (`examples/dual_custom_protocol.rs` has one whose
//! server chooses values the tester cannot know in advance).
//!
//! ```
//! use std::sync::Arc;
//!
//! use speccheck_dual::exec::inproc::{InProcess, Lines};
//! use speccheck_dual::lines::line_message;
//! use speccheck_dual::model::{Cx, Model, Step};
//! use speccheck_dual::rand::{Rng, rngs::SmallRng};
//! use speccheck_dual::serde_json::{Value as Json, json};
//! use speccheck_dual::{Answering, Decoded, Expr, JExp, Protocol, Tester, Value, View, Wire};
//!
//! /// The model: each request is a number, answered with that number.
//! struct Echo;
//! impl Model for Echo {
//!     type State = ();
//!     type Req = i64;
//!     type Resp = Expr;
//!     fn init(&self) {}
//!     fn serve(&self, _: &mut (), cx: &mut Cx<'_, Self>) -> Step {
//!         let (conn, n) = cx.recv()?;
//!         cx.send(conn, Expr::int(n))
//!     }
//! }
//!
//! /// The wire: a number a line each way; the heuristics: small numbers.
//! struct EchoProtocol;
//! impl Protocol for EchoProtocol {
//!     type Model = Echo;
//!     fn name(&self) -> &str {
//!         "echo"
//!     }
//!     fn model(&self) -> Arc<Echo> {
//!         Arc::new(Echo)
//!     }
//!     fn encode_request(&self, n: &i64, _: &Wire) -> Vec<u8> {
//!         format!("{n}\n").into_bytes()
//!     }
//!     fn decode_response(&self, bytes: &[u8], _: &Answering<'_, i64>) -> Decoded<Value> {
//!         line_message(bytes, |l| l.parse().map(Value::Int).map_err(|e| format!("not a number: {e}")))
//!     }
//!     fn request_to_ir(&self, n: &i64) -> Json {
//!         json!(n)
//!     }
//!     fn request_from_ir(&self, ir: &Json) -> Option<i64> {
//!         ir.as_i64()
//!     }
//!     fn response_to_ir(&self, r: &Value) -> Json {
//!         r.to_json()
//!     }
//!     fn propose(&self, _: &View<'_, Self>, rng: &mut SmallRng) -> JExp {
//!         JExp::lit(rng.random_range(0..10i64))
//!     }
//! }
//!
//! // A server that answers 7 with 8: the tester finds it and shrinks it.
//! let buggy = |line: &str| if line == "7" { "8".to_string() } else { line.to_string() };
//! let report = Tester::new(EchoProtocol, InProcess::new("echo", move |_| Box::new(Lines::new(buggy))))
//!     .configure(|c| c.seed = Some(1))
//!     .run();
//! assert!(!report.passed());
//! ```
#![warn(missing_docs)]

pub mod brute;
pub mod dual;
pub mod exec;
pub mod harness;
pub mod lines;
pub mod model;
pub mod network;
pub mod protocol;
pub mod rule;
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
pub use rule::{Broken, Check, Level, Rule};
pub use sym::{Expr, Sort, SymJson, Value, Var};
pub use tester::{DualReport, Tester};
