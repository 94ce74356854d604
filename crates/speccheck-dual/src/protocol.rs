//! What a protocol provides to be tested (thesis §5.3.1, Figure 5.5):
//! the model, the translations between bytes, the intermediate
//! representation (JSON) and the application's messages, and the
//! generation heuristics. Everything else — validation, the network
//! model, execution, traces, J-expressions, shrinking — is this crate's.

use std::sync::Arc;

use rand::rngs::SmallRng;
use serde_json::Value;

use crate::harness::jexp::{JExp, JFn};
use crate::model::{Conn, Model, Symbolic};

/// A request of protocol `P`.
pub type Req<P> = <<P as Protocol>::Model as Model>::Req;
/// A concrete response of protocol `P`.
pub type Resp<P> = <<<P as Protocol>::Model as Model>::Resp as Symbolic>::Concrete;
/// The model state of protocol `P`.
pub type State<P> = <<P as Protocol>::Model as Model>::State;

/// The result of decoding bytes received from the system under test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decoded<T> {
    /// A message, and how many bytes it took.
    Message(T, usize),
    /// More bytes are needed.
    Incomplete,
    /// The bytes are not a message of the protocol.
    Malformed(String),
}

/// Where a request goes: what encoding it may depend on besides the
/// request itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wire {
    /// A number unique to the execution (fresh at every execution, replays
    /// included). A protocol whose server keeps state across executions
    /// (a real server the tester cannot reset) uses it to isolate them,
    /// e.g. as a prefix of every resource name.
    pub execution: u64,
    /// The connection (the model's number).
    pub conn: Conn,
}

/// What the decoder of a response knows besides the bytes: the framing of
/// a response may depend on the request it answers (an HTTP response to
/// `HEAD` has no body whatever its `Content-Length` says) and on the
/// connection (a body delimited by the end of the connection).
#[derive(Clone, Copy, Debug)]
pub struct Answering<'a, Q> {
    /// Where the request went.
    pub wire: Wire,
    /// The oldest request on the connection still waiting for its response
    /// (`None`: the response is unsolicited).
    pub request: Option<&'a Q>,
    /// The server closed the connection: no more bytes will come, so a
    /// message delimited by the end of the stream is complete.
    pub closed: bool,
}

/// Who sends which message where: one entry of the trace the heuristics see.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceEntry {
    /// Label: requests carry their step's label, a response the label of
    /// the request it answers plus one.
    pub label: u32,
    /// Connection.
    pub conn: Conn,
    /// True for messages the tester sent.
    pub sent: bool,
    /// True for the server closing the connection (`ir` is `null`).
    pub closed: bool,
    /// The message in the intermediate representation.
    pub ir: Value,
}

/// What the generation heuristics see when proposing the next request.
#[derive(Debug)]
pub struct View<'a, P: Protocol + ?Sized> {
    /// The model's state in each live branch of the validator (without
    /// duplicates), for state-based heuristics (thesis §5.2.1).
    pub states: Vec<&'a State<P>>,
    /// The requests in flight in the first live branch (sent but not yet
    /// processed by the model), oldest first per connection.
    pub in_flight: Vec<(Conn, &'a Req<P>)>,
    /// Everything sent and received so far, for trace-based heuristics
    /// (thesis §5.2.2).
    pub trace: &'a [TraceEntry],
    /// The label the proposed request will carry.
    pub label: u32,
    /// The connection it will be sent on.
    pub conn: Conn,
    /// Number of connections.
    pub conns: usize,
}

impl<P: Protocol + ?Sized> View<'_, P> {
    /// Received messages, newest first, with their labels.
    pub fn responses(&self) -> impl Iterator<Item = &TraceEntry> {
        self.trace.iter().rev().filter(|e| !e.sent && !e.closed)
    }
}

/// A protocol the tester can speak (see the [module docs](self)).
pub trait Protocol: Send + Sync + 'static {
    /// The reference model.
    type Model: Model;

    /// The protocol's name, for reports.
    fn name(&self) -> &str;

    /// The model (shared by every execution).
    fn model(&self) -> Arc<Self::Model>;

    /// A request as bytes on the wire.
    fn encode_request(&self, req: &Req<Self>, wire: &Wire) -> Vec<u8>;

    /// The first response in `bytes`, answering what `answering` says.
    fn decode_response(&self, bytes: &[u8], answering: &Answering<'_, Req<Self>>) -> Decoded<Resp<Self>>;

    /// A request in the intermediate representation.
    fn request_to_ir(&self, req: &Req<Self>) -> Value;

    /// The request an IR value stands for (`None`: it stands for none, and
    /// the step is skipped — shrinking may produce such values).
    fn request_from_ir(&self, ir: &Value) -> Option<Req<Self>>;

    /// A response in the intermediate representation.
    fn response_to_ir(&self, resp: &Resp<Self>) -> Value;

    /// Proposes the next request as a J-expression, looking at the model's
    /// state and the trace (the heuristics).
    fn propose(&self, view: &View<'_, Self>, rng: &mut SmallRng) -> JExp;

    /// Functions J-expressions may apply to referenced values.
    fn functions(&self) -> &[JFn] {
        &[]
    }

    /// Whether the server answers `req` with exactly one response (used to
    /// pair responses with requests and for the liveness check).
    fn expects_response(&self, req: &Req<Self>) -> bool {
        let _ = req;
        true
    }
}

/// Shows bytes for a report: printable ASCII as is, the rest escaped.
pub fn show_bytes(bytes: &[u8]) -> String {
    let mut s = String::from("b\"");
    for &b in bytes.iter().take(512) {
        s.extend(std::ascii::escape_default(b).map(char::from));
    }
    if bytes.len() > 512 {
        s.push_str("...");
    }
    s.push('"');
    s
}
