//! Counterexample reduction (SmartCheck §4, Figure 3 with the §4.3.1
//! optimization): a greedy breadth-first walk over the sub-values of a
//! failing case. At each sub-value, first the sub-value hypothesis, then up
//! to `max_reduce` random *structurally smaller* replacements of the same
//! type: the span is drawn afresh ([`CaseControl::splice`](speccheck_core::test_case::CaseControl::splice))
//! with a bound on its constructors. A replacement that still fails the
//! same way restarts the walk on the new, smaller case; the walk ends at a
//! fixpoint or when the budget is spent. A small sub-value has few smaller
//! values, so it gets fewer tries: `tries_per_constructor` per constructor
//! it could lose (down to the least its type allows, see
//! [`View::min_size_of`]), at most `max_reduce` (fewer still after the
//! choice-sequence shrinker, which already tried the simplest replacement of
//! every sub-value: then none for a struct that can only get smaller
//! through one of its fields, see [`View::sole_reducible_field`], and one
//! for a sub-value whose own sub-values are all minimal). Every step lowers
//! the case's constructor count, so it terminates.
//!
//! Replacement sizes follow SmartCheck's schedule: the size parameter is
//! drawn from `0..=m`, `m` starting at 0 and doubling after each try, and
//! falling back to 0 whenever a draw was not smaller than the bound.

use std::time::{Duration, Instant};

use speccheck_core::runner::CaseResult;
use speccheck_core::{Fresh, Invalid, Outcome, Seen};

use crate::config::ReduceConfig;
use crate::hypotheses::{reduction_positions, subvalue_candidate};
use crate::oracle::{Oracle, Origin, Verdict, smaller};
use crate::view::View;

/// Why reduction stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// No sub-value could be replaced by a smaller failing one.
    Fixpoint,
    /// The case has no non-opaque sub-value: nothing to reduce.
    NothingToReduce,
    /// The test or time budget ran out.
    Budget,
    /// A candidate failed, then passed when run again: the property is
    /// flaky, and the original counterexample is kept.
    Flaky,
}

/// The result of one reduction.
#[derive(Clone, Debug)]
pub struct Reduction {
    /// The smallest failing case found (the input itself if none was
    /// smaller, or if the property turned out flaky).
    pub case: CaseResult,
    /// Constructors of the input.
    pub from: usize,
    /// Constructors of the result.
    pub to: usize,
    /// Replacements that were kept.
    pub improvements: u32,
    /// Test runs.
    pub tests: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// Why it stopped.
    pub stop: Stop,
}

/// Reduces `start`, which fails with `origin`.
pub fn reduce(oracle: &mut Oracle<'_, '_>, start: CaseResult, origin: &Origin, config: &ReduceConfig) -> Reduction {
    let started = Instant::now();
    let tests_before = oracle.tests();
    let mut from = None;
    let gen_max = oracle.run_config().max_size.max(1);
    // The start until something smaller fails (not a copy: a reduction
    // that finds nothing, the common case after shrinking, returns it).
    let mut improved: Option<CaseResult> = None;
    let mut improvements = 0;
    // The choice-sequence shrinker, when it ran, already tried each
    // sub-value's simplest replacement and each same-type sub-value in its
    // place (its `simplest_subvalues` and `promote_descendants` passes):
    // only the random replacements are new then.
    let after_shrink = oracle.run_config().shrink;
    // Random replacements of small sub-values often rebuild an input
    // already tried: those are not run again.
    let seen = Seen::new();
    seen.insert(&start.choices.0);
    let stop = 'walk: loop {
        if oracle.exhausted() {
            break Stop::Budget;
        }
        let best = improved.as_ref().unwrap_or(&start);
        let view = View::new(&best.spans);
        from.get_or_insert_with(|| view.inputs_size());
        let positions = reduction_positions(&view, config.max_depth);
        if positions.is_empty() && improvements == 0 {
            break Stop::NothingToReduce;
        }
        let size = view.size();
        for p in positions {
            if oracle.exhausted() {
                break 'walk Stop::Budget;
            }
            // The sub-value hypothesis: a sub-value of the input's type in
            // place of the whole input.
            if config.subvalues
                && !after_shrink
                && let Some(choices) = subvalue_candidate(&view, best, p)
            {
                let r = oracle.replay(&choices);
                if oracle.judge(&r, origin) == Verdict::Same && r.spans.total_constructors() < size {
                    if !confirmed(oracle, &r, origin) {
                        break 'walk Stop::Flaky;
                    }
                    improved = Some(r);
                    improvements += 1;
                    continue 'walk;
                }
            }
            // Random replacements with fewer constructors: between the
            // smallest value the type allows and one less than the bound.
            let bound = view.size_of(p.ordinal).min(config.max_size);
            let tries = random_tries(&view, p.ordinal, bound, config, after_shrink);
            if tries == 0 {
                continue;
            }
            let mut max = 0;
            for k in 0..tries {
                if oracle.exhausted() {
                    break 'walk Stop::Budget;
                }
                // The simplest value first (size 0, unless the shrinker
                // tried it), then random ones.
                let fresh = if k == 0 && !after_shrink {
                    Fresh::simplest()
                } else {
                    Fresh::random(oracle.next_seed(), oracle.below(max))
                };
                let r = oracle.splice_unseen(best, p.ordinal, fresh, Some(bound), &seen);
                match oracle.judge(&r, origin) {
                    Verdict::Same if r.spans.total_constructors() < size => {
                        if !confirmed(oracle, &r, origin) {
                            break 'walk Stop::Flaky;
                        }
                        improved = Some(r);
                        improvements += 1;
                        continue 'walk;
                    }
                    _ if matches!(r.outcome, Outcome::Invalid(Invalid::NotSmaller)) => max = 0,
                    _ => max = ((max + 1) * 2).min(gen_max),
                }
            }
        }
        break Stop::Fixpoint;
    };
    let from = from.unwrap_or_else(|| crate::view::inputs_size(&start.spans));
    let case = match improved {
        Some(best) if stop != Stop::Flaky => best,
        _ => start,
    };
    Reduction {
        to: if improvements == 0 { from } else { crate::view::inputs_size(&case.spans) },
        case,
        from,
        improvements,
        tests: oracle.tests() - tests_before,
        elapsed: started.elapsed(),
        stop,
    }
}

/// Random replacements tried at `i`, whose replacements have fewer than
/// `bound` constructors: `tries_per_constructor` per constructor the
/// sub-value could lose (down to the least its type allows), at most
/// `max_reduce`. After the
/// choice-sequence shrinker, where random replacements only supplement it,
/// `tries_per_constructor_after_shrink` and `max_reduce_after_shrink`; none
/// where a smaller value can only be one field made smaller (see
/// [`View::sole_reducible_field`]): that field's own tries search the same
/// shapes, with the rest of the value kept; and one constructor's worth
/// where only the constructor here can change.
fn random_tries(view: &View<'_>, i: usize, bound: usize, config: &ReduceConfig, after_shrink: bool) -> u32 {
    let could_lose = bound.saturating_sub(view.min_size_of(i).max(1)) as u32;
    if !after_shrink {
        config.max_reduce.min(config.tries_per_constructor.saturating_mul(could_lose))
    } else if view.sole_reducible_field(i).is_some() {
        0
    } else {
        // With every sub-value as small as its type allows, only another
        // constructor here can be smaller: that is one change, however many
        // constructors it would drop.
        let minimal_below = view.children(Some(i)).iter().all(|&c| view.size_of(c) <= view.min_size_of(c));
        let changes = if minimal_below { could_lose.min(1) } else { could_lose };
        config.max_reduce_after_shrink.min(config.tries_per_constructor_after_shrink.saturating_mul(changes))
    }
}

/// Runs an accepted candidate once more: a failure that does not come back
/// means the property is flaky.
pub(crate) fn confirmed(oracle: &mut Oracle<'_, '_>, case: &CaseResult, origin: &Origin) -> bool {
    let again = oracle.replay(&case.choices.0);
    oracle.judge(&again, origin) == Verdict::Same
}

/// Reduces `start` (failing with `origin`), alternating SmartCheck's
/// reduction with the choice-sequence shrinker until neither improves it
/// (or `config.rounds` rounds ran); `shrunk` says the shrinker already ran
/// on `start`. The result is the smallest failing case seen, in
/// SmartCheck's order (constructors, then choices).
pub fn reduce_and_shrink(
    oracle: &mut Oracle<'_, '_>,
    start: CaseResult,
    origin: &Origin,
    config: &ReduceConfig,
    shrunk: bool,
) -> Reduction {
    let started = Instant::now();
    let tests = oracle.tests();
    // The start's size: the first reduction measures it when it starts
    // from the start itself (no View built twice for it).
    let mut from = (!shrunk).then(|| crate::view::inputs_size(&start.spans));
    // Copied only if the start must be kept (a flaky reduction returns it).
    let mut kept = None;
    let mut best = start;
    // A case straight from generation is shrunk first (the runner's own
    // counterexample already is: `shrunk`).
    if !shrunk {
        let s = oracle.shrink(best.clone());
        if oracle.judge(&s, origin) == Verdict::Same && smaller(&s, &best) {
            kept = Some(std::mem::replace(&mut best, s));
        }
    }
    let shrunk_first = kept.is_some();
    let mut improvements = 0;
    let mut stop = Stop::Fixpoint;
    for round in 0..config.rounds.max(1) {
        let before = best.clone();
        let red = reduce(oracle, best, origin, config);
        let from = *from.get_or_insert(red.from);
        if red.stop == Stop::Flaky {
            let case = kept.unwrap_or(before);
            return Reduction { case, from, to: from, stop: Stop::Flaky, ..red };
        }
        kept.get_or_insert(before);
        stop = red.stop;
        best = red.case;
        if red.improvements == 0 {
            if round > 0 && stop == Stop::NothingToReduce {
                stop = Stop::Fixpoint;
            }
            break;
        }
        improvements += red.improvements;
        let s = oracle.shrink(best.clone());
        if oracle.judge(&s, origin) == Verdict::Same && smaller(&s, &best) {
            best = s;
        } else {
            break;
        }
    }
    let from = from.expect("at least one round");
    Reduction {
        to: if improvements == 0 && !shrunk_first { from } else { crate::view::inputs_size(&best.spans) },
        case: best,
        from,
        improvements,
        tests: oracle.tests() - tests,
        elapsed: started.elapsed(),
        stop,
    }
}
