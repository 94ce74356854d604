//! indexset 0.4.0 (fixed in 0.4.1, lucidarium-systems/indexset#12): a
//! duplicate insert into a full node (1,024 elements) splits it without
//! rebuilding the positional index, so `get_index` and `rank` go stale.
//! Reference: `std::collections::BTreeSet<u32>`.
//!
//! The calls are those of a set a user would check (no `get`/`range`,
//! which have shallow bugs of their own in this release: see
//! `bench/interface-real/CANDIDATES.md`). Keys are drawn from `0..20000`;
//! a position argument is taken modulo `len() + 1`, so it lands in the
//! set (or one past it) whatever the set's size: the same for both tools.

use std::collections::BTreeSet;

use proptest::prelude::*;
use speccheck::gens;
use speccheck::interface::{Api, interface};
use speccheck_bench::hegel_peer::{self, gs};

use super::Target;

/// What both sets provide (keys and positions as `u32`).
#[allow(clippy::len_without_is_empty)]
pub trait OrdSet {
    fn new() -> Self;
    fn insert(&mut self, k: u32) -> bool;
    fn remove(&mut self, k: u32) -> bool;
    fn contains(&self, k: u32) -> bool;
    fn len(&self) -> usize;
    fn first(&self) -> Option<u32>;
    fn last(&self) -> Option<u32>;
    /// The element at `at % (len + 1)` in order.
    fn get_index(&self, at: u32) -> Option<u32>;
    /// How many elements are smaller than `k`.
    fn rank(&self, k: u32) -> usize;
}

fn position(at: u32, len: usize) -> usize {
    at as usize % (len + 1)
}

impl OrdSet for indexset::BTreeSet<u32> {
    fn new() -> Self {
        indexset::BTreeSet::new()
    }
    fn insert(&mut self, k: u32) -> bool {
        indexset::BTreeSet::insert(self, k)
    }
    fn remove(&mut self, k: u32) -> bool {
        indexset::BTreeSet::remove(self, &k)
    }
    fn contains(&self, k: u32) -> bool {
        indexset::BTreeSet::contains(self, &k)
    }
    fn len(&self) -> usize {
        indexset::BTreeSet::len(self)
    }
    fn first(&self) -> Option<u32> {
        indexset::BTreeSet::first(self).copied()
    }
    fn last(&self) -> Option<u32> {
        indexset::BTreeSet::last(self).copied()
    }
    fn get_index(&self, at: u32) -> Option<u32> {
        indexset::BTreeSet::get_index(self, position(at, OrdSet::len(self))).copied()
    }
    fn rank(&self, k: u32) -> usize {
        indexset::BTreeSet::rank(self, &k)
    }
}

impl OrdSet for BTreeSet<u32> {
    fn new() -> Self {
        BTreeSet::new()
    }
    fn insert(&mut self, k: u32) -> bool {
        BTreeSet::insert(self, k)
    }
    fn remove(&mut self, k: u32) -> bool {
        BTreeSet::remove(self, &k)
    }
    fn contains(&self, k: u32) -> bool {
        BTreeSet::contains(self, &k)
    }
    fn len(&self) -> usize {
        BTreeSet::len(self)
    }
    fn first(&self) -> Option<u32> {
        BTreeSet::first(self).copied()
    }
    fn last(&self) -> Option<u32> {
        BTreeSet::last(self).copied()
    }
    fn get_index(&self, at: u32) -> Option<u32> {
        self.iter().nth(position(at, BTreeSet::len(self))).copied()
    }
    fn rank(&self, k: u32) -> usize {
        self.range(..k).count()
    }
}

type Candidate = indexset::BTreeSet<u32>;

/// The reference-model description, at speccheck's defaults.
pub fn api() -> Api {
    interface! {
        name = "indexset 0.4.0 vs BTreeSet";
        ground u32 = gens::ints(0..20_000u32);
        compare Candidate with BTreeSet<u32> by OrdSet {
            fn new() -> Self;
            fn insert(&mut self, k: u32) -> bool;
            fn remove(&mut self, k: u32) -> bool;
            fn contains(&self, k: u32) -> bool;
            fn len(&self) -> usize;
            fn first(&self) -> Option<u32>;
            fn last(&self) -> Option<u32>;
            fn get_index(&self, at: u32) -> Option<u32>;
            fn rank(&self, k: u32) -> usize;
        }
    }
    .expect("a valid description")
}

/// One operation of the proptest harness.
#[derive(Clone, Debug)]
pub enum Op {
    Insert(u32),
    Remove(u32),
    Contains(u32),
    Len,
    First,
    Last,
    GetIndex(u32),
    Rank(u32),
}

impl Op {
    fn name(&self) -> &'static str {
        match self {
            Op::Insert(_) => "insert",
            Op::Remove(_) => "remove",
            Op::Contains(_) => "contains",
            Op::Len => "len",
            Op::First => "first",
            Op::Last => "last",
            Op::GetIndex(_) => "get_index",
            Op::Rank(_) => "rank",
        }
    }
}

/// The same calls, equally likely, keys from the same range.
pub fn op() -> impl Strategy<Value = Op> {
    let key = || 0..20_000u32;
    prop_oneof![
        key().prop_map(Op::Insert),
        key().prop_map(Op::Remove),
        key().prop_map(Op::Contains),
        Just(Op::Len),
        Just(Op::First),
        Just(Op::Last),
        any::<u32>().prop_map(Op::GetIndex),
        key().prop_map(Op::Rank),
    ]
}

/// The same calls for hegeltest, equally likely, from the same ranges.
pub fn hegel_op() -> impl hegel_peer::PrintableGenerator<Op> {
    hegel::compose!(|tc| {
        let key = || gs::integers::<u32>().max_value(19_999);
        match tc.draw(gs::integers::<u8>().max_value(7)) {
            0 => Op::Insert(tc.draw(key())),
            1 => Op::Remove(tc.draw(key())),
            2 => Op::Contains(tc.draw(key())),
            3 => Op::Len,
            4 => Op::First,
            5 => Op::Last,
            6 => Op::GetIndex(tc.draw(gs::integers::<u32>())),
            _ => Op::Rank(tc.draw(key())),
        }
    })
}

/// Runs `ops` on both sets; the first disagreement, with its index.
pub fn run(ops: &[Op], done: &mut u64) -> super::Outcome {
    let mut c = <Candidate as OrdSet>::new();
    let mut r = <BTreeSet<u32> as OrdSet>::new();
    for (i, op) in ops.iter().enumerate() {
        *done += 1;
        match *op {
            Op::Insert(k) => same!(i, op, OrdSet::insert(&mut c, k), OrdSet::insert(&mut r, k)),
            Op::Remove(k) => same!(i, op, OrdSet::remove(&mut c, k), OrdSet::remove(&mut r, k)),
            Op::Contains(k) => same!(i, op, OrdSet::contains(&c, k), OrdSet::contains(&r, k)),
            Op::Len => same!(i, op, OrdSet::len(&c), OrdSet::len(&r)),
            Op::First => same!(i, op, OrdSet::first(&c), OrdSet::first(&r)),
            Op::Last => same!(i, op, OrdSet::last(&c), OrdSet::last(&r)),
            Op::GetIndex(at) => same!(i, op, OrdSet::get_index(&c, at), OrdSet::get_index(&r, at)),
            Op::Rank(k) => same!(i, op, OrdSet::rank(&c, k), OrdSet::rank(&r, k)),
        }
    }
    Ok(())
}

/// The target.
pub fn target() -> Target {
    Target {
        name: "indexset",
        release: "indexset 0.4.0 (fixed in 0.4.1)",
        bug: "stale positional index after a duplicate insert into a full node",
        symptom: &["get_index", "rank"],
        api,
        proptest: |seed, max_ops| super::proptest_hunt(proptest::collection::vec(op(), 0..max_ops), seed, run),
        hegel: |seed, max_ops| super::hegel_hunt(hegel_op, seed, max_ops, run),
    }
}
