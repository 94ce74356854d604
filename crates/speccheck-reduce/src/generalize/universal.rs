//! Universal sub-value generalization (SmartCheck §5.1, Figure 5,
//! `extrapolate`): for each position (not below one already generalized),
//! draw `max_forall` fresh values; if at least `min_forall` of them pass
//! the precondition and all of those fail the same way, the position is
//! reported as `∀`. It is an extrapolation, not a proof: the report says
//! how many values were tested.

use speccheck_core::Fresh;
use speccheck_core::runner::CaseResult;

use crate::config::ReduceConfig;
use crate::oracle::{Oracle, Origin, Verdict};
use crate::view::{Position, View};

/// A position where every value tried failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forall {
    /// Span ordinal of the position.
    pub ordinal: usize,
    /// Fresh values that passed the precondition (all of them failed).
    pub failed: u32,
    /// Fresh values the precondition rejected (or that could not be
    /// generated).
    pub rejected: u32,
}

/// The `∀` positions of `case` among `positions` (breadth first).
pub fn universal(
    oracle: &mut Oracle<'_, '_>,
    case: &CaseResult,
    origin: &Origin,
    positions: &[Position],
    config: &ReduceConfig,
) -> Vec<Forall> {
    let view = View::new(&case.spans);
    let mut out: Vec<Forall> = Vec::new();
    for p in positions {
        if oracle.exhausted() {
            break;
        }
        if out.iter().any(|f| view.is_within(p.ordinal, f.ordinal)) {
            continue;
        }
        if let Some(f) = test_position(oracle, case, origin, p.ordinal, config) {
            out.push(f);
        }
    }
    out
}

/// Draws fresh values at `ordinal`: `Some` when enough passed the
/// precondition and every one of them failed the same way.
pub fn test_position(
    oracle: &mut Oracle<'_, '_>,
    case: &CaseResult,
    origin: &Origin,
    ordinal: usize,
    config: &ReduceConfig,
) -> Option<Forall> {
    let (mut failed, mut rejected) = (0u32, 0u32);
    for _ in 0..config.max_forall {
        if oracle.exhausted() {
            return None;
        }
        let size = oracle.below(config.max_size);
        let fresh = Fresh::random(oracle.next_seed(), size);
        let r = oracle.splice(case, ordinal, fresh, None);
        match oracle.judge(&r, origin) {
            Verdict::Same => failed += 1,
            Verdict::Rejected => rejected += 1,
            // One passing value (or one failing elsewhere) is enough to
            // refute the claim.
            Verdict::Pass | Verdict::Other => return None,
        }
    }
    (failed >= config.min_forall).then_some(Forall { ordinal, failed, rejected })
}
