//! Inputs from an [`InputSource`](crate::runner::InputSource) (an SMT
//! solver's models, a pruning enumerator), each run as a replayed case,
//! until the source says it covered everything (a pass that says so),
//! stopped short (incomplete, unless the settings allow a partial run), or
//! cannot work (an error). Bounded by `max_enumerated` and the time budget
//! like an exhaustive run.
//!
//! A source can also *top up* random generation whose filter rejected most
//! values (see [`Property::fallback_inputs`](crate::Property::fallback_inputs)):
//! it then runs until the run has its `cases` passing inputs, and stopping
//! short is no incompleteness (a random run promises no coverage).
//!
//! A *sampling* source (see [`Property::sampled_inputs`](crate::Property::sampled_inputs))
//! makes random inputs instead of the generator: it gets each case's seed
//! and size, and the run ends, as a random one does, at `cases` passing
//! inputs.

use std::time::Instant;

use super::{Origin, Searched, abandoned};
use crate::human;
use crate::runner::engine::Engine;
use crate::runner::report::{ExhaustiveStats, RunStats, RunVerdict};
use crate::runner::source::{CaseSource, SourceStep};
use crate::runner::tally::{count, give_up_reason};
use crate::seed::case_seed;
use crate::test_case::Tail;
use crate::watch::Phase;

/// What a source's inputs are to the run.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Every input it covers, instead of random generation.
    Cover,
    /// The rest of the cases after random generation's filter rejected
    /// most of its values.
    TopUp,
    /// Random inputs, one per case, instead of random generation.
    Sample,
}

/// Mixed into the run seed for a sampling source's case seeds.
const SAMPLE_STREAM: u64 = 0x7361_6d70_6c65;

impl Engine {
    /// Runs the inputs of `source`, taken as `mode` says.
    pub(crate) fn sourced(
        &self,
        source: &mut CaseSource,
        stats: &mut RunStats,
        notes: &mut Vec<String>,
        started: Instant,
        mode: Mode,
    ) -> Searched {
        let top_up = mode != Mode::Cover;
        let ending = Ending {
            engine: self,
            top_up,
            sample: mode == Mode::Sample,
            random: (stats.passed, stats.passed + stats.discarded + stats.invalid),
        };
        let mut tried = 0u64;
        let prechecked = source.prechecked();
        loop {
            if self.watch.is_abandoned() {
                return abandoned();
            }
            // Named when it is said: a source may learn how it finds its
            // inputs only once it starts (a solver falling back to
            // enumeration).
            if top_up && stats.passed >= u64::from(self.config.cases) {
                notes.push(ending.topped_up(stats, source, ""));
                return Searched::over(RunVerdict::Passed);
            }
            let over_time = self.config.time_budget.is_some_and(|b| started.elapsed() > b);
            if mode == Mode::Sample && over_time {
                // As for random generation: the budget ends the run, which
                // passes on the cases it ran and says so.
                stats.time_budget_hit = true;
                notes.push(ending.topped_up(stats, source, ""));
                return Searched::over(RunVerdict::Passed);
            }
            if tried >= self.config.max_enumerated || over_time {
                stats.time_budget_hit = over_time;
                let why = if over_time {
                    format!(
                        "the time budget of {} ran out",
                        human::duration(self.config.time_budget.unwrap_or_default())
                    )
                } else {
                    format!("it reached the limit of {} inputs (`max_enumerated`)", self.config.max_enumerated)
                };
                let name = source.describe();
                let left = if top_up { "" } else { ": not every valid input was tested" };
                let why = format!("{name} stopped after {tried} inputs because {why}{left}");
                return ending.stopped(stats, notes, why, source);
            }
            if mode == Mode::Sample {
                source.prepare(case_seed(self.seed ^ SAMPLE_STREAM, tried), self.config.case_size(tried));
            }
            match source.next_input() {
                SourceStep::Input(choices) => {
                    self.watch.begin_known(0, Phase::Enumerate, tried + 1, &choices.0);
                    let tc = self.replay_case(&choices, Tail::Stop).with_refinements_prechecked(prechecked);
                    let r = self.executor.run(tc);
                    self.watch.end(0);
                    tried += 1;
                    if r.misaligned > 0 || r.prefix_unused {
                        return Searched::over(RunVerdict::Error(format!(
                            "{} gave an input whose choices do not rebuild it through the property's generator \
                             ({} misaligned, prefix {}used up): a bug in the source or in the generator's `encode`",
                            source.describe(),
                            r.misaligned,
                            if r.prefix_unused { "not " } else { "" }
                        )));
                    }
                    if r.outcome.is_fail() {
                        stats.time_to_failure.get_or_insert(started.elapsed());
                        return Searched::found(r, tried, Origin::Generated);
                    }
                    count(stats, None, r.outcome, r.labels);
                }
                SourceStep::Complete { what, depth } => {
                    return ending.complete(stats, notes, source, &what, depth, tried);
                }
                SourceStep::Stopped { reason } => {
                    let name = source.describe();
                    let left = if top_up { "" } else { "; not every valid input was tested" };
                    let why = format!("{name} stopped after {tried} inputs: {reason}{left}");
                    return ending.stopped(stats, notes, why, source);
                }
                SourceStep::Error(e) => return Searched::over(RunVerdict::Error(e)),
                // Back round the loop, past the budget and abandonment checks.
                SourceStep::Waiting => {}
            }
        }
    }
}

/// How a run from a source ends, given what the source says.
struct Ending<'e> {
    engine: &'e Engine,
    /// Until `cases` pass, claiming no coverage (a top-up or a sample).
    top_up: bool,
    /// Every input from the source, none from random generation.
    sample: bool,
    /// Random generation's passing inputs and tries before the source took
    /// over (a top-up).
    random: (u64, u64),
}

impl Ending<'_> {
    /// The note of a top-up: how many inputs came from where, and how
    /// large they were.
    fn topped_up(&self, stats: &mut RunStats, source: &CaseSource, how: &str) -> String {
        let (passed, tries) = self.random;
        let name = source.describe();
        let sizes = source.sizes().map(|s| format!("; {s}")).unwrap_or_default();
        if self.sample {
            return format!("the {} inputs came from {name}{how}{sizes}", stats.passed);
        }
        let note = format!(
            "random inputs met the filter {passed} times in {tries} tries; {} more inputs came from {name}{how}{sizes}",
            stats.passed - passed
        );
        // A source that supplied nothing (it could not build the inputs)
        // topped nothing up: the filter's warning stays.
        if stats.passed > passed {
            stats.topped_up = Some(name);
        }
        note
    }

    /// The source stopped short of what was asked: a pass only where a
    /// partial run is allowed, else the run gives up (a top-up) or is
    /// incomplete, and says how far it got.
    fn stopped(&self, stats: &mut RunStats, notes: &mut Vec<String>, why: String, source: &CaseSource) -> Searched {
        let config = &self.engine.config;
        let partial = config.allow_partial && stats.passed > 0;
        if self.top_up && partial {
            notes.push(self.topped_up(stats, source, &format!(" ({why}; a partial run, as `allow_partial` allows)")));
            Searched::over(RunVerdict::Passed)
        } else if self.sample {
            let reason = format!("{why}: {} of the {} cases asked for were tested", stats.passed, config.cases);
            Searched::over(RunVerdict::GaveUp { reason })
        } else if self.top_up {
            let (passed, tries) = self.random;
            let reason = format!(
                "random inputs met the filter {passed} times in {tries} tries, and {why}: {} of the {} cases asked \
                 for were tested",
                stats.passed, config.cases
            );
            Searched::over(RunVerdict::GaveUp { reason })
        } else if partial {
            notes.push(format!("{why} (a partial run, as `allow_partial` allows)"));
            Searched::over(RunVerdict::Passed)
        } else {
            Searched::over(RunVerdict::Incomplete { reason: why })
        }
    }

    /// The source has no more inputs: every valid input was tested (or,
    /// for a top-up, every one it had).
    fn complete(
        &self,
        stats: &mut RunStats,
        notes: &mut Vec<String>,
        source: &CaseSource,
        what: &str,
        depth: Option<u32>,
        tried: u64,
    ) -> Searched {
        let gave_up = |reason: String| Searched::over(RunVerdict::GaveUp { reason });
        let name = source.describe();
        let caveat = self.engine.config.coverage_caveat.clone();
        let but = caveat.as_ref().map(|c| format!("; {c}")).unwrap_or_default();
        if self.top_up {
            if stats.passed == 0 {
                let found = if tried == 0 { format!("no {what}") } else { format!("{tried} {what}, all rejected") };
                return gave_up(format!(
                    "random inputs met the filter in none of {} tries, and {name} found {found}",
                    self.random.1
                ));
            }
            notes.push(self.topped_up(stats, source, &format!(", which then had no more: all {tried} {what}{but}")));
            return Searched::over(RunVerdict::Passed);
        }
        stats.exhaustive = Some(ExhaustiveStats {
            depth: depth.unwrap_or(0),
            tried,
            complete: true,
            source: Some(name.clone()),
            caveat,
        });
        if tried == 0 {
            return gave_up(format!("no {what} exist: the spec is vacuous within these bounds ({name} found none)"));
        }
        if stats.passed == 0 {
            return gave_up(format!("every one of the {tried} {what} was rejected: {}", give_up_reason(stats)));
        }
        notes.push(format!("all {tried} {what} tested (from {name}{but})"));
        Searched::over(RunVerdict::Passed)
    }
}
