//! The replay phase: inputs known before generating any. First the input
//! of `SPECCHECK_REPLAY` (checked to be made for this property and to fit
//! its generator), then the input the run was told to start from, then
//! the explicit examples (`#[example]`), then the failures earlier runs
//! saved. A saved failure that no longer fails
//! is forgotten; one that no longer fits the generator is dropped with a
//! warning.

use super::{Origin, Searched};
use crate::case::Outcome;
use crate::choice::ChoiceSequence;
use crate::runner::engine::Engine;
use crate::runner::report::{RunStats, RunVerdict};
use crate::runner::tally::describe_invalid;
use crate::test_case::CaseControl as _;
use crate::test_case::Tail;
use crate::watch::Phase;

impl Engine {
    /// Runs the known inputs: a failure among them is the run's.
    pub(crate) fn replay(&self, stats: &mut RunStats, warnings: &mut Vec<String>) -> Searched {
        match self.replay_explicit() {
            Err(e) => return Searched::over(RunVerdict::Error(e)),
            Ok(Some(found)) => return found,
            Ok(None) if self.config.replay.is_some() => {
                stats.passed = 1;
                stats.replayed = true;
                let note = "only the input given by SPECCHECK_REPLAY was run, and it passed".to_string();
                return Searched::Over(RunVerdict::Passed, vec![note]);
            }
            Ok(None) => {}
        }
        if let Some(start) = &self.config.start_from {
            return self.replay_start(start, stats);
        }
        match self.replay_examples(stats, warnings) {
            Searched::Nothing => self.replay_database(warnings),
            other => other,
        }
    }

    /// Runs the explicit examples, in the order given: the first that
    /// fails is the run's. They count as passing cases of the run.
    fn replay_examples(&self, stats: &mut RunStats, warnings: &mut Vec<String>) -> Searched {
        if !self.config.phases.explicit {
            return Searched::Nothing;
        }
        for (i, seq) in self.config.examples.iter().enumerate() {
            let number = i + 1;
            self.watch.begin_known(0, Phase::Enumerate, number as u64, &seq.0);
            let r = self.executor.run(self.replay_case(seq, Tail::Stop));
            self.watch.end(0);
            match &r.outcome {
                Outcome::Fail(_) => return Searched::found(r, 0, Origin::Example(number)),
                Outcome::Pass => stats.examples_passed += 1,
                Outcome::Discard { reason } => warnings.push(format!(
                    "explicit example {number} of `{}` was rejected by `{reason}`: it tested nothing",
                    self.config.name
                )),
                Outcome::Invalid(why) => {
                    return Searched::over(RunVerdict::Error(format!(
                        "explicit example {number} of `{}` could not be rebuilt from its choices ({})",
                        self.config.name,
                        describe_invalid(why)
                    )));
                }
            }
        }
        Searched::Nothing
    }

    /// Runs the input of `SPECCHECK_REPLAY`, after checking that the string
    /// was made for this property and fits its generator.
    fn replay_explicit(&self) -> Result<Option<Searched>, String> {
        let Some(text) = &self.config.replay else { return Ok(None) };
        let (tag, seq) = ChoiceSequence::parse_replay_string(text)
            .map_err(|e| format!("SPECCHECK_REPLAY is not a replay string: {e}"))?;
        if let Some(tag) = tag {
            if tag.property != self.tag.property {
                return Err(format!(
                    "SPECCHECK_REPLAY was made for another property (its tag names property {:08x}; `{}` is {:08x}): \
                     run it with the test that printed it, or unset SPECCHECK_REPLAY",
                    tag.property, self.config.name, self.tag.property
                ));
            }
            if tag.input != self.tag.input {
                return Err(format!(
                    "SPECCHECK_REPLAY was made for `{}` when its inputs had another type (tag {:08x}, now {:08x}): \
                     the property's arguments changed since, so the string no longer describes an input",
                    self.config.name, tag.input, self.tag.input
                ));
            }
        }
        let r = self.watched_replay(&seq, self.replay_case(&seq, Tail::Stop).with_final(true));
        if let Outcome::Invalid(why) = &r.outcome {
            return Err(format!(
                "SPECCHECK_REPLAY does not describe an input of `{}`: {}",
                self.config.name,
                describe_invalid(why)
            ));
        }
        if r.misaligned > 0 || r.prefix_unused {
            return Err(format!(
                "SPECCHECK_REPLAY does not fit the generator of `{}` ({}): it was made for another property or \
                 before the generator changed",
                self.config.name,
                if r.prefix_unused { "choices were left over" } else { "some choices are out of their bounds" }
            ));
        }
        Ok(r.outcome.is_fail().then(|| Searched::found(r, 0, Origin::Replayed)))
    }

    /// Runs the input the run was told to start from: the run is that
    /// input's (a pass only if it ran whole and passed).
    fn replay_start(&self, start: &ChoiceSequence, stats: &mut RunStats) -> Searched {
        let r = self.watched_replay(start, self.replay_case(start, Tail::Simplest));
        let unreplayed = match &r.outcome {
            Outcome::Invalid(why) => Some(format!("it could not be rebuilt ({})", describe_invalid(why))),
            Outcome::Discard { reason } => Some(format!("it was rejected by `{reason}`")),
            _ => None,
        };
        if let Some(why) = unreplayed {
            let e = format!("the input the run started from was not replayed: {why}");
            return Searched::over(RunVerdict::Error(e));
        }
        if !r.outcome.is_fail() {
            stats.replayed = true;
            return Searched::over(RunVerdict::Passed);
        }
        Searched::found(r, 0, Origin::StartFrom)
    }

    /// Runs the failures earlier runs saved; the first that still fails is
    /// the run's.
    fn replay_database(&self, warnings: &mut Vec<String>) -> Searched {
        if self.config.expected_failure || !self.config.phases.reuse {
            return Searched::Nothing;
        }
        let Some(db) = self.db.as_ref() else { return Searched::Nothing };
        let (entries, found) = db.load(&self.config.name);
        warnings.extend(found.iter().map(ToString::to_string));
        for entry in entries {
            let r = self.watched_replay(&entry.choices, self.replay_case(&entry.choices, Tail::Stop));
            let stale = r.misaligned > 0
                || r.prefix_unused
                || matches!(r.outcome, Outcome::Invalid(_) | Outcome::Discard { .. });
            if r.outcome.is_fail() && !stale {
                return Searched::found(r, 0, Origin::Database);
            }
            if stale {
                warnings.push(format!(
                    "a saved failure of `{}` no longer fits its generator (the generator changed); dropped it",
                    self.config.name
                ));
            }
            if self.config.database_writes
                && let Err(e) = db.remove(&self.config.name, &entry.choices)
            {
                warnings.push(format!("could not update the failure database: {e}"));
            }
        }
        Searched::Nothing
    }
}
