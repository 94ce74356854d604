//! The thesis's integer machines (§2.2.1, §3.1.2).
//!
//! The server stores a number `n`, initially 0; each request is a number
//! `q` and each response `0` or `1`.
//!
//! * **CMP-SET**: if `q < n` answer 0; otherwise set `n := q` and answer 1.
//! * **CMP-RST**: if `q <= n` answer 0; otherwise set `n` to *any* number
//!   (an internal choice the tester never sees) and answer 1.
//!
//! On the wire a request is `q\n` and a response `0\n` or `1\n`.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use serde_json::{Value as Json, json};
use speccheck::dual::exec::inproc::{LineServer, Lines, Service};
use speccheck::dual::harness::jexp::{JExp, JFn, JPath};
use speccheck::dual::lines::first_line;
use speccheck::dual::model::{Conn, Cx, Model, Step};
use speccheck::dual::protocol::{Answering, Decoded, Protocol, View, Wire};
use speccheck::dual::rand::rngs::SmallRng;
use speccheck::dual::rand::{Rng, SeedableRng};
use speccheck::dual::sym::{Expr, Value};

/// CMP-SET: deterministic.
#[derive(Clone, Copy, Debug, Default)]
pub struct CmpSet;

impl Model for CmpSet {
    type State = i64;
    type Req = i64;
    type Resp = Expr;

    fn init(&self) -> i64 {
        0
    }

    fn serve(&self, n: &mut i64, cx: &mut Cx<'_, Self>) -> Step {
        let (conn, q) = cx.recv()?;
        if q < *n {
            cx.send(conn, Expr::int(0))
        } else {
            *n = q;
            cx.send(conn, Expr::int(1))
        }
    }
}

/// CMP-RST: resets to an unknown number.
#[derive(Clone, Copy, Debug, Default)]
pub struct CmpRst;

impl Model for CmpRst {
    type State = Expr;
    type Req = i64;
    type Resp = Expr;

    fn init(&self) -> Expr {
        Expr::int(0)
    }

    fn serve(&self, n: &mut Expr, cx: &mut Cx<'_, Self>) -> Step {
        let (conn, q) = cx.recv()?;
        if cx.branch(Expr::int(q).le(n.clone()))? {
            cx.send(conn, Expr::int(0))
        } else {
            *n = cx.fresh_int("n")?;
            cx.send(conn, Expr::int(1))
        }
    }
}

/// The CMP wire protocol over either model.
#[derive(Clone, Debug)]
pub struct Cmp<M> {
    model: Arc<M>,
    name: &'static str,
}

impl Cmp<CmpSet> {
    /// CMP-SET.
    pub fn set() -> Self {
        Cmp { model: Arc::new(CmpSet), name: "CMP-SET" }
    }
}

impl Cmp<CmpRst> {
    /// CMP-RST.
    pub fn rst() -> Self {
        Cmp { model: Arc::new(CmpRst), name: "CMP-RST" }
    }
}

/// What the heuristics can read off a model state: the stored number,
/// when it is known.
pub trait KnownNumber {
    /// The stored number, if the state fixes it.
    fn known(&self) -> Option<i64>;
}
impl KnownNumber for i64 {
    fn known(&self) -> Option<i64> {
        Some(*self)
    }
}
impl KnownNumber for Expr {
    fn known(&self) -> Option<i64> {
        self.as_const().and_then(Value::as_int)
    }
}

const FUNCS: [JFn; 2] = [
    JFn { name: "succ", apply: |v| Some(json!(v.as_i64()?.checked_add(1)?)) },
    JFn { name: "pred", apply: |v| Some(json!(v.as_i64()?.checked_sub(1)?)) },
];

impl<M> Protocol for Cmp<M>
where
    M: Model<Req = i64, Resp = Expr>,
    M::State: KnownNumber,
{
    type Model = M;

    fn name(&self) -> &str {
        self.name
    }

    fn model(&self) -> Arc<M> {
        self.model.clone()
    }

    fn encode_request(&self, q: &i64, _: &Wire) -> Vec<u8> {
        format!("{q}\n").into_bytes()
    }

    fn decode_response(&self, bytes: &[u8], _: &Answering<'_, i64>) -> Decoded<Value> {
        match first_line(bytes) {
            Decoded::Message(l, n) => match l {
                "0" => Decoded::Message(Value::Int(0), n),
                "1" => Decoded::Message(Value::Int(1), n),
                other => Decoded::Malformed(format!("expected `0` or `1`, got {other:?}")),
            },
            Decoded::Incomplete => Decoded::Incomplete,
            Decoded::Malformed(m) => Decoded::Malformed(m),
        }
    }

    fn request_to_ir(&self, q: &i64) -> Json {
        json!({ "q": q })
    }

    fn request_from_ir(&self, ir: &Json) -> Option<i64> {
        ir.get("q")?.as_i64()
    }

    fn response_to_ir(&self, r: &Value) -> Json {
        json!({ "r": r.to_json() })
    }

    fn functions(&self) -> &[JFn] {
        &FUNCS
    }

    fn propose(&self, view: &View<'_, Self>, rng: &mut SmallRng) -> JExp {
        let earlier: Vec<u32> = view.trace.iter().filter(|e| e.sent).map(|e| e.label).collect();
        let random = json!(rng.random_range(-8i64..=8));
        let q = match rng.random_range(0..10) {
            // Trace-based: an earlier request's number, or a neighbour.
            0..=3 if !earlier.is_empty() => JExp::Ref {
                label: earlier[rng.random_range(0..earlier.len())],
                path: JPath::this().field("q"),
                func: rng.random_range(0..=2),
                default: random,
            },
            // State-based: the stored number, or a neighbour, when known.
            4..=6 => match view.states.iter().find_map(|s| s.known()) {
                Some(n) => JExp::lit(n.saturating_add(rng.random_range(-1..=1))),
                None => JExp::Lit(random),
            },
            _ => JExp::Lit(random),
        };
        JExp::object([("q", q)])
    }
}

/// Planted bugs of the CMP servers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpBug {
    /// CMP-SET answers 0 when `q == n` (it should store and answer 1).
    EqualIsSmaller,
    /// CMP-SET keeps one number per connection: only concurrent clients
    /// can tell.
    PerConnection,
    /// CMP-SET answers `+1` instead of `1` when it stores the number it
    /// already had (`q == n`).
    Malformed,
    /// CMP-RST resets when `q == n` (it should answer 0).
    StrictCompare,
    /// CMP-RST also resets its number when it answers 0.
    ForgetsOnZero,
    /// The server drops a request that arrives while an earlier one on the
    /// same connection is still queued (hangs on pipelining).
    HangPipelined,
}

/// A CMP server: CMP-SET or CMP-RST semantics, possibly with a bug.
pub struct CmpServer {
    reset: bool,
    n: i64,
    per_conn: HashMap<Conn, i64>,
    rng: SmallRng,
    bug: Option<CmpBug>,
}

impl CmpServer {
    /// A CMP-SET server.
    pub fn set(bug: Option<CmpBug>) -> Box<dyn Service> {
        Self::service(CmpServer { reset: false, n: 0, per_conn: HashMap::new(), rng: SmallRng::seed_from_u64(0), bug })
    }

    /// A CMP-RST server; it resets to a number in -4..=4 drawn from `seed`.
    pub fn rst(bug: Option<CmpBug>, seed: u64) -> Box<dyn Service> {
        Self::service(CmpServer {
            reset: true,
            n: 0,
            per_conn: HashMap::new(),
            rng: SmallRng::seed_from_u64(seed),
            bug,
        })
    }

    fn service(s: CmpServer) -> Box<dyn Service> {
        if s.bug == Some(CmpBug::HangPipelined) { Box::new(Pipelining::new(s)) } else { Box::new(Lines::new(s)) }
    }

    fn answer(&mut self, conn: Conn, q: i64) -> String {
        let bug = self.bug;
        let n = if bug == Some(CmpBug::PerConnection) { self.per_conn.entry(conn).or_insert(0) } else { &mut self.n };
        if self.reset {
            let zero = if bug == Some(CmpBug::StrictCompare) { q < *n } else { q <= *n };
            if zero {
                if bug == Some(CmpBug::ForgetsOnZero) {
                    *n = self.rng.random_range(-4..=4);
                }
                "0".into()
            } else {
                *n = self.rng.random_range(-4..=4);
                "1".into()
            }
        } else {
            let zero = if bug == Some(CmpBug::EqualIsSmaller) { q <= *n } else { q < *n };
            if zero {
                "0".into()
            } else {
                let same = *n == q;
                *n = q;
                if bug == Some(CmpBug::Malformed) && same { "+1".into() } else { "1".into() }
            }
        }
    }
}

impl LineServer for CmpServer {
    fn line(&mut self, conn: Conn, line: &str, out: &mut Vec<(Conn, String)>) {
        match line.trim().parse::<i64>() {
            Ok(q) => {
                let r = self.answer(conn, q);
                out.push((conn, r));
            }
            Err(_) => out.push((conn, "ERR".into())),
        }
    }
}

/// A server that reads whole lines per connection but, when more than one
/// is queued on a connection at its turn, answers the first and loses the
/// rest (the thesis's verified server that hung on pipelined requests).
struct Pipelining {
    inner: CmpServer,
    bufs: HashMap<Conn, Vec<u8>>,
    queued: HashMap<Conn, VecDeque<String>>,
}

impl Pipelining {
    fn new(inner: CmpServer) -> Self {
        Pipelining { inner, bufs: HashMap::new(), queued: HashMap::new() }
    }
}

impl Service for Pipelining {
    fn receive(&mut self, conn: Conn, bytes: &[u8]) {
        let buf = self.bufs.entry(conn).or_default();
        buf.extend_from_slice(bytes);
        while let Some(end) = buf.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = buf.drain(..=end).collect();
            self.queued.entry(conn).or_default().push_back(String::from_utf8_lossy(&line[..end]).into_owned());
        }
    }

    fn poll(&mut self, out: &mut Vec<(Conn, Vec<u8>)>) {
        let mut conns: Vec<Conn> = self.queued.keys().copied().collect();
        conns.sort_unstable();
        for conn in conns {
            let q = self.queued.get_mut(&conn).expect("a queue");
            let Some(first) = q.pop_front() else { continue };
            q.clear(); // the bug: whatever else was queued is lost
            let mut lines = Vec::new();
            self.inner.line(conn, &first, &mut lines);
            out.extend(lines.into_iter().map(|(c, l)| (c, format!("{l}\n").into_bytes())));
        }
    }
}
