//! Interface fuzzing on real crates (issue 16): published bugs that need a
//! deep state, in crates.io releases pinned at their buggy version, hunted
//! in one run by speccheck's reference-model mode (`compare … with … by …`,
//! at its defaults and with the one budget knob), by plain proptest over
//! a `Vec<Op>` of the same calls (at proptest's defaults: 256 cases, its
//! default shrink budget) and by hegeltest (Hypothesis's engine) over the
//! same `Vec<Op>` (at its defaults: 100 test cases, its own shrinker, no
//! database). Per target and tool: how many seeds found the
//! bug, the time and calls to the first failure, and the length of the
//! reported program.
//!
//! ```text
//! cargo run --release -p speccheck-bench --bin interface_real -- [--seeds N] [--out FILE]
//! ```

use std::cell::RefCell;
use std::fmt::Debug;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use clap::Parser;
use proptest::strategy::Strategy;
use proptest::test_runner::{Config as ProptestConfig, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use speccheck::interface::{Api, Config, Verdict};
use speccheck_bench::{Summary, Table, hegel_peer, machine, median};

/// Compares a candidate's and a reference's results in a proptest harness:
/// on a difference, returns the index, the call's name and what differs.
macro_rules! same {
    ($i:expr, $op:expr, $candidate:expr, $reference:expr) => {{
        let (got, want) = ($candidate, $reference);
        if got != want {
            return Err(($i, $op.name(), format!("{:?}: {got:?}, but the reference says {want:?}", $op)));
        }
    }};
}

#[path = "interface_real/imbl.rs"]
mod imbl;
#[path = "interface_real/indexset.rs"]
mod indexset;
#[path = "interface_real/ropey.rs"]
mod ropey;

#[derive(Parser, Debug)]
struct Args {
    /// Seeds per target and tool.
    #[arg(long, default_value_t = 10)]
    seeds: u64,
    /// speccheck's one knob: the time budget of the budget rows, in ms.
    #[arg(long, default_value_t = 20_000)]
    budget_ms: u64,
    /// Longest `Vec<Op>` proptest draws (`0..N`).
    #[arg(long, default_value_t = 30_000)]
    max_ops: usize,
    /// Only these targets (comma-separated names).
    #[arg(long)]
    only: Option<String>,
    /// Only these seeds (comma-separated), to look at one hunt.
    #[arg(long)]
    seed: Option<String>,
    /// Print speccheck's reports.
    #[arg(long)]
    show: bool,
    /// Where to write the markdown results.
    #[arg(long)]
    out: Option<String>,
}

/// A real crate with a published bug, and the harnesses that hunt it.
pub struct Target {
    name: &'static str,
    release: &'static str,
    bug: &'static str,
    /// The calls whose disagreement is this bug (another one is reported as
    /// a different finding, not counted as found).
    symptom: &'static [&'static str],
    api: fn() -> Api,
    proptest: fn(u64, usize) -> Hunt,
    hegel: fn(u64, usize) -> Hunt,
}

/// One hunt with one tool and one seed.
#[derive(Clone, Debug, Default)]
pub struct Hunt {
    /// The failing call (`None`: nothing failed).
    what: Option<String>,
    time_to_find: Duration,
    calls_to_find: u64,
    /// Calls of the reported program up to the failing one.
    reported: usize,
    /// Calls of the first failing program up to the failing one.
    original: usize,
    total: Duration,
    note: String,
}

/// How a harness run of a `Vec<Op>` ended: the first disagreement, with
/// the operation's index, its name and what differs.
pub type Outcome = Result<(), (usize, &'static str, String)>;

/// proptest at its defaults (`failure_persistence` off: the runs share no
/// files) over `strategy`, seeded; `run` applies a vector to both sides.
pub fn proptest_hunt<O: Debug + Clone>(
    strategy: impl Strategy<Value = Vec<O>>,
    seed: u64,
    run: fn(&[O], &mut u64) -> Outcome,
) -> Hunt {
    let config = ProptestConfig { failure_persistence: None, ..ProptestConfig::default() };
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes));
    struct Seen {
        calls: u64,
        first: Option<(Duration, u64, usize, &'static str)>,
    }
    let seen = RefCell::new(Seen { calls: 0, first: None });
    let started = Instant::now();
    let outcome = runner.run(&strategy, |ops| {
        let mut done = 0;
        let result = catch_unwind(AssertUnwindSafe(|| run(&ops, &mut done)));
        let mut s = seen.borrow_mut();
        s.calls += done;
        let failed = match result {
            Ok(Ok(())) => return Ok(()),
            Ok(Err((i, name, msg))) => (i, name, msg),
            Err(_) => (done as usize - 1, "a panic", "panicked".to_string()),
        };
        if s.first.is_none() {
            s.first = Some((started.elapsed(), s.calls, failed.0 + 1, failed.1));
        }
        Err(TestCaseError::fail(failed.2))
    });
    let total = started.elapsed();
    let s = seen.into_inner();
    match (outcome, s.first) {
        (Err(TestError::Fail(_, ops)), Some((t, calls, original, _))) => {
            let mut done = 0;
            let (reported, what) = match catch_unwind(AssertUnwindSafe(|| run(&ops, &mut done))) {
                Ok(Err((i, name, _))) => (i + 1, name.to_string()),
                Ok(Ok(())) => (ops.len(), "(the shrunk vector passes)".to_string()),
                Err(_) => (done as usize, "a panic".to_string()),
            };
            Hunt {
                what: Some(what),
                time_to_find: t,
                calls_to_find: calls,
                reported,
                original,
                total,
                note: String::new(),
            }
        }
        (Err(e), _) => Hunt { total, note: format!("{e}"), ..Hunt::default() },
        (Ok(()), _) => Hunt { total, time_to_find: total, calls_to_find: s.calls, ..Hunt::default() },
    }
}

/// hegeltest at its defaults (100 test cases, its shrinker, no database),
/// seeded, over a `Vec<Op>` of `op`'s calls whose length is drawn first in
/// `0..max_ops`, as proptest's (hegeltest's own `vecs` would draw far
/// shorter ones; its integer draws lean to small values, so the lengths
/// are not uniform as proptest's are); `run` applies a vector to both
/// sides.
pub fn hegel_hunt<O, G>(op: fn() -> G, seed: u64, max_ops: usize, run: fn(&[O], &mut u64) -> Outcome) -> Hunt
where
    O: Debug + Clone + 'static,
    G: hegel_peer::PrintableGenerator<O>,
{
    let started = Instant::now();
    let mut calls = 0u64;
    let mut first: Option<(Duration, u64, usize)> = None;
    let found = hegel_peer::find(hegel_peer::settings(100, seed), |tc| {
        let ops = hegel_peer::vec_uniform_len(tc, max_ops, op());
        let mut done = 0;
        let result = catch_unwind(AssertUnwindSafe(|| run(&ops, &mut done)));
        calls += done;
        let (i, name) = match result {
            Ok(Ok(())) => return Ok(()),
            Ok(Err((i, name, _))) => (i, name),
            Err(_) => (done as usize - 1, "a panic"),
        };
        if first.is_none() {
            first = Some((started.elapsed(), calls, i + 1));
        }
        Err((i + 1, name))
    });
    let total = started.elapsed();
    match (found, first) {
        (Ok(Some((reported, name))), Some((t, calls_to_find, original))) => Hunt {
            what: Some(name.to_string()),
            time_to_find: t,
            calls_to_find,
            reported,
            original,
            total,
            note: String::new(),
        },
        (Ok(_), _) => Hunt { total, time_to_find: total, calls_to_find: calls, ..Hunt::default() },
        (Err(why), _) => Hunt { total, note: why, ..Hunt::default() },
    }
}

/// speccheck's reference-model mode with `cfg`.
fn speccheck_hunt(t: &Target, cfg: Config, show: bool) -> Hunt {
    let api = (t.api)();
    let started = Instant::now();
    let report = api.check(cfg);
    let total = started.elapsed();
    if show {
        eprintln!("{report}");
    }
    match &report.verdict {
        Verdict::Failed(cx) => Hunt {
            what: Some(cx.what.clone()),
            time_to_find: cx.time_to_find,
            calls_to_find: cx.calls_to_find,
            reported: cx.calls,
            original: cx.original_calls,
            total,
            note: report.stats.stop.to_string(),
        },
        _ => Hunt {
            total,
            time_to_find: total,
            calls_to_find: report.stats.calls,
            note: format!("{}; deepest {}", report.summary(), report.stats.deepest),
            ..Hunt::default()
        },
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let args = Args::parse();
    let targets: Vec<Target> = vec![indexset::target(), ropey::target(), imbl::target()]
        .into_iter()
        .filter(|t| args.only.as_ref().is_none_or(|o| o.split(',').any(|n| n == t.name)))
        .collect();
    let budget = Duration::from_millis(args.budget_ms);
    let tools: [(&str, String); 4] = [
        ("speccheck", "defaults".to_string()),
        ("speccheck", format!("one knob: budget {} s", budget.as_secs_f64())),
        ("proptest", format!("defaults, vec(op, 0..{})", args.max_ops)),
        ("hegeltest", format!("defaults, vec(op, 0..{})", args.max_ops)),
    ];

    let mut out = String::new();
    out.push_str("# Interface fuzzing on real crates: published deep-state bugs\n\n");
    out.push_str(&format!(
        "Command: `cargo run --release -p speccheck-bench --bin interface_real -- --seeds {} --budget-ms {} --max-ops {}`\n\n{}\n\n",
        args.seeds,
        args.budget_ms,
        args.max_ops,
        machine()
    ));
    out.push_str(
        "Each target is a crates.io release pinned at a version with a published bug, checked against a \
         std reference through the same trait by both tools. speccheck runs the reference-model mode \
         (`compare Candidate with Reference by Trait`) at its defaults (`Config::seeded(seed)`: no other \
         setting), and with the one knob (`Config::to_budget`: search until the budget is spent or a \
         failure is found). proptest runs over a `Vec<Op>` of the same calls, equally likely, with the \
         same argument ranges, at its defaults (256 cases, its default shrink budget, no persistence), \
         seeded; hegeltest (Hypothesis's engine) over the same `Vec<Op>` (its length drawn first in the same \
         range, then the calls, all with hegeltest's own generators, whose integers lean to small values) at its defaults (100 test cases, its own shrinker, no database), \
         seeded. A hunt counts as found only when the failing call is the bug's symptom; a failure \
         elsewhere is listed as another finding. Time and calls to find are to the first failure \
         (before reduction); the reported length counts the calls of the reported program up to the \
         failing one (for proptest and hegeltest, the shrunk vector up to its first failing operation).\n\n",
    );

    let mut table = Table::new(&[
        "target",
        "tool",
        "settings",
        "found",
        "other finding",
        "time to find ms: median",
        "mean",
        "sd",
        "p95",
        "calls to find: median",
        "reported calls: median",
        "mean",
        "first failing program: median",
        "total time ms: median",
    ]);
    let mut verdicts = Vec::new();
    for t in &targets {
        out.push_str(&format!("- **{}**: {} (`{}`; symptom: {})\n", t.name, t.bug, t.release, t.symptom.join(", ")));
        let mut medians: Vec<(usize, f64, f64)> = Vec::new();
        let mut seeds_run = 0;
        for (k, (tool, settings)) in tools.iter().enumerate() {
            let mut hunts = Vec::new();
            let seeds: Vec<u64> = match &args.seed {
                Some(list) => list.split(',').map(|s| s.trim().parse().expect("a seed")).collect(),
                None => (1..=args.seeds).collect(),
            };
            for seed in seeds {
                let h = match k {
                    0 => speccheck_hunt(t, Config::seeded(seed), args.show),
                    1 => speccheck_hunt(t, Config::seeded(seed).to_budget(budget), args.show),
                    2 => {
                        let hook = std::panic::take_hook();
                        std::panic::set_hook(Box::new(|_| {}));
                        let h = (t.proptest)(seed, args.max_ops);
                        std::panic::set_hook(hook);
                        h
                    }
                    // hegeltest's runner keeps its own quiet panic hook.
                    _ => (t.hegel)(seed, args.max_ops),
                };
                eprintln!(
                    "{:9} {:10} {:38} seed {seed:3}: {} ttf {:.0} ms, {} calls, reported {} (of {}), total {:.0} ms {}",
                    t.name,
                    tool,
                    settings,
                    h.what.as_deref().unwrap_or("not found"),
                    ms(h.time_to_find),
                    h.calls_to_find,
                    h.reported,
                    h.original,
                    ms(h.total),
                    h.note
                );
                hunts.push(h);
            }
            seeds_run = hunts.len();
            let is_bug = |h: &Hunt| h.what.as_ref().is_some_and(|w| t.symptom.iter().any(|s| w.contains(s)));
            let found: Vec<&Hunt> = hunts.iter().filter(|h| is_bug(h)).collect();
            let other = hunts.iter().filter(|h| h.what.is_some() && !is_bug(h)).count();
            let ttf: Vec<f64> = found.iter().map(|h| ms(h.time_to_find)).collect();
            let s = Summary::of(&ttf);
            let calls: Vec<f64> = found.iter().map(|h| h.calls_to_find as f64).collect();
            let reported: Vec<f64> = found.iter().map(|h| h.reported as f64).collect();
            let original: Vec<f64> = found.iter().map(|h| h.original as f64).collect();
            let total: Vec<f64> = hunts.iter().map(|h| ms(h.total)).collect();
            table.row(vec![
                t.name.to_string(),
                tool.to_string(),
                settings.clone(),
                format!("{}/{}", found.len(), hunts.len()),
                other.to_string(),
                format!("{:.0}", median(&ttf)),
                format!("{:.0}", s.mean),
                format!("{:.0}", s.sd),
                format!("{:.0}", s.p95),
                format!("{:.0}", median(&calls)),
                format!("{:.0}", median(&reported)),
                format!("{:.0}", Summary::of(&reported).mean),
                format!("{:.0}", median(&original)),
                format!("{:.0}", median(&total)),
            ]);
            medians.push((found.len(), median(&ttf), median(&reported)));
        }
        verdicts.push((t.name, medians, seeds_run));
    }
    out.push('\n');
    out.push_str(&table.to_markdown());
    out.push_str("\n## Against the goal\n\n");
    out.push_str(
        "Goal: found on every seed with the defaults or the one knob, median time to find at or below \
         proptest's, reported program at most half of proptest's shrunk length.\n\n",
    );
    for (name, m, n) in &verdicts {
        let (hg_found, hg_ttf, hg_len) = m[3];
        out.push_str(&format!(
            "- {name}, hegeltest: found {hg_found}/{n}{}\n",
            if hg_found == 0 {
                String::new()
            } else {
                format!("; median time to find {hg_ttf:.0} ms; reported {hg_len:.0} calls")
            }
        ));
        let (pt_found, pt_ttf, pt_len) = m[2];
        for (k, label) in [(0, "defaults"), (1, "one knob")] {
            let (found, ttf, len) = m[k];
            out.push_str(&format!(
                "- {name}, speccheck {label}: found on every seed: **{}**; median time to find {:.0} ms vs \
                 proptest {:.0} ms ({}): **{}**; reported {:.0} calls vs proptest {:.0} ({:.2}×): **{}**\n",
                if found == *n { "yes" } else { "no" },
                ttf,
                pt_ttf,
                format_args!("proptest found {pt_found}/{n}"),
                // Nothing found: no time or length to compare.
                if found == 0 {
                    "no (not found)"
                } else if ttf <= pt_ttf || pt_found == 0 {
                    "yes"
                } else {
                    "no"
                },
                len,
                pt_len,
                len / pt_len,
                if found == 0 {
                    "no (not found)"
                } else if len <= pt_len / 2.0 {
                    "yes"
                } else {
                    "no"
                },
            ));
        }
    }
    println!("{out}");
    if let Some(path) = &args.out {
        std::fs::write(path, &out).expect("write the results");
        eprintln!("wrote {path}");
    }
}
