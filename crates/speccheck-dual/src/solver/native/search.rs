//! The search: decides a set of normalized constraints by splitting
//! disjunctions case by case, gathering each case's literals into a
//! [`Theory`], and splitting an integer disequality the difference-logic
//! solution violates into `<` or `>`.

use super::norm::{norm, resolve_term, sort_of};
use super::theory::Theory;
use crate::sym::{Expr, Sort, Value};

/// Decides `pending` (normalized constraints) in `th`; returns the final
/// case when satisfiable.
pub(super) fn solve<'a>(mut th: Theory<'a>, mut pending: Vec<Expr>) -> Option<Theory<'a>> {
    while let Some(e) = pending.pop() {
        let e = norm(&e, false, &th.uf, th.vars);
        match e {
            Expr::Const(Value::Bool(true)) => {}
            Expr::Const(_) => return None,
            Expr::And(xs) => pending.extend(xs),
            Expr::Or(xs) => {
                for x in xs {
                    let mut case = pending.clone();
                    case.push(x);
                    if let Some(done) = solve(th.clone(), case) {
                        return Some(done);
                    }
                }
                return None;
            }
            Expr::Var(v) => {
                if !th.uf.bind(v.id, Value::Bool(true)) {
                    return None;
                }
            }
            Expr::Not(inner) => match *inner {
                Expr::Var(v) => {
                    if !th.uf.bind(v.id, Value::Bool(false)) {
                        return None;
                    }
                }
                Expr::Eq(a, b) => match sort_of(&a) {
                    Some(Sort::Int) => th.int_ne.push((*a, *b)),
                    _ => th.str_ne.push((*a, *b)),
                },
                _ => return None,
            },
            Expr::Eq(a, b) => match (*a, *b) {
                (Expr::Var(x), Expr::Const(c)) | (Expr::Const(c), Expr::Var(x)) => {
                    if !th.uf.bind(x.id, c) {
                        return None;
                    }
                }
                (Expr::Var(x), Expr::Var(y)) => {
                    if !th.uf.union(x.id, y.id) {
                        return None;
                    }
                }
                (a, b) => {
                    // Integer terms with offsets.
                    th.edges.push((a.clone(), b.clone(), 0));
                    th.edges.push((b, a, 0));
                }
            },
            Expr::Lt(a, b) => th.edges.push((*a, *b, -1)),
            Expr::Le(a, b) => th.edges.push((*a, *b, 0)),
            _ => return None,
        }
    }
    // All literals are in: check them.
    for (a, b) in &th.str_ne {
        let (ta, tb) = (resolve_term(a, &th.uf, th.vars), resolve_term(b, &th.uf, th.vars));
        match (&ta, &tb) {
            (Expr::Const(x), Expr::Const(y)) if x == y => return None,
            (Expr::Var(x), Expr::Var(y)) if x.id == y.id => return None,
            _ => {}
        }
    }
    let sol = th.int_solution()?;
    let violated = th
        .int_ne
        .iter()
        .position(|(a, b)| matches!((th.int_value(a, &sol), th.int_value(b, &sol)), (Some(x), Some(y)) if x == y));
    if let Some(i) = violated {
        let (a, b) = th.int_ne.remove(i);
        if let Some(done) = solve(th.clone(), vec![a.lt(b.clone())]) {
            return Some(done);
        }
        return solve(th, vec![b.lt(a)]);
    }
    Some(th)
}
