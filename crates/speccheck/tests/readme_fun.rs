//! README.md's sample of a generated function argument (Target §4.6), as a
//! user copies it (tests/readme_samples.rs checks the README shows exactly
//! this).

use speccheck::Targetable;
use speccheck::prelude::*;
use speccheck::target::Fun;

/// A weighted score: (weight, score).
#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq)]
struct Weighted(i64, #[refine(0 <= _1 && _1 <= 100)] i64);

/// The weighted average of the scores, each padded by `f` first.
fn pad_average(f: &Fun<i64, i64>, wxs: &[Weighted]) -> i64 {
    if wxs.is_empty() {
        return f.call(0);
    }
    let total: i64 = wxs.iter().map(|w| w.0 * f.call(w.1)).sum();
    let n: i64 = wxs.iter().map(|w| w.0).sum();
    total / n
}

#[property(strategy = smt, depth = 3)]
fn pad_average_is_a_score(
    #[refine(|s| 0 <= s && s <= 100 ==> s <= result && result <= 100)] f: Fun<i64, i64>,
    #[refine(forall!(w in wxs, w.0 > 0))] wxs: Vec<Weighted>,
) -> bool {
    (0..=100).contains(&pad_average(&f, &wxs))
}
