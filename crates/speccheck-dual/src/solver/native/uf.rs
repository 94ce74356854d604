//! Union-find over variable numbers, each class possibly bound to a value:
//! where equalities and bindings — what almost every guard produces — go.

use crate::sym::Value;

/// Union-find over variable numbers, each class possibly bound to a value.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct Uf {
    parent: Vec<u32>,
    bound: Vec<Option<Value>>,
}

impl Uf {
    /// A new class of its own (a new variable); its number.
    pub(super) fn push(&mut self) -> u32 {
        let id = self.parent.len() as u32;
        self.parent.push(id);
        self.bound.push(None);
        id
    }

    /// The representative of `x`'s class.
    pub(super) fn find(&self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            x = self.parent[x as usize];
        }
        x
    }

    /// The value `x`'s class is bound to, if any.
    pub(super) fn value(&self, x: u32) -> Option<&Value> {
        self.bound[self.find(x) as usize].as_ref()
    }

    /// The values classes are bound to.
    pub(super) fn values(&self) -> impl Iterator<Item = &Value> {
        self.bound.iter().flatten()
    }

    /// Binds `x`'s class to `v`; false on a conflict.
    pub(super) fn bind(&mut self, x: u32, v: Value) -> bool {
        let r = self.find(x) as usize;
        match &self.bound[r] {
            Some(old) => *old == v,
            None => {
                self.bound[r] = Some(v);
                true
            }
        }
    }

    /// Merges two classes; false on a conflict.
    pub(super) fn union(&mut self, x: u32, y: u32) -> bool {
        let (rx, ry) = (self.find(x), self.find(y));
        if rx == ry {
            return true;
        }
        let (lo, hi) = if rx < ry { (rx, ry) } else { (ry, rx) };
        let merged = match (self.bound[lo as usize].take(), self.bound[hi as usize].take()) {
            (Some(a), Some(b)) if a != b => return false,
            (a, b) => a.or(b),
        };
        self.parent[hi as usize] = lo;
        self.bound[lo as usize] = merged;
        true
    }
}
