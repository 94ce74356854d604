//! Binary decision diagrams with hash-consing (ArtiCheck §5.2).
//!
//! Nodes are built only through a unique table keyed by `(variable, low,
//! high)`, so structurally equal sub-diagrams are the same node and two
//! diagrams of the same function are equal by identity. A diagram is
//! *reduced* (no node has equal branches, no two nodes have the same key)
//! and *ordered* (variables increase along every path).
//!
//! Planted bug: `restrict` (fixing a variable to a constant) rebuilds the
//! nodes above the variable directly instead of through the unique table,
//! so when both branches of such a node become equal the node survives:
//! the result is not reduced, and it is not shared with the equal nodes
//! the table knows.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};

use speccheck::interface::{Api, Config};

/// A variable.
pub type Var = u8;

enum Node {
    Zero,
    One,
    Branch { var: Var, low: Bdd<false>, high: Bdd<false>, id: u64 },
}

/// A diagram; `BUGGY` selects the planted bug. (Nodes are stored in the
/// unit variant's form: the flag only selects the operations.)
pub struct Bdd<const BUGGY: bool>(Arc<Node>);

impl<const BUGGY: bool> Clone for Bdd<BUGGY> {
    fn clone(&self) -> Self {
        Bdd(self.0.clone())
    }
}

impl<const BUGGY: bool> PartialEq for Bdd<BUGGY> {
    /// Identity: with maximal sharing, equal functions are the same node.
    fn eq(&self, other: &Self) -> bool {
        self.id() == other.id()
    }
}

impl<const BUGGY: bool> Eq for Bdd<BUGGY> {}

impl<const BUGGY: bool> std::hash::Hash for Bdd<BUGGY> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.id().hash(state);
    }
}

impl<const BUGGY: bool> fmt::Debug for Bdd<BUGGY> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &*self.0 {
            Node::Zero => f.write_str("0"),
            Node::One => f.write_str("1"),
            Node::Branch { var, low, high, id } => write!(f, "#{id}(x{var} ? {high:?} : {low:?})"),
        }
    }
}

type Table = Mutex<(HashMap<(Var, u64, u64), Weak<Node>>, usize)>;

fn table(buggy: bool) -> &'static Table {
    static BUGGY_TABLE: OnceLock<Table> = OnceLock::new();
    static CORRECT_TABLE: OnceLock<Table> = OnceLock::new();
    let t = if buggy { &BUGGY_TABLE } else { &CORRECT_TABLE };
    t.get_or_init(|| Mutex::new((HashMap::new(), 1024)))
}

static NEXT_ID: AtomicU64 = AtomicU64::new(2);

impl<const BUGGY: bool> Bdd<BUGGY> {
    fn erase(self) -> Bdd<false> {
        Bdd(self.0)
    }

    fn tag(b: Bdd<false>) -> Self {
        Bdd(b.0)
    }

    fn id(&self) -> u64 {
        match &*self.0 {
            Node::Zero => 0,
            Node::One => 1,
            Node::Branch { id, .. } => *id,
        }
    }

    fn top_var(&self) -> Var {
        match &*self.0 {
            Node::Branch { var, .. } => *var,
            _ => Var::MAX,
        }
    }

    /// The branches for `v`: the diagram itself twice if it does not test `v`.
    fn cofactors(&self, v: Var) -> (Self, Self) {
        match &*self.0 {
            Node::Branch { var, low, high, .. } if *var == v => (Self::tag(low.clone()), Self::tag(high.clone())),
            _ => (self.clone(), self.clone()),
        }
    }

    /// The node `(v, low, high)` from the unique table (hash-consing).
    fn mk(v: Var, low: Self, high: Self) -> Self {
        if low == high {
            return low;
        }
        let key = (v, low.id(), high.id());
        let mut guard = table(BUGGY).lock().unwrap_or_else(|e| e.into_inner());
        let (map, prune_at) = &mut *guard;
        if let Some(n) = map.get(&key).and_then(Weak::upgrade) {
            return Bdd(n);
        }
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        let n = Arc::new(Node::Branch { var: v, low: low.erase(), high: high.erase(), id });
        map.insert(key, Arc::downgrade(&n));
        if map.len() > *prune_at {
            map.retain(|_, w| w.strong_count() > 0);
            *prune_at = (map.len() * 2).max(1024);
        }
        Bdd(n)
    }

    /// A node built directly, bypassing the unique table (the bug).
    fn raw(v: Var, low: Self, high: Self) -> Self {
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        Bdd(Arc::new(Node::Branch { var: v, low: low.erase(), high: high.erase(), id }))
    }

    /// The constant false.
    pub fn zero() -> Self {
        Bdd(Arc::new(Node::Zero))
    }

    /// The constant true.
    pub fn one() -> Self {
        Bdd(Arc::new(Node::One))
    }

    /// The variable `v`.
    pub fn var(v: Var) -> Self {
        Self::mk(v, Self::zero(), Self::one())
    }

    fn constant(&self) -> Option<bool> {
        match &*self.0 {
            Node::Zero => Some(false),
            Node::One => Some(true),
            Node::Branch { .. } => None,
        }
    }

    fn apply(op: fn(bool, bool) -> bool, a: &Self, b: &Self, memo: &mut HashMap<(u64, u64), Self>) -> Self {
        if let (Some(x), Some(y)) = (a.constant(), b.constant()) {
            return if op(x, y) { Self::one() } else { Self::zero() };
        }
        if let Some(r) = memo.get(&(a.id(), b.id())) {
            return r.clone();
        }
        let v = a.top_var().min(b.top_var());
        let (a0, a1) = a.cofactors(v);
        let (b0, b1) = b.cofactors(v);
        let low = Self::apply(op, &a0, &b0, memo);
        let high = Self::apply(op, &a1, &b1, memo);
        let r = Self::mk(v, low, high);
        memo.insert((a.id(), b.id()), r.clone());
        r
    }

    /// Conjunction.
    pub fn and(&self, other: &Self) -> Self {
        Self::apply(|x, y| x && y, self, other, &mut HashMap::new())
    }

    /// Disjunction.
    pub fn or(&self, other: &Self) -> Self {
        Self::apply(|x, y| x || y, self, other, &mut HashMap::new())
    }

    /// Exclusive or.
    pub fn xor(&self, other: &Self) -> Self {
        Self::apply(|x, y| x != y, self, other, &mut HashMap::new())
    }

    /// Negation.
    pub fn not(&self) -> Self {
        self.xor(&Self::one())
    }

    /// The diagram with variable `v` fixed to `value`.
    pub fn restrict(&self, v: Var, value: bool) -> Self {
        fn go<const B: bool>(f: &Bdd<B>, v: Var, value: bool, memo: &mut HashMap<u64, Bdd<B>>) -> Bdd<B> {
            let Node::Branch { var, low, high, .. } = &*f.0 else { return f.clone() };
            if *var > v {
                return f.clone();
            }
            if *var == v {
                return Bdd::tag(if value { high.clone() } else { low.clone() });
            }
            if let Some(r) = memo.get(&f.id()) {
                return r.clone();
            }
            let l = go(&Bdd::<B>::tag(low.clone()), v, value, memo);
            let h = go(&Bdd::<B>::tag(high.clone()), v, value, memo);
            let r = if B { Bdd::raw(*var, l, h) } else { Bdd::mk(*var, l, h) };
            memo.insert(f.id(), r.clone());
            r
        }
        go(self, v, value, &mut HashMap::new())
    }

    /// Existential quantification of `v`.
    pub fn exists(&self, v: Var) -> Self {
        self.restrict(v, false).or(&self.restrict(v, true))
    }

    /// Evaluates the function on an assignment (variable `i` is bit `i`).
    pub fn eval(&self, bits: u32) -> bool {
        let mut n = self.clone();
        loop {
            match &*n.0 {
                Node::Zero => return false,
                Node::One => return true,
                Node::Branch { var, low, high, .. } => {
                    n = Self::tag(if bits >> var & 1 == 1 { high.clone() } else { low.clone() });
                }
            }
        }
    }

    fn nodes(&self) -> Vec<(Var, u64, u64, u64)> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        let mut stack = vec![self.clone().erase()];
        while let Some(n) = stack.pop() {
            if let Node::Branch { var, low, high, id } = &*n.0
                && seen.insert(*id)
            {
                out.push((*var, low.id(), high.id(), *id));
                stack.push(low.clone());
                stack.push(high.clone());
            }
        }
        out
    }

    /// Reduced: no node has equal branches, and no two nodes have the
    /// same variable and branches (maximal sharing).
    pub fn is_reduced(&self) -> bool {
        let nodes = self.nodes();
        let mut keys = HashSet::new();
        nodes.iter().all(|&(v, l, h, _)| l != h && keys.insert((v, l, h)))
    }

    /// Ordered: variables increase strictly along every path.
    pub fn is_ordered(&self) -> bool {
        let mut stack = vec![self.clone().erase()];
        let mut seen = HashSet::new();
        while let Some(n) = stack.pop() {
            if let Node::Branch { var, low, high, id } = &*n.0
                && seen.insert(*id)
            {
                if low.top_var() <= *var || high.top_var() <= *var {
                    return false;
                }
                stack.push(low.clone());
                stack.push(high.clone());
            }
        }
        true
    }
}

macro_rules! describe {
    () => {
        speccheck::interface! {
            name = "BDD";
            abstract Bdd;
            ground Var = speccheck::gens::ints(0..=4u8);
            ground bool;
            impl Bdd {
                fn zero() -> Self;
                fn one() -> Self;
                fn var(v: Var) -> Self;
                fn not(&self) -> Self;
                fn and(&self, other: &Self) -> Self;
                fn or(&self, other: &Self) -> Self;
                fn xor(&self, other: &Self) -> Self;
                fn restrict(&self, v: Var, value: bool) -> Self;
                fn exists(&self, v: Var) -> Self;
            }
            law reduced(b: &Bdd) => b.is_reduced();
            law ordered(b: &Bdd) => b.is_ordered();
            law and_commutes(a: &Bdd, b: &Bdd) => a.and(b) == b.and(a);
        }
        .expect("the BDD description is valid")
    };
}

/// The diagrams with the planted bug.
pub mod buggy {
    use super::*;
    /// The buggy diagram.
    pub type Bdd = super::Bdd<true>;
    /// Its API.
    pub fn api() -> Api {
        describe!()
    }
}

/// The correct diagrams.
pub mod correct {
    use super::*;
    /// The correct diagram.
    pub type Bdd = super::Bdd<false>;
    /// Its API.
    pub fn api() -> Api {
        describe!()
    }
}

/// Settings for this example.
pub fn config() -> Config {
    Config { required: 5_000, ..Config::default() }
}

#[cfg(test)]
mod tests {
    use super::*;

    type B = correct::Bdd;

    #[test]
    fn equal_functions_are_the_same_node() {
        let (x, y, z) = (B::var(0), B::var(1), B::var(2));
        let f = x.and(&y).or(&z);
        let g = z.or(&y.and(&x));
        assert_eq!(f, g);
        assert_eq!(f.not().not(), f);
        assert!(f.is_reduced() && f.is_ordered());
        for bits in 0..8 {
            let (a, b, c) = (bits & 1 == 1, bits & 2 == 2, bits & 4 == 4);
            assert_eq!(f.eval(bits), (a && b) || c);
        }
        assert_eq!(f.restrict(2, true), B::one());
        assert_eq!(f.exists(0), y.or(&z));
    }

    #[test]
    fn the_buggy_restrict_leaves_a_redundant_node() {
        // f = x1 ∧ (x0 ∨ x2): restricting x2 to true makes both branches
        // of the x0 node equal to x1.
        type Bb = buggy::Bdd;
        let f = Bb::var(1).and(&Bb::var(0).or(&Bb::var(2)));
        assert!(f.is_reduced());
        assert!(!f.restrict(2, true).is_reduced());
        let g = B::var(1).and(&B::var(0).or(&B::var(2)));
        assert!(g.restrict(2, true).is_reduced());
    }
}
