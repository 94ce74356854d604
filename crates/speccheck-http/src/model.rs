//! The HTTP/1.1 model: an origin server storing resources, written like a
//! server (RFC 9110 subset; thesis §1.2, §4): GET, HEAD, PUT, DELETE, POST,
//! OPTIONS and other methods; the preconditions `If-Match`,
//! `If-Unmodified-Since`, `If-None-Match`, `If-Modified-Since` in the order
//! of RFC 9110 §13.2.2; `Range` and `If-Range` (one byte range, §14).
//!
//! The state maps resource names to their body, entity tag and
//! modification date. The server chooses every validator: when it stores a
//! body, the model names the new tag and date with fresh unknowns —
//! whether the server has them at all, whether the tag is weak, its opaque
//! part, the date — which later responses pin down. Every expectation of a
//! response carries its rule ([`crate::rfc`]): where RFC 9110 leaves the
//! server a choice (200 or 204 for an overwrite, 206 or 200 for a range),
//! the response allows each; where it only recommends one (304 for a true
//! `If-None-Match` on a read), the others are allowed and the
//! recommendation is a SHOULD.
//!
//! Two freedoms of real servers are part of the model because the RFCs
//! give them:
//!
//! * **A fresh tag may start weak and become strong.** A server that cannot
//!   yet vouch for a new representation (its timestamp is within the clock's
//!   resolution) may issue its validator in weak form and the same opaque tag
//!   in strong form later (RFC 7232 §2.1, §2.2.2). Weakness only ever goes
//!   away: before each request touching a resource whose tag is not known to
//!   be strong, the model lets the server have strengthened it.
//! * **`POST` has the resource's own semantics** (RFC 7231 §4.3.3), which a
//!   document store need not define: the server may refuse it (405, 501) or
//!   answer it (200, 204; 404 when there is no document); the model assumes
//!   it changes no document.

use std::collections::BTreeMap;
use std::fmt;

use speccheck_dual::model::{Cx, Model, Step, Symbolic};
use speccheck_dual::rule::{Check, Rule};
use speccheck_dual::sym::{Expr, Syms};

use crate::etag::EntityTag;
use crate::message::{Condition, HttpReq, HttpResp, Method, parse_date};
use crate::rfc;

/// A stored representation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Resource {
    /// The body, exactly as written.
    pub body: String,
    /// Its entity tag (chosen by the server).
    pub tag: EntityTag,
    /// Whether the server sends the tag (a boolean: a server may send none).
    pub tagged: Expr,
    /// When the tag would, in strong form, repeat the strong tag of the
    /// different representation it replaced (a boolean; the tag must not
    /// be strong then, RFC 9110 §8.8.1).
    pub clash: Expr,
    /// Whether the server has a modification date for it (a boolean: a
    /// server may have none, and then ignores date preconditions).
    pub dated: Expr,
    /// The date, seconds since the epoch (an integer chosen by the server).
    pub modified: Expr,
}

impl Syms for Resource {
    fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        self.tag.visit_exprs(f);
        f(&mut self.tagged);
        f(&mut self.clash);
        f(&mut self.dated);
        f(&mut self.modified);
    }
}

/// The server's state: resource name → representation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct HttpState {
    /// The resources that exist.
    pub resources: BTreeMap<String, Resource>,
    /// Whether the server takes each content it was sent to store at a
    /// resource (by resource name and content): a property of the content
    /// (its size, media type, syntax) and of where it goes, so the same
    /// content at the same place gets the same answer all along.
    pub takes: BTreeMap<(String, String), Expr>,
}

impl Syms for HttpState {
    fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        self.resources.visit_exprs(f);
        self.takes.values_mut().for_each(f);
    }
}

/// What the model says about a response's `ETag` header.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum TagSpec {
    /// Anything (error responses).
    Any,
    /// The resource's tag: if sent, it must be the tag (a MUST); it should
    /// be sent when the server issues tags for the representation (a
    /// SHOULD, per response: RFC 9110 §8.8.3).
    Is {
        /// Whether the server issues the tag.
        tagged: Expr,
        /// The tag.
        tag: EntityTag,
    },
    /// No header, or the tag (a successful `PUT` may send the new tag).
    MaybeIs {
        /// Whether the server issues the tag.
        tagged: Expr,
        /// The tag.
        tag: EntityTag,
    },
}

/// What the model says about a response's `Last-Modified` header.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum DateSpec {
    /// Anything.
    Any,
    /// The representation's date: if sent, it must be the date (a MUST);
    /// it should be sent when the server has one (a SHOULD, RFC 9110
    /// §8.8.2.1).
    Is {
        /// Whether the server has a date.
        dated: Expr,
        /// The date.
        modified: Expr,
    },
    /// No header, or the date (a successful `PUT`).
    MaybeIs {
        /// Whether the server has a date.
        dated: Expr,
        /// The date.
        modified: Expr,
    },
}

/// What the model says about a response's body.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum BodySpec {
    /// Anything (error pages, bodies of write responses).
    Any,
    /// Exactly these bytes.
    Exact(String),
    /// None, as for `HEAD`: and a `Content-Length`, if sent, of the length
    /// `GET` would send (RFC 9110 §8.6).
    Head {
        /// The length of the representation.
        length: usize,
    },
    /// Bytes `first..=last` of the representation `whole`, with the
    /// `Content-Range` that says so (a 206, RFC 9110 §15.3.7).
    Part {
        /// The representation.
        whole: String,
        /// The first byte sent.
        first: usize,
        /// The last byte sent.
        last: usize,
    },
}

/// A response as the model sends it: the statuses the RFC allows, the
/// ones it recommends, and what the header fields and body must be, each
/// under its rule ([`crate::rfc`]).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct HttpSym {
    /// The method of the request it answers.
    pub answering: Method,
    /// The status codes the server may answer with.
    pub status: Vec<u16>,
    /// The rule that allows only those.
    pub status_rule: Rule,
    /// For a conditional request whose preconditions held, the rule a 304
    /// or a 412 breaks instead (the server found them false, §13.2.2); any
    /// other status outside `status` breaks `status_rule`, the method's own.
    pub held: Option<Rule>,
    /// The ones recommended, under a SHOULD (a subset of `status`).
    pub preferred: Option<(Vec<u16>, Rule)>,
    /// The statuses the `ETag` and body expectations apply to (every one
    /// when `None`): a 304 names the tag, a 412 beside it need not.
    pub described: Option<Vec<u16>>,
    /// The `ETag` header.
    pub etag: TagSpec,
    /// The rule behind a missing `ETag` (a SHOULD).
    pub etag_sent: Rule,
    /// The `Last-Modified` header.
    pub date: DateSpec,
    /// The body.
    pub body: BodySpec,
    /// The rule behind the body.
    pub body_rule: Rule,
}

impl HttpSym {
    /// An answer to `method`: one of `codes` under `rule`, any body, any tag.
    pub fn error(method: &Method, codes: &[u16], rule: Rule) -> Self {
        HttpSym {
            answering: method.clone(),
            status: codes.to_vec(),
            status_rule: rule,
            held: None,
            preferred: None,
            described: None,
            etag: TagSpec::Any,
            etag_sent: rfc::ETAG_SENT,
            date: DateSpec::Any,
            body: BodySpec::Any,
            body_rule: rule,
        }
    }

    /// The answer to `req` when its preconditions held (see
    /// [`HttpSym::held`]); unchanged for a request without any.
    pub fn held(mut self, req: &HttpReq) -> Self {
        if req.is_conditional() {
            self.held = Some(rfc::PRECONDITIONS_HOLD);
        }
        self
    }

    /// The same, recommending `codes` under the SHOULD `rule`.
    pub fn preferring(mut self, codes: &[u16], rule: Rule) -> Self {
        self.preferred = Some((codes.to_vec(), rule));
        self
    }
}

impl Syms for HttpSym {
    fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        match &mut self.etag {
            TagSpec::Any => {}
            TagSpec::Is { tagged, tag } | TagSpec::MaybeIs { tagged, tag } => {
                f(tagged);
                tag.visit_exprs(f);
            }
        }
        match &mut self.date {
            DateSpec::Any => {}
            DateSpec::Is { dated, modified } | DateSpec::MaybeIs { dated, modified } => {
                f(dated);
                f(modified);
            }
        }
    }
}

impl fmt::Debug for HttpSym {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let codes = |cs: &[u16]| cs.iter().map(u16::to_string).collect::<Vec<_>>().join(" or ");
        write!(f, "status {}", codes(&self.status))?;
        if let Some((p, _)) = &self.preferred {
            write!(f, " (recommended: {})", codes(p))?;
        }
        match &self.etag {
            TagSpec::Any => {}
            TagSpec::Is { tagged, tag } => write!(f, ", ETag {tag} (if {tagged}, else none)")?,
            TagSpec::MaybeIs { tagged, tag } => write!(f, ", ETag {tag} (if {tagged}) or none")?,
        }
        match &self.date {
            DateSpec::Any => {}
            DateSpec::Is { dated, modified } => write!(f, ", Last-Modified {modified} (if {dated}, else none)")?,
            DateSpec::MaybeIs { dated, modified } => write!(f, ", Last-Modified {modified} (if {dated}) or none")?,
        }
        match &self.body {
            BodySpec::Any => Ok(()),
            BodySpec::Exact(b) => write!(f, ", body {b:?}"),
            BodySpec::Head { length } => write!(f, ", no body (Content-Length {length} if any)"),
            BodySpec::Part { whole, first, last } => write!(
                f,
                ", Content-Range bytes {first}-{last}/{}, body {:?}",
                whole.len(),
                &whole.as_bytes()[*first..=*last].escape_ascii().to_string()
            ),
        }
    }
}

/// A `Content-Range` of one satisfied byte range: first, last, length.
fn content_range(v: &str) -> Option<(usize, usize, usize)> {
    let (range, len) = v.trim().strip_prefix("bytes ")?.split_once('/')?;
    let (a, b) = range.trim().split_once('-')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?, len.trim().parse().ok()?))
}

/// The `Content-Length` a response declared, if one parses.
fn content_length(obs: &HttpResp) -> Option<Option<usize>> {
    let declared = obs.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("content-length"))?;
    Some(declared.1.trim().parse().ok())
}

impl Symbolic for HttpSym {
    type Concrete = HttpResp;

    fn matches(&self, obs: &HttpResp) -> Expr {
        Expr::and(self.checks(obs).into_iter().map(|c| c.holds))
    }

    fn checks(&self, obs: &HttpResp) -> Vec<Check> {
        let status_rule = match self.held {
            Some(rule) if PRECONDITION_FALSE.contains(&obs.status) => rule,
            _ => self.status_rule,
        };
        let mut checks = vec![Check::new(status_rule, Expr::bool(self.status.contains(&obs.status)))];
        if let Some((preferred, rule)) = &self.preferred {
            checks.push(Check::new(*rule, Expr::bool(preferred.contains(&obs.status))));
        }
        if obs.status == 405 {
            checks.push(Check::new(rfc::ALLOW_ON_405, Expr::bool(obs.header("allow").is_some())));
        }
        if let (Some(lm), Some(date)) = (obs.header("last-modified"), obs.header("date"))
            && let (Some(lm), Some(date)) = (parse_date(lm), parse_date(date))
        {
            checks.push(Check::new(rfc::LAST_MODIFIED_PAST, Expr::bool(lm <= date)));
        }
        if self.described.as_ref().is_some_and(|d| !d.contains(&obs.status)) {
            return checks;
        }
        match &self.body {
            BodySpec::Any => {}
            BodySpec::Exact(b) => checks.push(Check::new(self.body_rule, Expr::bool(obs.body == b.as_bytes()))),
            BodySpec::Head { length } => {
                checks.push(Check::new(rfc::HEAD_NO_CONTENT, Expr::bool(obs.body.is_empty())));
                let declared = content_length(obs).is_none_or(|n| n == Some(*length));
                checks.push(Check::new(rfc::HEAD_LENGTH, Expr::bool(declared)));
            }
            BodySpec::Part { whole, first, last } => {
                let range = obs.header("content-range").and_then(content_range);
                let said = range == Some((*first, *last, whole.len()));
                let sent = obs.body == whole.as_bytes()[*first..=*last];
                checks.push(Check::new(rfc::RANGE_PART, Expr::bool(said && sent)));
            }
        }
        match (&self.date, obs.header("last-modified")) {
            (DateSpec::Any, _) | (DateSpec::MaybeIs { .. }, None) => {}
            (DateSpec::Is { dated, .. }, None) => checks.push(Check::new(rfc::LAST_MODIFIED_SENT, !dated.clone())),
            (DateSpec::Is { dated, modified } | DateSpec::MaybeIs { dated, modified }, Some(seen)) => {
                let is = match parse_date(seen) {
                    Some(d) => Expr::and([dated.clone(), modified.equals(Expr::int(d))]),
                    None => Expr::bool(false),
                };
                checks.push(Check::new(rfc::LAST_MODIFIED_CURRENT, is));
            }
        }
        match (&self.etag, &obs.etag) {
            (TagSpec::Any, _) => {}
            (TagSpec::Is { tagged, .. }, None) => checks.push(Check::new(self.etag_sent, !tagged.clone())),
            (TagSpec::MaybeIs { .. }, None) => {}
            (TagSpec::Is { tagged, tag } | TagSpec::MaybeIs { tagged, tag }, Some(seen)) => {
                checks.push(Check::new(rfc::ETAG_CURRENT, Expr::and([tagged.clone(), tag.is(seen)])));
            }
        }
        checks
    }

    fn answering(&self) -> Option<String> {
        Some(self.answering.as_str().to_string())
    }

    fn concretize(&self) -> Option<HttpResp> {
        let [status] = self.status[..] else { return None };
        let body = match &self.body {
            BodySpec::Exact(b) => b.clone().into_bytes(),
            BodySpec::Part { whole, first, last } => whole.as_bytes()[*first..=*last].to_vec(),
            BodySpec::Any | BodySpec::Head { .. } => Vec::new(),
        };
        let etag = match &self.etag {
            TagSpec::Any => None,
            TagSpec::Is { tagged, tag } | TagSpec::MaybeIs { tagged, tag } => {
                if tagged.eval_ground()?.as_bool()? {
                    let weak = tag.weak.eval_ground()?.as_bool()?;
                    let opaque = tag.opaque.eval_ground()?;
                    Some(format!("{}{}", if weak { "W/" } else { "" }, opaque.as_str()?))
                } else {
                    None
                }
            }
        };
        Some(HttpResp { status, reason: String::new(), etag, headers: Vec::new(), body })
    }

    fn show(obs: &HttpResp) -> String {
        let mut s = format!("{} {}", obs.status, obs.reason);
        if let Some(t) = &obs.etag {
            s.push_str(&format!(", ETag {t}"));
        }
        s.push_str(&format!(", body {:?}", String::from_utf8_lossy(&obs.body[..obs.body.len().min(128)])));
        s
    }
}

/// The HTTP/1.1 origin-server model (see the [module docs](self)).
#[derive(Clone, Copy, Debug, Default)]
pub struct HttpModel;

/// What the preconditions say (RFC 9110 §13.2.2).
enum Preconditions {
    /// Perform the method.
    Hold,
    /// Do not: answer this status (a 412), under this rule.
    Fail(u16, Rule),
    /// A true `If-None-Match` on GET or HEAD: not performed, 304 (a
    /// SHOULD) or 412.
    NotModified(Rule),
    /// A false `If-Modified-Since`: 304 recommended (every part of
    /// §13.1.3 is a SHOULD), performing the method allowed.
    NotModifiedSince,
}

/// Statuses of a write that failed without effect, permitted while other
/// requests are in flight (a lock, a conflict, a race the server lost and
/// says so with an error of its choosing: 403 and 500 name no cause).
const REFUSED: [u16; 5] = [403, 409, 423, 500, 503];

/// Statuses that say a request's preconditions were found false.
const PRECONDITION_FALSE: [u16; 2] = [304, 412];

/// Statuses of a write whose content the server does not take (malformed,
/// too large, of a media type it does not store).
const CONTENT_REFUSED: [u16; 3] = [400, 413, 415];

impl HttpModel {
    /// Evaluates the preconditions in the order of RFC 9110 §13.2.2 against
    /// the current representation.
    fn preconditions(cx: &mut Cx<'_, Self>, req: &HttpReq, current: Option<&Resource>) -> Step<Preconditions> {
        if let Some(cond) = &req.if_match {
            // Strong comparison; `*` holds when a representation exists.
            let holds = match (cond, current) {
                (Condition::Any, cur) => cur.is_some(),
                (Condition::Tags(_), None) => false,
                (Condition::Tags(_), Some(r)) => {
                    cx.branch(Expr::and([r.tagged.clone(), r.tag.any_of(&cond.tags(), false)]))?
                }
            };
            if !holds {
                return Ok(Preconditions::Fail(412, rfc::IF_MATCH_FALSE));
            }
        } else if let (Some(date), Some(r)) = (req.if_unmodified_since.as_deref().and_then(parse_date), current) {
            // Ignored without If-Match only; and when the server has no date.
            if cx.branch(Expr::and([
                r.dated.clone(),
                Expr::Lt(Box::new(Expr::int(date)), Box::new(r.modified.clone())),
            ]))? {
                return Ok(Preconditions::Fail(412, rfc::IF_UNMODIFIED_SINCE_FALSE));
            }
        }
        if let Some(cond) = &req.if_none_match {
            // Weak comparison; `*` fails when a representation exists.
            let matched = match (cond, current) {
                (Condition::Any, cur) => cur.is_some(),
                (Condition::Tags(_), None) => false,
                (Condition::Tags(_), Some(r)) => {
                    cx.branch(Expr::and([r.tagged.clone(), r.tag.any_of(&cond.tags(), true)]))?
                }
            };
            if matched {
                return Ok(if req.method.is_read() {
                    Preconditions::NotModified(rfc::IF_NONE_MATCH_READ)
                } else {
                    Preconditions::Fail(412, rfc::IF_NONE_MATCH_WRITE)
                });
            }
        } else if let (true, Some(date), Some(r)) =
            (req.method.is_read(), req.if_modified_since.as_deref().and_then(parse_date), current)
        {
            // Ignored with If-None-Match, on other methods, without a date.
            if cx.branch(Expr::and([
                r.dated.clone(),
                Expr::Le(Box::new(r.modified.clone()), Box::new(Expr::int(date))),
            ]))? {
                return Ok(Preconditions::NotModifiedSince);
            }
        }
        Ok(Preconditions::Hold)
    }

    /// Whether `If-Range` holds (RFC 9110 §13.1.5): absent, or a strong
    /// match of the tag, or the exact date (which a server may still
    /// find too weak a validator).
    fn if_range(cx: &mut Cx<'_, Self>, req: &HttpReq, r: &Resource) -> Step<bool> {
        let Some(v) = &req.if_range else { return Ok(true) };
        if let Some(date) = parse_date(v) {
            let exact = Expr::and([r.dated.clone(), r.modified.equals(Expr::int(date))]);
            return Ok(cx.branch(exact)? && cx.or()?);
        }
        match EntityTag::parse(v) {
            Some(t) => cx.branch(Expr::and([r.tagged.clone(), r.tag.strong_eq(&t)])),
            None => Ok(false),
        }
    }

    fn read(cx: &mut Cx<'_, Self>, req: &HttpReq, current: Option<&Resource>) -> Step<HttpSym> {
        // Preconditions apply only when the response would be 2xx (§13.2.1).
        let Some(r) = current else { return Ok(HttpSym::error(&req.method, &[404, 410], rfc::NOT_FOUND)) };
        let head = req.method == Method::Head;
        let ok = |status: Vec<u16>, status_rule: Rule, body: BodySpec, body_rule: Rule| HttpSym {
            answering: req.method.clone(),
            status,
            status_rule,
            held: None,
            preferred: None,
            described: None,
            etag: TagSpec::Is { tagged: r.tagged.clone(), tag: r.tag.clone() },
            etag_sent: if head { rfc::HEAD_LIKE_GET } else { rfc::ETAG_SENT },
            date: DateSpec::Is { dated: r.dated.clone(), modified: r.modified.clone() },
            body,
            body_rule,
        };
        let whole = if head { BodySpec::Head { length: r.body.len() } } else { BodySpec::Exact(r.body.clone()) };
        let not_modified = |rule: Rule| HttpSym {
            described: Some(vec![304]),
            ..ok(vec![304, 412], rule, BodySpec::Exact(String::new()), rfc::NOT_MODIFIED_EMPTY)
        };
        Ok(match Self::preconditions(cx, req, current)? {
            Preconditions::Fail(code, rule) => HttpSym::error(&req.method, &[code], rule),
            // The method is not performed: 304 (which names the validators and
            // has no content) recommended, 412 allowed.
            Preconditions::NotModified(rule) => not_modified(rule).preferring(&[304], rfc::NOT_MODIFIED),
            // 304 recommended; performing the method (200) allowed.
            Preconditions::NotModifiedSince if cx.or()? => {
                HttpSym { status: vec![304], ..not_modified(rfc::IF_MODIFIED_SINCE) }
            }
            Preconditions::NotModifiedSince => ok(vec![200], rfc::IF_MODIFIED_SINCE, whole, rfc::GET_TRANSFERS)
                .preferring(&[304], rfc::NOT_MODIFIED_SINCE),
            Preconditions::Hold => {
                let Some(range) = req.range.filter(|_| req.method == Method::Get) else {
                    return Ok(ok(vec![200], rfc::GET_TRANSFERS, whole, rfc::GET_TRANSFERS).held(req));
                };
                // A false If-Range: the Range is ignored (MUST).
                if !Self::if_range(cx, req, r)? {
                    return Ok(ok(vec![200], rfc::IF_RANGE_FALSE, whole, rfc::GET_TRANSFERS).held(req));
                }
                // A server may ignore Range (200 with everything); else it sends
                // the part (206), or refuses a range it cannot satisfy (416).
                let select = range.select(r.body.len() as u64).map(|(a, b)| (a as usize, b as usize));
                let rule = if select.is_some() { rfc::RANGE_STATUS } else { rfc::RANGE_UNSATISFIABLE };
                let answer = match (select, cx.or()?) {
                    (_, true) => ok(vec![200], rule, whole, rfc::GET_TRANSFERS),
                    (Some((first, last)), false) => {
                        let part = BodySpec::Part { whole: r.body.clone(), first, last };
                        ok(vec![206], rule, part, rfc::RANGE_PART)
                    }
                    (None, false) => HttpSym::error(&req.method, &[416], rule),
                };
                answer.held(req)
            }
        })
    }

    /// A write that failed without effect, when other requests are in
    /// flight and the server says so (`None` otherwise). It is named by the
    /// rule of the write it did not carry out (`rule`): a response neither
    /// way explains breaks that one rule, whichever order of the
    /// concurrent requests the validator considered.
    fn refused(cx: &mut Cx<'_, Self>, req: &HttpReq, rule: Rule) -> Step<Option<HttpSym>> {
        Ok((cx.concurrent() > 0 && cx.or()?).then(|| HttpSym::error(&req.method, &REFUSED, rule)))
    }

    fn write(s: &mut HttpState, cx: &mut Cx<'_, Self>, req: &HttpReq, current: Option<&Resource>) -> Step<HttpSym> {
        let own = if current.is_none() { rfc::PUT_CREATES } else { rfc::PUT_REPLACES };
        // Content the server does not take is refused (400, 413, 415)
        // without effect, before the preconditions are looked at (§13.2.1,
        // §15.5.1, §15.5.14, §15.5.16); the same content at the same place
        // alike every time.
        // Named by the rule the request's other outcome follows (a failed
        // precondition's, or the write's), so that a response neither
        // explains breaks that one rule.
        let preconditions = Self::preconditions(cx, req, current)?;
        let otherwise = match preconditions {
            Preconditions::Fail(_, rule) => HttpSym::error(&req.method, &CONTENT_REFUSED, rule),
            _ => HttpSym::error(&req.method, &CONTENT_REFUSED, own).held(req),
        };
        let key = (req.path.clone(), req.body.clone());
        let takes = match s.takes.get(&key) {
            Some(t) => t.clone(),
            None => {
                let t = cx.fresh_bool("content taken")?;
                s.takes.insert(key, t.clone());
                t
            }
        };
        if !cx.branch(takes)? {
            return Ok(otherwise);
        }
        if let Preconditions::Fail(code, rule) = preconditions {
            return Ok(HttpSym::error(&req.method, &[code], rule));
        }
        if let Some(refused) = Self::refused(cx, req, own)? {
            return Ok(refused.held(req));
        }
        let tagged = cx.fresh_bool("etag sent")?;
        let tag = EntityTag::new(cx.fresh_bool("weak")?, cx.fresh_str("etag")?);
        let (dated, modified) = (cx.fresh_bool("dated")?, cx.fresh_int("last-modified")?);
        // A strong validator changes whenever the representation does
        // (RFC 9110 §8.8.1).
        // Only an old tag the tester has seen whole can be repeated: were any
        // part of it still unknown, some value of that part (untagged, weak,
        // another opaque string — nothing else constrains a replaced tag)
        // always keeps the new tag clear of it, and linking the two would
        // chain every write's unknowns to the next one's.
        let clash = match current.filter(|old| old.body != req.body).and_then(|old| Self::strong_tag(old, req)) {
            Some(opaque) => Expr::and([tagged.clone(), opaque.equals(&tag.opaque)]),
            None => Expr::bool(false),
        };
        cx.require(!Expr::and([clash.clone(), !tag.weak.clone()]))?;
        let stored = Resource {
            body: req.body.clone(),
            tag: tag.clone(),
            tagged: tagged.clone(),
            clash,
            dated: dated.clone(),
            modified: modified.clone(),
        };
        s.resources.insert(req.path.clone(), stored);
        // 201 for a creation; an overwrite is 200 or 204 (RFC 9110 §9.3.4).
        let status = if current.is_none() { vec![201] } else { vec![200, 204] };
        Ok(HttpSym {
            answering: req.method.clone(),
            status,
            status_rule: own,
            held: None,
            preferred: None,
            described: None,
            etag: TagSpec::MaybeIs { tagged, tag },
            etag_sent: rfc::ETAG_SENT,
            date: DateSpec::MaybeIs { dated, modified },
            body: BodySpec::Any,
            body_rule: own,
        }
        .held(req))
    }

    /// The opaque part of `old`'s tag when it is known to be strong and sent:
    /// seen whole, or the one tag of an `If-Match` that held for `req`.
    fn strong_tag(old: &Resource, req: &HttpReq) -> Option<Expr> {
        let known = old.tagged == Expr::bool(true) && old.tag.weak == Expr::bool(false);
        if known && old.tag.opaque.as_const().is_some() {
            return Some(old.tag.opaque.clone());
        }
        match req.if_match.as_ref().map(Condition::tags).as_deref() {
            Some([only]) if only.weak == Expr::bool(false) => Some(only.opaque.clone()),
            _ => None,
        }
    }

    fn delete(s: &mut HttpState, cx: &mut Cx<'_, Self>, req: &HttpReq, current: Option<&Resource>) -> Step<HttpSym> {
        if current.is_none() {
            // Not found is recommended; a server may also treat the deletion
            // as done, and then a false If-Match is evaluated (§13.2.1).
            let mut allowed = vec![404, 410, 200, 202, 204];
            if req.if_match.is_some() {
                allowed.push(412);
            }
            return Ok(
                HttpSym::error(&req.method, &allowed, rfc::NOT_FOUND).preferring(&[404, 410], rfc::DELETE_NOT_FOUND)
            );
        }
        if let Preconditions::Fail(code, rule) = Self::preconditions(cx, req, current)? {
            return Ok(HttpSym::error(&req.method, &[code], rule));
        }
        if let Some(refused) = Self::refused(cx, req, rfc::DELETE_DONE)? {
            return Ok(refused.held(req));
        }
        s.resources.remove(&req.path);
        Ok(HttpSym::error(&req.method, &[200, 202, 204, 207], rfc::DELETE_DONE)
            .preferring(&[200, 202, 204], rfc::DELETE_STATUS)
            .held(req))
    }
}

impl Model for HttpModel {
    type State = HttpState;
    type Req = HttpReq;
    type Resp = HttpSym;

    /// HTTP/1.1 servers may close an idle persistent connection at any time
    /// (RFC 9112 §9.3, §9.6).
    const CLOSES: bool = true;

    /// The *safe* methods: GET, HEAD and OPTIONS change nothing (RFC 9110
    /// §9.2.1); nor does POST here (see the module docs), nor a method the
    /// server refuses. What a server that closed a connection may have done with
    /// them makes no difference.
    fn is_safe(&self, req: &HttpReq) -> bool {
        !matches!(req.method, Method::Put | Method::Delete)
    }

    fn init(&self) -> HttpState {
        HttpState::default()
    }

    fn serve(&self, s: &mut HttpState, cx: &mut Cx<'_, Self>) -> Step {
        let (conn, req) = cx.recv()?;
        if let Some(r) = s.resources.get_mut(&req.path)
            && r.tag.weak != Expr::bool(false)
            && cx.or()?
        {
            // The server now vouches for the tag: strong from here on, and
            // so different from the strong tag it replaced.
            cx.require(!r.clash.clone())?;
            r.tag.weak = Expr::bool(false);
            r.clash = Expr::bool(false);
        }
        let current = s.resources.get(&req.path).cloned();
        let resp = match &req.method {
            Method::Get | Method::Head => Self::read(cx, &req, current.as_ref())?,
            Method::Put => Self::write(s, cx, &req, current.as_ref())?,
            Method::Delete => Self::delete(s, cx, &req, current.as_ref())?,
            Method::Post if current.is_none() => HttpSym::error(&req.method, &[404, 405, 501], rfc::POST_SEMANTICS),
            Method::Post => HttpSym::error(&req.method, &[200, 204, 405, 501], rfc::POST_SEMANTICS),
            Method::Options => HttpSym::error(&req.method, &[200, 204, 404, 405, 501], rfc::OPTIONS_ANSWERED),
            Method::Other(_) => HttpSym::error(&req.method, &[400, 404, 405, 501], rfc::UNKNOWN_METHOD)
                .preferring(&[405, 501], rfc::UNKNOWN_METHOD_501),
        };
        cx.send(conn, resp)
    }
}
