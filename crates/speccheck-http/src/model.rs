//! The HTTP/1.1 model: an origin server storing resources, written like a
//! server (RFC 7230–7232 subset; thesis §1.2, §4).
//!
//! The state maps resource names to their body and entity tag. The server
//! chooses every tag: when it stores a body, the model names the new tag
//! with fresh unknowns — whether the server sends it at all, whether it is
//! weak, its opaque part — which later responses pin down. Where the RFC
//! leaves the server a choice (200 or 204 for an overwrite), the response
//! allows each; where it does not (201 for a creation, 304 for a failed
//! `If-None-Match` on a read), it allows one.
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
use speccheck_dual::sym::{Expr, Syms};

use crate::etag::EntityTag;
use crate::message::{Condition, HttpReq, HttpResp, Method};

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
    /// be strong then, RFC 7232 §2.1).
    pub clash: Expr,
}

impl Syms for Resource {
    fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        self.tag.visit_exprs(f);
        f(&mut self.tagged);
        f(&mut self.clash);
    }
}

/// The server's state: resource name → representation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct HttpState {
    /// The resources that exist.
    pub resources: BTreeMap<String, Resource>,
}

impl Syms for HttpState {
    fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        self.resources.visit_exprs(f);
    }
}

/// What the model says about a response's `ETag` header.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum TagSpec {
    /// Anything (error responses).
    Any,
    /// The resource's tag if the server sends its tags, no header if not.
    Is {
        /// Whether the server sends the tag.
        tagged: Expr,
        /// The tag.
        tag: EntityTag,
    },
    /// No header, or the tag (a successful `PUT` may send the new tag).
    MaybeIs {
        /// Whether the server sends the tag.
        tagged: Expr,
        /// The tag.
        tag: EntityTag,
    },
}

/// What the model says about a response's body.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum BodySpec {
    /// Anything (error pages, bodies of write responses).
    Any,
    /// Exactly these bytes.
    Exact(String),
}

/// A response as the model sends it.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct HttpSym {
    /// The status codes the server may answer with.
    pub status: Vec<u16>,
    /// The `ETag` header.
    pub etag: TagSpec,
    /// The body.
    pub body: BodySpec,
}

impl HttpSym {
    /// An error status (one of `codes`), any body, any tag.
    pub fn error(codes: &[u16]) -> Self {
        HttpSym { status: codes.to_vec(), etag: TagSpec::Any, body: BodySpec::Any }
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
    }
}

impl fmt::Debug for HttpSym {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let codes: Vec<String> = self.status.iter().map(u16::to_string).collect();
        write!(f, "status {}", codes.join(" or "))?;
        match &self.etag {
            TagSpec::Any => {}
            TagSpec::Is { tagged, tag } => write!(f, ", ETag {tag} (if {tagged}, else none)")?,
            TagSpec::MaybeIs { tagged, tag } => write!(f, ", ETag {tag} (if {tagged}) or none")?,
        }
        match &self.body {
            BodySpec::Any => Ok(()),
            BodySpec::Exact(b) => write!(f, ", body {b:?}"),
        }
    }
}

impl Symbolic for HttpSym {
    type Concrete = HttpResp;

    fn matches(&self, obs: &HttpResp) -> Expr {
        let status = Expr::bool(self.status.contains(&obs.status));
        let body = Expr::bool(match &self.body {
            BodySpec::Any => true,
            BodySpec::Exact(b) => obs.body == b.as_bytes(),
        });
        let etag = match (&self.etag, &obs.etag) {
            (TagSpec::Any, _) => Expr::bool(true),
            (TagSpec::Is { tagged, .. }, None) => !tagged.clone(),
            (TagSpec::MaybeIs { .. }, None) => Expr::bool(true),
            (TagSpec::Is { tagged, tag } | TagSpec::MaybeIs { tagged, tag }, Some(seen)) => {
                Expr::and([tagged.clone(), tag.is(seen)])
            }
        };
        Expr::and([status, body, etag])
    }

    fn concretize(&self) -> Option<HttpResp> {
        let [status] = self.status[..] else { return None };
        let body = match &self.body {
            BodySpec::Exact(b) => b.clone().into_bytes(),
            BodySpec::Any => Vec::new(),
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

/// A failed precondition: its status code.
type Failed = Option<u16>;

impl HttpModel {
    /// Evaluates `If-Match` then `If-None-Match` (RFC 7232 §6) against the
    /// current representation; `Some(status)` when one fails.
    fn preconditions(cx: &mut Cx<'_, Self>, req: &HttpReq, current: Option<&Resource>) -> Step<Failed> {
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
                return Ok(Some(412));
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
                return Ok(Some(if req.method.is_read() { 304 } else { 412 }));
            }
        }
        Ok(None)
    }

    fn read(cx: &mut Cx<'_, Self>, req: &HttpReq, current: Option<&Resource>) -> Step<HttpSym> {
        // Preconditions apply only when the response would be 2xx (§5).
        let Some(r) = current else { return Ok(HttpSym::error(&[404])) };
        let etag = TagSpec::Is { tagged: r.tagged.clone(), tag: r.tag.clone() };
        Ok(match Self::preconditions(cx, req, current)? {
            Some(304) => HttpSym { status: vec![304], etag, body: BodySpec::Exact(String::new()) },
            Some(code) => HttpSym::error(&[code]),
            None => {
                let body = if req.method == Method::Head { String::new() } else { r.body.clone() };
                HttpSym { status: vec![200], etag, body: BodySpec::Exact(body) }
            }
        })
    }

    fn write(s: &mut HttpState, cx: &mut Cx<'_, Self>, req: &HttpReq, current: Option<&Resource>) -> Step<HttpSym> {
        if let Some(code) = Self::preconditions(cx, req, current)? {
            return Ok(HttpSym::error(&[code]));
        }
        let tagged = cx.fresh_bool("etag sent")?;
        let tag = EntityTag::new(cx.fresh_bool("weak")?, cx.fresh_str("etag")?);
        // A strong validator changes whenever the representation does
        // (RFC 7232 §2.1).
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
        let stored = Resource { body: req.body.clone(), tag: tag.clone(), tagged: tagged.clone(), clash };
        s.resources.insert(req.path.clone(), stored);
        // 201 for a creation (RFC 7231 §4.3.4); an overwrite is 200 or 204.
        let status = if current.is_none() { vec![201] } else { vec![200, 204] };
        Ok(HttpSym { status, etag: TagSpec::MaybeIs { tagged, tag }, body: BodySpec::Any })
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
            return Ok(HttpSym::error(&[404]));
        }
        if let Some(code) = Self::preconditions(cx, req, current)? {
            return Ok(HttpSym::error(&[code]));
        }
        s.resources.remove(&req.path);
        Ok(HttpSym::error(&[200, 202, 204]))
    }
}

impl Model for HttpModel {
    type State = HttpState;
    type Req = HttpReq;
    type Resp = HttpSym;

    /// HTTP/1.1 servers may close an idle persistent connection at any time
    /// (RFC 7230 §6.3, §6.6).
    const CLOSES: bool = true;

    /// The *safe* methods: GET and HEAD change nothing (RFC 7231 §4.2.1);
    /// nor does POST here (see the module docs), nor a method the server
    /// refuses. What a server that closed a connection may have done with
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
            Method::Post if current.is_none() => HttpSym::error(&[404, 405, 501]),
            Method::Post => HttpSym::error(&[200, 204, 405, 501]),
            Method::Other(_) => HttpSym::error(&[405, 501]),
        };
        cx.send(conn, resp)
    }
}
