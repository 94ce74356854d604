//! Timeouts without a thread per case.
//!
//! The whole run executes on worker threads; each worker bumps a counter
//! when a case starts and clears a flag when it ends (a few atomic stores,
//! no clock read). The caller's thread watches the slots with its own
//! clock: a slot busy on the same case for longer than the timeout is a
//! hang, reported as a failure of kind *timeout*; the hung thread is
//! abandoned (Rust cannot kill a thread), never joined.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::choice::Choice;

/// What a worker was doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Phase {
    /// Replaying saved failures.
    Replay = 0,
    /// Generating random cases.
    Generate = 1,
    /// Shrinking.
    Shrink = 2,
    /// Explaining.
    Explain = 3,
    /// Running an input known before it runs (every input up to a depth,
    /// or an input source's): its choices are recorded for the report.
    Enumerate = 4,
}

impl Phase {
    fn from_u8(v: u8) -> Phase {
        match v {
            0 => Phase::Replay,
            1 => Phase::Generate,
            2 => Phase::Shrink,
            3 => Phase::Explain,
            _ => Phase::Enumerate,
        }
    }
}

/// One worker's stamp.
#[derive(Debug, Default)]
pub struct Slot {
    busy: AtomicBool,
    /// Incremented at every case start: the watcher sees progress.
    seq: AtomicU64,
    case: AtomicU64,
    phase: AtomicU8,
}

/// A hang, as seen by the watcher.
#[derive(Clone, Debug)]
pub struct Hang {
    /// Phase of the hung case.
    pub phase: Phase,
    /// Case index (generation phase).
    pub case: u64,
    /// The choices being replayed, when the phase replays known choices.
    pub choices: Option<Vec<Choice>>,
    /// How long it had been running.
    pub elapsed: Duration,
}

/// Shared between the workers and the watcher.
#[derive(Debug)]
pub struct Watch {
    enabled: bool,
    slots: Vec<Slot>,
    /// Per slot: the case sequence number last seen busy, and since when
    /// (the watcher's clock).
    seen: Mutex<Vec<(u64, Instant)>>,
    replaying: Mutex<Option<Vec<Choice>>>,
    abandoned: AtomicBool,
}

impl Watch {
    /// A watch with `workers` slots; `enabled` is false when there is no
    /// timeout (then stamping costs nothing).
    pub fn new(workers: usize, enabled: bool) -> Self {
        let n = workers.max(1);
        Watch {
            enabled,
            slots: (0..n).map(|_| Slot::default()).collect(),
            seen: Mutex::new(vec![(u64::MAX, Instant::now()); n]),
            replaying: Mutex::new(None),
            abandoned: AtomicBool::new(false),
        }
    }

    /// Worker `w` starts case `case` in `phase`.
    #[inline]
    pub fn begin(&self, w: usize, phase: Phase, case: u64) {
        if !self.enabled {
            return;
        }
        let s = &self.slots[w];
        s.case.store(case, Ordering::Relaxed);
        s.phase.store(phase as u8, Ordering::Relaxed);
        // Only worker `w` writes its slot: a plain increment, not a locked
        // read-modify-write on every case.
        s.seq.store(s.seq.load(Ordering::Relaxed).wrapping_add(1), Ordering::Relaxed);
        s.busy.store(true, Ordering::Release);
    }

    /// Worker `w` starts replaying known choices (recorded for the report).
    pub fn begin_replay(&self, w: usize, phase: Phase, choices: &[Choice]) {
        self.begin_known(w, phase, 0, choices);
    }

    /// Worker `w` starts case `case`, whose input is known as `choices`
    /// (recorded for the report).
    pub fn begin_known(&self, w: usize, phase: Phase, case: u64, choices: &[Choice]) {
        if !self.enabled {
            return;
        }
        *self.replaying.lock().unwrap_or_else(|e| e.into_inner()) = Some(choices.to_vec());
        self.begin(w, phase, case);
    }

    /// Worker `w` finished its case.
    #[inline]
    pub fn end(&self, w: usize) {
        if self.enabled {
            self.slots[w].busy.store(false, Ordering::Release);
        }
    }

    /// A case busy for longer than `timeout`, if any. Called periodically
    /// by the watcher; a case counts as busy since the first call that saw
    /// it, so detection takes between `timeout` and `timeout` plus one
    /// watching period.
    pub fn hung(&self, timeout: Duration) -> Option<Hang> {
        let now = Instant::now();
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        for (k, s) in self.slots.iter().enumerate() {
            if !s.busy.load(Ordering::Acquire) {
                seen[k].0 = u64::MAX;
                continue;
            }
            let seq = s.seq.load(Ordering::Relaxed);
            if seen[k].0 != seq {
                seen[k] = (seq, now);
                continue;
            }
            let elapsed = now - seen[k].1;
            if elapsed > timeout && s.busy.load(Ordering::Acquire) && s.seq.load(Ordering::Relaxed) == seq {
                let phase = Phase::from_u8(s.phase.load(Ordering::Relaxed));
                let choices = match phase {
                    Phase::Generate => None,
                    _ => self.replaying.lock().unwrap_or_else(|e| e.into_inner()).clone(),
                };
                return Some(Hang { phase, case: s.case.load(Ordering::Relaxed), choices, elapsed });
            }
        }
        None
    }

    /// The watcher gave up on the workers.
    pub fn abandon(&self) {
        self.abandoned.store(true, Ordering::Release);
    }

    /// True once the watcher gave up (a worker that wakes up stops).
    pub fn is_abandoned(&self) -> bool {
        self.abandoned.load(Ordering::Acquire)
    }
}
