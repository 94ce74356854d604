//! The prelude breaks neither ordinary Rust nor a crate that also uses
//! proptest: ranges stay iterators (and proptest strategies).

use proptest::prelude::*;
use speccheck::prelude::*;

#[test]
fn ranges_are_still_iterators() {
    let v: Vec<u32> = (0..3u32).map(|x| x + 1).collect();
    assert_eq!(v, vec![1, 2, 3]);
    let evens: Vec<u8> = (0u8..10).filter(|x| x % 2 == 0).collect();
    assert_eq!(evens.len(), 5);
}

#[test]
fn ranges_are_still_proptest_strategies() {
    let s: BoxedStrategy<u8> = (0u8..=10).boxed();
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let v = s.new_tree(&mut runner).unwrap().current();
    assert!(v <= 10);
}

#[test]
fn a_range_becomes_a_generator_by_saying_so() {
    let g = gens::range(5u8..=6).map(u32::from);
    let values: Vec<u32> = speccheck::enumerate(&g, 3).map(|(_, v)| v).collect();
    assert_eq!(values, vec![5, 6]);
    let chars: Vec<char> = speccheck::enumerate(&gens::range('a'..='c'), 3).map(|(_, v)| v).collect();
    assert_eq!(chars.len(), 3);
}
