//! Symbolic values (thesis §3.2, §4.2.1): sorts, constants, variables and
//! the expressions a model computes with when it cannot know a value — an
//! ETag the server chose, a number it reset to.
//!
//! The language is deliberately small so that the purpose-built solver in
//! [`crate::solver`] decides it exactly: booleans, 64-bit integers with
//! order and constant offsets, strings with equality, and HTTP entity-tag
//! comparison against a concrete tag (RFC 7232 §2.3.2), which reduces to
//! string equalities.

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
    /// HTTP entity-tag comparison of a (symbolic) tag against a concrete one
    /// (RFC 7232 §2.3.2): *strong* needs both tags strong and identical,
    /// *weak* needs the opaque tags (without `W/`) identical.
    TagMatch {
        /// The tag the server holds (a string, `"x"` or `W/"x"`).
        tag: Box<Expr>,
        /// The tag from the request.
        against: String,
        /// Weak comparison (otherwise strong).
        weak: bool,
    },
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

    /// Strong entity-tag comparison with the concrete tag `against`.
    pub fn strong_match(&self, against: impl Into<String>) -> Expr {
        Expr::TagMatch { tag: Box::new(self.clone()), against: against.into(), weak: false }
    }

    /// Weak entity-tag comparison with the concrete tag `against`.
    pub fn weak_match(&self, against: impl Into<String>) -> Expr {
        Expr::TagMatch { tag: Box::new(self.clone()), against: against.into(), weak: true }
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
            Expr::TagMatch { tag, .. } => tag.vars(out),
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
            Expr::TagMatch { tag, against, weak } => {
                let t = tag.eval(lookup)?;
                Value::Bool(etag_match(t.as_str()?, against, *weak))
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
            Expr::TagMatch { tag, .. } => tag.visit_vars_mut(f),
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

/// An HTTP entity tag whose parts may be unknown (RFC 7232 §2.3): whether
/// it is weak (a boolean) and its opaque part (a string, quotes included).
/// A server chooses its tags, so a model names a new one with fresh
/// variables; comparisons between two tags — either or both unknown —
/// reduce to boolean and string equalities the solver decides exactly.
///
/// ```
/// # use speccheck_dual::sym::{EntityTag, Expr};
/// let seen = EntityTag::parse("W/\"7\"").unwrap();
/// assert_eq!(seen.weak_eq(&EntityTag::parse("\"7\"").unwrap()).eval_ground(), Some(true.into()));
/// assert_eq!(seen.strong_eq(&seen).eval_ground(), Some(false.into()), "weak tags never match strongly");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EntityTag {
    /// Whether the tag is weak (`W/` prefix), a boolean expression.
    pub weak: Expr,
    /// The opaque tag with its quotes (`"xyz"`), a string expression.
    pub opaque: Expr,
}

impl EntityTag {
    /// A tag from its parts.
    pub fn new(weak: impl Into<Expr>, opaque: impl Into<Expr>) -> Self {
        EntityTag { weak: weak.into(), opaque: opaque.into() }
    }

    /// A concrete tag as written in a header (`"x"`, `W/"x"`); `None`
    /// when it is not an entity tag (RFC 7232 §2.3: a quoted string of
    /// visible characters other than `"`, optionally prefixed by `W/`).
    pub fn parse(s: &str) -> Option<Self> {
        let (weak, opaque) = match s.strip_prefix("W/") {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        let inner = opaque.strip_prefix('"')?.strip_suffix('"')?;
        let ok = inner.bytes().all(|b| b == 0x21 || (0x23..=0x7e).contains(&b) || b >= 0x80);
        ok.then(|| EntityTag::new(weak, opaque.to_string()))
    }

    /// Strong comparison (RFC 7232 §2.3.2): both strong, same opaque tag.
    pub fn strong_eq(&self, other: &EntityTag) -> Expr {
        Expr::and([!self.weak.clone(), !other.weak.clone(), self.opaque.equals(&other.opaque)])
    }

    /// Weak comparison (RFC 7232 §2.3.2): same opaque tag.
    pub fn weak_eq(&self, other: &EntityTag) -> Expr {
        self.opaque.equals(&other.opaque)
    }

    /// The constraint that this tag is the one written `observed` in a
    /// header (false when `observed` is not an entity tag).
    pub fn is(&self, observed: &str) -> Expr {
        match EntityTag::parse(observed) {
            Some(t) => Expr::and([self.weak.equals(t.weak), self.opaque.equals(t.opaque)]),
            None => Expr::bool(false),
        }
    }

    /// Whether some tag of `list` matches this one (strongly, or weakly
    /// with `weak`): a disjunction, false for an empty list.
    pub fn any_of(&self, list: &[EntityTag], weak: bool) -> Expr {
        Expr::or(list.iter().map(|t| if weak { self.weak_eq(t) } else { self.strong_eq(t) }))
    }
}

impl fmt::Display for EntityTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.weak, &self.opaque) {
            (Expr::Const(Value::Bool(true)), Expr::Const(Value::Str(o))) => write!(f, "W/{o}"),
            (Expr::Const(Value::Bool(false)), Expr::Const(Value::Str(o))) => f.write_str(o),
            (w, o) => write!(f, "etag(weak: {w}, opaque: {o})"),
        }
    }
}

impl Syms for EntityTag {
    fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        f(&mut self.weak);
        f(&mut self.opaque);
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

/// Entity-tag comparison on concrete tags (RFC 7232 §2.3.2).
pub fn etag_match(a: &str, b: &str, weak: bool) -> bool {
    if weak { opaque_tag(a) == opaque_tag(b) } else { !a.starts_with("W/") && !b.starts_with("W/") && a == b }
}

/// The opaque part of an entity tag (without the weakness indicator).
pub fn opaque_tag(t: &str) -> &str {
    t.strip_prefix("W/").unwrap_or(t)
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
            Expr::TagMatch { tag, against, weak } => {
                write!(f, "{}({tag}, {against:?})", if *weak { "weak_match" } else { "strong_match" })
            }
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
    fn etag_comparison_follows_rfc_7232() {
        // The table of RFC 7232 §2.3.2.
        assert!(!etag_match("W/\"1\"", "W/\"1\"", false));
        assert!(etag_match("W/\"1\"", "W/\"1\"", true));
        assert!(!etag_match("W/\"1\"", "W/\"2\"", false));
        assert!(!etag_match("W/\"1\"", "W/\"2\"", true));
        assert!(!etag_match("W/\"1\"", "\"1\"", false));
        assert!(etag_match("W/\"1\"", "\"1\"", true));
        assert!(etag_match("\"1\"", "\"1\"", false));
        assert!(etag_match("\"1\"", "\"1\"", true));
    }

    #[test]
    fn entity_tags_compare_as_rfc_7232_says_whatever_is_unknown() {
        // The table of RFC 7232 §2.3.2, through symbolic tags.
        let t = |s: &str| EntityTag::parse(s).unwrap();
        let g = |e: Expr| e.eval_ground().and_then(|v| v.as_bool()).unwrap();
        for (a, b, strong, weak) in [
            ("W/\"1\"", "W/\"1\"", false, true),
            ("W/\"1\"", "W/\"2\"", false, false),
            ("W/\"1\"", "\"1\"", false, true),
            ("\"1\"", "\"1\"", true, true),
        ] {
            assert_eq!(g(t(a).strong_eq(&t(b))), strong, "{a} {b}");
            assert_eq!(g(t(a).weak_eq(&t(b))), weak, "{a} {b}");
            assert_eq!(etag_match(a, b, false), strong);
            assert_eq!(etag_match(a, b, true), weak);
        }
        assert!(EntityTag::parse("abc").is_none() && EntityTag::parse("\"a\"b\"").is_none());
        // Two unknown tags: the comparison is a constraint on both.
        let u = EntityTag::new(Expr::Var(var(0, Sort::Bool)), Expr::Var(var(1, Sort::Str)));
        let lookup = |v: Var| match v.id {
            0 => Some(Value::Bool(false)),
            _ => Some(Value::Str("\"1\"".into())),
        };
        assert_eq!(u.strong_eq(&t("\"1\"")).eval(&lookup), Some(Value::Bool(true)));
        assert_eq!(u.any_of(&[t("\"2\""), t("W/\"1\"")], false).eval(&lookup), Some(Value::Bool(false)));
        assert_eq!(u.any_of(&[t("\"2\""), t("W/\"1\"")], true).eval(&lookup), Some(Value::Bool(true)));
        assert_eq!(u.is("\"1\"").eval(&lookup), Some(Value::Bool(true)));
        assert_eq!(u.is("garbage"), Expr::bool(false));
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
        let e = Expr::and([Expr::Var(x).plus(1).le(Expr::int(5)), Expr::Var(t).weak_match("\"a\"")]);
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
