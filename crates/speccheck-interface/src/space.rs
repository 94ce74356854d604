//! Symbolic sets of arguments (ArtiCheck §3.2, "not holding sets in
//! memory").
//!
//! The arguments a function can take form a product of the pools of its
//! argument types (through sums and containers). Instead of building that
//! product, a `Product` numbers its elements — a mixed-radix number
//! over the factors, a disjoint union for sums, lengths for containers —
//! and `Product::decode` turns one number back into the arguments. A
//! `Walk` visits the numbers of a product in a pseudo-random order
//! (an affine permutation), so a budget cut anywhere gives a uniform
//! sample rather than the first few combinations.
//!
//! A round only tries combinations with at least one instance new since
//! the previous round (semi-naive evaluation of the fixpoint): for
//! argument `i`, the atoms before it range over old instances, argument
//! `i` over new ones, the ones after it over all.

use std::rc::Rc;

use rand::Rng;
use rand::rngs::SmallRng;

use crate::describe::Dyn;
use crate::describe::{Api, Shape};

/// An instance in a pool.
pub(crate) struct Inst {
    pub(crate) value: Dyn,
    pub(crate) origin: crate::provenance::Origin,
    pub(crate) key: u64,
    /// Its pool (type).
    pub(crate) ty: usize,
    /// The round it was made in.
    pub(crate) round: u32,
    pub(crate) eq: fn(&dyn std::any::Any, &dyn std::any::Any) -> bool,
}

impl crate::pool::PoolItem for Rc<Inst> {
    fn key(&self) -> u64 {
        self.key
    }
    fn same(&self, other: &Self) -> bool {
        (self.eq)(&*self.value, &*other.value)
    }
}

/// Which instances of a pool an argument ranges over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    /// Made before the previous round.
    Old,
    /// Made in the previous round.
    Delta,
    /// Both.
    All,
}

/// The pools as they were at the start of a round: per type, old
/// instances first, then the previous round's.
pub(crate) struct Snapshot {
    pub(crate) items: Vec<Vec<Rc<Inst>>>,
    pub(crate) old: Vec<usize>,
}

impl Snapshot {
    fn range(&self, k: usize, part: Part) -> (usize, usize) {
        let (old, len) = (self.old[k], self.items[k].len());
        match part {
            Part::Old => (0, old),
            Part::Delta => (old, len - old),
            Part::All => (0, len),
        }
    }

    /// Treats every instance as new (to combine everything again).
    pub(crate) fn all_new(&mut self) {
        self.old.iter_mut().for_each(|o| *o = 0);
    }

    /// True when some pool has new instances.
    pub(crate) fn has_delta(&self) -> bool {
        self.items.iter().zip(&self.old).any(|(v, &o)| v.len() > o)
    }

    fn size(&self, shape: &Shape, part: Part, list_max: usize) -> u128 {
        match shape {
            Shape::Atom(k) => self.range(*k, part).1 as u128,
            Shape::Data(_, vs) => vs
                .iter()
                .map(|fs| fs.iter().fold(1u128, |acc, f| acc.saturating_mul(self.size(f, Part::All, list_max))))
                .fold(0u128, u128::saturating_add),
            Shape::List(l, e) => {
                let e = self.size(e, Part::All, list_max);
                let max = l.max_len.unwrap_or(list_max);
                let mut total = 0u128;
                let mut pow = 1u128;
                for _ in 0..=max {
                    total = total.saturating_add(pow);
                    pow = pow.saturating_mul(e);
                }
                total
            }
        }
    }

    fn decode<'s>(&self, shape: &'s Shape, part: Part, mut idx: u128, list_max: usize) -> Tree<'s> {
        match shape {
            Shape::Atom(k) => {
                let (offset, _) = self.range(*k, part);
                Tree::Atom(self.items[*k][offset + idx as usize].clone())
            }
            Shape::Data(_, vs) => {
                for (v, fs) in vs.iter().enumerate() {
                    let sizes: Vec<u128> = fs.iter().map(|f| self.size(f, Part::All, list_max)).collect();
                    let n = sizes.iter().fold(1u128, |a, &s| a.saturating_mul(s));
                    if idx < n {
                        let digits = mixed_radix(idx, &sizes);
                        let fields =
                            fs.iter().zip(digits).map(|(f, d)| self.decode(f, Part::All, d, list_max)).collect();
                        return Tree::Data { shape, variant: v, fields };
                    }
                    idx -= n;
                }
                unreachable!("index beyond a sum's size")
            }
            Shape::List(l, e) => {
                let es = self.size(e, Part::All, list_max);
                let max = l.max_len.unwrap_or(list_max);
                let mut pow = 1u128;
                for len in 0..=max {
                    if idx < pow {
                        let digits = mixed_radix(idx, &vec![es; len]);
                        let items = digits.into_iter().map(|d| self.decode(e, Part::All, d, list_max)).collect();
                        return Tree::List { shape, items };
                    }
                    idx -= pow;
                    pow = pow.saturating_mul(es);
                }
                unreachable!("index beyond a container's size")
            }
        }
    }
}

/// `idx` as digits in the given radices (last digit least significant).
fn mixed_radix(mut idx: u128, sizes: &[u128]) -> Vec<u128> {
    let mut digits = vec![0u128; sizes.len()];
    for i in (0..sizes.len()).rev() {
        let s = sizes[i].max(1);
        digits[i] = idx % s;
        idx /= s;
    }
    digits
}

/// One argument tuple, decoded.
pub(crate) enum Tree<'s> {
    Atom(Rc<Inst>),
    Data { shape: &'s Shape, variant: usize, fields: Vec<Tree<'s>> },
    List { shape: &'s Shape, items: Vec<Tree<'s>> },
}

impl Tree<'_> {
    /// An owned value (clones the instances inside).
    pub(crate) fn build(&self, api: &Api) -> Dyn {
        match self {
            Tree::Atom(inst) => (api.types[inst.ty].ops.clone)(&*inst.value),
            Tree::Data { shape: Shape::Data(d, _), variant, fields } => {
                d.ops.build(*variant, fields.iter().map(|f| f.build(api)).collect())
            }
            Tree::List { shape: Shape::List(l, _), items } => l.ops.build(items.iter().map(|f| f.build(api)).collect()),
            _ => unreachable!("a tree does not match its shape"),
        }
    }

    /// Where the value came from.
    pub(crate) fn prov(&self) -> crate::provenance::ArgProv {
        use crate::provenance::ArgProv;
        match self {
            Tree::Atom(inst) => ArgProv::Atom(inst.origin.clone()),
            Tree::Data { variant, fields, .. } => {
                ArgProv::Data { variant: *variant as u32, fields: fields.iter().map(Tree::prov).collect() }
            }
            Tree::List { items, .. } => ArgProv::List(items.iter().map(Tree::prov).collect()),
        }
    }
}

/// The argument tuples of one semi-naive part of a function's (or law's)
/// arguments.
pub(crate) struct Product<'s> {
    dims: Vec<(&'s Shape, Part)>,
    sizes: Vec<u128>,
    pub(crate) total: u128,
}

impl<'s> Product<'s> {
    pub(crate) fn new(snap: &Snapshot, dims: Vec<(&'s Shape, Part)>, list_max: usize) -> Self {
        let sizes: Vec<u128> = dims.iter().map(|(s, p)| snap.size(s, *p, list_max)).collect();
        let total = sizes.iter().fold(1u128, |a, &s| a.saturating_mul(s));
        Product { dims, sizes, total }
    }

    pub(crate) fn decode(&self, snap: &Snapshot, idx: u128, list_max: usize) -> Vec<Tree<'s>> {
        let digits = mixed_radix(idx, &self.sizes);
        self.dims.iter().zip(digits).map(|((s, p), d)| snap.decode(s, *p, d, list_max)).collect()
    }

    /// The semi-naive parts of an argument list: one product per argument
    /// that is a pool (old before it, new at it, all after it); argument
    /// lists without a pool argument are one product over everything.
    pub(crate) fn semi_naive(snap: &Snapshot, args: &'s [Shape], list_max: usize) -> Vec<Product<'s>> {
        let atoms: Vec<usize> = (0..args.len()).filter(|&i| matches!(args[i], Shape::Atom(_))).collect();
        if atoms.is_empty() {
            return vec![Product::new(snap, args.iter().map(|s| (s, Part::All)).collect(), list_max)];
        }
        atoms
            .iter()
            .map(|&i| {
                let dims = args
                    .iter()
                    .enumerate()
                    .map(|(j, s)| {
                        let part = match s {
                            Shape::Atom(_) if j < i => Part::Old,
                            Shape::Atom(_) if j == i => Part::Delta,
                            _ => Part::All,
                        };
                        (s, part)
                    })
                    .collect();
                Product::new(snap, dims, list_max)
            })
            .collect()
    }
}

/// Visits `0..total` in a pseudo-random order, at most `budget` numbers:
/// `k ↦ (a·k + b) mod total` with `a` coprime to `total` is a bijection.
/// Products too large for that are sampled with replacement.
pub(crate) struct Walk {
    total: u128,
    a: u128,
    b: u128,
    k: u128,
    left: u128,
    sample: bool,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Walk {
    pub(crate) fn new(total: u128, budget: u128, rng: &mut SmallRng) -> Self {
        let left = total.min(budget);
        if total <= 1 {
            return Walk { total, a: 1, b: 0, k: 0, left, sample: false };
        }
        if total > u128::from(u64::MAX) {
            return Walk { total, a: 1, b: 0, k: 0, left, sample: true };
        }
        let b = rng.random_range(0..total);
        let a = loop {
            let a = rng.random_range(1..total);
            if gcd(a, total) == 1 {
                break a;
            }
        };
        Walk { total, a, b, k: 0, left, sample: false }
    }

    pub(crate) fn next(&mut self, rng: &mut SmallRng) -> Option<u128> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        if self.sample {
            return Some(rng.random_range(0..self.total));
        }
        let i = (self.a * self.k + self.b) % self.total;
        self.k += 1;
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn walks_visit_every_index_once() {
        let mut rng = SmallRng::seed_from_u64(3);
        for total in [1u128, 2, 7, 12, 100, 1024] {
            let mut w = Walk::new(total, u128::MAX, &mut rng);
            let mut seen = std::collections::HashSet::new();
            while let Some(i) = w.next(&mut rng) {
                assert!(i < total);
                assert!(seen.insert(i));
            }
            assert_eq!(seen.len() as u128, total);
        }
        let mut w = Walk::new(1000, 10, &mut rng);
        let mut n = 0;
        while w.next(&mut rng).is_some() {
            n += 1;
        }
        assert_eq!(n, 10);
    }

    #[test]
    fn mixed_radix_digits() {
        assert_eq!(mixed_radix(7, &[2, 2, 2]), vec![1, 1, 1]);
        assert_eq!(mixed_radix(5, &[3, 4]), vec![1, 1]);
    }
}
