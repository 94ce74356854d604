//! `select`, `index`, `subsequence` and `shuffle`: every outcome is
//! reachable and about as likely as the others (checked against a brute
//! force enumeration of the outcomes), and each shrinks to its simplest.

use std::collections::BTreeMap;

use speccheck_core::gens::{self, Generator};
use speccheck_core::{Config, Property, TestCase};

fn counts<T: Ord>(draws: usize, mut f: impl FnMut(&mut TestCase) -> T) -> BTreeMap<T, usize> {
    let mut seen = BTreeMap::new();
    for seed in 0..draws as u64 {
        *seen.entry(f(&mut TestCase::random(seed, 100))).or_insert(0) += 1;
    }
    seen
}

/// Every one of `expected` outcomes seen, each within 40% of an even share.
fn assert_even<T: Ord + std::fmt::Debug>(seen: &BTreeMap<T, usize>, expected: usize, draws: usize) {
    assert_eq!(seen.len(), expected, "outcomes seen: {seen:?}");
    let share = draws as f64 / expected as f64;
    for (k, &n) in seen {
        assert!((n as f64 - share).abs() < 0.4 * share, "{k:?} drawn {n} times, expected about {share:.0}: {seen:?}");
    }
}

#[test]
fn select_and_index_are_uniform_where_ints_leans_on_the_ends() {
    let pool: Vec<u32> = (0..10).collect();
    let g = gens::select(pool.clone());
    assert_even(&counts(5000, |tc| g.generate(tc)), 10, 5000);
    assert_even(&counts(5000, |tc| gens::index(10).generate(tc)), 10, 5000);
    assert_eq!(gens::sampled_from(pool).generate(&mut TestCase::replay(Vec::new(), speccheck_core::Tail::Simplest)), 0);
}

#[test]
fn subsequence_reaches_every_subsequence_in_range() {
    let g = gens::subsequence(vec![1, 2, 3, 4], 0..=4);
    let seen = counts(8000, |tc| g.generate(tc));
    // Brute force: the 16 subsets of 4 values, each in order.
    let all: Vec<Vec<i32>> =
        (0u32..16).map(|m| (0..4).filter(|i| m & (1 << i) != 0).map(|i| i + 1).collect()).collect();
    for s in &all {
        assert!(seen.contains_key(s), "{s:?} never drawn: {seen:?}");
    }
    assert_eq!(seen.len(), 16);
    // Lengths are uniform over the range.
    let mut by_len = BTreeMap::new();
    for (s, n) in &seen {
        *by_len.entry(s.len()).or_insert(0) += n;
    }
    assert_even(&by_len, 5, 8000);
    let bounded = gens::subsequence(vec!['a', 'b', 'c', 'd', 'e'], 2..4);
    for seed in 0..500 {
        let s = bounded.generate(&mut TestCase::random(seed, 100));
        assert!((2..4).contains(&s.len()) && s.windows(2).all(|w| w[0] < w[1]), "{s:?}");
    }
}

#[test]
fn shuffle_reaches_every_permutation_evenly() {
    let g = gens::shuffle(gens::just(vec![1, 2, 3]));
    assert_even(&counts(6000, |tc| g.generate(tc)), 6, 6000);
}

#[test]
fn each_shrinks_to_its_simplest() {
    let config = |name| Config { seed: Some(4), database: None, ..Config::named(name) };
    let r = Property::new(gens::select(vec![10, 20, 30, 40])).config(config("select")).run(|x: i32| x < 20);
    assert_eq!(r.counterexample_value::<i32>(), Some(20), "{r}");
    let r = Property::new(gens::subsequence((0..10).collect::<Vec<u8>>(), 1..=10))
        .config(config("subsequence"))
        .run(|s: Vec<u8>| !s.iter().any(|&x| x >= 5));
    assert_eq!(r.counterexample_value::<Vec<u8>>(), Some(vec![5]), "{r}");
    let r = Property::new(gens::shuffle(gens::just((0..8).collect::<Vec<u8>>())))
        .config(config("shuffle"))
        .run(|v: Vec<u8>| v.len() < 8);
    assert_eq!(r.counterexample_value::<Vec<u8>>(), Some((0..8).collect()), "{r}");
}

/// A long collection over a wide range holds many distinct values (bugs in
/// containers that switch representation past a count of distinct values
/// need them): most draws spread over the whole range. Measured against
/// proptest's uniform `vec(0..=65535, 0..10_000)` on 400 cases: more than
/// 4,096 distinct values in 59% of its cases, 32% of speccheck's.
#[test]
fn long_collections_over_wide_ranges_hold_many_distinct_values() {
    let g = gens::vec(gens::ints(0..=65535u32), 0..10_000);
    let config = Config::default();
    let cases = 400u64;
    let many = (0..cases)
        .filter(|&i| {
            let v = g.generate(&mut TestCase::random(i * 7919 + 1, config.case_size(i)));
            v.iter().collect::<std::collections::HashSet<_>>().len() > 4096
        })
        .count();
    assert!(many * 5 >= cases as usize, "only {many} of {cases} cases held more than 4,096 distinct values");
}
