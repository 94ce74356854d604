//! The generation phase: where a run's inputs come from when no known input
//! failed. Random generation by default; every input up to a depth with
//! `exhaustive`; an input source's inputs instead of the generator's (every
//! input it has, or random ones it samples), or after random generation
//! when a filter rejected most of its values.

use std::time::Instant;

use super::Searched;
use super::sourced::Mode;
use crate::runner::engine::Engine;
use crate::runner::report::{RunStats, RunVerdict};
use crate::runner::source::Sourced;

impl Engine {
    /// Whether an input source replaces random generation.
    fn has_source(&self) -> bool {
        matches!(
            *self.source.lock().unwrap_or_else(|e| e.into_inner()),
            Some(Sourced::Instead(_) | Sourced::Sampled(_))
        )
    }

    /// Runs the generation phase this run's settings ask for.
    pub(crate) fn generation(&self, stats: &mut RunStats, warnings: &mut Vec<String>, started: Instant) -> Searched {
        let mut notes = Vec::new();
        if !self.config.phases.generate {
            let note = "generation is off (phases): only explicit examples and saved failures ran".to_string();
            return Searched::Over(RunVerdict::Passed, vec![note]);
        }
        if self.config.shard.is_some() && (self.config.exhaustive.is_some() || self.has_source()) {
            warnings.push(
                "SPECCHECK_SHARD splits random cases only: this exhaustive or sourced run ran whole in this shard"
                    .to_string(),
            );
        }
        let source = self.source.lock().unwrap_or_else(|e| e.into_inner()).take();
        let searched = match (source, self.config.exhaustive) {
            (Some(Sourced::Instead(mut source)), _) => {
                let s = self.sourced(&mut source, stats, &mut notes, started, Mode::Cover);
                warnings.extend(source.warnings());
                s
            }
            (_, Some(depth)) => self.exhaust(depth, stats, &mut notes, started),
            (Some(Sourced::Sampled(mut source)), None) => {
                let s = self.sourced(&mut source, stats, &mut notes, started, Mode::Sample);
                warnings.extend(source.warnings());
                s
            }
            (fallback, None) => {
                let s = self.generate(stats, warnings, started);
                // Topped up when the filter rejected most values and the
                // run is short of its cases.
                let rejected = stats.discarded + stats.invalid;
                let short = stats.passed < u64::from(self.config.cases) && rejected > stats.passed;
                let gave_up_or_passed = matches!(s, Searched::Over(RunVerdict::Passed | RunVerdict::GaveUp { .. }, _));
                match fallback {
                    Some(Sourced::Fallback(make)) if gave_up_or_passed && short => {
                        let mut source = make();
                        let s = self.sourced(&mut source, stats, &mut notes, started, Mode::TopUp);
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
