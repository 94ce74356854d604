//! The HTTP/1.1 tester's evaluation (thesis §6.1, Fig. 6.2): every mutant
//! of the bundled reference server over several seeds — rejected or not,
//! time and messages to the first rejection, shrunk trace length — the
//! reference server's soundness over many executions, throughput against
//! the bundled server (and nginx / Apache when given), and the validator's
//! cost per observation as connections grow.
//!
//! `cargo run --release -p speccheck-bench --bin http -- --seeds 10`
//! writes `bench/results/http.md`.

use std::net::SocketAddr;
use std::time::Duration;

use clap::Parser;
use speccheck::runner::report::RunVerdict;
use speccheck_bench::{Summary, Table, fmt_seconds as fmt_s, machine, median};
use speccheck_dual::exec::Target;
use speccheck_dual::exec::tcp::Tcp;
use speccheck_dual::rule::Level;
use speccheck_dual::tester::{DualReport, Tester};
use speccheck_fixtures::http::{HttpBug, HttpServer};
use speccheck_http::{Http, Method, Vocabulary};

#[derive(Parser)]
struct Args {
    /// Seeds per mutant.
    #[arg(long, default_value_t = 10)]
    seeds: u64,
    /// Most executions per mutant run.
    #[arg(long, default_value_t = 2000)]
    max_executions: u32,
    /// Executions of the long run against the reference server (throughput).
    #[arg(long, default_value_t = 1000)]
    soundness: u32,
    /// Seeded runs against the reference server (soundness: seeds 1..=N).
    #[arg(long, default_value_t = 1000)]
    soundness_runs: u64,
    /// Executions per seeded soundness run.
    #[arg(long, default_value_t = 25)]
    soundness_executions: u32,
    /// nginx at this address (optional).
    #[arg(long)]
    nginx: Option<SocketAddr>,
    /// Apache httpd at this address (optional).
    #[arg(long)]
    apache: Option<SocketAddr>,
    /// Only this mutant (by name), printed and not written: for chasing one mutant's runs.
    #[arg(long)]
    mutant: Option<String>,
    /// Output file.
    #[arg(long, default_value = "bench/results/http.md")]
    out: String,
}

fn tester(target: impl Target + 'static, http: Http, seed: u64, executions: u32, conns: usize) -> Tester<Http> {
    strict_or_not(target, http, seed, executions, conns, Level::Must)
}

/// A tester enforcing the rules up to `enforce` (`Level::Should`: `--strict`).
fn strict_or_not(
    target: impl Target + 'static,
    http: Http,
    seed: u64,
    executions: u32,
    conns: usize,
    enforce: Level,
) -> Tester<Http> {
    Tester::new(http, target).with_settings(|s| (s.conns, s.enforce) = (conns, enforce)).configure(|c| {
        c.cases = executions;
        c.seed = Some(seed);
        c.time_budget = Some(Duration::from_secs(60));
    })
}

fn bundled(bug: Option<HttpBug>) -> Tcp {
    Tcp::spawn("bundled", move |seed| HttpServer::service(bug, seed))
}

fn mutants(args: &Args, out: &mut String) {
    out.push_str("## Mutants of the bundled reference server\n\n");
    out.push_str(&format!(
        "Each mutant is tested {} times (seeds 1..={}), each run up to {} executions of up to 40 steps over 2\n\
         connections (the CLI's defaults), a fresh server per execution, over TCP on 127.0.0.1. Time and messages\n\
         are to the first rejection (before shrinking); the shrunk trace is the messages of the final, shrunk\n\
         interaction. A rejection counts when its confirmation reproduced it (up to 8 attempts: the interleaving\n\
         of the connections is the server's); \"flaky\" ones were observed but did not reproduce. Liveness window: 500 ms (the tester's default), which is the floor for the mutants that\n\
         hang or misframe a response. A mutant that breaks only a SHOULD is never rejected by a default run (it\n\
         is a finding, every seed below says so); its row is a strict run's (`--strict`).\n\n",
        args.seeds, args.seeds, args.max_executions
    ));
    let mut table = Table::new(&[
        "mutant",
        "rejected (reproduced)",
        "time median",
        "time p95",
        "time max",
        "messages median",
        "messages p95",
        "shrunk trace (messages), median",
    ]);
    let mut all_times = Vec::new();
    for bug in HttpBug::ALL.into_iter().filter(|b| args.mutant.as_deref().is_none_or(|m| m == b.name())) {
        let (mut times, mut msgs, mut shrunk) = (Vec::new(), Vec::new(), Vec::new());
        let (mut rejected, mut flaky, mut found) = (0, 0, 0);
        let should = bug.breaks_only_a_should();
        for seed in 1..=args.seeds {
            if should {
                // A default run: a finding, never a rejection.
                let r = tester(bundled(Some(bug)), Http::new(), seed, args.max_executions, 2).run();
                if r.passed() && !r.findings.is_empty() {
                    found += 1;
                } else {
                    eprintln!("{} seed {seed}: no finding, or not a pass:\n{r}", bug.name());
                }
            }
            let enforce = if should { Level::Should } else { Level::Must };
            let r = strict_or_not(bundled(Some(bug)), Http::new(), seed, args.max_executions, 2, enforce).run();
            if let (RunVerdict::Failed(_), Some(ff)) = (&r.run.verdict, &r.first_failure) {
                rejected += 1;
                times.push(ff.after.as_secs_f64());
                msgs.push(ff.interactions as f64);
                shrunk.push(r.final_execution.as_ref().map_or(0, |e| e.trace.len()) as f64);
            } else {
                if matches!(r.run.verdict, RunVerdict::Flaky(_)) {
                    flaky += 1;
                }
                eprintln!("{} seed {seed}: not rejected:\n{r}", bug.name());
            }
        }
        all_times.extend(times.iter().copied());
        let t = Summary::of(&times);
        let m = Summary::of(&msgs);
        let strict =
            if should { format!(" strictly; a finding by default {found}/{}", args.seeds) } else { String::new() };
        table.row(vec![
            format!("`{}`", bug.name()),
            if flaky > 0 {
                format!("{rejected}/{} ({flaky} flaky){strict}", args.seeds)
            } else {
                format!("{rejected}/{}{strict}", args.seeds)
            },
            fmt_s(median(&times)),
            fmt_s(t.p95),
            fmt_s(times.iter().copied().fold(0.0, f64::max)),
            format!("{:.0}", median(&msgs)),
            format!("{:.0}", m.p95),
            format!("{:.0}", median(&shrunk)),
        ]);
        eprintln!("{}: {rejected}/{}", bug.name(), args.seeds);
    }
    out.push_str(&table.to_markdown());
    let s = Summary::of(&all_times);
    out.push_str(&format!(
        "\nOver all mutants and seeds: time to reject mean {}, sd {}, p95 {}, max {}.\n\n",
        fmt_s(s.mean),
        fmt_s(s.sd),
        fmt_s(s.p95),
        fmt_s(all_times.iter().copied().fold(0.0, f64::max))
    ));
}

fn throughput_line(name: &str, r: &DualReport, elapsed: Duration) -> Vec<String> {
    vec![
        name.to_string(),
        r.run.summary(),
        r.executions.to_string(),
        r.interactions.to_string(),
        format!("{:.0}", r.interactions as f64 / elapsed.as_secs_f64()),
        r.inconclusive.to_string(),
    ]
}

/// The reference server under many seeds: every run must pass, with no
/// inconclusive execution (a correct server is never rejected).
fn seeded_soundness(args: &Args, out: &mut String) {
    out.push_str("## Soundness over seeded runs\n\n");
    out.push_str(&format!(
        "The bundled reference server, {} runs (seeds 1..={}), each {} executions of up to 40 steps over 2\n\
         connections with shrinking on (the CLI's settings but the execution count), a fresh server per\n\
         execution. Any run that did not pass is listed with its report.\n\n",
        args.soundness_runs, args.soundness_runs, args.soundness_executions
    ));
    let (mut passed, mut executions, mut messages, mut inconclusive) = (0u64, 0u64, 0u64, 0u64);
    let mut failures = Vec::new();
    let t = std::time::Instant::now();
    for seed in 1..=args.soundness_runs {
        let r = tester(bundled(None), Http::new(), seed, args.soundness_executions, 2).run();
        executions += r.executions;
        messages += r.interactions;
        inconclusive += r.inconclusive;
        if r.passed() && r.executions == u64::from(args.soundness_executions) {
            passed += 1;
        } else {
            eprintln!("reference server, seed {seed}: {}", r.run.summary());
            failures.push(format!("seed {seed}:\n\n```\n{r}\n```\n"));
        }
    }
    let mut table = Table::new(&[
        "runs",
        "passed (all executions run)",
        "not passed",
        "executions",
        "messages",
        "inconclusive executions",
        "wall time",
    ]);
    table.row(vec![
        args.soundness_runs.to_string(),
        passed.to_string(),
        failures.len().to_string(),
        executions.to_string(),
        messages.to_string(),
        inconclusive.to_string(),
        fmt_s(t.elapsed().as_secs_f64()),
    ]);
    out.push_str(&table.to_markdown());
    for f in &failures {
        out.push_str(f);
    }
    out.push('\n');
}

fn soundness(args: &Args, out: &mut String) {
    out.push_str("## Long runs and throughput\n\n");
    out.push_str(&format!(
        "The reference server over {} executions (one run, seed 7, 2 connections); nginx and Apache (when\n\
         given) over 500 executions each with the settings that avoid their known deviations (below):\n\
         GET, HEAD, PUT and DELETE only, conditional headers on GET and HEAD only, bodies of distinct lengths, no\n\
         ranges, and for Apache one connection.\n\n",
        args.soundness
    ));
    let mut table =
        Table::new(&["system", "verdict", "executions", "messages", "messages / s", "inconclusive executions"]);
    let t = std::time::Instant::now();
    let r = tester(bundled(None), Http::new(), 7, args.soundness, 2).run();
    table.row(throughput_line("bundled reference server", &r, t.elapsed()));
    let avoid = || {
        Http::new().vocabulary(Vocabulary {
            bodies: ["", "x", "hello", "0123456789abcdef"].iter().map(|s| s.to_string()).collect(),
            // nginx answers POST, OPTIONS, PATCH and unknown methods 405
            // without Allow (servers/FINDINGS.md).
            methods: vec![Method::Get, Method::Head, Method::Put, Method::Delete],
            conditional: vec![Method::Get, Method::Head],
            ranges: false,
            ..Vocabulary::default()
        })
    };
    for (name, addr, conns) in [("nginx", args.nginx, 2), ("Apache httpd", args.apache, 1)] {
        let Some(addr) = addr else { continue };
        let t = std::time::Instant::now();
        let r = tester(Tcp::connect(addr, None), avoid().host(addr.to_string()), 7, 500, conns).run();
        table.row(throughput_line(name, &r, t.elapsed()));
        if !r.passed() {
            out.push_str(&format!("\n{name}:\n\n```\n{r}\n```\n"));
        }
    }
    out.push_str(&table.to_markdown());
}

fn validator_cost(out: &mut String) {
    out.push_str("\n## Validator cost per observation as connections grow\n\n");
    out.push_str(
        "The reference server, 300 executions per row (seed 11), up to 4 requests in flight: time inside the\n\
         validator divided by the observations (requests sent and responses received), and the most branches\n\
         alive at once.\n\n",
    );
    let mut table = Table::new(&["connections", "µs / observation (mean)", "sd", "p95", "max branches"]);
    for conns in 1..=4 {
        let costs = std::sync::Arc::new(std::sync::Mutex::new(Vec::<(f64, usize)>::new()));
        let c = costs.clone();
        let _ = tester(bundled(None), Http::new(), 11, 300, conns)
            .on_execution(move |e| {
                let obs = e.validator.observations.max(1);
                let per = e.validation.as_secs_f64() * 1e6 / obs as f64;
                c.lock().unwrap_or_else(|e| e.into_inner()).push((per, e.validator.max_branches));
            })
            .run();
        let costs = costs.lock().unwrap_or_else(|e| e.into_inner());
        let per: Vec<f64> = costs.iter().map(|c| c.0).collect();
        let s = Summary::of(&per);
        let branches = costs.iter().map(|c| c.1).max().unwrap_or(0);
        table.row(vec![
            conns.to_string(),
            format!("{:.1}", s.mean),
            format!("{:.1}", s.sd),
            format!("{:.1}", s.p95),
            branches.to_string(),
        ]);
    }
    out.push_str(&table.to_markdown());
}

fn main() {
    let args = Args::parse();
    let mut out = String::from("# HTTP/1.1 tester: mutants, soundness, throughput\n\n");
    let mut command = format!("cargo run --release -p speccheck-bench --bin http -- --seeds {}", args.seeds);
    if args.nginx.is_some() {
        command.push_str(" --nginx 127.0.0.1:$NGINX_PORT");
    }
    if args.apache.is_some() {
        command.push_str(" --apache 127.0.0.1:$APACHE_PORT");
    }
    out.push_str(&format!(
        "Command: `{command}` (servers started with `servers/nginx.sh start` / `servers/apache.sh start`)\n\n\
         Machine: {}\n\nShared machine: compare within this run only.\n\n",
        machine()
    ));
    mutants(&args, &mut out);
    if args.mutant.is_some() {
        println!("{out}");
        return;
    }
    seeded_soundness(&args, &mut out);
    soundness(&args, &mut out);
    validator_cost(&mut out);
    std::fs::write(&args.out, &out).expect("writing the results");
    println!("{out}");
}
