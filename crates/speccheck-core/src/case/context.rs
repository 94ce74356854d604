//! Per-case context on the running thread: preconditions, labels, and the
//! panic hook that captures messages instead of printing them (so only the
//! final counterexample is reported, never the intermediate ones).

use std::cell::{Cell, RefCell};
use std::fmt::Debug;
use std::panic::{self, Location};
use std::sync::Once;

/// Payload of a rejected precondition (unwinds without the panic hook).
pub(crate) struct Discarded {
    pub(crate) reason: String,
}

/// What the hook saw of the last panic on this thread.
#[derive(Clone, Debug, Default)]
pub(crate) struct PanicRecord {
    pub(crate) message: String,
    pub(crate) location: Option<String>,
    pub(crate) backtrace: Option<String>,
}

/// What a case leaves on its thread: read back when the case ends. One
/// thread-local for all of it, so a case touches it once at each end (the
/// generation phase runs millions of cases).
#[derive(Default)]
struct CaseData {
    last_panic: Option<PanicRecord>,
    labels: Vec<String>,
    notes: Vec<String>,
}

thread_local! {
    static CAPTURING: Cell<bool> = const { Cell::new(false) };
    /// Set while a finished run's report is raised as the test's panic.
    static REPORTING: Cell<bool> = const { Cell::new(false) };
    static WANT_BACKTRACE: Cell<bool> = const { Cell::new(false) };
    /// Set while the final replay of a counterexample runs.
    static FINAL: Cell<bool> = const { Cell::new(false) };
    /// Set when something was put in `CASE`: most cases put nothing there,
    /// and then neither end of the case borrows it.
    static DIRTY: Cell<bool> = const { Cell::new(false) };
    static CASE: RefCell<CaseData> =
        const { RefCell::new(CaseData { last_panic: None, labels: Vec::new(), notes: Vec::new() }) };
}

static HOOK: Once = Once::new();

/// Installs (once per process) a hook that records panics happening inside
/// speccheck cases and passes every other panic to the previous hook.
pub(crate) fn install_panic_hook() {
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if REPORTING.with(Cell::get) {
                // The report is the whole message: where the property is,
                // then what happened. No backtrace: it would only show
                // speccheck's own frames (the failure's frames are in the
                // report).
                let thread = std::thread::current();
                let name = thread.name().unwrap_or("<unnamed>");
                let at = info.location().map(|l| format!(" at {}:{}:{}", l.file(), l.line(), l.column()));
                eprintln!(
                    "\nthread '{name}' panicked{}:\n{}",
                    at.unwrap_or_default(),
                    info.payload_as_str().unwrap_or("")
                );
            } else if CAPTURING.with(Cell::get) {
                let message = info
                    .payload_as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| "<non-string panic payload>".to_string());
                let location = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
                let backtrace = WANT_BACKTRACE
                    .with(Cell::get)
                    .then(std::backtrace::Backtrace::capture)
                    .filter(|b| b.status() == std::backtrace::BacktraceStatus::Captured)
                    .map(|b| trim_backtrace(&b.to_string()));
                // A panic while the case data is borrowed (an allocation
                // failing in `label`) keeps what the unwinding says.
                CASE.with(|c| {
                    if let Ok(mut c) = c.try_borrow_mut() {
                        c.last_panic = Some(PanicRecord { message, location, backtrace });
                        DIRTY.with(|d| d.set(true));
                    }
                });
            } else {
                previous(info);
            }
        }));
    });
}

/// Raises `message` (a failed run's report) as a panic located at the
/// caller — the property — printed by the hook without a backtrace.
#[track_caller]
pub(crate) fn raise_report(message: String) -> ! {
    install_panic_hook();
    REPORTING.with(|r| r.set(true));
    // Reset the flag however the panic ends (it is caught in the test
    // harness, or by a caller's `catch_unwind`).
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            REPORTING.with(|r| r.set(false));
        }
    }
    let _reset = Reset;
    panic!("{message}")
}

/// Marks the current thread as running a case (panics are captured).
pub(crate) fn begin_case(final_run: bool) {
    CAPTURING.with(|c| c.set(true));
    WANT_BACKTRACE.with(|c| c.set(final_run));
    FINAL.with(|c| c.set(final_run));
    if DIRTY.with(|d| d.replace(false)) {
        // Whatever was recorded outside a case is not this case's.
        CASE.with(|c| *c.borrow_mut() = CaseData::default());
    }
}

/// Ends the case if it recorded nothing (no panic, label or note) and
/// returns true; otherwise leaves it for [`end_case`].
#[inline]
pub(crate) fn end_clean_case() -> bool {
    if DIRTY.with(Cell::get) {
        return false;
    }
    CAPTURING.with(|c| c.set(false));
    FINAL.with(|c| c.set(false));
    true
}

/// Ends the case; returns the captured panic, the labels and the notes.
pub(crate) fn end_case() -> (Option<PanicRecord>, Vec<String>, Vec<String>) {
    CAPTURING.with(|c| c.set(false));
    FINAL.with(|c| c.set(false));
    if !DIRTY.with(|d| d.replace(false)) {
        return (None, Vec::new(), Vec::new());
    }
    CASE.with(|c| {
        let mut c = c.borrow_mut();
        (c.last_panic.take(), std::mem::take(&mut c.labels), std::mem::take(&mut c.notes))
    })
}

/// Rejects the current input unless `condition` holds: the case is
/// discarded, not failed. Too many discards make the run give up with an
/// error naming this precondition (by its source location; the
/// [`assume!`](crate::assume!) macro also names it by its text).
#[track_caller]
pub fn assume(condition: bool) {
    if !condition {
        let loc = Location::caller();
        reject(format!("assume at {}:{}", loc.file(), loc.line()));
    }
}

/// Rejects the current input, naming why. It unwinds out of the body (a
/// few microseconds): a property that rejects most of its inputs runs
/// faster returning [`TestResult::Discard`](crate::TestResult::Discard).
pub fn reject(reason: impl Into<String>) -> ! {
    panic::resume_unwind(Box::new(Discarded { reason: reason.into() }))
}

/// Counts this case under `label` in the run's statistics (QuickCheck's
/// `label`, Hypothesis's `event`).
pub fn label(label: impl Into<String>) {
    let label = label.into();
    CASE.with(|c| c.borrow_mut().labels.push(label));
    DIRTY.with(|d| d.set(true));
}

/// The label under which [`cover`] records what it asks for (a case
/// counts it; the report turns it back into the requirement).
const COVER_MARK: &str = "\u{1}cover\u{1}";

/// Asks that at least `percent` % of the passing cases satisfy `holds`,
/// counted under `label` (QuickCheck's `cover`). A passing run that falls
/// short gets a warning naming the label and the share it reached: a test
/// that mostly checks trivial cases says so instead of passing quietly.
pub fn cover(percent: f64, holds: bool, label: impl Into<String>) {
    let label = label.into();
    CASE.with(|c| {
        let l = &mut c.borrow_mut().labels;
        l.push(format!("{COVER_MARK}{percent}{COVER_MARK}{label}"));
        if holds {
            l.push(label);
        }
    });
    DIRTY.with(|d| d.set(true));
}

/// Takes the requirements [`cover`] recorded out of a run's label counts,
/// and says which the run did not meet (with `passed` cases in all).
pub(crate) fn coverage_warnings(labels: &mut std::collections::BTreeMap<String, u64>, passed: u64) -> Vec<String> {
    let wanted: Vec<String> = labels.keys().filter(|k| k.starts_with(COVER_MARK)).cloned().collect();
    let mut out = Vec::new();
    for key in wanted {
        labels.remove(&key);
        let Some((percent, label)) = key[COVER_MARK.len()..].split_once(COVER_MARK) else { continue };
        let Ok(percent) = percent.parse::<f64>() else { continue };
        if passed == 0 {
            continue;
        }
        let got = labels.get(label).copied().unwrap_or(0);
        let share = 100.0 * got as f64 / passed as f64;
        if share < percent {
            out.push(format!(
                "only {share:.1}% of the {passed} passing cases were `{label}` ({got}); at least {percent}% were \
                 asked for: most of the test checked something else"
            ));
        }
    }
    out
}

/// The label under which [`target`] records a score (the report never
/// shows it as a label).
const TARGET_MARK: &str = "\u{1}target\u{1}";

/// Reports a score for this input to steer the search (targeted
/// property-based testing, Hypothesis's `target()`; Löscher and Sagonas
/// 2017): after part of the generation phase, the run hill-climbs from the
/// input with the highest score under each `label`, changing one choice at
/// a time and keeping what raises the score, so inputs the property finds
/// "almost failing" are pushed further. The score must be a finite number
/// (NaN or an infinity makes the run an error naming the label); the best
/// score per label is in the run's statistics.
pub fn target(score: f64, label: impl Into<String>) {
    let label = label.into();
    CASE.with(|c| c.borrow_mut().labels.push(format!("{TARGET_MARK}{label}{TARGET_MARK}{:x}", score.to_bits())));
    DIRTY.with(|d| d.set(true));
}

/// A score [`target`] recorded, from its label: `(label, score)`.
pub(crate) fn target_of(label: &str) -> Option<(&str, f64)> {
    let rest = label.strip_prefix(TARGET_MARK)?;
    let (name, bits) = rest.rsplit_once(TARGET_MARK)?;
    Some((name, f64::from_bits(u64::from_str_radix(bits, 16).ok()?)))
}

/// Adds a note to the counterexample's report (Hypothesis's `note`): code
/// that has no `&mut TestCase` at hand, such as a generated function
/// answering a call, says what it did. `note` is only called on the final
/// replay of a counterexample, so it costs nothing while searching.
pub fn note(note: impl FnOnce() -> String) {
    if FINAL.with(Cell::get) {
        let n = note();
        CASE.with(|c| c.borrow_mut().notes.push(n));
        DIRTY.with(|d| d.set(true));
    }
}

/// Counts this case under the `Debug` form of `value` (QuickCheck's
/// `collect`).
pub fn collect<T: Debug + ?Sized>(value: &T) {
    label(format!("{value:?}"));
}

/// Rejects the input unless the condition holds, naming the condition by
/// its source text in the error when too many inputs are rejected.
#[macro_export]
macro_rules! assume {
    ($cond:expr) => {
        if !$cond {
            $crate::reject(::std::format!(
                "assume!({}) at {}:{}",
                ::std::stringify!($cond),
                ::std::file!(),
                ::std::line!()
            ));
        }
    };
}

/// Keeps the frames of a backtrace that belong to the code under test:
/// from the first frame past the panic machinery up to speccheck's own
/// (the runner's test function, or the case runner).
pub(crate) fn trim_backtrace(full: &str) -> String {
    let mut frames: Vec<Vec<&str>> = Vec::new();
    for line in full.lines() {
        let t = line.trim_start();
        let starts_frame =
            t.split_once(':').is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        if starts_frame || frames.is_empty() {
            frames.push(vec![line]);
        } else if let Some(last) = frames.last_mut() {
            last.push(line);
        }
    }
    let is_machinery = |f: &[&str]| {
        let head = f[0];
        [
            "std::",
            "core::",
            "alloc::",
            "__rustc",
            "speccheck_core::case::context",
            "<alloc::boxed::Box<dyn",
            "rust_begin_unwind",
        ]
        .iter()
        .any(|p| head.contains(p))
    };
    let start = frames.iter().position(|f| !is_machinery(f)).unwrap_or(0);
    let end = frames[start..]
        .iter()
        .position(|f| ["speccheck_core::runner::", "speccheck_core::case::"].iter().any(|p| f[0].contains(p)))
        .map_or(frames.len(), |p| start + p);
    frames[start..end].iter().flat_map(|f| f.iter().copied()).collect::<Vec<_>>().join("\n")
}
