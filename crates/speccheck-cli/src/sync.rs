//! `speccheck sync`: tests a file synchronizer against the model of
//! reconciliation — the bundled reference synchronizer (or one of its
//! mutants) when nothing else is given; a synchronizer's profile
//! (`--profile unison`, `--profile rclone-bisync`, `--profile FILE.toml`);
//! or any command under the strict model (`--command`).
//!
//! Exit status: 0 when the synchronizer passed, 1 when it was rejected, 2
//! when there is no verdict (a setup error: the command is not found).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use speccheck::runner::report::RunVerdict;
use speccheck_fixtures::sync::SyncBug;
use speccheck_sync::Profile;
use speccheck_sync::profile::BUILTIN;
use speccheck_sync::session::Synchronizer;

/// Options of `speccheck sync`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The synchronizer, a shell command held to the strict model: `{a}`
    /// and `{b}` are the replicas, `{state}` a directory for its own state
    /// (its working directory). Default: the bundled reference synchronizer.
    #[arg(long)]
    pub command: Option<String>,
    /// A synchronizer's profile: a built-in one (`unison`, `rclone-bisync`,
    /// `reference`) or a TOML (JSON: `.json`) file — how to run it and
    /// which of the model's freedoms it takes.
    #[arg(long, conflicts_with = "command")]
    pub profile: Option<String>,
    /// Test Unison: `--profile unison`.
    #[arg(long, conflicts_with_all = ["command", "profile"])]
    pub unison: bool,
    /// Test a mutant of the bundled synchronizer instead (see --list-mutants).
    #[arg(long, conflicts_with_all = ["command", "unison", "profile"])]
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
    let profile = profile(&args)?;
    let described = profile.name.clone();
    let mut sync = Synchronizer::from_profile(profile);
    sync.timeout = Duration::from_secs(args.timeout.max(1));
    sync.delay = Duration::from_millis(args.delay_ms);
    let bar = ProgressBar::new(u64::from(args.executions));
    bar.set_style(
        ProgressStyle::with_template("{spinner} {pos}/{len} executions {msg} [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let progress = bar.clone();
    let started = Instant::now();
    let (tester, tally) = sync.tester_observed(move |_| progress.inc(1)).map_err(|e| anyhow::anyhow!("{e}"))?;
    let report = tester
        .with_settings(|s| {
            s.fuel = args.steps.max(1);
            s.liveness = Duration::from_millis(500);
        })
        .configure(|c| {
            c.cases = args.executions;
            c.seed = args.seed;
            c.time_budget = Some(Duration::from_secs(args.time));
        })
        .run();
    bar.finish_and_clear();
    println!("speccheck sync: {described}");
    let taken = sync.profile.freedoms_taken();
    if !taken.is_empty() {
        println!("  freedoms taken (its profile): {}", taken.join(", "));
    }
    if let (RunVerdict::Failed(_) | RunVerdict::Flaky(_), Some(exec)) = (&report.run.verdict, &report.final_execution) {
        println!("{}\n", exec.verdict);
        println!("the shrunk run ({} steps):\n", exec.trace.len());
        println!("{}", exec.trace_lines());
    }
    println!("{report}");
    let coverage = tally.get();
    let shown: Vec<String> = coverage.exit_codes.iter().map(|(c, n)| format!("exit {c}: {n}")).collect();
    println!("  synchronizations: {}", if shown.is_empty() { "none".to_string() } else { shown.join(", ") });
    println!("  exercised: {coverage}");
    let exit = &sync.profile.exit;
    let finished: u64 = coverage
        .exit_codes
        .iter()
        .filter(|(c, _)| exit.synced.contains(c) || exit.conflicts.contains(c))
        .map(|(_, n)| n)
        .sum();
    if !speccheck_sync::session::permissions_enforced() {
        // Said, so a pass is not read as covering read-only directories.
        println!("  note: running as the superuser: permission bits did not bind the tester's own operations");
    }
    if report.passed() && finished == 0 {
        // A stopped run allows any subset of the propagations, none
        // included: a pass then says nothing about what a synchronization
        // propagates.
        println!(
            "  warning: no synchronization finished (synced or conflicts left): nothing checked what a finished one propagates"
        );
    }
    if let Some(path) = &args.json {
        let mut j = crate::report::json_report(&report, &described, started.elapsed());
        j["exit_codes"] = coverage.to_json()["exit_codes"].clone();
        j["coverage"] = coverage.to_json();
        j["freedoms"] = json!(taken);
        std::fs::write(path, serde_json::to_string_pretty(&j)?)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(crate::report::exit_status(&report))
}

/// The profile to test with.
fn profile(args: &Args) -> anyhow::Result<Profile> {
    if args.unison {
        return Ok(Profile::unison());
    }
    if let Some(c) = &args.command {
        anyhow::ensure!(c.contains("{a}") && c.contains("{b}"), "--command must name both replicas, {{a}} and {{b}}");
        return Ok(Profile::strict(format!("`{c}`"), c.clone()));
    }
    match args.profile.as_deref() {
        None | Some("reference") => {}
        Some(name) => {
            if let Some(p) = Profile::builtin(name) {
                return Ok(p);
            }
            let path = Path::new(name);
            anyhow::ensure!(
                path.exists(),
                "no profile {name:?}: the built-in ones are {}, reference; or give a profile file",
                BUILTIN.join(", ")
            );
            return Profile::load(path).map_err(|e| anyhow::anyhow!("{e}"));
        }
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
    let mut p = Profile::reference(format!("{exe} sync-reference{flag} {{a}} {{b}} {{state}}"));
    if let Some(b) = bug {
        p.name = format!("bundled reference synchronizer, mutant {}", b.name());
    }
    Ok(p)
}

/// `speccheck sync-reference [--bug NAME] A B STATE`: the bundled
/// synchronizer itself (what `speccheck sync` runs by default, as a
/// process started from this executable: see `main.rs`).
pub fn reference(args: &[String]) -> i32 {
    speccheck_fixtures::sync::main_with_args(args)
}
