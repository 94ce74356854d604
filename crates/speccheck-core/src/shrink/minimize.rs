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
    let mut tried = Vec::new();
    let mut probe = 1;
    while probe <= SMALL_PROBES_UP_TO && probe < hi && !s.exhausted() {
        tried.push(probe);
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
        tried.push(mid);
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
    // Bisection assumes that failing is monotone in the value; for signed
    // integers (ordered 0, 1, -1, 2, -2, …) it is not: `[-2, 0]` fails,
    // `[2, 0]` passes, and `[-1, 0]` fails again. Among the smallest values
    // a few more tests find such a minimum.
    for v in 1..hi.min(SMALL_SCAN_BELOW) {
        if s.exhausted() {
            return;
        }
        if tried.contains(&v) {
            continue;
        }
        if s.consider_values(&[(i, v)]) {
            return;
        }
    }
}

/// Values below this are each tried once bisection has stopped.
const SMALL_SCAN_BELOW: u64 = 8;

/// Most groups of equal values [`lower_duplicates`] tries per pass.
const MAX_DUPLICATE_GROUPS: usize = 32;

/// Lowers integer choices that hold the same value *together* (Hypothesis's
/// `minimize_duplicated_choices`): values that must stay equal — an index
/// used in several places, a key inserted then looked up — cannot shrink
/// one at a time, each alone would break the failure. 0 first, then a
/// binary search on the common value.
pub(crate) fn lower_duplicates(s: &mut Shrinker<'_>) {
    let mut tried = Vec::new();
    while tried.len() < MAX_DUPLICATE_GROUPS && !s.exhausted() {
        let Some((value, positions)) = next_duplicate_group(s.best().choices.0.as_slice(), &tried) else { return };
        tried.push(value);
        let set = |v: u64| positions.iter().map(|&i| (i, v)).collect::<Vec<_>>();
        if s.consider_values(&set(0)) {
            continue;
        }
        let (mut lo, mut hi) = (0u64, value);
        while lo + 1 < hi && !s.exhausted() {
            let mid = lo + (hi - lo) / 2;
            if s.consider_values(&set(mid)) {
                hi = mid;
                // The structure may have changed: the group is gone.
                if positions.iter().any(|&i| s.best().choices.0.get(i).map(|c| c.value) != Some(mid)) {
                    break;
                }
            } else {
                lo = mid;
            }
        }
    }
}

/// The largest group of integer choices (at least two) sharing a non-zero
/// value not yet in `tried`: its value and positions.
fn next_duplicate_group(choices: &[Choice], tried: &[u64]) -> Option<(u64, Vec<usize>)> {
    let mut groups: std::collections::BTreeMap<u64, Vec<usize>> = std::collections::BTreeMap::new();
    for (i, c) in choices.iter().enumerate() {
        if c.kind == ChoiceKind::Integer && c.value > 0 && !tried.contains(&c.value) {
            groups.entry(c.value).or_default().push(i);
        }
    }
    groups.into_iter().filter(|(_, p)| p.len() >= 2).max_by_key(|(v, p)| (p.len(), *v))
}

/// Choices with more options than this are left to the other passes by
/// [`lower_pairs`].
const PAIR_DOMAIN: u64 = 32;
/// Most small choices [`lower_pairs`] pairs up.
const PAIR_CHOICES: usize = 16;
/// Most candidates [`lower_pairs`] runs per pass.
const PAIR_TRIES: usize = 64;

/// Lowers two small choices at once (the second with the later choices
/// equal to it), trying the pairs of smaller values: two picks from
/// different pools that must be the same value (a needle and the bytes of
/// its haystack, `select`ed from lists that hold the byte at different
/// positions) cannot move one at a time, and need not be equal as choices
/// for [`lower_duplicates`] to see them. Only once the other
/// passes are stuck (it runs last), within a few dozen runs.
pub(crate) fn lower_pairs(s: &mut Shrinker<'_>) {
    let small: Vec<usize> = s
        .best()
        .choices
        .0
        .iter()
        .enumerate()
        .filter(|(_, c)| {
            matches!(c.kind, ChoiceKind::Integer | ChoiceKind::Index) && c.value > 0 && c.max < PAIR_DOMAIN
        })
        .map(|(i, _)| i)
        .take(PAIR_CHOICES)
        .collect();
    let mut tries = 0;
    for (x, &i) in small.iter().enumerate() {
        for &j in &small[x + 1..] {
            let c = &s.best().choices.0;
            let (vi, (vj, mj, kj)) = (c[i].value, (c[j].value, c[j].max, c[j].kind));
            // `j` moves with the choices equal to it (the needle in two
            // places of the haystack).
            let group: Vec<usize> =
                (i + 1..c.len()).filter(|&k| c[k].value == vj && c[k].max == mj && c[k].kind == kj).collect();
            if group.first() != Some(&j) {
                continue;
            }
            for a in 0..vi {
                for b in (0..=mj).filter(|&b| b != vj) {
                    if tries >= PAIR_TRIES || s.exhausted() {
                        return;
                    }
                    tries += 1;
                    let mut changes = vec![(i, a)];
                    changes.extend(group.iter().map(|&k| (k, b)));
                    if s.consider_values(&changes) {
                        // The case changed under the positions: the next
                        // round starts over.
                        return;
                    }
                }
            }
        }
    }
}
