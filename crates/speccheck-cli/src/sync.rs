//! `speccheck sync`: tests a file synchronizer against the model of
//! reconciliation — the bundled reference synchronizer (or one of its
//! mutants) when no command is given, any command otherwise (Unison:
//! `--unison`).
//!
//! Exit status: 0 when the synchronizer passed, 1 when it was rejected, 2
//! when there is no verdict (a setup error: the command is not found).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use speccheck::runner::report::RunVerdict;
use speccheck_dual::tester::Tester;
use speccheck_fixtures::sync::SyncBug;
use speccheck_sync::Sync;
use speccheck_sync::session::Synchronizer;

/// How `--unison` runs Unison: batch mode, no question about deleting a
/// whole replica, quiet.
pub const UNISON: &str = "unison {a} {b} -batch -confirmbigdel=false -silent";

/// Options of `speccheck sync`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The synchronizer, a shell command: `{a}` and `{b}` are the
    /// replicas, `{state}` a directory for its own state (also $HOME and
    /// $UNISON). Default: the bundled reference synchronizer.
    #[arg(long)]
    pub command: Option<String>,
    /// Test Unison (`unison {a} {b} -batch -confirmbigdel=false -silent`).
    #[arg(long, conflicts_with = "command")]
    pub unison: bool,
    /// Test a mutant of the bundled synchronizer instead (see --list-mutants).
    #[arg(long, conflicts_with_all = ["command", "unison"])]
    pub mutant: Option<String>,
    /// List the bundled synchronizer's mutants and exit.
    #[arg(long)]
    pub list_mutants: bool,
    /// Most steps (file operations, synchronizations, delays) per execution.
    #[arg(long, default_value_t = 30)]
    pub steps: usize,
    /// Executions (each with fresh replicas and a fresh archive).
    #[arg(long, default_value_t = 200)]
    pub executions: u32,
    /// Time budget of the whole run, in seconds.
    #[arg(long, default_value_t = 300)]
    pub time: u64,
    /// Seed (default: random, printed in the report).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Longest one synchronization may take before it is stopped, in seconds.
    #[arg(long, default_value_t = 10)]
    pub timeout: u64,
    /// What a delay step waits, in milliseconds (the file system's
    /// timestamp granularity).
    #[arg(long, default_value_t = 20)]
    pub delay_ms: u64,
    /// Write a machine-readable report here.
    #[arg(long)]
    pub json: Option<PathBuf>,
}

/// Runs `speccheck sync`; returns the exit status.
pub fn run(args: Args) -> anyhow::Result<i32> {
    if args.list_mutants {
        for bug in SyncBug::ALL {
            println!("{:<24} {}", bug.name(), bug.describe());
        }
        return Ok(0);
    }
    let (command, described) = command(&args)?;
    let mut sync = Synchronizer::new(command);
    sync.timeout = Duration::from_secs(args.timeout.max(1));
    sync.delay = Duration::from_millis(args.delay_ms);
    let target = sync.target().map_err(|e| anyhow::anyhow!("{e}"))?;
    let bar = ProgressBar::new(u64::from(args.executions));
    bar.set_style(
        ProgressStyle::with_template("{spinner} {pos}/{len} executions {msg} [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let progress = bar.clone();
    let codes: Arc<Mutex<BTreeMap<i64, u64>>> = Arc::default();
    let seen = codes.clone();
    let started = Instant::now();
    let report = Tester::new(Sync::detect(), target)
        .with_settings(|s| {
            s.conns = 1;
            s.fuel = args.steps.max(1);
            s.liveness = Duration::from_millis(500);
        })
        .configure(|c| {
            c.cases = args.executions;
            c.seed = args.seed;
            c.time_budget = Some(Duration::from_secs(args.time));
        })
        .on_execution(move |e| {
            let mut codes = seen.lock().unwrap_or_else(|p| p.into_inner());
            for code in e.trace.iter().filter(|t| !t.sent).filter_map(|t| t.ir.get("exit")?.as_i64()) {
                *codes.entry(code).or_default() += 1;
            }
            progress.inc(1);
        })
        .run();
    bar.finish_and_clear();
    println!("speccheck sync: {described}");
    if let (RunVerdict::Failed(_) | RunVerdict::Flaky(_), Some(exec)) = (&report.run.verdict, &report.final_execution) {
        println!("{}\n", exec.verdict);
        println!("the shrunk run ({} steps):\n", exec.trace.len());
        println!("{}", exec.trace_lines());
    }
    println!("{report}");
    let codes = codes.lock().unwrap_or_else(|p| p.into_inner()).clone();
    let shown: Vec<String> = codes.iter().map(|(c, n)| format!("exit {c}: {n}")).collect();
    println!("  synchronizations: {}", if shown.is_empty() { "none".to_string() } else { shown.join(", ") });
    let finished: u64 = codes.iter().filter(|(c, _)| matches!(c, 0 | 1)).map(|(_, n)| n).sum();
    if !speccheck_sync::session::permissions_enforced() {
        // Said, so a pass is not read as covering read-only directories.
        println!("  note: running as the superuser: permission bits did not bind the tester's own operations");
    }
    if report.passed() && finished == 0 {
        // Exit 2 allows any subset of the propagations, none included: a
        // pass then says nothing about what a synchronization propagates.
        println!(
            "  warning: no synchronization finished (exit 0 or 1): nothing checked what a finished one propagates"
        );
    }
    if let Some(path) = &args.json {
        let mut j = crate::report::json_report(&report, &described, started.elapsed());
        j["exit_codes"] = json!(codes.iter().map(|(c, n)| (c.to_string(), n)).collect::<BTreeMap<_, _>>());
        std::fs::write(path, serde_json::to_string_pretty(&j)?)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(crate::report::exit_status(&report))
}

/// The command to test and how the report names it.
fn command(args: &Args) -> anyhow::Result<(String, String)> {
    if args.unison {
        return Ok((UNISON.to_string(), format!("Unison (`{UNISON}`)")));
    }
    if let Some(c) = &args.command {
        anyhow::ensure!(c.contains("{a}") && c.contains("{b}"), "--command must name both replicas, {{a}} and {{b}}");
        return Ok((c.clone(), format!("`{c}`")));
    }
    let bug = match &args.mutant {
        Some(name) => Some(SyncBug::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = SyncBug::ALL.iter().map(|b| b.name()).collect();
            anyhow::anyhow!("no mutant {name:?}; the mutants are {}", names.join(", "))
        })?),
        None => None,
    };
    let exe = std::env::current_exe().context("locating the speccheck executable")?;
    let exe = format!("'{}'", exe.display().to_string().replace('\'', r"'\''"));
    let flag = bug.map(|b| format!(" --bug {}", b.name())).unwrap_or_default();
    let described = match bug {
        Some(b) => format!("bundled reference synchronizer, mutant {}", b.name()),
        None => "bundled reference synchronizer".to_string(),
    };
    Ok((format!("{exe} sync-reference{flag} {{a}} {{b}} {{state}}"), described))
}

/// `speccheck sync-reference [--bug NAME] A B STATE`: the bundled
/// synchronizer itself (what `speccheck sync` runs by default, as a
/// process started from this executable: see `main.rs`).
pub fn reference(args: &[String]) -> i32 {
    speccheck_fixtures::sync::main_with_args(args)
}
