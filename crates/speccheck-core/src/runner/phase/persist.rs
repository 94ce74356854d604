//! The persist phase: a failure is saved as its choices in the failure
//! database (see [`crate::database`]), where the next run replays it first.
//! Read-only runs (the CI profile) and expected failures save nothing; a
//! database that cannot be written is a warning, never a lost verdict.

use std::path::PathBuf;

use crate::case::{CaseResult, FailureInfo, FailureKind};
use crate::database::StoredFailure;
use crate::runner::engine::Engine;

impl Engine {
    /// Saves `case`'s failure; returns where, when it was saved.
    pub(crate) fn persist(&self, case: &CaseResult, info: &FailureInfo, warnings: &mut Vec<String>) -> Option<PathBuf> {
        let db = self.db.as_ref()?;
        if !self.config.database_writes || self.config.expected_failure {
            return None;
        }
        let stored = StoredFailure {
            choices: case.choices.clone(),
            message: info.message.clone(),
            crashed: info.kind == FailureKind::Crash,
        };
        match db.save(&self.config.name, stored) {
            Ok(()) => Some(PathBuf::from(db.location(&self.config.name))),
            Err(e) => {
                warnings.push(format!("could not save the failure to {}: {e}", db.location(&self.config.name)));
                None
            }
        }
    }
}
