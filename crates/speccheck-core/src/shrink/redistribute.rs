//! Redistribution: move magnitude from one integer choice to a later one
//! (`[33, 967]` toward `[0, 1000]`), so that a later pass can delete the
//! emptied value. Helps properties over sums and totals.

use super::Shrinker;
use crate::choice::ChoiceKind;

/// How far ahead to look for a partner choice.
const WINDOW: usize = 8;

/// For pairs of nearby integer choices, lowers the first and raises the
/// second by the same amount (all of it first, then by halving).
pub(crate) fn redistribute_pairs(s: &mut Shrinker<'_>) {
    let mut i = 0;
    while i < s.best().choices.len() && !s.exhausted() {
        let mut j = i + 1;
        while j < s.best().choices.len().min(i + 1 + WINDOW) && !s.exhausted() {
            let (a, b) = (s.best().choices.0[i], s.best().choices.0[j]);
            if a.kind == ChoiceKind::Integer && b.kind == ChoiceKind::Integer && a.value > 0 && b.max > b.value {
                let mut amount = a.value.min(b.max - b.value);
                // The best case stays as it is until a candidate succeeds.
                while amount > 0 && !s.exhausted() {
                    if s.consider_values(&[(i, a.value - amount), (j, b.value + amount)]) {
                        break;
                    }
                    amount /= 2;
                }
            }
            j += 1;
        }
        i += 1;
    }
}
