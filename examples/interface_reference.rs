//! Reference-model testing (Monolith) with speccheck-interface: your
//! implementation and a trusted one implement the same trait; every call
//! runs on both and what a client can observe must agree. Run with
//! `cargo run -p speccheck-examples --example interface_reference`.
//!
//! Here a set of small integers packed in a `u64` is checked against
//! `BTreeSet<u8>`. `choose` may return any element, so it is declared
//! nondeterministic: the reference checks the candidate's answer instead
//! of comparing it. `pop_min` panics on an empty set on both sides, which
//! refuses the call rather than reporting a bug.

use std::collections::BTreeSet;

use speccheck::interface;
use speccheck::interface::Config;

/// What both implementations provide.
pub trait SmallSet: Sized {
    fn new() -> Self;
    fn insert(&mut self, x: u8) -> bool;
    fn remove(&mut self, x: u8) -> bool;
    fn contains(&self, x: u8) -> bool;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    fn union(&self, other: &Self) -> Self;
    fn pop_min(&mut self) -> u8;
    fn choose(&self) -> Option<u8>;
}

/// The candidate: bits of a `u64`. `BUGGY` plants a bug in `remove`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Bits<const BUGGY: bool>(u64);

impl<const BUGGY: bool> SmallSet for Bits<BUGGY> {
    fn new() -> Self {
        Bits(0)
    }
    fn insert(&mut self, x: u8) -> bool {
        let had = self.contains(x);
        self.0 |= 1 << x;
        !had
    }
    fn remove(&mut self, x: u8) -> bool {
        let had = self.contains(x);
        if BUGGY {
            // Toggles: removing an absent element adds it.
            self.0 ^= 1 << x;
        } else {
            self.0 &= !(1 << x);
        }
        had
    }
    fn contains(&self, x: u8) -> bool {
        self.0 >> x & 1 == 1
    }
    fn len(&self) -> usize {
        self.0.count_ones() as usize
    }
    fn union(&self, other: &Self) -> Self {
        Bits(self.0 | other.0)
    }
    fn pop_min(&mut self) -> u8 {
        assert!(self.0 != 0, "pop_min on an empty set");
        let x = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        x
    }
    fn choose(&self) -> Option<u8> {
        // The highest element: a legitimate choice, not the reference's.
        (self.0 != 0).then(|| 63 - self.0.leading_zeros() as u8)
    }
}

/// The reference.
impl SmallSet for BTreeSet<u8> {
    fn new() -> Self {
        BTreeSet::new()
    }
    fn insert(&mut self, x: u8) -> bool {
        BTreeSet::insert(self, x)
    }
    fn remove(&mut self, x: u8) -> bool {
        BTreeSet::remove(self, &x)
    }
    fn contains(&self, x: u8) -> bool {
        BTreeSet::contains(self, &x)
    }
    fn len(&self) -> usize {
        BTreeSet::len(self)
    }
    fn union(&self, other: &Self) -> Self {
        BTreeSet::union(self, other).copied().collect()
    }
    fn pop_min(&mut self) -> u8 {
        self.pop_first().expect("pop_min on an empty set")
    }
    fn choose(&self) -> Option<u8> {
        self.first().copied()
    }
}

fn main() {
    println!("== Bits (with a bug in `remove`) against BTreeSet<u8> ==\n");
    type Bits = self::Bits<true>;
    let api = interface! {
        name = "bit set vs BTreeSet";
        ground u8 = speccheck::gens::ints(0..=63u8);
        compare Bits with BTreeSet<u8> by SmallSet {
            fn new() -> Self;
            fn insert(&mut self, x: u8) -> bool;
            fn remove(&mut self, x: u8) -> bool;
            fn contains(&self, x: u8) -> bool;
            fn len(&self) -> usize;
            fn union(&self, other: &Self) -> Self;
            fn pop_min(&mut self) -> u8;
            #[nondeterministic(|s: &BTreeSet<u8>, r: &Option<u8>| r.map_or(s.is_empty(), |x| s.contains(&x)))]
            fn choose(&self) -> Option<u8>;
        }
    }
    .expect("a valid description");
    println!("{}", api.check(Config::seeded(7)));

    println!("== the fixed Bits against BTreeSet<u8> ==\n");
    type Fixed = self::Bits<false>;
    let api = interface! {
        name = "bit set vs BTreeSet (fixed)";
        ground u8 = speccheck::gens::ints(0..=63u8);
        compare Fixed with BTreeSet<u8> by SmallSet {
            fn new() -> Self;
            fn insert(&mut self, x: u8) -> bool;
            fn remove(&mut self, x: u8) -> bool;
            fn contains(&self, x: u8) -> bool;
            fn len(&self) -> usize;
            fn union(&self, other: &Self) -> Self;
            fn pop_min(&mut self) -> u8;
            #[nondeterministic(|s: &BTreeSet<u8>, r: &Option<u8>| r.map_or(s.is_empty(), |x| s.contains(&x)))]
            fn choose(&self) -> Option<u8>;
        }
    }
    .expect("a valid description");
    println!("{}", api.check(Config { required: 5_000, ..Config::seeded(7) }));
}
