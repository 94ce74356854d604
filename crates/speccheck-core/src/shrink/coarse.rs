//! One coarse step before the passes: the failing case's shape, with
//! everything the shape does not need at its simplest.
//!
//! A random counterexample is mostly noise around a small core: most of
//! its collections are not needed and most of its numbers could be 0. The
//! passes find that out one collection and one number at a time, each
//! step a run on a case still nearly full size. Trying the case reduced
//! to its shape first (Hypothesis's shrinker starts the same way, from an
//! all-zero case) costs one run, and when the failure lives in the shape
//! alone, as it often does, it skips all those steps.

use super::Shrinker;
use crate::choice::{Choice, ChoiceKind};

/// Tries the best case with every collection emptied and every number,
/// character and float at its simplest; constructor and branch choices
/// (what makes the shape) are kept.
pub(crate) fn simplest_shape(s: &mut Shrinker<'_>) {
    if s.exhausted() {
        return;
    }
    let spans = &s.best().spans.spans;
    let choices = &s.best().choices.0;
    // Without a constructor or branch taken, the shape is all zeros (see
    // below): no need to build it.
    if !choices.iter().any(|c| matches!(c.kind, ChoiceKind::Boolean | ChoiceKind::Index) && c.value != 0) {
        return;
    }
    // The choices of each collection's elements (contiguous), by the
    // collection's span.
    let mut elements: Vec<Option<(usize, usize)>> = vec![None; spans.len()];
    for sp in spans {
        if let Some(p) = sp.parent
            && sp.is_element()
        {
            let e = &mut elements[p as usize];
            let (start, end) = e.get_or_insert((sp.start as usize, sp.end as usize));
            *start = (*start).min(sp.start as usize);
            *end = (*end).max(sp.end as usize);
        }
    }
    let mut shape = Vec::with_capacity(choices.len());
    let mut kept_from = 0;
    for (c, range) in elements.into_iter().enumerate() {
        // Collections inside an emptied one went with it.
        let Some((start, end)) = range.filter(|&(start, end)| start >= kept_from && end > start) else { continue };
        shape.extend(choices[kept_from..start].iter().map(|&ch| simplest_leaf(ch)));
        // A collection that stopped at its maximum drew no "no more"
        // choice: emptying it must add one.
        if end == spans[c].end as usize {
            shape.push(Choice { value: 0, max: 1, kind: ChoiceKind::More });
        }
        kept_from = end;
    }
    shape.extend(choices[kept_from..].iter().map(|&ch| simplest_leaf(ch)));
    // All zeros is the generator's simplest value, which a run tries
    // before any other input (a shrink that started elsewhere, from a
    // saved failure, loses only this one try: the passes try it too).
    if shape.iter().all(|c| c.value == 0) {
        return;
    }
    s.consider(&shape);
}

/// `c`, lowered to 0 unless it picks part of the shape.
fn simplest_leaf(c: Choice) -> Choice {
    match c.kind {
        ChoiceKind::Integer | ChoiceKind::Float | ChoiceKind::Char => Choice { value: 0, ..c },
        ChoiceKind::Boolean | ChoiceKind::Index | ChoiceKind::More => c,
    }
}
