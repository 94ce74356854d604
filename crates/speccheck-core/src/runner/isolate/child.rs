//! The child side of an isolated run: the test binary, started again by
//! the parent and filtered to one test, finds these variables set, and the
//! property serves cases instead of searching: each `case` line is built
//! into a test case, run, and answered; the test then passes.

use std::cell::RefCell;
use std::io::{BufRead, BufReader, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use super::wire::{self, ChildResult};
use crate::case::{SharedTest, run_in_place};
use crate::runner::report::{RunReport, RunStats, RunVerdict};
use crate::test_case::spec::CaseSpec;
use crate::test_case::{CaseControl as _, TestCase};

/// The parent's socket.
pub(crate) const SOCKET_VAR: &str = "SPECCHECK_CHILD_SOCKET";
/// The property the child serves (its run name).
pub(crate) const PROPERTY_VAR: &str = "SPECCHECK_CHILD_PROPERTY";

/// Set while this process serves cases (then every case reports its
/// input as soon as it is drawn).
static SERVING: AtomicBool = AtomicBool::new(false);

#[cfg(unix)]
type Stream = std::os::unix::net::UnixStream;

thread_local! {
    /// The connection of the thread serving cases.
    #[cfg(unix)]
    static CONNECTION: RefCell<Option<Stream>> = const { RefCell::new(None) };
    /// Set while a batch runs: its cases' progress goes to the progress
    /// file, not the socket.
    static BATCHING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// True when this process was started to serve the property `name`.
pub(crate) fn serves(name: &str) -> bool {
    std::env::var_os(SOCKET_VAR).is_some() && std::env::var(PROPERTY_VAR).is_ok_and(|p| p == name)
}

/// Called once a case's inputs are drawn: in a serving child, tells the
/// parent what they are before the body runs (a crash in the body then
/// still has its input).
#[inline]
pub(crate) fn generated(tc: &TestCase) {
    if !SERVING.load(Ordering::Relaxed) || BATCHING.with(std::cell::Cell::get) {
        return;
    }
    #[cfg(unix)]
    CONNECTION.with(|c| {
        if let Some(stream) = c.borrow_mut().as_mut() {
            let choices = crate::choice::ChoiceSequence(tc.choices().to_vec());
            let _ = stream.write_all(wire::generated_line(&choices).as_bytes());
        }
    });
}

/// Serves the parent's cases until it says `quit` or goes away; the
/// report passes (the child's test must not fail on its own account).
pub(crate) fn serve(test: SharedTest, name: &str) -> RunReport {
    let report = |verdict| RunReport {
        name: name.to_string(),
        verdict,
        stats: RunStats::default(),
        warnings: Vec::new(),
        notes: vec!["served cases for an isolated run".into()],
        rerun_command: None,
        verbosity: crate::runner::config::Verbosity::Quiet,
        overridden: Vec::new(),
    };
    match serve_on_worker(test) {
        Ok(()) => report(RunVerdict::Passed),
        Err(e) => report(RunVerdict::Error(format!("isolated child: {e}"))),
    }
}

#[cfg(unix)]
fn serve_on_worker(test: SharedTest) -> Result<(), String> {
    let path = std::env::var_os(SOCKET_VAR).ok_or("no socket given")?;
    let stream = Stream::connect(&path).map_err(|e| format!("cannot connect to {path:?}: {e}"))?;
    // Cases run on a thread with the stack in-process runs have.
    let worker = std::thread::Builder::new()
        .name("speccheck-child".into())
        .stack_size(crate::runner::pool::WORKER_STACK)
        .spawn(move || serve_loop(stream, test))
        .map_err(|e| format!("cannot start the serving thread: {e}"))?;
    worker.join().map_err(|_| "the serving thread panicked".to_string())?
}

#[cfg(not(unix))]
fn serve_on_worker(_test: SharedTest) -> Result<(), String> {
    Err("isolated runs need a Unix platform".into())
}

/// The progress file: the index of the batch case running now, where the
/// parent reads it if this process dies (written without waking anyone).
pub(crate) const PROGRESS_VAR: &str = "SPECCHECK_CHILD_PROGRESS";

/// Runs a batch of generated cases, plain (nothing recorded), in order,
/// until one fails; their outcomes.
#[cfg(unix)]
fn run_batch(test: &crate::case::TestFn, b: &wire::Batch) -> Vec<String> {
    use std::os::unix::fs::FileExt as _;
    let progress = std::env::var_os(PROGRESS_VAR).and_then(|p| std::fs::OpenOptions::new().write(true).open(p).ok());
    let mut tc = TestCase::random(0, 0)
        .with_max_depth(b.max_depth)
        .with_max_choices(b.max_choices)
        .with_varied_mix(b.vary_mix)
        .record_choices(false);
    let mut tokens = Vec::with_capacity(b.sizes.len());
    BATCHING.with(|c| c.set(true));
    for (k, &size) in b.sizes.iter().enumerate() {
        if let Some(f) = &progress {
            let _ = f.write_at(&(k as u64).to_le_bytes(), 0);
        }
        tc.reset_random(crate::seed::case_seed(b.seed, b.start + k as u64 * b.stride), size);
        let (outcome, labels, _) = run_in_place(test, &mut tc);
        let fail = outcome.is_fail();
        tokens.push(wire::outcome_token(&outcome, &labels, tc.reaches()));
        if fail {
            break;
        }
    }
    BATCHING.with(|c| c.set(false));
    tokens
}

#[cfg(unix)]
fn serve_loop(stream: Stream, test: SharedTest) -> Result<(), String> {
    let reader = BufReader::new(stream.try_clone().map_err(|e| e.to_string())?);
    let mut writer = stream.try_clone().map_err(|e| e.to_string())?;
    CONNECTION.with(|c| *c.borrow_mut() = Some(stream));
    SERVING.store(true, Ordering::Relaxed);
    for line in reader.lines() {
        let line = line.map_err(|e| e.to_string())?;
        if line == "quit" {
            break;
        }
        if let Some(rest) = line.strip_prefix("batch ") {
            let batch = wire::parse_batch(rest)?;
            let tokens = run_batch(&*test, &batch);
            writer.write_all(wire::batched_line(&tokens).as_bytes()).map_err(|e| e.to_string())?;
            continue;
        }
        let Some(spec) = line.strip_prefix("case ") else { return Err(format!("unexpected message {line:?}")) };
        let spec = CaseSpec::parse(spec)?;
        let mut tc = TestCase::from_spec(&spec);
        let (outcome, labels, _) = run_in_place(&*test, &mut tc);
        let (misaligned, prefix_unused) = (tc.misaligned(), tc.prefix_unused());
        let notes = tc.notes().to_vec();
        let choices = tc.take_choices();
        let r = ChildResult { outcome, choices, misaligned, prefix_unused, labels, notes };
        writer.write_all(wire::result_line(&r).as_bytes()).map_err(|e| e.to_string())?;
    }
    Ok(())
}
