//! Around the engine: what a run does before its first case and after its
//! report. A run whose process died mid-case (found in the write-ahead
//! journal) is replayed in isolation first; the run itself is journaled;
//! the engine runs on a worker thread while the caller's thread watches it
//! for hangs; and the final replay of a counterexample runs on a thread of
//! the caller's own, so that what the property prints lands in this
//! test's output.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::config::Config;
use super::config::Verbosity;
use super::engine::{Engine, Ran};
use super::isolate;
use super::pool;
use super::report::{RunReport, RunStats, RunVerdict};
use super::source::Sourced;
use super::subject::Subject;
use crate::database::FailureDatabase;
use crate::journal;
use crate::store::{FailureStore, Preloaded};
use crate::watch::Watch;

/// One run of a property, before it starts.
pub(crate) struct Run {
    pub(crate) config: Config,
    pub(crate) subject: Subject,
    pub(crate) source: Option<Sourced>,
    pub(crate) started: Instant,
}

impl Run {
    /// Runs the property and reports.
    pub(crate) fn report(mut self) -> RunReport {
        let (store, store_warnings) = self.config.failure_store();
        // Crashed runs are recorded (and recovered) only in the local
        // directory (the journal is of this machine's processes), and only
        // where the database is written.
        let recorded = (self.config.database.clone().map(FailureDatabase::new))
            .filter(|_| self.config.database_writes && !self.config.expected_failure);
        // Where saved crashes are looked for, the store is read once, here,
        // and the replay phase gets the same answer: one round trip to a
        // shared store, not two.
        let (preloaded, store) = match store {
            Some(s) if recorded.is_some() && !self.config.isolate => {
                let p = Arc::new(Preloaded::new(s, &self.config.name));
                (Some(p.clone()), Some(p as Arc<dyn FailureStore>))
            }
            other => (None, other),
        };
        // Opening this process's journal first recovers the journals of
        // dead processes into crashed-run records (see `replay_crashed`).
        let opened = recorded.as_ref().and_then(journal::for_database);
        let crashed = (recorded.as_ref())
            .map(|db| self.replay_crashed(db, opened.as_deref(), preloaded.as_deref()))
            .unwrap_or_default();
        let seed = self.config.effective_seed();
        let journal = opened.filter(|_| !self.config.isolate);
        let name = self.config.name.clone();
        // Said, not passed over: a crash of this run would go unreported.
        let unjournaled = match (&recorded, &journal) {
            (Some(db), None) if !self.config.isolate => Some(db.dir().join(".journal")),
            (_, Some(j)) if !j.begin(&name, seed) => Some(j.dir().to_path_buf()),
            _ => None,
        };
        let warning = crashed.warning.clone();
        let mut report = self.start(seed, store);
        if let Some(j) = &journal {
            j.end(&name, seed);
        }
        if let Some(dir) = unjournaled {
            report.warnings.push(format!(
                "the crash journal could not be written in {} (a full disk, or no permission there): had this \
                 process died mid-case, the next run would not have known",
                dir.display()
            ));
        }
        if let Some(w) = warning {
            report.warnings.insert(0, w);
        }
        for (i, w) in store_warnings.into_iter().enumerate() {
            report.warnings.insert(i, w);
        }
        if let Some(db) = &recorded
            && crashed.seed.is_some()
        {
            if report.passed() {
                report.warnings.push(
                    "replayed in isolation, that seed does not crash: another test running in the same process at \
                     the time probably took it down (or the crash depends on something besides the input, or the \
                     code changed since)"
                        .into(),
                );
            }
            let _ = db.forget_crashed_runs(&report.name);
        }
        report
    }

    /// A run of this property that died mid-case (its process crashed):
    /// its seed is replayed first, in isolation, where the crash is a
    /// verdict. A saved failure that crashed its process is replayed in
    /// isolation too.
    /// `journal` is this process's, opened (which recovered the journals
    /// of dead processes into crashed-run records); after that, records
    /// come only from other processes, read once in a while (see
    /// `journal`).
    fn replay_crashed(
        &mut self,
        db: &FailureDatabase,
        journal: Option<&journal::Journal>,
        store: Option<&Preloaded>,
    ) -> Crashed {
        let crashed = if journal.is_none_or(|j| j.crashes_due(&self.config.name)) {
            db.crashed_runs(&self.config.name)
        } else {
            Vec::new()
        };
        let mut found = Crashed::default();
        if let Some(&seed) = crashed.last() {
            found.seed = Some(seed);
            if self.config.replay.is_none() {
                self.config.seed = Some(seed);
                self.config.isolate = true;
                found.warning = Some(format!(
                    "an earlier run of this property (seed {seed:#x}) was under way when its process died \
                     mid-case; this run replays that seed in isolation (child processes), where a crash is a verdict"
                ));
            }
        }
        // Any store's: a crash saved by another machine crashes this one too.
        if !self.config.isolate && store.is_some_and(Preloaded::holds_a_crash) {
            self.config.isolate = true;
        }
        found
    }

    /// Starts the engine: on this thread when nothing needs watching, else
    /// on a worker thread watched from this one.
    fn start(self, seed: u64, db: Option<Arc<dyn FailureStore>>) -> RunReport {
        let Run { config, subject, source, started } = self;
        let child = if config.isolate {
            let Some(path) = config.test_path.clone() else {
                return error_report(
                    &config.name,
                    "isolation needs the property's test path (run it as a #[test], or set Config::test_path)".into(),
                );
            };
            match isolate::parent::Isolated::new(&config.name, &path) {
                Ok(child) => Some(child),
                Err(e) => return error_report(&config.name, e),
            }
        } else {
            None
        };
        // An isolated run's cases time out in the child: nothing to watch here.
        let timeout = if child.is_some() { None } else { config.timeout };
        let watch = Arc::new(Watch::new(config.threads.max(1), timeout.is_some()));
        let engine = Arc::new(Engine::new(subject, config, seed, db, watch, child, source));
        if timeout.is_none() {
            // Nothing to watch for: run on this thread, with no hand-offs.
            return guarded(&engine, || engine.run());
        }
        run_watched(engine, started)
    }
}

/// What the journal said of an earlier run that died mid-case.
#[derive(Default)]
struct Crashed {
    seed: Option<u64>,
    warning: Option<String>,
}

/// Runs the engine on a pooled worker thread, the final replay on a thread
/// of the caller's, and watches both from this thread for hangs.
fn run_watched(engine: Arc<Engine>, started: Instant) -> RunReport {
    // Until this function returns (the final replay included), idle
    // workers stay awake for the next run.
    let _in_progress = pool::RunInProgress::begin();
    let handoff = Arc::new(pool::Handoff::new());
    let (tx, worker) = (handoff.clone(), engine.clone());
    let spawned = pool::execute(move || {
        let ran = guarded_ran(&worker, || worker.search());
        move || tx.put(ran)
    });
    if spawned.is_err() {
        // No thread to be had: run here, without hang detection.
        return engine.run();
    }
    let pending = match watch_for(&handoff, &engine, started) {
        Ran::Done(report) => return engine.shrink_hang_isolated(*report),
        Ran::Final(pending) => pending,
    };
    // The final replay runs on a thread of the caller's own: a pooled
    // worker was started by some earlier test, and what the property prints
    // there would land in that test's output, not this one's.
    let handoff = Arc::new(pool::Handoff::new());
    let (tx, worker) = (handoff.clone(), engine.clone());
    let last = Mutex::new(Some(pending));
    let spawned =
        std::thread::Builder::new().name("speccheck-final".into()).stack_size(pool::WORKER_STACK).spawn(move || {
            let pending = last.lock().unwrap_or_else(|e| e.into_inner()).take().expect("one final replay");
            let report = guarded(&worker, || worker.finish(*pending));
            tx.put(Ran::Done(Box::new(report)));
        });
    if let Err(e) = spawned {
        return error_report(&engine.config.name, format!("could not start a thread for the final replay: {e}"));
    }
    match watch_for(&handoff, &engine, started) {
        Ran::Done(report) => *report,
        Ran::Final(_) => unreachable!("the final replay reports"),
    }
}

/// Waits for a worker's result; a hang ends in the timeout report.
fn watch_for(handoff: &pool::Handoff<Ran>, engine: &Engine, started: Instant) -> Ran {
    let timeout = engine.config.timeout;
    let tick = timeout.map(|t| (t / 4).clamp(Duration::from_millis(1), Duration::from_millis(50)));
    loop {
        if let Some(ran) = handoff.wait(tick) {
            return ran;
        }
        if let Some(t) = timeout
            && let Some(hang) = engine.watch.hung(t)
        {
            engine.watch.abandon();
            return Ran::Done(Box::new(engine.timeout_report(hang, t, started)));
        }
    }
}

/// `run`'s report, or an error report if the runner itself panicked.
fn guarded(engine: &Engine, run: impl FnOnce() -> RunReport) -> RunReport {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(run))
        .unwrap_or_else(|payload| error_report(&engine.config.name, internal_error(&*payload)))
}

/// [`guarded`] for the search, which may end before the final replay.
fn guarded_ran(engine: &Engine, search: impl FnOnce() -> Ran) -> Ran {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(search))
        .unwrap_or_else(|payload| Ran::Done(Box::new(error_report(&engine.config.name, internal_error(&*payload)))))
}

fn internal_error(payload: &(dyn std::any::Any + Send)) -> String {
    format!("internal error: the runner panicked: {}", crate::case::payload_message(payload))
}

/// A report of a run that could not test at all.
pub(crate) fn error_report(name: &str, message: String) -> RunReport {
    RunReport {
        name: name.to_string(),
        verdict: RunVerdict::Error(message),
        stats: RunStats::default(),
        warnings: Vec::new(),
        notes: Vec::new(),
        rerun_command: None,
        verbosity: Verbosity::Normal,
        overridden: Vec::new(),
    }
}
