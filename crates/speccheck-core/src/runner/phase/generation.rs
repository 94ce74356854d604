//! The generation phase: where a run's inputs come from when no known input
//! failed. Random generation by default; every input up to a depth with
//! `exhaustive`; an input source's inputs instead of the generator's, or
//! after random generation when a filter rejected most of its values.

use std::time::Instant;

use super::Searched;
use crate::runner::engine::Engine;
use crate::runner::report::{RunStats, RunVerdict};
use crate::runner::source::Sourced;

impl Engine {
    /// Runs the generation phase this run's settings ask for.
    pub(crate) fn generation(&self, stats: &mut RunStats, warnings: &mut Vec<String>, started: Instant) -> Searched {
        let mut notes = Vec::new();
        let source = self.source.lock().unwrap_or_else(|e| e.into_inner()).take();
        let searched = match (source, self.config.exhaustive) {
            (Some(Sourced::Instead(mut source)), _) => {
                let s = self.sourced(&mut source, stats, &mut notes, started, false);
                warnings.extend(source.warnings());
                s
            }
            (_, Some(depth)) => self.exhaust(depth, stats, &mut notes, started),
            (fallback, None) => {
                let s = self.generate(stats, started);
                // Topped up when the filter rejected most values and the
                // run is short of its cases.
                let rejected = stats.discarded + stats.invalid;
                let short = stats.passed < u64::from(self.config.cases) && rejected > stats.passed;
                let gave_up_or_passed = matches!(s, Searched::Over(RunVerdict::Passed | RunVerdict::GaveUp { .. }, _));
                match fallback {
                    Some(Sourced::Fallback(make)) if gave_up_or_passed && short => {
                        let mut source = make();
                        let s = self.sourced(&mut source, stats, &mut notes, started, true);
                        warnings.extend(source.warnings());
                        s
                    }
                    _ => s,
                }
            }
        };
        match searched {
            Searched::Over(verdict, mut more) => {
                notes.append(&mut more);
                Searched::Over(verdict, notes)
            }
            other => other,
        }
    }
}
