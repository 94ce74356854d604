//! The derived tester against live systems: correct servers pass, planted
//! bugs are found and shrunk, and bad input is reported as what it is.

use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use speccheck::Config;
use speccheck::runner::report::RunVerdict;
use speccheck_dual::dual::{Invalid, Limits, Observation, validate};
use speccheck_dual::exec::inproc::{InProcess, Service};
use speccheck_dual::exec::tcp::Tcp;
use speccheck_dual::model::{Conn, Cx, Model, Step};
use speccheck_dual::solver::Native;
use speccheck_dual::sym::Expr;
use speccheck_dual::tester::{DualReport, Tester};
use speccheck_dual::{Protocol, Target};
use speccheck_fixtures::cmp::{Cmp, CmpBug, CmpServer};
use speccheck_fixtures::kv::{Kv, KvBug, KvServer};

fn config(name: &str, cases: u32) -> Config {
    Config { cases, seed: Some(0x7e57), database: None, ..Config::named(name) }
}

fn run<P: Protocol>(p: P, target: impl Target + 'static, name: &str, cases: u32) -> DualReport {
    Tester::new(p, target).config(config(name, cases)).run()
}

fn failure(r: &DualReport) -> &speccheck::runner::report::Counterexample {
    match &r.run.verdict {
        RunVerdict::Failed(c) => c,
        other => panic!("expected a reproducible failure, got {other:?}\n{r}"),
    }
}

fn script_len(r: &DualReport) -> usize {
    let c = failure(r);
    let script = c.inputs.iter().find(|(n, _)| n == "script").map(|(_, t)| t.clone()).expect("the script is shown");
    script.children().len()
}

#[test]
fn correct_servers_pass() {
    let r = run(Cmp::set(), InProcess::new("cmp-set", |_| CmpServer::set(None)), "pass::cmp_set", 60);
    assert!(r.passed(), "{r}");
    let r = run(Cmp::rst(), InProcess::new("cmp-rst", |s| CmpServer::rst(None, s)), "pass::cmp_rst", 60);
    assert!(r.passed(), "{r}");
    let r = run(Kv::new(), InProcess::new("kv", |s| KvServer::service(None, s)), "pass::kv", 60);
    assert!(r.passed(), "{r}");
    assert!(r.interactions > 500, "the executions exchanged messages: {r}");
}

#[test]
fn planted_bugs_are_found_and_shrunk_to_a_few_steps() {
    let cmp_set = [(CmpBug::EqualIsSmaller, 1), (CmpBug::PerConnection, 4), (CmpBug::Malformed, 1)];
    for (bug, at_most) in cmp_set {
        let r = run(Cmp::set(), InProcess::new("cmp-set", move |_| CmpServer::set(Some(bug))), "bug::cmp_set", 200);
        assert!(script_len(&r) <= at_most, "{bug:?} shrunk to more than {at_most} steps:\n{r}");
    }
    let cmp_rst = [(CmpBug::StrictCompare, 1), (CmpBug::ForgetsOnZero, 6)];
    for (bug, at_most) in cmp_rst {
        let r = run(Cmp::rst(), InProcess::new("cmp-rst", move |s| CmpServer::rst(Some(bug), s)), "bug::cmp_rst", 300);
        assert!(script_len(&r) <= at_most, "{bug:?} shrunk to more than {at_most} steps:\n{r}");
    }
    let kv = [
        (KvBug::IgnoreIfMatch, 2),
        (KvBug::TagFromValue, 3),
        (KvBug::StaleAfterConditional, 5),
        (KvBug::CaseInsensitiveTags, 4),
        (KvBug::PerConnectionCache, 8),
        (KvBug::BrokenLongValues, 3),
    ];
    for (bug, at_most) in kv {
        let r = run(Kv::new(), InProcess::new("kv", move |s| KvServer::service(Some(bug), s)), "bug::kv", 300);
        assert!(script_len(&r) <= at_most, "{bug:?} shrunk to more than {at_most} steps:\n{r}");
    }
}

#[test]
fn rejections_explain_themselves() {
    let r = run(Kv::new(), InProcess::new("kv", |s| KvServer::service(Some(KvBug::IgnoreIfMatch), s)), "explain", 100);
    let msg = &failure(&r).failure.message;
    assert!(msg.contains("REJECTED"), "{msg}");
    assert!(msg.contains("no behaviour of the model explains it"), "{msg}");
    assert!(msg.contains("expected Mismatch"), "{msg}");
    assert!(msg.contains("trace ("), "{msg}");
}

#[test]
fn malformed_responses_are_shown_as_bytes() {
    let r = run(Kv::new(), InProcess::new("kv", |s| KvServer::service(Some(KvBug::BrokenLongValues), s)), "bytes", 200);
    let msg = &failure(&r).failure.message;
    assert!(msg.contains("MALFORMED"), "{msg}");
    assert!(msg.contains("bytes: b\"VALUE ") && msg.contains("\\n\""), "{msg}");
}

/// A service that reads everything and never answers.
struct Silent;
impl Service for Silent {
    fn receive(&mut self, _: Conn, _: &[u8]) {}
    fn poll(&mut self, _: &mut Vec<(Conn, Vec<u8>)>) {}
}

/// Silent in the first execution that gets a request, then answering
/// nonsense in every later one: a failure whose confirmation shows
/// another.
struct SilentThenJunk {
    silenced: Arc<std::sync::atomic::AtomicBool>,
    silent: Option<bool>,
    pending: Vec<Conn>,
}
impl Service for SilentThenJunk {
    fn receive(&mut self, conn: Conn, _: &[u8]) {
        let silent = *self.silent.get_or_insert_with(|| !self.silenced.swap(true, Ordering::SeqCst));
        if !silent {
            self.pending.push(conn);
        }
    }
    fn poll(&mut self, out: &mut Vec<(Conn, Vec<u8>)>) {
        out.extend(self.pending.drain(..).map(|c| (c, b"?? nonsense\n".to_vec())));
    }
}

#[test]
fn a_failure_whose_confirmation_shows_another_reports_the_one_confirmed() {
    let silenced = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let target = InProcess::new("switch", move |_| {
        Box::new(SilentThenJunk { silenced: silenced.clone(), silent: None, pending: Vec::new() })
    });
    let r = run(Cmp::set(), target, "switch", 50);
    let msg = &failure(&r).failure.message;
    assert!(!msg.contains("LIVENESS"), "the reported failure is the one confirmed: {msg}");
    let first = r.first_failure.as_ref().expect("a first failure");
    let last = r.final_execution.as_ref().expect("a final execution");
    assert!(last.verdict.is_within(&first.verdict), "{} / {}\n{r}", first.identity, last.verdict.identity());
    assert!(
        r.run.warnings.iter().any(|w| w.contains("first showed (liveness)") && w.contains("did not come back")),
        "the report says the first one did not come back: {:?}",
        r.run.warnings
    );
}

#[test]
fn silence_fails_the_liveness_check_and_is_not_a_rejection() {
    let r = run(Cmp::set(), InProcess::new("silent", |_| Box::new(Silent)), "silent", 10);
    let msg = &failure(&r).failure.message;
    assert!(msg.contains("LIVENESS: no response within"), "{msg}");
    assert!(!msg.contains("REJECTED"), "{msg}");
    // Slow but correct: long delays are not failures.
    let slow = InProcess::new("slow", |_| CmpServer::set(None)).max_delay(400);
    let r = run(Cmp::set(), slow, "slow", 20);
    assert!(r.passed(), "{r}");
}

#[test]
fn pipelining_hang_is_caught() {
    let r = run(Cmp::set(), InProcess::new("cmp-set", |_| CmpServer::set(Some(CmpBug::HangPipelined))), "pipe", 300);
    let msg = &failure(&r).failure.message;
    assert!(msg.contains("LIVENESS") || msg.contains("REJECTED"), "{msg}");
}

#[test]
fn over_tcp_on_loopback() {
    // Real time: a generous liveness window, so a loaded machine is not a failure.
    let r = Tester::new(Kv::new(), Tcp::spawn("kv", |s| KvServer::service(None, s)))
        .with_settings(|s| s.liveness = std::time::Duration::from_secs(3))
        .config(config("tcp::pass", 15))
        .run();
    assert!(r.passed(), "{r}");
    let r = run(Kv::new(), Tcp::spawn("kv", |s| KvServer::service(Some(KvBug::IgnoreIfMatch), s)), "tcp::bug", 100);
    assert!(!r.passed(), "{r}");
    assert!(r.run.counterexample().is_some(), "{r}");
}

#[test]
fn a_refused_connection_is_a_setup_error_not_a_verdict() {
    let addr = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap()
    }; // nothing listens there any more
    let r = run(Kv::new(), Tcp::connect(addr, None), "refused", 10);
    match &r.run.verdict {
        RunVerdict::Error(e) => {
            assert!(e.contains("setup error") && e.contains("refused"), "{e}");
            assert!(e.contains("not a verdict"), "{e}");
        }
        other => panic!("expected a setup error, got {other:?}"),
    }
    assert_eq!(r.executions, 0);
}

#[test]
fn a_shrunk_script_keeps_its_meaning_in_a_new_execution() {
    // Every execution's server numbers its tags from a new start, whatever
    // the seed: the shrunk script must still fail, because its If-Match
    // refers to the tag the *current* server revealed.
    let starts = Arc::new(AtomicU64::new(100));
    let s = starts.clone();
    let target = InProcess::new("kv", move |_| {
        KvServer::service(Some(KvBug::StaleAfterConditional), s.fetch_add(1, Ordering::Relaxed))
    });
    let r = Tester::new(Kv::new(), target.clone()).config(config("meaning", 300)).run();
    let c = failure(&r);
    let shown: String = c.inputs.iter().map(|(_, t)| t.to_line()).collect();
    assert!(shown.contains(".(this@\"tag\")"), "the If-Match is a reference into the trace: {shown}");
    let replay = Config { replay: Some(c.replay_string()), shrink: false, ..config("meaning", 1) };
    let again = Tester::new(Kv::new(), target).config(replay).run();
    assert!(matches!(again.run.verdict, RunVerdict::Failed(_)), "{again}");
}

/// A model that never gets to its response.
struct Diverging;
impl Model for Diverging {
    type State = ();
    type Req = i64;
    type Resp = Expr;
    fn init(&self) {}
    fn serve(&self, _: &mut (), cx: &mut Cx<'_, Self>) -> Step {
        let (_conn, _q) = cx.recv()?;
        loop {
            cx.require(Expr::bool(true))?;
        }
    }
}

#[test]
fn a_diverging_model_is_reported_with_bounded_work() {
    let trace = vec![Observation::Sent(0, 1), Observation::Received(0, speccheck_dual::Value::Int(0))];
    let r = validate::<Diverging, Native>(Arc::new(Diverging), &trace, Limits { fuel: 300, ..Limits::default() });
    // A model that never answers cannot be told from one whose answer is
    // deeper than the fuel: inconclusive, never a rejection.
    assert!(matches!(r, Err(Invalid::OutOfFuel { fuel: 300, abandoned: 1, .. })), "{r:?}");
}
