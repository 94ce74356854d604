//! Minimization passes: make sub-values and single choices simpler.

use super::Shrinker;
use crate::choice::{Choice, ChoiceKind};
use crate::span::SpanKind;
use crate::test_case::Fresh;

/// Replaces each value span, outermost first, by the simplest value its
/// generator makes (all further choices 0): an expression becomes its first
/// leaf constructor, a collection becomes empty, a number 0.
pub(crate) fn simplest_subvalues(s: &mut Shrinker<'_>) {
    let mut i = 0;
    while i < s.best().spans.len() && !s.exhausted() {
        let span = s.best().spans.spans[i];
        let all_zero = s.best().choices.0[span.range()].iter().all(|c| c.value == 0);
        if span.kind == SpanKind::Value && !span.is_empty() && !all_zero {
            s.consider_splice(i, Fresh::simplest());
        }
        i += 1;
    }
}

/// For each value span that starts with a constructor choice, tries every
/// smaller constructor with the simplest fields.
pub(crate) fn lower_constructors(s: &mut Shrinker<'_>) {
    let mut i = 0;
    while i < s.best().spans.len() && !s.exhausted() {
        let span = s.best().spans.spans[i];
        let first = s.best().choices.0.get(span.start as usize).copied();
        if let Some(c) = first
            && span.kind == SpanKind::Value
            && c.kind == ChoiceKind::Index
            && c.value > 0
        {
            for lower in 0..c.value.min(16) {
                let fresh = Fresh::starting_with(vec![Choice { value: lower, ..c }]);
                if s.consider_splice(i, fresh) {
                    break;
                }
            }
        }
        i += 1;
    }
}

/// Shrinks each choice on its own: 0 first, then a binary search for the
/// smallest value that still fails.
pub(crate) fn minimize_choices(s: &mut Shrinker<'_>) {
    let mut i = 0;
    while i < s.best().choices.len() && !s.exhausted() {
        minimize_one(s, i);
        i += 1;
    }
}

/// Largest value probed upwards from 0 before bisecting.
const SMALL_PROBES_UP_TO: u64 = 15;

fn minimize_one(s: &mut Shrinker<'_>, i: usize) {
    let Some(current) = s.best().choices.0.get(i).map(|c| c.value) else { return };
    if current == 0 {
        return;
    }
    // Every candidate below is the best case with slot `i` changed: the
    // search stops as soon as the best case no longer has it where it was.
    if s.consider_values(&[(i, 0)]) {
        return;
    }
    // Invariant: `lo` did not fail, `hi` does.
    let (mut lo, mut hi) = (0u64, current);
    // Minimal values are often small (only the order of the numbers
    // mattered): probe 1, 3, 7, 15 before bisecting, so such a value costs
    // a few tests instead of the bit length of where it started.
    let mut probe = 1;
    while probe <= SMALL_PROBES_UP_TO && probe < hi && !s.exhausted() {
        if s.consider_values(&[(i, probe)]) {
            hi = probe;
            if s.best().choices.0.get(i).map(|c| c.value) != Some(probe) {
                return;
            }
            break;
        }
        lo = probe;
        probe = probe * 2 + 1;
    }
    while lo + 1 < hi && !s.exhausted() {
        let mid = lo + (hi - lo) / 2;
        if s.consider_values(&[(i, mid)]) {
            hi = mid;
            // The structure may have changed: stop if the slot moved.
            if s.best().choices.0.get(i).map(|c| c.value) != Some(mid) {
                return;
            }
        } else {
            lo = mid;
        }
    }
}
