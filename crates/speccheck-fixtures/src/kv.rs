//! A key-value store whose server chooses version tags.
//!
//! Requests: `GET k`, `PUT k v`, and the conditional `PUT k v IF t`, which
//! writes only if the key's current tag is `t` (HTTP's `If-Match`).
//! Responses: `VALUE v t`, `NOTFOUND`, `OK t` (the new tag), `MISMATCH`.
//! Tags are the server's choice — any token — but a tag is never issued
//! twice. The tester cannot know a tag before the server reveals it, so
//! the model names each new tag with a fresh variable and every
//! conditional write branches on a symbolic comparison.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use serde_json::{Value as Json, json};
use speccheck::dual::exec::inproc::{LineServer, Lines, Service};
use speccheck::dual::harness::jexp::{JExp, JFn, JPath};
use speccheck::dual::lines::first_line;
use speccheck::dual::model::{Conn, Cx, Model, Step, Symbolic};
use speccheck::dual::protocol::{Answering, Decoded, Protocol, View, Wire};
use speccheck::dual::rand::rngs::SmallRng;
use speccheck::dual::rand::{Rng, RngCore};
use speccheck::dual::sym::{Expr, Syms};

/// A request.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum KvReq {
    /// Read a key.
    Get(String),
    /// Write a key, if `if_match` (when given) is its current tag.
    Put {
        /// The key.
        key: String,
        /// The new value.
        value: String,
        /// The tag the key must have.
        if_match: Option<String>,
    },
}

/// A response, as observed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum KvResp {
    /// The key's value and tag.
    Value {
        /// The value.
        value: String,
        /// Its tag.
        tag: String,
    },
    /// No such key.
    NotFound,
    /// Written; the new tag.
    Ok {
        /// The new tag.
        tag: String,
    },
    /// The condition failed.
    Mismatch,
}

/// A response as the model sends it: tags may be unknown.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum KvSym {
    /// See [`KvResp::Value`].
    Value {
        /// The value.
        value: String,
        /// Its tag.
        tag: Expr,
    },
    /// See [`KvResp::NotFound`].
    NotFound,
    /// See [`KvResp::Ok`].
    Ok {
        /// The new tag.
        tag: Expr,
    },
    /// See [`KvResp::Mismatch`].
    Mismatch,
}

impl Symbolic for KvSym {
    type Concrete = KvResp;

    fn matches(&self, obs: &KvResp) -> Expr {
        match (self, obs) {
            (KvSym::Value { value, tag }, KvResp::Value { value: v, tag: t }) => {
                Expr::and([Expr::bool(value == v), tag.equals(t.as_str())])
            }
            (KvSym::Ok { tag }, KvResp::Ok { tag: t }) => tag.equals(t.as_str()),
            (KvSym::NotFound, KvResp::NotFound) | (KvSym::Mismatch, KvResp::Mismatch) => Expr::bool(true),
            _ => Expr::bool(false),
        }
    }

    fn concretize(&self) -> Option<KvResp> {
        let tag = |t: &Expr| t.eval_ground()?.as_str().map(str::to_string);
        Some(match self {
            KvSym::Value { value, tag: t } => KvResp::Value { value: value.clone(), tag: tag(t)? },
            KvSym::NotFound => KvResp::NotFound,
            KvSym::Ok { tag: t } => KvResp::Ok { tag: tag(t)? },
            KvSym::Mismatch => KvResp::Mismatch,
        })
    }
}

impl Syms for KvSym {
    fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        match self {
            KvSym::Value { tag, .. } | KvSym::Ok { tag } => f(tag),
            KvSym::NotFound | KvSym::Mismatch => {}
        }
    }
}

/// The model's state: each key's value and tag, and every tag issued.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct KvState {
    /// Key → (value, tag).
    pub data: BTreeMap<String, (String, Expr)>,
    /// Tags issued so far (never issued again).
    pub issued: Vec<Expr>,
}

impl Syms for KvState {
    fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        self.data.visit_exprs(f);
        self.issued.visit_exprs(f);
    }
}

/// The key-value model.
#[derive(Clone, Copy, Debug, Default)]
pub struct KvModel;

impl KvModel {
    /// Writes `value` under `key` with a new tag, which it answers.
    fn write(s: &mut KvState, cx: &mut Cx<'_, Self>, conn: Conn, key: String, value: String) -> Step {
        let tag = cx.fresh_str("tag")?;
        cx.require(Expr::and(s.issued.iter().map(|old| tag.not_equals(old))))?;
        s.issued.push(tag.clone());
        s.data.insert(key, (value, tag.clone()));
        cx.send(conn, KvSym::Ok { tag })
    }
}

impl Model for KvModel {
    type State = KvState;
    type Req = KvReq;
    type Resp = KvSym;

    fn init(&self) -> KvState {
        KvState::default()
    }

    fn serve(&self, s: &mut KvState, cx: &mut Cx<'_, Self>) -> Step {
        let (conn, req) = cx.recv()?;
        match req {
            KvReq::Get(key) => match s.data.get(&key) {
                Some((value, tag)) => cx.send(conn, KvSym::Value { value: value.clone(), tag: tag.clone() }),
                None => cx.send(conn, KvSym::NotFound),
            },
            KvReq::Put { key, value, if_match: None } => Self::write(s, cx, conn, key, value),
            KvReq::Put { key, value, if_match: Some(t) } => {
                let current = s.data.get(&key).map(|(_, tag)| tag.clone());
                match current {
                    Some(cur) if cx.branch(cur.equals(t.as_str()))? => Self::write(s, cx, conn, key, value),
                    _ => cx.send(conn, KvSym::Mismatch),
                }
            }
        }
    }
}

/// The key-value protocol.
#[derive(Clone, Debug, Default)]
pub struct Kv {
    model: Arc<KvModel>,
}

impl Kv {
    /// The protocol.
    pub fn new() -> Self {
        Kv::default()
    }
}

const KEYS: [&str; 3] = ["a", "b", "c"];
const VALUES: [&str; 4] = ["x", "y", "zz", "wwww"];

const FUNCS: [JFn; 1] = [JFn { name: "upper", apply: |v| Some(json!(v.as_str()?.to_uppercase())) }];

fn token(s: &str) -> bool {
    !s.is_empty() && !s.chars().any(char::is_whitespace)
}

impl Protocol for Kv {
    type Model = KvModel;

    fn name(&self) -> &str {
        "key-value"
    }

    fn model(&self) -> Arc<KvModel> {
        self.model.clone()
    }

    fn encode_request(&self, req: &KvReq, _: &Wire) -> Vec<u8> {
        match req {
            KvReq::Get(k) => format!("GET {k}\n"),
            KvReq::Put { key, value, if_match: None } => format!("PUT {key} {value}\n"),
            KvReq::Put { key, value, if_match: Some(t) } => format!("PUT {key} {value} IF {t}\n"),
        }
        .into_bytes()
    }

    fn decode_response(&self, bytes: &[u8], _: &Answering<'_, KvReq>) -> Decoded<KvResp> {
        let (line, n) = match first_line(bytes) {
            Decoded::Message(l, n) => (l, n),
            Decoded::Incomplete => return Decoded::Incomplete,
            Decoded::Malformed(m) => return Decoded::Malformed(m),
        };
        let words: Vec<&str> = line.split(' ').collect();
        let resp = match words.as_slice() {
            ["VALUE", v, t] if token(v) && token(t) => KvResp::Value { value: v.to_string(), tag: t.to_string() },
            ["NOTFOUND"] => KvResp::NotFound,
            ["OK", t] if token(t) => KvResp::Ok { tag: t.to_string() },
            ["MISMATCH"] => KvResp::Mismatch,
            _ => return Decoded::Malformed(format!("not a response: {line:?}")),
        };
        Decoded::Message(resp, n)
    }

    fn request_to_ir(&self, req: &KvReq) -> Json {
        match req {
            KvReq::Get(k) => json!({"op": "get", "key": k}),
            KvReq::Put { key, value, if_match: None } => json!({"op": "put", "key": key, "value": value}),
            KvReq::Put { key, value, if_match: Some(t) } => {
                json!({"op": "put", "key": key, "value": value, "if_match": t})
            }
        }
    }

    fn request_from_ir(&self, ir: &Json) -> Option<KvReq> {
        let key = ir.get("key")?.as_str().filter(|k| token(k))?.to_string();
        match ir.get("op")?.as_str()? {
            "get" => Some(KvReq::Get(key)),
            "put" => {
                let value = ir.get("value")?.as_str().filter(|v| token(v))?.to_string();
                let if_match = match ir.get("if_match") {
                    None => None,
                    Some(t) => Some(t.as_str().filter(|t| token(t))?.to_string()),
                };
                Some(KvReq::Put { key, value, if_match })
            }
            _ => None,
        }
    }

    fn response_to_ir(&self, resp: &KvResp) -> Json {
        match resp {
            KvResp::Value { value, tag } => json!({"status": "value", "value": value, "tag": tag}),
            KvResp::NotFound => json!({"status": "notfound"}),
            KvResp::Ok { tag } => json!({"status": "ok", "tag": tag}),
            KvResp::Mismatch => json!({"status": "mismatch"}),
        }
    }

    fn functions(&self) -> &[JFn] {
        &FUNCS
    }

    fn propose(&self, view: &View<'_, Self>, rng: &mut SmallRng) -> JExp {
        // State-based: mostly keys the model holds (in some branch).
        let existing: Vec<&String> = view.states.iter().flat_map(|s| s.data.keys()).collect();
        let key = if !existing.is_empty() && rng.random_bool(0.8) {
            existing[rng.random_range(0..existing.len())].clone()
        } else {
            KEYS[rng.random_range(0..KEYS.len())].to_string()
        };
        let value = VALUES[rng.random_range(0..VALUES.len())];
        match rng.random_range(0..10) {
            0..=3 => JExp::object([("op", JExp::lit("get")), ("key", JExp::lit(key))]),
            4..=5 => JExp::object([("op", JExp::lit("put")), ("key", JExp::lit(key)), ("value", JExp::lit(value))]),
            _ => {
                // Trace-based: a tag the server revealed, by reference.
                let tagged: Vec<u32> =
                    view.responses().filter(|e| e.ir.get("tag").is_some()).map(|e| e.label).collect();
                let guess = json!(format!("t{}", rng.random_range(0..4)));
                let tag = if !tagged.is_empty() && rng.random_bool(0.85) {
                    let func = if rng.random_bool(0.1) { 1 } else { 0 };
                    JExp::Ref {
                        label: tagged[rng.random_range(0..tagged.len().min(4))],
                        path: JPath::this().field("tag"),
                        func,
                        default: guess,
                    }
                } else {
                    JExp::Lit(guess)
                };
                JExp::object([
                    ("op", JExp::lit("put")),
                    ("key", JExp::lit(key)),
                    ("value", JExp::lit(value)),
                    ("if_match", tag),
                ])
            }
        }
    }
}

/// Planted bugs of the key-value server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KvBug {
    /// Conditional writes ignore their condition.
    IgnoreIfMatch,
    /// Tags are derived from the value, so writing the same value twice
    /// reissues a tag.
    TagFromValue,
    /// A conditional write does not update what `GET` reads.
    StaleAfterConditional,
    /// Tags compare case-insensitively.
    CaseInsensitiveTags,
    /// Each connection reads its own last write back (a cache that other
    /// connections' writes do not invalidate).
    PerConnectionCache,
    /// A value of four letters or more comes back with a broken response.
    BrokenLongValues,
}

/// The key-value server, possibly with a bug. Tags are `t<n>` with `n`
/// counting up from a per-server random start.
pub struct KvServer {
    data: HashMap<String, (String, String)>,
    stale: HashMap<String, (String, String)>,
    cache: HashMap<(Conn, String), (String, String)>,
    next: u64,
    bug: Option<KvBug>,
}

impl KvServer {
    /// A server; `seed` picks where its tag counter starts.
    pub fn service(bug: Option<KvBug>, seed: u64) -> Box<dyn Service> {
        let mut rng = <SmallRng as speccheck::dual::rand::SeedableRng>::seed_from_u64(seed);
        Box::new(Lines::new(KvServer {
            data: HashMap::new(),
            stale: HashMap::new(),
            cache: HashMap::new(),
            next: rng.next_u64() % 1000,
            bug,
        }))
    }

    fn new_tag(&mut self, value: &str) -> String {
        if self.bug == Some(KvBug::TagFromValue) {
            return format!("v-{value}");
        }
        self.next += 1;
        format!("t{}", self.next)
    }

    fn handle(&mut self, conn: Conn, line: &str) -> String {
        let words: Vec<&str> = line.split(' ').collect();
        let bug = self.bug;
        match words.as_slice() {
            ["GET", k] => {
                let k = k.to_string();
                let found = if bug == Some(KvBug::PerConnectionCache) {
                    self.cache.get(&(conn, k.clone())).or(self.data.get(&k)).cloned()
                } else if bug == Some(KvBug::StaleAfterConditional) {
                    self.stale.get(&k).cloned()
                } else {
                    self.data.get(&k).cloned()
                };
                match found {
                    Some((v, _)) if bug == Some(KvBug::BrokenLongValues) && v.len() >= 4 => format!("VALUE {v}"),
                    Some((v, t)) => format!("VALUE {v} {t}"),
                    None => "NOTFOUND".into(),
                }
            }
            ["PUT", k, v] | ["PUT", k, v, "IF", _] => {
                let cond = if words.len() == 5 { Some(words[4]) } else { None };
                let (k, v) = (k.to_string(), v.to_string());
                let allowed = match (cond, self.data.get(&k)) {
                    (None, _) => true,
                    (Some(_), _) if bug == Some(KvBug::IgnoreIfMatch) => true,
                    (Some(_), None) => false,
                    (Some(t), Some((_, cur))) if bug == Some(KvBug::CaseInsensitiveTags) => cur.eq_ignore_ascii_case(t),
                    (Some(t), Some((_, cur))) => cur == t,
                };
                if !allowed {
                    return "MISMATCH".into();
                }
                let tag = self.new_tag(&v);
                self.data.insert(k.clone(), (v.clone(), tag.clone()));
                if cond.is_none() || bug != Some(KvBug::StaleAfterConditional) {
                    self.stale.insert(k.clone(), (v.clone(), tag.clone()));
                }
                self.cache.insert((conn, k), (v, tag.clone()));
                format!("OK {tag}")
            }
            _ => "ERROR".into(),
        }
    }
}

impl LineServer for KvServer {
    fn line(&mut self, conn: Conn, line: &str, out: &mut Vec<(Conn, String)>) {
        let r = self.handle(conn, line);
        out.push((conn, r));
    }
}
