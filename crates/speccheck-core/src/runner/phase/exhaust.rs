//! The exhaustive phase (`exhaustive = depth`): every input up to a depth,
//! by a depth-first walk over choice sequences (see [`crate::enumerate`]),
//! bounded by `max_enumerated` and the time budget. A run stopped by
//! either did not do what its settings say: it is incomplete (not a pass)
//! unless the settings allow a partial run, and it says how large the
//! depth is and which depth would fit.

use std::time::Instant;

use super::{Origin, Searched, abandoned};
use crate::case::{CaseResult, Outcome};
use crate::choice::{Choice, ChoiceKind};
use crate::enumerate::{enumerating_case, estimate_count, next_prefix, take_widths};
use crate::human;
use crate::runner::engine::Engine;
use crate::runner::report::{ExhaustiveStats, RunStats, RunVerdict};
use crate::runner::tally::{count, give_up_reason};
use crate::test_case::Tail;
use crate::watch::Phase;

/// Random paths walked to estimate the size of an exhaustive run that
/// could not finish (Knuth's estimator, see [`estimate_count`]).
const ESTIMATE_PROBES: u32 = 400;

impl Engine {
    /// Runs every input up to `depth`.
    pub(crate) fn exhaust(
        &self,
        depth: u32,
        stats: &mut RunStats,
        notes: &mut Vec<String>,
        started: Instant,
    ) -> Searched {
        let mut prefix = Some(Vec::new());
        let mut tried = 0u64;
        while let Some(p) = prefix.take() {
            let over_time = self.config.time_budget.is_some_and(|b| started.elapsed() > b);
            if self.watch.is_abandoned() {
                return abandoned();
            }
            if tried >= self.config.max_enumerated || over_time {
                stats.time_budget_hit = over_time;
                let stop = self.partial_coverage(depth, tried, over_time);
                stats.exhaustive = Some(ExhaustiveStats {
                    depth,
                    tried,
                    complete: false,
                    source: None,
                    caveat: self.config.coverage_caveat.clone(),
                });
                if self.config.allow_partial {
                    notes.push(format!("{stop} (a partial run, as `allow_partial` allows)"));
                    return exhausted_verdict(stats, depth);
                }
                return Searched::over(RunVerdict::Incomplete { reason: stop });
            }
            // Its input is the prefix followed by simplest choices: a hang
            // is reported with it (rebuilt from the values, see `hang.rs`).
            let known: Vec<Choice> =
                p.iter().map(|&value| Choice { value, max: u64::MAX, kind: ChoiceKind::Index }).collect();
            self.watch.begin_known(0, Phase::Enumerate, tried + 1, &known);
            let mut tc = enumerating_case(p, depth);
            let (outcome, labels) = self.executor.run_in(&mut tc);
            self.watch.end(0);
            tried += 1;
            let widths = take_widths(&mut tc);
            let (choices, _) = tc.finish();
            prefix = next_prefix(&choices, &widths);
            if let Some(first) = count(stats, None, outcome, labels) {
                let r = self.watched(Phase::Generate, self.replay_case(&choices, Tail::Stop));
                if r.outcome.is_fail() {
                    return Searched::found(r, tried, Origin::Generated);
                }
                let case = CaseResult { outcome: Outcome::Fail(first), ..r };
                return Searched::found(case, tried, Origin::Flaky);
            }
        }
        let caveat = self.config.coverage_caveat.clone();
        let but = caveat.as_ref().map(|c| format!("; {c}")).unwrap_or_default();
        notes.push(format!("exhaustive: every input up to depth {depth} was tried ({tried} inputs{but})"));
        stats.exhaustive = Some(ExhaustiveStats { depth, tried, complete: true, source: None, caveat });
        exhausted_verdict(stats, depth)
    }

    /// What an exhaustive run that stopped early covered, how many inputs
    /// the depth has (estimated), and the deepest depth that fits the limit.
    fn partial_coverage(&self, depth: u32, tried: u64, over_time: bool) -> String {
        let limit = self.config.max_enumerated;
        let estimate = |d: u32| estimate_count(&*self.subject.draw, d, ESTIMATE_PROBES, self.seed);
        let total = estimate(depth);
        let why = if over_time {
            format!("the time budget of {} ran out", human::duration(self.config.time_budget.unwrap_or_default()))
        } else {
            format!("it reached the limit of {limit} inputs (`max_enumerated`)")
        };
        let fits = (1..depth).rev().map(|d| (d, estimate(d))).find(|&(_, n)| n <= limit as f64);
        let advice = match fits {
            Some((d, n)) => format!("depth {d} has about {} inputs", human::approx(n)),
            None => "even depth 1 is larger than the limit".to_string(),
        };
        format!(
            "exhaustive run to depth {depth} stopped after {tried} inputs because {why}: depth {depth} was not covered \
             (it has about {} inputs, estimated from {ESTIMATE_PROBES} random paths; {advice}). Lower `exhaustive`, \
             raise `max_enumerated`, or set `allow_partial = true` to accept a partial run",
            human::approx(total)
        )
    }
}

/// A finished exhaustive run: a pass, unless no input was accepted.
fn exhausted_verdict(stats: &RunStats, depth: u32) -> Searched {
    if stats.passed == 0 && stats.discarded + stats.invalid > 0 {
        let reason = format!("no input up to depth {depth} was accepted: {}", give_up_reason(stats));
        return Searched::over(RunVerdict::GaveUp { reason });
    }
    Searched::over(RunVerdict::Passed)
}
