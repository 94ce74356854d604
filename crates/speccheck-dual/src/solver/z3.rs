//! The z3 backend (feature `z3`): every satisfiability question goes to
//! z3 (through the `z3` crate, linked against the system's libz3).
//!
//! A store keeps its constraints as a list and, on each assertion, asks
//! z3 about all of them (push, assert, check, pop on a thread-local
//! solver) — the way a forking validator must use a solver whose state
//! cannot be cloned cheaply. Bookkeeping that is not a satisfiability
//! question (substituting known values, projection, models) is shared with
//! [`Native`], whose answer is also cross-checked: a disagreement panics.
//!
//! Strings are an uninterpreted sort whose constants are pairwise
//! distinct (the language only compares strings for equality, so this is
//! exact); integers are unbounded in z3 and bounded to `i64` by explicit
//! constraints, as in [`Native`].

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use z3::ast::{Ast, Bool, Dynamic, Int};
use z3::{SatResult, Sort as ZSort, Symbol};

use super::{Native, Solver};
use crate::sym::{Expr, Sort, Value, Var};

thread_local! {
    static SOLVER: RefCell<Option<z3::Solver>> = const { RefCell::new(None) };
}

/// The z3-backed store.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Z3 {
    inner: Native,
    constraints: Vec<Expr>,
    sat: bool,
}

enum T {
    B(Bool),
    I(Int),
    S(Dynamic),
}

struct Tr {
    str_sort: ZSort,
    strings: BTreeMap<String, Dynamic>,
    int_vars: BTreeSet<u32>,
}

impl Tr {
    fn string(&mut self, s: &str) -> Dynamic {
        let sort = self.str_sort.clone();
        self.strings.entry(s.to_string()).or_insert_with(|| Dynamic::new_const(format!("str!{s:?}"), &sort)).clone()
    }

    fn term(&mut self, e: &Expr) -> Option<T> {
        Some(match e {
            Expr::Const(Value::Bool(b)) => T::B(Bool::from_bool(*b)),
            Expr::Const(Value::Int(i)) => T::I(Int::from_i64(*i)),
            Expr::Const(Value::Str(s)) => T::S(self.string(s)),
            Expr::Var(v) => match v.sort {
                Sort::Bool => T::B(Bool::new_const(format!("b{}", v.id))),
                Sort::Int => {
                    self.int_vars.insert(v.id);
                    T::I(Int::new_const(format!("i{}", v.id)))
                }
                Sort::Str => T::S(Dynamic::new_const(format!("s{}", v.id), &self.str_sort)),
            },
            Expr::Add(x, k) => match self.term(x)? {
                T::I(i) => T::I(Int::add(&[i, Int::from_i64(*k)])),
                _ => return None,
            },
            Expr::Ite(c, a, b) => {
                let c = self.formula(c);
                match (self.term(a)?, self.term(b)?) {
                    (T::B(x), T::B(y)) => T::B(c.ite(&x, &y)),
                    (T::I(x), T::I(y)) => T::I(c.ite(&x, &y)),
                    (T::S(x), T::S(y)) => T::S(c.ite(&x, &y)),
                    _ => return None,
                }
            }
            _ => T::B(self.formula(e)),
        })
    }

    fn formula(&mut self, e: &Expr) -> Bool {
        match e {
            Expr::Const(Value::Bool(b)) => Bool::from_bool(*b),
            Expr::Not(x) => self.formula(x).not(),
            Expr::And(xs) => {
                let parts: Vec<Bool> = xs.iter().map(|x| self.formula(x)).collect();
                Bool::and(&parts)
            }
            Expr::Or(xs) => {
                let parts: Vec<Bool> = xs.iter().map(|x| self.formula(x)).collect();
                Bool::or(&parts)
            }
            Expr::Var(_) => match self.term(e) {
                Some(T::B(b)) => b,
                _ => Bool::from_bool(false),
            },
            Expr::Eq(a, b) => match (self.term(a), self.term(b)) {
                (Some(T::B(x)), Some(T::B(y))) => x.eq(&y),
                (Some(T::I(x)), Some(T::I(y))) => x.eq(&y),
                (Some(T::S(x)), Some(T::S(y))) => x.eq(&y),
                _ => Bool::from_bool(false),
            },
            Expr::Lt(a, b) | Expr::Le(a, b) => match (self.term(a), self.term(b)) {
                (Some(T::I(x)), Some(T::I(y))) => {
                    if matches!(e, Expr::Lt(..)) {
                        x.lt(&y)
                    } else {
                        x.le(&y)
                    }
                }
                _ => Bool::from_bool(false),
            },
            Expr::Ite(..) => match self.term(e) {
                Some(T::B(b)) => b,
                _ => Bool::from_bool(false),
            },
            Expr::Const(_) | Expr::Add(..) => Bool::from_bool(false),
        }
    }
}

/// Asks z3 whether `constraints` are satisfiable.
pub fn check(constraints: &[Expr]) -> bool {
    let mut tr = Tr {
        str_sort: ZSort::uninterpreted(Symbol::String("Str".into())),
        strings: BTreeMap::new(),
        int_vars: BTreeSet::new(),
    };
    let formulas: Vec<Bool> = constraints.iter().map(|c| tr.formula(c)).collect();
    SOLVER.with(|cell| {
        let mut slot = cell.borrow_mut();
        let solver = slot.get_or_insert_with(z3::Solver::new);
        solver.push();
        for f in &formulas {
            solver.assert(f);
        }
        for id in &tr.int_vars {
            let x = Int::new_const(format!("i{id}"));
            solver.assert(x.ge(Int::from_i64(i64::MIN)));
            solver.assert(x.le(Int::from_i64(i64::MAX)));
        }
        let strings: Vec<Dynamic> = tr.strings.values().cloned().collect();
        if strings.len() > 1 {
            solver.assert(Dynamic::distinct(&strings));
        }
        let r = solver.check();
        solver.pop(1);
        match r {
            SatResult::Sat => true,
            SatResult::Unsat => false,
            SatResult::Unknown => panic!("z3 answered `unknown` on a decidable query: {constraints:?}"),
        }
    })
}

impl Solver for Z3 {
    const NAME: &'static str = "z3";

    fn empty() -> Self {
        Z3 { inner: Native::empty(), constraints: Vec::new(), sat: true }
    }

    fn fresh(&mut self, sort: Sort, hint: &'static str) -> Var {
        self.inner.fresh(sort, hint)
    }

    fn assert(&mut self, constraint: Expr) -> bool {
        if !self.sat {
            return false;
        }
        self.constraints.push(constraint.clone());
        self.sat = check(&self.constraints);
        let native = self.inner.assert(constraint);
        assert_eq!(
            self.sat, native,
            "z3 and the native solver disagree on {:?} (z3: {}, native: {native})",
            self.constraints, self.sat
        );
        self.sat
    }

    fn is_sat(&self) -> bool {
        self.sat
    }

    fn model(&self) -> Option<BTreeMap<Var, Value>> {
        if self.sat { self.inner.model() } else { None }
    }

    fn resolve(&self, e: &Expr) -> Expr {
        self.inner.resolve(e)
    }

    fn asserted(&self) -> usize {
        self.inner.asserted()
    }

    fn project(&self, keep: &[Var]) -> Self {
        if !self.sat {
            return self.clone();
        }
        let inner = self.inner.project(keep);
        let constraints = inner.residual().to_vec();
        Z3 { inner, constraints, sat: true }
    }
}
