//! Health checks on a passing run's figures: a pass that checked less than
//! it seems to (Hypothesis's `filter_too_much`; inputs that never grew).
//! Each is a warning on the report, never a change of verdict: the
//! property did hold on every input it was given. The generation-time
//! check, which stops a run, is the generation phase's own.

use super::report::{InputSizes, RunStats};

/// A run whose generated collections reached at least this many elements
/// is asked whether its checked ones did too.
const LONG_DRAWN: u32 = 16;
/// Checked collections at most this share of the drawn ones (a quarter)
/// are "small".
const LONG_SHARE: u32 = 4;
/// A run whose generated values nested at least this deep is asked
/// whether its checked ones did too.
const DEEP_DRAWN: u32 = 6;
/// Checked nesting at most this share of the drawn one (a half) is
/// "shallow".
const DEEP_SHARE: u32 = 2;

/// Most of the inputs drawn were rejected (by preconditions, filters, or
/// because they could not be made): the property held on fewer inputs
/// than the run tried.
pub(crate) fn filter_warning(stats: &RunStats) -> Option<String> {
    let rejected = stats.discarded + stats.invalid;
    if rejected <= stats.passed || stats.topped_up.is_some() {
        return None;
    }
    let top = stats.discard_reasons.iter().max_by_key(|(_, n)| **n).map(|(r, n)| format!("{r} ({n})"));
    Some(format!(
        "most generated inputs were rejected ({rejected} rejected, {} checked){}: the property held on fewer \
         inputs than the run tried",
        stats.passed,
        top.map(|t| format!("; most often: {t}")).unwrap_or_default()
    ))
}

/// The inputs the property passed on stayed far smaller than the inputs
/// the run generated: the larger ones were all rejected (a precondition
/// or a filter that only small values satisfy, such as "sorted"), so the
/// pass says nothing about large inputs. With the figures.
pub(crate) fn size_warning(stats: &RunStats) -> Option<String> {
    let InputSizes { checked, drawn } = stats.sizes;
    if stats.passed == 0 {
        return None;
    }
    let short = drawn.longest >= LONG_DRAWN && checked.longest.saturating_mul(LONG_SHARE) <= drawn.longest;
    let shallow = drawn.deepest >= DEEP_DRAWN && checked.deepest.saturating_mul(DEEP_SHARE) <= drawn.deepest;
    let mut what = Vec::new();
    if short {
        what.push(format!(
            "the longest collection in them had {} (generated inputs reached {})",
            elements(checked.longest),
            elements(drawn.longest)
        ));
    }
    if shallow {
        what.push(format!(
            "their values nested {} deep at most (generated ones {} deep)",
            checked.deepest, drawn.deepest
        ));
    }
    if what.is_empty() {
        return None;
    }
    Some(format!(
        "health check: the inputs checked stayed small: of the {} inputs the property passed on, {}. The larger \
         inputs generated were all rejected (by a precondition or a filter), so this pass says nothing about \
         them: make valid inputs directly (a generator that builds them), or loosen the filter",
        stats.passed,
        what.join(", and ")
    ))
}

fn elements(n: u32) -> String {
    if n == 1 { "1 element".into() } else { format!("{n} elements") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_case::Reach;

    fn stats(checked: (u32, u32), drawn: (u32, u32)) -> RunStats {
        let reach = |(longest, deepest)| Reach { longest, deepest };
        RunStats {
            passed: 100,
            sizes: InputSizes { checked: reach(checked), drawn: reach(drawn) },
            ..RunStats::default()
        }
    }

    #[test]
    fn small_checked_inputs_beside_large_drawn_ones_are_named_with_the_figures() {
        let w = size_warning(&stats((3, 2), (97, 2))).expect("a warning");
        assert!(w.contains("had 3 elements (generated inputs reached 97 elements)"), "{w}");
        assert!(!w.contains("nested"), "{w}");
        let w = size_warning(&stats((40, 2), (97, 9))).expect("a warning");
        assert!(w.contains("nested 2 deep at most (generated ones 9 deep)"), "{w}");
    }

    #[test]
    fn inputs_that_grew_or_were_never_drawn_large_pass_quietly() {
        // Checked inputs a third of the drawn ones' length.
        assert_eq!(size_warning(&stats((33, 3), (99, 4))), None);
        // Nothing large was drawn at all (a generator bounded small, an
        // isolated run that does not measure).
        assert_eq!(size_warning(&stats((2, 1), (15, 5))), None);
        assert_eq!(size_warning(&stats((0, 0), (0, 0))), None);
    }
}
