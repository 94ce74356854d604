//! Sets as in OCaml's standard library (`Set.Make`): height-balanced trees
//! whose subtrees may differ in height by at most two, with `union` by
//! splitting and joining (the paper's repository, `setbug.ml`).
//!
//! Planted bug (the one ArtiCheck reproduced): `join l v r`, which must
//! rebuild a balanced tree from two balanced trees of *any* heights,
//! applies `bal` at the root until the root is balanced. `bal` only fixes
//! differences of up to three, with one rotation whose inner nodes are
//! built without rebalancing; when the heights differ more, the root ends
//! up balanced while a node below it is not. Only `union` (through `split`
//! and `join`) gets there: `empty`, `add` and `union` suffice to break the
//! `|hl − hr| ≤ 2` invariant. The correct `join` descends along the taller
//! side first (as the standard library does).

use std::cmp::Ordering;
use std::rc::Rc;

use speccheck::interface::{Api, Config};

type Tree = Option<Rc<Node>>;

#[derive(Debug, PartialEq, Eq, Hash)]
struct Node {
    l: Tree,
    v: i32,
    r: Tree,
    h: u32,
}

/// A set of integers; `BUGGY` selects the planted bug.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Set<const BUGGY: bool> {
    root: Tree,
}

fn height(t: &Tree) -> u32 {
    t.as_ref().map_or(0, |n| n.h)
}

/// A node of two balanced trees whose heights differ by at most two.
fn create(l: Tree, v: i32, r: Tree) -> Tree {
    let h = height(&l).max(height(&r)) + 1;
    Some(Rc::new(Node { l, v, r, h }))
}

/// Like `create`, with one rotation if the heights differ by three.
fn bal(l: Tree, v: i32, r: Tree) -> Tree {
    let (hl, hr) = (height(&l), height(&r));
    if hl > hr + 2 {
        let n = l.expect("the taller side is not empty");
        if height(&n.l) >= height(&n.r) {
            create(n.l.clone(), n.v, create(n.r.clone(), v, r))
        } else {
            let lr = n.r.as_ref().expect("the inner side is the taller");
            create(create(n.l.clone(), n.v, lr.l.clone()), lr.v, create(lr.r.clone(), v, r))
        }
    } else if hr > hl + 2 {
        let n = r.expect("the taller side is not empty");
        if height(&n.r) >= height(&n.l) {
            create(create(l, v, n.l.clone()), n.v, n.r.clone())
        } else {
            let rl = n.l.as_ref().expect("the inner side is the taller");
            create(create(l, v, rl.l.clone()), rl.v, create(rl.r.clone(), n.v, n.r.clone()))
        }
    } else {
        create(l, v, r)
    }
}

fn add(x: i32, t: &Tree) -> Tree {
    match t {
        None => create(None, x, None),
        Some(n) => match x.cmp(&n.v) {
            Ordering::Equal => t.clone(),
            Ordering::Less => bal(add(x, &n.l), n.v, n.r.clone()),
            Ordering::Greater => bal(n.l.clone(), n.v, add(x, &n.r)),
        },
    }
}

fn add_min(x: i32, t: &Tree) -> Tree {
    match t {
        None => create(None, x, None),
        Some(n) => bal(add_min(x, &n.l), n.v, n.r.clone()),
    }
}

fn add_max(x: i32, t: &Tree) -> Tree {
    match t {
        None => create(None, x, None),
        Some(n) => bal(n.l.clone(), n.v, add_max(x, &n.r)),
    }
}

/// A balanced tree of `l`, `v`, `r` (all of `l` below `v`, all of `r`
/// above), whatever their heights.
fn join<const BUGGY: bool>(l: Tree, v: i32, r: Tree) -> Tree {
    if BUGGY {
        // Rebalances the root until it is balanced: the nodes `bal`
        // creates below it may not be.
        let (mut l, mut v, mut r) = (l, v, r);
        loop {
            let t = bal(l, v, r);
            let n = t.as_ref().expect("bal makes a node");
            if height(&n.l).abs_diff(height(&n.r)) > 2 {
                (l, v, r) = (n.l.clone(), n.v, n.r.clone());
            } else {
                return t;
            }
        }
    }
    match (&l, &r) {
        (None, _) => add_min(v, &r),
        (_, None) => add_max(v, &l),
        (Some(ln), Some(rn)) => {
            if ln.h > rn.h + 2 {
                bal(ln.l.clone(), ln.v, join::<BUGGY>(ln.r.clone(), v, r))
            } else if rn.h > ln.h + 2 {
                bal(join::<BUGGY>(l, v, rn.l.clone()), rn.v, rn.r.clone())
            } else {
                create(l, v, r)
            }
        }
    }
}

/// The elements below `x`, whether `x` is present, the elements above.
fn split<const BUGGY: bool>(x: i32, t: &Tree) -> (Tree, bool, Tree) {
    match t {
        None => (None, false, None),
        Some(n) => match x.cmp(&n.v) {
            Ordering::Equal => (n.l.clone(), true, n.r.clone()),
            Ordering::Less => {
                let (ll, present, rl) = split::<BUGGY>(x, &n.l);
                (ll, present, join::<BUGGY>(rl, n.v, n.r.clone()))
            }
            Ordering::Greater => {
                let (lr, present, rr) = split::<BUGGY>(x, &n.r);
                (join::<BUGGY>(n.l.clone(), n.v, lr), present, rr)
            }
        },
    }
}

fn union<const BUGGY: bool>(s1: &Tree, s2: &Tree) -> Tree {
    match (s1, s2) {
        (None, t) | (t, None) => t.clone(),
        (Some(n1), Some(n2)) => {
            if n1.h >= n2.h {
                if n2.h == 1 {
                    return add(n2.v, s1);
                }
                let (l2, _, r2) = split::<BUGGY>(n1.v, s2);
                join::<BUGGY>(union::<BUGGY>(&n1.l, &l2), n1.v, union::<BUGGY>(&n1.r, &r2))
            } else {
                if n1.h == 1 {
                    return add(n1.v, s2);
                }
                let (l1, _, r1) = split::<BUGGY>(n2.v, s1);
                join::<BUGGY>(union::<BUGGY>(&l1, &n2.l), n2.v, union::<BUGGY>(&r1, &n2.r))
            }
        }
    }
}

impl<const BUGGY: bool> Set<BUGGY> {
    /// The empty set.
    pub fn empty() -> Self {
        Set { root: None }
    }

    /// The set with `x` added.
    pub fn add(&self, x: i32) -> Self {
        Set { root: add(x, &self.root) }
    }

    /// The union of two sets.
    pub fn union(&self, other: &Self) -> Self {
        Set { root: union::<BUGGY>(&self.root, &other.root) }
    }

    /// Whether `x` is in the set.
    pub fn mem(&self, x: i32) -> bool {
        let mut t = &self.root;
        while let Some(n) = t {
            match x.cmp(&n.v) {
                Ordering::Equal => return true,
                Ordering::Less => t = &n.l,
                Ordering::Greater => t = &n.r,
            }
        }
        false
    }

    /// The elements in increasing order.
    pub fn elements(&self) -> Vec<i32> {
        fn walk(t: &Tree, out: &mut Vec<i32>) {
            if let Some(n) = t {
                walk(&n.l, out);
                out.push(n.v);
                walk(&n.r, out);
            }
        }
        let mut out = Vec::new();
        walk(&self.root, &mut out);
        out
    }

    /// The invariant of OCaml's sets: stored heights are right and the
    /// subtrees of every node differ in height by at most two.
    pub fn is_balanced(&self) -> bool {
        fn check(t: &Tree) -> Option<u32> {
            match t {
                None => Some(0),
                Some(n) => {
                    let (hl, hr) = (check(&n.l)?, check(&n.r)?);
                    (hl.abs_diff(hr) <= 2 && n.h == hl.max(hr) + 1).then_some(n.h)
                }
            }
        }
        check(&self.root).is_some()
    }

    /// The search-tree invariant.
    pub fn is_ordered(&self) -> bool {
        self.elements().windows(2).all(|w| w[0] < w[1])
    }
}

macro_rules! describe {
    () => {
        speccheck::interface! {
            name = "OCaml Set";
            abstract Set;
            ground i32 = speccheck::gens::ints(0..=10_000);
            fresh i32 = 64, 8;
            impl Set {
                fn empty() -> Self;
                fn add(&self, x: i32) -> Self;
                fn union(&self, other: &Self) -> Self;
            }
            law balanced(s: &Set) => s.is_balanced();
            law ordered(s: &Set) => s.is_ordered();
            law union_mem(a: &Set, b: &Set, x: i32) => a.union(b).mem(x) == (a.mem(x) || b.mem(x));
        }
        .expect("the Set description is valid")
    };
}

/// The set with the planted bug.
pub mod buggy {
    use super::*;
    /// The buggy set.
    pub type Set = super::Set<true>;
    /// Its API.
    pub fn api() -> Api {
        describe!()
    }
}

/// The correct set.
pub mod correct {
    use super::*;
    /// The correct set.
    pub type Set = super::Set<false>;
    /// Its API.
    pub fn api() -> Api {
        describe!()
    }
}

/// Settings for this example.
pub fn config() -> Config {
    Config { required: 20_000, ..Config::default() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unions_agree_with_the_elements() {
        let a = (0..40).fold(correct::Set::empty(), |s, x| s.add(x * 3));
        let b = (0..5).fold(correct::Set::empty(), |s, x| s.add(x * 7 + 1));
        let u = a.union(&b);
        let mut want: Vec<i32> = a.elements().into_iter().chain(b.elements()).collect();
        want.sort();
        want.dedup();
        assert_eq!(u.elements(), want);
        assert!(u.is_balanced() && u.is_ordered());
    }

    #[test]
    fn the_buggy_join_unbalances_a_union_of_small_sets() {
        // The program the search reports (seed 1): two sets of four
        // elements built by `add`, then `union`.
        fn build<const B: bool>(xs: &[i32]) -> Set<B> {
            xs.iter().fold(Set::empty(), |s, &x| s.add(x))
        }
        let (a, b) = (build::<true>(&[0, 5, 1, 7]), build::<true>(&[4, 3, 6, 2]));
        assert!(a.is_balanced() && b.is_balanced());
        let u = a.union(&b);
        assert!(u.is_ordered());
        assert!(!u.is_balanced(), "the buggy join breaks |hl - hr| <= 2");
        let (a, b) = (build::<false>(&[0, 5, 1, 7]), build::<false>(&[4, 3, 6, 2]));
        let v = a.union(&b);
        assert!(v.is_balanced() && v.is_ordered());
        assert_eq!(u.elements(), v.elements());
    }
}
