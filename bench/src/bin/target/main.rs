//! Target's Figure 8, side by side in one run: for each benchmark and each
//! strategy (SMT, lazy, exhaustive, random), at depth 1, 2, … check the
//! first 1000 valid inputs (or all, if fewer), each depth under a time
//! limit; report the deepest depth each strategy finished and the time per
//! depth (mean, sd, p95 over repeats), as a table and an SVG plot.
//!
//! `cargo run --release -p speccheck-bench --bin target -- --timeout 60`
//! writes `bench/results/target.md` and `bench/results/target.svg`.
//!
//! Every strategy tests the same thing: the function under test runs on
//! each valid input and its postcondition is checked. The SMT and lazy
//! strategies build valid inputs; exhaustive enumerates every input of the
//! depth (the core's `enumerate`) and filters; random draws inputs (size =
//! depth) and filters, duplicates allowed, as QuickCheck does.

mod subjects;

use std::time::{Duration, Instant};

use clap::Parser;
use speccheck::gens::{self, Generator};
use speccheck::runner::{InputSource, SourceStep};
use speccheck::spec::{Targetable, Value};
use speccheck::target::lazy::Lazy;
use speccheck::target::smt::{Search, SmtError};
use speccheck::target::strategy::SpecInputs;
use speccheck::target::{ArgSpec, Strategy};
use speccheck::test_case::{TestCase, catch_invalid};
use speccheck::{Arbitrary, enumerate};
use speccheck_bench::{Summary, Table, fmt_seconds, machine};
use subjects::*;

#[derive(Parser)]
struct Args {
    /// Seconds per depth before a strategy stops.
    #[arg(long, default_value_t = 60)]
    timeout: u64,
    /// Valid inputs checked per depth.
    #[arg(long, default_value_t = 1000)]
    inputs: u64,
    /// Check every valid input of each depth (`--inputs` is ignored): the
    /// race to enumerate the whole space rather than its first inputs.
    #[arg(long)]
    all: bool,
    /// Repeats of a depth that took under 5 s (for sd and p95).
    #[arg(long, default_value_t = 3)]
    repeats: usize,
    /// Deepest depth tried.
    #[arg(long, default_value_t = 45)]
    max_depth: u32,
    /// Only these benchmarks (comma-separated: list,rbtree,map,stackset).
    #[arg(long)]
    only: Option<String>,
    /// Only these strategies (comma-separated: smt,lazy,auto,exhaustive,random).
    #[arg(long)]
    strategies: Option<String>,
    /// Output files (without extension).
    #[arg(long, default_value = "bench/results/target")]
    out: String,
}

impl Args {
    /// Valid inputs to check per depth.
    fn want(&self) -> u64 {
        if self.all { u64::MAX } else { self.inputs }
    }
}

/// One benchmark: its arguments and precondition, and the test of one
/// valid input (the function run, its postcondition checked).
struct Bench {
    name: &'static str,
    function: &'static str,
    spec: ArgSpec,
    /// Runs the function on the input; `Err` names a violated postcondition.
    test: fn(&[Value]) -> Result<(), String>,
    /// The exhaustive and random strategies: the inputs of a generator.
    inputs: Inputs,
}

/// Feeds a visitor a generator's inputs, reflected, until it says stop.
type Inputs = Box<dyn Fn(&mut dyn FnMut(Vec<Value>) -> bool, Draw)>;

/// How the generator-driven strategies draw.
#[derive(Clone, Copy)]
enum Draw {
    Enumerate(u32),
    Random { size: u32, seed: u64 },
}

/// Feeds `visit` the generator's inputs (reflected) until it returns false.
fn drive<G>(g: G, reflect: fn(&G::Value) -> Vec<Value>) -> Inputs
where
    G: Generator + 'static,
{
    Box::new(move |visit, draw| match draw {
        Draw::Enumerate(d) => {
            for (_, v) in enumerate(&g, d) {
                if !visit(reflect(&v)) {
                    return;
                }
            }
        }
        Draw::Random { size, seed } => {
            for i in 0u64.. {
                let mut tc = TestCase::random(seed.wrapping_add(i), size as usize);
                let Ok(v) = catch_invalid(&mut tc, |tc| g.generate(tc)) else { continue };
                if !visit(reflect(&v)) {
                    return;
                }
            }
        }
    })
}

fn arg<T: Targetable>(name: &str) -> (String, speccheck::spec::Ty) {
    (name.to_string(), T::ty())
}

fn one<A: Arbitrary>(name: &'static str) -> gens::Argument<A> {
    gens::argument::<A>(name)
}

fn benches() -> Vec<Bench> {
    vec![
        Bench {
            name: "List",
            function: "insert",
            spec: ArgSpec::new(vec![arg::<i64>("x"), arg::<SList>("l")], &[]).unwrap(),
            test: |v| {
                let (x, l) = (i64::reify(&v[0]).unwrap(), SList::reify(&v[1]).unwrap());
                let n = slen(&l);
                let r = insert(x, l);
                if !sorted(&r) || slen(&r) != n + 1 { Err("sorted, one longer".into()) } else { Ok(()) }
            },
            inputs: drive(gens::arguments((one::<i64>("x"), one::<SList>("l"))), |(x, l)| {
                vec![x.reflect(), l.reflect()]
            }),
        },
        Bench {
            name: "RBTree",
            function: "add",
            spec: ArgSpec::new(
                vec![arg::<i64>("x"), arg::<Rbt>("t")],
                &[("is_rb(t) && bh_ok(t)", "is_rb(t) && bh_ok(t)")],
            )
            .unwrap(),
            test: |v| {
                let (x, t) = (i64::reify(&v[0]).unwrap(), Rbt::reify(&v[1]).unwrap());
                let r = add(x, t);
                if is_rb(&r) && bh_ok(&r) && ordered(&r) { Ok(()) } else { Err("is_rb, bh_ok, ordered".into()) }
            },
            inputs: drive(gens::arguments((one::<i64>("x"), one::<Rbt>("t"))), |(x, t)| vec![x.reflect(), t.reflect()]),
        },
        Bench {
            name: "Map",
            function: "delete",
            spec: ArgSpec::new(vec![arg::<i64>("k"), arg::<Map>("m")], &[]).unwrap(),
            test: |v| {
                let (k, m) = (i64::reify(&v[0]).unwrap(), Map::reify(&v[1]).unwrap());
                let mut expected = mkeys(&m);
                expected.remove(&k);
                let r = delete(k, m);
                if map_ok(&r) && mkeys(&r) == expected { Ok(()) } else { Err("balanced, ordered, keys - {k}".into()) }
            },
            inputs: drive(gens::arguments((one::<i64>("k"), one::<Map>("m"))), |(k, m)| vec![k.reflect(), m.reflect()]),
        },
        Bench {
            name: "StackSet",
            function: "focus_left",
            spec: ArgSpec::new(vec![arg::<StackSet>("s")], &[]).unwrap(),
            test: |v| {
                let s = StackSet::reify(&v[0]).unwrap();
                let spec = ArgSpec::new(vec![arg::<StackSet>("s")], &[]).unwrap();
                let before = ws_wins(&s.current);
                let r = focus_left(s);
                match spec.violation(&[r.reflect()]) {
                    Ok(None) if ws_wins(&r.current) == before => Ok(()),
                    _ => Err("no duplicates, same windows".into()),
                }
            },
            inputs: drive(gens::arguments((one::<StackSet>("s"),)), |(s,)| vec![s.reflect()]),
        },
    ]
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Strat {
    Smt,
    Lazy,
    /// `Strategy::Auto` as a property gets it: its inputs through the
    /// runner's input source, each re-checked by the evaluator.
    Auto,
    Exhaustive,
    Random,
}

impl Strat {
    fn name(self) -> &'static str {
        match self {
            Strat::Smt => "smt",
            Strat::Lazy => "lazy",
            Strat::Auto => "auto",
            Strat::Exhaustive => "exhaustive",
            Strat::Random => "random",
        }
    }
}

/// How one depth went.
enum Outcome {
    /// Checked this many valid inputs (`all`: every valid input of the depth).
    Done {
        checked: u64,
        all: bool,
        /// Mean size of the inputs checked (constructors and elements).
        size: f64,
        /// Partial inputs the lazy strategy judged (the tests of Lazy
        /// SmallCheck's count).
        judged: Option<u64>,
        /// Which way `auto` went, and why (its report's words).
        by: Option<String>,
    },
    TimedOut {
        checked: u64,
        by: Option<String>,
    },
    /// The function broke its postcondition (a bug in the benchmark).
    Failed(String),
    Error(String),
}

fn run_depth(b: &Bench, s: Strat, d: u32, want: u64, limit: Duration) -> Outcome {
    let start = Instant::now();
    let mut checked = 0u64;
    let mut sizes = 0u64;
    let mut failure = None;
    let mut check = |v: &[Value]| -> bool {
        if let Err(e) = (b.test)(v) {
            failure =
                Some(format!("{e} fails on {}", v.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")));
            return false;
        }
        checked += 1;
        sizes += v.iter().map(size).sum::<u64>();
        checked < want
    };
    let exprs: Vec<_> = b.spec.requires.iter().map(|(_, e)| e.clone()).collect();
    let mut judged = None;
    let mut by = None;
    let outcome = match s {
        Strat::Smt => {
            let search = match Search::new(&b.spec.params, &exprs, b.spec.measures, d, limit) {
                Ok(s) => s,
                Err(e) => return Outcome::Error(e.to_string()),
            };
            // A solver timeout ends the depth like the wall clock does.
            let inputs = search
                .map(|v| v.map_err(|e| if matches!(e, SmtError::Timeout { .. }) { None } else { Some(e.to_string()) }));
            match consume(inputs, &mut check, start, limit) {
                Ok(o) => o,
                Err(e) => return Outcome::Error(e),
            }
        }
        Strat::Lazy => {
            let mut lazy = Lazy::new(&b.spec.params, &exprs, b.spec.measures, d);
            let inputs = lazy.by_ref().map(|v| v.map_err(|e| Some(e.to_string())));
            let o = match consume(inputs, &mut check, start, limit) {
                Ok(o) => o,
                Err(e) => return Outcome::Error(e),
            };
            judged = Some(lazy.evaluated);
            o
        }
        Strat::Auto => {
            let mut source = SpecInputs::start(&b.spec, Strategy::Auto, d, |v: &[Value]| Some(v.to_vec()));
            let inputs = std::iter::from_fn(|| {
                loop {
                    return match source.next_input() {
                        SourceStep::Input(v) => Some(Ok(v)),
                        SourceStep::Complete { .. } => None,
                        SourceStep::Stopped { .. } => Some(Err(None)),
                        SourceStep::Error(e) => Some(Err(Some(e))),
                        // The budget holds while the source works.
                        SourceStep::Waiting if start.elapsed() > limit => Some(Err(None)),
                        SourceStep::Waiting => continue,
                    };
                }
            });
            let o = match consume(inputs, &mut check, start, limit) {
                Ok(o) => o,
                Err(e) => return Outcome::Error(e),
            };
            by = Some(source.describe());
            o
        }
        Strat::Exhaustive | Strat::Random => {
            let draw = if s == Strat::Exhaustive {
                Draw::Enumerate(d)
            } else {
                Draw::Random { size: d, seed: 0x7a26_e700 + u64::from(d) }
            };
            let mut timed_out = false;
            let mut stopped = false;
            let mut seen = 0u64;
            (b.inputs)(
                &mut |v| {
                    seen += 1;
                    if seen.is_multiple_of(64) && start.elapsed() > limit {
                        timed_out = true;
                        return false;
                    }
                    if b.spec.violation(&v).ok().flatten().is_some() {
                        return true;
                    }
                    let go_on = check(&v);
                    stopped = !go_on;
                    go_on
                },
                draw,
            );
            if timed_out { None } else { Some(!stopped && s == Strat::Exhaustive) }
        }
    };
    if let Some(f) = failure {
        return Outcome::Failed(f);
    }
    match outcome {
        None => Outcome::TimedOut { checked, by },
        Some(all) => Outcome::Done { checked, all, size: sizes as f64 / checked.max(1) as f64, judged, by },
    }
}

/// Checks valid inputs until `check` says enough (`Some(false)`), they run
/// out (`Some(true)`: all of them) or time does (`None`; an `Err(None)`
/// input is a timeout too); `Err(Some(e))` ends with an error.
fn consume(
    inputs: impl Iterator<Item = Result<Vec<Value>, Option<String>>>,
    check: &mut impl FnMut(&[Value]) -> bool,
    start: Instant,
    limit: Duration,
) -> Result<Option<bool>, String> {
    for v in inputs {
        match v {
            Ok(v) if !check(&v) => return Ok(Some(false)),
            Ok(_) => {}
            Err(None) => return Ok(None),
            Err(Some(e)) => return Err(e),
        }
        if start.elapsed() > limit {
            return Ok(None);
        }
    }
    Ok(Some(true))
}

/// An input's size: its constructors and sequence elements.
fn size(v: &Value) -> u64 {
    match v {
        Value::Data { fields, .. } => 1 + fields.iter().map(size).sum::<u64>(),
        Value::Seq(xs) => xs.len() as u64 + xs.iter().map(size).sum::<u64>(),
        _ => 0,
    }
}

/// Per benchmark and strategy: (depth, times of its runs, inputs checked,
/// all, their mean size).
/// Per depth: the depth, the times, the inputs checked, whether that was
/// all of them, their mean size, and the partial inputs judged (lazy).
type Series = Vec<(u32, Vec<f64>, u64, bool, f64, Option<u64>)>;

fn main() {
    let args = Args::parse();
    let limit = Duration::from_secs(args.timeout);
    let pick = |list: &Option<String>, name: &str| {
        list.as_ref().is_none_or(|l| l.split(',').any(|x| x.eq_ignore_ascii_case(name)))
    };
    let strategies: Vec<Strat> = [Strat::Smt, Strat::Lazy, Strat::Auto, Strat::Exhaustive, Strat::Random]
        .into_iter()
        .filter(|s| pick(&args.strategies, s.name()))
        // Random generation never knows it has every input.
        .filter(|s| !(args.all && *s == Strat::Random))
        .collect();
    let mut results: Vec<(String, Strat, Series, String)> = Vec::new();
    let mut picks: Vec<(String, u32, String)> = Vec::new();
    for b in benches().iter().filter(|b| pick(&args.only, b.name) || pick(&args.only, &b.name.to_lowercase())) {
        for &s in &strategies {
            let mut series = Series::new();
            let mut stop = String::from("reached --max-depth");
            for d in 1..=args.max_depth {
                let t = Instant::now();
                let first = run_depth(b, s, d, args.want(), limit);
                let secs = t.elapsed().as_secs_f64();
                let (checked, all, size, judged) = match first {
                    Outcome::Done { checked, all, size, judged, by } => {
                        if let Some(by) = by {
                            picks.push((b.name.to_string(), d, by));
                        }
                        (checked, all, size, judged)
                    }
                    Outcome::TimedOut { checked, by } => {
                        if let Some(by) = by {
                            picks.push((b.name.to_string(), d, format!("{by} (timed out)")));
                        }
                        stop = format!("depth {d} timed out after {checked} inputs");
                        break;
                    }
                    Outcome::Failed(f) => {
                        stop = format!("depth {d}: the function failed its postcondition: {f}");
                        break;
                    }
                    Outcome::Error(e) => {
                        stop = format!("depth {d}: {e}");
                        break;
                    }
                };
                let mut times = vec![secs];
                if secs < 5.0 {
                    for _ in 1..args.repeats {
                        let t = Instant::now();
                        run_depth(b, s, d, args.want(), limit);
                        times.push(t.elapsed().as_secs_f64());
                    }
                }
                eprintln!(
                    "{} {} depth {d}: {checked} inputs{} in {}",
                    b.name,
                    s.name(),
                    if all { " (all)" } else { "" },
                    fmt_seconds(secs)
                );
                series.push((d, times, checked, all, size, judged));
            }
            eprintln!("{} {}: {stop}", b.name, s.name());
            results.push((format!("{} `{}`", b.name, b.function), s, series, stop));
            // Written as it goes: a long run leaves what it measured.
            write_results(&args, &results, &picks);
        }
    }
}

fn write_results(args: &Args, results: &[(String, Strat, Series, String)], picks: &[(String, u32, String)]) {
    let mut md = String::new();
    let what = if args.all {
        "checks every valid input of the depth".to_string()
    } else {
        format!("checks the first {} valid inputs (or all of them, if fewer)", args.inputs)
    };
    md.push_str(&format!(
        "# Target, Figure 8: deepest depth in a time limit per depth{}\n\n",
        if args.all { ", every valid input" } else { "" }
    ));
    md.push_str(&format!(
        "Command: `cargo run --release -p speccheck-bench --bin target -- --timeout {} {} --repeats {}{}`\n\n\
         Machine: {}. At each depth, each strategy {what}: the function runs and its postcondition is checked. \
         A strategy stops at the first depth that does not finish in {} s. Depth means the core's exhaustive \
         depth for every strategy (`speccheck::target::depth`). SMT: z3 through the `z3` crate; within a depth, \
         one solver per height (the inputs of height 0, then those of height 1, …: each solver holds only what \
         its height needs, and small inputs come first), each model blocked on its decode-relevant literals. \
         Lazy: partial inputs, holes filled on demand. Auto: `Strategy::Auto` as a property gets it (a 0.2 s trial \
         of the lazy enumeration and one of the solver, the faster going on; every input re-checked by the \
         evaluator, as the runner does, which the lazy and smt rows do not pay). Exhaustive: the core's `enumerate`, filtered. Random: the \
         core's random generation at size = depth, filtered (duplicates count, as in QuickCheck). *Mean size* \
         counts the constructors and sequence elements of the inputs checked: strategies that stop at the first \
         inputs check different ones, and this says how large they were. *Partial inputs judged* (lazy only): \
         the partial inputs the lazy strategy judged at the depth — what Lazy SmallCheck counts as its tests — \
         and the mean time per one, the function's runs on the valid inputs included (Lazy SmallCheck, GHC, \
         measured here: about 1 µs per test).\n\n",
        args.timeout,
        if args.all { "--all".to_string() } else { format!("--inputs {}", args.inputs) },
        args.repeats,
        if args.all { format!(" --out {}", args.out) } else { String::new() },
        machine(),
        args.timeout
    ));
    md.push_str(
        "This is the secondary view: what a user needs — bugs that need large valid inputs found, and large valid \
         inputs per second — is in `bench/results/target-size.md` (`--bin target_size`).\n\n",
    );
    md.push_str("## Deepest depth finished (mean size of that depth's inputs)\n\n");
    md.push_str(
        "—† no depth is claimed: the strategy's inputs got *smaller* as the depth grew (the first inputs of a \
         deep search are its smallest), so the depth it went on to says nothing about how large its inputs were; \
         the cell says where they were largest.\n\n",
    );
    let paper_column = if args.all {
        "paper, first 1000 only (Target / Lazy SC / SC, 60 min)"
    } else {
        "paper (Target / Lazy SC / SC, 60 min)"
    };
    let mut t = Table::new(&["benchmark", "smt", "lazy", "auto", "exhaustive", paper_column]);
    let paper = |b: &str| match b.split(' ').next().unwrap_or("") {
        "List" => "20 / 18 / ≤ 6",
        "RBTree" => "12 / 5 / ≤ 6",
        "Map" => "10 / 6 / ≤ 6",
        "StackSet" => "8 / 6 / ≤ 6",
        _ => "",
    };
    let mut names: Vec<&String> = results.iter().map(|r| &r.0).collect();
    names.dedup();
    for name in names {
        let cell = |s: Strat| {
            results.iter().find(|r| &r.0 == name && r.1 == s).map(|r| depth_cell(&r.2)).unwrap_or_else(|| "—".into())
        };
        t.row(vec![
            name.clone(),
            cell(Strat::Smt),
            cell(Strat::Lazy),
            cell(Strat::Auto),
            cell(Strat::Exhaustive),
            paper(name).into(),
        ]);
    }
    md.push_str(&t.to_markdown());
    md.push_str(if args.all {
        "\nRandom is not run in this mode: it never knows it has every input.\n"
    } else {
        "\nRandom is left out of this table: its inputs are not bounded by depth (its size parameter is set to \
         the depth, but a random value may be deeper or, far more often, shallower), so reaching a depth means \
         nothing for it. Its rows below give the time to as many valid inputs, duplicates included.\n"
    });
    if !picks.is_empty() {
        md.push_str("\n## Which way auto went, and why (its report's words)\n\n");
        for (name, d, by) in picks {
            md.push_str(&format!("- {name}, depth {d}: {by}\n"));
        }
    }
    md.push_str("\n## Why each strategy stopped\n\n");
    for (name, s, _, stop) in results {
        md.push_str(&format!("- {name}, {}: {stop}\n", s.name()));
    }
    md.push_str("\n## Time per depth (seconds: mean / sd / p95 over the repeats; n = repeats)\n\n");
    let mut t = Table::new(&[
        "benchmark",
        "strategy",
        "depth",
        "inputs",
        "mean",
        "sd",
        "p95",
        "n",
        "mean size",
        "partial inputs judged (µs each)",
    ]);
    for (name, s, series, _) in results {
        for (d, times, checked, all, size, judged) in series {
            let sm = Summary::of(times);
            // What Lazy SmallCheck counts as tests: each partial input
            // judged, with the time per one (the function's runs included).
            let judged = judged.map_or("—".to_string(), |j| format!("{j} ({:.2})", sm.mean * 1e6 / j.max(1) as f64));
            t.row(vec![
                name.clone(),
                s.name().into(),
                d.to_string(),
                format!("{checked}{}", if *all { " (all)" } else { "" }),
                format!("{:.3}", sm.mean),
                format!("{:.3}", sm.sd),
                format!("{:.3}", sm.p95),
                sm.n.to_string(),
                format!("{size:.1}"),
                judged,
            ]);
        }
    }
    md.push_str(&t.to_markdown());
    std::fs::write(format!("{}.md", args.out), md).expect("write the results");
    std::fs::write(format!("{}.svg", args.out), plot(results, args.timeout)).expect("write the plot");
}

/// The deepest depth a strategy finished with the mean size of that
/// depth's inputs beside it; no depth (—†, with where the inputs were
/// largest) when its inputs had shrunk below 90% of their largest mean
/// size by then.
fn depth_cell(series: &Series) -> String {
    let Some((d, _, _, _, size, _)) = series.last() else { return "none".into() };
    let peak = series.iter().max_by(|a, b| a.4.total_cmp(&b.4)).expect("not empty");
    if *size < 0.9 * peak.4 {
        format!(
            "—† (largest at depth {}: mean size {:.1}; went on to depth {d} at mean size {size:.1})",
            peak.0, peak.4
        )
    } else {
        format!("{d} (mean size {size:.1})")
    }
}

/// One panel per benchmark: time per depth (log scale) for each strategy.
fn plot(results: &[(String, Strat, Series, String)], timeout: u64) -> String {
    use plotters::prelude::*;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1000, 760)).into_drawing_area();
        root.fill(&WHITE).expect("plot");
        let mut names: Vec<&String> = results.iter().map(|r| &r.0).collect();
        names.dedup();
        let panels = root.split_evenly((2, 2));
        for (panel, name) in panels.iter().zip(names) {
            let series: Vec<&(String, Strat, Series, String)> = results.iter().filter(|r| &r.0 == name).collect();
            let max_d = series.iter().flat_map(|r| r.2.iter().map(|p| p.0)).max().unwrap_or(1).max(2);
            let mut chart = ChartBuilder::on(panel)
                .caption(name.as_str(), ("sans-serif", 18))
                .margin(8)
                .x_label_area_size(30)
                .y_label_area_size(50)
                .build_cartesian_2d(1u32..max_d + 1, (1e-4f64..timeout as f64 * 1.2).log_scale())
                .expect("plot");
            chart.configure_mesh().x_desc("depth").y_desc("seconds").draw().expect("plot");
            for (i, r) in series.iter().enumerate() {
                let color = Palette99::pick(i).to_rgba();
                let points: Vec<(u32, f64)> =
                    r.2.iter().map(|(d, times, ..)| (*d, Summary::of(times).mean.max(1e-4))).collect();
                chart
                    .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
                    .expect("plot")
                    .label(r.1.name())
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2)));
                chart.draw_series(points.into_iter().map(|p| Circle::new(p, 3, color.filled()))).expect("plot");
            }
            chart.configure_series_labels().border_style(BLACK).background_style(WHITE).draw().expect("plot");
        }
        root.present().expect("plot");
    }
    svg
}
