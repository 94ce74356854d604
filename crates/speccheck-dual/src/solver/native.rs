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
//! known variables substituted, ground parts evaluated, entity-tag
//! comparisons expanded into string equalities), absorbs bindings, and —
//! when the residual is not empty — decides the residual by search:
//! disjunctions are split case by case; the literals of one case are
//! checked by union-find (strings, booleans: infinite resp. two-valued
//! domains, booleans being split), and by difference logic for integers
//! (`x - y <= k` edges, Bellman–Ford over the `i64` range); an integer
//! disequality violated by the difference-logic solution is split into
//! `<` or `>`. Each step is a complete case analysis, so the answer is
//! exact: a branch is never killed while some assignment still explains
//! the observations, and never kept when none does.

use std::collections::{BTreeMap, BTreeSet};

use super::Solver;
use crate::sym::{Expr, Sort, Value, Var};

/// Union-find over variable numbers, each class possibly bound to a value.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Uf {
    parent: Vec<u32>,
    bound: Vec<Option<Value>>,
}

impl Uf {
    fn push(&mut self) -> u32 {
        let id = self.parent.len() as u32;
        self.parent.push(id);
        self.bound.push(None);
        id
    }

    fn find(&self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            x = self.parent[x as usize];
        }
        x
    }

    fn value(&self, x: u32) -> Option<&Value> {
        self.bound[self.find(x) as usize].as_ref()
    }

    /// Binds `x`'s class to `v`; false on a conflict.
    fn bind(&mut self, x: u32, v: Value) -> bool {
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
    fn union(&mut self, x: u32, y: u32) -> bool {
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
        for v in th.uf.bound.iter().flatten() {
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

enum Absorbed {
    Done,
    Rebound,
    Conflict,
    More(Vec<Expr>),
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

fn bound(ok: bool) -> Absorbed {
    if ok { Absorbed::Rebound } else { Absorbed::Conflict }
}

/// The sort of a normalized term (`None`: ill-sorted).
fn sort_of(e: &Expr) -> Option<Sort> {
    e.sort()
}

/// Substitutes known variables in a term (no boolean normalization).
fn resolve_term(e: &Expr, uf: &Uf, vars: &[Var]) -> Expr {
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
        Expr::TagMatch { tag, against, weak } => {
            Expr::TagMatch { tag: Box::new(resolve_term(tag, uf, vars)), against: against.clone(), weak: *weak }
        }
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
    let cases = |c: Expr, then: Expr, otherwise: Expr| {
        Expr::Or(vec![Expr::And(vec![c.clone(), then]), Expr::And(vec![Expr::Not(Box::new(c)), otherwise])])
    };
    if let Some((c, a, b)) = split_ite(x) {
        return Some(cases(c, atom(a, y.clone()), atom(b, y.clone())));
    }
    let (c, a, b) = split_ite(y)?;
    Some(cases(c, atom(x.clone(), a), atom(x.clone(), b)))
}

/// An integer term as `node + offset` (`node` `None`: the constant zero).
fn int_key(t: &Expr) -> Option<(Option<u32>, i128)> {
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

/// Normal form of a boolean constraint: negations pushed to the literals,
/// known variables substituted, ground parts evaluated, tag comparisons
/// expanded, boolean equalities split. `neg` negates the result.
fn norm(e: &Expr, neg: bool, uf: &Uf, vars: &[Var]) -> Expr {
    let lit = |b: bool| Expr::bool(b != neg);
    match e {
        Expr::Const(Value::Bool(b)) => lit(*b),
        Expr::Const(_) | Expr::Add(..) => Expr::bool(false),
        Expr::Var(v) => {
            if v.sort != Sort::Bool {
                return Expr::bool(false);
            }
            match resolve_term(e, uf, vars) {
                Expr::Const(Value::Bool(b)) => lit(b),
                t if neg => Expr::Not(Box::new(t)),
                t => t,
            }
        }
        Expr::Not(x) => norm(x, !neg, uf, vars),
        Expr::Ite(c, a, b) => {
            let cases = Expr::Or(vec![
                Expr::And(vec![(**c).clone(), (**a).clone()]),
                Expr::And(vec![Expr::Not(c.clone()), (**b).clone()]),
            ]);
            norm(&cases, neg, uf, vars)
        }
        Expr::And(xs) | Expr::Or(xs) => {
            let conj = matches!(e, Expr::And(_)) != neg;
            let mut out = Vec::with_capacity(xs.len());
            for x in xs {
                match norm(x, neg, uf, vars) {
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
        Expr::Eq(a, b) => {
            let (ta, tb) = (resolve_term(a, uf, vars), resolve_term(b, uf, vars));
            if let Some(lifted) = lift_ite(&ta, &tb, |x, y| Expr::Eq(Box::new(x), Box::new(y))) {
                return norm(&lifted, neg, uf, vars);
            }
            let (sa, sb) = (sort_of(&ta), sort_of(&tb));
            if sa != sb {
                return lit(false);
            }
            if sa == Some(Sort::Bool) {
                // p == c  ≡  p (c true) or ¬p (c false): a literal, never a
                // disequality, so `b != true && b != false` is unsatisfiable.
                if let Expr::Const(Value::Bool(c)) = tb {
                    return norm(&ta, neg == c, uf, vars);
                }
                if let Expr::Const(Value::Bool(c)) = ta {
                    return norm(&tb, neg == c, uf, vars);
                }
                // p == q  ≡  (p ∧ q) ∨ (¬p ∧ ¬q)
                let (p, q) = (ta, tb);
                let split = Expr::Or(vec![
                    Expr::And(vec![p.clone(), q.clone()]),
                    Expr::And(vec![Expr::Not(Box::new(p)), Expr::Not(Box::new(q))]),
                ]);
                return norm(&split, neg, uf, vars);
            }
            if sa == Some(Sort::Int)
                && let (Some((na, oa)), Some((nb, ob))) = (int_key(&ta), int_key(&tb))
                && na == nb
            {
                // Same variable (or both constants): decided by the offsets.
                return lit(oa == ob);
            }
            match (&ta, &tb) {
                (Expr::Const(x), Expr::Const(y)) => lit(x == y),
                (Expr::Var(x), Expr::Var(y)) if x.id == y.id => lit(true),
                _ => {
                    // Orient: variable first, smaller variable first.
                    let (l, r) = match (&ta, &tb) {
                        (Expr::Const(_), _) => (tb, ta),
                        (Expr::Var(x), Expr::Var(y)) if y.id < x.id => (tb, ta),
                        _ => (ta, tb),
                    };
                    let eq = Expr::Eq(Box::new(l), Box::new(r));
                    if neg { Expr::Not(Box::new(eq)) } else { eq }
                }
            }
        }
        Expr::Lt(a, b) | Expr::Le(a, b) => {
            let strict = matches!(e, Expr::Lt(..));
            let (ta, tb) = (resolve_term(a, uf, vars), resolve_term(b, uf, vars));
            let rebuild = |x: Expr, y: Expr| {
                if strict { Expr::Lt(Box::new(x), Box::new(y)) } else { Expr::Le(Box::new(x), Box::new(y)) }
            };
            if let Some(lifted) = lift_ite(&ta, &tb, rebuild) {
                return norm(&lifted, neg, uf, vars);
            }
            let (Some((na, oa)), Some((nb, ob))) = (int_key(&ta), int_key(&tb)) else {
                return lit(false);
            };
            if na == nb {
                let holds = if strict { oa < ob } else { oa <= ob };
                return lit(holds);
            }
            // ¬(a < b) ≡ b <= a ; ¬(a <= b) ≡ b < a
            match (strict, neg) {
                (true, false) => Expr::Lt(Box::new(ta), Box::new(tb)),
                (false, false) => Expr::Le(Box::new(ta), Box::new(tb)),
                (true, true) => Expr::Le(Box::new(tb), Box::new(ta)),
                (false, true) => Expr::Lt(Box::new(tb), Box::new(ta)),
            }
        }
        Expr::TagMatch { tag, against, weak } => {
            let t = resolve_term(tag, uf, vars);
            let rebuild = |x: Expr, _: Expr| Expr::TagMatch { tag: Box::new(x), against: against.clone(), weak: *weak };
            if let Some(lifted) = lift_ite(&t, &Expr::bool(true), rebuild) {
                return norm(&lifted, neg, uf, vars);
            }
            if let Expr::Const(v) = &t {
                return match v.as_str() {
                    Some(s) => lit(crate::sym::etag_match(s, against, *weak)),
                    None => lit(false),
                };
            }
            if sort_of(&t) != Some(Sort::Str) {
                return lit(false);
            }
            let expanded = if *weak {
                let o = crate::sym::opaque_tag(against);
                Expr::Or(vec![t.equals(Expr::str(o)), t.equals(Expr::str(format!("W/{o}")))])
            } else if against.starts_with("W/") {
                Expr::bool(false)
            } else {
                t.equals(Expr::str(against.clone()))
            };
            norm(&expanded, neg, uf, vars)
        }
    }
}

fn collect_strings(e: &Expr, out: &mut BTreeSet<String>) {
    match e {
        Expr::Const(Value::Str(s)) => {
            out.insert(s.clone());
        }
        Expr::TagMatch { tag, against, .. } => {
            out.insert(against.clone());
            out.insert(crate::sym::opaque_tag(against).to_string());
            out.insert(format!("W/{}", crate::sym::opaque_tag(against)));
            collect_strings(tag, out);
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

/// One case of the search: bindings plus the literals that are not.
#[derive(Clone, Debug)]
struct Theory<'a> {
    uf: Uf,
    vars: &'a [Var],
    /// `a - b <= w` over integer terms.
    edges: Vec<(Expr, Expr, i128)>,
    str_ne: Vec<(Expr, Expr)>,
    int_ne: Vec<(Expr, Expr)>,
}

impl Theory<'_> {
    /// The difference-logic solution of the integer constraints (root
    /// variable → value), `None` when they are unsatisfiable.
    fn int_solution(&self) -> Option<BTreeMap<u32, i64>> {
        let mut nodes: BTreeMap<Option<u32>, usize> = BTreeMap::new();
        nodes.insert(None, 0);
        let mut edges: Vec<(usize, usize, i128)> = Vec::new();
        let node = |nodes: &mut BTreeMap<Option<u32>, usize>, n: Option<u32>| {
            let len = nodes.len();
            *nodes.entry(n).or_insert(len)
        };
        for (a, b, w) in &self.edges {
            let (ta, tb) = (resolve_term(a, &self.uf, self.vars), resolve_term(b, &self.uf, self.vars));
            let ((na, oa), (nb, ob)) = (int_key(&ta)?, int_key(&tb)?);
            // (na + oa) - (nb + ob) <= w  ⇒  na - nb <= w - oa + ob: edge nb → na.
            let (ia, ib) = (node(&mut nodes, na), node(&mut nodes, nb));
            edges.push((ib, ia, w - oa + ob));
        }
        for (a, b) in &self.int_ne {
            for t in [a, b] {
                if let Some((n, _)) = int_key(&resolve_term(t, &self.uf, self.vars)) {
                    node(&mut nodes, n);
                }
            }
        }
        // Every integer variable lies in the i64 range.
        for (&n, &i) in &nodes {
            if n.is_some() {
                edges.push((0, i, i128::from(i64::MAX)));
                edges.push((i, 0, -i128::from(i64::MIN)));
            }
        }
        let n = nodes.len();
        let mut dist = vec![0i128; n];
        for round in 0..=n {
            let mut changed = false;
            for &(from, to, w) in &edges {
                if dist[from] + w < dist[to] {
                    dist[to] = dist[from] + w;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
            if round == n {
                return None; // negative cycle
            }
        }
        let zero = dist[0];
        let mut out = BTreeMap::new();
        for (&key, &i) in &nodes {
            if let Some(root) = key {
                out.insert(root, i64::try_from(dist[i] - zero).ok()?);
            }
        }
        Some(out)
    }

    fn int_value(&self, t: &Expr, sol: &BTreeMap<u32, i64>) -> Option<i128> {
        let (n, o) = int_key(&resolve_term(t, &self.uf, self.vars))?;
        Some(o + n.map_or(0, |r| i128::from(*sol.get(&r).unwrap_or(&0))))
    }
}

/// Decides `pending` (normalized constraints) in `th`; returns the final
/// case when satisfiable.
fn solve<'a>(mut th: Theory<'a>, mut pending: Vec<Expr>) -> Option<Theory<'a>> {
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
