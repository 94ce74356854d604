//! Counting the cases a run tried: passes, discards, invalid inputs and the
//! reasons for them, and when the count says the run is over (enough
//! passes, or too many rejections to go on).

use super::report::RunStats;
use crate::case::{FailureInfo, Outcome};
use crate::test_case::Invalid;

/// Why a count says the run is over.
pub(crate) enum Full {
    /// The run has the passing cases it asked for.
    Enough,
    /// Rejections passed the limit: the run gives up, saying why.
    GaveUp(String),
}

/// The generation phase's running count of cases: the run's statistics,
/// with the limits that end it.
pub(crate) struct Tally<'s> {
    pub(crate) stats: &'s mut RunStats,
    cases: u64,
    max_rejects: u64,
}

impl<'s> Tally<'s> {
    /// A count toward `cases` passing cases, giving up past `max_rejects`
    /// rejected ones.
    pub(crate) fn new(stats: &'s mut RunStats, cases: u64, max_rejects: u64) -> Self {
        Tally { stats, cases, max_rejects }
    }

    /// Counts a case that passed and recorded nothing (the hot path).
    #[inline]
    pub(crate) fn pass(&mut self) {
        self.stats.passed += 1;
    }

    /// Counts one case; returns the failure if it failed.
    #[inline]
    pub(crate) fn count(&mut self, outcome: Outcome, labels: Vec<String>) -> Option<FailureInfo> {
        count(self.stats, outcome, labels)
    }

    /// True when the run is over by count (see [`full`](Self::full)).
    #[inline]
    pub(crate) fn is_full(&self) -> bool {
        self.stats.passed >= self.cases || self.rejected() > self.max_rejects
    }

    /// Whether the run is over by count, and why.
    pub(crate) fn full(&self) -> Option<Full> {
        if self.stats.passed >= self.cases {
            Some(Full::Enough)
        } else if self.rejected() > self.max_rejects {
            Some(Full::GaveUp(give_up_reason(self.stats)))
        } else {
            None
        }
    }

    /// How many more passing cases the run asks for.
    pub(crate) fn missing(&self) -> u64 {
        self.cases.saturating_sub(self.stats.passed)
    }

    fn rejected(&self) -> u64 {
        self.stats.discarded + self.stats.invalid
    }
}

/// Counts one case into `stats`; returns the failure if it failed.
#[inline]
pub(crate) fn count(stats: &mut RunStats, outcome: Outcome, labels: Vec<String>) -> Option<FailureInfo> {
    match outcome {
        Outcome::Pass => {
            stats.passed += 1;
            for l in labels {
                *stats.labels.entry(l).or_default() += 1;
            }
            None
        }
        Outcome::Discard { reason } => {
            stats.discarded += 1;
            *stats.discard_reasons.entry(reason).or_default() += 1;
            None
        }
        Outcome::Invalid(why) => {
            stats.invalid += 1;
            *stats.discard_reasons.entry(describe_invalid(&why)).or_default() += 1;
            None
        }
        Outcome::Fail(info) => Some(info),
    }
}

/// Why an input could not be made, for people.
pub(crate) fn describe_invalid(why: &Invalid) -> String {
    match why {
        Invalid::Overrun => {
            "the generator needed more choices than allowed (an unbounded or too deep generator)".into()
        }
        Invalid::FilterExhausted { name, tries } => format!("filter `{name}` rejected {tries} candidates in a row"),
        Invalid::NotSmaller => "a replacement was not smaller".into(),
        Invalid::Duplicate => "the input was already tried".into(),
        Invalid::Other(s) => s.clone(),
    }
}

/// The most frequent reason inputs were rejected, with its count.
pub(crate) fn give_up_reason(stats: &RunStats) -> String {
    match stats.discard_reasons.iter().max_by_key(|(_, n)| **n) {
        Some((reason, n)) => format!("{reason} ({n} times)"),
        None => "every input was rejected".to_string(),
    }
}
