//! The purpose-built solver: exact for the language of [`crate::sym`].
//!
//! A store keeps
//!
//! * a union-find over variables whose classes may carry a constant
//!   (equalities and bindings — what almost every guard produces);
//! * the *residual*: normalized constraints that are not simple bindings
//!   (orders, disequalities, disjunctions).
//!
//! Every assertion normalizes the new constraint (negation pushed inward,
//! known variables substituted, ground parts evaluated, if-then-else terms
//! split into cases), absorbs bindings, and —
//! when the residual is not empty — decides the residual by search:
//! disjunctions are split case by case; the literals of one case are
//! checked by union-find (strings, booleans: infinite resp. two-valued
//! domains, booleans being split), and by difference logic for integers
//! (`x - y <= k` edges, Bellman–Ford over the `i64` range); an integer
//! disequality violated by the difference-logic solution is split into
//! `<` or `>`. Each step is a complete case analysis, so the answer is
//! exact: a branch is never killed while some assignment still explains
//! the observations, and never kept when none does.
//!
//! One file a part: `uf.rs` (the union-find), `norm.rs` (normalization),
//! `theory.rs` (difference logic), `search.rs` (the case splitting); this
//! file is the store they serve.

mod norm;
mod search;
mod theory;
mod uf;

use std::collections::{BTreeMap, BTreeSet};

use self::norm::{norm, resolve_term};
use self::search::solve;
use self::theory::Theory;
use self::uf::Uf;
use super::Solver;
use crate::sym::{Expr, Sort, Value, Var};

/// The purpose-built constraint store (see the module documentation).
///
/// Two stores are equal when they hold the same variables and constraints;
/// how many assertions led there is history, not state, so it takes no
/// part in equality (branches that reach the same store by different
/// routes merge).
#[derive(Clone, Debug, Default)]
pub struct Native {
    vars: Vec<Var>,
    uf: Uf,
    residual: Vec<Expr>,
    dead: bool,
    asserted: usize,
}

impl PartialEq for Native {
    fn eq(&self, o: &Self) -> bool {
        self.dead == o.dead && self.vars == o.vars && self.uf == o.uf && self.residual == o.residual
    }
}
impl Eq for Native {}

impl std::hash::Hash for Native {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.dead.hash(h);
        self.vars.hash(h);
        self.uf.hash(h);
        self.residual.hash(h);
    }
}

impl Solver for Native {
    const NAME: &'static str = "native";

    fn empty() -> Self {
        Native::default()
    }

    fn fresh(&mut self, sort: Sort, hint: &'static str) -> Var {
        let id = self.uf.push();
        let v = Var { id, sort, hint };
        self.vars.push(v);
        v
    }

    fn assert(&mut self, constraint: Expr) -> bool {
        if self.dead {
            return false;
        }
        self.asserted += 1;
        let first = norm(&constraint, false, &self.uf, &self.vars);
        let mut work = vec![first];
        let mut residual_changed = false;
        loop {
            let mut rebound = false;
            while let Some(e) = work.pop() {
                match absorb(e, &mut self.uf) {
                    Absorbed::Done => {}
                    Absorbed::Rebound => rebound = true,
                    Absorbed::Conflict => {
                        self.dead = true;
                        return false;
                    }
                    Absorbed::More(xs) => work.extend(xs),
                    Absorbed::Keep(e) => {
                        self.residual.push(e);
                        residual_changed = true;
                    }
                }
            }
            if !rebound {
                break;
            }
            // New bindings may decide or simplify residual constraints.
            residual_changed = true;
            work = self.residual.drain(..).map(|e| norm(&e, false, &self.uf, &self.vars)).collect();
        }
        if residual_changed && !self.residual.is_empty() && solve(self.theory(), self.residual.clone()).is_none() {
            self.dead = true;
        }
        !self.dead
    }

    fn is_sat(&self) -> bool {
        !self.dead
    }

    fn model(&self) -> Option<BTreeMap<Var, Value>> {
        if self.dead {
            return None;
        }
        let th = solve(self.theory(), self.residual.clone())?;
        let ints = th.int_solution()?;
        let mut strings: BTreeSet<String> = BTreeSet::new();
        for e in &self.residual {
            collect_strings(e, &mut strings);
        }
        for v in th.uf.values() {
            if let Value::Str(s) = v {
                strings.insert(s.clone());
            }
        }
        let mut fresh_names: BTreeMap<u32, String> = BTreeMap::new();
        let mut n = 0u32;
        let mut out = BTreeMap::new();
        for v in &self.vars {
            let root = th.uf.find(v.id);
            let value = match th.uf.value(v.id) {
                Some(val) => val.clone(),
                None => match v.sort {
                    Sort::Bool => Value::Bool(false),
                    Sort::Int => Value::Int(*ints.get(&root).unwrap_or(&0)),
                    Sort::Str => Value::Str(
                        fresh_names
                            .entry(root)
                            .or_insert_with(|| {
                                loop {
                                    let s = format!("fresh-{n}");
                                    n += 1;
                                    if !strings.contains(&s) {
                                        break s;
                                    }
                                }
                            })
                            .clone(),
                    ),
                },
            };
            out.insert(*v, value);
        }
        Some(out)
    }

    fn resolve(&self, e: &Expr) -> Expr {
        resolve_term(e, &self.uf, &self.vars)
    }

    fn asserted(&self) -> usize {
        self.asserted
    }

    fn project(&self, keep: &[Var]) -> Self {
        if self.dead {
            return self.clone();
        }
        let (residual, vars) = super::project_constraints(&self.residual, keep);
        let mut uf = Uf::default();
        for _ in &vars {
            uf.push();
        }
        Native { vars, uf, residual, dead: false, asserted: self.asserted }
    }
}

impl Native {
    fn theory(&self) -> Theory<'_> {
        Theory { uf: self.uf.clone(), vars: &self.vars, edges: Vec::new(), str_ne: Vec::new(), int_ne: Vec::new() }
    }

    /// Constraints that are not plain bindings (for reports).
    pub fn residual(&self) -> &[Expr] {
        &self.residual
    }
}

/// What became of a normalized constraint offered to the union-find.
enum Absorbed {
    /// It holds already.
    Done,
    /// It bound or merged classes.
    Rebound,
    /// It contradicts the bindings.
    Conflict,
    /// A conjunction: its parts, to offer one by one.
    More(Vec<Expr>),
    /// Not a binding: for the residual.
    Keep(Expr),
}

/// Takes a normalized constraint into the union-find when it is a binding.
fn absorb(e: Expr, uf: &mut Uf) -> Absorbed {
    match e {
        Expr::Const(Value::Bool(true)) => Absorbed::Done,
        Expr::Const(_) => Absorbed::Conflict,
        Expr::And(xs) => Absorbed::More(xs),
        Expr::Var(v) => bound(uf.bind(v.id, Value::Bool(true))),
        Expr::Not(inner) => match *inner {
            Expr::Var(v) => bound(uf.bind(v.id, Value::Bool(false))),
            other => Absorbed::Keep(Expr::Not(Box::new(other))),
        },
        Expr::Eq(a, b) => match (*a, *b) {
            (Expr::Var(x), Expr::Const(c)) | (Expr::Const(c), Expr::Var(x)) => bound(uf.bind(x.id, c)),
            (Expr::Var(x), Expr::Var(y)) => bound(uf.union(x.id, y.id)),
            (a, b) => Absorbed::Keep(Expr::Eq(Box::new(a), Box::new(b))),
        },
        other => Absorbed::Keep(other),
    }
}

/// A binding's outcome.
fn bound(ok: bool) -> Absorbed {
    if ok { Absorbed::Rebound } else { Absorbed::Conflict }
}

/// The string constants `e` mentions (a model's fresh strings avoid them).
fn collect_strings(e: &Expr, out: &mut BTreeSet<String>) {
    match e {
        Expr::Const(Value::Str(s)) => {
            out.insert(s.clone());
        }
        Expr::Not(x) | Expr::Add(x, _) => collect_strings(x, out),
        Expr::And(xs) | Expr::Or(xs) => xs.iter().for_each(|x| collect_strings(x, out)),
        Expr::Eq(a, b) | Expr::Lt(a, b) | Expr::Le(a, b) => {
            collect_strings(a, out);
            collect_strings(b, out);
        }
        Expr::Ite(c, a, b) => {
            collect_strings(c, out);
            collect_strings(a, out);
            collect_strings(b, out);
        }
        Expr::Const(_) | Expr::Var(_) => {}
    }
}
