//! Types two agreement tests share (`#[path]`-included, so other test
//! binaries do not register their measures): a sorted list and a search
//! tree with colours, with the measures their refinements call.

use speccheck::{Arbitrary, Targetable, measure};

/// A list sorted by construction: each tail's elements are at least its head.
#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq)]
pub enum Sorted {
    Empty,
    Link(i64, #[refine(at_least(_1, _0))] Box<Sorted>),
}

// The measures the types' refinements call are registered (`#[measure]`):
// `Arbitrary` checks the refinements as it draws, with the registered ones.
#[measure]
pub fn at_least(l: &Sorted, x: i64) -> bool {
    match l {
        Sorted::Empty => true,
        Sorted::Link(h, t) => *h >= x && at_least(t, x),
    }
}

#[measure]
pub fn all_lt(t: &Rbt, k: i64) -> bool {
    match t {
        Rbt::Leaf => true,
        Rbt::Node { key, left, right, .. } => *key < k && all_lt(left, k) && all_lt(right, k),
    }
}

#[measure]
pub fn all_gt(t: &Rbt, k: i64) -> bool {
    match t {
        Rbt::Leaf => true,
        Rbt::Node { key, left, right, .. } => *key > k && all_gt(left, k) && all_gt(right, k),
    }
}

#[derive(Arbitrary, Targetable, Clone, Copy, Debug, PartialEq)]
pub enum Color {
    R,
    B,
}

/// A search tree with colours (red-black once `is_rb` and `bh_ok` hold).
#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq)]
pub enum Rbt {
    Leaf,
    Node {
        color: Color,
        key: i64,
        #[refine(all_lt(left, key))]
        left: Box<Rbt>,
        #[refine(all_gt(right, key))]
        right: Box<Rbt>,
    },
}
