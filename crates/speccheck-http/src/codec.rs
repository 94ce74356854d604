//! HTTP/1.1 on the wire: requests written by hand (the tester controls
//! every byte), responses read with `httparse` and framed as RFC 7230 §3.3.3
//! says — which needs the request each response answers.

use speccheck_dual::protocol::Decoded;

use crate::message::{HttpReq, HttpResp, Method};

/// Longest response head accepted.
const MAX_HEAD: usize = 16 * 1024;
/// Longest response body accepted.
const MAX_BODY: usize = 1024 * 1024;
/// Most header fields in a response head.
const MAX_HEADERS: usize = 64;

/// Where the tester's resources live on the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Isolation {
    /// Every execution uses names of its own, `/<base>sc-<execution>-<name>`:
    /// a server that keeps state between executions (one the tester cannot
    /// reset) still looks fresh to each.
    PerExecution,
    /// Names are used as they are, `/<base><name>`: the user resets the
    /// server before each execution.
    Shared,
}

/// The request target of resource `name` in execution `execution`.
pub fn target(base: &str, isolation: &Isolation, execution: u64, name: &str) -> String {
    match isolation {
        Isolation::PerExecution => format!("/{base}sc-{execution:016x}-{name}"),
        Isolation::Shared => format!("/{base}{name}"),
    }
}

/// The request's bytes.
pub fn encode(req: &HttpReq, target: &str, host: &str) -> Vec<u8> {
    let mut head = format!("{} {target} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: speccheck\r\n", req.method);
    if let Some(c) = &req.if_match {
        head.push_str(&format!("If-Match: {}\r\n", c.header_value()));
    }
    if let Some(c) = &req.if_none_match {
        head.push_str(&format!("If-None-Match: {}\r\n", c.header_value()));
    }
    for (name, value) in [
        ("If-Modified-Since", &req.if_modified_since),
        ("If-Unmodified-Since", &req.if_unmodified_since),
        ("If-Range", &req.if_range),
    ] {
        if let Some(v) = value {
            head.push_str(&format!("{name}: {v}\r\n"));
        }
    }
    if let Some(r) = &req.range {
        head.push_str(&format!("Range: {}\r\n", r.header_value()));
    }
    if !req.body.is_empty() || matches!(req.method, Method::Put | Method::Post) {
        head.push_str(&format!("Content-Length: {}\r\n", req.body.len()));
    }
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(req.body.as_bytes());
    bytes
}

/// The first response in `bytes`, answering `request` (`closed`: the
/// connection has ended, so a body delimited by its end is complete).
pub fn decode(bytes: &[u8], request: Option<&HttpReq>, closed: bool) -> Decoded<HttpResp> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut resp = httparse::Response::new(&mut headers);
    let head_len = match resp.parse(bytes) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) if bytes.len() > MAX_HEAD => {
            return Decoded::Malformed(format!("a response head longer than {MAX_HEAD} bytes"));
        }
        Ok(httparse::Status::Partial) => return Decoded::Incomplete,
        Err(e) => return Decoded::Malformed(format!("not an HTTP/1.1 response head: {e}")),
    };
    let status = resp.code.unwrap_or(0);
    if resp.version != Some(1) {
        return Decoded::Malformed(format!("not HTTP/1.1 (version 1.{})", resp.version.unwrap_or(0)));
    }
    let reason = resp.reason.unwrap_or("").to_string();
    let mut fields = Vec::new();
    for h in resp.headers.iter() {
        let Ok(value) = std::str::from_utf8(h.value) else {
            return Decoded::Malformed(format!("header {} is not UTF-8", h.name));
        };
        fields.push((h.name.to_string(), value.trim().to_string()));
    }
    let field = |name: &'static str| fields.iter().filter(move |(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v);
    let etags: Vec<&String> = field("etag").collect();
    if etags.len() > 1 {
        return Decoded::Malformed(format!("{} ETag headers", etags.len()));
    }
    let etag = etags.first().map(|t| t.to_string());
    let rest = &bytes[head_len..];
    // RFC 7230 §3.3.3: no body after HEAD, 1xx, 204 and 304.
    let bodiless = request.is_some_and(|r| r.method == Method::Head) || status < 200 || status == 204 || status == 304;
    let (body, used) = if bodiless {
        (Vec::new(), 0)
    } else if field("transfer-encoding").any(|v| v.to_ascii_lowercase().contains("chunked")) {
        match dechunk(rest) {
            Decoded::Message(b, n) => (b, n),
            Decoded::Incomplete => return Decoded::Incomplete,
            Decoded::Malformed(m) => return Decoded::Malformed(m),
        }
    } else {
        let lengths: Vec<&String> = field("content-length").collect();
        match lengths.as_slice() {
            [] if closed => (rest.to_vec(), rest.len()),
            [] if rest.len() > MAX_BODY => return Decoded::Malformed("a body longer than 1 MiB".into()),
            [] => return Decoded::Incomplete,
            [n] => match n.parse::<usize>() {
                Ok(n) if n > MAX_BODY => return Decoded::Malformed(format!("Content-Length {n} is over 1 MiB")),
                Ok(n) if rest.len() < n => return Decoded::Incomplete,
                Ok(n) => (rest[..n].to_vec(), n),
                Err(_) => return Decoded::Malformed(format!("Content-Length {n:?} is not a number")),
            },
            more => return Decoded::Malformed(format!("{} Content-Length headers", more.len())),
        }
    };
    if status < 200 {
        // An interim response (100 Continue): skip it; the final one follows.
        return match decode(&bytes[head_len..], request, closed) {
            Decoded::Message(r, n) => Decoded::Message(r, head_len + n),
            other => other,
        };
    }
    let headers = fields;
    Decoded::Message(HttpResp { status, reason, etag, headers, body }, head_len + used)
}

/// A chunked body (RFC 7230 §4.1): the body and the bytes it took.
fn dechunk(bytes: &[u8]) -> Decoded<Vec<u8>> {
    let mut body = Vec::new();
    let mut at = 0;
    loop {
        let Some(eol) = bytes[at..].windows(2).position(|w| w == b"\r\n") else {
            return if bytes.len() - at > 1024 {
                Decoded::Malformed("a chunk size line over 1 KiB".into())
            } else {
                Decoded::Incomplete
            };
        };
        let line = String::from_utf8_lossy(&bytes[at..at + eol]);
        let size_hex = line.split(';').next().unwrap_or("").trim();
        let Ok(size) = usize::from_str_radix(size_hex, 16) else {
            return Decoded::Malformed(format!("a chunk size {size_hex:?} that is not hexadecimal"));
        };
        at += eol + 2;
        if size == 0 {
            // Trailers end with an empty line.
            return match bytes[at..].windows(2).position(|w| w == b"\r\n") {
                Some(0) => Decoded::Message(body, at + 2),
                Some(_) => match bytes[at..].windows(4).position(|w| w == b"\r\n\r\n") {
                    Some(p) => Decoded::Message(body, at + p + 4),
                    None => Decoded::Incomplete,
                },
                None => Decoded::Incomplete,
            };
        }
        if body.len() + size > MAX_BODY {
            return Decoded::Malformed("a chunked body longer than 1 MiB".into());
        }
        if bytes.len() < at + size + 2 {
            return Decoded::Incomplete;
        }
        body.extend_from_slice(&bytes[at..at + size]);
        if &bytes[at + size..at + size + 2] != b"\r\n" {
            return Decoded::Malformed("a chunk not followed by CRLF".into());
        }
        at += size + 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(method: Method) -> HttpReq {
        HttpReq::new(method, "a", "")
    }

    #[test]
    fn framing_depends_on_the_request_and_the_status() {
        let head = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nETag: \"1\"\r\n\r\n";
        // After HEAD the declared length has no bytes behind it.
        let Decoded::Message(r, n) = decode(head, Some(&get(Method::Head)), false) else { panic!() };
        assert_eq!((r.status, r.body.len(), n, r.etag.as_deref()), (200, 0, head.len(), Some("\"1\"")));
        // After GET the body is awaited, then read.
        assert_eq!(decode(head, Some(&get(Method::Get)), false), Decoded::Incomplete);
        let mut full = head.to_vec();
        full.extend_from_slice(b"hello");
        let Decoded::Message(r, n) = decode(&full, Some(&get(Method::Get)), false) else { panic!() };
        assert_eq!((r.body.as_slice(), n), (&b"hello"[..], full.len()));
        // 304 and 204 have no body.
        let nm = b"HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\n";
        assert!(matches!(decode(nm, Some(&get(Method::Get)), false), Decoded::Message(_, n) if n == nm.len()));
    }

    #[test]
    fn chunked_and_close_delimited_bodies() {
        let chunked = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\nNEXT";
        let Decoded::Message(r, n) = decode(chunked, Some(&get(Method::Get)), false) else { panic!() };
        assert_eq!((r.body.as_slice(), n), (&b"abcde"[..], chunked.len() - 4));
        let open = b"HTTP/1.1 200 OK\r\n\r\nuntil the end";
        assert_eq!(decode(open, Some(&get(Method::Get)), false), Decoded::Incomplete);
        let Decoded::Message(r, _) = decode(open, Some(&get(Method::Get)), true) else { panic!() };
        assert_eq!(r.body, b"until the end");
    }

    #[test]
    fn garbage_and_oversized_responses_are_malformed() {
        assert!(matches!(decode(b"SSH-2.0-OpenSSH\r\n\r\n", None, false), Decoded::Malformed(_)));
        let big = b"HTTP/1.1 200 OK\r\nContent-Length: 99999999\r\n\r\n";
        assert!(matches!(decode(big, None, false), Decoded::Malformed(m) if m.contains("1 MiB")));
        let two = b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab";
        assert!(matches!(decode(two, None, false), Decoded::Malformed(_)));
        let endless = vec![b'a'; MAX_HEAD + 1];
        assert!(matches!(decode(&endless, None, false), Decoded::Malformed(_)));
    }

    #[test]
    fn requests_carry_their_conditions_and_length() {
        let req = HttpReq {
            if_match: Some(crate::message::Condition::Tags(vec!["\"1\"".into(), "W/\"2\"".into()])),
            ..HttpReq::new(Method::Put, "a", "xyz")
        };
        let bytes = String::from_utf8(encode(&req, "/sc-1-a", "127.0.0.1")).unwrap();
        assert!(bytes.starts_with("PUT /sc-1-a HTTP/1.1\r\n"), "{bytes}");
        assert!(bytes.contains("If-Match: \"1\", W/\"2\"\r\n") && bytes.contains("Content-Length: 3\r\n"));
        assert!(bytes.ends_with("\r\n\r\nxyz"));
    }
}
