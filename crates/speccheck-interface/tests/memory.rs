//! Memory: a long program over large immutable instances is found,
//! reduced and reported in the memory of its live values.
//!
//! Peak resident memory is the process's, so the tests here run one at a
//! time (`SERIAL`) and measure the growth of the high-water mark
//! (`VmHWM`, reset through `/proc/self/clear_refs`) around each check.

use std::sync::Mutex;

use speccheck_interface::memory::resident;
use speccheck_interface::{Config, StopReason, Verdict, interface};

static SERIAL: Mutex<()> = Mutex::new(());

const MB: u64 = 1 << 20;

/// The budget of the tests that run into it: this much above the resident
/// memory when they start.
const HEADROOM: u64 = 40 * MB;

/// How far above its budget a run may peak: the memory is read every few
/// milliseconds, and a call's own allocation is not cut short.
const OVERSHOOT: u64 = 24 * MB;

fn status_kb(field: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    line[field.len()..].trim().trim_end_matches("kB").trim().parse().ok()
}

/// Runs `f`; returns what it returns and how far the peak resident memory
/// rose above the resident memory before it (`None` off Linux).
fn peak_growth<R>(f: impl FnOnce() -> R) -> (R, Option<u64>) {
    let reset = std::fs::write("/proc/self/clear_refs", "5").is_ok();
    let before = status_kb("VmRSS:");
    let r = f();
    let peak = status_kb("VmHWM:");
    let growth = match (reset, before, peak) {
        (true, Some(b), Some(p)) => Some(p.saturating_sub(b) * 1024),
        _ => None,
    };
    (r, growth)
}

/// An immutable log: every append returns a new instance, a copy of the
/// old one with `WIDTH` more entries. A program of `n` appends makes `n`
/// instances whose sizes add up to `n²` entries: kept alive together, a
/// 2,000-append lineage holds 64 MB; one at a time, 128 KB.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Log(Vec<u64>);

const WIDTH: usize = 8;

impl Log {
    pub fn new() -> Self {
        Log(Vec::new())
    }
    pub fn append(&self, x: u16) -> Self {
        let mut v = Vec::with_capacity(self.0.len() + WIDTH);
        v.extend_from_slice(&self.0);
        v.extend(std::iter::repeat_n(u64::from(x), WIDTH));
        Log(v)
    }
    pub fn len(&self) -> usize {
        self.0.len() / WIDTH
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The bug: a log of `LONG` appends breaks its law. Only a lineage of that
/// many calls reaches it, and reduction cannot drop any of them.
const LONG: usize = 1_500;

#[test]
fn a_long_program_over_large_immutable_instances_is_reported_in_bounded_memory() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let api = interface! {
        name = "immutable log";
        abstract Log;
        ground u16 = speccheck_core::gens::ints(0..=1000u16);
        impl Log {
            fn new() -> Self;
            fn append(&self, x: u16) -> Self;
            fn len(&self) -> usize;
        }
        law short(l: &Log) => l.len() < LONG;
    }
    .unwrap();
    let dir = std::env::temp_dir().join(format!("speccheck-memory-{}", std::process::id()));
    let config =
        Config { output_dir: Some(dir.clone()), shrink_time: std::time::Duration::from_secs(1), ..Config::seeded(1) };
    let (r, growth) = peak_growth(|| api.check(config));
    let _ = std::fs::remove_dir_all(&dir);
    let cx = r.assert_failed();
    assert_eq!(cx.what, "law `short` fails", "{r}");
    assert!(cx.calls > LONG, "{r}");
    // Too long for the shrinker: cut down by deletion, and its replay
    // encoded by running it once more. Every instance alive at once would
    // be 1,500 × 48 KB on average: 70 MB.
    assert!(cx.replay.is_some(), "{r}");
    if let Some(growth) = growth {
        assert!(growth < 24 * MB, "peak resident memory rose by {} MB\n{r}", growth / MB);
    }
}

/// A blob that only grows: every call returns a copy 256 KB larger. The
/// pools hold more of them each round, and a walk's instance grows by 256 KB
/// a call: no structure bounds this, only the budget.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Blob(Vec<u64>);

const GROWTH: usize = (MB / 32) as usize;

impl Blob {
    pub fn new() -> Self {
        Blob(Vec::new())
    }
    pub fn grow(&self, x: u16) -> Self {
        let mut v = Vec::with_capacity(self.0.len() + GROWTH);
        v.extend_from_slice(&self.0);
        v.resize(self.0.len() + GROWTH, u64::from(x));
        Blob(v)
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Hashes the length and the last value only: hashing megabytes per
/// instance would make the test slow, not the search bigger.
impl std::hash::Hash for Blob {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.len().hash(h);
        self.0.last().hash(h);
    }
}

#[test]
fn a_search_over_the_memory_budget_stops_and_does_not_read_as_a_full_pass() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(now) = resident() else { return };
    let api = interface! {
        name = "growing blob";
        abstract Blob;
        ground u16 = speccheck_core::gens::ints(0..=1000u16);
        impl Blob {
            fn new() -> Self;
            fn grow(&self, x: u16) -> Self;
        }
        law sized(b: &Blob) => b.len().is_multiple_of(GROWTH);
    }
    .unwrap();
    let budget = now + HEADROOM;
    let config = Config { memory_budget: Some(budget), ..Config::seeded(1) };
    let (r, growth) = peak_growth(|| api.check(config));
    let StopReason::Memory(e) = r.stats.stop else { panic!("not stopped at the memory budget\n{r}") };
    assert_eq!(e.budget, budget);
    assert!(e.resident > budget, "{r}");
    // Not a pass: the search did not do what its settings say. The report
    // says it stopped early, why, and how far it got.
    assert!(!r.passed(), "{r}");
    assert!(matches!(r.verdict, Verdict::Incomplete(StopReason::Memory(_))), "{r}");
    let shown = r.to_string();
    assert!(shown.contains("stopped early: memory budget reached ("), "{shown}");
    assert!(shown.contains("stopped: memory budget reached ("), "{shown}");
    assert!(shown.contains("MB resident, budget"), "{shown}");
    assert!(shown.contains("warning: the search stopped early at the memory budget"), "{shown}");
    assert!(r.summary().contains("the search is incomplete"), "{shown}");
    if let Some(growth) = growth {
        assert!(growth < HEADROOM + OVERSHOOT, "peak resident memory rose by {} MB\n{r}", growth / MB);
    }
}

/// A log whose appends add 2 KB: a 400-call program makes 160 MB of
/// instances, which the shrinker's replays keep (they may name any value).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct WideLog(Vec<u64>);

const WIDE: usize = 256;
const WIDE_LONG: usize = 400;

impl WideLog {
    pub fn new() -> Self {
        WideLog(Vec::new())
    }
    pub fn append(&self, x: u16) -> Self {
        let mut v = Vec::with_capacity(self.0.len() + WIDE);
        v.extend_from_slice(&self.0);
        v.extend(std::iter::repeat_n(u64::from(x), WIDE));
        WideLog(v)
    }
    pub fn len(&self) -> usize {
        self.0.len() / WIDE
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[test]
fn a_reduction_over_the_memory_budget_stops_and_shows_the_program_as_far_as_it_got() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(now) = resident() else { return };
    let api = interface! {
        name = "wide log";
        abstract WideLog;
        ground u16 = speccheck_core::gens::ints(0..=1000u16);
        impl WideLog {
            fn new() -> Self;
            fn append(&self, x: u16) -> Self;
        }
        law short(l: &WideLog) => l.len() < WIDE_LONG;
    }
    .unwrap();
    let budget = now + HEADROOM;
    let dir = std::env::temp_dir().join(format!("speccheck-memory-wide-{}", std::process::id()));
    // Small pools and few instances: the search itself stays well within
    // the budget, and is quick.
    let config = Config {
        memory_budget: Some(budget),
        pool_bound: 64,
        required: 1_000,
        shrink_time: std::time::Duration::from_secs(1),
        output_dir: Some(dir.clone()),
        ..Config::seeded(1)
    };
    let (r, growth) = peak_growth(|| api.check(config));
    let cx = r.assert_failed();
    assert_eq!(cx.what, "law `short` fails", "{r}");
    assert_eq!(r.stats.stop, StopReason::Found, "{r}");
    let note = cx.reduction_note.as_deref().unwrap_or_default();
    assert!(note.contains("stopped at the memory budget ("), "{r}");
    assert!(note.contains("shown as"), "{r}");
    assert!(cx.calls >= WIDE_LONG, "{r}");
    if let Some(growth) = growth {
        assert!(growth < HEADROOM + OVERSHOOT, "peak resident memory rose by {} MB\n{r}", growth / MB);
    }

    // Its replay string alone (choices, which may name any earlier value:
    // every value kept) stops at the budget too, and says so: neither a
    // pass nor a failure.
    let replay = cx.replay.clone().expect("a replay, encoded keeping only live values");
    let budget = resident().unwrap_or(now) + HEADROOM;
    let config = Config { memory_budget: Some(budget), replay: Some(replay), ..Config::seeded(1) };
    let (again, growth) = peak_growth(|| api.check(config));
    let Verdict::Error(e) = &again.verdict else { panic!("not stopped at the memory budget\n{again}") };
    assert!(e.contains("the replay stopped at the memory budget"), "{again}");
    assert!(matches!(again.stats.stop, StopReason::Memory(_)), "{again}");
    if let Some(growth) = growth {
        assert!(growth < HEADROOM + OVERSHOOT, "peak resident memory rose by {} MB\n{again}", growth / MB);
    }

    // Saved to a file, it comes with the uses of each value (its hints,
    // beside it): replayed from the file, it drops each value after its
    // last use and fails as reported, well within the budget.
    let file = cx.replay_file.clone().expect("a replay of 400 calls is saved to a file");
    // (From the memory now: what the runs above freed is not all given
    // back to the system.)
    let budget = resident().unwrap_or(now) + HEADROOM;
    let config =
        Config { memory_budget: Some(budget), replay: Some(format!("@{}", file.display())), ..Config::seeded(1) };
    let (again, growth) = peak_growth(|| api.check(config));
    let _ = std::fs::remove_dir_all(&dir);
    let replayed = again.assert_failed();
    assert_eq!(replayed.message, cx.message, "{again}");
    assert_eq!(replayed.calls, cx.calls, "{again}");
    if let Some(growth) = growth {
        assert!(growth < HEADROOM / 2, "peak resident memory rose by {} MB\n{again}", growth / MB);
    }
}

#[test]
fn a_budget_below_the_resident_memory_ends_the_run_at_once_and_says_so() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if resident().is_none() {
        return;
    }
    let api = interface! {
        name = "immutable log";
        abstract Log;
        ground u16 = speccheck_core::gens::ints(0..=1000u16);
        impl Log {
            fn new() -> Self;
            fn append(&self, x: u16) -> Self;
        }
        law short(l: &Log) => l.len() < 3;
    }
    .unwrap();
    let r = api.check(Config { memory_budget: Some(1), ..Config::seeded(1) });
    // The memory is read every few milliseconds: the search may find the
    // bug before its first read. Either way the report says why it ended.
    match &r.verdict {
        Verdict::Failed(cx) => {
            let note = cx.reduction_note.as_deref().unwrap_or_default();
            assert!(note.contains("over the memory budget when the search ended"), "{r}");
            assert!(note.contains("budget 1 MB"), "{r}");
        }
        Verdict::Incomplete(why) => {
            assert!(matches!(why, StopReason::Memory(_)), "{r}");
            assert!(r.to_string().contains("warning: the search stopped early at the memory budget"), "{r}");
        }
        Verdict::Passed | Verdict::Error(_) => panic!("{r}"),
    }
}

/// A counter: every `inc` is one more call in its instance's lineage, and
/// a walk extends one lineage call after call (each instance remembers
/// every call that built it).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Counter(u64);

impl Counter {
    pub fn new() -> Self {
        Counter(0)
    }
    pub fn inc(&self) -> Self {
        Counter(self.0 + 1)
    }
    pub fn get(&self) -> u64 {
        self.0
    }
}

/// The recorded-calls budget bounds what the search holds as a count,
/// whatever the resident memory says: at the budget the search stops with
/// what it has, and that is never a pass.
#[test]
fn a_search_over_the_recorded_calls_budget_stops_early_and_is_not_a_pass() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    const BUDGET: u64 = 30_000;
    let api = interface! {
        name = "counter";
        abstract Counter;
        impl Counter {
            fn new() -> Self;
            fn inc(&self) -> Self;
            fn get(&self) -> u64;
        }
        // Only a lineage longer than the budget reaches this.
        law bounded(c: &Counter) => c.get() < 10 * BUDGET;
    }
    .unwrap();
    let config = Config {
        recorded_calls_budget: Some(BUDGET),
        // Only the count stops it (the time budget is far off).
        memory_budget: None,
        ..Config::seeded(1).to_budget(std::time::Duration::from_secs(120))
    };
    let r = api.check(config);
    assert_eq!(r.stats.stop, StopReason::RecordedCalls { alive: BUDGET, budget: BUDGET }, "{r}");
    assert!(!r.passed(), "{r}");
    assert!(matches!(r.verdict, Verdict::Incomplete(StopReason::RecordedCalls { .. })), "{r}");
    // The search held at most the budget's recorded calls.
    assert_eq!(r.stats.recorded_peak, BUDGET, "{r}");
    assert!(r.stats.calls >= BUDGET, "{r}");
    let shown = r.to_string();
    assert!(
        shown.contains("stopped early: memory budget reached (30,000 recorded calls alive, budget 30,000)"),
        "{shown}"
    );
    assert!(shown.contains("but that is not a pass"), "{shown}");
    assert!(shown.contains("warning: the search stopped early at the memory budget"), "{shown}");

    // A bug within the budget is still found, with a program no longer
    // than what the search held.
    let api = interface! {
        name = "counter";
        abstract Counter;
        impl Counter {
            fn new() -> Self;
            fn inc(&self) -> Self;
            fn get(&self) -> u64;
        }
        law bounded(c: &Counter) => c.get() < 2_000;
    }
    .unwrap();
    let config = Config {
        recorded_calls_budget: Some(BUDGET),
        memory_budget: None,
        shrink_time: std::time::Duration::from_secs(2),
        ..Config::seeded(1).to_budget(std::time::Duration::from_secs(120))
    };
    let r = api.check(config);
    let cx = r.assert_failed();
    assert!(cx.original_calls as u64 <= BUDGET, "{r}");
    assert!(r.stats.recorded_peak <= BUDGET, "{r}");
}
