//! Run settings: defaults, a CI profile, and environment overrides.
//!
//! Precedence, lowest first: defaults (chosen by the profile: the CI profile
//! when the `CI` environment variable is set), the settings given in code
//! (attribute or [`Config`] fields), then `SPECCHECK_*` environment
//! variables — the operator's last word (a soak run, a pinned seed).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::database::FailureDatabase;
use crate::store::{FailureStore, Multiplexed, ReadOnly};

use crate::seed::{fnv1a, random_seed};

/// How much the runner prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verbosity {
    /// Only failures.
    Quiet,
    /// Failures, and a summary line for passing runs (captured by the test
    /// harness like any output: seen with `--nocapture`).
    Normal,
    /// Also the summaries of passing runs with their labels and coverage,
    /// written past the test harness's capture, so they show in a plain
    /// `cargo test`.
    Stats,
    /// Everything: also the explanation steps that found nothing to say.
    Verbose,
}

/// Named sets of defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// Random seeds, failures saved to the database.
    Default,
    /// Derandomized (seed from the test name), no database writes: the
    /// same commit gives the same result. Chosen automatically when the
    /// `CI` environment variable is set.
    Ci,
}

/// What to do after shrinking a counterexample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExplainMode {
    /// Report the shrunk counterexample only.
    Off,
    /// Also reduce it structurally (SmartCheck reduction).
    Reduce,
    /// Reduce, then generalize (∀ and ∃ positions) and look for further
    /// failure classes.
    Generalize,
}

/// How random integer draws are mixed (sampling only: a recorded input
/// replays and shrinks the same whatever mix drew it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum IntegerMix {
    /// Every draw picks a special value (0, ±1, the bounds) 9 times in 64,
    /// a value within the size of 0 16 times, and a value anywhere in the
    /// range the other 39.
    Fixed,
    /// Each case takes a mix from its seed: the fixed one in half of the
    /// cases, and in the others one that leans to values anywhere (a
    /// quarter of the cases), near 0, or at the edges (an eighth each), so
    /// that some cases reach what the average mix rarely does (a
    /// collection of thousands of distinct values, many repeats). The
    /// default: on the ETNA bench it finds the same bugs as the fixed mix
    /// in about the same time, and it reaches inputs the fixed mix cannot
    /// (`docs/distributions.md`).
    #[default]
    PerCase,
}

/// Settings for one property run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Name used in reports, the database and seeds.
    pub name: String,
    /// Passing cases needed.
    pub cases: u32,
    /// Fixed seed (random otherwise; derived from the name in CI).
    pub seed: Option<u64>,
    /// Largest size parameter.
    pub max_size: usize,
    /// Cases over which the size parameter grows from 1 to `max_size`
    /// (small inputs first, as QuickCheck does); later cases all have
    /// `max_size`. Its own setting, so that raising `cases` adds cases at
    /// full size instead of stretching the ramp. A run shorter than twice
    /// the ramp ramps over its first half.
    pub size_ramp: u32,
    /// Nesting depth after which recursive types take leaves.
    pub max_depth: u32,
    /// How random integer draws mix special values, values near 0 and
    /// values anywhere in their range: one fixed mix, or a mix per case
    /// (`SPECCHECK_INTEGER_MIX=fixed|per-case`; see [`IntegerMix`]).
    pub integer_mix: IntegerMix,
    /// Per-case timeout. With `None` nothing watches for hangs, and the
    /// run executes on the calling thread (with its stack size).
    pub timeout: Option<Duration>,
    /// Stop generating after this long (the run still passes).
    pub time_budget: Option<Duration>,
    /// Shrink failures at all.
    pub shrink: bool,
    /// Most shrink candidates to run.
    pub shrink_steps: u32,
    /// Longest time to spend shrinking.
    pub shrink_time: Duration,
    /// Printing.
    pub verbosity: Verbosity,
    /// Threads for the generation phase (results do not depend on it).
    pub threads: usize,
    /// Give up after `cases × max_discard_ratio` discarded inputs.
    pub max_discard_ratio: u32,
    /// Directory of the failure database (`None`: off).
    pub database: Option<PathBuf>,
    /// A shared failure store by URL (`redis://host:port/db`, with the
    /// `redis` feature; `SPECCHECK_DATABASE=redis://…`), used beside the
    /// directory: failures are read from both and written to both.
    pub database_url: Option<String>,
    /// A failure store given in code (any [`FailureStore`]), used beside
    /// the directory and the URL's store, like them.
    pub store: Option<Arc<dyn FailureStore>>,
    /// Whether new failures are written to the database (when not, every
    /// store is read through [`ReadOnly`]).
    pub database_writes: bool,
    /// The active profile.
    pub profile: Profile,
    /// The explanation step after shrinking.
    pub explain: ExplainMode,
    /// A choice sequence to replay instead of searching
    /// (`SPECCHECK_REPLAY`).
    pub replay: Option<String>,
    /// A failing input to start from instead of searching, shrunk and
    /// explained like a found one (for engines that find failures their own
    /// way and hand them to the runner, e.g. interface fuzzing). Unlike
    /// `replay`, which shows its input as given.
    pub start_from: Option<crate::choice::ChoiceSequence>,
    /// Explicit examples (`#[example(...)]`, [`Property::example`]), as
    /// their generator's choices: run first, every run, before saved
    /// failures and generation; a failing one is shrunk and reported like
    /// any failure.
    ///
    /// [`Property::example`]: crate::runner::Property::example
    pub examples: Vec<crate::choice::ChoiceSequence>,
    /// Which phases run (Hypothesis's `phases`): see [`Phases`]. Shrinking
    /// and explaining are `shrink` and `explain`; [`Config::set_phases`]
    /// sets all six from one list.
    pub phases: Phases,
    /// Run one shard of the cases (`SPECCHECK_SHARD=i/n`, `i` from 1):
    /// generated case `k` of the whole run belongs to shard `k % n + 1`
    /// (the simplest input to shard 1), so the shards of a run, on as many
    /// machines, together run exactly its cases, none twice. For sharding
    /// across tests, see `cargo nextest --partition`.
    pub shard: Option<(u32, u32)>,
    /// Append an observation of every case and of the run, one JSON line
    /// each in Hypothesis's schema, to this file (`SPECCHECK_OBSERVE`;
    /// see [`crate::observe`]).
    pub observe: Option<PathBuf>,
    /// Fail a run whose generator is too slow to test with (its first ten
    /// inputs took more than a second to generate, as Hypothesis's
    /// `too_slow` health check), instead of running it for minutes; and
    /// warn when a passing run's checked inputs stayed far smaller than
    /// the ones it generated (a filter that only small values pass).
    /// `SPECCHECK_HEALTH_CHECKS=0` turns both off.
    pub health_checks: bool,
    /// Test every input up to this depth instead of random ones
    /// (SmallCheck-style exhaustive testing).
    pub exhaustive: Option<u32>,
    /// Most inputs an exhaustive run tries before it stops. A run stopped
    /// by it (or by the time budget) is incomplete, not a pass, unless
    /// `allow_partial` is set.
    pub max_enumerated: u64,
    /// Accept an exhaustive run that stopped before covering its depth
    /// as a pass (the summary still says it was partial).
    pub allow_partial: bool,
    /// What an enumeration's "every input up to depth d" leaves out, said
    /// with its count in the summary and notes (a generated function is
    /// enumerated as a few variants, not as every function).
    pub coverage_caveat: Option<String>,
    /// The `cargo test` invocation that reruns this property, for the
    /// report's replay line.
    pub rerun_command: Option<String>,
    /// Run every case in a child process (this test binary, started again
    /// and filtered to the property's test): a case that crashes the
    /// process is a failure of its own kind (`crash`), found, shrunk and
    /// reported while the other tests go on, and a hang is killed and
    /// shrunk. Costs a process start per crash or hang and a round trip
    /// per case (see the README).
    pub isolate: bool,
    /// The property's test as libtest names it (`module::test`), to start
    /// an isolated child on (set by `#[property]`; the thread's name
    /// otherwise).
    pub test_path: Option<String>,
    /// The property is expected to fail (`#[should_panic]`): its failure is
    /// neither saved to nor read from the database, and not searched
    /// further for other failure classes (it happens on every run).
    pub expected_failure: bool,
    /// Settings given in code that `SPECCHECK_*` variables replaced
    /// (filled by [`apply_env`](Self::apply_env)), for the report.
    pub overridden: Vec<String>,
}

impl Default for Config {
    /// The defaults, under the CI profile when `CI` is set in the
    /// environment (unless `SPECCHECK_PROFILE` names another).
    fn default() -> Self {
        let base = Self::base();
        if env_var("SPECCHECK_PROFILE").is_none() && ci_env(env_var) { base.with_profile(Profile::Ci) } else { base }
    }
}

/// The process's `SPECCHECK_*` and `CI` variables, read on first use.
fn env_var(key: &str) -> Option<String> {
    use std::sync::OnceLock;
    static SNAPSHOT: OnceLock<Vec<(String, String)>> = OnceLock::new();
    SNAPSHOT
        .get_or_init(|| {
            std::env::vars_os()
                .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
                .filter(|(k, _)| k.starts_with("SPECCHECK_") || k == "CI")
                .collect()
        })
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.clone())
}

/// True when a `CI` variable says "this is CI".
fn ci_env(get: impl Fn(&str) -> Option<String>) -> bool {
    get("CI").is_some_and(|v| !v.trim().is_empty() && v != "0" && v != "false")
}

impl Config {
    /// The defaults of the default profile, ignoring the environment.
    pub fn base() -> Self {
        Config {
            name: "property".to_string(),
            cases: 100,
            seed: None,
            max_size: 100,
            size_ramp: 50,
            max_depth: crate::test_case::DEFAULT_MAX_DEPTH,
            integer_mix: IntegerMix::PerCase,
            timeout: Some(Duration::from_secs(10)),
            time_budget: None,
            shrink: true,
            shrink_steps: 20_000,
            shrink_time: Duration::from_secs(10),
            verbosity: Verbosity::Normal,
            threads: 1,
            max_discard_ratio: 10,
            database: None,
            database_url: None,
            store: None,
            database_writes: true,
            profile: Profile::Default,
            explain: ExplainMode::Generalize,
            replay: None,
            start_from: None,
            examples: Vec::new(),
            phases: Phases::default(),
            shard: None,
            observe: None,
            health_checks: true,
            exhaustive: None,
            max_enumerated: 1_000_000,
            allow_partial: false,
            coverage_caveat: None,
            rerun_command: None,
            isolate: false,
            test_path: None,
            expected_failure: false,
            overridden: Vec::new(),
        }
    }
}

impl Config {
    /// The failure store of a run: the directory (`database`), the store
    /// given in code (`store`) and the URL's (`database_url`), multiplexed
    /// when there are several (the directory first), read-only when
    /// `database_writes` is off. `None` when there is none. A URL that
    /// cannot be opened is a warning (second value), and the run goes on
    /// with the others.
    pub fn failure_store(&self) -> (Option<Arc<dyn FailureStore>>, Vec<String>) {
        let mut stores: Vec<Arc<dyn FailureStore>> = Vec::new();
        let mut warnings = Vec::new();
        if let Some(dir) = &self.database {
            stores.push(Arc::new(FailureDatabase::new(dir)));
        }
        if let Some(store) = &self.store {
            stores.push(store.clone());
        }
        if let Some(url) = &self.database_url {
            match crate::store::open_url(url) {
                Ok(store) => stores.push(store),
                Err(e) => warnings.push(format!("the failure store is not used: {e}")),
            }
        }
        let store: Arc<dyn FailureStore> = match stores.len() {
            0 => return (None, warnings),
            1 => stores.remove(0),
            _ => Arc::new(Multiplexed(stores)),
        };
        let store = if self.database_writes { store } else { Arc::new(ReadOnly(store)) };
        (Some(store), warnings)
    }
}

/// A malformed `SPECCHECK_*` variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// The variable.
    pub var: String,
    /// Its value.
    pub value: String,
    /// What was expected.
    pub expected: &'static str,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "environment variable {}={:?} is not valid: {}", self.var, self.value, self.expected)
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// Defaults with a name.
    pub fn named(name: impl Into<String>) -> Self {
        Config { name: name.into(), ..Config::default() }
    }

    /// Applies a profile's defaults.
    pub fn with_profile(mut self, profile: Profile) -> Self {
        self.profile = profile;
        if profile == Profile::Ci {
            self.database_writes = false;
        }
        self
    }

    /// The seed to use: given, derived from the name (CI), or random.
    pub fn effective_seed(&self) -> u64 {
        if let Some(s) = self.seed {
            return s;
        }
        if self.profile == Profile::Ci {
            return fnv1a(self.name.as_bytes());
        }
        random_seed()
    }

    /// Reads `SPECCHECK_*` variables over these settings. The environment
    /// is read once per process (as proptest does): a test runs many
    /// properties, and each reading would cost more than a small run.
    pub fn apply_env(self) -> Result<Self, ConfigError> {
        self.apply_vars(env_var)
    }

    /// [`apply_env`](Self::apply_env) over any variable source (testable).
    /// A variable that replaces a value set in code (not a default) is
    /// listed in [`overridden`](Self::overridden): the environment is the
    /// operator's last word (a soak run raises every property's cases), and
    /// the report says what it replaced.
    pub fn apply_vars(self, get: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let code = self.clone();
        let mut c = self.apply_vars_raw(&get)?;
        let defaults = Config::base().with_profile(code.profile);
        let mut note = |var: &str, field: &str, set_in_code: bool, changed: bool, was: String| {
            if set_in_code && changed {
                let value = get(var).unwrap_or_default();
                c.overridden.push(format!("{var}={} overrides `{field} = {was}` set in code", value.trim()));
            }
        };
        note("SPECCHECK_CASES", "cases", code.cases != defaults.cases, c.cases != code.cases, code.cases.to_string());
        note(
            "SPECCHECK_SEED",
            "seed",
            code.seed.is_some(),
            c.seed != code.seed,
            code.seed.map_or_else(String::new, |s| format!("{s:#x}")),
        );
        note(
            "SPECCHECK_MAX_SIZE",
            "max_size",
            code.max_size != defaults.max_size,
            c.max_size != code.max_size,
            code.max_size.to_string(),
        );
        note(
            "SPECCHECK_TIMEOUT_MS",
            "timeout_ms",
            code.timeout != defaults.timeout,
            c.timeout != code.timeout,
            code.timeout.map_or(0, |t| t.as_millis()).to_string(),
        );
        note(
            "SPECCHECK_EXHAUSTIVE",
            "exhaustive",
            code.exhaustive.is_some(),
            c.exhaustive != code.exhaustive,
            code.exhaustive.map_or_else(String::new, |d| d.to_string()),
        );
        note(
            "SPECCHECK_THREADS",
            "threads",
            code.threads != defaults.threads,
            c.threads != code.threads,
            code.threads.to_string(),
        );
        Ok(c)
    }

    fn apply_vars_raw(mut self, get: &impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let var = |k: &str| get(k).filter(|v| !v.trim().is_empty());
        if let Some(p) = var("SPECCHECK_PROFILE") {
            match p.trim().to_ascii_lowercase().as_str() {
                "ci" => self = self.with_profile(Profile::Ci),
                "default" => self.profile = Profile::Default,
                _ => return Err(err("SPECCHECK_PROFILE", &p, "`default` or `ci`")),
            }
        }
        if let Some(v) = var("SPECCHECK_CASES") {
            self.cases = parse(&v, "SPECCHECK_CASES", "a number of cases")?;
        }
        if let Some(v) = var("SPECCHECK_SEED") {
            self.seed = Some(parse_seed(&v).ok_or_else(|| err("SPECCHECK_SEED", &v, "a number (decimal or 0x hex)"))?);
        }
        if let Some(v) = var("SPECCHECK_MAX_SIZE") {
            self.max_size = parse(&v, "SPECCHECK_MAX_SIZE", "a size")?;
        }
        if let Some(v) = var("SPECCHECK_SIZE_RAMP") {
            self.size_ramp = parse(&v, "SPECCHECK_SIZE_RAMP", "a number of cases")?;
        }
        if let Some(v) = var("SPECCHECK_MAX_DEPTH") {
            self.max_depth = parse(&v, "SPECCHECK_MAX_DEPTH", "a depth")?;
        }
        if let Some(v) = var("SPECCHECK_INTEGER_MIX") {
            self.integer_mix = match v.trim().to_ascii_lowercase().as_str() {
                "fixed" => IntegerMix::Fixed,
                "per-case" | "per_case" => IntegerMix::PerCase,
                _ => return Err(err("SPECCHECK_INTEGER_MIX", &v, "fixed or per-case")),
            };
        }
        if let Some(v) = var("SPECCHECK_TIMEOUT_MS") {
            let ms: u64 = parse(&v, "SPECCHECK_TIMEOUT_MS", "milliseconds (0 disables)")?;
            self.timeout = (ms > 0).then(|| Duration::from_millis(ms));
        }
        if let Some(v) = var("SPECCHECK_TIME_BUDGET_MS") {
            let ms: u64 = parse(&v, "SPECCHECK_TIME_BUDGET_MS", "milliseconds (0 disables)")?;
            self.time_budget = (ms > 0).then(|| Duration::from_millis(ms));
        }
        if let Some(v) = var("SPECCHECK_HEALTH_CHECKS") {
            self.health_checks = parse_bool(&v).ok_or_else(|| err("SPECCHECK_HEALTH_CHECKS", &v, "0 or 1"))?;
        }
        if let Some(v) = var("SPECCHECK_OBSERVE") {
            self.observe = (!v.trim().is_empty()).then(|| PathBuf::from(v.trim()));
        }
        if let Some(v) = var("SPECCHECK_SHARD") {
            self.shard = Some(parse_shard(&v).ok_or_else(|| {
                err("SPECCHECK_SHARD", &v, "i/n: shard i (from 1) of n, with 1 <= i <= n (e.g. 2/4)")
            })?);
        }
        if let Some(v) = var("SPECCHECK_PHASES") {
            self.set_phases(&v).map_err(|_| {
                err(
                    "SPECCHECK_PHASES",
                    &v,
                    "a comma-separated list of explicit, reuse, generate, target, shrink, explain",
                )
            })?;
        }
        if let Some(v) = var("SPECCHECK_SHRINK") {
            self.shrink = parse_bool(&v).ok_or_else(|| err("SPECCHECK_SHRINK", &v, "0 or 1"))?;
        }
        if let Some(v) = var("SPECCHECK_SHRINK_STEPS") {
            self.shrink_steps = parse(&v, "SPECCHECK_SHRINK_STEPS", "a number of steps")?;
        }
        if let Some(v) = var("SPECCHECK_SHRINK_TIME_MS") {
            self.shrink_time = Duration::from_millis(parse(&v, "SPECCHECK_SHRINK_TIME_MS", "milliseconds")?);
        }
        if let Some(v) = var("SPECCHECK_VERBOSITY") {
            self.verbosity = match v.trim().to_ascii_lowercase().as_str() {
                "0" | "quiet" => Verbosity::Quiet,
                "1" | "normal" => Verbosity::Normal,
                "stats" => Verbosity::Stats,
                "2" | "verbose" => Verbosity::Verbose,
                _ => return Err(err("SPECCHECK_VERBOSITY", &v, "quiet, normal, stats or verbose (0, 1, 2)")),
            };
        }
        if let Some(v) = var("SPECCHECK_THREADS") {
            let n: usize = parse(&v, "SPECCHECK_THREADS", "a thread count (0 = all cores)")?;
            self.threads = if n == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { n };
        }
        if let Some(v) = var("SPECCHECK_DATABASE") {
            match v.trim() {
                "off" | "0" | "none" => {
                    self.database = None;
                    self.database_url = None;
                    self.store = None;
                }
                "readonly" => self.database_writes = false,
                // A URL: shared beside the directory, so that a developer
                // keeps the failures found locally.
                url if url.contains("://") => self.database_url = Some(url.to_string()),
                path => self.database = Some(PathBuf::from(path)),
            }
        }
        if let Some(v) = var("SPECCHECK_EXPLAIN") {
            self.explain = match v.trim().to_ascii_lowercase().as_str() {
                "off" | "0" => ExplainMode::Off,
                "reduce" => ExplainMode::Reduce,
                "generalize" | "on" | "1" => ExplainMode::Generalize,
                _ => return Err(err("SPECCHECK_EXPLAIN", &v, "off, reduce or generalize")),
            };
        }
        if let Some(v) = var("SPECCHECK_EXHAUSTIVE") {
            let d: u32 = parse(&v, "SPECCHECK_EXHAUSTIVE", "a depth (0 turns it off)")?;
            self.exhaustive = (d > 0).then_some(d);
        }
        if let Some(v) = var("SPECCHECK_ISOLATE") {
            self.isolate = parse_bool(&v).ok_or_else(|| err("SPECCHECK_ISOLATE", &v, "0 or 1"))?;
        }
        if let Some(v) = var("SPECCHECK_MAX_ENUMERATED") {
            self.max_enumerated = parse(&v, "SPECCHECK_MAX_ENUMERATED", "a number of inputs")?;
        }
        if let Some(v) = var("SPECCHECK_ALLOW_PARTIAL") {
            self.allow_partial = parse_bool(&v).ok_or_else(|| err("SPECCHECK_ALLOW_PARTIAL", &v, "0 or 1"))?;
        }
        if let Some(v) = var("SPECCHECK_REPLAY") {
            // `@FILE`: a replay too long for a variable, saved to a file.
            self.replay = Some(match v.strip_prefix('@') {
                Some(path) => std::fs::read_to_string(path.trim())
                    .map(|s| s.trim().to_string())
                    .map_err(|_| err("SPECCHECK_REPLAY", &v, "a replay string, or @FILE naming a readable file"))?,
                None => v,
            });
        }
        Ok(self)
    }
}

fn err(var: &str, value: &str, expected: &'static str) -> ConfigError {
    ConfigError { var: var.to_string(), value: value.to_string(), expected }
}

fn parse<T: std::str::FromStr>(v: &str, var: &str, expected: &'static str) -> Result<T, ConfigError> {
    v.trim().replace('_', "").parse().map_err(|_| err(var, v, expected))
}

fn parse_bool(v: &str) -> Option<bool> {
    match v.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Some(true),
        "0" | "false" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// Parses a seed written in decimal or `0x` hexadecimal.
pub fn parse_seed(v: &str) -> Option<u64> {
    let v = v.trim().replace('_', "");
    match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => v.parse().ok(),
    }
}

impl Config {
    /// The size parameter of generated case `index` (see
    /// [`size_ramp`](Self::size_ramp)).
    pub fn case_size(&self, index: u64) -> usize {
        let ramp = self.size_ramp.min(self.cases / 2);
        case_size(index, ramp, self.max_size)
    }
}

/// The size parameter of case `index` when sizes grow from 1 to `max_size`
/// over the first `ramp` cases, then stay at the max.
pub fn case_size(index: u64, ramp: u32, max_size: usize) -> usize {
    let ramp = u64::from(ramp).max(1);
    if index >= ramp {
        max_size
    } else {
        (1 + (index as u128 * max_size as u128 / ramp as u128) as usize).min(max_size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: std::collections::HashMap<String, String> =
            pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn env_overrides_code_settings() {
        let c = Config { cases: 7, ..Config::base() }
            .apply_vars(vars(&[
                ("SPECCHECK_CASES", "1_000"),
                ("SPECCHECK_SEED", "0x10"),
                ("SPECCHECK_TIMEOUT_MS", "0"),
            ]))
            .unwrap();
        assert_eq!(c.cases, 1000);
        assert_eq!(c.seed, Some(16));
        assert_eq!(c.timeout, None);
    }

    #[test]
    fn the_environment_says_what_it_replaced() {
        let c = Config { cases: 7, ..Config::base() }.apply_vars(vars(&[("SPECCHECK_CASES", "1000")])).unwrap();
        assert_eq!(c.cases, 1000);
        assert_eq!(c.overridden, vec!["SPECCHECK_CASES=1000 overrides `cases = 7` set in code".to_string()]);
        // A default replaced is no news.
        let c = Config::base().apply_vars(vars(&[("SPECCHECK_CASES", "1000")])).unwrap();
        assert!(c.overridden.is_empty());
    }

    #[test]
    fn ci_detection() {
        assert!(ci_env(vars(&[("CI", "true")])));
        assert!(!ci_env(vars(&[("CI", "0")])));
        assert!(!ci_env(vars(&[])));
    }

    #[test]
    fn ci_profile_is_derandomized_and_read_only() {
        let c =
            Config { name: "a::b".into(), ..Config::base() }.apply_vars(vars(&[("SPECCHECK_PROFILE", "ci")])).unwrap();
        assert_eq!(c.profile, Profile::Ci);
        assert!(!c.database_writes);
        assert_eq!(c.effective_seed(), c.effective_seed());
        assert_eq!(c.effective_seed(), fnv1a(b"a::b"));
    }

    #[test]
    fn bad_values_are_errors_naming_the_variable() {
        let e = Config::base().apply_vars(vars(&[("SPECCHECK_CASES", "lots")])).unwrap_err();
        assert_eq!(e.var, "SPECCHECK_CASES");
        assert!(e.to_string().contains("lots"));
    }

    #[test]
    fn the_database_variable_takes_a_path_a_url_or_off() {
        let c = Config { database: Some("d".into()), ..Config::base() };
        let url = c.clone().apply_vars(vars(&[("SPECCHECK_DATABASE", "redis://127.0.0.1:6379/0")])).unwrap();
        assert_eq!(url.database_url.as_deref(), Some("redis://127.0.0.1:6379/0"));
        assert_eq!(url.database, Some("d".into()), "the directory stays beside the URL");
        let off = url.apply_vars(vars(&[("SPECCHECK_DATABASE", "off")])).unwrap();
        assert_eq!((off.database, off.database_url), (None, None));
        let path = c.apply_vars(vars(&[("SPECCHECK_DATABASE", "/tmp/x")])).unwrap();
        assert_eq!(path.database, Some("/tmp/x".into()));
    }

    #[test]
    fn read_only_runs_read_their_stores_through_the_wrapper() {
        let dir = std::env::temp_dir().join(format!("speccheck-config-ro-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let c = Config { database: Some(dir.clone()), ..Config::base() }.with_profile(Profile::Ci);
        let (store, warnings) = c.failure_store();
        assert!(warnings.is_empty());
        let store = store.expect("a store");
        let f = crate::database::StoredFailure {
            choices: crate::choice::ChoiceSequence(Vec::new()),
            message: String::new(),
            crashed: false,
        };
        store.save("t", f).unwrap();
        assert!(!dir.exists(), "a read-only store wrote");
    }

    #[test]
    fn an_unusable_url_is_a_warning_and_the_directory_is_still_used() {
        let c = Config { database: Some("d".into()), database_url: Some("nope://x".into()), ..Config::base() };
        let (store, warnings) = c.failure_store();
        assert!(warnings[0].contains("nope://x"), "{warnings:?}");
        assert!(store.expect("the directory").location("t").starts_with("d"));
    }

    #[test]
    fn sizes_ramp_then_stay() {
        assert_eq!(case_size(0, 50, 100), 1);
        assert!(case_size(25, 50, 100) > 40);
        assert_eq!(case_size(50, 50, 100), 100);
        assert_eq!(case_size(99, 50, 100), 100);
    }

    #[test]
    fn raising_cases_adds_cases_at_full_size_without_stretching_the_ramp() {
        let base = Config::base();
        let many = Config { cases: 10_000, ..Config::base() };
        for i in 0..200 {
            assert_eq!(base.case_size(i), many.case_size(i), "case {i}");
        }
        // A short run still reaches the largest size.
        let short = Config { cases: 10, ..Config::base() };
        assert_eq!(short.case_size(5), short.max_size);
    }
}

/// The phases of a run that can be turned off (with `shrink` and
/// `explain`, Hypothesis's `phases` setting): every one is on by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Phases {
    /// Run the explicit examples (`#[example]`).
    pub explicit: bool,
    /// Replay the failures earlier runs saved (the failure database).
    pub reuse: bool,
    /// Generate inputs (random, exhaustive or from an input source).
    pub generate: bool,
    /// Hill-climb on `target` scores after generation.
    pub target: bool,
}

impl Default for Phases {
    fn default() -> Self {
        Phases { explicit: true, reuse: true, generate: true, target: true }
    }
}

/// The names [`Config::set_phases`] takes, in the order a run has them.
pub const PHASE_NAMES: [&str; 6] = ["explicit", "reuse", "generate", "target", "shrink", "explain"];

impl Config {
    /// Turns on exactly the phases named in `list` (comma separated, from
    /// [`PHASE_NAMES`]: `"explicit,generate,shrink"` runs the examples and
    /// generated inputs, shrinks a failure and does not explain it; an
    /// empty list runs nothing). A name that is not a phase is an error
    /// naming it.
    pub fn set_phases(&mut self, list: &str) -> Result<(), String> {
        let mut on = [false; 6];
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match PHASE_NAMES.iter().position(|p| p.eq_ignore_ascii_case(name)) {
                Some(i) => on[i] = true,
                None => return Err(format!("`{name}` is not a phase (the phases are: {})", PHASE_NAMES.join(", "))),
            }
        }
        self.phases = Phases { explicit: on[0], reuse: on[1], generate: on[2], target: on[3] };
        self.shrink = on[4];
        if !on[5] {
            self.explain = ExplainMode::Off;
        }
        Ok(())
    }
}

/// Reads `i/n` (shard `i` of `n`, `1 <= i <= n`).
pub fn parse_shard(v: &str) -> Option<(u32, u32)> {
    let (i, n) = v.trim().split_once('/')?;
    let (i, n): (u32, u32) = (i.trim().parse().ok()?, n.trim().parse().ok()?);
    (1..=n).contains(&i).then_some((i, n))
}

impl Config {
    /// The passing cases this run (or its shard) asks for: the shard's
    /// share of `cases`, the simplest input counted in shard 1.
    pub fn shard_cases(&self) -> u64 {
        let cases = u64::from(self.cases);
        let Some((i, n)) = self.shard else { return cases };
        let (i, n) = (u64::from(i), u64::from(n));
        // Random cases 0..cases-1 (the simplest input is the first case).
        let random = cases.saturating_sub(1);
        let mine = random / n + u64::from(i - 1 < random % n);
        mine + u64::from(i == 1 && cases > 0)
    }
}
