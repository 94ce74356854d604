//! Tour stop: testing by dualization — a symbolic, nondeterministic model
//! of a protocol becomes a tester of a live server (in process, behind a
//! simulated network that reorders across connections).

use speccheck::Config;
use speccheck_dual::exec::inproc::InProcess;
use speccheck_dual::tester::Tester;
use speccheck_fixtures::cmp::{Cmp, CmpBug, CmpServer};
use speccheck_fixtures::kv::{Kv, KvBug, KvServer};

use super::{Expect, Finding, Stop, check};

pub fn stop() -> Stop {
    Stop { name: "dual", title: "testing by dualization: symbolic models test live servers (Li's thesis)", run }
}

fn config(name: &str, seed: u64) -> Config {
    Config { seed: Some(seed), database: None, ..Config::named(name) }
}

fn run(seed: u64) -> anyhow::Result<Vec<Finding>> {
    let mut out = Vec::new();
    for (bug, expect) in [(Some(KvBug::StaleAfterConditional), Expect::Bug), (None, Expect::Pass)] {
        out.push(check("key-value store with server-chosen tags (conditional writes)", expect, || {
            Tester::new(Kv::new(), InProcess::new("kv", move |s| KvServer::service(bug, s)))
                .config(config("dual::kv", seed))
                .run()
                .run
        }));
    }
    for (bug, expect) in [(Some(CmpBug::ForgetsOnZero), Expect::Bug), (None, Expect::Pass)] {
        out.push(check("CMP-RST: the server resets to a number the tester never sees", expect, || {
            Tester::new(Cmp::rst(), InProcess::new("cmp-rst", move |s| CmpServer::rst(bug, s)))
                .config(config("dual::cmp_rst", seed))
                .run()
                .run
        }));
    }
    out.push(check("a server that hangs on pipelined requests (liveness)", Expect::Bug, || {
        Tester::new(Cmp::set(), InProcess::new("cmp-set", |_| CmpServer::set(Some(CmpBug::HangPipelined))))
            .config(config("dual::pipelining", seed))
            .run()
            .run
    }));
    Ok(out)
}
