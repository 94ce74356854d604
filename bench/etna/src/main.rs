//! `speccheck-etna list` prints each workload's bugs and properties;
//! `speccheck-etna run <workload> <property> <tool> --seeds N --cases N`
//! prints one JSON line per seed. `run.py` drives it over every bug.

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
                "usage: speccheck-etna list | run <workload> <property> <speccheck|proptest|quickcheck> [--seeds N] [--cases N] [--first-seed N]"
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
    let tool = match tool {
        "speccheck" => Tool::Speccheck,
        "proptest" => Tool::Proptest,
        "quickcheck" => Tool::Quickcheck,
        other => panic!("unknown tool {other}"),
    };
    let (seeds, cases, first) =
        (flag(rest, "--seeds", 20), flag(rest, "--cases", 100_000), flag(rest, "--first-seed", 0));
    let w =
        workloads::all().into_iter().find(|w| w.name == workload).unwrap_or_else(|| panic!("no workload {workload}"));
    let p = w.properties.iter().find(|p| p.name == property).unwrap_or_else(|| panic!("no property {property}"));
    // A panicking property is a failure the tools catch; keep stderr quiet.
    std::panic::set_hook(Box::new(|_| {}));
    for seed in first..first + seeds {
        let o = (p.run)(tool, RunSpec { seed, cases: cases as u32 });
        println!(
            "{}",
            serde_json::json!({
                "workload": workload, "property": property, "tool": tool.name(), "seed": seed,
                "found": o.found, "inputs": o.inputs,
                "time_to_failure_us": o.time_to_failure.map(|t| t.as_secs_f64() * 1e6),
                "elapsed_us": o.elapsed.as_secs_f64() * 1e6,
                "shrunk": o.shrunk, "note": o.note,
            })
        );
    }
}
