//! Reference-model mode (Monolith): a set of integers kept in a sorted
//! vector, checked call by call against `std::collections::BTreeSet`.
//!
//! Both implement [`IntSet`]; the interface description names the trait,
//! and every call runs on both sides. `pop_min` panics on an empty set on
//! both sides (the call is refused, not a bug); `any` may return any
//! element, so it is declared nondeterministic and validated by the
//! reference instead of compared.
//!
//! Planted bug: `remove` of an absent element removes its successor (the
//! binary search's insertion point is taken for a hit).

use std::collections::BTreeSet;

use speccheck::interface::{Api, Config};

/// The operations both implementations provide.
pub trait IntSet: Sized {
    /// The empty set.
    fn new() -> Self;
    /// Adds `x`; true if it was not there.
    fn insert(&mut self, x: i32) -> bool;
    /// Removes `x`; true if it was there.
    fn remove(&mut self, x: i32) -> bool;
    /// Whether `x` is there.
    fn contains(&self, x: i32) -> bool;
    /// Number of elements.
    fn len(&self) -> usize;
    /// True when there is no element.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The union.
    fn union(&self, other: &Self) -> Self;
    /// The smallest element.
    fn min(&self) -> Option<i32>;
    /// Removes and returns the smallest element; panics when empty.
    fn pop_min(&mut self) -> i32;
    /// Some element (which one is up to the implementation).
    fn any(&self) -> Option<i32>;
}

/// A set in a sorted vector; `BUGGY` selects the planted bug.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SortedVecSet<const BUGGY: bool> {
    items: Vec<i32>,
}

impl<const BUGGY: bool> IntSet for SortedVecSet<BUGGY> {
    fn new() -> Self {
        SortedVecSet { items: Vec::new() }
    }

    fn insert(&mut self, x: i32) -> bool {
        match self.items.binary_search(&x) {
            Ok(_) => false,
            Err(i) => {
                self.items.insert(i, x);
                true
            }
        }
    }

    fn remove(&mut self, x: i32) -> bool {
        match self.items.binary_search(&x) {
            Ok(i) => {
                self.items.remove(i);
                true
            }
            Err(i) if BUGGY && i < self.items.len() => {
                self.items.remove(i);
                true
            }
            Err(_) => false,
        }
    }

    fn contains(&self, x: i32) -> bool {
        self.items.binary_search(&x).is_ok()
    }

    fn len(&self) -> usize {
        self.items.len()
    }

    fn union(&self, other: &Self) -> Self {
        let mut items: Vec<i32> = self.items.iter().chain(&other.items).copied().collect();
        items.sort_unstable();
        items.dedup();
        SortedVecSet { items }
    }

    fn min(&self) -> Option<i32> {
        self.items.first().copied()
    }

    fn pop_min(&mut self) -> i32 {
        assert!(!self.items.is_empty(), "pop_min on an empty set");
        self.items.remove(0)
    }

    fn any(&self) -> Option<i32> {
        self.items.get(self.items.len() / 2).copied()
    }
}

impl IntSet for BTreeSet<i32> {
    fn new() -> Self {
        BTreeSet::new()
    }
    fn insert(&mut self, x: i32) -> bool {
        BTreeSet::insert(self, x)
    }
    fn remove(&mut self, x: i32) -> bool {
        BTreeSet::remove(self, &x)
    }
    fn contains(&self, x: i32) -> bool {
        BTreeSet::contains(self, &x)
    }
    fn len(&self) -> usize {
        BTreeSet::len(self)
    }
    fn union(&self, other: &Self) -> Self {
        BTreeSet::union(self, other).copied().collect()
    }
    fn min(&self) -> Option<i32> {
        self.first().copied()
    }
    fn pop_min(&mut self) -> i32 {
        self.pop_first().expect("pop_min on an empty set")
    }
    fn any(&self) -> Option<i32> {
        self.first().copied()
    }
}

macro_rules! describe {
    () => {
        speccheck::interface! {
            name = "sorted-vector set vs BTreeSet";
            ground i32 = speccheck::gens::ints(-20..=20);
            compare SortedVecSet with BTreeSet<i32> by IntSet {
                fn new() -> Self;
                fn insert(&mut self, x: i32) -> bool;
                fn remove(&mut self, x: i32) -> bool;
                fn contains(&self, x: i32) -> bool;
                fn len(&self) -> usize;
                fn union(&self, other: &Self) -> Self;
                fn min(&self) -> Option<i32>;
                fn pop_min(&mut self) -> i32;
                #[nondeterministic(|s: &BTreeSet<i32>, r: &Option<i32>| match r {
                    Some(x) => s.contains(x),
                    None => s.is_empty(),
                })]
                fn any(&self) -> Option<i32>;
            }
        }
        .expect("the set description is valid")
    };
}

/// The set with the planted bug, against `BTreeSet`.
pub mod buggy {
    use super::*;
    /// The buggy set.
    pub type SortedVecSet = super::SortedVecSet<true>;
    /// Its API, paired with the reference.
    pub fn api() -> Api {
        describe!()
    }
}

/// The correct set, against `BTreeSet`.
pub mod correct {
    use super::*;
    /// The correct set.
    pub type SortedVecSet = super::SortedVecSet<false>;
    /// Its API, paired with the reference.
    pub fn api() -> Api {
        describe!()
    }
}

/// Settings for this example.
pub fn config() -> Config {
    Config { required: 10_000, ..Config::default() }
}
