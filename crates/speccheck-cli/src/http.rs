//! `speccheck http`: tests an HTTP/1.1 server against the model — the
//! bundled reference server (or one of its mutants) when no target is
//! given, a server on the loopback interface otherwise.
//!
//! A default run rejects a server only when it breaks a MUST of RFC 9110;
//! a SHOULD it does not follow is a finding, printed with its clause and
//! trace (`--strict` enforces SHOULDs too). Exit status: see
//! [`crate::report`] (0 passed, 1 rejected, 2 setup error, 3 flaky, 4 no
//! verdict).

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use speccheck::runner::report::RunVerdict;
use speccheck_dual::exec::tcp::Tcp;
use speccheck_dual::rule::Level;
use speccheck_dual::tester::{DualReport, Tester};
use speccheck_fixtures::http::{HttpBug, HttpServer};
use speccheck_http::{Http, Isolation, Method, Vocabulary};

/// Options of `speccheck http`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The server, HOST:PORT (default: start the bundled reference server).
    #[arg(long)]
    pub target: Option<String>,
    /// Allow a target that is not on the loopback interface.
    #[arg(long)]
    pub allow_remote: bool,
    /// Test a mutant of the bundled server instead (see --list-mutants).
    #[arg(long, conflicts_with = "target")]
    pub mutant: Option<String>,
    /// List the bundled server's mutants and exit.
    #[arg(long)]
    pub list_mutants: bool,
    /// Concurrent client connections.
    #[arg(long, default_value_t = 2)]
    pub connections: usize,
    /// Most steps (requests and pauses) per execution.
    #[arg(long, default_value_t = 40)]
    pub steps: usize,
    /// Executions (each against a fresh server, or fresh resource names).
    #[arg(long, default_value_t = 200)]
    pub executions: u32,
    /// Time budget of the whole run, in seconds.
    #[arg(long, default_value_t = 120)]
    pub time: u64,
    /// Seed (default: random, printed in the report).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Resource names, comma-separated (default a,b,c).
    #[arg(long, value_delimiter = ',')]
    pub paths: Vec<String>,
    /// Bodies of PUT and POST, comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub bodies: Vec<String>,
    /// The methods to send, comma-separated (default GET, HEAD, PUT, DELETE,
    /// POST, OPTIONS, PATCH and BREW).
    #[arg(long, value_delimiter = ',')]
    pub methods: Vec<String>,
    /// Send no Range / If-Range.
    #[arg(long)]
    pub no_ranges: bool,
    /// Methods whose requests may carry If-Match / If-None-Match,
    /// comma-separated (default GET,HEAD,PUT,DELETE; `none` for none).
    #[arg(long, value_delimiter = ',')]
    pub conditional: Vec<String>,
    /// A directory below the document root for every resource, e.g. `dav/`.
    #[arg(long, default_value = "")]
    pub base: String,
    /// A shell command that resets the server to no resources, run before
    /// each execution; then resource names are used as they are (without
    /// it, each execution uses names of its own).
    #[arg(long)]
    pub reset: Option<String>,
    /// How long requests may go unanswered before a liveness failure, in
    /// milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub liveness_ms: u64,
    /// How many distinct failures (different rules broken) to look for:
    /// after each, the search goes on for the next, each shrunk on its own.
    #[arg(long, default_value_t = speccheck_dual::tester::DISTINCT_FAILURES)]
    pub failures: usize,
    /// Do not look for findings (SHOULDs not followed): saves the second,
    /// strict validator's work.
    #[arg(long)]
    pub no_findings: bool,
    /// Reject for SHOULDs of RFC 9110 too (by default only a MUST rejects;
    /// a SHOULD not followed is reported as a finding).
    #[arg(long)]
    pub strict: bool,
    /// Write a machine-readable report here.
    #[arg(long)]
    pub json: Option<PathBuf>,
}

/// Runs `speccheck http`; returns the exit status.
pub fn run(args: Args) -> anyhow::Result<i32> {
    if args.list_mutants {
        for bug in HttpBug::ALL {
            println!("{:<28} {}", bug.name(), bug.describe());
        }
        return Ok(0);
    }
    let mutant = match &args.mutant {
        Some(name) => Some(name.parse::<HttpBug>().map_err(|e| anyhow::anyhow!("{e}"))?),
        None => None,
    };
    let conditional = match args.conditional.as_slice() {
        [] => Vocabulary::default().conditional,
        [none] if none == "none" => Vec::new(),
        names => names
            .iter()
            .map(|m| Method::parse(m).ok_or_else(|| anyhow::anyhow!("--conditional: {m:?} is not a method")))
            .collect::<anyhow::Result<_>>()?,
    };
    let methods = args
        .methods
        .iter()
        .map(|m| Method::parse(m).ok_or_else(|| anyhow::anyhow!("--methods: {m:?} is not a method")))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let vocabulary = Vocabulary {
        paths: args.paths.clone(),
        bodies: args.bodies.clone(),
        other_methods: Vec::new(),
        methods,
        conditional,
        ranges: !args.no_ranges,
    };
    for p in &vocabulary.paths {
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
            bail!("--paths: {p:?} is not a resource name (letters, digits, - and _)");
        }
    }
    let mut http = Http::new().vocabulary(vocabulary).base(args.base.clone());
    let (target, described) = match &args.target {
        None => {
            let name = match mutant {
                Some(b) => format!("bundled reference server, mutant {}", b.name()),
                None => "bundled reference server".to_string(),
            };
            (Tcp::spawn(name.clone(), move |seed| HttpServer::service(mutant, seed)), name)
        }
        Some(t) => {
            let addr = resolve(t, args.allow_remote)?;
            let reset = args
                .reset
                .clone()
                .map(|cmd| Arc::new(move || run_reset(&cmd)) as Arc<dyn Fn() -> Result<(), String> + Send + Sync>);
            if reset.is_some() {
                http = http.isolation(Isolation::Shared);
            }
            http = http.host(addr.to_string());
            (Tcp::connect(addr, reset), format!("{addr}"))
        }
    };
    let bar = ProgressBar::new(u64::from(args.executions));
    bar.set_style(
        ProgressStyle::with_template("{spinner} {pos}/{len} executions {msg} [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let progress = bar.clone();
    let branches = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let most = branches.clone();
    let slowest = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let slow = slowest.clone();
    let started = Instant::now();
    let tester = Tester::new(http.clone(), target)
        .with_settings(|s| {
            s.conns = args.connections.max(1);
            s.fuel = args.steps.max(1);
            s.liveness = Duration::from_millis(args.liveness_ms);
            if args.strict {
                s.enforce = Level::Should;
            }
            s.findings = !args.no_findings;
        })
        .configure(|c| {
            c.cases = args.executions;
            c.seed = args.seed;
            c.time_budget = Some(Duration::from_secs(args.time));
        })
        .distinct_failures(args.failures)
        .on_execution(move |e| {
            most.fetch_max(e.validator.max_branches, std::sync::atomic::Ordering::Relaxed);
            slow.fetch_max(e.validation.as_millis() as u64, std::sync::atomic::Ordering::Relaxed);
            progress.inc(1);
            progress.set_message(format!("({} messages in the last)", e.interactions()));
        });
    let report = tester.run();
    bar.finish_and_clear();
    print_report(&report, &http, &described);
    let branches = branches.load(std::sync::atomic::Ordering::Relaxed);
    let slowest = slowest.load(std::sync::atomic::Ordering::Relaxed);
    println!(
        "  the validator kept at most {branches} branches of the model alive at once; the longest validation of \
         one execution took {slowest} ms"
    );
    if let Some(path) = &args.json {
        let mut j = crate::report::json_report(&report, &described, started.elapsed());
        j["max_branches"] = json!(branches);
        j["slowest_validation_ms"] = json!(slowest);
        std::fs::write(path, serde_json::to_string_pretty(&j)?)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(crate::report::exit_status(&report))
}

/// The target's address; loopback only unless `allow_remote`.
fn resolve(target: &str, allow_remote: bool) -> anyhow::Result<SocketAddr> {
    let addrs: Vec<SocketAddr> =
        target.to_socket_addrs().with_context(|| format!("--target {target:?} is not HOST:PORT"))?.collect();
    let Some(addr) = addrs.iter().find(|a| a.ip().is_loopback()).or(addrs.first()).copied() else {
        bail!("--target {target:?} resolves to no address");
    };
    if !addr.ip().is_loopback() && !allow_remote {
        bail!("--target {target} is {addr}, not on the loopback interface: pass --allow-remote to test it");
    }
    Ok(addr)
}

fn run_reset(cmd: &str) -> Result<(), String> {
    let out = std::process::Command::new("sh").arg("-c").arg(cmd).output().map_err(|e| format!("{cmd}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("`{cmd}` failed ({}): {}", out.status, String::from_utf8_lossy(&out.stderr).trim()))
    }
}

fn print_report(report: &DualReport, http: &Http, target: &str) {
    println!("speccheck http: {target}");
    if let (RunVerdict::Failed(_) | RunVerdict::Flaky(_), Some(exec)) = (&report.run.verdict, &report.final_execution) {
        println!("{}\n", exec.verdict);
        println!("the shrunk interaction ({} messages):\n", exec.trace.len());
        println!("{}", http.render(exec));
    }
    println!("{report}");
    for (i, o) in report.other_failures.iter().enumerate() {
        println!("another failure ({} of {}): {}", i + 2, report.other_failures.len() + 1, o.run.summary());
        if let Some(exec) = &o.final_execution {
            println!("{}\n", exec.verdict);
            println!("{}", http.render(exec));
        }
    }
    for f in &report.findings {
        println!("finding: {} (seen in {} executions)", f.identity, f.seen);
        println!("{}\n", f.rejection);
        println!("the first trace that showed it ({} messages):\n", f.execution.trace.len());
        println!("{}", http.render_finding(&f.execution, &f.rejection));
    }
}
