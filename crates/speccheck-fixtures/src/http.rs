//! A small HTTP/1.1 server with planted bugs: the reference system an HTTP
//! tester is evaluated on.
//!
//! The server keeps an in-memory map from request target (compared
//! exactly, as sent) to a resource — body bytes and a strong entity tag —
//! and implements this subset of RFC 7230–7232:
//!
//! - message framing (RFC 7230 §3): requests parsed with `httparse`,
//!   bodies delimited by `Content-Length` (none: empty; at most 1 MiB);
//!   `Transfer-Encoding` is answered `501`. Connections are persistent and
//!   pipelined: each connection's requests are answered in order, requests
//!   of different connections in the order they arrived whole. A request
//!   that does not parse, or a connection buffering more than 2 MiB, is
//!   answered `400` and the connection is read no further;
//! - methods (RFC 9110 §9.3): `GET`, `HEAD`, `PUT` (`201 Created` for a new
//!   resource, `204 No Content` for an overwrite, both with the new `ETag`
//!   and `Last-Modified`), `DELETE` (`204`), `OPTIONS` (`200` with `Allow`);
//!   `POST` is `405` with `Allow`, any other method `501`;
//! - conditional requests (RFC 9110 §13): `If-Match` (`*` or a list, strong
//!   comparison), `If-Unmodified-Since`, `If-None-Match` (`*` or a list,
//!   weak comparison), `If-Modified-Since` (`GET`/`HEAD`), in the order of
//!   §13.2.2, evaluated only when the response would otherwise be 2xx; a
//!   failure is `304` (with the current `ETag` and `Last-Modified`) for
//!   `GET`/`HEAD`, `412` otherwise;
//! - ranges (RFC 9110 §14): one byte range on `GET` (`206` with
//!   `Content-Range`, `416` beyond the end), under `If-Range` (an entity
//!   tag, strong comparison, or the exact `Last-Modified` date).
//!
//! Entity tags are `"<n>"` with `n` counting up from a start drawn from the
//! server's seed: a tester cannot predict them, and no tag is issued twice.
//! Modification dates come from a clock of its own that starts at a date
//! drawn from the seed and moves one second per write.
//!
//! This is a test fixture — speccheck's bundled system under test for the
//! dual HTTP tester — not a production server: everything is in memory, no
//! timeouts, no `Date` header (it has no real clock). [`HttpServer::new`] with no bug is the
//! reference; each [`HttpBug`] is one mutant, after the Apache mutants of
//! Li's *Testing by Dualization*, each a plausible slip in one handler.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt;
use std::str::FromStr;

use speccheck::dual::exec::inproc::Service;
use speccheck::dual::model::Conn;

/// Most header lines a request may have.
const MAX_HEADERS: usize = 32;
/// Largest request body the server reads.
const MAX_BODY: usize = 1 << 20;
/// Most bytes buffered for one connection.
const MAX_BUFFER: usize = 2 << 20;
/// Entity tags start below this.
const TAG_START_RANGE: u64 = 1_000_000_000;
/// The server's clock starts this many seconds after the epoch (2023), plus
/// up to [`CLOCK_START_RANGE`].
const CLOCK_START: i64 = 1_700_000_000;
const CLOCK_START_RANGE: u64 = 10_000_000;
/// The methods a resource allows (sent with `405`).
const ALLOW: &str = "GET, HEAD, PUT, DELETE, OPTIONS";

/// Declares [`HttpBug`] from one table: each variant's doc line is its
/// description, and its name the string after `=>`.
macro_rules! http_bugs {
    ($($(#[doc = $doc:literal])+ $bug:ident => $name:literal,)+) => {
        /// A planted bug of [`HttpServer`]: each is one mutant.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum HttpBug {
            $($(#[doc = $doc])+ $bug,)+
        }

        impl HttpBug {
            /// Every mutant, in a fixed order.
            pub const ALL: [HttpBug; [$($name),+].len()] = [$(HttpBug::$bug),+];

            /// The mutant's stable kebab-case name (a command-line value).
            pub fn name(self) -> &'static str {
                match self {
                    $(HttpBug::$bug => $name,)+
                }
            }

            /// What is wrong with the mutant, in one sentence.
            pub fn describe(self) -> &'static str {
                match self {
                    $(HttpBug::$bug => concat!($($doc),+).trim_start(),)+
                }
            }
        }
    };
}

http_bugs! {
    /// `DELETE` is dispatched to the `GET` handler: it answers like `GET` and removes nothing.
    DeleteAsGet => "delete-as-get",
    /// `HEAD` responses carry the body as well.
    HeadSendsBody => "head-sends-body",
    /// `PUT` to an existing resource returns `204` with the old tag before writing anything.
    PutUpdateEarlyReturn => "put-update-early-return",
    /// `PUT` answers with a new tag but never stores the body.
    PutSkipsWrite => "put-skips-write",
    /// A failed `If-Match` on `GET`/`HEAD` answers `200` with the body instead of `412`.
    GetIfMatchFailure200 => "get-if-match-failure-200",
    /// A `GET`/`HEAD` whose `If-Match` holds (and every precondition passes) answers `412`.
    GetIfMatchSuccess412 => "get-if-match-success-412",
    /// A failed `If-None-Match` on `GET`/`HEAD` answers `200` with the body instead of `304`.
    GetIfNoneMatchFailure200 => "get-if-none-match-failure-200",
    /// `GET`/`HEAD` of an existing resource declares and sends an empty body.
    GetEmptyBody => "get-empty-body",
    /// `GET`/`HEAD` of a missing path answers `200` with an empty body instead of `404`.
    GetMissing200 => "get-missing-200",
    /// `PUT` ignores `If-Match`.
    PutIgnoresIfMatch => "put-ignores-if-match",
    /// `If-Match` uses the weak comparison, so `W/"n"` matches the current tag `"n"`.
    WeakIfMatch => "weak-if-match",
    /// `If-None-Match` uses the strong comparison, so `W/"n"` never matches.
    StrongIfNoneMatch => "strong-if-none-match",
    /// The result of evaluating `If-None-Match` is inverted.
    IfNoneMatchInverted => "if-none-match-inverted",
    /// `If-Match: *` holds even when the resource does not exist.
    IfMatchStarMissing => "if-match-star-missing",
    /// `PUT` ignores `If-None-Match: *`, overwriting an existing resource.
    PutIgnoresIfNoneMatchStar => "put-ignores-if-none-match-star",
    /// Only the first entity tag of an `If-Match`/`If-None-Match` list is compared.
    TagListFirstOnly => "tag-list-first-only",
    /// A `\n` is appended to every body stored.
    StoreExtraNewline => "store-extra-newline",
    /// The last byte of every non-empty body stored is dropped.
    StoreDropsLastByte => "store-drops-last-byte",
    /// `PUT` stores under the target of the previous request on its connection (its own on the first).
    PutPreviousPath => "put-previous-path",
    /// `DELETE` answers `204` but the resource stays.
    DeleteKeepsResource => "delete-keeps-resource",
    /// `DELETE` of a missing path answers `204` instead of `404`.
    DeleteMissing204 => "delete-missing-204",
    /// `200` responses to `GET`/`HEAD` carry no `ETag` (`PUT` responses still do).
    GetNoEtag => "get-no-etag",
    /// `200` responses to `GET`/`HEAD` declare a `Content-Length` one more than the body.
    ContentLengthOffByOne => "content-length-off-by-one",
    /// When a poll finds several requests queued on one connection, it answers the first and hangs that connection.
    PipelineHang => "pipeline-hang",
    /// Overwriting an existing resource keeps its old tag.
    EtagKeptOnOverwrite => "etag-kept-on-overwrite",
    /// Each connection reads its own last write of a path back, ignoring other connections' writes since.
    PerConnectionCache => "per-connection-cache",
    /// A `PUT` that creates a resource answers `200` instead of `201`.
    Create200 => "create-200",
    /// `PUT` ignores `If-Unmodified-Since`.
    PutIgnoresIfUnmodifiedSince => "put-ignores-if-unmodified-since",
    /// `If-Modified-Since` is compared the wrong way round: `304` when the resource changed since.
    IfModifiedSinceInverted => "if-modified-since-inverted",
    /// A `206` carries one byte more than the range asked for.
    RangeOneByteMore => "range-one-byte-more",
    /// `Range` is applied even when `If-Range` does not match.
    IfRangeIgnored => "if-range-ignored",
    /// `405` responses carry no `Allow`.
    NoAllowOn405 => "no-allow-on-405",
    /// Every read reports a new `Last-Modified`, as if the resource had just changed.
    LastModifiedOnRead => "last-modified-on-read",
}

impl HttpBug {
    /// Whether the mutant breaks only a SHOULD of RFC 9110 (an `ETag` per
    /// response, §8.8.3; 404 for a DELETE of nothing, §15.5.5): a default
    /// run reports it as a finding, a strict run rejects it.
    pub fn breaks_only_a_should(self) -> bool {
        matches!(self, HttpBug::GetNoEtag | HttpBug::DeleteMissing204)
    }
}

impl fmt::Display for HttpBug {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for HttpBug {
    type Err = UnknownBug;

    fn from_str(s: &str) -> Result<Self, UnknownBug> {
        HttpBug::ALL.into_iter().find(|bug| bug.name() == s).ok_or_else(|| UnknownBug(s.to_string()))
    }
}

/// A name that is no [`HttpBug`]'s; its message lists the valid names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownBug(String);

impl fmt::Display for UnknownBug {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = HttpBug::ALL.iter().map(|bug| bug.name()).collect();
        write!(f, "unknown HTTP mutant {:?}; valid names: {}", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownBug {}

/// An entity tag (RFC 7232 §2.3).
#[derive(Clone, Debug, PartialEq, Eq)]
struct EntityTag {
    weak: bool,
    /// The tag without `W/` and quotes.
    opaque: String,
}

impl EntityTag {
    fn strong(opaque: String) -> Self {
        EntityTag { weak: false, opaque }
    }

    /// Strong comparison (RFC 7232 §2.3.2): neither is weak, and they are identical.
    fn strong_eq(&self, other: &EntityTag) -> bool {
        !self.weak && !other.weak && self.opaque == other.opaque
    }

    /// Weak comparison (RFC 7232 §2.3.2): the opaque parts are identical.
    fn weak_eq(&self, other: &EntityTag) -> bool {
        self.opaque == other.opaque
    }

    /// Reads an entity tag at the start of `text`; returns it and the rest.
    fn parse_prefix(text: &str) -> Option<(Self, &str)> {
        let (weak, text) = text.strip_prefix("W/").map_or((false, text), |rest| (true, rest));
        let quoted = text.strip_prefix('"')?;
        let end = quoted.find('"')?;
        let opaque = &quoted[..end];
        if !opaque.bytes().all(is_etagc) {
            return None;
        }
        Some((EntityTag { weak, opaque: opaque.to_string() }, &quoted[end + 1..]))
    }
}

/// Optional whitespace (RFC 7230 §3.2.3).
fn is_ows(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// `etagc` (RFC 7232 §2.3): a byte allowed inside an entity tag's quotes.
fn is_etagc(b: u8) -> bool {
    b == 0x21 || (0x23..=0x7e).contains(&b) || b >= 0x80
}

impl fmt::Display for EntityTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.weak {
            f.write_str("W/")?;
        }
        write!(f, "\"{}\"", self.opaque)
    }
}

/// The value of `If-Match` or `If-None-Match`.
#[derive(Clone, Debug, PartialEq, Eq)]
enum TagList {
    /// `*`.
    Any,
    /// One or more entity tags.
    Tags(Vec<EntityTag>),
}

/// A tag list that does not parse.
#[derive(Debug)]
struct MalformedTags;

impl TagList {
    /// Parses `"*" / 1#entity-tag` (RFC 7232 §3.1), allowing empty list
    /// elements and whitespace around commas (RFC 7230 §7).
    fn parse(value: &[u8]) -> Result<Self, MalformedTags> {
        let text = std::str::from_utf8(value).map_err(|_| MalformedTags)?.trim_matches(is_ows);
        if text == "*" {
            return Ok(TagList::Any);
        }
        let mut tags = Vec::new();
        let mut rest = text;
        loop {
            rest = rest.trim_start_matches(|c: char| c == ',' || is_ows(c));
            if rest.is_empty() {
                break;
            }
            let (tag, after) = EntityTag::parse_prefix(rest).ok_or(MalformedTags)?;
            tags.push(tag);
            rest = after.trim_start_matches(is_ows);
            if !rest.is_empty() && !rest.starts_with(',') {
                return Err(MalformedTags);
            }
        }
        if tags.is_empty() { Err(MalformedTags) } else { Ok(TagList::Tags(tags)) }
    }
}

/// A request's preconditions.
#[derive(Debug)]
struct Conditions {
    if_match: Option<TagList>,
    if_none_match: Option<TagList>,
    /// Dates that parse (one that does not is ignored, RFC 9110 §13.1.3–4).
    if_modified_since: Option<i64>,
    if_unmodified_since: Option<i64>,
}

impl Conditions {
    fn parse(request: &Request) -> Result<Self, MalformedTags> {
        let field = |name: &str| request.list_header(name).map(|value| TagList::parse(&value)).transpose();
        let date = |name: &str| request.text_header(name).and_then(|v| parse_date(&v));
        Ok(Conditions {
            if_match: field("if-match")?,
            if_none_match: field("if-none-match")?,
            if_modified_since: date("if-modified-since"),
            if_unmodified_since: date("if-unmodified-since"),
        })
    }
}

/// An HTTP-date as seconds since the epoch.
fn parse_date(s: &str) -> Option<i64> {
    let t = httpdate::parse_http_date(s.trim()).ok()?;
    i64::try_from(t.duration_since(std::time::UNIX_EPOCH).ok()?.as_secs()).ok()
}

/// Seconds since the epoch as an HTTP-date.
fn format_date(secs: i64) -> String {
    httpdate::fmt_http_date(std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs.max(0) as u64))
}

/// The outcome of evaluating preconditions (RFC 7232 §6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Precondition {
    /// Every precondition holds.
    Pass,
    /// `If-Match` is false.
    IfMatchFailed,
    /// `If-Unmodified-Since` is false.
    IfUnmodifiedSinceFailed,
    /// `If-None-Match` is false.
    IfNoneMatchFailed,
    /// `If-Modified-Since` is false.
    IfModifiedSinceFailed,
}

/// A request method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    Get,
    Head,
    Put,
    Delete,
    Post,
    Options,
    Other,
}

impl Method {
    /// Methods are case-sensitive (RFC 9110 §9.1).
    fn of(name: &str) -> Self {
        match name {
            "GET" => Method::Get,
            "HEAD" => Method::Head,
            "PUT" => Method::Put,
            "DELETE" => Method::Delete,
            "POST" => Method::Post,
            "OPTIONS" => Method::Options,
            _ => Method::Other,
        }
    }
}

/// A request, as read off a connection.
#[derive(Debug)]
struct Request {
    method: String,
    target: String,
    /// Header lines in order, names in lower case.
    headers: Vec<(String, Vec<u8>)>,
    body: Vec<u8>,
}

impl Request {
    /// The value of the first `name` line, as text.
    fn text_header(&self, name: &str) -> Option<String> {
        let value = self.headers.iter().find(|(n, _)| n.as_str() == name)?;
        Some(String::from_utf8_lossy(&value.1).trim().to_string())
    }

    /// The values of every `name` line joined into one comma-separated list
    /// (RFC 7230 §3.2.2); `None` without such a line.
    fn list_header(&self, name: &str) -> Option<Vec<u8>> {
        let mut lines = self.headers.iter().filter(|(n, _)| n.as_str() == name).map(|(_, value)| value.as_slice());
        let mut joined = lines.next()?.to_vec();
        for line in lines {
            joined.extend_from_slice(b", ");
            joined.extend_from_slice(line);
        }
        Some(joined)
    }
}

/// What the front of a connection's buffer holds.
enum Parsed {
    /// Not a whole request yet.
    Incomplete,
    /// A whole request, and how many bytes it took.
    Request(Request, usize),
    /// A request the server will not read (nor anything after it).
    Refused(Status),
}

/// Reads the request at the start of `buf` (RFC 7230 §3).
fn parse_request(buf: &[u8]) -> Parsed {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut head = httparse::Request::new(&mut headers);
    let head_len = match head.parse(buf) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) => return Parsed::Incomplete,
        Err(_) => return Parsed::Refused(Status::BadRequest),
    };
    let (Some(method), Some(target)) = (head.method, head.path) else {
        return Parsed::Refused(Status::BadRequest);
    };
    let headers: Vec<(String, Vec<u8>)> =
        head.headers.iter().map(|h| (h.name.to_ascii_lowercase(), h.value.to_vec())).collect();
    if headers.iter().any(|(name, _)| name.as_str() == "transfer-encoding") {
        return Parsed::Refused(Status::NotImplemented);
    }
    let Some(length) = content_length(&headers).filter(|&n| n <= MAX_BODY) else {
        return Parsed::Refused(Status::BadRequest);
    };
    let end = head_len + length;
    if buf.len() < end {
        return Parsed::Incomplete;
    }
    let request =
        Request { method: method.to_string(), target: target.to_string(), headers, body: buf[head_len..end].to_vec() };
    Parsed::Request(request, end)
}

/// The body length the headers declare: 0 without `Content-Length`; `None`
/// if a value is not a number or two lines disagree (RFC 7230 §3.3.2).
fn content_length(headers: &[(String, Vec<u8>)]) -> Option<usize> {
    let mut length = None;
    for (_, value) in headers.iter().filter(|(name, _)| name.as_str() == "content-length") {
        let text = std::str::from_utf8(value).ok()?.trim_matches(is_ows);
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let n: usize = text.parse().ok()?;
        if length.is_some_and(|l| l != n) {
            return None;
        }
        length = Some(n);
    }
    Some(length.unwrap_or_default())
}

/// A response status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Ok,
    Created,
    NoContent,
    PartialContent,
    NotModified,
    BadRequest,
    NotFound,
    MethodNotAllowed,
    PreconditionFailed,
    RangeNotSatisfiable,
    NotImplemented,
}

impl Status {
    fn code(self) -> u16 {
        match self {
            Status::Ok => 200,
            Status::Created => 201,
            Status::NoContent => 204,
            Status::PartialContent => 206,
            Status::NotModified => 304,
            Status::BadRequest => 400,
            Status::NotFound => 404,
            Status::MethodNotAllowed => 405,
            Status::PreconditionFailed => 412,
            Status::RangeNotSatisfiable => 416,
            Status::NotImplemented => 501,
        }
    }

    fn reason(self) -> &'static str {
        match self {
            Status::Ok => "OK",
            Status::Created => "Created",
            Status::NoContent => "No Content",
            Status::PartialContent => "Partial Content",
            Status::NotModified => "Not Modified",
            Status::BadRequest => "Bad Request",
            Status::NotFound => "Not Found",
            Status::MethodNotAllowed => "Method Not Allowed",
            Status::PreconditionFailed => "Precondition Failed",
            Status::RangeNotSatisfiable => "Range Not Satisfiable",
            Status::NotImplemented => "Not Implemented",
        }
    }

    /// `204` and `304` have no body, and no `Content-Length` here.
    fn bodiless(self) -> bool {
        matches!(self, Status::NoContent | Status::NotModified)
    }
}

/// A response before it is written.
#[derive(Debug)]
struct Response {
    status: Status,
    etag: Option<EntityTag>,
    /// `Last-Modified`, seconds since the epoch.
    modified: Option<i64>,
    /// `Content-Range`.
    range: Option<String>,
    /// Send `Allow` (with `405`).
    allow: bool,
    /// The body is a plain-text message.
    text: bool,
    body: Vec<u8>,
    /// Declared beyond the body's length (only the off-by-one mutant sets it).
    extra_length: usize,
}

impl Response {
    fn new(status: Status) -> Self {
        Response {
            status,
            etag: None,
            modified: None,
            range: None,
            allow: false,
            text: false,
            body: Vec::new(),
            extra_length: 0,
        }
    }

    /// An error with a one-line text body.
    fn error(status: Status) -> Self {
        Response { text: true, body: format!("{}\n", status.reason()).into_bytes(), ..Response::new(status) }
    }

    fn with_etag(mut self, tag: EntityTag) -> Self {
        self.etag = Some(tag);
        self
    }

    fn with_body(mut self, body: Vec<u8>) -> Self {
        self.body = body;
        self
    }

    /// The response on the wire (RFC 7230 §3); `send_body` is false for `HEAD`.
    fn into_bytes(self, send_body: bool) -> Vec<u8> {
        let bodiless = self.status.bodiless();
        let mut lines = vec![format!("HTTP/1.1 {} {}", self.status.code(), self.status.reason())];
        if !bodiless {
            lines.push(format!("Content-Length: {}", self.body.len() + self.extra_length));
        }
        if self.text {
            lines.push("Content-Type: text/plain".to_string());
        }
        if let Some(tag) = &self.etag {
            lines.push(format!("ETag: {tag}"));
        }
        if let Some(date) = self.modified {
            lines.push(format!("Last-Modified: {}", format_date(date)));
        }
        if let Some(range) = &self.range {
            lines.push(format!("Content-Range: {range}"));
        }
        if self.allow {
            lines.push(format!("Allow: {ALLOW}"));
        }
        let mut bytes = lines.join("\r\n").into_bytes();
        bytes.extend_from_slice(b"\r\n\r\n");
        if send_body && !bodiless {
            bytes.extend(self.body);
        }
        bytes
    }
}

/// A stored resource.
#[derive(Clone, Debug)]
struct Resource {
    body: Vec<u8>,
    tag: EntityTag,
    /// When it was written, seconds since the epoch (the server's clock).
    modified: i64,
}

/// Work queued for the next poll, in arrival order.
enum Work {
    Request(Request),
    /// A refused request: answer the status, nothing more on that connection.
    Refusal(Status),
}

/// One connection's state.
#[derive(Default)]
struct Connection {
    /// Bytes received and not yet taken as requests.
    buf: Vec<u8>,
    /// Read no further: a request was refused, or the connection hung.
    stopped: bool,
    /// Answer nothing more (the pipeline-hang mutant).
    hung: bool,
    /// The target of the last request answered (the put-previous-path mutant).
    last_target: Option<String>,
    /// Its own last write of each path (the per-connection-cache mutant).
    cache: HashMap<String, Resource>,
}

impl Connection {
    /// Appends `bytes` and takes every whole request off the front of the
    /// buffer. A refused request is the last one read.
    fn read(&mut self, bytes: &[u8]) -> Vec<Work> {
        let mut work = Vec::new();
        if self.stopped {
            return work;
        }
        self.buf.extend_from_slice(bytes);
        loop {
            match parse_request(&self.buf) {
                Parsed::Incomplete => break,
                Parsed::Request(request, used) => {
                    self.buf.drain(..used);
                    work.push(Work::Request(request));
                }
                Parsed::Refused(status) => {
                    self.stop();
                    work.push(Work::Refusal(status));
                    return work;
                }
            }
        }
        if self.buf.len() > MAX_BUFFER {
            self.stop();
            work.push(Work::Refusal(Status::BadRequest));
        }
        work
    }

    fn stop(&mut self) {
        self.stopped = true;
        self.buf = Vec::new();
    }

    fn hang(&mut self) {
        self.hung = true;
        self.stop();
    }
}

/// The HTTP server: the reference, or a mutant (one planted bug, or
/// several together).
pub struct HttpServer {
    bugs: Vec<HttpBug>,
    /// Target → resource.
    resources: HashMap<String, Resource>,
    /// The last tag number issued.
    next_tag: u64,
    /// The clock: seconds since the epoch, one more per write.
    clock: i64,
    /// Reads so far (the last-modified-on-read mutant).
    reads: std::cell::Cell<i64>,
    conns: BTreeMap<Conn, Connection>,
    /// Requests received whole and not yet answered, in arrival order.
    queue: VecDeque<(Conn, Work)>,
}

impl HttpServer {
    /// The reference server (`bug: None`) or a mutant; `seed` picks where
    /// its tag counter starts.
    pub fn new(bug: Option<HttpBug>, seed: u64) -> Self {
        HttpServer::with_bugs(bug.into_iter().collect(), seed)
    }

    /// A mutant with every bug of `bugs` (a server with several
    /// deviations at once).
    pub fn with_bugs(bugs: Vec<HttpBug>, seed: u64) -> Self {
        HttpServer {
            bugs,
            resources: HashMap::new(),
            next_tag: splitmix(seed) % TAG_START_RANGE,
            clock: CLOCK_START + (splitmix(seed ^ 0xc10c) % CLOCK_START_RANGE) as i64,
            reads: std::cell::Cell::new(0),
            conns: BTreeMap::new(),
            queue: VecDeque::new(),
        }
    }

    /// Boxed as a [`Service`] for speccheck-dual's targets.
    pub fn service(bug: Option<HttpBug>, seed: u64) -> Box<dyn Service> {
        Box::new(HttpServer::new(bug, seed))
    }

    fn has(&self, bug: HttpBug) -> bool {
        self.bugs.contains(&bug)
    }

    fn connection(&mut self, conn: Conn) -> &mut Connection {
        self.conns.entry(conn).or_default()
    }

    /// How many requests (and refusals) each connection has queued.
    fn queued_per_connection(&self) -> HashMap<Conn, usize> {
        let mut counts = HashMap::new();
        for (conn, _) in &self.queue {
            *counts.entry(*conn).or_default() += 1;
        }
        counts
    }

    /// Answers one request: the response on the wire.
    fn answer(&mut self, conn: Conn, request: Request) -> Vec<u8> {
        let method = Method::of(&request.method);
        let send_body = method != Method::Head || self.has(HttpBug::HeadSendsBody);
        let target = request.target.clone();
        let response = match method {
            Method::Get | Method::Head => self.get(conn, &request),
            Method::Put => self.put(conn, request),
            Method::Delete if self.has(HttpBug::DeleteAsGet) => self.get(conn, &request),
            Method::Delete => self.delete(conn, &request),
            Method::Post => {
                Response { allow: !self.has(HttpBug::NoAllowOn405), ..Response::error(Status::MethodNotAllowed) }
            }
            Method::Options => Response { allow: true, ..Response::new(Status::Ok) },
            Method::Other => Response::error(Status::NotImplemented),
        };
        self.connection(conn).last_target = Some(target);
        response.into_bytes(send_body)
    }

    /// `GET` and `HEAD` (RFC 7231 §4.3.1–2): the resource and its tag once
    /// the preconditions hold (`HEAD` drops the body when it is written).
    fn get(&self, conn: Conn, request: &Request) -> Response {
        let Some(resource) = self.read(conn, &request.target) else {
            return if self.has(HttpBug::GetMissing200) {
                Response::new(Status::Ok)
            } else {
                Response::error(Status::NotFound)
            };
        };
        let Ok(conditions) = Conditions::parse(request) else {
            return Response::error(Status::BadRequest);
        };
        if let Some(refusal) = self.refuse_read(&conditions, resource) {
            return refusal;
        }
        if Method::of(&request.method) == Method::Get
            && let Some(part) = self.range(request, resource)
        {
            return part;
        }
        self.found(resource)
    }

    /// The `206` or `416` a `GET` with a `Range` (one byte range, under its
    /// `If-Range`) gets, if any (RFC 9110 §14.2, §13.1.5).
    fn range(&self, request: &Request, resource: &Resource) -> Option<Response> {
        let spec = request.text_header("range")?;
        if let Some(validator) = request.text_header("if-range")
            && !self.has(HttpBug::IfRangeIgnored)
        {
            let holds = match EntityTag::parse_prefix(&validator) {
                Some((tag, "")) => tag.strong_eq(&resource.tag),
                Some(_) => false,
                None => parse_date(&validator) == Some(self.modified(resource)),
            };
            if !holds {
                return None;
            }
        }
        let (first, last) = spec.trim().strip_prefix("bytes=")?.split_once('-')?;
        let len = resource.body.len();
        let number = |t: &str| t.trim().parse::<usize>().ok();
        let (first, last) = match (first.trim(), last.trim()) {
            ("", n) => (len.saturating_sub(number(n)?), len.checked_sub(1)),
            (a, "") => (number(a)?, len.checked_sub(1)),
            (a, b) => (number(a)?, Some(number(b)?.min(len.saturating_sub(1)))),
        };
        let Some(last) = last.filter(|&l| first <= l && first < len) else {
            let mut r = Response::error(Status::RangeNotSatisfiable);
            r.range = Some(format!("bytes */{len}"));
            return Some(r);
        };
        let end = if self.has(HttpBug::RangeOneByteMore) { (last + 1).min(len - 1) + 1 } else { last + 1 };
        let mut r = Response::new(Status::PartialContent).with_body(resource.body[first..end].to_vec());
        r.range = Some(format!("bytes {first}-{last}/{len}"));
        r.etag = Some(resource.tag.clone());
        r.modified = Some(self.modified(resource));
        Some(r)
    }

    /// The `Last-Modified` date of `resource` as a read reports it.
    fn modified(&self, resource: &Resource) -> i64 {
        if self.has(HttpBug::LastModifiedOnRead) {
            // Each read a second later, as if it had just changed.
            self.reads.set(self.reads.get() + 1);
            resource.modified + self.reads.get()
        } else {
            resource.modified
        }
    }

    /// The resource a read of `path` on `conn` sees.
    fn read(&self, conn: Conn, path: &str) -> Option<&Resource> {
        let cached =
            self.conns.get(&conn).and_then(|c| c.cache.get(path)).filter(|_| self.has(HttpBug::PerConnectionCache));
        cached.or_else(|| self.resources.get(path))
    }

    /// The `304` or `412` a `GET`/`HEAD` of `resource` gets instead of the
    /// resource, if any (RFC 9110 §13.2.2).
    fn refuse_read(&self, conditions: &Conditions, resource: &Resource) -> Option<Response> {
        let not_modified = || {
            let mut r = Response::new(Status::NotModified).with_etag(resource.tag.clone());
            r.modified = Some(self.modified(resource));
            r
        };
        match self.evaluate(conditions, Some(resource), true) {
            Precondition::IfMatchFailed if !self.has(HttpBug::GetIfMatchFailure200) => {
                Some(Response::error(Status::PreconditionFailed))
            }
            Precondition::IfUnmodifiedSinceFailed => Some(Response::error(Status::PreconditionFailed)),
            Precondition::IfNoneMatchFailed if !self.has(HttpBug::GetIfNoneMatchFailure200) => Some(not_modified()),
            Precondition::IfModifiedSinceFailed => Some(not_modified()),
            Precondition::Pass if conditions.if_match.is_some() && self.has(HttpBug::GetIfMatchSuccess412) => {
                Some(Response::error(Status::PreconditionFailed))
            }
            _ => None,
        }
    }

    /// `200` with the resource's body and tag.
    fn found(&self, resource: &Resource) -> Response {
        let body = if self.has(HttpBug::GetEmptyBody) { Vec::new() } else { resource.body.clone() };
        let mut response = Response::new(Status::Ok).with_body(body);
        if !self.has(HttpBug::GetNoEtag) {
            response = response.with_etag(resource.tag.clone());
        }
        response.modified = Some(self.modified(resource));
        if self.has(HttpBug::ContentLengthOffByOne) {
            response.extra_length = 1;
        }
        response
    }

    /// `PUT` (RFC 7231 §4.3.4): once the preconditions hold, stores the body
    /// under a new tag.
    fn put(&mut self, conn: Conn, request: Request) -> Response {
        let Ok(mut conditions) = Conditions::parse(&request) else {
            return Response::error(Status::BadRequest);
        };
        if self.has(HttpBug::PutIgnoresIfMatch) {
            conditions.if_match = None;
        }
        if self.has(HttpBug::PutIgnoresIfNoneMatchStar) && conditions.if_none_match == Some(TagList::Any) {
            conditions.if_none_match = None;
        }
        if self.has(HttpBug::PutIgnoresIfUnmodifiedSince) {
            conditions.if_unmodified_since = None;
        }
        let resource = self.resources.get(&request.target);
        if self.evaluate(&conditions, resource, false) != Precondition::Pass {
            return Response::error(Status::PreconditionFailed);
        }
        let current = resource.map(|r| r.tag.clone());
        let existed = current.is_some();
        let tag = match current {
            Some(old) if self.has(HttpBug::PutUpdateEarlyReturn) => {
                return Response::new(Status::NoContent).with_etag(old);
            }
            Some(old) if self.has(HttpBug::EtagKeptOnOverwrite) => old,
            _ => self.new_tag(),
        };
        let body = self.stored_body(request.body);
        let path = self.put_path(conn, request.target);
        self.clock += 1;
        let modified = self.clock;
        if !self.has(HttpBug::PutSkipsWrite) {
            self.write(conn, path, Resource { body, tag: tag.clone(), modified });
        }
        let status = if existed {
            Status::NoContent
        } else if self.has(HttpBug::Create200) {
            Status::Ok
        } else {
            Status::Created
        };
        let mut response = Response::new(status).with_etag(tag);
        response.modified = Some(modified);
        response
    }

    /// The body as it is stored.
    fn stored_body(&self, mut body: Vec<u8>) -> Vec<u8> {
        if self.has(HttpBug::StoreExtraNewline) {
            body.push(b'\n');
        }
        if self.has(HttpBug::StoreDropsLastByte) {
            body.pop();
        }
        body
    }

    /// Where a `PUT` to `target` on `conn` stores.
    fn put_path(&self, conn: Conn, target: String) -> String {
        let previous = self.conns.get(&conn).and_then(|c| c.last_target.clone());
        match previous {
            Some(previous) if self.has(HttpBug::PutPreviousPath) => previous,
            _ => target,
        }
    }

    /// Stores `resource` under `path`.
    fn write(&mut self, conn: Conn, path: String, resource: Resource) {
        if self.has(HttpBug::PerConnectionCache) {
            self.connection(conn).cache.insert(path.clone(), resource.clone());
        }
        self.resources.insert(path, resource);
    }

    /// `DELETE` (RFC 7231 §4.3.5): once the preconditions hold, removes the
    /// resource.
    fn delete(&mut self, conn: Conn, request: &Request) -> Response {
        let Some(current) = self.resources.get(&request.target) else {
            return if self.has(HttpBug::DeleteMissing204) {
                Response::new(Status::NoContent)
            } else {
                Response::error(Status::NotFound)
            };
        };
        let Ok(conditions) = Conditions::parse(request) else {
            return Response::error(Status::BadRequest);
        };
        if self.evaluate(&conditions, Some(current), false) != Precondition::Pass {
            return Response::error(Status::PreconditionFailed);
        }
        if !self.has(HttpBug::DeleteKeepsResource) {
            self.resources.remove(&request.target);
            self.connection(conn).cache.remove(&request.target);
        }
        Response::new(Status::NoContent)
    }

    /// RFC 9110 §13.2.2 steps 1–4 against the current resource (`None`
    /// when it does not exist); `read` for `GET`/`HEAD`, the methods
    /// `If-Modified-Since` applies to.
    fn evaluate(&self, conditions: &Conditions, resource: Option<&Resource>, read: bool) -> Precondition {
        let current = resource.map(|r| &r.tag);
        match &conditions.if_match {
            Some(list) if !self.if_match(list, current) => return Precondition::IfMatchFailed,
            Some(_) => {}
            None => {
                if let (Some(date), Some(r)) = (conditions.if_unmodified_since, resource)
                    && self.modified(r) > date
                {
                    return Precondition::IfUnmodifiedSinceFailed;
                }
            }
        }
        match &conditions.if_none_match {
            Some(list) if !self.if_none_match(list, current) => return Precondition::IfNoneMatchFailed,
            Some(_) => {}
            None => {
                if let (true, Some(date), Some(r)) = (read, conditions.if_modified_since, resource) {
                    let unchanged = self.modified(r) <= date;
                    if unchanged != self.has(HttpBug::IfModifiedSinceInverted) {
                        return Precondition::IfModifiedSinceFailed;
                    }
                }
            }
        }
        Precondition::Pass
    }

    /// `If-Match` (RFC 7232 §3.1): the resource exists and, for a list, some
    /// element matches its tag by the strong comparison.
    fn if_match(&self, list: &TagList, current: Option<&EntityTag>) -> bool {
        match list {
            TagList::Any => current.is_some() || self.has(HttpBug::IfMatchStarMissing),
            TagList::Tags(tags) => current.is_some_and(|current| {
                self.compared(tags).iter().any(|tag| {
                    if self.has(HttpBug::WeakIfMatch) { tag.weak_eq(current) } else { tag.strong_eq(current) }
                })
            }),
        }
    }

    /// `If-None-Match` (RFC 7232 §3.2): the resource does not exist or, for a
    /// list, no element matches its tag by the weak comparison.
    fn if_none_match(&self, list: &TagList, current: Option<&EntityTag>) -> bool {
        let holds = match list {
            TagList::Any => current.is_none(),
            TagList::Tags(tags) => current.is_none_or(|current| {
                !self.compared(tags).iter().any(|tag| {
                    if self.has(HttpBug::StrongIfNoneMatch) { tag.strong_eq(current) } else { tag.weak_eq(current) }
                })
            }),
        };
        holds != self.has(HttpBug::IfNoneMatchInverted)
    }

    /// The elements of a tag list that are compared.
    fn compared<'a>(&self, tags: &'a [EntityTag]) -> &'a [EntityTag] {
        if self.has(HttpBug::TagListFirstOnly) { &tags[..tags.len().min(1)] } else { tags }
    }

    /// A tag never issued before by this server.
    fn new_tag(&mut self) -> EntityTag {
        self.next_tag += 1;
        EntityTag::strong(self.next_tag.to_string())
    }
}

impl Service for HttpServer {
    fn receive(&mut self, conn: Conn, bytes: &[u8]) {
        let work = self.connection(conn).read(bytes);
        self.queue.extend(work.into_iter().map(|w| (conn, w)));
    }

    fn poll(&mut self, out: &mut Vec<(Conn, Vec<u8>)>) {
        let queued = self.queued_per_connection();
        while let Some((conn, work)) = self.queue.pop_front() {
            if self.connection(conn).hung {
                continue;
            }
            let bytes = match work {
                Work::Request(request) => self.answer(conn, request),
                Work::Refusal(status) => Response::error(status).into_bytes(true),
            };
            out.push((conn, bytes));
            if self.has(HttpBug::PipelineHang) && queued.get(&conn).is_some_and(|&n| n > 1) {
                self.connection(conn).hang();
            }
        }
    }
}

/// SplitMix64's output function: a well-spread start for the tag counter.
fn splitmix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
