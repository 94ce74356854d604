//! The thread that makes the inputs of the enumerating strategies
//! (`lazy`, `smt`, `auto`) for [`crate::strategy::SpecInputs`]: the
//! solver's handles stay on it; `auto`'s trial of the two ways runs there;
//! the inputs go to the run in batches.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::SyncSender;
use std::time::{Duration, Instant};

use speccheck_spec::Value;

use crate::lazy::{Lazy, LazyError};
#[cfg(feature = "z3")]
use crate::strategy::QUERY_LIMIT;
use crate::strategy::{AUTO_TRIAL, ArgSpec, Strategy};

/// What the producer tells the run.
pub(crate) enum Msg {
    /// Which way the inputs are found, once the producer knows.
    By(String),
    /// Inputs, in order (a batch: one message per input would make each
    /// input a hand-over between threads, costing more than a lazy input).
    Inputs(Vec<Vec<Value>>),
    Warning(String),
    Complete,
    /// Only the SMT strategy stops short (a solver timeout).
    #[cfg_attr(not(feature = "z3"), allow(dead_code))]
    Stopped(String),
    Error(String),
}

/// Makes the inputs `strategy` gives `spec` at `depth`, sending them on
/// `tx` until they end or the run stops listening (a failed send, or
/// `stop` set: the lazy enumeration may go a long way between inputs).
pub(crate) fn produce(spec: &ArgSpec, strategy: Strategy, depth: u32, tx: &SyncSender<Msg>, stop: Arc<AtomicBool>) {
    let mut lazy =
        Lazy::new(&spec.params, &spec.exprs(), spec.measures, depth).at_least(spec.min_height).stop_when(stop);
    let mut made = Trial::default();
    if strategy == Strategy::Auto && cfg!(feature = "z3") {
        match auto(spec, depth, &mut lazy, tx) {
            Some(trial) => made = trial,
            None => return, // The solver was faster, and went on.
        }
    } else if strategy == Strategy::Auto {
        let _ = tx.send(Msg::By("the lazy enumeration (speccheck built without z3)".into()));
    } else if strategy == Strategy::Smt {
        match smt_search(spec, depth, tx) {
            Ok(()) => return,
            Err(why) => {
                let _ = tx.send(Msg::By("the lazy enumeration (the spec is outside the SMT fragment)".into()));
                let _ = tx.send(Msg::Warning(format!(
                    "the SMT strategy cannot take this spec: {why}; testing with the lazy strategy instead (same \
                     inputs, found by enumeration)"
                )));
            }
        }
    }
    stream(spec, LAZY, made, lazy, lazy_stopped, tx);
}

/// What one way made in `auto`'s trial: its inputs, how it ended if it
/// did (every input made, or stopped), and how long it took.
#[derive(Default)]
struct Trial {
    inputs: Vec<Vec<Value>>,
    end: Option<Msg>,
    took: Duration,
}

impl Trial {
    /// Inputs from `it` for [`AUTO_TRIAL`] at most (an error `paused`
    /// says is the end of the time, not of `it`).
    #[cfg_attr(not(feature = "z3"), allow(dead_code))]
    fn of<E>(
        it: &mut impl Iterator<Item = Result<Vec<Value>, E>>,
        stopped: fn(E) -> Msg,
        paused: fn(&E) -> bool,
    ) -> Trial {
        let start = Instant::now();
        let mut t = Trial::default();
        while start.elapsed() < AUTO_TRIAL {
            match it.next() {
                Some(Ok(v)) => t.inputs.push(v),
                Some(Err(e)) if paused(&e) => break,
                Some(Err(e)) => {
                    t.end = Some(stopped(e));
                    break;
                }
                None => {
                    t.end = Some(Msg::Complete);
                    break;
                }
            }
        }
        t.took = start.elapsed();
        t
    }

    /// Valid inputs per second; none for a way that stopped short.
    #[cfg_attr(not(feature = "z3"), allow(dead_code))]
    fn rate(&self) -> f64 {
        match self.end {
            Some(Msg::Error(_) | Msg::Stopped(_)) => 0.0,
            _ => self.inputs.len() as f64 / self.took.as_secs_f64().max(1e-9),
        }
    }

    #[cfg_attr(not(feature = "z3"), allow(dead_code))]
    fn said(&self) -> String {
        match self.end {
            Some(Msg::Complete) => {
                format!("all {} valid inputs in {:.3} s", self.inputs.len(), self.took.as_secs_f64())
            }
            Some(Msg::Error(_) | Msg::Stopped(_)) => format!("{} before it stopped", self.inputs.len()),
            _ => format!("{} in {:.3} s", self.inputs.len(), self.took.as_secs_f64()),
        }
    }
}

/// How many times the enumeration's rate the solver's must be in `auto`'s
/// trial for the solver to go on (see [`auto`]).
#[cfg(feature = "z3")]
const SOLVER_MARGIN: f64 = 100.0;

/// Inputs per batch at most.
const BATCH: usize = 256;
/// How long a batch may wait for more inputs (a slow strategy's inputs,
/// the solver's, go out about as they come).
const BATCH_WAIT: Duration = Duration::from_millis(2);

/// The way named in a re-check's error, for the lazy enumeration's inputs.
const LAZY: &str = "the lazy enumeration";
/// The same, for the solver's.
#[cfg_attr(not(feature = "z3"), allow(dead_code))]
const SOLVER: &str = "the SMT solver (z3)";

/// The inputs made in a trial, then the rest from `it`, in batches; each
/// re-checked by the evaluator first ([`ArgSpec::recheck_remembering`],
/// `by` the way that made it). The re-check runs here, beside the run
/// rather than in it: it costs about what the property's own run of a
/// small input does, and the machine has a core for each.
fn stream<E>(
    spec: &ArgSpec,
    by: &str,
    made: Trial,
    it: impl Iterator<Item = Result<Vec<Value>, E>>,
    stopped: fn(E) -> Msg,
    tx: &SyncSender<Msg>,
) {
    let memo = RefCell::default();
    let mut batch = Vec::with_capacity(BATCH);
    let mut since = Instant::now();
    // An error ends the stream: with the last word to say (an input failed
    // its re-check), or none (the run stopped listening).
    let mut send = |v: Vec<Value>, batch: &mut Vec<Vec<Value>>| -> Result<(), Option<Msg>> {
        batch.push(spec.recheck_remembering(by, v, &memo).map_err(|e| Some(Msg::Error(e)))?);
        if batch.len() < BATCH && since.elapsed() < BATCH_WAIT {
            return Ok(());
        }
        since = Instant::now();
        tx.send(Msg::Inputs(std::mem::take(batch))).map_err(|_| None)
    };
    let end = |batch: Vec<Vec<Value>>, last: Option<Msg>| {
        let Some(last) = last else { return };
        if !batch.is_empty() && tx.send(Msg::Inputs(batch)).is_err() {
            return;
        }
        let _ = tx.send(last);
    };
    for v in made.inputs {
        if let Err(last) = send(v, &mut batch) {
            return end(batch, last);
        }
    }
    if let Some(last) = made.end {
        return end(batch, Some(last));
    }
    for v in it {
        let sent = match v {
            Ok(v) => send(v, &mut batch),
            Err(e) => Err(Some(stopped(e))),
        };
        if let Err(last) = sent {
            return end(batch, last);
        }
    }
    end(batch, Some(Msg::Complete));
}

/// The solver's search over `spec` at `depth`, from its lowest height.
#[cfg(feature = "z3")]
fn smt_start(spec: &ArgSpec, depth: u32) -> Result<crate::smt::Search<'static>, crate::smt::SmtError> {
    crate::smt::Search::at_least(&spec.params, &spec.exprs(), spec.measures, depth, spec.min_height, QUERY_LIMIT)
}

fn lazy_stopped(e: LazyError) -> Msg {
    Msg::Error(format!("the lazy strategy stopped: {e}"))
}

#[cfg(feature = "z3")]
fn smt_stopped(e: crate::smt::SmtError) -> Msg {
    match e {
        e @ crate::smt::SmtError::Timeout { .. } => Msg::Stopped(e.to_string()),
        e => Msg::Error(e.to_string()),
    }
}

/// [`Strategy::Auto`]: a trial of the lazy enumeration, then one of the
/// solver; the faster goes on. `None` when the solver did (its inputs are
/// sent); else the lazy enumeration's trial, to go on from.
#[cfg(feature = "z3")]
fn auto(spec: &ArgSpec, depth: u32, lazy: &mut Lazy, tx: &SyncSender<Msg>) -> Option<Trial> {
    use crate::smt::SmtError;
    let by_lazy = |why: String| Msg::By(format!("the lazy enumeration ({why})"));
    // One input may be far off (a height bound): the trial ends on time.
    lazy.pause_at(Some(Instant::now() + AUTO_TRIAL));
    let lazy_made = Trial::of(lazy, lazy_stopped, |e| matches!(e, LazyError::Interrupted));
    lazy.pause_at(None);
    if matches!(lazy_made.end, Some(Msg::Complete)) && lazy_made.inputs.is_empty() {
        // Nothing valid at this depth: no trial can beat that.
        let _ = tx.send(by_lazy("it found no valid input within the bounds".into()));
        return Some(lazy_made);
    }
    let mut search = match smt_start(spec, depth) {
        Ok(s) => s,
        Err(SmtError::Unsolvable(u)) => {
            let _ = tx.send(by_lazy(format!("outside the SMT solver's fragment: {u}")));
            return Some(lazy_made);
        }
        Err(e) => {
            let _ = tx.send(by_lazy(format!("the SMT solver could not start: {e}")));
            return Some(lazy_made);
        }
    };
    let smt_made = Trial::of(&mut search, smt_stopped, |_| false);
    let why = format!(
        "auto's trial at depth {depth}: the lazy enumeration made {}, the SMT solver {}",
        lazy_made.said(),
        smt_made.said()
    );
    // A short trial flatters the solver: its cost per model grows with
    // the models it has blocked (a red-black tree's depth 7: 3,500 a
    // second in the trial, 280 over the depth), while the enumeration
    // starts with its deepest refutations and speeds up (a weight-balanced
    // map's depth 6: 160 a second in the trial, 950 over the depth). So
    // the solver goes on only where the enumeration made next to nothing:
    // a hundredth of the solver's rate, or none (a spec whose partial
    // inputs it cannot refute, as sparse arithmetic over many integers).
    // A way that made every input in its trial has nothing left to
    // extrapolate: when only the solver did, it goes on (to say so).
    let done = |t: &Trial| matches!(t.end, Some(Msg::Complete));
    let solver = !done(&lazy_made) && (done(&smt_made) || smt_made.rate() > SOLVER_MARGIN * lazy_made.rate());
    if solver {
        let _ = tx.send(Msg::By(format!("the SMT solver (z3) ({why})")));
        stream(spec, SOLVER, smt_made, search, smt_stopped, tx);
        return None;
    }
    let _ = tx.send(by_lazy(why));
    Some(lazy_made)
}

#[cfg(not(feature = "z3"))]
fn auto(_: &ArgSpec, _: u32, _: &mut Lazy, _: &SyncSender<Msg>) -> Option<Trial> {
    Some(Trial::default())
}

/// Runs the SMT search, or says why the spec is outside what it takes
/// (then the caller falls back to the lazy strategy).
#[cfg(feature = "z3")]
fn smt_search(spec: &ArgSpec, depth: u32, tx: &SyncSender<Msg>) -> Result<(), String> {
    use crate::smt::SmtError;
    let search = match smt_start(spec, depth) {
        Ok(s) => s,
        Err(SmtError::Unsolvable(u)) => return Err(u.to_string()),
        Err(e) => {
            let _ = tx.send(Msg::Error(e.to_string()));
            return Ok(());
        }
    };
    stream(spec, SOLVER, Trial::default(), search, smt_stopped, tx);
    Ok(())
}

#[cfg(not(feature = "z3"))]
fn smt_search(_: &ArgSpec, _: u32, tx: &SyncSender<Msg>) -> Result<(), String> {
    let _ = tx.send(Msg::Error(
        "the SMT strategy needs speccheck built with its `smt` feature, which links the z3 solver (install it with \
         `apt-get install -y z3 libz3-dev`); or choose `strategy = \"lazy\"`, which tests the same inputs without a \
         solver"
            .into(),
    ));
    Ok(())
}
