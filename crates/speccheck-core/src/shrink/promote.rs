//! The sub-value hypothesis (SmartCheck §4.3.1) at the choice level: a
//! value may be replaced by one of its own sub-values of the same type,
//! e.g. `Add(Div(..), C(3))` by its `Div(..)`. Works for any generator that
//! marks value spans.

use super::{Shrinker, replaced};
use crate::span::SpanKind;

/// Replaces each value span by each descendant value span of the same type.
pub(crate) fn promote_descendants(s: &mut Shrinker<'_>) {
    let mut i = 0;
    while i < s.best().spans.len() && !s.exhausted() {
        let spans = s.best().spans.spans.clone();
        let outer = spans[i];
        if outer.kind != SpanKind::Value || outer.is_empty() {
            i += 1;
            continue;
        }
        let ty = outer.type_info().type_id;
        let mut improved = false;
        for inner in
            spans[i + 1..].iter().take_while(|d| d.start >= outer.start && d.end <= outer.end && d.depth > outer.depth)
        {
            if inner.kind != SpanKind::Value || inner.len() >= outer.len() || inner.type_info().type_id != ty {
                continue;
            }
            let choices = &s.best().choices.0;
            let sub = choices[inner.range()].to_vec();
            let candidate = replaced(choices, outer.range(), &sub);
            if s.consider(&candidate) {
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
