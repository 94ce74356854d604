//! The HTTP/1.1 model on hand-written traces: what RFC 7231–7232 allow is
//! accepted, what they forbid is rejected at the observation that breaks
//! them.

use std::sync::Arc;

use speccheck_dual::dual::{Invalid, Limits, Observation, validate};
use speccheck_dual::solver::Native;
use speccheck_http::{Condition, HttpModel, HttpReq, HttpResp, Method};

type Obs = Observation<HttpReq, HttpResp>;

fn req(method: Method, path: &str, body: &str) -> HttpReq {
    HttpReq { method, path: path.into(), body: body.into(), if_match: None, if_none_match: None }
}

fn if_match(mut r: HttpReq, tags: &[&str]) -> HttpReq {
    r.if_match = Some(cond(tags));
    r
}

fn if_none_match(mut r: HttpReq, tags: &[&str]) -> HttpReq {
    r.if_none_match = Some(cond(tags));
    r
}

fn cond(tags: &[&str]) -> Condition {
    if tags == ["*"] { Condition::Any } else { Condition::Tags(tags.iter().map(|t| t.to_string()).collect()) }
}

fn resp(status: u16, etag: Option<&str>, body: &str) -> HttpResp {
    HttpResp {
        status,
        reason: String::new(),
        etag: etag.map(str::to_string),
        headers: Vec::new(),
        body: body.as_bytes().to_vec(),
    }
}

/// Sends each request on connection 0 and receives its response.
fn exchange(pairs: Vec<(HttpReq, HttpResp)>) -> Result<usize, Invalid> {
    let mut trace: Vec<Obs> = Vec::new();
    for (q, r) in pairs {
        trace.push(Observation::Sent(0, q));
        trace.push(Observation::Received(0, r));
    }
    validate::<HttpModel, Native>(Arc::new(HttpModel), &trace, Limits::default())
}

fn rejected_at(r: Result<usize, Invalid>) -> usize {
    match r {
        Err(Invalid::Rejected(rej)) => rej.index,
        other => panic!("expected a rejection, got {other:?}"),
    }
}

#[test]
fn writes_reads_and_tags() {
    let put = || (req(Method::Put, "a", "x"), resp(201, Some("\"1\""), ""));
    assert!(exchange(vec![put(), (req(Method::Get, "a", ""), resp(200, Some("\"1\""), "x"))]).is_ok());
    // The tag a GET shows is the one the PUT announced.
    assert_eq!(rejected_at(exchange(vec![put(), (req(Method::Get, "a", ""), resp(200, Some("\"2\""), "x"))])), 3);
    // The body is compared exactly.
    assert_eq!(rejected_at(exchange(vec![put(), (req(Method::Get, "a", ""), resp(200, Some("\"1\""), "x\n"))])), 3);
    // A server that sends no tag is allowed, consistently.
    let untagged = vec![
        (req(Method::Put, "a", "x"), resp(201, None, "")),
        (req(Method::Get, "a", ""), resp(200, None, "x")),
        (req(Method::Head, "a", ""), resp(200, None, "")),
    ];
    assert!(exchange(untagged).is_ok());
    // Creation is 201, an overwrite 200 or 204.
    assert_eq!(rejected_at(exchange(vec![(req(Method::Put, "a", "x"), resp(204, None, ""))])), 1);
    for status in [200, 204] {
        assert!(exchange(vec![put(), (req(Method::Put, "a", "y"), resp(status, None, ""))]).is_ok());
    }
    assert_eq!(rejected_at(exchange(vec![(req(Method::Get, "b", ""), resp(200, None, ""))])), 1);
}

#[test]
fn a_strong_tag_changes_with_the_body() {
    let put = (req(Method::Put, "a", "x"), resp(201, Some("\"1\""), ""));
    let changed = (req(Method::Put, "a", "y"), resp(204, None, ""));
    let same_tag = (req(Method::Get, "a", ""), resp(200, Some("\"1\""), "y"));
    assert_eq!(rejected_at(exchange(vec![put.clone(), changed.clone(), same_tag])), 5);
    // A weak tag may stay (semantically equivalent representations).
    let weak = (req(Method::Put, "a", "x"), resp(201, Some("W/\"1\""), ""));
    assert!(exchange(vec![weak, changed, (req(Method::Get, "a", ""), resp(200, Some("W/\"1\""), "y"))]).is_ok());
}

#[test]
fn a_weak_tag_may_become_strong_but_not_weak_again() {
    let put = (req(Method::Put, "a", "x"), resp(201, None, ""));
    let get = |etag: &str| (req(Method::Get, "a", ""), resp(200, Some(etag), "x"));
    assert!(exchange(vec![put.clone(), get("W/\"1\""), get("W/\"1\""), get("\"1\""), get("\"1\"")]).is_ok());
    assert_eq!(rejected_at(exchange(vec![put.clone(), get("\"1\""), get("W/\"1\"")])), 5);
    // While weak, a strong If-Match of its opaque tag fails.
    let strong = if_match(req(Method::Put, "a", "y"), &["\"1\""]);
    assert!(exchange(vec![put.clone(), get("W/\"1\""), (strong.clone(), resp(412, None, ""))]).is_ok());
    assert!(exchange(vec![put.clone(), get("W/\"1\""), (strong.clone(), resp(204, None, ""))]).is_ok());
    assert_eq!(rejected_at(exchange(vec![put, get("\"1\""), (strong, resp(412, None, ""))])), 5);
}

#[test]
fn if_match_is_strong_and_if_none_match_weak() {
    let put = || (req(Method::Put, "a", "x"), resp(201, Some("\"1\""), ""));
    let cases: [(HttpReq, u16); 8] = [
        (if_match(req(Method::Put, "a", "y"), &["\"1\""]), 204),
        (if_match(req(Method::Put, "a", "y"), &["W/\"1\""]), 412),
        (if_match(req(Method::Put, "a", "y"), &["\"0\"", "\"1\""]), 204),
        (if_match(req(Method::Put, "a", "y"), &["*"]), 204),
        (if_none_match(req(Method::Get, "a", ""), &["W/\"1\""]), 304),
        (if_none_match(req(Method::Put, "a", "y"), &["\"1\""]), 412),
        (if_none_match(req(Method::Put, "a", "y"), &["*"]), 412),
        (if_none_match(req(Method::Get, "a", ""), &["\"2\""]), 200),
    ];
    for (q, status) in cases {
        let body = if status == 200 { "x" } else { "" };
        let etag = if matches!(status, 200 | 304) { Some("\"1\"") } else { None };
        let ok = exchange(vec![put(), (q.clone(), resp(status, etag, body))]);
        assert!(ok.is_ok(), "{q:?} → {status}: {ok:?}");
        let wrong = if status == 412 { 204 } else { 412 };
        let bad = exchange(vec![put(), (q.clone(), resp(wrong, etag, body))]);
        assert_eq!(rejected_at(bad), 3, "{q:?} → {wrong} must be rejected");
    }
    // A missing resource: If-Match fails a PUT; preconditions do not
    // apply to a 404.
    assert!(exchange(vec![(if_match(req(Method::Put, "a", "y"), &["*"]), resp(412, None, ""))]).is_ok());
    assert!(exchange(vec![(if_match(req(Method::Delete, "a", ""), &["\"1\""]), resp(404, None, ""))]).is_ok());
    assert!(exchange(vec![(if_none_match(req(Method::Put, "a", "y"), &["*"]), resp(201, None, ""))]).is_ok());
}

#[test]
fn an_unknown_tag_is_learned_from_the_response() {
    // The PUT sent no tag: a conditional write may go either way, and the
    // way it went constrains the tag.
    let put = || (req(Method::Put, "a", "x"), resp(201, None, ""));
    let guess = if_match(req(Method::Put, "a", "y"), &["\"7\""]);
    assert!(exchange(vec![put(), (guess.clone(), resp(412, None, ""))]).is_ok());
    let taken = exchange(vec![
        put(),
        (guess, resp(204, None, "")),
        // The conditional write succeeded, so the old tag was "7": a GET
        // of the new body with tag "7" contradicts the changed body.
        (req(Method::Get, "a", ""), resp(200, Some("\"7\""), "y")),
    ]);
    assert_eq!(rejected_at(taken), 5);
}

#[test]
fn other_methods_are_refused() {
    for (m, status) in [(Method::Post, 405), (Method::Other("BREW".into()), 501), (Method::Post, 404)] {
        assert!(exchange(vec![(req(m, "a", "x"), resp(status, None, "no"))]).is_ok());
    }
    // POST has the resource's own semantics: answered when it exists.
    let put = (req(Method::Put, "a", "x"), resp(201, None, ""));
    assert!(exchange(vec![put.clone(), (req(Method::Post, "a", "y"), resp(200, None, "x"))]).is_ok());
    assert_eq!(rejected_at(exchange(vec![put, (req(Method::Post, "a", "y"), resp(404, None, ""))])), 3);
    let brew = || req(Method::Other("BREW".into()), "a", "x");
    assert_eq!(rejected_at(exchange(vec![(brew(), resp(200, None, ""))])), 1);
    assert_eq!(rejected_at(exchange(vec![(req(Method::Post, "a", "x"), resp(201, None, ""))])), 1);
}

#[test]
fn deletes() {
    let put = (req(Method::Put, "a", "x"), resp(201, Some("\"1\""), ""));
    let del = (req(Method::Delete, "a", ""), resp(204, None, ""));
    assert!(exchange(vec![put.clone(), del.clone(), (req(Method::Get, "a", ""), resp(404, None, "gone"))]).is_ok());
    let stays = (req(Method::Get, "a", ""), resp(200, Some("\"1\""), "x"));
    assert_eq!(rejected_at(exchange(vec![put, del, stays])), 5);
}
