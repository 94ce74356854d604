//! `tinyvec` 1.10.0 (ETNA: `alpaylan/tinyvec-etna`): an `ArrayVec<[i32; 8]>`
//! must behave like the slice or `Vec` it stands for: `Debug` output,
//! `remove` past the end, `swap_remove` of the tail, and `drain` ranges.

use std::panic::{AssertUnwindSafe, catch_unwind};

use ::tinyvec::ArrayVec;
use proptest::prelude as pt;
use proptest::strategy::Strategy as _;
use speccheck::gens::{self, Generator};

use super::Workload;
use crate::harness::{self, Bug, EtnaProperty, Outcome, PropertyResult, RunSpec, Tool, hg};

pub fn workload() -> Workload {
    Workload {
        name: "tinyvec",
        properties: vec![
            EtnaProperty { name: "ArrayvecDebugMatchesSlice", run: arrayvec_debug_matches_slice },
            EtnaProperty { name: "RemovePastEndPanics", run: remove_past_end_panics },
            EtnaProperty { name: "SwapRemoveLastReturnsTail", run: swap_remove_last_returns_tail },
            EtnaProperty { name: "DrainMatchesSliceRange", run: drain_matches_slice_range },
        ],
        bugs: vec![
            Bug { patch: "debug_alternate_empty_a711c72_1", properties: &["ArrayvecDebugMatchesSlice"] },
            Bug { patch: "remove_past_end_silent_fd3c92c_1", properties: &["RemovePastEndPanics"] },
            Bug { patch: "swap_remove_last_71ad62a_1", properties: &["SwapRemoveLastReturnsTail"] },
            Bug { patch: "drain_end_off_by_one_9117614_1", properties: &["DrainMatchesSliceRange"] },
        ],
    }
}

/// The capacity of every `ArrayVec` the properties build.
const CAP: usize = 8;

type Av = ArrayVec<[i32; CAP]>;

fn filled(items: &[i32]) -> Av {
    let mut av = Av::new();
    for &x in items {
        av.push(x);
    }
    av
}

/// `{:#?}` and `{:?}` of the vec must equal those of its slice.
fn property_arrayvec_debug_matches_slice(items: Vec<i32>) -> PropertyResult {
    if items.len() > CAP {
        return PropertyResult::Discard;
    }
    let av = filled(&items);
    let (got, want) = (format!("{av:#?}"), format!("{:#?}", av.as_slice()));
    if got != want {
        return PropertyResult::Fail(format!("{{:#?}} gave {got:?}, the slice {want:?}"));
    }
    let (got, want) = (format!("{av:?}"), format!("{:?}", av.as_slice()));
    if got != want {
        return PropertyResult::Fail(format!("{{:?}} gave {got:?}, the slice {want:?}"));
    }
    PropertyResult::Pass
}

/// On a non-empty vec, `remove(len)` must panic.
fn property_remove_past_end_panics(items: Vec<i32>) -> PropertyResult {
    if items.is_empty() || items.len() > CAP {
        return PropertyResult::Discard;
    }
    let mut av = filled(&items);
    let len = av.len();
    match catch_unwind(AssertUnwindSafe(move || av.remove(len))) {
        Err(_) => PropertyResult::Pass,
        Ok(v) => PropertyResult::Fail(format!("remove({len}) with len {len} returned {v} instead of panicking")),
    }
}

/// On a non-empty vec, `swap_remove(len - 1)` must return the last item,
/// leave the others in order, and not panic.
fn property_swap_remove_last_returns_tail(items: Vec<i32>) -> PropertyResult {
    if items.is_empty() || items.len() > CAP {
        return PropertyResult::Discard;
    }
    let mut av = filled(&items);
    let last = av.len() - 1;
    let result = catch_unwind(AssertUnwindSafe(move || {
        let tail = av.swap_remove(last);
        (tail, av.iter().copied().collect::<Vec<i32>>())
    }));
    match result {
        Err(_) => PropertyResult::Fail(format!("swap_remove({last}) with len {} panicked", last + 1)),
        Ok((tail, _)) if tail != items[last] => {
            PropertyResult::Fail(format!("swap_remove({last}) returned {tail}, expected {}", items[last]))
        }
        Ok((_, rest)) if rest[..] != items[..last] => PropertyResult::Fail(format!(
            "after swap_remove({last}) the vec is {rest:?}, expected {:?}",
            &items[..last]
        )),
        Ok(_) => PropertyResult::Pass,
    }
}

/// `drain(start..end)`, and `drain(start..=end - 1)` when that range is
/// non-empty, must yield `items[start..end]` and leave the rest in order,
/// as a `Vec` does; `end = b % (len + 1)`, `start = a % (end + 1)`.
fn property_drain_matches_slice_range(items: Vec<i32>, a: usize, b: usize) -> PropertyResult {
    if items.is_empty() || items.len() > CAP {
        return PropertyResult::Discard;
    }
    let end = b % (items.len() + 1);
    let start = if end == 0 { 0 } else { a % (end + 1) };
    if start > end {
        return PropertyResult::Discard;
    }
    let expected_rest = |to: usize| -> Vec<i32> { items[..start].iter().chain(&items[to..]).copied().collect() };

    let mut av = filled(&items);
    let drained: Vec<i32> = av.drain(start..end).collect();
    let rest: Vec<i32> = av.iter().copied().collect();
    if drained[..] != items[start..end] {
        return PropertyResult::Fail(format!(
            "drain({start}..{end}) yielded {drained:?}, expected {:?}",
            &items[start..end]
        ));
    }
    if rest != expected_rest(end) {
        return PropertyResult::Fail(format!(
            "after drain({start}..{end}) the vec is {rest:?}, expected {:?}",
            expected_rest(end)
        ));
    }

    if end > 0 && start < end {
        let last = end - 1;
        let mut av = filled(&items);
        let drained: Vec<i32> = av.drain(start..=last).collect();
        let rest: Vec<i32> = av.iter().copied().collect();
        if drained[..] != items[start..=last] {
            return PropertyResult::Fail(format!(
                "drain({start}..={last}) yielded {drained:?}, expected {:?}",
                &items[start..=last]
            ));
        }
        if rest != expected_rest(end) {
            return PropertyResult::Fail(format!(
                "after drain({start}..={last}) the vec is {rest:?}, expected {:?}",
                expected_rest(end)
            ));
        }
    }
    PropertyResult::Pass
}

/// ETNA's `items_strategy` (less its quickcheck-only wrapper).
fn items_run(tool: Tool, spec: RunSpec, f: fn(Vec<i32>) -> PropertyResult) -> Outcome {
    match tool {
        Tool::Speccheck => harness::speccheck(spec, gens::vec(gens::any::<i32>(), 0..=8), f),
        Tool::Hegeltest => harness::hegeltest(
            spec,
            |tc| tc.draw(hegel::generators::vecs(hegel::generators::integers::<i32>()).max_size(8)),
            f,
        ),
        Tool::Proptest | Tool::Quickcheck => {
            harness::peer(tool, spec, pt::prop::collection::vec(pt::any::<i32>(), 0..=8), f)
        }
    }
}

fn arrayvec_debug_matches_slice(tool: Tool, spec: RunSpec) -> Outcome {
    items_run(tool, spec, property_arrayvec_debug_matches_slice)
}

fn remove_past_end_panics(tool: Tool, spec: RunSpec) -> Outcome {
    items_run(tool, spec, property_remove_past_end_panics)
}

fn swap_remove_last_returns_tail(tool: Tool, spec: RunSpec) -> Outcome {
    items_run(tool, spec, property_swap_remove_last_returns_tail)
}

fn drain_matches_slice_range(tool: Tool, spec: RunSpec) -> Outcome {
    let f = |(items, a, b): (Vec<i32>, usize, usize)| property_drain_matches_slice_range(items, a, b);
    match tool {
        Tool::Speccheck => harness::speccheck(
            spec,
            (gens::vec(gens::any::<i32>(), 0..=8), gens::any::<u8>(), gens::any::<u8>())
                .map(|(items, a, b)| (items, usize::from(a), usize::from(b))),
            f,
        ),
        Tool::Hegeltest => harness::hegeltest(
            spec,
            |tc| {
                let items = tc.draw(hegel::generators::vecs(hegel::generators::integers::<i32>()).max_size(8));
                (items, usize::from(hg::any::<u8>(tc)), usize::from(hg::any::<u8>(tc)))
            },
            f,
        ),
        Tool::Proptest | Tool::Quickcheck => harness::peer(
            tool,
            spec,
            (pt::prop::collection::vec(pt::any::<i32>(), 0..=8), pt::any::<u8>(), pt::any::<u8>())
                .prop_map(|(items, a, b)| (items, usize::from(a), usize::from(b))),
            f,
        ),
    }
}
