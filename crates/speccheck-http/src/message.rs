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
    /// `OPTIONS`.
    Options,
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
            Method::Options => "OPTIONS",
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
            "OPTIONS" => Method::Options,
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
    /// `If-Modified-Since` (an HTTP-date, as sent).
    pub if_modified_since: Option<String>,
    /// `If-Unmodified-Since` (an HTTP-date, as sent).
    pub if_unmodified_since: Option<String>,
    /// `Range` (one byte range).
    pub range: Option<ByteRange>,
    /// `If-Range` (an entity tag or an HTTP-date, as sent).
    pub if_range: Option<String>,
}

impl HttpReq {
    /// A request with no header fields beyond the method's.
    pub fn new(method: Method, path: impl Into<String>, body: impl Into<String>) -> HttpReq {
        HttpReq {
            method,
            path: path.into(),
            body: body.into(),
            if_match: None,
            if_none_match: None,
            if_modified_since: None,
            if_unmodified_since: None,
            range: None,
            if_range: None,
        }
    }

    /// Whether any precondition header field is present.
    pub fn is_conditional(&self) -> bool {
        self.if_match.is_some()
            || self.if_none_match.is_some()
            || self.if_modified_since.is_some()
            || self.if_unmodified_since.is_some()
    }
}

/// One byte range of a `Range` header (RFC 9110 §14.1.2): `first-last`,
/// `first-`, or the last `n` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ByteRange {
    /// From `first`, to `last` (inclusive) when given, else to the end.
    From(u64, Option<u64>),
    /// The last `n` bytes.
    Suffix(u64),
}

impl ByteRange {
    /// The header value (`bytes=2-5`).
    pub fn header_value(&self) -> String {
        match self {
            ByteRange::From(a, Some(b)) => format!("bytes={a}-{b}"),
            ByteRange::From(a, None) => format!("bytes={a}-"),
            ByteRange::Suffix(n) => format!("bytes=-{n}"),
        }
    }

    /// A range from its header value (`None` unless one valid byte range).
    pub fn parse(s: &str) -> Option<ByteRange> {
        let spec = s.trim().strip_prefix("bytes=")?;
        let (a, b) = spec.split_once('-')?;
        let num = |t: &str| {
            (!t.is_empty() && t.len() <= 9 && t.bytes().all(|c| c.is_ascii_digit())).then(|| t.parse().ok()).flatten()
        };
        match (a, b) {
            ("", n) => num(n).map(ByteRange::Suffix),
            (a, "") => num(a).map(|a| ByteRange::From(a, None)),
            (a, b) => {
                let (a, b) = (num(a)?, num(b)?);
                (a <= b).then_some(ByteRange::From(a, Some(b)))
            }
        }
    }

    /// The bytes `first..=last` it selects of a representation of `len`
    /// bytes, or `None` when it is unsatisfiable (RFC 9110 §14.1.1).
    pub fn select(&self, len: u64) -> Option<(u64, u64)> {
        match *self {
            ByteRange::From(a, _) if a >= len => None,
            ByteRange::From(a, b) => Some((a, b.map_or(len - 1, |b| b.min(len - 1)))),
            ByteRange::Suffix(0) => None,
            ByteRange::Suffix(_) if len == 0 => None,
            ByteRange::Suffix(n) => Some((len.saturating_sub(n), len - 1)),
        }
    }
}

/// An HTTP-date (RFC 9110 §5.6.7) as seconds since the Unix epoch; `None`
/// when it is not one.
pub fn parse_date(s: &str) -> Option<i64> {
    let t = httpdate::parse_http_date(s.trim()).ok()?;
    let secs = t.duration_since(std::time::UNIX_EPOCH).ok()?.as_secs();
    i64::try_from(secs).ok()
}

/// Seconds since the Unix epoch as an HTTP-date (`None` before 1970).
pub fn format_date(secs: i64) -> Option<String> {
    let secs = u64::try_from(secs).ok()?;
    Some(httpdate::fmt_http_date(std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs)))
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
        for (key, v) in [
            ("if_modified_since", &self.if_modified_since),
            ("if_unmodified_since", &self.if_unmodified_since),
            ("if_range", &self.if_range),
        ] {
            if let Some(v) = v {
                m.insert(key.into(), json!(v));
            }
        }
        if let Some(r) = &self.range {
            m.insert("range".into(), json!(r.header_value()));
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
        // A date header carries a date, and If-Range a date or a tag: other
        // text would be a test of a malformed header, which is another test.
        let date = |k: &str| match ir.get(k) {
            None => Some(None),
            Some(d) => d.as_str().filter(|d| parse_date(d).is_some()).map(|d| Some(d.to_string())),
        };
        let if_range = match ir.get("if_range") {
            None => None,
            Some(v) => Some(v.as_str().filter(|v| parse_date(v).is_some() || list_element(v))?.to_string()),
        };
        let range = match ir.get("range") {
            None => None,
            Some(r) => Some(ByteRange::parse(r.as_str()?)?),
        };
        Some(HttpReq {
            method,
            path,
            body,
            if_match: cond("if_match")?,
            if_none_match: cond("if_none_match")?,
            if_modified_since: date("if_modified_since")?,
            if_unmodified_since: date("if_unmodified_since")?,
            range,
            if_range,
        })
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
    /// The first header field named `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The response in the intermediate representation.
    pub fn to_ir(&self) -> Json {
        let mut m = Map::new();
        m.insert("status".into(), json!(self.status));
        if let Some(t) = &self.etag {
            m.insert("etag".into(), json!(t));
        }
        if let Some(d) = self.header("last-modified") {
            m.insert("last_modified".into(), json!(d));
        }
        m.insert("reason".into(), json!(self.reason));
        let head: Vec<String> = self.headers.iter().take(32).map(|(n, v)| format!("{n}: {v}")).collect();
        m.insert("headers".into(), json!(head));
        let body = String::from_utf8_lossy(&self.body[..self.body.len().min(SHOWN_BODY)]).into_owned();
        m.insert("body".into(), json!(if self.body.len() > SHOWN_BODY { format!("{body}...") } else { body }));
        Json::Object(m)
    }
}
