//! Redistribution: move magnitude from one integer choice to a later one
//! (`[33, 967]` toward `[0, 1000]`), so that a later pass can delete the
//! emptied value. Helps properties over sums and totals.

use super::Shrinker;
use crate::choice::ChoiceKind;

/// How far ahead to look for a partner choice.
const WINDOW: usize = 8;

/// For pairs of nearby integer choices, lowers the first and raises the
/// second by the same amount (all of it first, then by halving), again and
/// again while it helps: a pair whose sum must stay put (a total, a
/// wrapping overflow) moves in a few steps per halving here, instead of
/// one small move per round of every pass.
pub(crate) fn redistribute_pairs(s: &mut Shrinker<'_>) {
    let mut i = 0;
    while i < s.best().choices.len() && !s.exhausted() {
        let mut j = i + 1;
        while j < s.best().choices.len().min(i + 1 + WINDOW) && !s.exhausted() {
            while move_between(s, i, j) {}
            j += 1;
        }
        i += 1;
    }
}

/// One move of magnitude from choice `i` to choice `j`, the largest that
/// keeps the failure among all of it, half, a quarter… (into a partner at
/// zero, all of it only); false when none does (or the pair is not two
/// integers with room).
fn move_between(s: &mut Shrinker<'_>, i: usize, j: usize) -> bool {
    let (Some(&a), Some(&b)) = (s.best().choices.0.get(i), s.best().choices.0.get(j)) else { return false };
    if a.kind != ChoiceKind::Integer || b.kind != ChoiceKind::Integer || a.value == 0 || b.max == b.value {
        return false;
    }
    let full = a.value.min(b.max - b.value);
    let mut amount = full;
    // The best case stays as it is until a candidate succeeds.
    while amount > 0 && !s.exhausted() {
        // Into a partner at zero, only all of it: a value the failure
        // does not need sits at zero, and a search by halving there would
        // cost a run per halving for every such partner.
        if b.value == 0 && amount < full {
            break;
        }
        if s.consider_values(&[(i, a.value - amount), (j, b.value + amount)]) {
            return true;
        }
        amount /= 2;
    }
    false
}
