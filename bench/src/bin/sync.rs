//! The file-synchronizer tester's evaluation (thesis §6.2): every mutant
//! of the bundled reference synchronizer over several seeds — time and
//! operations to the first rejection, shrunk length — the reference's
//! soundness over many seeded runs, Unison, and the tester's throughput.
//!
//! `cargo run --release -p speccheck-bench --bin sync -- --seeds 10`
//! writes `bench/results/sync.md`. The bench runs the bundled synchronizer
//! as itself (`sync reference A B STATE`), the way `speccheck sync` does.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use speccheck::runner::report::RunVerdict;
use speccheck_bench::{Summary, Table, fmt_seconds as fmt_s, machine, median};
use speccheck_dual::tester::DualReport;
use speccheck_fixtures::sync::SyncBug;
use speccheck_sync::Profile;
use speccheck_sync::profile::UNISON;
use speccheck_sync::session::Synchronizer;

#[derive(Parser)]
struct Args {
    /// Seeds per mutant.
    #[arg(long, default_value_t = 10)]
    seeds: u64,
    /// Most executions per mutant run.
    #[arg(long, default_value_t = 2000)]
    max_executions: u32,
    /// Seeded runs of the reference synchronizer (soundness).
    #[arg(long, default_value_t = 200)]
    soundness_runs: u64,
    /// Executions per soundness run.
    #[arg(long, default_value_t = 10)]
    soundness_executions: u32,
    /// Executions against Unison (0: skip).
    #[arg(long, default_value_t = 1000)]
    unison: u32,
    /// Output file.
    #[arg(long, default_value = "bench/results/sync.md")]
    out: String,
}

const STEPS: usize = 30;
/// Shrinking budget per rejection (the CLI's is 10 s).
const SHRINK_SECS: u64 = 3;

fn reference(bug: Option<SyncBug>) -> Synchronizer {
    let exe = std::env::current_exe().expect("the bench's own path");
    let flag = bug.map(|b| format!(" --bug {}", b.name())).unwrap_or_default();
    let command = format!("'{}' sync-reference{flag} {{a}} {{b}} {{state}}", exe.display());
    let mut s = Synchronizer::from_profile(Profile::reference(command));
    s.timeout = Duration::from_secs(2);
    s
}

/// Synchronizations run and their exit codes, over a run.
type Codes = Arc<Mutex<Vec<i64>>>;

fn run(sync: &Synchronizer, seed: u64, executions: u32, codes: Option<Codes>) -> DualReport {
    let (tester, _) = sync
        .tester_observed(move |e| {
            if let Some(codes) = &codes {
                let mut codes = codes.lock().unwrap_or_else(|p| p.into_inner());
                codes.extend(e.trace.iter().filter(|t| !t.sent).filter_map(|t| t.ir.get("exit")?.as_i64()));
            }
        })
        .unwrap_or_else(|e| panic!("{e}"));
    tester
        .with_settings(|s| s.fuel = STEPS)
        .configure(|c| {
            c.cases = executions;
            c.seed = Some(seed);
            c.time_budget = Some(Duration::from_secs(120));
            c.shrink_time = Duration::from_secs(SHRINK_SECS);
        })
        .run()
}

fn mutants(args: &Args, out: &mut String) {
    out.push_str("## Mutants of the bundled reference synchronizer\n\n");
    out.push_str(&format!(
        "Each mutant is tested {} times (seeds 1..={}), each run up to {} executions of up to {STEPS} steps (file\n\
         operations, synchronizations, delays; the CLI's defaults), fresh replicas and archive per execution, the\n\
         synchronizer run as a process. Time and operations (requests the tester made: file operations and\n\
         synchronizations) are to the first rejection, before shrinking; the shrunk run is the requests of the\n\
         final, shrunk execution (shrinking budget 3 s; the CLI's is 10 s). Synchronization time limit: 2 s\n\
         (the CLI's default is 10 s), which is the floor for the mutant that hangs.\n\n",
        args.seeds, args.seeds, args.max_executions
    ));
    let mut table = Table::new(&[
        "mutant",
        "rejected",
        "time median",
        "time p95",
        "operations median",
        "operations p95",
        "shrunk run (requests), median",
    ]);
    let mut all = Vec::new();
    for bug in SyncBug::ALL {
        let sync = reference(Some(bug));
        let (mut times, mut ops, mut shrunk) = (Vec::new(), Vec::new(), Vec::new());
        for seed in 1..=args.seeds {
            let r = run(&sync, seed, args.max_executions, None);
            match (&r.run.verdict, r.first_failure) {
                (RunVerdict::Failed(_), Some(ff)) => {
                    times.push(ff.after.as_secs_f64());
                    ops.push((ff.interactions / 2) as f64);
                    let exec = r.final_execution.as_ref();
                    shrunk.push(exec.map_or(0, |e| e.trace.iter().filter(|t| t.sent).count()) as f64);
                }
                _ => eprintln!("{} seed {seed}: not rejected: {}", bug.name(), r.run.summary()),
            }
        }
        eprintln!("{}: {}/{}", bug.name(), times.len(), args.seeds);
        all.extend(times.iter().copied());
        table.row(vec![
            format!("`{}`", bug.name()),
            format!("{}/{}", times.len(), args.seeds),
            fmt_s(median(&times)),
            fmt_s(Summary::of(&times).p95),
            format!("{:.0}", median(&ops)),
            format!("{:.0}", Summary::of(&ops).p95),
            format!("{:.0}", median(&shrunk)),
        ]);
    }
    out.push_str(&table.to_markdown());
    let s = Summary::of(&all);
    out.push_str(&format!(
        "\nOver all mutants and seeds: time to reject mean {}, sd {}, p95 {}.\n\n",
        fmt_s(s.mean),
        fmt_s(s.sd),
        fmt_s(s.p95)
    ));
}

fn throughput_row(
    name: &str,
    verdict: String,
    executions: u64,
    interactions: u64,
    codes: &[i64],
    t: Duration,
) -> Vec<String> {
    let secs = t.as_secs_f64();
    let count = |c: i64| codes.iter().filter(|x| **x == c).count();
    vec![
        name.to_string(),
        verdict,
        executions.to_string(),
        format!("{:.0}", (interactions / 2) as f64 / secs),
        format!("{:.1}", codes.len() as f64 / secs),
        format!("{} / {} / {} / {}", count(0), count(1), count(2), count(3)),
    ]
}

fn soundness(args: &Args, out: &mut String) {
    out.push_str("## Soundness and throughput\n\n");
    out.push_str(&format!(
        "The reference synchronizer over {} seeded runs (seeds 1..={}) of {} executions each; Unison\n\
         (`{UNISON}`, Debian's package) over {} executions in one run (seed 7). Operations per second count\n\
         every request (file operations, delays, synchronizations); synchronizations per second count the\n\
         synchronizer's runs.\n\n",
        args.soundness_runs, args.soundness_runs, args.soundness_executions, args.unison
    ));
    let mut table = Table::new(&[
        "system",
        "verdict",
        "executions",
        "operations / s",
        "synchronizations / s",
        "exits 0 / 1 / 2 / 3",
    ]);
    let sync = reference(None);
    let codes: Codes = Arc::default();
    let (mut rejected, mut executions, mut interactions) = (0, 0, 0);
    let t = Instant::now();
    for seed in 1..=args.soundness_runs {
        let r = run(&sync, seed, args.soundness_executions, Some(codes.clone()));
        executions += r.executions;
        interactions += r.interactions;
        if !r.passed() {
            rejected += 1;
            out.push_str(&format!("\nreference, seed {seed}:\n\n```\n{r}\n```\n"));
        }
    }
    let codes = codes.lock().unwrap_or_else(|p| p.into_inner()).clone();
    let verdict = format!("{rejected} of {} runs rejected", args.soundness_runs);
    table.row(throughput_row("bundled reference synchronizer", verdict, executions, interactions, &codes, t.elapsed()));
    if args.unison > 0 {
        let codes: Codes = Arc::default();
        let t = Instant::now();
        let r = run(&Synchronizer::from_profile(Profile::unison()), 7, args.unison, Some(codes.clone()));
        let codes = codes.lock().unwrap_or_else(|p| p.into_inner()).clone();
        table.row(throughput_row("Unison 2.52", r.run.summary(), r.executions, r.interactions, &codes, t.elapsed()));
        if !r.passed() {
            out.push_str(&format!("\nUnison:\n\n```\n{r}\n```\n"));
        }
    }
    out.push_str(&table.to_markdown());
}

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    if argv.get(1).map(String::as_str) == Some("sync-reference") {
        std::process::exit(speccheck_fixtures::sync::main_with_args(&argv[2..]));
    }
    let args = Args::parse();
    let mut out = String::from("# File-synchronizer tester: mutants, soundness, Unison, throughput\n\n");
    out.push_str(&format!(
        "Command: `cargo run --release -p speccheck-bench --bin sync -- --seeds {}`\n\nMachine: {}\n\n\
         Shared machine: compare within this run only. Run as {}.\n\n",
        args.seeds,
        machine(),
        if speccheck_sync::session::permissions_enforced() {
            "an ordinary user (permission bits enforced)"
        } else {
            "the superuser (permission bits not enforced on the tester's own operations)"
        }
    ));
    mutants(&args, &mut out);
    soundness(&args, &mut out);
    std::fs::write(&args.out, &out).expect("writing the results");
    println!("{out}");
}
