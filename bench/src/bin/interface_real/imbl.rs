//! imbl 7.0.1 (fixed in 7.0.2): `OrdMap == OrdMap` answers `true` for
//! unequal maps that share structure through `clone()` (a shortcut on
//! shared nodes skipped the nodes that differ). Needs a map of several
//! B+tree leaves (≥ 17 entries), a clone, and a change to one side.
//! Reference: `std::collections::BTreeMap<u32, u32>`.
//!
//! Keys and values are drawn from `0..1000` (the same for both tools).

use std::collections::BTreeMap;

use proptest::prelude::*;
use speccheck::gens;
use speccheck::interface::{Api, interface};
use speccheck_bench::hegel_peer::{self, gs};

use super::Target;

/// What both maps provide.
#[allow(clippy::len_without_is_empty)]
pub trait Map {
    fn new() -> Self;
    fn insert(&mut self, k: u32, v: u32) -> Option<u32>;
    fn remove(&mut self, k: u32) -> Option<u32>;
    fn get(&self, k: u32) -> Option<u32>;
    fn len(&self) -> usize;
    /// A copy (for imbl, one that shares its nodes).
    fn duplicate(&self) -> Self;
    /// `==`.
    fn same(&self, other: &Self) -> bool;
}

impl Map for imbl::OrdMap<u32, u32> {
    fn new() -> Self {
        imbl::OrdMap::new()
    }
    fn insert(&mut self, k: u32, v: u32) -> Option<u32> {
        imbl::OrdMap::insert(self, k, v)
    }
    fn remove(&mut self, k: u32) -> Option<u32> {
        imbl::OrdMap::remove(self, &k)
    }
    fn get(&self, k: u32) -> Option<u32> {
        imbl::OrdMap::get(self, &k).copied()
    }
    fn len(&self) -> usize {
        imbl::OrdMap::len(self)
    }
    fn duplicate(&self) -> Self {
        self.clone()
    }
    fn same(&self, other: &Self) -> bool {
        self == other
    }
}

impl Map for BTreeMap<u32, u32> {
    fn new() -> Self {
        BTreeMap::new()
    }
    fn insert(&mut self, k: u32, v: u32) -> Option<u32> {
        BTreeMap::insert(self, k, v)
    }
    fn remove(&mut self, k: u32) -> Option<u32> {
        BTreeMap::remove(self, &k)
    }
    fn get(&self, k: u32) -> Option<u32> {
        BTreeMap::get(self, &k).copied()
    }
    fn len(&self) -> usize {
        BTreeMap::len(self)
    }
    fn duplicate(&self) -> Self {
        self.clone()
    }
    fn same(&self, other: &Self) -> bool {
        self == other
    }
}

type Candidate = imbl::OrdMap<u32, u32>;

/// The reference-model description, at speccheck's defaults.
pub fn api() -> Api {
    interface! {
        name = "imbl 7.0.1 OrdMap vs BTreeMap";
        ground u32 = gens::ints(0..1000u32);
        compare Candidate with BTreeMap<u32, u32> by Map {
            fn new() -> Self;
            fn insert(&mut self, k: u32, v: u32) -> Option<u32>;
            fn remove(&mut self, k: u32) -> Option<u32>;
            fn get(&self, k: u32) -> Option<u32>;
            fn len(&self) -> usize;
            fn duplicate(&self) -> Self;
            fn same(&self, other: &Self) -> bool;
        }
    }
    .expect("a valid description")
}

/// One operation of the proptest harness, on map 0 or map 1 (the way a
/// proptest user checks a binary operation: two maps side by side).
#[derive(Clone, Debug)]
pub enum Op {
    Insert(bool, u32, u32),
    Remove(bool, u32),
    Get(bool, u32),
    Len(bool),
    /// The other map becomes a copy of this one.
    Duplicate(bool),
    Same,
}

impl Op {
    fn name(&self) -> &'static str {
        match self {
            Op::Insert(..) => "insert",
            Op::Remove(..) => "remove",
            Op::Get(..) => "get",
            Op::Len(_) => "len",
            Op::Duplicate(_) => "duplicate",
            Op::Same => "same",
        }
    }
}

/// The same calls, equally likely, keys and values from the same range.
pub fn op() -> impl Strategy<Value = Op> {
    let key = || 0..1000u32;
    prop_oneof![
        (any::<bool>(), key(), key()).prop_map(|(w, k, v)| Op::Insert(w, k, v)),
        (any::<bool>(), key()).prop_map(|(w, k)| Op::Remove(w, k)),
        (any::<bool>(), key()).prop_map(|(w, k)| Op::Get(w, k)),
        any::<bool>().prop_map(Op::Len),
        any::<bool>().prop_map(Op::Duplicate),
        Just(Op::Same),
    ]
}

/// The same calls for hegeltest, equally likely, from the same ranges.
pub fn hegel_op() -> impl hegel_peer::PrintableGenerator<Op> {
    hegel::compose!(|tc| {
        let key = || gs::integers::<u32>().max_value(999);
        let side = || gs::booleans();
        match tc.draw(gs::integers::<u8>().max_value(5)) {
            0 => Op::Insert(tc.draw(side()), tc.draw(key()), tc.draw(key())),
            1 => Op::Remove(tc.draw(side()), tc.draw(key())),
            2 => Op::Get(tc.draw(side()), tc.draw(key())),
            3 => Op::Len(tc.draw(side())),
            4 => Op::Duplicate(tc.draw(side())),
            _ => Op::Same,
        }
    })
}

/// Runs `ops` on both pairs of maps; the first disagreement, with its index.
pub fn run(ops: &[Op], done: &mut u64) -> super::Outcome {
    let mut c: [Candidate; 2] = [Map::new(), Map::new()];
    let mut r: [BTreeMap<u32, u32>; 2] = [Map::new(), Map::new()];
    for (i, op) in ops.iter().enumerate() {
        *done += 1;
        match *op {
            Op::Insert(w, k, v) => {
                let w = usize::from(w);
                same!(i, op, Map::insert(&mut c[w], k, v), Map::insert(&mut r[w], k, v))
            }
            Op::Remove(w, k) => {
                let w = usize::from(w);
                same!(i, op, Map::remove(&mut c[w], k), Map::remove(&mut r[w], k))
            }
            Op::Get(w, k) => same!(i, op, Map::get(&c[usize::from(w)], k), Map::get(&r[usize::from(w)], k)),
            Op::Len(w) => same!(i, op, Map::len(&c[usize::from(w)]), Map::len(&r[usize::from(w)])),
            Op::Duplicate(w) => {
                let (from, to) = (usize::from(w), usize::from(!w));
                c[to] = Map::duplicate(&c[from]);
                r[to] = Map::duplicate(&r[from]);
            }
            Op::Same => same!(i, op, Map::same(&c[0], &c[1]), Map::same(&r[0], &r[1])),
        }
    }
    Ok(())
}

/// The target.
pub fn target() -> Target {
    Target {
        name: "imbl",
        release: "imbl 7.0.1 (fixed in 7.0.2)",
        bug: "OrdMap == is true for unequal maps that share structure through clone()",
        symptom: &["same"],
        api,
        proptest: |seed, max_ops| super::proptest_hunt(proptest::collection::vec(op(), 0..max_ops), seed, run),
        hegel: |seed, max_ops| super::hegel_hunt(hegel_op, seed, max_ops, run),
    }
}
