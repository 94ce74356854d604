//! `speccheck-etna list` prints each workload's bugs and properties;
//! `speccheck-etna run <workload> <property> <tool|all> --seeds N --cases N`
//! prints one JSON line per seed and tool. `run.py` drives it over every
//! bug with `all`: the four tools in one process, interleaved seed by
//! seed in an order shuffled per seed, each warmed before its timed run.

mod harness;
mod workloads;

use harness::{RunSpec, Tool};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("list") => list(),
        Some("run") if args.len() >= 4 => run(&args[1], &args[2], &args[3], &args[4..]),
        _ => {
            eprintln!(
                "usage: speccheck-etna list | run <workload> <property> <speccheck|proptest|quickcheck|hegeltest|all> [--seeds N] [--cases N] [--first-seed N] [--warm-us N]"
            );
            std::process::exit(2);
        }
    }
}

fn list() {
    for w in workloads::all() {
        let props: Vec<&str> = w.properties.iter().map(|p| p.name).collect();
        let bugs: Vec<serde_json::Value> =
            w.bugs.iter().map(|b| serde_json::json!({ "patch": b.patch, "properties": b.properties })).collect();
        println!("{}", serde_json::json!({ "workload": w.name, "properties": props, "bugs": bugs }));
    }
}

fn flag(rest: &[String], name: &str, default: u64) -> u64 {
    rest.windows(2).find(|w| w[0] == name).and_then(|w| w[1].parse().ok()).unwrap_or(default)
}

fn run(workload: &str, property: &str, tool: &str, rest: &[String]) {
    // Each arm: a tool, its name in the results, and whether speccheck's
    // integer mix varies per case (`IntegerMix::PerCase`, its default; the
    // fixed mix is measured beside it in the same run: issue 40, item 2).
    let speccheck = (Tool::Speccheck, "speccheck", true);
    let fixed = (Tool::Speccheck, "speccheck-fixed", false);
    let peer = |t: Tool| (t, t.name(), false);
    let tools: Vec<(Tool, &str, bool)> = match tool {
        "speccheck" => vec![speccheck],
        "speccheck-fixed" => vec![fixed],
        "proptest" => vec![peer(Tool::Proptest)],
        "quickcheck" => vec![peer(Tool::Quickcheck)],
        "hegeltest" => vec![peer(Tool::Hegeltest)],
        "all" => vec![speccheck, fixed, peer(Tool::Proptest), peer(Tool::Quickcheck), peer(Tool::Hegeltest)],
        other => panic!("unknown tool {other}"),
    };
    let (seeds, cases, first) =
        (flag(rest, "--seeds", 20), flag(rest, "--cases", 100_000), flag(rest, "--first-seed", 0));
    let warm = std::time::Duration::from_micros(flag(rest, "--warm-us", 300));
    let w =
        workloads::all().into_iter().find(|w| w.name == workload).unwrap_or_else(|| panic!("no workload {workload}"));
    let p = w.properties.iter().find(|p| p.name == property).unwrap_or_else(|| panic!("no property {property}"));
    // A panicking property is a failure the tools catch; keep stderr quiet.
    std::panic::set_hook(Box::new(|_| {}));
    // Warm-up runs draw from seeds no timed run uses.
    let mut warm_seed = 1u64 << 40;
    for seed in first..first + seeds {
        for (tool, name, per_case_mix) in shuffled(&tools, seed) {
            // Before its timed run, each tool runs untimed on other seeds for
            // `warm` (at least once): every tool is timed with its own code
            // and data warm, whatever ran before it.
            let started = std::time::Instant::now();
            loop {
                (p.run)(tool, RunSpec { seed: warm_seed, cases: cases as u32, per_case_mix });
                warm_seed += 1;
                if started.elapsed() >= warm {
                    break;
                }
            }
            let o = (p.run)(tool, RunSpec { seed, cases: cases as u32, per_case_mix });
            println!(
                "{}",
                serde_json::json!({
                    "workload": workload, "property": property, "tool": name, "seed": seed,
                    "found": o.found, "inputs": o.inputs,
                    "time_to_failure_us": o.time_to_failure.map(|t| t.as_secs_f64() * 1e6),
                    "elapsed_us": o.elapsed.as_secs_f64() * 1e6,
                    "shrunk": o.shrunk, "note": o.note,
                })
            );
        }
    }
}

/// `tools` in an order that depends on `seed` only (every tool follows
/// every other one about equally often over the seeds).
fn shuffled<T: Clone>(tools: &[T], seed: u64) -> Vec<T> {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    let mut order = tools.to_vec();
    order.shuffle(&mut rand::rngs::SmallRng::seed_from_u64(seed));
    order
}
