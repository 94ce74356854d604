//! Red-black trees with a zipper (ArtiCheck §5.1).
//!
//! A persistent red-black tree (Okasaki's insertion) with pointers into
//! it: `zip_open` points at the root, `go` moves to a child, `move_up` to
//! the parent, `zip_close` rebuilds the tree. A pointer is a subtree and
//! the *zipper* (the path back to the root: each frame has the parent's
//! color and key and the sibling subtree).
//!
//! Planted bug — in the API, not the code: the [`exposed`] variant
//! publishes a pointer as the pair `(RbTree, Zipper)`. A client (and
//! ArtiCheck, which destructs returned pairs and builds new ones from its
//! pools) can then pair a zipper with *another* tree, and `zip_close`
//! builds a tree whose black heights differ. The [`correct`] variant keeps
//! `Pointer` abstract: its two halves always belong together.

use std::rc::Rc;

use speccheck::interface::{Api, Config};

/// A node's color.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Red.
    R,
    /// Black.
    B,
}

type Link = Option<Rc<Node>>;

#[derive(Debug, PartialEq, Eq, Hash)]
struct Node {
    color: Color,
    left: Link,
    key: i32,
    right: Link,
}

/// A persistent red-black tree of integers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RbTree {
    root: Link,
}

/// Which child to move to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// The left child.
    Left,
    /// The right child.
    Right,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Frame {
    color: Color,
    dir: Direction,
    key: i32,
    sibling: Link,
}

/// The path from a subtree back to the root (innermost frame first).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Zipper {
    frames: Vec<Frame>,
}

fn node(color: Color, left: Link, key: i32, right: Link) -> Link {
    Some(Rc::new(Node { color, left, key, right }))
}

fn red(t: &Link) -> Option<&Node> {
    t.as_deref().filter(|n| n.color == Color::R)
}

/// Okasaki's balance: a black node with a red child that has a red child
/// becomes a red node with two black children.
fn balance(color: Color, l: Link, k: i32, r: Link) -> Link {
    if color == Color::B {
        if let Some(ln) = red(&l) {
            if let Some(ll) = red(&ln.left) {
                return node(
                    Color::R,
                    node(Color::B, ll.left.clone(), ll.key, ll.right.clone()),
                    ln.key,
                    node(Color::B, ln.right.clone(), k, r),
                );
            }
            if let Some(lr) = red(&ln.right) {
                return node(
                    Color::R,
                    node(Color::B, ln.left.clone(), ln.key, lr.left.clone()),
                    lr.key,
                    node(Color::B, lr.right.clone(), k, r),
                );
            }
        }
        if let Some(rn) = red(&r) {
            if let Some(rl) = red(&rn.left) {
                return node(
                    Color::R,
                    node(Color::B, l, k, rl.left.clone()),
                    rl.key,
                    node(Color::B, rl.right.clone(), rn.key, rn.right.clone()),
                );
            }
            if let Some(rr) = red(&rn.right) {
                return node(
                    Color::R,
                    node(Color::B, l, k, rn.left.clone()),
                    rn.key,
                    node(Color::B, rr.left.clone(), rr.key, rr.right.clone()),
                );
            }
        }
    }
    node(color, l, k, r)
}

fn ins(t: &Link, x: i32) -> Link {
    match t {
        None => node(Color::R, None, x, None),
        Some(n) if x < n.key => balance(n.color, ins(&n.left, x), n.key, n.right.clone()),
        Some(n) if x > n.key => balance(n.color, n.left.clone(), n.key, ins(&n.right, x)),
        Some(_) => t.clone(),
    }
}

fn close_frame(t: Link, f: &Frame) -> Link {
    match f.dir {
        Direction::Left => balance(f.color, t, f.key, f.sibling.clone()),
        Direction::Right => balance(f.color, f.sibling.clone(), f.key, t),
    }
}

impl RbTree {
    /// The empty tree.
    pub fn empty() -> Self {
        RbTree { root: None }
    }

    /// The tree with `x` added.
    pub fn insert(&self, x: i32) -> Self {
        let root = ins(&self.root, x).map(|n| match Rc::try_unwrap(n) {
            Ok(mut n) => {
                n.color = Color::B;
                Rc::new(n)
            }
            Err(n) => Rc::new(Node { color: Color::B, left: n.left.clone(), key: n.key, right: n.right.clone() }),
        });
        RbTree { root }
    }

    /// The keys in order.
    pub fn elements(&self) -> Vec<i32> {
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

    /// The red-black invariant: the root is black, no red node has a red
    /// child, every path has the same number of black nodes.
    pub fn is_balanced(&self) -> bool {
        fn black_height(t: &Link) -> Option<u32> {
            match t {
                None => Some(0),
                Some(n) => {
                    if n.color == Color::R && (red(&n.left).is_some() || red(&n.right).is_some()) {
                        return None;
                    }
                    let (l, r) = (black_height(&n.left)?, black_height(&n.right)?);
                    (l == r).then_some(l + u32::from(n.color == Color::B))
                }
            }
        }
        red(&self.root).is_none() && black_height(&self.root).is_some()
    }

    /// The search-tree invariant.
    pub fn is_sorted(&self) -> bool {
        self.elements().windows(2).all(|w| w[0] < w[1])
    }
}

/// A pointer at the root of `t`.
pub fn zip_open(t: &RbTree) -> (RbTree, Zipper) {
    (t.clone(), Zipper { frames: Vec::new() })
}

/// The whole tree again, rebuilt from a pointer.
pub fn zip_close(p: (RbTree, Zipper)) -> RbTree {
    let (t, z) = p;
    RbTree { root: z.frames.iter().fold(t.root, close_frame) }
}

/// A pointer at the parent, if there is one.
pub fn move_up(p: (RbTree, Zipper)) -> Option<(RbTree, Zipper)> {
    let (t, mut z) = p;
    if z.frames.is_empty() {
        return None;
    }
    let f = z.frames.remove(0);
    Some((RbTree { root: close_frame(t.root, &f) }, z))
}

/// A pointer at a child, if there is one.
pub fn go(d: Direction, p: (RbTree, Zipper)) -> Option<(RbTree, Zipper)> {
    let (t, mut z) = p;
    let n = t.root.as_ref()?;
    let (child, sibling) = match d {
        Direction::Left => (n.left.clone(), n.right.clone()),
        Direction::Right => (n.right.clone(), n.left.clone()),
    };
    z.frames.insert(0, Frame { color: n.color, dir: d, key: n.key, sibling });
    Some((RbTree { root: child }, z))
}

/// The API with pointers published as `(RbTree, Zipper)` pairs: a zipper
/// can be paired with the wrong tree.
pub mod exposed {
    use super::*;

    /// Its API.
    pub fn api() -> Api {
        speccheck::interface! {
            name = "red-black tree, exposed zipper";
            abstract RbTree;
            abstract Zipper;
            ground i32 = speccheck::gens::ints(0..=100);
            enum Direction { Left, Right }
            impl RbTree {
                fn empty() -> Self;
                fn insert(&self, x: i32) -> Self;
                fn elements(&self) -> Vec<i32>;
            }
            fn zip_open(t: &RbTree) -> (RbTree, Zipper) = zip_open;
            fn zip_close(p: (RbTree, Zipper)) -> RbTree = zip_close;
            fn move_up(p: (RbTree, Zipper)) -> Option<(RbTree, Zipper)> = move_up;
            fn go(d: Direction, p: (RbTree, Zipper)) -> Option<(RbTree, Zipper)> = go;
            law balanced(t: &RbTree) => t.is_balanced();
            law sorted(t: &RbTree) => t.is_sorted();
        }
        .expect("the red-black tree description is valid")
    }
}

/// A pointer whose tree and zipper always belong together.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pointer {
    tree: RbTree,
    zipper: Zipper,
}

impl RbTree {
    /// A pointer at the root.
    pub fn zip_open(&self) -> Pointer {
        let (tree, zipper) = zip_open(self);
        Pointer { tree, zipper }
    }
}

impl Pointer {
    /// The whole tree again.
    pub fn zip_close(&self) -> RbTree {
        zip_close((self.tree.clone(), self.zipper.clone()))
    }

    /// The parent, if any.
    pub fn move_up(&self) -> Option<Pointer> {
        move_up((self.tree.clone(), self.zipper.clone())).map(|(tree, zipper)| Pointer { tree, zipper })
    }

    /// A child, if any.
    pub fn go(&self, d: Direction) -> Option<Pointer> {
        go(d, (self.tree.clone(), self.zipper.clone())).map(|(tree, zipper)| Pointer { tree, zipper })
    }
}

/// The API with an abstract `Pointer`.
pub mod correct {
    use super::*;

    /// Its API.
    pub fn api() -> Api {
        speccheck::interface! {
            name = "red-black tree, abstract pointer";
            abstract RbTree;
            abstract Pointer;
            ground i32 = speccheck::gens::ints(0..=100);
            enum Direction { Left, Right }
            impl RbTree {
                fn empty() -> Self;
                fn insert(&self, x: i32) -> Self;
                fn elements(&self) -> Vec<i32>;
                fn zip_open(&self) -> Pointer;
            }
            impl Pointer {
                fn zip_close(&self) -> RbTree;
                fn move_up(&self) -> Option<Pointer>;
                fn go(&self, d: Direction) -> Option<Pointer>;
            }
            law balanced(t: &RbTree) => t.is_balanced();
            law sorted(t: &RbTree) => t.is_sorted();
        }
        .expect("the red-black tree description is valid")
    }
}

/// Settings for this example.
pub fn config() -> Config {
    Config { required: 10_000, ..Config::default() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moving_and_closing_gives_the_tree_back() {
        let t = (0..50).fold(RbTree::empty(), |t, x| t.insert((x * 37) % 101));
        assert!(t.is_balanced() && t.is_sorted());
        let p = t.zip_open().go(Direction::Left).unwrap().go(Direction::Right).unwrap();
        assert_eq!(p.zip_close(), t);
        assert_eq!(p.move_up().unwrap().move_up().unwrap().zip_close(), t);
    }

    #[test]
    fn a_zipper_with_the_wrong_tree_breaks_the_invariant() {
        let t = (0..10).fold(RbTree::empty(), |t, x| t.insert(x));
        let (_, z) = go(Direction::Left, zip_open(&t)).unwrap();
        let other = RbTree::empty().insert(100);
        assert!(!zip_close((other, z)).is_balanced());
    }
}
