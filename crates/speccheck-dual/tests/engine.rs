//! What the engine needs for real protocols: an explanation deeper than
//! the fuel is no verdict, sets are state, the server may close
//! connections, and a response is decoded knowing the request it answers.

use std::collections::BTreeSet;
use std::sync::Arc;

use speccheck::Config;
use speccheck::runner::report::RunVerdict;
use speccheck_dual::dual::{Invalid, Limits, Validator};
use speccheck_dual::exec::inproc::{InProcess, Service};
use speccheck_dual::exec::tcp::Tcp;
use speccheck_dual::exec::{Settings, execute_script};
use speccheck_dual::lines::line_message;
use speccheck_dual::model::{Conn, Cx, Model, Step};
use speccheck_dual::rand::Rng;
use speccheck_dual::rand::rngs::SmallRng;
use speccheck_dual::serde_json::{Value as Json, json};
use speccheck_dual::solver::Native;
use speccheck_dual::sym::{Expr, Syms};
use speccheck_dual::{Answering, Decoded, JExp, Protocol, Target, Tester, View, Wire};

fn config(name: &str, cases: u32) -> Config {
    Config { cases, seed: Some(0xe61e), database: None, ..Config::named(name) }
}

/// An echo server's model: each request is answered with itself, after
/// `depth` internal steps; `CLOSES`: the server may close connections.
struct Echo<const CLOSES: bool> {
    depth: usize,
}

impl<const CLOSES: bool> Model for Echo<CLOSES> {
    type State = ();
    type Req = i64;
    type Resp = Expr;
    const CLOSES: bool = CLOSES;
    fn init(&self) {}
    fn serve(&self, _: &mut (), cx: &mut Cx<'_, Self>) -> Step {
        let (conn, q) = cx.recv()?;
        for _ in 0..self.depth {
            cx.require(Expr::bool(true))?;
        }
        cx.send(conn, Expr::int(q))
    }
}

/// The echo protocol; its responses are `ok` lines whose number the
/// decoder takes from the request they answer (framing with context).
struct EchoProtocol<const CLOSES: bool> {
    model: Arc<Echo<CLOSES>>,
}

impl<const CLOSES: bool> EchoProtocol<CLOSES> {
    fn new(depth: usize) -> Self {
        EchoProtocol { model: Arc::new(Echo { depth }) }
    }
}

impl<const CLOSES: bool> Protocol for EchoProtocol<CLOSES> {
    type Model = Echo<CLOSES>;
    fn name(&self) -> &str {
        "echo"
    }
    fn model(&self) -> Arc<Echo<CLOSES>> {
        self.model.clone()
    }
    fn encode_request(&self, q: &i64, _: &Wire) -> Vec<u8> {
        format!("{q}\n").into_bytes()
    }
    fn decode_response(&self, bytes: &[u8], answering: &Answering<'_, i64>) -> Decoded<speccheck_dual::Value> {
        let request = answering.request.copied();
        line_message(bytes, |l| match (l, request) {
            ("ok", Some(q)) => Ok(speccheck_dual::Value::Int(q)),
            ("ok", None) => Err("an `ok` that answers no request".into()),
            _ => Err(format!("not a response: {l:?}")),
        })
    }
    fn request_to_ir(&self, q: &i64) -> Json {
        json!(q)
    }
    fn request_from_ir(&self, ir: &Json) -> Option<i64> {
        ir.as_i64()
    }
    fn response_to_ir(&self, r: &speccheck_dual::Value) -> Json {
        json!({ "ok": r.to_json() })
    }
    fn propose(&self, _: &View<'_, Self>, rng: &mut SmallRng) -> JExp {
        JExp::lit(rng.random_range(0..100i64))
    }
}

/// Answers `ok` to every line; closes a connection after every
/// `close_every` requests on it (0: never).
struct EchoServer {
    close_every: usize,
    bufs: Vec<(Vec<u8>, usize)>,
    out: Vec<(Conn, Vec<u8>)>,
    closing: Vec<Conn>,
}

impl EchoServer {
    fn service(close_every: usize) -> Box<dyn Service> {
        Box::new(EchoServer { close_every, bufs: Vec::new(), out: Vec::new(), closing: Vec::new() })
    }
}

impl Service for EchoServer {
    fn receive(&mut self, conn: Conn, bytes: &[u8]) {
        if self.bufs.len() <= conn {
            self.bufs.resize(conn + 1, (Vec::new(), 0));
        }
        let (buf, served) = &mut self.bufs[conn];
        if self.close_every > 0 && *served >= self.close_every {
            return; // closed: ignores what still arrives
        }
        buf.extend_from_slice(bytes);
        while let Some(end) = buf.iter().position(|&b| b == b'\n') {
            buf.drain(..=end);
            self.out.push((conn, b"ok\n".to_vec()));
            *served += 1;
            if self.close_every > 0 && *served == self.close_every {
                self.closing.push(conn);
                break;
            }
        }
    }
    fn poll(&mut self, out: &mut Vec<(Conn, Vec<u8>)>) {
        out.append(&mut self.out);
    }
    fn closing(&mut self, out: &mut Vec<Conn>) {
        out.append(&mut self.closing);
    }
}

#[test]
fn an_explanation_deeper_than_the_fuel_is_inconclusive_not_a_rejection() {
    // A correct server whose model needs 50 steps per response, validated
    // with fuel for 20: before, every execution was failed as "diverging".
    let target = InProcess::new("echo", |_| EchoServer::service(0));
    let r = Tester::new(EchoProtocol::<false>::new(50), target)
        .with_settings(|s| s.limits = Limits { fuel: 20, ..Limits::default() })
        .config(config("deep", 20))
        .run();
    assert!(!matches!(r.run.verdict, RunVerdict::Failed(_)), "a correct server is never rejected:\n{r}");
    assert!(!r.passed(), "nor does it pass when nothing could be decided:\n{r}");
    assert!(r.inconclusive > 0, "{r}");
    // With enough fuel it passes.
    let target = InProcess::new("echo", |_| EchoServer::service(0));
    let r = Tester::new(EchoProtocol::<false>::new(50), target).config(config("deep-enough", 20)).run();
    assert!(r.passed(), "{r}");
}

#[test]
fn a_rejection_after_an_abandoned_branch_is_inconclusive() {
    let mut v =
        Validator::<Echo<false>, Native>::new(Arc::new(Echo { depth: 30 }), Limits { fuel: 10, ..Limits::default() })
            .unwrap();
    v.observe_send(0, 7).unwrap();
    let e = v.observe_recv(0, &speccheck_dual::Value::Int(7)).unwrap_err();
    assert!(matches!(e, Invalid::OutOfFuel { fuel: 10, abandoned: 1, .. }), "{e}");
    assert!(e.is_inconclusive());
    assert_eq!(v.stats().abandoned, 1);
}

/// Writers add a constant to a collection; responses say nothing of the
/// order in which concurrent writes were applied.
struct Writers<const SET: bool>;

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Written {
    last: i64,
    log: Vec<Expr>,
    set: BTreeSet<Expr>,
}

impl Syms for Written {
    fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        self.log.visit_exprs(f);
        self.set.visit_exprs(f);
    }
}

impl<const SET: bool> Model for Writers<SET> {
    type State = Written;
    type Req = i64;
    type Resp = Expr;
    fn init(&self) -> Written {
        Written::default()
    }
    fn serve(&self, s: &mut Written, cx: &mut Cx<'_, Self>) -> Step {
        let (conn, q) = cx.recv()?;
        s.last = q;
        if SET {
            s.set.insert(Expr::int(q));
        } else {
            s.log.push(Expr::int(q));
        }
        cx.send(conn, Expr::int(0))
    }
}

fn branches_after_concurrent_writes<const SET: bool>(w: usize) -> usize {
    let mut v = Validator::<Writers<SET>, Native>::new(Arc::new(Writers::<SET>), Limits::default()).unwrap();
    for c in 0..w {
        v.observe_send(c, c as i64 + 1).unwrap();
    }
    // The responses arrive in reverse order of sending: every order of
    // applying the writes explains them.
    for c in (0..w).rev() {
        v.observe_recv(c, &speccheck_dual::Value::Int(0)).unwrap();
    }
    v.live()
}

#[test]
fn set_valued_state_keeps_one_branch_per_outcome() {
    // The last writer decides `last`: w outcomes. A log in a Vec remembers
    // the order too (w! branches); a set does not.
    assert_eq!(branches_after_concurrent_writes::<true>(4), 4);
    assert_eq!(branches_after_concurrent_writes::<false>(4), 24);
}

#[test]
fn a_server_may_close_connections_when_the_model_allows_it() {
    for target in [
        Box::new(InProcess::new("echo", |_| EchoServer::service(2))) as Box<dyn Target>,
        Box::new(Tcp::spawn("echo", |_| EchoServer::service(2))),
    ] {
        let target: Arc<dyn Target> = Arc::from(target);
        let r = Tester::new(EchoProtocol::<true>::new(0), Shared(target.clone()))
            .with_settings(|s| s.fuel = 12)
            .config(config("closes", 30))
            .run();
        assert!(r.passed(), "closing between responses is allowed:\n{r}");
        let r = Tester::new(EchoProtocol::<false>::new(0), Shared(target)).config(config("no-closes", 30)).run();
        match &r.run.verdict {
            RunVerdict::Failed(c) => assert!(c.failure.message.contains("CONNECTION LOST"), "{r}"),
            other => panic!("a close the model does not allow fails the execution, got {other:?}\n{r}"),
        }
    }
}

/// Answers every line with something that is not a response.
struct Garbage(Vec<(Conn, Vec<u8>)>);

impl Service for Garbage {
    fn receive(&mut self, conn: Conn, bytes: &[u8]) {
        for _ in bytes.iter().filter(|&&b| b == b'\n') {
            self.0.push((conn, b"no\n".to_vec()));
        }
    }
    fn poll(&mut self, out: &mut Vec<(Conn, Vec<u8>)>) {
        out.append(&mut self.0);
    }
    fn closing(&mut self, _: &mut Vec<Conn>) {}
}

/// A correct echo server, but the first `broken_for` servers of all to
/// receive bytes answer them with garbage (`served` counts those servers).
struct BrokenFor {
    served: Arc<std::sync::atomic::AtomicUsize>,
    broken_for: usize,
    broken: Option<bool>,
    real: Box<dyn Service>,
    garbage: Garbage,
}

impl BrokenFor {
    /// A target whose first `broken_for` servers to receive bytes are
    /// broken, and the count of servers that received bytes.
    fn target(broken_for: usize) -> (InProcess, Arc<std::sync::atomic::AtomicUsize>) {
        BrokenFor::then(broken_for, 0)
    }

    /// [`BrokenFor::target`], the servers after the broken ones closing
    /// each connection after `close_every` requests (0: never).
    fn then(broken_for: usize, close_every: usize) -> (InProcess, Arc<std::sync::atomic::AtomicUsize>) {
        let served = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let count = served.clone();
        let target = InProcess::new("broken for a while", move |_| {
            Box::new(BrokenFor {
                served: served.clone(),
                broken_for,
                broken: None,
                real: EchoServer::service(close_every),
                garbage: Garbage(Vec::new()),
            })
        });
        (target, count)
    }
}

impl Service for BrokenFor {
    fn receive(&mut self, conn: Conn, bytes: &[u8]) {
        let (served, broken_for) = (&self.served, self.broken_for);
        if *self.broken.get_or_insert_with(|| served.fetch_add(1, std::sync::atomic::Ordering::SeqCst) < broken_for) {
            self.garbage.receive(conn, bytes);
        } else {
            self.real.receive(conn, bytes);
        }
    }
    fn poll(&mut self, out: &mut Vec<(Conn, Vec<u8>)>) {
        self.garbage.poll(out);
        self.real.poll(out);
    }
    fn closing(&mut self, out: &mut Vec<Conn>) {
        self.real.closing(out);
    }
}

#[test]
fn a_failure_that_never_reproduces_is_flaky_and_keeps_its_trace() {
    // The first execution that sends anything meets a broken server, every
    // later one a correct server: the failure is never confirmed, so there
    // is no final run, and the report must still carry the execution that
    // failed.
    let (target, _) = BrokenFor::target(1);
    let r = Tester::new(EchoProtocol::<false>::new(0), target).config(config("flaky", 20)).run();
    assert!(matches!(r.run.verdict, RunVerdict::Flaky(_)), "{r}");
    let exec = r.final_execution.as_ref().expect("the failing execution, as found");
    assert!(exec.verdict.is_failure() && !exec.trace.is_empty(), "{}", exec.verdict);
}

#[test]
fn a_flaky_failure_does_not_hide_a_later_one_that_comes_back() {
    // The first server to receive bytes answers garbage, once; every later
    // one closes its connections after three requests, which the model
    // does not allow: a failure that comes back.
    let (target, _) = BrokenFor::then(1, 3);
    let r = Tester::new(EchoProtocol::<false>::new(0), target).config(config("flaky then real", 50)).run();
    assert!(matches!(r.run.verdict, RunVerdict::Failed(_)), "{r}");
    let last = r.final_execution.as_ref().expect("a final execution");
    assert!(!matches!(last.verdict, speccheck_dual::exec::Verdict::Malformed { .. }), "{}", last.verdict);
    let warnings = &r.run.warnings;
    assert!(warnings.iter().any(|w| w.contains("passed when run again (flaky)")), "{warnings:?}");
    let first = r.first_failure.as_ref().expect("a first failure");
    assert!(
        first.executions > 2 && last.verdict.is_within(&first.verdict),
        "the first failure is the one reported, as the run met it: {first:?}"
    );
    assert!(
        !warnings.iter().any(|w| w.contains("did not come back")),
        "no confirmation showed another failure: {warnings:?}"
    );
}

#[test]
fn a_failure_shrunk_on_its_script_is_reported_when_the_final_run_never_shows_it() {
    // A run against a server broken throughout: the failure is confirmed,
    // shrunk, and shown by the final run's first attempt, which is the
    // last execution of the run.
    let (target, served) = BrokenFor::target(usize::MAX);
    let r = Tester::new(EchoProtocol::<false>::new(0), target).config(config("final", 20)).run();
    assert!(matches!(r.run.verdict, RunVerdict::Failed(_)), "{r}");
    let until_final = served.load(std::sync::atomic::Ordering::SeqCst) - 1;
    // The same run against a server that is mended just before the final
    // run: every attempt of it passes, but the shrinker saw the shrunk
    // script fail, and that observed execution is the counterexample.
    let (target, _) = BrokenFor::target(until_final);
    let r = Tester::new(EchoProtocol::<false>::new(0), target).config(config("final", 20)).run();
    assert!(matches!(r.run.verdict, RunVerdict::Failed(_)), "an observed failure is not flaky:\n{r}");
    let exec = r.final_execution.as_ref().expect("the shrinking run's execution");
    assert!(exec.verdict.is_failure() && !exec.trace.is_empty(), "{}", exec.verdict);
    let RunVerdict::Failed(failure) = &r.run.verdict else { unreachable!() };
    assert!(
        failure.notes.iter().any(|n| n.contains("did not show this failure") && n.contains("accepted")),
        "the report says the final run never showed it: {:?}",
        failure.notes
    );
}

/// A shared target (the tests run one target under two protocols).
struct Shared(Arc<dyn Target>);
impl Target for Shared {
    fn start(&self, seed: u64) -> Result<Box<dyn speccheck_dual::exec::Transport>, speccheck_dual::exec::SetupError> {
        self.0.start(seed)
    }
    fn describe(&self) -> String {
        self.0.describe()
    }
}

/// Remembers whether the server's hidden choice equals "a".
struct Guess;

impl Model for Guess {
    type State = Option<Expr>;
    type Req = i64;
    type Resp = Expr;
    fn init(&self) -> Option<Expr> {
        None
    }
    fn serve(&self, s: &mut Option<Expr>, cx: &mut Cx<'_, Self>) -> Step {
        let (conn, _) = cx.recv()?;
        let x = cx.fresh_str("x")?;
        *s = Some(x.equals("a"));
        cx.send(conn, x)
    }
}

#[test]
fn what_becomes_ground_in_a_state_is_evaluated() {
    // Once `x` is seen to be "b", the state `x == "a"` is `false`: the same
    // state as any other branch's `false`, so they can merge.
    let mut v = Validator::<Guess, Native>::new(Arc::new(Guess), Limits::default()).unwrap();
    v.observe_send(0, 1).unwrap();
    v.observe_recv(0, &speccheck_dual::Value::Str("b".into())).unwrap();
    assert_eq!(v.states(), vec![&Some(Expr::bool(false))]);
}

/// An echo model whose odd requests are safe (change nothing).
struct SafeOdd;

impl Model for SafeOdd {
    type State = i64;
    type Req = i64;
    type Resp = Expr;
    const CLOSES: bool = true;
    fn is_safe(&self, q: &i64) -> bool {
        q % 2 == 1
    }
    fn init(&self) -> i64 {
        0
    }
    fn serve(&self, s: &mut i64, cx: &mut Cx<'_, Self>) -> Step {
        let (conn, q) = cx.recv()?;
        if q % 2 == 0 {
            *s += q;
        }
        cx.send(conn, Expr::int(*s))
    }
}

#[test]
fn a_close_forgets_safe_requests_but_not_the_others() {
    let mut v = Validator::<SafeOdd, Native>::new(Arc::new(SafeOdd), Limits::default()).unwrap();
    for q in [1, 2, 3] {
        v.observe_send(0, q).unwrap();
    }
    v.observe_close(0).unwrap();
    let pending: Vec<i64> = v.branches()[0].net.pending_requests().map(|(_, q)| *q).collect();
    assert_eq!(pending, vec![2], "the unsafe request may still have been handled; the safe ones change nothing");
    // A later response may or may not reflect the orphaned write.
    v.observe_send(1, 0).unwrap();
    v.observe_recv(1, &speccheck_dual::Value::Int(2)).unwrap();
}

#[test]
fn labels_stay_unique_in_script_order_whatever_shrinking_did() {
    let p = EchoProtocol::<false>::new(0);
    let target = InProcess::new("echo", |_| EchoServer::service(0));
    use speccheck_dual::Step as S;
    let script = [
        S::Send { label: 0, conn: 0, body: JExp::lit(5) },
        S::Send { label: 0, conn: 0, body: JExp::lit(6) },
        S::Wait,
        S::Send { label: 9, conn: 0, body: JExp::lit(7) },
    ];
    let e = execute_script::<_, Native>(&p, &target, &Settings::default(), 1, &script).unwrap();
    let sent: Vec<u32> = e.trace.iter().filter(|t| t.sent).map(|t| t.label).collect();
    assert_eq!(sent, vec![1, 3, 9]);
}

#[test]
fn a_paced_script_takes_each_step_no_earlier_than_its_offset() {
    use speccheck_dual::Step as S;
    use speccheck_dual::exec::execute_paced;
    use std::time::Duration;
    let p = EchoProtocol::<false>::new(0);
    let target = Tcp::spawn("echo", |_| EchoServer::service(0));
    let script = [S::Send { label: 1, conn: 0, body: JExp::lit(5) }, S::Send { label: 3, conn: 0, body: JExp::lit(6) }];
    let pace = [Duration::from_millis(5), Duration::from_millis(40)];
    let e = execute_paced::<_, Native>(&p, &target, &Settings::default(), 1, &script, &pace).unwrap();
    assert!(!e.verdict.is_failure(), "{}", e.verdict);
    assert!(e.pacing[0] >= pace[0] && e.pacing[1] >= pace[1], "{:?}", e.pacing);
}

#[test]
fn a_replayed_step_waits_for_the_response_it_reads() {
    use speccheck_dual::JPath;
    use speccheck_dual::Step as S;
    let p = EchoProtocol::<false>::new(0);
    let target = Tcp::spawn("echo", |_| EchoServer::service(0));
    let ok = |label| JExp::reference(label, JPath::this().field("ok"), -1);
    for (reads, what) in [(2, "the response it names"), (40, "a message no longer in the script (shrunk away)")] {
        // Back to back, the second request would go out before the first
        // response arrives (a burst); it reads that response, so it waits.
        let script =
            [S::Send { label: 1, conn: 1, body: JExp::lit(5) }, S::Send { label: 3, conn: 0, body: ok(reads) }];
        for _ in 0..20 {
            let e = execute_script::<_, Native>(&p, &target, &Settings::default(), 1, &script).unwrap();
            let sent: Vec<&Json> = e.trace.iter().filter(|t| t.sent).map(|t| &t.ir).collect();
            assert_eq!(sent, [&json!(5), &json!(5)], "a step reading {what} waits for it: {}", e.trace_lines());
        }
    }
}

/// A server that, asked to move `n` items, may move any subset of them
/// and says which: with `choose` per item (`ITE` false) or with a boolean
/// per item and if-then-else terms (`ITE` true).
struct Subset<const ITE: bool>;

impl<const ITE: bool> Model for Subset<ITE> {
    type State = Vec<Expr>;
    type Req = usize;
    type Resp = speccheck_dual::SymJson;
    fn init(&self) -> Vec<Expr> {
        Vec::new()
    }
    fn serve(&self, s: &mut Vec<Expr>, cx: &mut Cx<'_, Self>) -> Step {
        let (conn, n) = cx.recv()?;
        s.clear();
        for _ in 0..n {
            let moved = if ITE { cx.fresh_bool("moved")? } else { Expr::bool(cx.or()?) };
            s.push(Expr::ite(moved, Expr::str("there"), Expr::str("here")));
        }
        let items = s.iter().cloned().map(speccheck_dual::SymJson::Leaf).collect();
        cx.send(conn, speccheck_dual::SymJson::Array(items))
    }
}

/// Model steps taken to explain one response, and the states left.
fn subset_explained<const ITE: bool>(n: usize) -> (u64, Vec<Vec<Expr>>) {
    let mut v = Validator::<Subset<ITE>, Native>::new(Arc::new(Subset::<ITE>), Limits::default()).unwrap();
    v.observe_send(0, n).unwrap();
    let seen: Vec<Json> = (0..n).map(|i| json!(if i % 2 == 0 { "there" } else { "here" })).collect();
    v.observe_recv(0, &Json::Array(seen)).unwrap();
    (v.stats().model_steps, v.states().into_iter().cloned().collect())
}

#[test]
fn a_choice_of_any_subset_is_one_branch_with_a_boolean_per_item() {
    let expected =
        |n: usize| -> Vec<Expr> { (0..n).map(|i| Expr::str(if i % 2 == 0 { "there" } else { "here" })).collect() };
    // `or` per item explores every subset: twice the work per item...
    let (steps6, states) = subset_explained::<false>(6);
    let (steps8, _) = subset_explained::<false>(8);
    assert_eq!(states, vec![expected(6)]);
    assert!(steps6 >= 64 && steps8 >= 4 * steps6 - 4, "{steps6} then {steps8}");
    // ...a boolean per item is one branch, linear in the items, and the
    // observed subset makes the state concrete again.
    let (steps6, states) = subset_explained::<true>(6);
    let (steps8, _) = subset_explained::<true>(8);
    assert_eq!(states, vec![expected(6)]);
    assert!(steps6 <= 8 && steps8 - steps6 <= 2, "{steps6} then {steps8}");
}
