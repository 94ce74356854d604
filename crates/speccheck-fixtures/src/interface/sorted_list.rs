//! Sorted integer lists (ArtiCheck §2, `SIList`): the paper's first
//! example. The abstract type keeps its list sorted as long as clients go
//! through `empty` and `add`.
//!
//! Planted bug: `add` of an element larger than every element puts it at
//! the front (a search that falls off the end defaults to position 0).

use std::marker::PhantomData;

use speccheck::interface::{Api, Config};

/// A sorted list of integers; `BUGGY` selects the planted bug.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SortedList<const BUGGY: bool> {
    items: Vec<i32>,
    _bug: PhantomData<()>,
}

impl<const BUGGY: bool> SortedList<BUGGY> {
    /// The empty list.
    pub fn empty() -> Self {
        SortedList { items: Vec::new(), _bug: PhantomData }
    }

    /// The list with `x` inserted in order.
    pub fn add(&self, x: i32) -> Self {
        let mut items = self.items.clone();
        let found = items.iter().position(|&y| y >= x);
        let at = if BUGGY { found.unwrap_or(0) } else { found.unwrap_or(items.len()) };
        items.insert(at, x);
        SortedList { items, _bug: PhantomData }
    }

    /// The list without one occurrence of `x`.
    pub fn remove(&self, x: i32) -> Self {
        let mut items = self.items.clone();
        if let Some(i) = items.iter().position(|&y| y == x) {
            items.remove(i);
        }
        SortedList { items, _bug: PhantomData }
    }

    /// The two lists merged.
    pub fn merge(&self, other: &Self) -> Self {
        let (a, b) = (&self.items, &other.items);
        let (mut i, mut j) = (0, 0);
        let mut items = Vec::with_capacity(a.len() + b.len());
        while i < a.len() && j < b.len() {
            if a[i] <= b[j] {
                items.push(a[i]);
                i += 1;
            } else {
                items.push(b[j]);
                j += 1;
            }
        }
        items.extend_from_slice(&a[i..]);
        items.extend_from_slice(&b[j..]);
        SortedList { items, _bug: PhantomData }
    }

    /// Whether `x` is in the list.
    pub fn contains(&self, x: i32) -> bool {
        self.items.contains(&x)
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The smallest element.
    pub fn min(&self) -> Option<i32> {
        self.items.first().copied()
    }

    /// The elements, in order.
    pub fn to_vec(&self) -> Vec<i32> {
        self.items.clone()
    }

    /// The invariant: sorted.
    pub fn is_sorted(&self) -> bool {
        self.items.windows(2).all(|w| w[0] <= w[1])
    }
}

macro_rules! describe {
    () => {
        speccheck::interface! {
            name = "sorted list";
            abstract SortedList;
            ground i32 = speccheck::gens::ints(-50..=50);
            impl SortedList {
                fn empty() -> Self;
                fn add(&self, x: i32) -> Self;
                fn remove(&self, x: i32) -> Self;
                fn merge(&self, other: &Self) -> Self;
                fn min(&self) -> Option<i32>;
                fn to_vec(&self) -> Vec<i32>;
            }
            law sorted(l: &SortedList) => l.is_sorted();
            law add_contains(l: &SortedList, x: i32) => l.add(x).contains(x);
            law remove_shrinks(l: &SortedList, x: i32) requires l.contains(x) => l.remove(x).len() + 1 == l.len();
        }
        .expect("the sorted-list description is valid")
    };
}

/// The list with the planted bug.
pub mod buggy {
    use super::*;
    /// The buggy list.
    pub type SortedList = super::SortedList<true>;
    /// Its API.
    pub fn api() -> Api {
        describe!()
    }
}

/// The correct list.
pub mod correct {
    use super::*;
    /// The correct list.
    pub type SortedList = super::SortedList<false>;
    /// Its API.
    pub fn api() -> Api {
        describe!()
    }
}

/// Settings for this example.
pub fn config() -> Config {
    Config { required: 5_000, ..Config::default() }
}
