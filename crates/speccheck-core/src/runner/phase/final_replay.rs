//! The final replay: the counterexample is run once more, with its inputs
//! shown and notes recorded, and the failure must come back. One that does
//! not is flaky, never a pass; if the shrunk input does not fail again but
//! the input as found does, that one is reported, and the report says why.

use super::LastStep;
use crate::case::{CaseResult, FailureInfo, Outcome};
use crate::choice::ChoiceSequence;
use crate::runner::engine::Engine;
use crate::runner::report::{Counterexample, RunVerdict};
use crate::term::Term;
use crate::test_case::CaseControl as _;
use crate::test_case::{Tail, TestCase, catch_invalid};
use crate::watch::Phase;

impl Engine {
    /// Replays the counterexample and says what the run found.
    pub(crate) fn final_replay(&self, last: LastStep, warnings: &mut Vec<String>) -> RunVerdict {
        let LastStep { best, confirmed, first_info, found_after, original_choices, shrink_stats, sections, source } =
            last;
        let mut final_case = self.watched(Phase::Shrink, self.final_case(&best.choices));
        let mut fell_back = false;
        if !final_case.outcome.is_fail() && confirmed != best.choices {
            // The shrunk input did not fail again: its failure needed more
            // than the input (timing, scheduling). The input as found and
            // confirmed is still a reproducible counterexample: report it,
            // and say why it is not the shrunk one.
            let again = self.watched(Phase::Shrink, self.final_case(&confirmed));
            if again.outcome.is_fail() {
                final_case = again;
                fell_back = true;
            }
        }
        let Outcome::Fail(info) = &final_case.outcome else {
            let info = match &best.outcome {
                Outcome::Fail(i) => i.clone(),
                _ => first_info,
            };
            return RunVerdict::Flaky(Box::new(Counterexample {
                inputs: self.describe_choices(&best.choices),
                original_choices,
                shrink: shrink_stats,
                explanation: sections,
                source,
                ..self.counterexample(&best, info, found_after)
            }));
        };
        let saved_to = self.persist(&final_case, info, warnings);
        if fell_back {
            final_case.notes.push(
                "the shrunk input did not fail again when replayed (its failure depends on more than the input: \
                 timing, scheduling); shown is the input as found, which did"
                    .into(),
            );
        }
        RunVerdict::Failed(Box::new(Counterexample {
            saved_to,
            original_choices,
            shrink: shrink_stats,
            explanation: sections,
            source,
            ..self.counterexample(&final_case, info.clone(), found_after)
        }))
    }

    /// The counterexample `case` makes, found after `found_after` inputs,
    /// neither shrunk nor explained.
    pub(crate) fn counterexample(&self, case: &CaseResult, failure: FailureInfo, found_after: u64) -> Counterexample {
        let inputs = if case.shown.is_empty() { self.describe_choices(&case.choices) } else { case.shown.clone() };
        Counterexample {
            failure,
            choices: case.choices.clone(),
            inputs,
            notes: case.notes.clone(),
            backtrace: case.backtrace.clone(),
            found_after,
            original_choices: case.choices.len(),
            shrink: None,
            explanation: Vec::new(),
            saved_to: None,
            source: None,
            tag: Some(self.tag),
            rebuild: None,
        }
    }

    /// The inputs `choices` make, as the report shows them (their choices,
    /// when the input cannot be rebuilt or shown).
    pub(crate) fn describe_choices(&self, choices: &ChoiceSequence) -> Vec<(String, Term)> {
        let mut tc =
            TestCase::replay(choices.0.clone(), Tail::Simplest).with_final(true).with_max_depth(self.config.max_depth);
        let describe = self.subject.describe.clone();
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| catch_invalid(&mut tc, |tc| describe(tc)))) {
            Ok(Ok(inputs)) => inputs,
            // Showing it panicked (a user's `Debug`) or it no longer
            // generates: its choices are all there is to show.
            Ok(Err(_)) => vec![("choices".to_string(), Term::Atom(format!("{choices:?}")))],
            Err(_) => vec![(
                "input".to_string(),
                Term::Atom(format!("<cannot be shown: its Debug panicked; its choices are {choices:?}>")),
            )],
        }
    }

    /// The final run of `choices`: spans, inputs and notes recorded.
    fn final_case(&self, choices: &ChoiceSequence) -> TestCase {
        self.replay_case(choices, Tail::Stop).with_final(true)
    }
}
