//! Interface fuzzing (ArtiCheck) as a user meets it: describe your API —
//! its abstract type, its functions, its laws — and read the counterexample
//! as a client program. Run with
//! `cargo run -p speccheck-examples --example interface_fuzzing`.
//!
//! The API is a persistent leftist heap. Nothing here generates heaps:
//! speccheck-interface builds them by calling `empty`, `insert`, `merge`
//! and `pop` on heaps it already has (and destructs what `pop` returns, an
//! `Option<(i32, Heap)>`, to get more heaps), exactly as client code would.

use std::rc::Rc;

use speccheck::interface;
use speccheck::interface::Config;

/// A persistent leftist min-heap. `BUGGY` plants a bug in `merge`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Heap<const BUGGY: bool>(Option<Rc<Node<BUGGY>>>);

#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Node<const BUGGY: bool> {
    rank: u32,
    key: i32,
    left: Heap<BUGGY>,
    right: Heap<BUGGY>,
}

impl<const BUGGY: bool> Heap<BUGGY> {
    pub fn empty() -> Self {
        Heap(None)
    }

    fn rank(&self) -> u32 {
        self.0.as_ref().map_or(0, |n| n.rank)
    }

    /// A node whose children are `a` and `b`, the one with the larger rank
    /// on the left (the leftist property). The bug: ranks are compared the
    /// wrong way round when they differ by exactly one.
    fn make(key: i32, a: Heap<BUGGY>, b: Heap<BUGGY>) -> Self {
        let swap = if BUGGY && a.rank() + 1 == b.rank() { false } else { a.rank() < b.rank() };
        let (left, right) = if swap { (b, a) } else { (a, b) };
        Heap(Some(Rc::new(Node { rank: right.rank() + 1, key, left, right })))
    }

    pub fn merge(&self, other: &Self) -> Self {
        match (&self.0, &other.0) {
            (None, _) => other.clone(),
            (_, None) => self.clone(),
            (Some(a), Some(b)) => {
                if a.key <= b.key {
                    Self::make(a.key, a.left.clone(), a.right.merge(other))
                } else {
                    Self::make(b.key, b.left.clone(), self.merge(&b.right))
                }
            }
        }
    }

    pub fn insert(&self, x: i32) -> Self {
        self.merge(&Self::make(x, Heap(None), Heap(None)))
    }

    pub fn peek(&self) -> Option<i32> {
        self.0.as_ref().map(|n| n.key)
    }

    pub fn pop(&self) -> Option<(i32, Self)> {
        self.0.as_ref().map(|n| (n.key, n.left.merge(&n.right)))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// Every node's key is at most its children's.
    pub fn heap_ordered(&self) -> bool {
        self.0
            .as_ref()
            .is_none_or(|n| [&n.left, &n.right].iter().all(|c| c.peek().is_none_or(|k| n.key <= k) && c.heap_ordered()))
    }

    /// Every node's rank is right, and its left rank is at least its right.
    pub fn leftist(&self) -> bool {
        self.0.as_ref().is_none_or(|n| {
            n.left.rank() >= n.right.rank() && n.rank == n.right.rank() + 1 && n.left.leftist() && n.right.leftist()
        })
    }
}

fn main() {
    println!("== a leftist heap with a planted bug in `merge` ==\n");
    type Heap = self::Heap<true>;
    let api = interface! {
        name = "leftist heap";
        abstract Heap;
        ground i32 = speccheck::gens::ints(0..=20);
        impl Heap {
            fn empty() -> Self;
            fn insert(&self, x: i32) -> Self;
            fn merge(&self, other: &Self) -> Self;
            fn peek(&self) -> Option<i32>;
            fn pop(&self) -> Option<(i32, Self)>;
        }
        law ordered(h: &Heap) => h.heap_ordered();
        law leftist(h: &Heap) => h.leftist();
        law pop_min(h: &Heap, x: i32) requires !h.is_empty() => h.insert(x).peek() == Some(x.min(h.peek().unwrap()));
    }
    .expect("a valid description");
    let report = api.check(Config::seeded(2024));
    println!("{report}");

    println!("== the same API, fixed ==\n");
    type Fixed = self::Heap<false>;
    let api = interface! {
        name = "leftist heap (fixed)";
        abstract Fixed;
        ground i32 = speccheck::gens::ints(0..=20);
        impl Fixed {
            fn empty() -> Self;
            fn insert(&self, x: i32) -> Self;
            fn merge(&self, other: &Self) -> Self;
            fn peek(&self) -> Option<i32>;
            fn pop(&self) -> Option<(i32, Self)>;
        }
        law ordered(h: &Fixed) => h.heap_ordered();
        law leftist(h: &Fixed) => h.leftist();
        law pop_min(h: &Fixed, x: i32) requires !h.is_empty() => h.insert(x).peek() == Some(x.min(h.peek().unwrap()));
    }
    .expect("a valid description");
    println!("{}", api.check(Config { required: 5_000, ..Config::seeded(2024) }));

    println!("== a description the framework cannot use ==\n");
    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    struct Cursor(usize);
    let broken = interface! {
        abstract Fixed;
        abstract Cursor;
        impl Fixed {
            fn empty() -> Self;
        }
        fn seek(h: &Fixed, c: &Cursor) -> Option<i32> = |h: &Fixed, c: &Cursor| h.peek().map(|k| k + c.0 as i32);
    };
    match broken {
        Ok(_) => println!("unexpectedly accepted"),
        Err(e) => println!("error: {e}"),
    }
}
