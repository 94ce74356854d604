//! The memory budget ([`Config::memory_budget`](crate::Config::memory_budget)):
//! the process's resident memory, read now and then, stops a run before
//! the kernel's out-of-memory killer does (which would lose the report).
//!
//! Resident memory is read from `/proc/self/statm` and the default budget
//! from `/proc/meminfo`, so both exist on Linux only: elsewhere [`resident`]
//! and [`available`] are `None`, the default budget is none, and a budget
//! set by hand is not enforced.
//!
//! A read costs a few microseconds (a system call), so the run reads at
//! most every 2 ms, looking at the clock only every 8 calls: the engine
//! and the reducer tick a meter once per call.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// One megabyte (a mebibyte: the unit of `SPECCHECK_MEMORY_MB`).
pub const MB: u64 = 1 << 20;

/// Least time between two reads of the resident memory. Memory copied at
/// a few gigabytes per second grows by some megabytes in this time: the
/// most a run overshoots its budget by, besides a single call's own.
pub(crate) const PROBE_EVERY: Duration = Duration::from_millis(2);

/// Ticks between two looks at the clock (a look costs tens of
/// nanoseconds; the cheapest calls cost about as much).
pub(crate) const TICKS_PER_CLOCK: u32 = 8;

/// The resident memory of this process, in bytes (`None` where it cannot
/// be read: not Linux).
pub fn resident() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = text.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages.saturating_mul(page_size()))
}

/// The memory the kernel deems available to start new work without
/// swapping (`MemAvailable`), in bytes (`None` where it cannot be read).
pub fn available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line["MemAvailable:".len()..].trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kb.saturating_mul(1024))
}

/// The default budget: the resident memory plus half the available memory,
/// both as the first call (per process) finds them; `None` where either
/// cannot be read.
pub fn default_budget() -> Option<u64> {
    static DEFAULT: OnceLock<Option<u64>> = OnceLock::new();
    *DEFAULT.get_or_init(|| Some(resident()?.saturating_add(available()? / 2)))
}

/// The page size `/proc/self/statm` counts in: from the auxiliary vector
/// the kernel gave the process (`AT_PAGESZ`), 4 KiB if it cannot be read.
fn page_size() -> u64 {
    static PAGE: OnceLock<u64> = OnceLock::new();
    *PAGE.get_or_init(|| {
        const AT_PAGESZ: u64 = 6;
        let word = std::mem::size_of::<usize>();
        let read = || -> Option<u64> {
            let auxv = std::fs::read("/proc/self/auxv").ok()?;
            let value = |c: &[u8]| -> u64 {
                let mut b = [0u8; 8];
                b[..word].copy_from_slice(c);
                u64::from_ne_bytes(b)
            };
            auxv.chunks_exact(2 * word)
                .find(|pair| value(&pair[..word]) == AT_PAGESZ)
                .map(|pair| value(&pair[word..]))
                .filter(|&p| p > 0)
        };
        read().unwrap_or(4096)
    })
}

/// A budget found exceeded: the resident memory read, and the budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exceeded {
    /// Resident memory when it was found over the budget, in bytes.
    pub resident: u64,
    /// The budget, in bytes.
    pub budget: u64,
}

impl std::fmt::Display for Exceeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} resident, budget {}", megabytes(self.resident), megabytes(self.budget))
    }
}

/// `bytes` in whole megabytes, for reports.
pub(crate) fn megabytes(bytes: u64) -> String {
    format!("{} MB", bytes.div_ceil(MB))
}

/// Watches the resident memory against a budget. Once over, it stays over
/// (the phase that saw it stops, and memory a process frees is not always
/// given back to the system).
#[derive(Debug)]
pub(crate) struct Meter {
    budget: Option<u64>,
    started: Instant,
    ticks: AtomicU32,
    /// When the memory was last read, in nanoseconds since `started`.
    last_read: AtomicU64,
    /// The resident memory found over the budget (0: not over).
    over: AtomicU64,
}

impl Meter {
    /// A meter for `budget` bytes (`None`: never over).
    pub(crate) fn new(budget: Option<u64>) -> Self {
        Meter {
            budget: budget.filter(|_| resident().is_some()),
            started: Instant::now(),
            ticks: AtomicU32::new(0),
            last_read: AtomicU64::new(0),
            over: AtomicU64::new(0),
        }
    }

    /// Counts one step of work; reads the memory if it is time to. True
    /// when the budget is exceeded.
    pub(crate) fn tick(&self) -> bool {
        let Some(budget) = self.budget else { return false };
        if self.over.load(Ordering::Relaxed) != 0 {
            return true;
        }
        if !self.ticks.fetch_add(1, Ordering::Relaxed).is_multiple_of(TICKS_PER_CLOCK) {
            return false;
        }
        let now = self.started.elapsed().as_nanos() as u64;
        if now.saturating_sub(self.last_read.load(Ordering::Relaxed)) < PROBE_EVERY.as_nanos() as u64 {
            return false;
        }
        self.last_read.store(now, Ordering::Relaxed);
        self.read(budget)
    }

    /// Reads the memory now. True when the budget is exceeded.
    pub(crate) fn check(&self) -> bool {
        match self.budget {
            None => false,
            Some(_) if self.over.load(Ordering::Relaxed) != 0 => true,
            Some(budget) => self.read(budget),
        }
    }

    fn read(&self, budget: u64) -> bool {
        match resident() {
            Some(r) if r > budget => {
                self.over.store(r, Ordering::Relaxed);
                true
            }
            _ => false,
        }
    }

    /// The figures, once the budget was found exceeded.
    pub(crate) fn exceeded(&self) -> Option<Exceeded> {
        let resident = self.over.load(Ordering::Relaxed);
        let budget = self.budget?;
        (resident != 0).then_some(Exceeded { resident, budget })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resident_memory_is_read_where_proc_exists() {
        if std::path::Path::new("/proc/self/statm").exists() {
            let r = resident().expect("resident memory");
            // More than a page, less than a terabyte.
            assert!(r > 4096 && r < 1 << 40, "{r}");
            assert!(available().is_some());
            assert!(default_budget().unwrap() > r / 2);
        }
    }

    #[test]
    fn a_meter_over_its_budget_stays_over_and_one_without_never_is() {
        if resident().is_none() {
            return;
        }
        let tight = Meter::new(Some(1));
        assert!(tight.check());
        assert!(tight.tick());
        let e = tight.exceeded().unwrap();
        assert_eq!(e.budget, 1);
        assert!(e.resident > 1);
        assert!(e.to_string().contains("MB resident, budget 1 MB"), "{e}");
        let none = Meter::new(None);
        assert!(!none.check() && !none.tick() && none.exceeded().is_none());
        let roomy = Meter::new(Some(u64::MAX));
        assert!(!roomy.check() && roomy.exceeded().is_none());
    }
}
