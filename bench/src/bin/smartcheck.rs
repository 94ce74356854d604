//! SmartCheck's evaluation (Pike 2014, §2 Table 1 and §7.3 Table 2),
//! reproduced side by side in one run: for each benchmark, each tool finds
//! a counterexample and shrinks it — speccheck (choice-sequence shrinking
//! alternated with SmartCheck reduction, plus both halves alone), proptest,
//! quickcheck, and no shrinking — and the final size and total time are
//! summarized as mean, standard deviation and 95th percentile. Then the
//! StackSet counterexample generalized, and the multi-bug search on a
//! parser with two bugs.
//!
//! ```text
//! cargo run --release -p speccheck-bench --bin smartcheck -- [--runs N] [--only NAME,..] [--out FILE]
//! ```

#[path = "smartcheck/common.rs"]
mod common;
#[path = "smartcheck/div0.rs"]
mod div0;
#[path = "smartcheck/heap.rs"]
mod heap;
#[path = "smartcheck/parser.rs"]
mod parser;
#[path = "smartcheck/reverse.rs"]
mod reverse;
#[path = "smartcheck/stackset.rs"]
mod stackset;
#[path = "smartcheck/t.rs"]
mod t;

use std::time::Instant;

use clap::Parser;
use common::{Check, Sample, TOOLS, Tool};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use speccheck::{ExplainMode, Property, RunVerdict, TreeView};
use speccheck_bench::{Summary, Table, machine};

#[derive(Parser, Debug)]
struct Args {
    /// Runs (seeds) per benchmark and tool; the paper used 1000.
    #[arg(long, default_value_t = 1000)]
    runs: u64,
    /// Only these benchmarks (comma separated: t, reverse, div0, heap, heap-data, parser, stackset).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Seeds for the generalized StackSet formula and the multi-bug search.
    #[arg(long, default_value_t = 20)]
    demo_runs: u64,
    /// Where to write the markdown results.
    #[arg(long)]
    out: Option<String>,
    /// Time each run as it comes, without the untimed warm-up runs before
    /// it: a tool then meets whatever state the tool before it left in the
    /// caches and the allocator.
    #[arg(long)]
    cold: bool,
    /// How long each tool runs untimed, on other seeds, before each timed
    /// run (at least once), in microseconds.
    #[arg(long, default_value_t = 300)]
    warm_us: u64,
    /// Profiling aid: run only this tool (its row number in the table,
    /// from 1) on the selected benchmarks, print nothing else, for `perf`.
    #[arg(long)]
    profile: Option<usize>,
}

struct Bench {
    key: &'static str,
    name: &'static str,
    /// The paper's mean sizes: (SmartCheck, QuickCheck).
    paper: Option<(f64, f64)>,
    /// The size of the smallest failing input, when it is known.
    lower_bound: Option<fn() -> Option<usize>>,
    run: fn(Tool, u64) -> Option<Sample>,
}

fn benches() -> Vec<Bench> {
    vec![
        Bench { key: "t", name: "T (Int16 overflow)", paper: Some((6.0, 13.0)), lower_bound: None, run: t::run },
        Bench { key: "reverse", name: "Reverse", paper: Some((2.0, 2.0)), lower_bound: None, run: reverse::run },
        Bench { key: "div0", name: "Div0", paper: Some((5.0, 5.0)), lower_bound: None, run: div0::run },
        Bench {
            key: "heap",
            name: "Heap (program rebuilt)",
            paper: None,
            lower_bound: Some(|| heap::smallest_failing(6)),
            run: heap::run,
        },
        Bench {
            key: "heap-data",
            name: "Heap (paper's model: heap as data)",
            paper: Some((7.0, 19.0)),
            lower_bound: Some(heap::smallest_failing_as_data),
            run: heap::run_as_data,
        },
        Bench { key: "parser", name: "Parser", paper: Some((7.0, 4.0)), lower_bound: None, run: parser::run },
        Bench { key: "stackset", name: "StackSet (XMonad delete)", paper: None, lower_bound: None, run: stackset::run },
    ]
}

fn fmt(s: &Summary, scale: f64, digits: usize) -> String {
    format!("{:.d$} / {:.d$} / {:.d$}", s.mean * scale, s.sd * scale, s.p95 * scale, d = digits)
}

fn main() {
    let args = Args::parse();
    let started = Instant::now();
    let mut out = String::new();
    out.push_str("# SmartCheck benchmark: counterexample reduction and generalization\n\n");
    out.push_str(&format!(
        "Command: `cargo run --release -p speccheck-bench --bin smartcheck -- --runs {} --demo-runs {}{}`\n\n",
        args.runs,
        args.demo_runs,
        if args.cold {
            " --cold".to_string()
        } else if args.warm_us != 300 {
            format!(" --warm-us {}", args.warm_us)
        } else {
            String::new()
        }
    ));
    out.push_str(&format!("Machine: {} (shared with other work: compare within this run only)\n\n", machine()));
    out.push_str(&if args.cold {
        "Every tool runs in this one process, interleaved seed by seed in an order shuffled per seed, and\n\
         (`--cold`) each run is timed as it comes, after whatever tool ran before it. A run finds a counterexample\n"
            .to_string()
    } else {
        format!(
            "Every tool runs in this one process, interleaved seed by seed in an order shuffled per seed;\n\
             before each timed run the same tool runs untimed on other seeds for {} µs (at least once), so\n\
             every tool is timed with its own code and data warm (`--cold` times them as they come; one\n\
             warm-up run is not enough on this machine: a run that follows 20 ms of other work, even a spin\n\
             loop, is slower for several runs, by more the longer the gap, and more for the tool that touches\n\
             more code and data). A run finds a counterexample\n",
            args.warm_us
        )
    });
    out.push_str(concat!(
        "(up to 1000 passing tests, the same for every tool) and shrinks it; *time* is finding plus\n",
        "shrinking. *Size* is counted on the final value by one function per benchmark, the same for every\n",
        "tool: `i16` values for T, elements for Reverse, constructors elsewhere (the paper's measures;\n",
        "`bench/src/bin/smartcheck/`).\n",
        "\n",
        "**Like for like.** Every tool draws its inputs from the same distribution: the benchmark's proptest\n",
        "strategy (`collection::vec(any::<i32>(), 0..100)`, `prop_recursive`, …). speccheck draws it with\n",
        "its own combinators where they express it exactly (T, Reverse: `gens::vec(gens::uniform(..),\n",
        "0..100)`; StackSet, checked below), otherwise by sampling the strategy and recording the value as its derived structure\n",
        "(`gens::represent`), so it shrinks and reduces the value as it would its own. quickcheck's\n",
        "`Arbitrary` samples the same strategy. Beyond the search budget, each tool runs at its defaults:\n",
        "\n",
        "* speccheck, first row: every default (`explain = \"generalize\"`: reduction, the formulas and the\n",
        "  multi-bug search; hang detection on, which moves the run to a worker thread). Second row:\n",
        "  `explain = \"reduce\"` (the choice-sequence shrinker, then SmartCheck reduction alternating with\n",
        "  it) without hang detection, as the peers have none: the row the goals below are measured on.\n",
        "  The next two rows are each half alone.\n",
        "* proptest: `TestRunner` with `Config::default()`, but `cases` (the search budget) and no\n",
        "  persistence file; its shrink budget is its default 1024 iterations (`max_shrink_iters` is 4 ×\n",
        "  cases unless set, so it is set to 1024, the default for its default 256 cases).\n",
        "* quickcheck: its own runner, `QuickCheck::quicktest`, at its defaults (a generator of size 100,\n",
        "  at most 10,000 tests) but the search budget, shrinking with hand-written `shrink`s in\n",
        "  `genericShrink`'s style (sub-terms, then each field in turn, elements included).\n",
        "* hegeltest (0.51, library `hegel`, Hypothesis's engine): its own runner (`Hegel::new(..).run()`,\n",
        "  what `#[hegel::test]` expands to) at its defaults (`Settings::new()`: the environment's profile,\n",
        "  health checks on, its shrinker unbounded but by its own limits) but the search budget\n",
        "  (`test_cases`), a fixed seed, no example database and quiet output. A failure panics, as a\n",
        "  user's `assert!` would; a precondition rejects with `tc.reject()` (its only way, an unwind).\n",
        "  It cannot draw from a proptest strategy and still shrink (a value sampled from a drawn seed\n",
        "  shrinks only through the seed), so each benchmark's input is a composite of its draws that\n",
        "  mirrors the strategy's shape: vectors of a length uniform in the same range (the length, then\n",
        "  that many elements), the same depth bounds, one draw choosing among a type's constructors\n",
        "  (uniform only in intent: it is Hypothesis's bounded-integer distribution), and its own\n",
        "  integers (Hypothesis's, biased towards small and boundary values: not uniform). This is the\n",
        "  closest its API comes; the distribution is near the strategy's, not equal to it.\n",
        "* *none* is quickcheck's first counterexample, unshrunk.\n",
        "\n",
        "The paper's rows are its Tables 1 and 2 (GHC, 2014; QuickCheck there is `genericShrink`, with\n",
        "QuickCheck's own sized generators, a different distribution).\n\n",
    ));

    let selected: Vec<Bench> =
        benches().into_iter().filter(|b| args.only.is_empty() || args.only.iter().any(|o| o == b.key)).collect();
    if let Some(row) = args.profile {
        let tool = TOOLS[row.clamp(1, TOOLS.len()) - 1];
        for b in &selected {
            let found = (0..args.runs).filter(|&seed| (b.run)(tool, seed).is_some()).count();
            println!("{}: {} found {found} of {}", b.name, tool.name(), args.runs);
        }
        return;
    }
    let mut table = Table::new(&["benchmark", "tool", "found", "size (mean / sd / p95)", "time ms (mean / sd / p95)"]);
    let mut goals = Table::new(&[
        "benchmark",
        "speccheck size",
        "best other (tool)",
        "size goal",
        "speccheck time ms",
        "proptest time ms",
        "time ratio",
        "time goal",
        "hegeltest size",
        "hegeltest time ms",
        "speccheck ÷ hegeltest time",
    ]);
    for b in &selected {
        let mut sizes: Vec<Vec<f64>> = vec![Vec::new(); TOOLS.len()];
        let mut times: Vec<Vec<std::time::Duration>> = vec![Vec::new(); TOOLS.len()];
        let mut order: Vec<usize> = (0..TOOLS.len()).collect();
        for seed in 0..args.runs {
            // A fresh order per seed: every tool follows every other one
            // equally often.
            order.shuffle(&mut SmallRng::seed_from_u64(seed));
            for &k in &order {
                // The tool that runs after another one's work finds its
                // code and data evicted, and not only by that work: after a
                // 20 ms spin loop, speccheck's next Reverse runs took 85,
                // 28, 24, 24, 22 µs (steady: 20), proptest's 31, 24, 22.
                // Untimed runs on other seeds for the same time first time
                // every tool warm.
                if !args.cold {
                    let warm = Instant::now();
                    let mut other = args.runs + seed;
                    loop {
                        let _ = (b.run)(TOOLS[k], other);
                        if warm.elapsed().as_micros() >= u128::from(args.warm_us) {
                            break;
                        }
                        other += args.runs;
                    }
                }
                if let Some(s) = (b.run)(TOOLS[k], seed) {
                    sizes[k].push(s.size);
                    times[k].push(s.time);
                }
            }
        }
        let size_sum: Vec<Summary> = sizes.iter().map(|s| Summary::of(s)).collect();
        let time_sum: Vec<Summary> = times.iter().map(|t| Summary::of_durations(t)).collect();
        for (k, tool) in TOOLS.iter().enumerate() {
            table.row(vec![
                b.name.into(),
                tool.name().into(),
                format!("{}/{}", sizes[k].len(), args.runs),
                fmt(&size_sum[k], 1.0, 2),
                fmt(&time_sum[k], 1e3, 3),
            ]);
        }
        if let Some((sc, qc)) = b.paper {
            table.row(vec![b.name.into(), "paper: SmartCheck".into(), "1000".into(), format!("{sc:.0}"), "—".into()]);
            table.row(vec![b.name.into(), "paper: QuickCheck".into(), "1000".into(), format!("{qc:.0}"), "—".into()]);
        }
        // The goal: speccheck's mean size at most the best of proptest,
        // quickcheck and the paper; its mean time at most proptest's.
        let idx = |t: Tool| TOOLS.iter().position(|x| *x == t).unwrap_or(0);
        let ours = size_sum[idx(Tool::Speccheck)].mean;
        let mut best = (f64::INFINITY, "");
        for (tool, name) in [(Tool::Proptest, "proptest"), (Tool::Quickcheck, "quickcheck")] {
            let m = size_sum[idx(tool)].mean;
            if m < best.0 {
                best = (m, name);
            }
        }
        if let Some((sc, qc)) = b.paper {
            for (m, name) in [(sc, "paper SmartCheck"), (qc, "paper QuickCheck")] {
                if m < best.0 {
                    best = (m, name);
                }
            }
        }
        let (t_ours, t_pt) = (time_sum[idx(Tool::Speccheck)].mean, time_sum[idx(Tool::Proptest)].mean);
        let size_goal = if ours <= best.0 + 1e-9 {
            "met".to_string()
        } else if let Some(min) = b.lower_bound.and_then(|f| f())
            && best.0 < min as f64
        {
            format!("MISSED: {} < {min}, the smallest valid failing input", best.0)
        } else {
            "MISSED".to_string()
        };
        goals.row(vec![
            b.name.into(),
            format!("{ours:.2}"),
            format!("{:.2} ({})", best.0, best.1),
            size_goal,
            format!("{:.3}", t_ours * 1e3),
            format!("{:.3}", t_pt * 1e3),
            format!("{:.2}", t_ours / t_pt),
            if t_ours <= t_pt { "met".into() } else { "MISSED".into() },
            format!("{:.2}", size_sum[idx(Tool::Hegeltest)].mean),
            format!("{:.3}", time_sum[idx(Tool::Hegeltest)].mean * 1e3),
            format!("{:.4}", t_ours / time_sum[idx(Tool::Hegeltest)].mean),
        ]);
        eprintln!("done: {} ({:.1} s so far)", b.name, started.elapsed().as_secs_f64());
    }
    out.push_str("## Final size and time\n\n");
    if selected.iter().any(|b| b.key.starts_with("heap")) {
        let min = heap::smallest_failing(6).map_or("none".to_string(), |m| m.to_string());
        let min_data = heap::smallest_failing_as_data().map_or("none".to_string(), |m| m.to_string());
        out.push_str(&format!(
            "Heap runs in two models. *Program rebuilt*: every tool shrinks the program and rebuilds the\n\
             heap (as QuickCheck's `shrink` for this benchmark does); the smallest failing input then has\n\
             **{min}** constructors (every program of at most six constructors, enumerated), so the paper's 7\n\
             is out of reach and this block is compared with proptest and quickcheck only. *Heap as data* is\n\
             the paper's model: SmartCheck's `SubTypes` reach into the heap field, replace sub-heaps by\n\
             arbitrary heaps without restoring the heap order, and never relate the program to the heap\n\
             again. speccheck does the same by generating the heap from the program but recording it as a\n\
             heap (`gens::represent`), so its shrinker and reducer work on the heap's own tree; the smallest\n\
             failing input is then **{min_data}** (`Empty` and the invalid heap `Node(1, Node(0, Nil, Nil), Nil)`).\n\
             proptest, quickcheck and hegeltest cannot shrink a computed heap on its own: their rows repeat\n\
             the first block's.\n\n"
        ));
    }
    if selected.iter().any(|b| b.key == "stackset") {
        let [pt, sc] = stackset::distributions(20_000);
        out.push_str(&format!(
            "StackSet's inputs are drawn with speccheck's own combinators (`stackset::sc_stackset`), which\n\
             express its proptest strategy exactly. Checked in this run on 20,000 values of each sampler:\n\
             size {:.2} / {:.2} (mean / sd) from proptest, {:.2} / {:.2} from speccheck; the current\n\
             workspace holds a stack in {:.1}% and {:.1}%.\n\n",
            pt.0,
            pt.1,
            sc.0,
            sc.1,
            pt.2 * 100.0,
            sc.2 * 100.0
        ));
    }
    out.push_str(&table.to_markdown());
    let hegel_errors = common::HEGEL_ERRORS.with(|m| m.borrow().clone());
    if !hegel_errors.is_empty() {
        out.push_str(
            "\nhegeltest runs that stopped with an error of their own (timed and warm-up runs alike; such a\n",
        );
        out.push_str("run counts as not found):\n\n");
        for (e, n) in &hegel_errors {
            out.push_str(&format!("* {n} × `{e}`\n"));
        }
    }
    out.push_str("\n## Goal: mean size ≤ the best of proptest, quickcheck and the paper; mean time ≤ proptest's\n\n");
    out.push_str(&goals.to_markdown());
    out.push_str(concat!(
        "\nReading the table: the *speccheck shrinker only* row isolates what SmartCheck reduction adds\n",
        "(the difference to the first row, in size and in time). Every property returns its verdict\n",
        "(speccheck's `TestResult`, proptest's `Err(reject)`, quickcheck's `TestResult::discard`): a\n",
        "precondition written `assume!` in speccheck rejects by unwinding, which on T, where most inputs are\n",
        "rejected, took 1.7 times as long. StackSet and Reverse are the close races. StackSet's\n",
        "counterexample is found at the second input (about 52 choices) and its failure needs only the\n",
        "value's shape (a current workspace with a stack): the shrinker's first try, the case with every\n",
        "collection emptied and every number at its simplest, is the minimum (11 choices), and two more\n",
        "runs show that nothing smaller fails: 3 runs a shrink (proptest calls the property about 40 times a run).\n",
        "(Before that first try, the passes took 14.6 runs, one collection and one number at a time,\n",
        "and the row was 1.44 times proptest's.) What is left is mostly fixed costs: the search, the\n",
        "failure's recorded re-run, SmartCheck reduction (which finds nothing left to remove here), and the\n",
        "final replay that renders the report. proptest shrinks within its default\n",
        "budget of 1024 iterations: on T it can stop there (it says so on stderr), which is why its T\n",
        "counterexamples can stay large.\n",
    ));

    if args.only.is_empty() || args.only.iter().any(|o| o == "stackset") {
        out.push_str(&stackset_formulas(args.demo_runs));
    }
    if args.only.is_empty() || args.only.iter().any(|o| o == "parser") {
        out.push_str(&multi_bug(args.demo_runs));
    }
    out.push_str(&format!("\nTotal time: {:.1} s\n", started.elapsed().as_secs_f64()));
    println!("{out}");
    if let Some(path) = args.out {
        std::fs::write(&path, &out).expect("write results");
    }
}

/// The StackSet counterexample, reduced and generalized (§7.1): the
/// formula of the first run, and how often each formula came out.
fn stackset_formulas(runs: u64) -> String {
    let mut out = String::from("\n## StackSet: the generalized counterexample (SmartCheck §5.1, §5.2)\n\n");
    let mut formulas: std::collections::BTreeMap<String, u64> = Default::default();
    let mut example = None;
    let mut fixed_ok = true;
    for seed in 0..runs {
        let config = common::speccheck_config(Tool::Speccheck, seed, Some(ExplainMode::Generalize));
        let r = Property::with_render(speccheck::any::<stackset::StackSet>(), |s| vec![("s".into(), s.to_term())])
            .config(config.clone())
            .explainer(speccheck::reduce::explainer())
            .run(|s: stackset::StackSet| stackset::check(&s) != Check::Fail);
        if let RunVerdict::Failed(c) = &r.verdict
            && let Some(sec) = c.explanation.iter().find(|s| s.title.starts_with("generalized"))
        {
            // The formula: the lines before the per-hole notes, on one line.
            let lines: Vec<&str> = sec
                .body
                .lines()
                .take_while(|l| (!l.starts_with("  ") || l.starts_with("    ")) && !l.starts_with('('))
                .collect();
            let formula = one_line(&lines);
            *formulas.entry(formula).or_default() += 1;
            example.get_or_insert_with(|| r.to_string());
        }
        let fixed = Property::new(speccheck::any::<stackset::StackSet>())
            .config(config)
            .run(|s: stackset::StackSet| stackset::check_fixed(&s) != Check::Fail);
        fixed_ok &= fixed.passed();
    }
    out.push_str(&format!(
        "`explain = \"generalize\"`, {runs} seeds; the correct `delete` passes on every seed: {fixed_ok}.\n\n"
    ));
    let mut by_count: Vec<_> = formulas.into_iter().collect();
    by_count.sort_by_key(|f| std::cmp::Reverse(f.1));
    out.push_str("| runs | formula |\n|---|---|\n");
    for (f, n) in &by_count {
        out.push_str(&format!("| {n} | `{}` |\n", f.replace('|', "\\|")));
    }
    if let Some(e) = example {
        out.push_str("\nThe report of the first seed:\n\n```text\n");
        out.push_str(&e);
        out.push_str("```\n");
    }
    out
}

/// A formula printed over several lines, on one.
fn one_line(lines: &[&str]) -> String {
    let joined = lines.iter().map(|l| l.trim()).collect::<Vec<_>>().join(" ");
    joined.replace(", }", " }").replace(", ]", "]").replace(", )", ")").replace("( ", "(").replace("[ ", "[")
}

/// The parser with two independent bugs: how often one run reports both
/// failure classes (§5.3).
fn multi_bug(runs: u64) -> String {
    let mut out = String::from("\n## Multi-bug: a parser with two independent bugs (SmartCheck §5.3)\n\n");
    let (mut both, mut found) = (0, 0);
    let mut classes_total = 0usize;
    let mut example = None;
    let mut time = Vec::new();
    for seed in 0..runs {
        let config = common::speccheck_config(Tool::Speccheck, seed, Some(ExplainMode::Generalize));
        let start = Instant::now();
        let r = Property::with_render(speccheck::any::<parser::Lang>(), |l| vec![("program".into(), l.to_term())])
            .config(config)
            .explainer(speccheck::reduce::explainer())
            .run(|l: parser::Lang| parser::check_two_bugs(&l) != Check::Fail);
        time.push(start.elapsed());
        let RunVerdict::Failed(c) = &r.verdict else { continue };
        found += 1;
        // The reduced value of every class reported; a bug is reported when
        // some class fails with that bug alone.
        let values: Vec<parser::Lang> = c.failure_classes().filter_map(speccheck::decode_value).collect();
        classes_total += values.len();
        let only = |swap_or, mul_as_div| {
            values.iter().any(|l| parser::check_with(l, parser::Bugs { swap_or, mul_as_div }) == Check::Fail)
        };
        if only(true, false) && only(false, true) {
            both += 1;
            example.get_or_insert_with(|| r.to_string());
        }
    }
    let fixed_ok = (0..runs).all(|seed| {
        let config = common::speccheck_config(Tool::Speccheck, seed, None);
        Property::new(speccheck::any::<parser::Lang>())
            .config(config)
            .run(|l: parser::Lang| parser::check_fixed(&l) != Check::Fail)
            .passed()
    });
    let t = Summary::of_durations(&time);
    out.push_str(&format!(
        "Bugs: the parser swaps the arguments of `Or`, and reads `Mul` as `Div`. `explain = \"generalize\"`, {runs}\n\
         seeds: a counterexample in {found} runs; both bugs reported as separate classes in **{both} of {runs}** runs\n\
         ({:.2} classes per run on average). Time per run (find, shrink, reduce, generalize, search): {} ms.\n\
         The correct parser passes on every seed: {fixed_ok}.\n",
        classes_total as f64 / found.max(1) as f64,
        fmt(&t, 1e3, 1)
    ));
    if let Some(e) = example {
        out.push_str("\nA report with both classes:\n\n```text\n");
        out.push_str(&e);
        out.push_str("```\n");
    }
    out
}
