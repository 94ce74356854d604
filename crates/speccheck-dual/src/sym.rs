//! Symbolic values (thesis §3.2, §4.2.1): sorts, constants, variables and
//! the expressions a model computes with when it cannot know a value — a
//! tag the server chose, a number it reset to.
//!
//! The language is deliberately small so that the purpose-built solver in
//! [`crate::solver`] decides it exactly: booleans, 64-bit integers with
//! order and constant offsets, strings with equality, and if-then-else
//! terms. A protocol's own values are built from these: an HTTP entity tag
//! is a boolean (weak?) and a string (speccheck-http's `EntityTag`), so
//! its comparisons are boolean and string equalities.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The sort (type) of a symbolic value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sort {
    /// Booleans.
    Bool,
    /// 64-bit signed integers.
    Int,
    /// Strings.
    Str,
}

/// A concrete value.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A string.
    Str(String),
}

impl Value {
    /// The value's sort.
    pub fn sort(&self) -> Sort {
        match self {
            Value::Bool(_) => Sort::Bool,
            Value::Int(_) => Sort::Int,
            Value::Str(_) => Sort::Str,
        }
    }

    /// The boolean, if it is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The integer, if it is one.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The string, if it is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The value as JSON (for the intermediate representation).
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Int(i) => serde_json::Value::from(*i),
            Value::Str(s) => serde_json::Value::String(s.clone()),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Str(s) => write!(f, "{s:?}"),
        }
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}
impl From<i64> for Value {
    fn from(i: i64) -> Self {
        Value::Int(i)
    }
}
impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::Str(s.to_string())
    }
}
impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::Str(s)
    }
}

/// A symbolic variable: an unknown the server chose. Its number is unique
/// within one branch of the validator; `hint` names it in reports.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var {
    /// Number, unique within a constraint store.
    pub id: u32,
    /// Sort.
    pub sort: Sort,
    /// A readable name (`etag`, `n`).
    pub hint: &'static str,
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Debug for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Debug for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}#{}", self.hint, self.id)
    }
}

/// A symbolic expression.
///
/// Build them with the constructors and methods below rather than by hand:
/// `tag.equals(Expr::str("abc"))`, `q.le(n)`, `!cond`, `Expr::and([a, b])`.
/// Expressions are ordered (structurally) so that sets of them are states.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Expr {
    /// A constant.
    Const(Value),
    /// A variable.
    Var(Var),
    /// Negation (booleans).
    Not(Box<Expr>),
    /// Conjunction (empty: true).
    And(Vec<Expr>),
    /// Disjunction (empty: false).
    Or(Vec<Expr>),
    /// Equality (any sort, both sides the same sort).
    Eq(Box<Expr>, Box<Expr>),
    /// Strictly less (integers).
    Lt(Box<Expr>, Box<Expr>),
    /// Less or equal (integers).
    Le(Box<Expr>, Box<Expr>),
    /// An integer plus a constant.
    Add(Box<Expr>, i64),
    /// If-then-else: `then` where the condition holds, `otherwise` where it
    /// does not (both the same sort). A model that lets the system choose,
    /// independently, for each of *n* items (which of the dirty paths a
    /// synchronizer propagated) names each choice with a boolean and builds
    /// the outcome from these terms: one branch with *n* unknowns, where
    /// `choose` would fork 2^n branches before the first observation.
    Ite(Box<Expr>, Box<Expr>, Box<Expr>),
}

impl Expr {
    /// The boolean constant.
    pub fn bool(b: bool) -> Expr {
        Expr::Const(Value::Bool(b))
    }

    /// The integer constant.
    pub fn int(i: i64) -> Expr {
        Expr::Const(Value::Int(i))
    }

    /// The string constant.
    pub fn str(s: impl Into<String>) -> Expr {
        Expr::Const(Value::Str(s.into()))
    }

    /// Conjunction.
    pub fn and(xs: impl IntoIterator<Item = Expr>) -> Expr {
        Expr::And(xs.into_iter().collect())
    }

    /// Disjunction.
    pub fn or(xs: impl IntoIterator<Item = Expr>) -> Expr {
        Expr::Or(xs.into_iter().collect())
    }

    /// `self == other`.
    pub fn equals(&self, other: impl Into<Expr>) -> Expr {
        Expr::Eq(Box::new(self.clone()), Box::new(other.into()))
    }

    /// `self != other`.
    pub fn not_equals(&self, other: impl Into<Expr>) -> Expr {
        Expr::Not(Box::new(self.equals(other)))
    }

    /// `self < other` (integers).
    pub fn lt(&self, other: impl Into<Expr>) -> Expr {
        Expr::Lt(Box::new(self.clone()), Box::new(other.into()))
    }

    /// `self <= other` (integers).
    pub fn le(&self, other: impl Into<Expr>) -> Expr {
        Expr::Le(Box::new(self.clone()), Box::new(other.into()))
    }

    /// `self > other` (integers).
    pub fn gt(&self, other: impl Into<Expr>) -> Expr {
        Expr::Lt(Box::new(other.into()), Box::new(self.clone()))
    }

    /// `self >= other` (integers).
    pub fn ge(&self, other: impl Into<Expr>) -> Expr {
        Expr::Le(Box::new(other.into()), Box::new(self.clone()))
    }

    /// `self + k` (integers).
    pub fn plus(&self, k: i64) -> Expr {
        Expr::Add(Box::new(self.clone()), k)
    }

    /// `if cond { then } else { otherwise }` as a term (see [`Expr::Ite`]);
    /// a constant condition picks its side at once.
    pub fn ite(cond: impl Into<Expr>, then: impl Into<Expr>, otherwise: impl Into<Expr>) -> Expr {
        let (cond, then, otherwise) = (cond.into(), then.into(), otherwise.into());
        match cond.eval_ground().and_then(|v| v.as_bool()) {
            Some(true) => then,
            Some(false) => otherwise,
            None if then == otherwise => then,
            None => Expr::Ite(Box::new(cond), Box::new(then), Box::new(otherwise)),
        }
    }

    /// The constant, if this is one.
    pub fn as_const(&self) -> Option<&Value> {
        match self {
            Expr::Const(v) => Some(v),
            _ => None,
        }
    }

    /// The variables occurring in the expression.
    pub fn vars(&self, out: &mut Vec<Var>) {
        match self {
            Expr::Const(_) => {}
            Expr::Var(v) => {
                if !out.contains(v) {
                    out.push(*v);
                }
            }
            Expr::Not(e) | Expr::Add(e, _) => e.vars(out),
            Expr::Ite(c, a, b) => {
                c.vars(out);
                a.vars(out);
                b.vars(out);
            }
            Expr::And(xs) | Expr::Or(xs) => xs.iter().for_each(|x| x.vars(out)),
            Expr::Eq(a, b) | Expr::Lt(a, b) | Expr::Le(a, b) => {
                a.vars(out);
                b.vars(out);
            }
        }
    }

    /// The sort of the expression, if it can be told (variables and
    /// constants carry theirs; `None` for ill-sorted terms).
    pub fn sort(&self) -> Option<Sort> {
        match self {
            Expr::Const(v) => Some(v.sort()),
            Expr::Var(v) => Some(v.sort),
            Expr::Add(..) => Some(Sort::Int),
            Expr::Ite(_, a, b) => a.sort().or_else(|| b.sort()),
            _ => Some(Sort::Bool),
        }
    }

    /// Evaluates the expression where `lookup` gives every variable a value
    /// (`None` when a variable is unassigned or the term is ill-sorted).
    pub fn eval(&self, lookup: &dyn Fn(Var) -> Option<Value>) -> Option<Value> {
        Some(match self {
            Expr::Const(v) => v.clone(),
            Expr::Var(v) => lookup(*v)?,
            Expr::Not(e) => Value::Bool(!e.eval(lookup)?.as_bool()?),
            Expr::And(xs) => {
                let mut all = true;
                for x in xs {
                    all &= x.eval(lookup)?.as_bool()?;
                }
                Value::Bool(all)
            }
            Expr::Or(xs) => {
                let mut any = false;
                for x in xs {
                    any |= x.eval(lookup)?.as_bool()?;
                }
                Value::Bool(any)
            }
            Expr::Eq(a, b) => Value::Bool(eval_eq(a, b, lookup)?),
            Expr::Lt(a, b) => Value::Bool(int_value(a, lookup)? < int_value(b, lookup)?),
            Expr::Le(a, b) => Value::Bool(int_value(a, lookup)? <= int_value(b, lookup)?),
            Expr::Add(e, k) => {
                let v = int_value(e, lookup)? + i128::from(*k);
                Value::Int(i64::try_from(v).ok()?)
            }
            Expr::Ite(c, a, b) => {
                if c.eval(lookup)?.as_bool()? {
                    a.eval(lookup)?
                } else {
                    b.eval(lookup)?
                }
            }
        })
    }

    /// Evaluates a variable-free expression.
    pub fn eval_ground(&self) -> Option<Value> {
        self.eval(&|_| None)
    }

    /// The truth of a boolean expression as far as its constants decide it
    /// (`false && x` is false whatever `x` is); `None` when it depends on
    /// unknowns.
    pub fn truth(&self) -> Option<bool> {
        match self {
            Expr::Not(e) => e.truth().map(|b| !b),
            Expr::And(xs) => {
                let ts: Vec<Option<bool>> = xs.iter().map(Expr::truth).collect();
                if ts.contains(&Some(false)) {
                    Some(false)
                } else {
                    ts.into_iter().collect::<Option<Vec<_>>>().map(|_| true)
                }
            }
            Expr::Or(xs) => {
                let ts: Vec<Option<bool>> = xs.iter().map(Expr::truth).collect();
                if ts.contains(&Some(true)) {
                    Some(true)
                } else {
                    ts.into_iter().collect::<Option<Vec<_>>>().map(|_| false)
                }
            }
            other => other.eval_ground().and_then(|v| v.as_bool()),
        }
    }

    /// The expression without the conjuncts its constants make true (for
    /// reports: what is left to hold).
    pub fn residue(&self) -> Expr {
        match self {
            Expr::And(xs) => {
                let rest: Vec<Expr> = xs.iter().filter(|x| x.truth() != Some(true)).map(Expr::residue).collect();
                if rest.len() == 1 { rest.into_iter().next().expect("one") } else { Expr::And(rest) }
            }
            other => other.clone(),
        }
    }

    /// Visits every variable occurrence, mutably (renaming).
    pub fn visit_vars_mut(&mut self, f: &mut dyn FnMut(&mut Var)) {
        match self {
            Expr::Const(_) => {}
            Expr::Var(v) => f(v),
            Expr::Not(e) | Expr::Add(e, _) => e.visit_vars_mut(f),
            Expr::Ite(c, a, b) => {
                c.visit_vars_mut(f);
                a.visit_vars_mut(f);
                b.visit_vars_mut(f);
            }
            Expr::And(xs) | Expr::Or(xs) => xs.iter_mut().for_each(|x| x.visit_vars_mut(f)),
            Expr::Eq(a, b) | Expr::Lt(a, b) | Expr::Le(a, b) => {
                a.visit_vars_mut(f);
                b.visit_vars_mut(f);
            }
        }
    }
}

/// Values that may hold symbolic expressions: model states and symbolic
/// responses. The validator visits them to replace variables the
/// constraints fix by their values, drop constraints nothing refers to any
/// more, and number variables canonically — so that branches which differ
/// only in history merge. Implemented for the usual containers; a state
/// struct forwards to its fields:
///
/// ```
/// # use speccheck_dual::sym::{Expr, Syms};
/// #[derive(Clone, Debug, PartialEq, Eq, Hash)]
/// struct State { count: i64, tag: Option<Expr>, log: Vec<Expr> }
///
/// impl Syms for State {
///     fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr)) {
///         self.tag.visit_exprs(f);
///         self.log.visit_exprs(f);
///     }
/// }
/// ```
pub trait Syms {
    /// Calls `f` on every expression inside.
    fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr));
}

impl Syms for Expr {
    fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        f(self)
    }
}

impl Syms for SymJson {
    fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        match self {
            SymJson::Null => {}
            SymJson::Leaf(e) => f(e),
            SymJson::Array(xs) => xs.iter_mut().for_each(|x| x.visit_exprs(f)),
            SymJson::Object(m) => m.values_mut().for_each(|x| x.visit_exprs(f)),
        }
    }
}

macro_rules! no_syms {
    ($($t:ty),*) => {$(
        impl Syms for $t {
            fn visit_exprs(&mut self, _: &mut dyn FnMut(&mut Expr)) {}
        }
    )*};
}
no_syms!((), bool, char, i8, i16, i32, i64, i128, u8, u16, u32, u64, u128, usize, isize, String, &'static str, Value);

impl<T: Syms> Syms for Option<T> {
    fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        if let Some(x) = self {
            x.visit_exprs(f)
        }
    }
}
impl<T: Syms> Syms for Box<T> {
    fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        (**self).visit_exprs(f)
    }
}
impl<T: Syms> Syms for Vec<T> {
    fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        self.iter_mut().for_each(|x| x.visit_exprs(f))
    }
}
impl<T: Syms> Syms for std::collections::VecDeque<T> {
    fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        self.iter_mut().for_each(|x| x.visit_exprs(f))
    }
}
/// Sets are state whose order is not history: a set of expressions is
/// rebuilt after the visit, so renamed or resolved elements find their
/// place (and elements that became equal merge). Models keep unordered
/// collections — tags issued so far, paths written — in sets, so branches
/// that did the same things in different orders are one branch.
impl<T: Syms + Ord> Syms for BTreeSet<T> {
    fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        *self = std::mem::take(self)
            .into_iter()
            .map(|mut x| {
                x.visit_exprs(f);
                x
            })
            .collect();
    }
}
/// Keys must not hold variables (they cannot be changed in place).
impl<K: Ord, V: Syms> Syms for BTreeMap<K, V> {
    fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        self.values_mut().for_each(|x| x.visit_exprs(f))
    }
}
impl<A: Syms, B: Syms> Syms for (A, B) {
    fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        self.0.visit_exprs(f);
        self.1.visit_exprs(f);
    }
}
impl<A: Syms, B: Syms, C: Syms> Syms for (A, B, C) {
    fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        self.0.visit_exprs(f);
        self.1.visit_exprs(f);
        self.2.visit_exprs(f);
    }
}

/// Integers may exceed `i64` inside `Add`; compare them in `i128`.
fn int_value(e: &Expr, lookup: &dyn Fn(Var) -> Option<Value>) -> Option<i128> {
    match e {
        Expr::Add(inner, k) => Some(int_value(inner, lookup)? + i128::from(*k)),
        other => Some(i128::from(other.eval(lookup)?.as_int()?)),
    }
}

fn eval_eq(a: &Expr, b: &Expr, lookup: &dyn Fn(Var) -> Option<Value>) -> Option<bool> {
    if matches!(a, Expr::Add(..)) || matches!(b, Expr::Add(..)) {
        return Some(int_value(a, lookup)? == int_value(b, lookup)?);
    }
    let (x, y) = (a.eval(lookup)?, b.eval(lookup)?);
    (x.sort() == y.sort()).then_some(x == y)
}

impl From<Var> for Expr {
    fn from(v: Var) -> Self {
        Expr::Var(v)
    }
}
impl From<Value> for Expr {
    fn from(v: Value) -> Self {
        Expr::Const(v)
    }
}
impl From<bool> for Expr {
    fn from(b: bool) -> Self {
        Expr::bool(b)
    }
}
impl From<i64> for Expr {
    fn from(i: i64) -> Self {
        Expr::int(i)
    }
}
impl From<&str> for Expr {
    fn from(s: &str) -> Self {
        Expr::str(s)
    }
}
impl From<String> for Expr {
    fn from(s: String) -> Self {
        Expr::str(s)
    }
}
impl From<&Expr> for Expr {
    fn from(e: &Expr) -> Self {
        e.clone()
    }
}

impl std::ops::Not for Expr {
    type Output = Expr;
    fn not(self) -> Expr {
        Expr::Not(Box::new(self))
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Const(v) => write!(f, "{v}"),
            Expr::Var(v) => write!(f, "{v}"),
            Expr::Not(e) => match &**e {
                Expr::Eq(a, b) => write!(f, "{a} != {b}"),
                other => write!(f, "!({other})"),
            },
            Expr::And(xs) if xs.is_empty() => f.write_str("true"),
            Expr::Or(xs) if xs.is_empty() => f.write_str("false"),
            Expr::And(xs) => join(f, xs, " && "),
            Expr::Or(xs) => join(f, xs, " || "),
            Expr::Eq(a, b) => write!(f, "{a} == {b}"),
            Expr::Lt(a, b) => write!(f, "{a} < {b}"),
            Expr::Le(a, b) => write!(f, "{a} <= {b}"),
            Expr::Add(e, k) if *k < 0 => write!(f, "({e} - {})", i128::from(*k).abs()),
            Expr::Add(e, k) => write!(f, "({e} + {k})"),
            Expr::Ite(c, a, b) => write!(f, "(if {c} then {a} else {b})"),
        }
    }
}

fn join(f: &mut fmt::Formatter<'_>, xs: &[Expr], sep: &str) -> fmt::Result {
    for (i, x) in xs.iter().enumerate() {
        if i > 0 {
            f.write_str(sep)?;
        }
        match x {
            Expr::And(_) | Expr::Or(_) => write!(f, "({x})")?,
            _ => write!(f, "{x}")?,
        }
    }
    Ok(())
}

/// A symbolic JSON value: JSON whose leaves may be symbolic. Models that
/// speak the intermediate representation directly can send these; the
/// guard against an observed JSON value is [`SymJson::matches`].
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum SymJson {
    /// `null`.
    Null,
    /// A leaf: a boolean, integer or string expression.
    Leaf(Expr),
    /// An array.
    Array(Vec<SymJson>),
    /// An object (keys in order).
    Object(BTreeMap<String, SymJson>),
}

impl SymJson {
    /// An object from fields.
    pub fn object<'a>(fields: impl IntoIterator<Item = (&'a str, SymJson)>) -> SymJson {
        SymJson::Object(fields.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }

    /// The constraint that the observed JSON `obs` is this value: a
    /// conjunction of leaf equalities, or `false` when the shapes differ.
    pub fn matches(&self, obs: &serde_json::Value) -> Expr {
        use serde_json::Value as J;
        match (self, obs) {
            (SymJson::Null, J::Null) => Expr::bool(true),
            (SymJson::Leaf(e), J::Bool(b)) if e.sort() == Some(Sort::Bool) => e.equals(Expr::bool(*b)),
            (SymJson::Leaf(e), J::Number(n)) if e.sort() == Some(Sort::Int) => match n.as_i64() {
                Some(i) => e.equals(Expr::int(i)),
                None => Expr::bool(false),
            },
            (SymJson::Leaf(e), J::String(s)) if e.sort() == Some(Sort::Str) => e.equals(Expr::str(s.clone())),
            (SymJson::Array(xs), J::Array(ys)) if xs.len() == ys.len() => {
                Expr::and(xs.iter().zip(ys).map(|(x, y)| x.matches(y)))
            }
            (SymJson::Object(xs), J::Object(ys)) if xs.len() == ys.len() && xs.keys().all(|k| ys.contains_key(k)) => {
                Expr::and(xs.iter().map(|(k, x)| x.matches(&ys[k])))
            }
            _ => Expr::bool(false),
        }
    }
}

impl fmt::Debug for SymJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl From<Expr> for SymJson {
    fn from(e: Expr) -> Self {
        SymJson::Leaf(e)
    }
}

/// Writes `[a, b]` (shared by the JSON-shaped types' `Display`).
pub(crate) fn write_json_array<T: fmt::Display>(f: &mut fmt::Formatter<'_>, xs: &[T]) -> fmt::Result {
    f.write_str("[")?;
    for (i, x) in xs.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{x}")?;
    }
    f.write_str("]")
}

/// Writes `{"k": v, …}` (shared by the JSON-shaped types' `Display`).
pub(crate) fn write_json_object<'a, K: fmt::Debug + 'a, T: fmt::Display + 'a>(
    f: &mut fmt::Formatter<'_>,
    entries: impl Iterator<Item = (&'a K, &'a T)>,
) -> fmt::Result {
    f.write_str("{")?;
    for (i, (k, x)) in entries.enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{k:?}: {x}")?;
    }
    f.write_str("}")
}

impl fmt::Display for SymJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SymJson::Null => f.write_str("null"),
            SymJson::Leaf(e) => write!(f, "{e}"),
            SymJson::Array(xs) => write_json_array(f, xs),
            SymJson::Object(xs) => write_json_object(f, xs.iter()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(id: u32, sort: Sort) -> Var {
        Var { id, sort, hint: "v" }
    }

    #[test]
    fn constants_decide_what_they_can() {
        let x = Expr::Var(var(0, Sort::Bool));
        assert_eq!(Expr::and([Expr::bool(false), x.clone()]).truth(), Some(false));
        assert_eq!(Expr::or([x.clone(), Expr::str("a").equals("a")]).truth(), Some(true));
        assert_eq!(Expr::and([Expr::bool(true), x.clone()]).truth(), None);
        assert_eq!(Expr::and([Expr::bool(true), x.clone()]).residue(), x);
    }

    #[test]
    fn evaluation_under_an_assignment() {
        let x = var(0, Sort::Int);
        let t = var(1, Sort::Str);
        let e = Expr::and([Expr::Var(x).plus(1).le(Expr::int(5)), Expr::Var(t).equals("W/\"a\"")]);
        let lookup = |v: Var| match v.id {
            0 => Some(Value::Int(4)),
            _ => Some(Value::Str("W/\"a\"".into())),
        };
        assert_eq!(e.eval(&lookup), Some(Value::Bool(true)));
        assert_eq!(Expr::Var(x).gt(Expr::int(4)).eval(&lookup), Some(Value::Bool(false)));
        assert_eq!(Expr::Var(x).equals(Expr::str("4")).eval(&lookup), None, "ill-sorted");
    }

    #[test]
    fn symbolic_json_matches_observations() {
        let t = Expr::Var(var(0, Sort::Str));
        let sym = SymJson::Object(BTreeMap::from([
            ("status".to_string(), SymJson::Leaf(Expr::int(200))),
            ("tag".to_string(), SymJson::Leaf(t.clone())),
        ]));
        let obs = serde_json::json!({"status": 200, "tag": "abc"});
        assert_eq!(sym.matches(&obs), Expr::and([Expr::int(200).equals(200), t.equals("abc")]));
        assert_eq!(sym.matches(&serde_json::json!({"status": 200})), Expr::bool(false));
    }
}
