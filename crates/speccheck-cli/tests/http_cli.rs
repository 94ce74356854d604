//! `speccheck http` as a script or CI job uses it: its exit status, its
//! report, its JSON, and what bad servers get.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::process::Output;
use std::time::{Duration, Instant};

mod common;

use common::text;

fn speccheck(args: &[&str]) -> Output {
    common::speccheck("http", args)
}

/// A server on 127.0.0.1 whose every connection is handled by `handle`
/// (for at most `life`).
fn server(life: Duration, handle: fn(std::net::TcpStream)) -> String {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    l.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let end = Instant::now() + life;
        while Instant::now() < end {
            match l.accept() {
                Ok((s, _)) => {
                    s.set_nonblocking(false).unwrap();
                    std::thread::spawn(move || handle(s));
                }
                Err(_) => std::thread::sleep(Duration::from_millis(2)),
            }
        }
    });
    addr
}

/// Reads until a request head is in (or the peer goes away).
fn read_head(s: &mut std::net::TcpStream) -> bool {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 1024];
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
        match s.read(&mut chunk) {
            Ok(0) | Err(_) => return false,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
    true
}

#[test]
fn the_bundled_server_passes_and_a_mutant_is_rejected_with_json() {
    let o = speccheck(&["--executions", "40", "--seed", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let json = std::env::temp_dir().join(format!("speccheck-http-{}.json", std::process::id()));
    let o = speccheck(&["--mutant", "create-200", "--seed", "1", "--json", json.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = text(&o);
    assert!(out.contains("PUT /") && out.contains("HTTP/1.1 200"), "the interaction is shown as HTTP:\n{out}");
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["verdict"], "rejected");
    assert!(report["failure"]["trace"].as_array().is_some_and(|t| !t.is_empty()), "{report}");
    assert!(report["replay"].as_str().is_some_and(|r| r.starts_with("SPECCHECK_REPLAY=")), "{report}");
    let _ = std::fs::remove_file(json);
}

#[test]
fn mutants_are_listed_and_unknown_ones_refused() {
    let o = speccheck(&["--list-mutants"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).lines().count() >= 20);
    let o = speccheck(&["--mutant", "no-such-bug"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("create-200"), "the error names the valid mutants: {}", text(&o));
}

#[test]
fn a_target_not_listening_is_a_setup_error_naming_the_address() {
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let addr = format!("127.0.0.1:{port}");
    let o = speccheck(&["--target", &addr, "--executions", "5"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains(&addr) && text(&o).contains("setup error"), "{}", text(&o));
}

#[test]
fn a_remote_target_needs_to_be_allowed_explicitly() {
    // No connection is attempted: the address is refused first.
    let o = speccheck(&["--target", "192.0.2.1:80", "--executions", "1"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--allow-remote"), "{}", text(&o));
}

#[test]
fn garbage_is_a_rejection_showing_the_bytes() {
    let addr = server(Duration::from_secs(30), |mut s| {
        if read_head(&mut s) {
            let _ = s.write_all(b"SSH-2.0-OpenSSH_9.2\r\n\r\n");
        }
    });
    let o = speccheck(&["--target", &addr, "--executions", "20", "--seed", "1"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("MALFORMED") && text(&o).contains("SSH-2.0"), "{}", text(&o));
}

#[test]
fn a_hanging_server_is_a_liveness_failure_after_the_stated_window() {
    let addr = server(Duration::from_secs(60), |mut s| {
        let _ = read_head(&mut s);
        std::thread::sleep(Duration::from_secs(20));
    });
    let o = speccheck(&["--target", &addr, "--executions", "5", "--seed", "1", "--liveness-ms", "300"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("LIVENESS: no response within 3"), "{}", text(&o));
}

#[test]
fn a_response_that_stops_part_way_is_a_liveness_failure_showing_what_came() {
    // Headers of a chunked response, then nothing: the server hangs in the
    // middle of its answer, which the report shows.
    let addr = server(Duration::from_secs(60), |mut s| {
        if read_head(&mut s) {
            let _ = s.write_all(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
            std::thread::sleep(Duration::from_secs(20));
        }
    });
    let o = speccheck(&["--target", &addr, "--executions", "5", "--seed", "1", "--liveness-ms", "300"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = text(&o);
    assert!(out.contains("LIVENESS") && out.contains("a response had begun on connection"), "{out}");
    assert!(out.contains("Transfer-Encoding: chunked"), "{out}");
}

#[test]
fn a_server_that_closes_without_answering_is_reported_with_the_trace() {
    let addr = server(Duration::from_secs(30), |mut s| {
        let _ = read_head(&mut s);
        // dropped: closed without a response
    });
    let o = speccheck(&["--target", &addr, "--executions", "5", "--seed", "1"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("CONNECTION LOST") && text(&o).contains("conn 0 ->"), "{}", text(&o));
}

#[test]
fn a_truncated_response_is_a_rejection_showing_the_bytes() {
    let addr = server(Duration::from_secs(30), |mut s| {
        if read_head(&mut s) {
            let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nonly part of it");
        }
    });
    let o = speccheck(&["--target", &addr, "--executions", "5", "--seed", "1"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("in the middle of a response") && text(&o).contains("only part of it"), "{}", text(&o));
}

#[test]
fn a_failing_reset_command_is_a_setup_error() {
    let addr = server(Duration::from_secs(30), |_| {});
    let o = speccheck(&["--target", &addr, "--executions", "3", "--reset", "exit 3"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("could not reset") && text(&o).contains("exit 3"), "{}", text(&o));
}

#[test]
fn a_should_not_followed_is_a_finding_and_a_rejection_only_when_strict() {
    let json = std::env::temp_dir().join(format!("speccheck-http-finding-{}.json", std::process::id()));
    let args = ["--mutant", "get-no-etag", "--seed", "1", "--executions", "60"];
    let o = speccheck(&[&args[..], &["--json", json.to_str().unwrap()]].concat());
    assert_eq!(o.status.code(), Some(0), "a SHOULD never changes the exit status:\n{}", text(&o));
    let out = text(&o);
    assert!(out.contains("finding: ") && out.contains("RFC 9110 §8.8.3 SHOULD"), "{out}");
    assert!(out.contains("GET /") && out.contains("breaks: "), "the finding's trace is shown:\n{out}");
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["exit_status"], 0);
    let finding = &report["findings"][0];
    assert_eq!(finding["rules"][0]["level"], "SHOULD", "{report}");
    assert_eq!(finding["rules"][0]["clause"], "RFC 9110 §8.8.3", "{report}");
    assert!(finding["trace"].as_array().is_some_and(|t| !t.is_empty()), "{report}");
    let _ = std::fs::remove_file(json);
    let o = speccheck(&[&args[..], &["--strict"]].concat());
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
}

#[test]
fn a_rejection_names_its_rule_in_the_report_and_the_json() {
    let json = std::env::temp_dir().join(format!("speccheck-http-rule-{}.json", std::process::id()));
    let o = speccheck(&["--mutant", "create-200", "--seed", "1", "--json", json.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("breaks: PUT: RFC 9110 §9.3.4 MUST"), "{}", text(&o));
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["failure"]["rules"][0]["clause"], "RFC 9110 §9.3.4", "{report}");
    assert_eq!(report["failure"]["rules"][0]["answering"], "PUT", "{report}");
    assert_eq!(report["exit_status"], 1);
    let _ = std::fs::remove_file(json);
}

/// A minimal server that is right whenever each execution sends one
/// request on names of its own: a PUT creates (412 under `If-Match`, which
/// nothing on a new name matches), anything else finds nothing.
fn answer_minimally(s: &mut std::net::TcpStream, head: &str) {
    let method = head.split(' ').next().unwrap_or("");
    let reply = match method {
        "PUT" if head.to_ascii_lowercase().contains("\r\nif-match:") => "412 Precondition Failed",
        "PUT" => "201 Created",
        _ => "404 Not Found",
    };
    let _ = s.write_all(format!("HTTP/1.1 {reply}\r\nContent-Length: 0\r\n\r\n").as_bytes());
}

#[test]
fn a_failure_that_does_not_reproduce_exits_flaky() {
    use std::sync::atomic::{AtomicBool, Ordering};
    static GARBLED: AtomicBool = AtomicBool::new(false);
    let addr = server(Duration::from_secs(60), |mut s| {
        let mut buf = Vec::new();
        let mut chunk = [0u8; 1024];
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        loop {
            while let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&buf[..end + 4]).into_owned();
                let length = head
                    .lines()
                    .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().to_string()))
                    .and_then(|v| v.parse::<usize>().ok())
                    .unwrap_or(0);
                if buf.len() < end + 4 + length {
                    break;
                }
                buf.drain(..end + 4 + length);
                // The very first response of the server's life is garbage.
                if !GARBLED.swap(true, Ordering::SeqCst) {
                    let _ = s.write_all(b"HTTP/1.1 2O0 OK\r\n\r\n");
                    return;
                }
                answer_minimally(&mut s, &head);
            }
            match s.read(&mut chunk) {
                Ok(0) | Err(_) => return,
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
            }
        }
    });
    let o = speccheck(&["--target", &addr, "--executions", "10", "--seed", "1", "--steps", "1", "--connections", "1"]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    assert!(text(&o).contains("FLAKY"), "{}", text(&o));
}
