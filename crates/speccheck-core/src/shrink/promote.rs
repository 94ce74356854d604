//! The sub-value hypothesis (SmartCheck §4.3.1) at the choice level: a
//! value may be replaced by one of its own sub-values of the same type,
//! e.g. `Add(Div(..), C(3))` by its `Div(..)`. Works for any generator that
//! marks value spans.

use std::any::TypeId;

use super::{Shrinker, replace_into};
use crate::span::{Span, SpanKind};

/// Replaces each value span by each descendant value span of the same type.
pub(crate) fn promote_descendants(s: &mut Shrinker<'_>) {
    // The type of each value span, read once per best case (the pairs are
    // checked many times over: every span against each of its descendants).
    let mut types = value_types(&s.best().spans.spans);
    let mut i = 0;
    while i < s.best().spans.len() && !s.exhausted() {
        let outer = s.best().spans.spans[i];
        let Some(ty) = types[i].filter(|_| !outer.is_empty()) else {
            i += 1;
            continue;
        };
        let mut improved = false;
        // The best case is only replaced when a candidate succeeds, and
        // then this loop stops: the spans read here are the current ones.
        let mut k = i + 1;
        while let Some(&inner) = s.best().spans.spans.get(k) {
            if !(inner.start >= outer.start && inner.end <= outer.end && inner.depth > outer.depth) {
                break;
            }
            let same_type = types[k] == Some(ty);
            k += 1;
            if !same_type || inner.len() >= outer.len() {
                continue;
            }
            if s.consider_edit(|best, out| replace_into(best, outer.range(), &best[inner.range()], out)) {
                improved = true;
                types = value_types(&s.best().spans.spans);
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

/// The type of every value span (`None` for the other spans).
fn value_types(spans: &[Span]) -> Vec<Option<TypeId>> {
    spans.iter().map(|sp| (sp.kind == SpanKind::Value).then(|| sp.type_info().type_id)).collect()
}
