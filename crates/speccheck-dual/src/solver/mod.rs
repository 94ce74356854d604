//! Constraint stores: the symbolic side of one validator branch (thesis
//! §3.2 rules 1–5, §4.2.3).
//!
//! Each branch of the validator owns a store: the variables it created for
//! the server's internal choices and the constraints its observations put
//! on them. Adding a constraint answers whether the branch can still
//! explain what was observed; a branch whose store becomes unsatisfiable
//! dies. Branches fork, so stores are values (`Clone`).
//!
//! Two implementations:
//!
//! * [`Native`] (the default) — a purpose-built, exact decision procedure
//!   for the language of [`crate::sym`]: union-find with constants for
//!   equalities, difference logic (Bellman–Ford over `i64` bounds) for
//!   integer order and offsets, and case splitting for disjunctions,
//!   integer disequalities and if-then-else terms. Most observations
//!   bind a variable to a constant, which it handles without search.
//! * `Z3` (feature `z3`) — the same interface over the z3 SMT solver,
//!   used to cross-check `Native` and to measure the choice (see
//!   `bench/results/dual.md`).

mod native;
#[cfg(feature = "z3")]
mod z3;

use std::collections::BTreeMap;
use std::fmt;
use std::hash::Hash;

pub use native::Native;
#[cfg(feature = "z3")]
pub use z3::Z3;

use crate::sym::{Expr, Sort, Value, Var};

/// A forkable constraint store.
pub trait Solver: Clone + fmt::Debug + Eq + Hash + Send + Sync + 'static {
    /// The backend's name, for reports.
    const NAME: &'static str;

    /// An empty (satisfiable) store.
    fn empty() -> Self;

    /// A new variable of `sort`, named `hint` in reports.
    fn fresh(&mut self, sort: Sort, hint: &'static str) -> Var;

    /// Adds a constraint (a boolean expression). Returns whether the
    /// constraints are still satisfiable; once they are not, the store is
    /// dead and stays so.
    fn assert(&mut self, constraint: Expr) -> bool;

    /// False once the constraints are unsatisfiable.
    fn is_sat(&self) -> bool;

    /// A satisfying assignment of every variable (`None` when dead).
    fn model(&self) -> Option<BTreeMap<Var, Value>>;

    /// `e` with every variable the constraints fix replaced by its value
    /// (for reports and for generators that want known values).
    fn resolve(&self, e: &Expr) -> Expr;

    /// Number of constraints asserted so far.
    fn asserted(&self) -> usize;

    /// The store restricted to what matters for the variables `keep`
    /// (distinct, unfixed variables, as [`resolve`](Self::resolve) leaves
    /// them), renumbered: `keep[i]` becomes variable `i`, other variables
    /// still constrained together with them follow. Constraints over
    /// variables unrelated to `keep` are dropped — they are satisfiable on
    /// their own, so this changes nothing about what the store allows for
    /// `keep`. Branches that differ only in forgotten history then become
    /// equal.
    fn project(&self, keep: &[Var]) -> Self;
}

/// Renumbers the variables of constraints: `keep[i]` becomes `i`, others
/// (connected to them) follow in order of appearance. Returns the
/// constraints that share a variable, transitively, with `keep`, renamed,
/// and the new variable list.
pub fn project_constraints(constraints: &[Expr], keep: &[Var]) -> (Vec<Expr>, Vec<Var>) {
    // Connected components of variables through shared constraints.
    let mut ids: Vec<u32> = keep.iter().map(|v| v.id).collect();
    let var_sets: Vec<Vec<Var>> = constraints
        .iter()
        .map(|c| {
            let mut vs = Vec::new();
            c.vars(&mut vs);
            vs
        })
        .collect();
    let mut reached: Vec<bool> = vec![false; constraints.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for (i, vs) in var_sets.iter().enumerate() {
            if !reached[i] && vs.iter().any(|v| ids.contains(&v.id)) {
                reached[i] = true;
                changed = true;
                for v in vs {
                    if !ids.contains(&v.id) {
                        ids.push(v.id);
                    }
                }
            }
        }
    }
    let mut vars: Vec<Var> = keep.to_vec();
    let mut out = Vec::new();
    for (i, c) in constraints.iter().enumerate() {
        if !reached[i] {
            continue;
        }
        for v in &var_sets[i] {
            if !vars.iter().any(|w| w.id == v.id) {
                vars.push(*v);
            }
        }
        let mut c = c.clone();
        c.visit_vars_mut(&mut |v| {
            let new = vars.iter().position(|w| w.id == v.id).expect("a kept variable") as u32;
            v.id = new;
        });
        out.push(c);
    }
    let vars = vars.iter().enumerate().map(|(i, v)| Var { id: i as u32, ..*v }).collect();
    (out, vars)
}

#[cfg(test)]
mod tests;
