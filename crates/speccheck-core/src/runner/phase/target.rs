//! The target phase: targeted property-based testing (Löscher and Sagonas,
//! ISSTA 2017; Hypothesis's `target()`). A property that reports scores
//! with [`target`](crate::target) gets half of its cases generated at
//! random; then, for each label, the run starts from the generated input
//! with the highest score and hill-climbs: it changes one choice of the
//! best input at a time — up and down by growing steps, then to a random
//! value — and keeps a change that raises the score. Every candidate is a
//! case of the run (it counts, and a failing one is shrunk and reported
//! like any other).

use std::time::Instant;

use super::{Origin, Searched, abandoned};
use crate::case::context::target_of;
use crate::case::{CaseResult, Outcome};
use crate::choice::ChoiceSequence;
use crate::runner::engine::Engine;
use crate::runner::report::{RunStats, RunVerdict};
use crate::runner::tally::count;
use crate::seed::case_seed;
use crate::test_case::Tail;
use crate::watch::Phase;

/// Mixed into the run seed for the target phase's random picks.
const TARGET_STREAM: u64 = 0x7461_7267_6574;

/// How one climb ended.
enum Climb {
    /// The budget or the time ran out; the best score reached.
    Done(f64),
    /// A candidate failed.
    Found(Box<CaseResult>),
    /// The run is over (a hang abandoned its thread).
    Abandoned,
}

impl Engine {
    /// Runs the target phase with the cases generation left: hill climbing
    /// from the best generated input of each label.
    pub(crate) fn climb_targets(
        &self,
        stats: &mut RunStats,
        warnings: &mut Vec<String>,
        deadline: Option<Instant>,
    ) -> Searched {
        let labels: Vec<String> = stats.targets.keys().cloned().collect();
        let remaining = self.config.shard_cases().saturating_sub(stats.passed);
        if labels.is_empty() || remaining == 0 {
            return Searched::over(RunVerdict::Passed);
        }
        let share = (remaining / labels.len() as u64).max(1);
        for (k, label) in labels.iter().enumerate() {
            let Some(case) = stats.targets.get(label).and_then(|t| t.case) else { continue };
            let start = self.watched_generated(case);
            if start.outcome.is_fail() {
                // It passed when generated: a flaky property.
                return Searched::found(start, self.input_number(case), Origin::Flaky);
            }
            let Some(score) = score_of(&start, label) else { continue };
            let climbed = self.climb(label, start.choices, score, share, k as u64, stats, deadline);
            match climbed {
                Climb::Done(best) => {
                    if let Some(t) = stats.targets.get_mut(label) {
                        t.best = t.best.max(best);
                    }
                }
                Climb::Found(r) => {
                    let number = stats.passed + stats.discarded + stats.invalid + 1;
                    return Searched::found(*r, number, Origin::Targeted);
                }
                Climb::Abandoned => return abandoned(),
            }
            if let Some(e) = &stats.target_error {
                return Searched::over(RunVerdict::Error(e.clone()));
            }
        }
        // A climb can end before its share (a best input that no longer
        // reports its score, one without choices to change): the run then
        // checked fewer cases than asked, and warns.
        let wanted = self.config.shard_cases();
        if stats.passed < wanted && !stats.time_budget_hit {
            warnings.push(format!(
                "the target phase ended before the run's {wanted} cases ({} passed): a label's best input did not \
                 report its score when run again, or had no choice left to change",
                stats.passed
            ));
        }
        Searched::over(RunVerdict::Passed)
    }

    /// Hill-climbs `label`'s score from `best` for at most `budget` cases.
    #[allow(clippy::too_many_arguments)]
    fn climb(
        &self,
        label: &str,
        best: ChoiceSequence,
        best_score: f64,
        budget: u64,
        stream: u64,
        stats: &mut RunStats,
        deadline: Option<Instant>,
    ) -> Climb {
        let mut at = Hill { label, best, best_score, spent: 0, budget };
        let mut step = 0u64;
        while at.spent < budget && stats.target_error.is_none() {
            if deadline.is_some_and(|d| Instant::now() > d) {
                stats.time_budget_hit = true;
                break;
            }
            if at.best.0.is_empty() {
                break;
            }
            let rnd = case_seed(self.seed ^ TARGET_STREAM ^ stream.rotate_left(32), step);
            step += 1;
            let i = (rnd % at.best.0.len() as u64) as usize;
            let mut improved = false;
            // Up, then down, doubling the step while the score rises.
            for up in [true, false] {
                let mut k = 1u64;
                while at.spent < budget {
                    let c = at.best.0[i];
                    let v = if up { c.value.checked_add(k).filter(|v| *v <= c.max) } else { c.value.checked_sub(k) };
                    let Some(v) = v else { break };
                    match at.try_value(self, i, v, stats) {
                        Ok(true) => {}
                        Ok(false) => break,
                        Err(end) => return end,
                    }
                    improved = true;
                    k = k.saturating_mul(2);
                }
                if improved {
                    break;
                }
            }
            if !improved && at.spent < budget {
                // A jump: this choice anywhere in its range.
                let max = at.best.0[i].max;
                let v = if max == u64::MAX { rnd >> 7 } else { (rnd >> 7) % (max + 1) };
                if let Err(end) = at.try_value(self, i, v, stats) {
                    return end;
                }
            }
        }
        if let Some(t) = stats.targets.get_mut(label) {
            t.climbs += at.spent;
        }
        Climb::Done(at.best_score)
    }
}

/// Where one climb stands.
struct Hill<'l> {
    label: &'l str,
    best: ChoiceSequence,
    best_score: f64,
    spent: u64,
    budget: u64,
}

impl Hill<'_> {
    /// Runs the best input with choice `i` set to `value`; keeps it when
    /// it raises the score (`Ok(true)`). `Err`: the climb is over.
    fn try_value(&mut self, engine: &Engine, i: usize, value: u64, stats: &mut RunStats) -> Result<bool, Climb> {
        if engine.watch.is_abandoned() {
            return Err(Climb::Abandoned);
        }
        debug_assert!(self.spent < self.budget);
        self.spent += 1;
        let mut cand = self.best.clone();
        cand.0[i].value = value;
        let number = stats.passed + stats.discarded + stats.invalid + 1;
        engine.watch.begin_known(0, Phase::Enumerate, number, &cand.0);
        let r = engine.executor.run(engine.replay_case(&cand, Tail::Simplest));
        engine.watch.end(0);
        if r.outcome.is_fail() {
            return Err(Climb::Found(Box::new(r)));
        }
        let score = matches!(r.outcome, Outcome::Pass).then(|| score_of(&r, self.label)).flatten();
        let better = score.is_some_and(|s| s > self.best_score);
        if better {
            self.best_score = score.unwrap_or(self.best_score);
            self.best = r.choices.clone();
        }
        count(stats, None, r.outcome, r.labels);
        Ok(better)
    }
}

/// The highest score `r` reported under `label`.
fn score_of(r: &CaseResult, label: &str) -> Option<f64> {
    r.labels.iter().filter_map(|l| target_of(l)).filter(|(n, _)| *n == label).map(|(_, s)| s).reduce(f64::max)
}
