//! Normalization: a constraint rewritten under the store's bindings into
//! the form the search works on — negations pushed to the literals, known
//! variables substituted, ground parts evaluated, if-then-else terms lifted
//! into case splits, boolean equalities split, equalities oriented.

use super::uf::Uf;
use crate::sym::{Expr, Sort, Value, Var};

/// The sort of a normalized term (`None`: ill-sorted).
pub(super) fn sort_of(e: &Expr) -> Option<Sort> {
    e.sort()
}

/// Substitutes known variables in a term (no boolean normalization).
pub(super) fn resolve_term(e: &Expr, uf: &Uf, vars: &[Var]) -> Expr {
    match e {
        Expr::Var(v) if (v.id as usize) < vars.len() => match uf.value(v.id) {
            Some(val) => Expr::Const(val.clone()),
            None => Expr::Var(vars[uf.find(v.id) as usize]),
        },
        Expr::Var(v) => Expr::Var(*v),
        Expr::Const(c) => Expr::Const(c.clone()),
        Expr::Add(inner, k) => match resolve_term(inner, uf, vars) {
            Expr::Const(Value::Int(c)) => match c.checked_add(*k) {
                Some(s) => Expr::int(s),
                None => Expr::Add(Box::new(Expr::int(c)), *k),
            },
            Expr::Add(inner2, k2) => match k2.checked_add(*k) {
                Some(s) => Expr::Add(inner2, s),
                None => Expr::Add(Box::new(Expr::Add(inner2, k2)), *k),
            },
            t => Expr::Add(Box::new(t), *k),
        },
        Expr::Not(x) => Expr::Not(Box::new(resolve_term(x, uf, vars))),
        Expr::And(xs) => Expr::And(xs.iter().map(|x| resolve_term(x, uf, vars)).collect()),
        Expr::Or(xs) => Expr::Or(xs.iter().map(|x| resolve_term(x, uf, vars)).collect()),
        Expr::Eq(a, b) => Expr::Eq(Box::new(resolve_term(a, uf, vars)), Box::new(resolve_term(b, uf, vars))),
        Expr::Lt(a, b) => Expr::Lt(Box::new(resolve_term(a, uf, vars)), Box::new(resolve_term(b, uf, vars))),
        Expr::Le(a, b) => Expr::Le(Box::new(resolve_term(a, uf, vars)), Box::new(resolve_term(b, uf, vars))),
        Expr::Ite(c, a, b) => {
            let c = resolve_term(c, uf, vars);
            match c.eval_ground().and_then(|v| v.as_bool()) {
                Some(true) => resolve_term(a, uf, vars),
                Some(false) => resolve_term(b, uf, vars),
                None => Expr::ite(c, resolve_term(a, uf, vars), resolve_term(b, uf, vars)),
            }
        }
    }
}

/// Splits a term on its outermost if-then-else: the condition, the term
/// where it holds and the term where it does not.
fn split_ite(t: &Expr) -> Option<(Expr, Expr, Expr)> {
    match t {
        Expr::Ite(c, a, b) => Some(((**c).clone(), (**a).clone(), (**b).clone())),
        Expr::Add(inner, k) => {
            let (c, a, b) = split_ite(inner)?;
            Some((c, Expr::Add(Box::new(a), *k), Expr::Add(Box::new(b), *k)))
        }
        _ => None,
    }
}

/// An atom over terms with if-then-else lifted out: `p(ite(c, a, b), y)`
/// is `(c && p(a, y)) || (!c && p(b, y))`, one case per side, so each
/// if-then-else costs one case split, never a fork of the model.
fn lift_ite(x: &Expr, y: &Expr, atom: impl Fn(Expr, Expr) -> Expr) -> Option<Expr> {
    if let Some((c, a, b)) = split_ite(x) {
        return Some(cases(c, atom(a, y.clone()), atom(b, y.clone())));
    }
    let (c, a, b) = split_ite(y)?;
    Some(cases(c, atom(x.clone(), a), atom(x.clone(), b)))
}

/// An integer term as `node + offset` (`node` `None`: the constant zero).
pub(super) fn int_key(t: &Expr) -> Option<(Option<u32>, i128)> {
    match t {
        Expr::Const(Value::Int(c)) => Some((None, i128::from(*c))),
        Expr::Var(v) if v.sort == Sort::Int => Some((Some(v.id), 0)),
        Expr::Add(inner, k) => {
            let (n, o) = int_key(inner)?;
            Some((n, o + i128::from(*k)))
        }
        _ => None,
    }
}

/// `(c && then) || (!c && otherwise)`: an if-then-else as two cases.
fn cases(c: Expr, then: Expr, otherwise: Expr) -> Expr {
    Expr::Or(vec![Expr::And(vec![c.clone(), then]), Expr::And(vec![Expr::Not(Box::new(c)), otherwise])])
}

/// The literal `b`, negated with `neg`.
fn lit(b: bool, neg: bool) -> Expr {
    Expr::bool(b != neg)
}

/// Normal form of a boolean constraint: negations pushed to the literals,
/// known variables substituted, ground parts evaluated, boolean
/// equalities split. `neg` negates the result.
pub(super) fn norm(e: &Expr, neg: bool, uf: &Uf, vars: &[Var]) -> Expr {
    Norm { uf, vars }.formula(e, neg)
}

/// The bindings a constraint is normalized under.
struct Norm<'a> {
    uf: &'a Uf,
    vars: &'a [Var],
}

impl Norm<'_> {
    /// A formula, negated with `neg`.
    fn formula(&self, e: &Expr, neg: bool) -> Expr {
        match e {
            Expr::Const(Value::Bool(b)) => lit(*b, neg),
            Expr::Const(_) | Expr::Add(..) => Expr::bool(false),
            Expr::Var(v) => self.variable(e, *v, neg),
            Expr::Not(x) => self.formula(x, !neg),
            Expr::Ite(c, a, b) => self.formula(&cases((**c).clone(), (**a).clone(), (**b).clone()), neg),
            Expr::And(xs) => self.junction(xs, true, neg),
            Expr::Or(xs) => self.junction(xs, false, neg),
            Expr::Eq(a, b) => self.equality(a, b, neg),
            Expr::Lt(a, b) => self.order(a, b, true, neg),
            Expr::Le(a, b) => self.order(a, b, false, neg),
        }
    }

    /// A term with the known variables substituted.
    fn term(&self, e: &Expr) -> Expr {
        resolve_term(e, self.uf, self.vars)
    }

    /// A variable as a formula: its value when bound, else the variable
    /// (false when it is not a boolean).
    fn variable(&self, e: &Expr, v: Var, neg: bool) -> Expr {
        if v.sort != Sort::Bool {
            return Expr::bool(false);
        }
        match self.term(e) {
            Expr::Const(Value::Bool(b)) => lit(b, neg),
            t if neg => Expr::Not(Box::new(t)),
            t => t,
        }
    }

    /// A conjunction (`and`) or a disjunction, flattened: a part that
    /// decides it decides it, parts that are neutral go.
    fn junction(&self, xs: &[Expr], and: bool, neg: bool) -> Expr {
        let conj = and != neg;
        let mut out = Vec::with_capacity(xs.len());
        for x in xs {
            match self.formula(x, neg) {
                Expr::Const(Value::Bool(b)) => {
                    if b != conj {
                        // false in a conjunction, true in a disjunction
                        return Expr::bool(b);
                    }
                }
                Expr::And(ys) if conj => out.extend(ys),
                Expr::Or(ys) if !conj => out.extend(ys),
                y => out.push(y),
            }
        }
        match out.len() {
            0 => Expr::bool(conj),
            1 => out.pop().expect("one element"),
            _ if conj => Expr::And(out),
            _ => Expr::Or(out),
        }
    }

    /// `a == b`: decided when it can be, split over booleans, oriented
    /// otherwise.
    fn equality(&self, a: &Expr, b: &Expr, neg: bool) -> Expr {
        let (ta, tb) = (self.term(a), self.term(b));
        if let Some(lifted) = lift_ite(&ta, &tb, |x, y| Expr::Eq(Box::new(x), Box::new(y))) {
            return self.formula(&lifted, neg);
        }
        let (sa, sb) = (sort_of(&ta), sort_of(&tb));
        if sa != sb {
            return lit(false, neg);
        }
        if sa == Some(Sort::Bool) {
            return self.boolean_equality(ta, tb, neg);
        }
        if sa == Some(Sort::Int)
            && let (Some((na, oa)), Some((nb, ob))) = (int_key(&ta), int_key(&tb))
            && na == nb
        {
            // Same variable (or both constants): decided by the offsets.
            return lit(oa == ob, neg);
        }
        match (&ta, &tb) {
            (Expr::Const(x), Expr::Const(y)) => lit(x == y, neg),
            (Expr::Var(x), Expr::Var(y)) if x.id == y.id => lit(true, neg),
            _ => oriented_equality(ta, tb, neg),
        }
    }

    /// `p == q` over booleans.
    fn boolean_equality(&self, p: Expr, q: Expr, neg: bool) -> Expr {
        // p == c  ≡  p (c true) or ¬p (c false): a literal, never a
        // disequality, so `b != true && b != false` is unsatisfiable.
        if let Expr::Const(Value::Bool(c)) = q {
            return self.formula(&p, neg == c);
        }
        if let Expr::Const(Value::Bool(c)) = p {
            return self.formula(&q, neg == c);
        }
        // p == q  ≡  (p ∧ q) ∨ (¬p ∧ ¬q)
        let split = Expr::Or(vec![
            Expr::And(vec![p.clone(), q.clone()]),
            Expr::And(vec![Expr::Not(Box::new(p)), Expr::Not(Box::new(q))]),
        ]);
        self.formula(&split, neg)
    }

    /// `a < b` (`strict`) or `a <= b` over integers: decided when both
    /// sides are one variable (or constants), else a literal for the
    /// difference logic, the negation flipped into the other order.
    fn order(&self, a: &Expr, b: &Expr, strict: bool, neg: bool) -> Expr {
        let (ta, tb) = (self.term(a), self.term(b));
        let rebuild = |x: Expr, y: Expr| {
            if strict { Expr::Lt(Box::new(x), Box::new(y)) } else { Expr::Le(Box::new(x), Box::new(y)) }
        };
        if let Some(lifted) = lift_ite(&ta, &tb, rebuild) {
            return self.formula(&lifted, neg);
        }
        let (Some((na, oa)), Some((nb, ob))) = (int_key(&ta), int_key(&tb)) else {
            return lit(false, neg);
        };
        if na == nb {
            let holds = if strict { oa < ob } else { oa <= ob };
            return lit(holds, neg);
        }
        // ¬(a < b) ≡ b <= a ; ¬(a <= b) ≡ b < a
        match (strict, neg) {
            (true, false) => Expr::Lt(Box::new(ta), Box::new(tb)),
            (false, false) => Expr::Le(Box::new(ta), Box::new(tb)),
            (true, true) => Expr::Le(Box::new(tb), Box::new(ta)),
            (false, true) => Expr::Lt(Box::new(tb), Box::new(ta)),
        }
    }
}

/// An equality left to the search, oriented: variable first, smaller
/// variable first.
fn oriented_equality(ta: Expr, tb: Expr, neg: bool) -> Expr {
    let (l, r) = match (&ta, &tb) {
        (Expr::Const(_), _) => (tb, ta),
        (Expr::Var(x), Expr::Var(y)) if y.id < x.id => (tb, ta),
        _ => (ta, tb),
    };
    let eq = Expr::Eq(Box::new(l), Box::new(r));
    if neg { Expr::Not(Box::new(eq)) } else { eq }
}
