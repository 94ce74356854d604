//! What a measure or a spec running as Rust code calls: the built-ins of
//! the spec language as Rust functions (`use speccheck::spec::prelude::*`).
//! Integers are `i64` here; the spec language's own are mathematical.

use std::collections::BTreeSet;

pub use crate::targetable::Targetable;

/// A finite set (what `keys`-like measures return).
pub type Set<T> = BTreeSet<T>;

/// The empty set.
pub fn empty<T: Ord>() -> Set<T> {
    BTreeSet::new()
}

/// `{x}`.
pub fn singleton<T: Ord>(x: T) -> Set<T> {
    BTreeSet::from([x])
}

/// `a ∪ b`.
pub fn union<T: Ord + Clone>(a: Set<T>, b: Set<T>) -> Set<T> {
    let mut a = a;
    a.extend(b);
    a
}

/// `a ∩ b`.
pub fn inter<T: Ord + Clone>(a: Set<T>, b: Set<T>) -> Set<T> {
    a.intersection(&b).cloned().collect()
}

/// `a \ b`.
pub fn diff<T: Ord + Clone>(a: Set<T>, b: Set<T>) -> Set<T> {
    a.difference(&b).cloned().collect()
}

/// `x ∈ s`.
pub fn member<T: Ord>(x: T, s: Set<T>) -> bool {
    s.contains(&x)
}

/// `a ⊆ b`.
pub fn subset<T: Ord>(a: Set<T>, b: Set<T>) -> bool {
    a.is_subset(&b)
}

/// The set of a sequence's elements.
pub fn elems<T: Ord + Clone>(xs: &[T]) -> Set<T> {
    xs.iter().cloned().collect()
}
