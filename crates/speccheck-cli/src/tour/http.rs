//! Tour stop: the HTTP/1.1 tester — the model of an origin server with
//! entity tags and conditional requests, dualized into a tester that talks
//! to a real server over TCP on 127.0.0.1: here the bundled reference
//! server and two of its mutants (`speccheck http` tests nginx or Apache).

use std::fmt;

use speccheck::{Config, RunVerdict};
use speccheck_dual::exec::tcp::Tcp;
use speccheck_dual::tester::{DualReport, Tester};
use speccheck_fixtures::http::{HttpBug, HttpServer};
use speccheck_http::Http;

use super::{Ended, Expect, Finding, Stop, TourReport, check};

pub fn stop() -> Stop {
    Stop {
        name: "http",
        title: "HTTP/1.1 from a model: a bundled server and its mutants over TCP (Li's thesis §4–6)",
        run,
    }
}

/// A run's report with the shrunk interaction shown as HTTP.
struct Shown(DualReport);

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let (RunVerdict::Failed(_), Some(exec)) = (&self.0.run.verdict, &self.0.final_execution) {
            writeln!(f, "{}\n\nthe shrunk interaction:\n\n{}", exec.verdict, Http::new().render(exec))?;
        }
        write!(f, "{}", self.0)
    }
}

impl TourReport for Shown {
    fn ended(&self) -> Ended {
        self.0.run.ended()
    }
}

fn run(seed: u64) -> anyhow::Result<Vec<Finding>> {
    let cases = [
        ("the bundled reference server", None, Expect::Pass),
        ("a cache that other connections' writes do not invalidate", Some(HttpBug::PerConnectionCache), Expect::Bug),
        ("If-Match compared weakly", Some(HttpBug::WeakIfMatch), Expect::Bug),
    ];
    let mut out = Vec::new();
    for (what, bug, expect) in cases {
        out.push(check(what, expect, || {
            let target = Tcp::spawn("bundled HTTP server", move |s| HttpServer::service(bug, s));
            Shown(
                Tester::new(Http::new(), target)
                    .config(Config { cases: 300, seed: Some(seed), database: None, ..Config::named("http") })
                    .run(),
            )
        }));
    }
    Ok(out)
}
