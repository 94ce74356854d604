//! Counting the cases a run tried: passes, discards, invalid inputs and the
//! reasons for them, and when the count says the run is over (enough
//! passes, or too many rejections to go on).

use super::executor::SIMPLEST_CASE;
use super::report::{RunStats, TargetStats};
use crate::case::context::target_of;
use crate::case::{FailureInfo, Outcome};
use crate::observe::is_observation;
use crate::test_case::{Invalid, Reach};

/// A generated case as the tally counts it: its outcome, its labels, and
/// how far its input and its draws reached (the size health check). The
/// executors that run cases elsewhere (threads, a child process) hand it
/// back in this form.
pub(crate) type CaseCount = (Outcome, Vec<String>, (Reach, Reach));

/// Why a count says the run is over.
pub(crate) enum Full {
    /// The run has the passing cases it asked for.
    Enough,
    /// Rejections passed the limit: the run gives up, saying why.
    GaveUp(String),
    /// A `target` score was not a finite number.
    Error(String),
}

/// The generation phase's running count of cases: the run's statistics,
/// with the limits that end it.
pub(crate) struct Tally<'s> {
    pub(crate) stats: &'s mut RunStats,
    cases: u64,
    max_rejects: u64,
    /// The target phase is on: once scores come in, generation leaves it
    /// half of the cases.
    targeting: bool,
}

impl<'s> Tally<'s> {
    /// A count toward `cases` passing cases, giving up past `max_rejects`
    /// rejected ones.
    pub(crate) fn new(stats: &'s mut RunStats, cases: u64, max_rejects: u64, targeting: bool) -> Self {
        Tally { stats, cases, max_rejects, targeting }
    }

    /// Counts a case that passed and recorded nothing (the hot path);
    /// `reach` is how far its input and all it drew reached.
    #[inline]
    pub(crate) fn pass(&mut self, reach: (Reach, Reach)) {
        self.stats.passed += 1;
        self.reached(true, reach);
    }

    /// Counts generated case `index`, whose input and draws reached
    /// `reach`; returns the failure if it failed.
    #[inline]
    pub(crate) fn count(
        &mut self,
        index: u64,
        outcome: Outcome,
        labels: Vec<String>,
        reach: (Reach, Reach),
    ) -> Option<FailureInfo> {
        self.reached(matches!(outcome, Outcome::Pass), reach);
        count(self.stats, Some(index), outcome, labels)
    }

    #[inline(always)]
    fn reached(&mut self, passed: bool, (kept, drawn): (Reach, Reach)) {
        let sizes = &mut self.stats.sizes;
        if passed {
            sizes.checked = sizes.checked.max(kept);
        }
        sizes.drawn = sizes.drawn.max(drawn);
    }

    /// True when the run is over by count (see [`full`](Self::full)).
    #[inline]
    pub(crate) fn is_full(&self) -> bool {
        self.stats.passed >= self.generating()
            || self.rejected() > self.max_rejects
            || self.stats.target_error.is_some()
    }

    /// The passing cases generation runs: all of them, or half once the
    /// property reports [`target`](crate::target) scores (the target
    /// phase runs the other half, as Hypothesis splits its budget).
    fn generating(&self) -> u64 {
        if self.targeting && !self.stats.targets.is_empty() { self.cases - self.cases / 2 } else { self.cases }
    }

    /// Whether the run is over by count, and why.
    pub(crate) fn full(&self) -> Option<Full> {
        if let Some(e) = &self.stats.target_error {
            Some(Full::Error(e.clone()))
        } else if self.stats.passed >= self.generating() {
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

/// Counts one case into `stats` (`index`: its number, for a generated
/// case); returns the failure if it failed.
#[inline]
pub(crate) fn count(
    stats: &mut RunStats,
    index: Option<u64>,
    outcome: Outcome,
    labels: Vec<String>,
) -> Option<FailureInfo> {
    if let Some(observer) = &stats.observer {
        let how = match index {
            Some(SIMPLEST_CASE) => "generated: the simplest input".to_string(),
            Some(i) => format!("generated: random case {i}"),
            None => "generated: enumerated, from an input source, or by the target phase".to_string(),
        };
        let (status, reason) = match &outcome {
            Outcome::Pass => ("passed", String::new()),
            Outcome::Fail(f) => ("failed", format!("{} ({}){}", f.message, f.kind, at(f.location.as_deref()))),
            Outcome::Discard { reason } => ("gave_up", reason.clone()),
            Outcome::Invalid(why) => ("gave_up", describe_invalid(why)),
        };
        observer.test_case(status, &reason, &labels, &how);
    }
    match outcome {
        Outcome::Pass => {
            stats.passed += 1;
            for l in labels {
                if let Some((label, score)) = target_of(&l) {
                    record_target(stats, label, score, index);
                    continue;
                }
                if is_observation(&l) {
                    continue;
                }
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

/// Keeps the best score under `label` (and the generated case that made
/// it); a score that is not a finite number is an error of the run.
pub(crate) fn record_target(stats: &mut RunStats, label: &str, score: f64, index: Option<u64>) {
    if !score.is_finite() {
        stats.target_error.get_or_insert_with(|| {
            format!("target(score, {label:?}) was given {score}: a score must be a finite number")
        });
        return;
    }
    let t = stats.targets.entry(label.to_string()).or_insert(TargetStats {
        generated: score,
        best: score,
        case: index,
        climbs: 0,
    });
    if score > t.best {
        t.best = score;
        if index.is_some() {
            t.generated = score;
            t.case = index;
        }
    }
}

/// ` at file:line:col`, when the place is known.
fn at(location: Option<&str>) -> String {
    location.map(|l| format!(" at {l}")).unwrap_or_default()
}
