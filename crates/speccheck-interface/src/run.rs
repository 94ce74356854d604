//! A whole run: search on a worker thread watched for hangs, then reduce
//! the counterexample program, then report.

use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use speccheck_core::human::duration as human;
use speccheck_core::runner::FailureInfo;
use speccheck_core::{ChoiceSequence, FailureKind};

use crate::config::Config;
use crate::describe::Api;
use crate::engine::{Engine, Finding, Found, InFlight, Output, Shared, hang};
use crate::memory::Meter;
use crate::program::Program;
use crate::reduce;
use crate::report::{Counterexample, FnStats, InterfaceReport, LawStats, Stats, StopReason, TypeStats, Verdict};

/// Stack size of the search thread (APIs over deep recursive values).
const WORKER_STACK: usize = 64 << 20;

impl Api {
    /// Tests the API: builds instances bottom-up by calling its functions,
    /// checks its laws on them (and, in reference mode, every call against
    /// the reference), and reports the first counterexample as a reduced
    /// client program.
    pub fn check(&self, config: Config) -> InterfaceReport {
        let (cfg, seed) = match config.resolved(&self.name) {
            Ok(x) => x,
            Err(e) => {
                return InterfaceReport {
                    name: self.name.clone(),
                    verdict: Verdict::Error(e),
                    stats: empty_stats(self, &Config::default(), 0, StopReason::Replay),
                    reduction: None,
                };
            }
        };
        let api = Arc::new(self.clone());
        let name = cfg.name.clone().unwrap_or_else(|| self.name.clone());
        if let Some(replay) = cfg.replay.clone() {
            return replay_only(&api, &cfg, seed, &name, replay);
        }
        let started = Instant::now();
        let out = search(&api, &cfg, seed, started);
        let mut stats = out.stats;
        let report_name = self.name.clone();
        if let Some(e) = out.error {
            return InterfaceReport { name: report_name, verdict: Verdict::Error(e), stats, reduction: None };
        }
        let Some(finding) = out.finding else {
            // Stopped at a memory budget, the search did not do what its
            // settings say: never a pass.
            let verdict = if stats.stop.is_memory() { Verdict::Incomplete(stats.stop) } else { Verdict::Passed };
            return InterfaceReport { name: report_name, verdict, stats, reduction: None };
        };
        let reduce_started = Instant::now();
        let mut hints = None;
        let (mut cx, reduction) = counterexample(&api, &cfg, seed, &name, finding, &mut hints);
        stats.reduce_time = reduce_started.elapsed();
        save_long_parts(&mut cx, &cfg, &name, seed, hints.as_deref());
        cx.rerun_command = self.rerun_command();
        InterfaceReport { name: report_name, verdict: Verdict::Failed(Box::new(cx)), stats, reduction }
    }
}

impl InterfaceReport {
    /// Panics with the report unless the run passed (for `#[test]`s).
    pub fn assert_passed(&self) {
        assert!(self.passed(), "\n{self}");
    }

    /// Panics with the report unless the run found a counterexample;
    /// returns it.
    pub fn assert_failed(&self) -> &Counterexample {
        match self.counterexample() {
            Some(c) => c,
            None => panic!("expected a counterexample\n{self}"),
        }
    }
}

pub(crate) fn empty_stats(api: &Api, cfg: &Config, seed: u64, stop: StopReason) -> Stats {
    Stats {
        types: api
            .types
            .iter()
            .map(|t| TypeStats {
                name: t.name.clone(),
                is_abstract: t.is_abstract(),
                bound: t.bound.unwrap_or(cfg.pool_bound),
                ..TypeStats::default()
            })
            .collect(),
        functions: api.functions.iter().map(|f| FnStats { name: f.f.name.clone(), ..FnStats::default() }).collect(),
        laws: api.laws.iter().map(|l| LawStats { name: l.law.name.clone(), ..LawStats::default() }).collect(),
        rounds: 0,
        calls: 0,
        search_time: Duration::ZERO,
        reduce_time: Duration::ZERO,
        stop,
        seed,
        container: cfg.container,
        reference: api.reference.clone(),
        deepest: 0,
        walks: 0,
        walk_calls: 0,
        longest_walk: 0,
        depth_target: 0,
        recorded_peak: 0,
    }
}

/// Runs the engine on a worker thread; a call running past the timeout is
/// a counterexample (the thread running it is abandoned).
fn search(api: &Arc<Api>, cfg: &Config, seed: u64, started: Instant) -> Output {
    let timeout = cfg.call_timeout;
    let shared = Arc::new(Shared::new(timeout.is_some()));
    let (tx, rx) = mpsc::channel();
    let (api2, cfg2, shared2) = (api.clone(), cfg.clone(), shared.clone());
    let spawned = std::thread::Builder::new()
        .name(format!("speccheck-interface:{}", api.name))
        .stack_size(WORKER_STACK)
        .spawn(move || {
            // The engine (and its pools) is dropped before the result is
            // sent: nothing of the search outlives it.
            let out = Engine::new(&api2, &cfg2, &shared2, seed).run();
            let _ = tx.send(out);
        });
    let handle = match spawned {
        Ok(h) => h,
        Err(_) => return Engine::new(api, cfg, &shared, seed).run(),
    };
    let tick = timeout.map(|t| (t / 4).clamp(Duration::from_millis(1), Duration::from_millis(50)));
    loop {
        let received = match tick {
            Some(t) => rx.recv_timeout(t),
            None => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
        };
        match received {
            Ok(out) => {
                let _ = handle.join();
                return out;
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Some(t) = timeout
                    && let Some(h) = shared.watch.hung(t)
                {
                    shared.watch.abandon();
                    return hung(api, cfg, seed, &shared, h.elapsed, started);
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                let why = match handle.join() {
                    Err(payload) => payload
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default(),
                    Ok(()) => String::new(),
                };
                return Output {
                    finding: None,
                    stats: empty_stats(api, cfg, seed, StopReason::Found),
                    error: Some(format!("internal error: the search stopped unexpectedly {why}")),
                };
            }
        }
    }
}

fn hung(api: &Api, cfg: &Config, seed: u64, shared: &Shared, after: Duration, started: Instant) -> Output {
    let in_flight = shared.in_flight.lock().unwrap_or_else(|e| e.into_inner()).take();
    let mut stats = shared
        .progress
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .unwrap_or_else(|| empty_stats(api, cfg, seed, StopReason::Hang));
    let calls = shared.calls.load(std::sync::atomic::Ordering::Relaxed);
    stats.stop = StopReason::Hang;
    stats.calls = stats.calls.max(calls);
    stats.search_time = started.elapsed();
    let found = match in_flight {
        Some(InFlight::Call(call)) => Found::Call { call },
        Some(InFlight::Law { law, args }) => Found::Law { law, args },
        None => {
            return Output { finding: None, stats, error: Some("a call hung, but which one is unknown".into()) };
        }
    };
    let (failure, what) = hang(api, &found, after);
    Output { finding: Some(Finding { found, failure, what, time: started.elapsed(), calls }), stats, error: None }
}

/// Writes a program longer than a screen, and a replay too long for a
/// variable, to files (the report then names them; the replay's `hints`,
/// if known, beside it: see `reduce::hints`). A file that cannot be
/// written leaves the report as it was: everything is still in it.
fn save_long_parts(cx: &mut Counterexample, cfg: &Config, name: &str, seed: u64, hints: Option<&[u32]>) {
    let long_program = cx.program.lines().count() > crate::report::SCREEN_LINES;
    let long_replay = cx.replay.as_ref().is_some_and(|r| r.len() > crate::report::REPLAY_CHARS);
    if !long_program && !long_replay {
        return;
    }
    let dir = cfg.output_dir.clone().unwrap_or_else(|| {
        std::env::var_os("CARGO_MANIFEST_DIR")
            .map(std::path::PathBuf::from)
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_default()
            .join(".speccheck")
    });
    let stem: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
    let stem = format!("{stem}-{seed:016x}");
    let write = |sub: &str, file: String, text: &str| -> Option<std::path::PathBuf> {
        let d = dir.join(sub);
        std::fs::create_dir_all(&d).ok()?;
        let path = d.join(file);
        std::fs::write(&path, text).ok()?;
        Some(path)
    };
    if long_program {
        let body: String = cx.program.lines().map(|l| format!("    {l}\n")).collect();
        let text = format!(
            "// speccheck-interface: `{name}`: {} ({} calls{}); seed {seed:#x}\n#[test]\nfn counterexample() {{\n{body}}}\n",
            cx.what,
            cx.calls,
            if cx.original_calls != cx.calls { format!(", reduced from {}", cx.original_calls) } else { String::new() },
        );
        cx.program_file = write("programs", format!("{stem}.rs"), &text);
    }
    if long_replay && let Some(r) = &cx.replay {
        cx.replay_file = write("replays", format!("{stem}.replay"), &format!("{r}\n"));
        if let (Some(file), Some(uses)) = (&cx.replay_file, hints) {
            reduce::hints::write(file, r, uses);
        }
    }
}

/// The comment on a program's failing line.
fn note(failure: &FailureInfo, cfg: &Config) -> String {
    match failure.kind {
        FailureKind::Panic => format!("panics: {}", failure.message),
        FailureKind::Crash => format!("crashes the process: {}", failure.message),
        FailureKind::Timeout => match cfg.call_timeout {
            Some(t) => format!("does not return within {}", human(t)),
            None => "does not return".to_string(),
        },
        FailureKind::Returned if failure.location.as_deref().is_some_and(|l| l.starts_with("law ")) => {
            "does not hold".to_string()
        }
        FailureKind::Returned => failure.message.clone(),
    }
}

/// The counterexample `finding` makes, reduced; `hints` gets the replay
/// hints of its replay string, when known.
fn counterexample(
    api: &Arc<Api>,
    cfg: &Config,
    seed: u64,
    name: &str,
    finding: Finding,
    hints: &mut Option<Vec<u32>>,
) -> (Counterexample, Option<speccheck_core::RunReport>) {
    let program = match &finding.found {
        Found::Call { call } => Program::slice_call(call),
        Found::Law { law, args } => Program::slice_law(*law, args),
    };
    let original = program.render(api, Some(&note(&finding.failure, cfg)));
    let mut cx = Counterexample {
        kind: finding.failure.kind,
        what: finding.what.clone(),
        message: finding.failure.message.clone(),
        location: finding.failure.location.clone(),
        program: original.clone(),
        calls: program.len(),
        original_program: original,
        original_calls: program.len(),
        time_to_find: finding.time,
        calls_to_find: finding.calls,
        reduction_note: None,
        replay: None,
        replay_file: None,
        rerun_command: None,
        program_file: None,
        frame_in_crate: None,
    };
    // A hang is not run again: it would hang (and abandon) another thread.
    if finding.failure.kind == FailureKind::Timeout {
        cx.reduction_note = Some("a hanging program is shown as found, not reduced".to_string());
        return (cx, None);
    }
    let mut program = program;
    let reduce_started = Instant::now();
    let meter = Meter::new(cfg.memory_budget);
    if meter.check()
        && let Some(e) = meter.exceeded()
    {
        // The search's memory not given back yet (or another thread's):
        // reducing would only add to it.
        cx.reduction_note = Some(format!(
            "shown as found, not reduced: the process was over the memory budget when the search ended ({e})"
        ));
        return (cx, None);
    }
    // Deleting calls stopped at the memory budget: the shrinker, which
    // keeps every value a program makes, does not run.
    let mut deleted_out_of_memory = None;
    if program.len() > reduce::DELETE_CHUNKS_FROM {
        // A long program: run it whole once (keeping only its live values,
        // as the shrinker's replays do not), then delete calls in chunks
        // before the shrinker sees it.
        let mut literals = reduce::direct::Literals::default();
        match reduce::direct::run(api, &program, &mut literals, Some(&meter)) {
            reduce::direct::Run::Failed(f, _) if f.origin() == finding.failure.origin() => {}
            reduce::direct::Run::OutOfMemory(e) => {
                cx.reduction_note = Some(format!(
                    "shown as found, not reduced: run again on its own, it went over the memory budget ({e})"
                ));
                return (cx, None);
            }
            other => {
                let how = match other {
                    reduce::direct::Run::Failed(f, _) => format!("it failed differently ({})", f.message),
                    reduce::direct::Run::Invalid(why) => format!("it could not run ({why})"),
                    reduce::direct::Run::Passed => "it passed".to_string(),
                    reduce::direct::Run::OutOfMemory(_) => unreachable!("matched above"),
                };
                cx.reduction_note = Some(format!(
                    "the program did not fail when run again on its own: all {} calls ran and {how}; the API's \
                     behaviour depends on state the program does not create (a global table, a cache, a clock); \
                     shown as found",
                    program.len()
                ));
                return (cx, None);
            }
        }
        let deadline = reduce_started + cfg.shrink_time.mul_f64(0.75);
        let from = program.len();
        let mut progress = |len: usize, spent: Duration| {
            if spent >= Duration::from_secs(2) {
                eprintln!("speccheck-interface: reducing `{name}`: {len} of {from} calls left after {}", human(spent));
            }
        };
        let deleted = if cfg.reduce {
            let d = reduce::direct::delete_chunks(api, &program, &finding.failure, deadline, &meter, &mut progress);
            program = d.program;
            deleted_out_of_memory = d.out_of_memory;
            Some((d.runs, d.cut_short))
        } else {
            None
        };
        if program.len() > reduce::SHRINK_AT_MOST || deleted_out_of_memory.is_some() {
            cx.program = program.render(api, Some(&note(&finding.failure, cfg)));
            cx.calls = program.len();
            cx.reduction_note = deleted.map(|(runs, cut_short)| match deleted_out_of_memory {
                Some(e) => format!(
                    "reduced by deleting calls ({runs} programs run), stopped at the memory budget ({e}): shown as \
                     reduced so far"
                ),
                None => format!(
                    "reduced by deleting calls ({runs} programs run{}); at {} calls it is too long for the shrinker \
                     (at most {})",
                    if cut_short { ", stopped at the reduction's time limit" } else { "" },
                    program.len(),
                    reduce::SHRINK_AT_MOST
                ),
            });
            // A meter of its own: memory the deletion let go may be free again.
            let encoded =
                reduce::encode_with_uses(api, &program, cfg.list_max_len, Some(&Meter::new(cfg.memory_budget)));
            if let Ok((choices, uses)) = encoded {
                cx.replay = Some(choices.to_replay_string());
                *hints = Some(uses);
            }
            if cx.kind == FailureKind::Panic {
                cx.frame_in_crate = frame_in_crate(api, &program);
            }
            return (cx, None);
        }
    }
    let cfg = &Config { shrink_time: cfg.shrink_time.saturating_sub(reduce_started.elapsed()), ..cfg.clone() };
    let encoded = match reduce::encode_with_uses(api, &program, cfg.list_max_len, Some(&meter)) {
        Ok((c, uses)) => {
            *hints = Some(uses);
            c
        }
        Err(_) if let Some(e) = meter.exceeded() => {
            cx.reduction_note = Some(format!("shown as found, not reduced: it went over the memory budget ({e})"));
            return (cx, None);
        }
        Err(e) => {
            cx.reduction_note = Some(format!(
                "the program could not be replayed on its own ({e}): the API's behaviour depends on state the \
                 program does not create; shown as found"
            ));
            return (cx, None);
        }
    };
    cx.replay = Some(encoded.to_replay_string());
    let red = reduce::replay_and_shrink(api, cfg, seed, name, encoded, None);
    if red.out_of_memory.is_some() {
        // The program the replay above encodes, as far as deletion took it.
        let deleted = program.len() < cx.original_calls;
        if deleted {
            cx.program = program.render(api, Some(&note(&finding.failure, cfg)));
            cx.calls = program.len();
        }
        cx.reduction_note =
            red.note.map(|n| format!("{n}: shown as {}", if deleted { "reduced so far" } else { "found" }));
        return (cx, None);
    }
    cx.reduction_note = red.note;
    let report = red.report;
    let (Some(best), Some(failure)) = (red.program, red.failure) else { return (cx, report) };
    cx.replay = red.replay;
    // The hints of the shrunk replay, when it goes to a file.
    *hints = match &cx.replay {
        Some(r) if r.len() > crate::report::REPLAY_CHARS => {
            reduce::encode_with_uses(api, &best, cfg.list_max_len, Some(&meter)).ok().map(|(_, uses)| uses)
        }
        _ => None,
    };
    cx.program = best.render(api, Some(&note(&failure, cfg)));
    cx.calls = best.len();
    cx.message = failure.message;
    cx.location = failure.location;
    if cx.kind == FailureKind::Panic {
        cx.frame_in_crate = frame_in_crate(api, &best);
    }
    (cx, report)
}

/// Runs `program` once more recording the panic's backtrace, when
/// backtraces are on; returns its innermost frame in the crate under test.
fn frame_in_crate(api: &Api, program: &Program) -> Option<String> {
    let on = std::env::var_os("RUST_BACKTRACE").is_some_and(|v| v != "0");
    let krate = api.crate_under_test()?;
    if !on {
        return None;
    }
    let (_, trace) = crate::panics::traced(|| {
        reduce::direct::run(api, program, &mut reduce::direct::Literals::default(), None);
    });
    crate::panics::first_frame_in(&trace?, krate)
}

fn replay_only(api: &Arc<Api>, cfg: &Config, seed: u64, name: &str, replay: String) -> InterfaceReport {
    let started = Instant::now();
    // The file the replay was read from, for its hints: given directly, or
    // named by `SPECCHECK_REPLAY` (which reads the file itself).
    let file = replay.strip_prefix('@').map(|p| std::path::PathBuf::from(p.trim())).or_else(|| {
        let var = std::env::var("SPECCHECK_REPLAY").ok()?;
        Some(std::path::PathBuf::from(var.strip_prefix('@')?.trim()))
    });
    // `@FILE`: a replay saved to a file (set directly rather than through
    // `SPECCHECK_REPLAY`, which reads the file itself).
    let replay = match replay.strip_prefix('@') {
        Some(path) => match std::fs::read_to_string(path.trim()) {
            Ok(text) => text.trim().to_string(),
            Err(e) => {
                let stats = empty_stats(api, cfg, seed, StopReason::Replay);
                let verdict = Verdict::Error(format!("the replay file {path} could not be read: {e}"));
                return InterfaceReport { name: api.name.clone(), verdict, stats, reduction: None };
            }
        },
        None => replay,
    };
    let choices = match ChoiceSequence::from_replay_string(&replay) {
        Ok(c) => c,
        Err(e) => {
            let stats = empty_stats(api, cfg, seed, StopReason::Replay);
            let verdict = Verdict::Error(format!("SPECCHECK_REPLAY is not a replay string: {e}"));
            return InterfaceReport { name: api.name.clone(), verdict, stats, reduction: None };
        }
    };
    // A replayed program is shown as given: replaying a reported
    // counterexample shows that counterexample.
    let as_given = Config { reduce: false, ..cfg.clone() };
    let hints = file.and_then(|f| reduce::hints::read(&f, &replay)).map(Arc::new);
    let red = reduce::replay_and_shrink(api, &as_given, seed, name, choices, hints);
    let mut stats = empty_stats(api, cfg, seed, StopReason::Replay);
    stats.reduce_time = started.elapsed();
    if let Some(e) = red.out_of_memory {
        // Neither a pass nor a failure: the program did not run to its end.
        stats.stop = StopReason::Memory(e);
        let verdict = Verdict::Error(format!(
            "the replay stopped at the memory budget ({e}): a replay string alone keeps every value its program \
             makes (any later call may name any; a replay saved to a file comes with hints beside it, which let it \
             drop them); give it more with SPECCHECK_MEMORY_MB"
        ));
        return InterfaceReport { name: api.name.clone(), verdict, stats, reduction: None };
    }
    let verdict = match (red.program, red.failure) {
        (Some(p), Some(f)) => {
            let text = p.render(api, Some(&note(&f, cfg)));
            Verdict::Failed(Box::new(Counterexample {
                kind: f.kind,
                what: f.location.clone().unwrap_or_else(|| f.message.clone()),
                message: f.message,
                location: f.location,
                program: text.clone(),
                calls: p.len(),
                original_program: text,
                original_calls: p.len(),
                time_to_find: Duration::ZERO,
                calls_to_find: 0,
                reduction_note: Some("replayed from SPECCHECK_REPLAY".to_string()),
                replay: red.replay,
                replay_file: None,
                rerun_command: api.rerun_command(),
                program_file: None,
                frame_in_crate: None,
            }))
        }
        _ => match red.note {
            Some(n) if n.starts_with("could not") => Verdict::Error(n),
            _ => Verdict::Passed,
        },
    };
    InterfaceReport { name: api.name.clone(), verdict, stats, reduction: red.report }
}
