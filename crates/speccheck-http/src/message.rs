//! HTTP/1.1 messages as the tester sees them, and their intermediate
//! representation (JSON) for traces, J-expressions and reports.

use std::fmt;

use serde_json::{Map, Value as Json, json};

use crate::etag::EntityTag;

/// A request method.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Method {
    /// `GET`.
    Get,
    /// `HEAD`.
    Head,
    /// `PUT`.
    Put,
    /// `POST`.
    Post,
    /// `DELETE`.
    Delete,
    /// Any other method token.
    Other(String),
}

impl Method {
    /// The method as written on the wire.
    pub fn as_str(&self) -> &str {
        match self {
            Method::Get => "GET",
            Method::Head => "HEAD",
            Method::Put => "PUT",
            Method::Post => "POST",
            Method::Delete => "DELETE",
            Method::Other(m) => m,
        }
    }

    /// A method from its token (`None` unless it is an HTTP token of at
    /// most 16 upper-case letters).
    pub fn parse(s: &str) -> Option<Method> {
        Some(match s {
            "GET" => Method::Get,
            "HEAD" => Method::Head,
            "PUT" => Method::Put,
            "POST" => Method::Post,
            "DELETE" => Method::Delete,
            other if !other.is_empty() && other.len() <= 16 && other.bytes().all(|b| b.is_ascii_uppercase()) => {
                Method::Other(other.to_string())
            }
            _ => return None,
        })
    }

    /// True for methods whose failed `If-None-Match` is `304 Not Modified`.
    pub fn is_read(&self) -> bool {
        matches!(self, Method::Get | Method::Head)
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The value of an `If-Match` or `If-None-Match` header.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Condition {
    /// `*`: any current representation.
    Any,
    /// A list of entity tags, as written (`"x"`, `W/"x"`).
    Tags(Vec<String>),
}

impl Condition {
    /// The header value.
    pub fn header_value(&self) -> String {
        match self {
            Condition::Any => "*".into(),
            Condition::Tags(ts) => ts.join(", "),
        }
    }

    /// The list's entity tags.
    pub fn tags(&self) -> Vec<EntityTag> {
        match self {
            Condition::Any => Vec::new(),
            Condition::Tags(ts) => ts.iter().filter_map(|t| EntityTag::parse(t)).collect(),
        }
    }

    fn to_ir(&self) -> Json {
        match self {
            Condition::Any => json!("*"),
            Condition::Tags(ts) => json!(ts),
        }
    }

    fn from_ir(ir: &Json) -> Option<Condition> {
        match ir {
            Json::String(s) if s == "*" => Some(Condition::Any),
            Json::Array(xs) if !xs.is_empty() && xs.len() <= 8 => {
                let tags = xs.iter().map(|x| x.as_str().filter(|t| list_element(t)).map(str::to_string));
                Some(Condition::Tags(tags.collect::<Option<_>>()?))
            }
            _ => None,
        }
    }
}

/// Whether `t` can stand in a tag list: an entity tag (so that shrinking
/// keeps requests well formed: a malformed header is a different test)
/// of visible ASCII without commas.
fn list_element(t: &str) -> bool {
    t.len() <= 64 && t.bytes().all(|b| b.is_ascii_graphic() && b != b',') && EntityTag::parse(t).is_some()
}

/// Whether `p` is a resource name the tester uses (the path below the
/// execution's prefix).
fn resource_name(p: &str) -> bool {
    !p.is_empty() && p.len() <= 32 && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A request.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HttpReq {
    /// The method.
    pub method: Method,
    /// The resource's name (the tester adds the execution's prefix).
    pub path: String,
    /// The body (sent with `Content-Length`; empty bodies are sent only
    /// with `PUT` and `POST`).
    pub body: String,
    /// `If-Match`.
    pub if_match: Option<Condition>,
    /// `If-None-Match`.
    pub if_none_match: Option<Condition>,
}

impl HttpReq {
    /// The request in the intermediate representation.
    pub fn to_ir(&self) -> Json {
        let mut m = Map::new();
        m.insert("method".into(), json!(self.method.as_str()));
        m.insert("path".into(), json!(self.path));
        if !self.body.is_empty() || matches!(self.method, Method::Put | Method::Post) {
            m.insert("body".into(), json!(self.body));
        }
        if let Some(c) = &self.if_match {
            m.insert("if_match".into(), c.to_ir());
        }
        if let Some(c) = &self.if_none_match {
            m.insert("if_none_match".into(), c.to_ir());
        }
        Json::Object(m)
    }

    /// The request an IR value stands for, if any.
    pub fn from_ir(ir: &Json) -> Option<HttpReq> {
        let method = Method::parse(ir.get("method")?.as_str()?)?;
        let path = ir.get("path")?.as_str().filter(|p| resource_name(p))?.to_string();
        let body = match ir.get("body") {
            None => String::new(),
            Some(b) => b.as_str().filter(|b| b.len() <= 4096)?.to_string(),
        };
        let cond = |k: &str| match ir.get(k) {
            None => Some(None),
            Some(c) => Condition::from_ir(c).map(Some),
        };
        Some(HttpReq { method, path, body, if_match: cond("if_match")?, if_none_match: cond("if_none_match")? })
    }
}

/// A response, as observed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpResp {
    /// The status code.
    pub status: u16,
    /// The reason phrase.
    pub reason: String,
    /// The `ETag` header, if any.
    pub etag: Option<String>,
    /// The header fields as received (for reports).
    pub headers: Vec<(String, String)>,
    /// The body (empty for responses that have none: to `HEAD`, 204, 304).
    pub body: Vec<u8>,
}

/// Longest body shown in a trace.
const SHOWN_BODY: usize = 256;

impl HttpResp {
    /// The response in the intermediate representation.
    pub fn to_ir(&self) -> Json {
        let mut m = Map::new();
        m.insert("status".into(), json!(self.status));
        if let Some(t) = &self.etag {
            m.insert("etag".into(), json!(t));
        }
        m.insert("reason".into(), json!(self.reason));
        let head: Vec<String> = self.headers.iter().take(32).map(|(n, v)| format!("{n}: {v}")).collect();
        m.insert("headers".into(), json!(head));
        let body = String::from_utf8_lossy(&self.body[..self.body.len().min(SHOWN_BODY)]).into_owned();
        m.insert("body".into(), json!(if self.body.len() > SHOWN_BODY { format!("{body}...") } else { body }));
        Json::Object(m)
    }
}
