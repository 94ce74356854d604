//! Interface-fuzzing benchmark (issue 4, ArtiCheck §3.2 and §5): for every
//! bundled example with a planted bug, the time to find it and the size of
//! the reported client program over many seeds, with each of the three pool
//! containers the paper compares (fixed-size hash buckets, reservoir
//! sampling, plain sets), in one run; that the correct variants pass;
//! instances built per second; and peak memory with pools of 10^5
//! instances (measured in a child process from `/proc/self/status`).
//!
//! ```text
//! cargo run --release -p speccheck-bench --bin articheck -- [--seeds N] [--out FILE]
//! ```

use std::process::Command;
use std::time::{Duration, Instant};

use clap::Parser;
use speccheck_bench::{Summary, Table, machine};
use speccheck_examples::interface::{Example, catalogue};
use speccheck_interface::{Config, ContainerKind, Verdict};

#[derive(Parser, Debug)]
struct Args {
    /// Seeds per example and container.
    #[arg(long, default_value_t = 100)]
    seeds: u64,
    /// Search time budget per run, in milliseconds (a run that hits it
    /// without a counterexample counts as a miss).
    #[arg(long, default_value_t = 10_000)]
    budget_ms: u64,
    /// Pool bound for the memory measurement.
    #[arg(long, default_value_t = 100_000)]
    memory_bound: usize,
    /// Where to write the markdown results.
    #[arg(long)]
    out: Option<String>,
    /// Only these examples (comma-separated names); the memory table is
    /// then skipped (for quick comparisons while developing).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Internal: measure one memory configuration in this process
    /// (`example,container,bound`) and print the numbers.
    #[arg(long, hide = true)]
    probe_memory: Option<String>,
}

const CONTAINERS: [ContainerKind; 3] =
    [ContainerKind::Buckets { bucket_size: 8 }, ContainerKind::Reservoir, ContainerKind::PlainSet];

fn container_by_name(name: &str) -> ContainerKind {
    CONTAINERS.into_iter().find(|c| c.name().replace(' ', "-") == name).expect("a container name")
}

/// One search for a planted bug.
struct Hunt {
    found: bool,
    time_to_find: Duration,
    total: Duration,
    calls: f64,
    original_calls: f64,
}

fn hunt(ex: &Example, container: ContainerKind, seed: u64, budget: Duration) -> Hunt {
    let api = (ex.buggy)();
    let cfg = Config { seed: Some(seed), container, time_budget: Some(budget), ..(ex.config)() };
    let started = Instant::now();
    let report = api.check(cfg);
    let total = started.elapsed();
    match &report.verdict {
        Verdict::Failed(cx) => Hunt {
            found: true,
            time_to_find: cx.time_to_find,
            total,
            calls: cx.calls as f64,
            original_calls: cx.original_calls as f64,
        },
        _ => Hunt { found: false, time_to_find: total, total, calls: 0.0, original_calls: 0.0 },
    }
}

fn ms(s: f64) -> String {
    format!("{:.1}", s * 1e3)
}

fn median(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 }
}

/// Runs in a child process: builds pools of `bound` instances and prints
/// the peak resident set size.
fn probe_memory(spec: &str) {
    let parts: Vec<&str> = spec.split(',').collect();
    let (name, container, bound) = (parts[0], container_by_name(parts[1]), parts[2].parse::<usize>().unwrap());
    let ex = catalogue().into_iter().find(|e| e.name == name).expect("an example");
    let base = status_kb("VmRSS");
    let cfg = Config {
        seed: Some(1),
        container,
        pool_bound: bound,
        required: 3 * bound as u64,
        calls_per_round: 4096,
        max_calls: u64::MAX,
        max_rounds: u32::MAX,
        time_budget: Some(Duration::from_secs(600)),
        ..(ex.config)()
    };
    let started = Instant::now();
    let report = (ex.correct)().check(cfg);
    let secs = started.elapsed().as_secs_f64();
    let max_held = report.stats.types.iter().map(|t| t.max_held).max().unwrap_or(0);
    let abstract_held: usize = report.stats.types.iter().filter(|t| t.is_abstract).map(|t| t.held).sum();
    println!(
        "passed={} built={} abstract_held={} max_held={} base_kb={} hwm_kb={} secs={:.3} ips={:.0}",
        report.passed(),
        report.stats.instances(),
        abstract_held,
        max_held,
        base,
        status_kb("VmHWM"),
        secs,
        report.stats.instances_per_second()
    );
}

fn status_kb(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with(field)).and_then(|l| l.split_whitespace().nth(1)?.parse().ok()))
        .unwrap_or(0)
}

fn field(line: &str, key: &str) -> String {
    line.split_whitespace().find_map(|kv| kv.strip_prefix(&format!("{key}=")).map(str::to_string)).unwrap_or_default()
}

fn main() {
    let args = Args::parse();
    if let Some(spec) = &args.probe_memory {
        probe_memory(spec);
        return;
    }
    let budget = Duration::from_millis(args.budget_ms);
    let examples: Vec<Example> =
        catalogue().into_iter().filter(|e| args.only.is_empty() || args.only.iter().any(|o| o == e.name)).collect();
    let mut out = String::new();
    out.push_str("# ArtiCheck: interface fuzzing (issue 4)\n\n");
    out.push_str(&format!(
        "Command: `cargo run --release -p speccheck-bench --bin articheck -- --seeds {} --budget-ms {} --memory-bound {}`\n\n",
        args.seeds, args.budget_ms, args.memory_bound
    ));
    out.push_str(&format!("Machine: {} (shared with other jobs: compare within this run only).\n\n", machine()));
    out.push_str(
        "Each example is an API with a planted bug (see `speccheck_examples::interface`). A run searches \
         bottom-up from the API's own functions until a law fails (or the candidate disagrees with the \
         reference), then reduces the client program with speccheck's shrinker. *Time to find* is from the \
         start of the search to the counterexample; *total* includes the reduction; *program* counts the \
         calls of the reported (reduced) program, *found* the calls of the program as first sliced from \
         provenance. Each example keeps its own settings (pool bound 1024, example-specific `required`); \
         only the container changes.\n\n",
    );

    // ----- planted bugs, per container ----------------------------------------------
    let mut table = Table::new(&[
        "example",
        "container",
        "found",
        "time to find ms: median",
        "mean",
        "sd",
        "p95",
        "total ms: median",
        "program calls: mean",
        "sd",
        "p95",
        "found program: mean",
    ]);
    let mut headline = Vec::new();
    for ex in &examples {
        for container in CONTAINERS {
            let mut hunts = Vec::new();
            for seed in 1..=args.seeds {
                hunts.push(hunt(ex, container, seed, budget));
            }
            let found: Vec<&Hunt> = hunts.iter().filter(|h| h.found).collect();
            let ttf: Vec<f64> = found.iter().map(|h| h.time_to_find.as_secs_f64()).collect();
            let total: Vec<f64> = found.iter().map(|h| h.total.as_secs_f64()).collect();
            let size: Vec<f64> = found.iter().map(|h| h.calls).collect();
            let orig: Vec<f64> = found.iter().map(|h| h.original_calls).collect();
            let (t, z, o) = (Summary::of(&ttf), Summary::of(&size), Summary::of(&orig));
            eprintln!(
                "{:14} {:10} found {}/{} median {} ms, program {:.1} calls",
                ex.name,
                container.name(),
                found.len(),
                hunts.len(),
                ms(median(&ttf)),
                z.mean
            );
            table.row(vec![
                ex.name.to_string(),
                container.name().to_string(),
                format!("{}/{}", found.len(), hunts.len()),
                ms(median(&ttf)),
                ms(t.mean),
                ms(t.sd),
                ms(t.p95),
                ms(median(&total)),
                format!("{:.2}", z.mean),
                format!("{:.2}", z.sd),
                format!("{:.0}", z.p95),
                format!("{:.1}", o.mean),
            ]);
            if matches!(container, ContainerKind::Buckets { .. }) {
                headline.push((ex.name, found.len(), hunts.len(), median(&ttf)));
            }
        }
    }
    out.push_str("## Planted bugs: time to find and program size\n\n");
    out.push_str(&format!(
        "{} seeds per row; search budget {} ms per run (a run without a counterexample within it is a miss).\n\n",
        args.seeds, args.budget_ms
    ));
    out.push_str(&table.to_markdown());
    let all_found = headline.iter().all(|(_, f, n, _)| f == n);
    let all_fast = headline.iter().all(|(_, _, _, m)| *m < 1.0);
    out.push_str(&format!(
        "\nWith the default container (buckets): every planted bug found on every seed: **{}**; \
         every median time to find under 1 s: **{}** (slowest median {} ms, `{}`).\n\n",
        if all_found { "yes" } else { "no" },
        if all_fast { "yes" } else { "no" },
        ms(headline.iter().map(|h| h.3).fold(0.0, f64::max)),
        headline.iter().max_by(|a, b| a.3.total_cmp(&b.3)).map_or("", |h| h.0)
    ));

    // ----- correct variants, and throughput -----------------------------------------
    let mut table = Table::new(&[
        "example",
        "container",
        "passed",
        "instances built",
        "calls",
        "tests checked",
        "aborted",
        "time ms",
        "instances/s",
        "stopped",
    ]);
    for ex in &examples {
        for container in CONTAINERS {
            let cfg = Config { seed: Some(1), container, ..(ex.config)() };
            let report = (ex.correct)().check(cfg);
            let s = &report.stats;
            table.row(vec![
                ex.name.to_string(),
                container.name().to_string(),
                if report.passed() { "yes".into() } else { format!("**NO**: {}", report.summary()) },
                s.instances().to_string(),
                s.calls.to_string(),
                s.checked().to_string(),
                s.aborted().to_string(),
                ms(s.search_time.as_secs_f64()),
                format!("{:.0}", s.instances_per_second()),
                s.stop.to_string(),
            ]);
            eprintln!("{:14} {:10} correct: {}", ex.name, container.name(), report.summary());
        }
    }
    out.push_str("## Correct variants (must pass), and instances built per second\n\n");
    out.push_str(
        "One run per example and container (seed 1, the example's settings): the search stops at its \
         target (`required` distinct instances of every abstract type built, or a full plain set) or at \
         the fixpoint. Instances per second counts distinct instances built (offered to a pool, kept or \
         not), including the time to check the laws on them.\n\n",
    );
    out.push_str(&table.to_markdown());

    // ----- memory ---------------------------------------------------------------------
    let mut table = Table::new(&[
        "example",
        "container",
        "pool bound",
        "instances built",
        "most held in one pool",
        "abstract held at end",
        "peak RSS MiB",
        "RSS before MiB",
        "time s",
        "instances/s",
    ]);
    let exe = std::env::current_exe().expect("the benchmark's own path");
    let probes: &[&str] = if args.only.is_empty() { &["avl", "sorted-list"] } else { &[] };
    for name in probes {
        for container in CONTAINERS {
            let spec = format!("{name},{},{}", container.name().replace(' ', "-"), args.memory_bound);
            let output = Command::new(&exe).args(["--probe-memory", &spec]).output().expect("run the probe");
            let line = String::from_utf8_lossy(&output.stdout).lines().last().unwrap_or("").to_string();
            let kb = |k: &str| field(&line, k).parse::<f64>().unwrap_or(0.0) / 1024.0;
            let max_held: usize = field(&line, "max_held").parse().unwrap_or(0);
            assert!(max_held <= args.memory_bound, "a pool grew past its bound: {line}");
            eprintln!("memory {name} {}: {line}", container.name());
            table.row(vec![
                name.to_string(),
                container.name().to_string(),
                args.memory_bound.to_string(),
                field(&line, "built"),
                max_held.to_string(),
                field(&line, "abstract_held"),
                format!("{:.1}", kb("hwm_kb")),
                format!("{:.1}", kb("base_kb")),
                field(&line, "secs"),
                field(&line, "ips"),
            ]);
        }
    }
    out.push_str("\n## Peak memory with pools of 10^5 instances\n\n");
    out.push_str(&format!(
        "Each row runs in its own process (`--probe-memory`): the correct variant with a pool bound of {} \
         and `required` = 3 × the bound, so the pools fill and then churn. Peak RSS is `VmHWM` from \
         `/proc/self/status` at the end (the whole process: pools, provenance of the instances held, \
         the search's snapshots); no pool ever held more than its bound. Memory per instance depends on \
         the instances kept: AVL trees are persistent and share subtrees, sorted lists are vectors that \
         share nothing; buckets and reservoirs keep deeper (larger) instances as the search goes on, a \
         plain set keeps the first, smallest ones.\n\n",
        args.memory_bound
    ));
    out.push_str(&table.to_markdown());

    println!("{out}");
    if let Some(path) = &args.out {
        std::fs::write(path, &out).expect("write the results");
        eprintln!("wrote {path}");
    }
}
