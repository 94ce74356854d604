//! Testing-by-dualization benchmark (issue 5), after the thesis's §6.1.3:
//! time and interactions to reject buggy servers, per planted bug, over
//! many seeds; the validator's cost per observation as the number of live
//! branches grows; and the solver decision (purpose-built vs z3), measured
//! in the same run.
//!
//! ```text
//! cargo run --release -p speccheck-bench --bin dual -- [--seeds N] [--max-executions N] [--out FILE]
//! ```
//! Needs libz3 (`apt-get install -y z3 libz3-dev`): the z3 backend is
//! compiled in for the comparison.

use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;
use speccheck::Config;
use speccheck_bench::{Summary, Table, machine};
use speccheck_dual::dual::{Limits, Validator};
use speccheck_dual::exec::Target;
use speccheck_dual::exec::inproc::InProcess;
use speccheck_dual::protocol::{Answering, Decoded, Protocol, Req, Resp, View, Wire};
use speccheck_dual::rand::rngs::SmallRng;
use speccheck_dual::serde_json::Value as Json;
use speccheck_dual::solver::{Native, Solver, Z3};
use speccheck_dual::sym::{Expr, Sort};
use speccheck_dual::{JExp, JFn, Tester};
use speccheck_fixtures::cmp::{Cmp, CmpBug, CmpServer};
use speccheck_fixtures::kv::{Kv, KvBug, KvModel, KvReq, KvResp, KvServer};
use speccheck_http::etag::weak_match;

const DECISION: &str = "
## Decision

The purpose-built solver (`Native`) is the validator's default: it decides the symbolic language exactly
(checked against brute force on every assertion of random constraint sets, and against z3 on the same sets
and on every query of the z3 rows above, which assert agreement), needs no system library, and is one to
two orders of magnitude cheaper per assertion than a z3 round trip. z3 stays available as the `z3` feature
of `speccheck-dual` (for cross-checking and for richer theories later).
";

#[derive(Parser, Debug)]
struct Args {
    /// Seeds (independent runs) per planted bug and configuration.
    #[arg(long, default_value_t = 100)]
    seeds: u64,
    /// Most executions per run before the bug counts as missed.
    #[arg(long, default_value_t = 400)]
    max_executions: u32,
    /// Repetitions of each validator-cost measurement.
    #[arg(long, default_value_t = 200)]
    reps: usize,
    /// Where to write the markdown results.
    #[arg(long)]
    out: Option<String>,
}

/// A protocol whose heuristics are blinded: they see neither the model's
/// states nor the trace (the ablation of thesis §5.2).
struct Blind<P>(P);

impl<P: Protocol> Protocol for Blind<P> {
    type Model = P::Model;
    fn name(&self) -> &str {
        self.0.name()
    }
    fn model(&self) -> Arc<P::Model> {
        self.0.model()
    }
    fn encode_request(&self, req: &Req<Self>, wire: &Wire) -> Vec<u8> {
        self.0.encode_request(req, wire)
    }
    fn decode_response(&self, bytes: &[u8], answering: &Answering<'_, Req<Self>>) -> Decoded<Resp<Self>> {
        self.0.decode_response(bytes, answering)
    }
    fn request_to_ir(&self, req: &Req<Self>) -> Json {
        self.0.request_to_ir(req)
    }
    fn request_from_ir(&self, ir: &Json) -> Option<Req<Self>> {
        self.0.request_from_ir(ir)
    }
    fn response_to_ir(&self, resp: &Resp<Self>) -> Json {
        self.0.response_to_ir(resp)
    }
    fn functions(&self) -> &[JFn] {
        self.0.functions()
    }
    fn propose(&self, view: &View<'_, Self>, rng: &mut SmallRng) -> JExp {
        let blind = View::<P> {
            states: Vec::new(),
            in_flight: Vec::new(),
            trace: &[],
            label: view.label,
            conn: view.conn,
            conns: view.conns,
        };
        self.0.propose(&blind, rng)
    }
}

/// One run: executions until the first failure (or the cap).
struct Found {
    time: Duration,
    interactions: f64,
    executions: f64,
}

fn hunt<P: Protocol, S: Solver>(p: P, target: impl Target + 'static, seed: u64, max: u32) -> Option<Found> {
    let config =
        Config { cases: max, seed: Some(seed), shrink: false, database: None, ..Config::named(format!("dual-{seed}")) };
    let r = Tester::<P, S>::with_solver(p, target).config(config).run();
    r.first_failure.map(|f| Found {
        time: f.after,
        interactions: f.interactions as f64,
        executions: f.executions as f64,
    })
}

fn fmt(s: &Summary, unit: &str) -> String {
    format!("{:.2} / {:.2} / {:.2}{unit}", s.mean, s.sd, s.p95)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Generator {
    Heuristic,
    Blind,
}

#[derive(Clone, Copy)]
enum Bug {
    Set(CmpBug),
    Rst(CmpBug),
    Kv(KvBug),
}

impl Bug {
    fn protocol(self) -> &'static str {
        match self {
            Bug::Set(_) => "CMP-SET",
            Bug::Rst(_) => "CMP-RST",
            Bug::Kv(_) => "key-value",
        }
    }
    fn name(self) -> String {
        match self {
            Bug::Set(b) | Bug::Rst(b) => format!("{b:?}"),
            Bug::Kv(b) => format!("{b:?}"),
        }
    }
    fn run<S: Solver>(self, g: Generator, seed: u64, max: u32) -> Option<Found> {
        match (self, g) {
            (Bug::Set(b), Generator::Heuristic) => {
                hunt::<_, S>(Cmp::set(), InProcess::new("cmp-set", move |_| CmpServer::set(Some(b))), seed, max)
            }
            (Bug::Set(b), Generator::Blind) => {
                hunt::<_, S>(Blind(Cmp::set()), InProcess::new("cmp-set", move |_| CmpServer::set(Some(b))), seed, max)
            }
            (Bug::Rst(b), Generator::Heuristic) => {
                hunt::<_, S>(Cmp::rst(), InProcess::new("cmp-rst", move |s| CmpServer::rst(Some(b), s)), seed, max)
            }
            (Bug::Rst(b), Generator::Blind) => hunt::<_, S>(
                Blind(Cmp::rst()),
                InProcess::new("cmp-rst", move |s| CmpServer::rst(Some(b), s)),
                seed,
                max,
            ),
            (Bug::Kv(b), Generator::Heuristic) => {
                hunt::<_, S>(Kv::new(), InProcess::new("kv", move |s| KvServer::service(Some(b), s)), seed, max)
            }
            (Bug::Kv(b), Generator::Blind) => {
                hunt::<_, S>(Blind(Kv::new()), InProcess::new("kv", move |s| KvServer::service(Some(b), s)), seed, max)
            }
        }
    }
}

const BUGS: [Bug; 13] = [
    Bug::Set(CmpBug::EqualIsSmaller),
    Bug::Set(CmpBug::PerConnection),
    Bug::Set(CmpBug::Malformed),
    Bug::Set(CmpBug::HangPipelined),
    Bug::Rst(CmpBug::StrictCompare),
    Bug::Rst(CmpBug::ForgetsOnZero),
    Bug::Rst(CmpBug::HangPipelined),
    Bug::Kv(KvBug::IgnoreIfMatch),
    Bug::Kv(KvBug::TagFromValue),
    Bug::Kv(KvBug::StaleAfterConditional),
    Bug::Kv(KvBug::CaseInsensitiveTags),
    Bug::Kv(KvBug::PerConnectionCache),
    Bug::Kv(KvBug::BrokenLongValues),
];

fn rejection_row<S: Solver>(table: &mut Table, bug: Bug, g: Generator, args: &Args) {
    let mut times = Vec::new();
    let mut inter = Vec::new();
    let mut execs = Vec::new();
    for seed in 0..args.seeds {
        if let Some(f) = bug.run::<S>(g, seed, args.max_executions) {
            times.push(f.time.as_secs_f64() * 1e3);
            inter.push(f.interactions);
            execs.push(f.executions);
        }
    }
    table.row(vec![
        bug.protocol().into(),
        bug.name(),
        match g {
            Generator::Heuristic => "heuristics".into(),
            Generator::Blind => "blind".into(),
        },
        S::NAME.into(),
        format!("{}/{}", times.len(), args.seeds),
        fmt(&Summary::of(&times), ""),
        fmt(&Summary::of(&inter), ""),
        format!("{:.1}", Summary::of(&execs).mean),
    ]);
}

// ----- validator cost --------------------------------------------------------

/// `w` connections each write key `a` concurrently; every write is
/// acknowledged with a distinct tag, so any of the `w!` orders explains
/// them: the validator holds `w!` branches. Then reads of a missing key on
/// one more connection: each is one send and one receive, over all
/// branches. Returns (branches, time per observation).
fn cost_per_observation<S: Solver>(w: usize, reps: usize) -> (usize, Duration) {
    let mut v = Validator::<KvModel, S>::new(
        Arc::new(KvModel),
        Limits { max_branches: 1_000_000, fuel: 10_000, ..Limits::default() },
    )
    .expect("the model starts");
    for c in 0..w {
        v.observe_send(c, KvReq::Put { key: "a".into(), value: format!("v{c}"), if_match: None }).unwrap();
    }
    for c in 0..w {
        v.observe_recv(c, &KvResp::Ok { tag: format!("t{c}") }).unwrap();
    }
    let branches = v.live();
    let started = Instant::now();
    for _ in 0..reps {
        v.observe_send(w, KvReq::Get("zz".into())).unwrap();
        v.observe_recv(w, &KvResp::NotFound).unwrap();
    }
    assert_eq!(v.live(), branches);
    (branches, started.elapsed() / (2 * reps as u32))
}

/// Time of one `assert` on a copy of a store holding `setup` (what a
/// branch does at every guard).
fn assert_cost<S: Solver>(
    setup: &dyn Fn(&mut S) -> Vec<Expr>,
    next: &dyn Fn(&[Expr]) -> Expr,
    reps: usize,
) -> Duration {
    let mut base = S::empty();
    let vars = setup(&mut base);
    let c = next(&vars);
    for _ in 0..reps.min(20) {
        std::hint::black_box(base.clone().assert(c.clone())); // warm-up
    }
    let started = Instant::now();
    for _ in 0..reps {
        let mut s = base.clone();
        std::hint::black_box(s.assert(c.clone()));
    }
    started.elapsed() / reps as u32
}

type Setup<S> = Box<dyn Fn(&mut S) -> Vec<Expr>>;
type Next = Box<dyn Fn(&[Expr]) -> Expr>;

fn scenarios<S: Solver>() -> Vec<(&'static str, Setup<S>, Next)> {
    vec![
        (
            "guard binds a tag (`tag == \"t7\"`)",
            Box::new(|s: &mut S| vec![Expr::Var(s.fresh(Sort::Str, "tag"))]),
            Box::new(|v: &[Expr]| v[0].equals("t7")),
        ),
        (
            "CMP-RST interval (`3 < n <= 9`, then `n != 5`)",
            Box::new(|s: &mut S| {
                let n = Expr::Var(s.fresh(Sort::Int, "n"));
                s.assert(n.gt(3));
                s.assert(n.le(9));
                vec![n]
            }),
            Box::new(|v: &[Expr]| v[0].not_equals(5)),
        ),
        (
            "fresh tag unlike 6 issued ones, then weak If-Match",
            Box::new(|s: &mut S| {
                let olds: Vec<Expr> = (0..6).map(|_| Expr::Var(s.fresh(Sort::Str, "old"))).collect();
                let t = Expr::Var(s.fresh(Sort::Str, "tag"));
                s.assert(Expr::and(olds.iter().map(|o| t.not_equals(o))));
                vec![t]
            }),
            Box::new(|v: &[Expr]| weak_match(&v[0], "W/\"x\"")),
        ),
    ]
}

fn main() {
    let args = Args::parse();
    let mut out = String::new();
    out.push_str("# Testing by dualization: benchmark\n\n");
    out.push_str(&format!(
        "Command: `cargo run --release -p speccheck-bench --bin dual -- --seeds {} --max-executions {} --reps {}`\n\nMachine: {}\n\n",
        args.seeds,
        args.max_executions,
        args.reps,
        machine()
    ));
    out.push_str(
        "Systems under test: in-process servers behind a simulated network (random per-message delays of 0–16\n\
         ticks, order kept per connection, reordered across connections), 2 client connections, at most 4\n\
         requests in flight, scripts of up to 40 steps. Shared machine: compare within this run only.\n\n",
    );

    // --- solver decision ----------------------------------------------------
    out.push_str("## Solver: purpose-built vs z3, one assertion on a branch's store\n\n");
    out.push_str("Each row clones a store holding the setup constraints and asserts one more (what every branch\n");
    out.push_str("does at each guard or symbolic branch). z3: the `z3` crate 0.22 over Debian's libz3 4.8.12,\n");
    out.push_str("push / assert all / check / pop on a thread-local solver.\n\n");
    let mut table = Table::new(&["constraint", "native µs", "z3 µs", "z3 ÷ native"]);
    let native = scenarios::<Native>();
    let z3 = scenarios::<Z3>();
    for ((name, setup_n, next_n), (_, setup_z, next_z)) in native.iter().zip(&z3) {
        let n = assert_cost::<Native>(&**setup_n, &**next_n, args.reps * 50);
        let z = assert_cost::<Z3>(&**setup_z, &**next_z, args.reps);
        table.row(vec![
            (*name).into(),
            format!("{:.2}", n.as_secs_f64() * 1e6),
            format!("{:.1}", z.as_secs_f64() * 1e6),
            format!("{:.0}×", z.as_secs_f64() / n.as_secs_f64()),
        ]);
    }
    out.push_str(&table.to_markdown());
    eprintln!("solver micro-benchmark done");

    // --- validator cost vs live branches ------------------------------------
    out.push_str("\n## Validator cost per observation as live branches grow\n\n");
    out.push_str("Key-value model: `w` connections write one key concurrently and each write is acknowledged, so\n");
    out.push_str("all `w!` orders stay possible (`w!` branches); then each observation is a read of a missing key\n");
    out.push_str("(a send and a receive) processed in every branch.\n\n");
    let mut table =
        Table::new(&["writers", "live branches", "native µs / obs", "z3 µs / obs", "native µs / obs / branch"]);
    for w in 1..=6usize {
        let reps = (args.reps / (1 << w.min(6))).max(4);
        let (b, n) = cost_per_observation::<Native>(w, reps);
        let (bz, z) = cost_per_observation::<Z3>(w, reps.min(20));
        assert_eq!(b, bz);
        table.row(vec![
            w.to_string(),
            b.to_string(),
            format!("{:.1}", n.as_secs_f64() * 1e6),
            format!("{:.1}", z.as_secs_f64() * 1e6),
            format!("{:.2}", n.as_secs_f64() * 1e6 / b as f64),
        ]);
    }
    out.push_str(&table.to_markdown());
    eprintln!("validator cost done");

    // --- time to reject -------------------------------------------------------
    out.push_str("\n## Time and interactions to reject, per planted bug\n\n");
    out.push_str(&format!(
        "{} seeds per row; a run executes until the first failure (shrinking off), at most {} executions.\n",
        args.seeds, args.max_executions
    ));
    out.push_str(
        "`heuristics`: the protocols' state- and trace-based generators; `blind`: the same generators shown\n",
    );
    out.push_str("neither model state nor trace (the ablation). Time: from the start of the run to the end of the\n");
    out.push_str("failing execution. Interactions: messages sent and received over all executions of the run.\n");
    out.push_str("Found: runs that rejected (or failed liveness) within the cap; statistics are over those.\n\n");
    let mut table = Table::new(&[
        "protocol",
        "bug",
        "generator",
        "solver",
        "found",
        "time ms (mean / sd / p95)",
        "interactions (mean / sd / p95)",
        "executions (mean)",
    ]);
    for bug in BUGS {
        for g in [Generator::Heuristic, Generator::Blind] {
            rejection_row::<Native>(&mut table, bug, g, &args);
        }
        eprintln!("rejection done: {} {}", bug.protocol(), bug.name());
    }
    for bug in [Bug::Set(CmpBug::PerConnection), Bug::Rst(CmpBug::ForgetsOnZero), Bug::Kv(KvBug::StaleAfterConditional)]
    {
        rejection_row::<Z3>(&mut table, bug, Generator::Heuristic, &args);
        eprintln!("rejection with z3 done: {} {}", bug.protocol(), bug.name());
    }
    out.push_str(&table.to_markdown());
    out.push_str(DECISION);
    println!("{out}");
    if let Some(path) = args.out {
        std::fs::write(&path, &out).expect("write results");
    }
}
