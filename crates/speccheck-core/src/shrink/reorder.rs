//! Reordering: sort runs of sibling sub-values of the same type so the
//! simplest come first (`[5, 0]` becomes `[0, 5]` when order does not
//! matter to the failure).

use super::{Shrinker, replace_into};
use crate::span::SpanKind;

/// Sorts each maximal run of adjacent same-type sibling spans.
pub(crate) fn sort_siblings(s: &mut Shrinker<'_>) {
    let tree = s.best().spans.clone();
    // Only parents with two children or more have anything to sort.
    let mut children = vec![0u32; tree.len() + 1];
    for sp in &tree.spans {
        children[sp.parent.map_or(0, |p| p as usize + 1)] += 1;
    }
    let parents = children.iter().enumerate().filter(|&(_, &n)| n >= 2).map(|(k, _)| k.checked_sub(1));
    for parent in parents {
        if s.exhausted() {
            return;
        }
        let kids: Vec<usize> = tree.children(parent).collect();
        let mut start = 0;
        while start < kids.len() {
            let first = tree.spans[kids[start]];
            let ty = first.type_info().type_id;
            let mut end = start + 1;
            while end < kids.len() {
                let k = tree.spans[kids[end]];
                let prev = tree.spans[kids[end - 1]];
                if k.type_info().type_id != ty
                    || k.kind != first.kind
                    || k.start != prev.end
                    || k.kind == SpanKind::Group
                {
                    break;
                }
                end += 1;
            }
            if end - start > 1 {
                let run = &kids[start..end];
                let choices = &s.best().choices.0;
                if tree.spans[run[run.len() - 1]].end as usize > choices.len() {
                    return;
                }
                let mut parts: Vec<Vec<crate::choice::Choice>> =
                    run.iter().map(|&k| choices[tree.spans[k].range()].to_vec()).collect();
                let original = parts.clone();
                parts.sort_by(|a, b| crate::choice::shortlex(a, b));
                if parts != original {
                    let whole = tree.spans[run[0]].start as usize..tree.spans[run[run.len() - 1]].end as usize;
                    let joined: Vec<_> = parts.concat();
                    if s.consider_edit(|best, out| replace_into(best, whole, &joined, out)) {
                        // The tree changed; the next round sees the new one.
                        return;
                    }
                }
            }
            start = end;
        }
    }
}
