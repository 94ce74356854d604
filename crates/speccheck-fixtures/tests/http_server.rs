//! The bundled HTTP server, driven through its `Service` interface (no
//! network): the reference does what the contract says, each mutant
//! differs from it observably, and mutant names round-trip.

use speccheck::dual::exec::inproc::Service;
use speccheck::dual::model::Conn;
use speccheck_fixtures::http::{HttpBug, HttpServer};

/// A response as the tests read it.
#[derive(Debug)]
struct Reply {
    status: u16,
    /// Header lines, names in lower case.
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.as_str() == name).map(|(_, v)| v.as_str())
    }

    fn etag(&self) -> String {
        self.header("etag").unwrap_or_else(|| panic!("no ETag in {self:?}")).to_string()
    }
}

/// Parses one response off the front of `bytes`; `head`: it answers a
/// `HEAD`, so it has no body. Returns the response and the bytes it took.
fn parse_reply(bytes: &[u8], head: bool) -> (Reply, usize) {
    let mut headers = [httparse::EMPTY_HEADER; 16];
    let mut response = httparse::Response::new(&mut headers);
    let head_len = match response.parse(bytes).expect("a well-formed response") {
        httparse::Status::Complete(n) => n,
        httparse::Status::Partial => panic!("an incomplete response: {:?}", String::from_utf8_lossy(bytes)),
    };
    let status = response.code.expect("a status code");
    let headers: Vec<(String, String)> = response
        .headers
        .iter()
        .map(|h| (h.name.to_ascii_lowercase(), String::from_utf8_lossy(h.value).into_owned()))
        .collect();
    let reply = Reply { status, headers, body: Vec::new() };
    let body_len = if head || status == 204 || status == 304 {
        0
    } else {
        reply.header("content-length").expect("a Content-Length").parse::<usize>().expect("a number")
    };
    let end = head_len + body_len;
    assert!(bytes.len() >= end, "a truncated body: {:?}", String::from_utf8_lossy(bytes));
    (Reply { body: bytes[head_len..end].to_vec(), ..reply }, end)
}

/// Parses exactly one response per entry of `heads` out of `bytes`.
fn parse_replies(mut bytes: &[u8], heads: &[bool]) -> Vec<Reply> {
    let mut replies = Vec::new();
    for &head in heads {
        let (reply, used) = parse_reply(bytes, head);
        replies.push(reply);
        bytes = &bytes[used..];
    }
    assert!(bytes.is_empty(), "bytes after the responses: {:?}", String::from_utf8_lossy(bytes));
    replies
}

/// Everything the server sends on one poll.
fn poll(server: &mut HttpServer) -> Vec<(Conn, Vec<u8>)> {
    let mut out = Vec::new();
    server.poll(&mut out);
    out
}

/// Sends `requests` on `conn` in one piece, polls once, and reads one
/// response per request (all on `conn`).
fn exchange(server: &mut HttpServer, conn: Conn, requests: &[String]) -> Vec<Reply> {
    server.receive(conn, requests.concat().as_bytes());
    let out = poll(server);
    assert!(out.iter().all(|(c, _)| *c == conn), "a response on another connection");
    let bytes: Vec<u8> = out.into_iter().flat_map(|(_, b)| b).collect();
    let heads: Vec<bool> = requests.iter().map(|r| r.starts_with("HEAD ")).collect();
    parse_replies(&bytes, &heads)
}

/// One request, one response.
fn one(server: &mut HttpServer, conn: Conn, request: String) -> Reply {
    exchange(server, conn, &[request]).pop().expect("one response")
}

/// A request with the given header lines and body (`PUT` always declares
/// its `Content-Length`).
fn request(method: &str, target: &str, headers: &[(&str, &str)], body: &str) -> String {
    let mut text = format!("{method} {target} HTTP/1.1\r\nHost: test\r\n");
    for (name, value) in headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    if method == "PUT" || !body.is_empty() {
        text.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    text.push_str("\r\n");
    text.push_str(body);
    text
}

fn get(target: &str) -> String {
    request("GET", target, &[], "")
}

fn head(target: &str) -> String {
    request("HEAD", target, &[], "")
}

fn put(target: &str, body: &str) -> String {
    request("PUT", target, &[], body)
}

fn delete(target: &str) -> String {
    request("DELETE", target, &[], "")
}

fn reference() -> HttpServer {
    HttpServer::new(None, 7)
}

fn mutant(bug: HttpBug) -> HttpServer {
    HttpServer::new(Some(bug), 7)
}

/// A `PUT` with `If-Match: <tags>`.
fn put_if_match(target: &str, tags: &str, body: &str) -> String {
    request("PUT", target, &[("If-Match", tags)], body)
}

/// `W/"n"` for `"n"`.
fn weak(tag: &str) -> String {
    format!("W/{tag}")
}

#[test]
fn put_creates_and_get_and_head_read_it_back() {
    let mut s = reference();
    let created = one(&mut s, 0, put("/sc-a", "hello"));
    assert_eq!(created.status, 201);
    assert_eq!(created.header("content-length"), Some("0"));
    let tag = created.etag();
    assert!(tag.len() > 2 && tag.starts_with('"') && tag.ends_with('"'), "{tag}");

    let got = one(&mut s, 0, get("/sc-a"));
    assert_eq!(got.status, 200);
    assert_eq!(got.body, b"hello");
    assert_eq!(got.etag(), tag);

    // `exchange` checks that nothing follows the HEAD response's head.
    let headed = one(&mut s, 0, head("/sc-a"));
    assert_eq!(headed.status, 200);
    assert!(headed.body.is_empty());
    assert_eq!(headed.header("content-length"), Some("5"));
    assert_eq!(headed.etag(), tag);
}

#[test]
fn missing_paths_are_404_for_get_head_and_delete() {
    let mut s = reference();
    assert_eq!(one(&mut s, 0, get("/nothing")).status, 404);
    let headed = one(&mut s, 0, head("/nothing"));
    assert_eq!(headed.status, 404);
    assert!(headed.body.is_empty());
    assert_eq!(one(&mut s, 0, delete("/nothing")).status, 404);
}

#[test]
fn overwrite_is_204_with_a_new_tag() {
    let mut s = reference();
    let first = one(&mut s, 0, put("/p", "one")).etag();
    let again = one(&mut s, 0, put("/p", "two"));
    assert_eq!(again.status, 204);
    assert_eq!(again.header("content-length"), None);
    assert!(again.body.is_empty());
    assert_ne!(again.etag(), first);
    let got = one(&mut s, 0, get("/p"));
    assert_eq!(got.body, b"two");
    assert_eq!(got.etag(), again.etag());
}

#[test]
fn tags_are_never_reissued_and_depend_on_the_seed() {
    let mut s = reference();
    let mut tags: Vec<String> = (0..6).map(|i| one(&mut s, 0, put(&format!("/t{}", i % 2), "v")).etag()).collect();
    tags.extend((0..2).map(|i| one(&mut s, 1, put(&format!("/t{i}"), "w")).etag()));
    let mut distinct = tags.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), tags.len(), "{tags:?}");

    let first = |seed| one(&mut HttpServer::new(None, seed), 0, put("/x", "v")).etag();
    assert_ne!(first(1), first(2));
}

#[test]
fn if_match_lets_the_current_tag_write_and_refuses_a_stale_one() {
    let mut s = reference();
    let old = one(&mut s, 0, put("/p", "one")).etag();
    let current = one(&mut s, 0, put("/p", "two")).etag();

    let stale = one(&mut s, 0, request("PUT", "/p", &[("If-Match", old.as_str())], "stale"));
    assert_eq!(stale.status, 412);
    assert_eq!(one(&mut s, 0, get("/p")).body, b"two", "a failed precondition writes nothing");

    // A weak tag never matches strongly.
    let weakly = one(&mut s, 0, request("PUT", "/p", &[("If-Match", weak(&current).as_str())], "weak"));
    assert_eq!(weakly.status, 412);

    let ok = one(&mut s, 0, request("PUT", "/p", &[("If-Match", current.as_str())], "three"));
    assert_eq!(ok.status, 204);
    assert_ne!(ok.etag(), current);
    assert_eq!(one(&mut s, 0, get("/p")).body, b"three");

    // `*` needs the resource to exist.
    assert_eq!(one(&mut s, 0, request("PUT", "/p", &[("If-Match", "*")], "four")).status, 204);
    assert_eq!(one(&mut s, 0, request("PUT", "/new", &[("If-Match", "*")], "x")).status, 412);
    assert_eq!(one(&mut s, 0, get("/new")).status, 404);
}

#[test]
fn tag_lists_and_repeated_header_lines_are_one_list() {
    let mut s = reference();
    let tag = one(&mut s, 0, put("/p", "one")).etag();
    let list = format!("\"nope\" ,{tag}");
    assert_eq!(one(&mut s, 0, request("GET", "/p", &[("If-Match", list.as_str())], "")).status, 200);
    let lines = [("If-Match", "\"nope\""), ("If-Match", tag.as_str())];
    assert_eq!(one(&mut s, 0, request("GET", "/p", &lines, "")).status, 200);
    assert_eq!(one(&mut s, 0, request("GET", "/p", &[("If-Match", "\"a\", \"b\"")], "")).status, 412);
    let weak_list = format!("\"nope\", {}", weak(&tag));
    assert_eq!(one(&mut s, 0, request("GET", "/p", &[("If-None-Match", weak_list.as_str())], "")).status, 304);
}

#[test]
fn if_none_match_with_the_weak_current_tag_is_304_on_get() {
    let mut s = reference();
    let tag = one(&mut s, 0, put("/p", "body")).etag();
    let not_modified = one(&mut s, 0, request("GET", "/p", &[("If-None-Match", weak(&tag).as_str())], ""));
    assert_eq!(not_modified.status, 304);
    assert_eq!(not_modified.etag(), tag);
    assert!(not_modified.body.is_empty());
    assert_eq!(not_modified.header("content-length"), None);

    let headed = one(&mut s, 0, request("HEAD", "/p", &[("If-None-Match", tag.as_str())], ""));
    assert_eq!(headed.status, 304);

    let other = one(&mut s, 0, request("GET", "/p", &[("If-None-Match", "\"other\"")], ""));
    assert_eq!(other.status, 200);
    assert_eq!(other.body, b"body");

    // On a write, a false If-None-Match is 412.
    let put_list = one(&mut s, 0, request("PUT", "/p", &[("If-None-Match", tag.as_str())], "x"));
    assert_eq!(put_list.status, 412);
}

#[test]
fn if_none_match_star_creates_only() {
    let mut s = reference();
    let created = one(&mut s, 0, request("PUT", "/p", &[("If-None-Match", "*")], "first"));
    assert_eq!(created.status, 201);
    let refused = one(&mut s, 0, request("PUT", "/p", &[("If-None-Match", "*")], "second"));
    assert_eq!(refused.status, 412);
    assert_eq!(one(&mut s, 0, get("/p")).body, b"first");
}

#[test]
fn delete_removes() {
    let mut s = reference();
    let tag = one(&mut s, 0, put("/p", "x")).etag();
    assert_eq!(one(&mut s, 0, request("DELETE", "/p", &[("If-Match", "\"stale\"")], "")).status, 412);
    let deleted = one(&mut s, 0, request("DELETE", "/p", &[("If-Match", tag.as_str())], ""));
    assert_eq!(deleted.status, 204);
    assert_eq!(one(&mut s, 0, get("/p")).status, 404);
    assert_eq!(one(&mut s, 0, delete("/p")).status, 404);
}

#[test]
fn post_is_405_and_other_methods_501() {
    let mut s = reference();
    one(&mut s, 0, put("/p", "x"));
    let post = one(&mut s, 0, request("POST", "/p", &[("If-Match", "\"no\"")], "data"));
    assert_eq!(post.status, 405);
    assert_eq!(post.header("allow"), Some("GET, HEAD, PUT, DELETE, OPTIONS"));
    assert_eq!(one(&mut s, 0, request("FOO", "/p", &[], "")).status, 501);
    assert_eq!(one(&mut s, 0, get("/p")).body, b"x");
}

#[test]
fn pipelined_requests_are_answered_in_order() {
    let mut s = reference();
    let requests = [put("/p", "1"), get("/p"), head("/p"), put("/p", "22"), get("/p"), delete("/p"), get("/p")];
    let replies = exchange(&mut s, 0, &requests);
    let statuses: Vec<u16> = replies.iter().map(|r| r.status).collect();
    assert_eq!(statuses, [201, 200, 200, 204, 200, 204, 404]);
    assert_eq!(replies[1].body, b"1");
    assert_eq!(replies[2].header("content-length"), Some("1"));
    assert_eq!(replies[4].body, b"22");
}

#[test]
fn a_request_split_across_receives_waits_for_its_end() {
    let mut s = reference();
    let whole = put("/p", "split body");
    let (a, b) = whole.split_at(whole.len() - 3);
    s.receive(0, a.as_bytes());
    assert!(poll(&mut s).is_empty());
    s.receive(0, b.as_bytes());
    let out = poll(&mut s);
    assert_eq!(out.len(), 1);
    assert_eq!(parse_replies(&out[0].1, &[false])[0].status, 201);
    assert_eq!(one(&mut s, 0, get("/p")).body, b"split body");
}

#[test]
fn two_connections_are_served_in_arrival_order() {
    let mut s = reference();
    let from_0 = put("/p", "from 0");
    let (a, b) = from_0.split_at(10);
    s.receive(0, a.as_bytes());
    s.receive(1, put("/p", "from 1").as_bytes());
    s.receive(0, b.as_bytes());
    let out = poll(&mut s);
    let conns: Vec<Conn> = out.iter().map(|(c, _)| *c).collect();
    assert_eq!(conns, [1, 0], "connection 1's request was whole first");
    assert_eq!(parse_replies(&out[0].1, &[false])[0].status, 201);
    assert_eq!(parse_replies(&out[1].1, &[false])[0].status, 204);
    assert_eq!(one(&mut s, 1, get("/p")).body, b"from 0");
    assert_eq!(one(&mut s, 0, get("/p")).body, b"from 0");
}

#[test]
fn a_malformed_request_is_400_and_ends_reading_the_connection() {
    let mut s = reference();
    s.receive(0, b"GET /p HTTX/1.1\r\n\r\n");
    let out = poll(&mut s);
    assert_eq!(out.len(), 1);
    assert_eq!(parse_replies(&out[0].1, &[false])[0].status, 400);
    s.receive(0, put("/p", "x").as_bytes());
    assert!(poll(&mut s).is_empty(), "the connection is no longer read");
    // Other connections are unaffected.
    assert_eq!(one(&mut s, 1, get("/p")).status, 404);
}

#[test]
fn bad_framing_is_refused() {
    let mut s = reference();
    assert_eq!(one(&mut s, 0, "PUT /p HTTP/1.1\r\nContent-Length: x\r\n\r\n".to_string()).status, 400);
    let chunked = "PUT /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n".to_string();
    assert_eq!(one(&mut s, 1, chunked).status, 501);
    let huge = format!("PUT /p HTTP/1.1\r\nContent-Length: {}\r\n\r\n", (1 << 20) + 1);
    assert_eq!(one(&mut s, 2, huge).status, 400);
}

// The mutants.

#[test]
fn get_empty_body_mutant_loses_the_body() {
    for (server, body) in [(reference(), &b"hello"[..]), (mutant(HttpBug::GetEmptyBody), &b""[..])] {
        let mut s = server;
        one(&mut s, 0, put("/p", "hello"));
        let got = one(&mut s, 0, get("/p"));
        assert_eq!(got.status, 200);
        assert_eq!(got.body, body);
    }
}

#[test]
fn weak_if_match_mutant_accepts_a_weak_tag() {
    for (server, status) in [(reference(), 412), (mutant(HttpBug::WeakIfMatch), 204)] {
        let mut s = server;
        let tag = one(&mut s, 0, put("/p", "one")).etag();
        assert_eq!(one(&mut s, 0, request("PUT", "/p", &[("If-Match", weak(&tag).as_str())], "two")).status, status);
    }
}

#[test]
fn pipeline_hang_mutant_answers_only_the_first_of_several() {
    let mut s = reference();
    one(&mut s, 0, put("/p", "x"));
    assert_eq!(exchange(&mut s, 0, &[get("/p"), get("/p")]).len(), 2);

    let mut m = mutant(HttpBug::PipelineHang);
    one(&mut m, 0, put("/p", "x"));
    assert_eq!(one(&mut m, 0, get("/p")).status, 200, "one at a time is fine");
    m.receive(0, format!("{}{}", get("/p"), get("/p")).as_bytes());
    let out = poll(&mut m);
    assert_eq!(out.len(), 1);
    assert_eq!(parse_replies(&out[0].1, &[false])[0].status, 200);
    m.receive(0, get("/p").as_bytes());
    assert!(poll(&mut m).is_empty(), "the connection hangs");
    assert_eq!(one(&mut m, 1, get("/p")).status, 200, "other connections still work");
}

#[test]
fn per_connection_cache_mutant_reads_its_own_stale_write() {
    for (server, seen) in [(reference(), &b"from 1"[..]), (mutant(HttpBug::PerConnectionCache), &b"from 0"[..])] {
        let mut s = server;
        one(&mut s, 0, put("/p", "from 0"));
        one(&mut s, 1, put("/p", "from 1"));
        assert_eq!(one(&mut s, 0, get("/p")).body, seen);
        assert_eq!(one(&mut s, 1, get("/p")).body, b"from 1");
    }
}

#[test]
fn etag_kept_mutant_reuses_the_tag_on_overwrite() {
    for (server, same) in [(reference(), false), (mutant(HttpBug::EtagKeptOnOverwrite), true)] {
        let mut s = server;
        let first = one(&mut s, 0, put("/p", "one")).etag();
        let second = one(&mut s, 0, put("/p", "two"));
        assert_eq!(second.status, 204);
        assert_eq!(second.etag() == first, same);
        assert_eq!(one(&mut s, 0, get("/p")).body, b"two");
    }
}

#[test]
fn put_previous_path_mutant_stores_elsewhere() {
    let mut m = mutant(HttpBug::PutPreviousPath);
    assert_eq!(one(&mut m, 0, get("/q")).status, 404);
    assert_eq!(one(&mut m, 0, put("/p", "x")).status, 201);
    assert_eq!(one(&mut m, 0, get("/p")).status, 404);
    assert_eq!(one(&mut m, 0, get("/q")).body, b"x");
}

/// Drives a server through one fixed script over two connections, taking
/// tags from earlier responses; returns every response, as sent.
struct Script {
    server: HttpServer,
    transcript: Vec<(Conn, Vec<u8>)>,
}

impl Script {
    /// Sends `raw` on `conn`, polls, and returns the first response's `ETag`
    /// (empty if there is none).
    fn send(&mut self, conn: Conn, raw: &str) -> String {
        self.server.receive(conn, raw.as_bytes());
        let out = poll(&mut self.server);
        let tag = out.first().and_then(|(_, bytes)| etag_of(bytes)).unwrap_or_default();
        self.transcript.extend(out);
        tag
    }
}

/// The `ETag` of the response at the start of `bytes`, if it has one.
fn etag_of(bytes: &[u8]) -> Option<String> {
    let mut headers = [httparse::EMPTY_HEADER; 16];
    let mut response = httparse::Response::new(&mut headers);
    if !response.parse(bytes).ok()?.is_complete() {
        return None;
    }
    response
        .headers
        .iter()
        .find(|h| h.name.eq_ignore_ascii_case("etag"))
        .map(|h| String::from_utf8_lossy(h.value).into_owned())
}

/// One script on which every mutant answers differently from the reference
/// (the comment on each step names the mutants it shows).
fn script(bug: Option<HttpBug>) -> Vec<(Conn, Vec<u8>)> {
    let mut s = Script { server: HttpServer::new(bug, 11), transcript: Vec::new() };
    let e1 = s.send(0, &put("/a", "hello")); // create-200
    s.send(0, &get("/a")); // put-skips-write, get-empty-body, store-*, get-no-etag, content-length-off-by-one
    s.send(0, &head("/a")); // head-sends-body
    s.send(0, &get("/b")); // get-missing-200
    s.send(0, &put("/c", "x"));
    s.send(0, &get("/c")); // put-previous-path
    let e3 = s.send(0, &put("/a", "world")); // put-update-early-return, etag-kept-on-overwrite
    s.send(0, &get("/a"));
    s.send(0, &put_if_match("/a", &e1, "stale")); // put-ignores-if-match
    s.send(0, &put_if_match("/a", &weak(&e3), "weak")); // weak-if-match
    s.send(0, &request("GET", "/a", &[("If-Match", e3.as_str())], "")); // get-if-match-success-412
    s.send(0, &request("GET", "/a", &[("If-Match", e1.as_str())], "")); // get-if-match-failure-200
    // strong-if-none-match, get-if-none-match-failure-200, if-none-match-inverted
    s.send(0, &request("GET", "/a", &[("If-None-Match", weak(&e3).as_str())], ""));
    s.send(0, &put_if_match("/d", "*", "new")); // if-match-star-missing
    s.send(0, &request("PUT", "/a", &[("If-None-Match", "*")], "again")); // put-ignores-if-none-match-star
    s.send(0, &put_if_match("/a", &format!("{e1}, {e3}"), "v2")); // tag-list-first-only
    s.send(0, &delete("/c")); // delete-as-get
    s.send(0, &get("/c")); // delete-keeps-resource
    s.send(0, &delete("/c")); // delete-missing-204
    s.send(0, &format!("{}{}", get("/a"), get("/b"))); // pipeline-hang
    s.send(1, &put("/a", "other"));
    s.send(0, &get("/a")); // per-connection-cache
    s.send(0, &request("POST", "/a", &[], "")); // no-allow-on-405
    s.send(0, &request("FOO", "/a", &[], ""));
    let long_ago = "Sun, 06 Nov 1994 08:49:37 GMT";
    s.send(0, &request("PUT", "/a", &[("If-Unmodified-Since", long_ago)], "late")); // put-ignores-if-unmodified-since
    s.send(0, &request("GET", "/a", &[("If-Modified-Since", long_ago)], "")); // if-modified-since-inverted
    s.send(0, &request("GET", "/a", &[("Range", "bytes=0-0")], "")); // range-one-byte-more
    s.send(0, &request("GET", "/a", &[("Range", "bytes=0-0"), ("If-Range", "\"nomatch\"")], "")); // if-range-ignored
    s.send(0, &request("GET", "/a", &[("Range", "bytes=9-")], ""));
    s.send(0, &request("OPTIONS", "/a", &[], ""));
    s.transcript
}

#[test]
fn the_reference_follows_the_script() {
    let transcript = script(None);
    let heads = [false, false, true];
    let statuses: Vec<u16> = transcript
        .iter()
        .enumerate()
        .map(|(i, (_, bytes))| parse_replies(bytes, &[heads.get(i).copied().unwrap_or(false)])[0].status)
        .collect();
    let expected: [u16; 31] = [
        201, 200, 200, 404, 201, 200, 204, 200, 412, 412, 200, 412, 304, 412, 412, 204, 204, 404, 404, 200, 404, 204,
        200, 405, 501, 412, 200, 206, 200, 416, 200,
    ];
    assert_eq!(statuses, expected);
    assert_eq!(transcript[21].0, 1);
    assert!(transcript[22].1.ends_with(b"other"));
    let part = String::from_utf8_lossy(&transcript[27].1);
    assert!(part.contains("Content-Range: bytes 0-0/5\r\n") && part.ends_with("\r\n\r\no"), "{part}");
    assert!(String::from_utf8_lossy(&transcript[29].1).contains("Content-Range: bytes */5"));
    assert!(String::from_utf8_lossy(&transcript[1].1).contains("Last-Modified: "));
}

#[test]
fn every_mutant_differs_from_the_reference_on_the_script() {
    let reference = script(None);
    for bug in HttpBug::ALL {
        assert_ne!(script(Some(bug)), reference, "{bug} is not observable on the script");
    }
}

#[test]
fn mutant_names_round_trip_and_are_distinct() {
    assert!(HttpBug::ALL.len() >= 22);
    let mut names: Vec<&str> = HttpBug::ALL.iter().map(|bug| bug.name()).collect();
    for bug in HttpBug::ALL {
        assert_eq!(bug.name().parse::<HttpBug>(), Ok(bug));
        assert_eq!(bug.to_string(), bug.name());
        assert!(bug.name().chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'), "{bug}");
        assert!(!bug.describe().is_empty() && !bug.describe().starts_with(' '), "{bug:?}");
    }
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), HttpBug::ALL.len());
    let err = "no-such-bug".parse::<HttpBug>().unwrap_err().to_string();
    assert!(err.contains("no-such-bug") && err.contains("pipeline-hang"), "{err}");
}
