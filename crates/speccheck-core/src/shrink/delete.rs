//! Deletion passes: remove whole sub-values, runs of choices, or lower a
//! choice and drop what followed it.

use super::{Shrinker, replaced};
use crate::choice::ChoiceKind;
use crate::span::SpanKind;

/// Deletes spans, last first: collection elements (slots) vanish with
/// their "more" choice; other spans are tried too.
pub(crate) fn delete_slots(s: &mut Shrinker<'_>) {
    let mut i = s.best().spans.len();
    while i > 0 && !s.exhausted() {
        i -= 1;
        let spans = &s.best().spans.spans;
        let Some(span) = spans.get(i).copied() else { continue };
        if span.is_empty() || span.kind == SpanKind::Value && span.len() == s.best().choices.len() {
            continue;
        }
        let candidate = replaced(&s.best().choices.0, span.range(), &[]);
        s.consider(&candidate);
    }
}

/// Deletes runs of 8, 4, 2 and 1 choices, from the end.
pub(crate) fn delete_chunks(s: &mut Shrinker<'_>) {
    for k in [8usize, 4, 2, 1] {
        let mut i = s.best().choices.len();
        while i >= k && !s.exhausted() {
            i -= 1;
            if i + k > s.best().choices.len() {
                continue;
            }
            let candidate = replaced(&s.best().choices.0, i..i + k, &[]);
            s.consider(&candidate);
        }
    }
}

/// Lowers an index or count choice by one and deletes the next few choices
/// (what the old, larger option had drawn).
pub(crate) fn lower_and_delete(s: &mut Shrinker<'_>) {
    let mut i = s.best().choices.len();
    while i > 0 && !s.exhausted() {
        i -= 1;
        let Some(c) = s.best().choices.0.get(i).copied() else { continue };
        if c.value == 0 || !matches!(c.kind, ChoiceKind::Index | ChoiceKind::Integer) {
            continue;
        }
        for k in [1usize, 2, 4, 8] {
            let choices = &s.best().choices.0;
            if i + 1 + k > choices.len() {
                break;
            }
            let mut lowered = c;
            lowered.value -= 1;
            let mut candidate = replaced(choices, i + 1..i + 1 + k, &[]);
            candidate[i] = lowered;
            if s.consider(&candidate) {
                break;
            }
        }
    }
}
