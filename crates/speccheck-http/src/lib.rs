//! # speccheck-http
//!
//! HTTP/1.1 for testing by dualization (Yishuai Li, *Testing by
//! Dualization*, the thesis's case study): a model of an origin server
//! storing documents — GET, HEAD, PUT, DELETE, POST, OPTIONS with the
//! preconditions of RFC 9110 §13 (entity tags and dates), `Range` and
//! `If-Range`, each expectation tagged MUST or SHOULD with its clause
//! ([`rfc`]) — and everything
//! [`speccheck_dual`]'s tester needs to speak it to a real server over TCP.
//! The engine (validator, solver, network model, executor, shrinking) is
//! speccheck-dual's; this crate is one [`Protocol`].
//!
//! | thesis | module |
//! |---|---|
//! | §1.2, §4.1 the HTTP/1.1 specification as an interaction tree | [`model`] |
//! | §4.2.1 entity tags the server chooses, compared strongly or weakly | [`etag`] |
//! | §5.3.1 bytes ↔ IR ↔ messages | [`codec`] (responses framed by the request they answer), [`message`] |
//! | §5.2 generation heuristics (state- and trace-based) | `heuristics.rs` ([`Http`]'s `propose`) |
//! | §6.1 testing Apache and nginx | [`Http`], [`Http::render`] |
//!
//! What the engine leaves to a protocol, HTTP answers here: a server may
//! close a persistent connection at any time (`Model::CLOSES`, RFC 7230
//! §6.3) and GET and HEAD are safe (`Model::is_safe`, RFC 7231 §4.2.1).
//!
//! ```no_run
//! use speccheck_dual::exec::tcp::Tcp;
//! use speccheck_dual::tester::Tester;
//! use speccheck_http::Http;
//!
//! // nginx with WebDAV PUT/DELETE on 127.0.0.1:8080.
//! let target = Tcp::connect("127.0.0.1:8080".parse().unwrap(), None);
//! let report = Tester::new(Http::new(), target).run();
//! println!("{report}");
//! ```
//!
//! A real server keeps its state between executions, and the model
//! assumes a server with no resources: by default each execution uses
//! resource names of its own ([`Isolation::PerExecution`]).
#![warn(missing_docs)]

pub mod codec;
pub mod etag;
mod heuristics;
pub mod message;
pub mod model;
pub mod rfc;

use std::sync::Arc;

use rand::rngs::SmallRng;
use serde_json::Value as Json;
use speccheck_dual::dual::Rejection;
use speccheck_dual::exec::{Execution, Verdict};
use speccheck_dual::harness::jexp::{JExp, JFn};
use speccheck_dual::protocol::{Answering, Decoded, Protocol, View, Wire};

pub use codec::Isolation;
pub use etag::EntityTag;
pub use message::{Condition, HttpReq, HttpResp, Method};
pub use model::{HttpModel, HttpState, HttpSym};

/// What requests are made of: resource names, bodies, and methods the
/// model does not define (answered 405 or 501).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vocabulary {
    /// Resource names (letters, digits, `-`, `_`).
    pub paths: Vec<String>,
    /// Bodies of `PUT` and `POST`.
    pub bodies: Vec<String>,
    /// Other methods (sent when [`methods`](Self::methods) is empty).
    pub other_methods: Vec<String>,
    /// The methods sent (empty: GET, HEAD, PUT, DELETE, POST, OPTIONS and
    /// the other methods), e.g. to leave out the methods a server refuses
    /// in a way already known.
    pub methods: Vec<Method>,
    /// Methods whose requests may carry `If-Match` / `If-None-Match` /
    /// `If-Modified-Since` / `If-Unmodified-Since`.
    pub conditional: Vec<Method>,
    /// Whether GET (and, rarely, HEAD) requests may carry `Range` and
    /// `If-Range`.
    pub ranges: bool,
}

impl Default for Vocabulary {
    fn default() -> Self {
        let strings = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect();
        Vocabulary {
            paths: strings(&["a", "b", "c"]),
            // Empty, short and longer bodies; some of equal length.
            bodies: strings(&["", "x", "y", "hello", "world", "0123456789abcdef"]),
            other_methods: strings(&["PATCH", "BREW"]),
            methods: Vec::new(),
            conditional: vec![Method::Get, Method::Head, Method::Put, Method::Delete],
            ranges: true,
        }
    }
}

impl Vocabulary {
    /// The methods the tester sends.
    pub fn methods(&self) -> Vec<Method> {
        if !self.methods.is_empty() {
            return self.methods.clone();
        }
        let standard = [Method::Get, Method::Head, Method::Put, Method::Delete, Method::Post, Method::Options];
        standard.into_iter().chain(self.other_methods.iter().map(|m| Method::Other(m.clone()))).collect()
    }
}

/// The HTTP/1.1 protocol (see the [module docs](self)).
#[derive(Clone, Debug)]
pub struct Http {
    model: Arc<HttpModel>,
    vocabulary: Vocabulary,
    isolation: Isolation,
    base: String,
    host: String,
}

impl Default for Http {
    fn default() -> Self {
        Http::new()
    }
}

impl Http {
    /// The protocol with the default vocabulary, isolating executions.
    pub fn new() -> Self {
        Http {
            model: Arc::new(HttpModel),
            vocabulary: Vocabulary::default(),
            isolation: Isolation::PerExecution,
            base: String::new(),
            host: "127.0.0.1".into(),
        }
    }

    /// Replaces the vocabulary (empty lists of names, bodies and other
    /// methods keep the default; an empty `conditional` sends no
    /// conditional requests).
    pub fn vocabulary(mut self, v: Vocabulary) -> Self {
        let d = Vocabulary::default();
        self.vocabulary = Vocabulary {
            paths: if v.paths.is_empty() { d.paths } else { v.paths },
            bodies: if v.bodies.is_empty() { d.bodies } else { v.bodies },
            other_methods: if v.other_methods.is_empty() { d.other_methods } else { v.other_methods },
            methods: v.methods,
            conditional: v.conditional,
            ranges: v.ranges,
        };
        self
    }

    /// How executions are kept apart on the server.
    pub fn isolation(mut self, i: Isolation) -> Self {
        self.isolation = i;
        self
    }

    /// A directory below the document root for every resource (e.g.
    /// `dav/`), with its trailing slash.
    pub fn base(mut self, base: impl Into<String>) -> Self {
        self.base = base.into();
        self
    }

    /// The `Host` header.
    pub fn host(mut self, host: impl Into<String>) -> Self {
        self.host = host.into();
        self
    }

    /// The request target of a resource name in an execution.
    pub fn target(&self, execution: u64, name: &str) -> String {
        codec::target(&self.base, &self.isolation, execution, name)
    }
}

impl Http {
    /// Whether the heuristics could have proposed `q`: a request shrinking
    /// made that they never would (a method token of one letter, a body on
    /// a GET, a name or a body outside the vocabulary) is a different test,
    /// so the step that stands for it is skipped instead.
    pub fn would_propose(&self, q: &HttpReq) -> bool {
        let v = &self.vocabulary;
        let method = v.methods().contains(&q.method);
        let with_body = matches!(q.method, Method::Put | Method::Post);
        let body = if with_body { v.bodies.contains(&q.body) } else { q.body.is_empty() };
        let conditional = !q.is_conditional() || v.conditional.contains(&q.method);
        let ranged = (q.range.is_none() && q.if_range.is_none()) || (v.ranges && q.method.is_read());
        method && body && conditional && ranged && v.paths.contains(&q.path)
    }

    /// An execution's trace as HTTP messages, each tagged with its
    /// connection, the response no branch of the model explains marked
    /// with why. Resource names are shown without the execution's prefix.
    pub fn render(&self, exec: &Execution) -> String {
        match &exec.verdict {
            Verdict::Rejected(r) => render_marked(exec, Some((r, "no behaviour of the model explains this response"))),
            _ => render_marked(exec, None),
        }
    }

    /// The trace of an execution that showed a finding, the response that
    /// breaks a rule not enforced marked with the rule.
    pub fn render_finding(&self, exec: &Execution, finding: &Rejection) -> String {
        render_marked(exec, Some((finding, "this response does not follow a rule the run does not enforce")))
    }
}

/// The trace, with the observation `marked` names marked with its reasons.
fn render_marked(exec: &Execution, marked: Option<(&Rejection, &str)>) -> String {
    let mut out = String::new();
    let mut observation = 0;
    for e in &exec.trace {
        if e.closed {
            out.push_str(&format!("conn {}: closed by the server\n\n", e.conn));
            continue;
        }
        let lines = if e.sent { render_request(&e.ir) } else { render_response(&e.ir) };
        let arrow = if e.sent { "->" } else { "<-" };
        for (i, l) in lines.iter().enumerate() {
            let tag = if i == 0 { format!("conn {} {arrow}", e.conn) } else { String::new() };
            out.push_str(&format!("{tag:<11} {l}\n"));
        }
        if let Some((r, headline)) = marked
            && r.index == observation
        {
            out.push_str(&format!("^^^^^^^^^^^ {headline}:\n"));
            for why in &r.reasons {
                out.push_str(&format!("            - {why}\n"));
            }
            if !r.broken.is_empty() {
                out.push_str(&format!("            breaks: {}\n", r.identity()));
            }
        }
        out.push('\n');
        observation += 1;
    }
    out
}

fn render_request(ir: &Json) -> Vec<String> {
    let s = |k: &str| ir.get(k).and_then(Json::as_str).unwrap_or("");
    let mut lines = vec![format!("{} /{} HTTP/1.1", s("method"), s("path"))];
    for (key, header) in [
        ("if_match", "If-Match"),
        ("if_none_match", "If-None-Match"),
        ("if_modified_since", "If-Modified-Since"),
        ("if_unmodified_since", "If-Unmodified-Since"),
        ("range", "Range"),
        ("if_range", "If-Range"),
    ] {
        match ir.get(key) {
            Some(Json::String(v)) => lines.push(format!("{header}: {v}")),
            Some(Json::Array(vs)) => {
                let vs: Vec<&str> = vs.iter().filter_map(Json::as_str).collect();
                lines.push(format!("{header}: {}", vs.join(", ")));
            }
            _ => {}
        }
    }
    if let Some(b) = ir.get("body").and_then(Json::as_str) {
        lines.push(format!("Content-Length: {}", b.len()));
        lines.push(String::new());
        lines.push(format!("{b:?}"));
    }
    lines
}

fn render_response(ir: &Json) -> Vec<String> {
    let status = ir.get("status").and_then(Json::as_u64).unwrap_or(0);
    let reason = ir.get("reason").and_then(Json::as_str).unwrap_or("");
    let mut lines = vec![format!("HTTP/1.1 {status} {reason}")];
    for h in ir.get("headers").and_then(Json::as_array).into_iter().flatten() {
        lines.push(h.as_str().unwrap_or("").to_string());
    }
    if let Some(b) = ir.get("body").and_then(Json::as_str).filter(|b| !b.is_empty()) {
        lines.push(String::new());
        lines.push(format!("{b:?}"));
    }
    lines
}

impl Protocol for Http {
    type Model = HttpModel;

    fn name(&self) -> &str {
        "http"
    }

    fn model(&self) -> Arc<HttpModel> {
        self.model.clone()
    }

    fn encode_request(&self, req: &HttpReq, wire: &Wire) -> Vec<u8> {
        codec::encode(req, &self.target(wire.execution, &req.path), &self.host)
    }

    fn decode_response(&self, bytes: &[u8], answering: &Answering<'_, HttpReq>) -> Decoded<HttpResp> {
        codec::decode(bytes, answering.request, answering.closed)
    }

    fn request_to_ir(&self, req: &HttpReq) -> Json {
        req.to_ir()
    }

    fn request_from_ir(&self, ir: &Json) -> Option<HttpReq> {
        HttpReq::from_ir(ir).filter(|q| self.would_propose(q))
    }

    fn response_to_ir(&self, resp: &HttpResp) -> Json {
        resp.to_ir()
    }

    fn propose(&self, view: &View<'_, Self>, rng: &mut SmallRng) -> JExp {
        self.propose_request(view, rng)
    }

    fn functions(&self) -> &[JFn] {
        &heuristics::FUNCS
    }
}
