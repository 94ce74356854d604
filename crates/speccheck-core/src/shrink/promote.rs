//! The sub-value hypothesis (SmartCheck §4.3.1) at the choice level: a
//! value may be replaced by one of its own sub-values of the same type,
//! e.g. `Add(Div(..), C(3))` by its `Div(..)`. Works for any generator that
//! marks value spans.

use super::{Shrinker, replace_into};
use crate::span::SpanKind;

/// Replaces each value span by each descendant value span of the same type.
pub(crate) fn promote_descendants(s: &mut Shrinker<'_>) {
    let mut i = 0;
    while i < s.best().spans.len() && !s.exhausted() {
        let outer = s.best().spans.spans[i];
        if outer.kind != SpanKind::Value || outer.is_empty() {
            i += 1;
            continue;
        }
        let ty = outer.type_info().type_id;
        let mut improved = false;
        // The best case is only replaced when a candidate succeeds, and
        // then this loop stops: the spans read here are the current ones.
        let mut k = i + 1;
        while let Some(&inner) = s.best().spans.spans.get(k) {
            k += 1;
            if !(inner.start >= outer.start && inner.end <= outer.end && inner.depth > outer.depth) {
                break;
            }
            if inner.kind != SpanKind::Value || inner.len() >= outer.len() || inner.type_info().type_id != ty {
                continue;
            }
            if s.consider_edit(|best, out| replace_into(best, outer.range(), &best[inner.range()], out)) {
                improved = true;
                break;
            }
            if s.exhausted() {
                return;
            }
        }
        if !improved {
            i += 1;
        }
    }
}
