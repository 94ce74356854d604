//! The paper's four benchmarks (Target, Figure 8) in Rust: the data types
//! with their refinements, the measures, the functions under test and
//! their postconditions.

use speccheck::spec::prelude::*;
use speccheck::{Arbitrary, Targetable, measure};

// ----- List::insert into a sorted list ------------------------------------

/// A sorted list: each tail's elements are at least its head.
#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SList {
    Nil,
    Cons(i64, #[refine(at_least(_1, _0))] Box<SList>),
}

#[measure]
pub fn at_least(l: &SList, x: i64) -> bool {
    match l {
        SList::Nil => true,
        SList::Cons(h, t) => *h >= x && at_least(t, x),
    }
}

#[measure]
pub fn slen(l: &SList) -> i64 {
    match l {
        SList::Nil => 0,
        SList::Cons(_, t) => 1 + slen(t),
    }
}

pub fn insert(x: i64, l: SList) -> SList {
    match l {
        SList::Cons(h, t) if h < x => SList::Cons(h, Box::new(insert(x, *t))),
        l => SList::Cons(x, Box::new(l)),
    }
}

pub fn sorted(l: &SList) -> bool {
    match l {
        SList::Nil => true,
        SList::Cons(h, t) => at_least(t, *h) && sorted(t),
    }
}

// ----- red-black tree add ---------------------------------------------------

#[derive(Arbitrary, Targetable, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    R,
    B,
}

/// A binary search tree with colours; `is_rb` and `bh_ok` make it red-black.
#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rbt {
    Leaf,
    Node {
        color: Color,
        key: i64,
        #[refine(all_lt(left, key))]
        left: Box<Rbt>,
        #[refine(all_gt(right, key))]
        right: Box<Rbt>,
    },
}

#[measure]
pub fn all_lt(t: &Rbt, k: i64) -> bool {
    match t {
        Rbt::Leaf => true,
        Rbt::Node { key, left, right, .. } => *key < k && all_lt(left, k) && all_lt(right, k),
    }
}

#[measure]
pub fn all_gt(t: &Rbt, k: i64) -> bool {
    match t {
        Rbt::Leaf => true,
        Rbt::Node { key, left, right, .. } => *key > k && all_gt(left, k) && all_gt(right, k),
    }
}

#[measure]
pub fn black(c: &Color) -> bool {
    match c {
        Color::R => false,
        Color::B => true,
    }
}

#[measure]
pub fn is_red(t: &Rbt) -> bool {
    match t {
        Rbt::Leaf => false,
        Rbt::Node { color, .. } => !black(color),
    }
}

/// No red node has a red child.
#[measure]
pub fn is_rb(t: &Rbt) -> bool {
    match t {
        Rbt::Leaf => true,
        Rbt::Node { color, left, right, .. } => {
            (black(color) || (!is_red(left) && !is_red(right))) && is_rb(left) && is_rb(right)
        }
    }
}

#[measure]
pub fn bh(t: &Rbt) -> i64 {
    match t {
        Rbt::Leaf => 0,
        Rbt::Node { color, left, .. } => bh(left) + if black(color) { 1 } else { 0 },
    }
}

/// Every path from the root down has the same number of black nodes.
#[measure]
pub fn bh_ok(t: &Rbt) -> bool {
    match t {
        Rbt::Leaf => true,
        Rbt::Node { left, right, .. } => bh(left) == bh(right) && bh_ok(left) && bh_ok(right),
    }
}

pub fn ordered(t: &Rbt) -> bool {
    match t {
        Rbt::Leaf => true,
        Rbt::Node { key, left, right, .. } => {
            all_lt(left, *key) && all_gt(right, *key) && ordered(left) && ordered(right)
        }
    }
}

fn node(color: Color, key: i64, left: Rbt, right: Rbt) -> Rbt {
    Rbt::Node { color, key, left: Box::new(left), right: Box::new(right) }
}

/// Okasaki's balance.
fn balance(color: Color, key: i64, l: Rbt, r: Rbt) -> Rbt {
    use Color::{B, R};
    if color == B {
        if let Rbt::Node { color: R, key: y, left: a, right: b } = &l {
            if let Rbt::Node { color: R, key: x, left: a2, right: b2 } = &**a {
                return node(R, *y, node(B, *x, (**a2).clone(), (**b2).clone()), node(B, key, (**b).clone(), r));
            }
            if let Rbt::Node { color: R, key: z, left: b1, right: c } = &**b {
                return node(R, *z, node(B, *y, (**a).clone(), (**b1).clone()), node(B, key, (**c).clone(), r));
            }
        }
        if let Rbt::Node { color: R, key: z, left: b, right: c } = &r {
            if let Rbt::Node { color: R, key: y, left: b1, right: c1 } = &**b {
                return node(R, *y, node(B, key, l, (**b1).clone()), node(B, *z, (**c1).clone(), (**c).clone()));
            }
            if let Rbt::Node { color: R, key: w, left: c1, right: d } = &**c {
                return node(R, *z, node(B, key, l, (**b).clone()), node(B, *w, (**c1).clone(), (**d).clone()));
            }
        }
    }
    node(color, key, l, r)
}

fn ins(x: i64, t: Rbt) -> Rbt {
    match t {
        Rbt::Leaf => node(Color::R, x, Rbt::Leaf, Rbt::Leaf),
        Rbt::Node { color, key, left, right } => {
            if x < key {
                balance(color, key, ins(x, *left), *right)
            } else if x > key {
                balance(color, key, *left, ins(x, *right))
            } else {
                Rbt::Node { color, key, left, right }
            }
        }
    }
}

pub fn add(x: i64, t: Rbt) -> Rbt {
    match ins(x, t) {
        Rbt::Node { key, left, right, .. } => Rbt::Node { color: Color::B, key, left, right },
        Rbt::Leaf => Rbt::Leaf,
    }
}

// ----- weight-balanced map delete ------------------------------------------

/// A weight-balanced binary search tree of keys (Data.Map's, with `()` values).
#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Map {
    Tip,
    Bin {
        key: i64,
        #[refine(m_lt(left, key))]
        left: Box<Map>,
        #[refine(m_gt(right, key)
            && (msize(left) + msize(right) <= 1 || (msize(left) <= 3 * msize(right) && msize(right) <= 3 * msize(left))))]
        right: Box<Map>,
    },
}

#[measure]
pub fn m_lt(m: &Map, k: i64) -> bool {
    match m {
        Map::Tip => true,
        Map::Bin { key, left, right } => *key < k && m_lt(left, k) && m_lt(right, k),
    }
}

#[measure]
pub fn m_gt(m: &Map, k: i64) -> bool {
    match m {
        Map::Tip => true,
        Map::Bin { key, left, right } => *key > k && m_gt(left, k) && m_gt(right, k),
    }
}

#[measure]
pub fn msize(m: &Map) -> i64 {
    match m {
        Map::Tip => 0,
        Map::Bin { left, right, .. } => 1 + msize(left) + msize(right),
    }
}

/// Data.Map's balance condition (delta = 3), as the refinement above says it.
pub fn weights_ok(l: i64, r: i64) -> bool {
    l + r <= 1 || (l <= 3 * r && r <= 3 * l)
}

#[measure]
pub fn mkeys(m: &Map) -> Set<i64> {
    match m {
        Map::Tip => empty(),
        Map::Bin { key, left, right } => union(singleton(*key), union(mkeys(left), mkeys(right))),
    }
}

/// The map is a valid weight-balanced search tree (the refinements, as Rust).
pub fn map_ok(m: &Map) -> bool {
    match m {
        Map::Tip => true,
        Map::Bin { key, left, right } => {
            m_lt(left, *key)
                && m_gt(right, *key)
                && weights_ok(msize(left), msize(right))
                && map_ok(left)
                && map_ok(right)
        }
    }
}

fn bin(key: i64, l: Map, r: Map) -> Map {
    Map::Bin { key, left: Box::new(l), right: Box::new(r) }
}

const DELTA: i64 = 3;
const RATIO: i64 = 2;

/// Data.Map's rebalancing after one side shrank or grew by one.
fn balance_map(k: i64, l: Map, r: Map) -> Map {
    let (sl, sr) = (msize(&l), msize(&r));
    if sl + sr <= 1 {
        bin(k, l, r)
    } else if sr > DELTA * sl {
        rotate_l(k, l, r)
    } else if sl > DELTA * sr {
        rotate_r(k, l, r)
    } else {
        bin(k, l, r)
    }
}

fn rotate_l(k: i64, l: Map, r: Map) -> Map {
    let Map::Bin { key: rk, left: rl, right: rr } = r else { unreachable!("a heavy right side") };
    if msize(&rl) < RATIO * msize(&rr) {
        bin(rk, bin(k, l, *rl), *rr)
    } else {
        let Map::Bin { key: rlk, left: rll, right: rlr } = *rl else { unreachable!("a heavy inner side") };
        bin(rlk, bin(k, l, *rll), bin(rk, *rlr, *rr))
    }
}

fn rotate_r(k: i64, l: Map, r: Map) -> Map {
    let Map::Bin { key: lk, left: ll, right: lr } = l else { unreachable!("a heavy left side") };
    if msize(&lr) < RATIO * msize(&ll) {
        bin(lk, *ll, bin(k, *lr, r))
    } else {
        let Map::Bin { key: lrk, left: lrl, right: lrr } = *lr else { unreachable!("a heavy inner side") };
        bin(lrk, bin(lk, *ll, *lrl), bin(k, *lrr, r))
    }
}

fn delete_min(m: Map) -> (i64, Map) {
    match m {
        Map::Bin { key, left, right } if *left == Map::Tip => (key, *right),
        Map::Bin { key, left, right } => {
            let (min, l) = delete_min(*left);
            (min, balance_map(key, l, *right))
        }
        Map::Tip => unreachable!("delete_min of an empty map"),
    }
}

fn delete_max(m: Map) -> (i64, Map) {
    match m {
        Map::Bin { key, left, right } if *right == Map::Tip => (key, *left),
        Map::Bin { key, left, right } => {
            let (max, r) = delete_max(*right);
            (max, balance_map(key, *left, r))
        }
        Map::Tip => unreachable!("delete_max of an empty map"),
    }
}

fn glue(l: Map, r: Map) -> Map {
    match (&l, &r) {
        (Map::Tip, _) => r,
        (_, Map::Tip) => l,
        _ if msize(&l) > msize(&r) => {
            let (m, l) = delete_max(l);
            balance_map(m, l, r)
        }
        _ => {
            let (m, r) = delete_min(r);
            balance_map(m, l, r)
        }
    }
}

pub fn delete(k: i64, m: Map) -> Map {
    match m {
        Map::Tip => Map::Tip,
        Map::Bin { key, left, right } => {
            if k < key {
                balance_map(key, delete(k, *left), *right)
            } else if k > key {
                balance_map(key, *left, delete(k, *right))
            } else {
                glue(*left, *right)
            }
        }
    }
}

// ----- StackSet focus_left (xmonad) ----------------------------------------

/// Windows with no duplicates.
#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Wins {
    Empty,
    More(i64, #[refine(!member(_0, wins(_1)))] Box<Wins>),
}

#[measure]
pub fn wins(w: &Wins) -> Set<i64> {
    match w {
        Wins::Empty => empty(),
        Wins::More(x, rest) => union(singleton(*x), wins(rest)),
    }
}

/// xmonad's `Stack`: the focused window, those above it, those below it;
/// no window twice.
#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Stack {
    pub focus: i64,
    #[refine(!member(focus, wins(up)))]
    pub up: Wins,
    #[refine(!member(focus, wins(down)) && inter(wins(up), wins(down)) == empty())]
    pub down: Wins,
}

/// A workspace: a tag and maybe a stack.
#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Workspace {
    pub tag: u8,
    pub stack: Option<Stack>,
}

#[measure]
pub fn stack_wins(s: &Option<Stack>) -> Set<i64> {
    match s {
        None => empty(),
        Some(s) => union(singleton(s.focus), union(wins(&s.up), wins(&s.down))),
    }
}

#[measure]
pub fn ws_wins(w: &Workspace) -> Set<i64> {
    stack_wins(&w.stack)
}

/// A StackSet: the current workspace and the hidden ones, no window on two.
#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq, Eq, Hash)]
pub struct StackSet {
    pub current: Workspace,
    #[refine(disjoint(hidden, ws_wins(current)))]
    pub hidden: Workspaces,
}

/// The hidden workspaces, none sharing a window with another.
#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Workspaces {
    End,
    Then(Workspace, #[refine(disjoint(_1, ws_wins(_0)))] Box<Workspaces>),
}

#[measure]
#[allow(dead_code)] // called by refinements only
pub fn disjoint(ws: &Workspaces, seen: Set<i64>) -> bool {
    match ws {
        Workspaces::End => true,
        Workspaces::Then(w, rest) => inter(ws_wins(w), seen.clone()) == empty() && disjoint(rest, seen),
    }
}

fn to_vec(w: &Wins) -> Vec<i64> {
    let mut out = Vec::new();
    let mut w = w;
    while let Wins::More(x, rest) = w {
        out.push(*x);
        w = rest;
    }
    out
}

fn from_vec(xs: &[i64]) -> Wins {
    xs.iter().rev().fold(Wins::Empty, |acc, &x| Wins::More(x, Box::new(acc)))
}

/// xmonad's `focusUp'` on the current workspace's stack.
pub fn focus_left(s: StackSet) -> StackSet {
    let StackSet { current, hidden } = s;
    let stack = current.stack.map(|st| {
        let up = to_vec(&st.up);
        let down = to_vec(&st.down);
        match up.split_first() {
            Some((&l, ls)) => {
                let mut rs = vec![st.focus];
                rs.extend(down);
                Stack { focus: l, up: from_vec(ls), down: from_vec(&rs) }
            }
            None => {
                // Wrap around: the last window below becomes the focus.
                let mut all: Vec<i64> = std::iter::once(st.focus).chain(down).collect();
                all.reverse();
                let (x, xs) = all.split_first().expect("the focus is there");
                Stack { focus: *x, up: from_vec(xs), down: Wins::Empty }
            }
        }
    });
    StackSet { current: Workspace { tag: current.tag, stack }, hidden }
}
