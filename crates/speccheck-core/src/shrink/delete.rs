//! Deletion passes: remove whole sub-values, runs of choices, or lower a
//! choice and drop what followed it.

use super::{Shrinker, replace_into};
use crate::choice::{Choice, ChoiceKind};
use crate::span::{Span, SpanKind};

/// Deletes spans, last first: collection elements (slots) vanish with
/// their "more" choice; other spans are tried too. When an element goes,
/// the elements before it are tried in exponentially growing runs
/// (Hypothesis's `find_integer`), so a long collection shrinks in a
/// logarithmic number of steps rather than one element at a time.
pub(crate) fn delete_slots(s: &mut Shrinker<'_>) {
    empty_collections(s);
    let mut i = s.best().spans.len();
    while i > 0 && !s.exhausted() {
        i -= 1;
        let spans = &s.best().spans.spans;
        let Some(span) = spans.get(i).copied() else { continue };
        if span.is_empty() || span.kind == SpanKind::Value && span.len() == s.best().choices.len() {
            continue;
        }
        // The last element of a collection: first, all its elements at once.
        if span.is_element() && is_last_element(spans, i) {
            let preceding = preceding_elements(spans, i, span.parent, span.start as usize);
            // A full collection drew no "no more" choice: add one.
            let full = span.parent.is_some_and(|p| spans[p as usize].end == span.end);
            let stop: &[Choice] = if full { &[Choice { value: 0, max: 1, kind: ChoiceKind::More }] } else { &[] };
            if let Some(&(first, start)) = preceding.last()
                && s.consider_edit(|best, out| replace_into(best, start..span.end as usize, stop, out))
            {
                i = first;
                continue;
            }
        }
        let shifted = if span.is_element() { shifted_mores(s, span.parent, span.range()) } else { Vec::new() };
        if s.consider_edit(|best, out| remove_with(best, span.range(), &shifted, out)) {
            if span.is_element() {
                i = delete_preceding_elements(s, i, span.parent, span.start as usize);
            } else if let Some(kept) = truncate_before(s, span.start as usize) {
                // Go on with the spans that start before what was dropped.
                i = s.best().spans.spans.iter().position(|sp| sp.start as usize >= kept).unwrap_or(i).min(i);
            }
        }
    }
}

/// After deleting the span at choice `start` left nothing but simplest
/// choices after it (the case's tail became the simplest it can be):
/// drops as many of the non-zero choices before it as still fails,
/// growing the count then bisecting, so a tail of fields and elements the
/// failure does not need goes in a few runs instead of one run each.
/// Returns how many choices were kept, if any were dropped.
fn truncate_before(s: &mut Shrinker<'_>, start: usize) -> Option<usize> {
    let choices = &s.best().choices.0;
    if start > choices.len() || choices[start..].iter().any(|c| c.value != 0) {
        return None;
    }
    // Prefix lengths that end just before a non-zero choice, nearest first:
    // cutting between zeros changes nothing.
    let cuts: Vec<usize> = (0..start).rev().filter(|&k| choices[k].value != 0).collect();
    let base = s.best_choices();
    let try_k = |s: &mut Shrinker<'_>, k: usize| s.consider_edit(|_, out| out.extend_from_slice(&base[..cuts[k - 1]]));
    let good = grow_then_bisect(s, cuts.len(), 0, try_k);
    if good == 0 {
        return None;
    }
    Some(cuts[good - 1])
}

/// The largest count in `1..=n` for which `try_k` succeeded, searching as
/// Hypothesis's `find_integer` does: from `good` (a count known to work,
/// or 0) it doubles while `try_k` succeeds, tries `n` itself, then bisects
/// between the last success and the first failure. 0 when nothing worked.
fn grow_then_bisect(
    s: &mut Shrinker<'_>,
    n: usize,
    mut good: usize,
    mut try_k: impl FnMut(&mut Shrinker<'_>, usize) -> bool,
) -> usize {
    let mut bad = n + 1;
    let mut k = if good > 0 { n } else { 1 };
    while k <= n && !s.exhausted() {
        if try_k(s, k) {
            good = k;
            k *= 2;
        } else {
            bad = k;
            break;
        }
    }
    if good == 0 {
        return 0;
    }
    if k > n && good < n && !s.exhausted() {
        if try_k(s, n) {
            good = n;
        } else {
            bad = n;
        }
    }
    while bad - good > 1 && !s.exhausted() {
        let mid = good + (bad - good) / 2;
        if try_k(s, mid) {
            good = mid;
        } else {
            bad = mid;
        }
    }
    good
}

/// Tries to empty each collection at once, outermost first (pre-order):
/// emptying a list of records drops every list inside them in one step,
/// where deleting last first would take the inner ones one by one.
fn empty_collections(s: &mut Shrinker<'_>) {
    let mut i = 0;
    while i < s.best().spans.len() && !s.exhausted() {
        let Some(range) = elements_of(&s.best().spans.spans, i) else {
            i += 1;
            continue;
        };
        // On success the spans up to `i` stay as they were (the collection
        // itself is still there, empty): go on after it.
        // A collection that stopped at its maximum drew no "no more"
        // choice: emptying it must add one.
        let full = range.end == s.best().spans.spans[i].end as usize;
        let stop: &[Choice] = if full { &[Choice { value: 0, max: 1, kind: ChoiceKind::More }] } else { &[] };
        if !s.consider_edit(|best, out| replace_into(best, range, stop, out)) {
            halve(s, i);
        }
        i += 1;
    }
}

/// Halves the collection at span `c` while half of its elements can go:
/// the later half, else the earlier one. A long collection whose failure
/// needs few of its elements then shrinks in a logarithmic number of runs,
/// each on a smaller case (deleting elements one at a time from the end
/// would run the whole collection first).
fn halve(s: &mut Shrinker<'_>, c: usize) {
    const STOP: &[Choice] = &[Choice { value: 0, max: 1, kind: ChoiceKind::More }];
    while !s.exhausted() {
        let spans = &s.best().spans.spans;
        let slots: Vec<(usize, usize)> = element_slots(spans, c).collect();
        if slots.len() < 4 {
            return;
        }
        // A collection that stopped at its maximum drew no "no more"
        // choice: one is added where it now ends.
        let (first, mid, end) = (slots[0].0, slots[slots.len() / 2].0, slots[slots.len() - 1].1);
        let stop: &[Choice] = if end == spans[c].end as usize { STOP } else { &[] };
        if s.consider_edit(|best, out| replace_into(best, mid..end, stop, out)) {
            continue;
        }
        let shifted = shifted_mores(s, Some(c as u32), first..mid);
        let halved = s.consider_edit(|best, out| {
            remove_with(&best[..end], first..mid, &shifted, out);
            out.extend_from_slice(stop);
            out.extend_from_slice(&best[end..]);
        });
        if !halved {
            return;
        }
    }
}

/// The first elements of a collection drew no "more?" choice: its minimum
/// length asked for them. Deleting some of them (the sibling slots of
/// `parent` within `range`) must also delete as many "more?" choices of the
/// slots after `range`, so every element left moves up one place and the
/// case keeps the collection's shape. Returns those choices' positions,
/// ascending. A slot counts as having drawn "more?" when its first choice
/// is one; a forced element that itself starts with a collection looks the
/// same, and the edit then stays a plain deletion.
fn shifted_mores(s: &Shrinker<'_>, parent: Option<u32>, range: std::ops::Range<usize>) -> Vec<usize> {
    let (spans, choices) = (&s.best().spans.spans, &s.best().choices.0);
    let asked = |start: usize| choices.get(start).is_some_and(|c| c.kind == ChoiceKind::More);
    let slots: Box<dyn Iterator<Item = (usize, usize)>> = match parent {
        Some(p) => Box::new(element_slots(spans, p as usize)),
        // A collection drawn outside any span: its slots are top-level.
        None => Box::new(
            spans
                .iter()
                .filter(|sp| sp.parent.is_none() && sp.is_element())
                .map(|sp| (sp.start as usize, sp.end as usize)),
        ),
    };
    let mut forced = 0;
    let mut shifted = Vec::new();
    for (start, _) in slots {
        if range.contains(&start) {
            forced += usize::from(!asked(start));
        } else if start >= range.end && shifted.len() < forced && asked(start) {
            shifted.push(start);
        }
    }
    shifted
}

/// `best` without the choices in `range` and at the positions `also`
/// (ascending, all after `range`).
fn remove_with(best: &[Choice], range: std::ops::Range<usize>, also: &[usize], out: &mut Vec<Choice>) {
    out.extend_from_slice(&best[..range.start]);
    let mut from = range.end;
    for &m in also {
        out.extend_from_slice(&best[from..m]);
        from = m + 1;
    }
    out.extend_from_slice(&best[from..]);
}

/// The element slots of the collection at span `c`, in order: (start, end)
/// of each.
fn element_slots(spans: &[Span], c: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
    let parent = Some(c as u32);
    let end = spans[c].end;
    spans[c + 1..]
        .iter()
        .take_while(move |sp| sp.start < end || sp.start == end && sp.end == end)
        .filter(move |sp| sp.parent == parent && sp.is_element())
        .map(|sp| (sp.start as usize, sp.end as usize))
}

/// The choices of all the elements of the collection at span `c` (its
/// element slots, which are contiguous), if it has any.
fn elements_of(spans: &[Span], c: usize) -> Option<std::ops::Range<usize>> {
    let mut slots = element_slots(spans, c);
    let (start, mut end) = slots.next()?;
    if let Some((_, last)) = slots.last() {
        end = last;
    }
    Some(start..end).filter(|r| !r.is_empty())
}

/// True when no element of the same collection follows element span `i`.
fn is_last_element(spans: &[Span], i: usize) -> bool {
    let span = &spans[i];
    !spans[i + 1..].iter().any(|sp| sp.parent == span.parent && sp.is_element() && sp.start == span.end)
}

/// The elements under `parent` among the first `upto` spans that end
/// contiguously at choice `end`, nearest first: (span index, start).
fn preceding_elements(spans: &[Span], upto: usize, parent: Option<u32>, end: usize) -> Vec<(usize, usize)> {
    let mut starts = Vec::new();
    let mut boundary = end;
    for (j, sp) in spans[..upto.min(spans.len())].iter().enumerate().rev() {
        if sp.parent == parent && sp.is_element() {
            if sp.end as usize != boundary {
                break;
            }
            boundary = sp.start as usize;
            starts.push((j, boundary));
        }
    }
    starts
}

/// After the element at span `i` (under `parent`, starting at choice
/// `end`) was deleted: deletes as many of the elements just before it as
/// still fail. Returns the span index to continue from.
fn delete_preceding_elements(s: &mut Shrinker<'_>, i: usize, parent: Option<u32>, end: usize) -> usize {
    // The spans before `i` are as they were before the deletion.
    let starts = preceding_elements(&s.best().spans.spans, i, parent, end);
    // Every count is deleted from the case as it was before this search.
    let base = s.best_choices();
    let try_k = |s: &mut Shrinker<'_>, k: usize| {
        let range = starts[k - 1].1..end;
        let shifted = shifted_mores(s, parent, range.clone());
        s.consider_edit(|_, out| remove_with(&base, range, &shifted, out))
    };
    // Grow k while deleting k elements still fails, then bisect. When
    // half of them can go, most often nearly all can: bisecting from there
    // runs small cases where growing k from 1 would run large ones.
    let half = starts.len() / 2;
    let good = if half >= 4 && !s.exhausted() && try_k(s, half) { half } else { 0 };
    let good = grow_then_bisect(s, starts.len(), good, try_k);
    if good == 0 { i } else { starts[good - 1].0 }
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
            s.consider_edit(|best, out| replace_into(best, i..i + k, &[], out));
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
            if i + 1 + k > s.best().choices.len() {
                break;
            }
            let mut lowered = c;
            lowered.value -= 1;
            if s.consider_edit(|best, out| {
                replace_into(best, i + 1..i + 1 + k, &[], out);
                out[i] = lowered;
            }) {
                break;
            }
        }
    }
}
