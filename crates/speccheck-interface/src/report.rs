//! What a run reports: instances built per type, calls made, tests
//! checked and aborted per law, time, and the counterexample program.

use std::fmt::{self, Write as _};
use std::time::Duration;

use speccheck_core::human::duration as human;
use speccheck_core::{FailureKind, RunReport};

use crate::config::{DEPTH_CALLS, REUSE_FACTOR};
use crate::pool::ContainerKind;

/// Instances of one type.
#[derive(Clone, Debug, Default)]
pub struct TypeStats {
    /// The type.
    pub name: String,
    /// Abstract (built by the API) or ground (fresh values).
    pub is_abstract: bool,
    /// Distinct new instances built and offered to the pool, kept or not
    /// (fresh values included): progress toward `required`.
    pub built: u64,
    /// Distinct instances the pool accepted.
    pub produced: u64,
    /// Instances offered that the pool already held.
    pub duplicates: u64,
    /// Instances offered that the pool did not keep (full).
    pub dropped: u64,
    /// Instances the pool let go to make room for newer ones.
    pub evicted: u64,
    /// Instances held at the end.
    pub held: usize,
    /// Most instances held at once.
    pub max_held: usize,
    /// The pool's bound.
    pub bound: usize,
    /// Distinct values: of a ground type, the fresh values drawn (rounds
    /// and walks); of an abstract type, the instances built.
    pub distinct: u64,
    /// Values of a ground type returned by calls and not pooled for reuse
    /// as arguments: far larger than any value drawn (feeding them back,
    /// e.g. a text's contents inserted into itself, would grow instances
    /// exponentially).
    pub oversized: u64,
}

/// Calls of one function.
#[derive(Clone, Debug, Default)]
pub struct FnStats {
    /// The function.
    pub name: String,
    /// Calls made.
    pub calls: u64,
    /// Calls that panicked where the description allows it.
    pub panics_allowed: u64,
    /// Calls both implementations refused (reference mode).
    pub refused: u64,
}

/// Tests of one law.
#[derive(Clone, Debug, Default)]
pub struct LawStats {
    /// The law.
    pub name: String,
    /// Tests whose precondition held (so the law was really checked).
    pub checked: u64,
    /// Tests whose precondition did not hold (ArtiCheck §4's *aborted*
    /// tests: they prove nothing and are not counted as passed).
    pub aborted: u64,
}

/// Why the search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// A counterexample was found.
    Found,
    /// No round produced anything new: every combination was tried.
    Fixpoint,
    /// Every abstract type reached its required number of instances.
    Target,
    /// The call budget ran out.
    Calls,
    /// The time budget ran out.
    Time,
    /// The round budget ran out.
    Rounds,
    /// A call hung.
    Hang,
    /// Nothing ran (a replayed program).
    Replay,
    /// The process's resident memory went over
    /// [`Config::memory_budget`](crate::Config::memory_budget): the search
    /// stopped early.
    Memory(crate::memory::Exceeded),
    /// The search held more recorded calls (the lineages of its instances
    /// and walks) than
    /// [`Config::recorded_calls_budget`](crate::Config::recorded_calls_budget):
    /// it stopped early.
    RecordedCalls {
        /// Recorded calls alive when it stopped.
        alive: u64,
        /// The budget.
        budget: u64,
    },
}

impl StopReason {
    /// Whether a memory budget (resident memory or recorded calls) stopped
    /// the search: what it did not build, it did not test.
    pub fn is_memory(&self) -> bool {
        matches!(self, StopReason::Memory(_) | StopReason::RecordedCalls { .. })
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StopReason::Found => "a counterexample was found",
            StopReason::Fixpoint => "fixpoint: no new instance could be built",
            StopReason::Target => "every abstract type reached its required instances",
            StopReason::Calls => "call budget reached",
            StopReason::Time => "time budget reached",
            StopReason::Rounds => "round budget reached",
            StopReason::Hang => "a call hung",
            StopReason::Replay => "replayed a given program",
            StopReason::Memory(e) => return write!(f, "memory budget reached ({e}): the search is incomplete"),
            StopReason::RecordedCalls { alive, budget } => {
                return write!(
                    f,
                    "memory budget reached ({} recorded calls alive, budget {}): the search is incomplete",
                    thousands(*alive),
                    thousands(*budget)
                );
            }
        })
    }
}

/// Counts of one run.
#[derive(Clone, Debug)]
pub struct Stats {
    /// Per pooled type.
    pub types: Vec<TypeStats>,
    /// Per function.
    pub functions: Vec<FnStats>,
    /// Per law.
    pub laws: Vec<LawStats>,
    /// Rounds of the fixpoint computation.
    pub rounds: u32,
    /// Calls made.
    pub calls: u64,
    /// Time spent searching.
    pub search_time: Duration,
    /// Time spent reducing the counterexample.
    pub reduce_time: Duration,
    /// Why the search stopped.
    pub stop: StopReason,
    /// The run seed.
    pub seed: u64,
    /// The pools' container.
    pub container: ContainerKind,
    /// The reference implementation, in reference mode.
    pub reference: Option<String>,
    /// The longest lineage of any instance built: the calls of the
    /// longest client program that made one (how deep the search went).
    pub deepest: u64,
    /// Walks of deep search run.
    pub walks: u64,
    /// Calls made by walks (included in `calls`).
    pub walk_calls: u64,
    /// The longest walk.
    pub longest_walk: u64,
    /// The depth the search was to reach before stopping at its target
    /// (0 when no function extends an instance: deep search is off).
    pub depth_target: u64,
    /// Most recorded calls (lineages of instances and walks) the search
    /// held at once: what
    /// [`Config::recorded_calls_budget`](crate::Config::recorded_calls_budget)
    /// bounds.
    pub recorded_peak: u64,
}

impl Stats {
    /// Problems that do not make the run fail but weaken what it shows:
    /// laws whose precondition never held (every test aborted).
    pub fn warnings(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .laws
            .iter()
            .filter(|l| l.checked == 0)
            .map(|l| {
                format!(
                    "law `{}` was never checked: {} test{} aborted (precondition false), none passed it",
                    l.name,
                    l.aborted,
                    if l.aborted == 1 { "" } else { "s" }
                )
            })
            .collect();
        match self.stop {
            StopReason::Memory(e) => out.push(format!(
                "the search stopped early at the memory budget ({e}) after {} calls: it is not a full search \
                 (raise the budget: `Config::memory_budget`, SPECCHECK_MEMORY_MB)",
                thousands(self.calls)
            )),
            StopReason::RecordedCalls { alive, budget } => out.push(format!(
                "the search stopped early at the memory budget ({} recorded calls alive, budget {}) after {} \
                 calls: it is not a full search (raise the budget: `Config::recorded_calls_budget`, \
                 SPECCHECK_RECORDED_CALLS)",
                thousands(alive),
                thousands(budget),
                thousands(self.calls)
            )),
            _ => {}
        }
        // A search that stopped before the depth it was to reach (a lineage
        // that long, and walk calls of `DEPTH_CALLS` times it): what it did
        // not build, it did not test.
        // (One stopped at the memory budget has its own warning above.)
        let cut_short = matches!(self.stop, StopReason::Calls | StopReason::Rounds | StopReason::Time);
        let walk_target = self.depth_target.saturating_mul(DEPTH_CALLS);
        let short_of_depth = self.deepest < self.depth_target;
        let short_of_walks = self.walk_calls < walk_target;
        if self.depth_target > 0 && self.depth_target < u64::MAX && cut_short && (short_of_depth || short_of_walks) {
            let what = if short_of_depth {
                format!("its deepest instance built by {} calls", thousands(self.deepest))
            } else {
                format!(
                    "its walks at {} calls of the {} the target asks for",
                    thousands(self.walk_calls),
                    thousands(walk_target)
                )
            };
            out.push(format!(
                "the search stopped ({}) with {what}, short of the depth target of {}: states deeper than that \
                 were not tested (give it the time: `Config::budget`)",
                self.stop,
                thousands(self.depth_target)
            ));
        }
        out
    }

    /// Distinct instances built, over all types (fresh ground values
    /// included).
    pub fn instances(&self) -> u64 {
        self.types.iter().map(|t| t.built).sum()
    }

    /// Distinct instances of the abstract types built.
    pub fn abstract_instances(&self) -> u64 {
        self.types.iter().filter(|t| t.is_abstract).map(|t| t.built).sum()
    }

    /// Tests checked (precondition true) over all laws.
    pub fn checked(&self) -> u64 {
        self.laws.iter().map(|l| l.checked).sum()
    }

    /// Tests aborted (precondition false) over all laws.
    pub fn aborted(&self) -> u64 {
        self.laws.iter().map(|l| l.aborted).sum()
    }

    /// Instances built per second of search.
    pub fn instances_per_second(&self) -> f64 {
        self.instances() as f64 / self.search_time.as_secs_f64().max(1e-9)
    }
}

/// A counterexample: the client program and how it fails.
#[derive(Clone, Debug)]
pub struct Counterexample {
    /// How it fails (a panic, a law or comparison that fails, a hang).
    pub kind: FailureKind,
    /// What failed: the law, the function that panicked or disagrees
    /// with the reference.
    pub what: String,
    /// The panic message, the mismatch, or the timeout.
    pub message: String,
    /// Where a panic was raised.
    pub location: Option<String>,
    /// The program (reduced when reduction succeeded).
    pub program: String,
    /// Calls in [`program`](Self::program).
    pub calls: usize,
    /// The program as found, before reduction.
    pub original_program: String,
    /// Calls in the original program.
    pub original_calls: usize,
    /// Time from the start of the search to the counterexample.
    pub time_to_find: Duration,
    /// Calls made before it was found.
    pub calls_to_find: u64,
    /// What happened to the reduction (or why there was none).
    pub reduction_note: Option<String>,
    /// `SPECCHECK_REPLAY` value that replays the (reduced) program.
    pub replay: Option<String>,
    /// The file holding the replay, when it is too long for a variable
    /// (`SPECCHECK_REPLAY=@FILE` replays it).
    pub replay_file: Option<std::path::PathBuf>,
    /// The `cargo test` command that reruns the test (the replay line
    /// sets `SPECCHECK_REPLAY` for it).
    pub rerun_command: Option<String>,
    /// The file holding the whole program, when it is longer than a
    /// screen (the report then shows its start and end).
    pub program_file: Option<std::path::PathBuf>,
    /// For a panic raised outside the crate under test (in one of its
    /// dependencies): the innermost frame inside that crate, from a
    /// backtrace (`RUST_BACKTRACE=1`).
    pub frame_in_crate: Option<String>,
}

/// Longest program printed whole, in lines.
pub(crate) const SCREEN_LINES: usize = 60;

/// Longest replay string printed; longer ones go to a file.
pub(crate) const REPLAY_CHARS: usize = 1024;

/// How a run ended.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// No counterexample: every law held on every test checked, and (in
    /// reference mode) every call agreed with the reference.
    Passed,
    /// A counterexample.
    Failed(Box<Counterexample>),
    /// The description or the run could not be used.
    Error(String),
    /// The search stopped early at a memory budget before it found a
    /// counterexample: neither a pass nor a failure (what it did not
    /// build, it did not test). The stats say how far it got.
    Incomplete(StopReason),
}

/// Everything a run produced.
#[derive(Clone, Debug)]
pub struct InterfaceReport {
    /// The API's name.
    pub name: String,
    /// How it ended.
    pub verdict: Verdict,
    /// Counts and times.
    pub stats: Stats,
    /// The core runner's report on reducing the program, when it ran.
    pub reduction: Option<RunReport>,
}

impl InterfaceReport {
    /// True when no counterexample was found and nothing went wrong.
    pub fn passed(&self) -> bool {
        matches!(self.verdict, Verdict::Passed)
    }

    /// The counterexample, if any.
    pub fn counterexample(&self) -> Option<&Counterexample> {
        match &self.verdict {
            Verdict::Failed(c) => Some(c),
            _ => None,
        }
    }

    /// The one-line summary.
    pub fn summary(&self) -> String {
        let s = &self.stats;
        match &self.verdict {
            Verdict::Passed => format!(
                "speccheck-interface: `{}` passed: {} instances from {} calls{}{} in {} ({})",
                self.name,
                s.instances(),
                s.calls,
                match &s.reference {
                    Some(r) => format!(", each agreeing with {r}"),
                    None => String::new(),
                },
                if s.laws.is_empty() {
                    String::new()
                } else {
                    format!(", {} tests checked ({} aborted)", s.checked(), s.aborted())
                },
                human(s.search_time),
                s.stop
            ),
            Verdict::Failed(c) => format!(
                "speccheck-interface: `{}` FAILED: {} (found after {} calls in {}; program of {} call{}{})",
                self.name,
                c.what,
                c.calls_to_find,
                human(c.time_to_find),
                c.calls,
                if c.calls == 1 { "" } else { "s" },
                if c.original_calls != c.calls {
                    format!(", reduced from {}", c.original_calls)
                } else {
                    String::new()
                }
            ),
            Verdict::Error(e) => format!("speccheck-interface: `{}` could not run: {e}", self.name),
            Verdict::Incomplete(why) => format!(
                "speccheck-interface: `{}` stopped early: {why}; no counterexample in the {} instances from {} \
                 calls it built in {}, but that is not a pass",
                self.name,
                s.instances(),
                s.calls,
                human(s.search_time),
            ),
        }
    }
}

fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

impl fmt::Display for InterfaceReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.summary())?;
        let warned = matches!(self.verdict, Verdict::Passed | Verdict::Incomplete(_));
        for w in if warned { self.stats.warnings() } else { Vec::new() } {
            writeln!(f, "  warning: {w}")?;
        }
        if let Verdict::Failed(c) = &self.verdict {
            writeln!(f)?;
            let lines: Vec<&str> = c.program.lines().collect();
            match &c.program_file {
                Some(path) if lines.len() > SCREEN_LINES => {
                    let (head, tail) = (SCREEN_LINES / 2, SCREEN_LINES / 4);
                    for l in &lines[..head] {
                        writeln!(f, "    {l}")?;
                    }
                    writeln!(
                        f,
                        "    // … {} more lines: the whole program is in {}",
                        lines.len() - head - tail,
                        path.display()
                    )?;
                    for l in &lines[lines.len() - tail..] {
                        writeln!(f, "    {l}")?;
                    }
                }
                _ => {
                    for l in &lines {
                        writeln!(f, "    {l}")?;
                    }
                }
            }
            writeln!(f)?;
            let what = match c.kind {
                FailureKind::Panic => "panicked",
                FailureKind::Returned => "failed",
                FailureKind::Timeout => "hung",
                FailureKind::Crash => "crashed",
            };
            match &c.location {
                Some(loc) => writeln!(f, "  {what} at {loc}:")?,
                None => writeln!(f, "  {what}:")?,
            }
            if let Some(frame) = &c.frame_in_crate {
                writeln!(f, "  called from {frame}")?;
            }
            for l in c.message.lines() {
                writeln!(f, "    {l}")?;
            }
            if let Some(n) = &c.reduction_note {
                writeln!(f, "  note: {n}")?;
            }
        }
        let s = &self.stats;
        writeln!(f, "  instances ({} pools, bound {}):", s.container.name(), s.types.first().map_or(0, |t| t.bound))?;
        let width = s.types.iter().map(|t| t.name.len()).max().unwrap_or(4);
        for t in &s.types {
            writeln!(
                f,
                "    {:width$}  {:8}  built {:>9}  held {:>7}  duplicates {:>9}  dropped {:>9}{}",
                t.name,
                if t.is_abstract { "abstract" } else { "ground" },
                thousands(t.built),
                thousands(t.held as u64),
                thousands(t.duplicates),
                thousands(t.dropped + t.evicted),
                if t.is_abstract { String::new() } else { format!("  distinct drawn {:>9}", thousands(t.distinct)) },
            )?;
            if t.oversized > 0 {
                writeln!(
                    f,
                    "    {:width$}  {} returned values not reused: more than {}× the longest drawn",
                    "",
                    thousands(t.oversized),
                    REUSE_FACTOR,
                )?;
            }
        }
        let mut calls = String::new();
        for (i, c) in s.functions.iter().enumerate() {
            if i > 0 {
                calls.push_str(", ");
            }
            let _ = write!(calls, "{} {}", c.name, thousands(c.calls));
            if c.panics_allowed > 0 {
                let _ = write!(calls, " ({} allowed panics)", thousands(c.panics_allowed));
            }
            if c.refused > 0 {
                let _ = write!(calls, " ({} refused by both)", thousands(c.refused));
            }
        }
        writeln!(f, "  calls: {} in {} rounds: {calls}", thousands(s.calls), s.rounds)?;
        for l in &s.laws {
            writeln!(f, "  law `{}`: {} checked, {} aborted", l.name, thousands(l.checked), thousands(l.aborted))?;
        }
        if s.walks > 0 || s.depth_target > 0 {
            writeln!(
                f,
                "  depth: deepest instance built by {} calls{}; {} walks made {} of the calls (longest {})",
                thousands(s.deepest),
                match s.depth_target {
                    0 | u64::MAX => String::new(),
                    t => format!(" (target {})", thousands(t)),
                },
                thousands(s.walks),
                thousands(s.walk_calls),
                thousands(s.longest_walk),
            )?;
        }
        writeln!(
            f,
            "  time: {} searching ({:.0} instances/s){}; stopped: {}; seed {:#x}",
            human(s.search_time),
            s.instances_per_second(),
            if s.reduce_time > Duration::ZERO { format!(", {} reducing", human(s.reduce_time)) } else { String::new() },
            s.stop,
            s.seed
        )?;
        if let Verdict::Failed(c) = &self.verdict {
            let command = c.rerun_command.as_deref().map(|cmd| format!(" {cmd}")).unwrap_or_default();
            match (&c.replay_file, &c.replay) {
                (Some(path), _) => writeln!(f, "  replay: SPECCHECK_REPLAY=@{}{command}", path.display())?,
                (None, Some(r)) => writeln!(f, "  replay: SPECCHECK_REPLAY={r}{command}")?,
                (None, None) => {}
            }
        }
        Ok(())
    }
}
