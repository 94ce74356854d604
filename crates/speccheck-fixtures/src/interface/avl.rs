//! AVL trees (the paper's AVL story, §5.3: "AVL trees are a classic of
//! programming interviews… tenured professors should be scared too").
//!
//! A persistent AVL tree of integers with `insert` and `remove`, each
//! rebalancing with single and double rotations.
//!
//! Planted bug: when the left subtree is two levels taller, rebalancing
//! picks the double rotation unless the left child leans *strictly* left
//! (`>` where `>=` is right). Insertion never meets a balanced child at
//! that point, so every tree built by `insert` alone is fine; only a
//! `remove` that shortens the right side of a node whose left child is
//! balanced produces a tree whose heights differ by two.

use std::rc::Rc;

use speccheck::interface::{Api, Config};

type Link = Option<Rc<Node>>;

#[derive(Debug, PartialEq, Eq, Hash)]
struct Node {
    left: Link,
    key: i32,
    right: Link,
    height: u32,
}

/// A persistent AVL tree; `BUGGY` selects the planted bug.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Avl<const BUGGY: bool> {
    root: Link,
}

fn height(t: &Link) -> u32 {
    t.as_ref().map_or(0, |n| n.height)
}

fn mk(left: Link, key: i32, right: Link) -> Link {
    let height = 1 + height(&left).max(height(&right));
    Some(Rc::new(Node { left, key, right, height }))
}

/// Rebuilds a node whose children's heights differ by at most two.
fn balance<const BUGGY: bool>(l: Link, k: i32, r: Link) -> Link {
    let (hl, hr) = (height(&l), height(&r));
    if hl > hr + 1 {
        let n = l.expect("a taller subtree is not empty");
        let single = if BUGGY { height(&n.left) > height(&n.right) } else { height(&n.left) >= height(&n.right) };
        if single {
            mk(n.left.clone(), n.key, mk(n.right.clone(), k, r))
        } else {
            let lr = n.right.as_ref().expect("a left-right heavy node has a right child");
            mk(mk(n.left.clone(), n.key, lr.left.clone()), lr.key, mk(lr.right.clone(), k, r))
        }
    } else if hr > hl + 1 {
        let n = r.expect("a taller subtree is not empty");
        if height(&n.right) >= height(&n.left) {
            mk(mk(l, k, n.left.clone()), n.key, n.right.clone())
        } else {
            let rl = n.left.as_ref().expect("a right-left heavy node has a left child");
            mk(mk(l, k, rl.left.clone()), rl.key, mk(rl.right.clone(), n.key, n.right.clone()))
        }
    } else {
        mk(l, k, r)
    }
}

fn insert<const BUGGY: bool>(t: &Link, x: i32) -> Link {
    match t {
        None => mk(None, x, None),
        Some(n) if x < n.key => balance::<BUGGY>(insert::<BUGGY>(&n.left, x), n.key, n.right.clone()),
        Some(n) if x > n.key => balance::<BUGGY>(n.left.clone(), n.key, insert::<BUGGY>(&n.right, x)),
        Some(_) => t.clone(),
    }
}

/// The tree without its smallest key, and that key.
fn remove_min<const BUGGY: bool>(n: &Node) -> (Link, i32) {
    match &n.left {
        None => (n.right.clone(), n.key),
        Some(l) => {
            let (rest, min) = remove_min::<BUGGY>(l);
            (balance::<BUGGY>(rest, n.key, n.right.clone()), min)
        }
    }
}

fn remove<const BUGGY: bool>(t: &Link, x: i32) -> Link {
    let n = t.as_ref()?;
    if x < n.key {
        balance::<BUGGY>(remove::<BUGGY>(&n.left, x), n.key, n.right.clone())
    } else if x > n.key {
        balance::<BUGGY>(n.left.clone(), n.key, remove::<BUGGY>(&n.right, x))
    } else {
        match (&n.left, &n.right) {
            (None, r) => r.clone(),
            (l, None) => l.clone(),
            (l, Some(r)) => {
                let (rest, min) = remove_min::<BUGGY>(r);
                balance::<BUGGY>(l.clone(), min, rest)
            }
        }
    }
}

impl<const BUGGY: bool> Avl<BUGGY> {
    /// The empty tree.
    pub fn empty() -> Self {
        Avl { root: None }
    }

    /// The tree with `x` added.
    pub fn insert(&self, x: i32) -> Self {
        Avl { root: insert::<BUGGY>(&self.root, x) }
    }

    /// The tree without `x`.
    pub fn remove(&self, x: i32) -> Self {
        Avl { root: remove::<BUGGY>(&self.root, x) }
    }

    /// Whether `x` is in the tree.
    pub fn contains(&self, x: i32) -> bool {
        let mut t = &self.root;
        while let Some(n) = t {
            if x == n.key {
                return true;
            }
            t = if x < n.key { &n.left } else { &n.right };
        }
        false
    }

    /// The keys in order.
    pub fn to_vec(&self) -> Vec<i32> {
        fn walk(t: &Link, out: &mut Vec<i32>) {
            if let Some(n) = t {
                walk(&n.left, out);
                out.push(n.key);
                walk(&n.right, out);
            }
        }
        let mut out = Vec::new();
        walk(&self.root, &mut out);
        out
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.to_vec().len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.root.is_none()
    }

    /// The height of the tree.
    pub fn height(&self) -> u32 {
        height(&self.root)
    }

    /// The AVL invariant: stored heights are right and the two subtrees
    /// of every node differ in height by at most one.
    pub fn is_balanced(&self) -> bool {
        fn check(t: &Link) -> Option<u32> {
            match t {
                None => Some(0),
                Some(n) => {
                    let (hl, hr) = (check(&n.left)?, check(&n.right)?);
                    (hl.abs_diff(hr) <= 1 && n.height == 1 + hl.max(hr)).then_some(n.height)
                }
            }
        }
        check(&self.root).is_some()
    }

    /// The search-tree invariant: keys strictly increase in order.
    pub fn is_ordered(&self) -> bool {
        self.to_vec().windows(2).all(|w| w[0] < w[1])
    }
}

macro_rules! describe {
    () => {
        speccheck::interface! {
            name = "AVL tree";
            abstract Avl;
            ground i32 = speccheck::gens::ints(0..=40);
            impl Avl {
                fn empty() -> Self;
                fn insert(&self, x: i32) -> Self;
                fn remove(&self, x: i32) -> Self;
                fn contains(&self, x: i32) -> bool;
                fn to_vec(&self) -> Vec<i32>;
            }
            law balanced(t: &Avl) => t.is_balanced();
            law ordered(t: &Avl) => t.is_ordered();
            law insert_contains(t: &Avl, x: i32) => t.insert(x).contains(x);
            law remove_removes(t: &Avl, x: i32) requires t.contains(x) => !t.remove(x).contains(x);
        }
        .expect("the AVL description is valid")
    };
}

/// The tree with the planted bug.
pub mod buggy {
    use super::*;
    /// The buggy tree.
    pub type Avl = super::Avl<true>;
    /// Its API.
    pub fn api() -> Api {
        describe!()
    }
}

/// The correct tree.
pub mod correct {
    use super::*;
    /// The correct tree.
    pub type Avl = super::Avl<false>;
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
    fn insertion_alone_keeps_both_variants_balanced() {
        let mut a = buggy::Avl::empty();
        let mut b = correct::Avl::empty();
        for x in [5, 3, 8, 1, 4, 7, 9, 2, 6, 0, 10, 11, 12] {
            a = a.insert(x);
            b = b.insert(x);
            assert!(a.is_balanced() && b.is_balanced());
        }
        assert_eq!(a.to_vec(), b.to_vec());
    }

    #[test]
    fn the_bug_needs_a_removal_under_a_balanced_left_child() {
        // 6 at the root, a balanced left subtree of height 3, a right
        // subtree of height 2 whose removal leaves height 1.
        let keys = [6, 3, 8, 1, 4, 7, 9, 0, 2, 5];
        let mut a = buggy::Avl::empty();
        let mut b = correct::Avl::empty();
        for x in keys {
            a = a.insert(x);
            b = b.insert(x);
        }
        let (a, b) = (a.remove(7).remove(9), b.remove(7).remove(9));
        assert!(b.is_balanced() && b.is_ordered());
        assert!(!a.is_balanced(), "the buggy rotation unbalances the tree");
    }
}
