//! A property as a fuzz target: a fuzzer's input is read as the choices
//! of the property's generator ([`crate::bytes`]), and a failure is handed
//! to the runner as the input to start from (`Config::start_from`), which
//! shrinks, explains, replays, reports and saves it as a run of the
//! property would. Nothing here knows a fuzzer: the facade's `fuzz`
//! feature wires a [`FuzzTarget`] to libFuzzer.

use std::path::{Component, Path};
use std::sync::Arc;
use std::time::Instant;

use super::config::Config;
use super::report::RunReport;
use super::run::Run;
use super::subject::Subject;
use crate::case::{CaseResult, Outcome};
use crate::choice::{ChoiceSequence, ReplayTag};
use crate::test_case::{CaseControl as _, TestCase};

type Finish = Arc<dyn Fn(RunReport) -> RunReport + Send + Sync>;

/// A property run on fuzzer inputs: build it with
/// [`Property::fuzz_target`](crate::Property::fuzz_target) (the facade's
/// `speccheck::fuzz_target!` does, from a `#[property]`).
pub struct FuzzTarget {
    name: String,
    tag: Option<ReplayTag>,
    state: State,
}

enum State {
    Ready(Box<Ready>),
    /// The property cannot run (an explicit example its generator cannot
    /// encode, a malformed `SPECCHECK_*` variable): this report says why.
    Broken(Box<RunReport>),
}

/// A target that can run: the run's settings, its test function, and
/// what finishes its reports.
struct Ready {
    config: Config,
    subject: Subject,
    finish: Finish,
}

/// What one fuzzer input did.
#[derive(Debug)]
pub enum FuzzOutcome {
    /// The property held.
    Passed,
    /// The input tested nothing: an `assume` rejected it, or a filter
    /// could not make a value from it. A fuzzer should not keep it.
    Rejected,
    /// The property failed: the report of the run that shrank, explained,
    /// replayed and saved the failure (the report `cargo test` prints).
    Failed(Box<RunReport>),
    /// The property cannot run at all; the report says why.
    Error(Box<RunReport>),
}

/// Why a replay string or corpus entry was not converted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FuzzError(pub String);

impl std::fmt::Display for FuzzError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FuzzError {}

impl FuzzTarget {
    pub(crate) fn new(
        config: Config,
        subject: Subject,
        finish: impl Fn(RunReport) -> RunReport + Send + Sync + 'static,
    ) -> Self {
        let tag = Some(ReplayTag::new(&config.name, subject.input_type));
        let name = config.name.clone();
        FuzzTarget { name, tag, state: State::Ready(Box::new(Ready { config, subject, finish: Arc::new(finish) })) }
    }

    pub(crate) fn broken(name: String, report: RunReport) -> Self {
        FuzzTarget { name, tag: None, state: State::Broken(Box::new(report)) }
    }

    /// The property's name (as its reports and failure store know it).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Runs the property on the input `bytes` decode to. A failure is
    /// shrunk, explained, replayed and saved (the failure store of the
    /// property, as `cargo test` would), and its report returned.
    pub fn check(&self, bytes: &[u8]) -> FuzzOutcome {
        let (config, subject, finish) = match &self.state {
            State::Ready(r) => (&r.config, &r.subject, &r.finish),
            State::Broken(report) => return FuzzOutcome::Error(report.clone()),
        };
        // The hot path records nothing: an input is a function of its
        // bytes, so a failing one is read again, recording its choices.
        let mut tc = TestCase::from_bytes(bytes).record_choices(false);
        let Some((outcome, _, _)) = crate::case::run_passing(&*subject.test, &mut tc) else {
            return FuzzOutcome::Passed;
        };
        match outcome {
            Outcome::Pass => return FuzzOutcome::Passed,
            Outcome::Discard { .. } | Outcome::Invalid(_) => return FuzzOutcome::Rejected,
            Outcome::Fail(_) => {}
        }
        let found = self.decode(subject, bytes);
        let mut config = config.clone();
        config.start_from = Some(found.choices);
        let report = Run { config, subject: subject.clone(), source: None, started: Instant::now() }.report();
        FuzzOutcome::Failed(Box::new(finish(report)))
    }

    /// The choices `bytes` make as this property's input (the generator
    /// and the body run once on them).
    pub fn choices(&self, bytes: &[u8]) -> Result<ChoiceSequence, FuzzError> {
        match &self.state {
            State::Ready(r) => Ok(self.decode(&r.subject, bytes).choices),
            State::Broken(report) => Err(FuzzError(report.to_string())),
        }
    }

    fn decode(&self, subject: &Subject, bytes: &[u8]) -> CaseResult {
        crate::case::execute(&*subject.test, TestCase::from_bytes(bytes))
    }

    /// The replay string (`SPECCHECK_REPLAY=…`, tagged with this property)
    /// of the input `bytes` decode to: a corpus entry or a fuzzer's crash
    /// artifact as `cargo test` replays it.
    pub fn replay_string(&self, bytes: &[u8]) -> Result<String, FuzzError> {
        let choices = self.choices(bytes)?;
        Ok(match self.tag {
            Some(tag) => choices.to_tagged_replay_string(tag),
            None => choices.to_replay_string(),
        })
    }

    /// The corpus entry of a replay string: bytes the fuzzer's input
    /// decodes to the same choices. A string made for another property
    /// (its tag names another property, or another input type) is refused.
    pub fn corpus_entry(&self, replay: &str) -> Result<Vec<u8>, FuzzError> {
        let (tag, choices) = ChoiceSequence::parse_replay_string(replay).map_err(|e| FuzzError(e.to_string()))?;
        if let (Some(given), Some(own)) = (tag, self.tag) {
            if given.property != own.property {
                return Err(FuzzError(format!(
                    "this replay string was made for another property (its tag names property {:08x}), not for `{}` \
                     ({:08x}): convert it with the fuzz target of the property that printed it",
                    given.property, self.name, own.property
                )));
            }
            if given.input != own.input {
                return Err(FuzzError(format!(
                    "this replay string was made for `{}` when its inputs had another type (tag {:08x}, now {:08x})",
                    self.name, given.input, own.input
                )));
            }
        }
        Ok(crate::bytes::to_bytes(&choices.0))
    }

    /// [`replay_string`](Self::replay_string) of the corpus entry or crash
    /// artifact at `path`, for the fuzz target named `target`. An entry
    /// filed under another target (`…/corpus/<other>/…` or
    /// `…/artifacts/<other>/…`, the layout of `cargo fuzz`) is refused by
    /// that name: its bytes would decode to some input of this property,
    /// but not to the one it was found as.
    pub fn replay_string_of_file(&self, path: &Path, target: &str) -> Result<String, FuzzError> {
        if let Some(owner) = corpus_owner(path)
            && owner != target
        {
            return Err(FuzzError(format!(
                "{} is an entry of fuzz target `{owner}`, not of `{target}` (property `{}`): convert it with `{owner}`",
                path.display(),
                self.name
            )));
        }
        let bytes = std::fs::read(path).map_err(|e| FuzzError(format!("cannot read {}: {e}", path.display())))?;
        self.replay_string(&bytes)
    }
}

/// The fuzz target a corpus entry or crash artifact is filed under, in
/// `cargo fuzz`'s layout: the directory below `corpus` or `artifacts`.
pub fn corpus_owner(path: &Path) -> Option<String> {
    let parts: Vec<&str> = path
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => s.to_str(),
            _ => None,
        })
        .collect();
    // The last `corpus`/`artifacts` directory with a directory and a file below it.
    (0..parts.len().saturating_sub(2))
        .rev()
        .find(|&i| parts[i] == "corpus" || parts[i] == "artifacts")
        .map(|i| parts[i + 1].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corpus_owner_reads_cargo_fuzz_layout() {
        assert_eq!(corpus_owner(Path::new("fuzz/corpus/parser/abc")).as_deref(), Some("parser"));
        assert_eq!(corpus_owner(Path::new("/x/fuzz/artifacts/machine/crash-1")).as_deref(), Some("machine"));
        assert_eq!(corpus_owner(Path::new("crash-1")), None);
        assert_eq!(corpus_owner(Path::new("corpus/crash-1")), None);
    }
}
