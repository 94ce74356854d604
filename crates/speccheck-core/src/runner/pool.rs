//! Worker threads for runs, kept between runs.
//!
//! Every run executes on a worker thread so that the caller can watch it
//! for hangs (see [`crate::watch`]). Spawning a thread with a large stack
//! per run costs tens of microseconds — more than a whole small property
//! run — so finished workers wait here for the next run. A worker whose
//! job hangs never comes back; it is abandoned, as before.
//!
//! Waking a sleeping thread takes tens of microseconds here, as long as a
//! small run, and a run takes two such wake-ups (the worker's, then the
//! caller's). So both sides poll for a moment before they sleep: a worker
//! for its next job ([`WORKER_SPIN`]: runs often follow each other), the
//! caller for the report ([`SPIN`]). Polling yields the processor, and
//! both are bounded. A worker also keeps polling while a run is still in
//! progress ([`RunInProgress`]): a run's final replay happens on a thread
//! of the caller's own, after the worker's part of the run, and the next
//! run would otherwise often find the worker asleep (on this machine, a
//! wake-up took 27 µs: four times what a whole run to a failure at the
//! first input took in place).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Stack size of the worker threads: properties over deep recursive values
/// recurse deeply.
pub(crate) const WORKER_STACK: usize = 32 << 20;

/// Idle workers kept at most (others exit when their job is done).
const MAX_IDLE: usize = 8;

/// A run's work, which returns how to hand its result over.
type Job = Box<dyn FnOnce() -> Deliver + Send>;
/// Hands a finished job's result to the caller.
type Deliver = Box<dyn FnOnce() + Send>;

fn idle() -> &'static Mutex<Vec<Sender<Job>>> {
    static IDLE: OnceLock<Mutex<Vec<Sender<Job>>>> = OnceLock::new();
    IDLE.get_or_init(|| Mutex::new(Vec::new()))
}

fn spawn_worker() -> std::io::Result<Sender<Job>> {
    let (tx, rx) = mpsc::channel::<Job>();
    let me = tx.clone();
    std::thread::Builder::new().name("speccheck-worker".into()).stack_size(WORKER_STACK).spawn(move || {
        while let Ok(job) = next_job(&rx) {
            // The job catches its own panics (it reports them), and its
            // hand-over cannot panic: once this worker is listed as idle,
            // another caller may have sent it a job.
            let deliver = job();
            // Idle again before the caller has the result: a caller that
            // starts its next run at once finds this worker, and does not
            // start a second one (two workers polling for jobs on a
            // two-core machine took the processor from the run: about 8%
            // of a small property's runs a second, measured).
            let kept = {
                let mut idle = idle().lock().unwrap_or_else(|e| e.into_inner());
                let kept = idle.len() < MAX_IDLE;
                if kept {
                    idle.push(me.clone());
                }
                kept
            };
            deliver();
            if !kept {
                return;
            }
        }
    })?;
    Ok(tx)
}

/// How long an idle worker polls for its next job before it sleeps, once
/// no run is in progress.
const WORKER_SPIN: Duration = Duration::from_micros(100);

/// How long an idle worker polls at most, runs in progress or not.
const WORKER_SPIN_MAX: Duration = Duration::from_millis(1);

/// Runs handed to workers whose callers have not returned yet.
static RUNS_IN_PROGRESS: AtomicUsize = AtomicUsize::new(0);

/// When the last run ended, in microseconds since [`epoch`].
static LAST_RUN_END: AtomicU64 = AtomicU64::new(0);

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn micros_since_epoch() -> u64 {
    u64::try_from(epoch().elapsed().as_micros()).unwrap_or(u64::MAX)
}

/// Marks a run handed to a worker as in progress until dropped.
pub(crate) struct RunInProgress(());

impl RunInProgress {
    pub(crate) fn begin() -> Self {
        RUNS_IN_PROGRESS.fetch_add(1, Ordering::Relaxed);
        RunInProgress(())
    }
}

impl Drop for RunInProgress {
    fn drop(&mut self) {
        LAST_RUN_END.store(micros_since_epoch(), Ordering::Relaxed);
        RUNS_IN_PROGRESS.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Should a worker idle since `start` keep polling? For [`WORKER_SPIN`],
/// and up to [`WORKER_SPIN_MAX`] while a run is in progress or ended less
/// than [`WORKER_SPIN`] ago.
fn keep_polling(start: Instant) -> bool {
    let idle = start.elapsed();
    if idle < WORKER_SPIN {
        return true;
    }
    if idle >= WORKER_SPIN_MAX {
        return false;
    }
    RUNS_IN_PROGRESS.load(Ordering::Relaxed) > 0
        || micros_since_epoch().saturating_sub(LAST_RUN_END.load(Ordering::Relaxed)) < WORKER_SPIN.as_micros() as u64
}

/// The next job, polled for while [`keep_polling`] says so, then waited for.
fn next_job(rx: &mpsc::Receiver<Job>) -> Result<Job, mpsc::RecvError> {
    let start = Instant::now();
    while keep_polling(start) {
        match rx.try_recv() {
            Ok(job) => return Ok(job),
            Err(mpsc::TryRecvError::Disconnected) => return Err(mpsc::RecvError),
            Err(mpsc::TryRecvError::Empty) => std::thread::yield_now(),
        }
    }
    rx.recv()
}

/// Runs `job` on an idle worker, or a new one, then what it returns (which
/// hands the result over) once the worker is idle again. Fails only when
/// no thread can be started.
pub(crate) fn execute<D: FnOnce() + Send + 'static>(job: impl FnOnce() -> D + Send + 'static) -> std::io::Result<()> {
    let mut job: Job = Box::new(move || Box::new(job()) as Deliver);
    loop {
        let worker = idle().lock().unwrap_or_else(|e| e.into_inner()).pop();
        let tx = match worker {
            Some(tx) => tx,
            None => spawn_worker()?,
        };
        match tx.send(job) {
            Ok(()) => return Ok(()),
            // That worker is gone: take the job back and try another.
            Err(mpsc::SendError(back)) => job = back,
        }
    }
}

/// A result one thread hands to another: the receiver spins briefly
/// before sleeping, because a small property run finishes in less time
/// than it takes to put a thread to sleep and wake it up again.
pub(crate) struct Handoff<T> {
    value: Mutex<Option<T>>,
    ready: Condvar,
    done: std::sync::atomic::AtomicBool,
}

/// How long a receiver spins before it sleeps.
const SPIN: Duration = Duration::from_micros(200);

impl<T> Handoff<T> {
    pub(crate) fn new() -> Self {
        Handoff { value: Mutex::new(None), ready: Condvar::new(), done: std::sync::atomic::AtomicBool::new(false) }
    }

    /// Delivers the value (once).
    pub(crate) fn put(&self, v: T) {
        *self.value.lock().unwrap_or_else(|e| e.into_inner()) = Some(v);
        self.done.store(true, std::sync::atomic::Ordering::Release);
        self.ready.notify_all();
    }

    /// Waits up to `timeout` for the value.
    pub(crate) fn wait(&self, timeout: Option<Duration>) -> Option<T> {
        let start = Instant::now();
        let mut spins = 0u32;
        while start.elapsed() < SPIN {
            if self.done.load(std::sync::atomic::Ordering::Acquire) {
                return self.value.lock().unwrap_or_else(|e| e.into_inner()).take();
            }
            spins += 1;
            if spins.is_multiple_of(64) {
                std::thread::yield_now();
            } else {
                std::hint::spin_loop();
            }
        }
        let mut guard = self.value.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(v) = guard.take() {
                return Some(v);
            }
            match timeout {
                None => guard = self.ready.wait(guard).unwrap_or_else(|e| e.into_inner()),
                Some(t) => {
                    let left = t.saturating_sub(start.elapsed());
                    if left.is_zero() {
                        return None;
                    }
                    guard = self.ready.wait_timeout(guard, left).unwrap_or_else(|e| e.into_inner()).0;
                }
            }
        }
    }
}
