//! Settings of an interface-fuzzing run ([`Config`]), and the engine's
//! fixed tuning constants, which the engine follows and reports quote.

use std::time::Duration;

use crate::pool::ContainerKind;

/// Settings for [`Api::check`](crate::Api::check).
#[derive(Clone, Debug)]
pub struct Config {
    /// Name for reports and the CI seed (defaults to the API's name).
    pub name: Option<String>,
    /// Fixed seed (random otherwise; derived from the name under the CI
    /// profile, as for properties).
    pub seed: Option<u64>,
    /// The pools' container (ArtiCheck §3.2).
    pub container: ContainerKind,
    /// Most instances a pool holds.
    pub pool_bound: usize,
    /// Stop once every abstract type has had this many distinct instances
    /// built (the paper's `{ required; produced }` lattice: the fixpoint
    /// of bounded pools), or its pool accepts nothing more (a full plain
    /// set).
    pub required: u64,
    /// Deep search: besides the breadth-first rounds, keep extending
    /// lineages (an instance, what a call makes of it, what the next call
    /// makes of that, …; see the engine's `walk` module), and stop at the
    /// target only once an instance of every such type has a lineage of
    /// this many calls (and walks have made eight times as many). 0 turns
    /// deep search off (rounds only, as in the paper).
    pub depth: u64,
    /// Most calls of one function per round.
    pub calls_per_round: u64,
    /// Most tests of one law per round.
    pub checks_per_round: u64,
    /// Most calls in all.
    pub max_calls: u64,
    /// Most rounds.
    pub max_rounds: u32,
    /// Stop searching after this long.
    pub time_budget: Option<Duration>,
    /// A call (or law check) running longer than this is a hang, reported
    /// as a counterexample.
    pub call_timeout: Option<Duration>,
    /// Fresh values of each ground type drawn before the first round.
    pub ground_initial: usize,
    /// Fresh values of each ground type drawn after each round (while the
    /// pool is not full).
    pub ground_per_round: usize,
    /// Size parameter for drawing fresh ground values.
    pub ground_size: usize,
    /// Longest container built as an argument.
    pub list_max_len: usize,
    /// Reduce the counterexample program (drop calls, simplify arguments)
    /// with speccheck's shrinker.
    pub reduce: bool,
    /// Most candidate programs the reduction runs.
    pub shrink_steps: u32,
    /// Longest time the reduction takes.
    pub shrink_time: Duration,
    /// A program to replay instead of searching (`SPECCHECK_REPLAY`; a
    /// value `@FILE` reads it from a file).
    pub replay: Option<String>,
    /// Where a counterexample too long to print is written (the program,
    /// as Rust, and its replay): `None` is `.speccheck/` in the crate
    /// under test (beside the failure database), or in the working
    /// directory outside cargo.
    pub output_dir: Option<std::path::PathBuf>,
    /// Most resident memory of the process, in bytes (`None`: no limit;
    /// `SPECCHECK_MEMORY_MB`, where 0 is no limit). The search, its walks
    /// and the reduction read it now and then (every few milliseconds);
    /// over it, the run stops where it is and reports what it has: a
    /// search that found nothing passes with `stopped: memory budget
    /// reached` and a warning that it stopped early, a counterexample is
    /// shown as far as it was reduced. The default is the resident memory
    /// plus half the available memory (`MemAvailable`), as the process
    /// first finds them (its first `Config::default()`): on Linux only, as
    /// both are read from `/proc` (elsewhere there is no default and a
    /// budget is not enforced). See [`crate::memory`].
    pub memory_budget: Option<u64>,
    /// Most recorded calls the search holds at once (`None`: no limit;
    /// `SPECCHECK_RECORDED_CALLS`, where 0 is no limit): every instance
    /// remembers the calls that built it, so the lineages of the pools'
    /// instances and of the walks are what grows with a long search. At
    /// the budget the search stops where it is and reports what it has: a
    /// counterexample found by then, or [`Verdict::Incomplete`](crate::Verdict::Incomplete)
    /// (never a pass). A count, unlike [`memory_budget`](Self::memory_budget):
    /// the same seed stops at the same call on every machine. A found
    /// program is a slice of these lineages, so it is at most this long,
    /// and its reduction runs it with only its live values. The default,
    /// [`RECORDED_CALLS`] (a few hundred bytes each: about a gigabyte at
    /// most), is far more than the deepest bugs found need.
    pub recorded_calls_budget: Option<u64>,
}

/// The default [`Config::recorded_calls_budget`].
pub const RECORDED_CALLS: u64 = 4_000_000;

impl Default for Config {
    fn default() -> Self {
        Config {
            name: None,
            seed: None,
            container: ContainerKind::default(),
            pool_bound: 1024,
            required: 10_000,
            depth: 10_000,
            calls_per_round: 256,
            checks_per_round: 512,
            max_calls: 2_000_000,
            max_rounds: 10_000,
            time_budget: Some(Duration::from_secs(20)),
            call_timeout: Some(Duration::from_secs(5)),
            ground_initial: 8,
            ground_per_round: 2,
            ground_size: 30,
            list_max_len: 3,
            reduce: true,
            shrink_steps: 5000,
            shrink_time: Duration::from_secs(10),
            replay: None,
            output_dir: None,
            memory_budget: crate::memory::default_budget(),
            recorded_calls_budget: Some(RECORDED_CALLS),
        }
    }
}

impl Config {
    /// The defaults with a fixed seed.
    pub fn seeded(seed: u64) -> Self {
        Config { seed: Some(seed), ..Config::default() }
    }

    /// The one knob to scale a search: search for `time`, whatever the
    /// instance and depth targets and the call and round limits would say.
    /// Lineages keep doubling, up to what a tenth of the budget builds.
    pub fn budget(time: Duration) -> Self {
        Config::default().to_budget(time)
    }

    /// These settings, searching for `time` (see [`Config::budget`]).
    pub fn to_budget(self, time: Duration) -> Self {
        Config {
            time_budget: Some(time),
            required: u64::MAX,
            depth: u64::MAX,
            max_calls: u64::MAX,
            max_rounds: u32::MAX,
            ..self
        }
    }

    /// Reads `SPECCHECK_SEED`, `SPECCHECK_REPLAY`, `SPECCHECK_PROFILE`,
    /// `SPECCHECK_TIMEOUT_MS`, `SPECCHECK_TIME_BUDGET_MS`,
    /// `SPECCHECK_SHRINK`, `SPECCHECK_SHRINK_STEPS`, `SPECCHECK_MEMORY_MB`
    /// and `SPECCHECK_RECORDED_CALLS` over these settings (the operator's last word,
    /// as for properties), and settles the seed.
    pub fn resolved(mut self, default_name: &str) -> Result<(Self, u64), String> {
        let name = self.name.clone().unwrap_or_else(|| default_name.to_string());
        let mut core = speccheck_core::Config::named(name.clone());
        core.seed = self.seed;
        core.timeout = self.call_timeout;
        core.time_budget = self.time_budget;
        core.shrink = self.reduce;
        core.shrink_steps = self.shrink_steps;
        let core = core.apply_env().map_err(|e| e.to_string())?;
        // A time budget from the environment is a campaign: spend it.
        if core.time_budget != self.time_budget
            && let Some(t) = core.time_budget
        {
            self = self.to_budget(t);
        }
        let seed = core.effective_seed();
        self.seed = Some(seed);
        self.name = Some(name);
        self.call_timeout = core.timeout;
        self.time_budget = core.time_budget;
        self.reduce = core.shrink;
        self.shrink_steps = core.shrink_steps;
        if core.replay.is_some() {
            self.replay = core.replay;
        }
        if let Some(budget) = memory_mb(std::env::var("SPECCHECK_MEMORY_MB").ok())? {
            self.memory_budget = budget;
        }
        if let Some(budget) = recorded_calls(std::env::var("SPECCHECK_RECORDED_CALLS").ok())? {
            self.recorded_calls_budget = budget;
        }
        Ok((self, seed))
    }
}

/// The budget `SPECCHECK_MEMORY_MB` sets, if it is set: megabytes, 0 for
/// none.
fn memory_mb(value: Option<String>) -> Result<Option<Option<u64>>, String> {
    let Some(v) = value.filter(|v| !v.trim().is_empty()) else { return Ok(None) };
    let mb: u64 = v.trim().replace('_', "").parse().map_err(|_| {
        format!("environment variable SPECCHECK_MEMORY_MB={v:?} is not valid: megabytes (0 for no limit)")
    })?;
    Ok(Some((mb > 0).then(|| mb.saturating_mul(crate::memory::MB))))
}

/// The budget `SPECCHECK_RECORDED_CALLS` sets, if it is set: calls, 0 for
/// none.
fn recorded_calls(value: Option<String>) -> Result<Option<Option<u64>>, String> {
    let Some(v) = value.filter(|v| !v.trim().is_empty()) else { return Ok(None) };
    let n: u64 = v.trim().replace('_', "").parse().map_err(|_| {
        format!("environment variable SPECCHECK_RECORDED_CALLS={v:?} is not valid: a number of calls (0 for no limit)")
    })?;
    Ok(Some((n > 0).then_some(n)))
}

// ----- the engine's tuning: fixed, not settings ------------------------------------

/// A value of a ground type that a call returned is pooled (and so reused
/// as an argument) only when its `Debug` form is at most this many times
/// the longest drawn (and at least `REUSE_FLOOR` long): results fed back
/// as arguments grow without bound otherwise (a text's contents inserted
/// into it doubles it), and the calls on them slow down with their size.
pub(crate) const REUSE_FACTOR: usize = 16;
pub(crate) const REUSE_FLOOR: usize = 64;

/// Most distinct ground values counted per type (the count is then a
/// lower bound).
pub(crate) const DISTINCT_COUNTED: usize = 1 << 22;

/// Walk calls per call of the depth target before a search may stop. One
/// lineage that deep may have churned (a push undone by a pop) rather than
/// grown: several long walks, each with its own subset of functions, give
/// the deep states a chance to be large as well as long.
pub(crate) const DEPTH_CALLS: u64 = 8;

/// The shortest walk (deep search, the engine's `walk` module).
pub(crate) const MIN_WALK: u64 = 64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speccheck_memory_mb_sets_the_budget_in_megabytes_and_0_lifts_it() {
        assert_eq!(memory_mb(None), Ok(None));
        assert_eq!(memory_mb(Some(" ".into())), Ok(None));
        assert_eq!(memory_mb(Some("512".into())), Ok(Some(Some(512 << 20))));
        assert_eq!(memory_mb(Some("4_096".into())), Ok(Some(Some(4096 << 20))));
        assert_eq!(memory_mb(Some("0".into())), Ok(Some(None)));
        let e = memory_mb(Some("lots".into())).unwrap_err();
        assert!(e.contains("SPECCHECK_MEMORY_MB=\"lots\" is not valid"), "{e}");
    }

    #[test]
    fn speccheck_recorded_calls_sets_the_budget_in_calls_and_0_lifts_it() {
        assert_eq!(recorded_calls(None), Ok(None));
        assert_eq!(recorded_calls(Some("1_000_000".into())), Ok(Some(Some(1_000_000))));
        assert_eq!(recorded_calls(Some("0".into())), Ok(Some(None)));
        let e = recorded_calls(Some("-3".into())).unwrap_err();
        assert!(e.contains("SPECCHECK_RECORDED_CALLS=\"-3\" is not valid"), "{e}");
        assert_eq!(Config::default().recorded_calls_budget, Some(RECORDED_CALLS));
    }
}
