//! Existential (constructor) generalization (SmartCheck §5.2, Figure 6,
//! `sumTest`): a position where every constructor of its type has a
//! failing value — for `Either Int Bool`, both a failing `Left` and a
//! failing `Right`. Unlike `∀`, the claim is sound: each constructor comes
//! with a witness.
//!
//! SmartCheck samples random values and keeps those whose constructor is
//! new (its precondition `c ∉ cons`). Here the constructor is *forced*
//! when the span starts with its constructor choice (derived enums,
//! `Option`, `Result`): the span is spliced from a prefix
//! holding that choice and (first the simplest, then random) choices after
//! it, so no test is spent on a constructor already covered. Other spans fall back to sampling.
//! Witnesses are kept small (fewer than `max_size` constructors), and a
//! witness that fails on its own — put in place of the whole input, it
//! still fails — is not counted: it shows another counterexample, not that
//! the position can take that constructor.

use speccheck_core::runner::CaseResult;
use speccheck_core::{Choice, ChoiceKind, Fresh, Tail};

use crate::config::ReduceConfig;
use crate::hypotheses::subvalue_candidate;
use crate::oracle::{Oracle, Origin, Verdict};
use crate::view::{Position, View};

/// A position where each constructor of the type has a failing value.
#[derive(Clone, Debug)]
pub struct Exists {
    /// Span ordinal of the position.
    pub ordinal: usize,
    /// For each constructor (declaration order): a failing case using it.
    pub witnesses: Vec<(&'static str, CaseResult)>,
}

/// The `∃` positions of `case` among `positions`, skipping any below or
/// above one of `skip` (the `∀` positions) and any below another `∃`
/// position.
pub fn existential(
    oracle: &mut Oracle<'_, '_>,
    case: &CaseResult,
    origin: &Origin,
    positions: &[Position],
    skip: &[usize],
    config: &ReduceConfig,
) -> Vec<Exists> {
    let view = View::new(&case.spans);
    let mut out: Vec<Exists> = Vec::new();
    for p in positions {
        if oracle.exhausted() {
            break;
        }
        let below = |h: usize| view.is_within(p.ordinal, h);
        // Not below a generalized position, and not above a `∀` one (the
        // formula could not show both).
        if skip.iter().any(|&h| below(h) || view.is_within(h, p.ordinal)) || out.iter().any(|e| below(e.ordinal)) {
            continue;
        }
        if let Some(e) = test_position(oracle, case, origin, &view, *p, config) {
            out.push(e);
        }
    }
    out
}

fn test_position(
    oracle: &mut Oracle<'_, '_>,
    case: &CaseResult,
    origin: &Origin,
    view: &View<'_>,
    position: Position,
    config: &ReduceConfig,
) -> Option<Exists> {
    let ordinal = position.ordinal;
    let span = *view.span(ordinal);
    let names = span.type_info().constructors;
    let n = names.len();
    if n < 2 {
        return None;
    }
    let type_id = span.type_info().type_id;
    let mut found: Vec<Option<CaseResult>> = vec![None; n];
    found[span.ctor as usize % n] = Some(case.clone());
    // The constructor reached by a splice, if the span is still there.
    let ctor_of = |r: &CaseResult| -> Option<usize> {
        r.spans.spans.get(ordinal).filter(|s| s.type_info().type_id == type_id).map(|s| s.ctor as usize % n)
    };
    let first = case
        .choices
        .0
        .get(span.start as usize)
        .copied()
        .filter(|c| c.kind == ChoiceKind::Index && c.max + 1 == n as u64 && !span.is_empty());
    match first {
        Some(c) => {
            // Force each other constructor choice in turn.
            for v in (0..n as u64).filter(|&v| v != c.value) {
                for k in 0..config.max_exists {
                    if oracle.exhausted() {
                        return None;
                    }
                    // The constructor with its simplest fields first, then
                    // random fields.
                    let fresh = Fresh {
                        prefix: vec![Choice { value: v, ..c }],
                        tail: if k == 0 { Tail::Simplest } else { Tail::Random },
                        seed: oracle.next_seed(),
                        size: oracle.below(config.max_size),
                    };
                    let r = oracle.splice(case, ordinal, fresh, Some(config.max_size));
                    let Some(k) = ctor_of(&r) else { break };
                    if oracle.judge(&r, origin) == Verdict::Same && !self_contained(oracle, &r, origin, position) {
                        found[k].get_or_insert(r);
                        break;
                    }
                    if found[k].is_some() {
                        // This choice leads to a constructor already covered.
                        break;
                    }
                }
            }
        }
        None => {
            for _ in 0..config.max_exists.saturating_mul(n as u32) {
                if oracle.exhausted() || found.iter().all(Option::is_some) {
                    break;
                }
                let fresh = Fresh::random(oracle.next_seed(), oracle.below(config.max_size));
                let r = oracle.splice(case, ordinal, fresh, Some(config.max_size));
                if oracle.judge(&r, origin) == Verdict::Same
                    && let Some(k) = ctor_of(&r)
                    && found[k].is_none()
                    && !self_contained(oracle, &r, origin, position)
                {
                    found[k].get_or_insert(r);
                }
            }
        }
    }
    if found.iter().all(Option::is_some) {
        let witnesses = names.iter().zip(found).filter_map(|(name, w)| Some((*name, w?))).collect();
        Some(Exists { ordinal, witnesses })
    } else {
        None
    }
}

/// True when the new value at `position` fails by itself: put in place of
/// the whole input (when it has the input's type), it still fails the same
/// way. Such a witness says nothing about the position, only that the
/// generator made another counterexample.
fn self_contained(oracle: &mut Oracle<'_, '_>, witness: &CaseResult, origin: &Origin, position: Position) -> bool {
    let view = View::new(&witness.spans);
    match subvalue_candidate(&view, witness, position) {
        Some(choices) => {
            let alone = oracle.replay(&choices);
            oracle.judge(&alone, origin) == Verdict::Same
        }
        None => false,
    }
}
