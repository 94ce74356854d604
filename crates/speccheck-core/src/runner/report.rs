//! The result of a run and how it is printed: a one-line summary, the
//! counterexample with each argument named (Rust syntax, or the tree format
//! for large values), the failure, the explanation, and how to replay it.

use std::any::Any;
use std::collections::BTreeMap;
use std::fmt::{self, Write as _};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::case::{FailureInfo, FailureKind};
use crate::choice::{ChoiceSequence, ReplayTag};
use crate::human;
use crate::shrink::{ShrinkStats, ShrinkStop};
use crate::term::Term;
use crate::test_case::Reach;

/// Values whose one-line form is longer than this print as a tree.
const TREE_THRESHOLD: usize = 400;
/// Width for Rust-syntax pretty printing.
const WIDTH: usize = 90;

/// A titled block of explanation (a generalized formula, another failure
/// class…), produced by the explanation step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// Heading.
    pub title: String,
    /// Body text (already formatted).
    pub body: String,
    /// The choices of a further failing input this section reports (another
    /// failure class), so tools can replay or decode it without parsing the
    /// text.
    pub counterexample: Option<ChoiceSequence>,
}

impl Section {
    /// A section of text.
    pub fn new(title: impl Into<String>, body: impl Into<String>) -> Self {
        Section { title: title.into(), body: body.into(), counterexample: None }
    }

    /// The same section, reporting the failing input `choices`.
    pub fn with_counterexample(self, choices: ChoiceSequence) -> Self {
        Section { counterexample: Some(choices), ..self }
    }
}

/// One failing input, ready to print.
#[derive(Clone, Debug)]
pub struct Counterexample {
    /// How it fails.
    pub failure: FailureInfo,
    /// The (shrunk) choices.
    pub choices: ChoiceSequence,
    /// Named inputs, as terms.
    pub inputs: Vec<(String, Term)>,
    /// Notes recorded by the property on the final run.
    pub notes: Vec<String>,
    /// Backtrace of the final run, when captured.
    pub backtrace: Option<String>,
    /// Cases run before the failure was found (0: replayed).
    pub found_after: u64,
    /// Number of choices of the input as first found.
    pub original_choices: usize,
    /// Shrinking statistics.
    pub shrink: Option<ShrinkStats>,
    /// Explanation sections.
    pub explanation: Vec<Section>,
    /// Where it was saved.
    pub saved_to: Option<PathBuf>,
    /// Where it came from, when not from generation.
    pub source: Option<String>,
    /// The property it belongs to, carried by its replay string.
    pub tag: Option<ReplayTag>,
    /// Rebuilds the typed input from [`choices`](Self::choices) (see
    /// [`value`](Self::value)); set by [`Property`](crate::Property) runs.
    pub rebuild: Option<Rebuild>,
}

/// Rebuilds a counterexample's input, as the property received it, from
/// its choices: the property's generator replayed. Kept as a function, not
/// the value, so a report stays `Send` whatever the input type.
#[derive(Clone)]
pub struct Rebuild(Arc<RebuildFn>);

/// Replays choices into a value of the property's input type.
type RebuildFn = dyn Fn(&ChoiceSequence) -> Option<Box<dyn Any>> + Send + Sync;

impl Rebuild {
    /// A rebuilder from a function replaying choices into a value.
    pub fn new(f: impl Fn(&ChoiceSequence) -> Option<Box<dyn Any>> + Send + Sync + 'static) -> Self {
        Rebuild(Arc::new(f))
    }
}

impl fmt::Debug for Rebuild {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Rebuild(..)")
    }
}

impl Counterexample {
    /// The failing input as the property received it (for a property of
    /// several arguments, the tuple of them), rebuilt from its choices.
    /// `None` when `T` is not the input's type or the report came from
    /// somewhere that cannot rebuild it (a saved crash, an interface run).
    pub fn value<T: 'static>(&self) -> Option<T> {
        let rebuilt = (self.rebuild.as_ref()?.0)(&self.choices)?;
        rebuilt.downcast::<T>().ok().map(|b| *b)
    }

    /// The replay string for `SPECCHECK_REPLAY` (tagged with its property
    /// when known, so another property refuses it).
    pub fn replay_string(&self) -> String {
        match self.tag {
            Some(tag) => self.choices.to_tagged_replay_string(tag),
            None => self.choices.to_replay_string(),
        }
    }

    /// Every failing input the run reports, one per failure class: this
    /// counterexample first, then those the explanation step found (e.g.
    /// SmartCheck's search for inputs that match no known shape).
    pub fn failure_classes(&self) -> impl Iterator<Item = &ChoiceSequence> {
        std::iter::once(&self.choices).chain(self.explanation.iter().filter_map(|s| s.counterexample.as_ref()))
    }
}

/// How a run ended.
#[derive(Clone, Debug)]
pub enum RunVerdict {
    /// Every case passed.
    Passed,
    /// A counterexample.
    Failed(Box<Counterexample>),
    /// A failure that did not reproduce when replayed.
    Flaky(Box<Counterexample>),
    /// Too many inputs were rejected to test the property.
    GaveUp {
        /// Which precondition or filter rejected most, and how often.
        reason: String,
    },
    /// The run stopped before doing what its settings say (an exhaustive
    /// run that hit its input limit or time budget): not a pass.
    Incomplete {
        /// What was covered, what was not, and what to change.
        reason: String,
    },
    /// The run could not start or the framework hit a problem.
    Error(String),
}

/// What an exhaustive run covered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExhaustiveStats {
    /// The depth asked for.
    pub depth: u32,
    /// Inputs tried.
    pub tried: u64,
    /// True when every input up to the depth was tried.
    pub complete: bool,
    /// What made the inputs, when not the generator's own enumeration
    /// (an SMT solver, a pruning enumerator): then `tried` counts valid
    /// inputs only.
    pub source: Option<String>,
    /// What "every input" leaves out ([`Config::coverage_caveat`](crate::Config::coverage_caveat)).
    pub caveat: Option<String>,
}

/// What targeted testing did for one [`target`](crate::target) label.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TargetStats {
    /// The highest score random generation reached.
    pub generated: f64,
    /// The highest score after the target phase (at least `generated`).
    pub best: f64,
    /// The generated case with the highest score (its number in the run).
    pub(crate) case: Option<u64>,
    /// Cases the target phase ran for this label.
    pub climbs: u64,
}

/// Counts and timings of a run.
#[derive(Clone, Debug, Default)]
pub struct RunStats {
    /// The run seed.
    pub seed: u64,
    /// Cases that passed.
    pub passed: u64,
    /// Explicit examples that passed (run before the cases above).
    pub examples_passed: u64,
    /// The shard of the run's cases this run was (`SPECCHECK_SHARD=i/n`).
    pub shard: Option<(u32, u32)>,
    /// The best score each [`target`](crate::target) label reached, in
    /// generation and after the target phase's hill climbing.
    pub targets: BTreeMap<String, TargetStats>,
    /// A `target` score that was not a finite number (the run is then an
    /// error naming its label).
    pub(crate) target_error: Option<String>,
    /// Where the cases' observations go (`SPECCHECK_OBSERVE`).
    pub(crate) observer: Option<std::sync::Arc<crate::observe::Observer>>,
    /// Cases rejected by a precondition.
    pub discarded: u64,
    /// Cases whose input could not be generated.
    pub invalid: u64,
    /// Rejections by reason.
    pub discard_reasons: BTreeMap<String, u64>,
    /// Label counts (over passing cases).
    pub labels: BTreeMap<String, u64>,
    /// Time for the whole run.
    pub elapsed: Duration,
    /// The time budget stopped generation early.
    pub time_budget_hit: bool,
    /// Threads used to generate.
    pub threads: usize,
    /// Coverage of an exhaustive run.
    pub exhaustive: Option<ExhaustiveStats>,
    /// No search ran: one given input was replayed (`SPECCHECK_REPLAY`).
    pub replayed: bool,
    /// Time from the start of the run to the first failing input (before
    /// shrinking), when one was found; with
    /// [`Counterexample::found_after`], what a benchmark compares.
    pub time_to_failure: Option<Duration>,
    /// Random generation's filter rejected most values, and this source
    /// supplied the rest of the inputs (see
    /// [`Property::fallback_inputs`](super::Property::fallback_inputs)).
    pub topped_up: Option<String>,
    /// How large the generated inputs grew, checked and all.
    pub sizes: InputSizes,
}

/// How large a run's generated inputs grew: the figures of the size health
/// check (a passing run whose checked inputs stayed far smaller than the
/// ones it drew says so).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InputSizes {
    /// The furthest any input the property passed on reached.
    pub checked: Reach,
    /// The furthest any generated input reached, rejected ones (and values
    /// a filter threw away) included.
    pub drawn: Reach,
}

/// Everything a run produced.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// The property's name.
    pub name: String,
    /// How it ended.
    pub verdict: RunVerdict,
    /// Counts and timings.
    pub stats: RunStats,
    /// Problems that did not stop the run (a corrupt database file…).
    pub warnings: Vec<String>,
    /// Explanation sections of a passing run (e.g. exhaustive coverage).
    pub notes: Vec<String>,
    /// The command that reruns the property, when known.
    pub rerun_command: Option<String>,
    /// How much to print (the run's setting).
    pub verbosity: super::config::Verbosity,
    /// Settings in code that environment variables replaced.
    pub overridden: Vec<String>,
}

impl RunReport {
    /// True when the run passed.
    pub fn passed(&self) -> bool {
        matches!(self.verdict, RunVerdict::Passed)
    }

    /// The counterexample, if the run failed or was flaky.
    pub fn counterexample(&self) -> Option<&Counterexample> {
        match &self.verdict {
            RunVerdict::Failed(c) | RunVerdict::Flaky(c) => Some(c),
            _ => None,
        }
    }

    /// The typed failing input (see [`Counterexample::value`]).
    pub fn counterexample_value<T: 'static>(&self) -> Option<T> {
        self.counterexample()?.value()
    }

    /// The one-line summary.
    pub fn summary(&self) -> String {
        let s = &self.stats;
        match &self.verdict {
            RunVerdict::Passed if s.replayed => format!(
                "speccheck: `{}` passed the one replayed input (no other input was tried) in {}",
                self.name,
                human::duration(s.elapsed)
            ),
            RunVerdict::Passed => format!(
                "speccheck: `{}` passed {}{} cases{}{}{} in {}",
                self.name,
                match s.examples_passed {
                    0 => String::new(),
                    1 => "1 explicit example and ".to_string(),
                    n => format!("{n} explicit examples and "),
                },
                s.passed,
                match &s.exhaustive {
                    Some(e) if e.complete && e.source.is_some() => {
                        format!(" (all {} valid inputs up to depth {}{})", e.tried, e.depth, caveat(e))
                    }
                    Some(e) if e.complete => {
                        format!(" (every input up to depth {}: {} inputs{})", e.depth, e.tried, caveat(e))
                    }
                    Some(e) => format!(" (PARTIAL: depth {} not covered, {} inputs tried)", e.depth, e.tried),
                    None => String::new(),
                },
                if s.discarded + s.invalid > 0 {
                    format!(" ({} discarded)", s.discarded + s.invalid)
                } else {
                    String::new()
                },
                match (s.time_budget_hit, s.shard) {
                    (true, _) => " (time budget reached)".to_string(),
                    (false, Some((i, n))) => format!(" (shard {i} of {n})"),
                    (false, None) => String::new(),
                },
                human::duration(s.elapsed)
            ),
            RunVerdict::Failed(c) => format!(
                "speccheck: `{}` failed ({}){} — {}",
                self.name,
                c.failure.kind,
                match (&c.source, c.found_after) {
                    (Some(src), _) => format!(" on {src}"),
                    (None, n) => format!(" after {n} case{}", if n == 1 { "" } else { "s" }),
                },
                shrink_line(c)
            ),
            RunVerdict::Flaky(c) => format!(
                "speccheck: `{}` is FLAKY: it failed ({}) after {} cases but passed when replayed",
                self.name, c.failure.kind, c.found_after
            ),
            RunVerdict::GaveUp { reason } => format!(
                "speccheck: `{}` gave up after {} passing and {} rejected cases: {}",
                self.name,
                s.passed,
                s.discarded + s.invalid,
                reason
            ),
            RunVerdict::Incomplete { reason } => {
                format!("speccheck: `{}` is INCOMPLETE, not a pass: {reason}", self.name)
            }
            RunVerdict::Error(e) => format!("speccheck: `{}` could not run: {e}", self.name),
        }
    }
}

fn shrink_line(c: &Counterexample) -> String {
    let Some(s) = &c.shrink else { return "not shrunk".to_string() };
    let stop = match s.stop {
        ShrinkStop::Fixpoint => "",
        ShrinkStop::Steps => " (step budget reached)",
        ShrinkStop::Time => " (time budget reached)",
    };
    match (s.improvements, s.steps) {
        // Every smaller candidate was known not to be one before it ran
        // (the simplest input has none).
        (0, 0) if s.stop == ShrinkStop::Fixpoint => "nothing smaller to try".to_string(),
        // A budget spent before the first step says nothing of smaller inputs.
        (0, 0) => format!("not shrunk{stop}"),
        (0, n) => format!("no smaller failing input in {n} steps, {}{stop}", human::duration(s.elapsed)),
        (_, n) if c.original_choices == c.choices.len() => {
            format!("shrunk to smaller values in {n} steps, {}{stop}", human::duration(s.elapsed))
        }
        _ => format!(
            "shrunk from {} to {} choices in {} steps, {}{stop}",
            c.original_choices,
            c.choices.len(),
            s.steps,
            human::duration(s.elapsed)
        ),
    }
}

/// Prints named inputs: Rust syntax, or the tree format when long.
pub fn format_inputs(inputs: &[(String, Term)]) -> String {
    let mut out = String::new();
    for (name, term) in inputs {
        let line = term.to_line();
        let body = if line.len() > TREE_THRESHOLD { term.to_tree() } else { term.to_pretty(WIDTH - name.len() - 7) };
        let mut lines = body.lines();
        let _ = write!(out, "    {name} = {}", lines.next().unwrap_or(""));
        let pad = " ".repeat(name.len() + 7);
        for l in lines {
            let _ = write!(out, "\n{pad}{l}");
        }
        out.push('\n');
    }
    out
}

impl fmt::Display for RunReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.summary())?;
        for o in &self.overridden {
            writeln!(f, "  note: {o}")?;
        }
        for w in &self.warnings {
            writeln!(f, "  warning: {w}")?;
        }
        match &self.verdict {
            RunVerdict::Passed => {
                if !self.stats.labels.is_empty() {
                    writeln!(f, "  labels:")?;
                    let total = self.stats.passed.max(1) as f64;
                    let mut labels: Vec<_> = self.stats.labels.iter().collect();
                    labels.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
                    for (l, n) in labels {
                        writeln!(f, "    {:5.1}% {l}", *n as f64 * 100.0 / total)?;
                    }
                }
                if !self.stats.targets.is_empty() {
                    writeln!(f, "  targets (highest score; random generation, then hill climbing):")?;
                    for (l, t) in &self.stats.targets {
                        writeln!(f, "    {l}: {} ({} generated, {} climbing cases)", t.best, t.generated, t.climbs)?;
                    }
                }
                for n in &self.notes {
                    writeln!(f, "  {n}")?;
                }
            }
            RunVerdict::Failed(c) | RunVerdict::Flaky(c) => {
                writeln!(f)?;
                f.write_str(&format_inputs(&c.inputs))?;
                writeln!(f)?;
                let what = match c.failure.kind {
                    FailureKind::Panic if c.failure.in_generator => "a generator panicked",
                    FailureKind::Panic => "panicked",
                    FailureKind::Returned => "failed",
                    FailureKind::Timeout => "timed out",
                    FailureKind::Crash => "crashed",
                };
                match &c.failure.location {
                    Some(loc) => writeln!(f, "  {what} at {loc}:")?,
                    None => writeln!(f, "  {what}:")?,
                }
                for l in c.failure.message.lines() {
                    writeln!(f, "    {l}")?;
                }
                for n in &c.notes {
                    writeln!(f, "  note: {n}")?;
                }
                for s in &c.explanation {
                    writeln!(f, "\n  {}:", s.title)?;
                    for l in s.body.lines() {
                        writeln!(f, "    {l}")?;
                    }
                }
                if let Some(bt) = c.backtrace.as_deref().filter(|bt| !bt.trim().is_empty()) {
                    writeln!(f, "\n  backtrace:\n{bt}")?;
                }
                writeln!(f)?;
                if matches!(self.verdict, RunVerdict::Flaky(_)) {
                    writeln!(
                        f,
                        "  The same input passed when run again: the property depends on something besides its input\n  (time, global state, randomness, thread scheduling)."
                    )?;
                }
                match &self.rerun_command {
                    Some(cmd) => writeln!(f, "  replay: SPECCHECK_REPLAY={} {cmd}", c.replay_string())?,
                    None => {
                        writeln!(f, "  replay: SPECCHECK_REPLAY={} (seed {:#x})", c.replay_string(), self.stats.seed)?
                    }
                }
                if let Some(p) = &c.saved_to {
                    writeln!(f, "  saved to {} (replayed first on the next run)", p.display())?;
                }
            }
            RunVerdict::GaveUp { .. } if self.stats.discard_reasons.is_empty() => {
                // Nothing was rejected: the input source found no valid input at all.
                writeln!(
                    f,
                    "  No input satisfies the precondition and the refinements at this depth: check them for a\n  contradiction, or raise the depth if valid inputs are only larger."
                )?;
            }
            RunVerdict::GaveUp { .. } => {
                writeln!(f, "  rejections by reason:")?;
                let mut reasons: Vec<_> = self.stats.discard_reasons.iter().collect();
                reasons.sort_by(|a, b| b.1.cmp(a.1));
                for (r, n) in reasons {
                    writeln!(f, "    {n:6} {r}")?;
                }
                writeln!(f, "  Make the generator produce valid inputs directly, or loosen the precondition.")?;
            }
            RunVerdict::Incomplete { .. } | RunVerdict::Error(_) => {}
        }
        Ok(())
    }
}

/// `; ` and what an enumeration's count leaves out, if anything.
fn caveat(e: &ExhaustiveStats) -> String {
    e.caveat.as_ref().map(|c| format!("; {c}")).unwrap_or_default()
}
