//! The two hypotheses that steer reduction.
//!
//! * **Variant hypothesis** (§4.2.1): other counterexamples are most likely
//!   of the same variant as this one, so an input keeps its outermost
//!   constructor: reduction starts at its children (an input without
//!   constructors — a collection, a hand-written value — may be replaced
//!   whole).
//! * **Sub-value hypothesis** (§4.3.1): the failure may sit in a sub-value
//!   deep inside, so a sub-value of the input's own type is tried in place
//!   of the whole input.

use speccheck_core::runner::CaseResult;
use speccheck_core::{Choice, SpanKind};

use crate::view::{Position, View};

/// The positions reduction may replace, breadth first: every non-opaque
/// sub-value, except an input's own root when it has a constructor to keep.
pub fn reduction_positions(view: &View<'_>, max_depth: Option<usize>) -> Vec<Position> {
    view.positions(max_depth)
        .into_iter()
        .filter(|p| p.level != 0 || view.constructor_names(p.ordinal).is_empty())
        .filter(|p| !view.span(p.ordinal).is_empty())
        .collect()
}

/// The choices of `case` with the input holding `p` replaced by the value
/// at `p`, when that value has the input's type (SmartCheck's `testHole`).
pub fn subvalue_candidate(view: &View<'_>, case: &CaseResult, p: Position) -> Option<Vec<Choice>> {
    if p.level == 0 {
        return None;
    }
    let outer = view.span(view.subjects()[p.subject]);
    let inner = view.span(p.ordinal);
    if outer.kind != SpanKind::Value
        || outer.type_info().type_id != inner.type_info().type_id
        || inner.len() >= outer.len()
    {
        return None;
    }
    let choices = &case.choices.0;
    let mut out = Vec::with_capacity(choices.len() - outer.len() + inner.len());
    out.extend_from_slice(&choices[..outer.start as usize]);
    out.extend_from_slice(&choices[inner.range()]);
    out.extend_from_slice(&choices[outer.end as usize..]);
    Some(out)
}
