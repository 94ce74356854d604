//! The phases of a run, one module each, as methods of the
//! [`Engine`](super::engine::Engine) that composes them:
//!
//! | phase | module | ends with |
//! |---|---|---|
//! | replay `SPECCHECK_REPLAY`, a start input, explicit examples, saved failures | [`replay`] | a failure, a verdict, or nothing |
//! | generation: random ([`generate`]), exhaustive ([`exhaust`]), from an input source ([`sourced`]) | [`generation`] | a failure or a verdict |
//! | target: hill climbing on `target` scores, after generation | [`target`] | a failure or a verdict |
//! | shrink | [`shrink`] | a smaller failure |
//! | explain | [`explain`] | a smaller failure, report sections |
//! | final replay | [`final_replay`] | the verdict |
//! | persist | [`persist`] | the failure saved |
//! | a hang, reported from the watching thread | [`hang`] | a timeout report |

pub(crate) mod exhaust;
pub(crate) mod explain;
pub(crate) mod final_replay;
pub(crate) mod generate;
pub(crate) mod generation;
pub(crate) mod hang;
pub(crate) mod persist;
pub(crate) mod replay;
pub(crate) mod shrink;
pub(crate) mod sourced;
pub(crate) mod target;

use super::report::{RunVerdict, Section};
use crate::case::{CaseResult, FailureInfo};
use crate::choice::ChoiceSequence;
use crate::shrink::ShrinkStats;

/// A failing case, and where it came from.
pub(crate) struct Found {
    pub(crate) case: CaseResult,
    /// The input number it was found at (0: not by generation).
    pub(crate) found_after: u64,
    pub(crate) origin: Origin,
}

/// Where a failing case came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    /// A random or enumerated input, or one from an input source.
    Generated,
    /// The generator's simplest input, run first.
    Simplest,
    /// An input that failed once and not when run again: flaky from the
    /// start, neither shrunk nor explained.
    Flaky,
    /// The input of `SPECCHECK_REPLAY`: shown as given, neither shrunk nor
    /// reduced (replaying a reported counterexample must show that
    /// counterexample).
    Replayed,
    /// The input the run was asked to start from (`Config::start_from`).
    StartFrom,
    /// A failure saved by an earlier run.
    Database,
    /// An explicit example (numbered from 1 in the order given).
    Example(usize),
    /// A candidate of the target phase's hill climbing.
    Targeted,
}

impl Origin {
    /// How the report names where the failure came from, if it says.
    pub(crate) fn describe(self) -> Option<String> {
        let text = match self {
            Origin::Generated | Origin::Flaky => return None,
            Origin::Targeted => "an input of the target phase (hill climbing on a `target` score)",
            Origin::Example(n) => return Some(format!("explicit example {n}")),
            Origin::Simplest => "its simplest input",
            Origin::Replayed => "the input given by SPECCHECK_REPLAY (shown as given, not shrunk)",
            Origin::StartFrom => "the input the run started from",
            Origin::Database => "a failure saved by an earlier run",
        };
        Some(text.to_string())
    }
}

/// How a phase that looks for failures ended.
pub(crate) enum Searched {
    /// A failure to shrink and explain.
    Found(Box<Found>),
    /// The run is over with this verdict, and these notes for its report.
    Over(RunVerdict, Vec<String>),
    /// Nothing found: the next phase goes on.
    Nothing,
}

impl Searched {
    /// The run is over with `verdict` and no notes.
    pub(crate) fn over(verdict: RunVerdict) -> Self {
        Searched::Over(verdict, Vec::new())
    }

    /// A failure, found after `found_after` inputs.
    pub(crate) fn found(case: CaseResult, found_after: u64, origin: Origin) -> Self {
        Searched::Found(Box::new(Found { case, found_after, origin }))
    }
}

/// A shrunk and explained counterexample, before its final replay.
pub(crate) struct LastStep {
    pub(crate) best: CaseResult,
    /// The failing case as found and confirmed, before shrinking.
    pub(crate) confirmed: ChoiceSequence,
    pub(crate) first_info: FailureInfo,
    pub(crate) found_after: u64,
    pub(crate) original_choices: usize,
    pub(crate) shrink_stats: Option<ShrinkStats>,
    pub(crate) sections: Vec<Section>,
    pub(crate) source: Option<String>,
}

/// The run was abandoned (a case hung): the watching thread reports it.
pub(crate) fn abandoned() -> Searched {
    Searched::over(RunVerdict::Error("abandoned".into()))
}
