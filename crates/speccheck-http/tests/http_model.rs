//! The HTTP/1.1 model on hand-written traces: what RFC 9110 allows is
//! accepted, what it forbids (a MUST) is rejected at the observation that
//! breaks it, and what it only recommends (a SHOULD) is rejected by a
//! strict validator alone, naming the clause.

use std::sync::Arc;

use speccheck_dual::dual::{Invalid, Limits, Observation, Validator, validate, validate_enforcing};
use speccheck_dual::rule::{Level, Rule};
use speccheck_dual::solver::Native;
use speccheck_http::{Condition, HttpModel, HttpReq, HttpResp, Method, rfc};

type Obs = Observation<HttpReq, HttpResp>;

fn req(method: Method, path: &str, body: &str) -> HttpReq {
    HttpReq::new(method, path, body)
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

/// A response (a 405 with the `Allow` it must carry).
fn resp(status: u16, etag: Option<&str>, body: &str) -> HttpResp {
    let headers = if status == 405 { vec![("Allow".to_string(), "GET, PUT".to_string())] } else { Vec::new() };
    HttpResp { status, reason: String::new(), etag: etag.map(str::to_string), headers, body: body.as_bytes().to_vec() }
}

fn with(mut r: HttpResp, name: &str, value: &str) -> HttpResp {
    r.headers.push((name.to_string(), value.to_string()));
    r
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

/// The same, enforcing every rule (SHOULDs too).
fn strictly(pairs: Vec<(HttpReq, HttpResp)>) -> Result<usize, Invalid> {
    let mut trace: Vec<Obs> = Vec::new();
    for (q, r) in pairs {
        trace.push(Observation::Sent(0, q));
        trace.push(Observation::Received(0, r));
    }
    validate_enforcing::<HttpModel, Native>(Arc::new(HttpModel), &trace, Limits::default(), Level::Should)
}

/// The rules a rejection names.
fn broken(r: Result<usize, Invalid>) -> Vec<Rule> {
    match r {
        Err(Invalid::Rejected(rej)) => rej.broken.iter().map(|b| b.rule).collect(),
        other => panic!("expected a rejection, got {other:?}"),
    }
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
        (if_none_match(req(Method::Head, "a", ""), &["W/\"1\""]), 304),
        (if_none_match(req(Method::Put, "a", "y"), &["\"1\""]), 412),
        (if_none_match(req(Method::Put, "a", "y"), &["*"]), 412),
        (if_none_match(req(Method::Get, "a", ""), &["\"2\""]), 200),
    ];
    for (q, status) in cases {
        let body = if status == 200 && q.method == Method::Get { "x" } else { "" };
        let etag = if matches!(status, 200 | 304) { Some("\"1\"") } else { None };
        let ok = exchange(vec![put(), (q.clone(), resp(status, etag, body))]);
        assert!(ok.is_ok(), "{q:?} → {status}: {ok:?}");
        let wrong = match status {
            412 => 204,
            304 => 200,
            _ => 412,
        };
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

#[test]
fn a_get_whose_if_none_match_is_true_is_not_performed_and_should_be_304() {
    let put = || (req(Method::Put, "a", "x"), resp(201, Some("\"1\""), ""));
    let get = || if_none_match(req(Method::Get, "a", ""), &["\"1\""]);
    assert!(exchange(vec![put(), (get(), resp(304, Some("\"1\""), ""))]).is_ok());
    // 412 is allowed (the method was not performed), but 304 is recommended.
    assert!(exchange(vec![put(), (get(), resp(412, None, ""))]).is_ok());
    assert_eq!(broken(strictly(vec![put(), (get(), resp(412, None, ""))])), vec![rfc::NOT_MODIFIED]);
    // Performing it is a MUST violation.
    let ignored = exchange(vec![put(), (get(), resp(200, Some("\"1\""), "x"))]);
    assert_eq!(broken(ignored), vec![rfc::IF_NONE_MATCH_READ]);
    // A 304 has no content.
    assert_eq!(broken(exchange(vec![put(), (get(), resp(304, Some("\"1\""), "x"))])), vec![rfc::NOT_MODIFIED_EMPTY]);
}

#[test]
fn an_etag_is_recommended_per_response_and_must_name_the_current_tag() {
    let put = || (req(Method::Put, "a", "x"), resp(201, Some("\"1\""), ""));
    let get = |etag: Option<&str>| (req(Method::Get, "a", ""), resp(200, etag, "x"));
    // A tag on PUT and none on GET: allowed, but not what RFC 9110 recommends.
    assert!(exchange(vec![put(), get(None), get(Some("\"1\""))]).is_ok());
    assert_eq!(broken(strictly(vec![put(), get(None)])), vec![rfc::ETAG_SENT]);
    // Another tag is a MUST violation, with or without a strict validator.
    assert_eq!(broken(exchange(vec![put(), get(Some("\"2\""))])), vec![rfc::ETAG_CURRENT]);
    // HEAD sends GET's header fields (a SHOULD) and no content (a MUST).
    let head = |etag: Option<&str>, body: &str| (req(Method::Head, "a", ""), resp(200, etag, body));
    assert!(exchange(vec![put(), head(None, "")]).is_ok());
    assert_eq!(broken(strictly(vec![put(), head(None, "")])), vec![rfc::HEAD_LIKE_GET]);
    assert_eq!(broken(exchange(vec![put(), head(Some("\"1\""), "x")])), vec![rfc::HEAD_NO_CONTENT]);
}

#[test]
fn a_head_content_length_is_the_length_get_would_send() {
    let put = (req(Method::Put, "a", "hello"), resp(201, None, ""));
    let head = |length: &str| (req(Method::Head, "a", ""), with(resp(200, None, ""), "Content-Length", length));
    assert!(exchange(vec![put.clone(), head("5")]).is_ok());
    assert_eq!(broken(exchange(vec![put, head("6")])), vec![rfc::HEAD_LENGTH]);
}

#[test]
fn an_unknown_method_may_get_any_refusal_and_should_get_501_or_405() {
    let brew = || req(Method::Other("BREW".into()), "a", "");
    for status in [400, 404, 405, 501] {
        assert!(exchange(vec![(brew(), resp(status, None, ""))]).is_ok(), "{status}");
    }
    assert_eq!(broken(strictly(vec![(brew(), resp(400, None, ""))])), vec![rfc::UNKNOWN_METHOD_501]);
    assert_eq!(broken(exchange(vec![(brew(), resp(200, None, ""))])), vec![rfc::UNKNOWN_METHOD]);
}

#[test]
fn a_delete_of_nothing_should_be_not_found() {
    let del = || req(Method::Delete, "a", "");
    assert!(exchange(vec![(del(), resp(204, None, ""))]).is_ok());
    assert_eq!(broken(strictly(vec![(del(), resp(204, None, ""))])), vec![rfc::DELETE_NOT_FOUND]);
    assert!(strictly(vec![(del(), resp(404, None, ""))]).is_ok());
}

/// A DELETE and a PUT in flight together, the DELETE answered 204, then a
/// GET that finds the PUT's content: the server deleted nothing first (204
/// where 404 is recommended) and then created. A strict validator drops
/// that order at the 204 (a SHOULD) and remembers why; the GET then breaks
/// a MUST for it alone, and the rejection after that SHOULD names it.
#[test]
fn the_should_that_ended_an_order_of_concurrent_requests_is_remembered() {
    let strict = || {
        Validator::<HttpModel, Native>::new(Arc::new(HttpModel), Limits::default())
            .expect("the model starts")
            .enforcing(Level::Should)
    };
    let mut v = strict();
    v.observe_send(0, req(Method::Delete, "a", "")).unwrap();
    v.observe_send(1, req(Method::Put, "a", "x")).unwrap();
    v.observe_recv(0, &resp(204, None, "")).unwrap();
    v.observe_recv(1, &resp(201, Some("\"1\""), "")).unwrap();
    let pruned: Vec<Rule> = v.pruned_by_shoulds().iter().map(|b| b.rule).collect();
    assert_eq!(pruned, vec![rfc::DELETE_NOT_FOUND]);
    v.observe_send(0, req(Method::Get, "a", "")).unwrap();
    let Err(Invalid::Rejected(r)) = v.observe_recv(0, &resp(200, Some("\"1\""), "x")) else {
        panic!("the strict validator rejects the GET")
    };
    assert_eq!(r.level(), Level::Must);
    let after = speccheck_dual::dual::Rejection { after_should: true, following: v.pruned_by_shoulds().to_vec(), ..*r };
    let id = after.identity();
    assert!(
        id.starts_with("after an earlier response that did not follow a SHOULD (DELETE: RFC 9110 §15.5.5 SHOULD"),
        "{id}"
    );
    // A validator enforcing MUSTs only keeps that order and accepts it all.
    let mut lax = Validator::<HttpModel, Native>::new(Arc::new(HttpModel), Limits::default()).unwrap();
    lax.observe_send(0, req(Method::Delete, "a", "")).unwrap();
    lax.observe_send(1, req(Method::Put, "a", "x")).unwrap();
    lax.observe_recv(0, &resp(204, None, "")).unwrap();
    lax.observe_recv(1, &resp(201, Some("\"1\""), "")).unwrap();
    lax.observe_send(0, req(Method::Get, "a", "")).unwrap();
    assert!(lax.observe_recv(0, &resp(200, Some("\"1\""), "x")).is_ok());
}

/// A strict validator that waives a SHOULD (one a failure already
/// reported breaks, while a search looks for others) goes on past it and
/// still rejects what breaks a MUST.
#[test]
fn a_waived_should_is_not_enforced_and_the_musts_still_are() {
    let waiving = |pairs: Vec<(HttpReq, HttpResp)>, waived: Vec<Rule>| {
        let mut v = Validator::<HttpModel, Native>::new(Arc::new(HttpModel), Limits::default())
            .expect("the model starts")
            .enforcing(Level::Should)
            .waiving(waived);
        for (q, r) in pairs {
            v.observe_send(0, q)?;
            v.observe_recv(0, &r)?;
        }
        Ok(v.live())
    };
    let del = (req(Method::Delete, "a", ""), resp(204, None, ""));
    let put = (req(Method::Put, "a", "x"), resp(201, None, ""));
    assert_eq!(rejected_at(waiving(vec![del.clone(), put.clone()], Vec::new())), 1);
    assert!(waiving(vec![del.clone(), put.clone()], vec![rfc::DELETE_NOT_FOUND]).is_ok());
    let wrong = (req(Method::Get, "a", ""), resp(200, None, "y"));
    let r = waiving(vec![del, put, wrong], vec![rfc::DELETE_NOT_FOUND]);
    assert_eq!(broken(r.clone()), vec![rfc::GET_TRANSFERS]);
    assert_eq!(rejected_at(r), 5);
}

#[test]
fn a_write_may_fail_without_effect_only_while_other_requests_are_in_flight() {
    let put = req(Method::Put, "a", "x");
    let get = req(Method::Get, "a", "");
    // Alone on the server, a PUT that creates answers 201.
    assert_eq!(broken(exchange(vec![(put.clone(), resp(423, None, ""))])), vec![rfc::PUT_CREATES]);
    // With a GET in flight on another connection, a lock or a conflict may
    // refuse it, and then nothing was written.
    let concurrent = |status: u16, then: HttpResp| {
        let trace: Vec<Obs> = vec![
            Observation::Sent(0, put.clone()),
            Observation::Sent(1, get.clone()),
            Observation::Received(0, resp(status, None, "")),
            Observation::Received(1, resp(404, None, "")),
            Observation::Sent(0, get.clone()),
            Observation::Received(0, then),
        ];
        validate::<HttpModel, Native>(Arc::new(HttpModel), &trace, Limits::default())
    };
    assert!(concurrent(423, resp(404, None, "")).is_ok());
    // A race lost and answered with an error that names no cause (Apache
    // answers 403 to one of two DELETEs of one resource).
    assert!(concurrent(403, resp(404, None, "")).is_ok());
    assert!(concurrent(201, resp(200, None, "x")).is_ok());
    let ghost = concurrent(423, resp(200, None, "x"));
    assert_eq!(rejected_at(ghost), 5, "a refused write changed nothing");
}

#[test]
fn content_the_server_does_not_take_is_refused_without_effect_and_alike_every_time() {
    let put = |body: &str| req(Method::Put, "a", body);
    let get = || req(Method::Get, "a", "");
    // 400, 413 and 415 refuse the content; nothing was stored.
    for status in [400, 413, 415] {
        assert!(exchange(vec![(put("x"), resp(status, None, "")), (get(), resp(404, None, ""))]).is_ok(), "{status}");
        let ghost = exchange(vec![(put("x"), resp(status, None, "")), (get(), resp(200, None, "x"))]);
        assert_eq!(rejected_at(ghost), 3, "a refused write changed nothing ({status})");
    }
    // Before the preconditions: a false If-Match does not oblige a 412.
    let conditional = if_match(put("x"), &["\"nope\""]);
    assert!(exchange(vec![(conditional, resp(415, None, ""))]).is_ok());
    // Other content may be taken.
    let both = vec![(put("x"), resp(415, None, "")), (put("y"), resp(201, None, "")), (get(), resp(200, None, "y"))];
    assert!(exchange(both).is_ok());
    // The same content at the same place gets the same answer: taken once,
    // it is not refused later (nor the other way round).
    let taken_then_refused = vec![(put("x"), resp(201, None, "")), (put("x"), resp(415, None, ""))];
    assert_eq!(broken(exchange(taken_then_refused)), vec![rfc::PUT_REPLACES]);
    let refused_then_taken = vec![(put("x"), resp(415, None, "")), (put("x"), resp(201, None, ""))];
    assert_eq!(rejected_at(exchange(refused_then_taken)), 3);
    // Any other failure status is still a deviation, named by the write's rule.
    assert_eq!(broken(exchange(vec![(put("x"), resp(500, None, ""))])), vec![rfc::PUT_CREATES]);
}

#[test]
fn a_rejection_is_named_by_the_rules_it_breaks() {
    let put = || (req(Method::Put, "a", "x"), resp(201, None, ""));
    let overwrite = exchange(vec![put(), (req(Method::Put, "a", "y"), resp(201, None, ""))]);
    match overwrite {
        Err(Invalid::Rejected(r)) => {
            assert_eq!(r.level(), Level::Must);
            let id = r.identity();
            assert!(id.starts_with("PUT: RFC 9110 §9.3.4 MUST"), "{id}");
            assert!(r.to_string().contains("breaks: PUT: RFC 9110 §9.3.4"), "{r}");
        }
        other => panic!("expected a rejection, got {other:?}"),
    }
}

/// A conditional request whose preconditions held and whose response is
/// still wrong breaks the method's own rule, unless the response says the
/// preconditions were false (304, 412): one deviation, one name, with or
/// without a condition on the request.
#[test]
fn a_wrong_answer_to_a_request_whose_preconditions_held_is_named_by_what_it_got_wrong() {
    let put = || (req(Method::Put, "a", "x"), resp(201, Some("\"1\""), ""));
    let matching = || if_match(req(Method::Put, "a", "y"), &["\"1\""]);
    let created = exchange(vec![put(), (matching(), resp(201, None, ""))]);
    assert_eq!(broken(created), vec![rfc::PUT_REPLACES]);
    let refused = exchange(vec![put(), (matching(), resp(412, None, ""))]);
    assert_eq!(broken(refused), vec![rfc::PRECONDITIONS_HOLD]);
    let none_match = || if_none_match(req(Method::Get, "a", ""), &["\"2\""]);
    let not_modified = exchange(vec![put(), (none_match(), resp(304, None, ""))]);
    assert_eq!(broken(not_modified), vec![rfc::PRECONDITIONS_HOLD]);
    let lost = exchange(vec![put(), (none_match(), resp(404, None, ""))]);
    assert_eq!(broken(lost), vec![rfc::GET_TRANSFERS]);
    let del = HttpReq { if_match: Some(cond(&["\"1\""])), ..req(Method::Delete, "a", "") };
    assert_eq!(broken(exchange(vec![put(), (del, resp(201, None, ""))])), vec![rfc::DELETE_DONE]);
}

#[test]
fn a_405_names_the_allowed_methods_and_options_is_optional() {
    let mut bare = resp(405, None, "");
    bare.headers.clear();
    assert_eq!(broken(exchange(vec![(req(Method::Post, "a", "x"), bare)])), vec![rfc::ALLOW_ON_405]);
    for status in [200, 204, 405, 501] {
        assert!(exchange(vec![(req(Method::Options, "a", ""), resp(status, None, ""))]).is_ok(), "{status}");
    }
    assert_eq!(
        broken(exchange(vec![(req(Method::Options, "a", ""), resp(201, None, ""))])),
        vec![rfc::OPTIONS_ANSWERED]
    );
}

const T0: &str = "Sat, 28 Nov 2026 10:00:00 GMT";
const T1: &str = "Sat, 28 Nov 2026 10:00:01 GMT";
const BEFORE: &str = "Sat, 28 Nov 2026 09:59:59 GMT";

fn dated_put() -> (HttpReq, HttpResp) {
    (req(Method::Put, "a", "hello"), resp(201, None, ""))
}

fn dated_get() -> (HttpReq, HttpResp) {
    (req(Method::Get, "a", ""), with(resp(200, None, "hello"), "Last-Modified", T0))
}

#[test]
fn last_modified_names_the_date_and_should_be_sent() {
    assert!(exchange(vec![dated_put(), dated_get(), dated_get()]).is_ok());
    let moved = (req(Method::Get, "a", ""), with(resp(200, None, "hello"), "Last-Modified", T1));
    assert_eq!(broken(exchange(vec![dated_put(), dated_get(), moved])), vec![rfc::LAST_MODIFIED_CURRENT]);
    let undated = (req(Method::Get, "a", ""), resp(200, None, "hello"));
    assert!(exchange(vec![dated_put(), dated_get(), undated.clone()]).is_ok());
    assert_eq!(broken(strictly(vec![dated_put(), dated_get(), undated])), vec![rfc::LAST_MODIFIED_SENT]);
    let future = with(with(resp(200, None, "hello"), "Last-Modified", T1), "Date", T0);
    assert_eq!(broken(exchange(vec![dated_put(), (req(Method::Get, "a", ""), future)])), vec![rfc::LAST_MODIFIED_PAST]);
}

#[test]
fn if_unmodified_since_is_a_must_and_if_modified_since_a_should() {
    let ius = |date: &str| HttpReq { if_unmodified_since: Some(date.into()), ..req(Method::Put, "a", "x") };
    // Modified after the date: not performed.
    assert!(exchange(vec![dated_put(), dated_get(), (ius(BEFORE), resp(412, None, ""))]).is_ok());
    let done = exchange(vec![dated_put(), dated_get(), (ius(BEFORE), resp(204, None, ""))]);
    assert_eq!(broken(done), vec![rfc::IF_UNMODIFIED_SINCE_FALSE]);
    assert!(exchange(vec![dated_put(), dated_get(), (ius(T0), resp(204, None, ""))]).is_ok());
    // A server with no date for it ignores the condition.
    assert!(exchange(vec![dated_put(), (ius(BEFORE), resp(204, None, ""))]).is_ok());
    let ims = |date: &str| HttpReq { if_modified_since: Some(date.into()), ..req(Method::Get, "a", "") };
    // Not modified since: 304 recommended, 200 allowed.
    let not_modified = with(resp(304, None, ""), "Last-Modified", T0);
    assert!(exchange(vec![dated_put(), dated_get(), (ims(T0), not_modified.clone())]).is_ok());
    let full = with(resp(200, None, "hello"), "Last-Modified", T0);
    assert!(exchange(vec![dated_put(), dated_get(), (ims(T1), full.clone())]).is_ok());
    assert_eq!(broken(strictly(vec![dated_put(), dated_get(), (ims(T1), full)])), vec![rfc::NOT_MODIFIED_SINCE]);
    // Modified since: performed; a 304 would say otherwise.
    let lie = exchange(vec![dated_put(), dated_get(), (ims(BEFORE), not_modified)]);
    assert_eq!(broken(lie), vec![rfc::PRECONDITIONS_HOLD]);
}

#[test]
fn ranges_are_sent_or_ignored_never_wrong() {
    use speccheck_http::message::ByteRange;
    let put = (req(Method::Put, "a", "hello"), resp(201, Some("\"1\""), ""));
    let ranged = |r: ByteRange| HttpReq { range: Some(r), ..req(Method::Get, "a", "") };
    let part = |range: &str, body: &str| with(resp(206, Some("\"1\""), body), "Content-Range", range);
    assert!(exchange(vec![put.clone(), (ranged(ByteRange::From(1, Some(2))), part("bytes 1-2/5", "el"))]).is_ok());
    assert!(exchange(vec![put.clone(), (ranged(ByteRange::Suffix(2)), part("bytes 3-4/5", "lo"))]).is_ok());
    assert!(exchange(vec![put.clone(), (ranged(ByteRange::From(3, None)), part("bytes 3-4/5", "lo"))]).is_ok());
    // Ignoring the Range is allowed.
    let whole = resp(200, Some("\"1\""), "hello");
    assert!(exchange(vec![put.clone(), (ranged(ByteRange::From(1, Some(2))), whole.clone())]).is_ok());
    // The wrong bytes, or the wrong Content-Range, are not.
    let off = exchange(vec![put.clone(), (ranged(ByteRange::From(1, Some(2))), part("bytes 1-2/5", "ell"))]);
    assert_eq!(broken(off), vec![rfc::RANGE_PART]);
    let said = exchange(vec![put.clone(), (ranged(ByteRange::From(1, Some(2))), part("bytes 1-3/5", "el"))]);
    assert_eq!(broken(said), vec![rfc::RANGE_PART]);
    // Beyond the end: 416, or the whole representation.
    assert!(exchange(vec![put.clone(), (ranged(ByteRange::From(9, None)), resp(416, None, ""))]).is_ok());
    let no = exchange(vec![put.clone(), (ranged(ByteRange::From(1, Some(2))), resp(416, None, ""))]);
    assert_eq!(broken(no), vec![rfc::RANGE_STATUS]);
    // A false If-Range: the Range is ignored.
    let if_range = HttpReq { if_range: Some("\"2\"".into()), ..ranged(ByteRange::From(1, Some(2))) };
    assert!(exchange(vec![put.clone(), (if_range.clone(), whole)]).is_ok());
    let applied = exchange(vec![put.clone(), (if_range, part("bytes 1-2/5", "el"))]);
    assert_eq!(broken(applied), vec![rfc::IF_RANGE_FALSE]);
    // HEAD ignores Range.
    let head = HttpReq { range: Some(ByteRange::From(1, Some(2))), ..req(Method::Head, "a", "") };
    assert!(exchange(vec![put.clone(), (head.clone(), resp(200, Some("\"1\""), ""))]).is_ok());
    assert!(exchange(vec![put, (head, part("bytes 1-2/5", ""))]).is_err());
}

/// A GET without the tag, then one with it: under every rule the first
/// says the server issues no tag for the representation, so the second
/// breaks a MUST; under MUSTs only both are fine (the tag is a SHOULD per
/// response). A strict run, which has both validators, marks such a
/// rejection as following from an earlier SHOULD (`after_should`): SHOULD
/// level, named so, and told apart from the same rules broken outright.
#[test]
fn a_must_broken_only_under_an_earlier_should_follows_from_that_should() {
    let trace = || {
        vec![
            (req(Method::Put, "a", "x"), resp(201, None, "")),
            (req(Method::Get, "a", ""), resp(200, None, "x")),
            (req(Method::Get, "a", ""), resp(200, Some("\"1\""), "x")),
        ]
    };
    assert!(exchange(trace()).is_ok());
    let Err(Invalid::Rejected(plain)) = strictly(trace()) else { panic!("the strict validator rejects it") };
    assert_eq!(plain.broken.iter().map(|b| b.rule).collect::<Vec<_>>(), vec![rfc::ETAG_CURRENT]);
    assert_eq!(plain.level(), Level::Must);
    let after = speccheck_dual::dual::Rejection { after_should: true, ..(*plain).clone() };
    assert_eq!(after.level(), Level::Should);
    let id = after.identity();
    assert!(
        id.starts_with("after an earlier response that did not follow a SHOULD: GET: RFC 9110 §8.8.3 MUST"),
        "{id}"
    );
    assert!(after.is_within(&after) && plain.is_within(&plain));
    assert!(!after.is_within(&plain) && !plain.is_within(&after));
}
