//! Planted bugs that need large valid inputs, each a plausible mistake in
//! otherwise correct code (the correct versions are in `subjects.rs`), and
//! the hand-written generators a user would write instead of a spec:
//! random keys inserted with the correct operation.
//!
//! How large an input each bug needs is argued at each bug and checked by
//! the bench (`smallest failing input` in the results: the smallest
//! failing input any run found, and the sizes the lazy enumeration covered
//! completely without finding one).

use speccheck::gens::{self, Generator};

use crate::subjects::*;

// ----- red-black `add`: a mix-up in Okasaki's balance ----------------------

fn node(color: Color, key: i64, left: Rbt, right: Rbt) -> Rbt {
    Rbt::Node { color, key, left: Box::new(left), right: Box::new(right) }
}

/// Okasaki's balance with one slip in the left-left case: the two middle
/// subtrees (`b2`, the right child of the lower red node, and `b`, the
/// right child of the upper one) are swapped. Right after an insertion both
/// are leaves, so the slip is invisible; it shows only when a red-red
/// violation is *propagated* — the lower red node came out of an earlier
/// balance and has children — which needs a black root, a red child, a
/// black grandchild with a red child on one path, and black subtrees beside
/// them to keep the black heights equal: at least 6 nodes.
fn balance_bug(color: Color, key: i64, l: Rbt, r: Rbt) -> Rbt {
    use Color::{B, R};
    if color == B {
        if let Rbt::Node { color: R, key: y, left: a, right: b } = &l {
            if let Rbt::Node { color: R, key: x, left: a2, right: b2 } = &**a {
                // BUG: should be node(B, x, a2, b2) and node(B, key, b, r).
                return node(R, *y, node(B, *x, (**a2).clone(), (**b).clone()), node(B, key, (**b2).clone(), r));
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

fn ins_bug(x: i64, t: Rbt) -> Rbt {
    match t {
        Rbt::Leaf => node(Color::R, x, Rbt::Leaf, Rbt::Leaf),
        Rbt::Node { color, key, left, right } => {
            if x < key {
                balance_bug(color, key, ins_bug(x, *left), *right)
            } else if x > key {
                balance_bug(color, key, *left, ins_bug(x, *right))
            } else {
                Rbt::Node { color, key, left, right }
            }
        }
    }
}

/// `add` with the balance slip above.
pub fn add_bug(x: i64, t: Rbt) -> Rbt {
    match ins_bug(x, t) {
        Rbt::Node { key, left, right, .. } => Rbt::Node { color: Color::B, key, left, right },
        Rbt::Leaf => Rbt::Leaf,
    }
}

/// The postcondition of `add`: a red-black search tree again, holding the
/// old keys and `x`.
pub fn add_ok(x: i64, t: &Rbt, r: &Rbt) -> bool {
    let mut want = rbt_keys(t);
    want.push(x);
    want.sort_unstable();
    want.dedup();
    is_rb(r) && bh_ok(r) && ordered(r) && rbt_keys(r) == want
}

/// The keys in order (sorted when the tree is ordered).
pub fn rbt_keys(t: &Rbt) -> Vec<i64> {
    fn go(t: &Rbt, out: &mut Vec<i64>) {
        if let Rbt::Node { key, left, right, .. } = t {
            go(left, out);
            out.push(*key);
            go(right, out);
        }
    }
    let mut out = Vec::new();
    go(t, &mut out);
    out
}

pub fn rbt_nodes(t: &Rbt) -> usize {
    match t {
        Rbt::Leaf => 0,
        Rbt::Node { left, right, .. } => 1 + rbt_nodes(left) + rbt_nodes(right),
    }
}

/// A valid red-black tree, checked in Rust (not by the spec evaluator).
pub fn rbt_valid(t: &Rbt) -> bool {
    is_rb(t) && bh_ok(t) && ordered(t)
}

// ----- sorted-list insert: a block skip that trusts a block's first element

pub fn list_to_vec(l: &SList) -> Vec<i64> {
    let mut out = Vec::new();
    let mut l = l;
    while let SList::Cons(h, t) = l {
        out.push(*h);
        l = t;
    }
    out
}

pub fn list_from_vec(xs: &[i64]) -> SList {
    xs.iter().rev().fold(SList::Nil, |acc, &x| SList::Cons(x, Box::new(acc)))
}

/// Insert into a sorted list, skipping a whole block of `BLOCK` elements
/// at a time while the block lies below `x`, then walking. The slip: the
/// skip tests the block's *first* element instead of its last (largest)
/// one, so a block that straddles `x` is skipped. A block is skipped only
/// when the list still has `BLOCK` elements from there: the list needs at
/// least `BLOCK` elements.
pub fn insert_blocked<const BLOCK: usize>(x: i64, l: SList) -> SList {
    let mut v = list_to_vec(&l);
    let mut i = 0;
    // BUG: should test v[i + BLOCK - 1], the block's largest element.
    while i + BLOCK <= v.len() && v[i] < x {
        i += BLOCK;
    }
    while i < v.len() && v[i] < x {
        i += 1;
    }
    v.insert(i, x);
    list_from_vec(&v)
}

/// The postcondition of `insert`: sorted, the old elements and `x`.
pub fn insert_ok(x: i64, l: &SList, r: &SList) -> bool {
    let mut want = list_to_vec(l);
    want.push(x);
    want.sort_unstable();
    sorted(r) && list_to_vec(r) == want
}

// ----- weight-balanced `delete`: a mix-up in the double rotation ----------

fn bin(key: i64, l: Map, r: Map) -> Map {
    Map::Bin { key, left: Box::new(l), right: Box::new(r) }
}

const DELTA: i64 = 3;
const RATIO: i64 = 2;

fn balance_bug_map(k: i64, l: Map, r: Map) -> Map {
    let (sl, sr) = (msize(&l), msize(&r));
    if sl + sr <= 1 {
        bin(k, l, r)
    } else if sr > DELTA * sl {
        rotate_l_bug(k, l, r)
    } else if sl > DELTA * sr {
        rotate_r(k, l, r)
    } else {
        bin(k, l, r)
    }
}

/// The left rotation with a slip in its double-rotation case: the inner
/// node's two subtrees (`rll`, `rlr`) go to the wrong sides. A double
/// rotation needs the right side more than three times the left after a
/// deletion on the left, and its inner subtree at least twice the outer
/// one; for the slip to show, the inner node needs a child (the two
/// subtrees must differ): a left side of 2 before the deletion and a right
/// side of 4 (inner 2, outer 1) — at least 7 keys.
fn rotate_l_bug(k: i64, l: Map, r: Map) -> Map {
    let Map::Bin { key: rk, left: rl, right: rr } = r else { unreachable!("a heavy right side") };
    if msize(&rl) < RATIO * msize(&rr) {
        bin(rk, bin(k, l, *rl), *rr)
    } else {
        let Map::Bin { key: rlk, left: rll, right: rlr } = *rl else { unreachable!("a heavy inner side") };
        // BUG: should be bin(k, l, rll) and bin(rk, rlr, rr).
        bin(rlk, bin(k, l, *rlr), bin(rk, *rll, *rr))
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
            (min, balance_bug_map(key, l, *right))
        }
        Map::Tip => unreachable!("delete_min of an empty map"),
    }
}

fn delete_max(m: Map) -> (i64, Map) {
    match m {
        Map::Bin { key, left, right } if *right == Map::Tip => (key, *left),
        Map::Bin { key, left, right } => {
            let (max, r) = delete_max(*right);
            (max, balance_bug_map(key, *left, r))
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
            balance_bug_map(m, l, r)
        }
        _ => {
            let (m, r) = delete_min(r);
            balance_bug_map(m, l, r)
        }
    }
}

/// Data.Map's `delete` with the rotation slip above.
pub fn delete_bug(k: i64, m: Map) -> Map {
    match m {
        Map::Tip => Map::Tip,
        Map::Bin { key, left, right } => {
            if k < key {
                balance_bug_map(key, delete_bug(k, *left), *right)
            } else if k > key {
                balance_bug_map(key, *left, delete_bug(k, *right))
            } else {
                glue(*left, *right)
            }
        }
    }
}

/// The postcondition of `delete`: a valid map, its keys less `k`.
pub fn delete_ok(k: i64, m: &Map, r: &Map) -> bool {
    let mut want = mkeys(m);
    want.remove(&k);
    map_ok(r) && mkeys(r) == want
}

/// Data.Map's `insert` (correct), for the hand-written generator.
pub fn map_insert(k: i64, m: Map) -> Map {
    match m {
        Map::Tip => bin(k, Map::Tip, Map::Tip),
        Map::Bin { key, left, right } => {
            if k < key {
                balance_ok_map(key, map_insert(k, *left), *right)
            } else if k > key {
                balance_ok_map(key, *left, map_insert(k, *right))
            } else {
                Map::Bin { key, left, right }
            }
        }
    }
}

fn balance_ok_map(k: i64, l: Map, r: Map) -> Map {
    let (sl, sr) = (msize(&l), msize(&r));
    if sl + sr <= 1 {
        bin(k, l, r)
    } else if sr > DELTA * sl {
        let Map::Bin { key: rk, left: rl, right: rr } = r else { unreachable!("a heavy right side") };
        if msize(&rl) < RATIO * msize(&rr) {
            bin(rk, bin(k, l, *rl), *rr)
        } else {
            let Map::Bin { key: rlk, left: rll, right: rlr } = *rl else { unreachable!("a heavy inner side") };
            bin(rlk, bin(k, l, *rll), bin(rk, *rlr, *rr))
        }
    } else if sl > DELTA * sr {
        rotate_r(k, l, r)
    } else {
        bin(k, l, r)
    }
}

pub fn map_nodes(m: &Map) -> usize {
    msize(m) as usize
}

// ----- StackSet: sizes and an independent validity check -------------------

fn ws_list(w: &Workspaces) -> Vec<&Workspace> {
    let mut out = Vec::new();
    let mut w = w;
    while let Workspaces::Then(x, rest) = w {
        out.push(x);
        w = rest;
    }
    out
}

fn wins_list(w: &Wins) -> Vec<i64> {
    let mut out = Vec::new();
    let mut w = w;
    while let Wins::More(x, rest) = w {
        out.push(*x);
        w = rest;
    }
    out
}

/// Every window of a StackSet, in order (duplicates kept).
pub fn all_windows(s: &StackSet) -> Vec<i64> {
    let mut out = Vec::new();
    for w in std::iter::once(&s.current).chain(ws_list(&s.hidden)) {
        if let Some(st) = &w.stack {
            out.push(st.focus);
            out.extend(wins_list(&st.up));
            out.extend(wins_list(&st.down));
        }
    }
    out
}

/// No window twice, checked in Rust.
pub fn stackset_valid(s: &StackSet) -> bool {
    let mut w = all_windows(s);
    let n = w.len();
    w.sort_unstable();
    w.dedup();
    w.len() == n
}

/// A StackSet's size: its windows and workspaces.
pub fn stackset_size(s: &StackSet) -> usize {
    all_windows(s).len() + 1 + ws_list(&s.hidden).len()
}

// ----- hand-written generators ----------------------------------------------

/// Random keys (up to `n`, in `-r..=r`) inserted with the correct `add`,
/// and a key to add.
pub fn rbt_by_hand(n: usize, r: i64) -> impl Generator<Value = (i64, Rbt)> {
    (gens::ints(-r..=r), gens::vec(gens::ints(-r..=r), 0..=n))
        .map(|(x, keys): (i64, Vec<i64>)| (x, keys.into_iter().fold(Rbt::Leaf, |t, k| add(k, t))))
}

/// A sorted random list (up to `n` elements in `-r..=r`) and a key.
pub fn list_by_hand(n: usize, r: i64) -> impl Generator<Value = (i64, SList)> {
    (gens::ints(-r..=r), gens::vec(gens::ints(-r..=r), 0..=n)).map(|(x, mut xs): (i64, Vec<i64>)| {
        xs.sort_unstable();
        (x, list_from_vec(&xs))
    })
}

/// Random keys inserted with the correct `insert`, and a key to delete.
pub fn map_by_hand(n: usize, r: i64) -> impl Generator<Value = (i64, Map)> {
    (gens::ints(-r..=r), gens::vec(gens::ints(-r..=r), 0..=n))
        .map(|(k, keys): (i64, Vec<i64>)| (k, keys.into_iter().fold(Map::Tip, |m, x| map_insert(x, m))))
}

/// Random distinct windows dealt to a current and up to `screens` hidden
/// workspaces.
pub fn stackset_by_hand(n: usize, screens: usize) -> impl Generator<Value = StackSet> {
    (gens::vec(gens::ints(-1000i64..=1000), 0..=n), gens::vec(gens::ints(0usize..=3), 1..=screens + 1)).map(
        |(mut ws, cuts): (Vec<i64>, Vec<usize>)| {
            ws.sort_unstable();
            ws.dedup();
            // Shuffle deterministically by the windows themselves.
            ws.sort_by_key(|w| w.wrapping_mul(0x9e37_79b9_7f4a_7c15u64 as i64));
            let mut rest = &ws[..];
            let mut spaces = Vec::new();
            for (tag, per) in cuts.iter().enumerate() {
                let take = (*per * rest.len().div_ceil(cuts.len())).min(rest.len()) / 2 + usize::from(*per > 0);
                let take = take.min(rest.len());
                let (mine, others) = rest.split_at(take);
                rest = others;
                let stack = mine.split_first().map(|(&focus, more)| {
                    let (up, down) = more.split_at(more.len() / 2);
                    Stack { focus, up: wins_from(up), down: wins_from(down) }
                });
                spaces.push(Workspace { tag: tag as u8, stack });
            }
            let current = spaces.remove(0);
            let hidden = spaces.into_iter().rev().fold(Workspaces::End, |acc, w| Workspaces::Then(w, Box::new(acc)));
            StackSet { current, hidden }
        },
    )
}

fn wins_from(xs: &[i64]) -> Wins {
    xs.iter().rev().fold(Wins::Empty, |acc, &x| Wins::More(x, Box::new(acc)))
}
