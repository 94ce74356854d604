//! Specs as SMT terms over symbolic values: measures unfold along the
//! symbolic structure (one `ite` over the constructors a node may take,
//! shared between uses), bounded quantifiers unroll, a set is its possible
//! members, each under the condition that puts it there (of any element
//! type the solver has: integers, booleans, data, sequences; membership is
//! a disjunction of equalities, and a quantifier over a set unrolls over
//! them: no z3 arrays), data values and sequences compare field by field.
//!
//! A partial operation (a field of another constructor, an index out of
//! range, a division by zero) is *undefined*: alongside each term the
//! translator builds the condition under which evaluating it meets one,
//! following the evaluator's order (`&&`, `||`, `==>`, `if` and the
//! quantifiers stop early, as Rust's do), and a spec holds only where it is
//! defined and true — the evaluator's and the lazy strategy's meaning.

use std::collections::HashMap;
use std::rc::Rc;

use speccheck_spec::measure::Body;
use speccheck_spec::{BinOp, Domain, Expr, Measures, UnOp};
use z3::ast::{Ast, Bool, Dynamic, Int};

use super::sym::{DataSym, SeqSym, Sym};

/// A spec construct the solver cannot take, with why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{why}: `{construct}`")]
pub struct Unsolvable {
    /// The construct.
    pub construct: String,
    /// Why it is outside the solvable fragment.
    pub why: String,
}

fn unsolvable(e: &Expr, why: impl Into<String>) -> Unsolvable {
    Unsolvable { construct: e.to_string(), why: why.into() }
}

/// A term's value.
#[derive(Clone)]
pub enum T {
    /// An integer term with bounds, when known.
    Int(Int, Option<(i128, i128)>),
    /// A boolean term.
    Bool(Bool),
    /// A set.
    Set(SetT),
    /// A symbolic data value.
    Data(Rc<DataSym>),
    /// A symbolic sequence.
    Seq(Rc<SeqSym>),
    /// The value of an expression that is undefined wherever it is
    /// evaluated (a field no constructor the node may take has): any
    /// value will do, since the spec is false there.
    Undef,
}

/// A set as the solver sees it: every set a spec builds comes from
/// `empty`, `singleton`, `elems`, the set operations and choices between
/// sets, so its possible members are known terms, each under the condition
/// that puts it there. Membership, equality and inclusion compare members
/// (the element type's own equality: integers, booleans, data field by
/// field, sequences element by element); a quantifier over the set unrolls
/// over them (no z3 quantifier, no z3 array).
#[derive(Clone)]
pub struct SetT {
    members: Rc<Vec<Member>>,
}

/// A possible member of a set: when it is in, and the element.
#[derive(Clone)]
struct Member {
    when: Bool,
    x: T,
}

impl SetT {
    fn empty() -> SetT {
        SetT { members: Rc::new(Vec::new()) }
    }

    fn singleton(x: T) -> SetT {
        SetT { members: Rc::new(vec![Member { when: Bool::from_bool(true), x }]) }
    }

    /// Whether `x` is in the set (`None`: elements of another type).
    fn contains(&self, x: &T) -> Option<Bool> {
        let mut any_of = Vec::with_capacity(self.members.len());
        for m in self.members.iter() {
            any_of.push(Bool::and(&[m.when.clone(), elem_eq(&m.x, x)?]));
        }
        Some(any(&any_of))
    }

    /// The members of `self`, each also under what `also` says of it.
    fn members_where(&self, also: impl Fn(&T) -> Option<Bool>) -> Option<Vec<Member>> {
        self.members
            .iter()
            .map(|m| Some(Member { when: Bool::and(&[m.when.clone(), also(&m.x)?]), x: m.x.clone() }))
            .collect()
    }

    fn union(a: SetT, b: SetT) -> SetT {
        let members = a.members.iter().chain(b.members.iter()).cloned().collect();
        SetT { members: Rc::new(members) }
    }

    fn inter(a: SetT, b: SetT) -> Option<SetT> {
        Some(SetT { members: Rc::new(a.members_where(|x| b.contains(x))?) })
    }

    fn diff(a: SetT, b: SetT) -> Option<SetT> {
        Some(SetT { members: Rc::new(a.members_where(|x| Some(b.contains(x)?.not()))?) })
    }

    fn ite(c: &Bool, a: SetT, b: SetT) -> SetT {
        fn under(set: &SetT, c: &Bool) -> impl Iterator<Item = Member> {
            set.members.iter().map(move |m| Member { when: Bool::and(&[m.when.clone(), c.clone()]), x: m.x.clone() })
        }
        let not_c = c.not();
        let members = under(&a, c).chain(under(&b, &not_c)).collect();
        SetT { members: Rc::new(members) }
    }

    /// Every member of `self` is in `other`.
    fn subset(&self, other: &SetT) -> Option<Bool> {
        let mut all = Vec::with_capacity(self.members.len());
        for m in self.members.iter() {
            all.push(m.when.implies(&other.contains(&m.x)?));
        }
        Some(Bool::and(&all))
    }

    fn equals(&self, other: &SetT) -> Option<Bool> {
        Some(Bool::and(&[self.subset(other)?, other.subset(self)?]))
    }

    /// How many distinct members are in: each counted where no earlier
    /// possible member is in and equal to it.
    fn len(&self) -> Option<T> {
        let mut terms = Vec::with_capacity(self.members.len());
        for (i, m) in self.members.iter().enumerate() {
            let mut earlier = Vec::with_capacity(i);
            for n in &self.members[..i] {
                earlier.push(Bool::and(&[n.when.clone(), elem_eq(&n.x, &m.x)?]));
            }
            let counted = Bool::and(&[m.when.clone(), any(&earlier).not()]);
            terms.push(counted.ite(&Int::from_i64(1), &Int::from_i64(0)));
        }
        let n = self.members.len() as i128;
        let sum = if terms.is_empty() { Int::from_i64(0) } else { Int::add(&terms) };
        Some(T::Int(sum, Some((0, n))))
    }

    fn is_empty(&self) -> Bool {
        any(&self.members.iter().map(|m| m.when.clone()).collect::<Vec<_>>()).not()
    }
}

/// Equality of two elements of sets (`None`: unlike types).
fn elem_eq(a: &T, b: &T) -> Option<Bool> {
    Some(match (a, b) {
        (T::Int(x, _), T::Int(y, _)) => x.eq(y),
        (T::Bool(x), T::Bool(y)) => x.eq(y),
        (T::Data(x), T::Data(y)) => data_eq(x, y)?,
        (T::Seq(x), T::Seq(y)) => seq_eq(x, y)?,
        (T::Set(x), T::Set(y)) => x.equals(y)?,
        _ => return None,
    })
}

/// `a < b` in the evaluator's order of set elements (`Value`'s: integers
/// and booleans as Rust orders them, data by constructor then fields,
/// sequences lexicographically); `None` for sets of sets.
fn elem_lt(a: &T, b: &T) -> Option<Bool> {
    Some(match (a, b) {
        (T::Int(x, _), T::Int(y, _)) => x.lt(y),
        (T::Bool(x), T::Bool(y)) => Bool::and(&[x.not(), y.clone()]),
        (T::Data(x), T::Data(y)) => data_lt(x, y)?,
        (T::Seq(x), T::Seq(y)) => seq_lt(x, y)?,
        _ => return None,
    })
}

fn sym_lt(a: &Sym, b: &Sym) -> Option<Bool> {
    elem_lt(&T::of(a), &T::of(b))
}

/// Data values of one type: the earlier constructor first, then the
/// fields in order.
fn data_lt(a: &DataSym, b: &DataSym) -> Option<Bool> {
    if a.def.name != b.def.name {
        return Some(Bool::from_bool(a.def.name < b.def.name));
    }
    let mut cases = Vec::new();
    for x in &a.alts {
        for y in &b.alts {
            let both = Bool::and(&[x.chosen(), y.chosen()]);
            match x.ctor.cmp(&y.ctor) {
                std::cmp::Ordering::Less => cases.push(both),
                std::cmp::Ordering::Greater => {}
                std::cmp::Ordering::Equal => {
                    // Lexicographic: equal up to field i, less at i.
                    let mut equal_so_far = Vec::new();
                    let mut at = Vec::new();
                    for (f, g) in x.fields.iter().zip(&y.fields) {
                        at.push(Bool::and(&[Bool::and(&equal_so_far), sym_lt(f, g)?]));
                        equal_so_far.push(sym_eq(f, g)?);
                    }
                    cases.push(Bool::and(&[both, any(&at)]));
                }
            }
        }
    }
    Some(any(&cases))
}

/// Sequences, lexicographically (a proper prefix first).
fn seq_lt(a: &SeqSym, b: &SeqSym) -> Option<Bool> {
    let mut cases = Vec::new();
    let mut equal_so_far = Vec::new();
    for k in 0..=a.elems.len().min(b.elems.len()) {
        let kk = Int::from_i64(k as i64);
        let mut here = vec![Bool::and(&[a.len.eq(&kk), b.len.gt(&kk)])];
        if let (Some(x), Some(y)) = (a.elems.get(k), b.elems.get(k)) {
            here.push(Bool::and(&[a.len.gt(&kk), b.len.gt(&kk), sym_lt(x, y)?]));
            cases.push(Bool::and(&[Bool::and(&equal_so_far), any(&here)]));
            equal_so_far.push(Bool::and(&[a.len.gt(&kk), b.len.gt(&kk), sym_eq(x, y)?]));
        } else {
            cases.push(Bool::and(&[Bool::and(&equal_so_far), any(&here)]));
        }
    }
    Some(any(&cases))
}

impl T {
    fn of(s: &Sym) -> T {
        match s {
            Sym::Int(x, lo, hi) => T::Int(x.clone(), Some((*lo, *hi))),
            Sym::Bool(b) => T::Bool(b.clone()),
            Sym::Data(d) => T::Data(d.clone()),
            Sym::Seq(s) => T::Seq(s.clone()),
        }
    }
}

/// One measure call: the measure, the node it matches on, and its other
/// arguments (terms by identity: z3 shares equal terms).
#[derive(Clone, PartialEq, Eq, Hash)]
struct Call {
    measure: String,
    node: u32,
    rest: Vec<Arg>,
}

/// A measure argument after the first, as a call's identity sees it.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Arg {
    Term(Dynamic),
    Node(u32),
}

impl Arg {
    /// `None` for an argument with no identity here (a sequence, a set,
    /// or an undefined value): such calls are not memoized.
    fn of(t: &T) -> Option<Arg> {
        Some(match t {
            T::Int(x, _) => Arg::Term(Dynamic::from(x)),
            T::Bool(b) => Arg::Term(Dynamic::from(b)),
            T::Data(node) => Arg::Node(node.id),
            T::Set(_) | T::Seq(_) | T::Undef => return None,
        })
    }
}

/// Translates specs, memoizing measure unfoldings per node and arguments.
pub struct Translator<'m> {
    measures: &'m Measures,
    /// Each unfolding with the condition under which it is undefined.
    memo: HashMap<Call, (T, Bool)>,
    unfolding: Vec<Call>,
    /// Conditions under which the expression being translated meets a
    /// partial operation (see [`Translator::scoped`]).
    undef: Vec<Bool>,
}

type Scope = Vec<(String, T)>;

impl<'m> Translator<'m> {
    /// A translator calling `measures`.
    pub fn new(measures: &'m Measures) -> Self {
        Translator { measures, memo: HashMap::new(), unfolding: Vec::new(), undef: Vec::new() }
    }

    /// The formula for spec `e` with the symbolic values `scope` in scope:
    /// true where `e` is defined and true.
    pub fn formula(&mut self, e: &Expr, scope: &[(String, Sym)]) -> Result<Bool, Unsolvable> {
        let mut s: Scope = scope.iter().map(|(n, v)| (n.clone(), T::of(v))).collect();
        let (b, undefined) = self.scoped(|t| t.boolean(e, &mut s))?;
        Ok(Bool::and(&[b, undefined.not()]))
    }

    /// Runs `f` apart: its result, and the condition under which what it
    /// translated is undefined (kept out of the enclosing expression's, for
    /// the caller to place where evaluation would reach it).
    fn scoped<R>(&mut self, f: impl FnOnce(&mut Self) -> Result<R, Unsolvable>) -> Result<(R, Bool), Unsolvable> {
        let outer = std::mem::take(&mut self.undef);
        let r = f(self);
        let inner = std::mem::replace(&mut self.undef, outer);
        Ok((r?, any(&inner)))
    }

    fn boolean(&mut self, e: &Expr, s: &mut Scope) -> Result<Bool, Unsolvable> {
        match self.term(e, s)? {
            T::Bool(b) => Ok(b),
            T::Undef => Ok(Bool::fresh_const("undef")),
            _ => Err(unsolvable(e, "expected a boolean")),
        }
    }

    fn int(&mut self, e: &Expr, s: &mut Scope) -> Result<(Int, Option<(i128, i128)>), Unsolvable> {
        match self.term(e, s)? {
            T::Int(i, b) => Ok((i, b)),
            T::Undef => Ok((Int::fresh_const("undef"), None)),
            _ => Err(unsolvable(e, "expected an integer")),
        }
    }

    fn set(&mut self, e: &Expr, s: &mut Scope) -> Result<SetT, Unsolvable> {
        match self.term(e, s)? {
            T::Set(x) => Ok(x),
            T::Seq(seq) => Ok(elements(&seq)),
            T::Undef => Ok(SetT::empty()),
            _ => Err(unsolvable(e, "expected a set")),
        }
    }

    /// The term for `e`.
    pub fn term(&mut self, e: &Expr, s: &mut Scope) -> Result<T, Unsolvable> {
        Ok(match e {
            Expr::Int(i) => T::Int(Int::from_i128(*i), Some((*i, *i))),
            Expr::Bool(b) => T::Bool(Bool::from_bool(*b)),
            Expr::Var(v) => s
                .iter()
                .rev()
                .find(|(n, _)| n == v)
                .map(|(_, t)| t.clone())
                .ok_or_else(|| unsolvable(e, "not in scope"))?,
            Expr::Field(base, field) => {
                let node = match self.term(base, s)? {
                    T::Data(node) => node,
                    T::Undef => return Ok(T::Undef),
                    _ => return Err(unsolvable(e, "a field of something that is not data")),
                };
                if !node.def.ctors.iter().any(|c| c.fields.iter().any(|f| &f.name == field)) {
                    return Err(unsolvable(e, "no constructor has this field"));
                }
                let found: Vec<(Bool, T)> = node
                    .alts
                    .iter()
                    .filter_map(|a| {
                        let i = node.def.ctors[a.ctor].fields.iter().position(|f| &f.name == field)?;
                        Some((a.chosen(), T::of(&a.fields[i])))
                    })
                    .collect();
                // Undefined on the constructors without the field.
                if found.len() < node.alts.len() {
                    self.undef.push(any(&found.iter().map(|(c, _)| c.clone()).collect::<Vec<_>>()).not());
                }
                match found.len() {
                    0 => T::Undef,
                    1 => found.into_iter().next().map(|(_, t)| t).expect("one"),
                    _ => ite_all(e, found)?,
                }
            }
            Expr::Index(seq, i) => {
                let seq_sym = match self.term(seq, s)? {
                    T::Seq(seq_sym) => seq_sym,
                    T::Undef => return Ok(T::Undef),
                    _ => return Err(unsolvable(e, "indexing something that is not a sequence")),
                };
                let (i, _) = self.int(i, s)?;
                // Undefined outside `0..len`.
                self.undef.push(Bool::and(&[i.ge(Int::from_i64(0)), i.lt(&seq_sym.len)]).not());
                if let Some(k) = i.simplify().as_i64() {
                    match usize::try_from(k).ok().and_then(|k| seq_sym.elems.get(k)) {
                        Some(el) => T::of(el),
                        None => T::Undef,
                    }
                } else {
                    let cases: Vec<(Bool, T)> = seq_sym
                        .elems
                        .iter()
                        .enumerate()
                        .map(|(k, el)| (i.eq(Int::from_i64(k as i64)), T::of(el)))
                        .collect();
                    if cases.is_empty() { T::Undef } else { ite_all(e, cases)? }
                }
            }
            Expr::Unary(UnOp::Not, x) => T::Bool(self.boolean(x, s)?.not()),
            Expr::Unary(UnOp::Neg, x) => {
                let (i, b) = self.int(x, s)?;
                T::Int(i.unary_minus(), b.map(|(lo, hi)| (-hi, -lo)))
            }
            Expr::Binary(op, a, b) => self.binary(*op, a, b, e, s)?,
            Expr::If(c, a, b) => {
                let c = self.boolean(c, s)?;
                let (a, ua) = self.scoped(|t| t.term(a, s))?;
                let (b, ub) = self.scoped(|t| t.term(b, s))?;
                self.undef.push(c.ite(&ua, &ub));
                ite(e, &c, a, b)?
            }
            Expr::Call(f, args) => self.call(f, args, e, s)?,
            Expr::Quant { forall, var, domain, body } => {
                let mut parts = Vec::new();
                match domain {
                    Domain::Range(lo, hi) | Domain::RangeInclusive(lo, hi) => {
                        let inclusive = matches!(domain, Domain::RangeInclusive(..));
                        let (lo_t, lo_b) = self.int(lo, s)?;
                        let (hi_t, hi_b) = self.int(hi, s)?;
                        let (Some((min, _)), Some((_, max))) = (lo_b, hi_b) else {
                            return Err(unsolvable(e, "a quantifier over a range the solver cannot bound"));
                        };
                        let max = if inclusive { max } else { max - 1 };
                        if max - min > 100_000 {
                            return Err(unsolvable(e, "a quantifier over more than 100000 integers"));
                        }
                        for k in min..=max {
                            let ki = Int::from_i128(k);
                            let inside = if inclusive {
                                Bool::and(&[lo_t.le(&ki), ki.le(&hi_t)])
                            } else {
                                Bool::and(&[lo_t.le(&ki), ki.lt(&hi_t)])
                            };
                            s.push((var.clone(), T::Int(ki, Some((k, k)))));
                            let b = self.scoped(|t| t.boolean(body, s));
                            s.pop();
                            parts.push((inside, b?));
                        }
                    }
                    Domain::Elements(c) => {
                        let seq = match self.term(c, s)? {
                            T::Seq(seq) => seq,
                            T::Set(set) => return self.over_set(*forall, var, &set, body, s),
                            T::Undef => return Ok(T::Undef),
                            _ => return Err(unsolvable(e, "a quantifier over what is neither a sequence nor a set")),
                        };
                        for (k, el) in seq.elems.iter().enumerate() {
                            let inside = seq.len.gt(Int::from_i64(k as i64));
                            s.push((var.clone(), T::of(el)));
                            let b = self.scoped(|t| t.boolean(body, s));
                            s.pop();
                            parts.push((inside, b?));
                        }
                    }
                }
                // The items are evaluated in order until one decides (false
                // for `forall`, true for `exists`): undefined when an item
                // reached that way is.
                let mut undefined = Bool::from_bool(false);
                for (inside, (b, u)) in parts.iter().rev() {
                    let goes_on = if *forall { b.clone() } else { b.not() };
                    let here = Bool::or(&[u.clone(), Bool::and(&[goes_on, undefined.clone()])]);
                    undefined = inside.ite(&here, &undefined);
                }
                self.undef.push(undefined);
                let parts: Vec<(Bool, Bool)> = parts.into_iter().map(|(g, (b, _))| (g, b)).collect();
                T::Bool(if *forall {
                    Bool::and(&parts.iter().map(|(g, b)| g.implies(b)).collect::<Vec<_>>())
                } else {
                    Bool::or(&parts.iter().map(|(g, b)| Bool::and(&[g.clone(), b.clone()])).collect::<Vec<_>>())
                })
            }
        })
    }

    /// `forall!(var in set, body)` (or `exists!`): the body on each possible
    /// member, under the condition that puts it in. The evaluator goes
    /// through a set's members in increasing order and stops at the first
    /// that decides; so the quantifier is undefined where some member's
    /// body is and every smaller member's goes on.
    fn over_set(&mut self, forall: bool, var: &str, set: &SetT, body: &Expr, s: &mut Scope) -> Result<T, Unsolvable> {
        let mut parts = Vec::new();
        for m in set.members.iter() {
            s.push((var.to_string(), m.x.clone()));
            let b = self.scoped(|t| t.boolean(body, s));
            s.pop();
            let (b, u) = b?;
            parts.push((m, b, u));
        }
        let goes_on = |b: &Bool| if forall { b.clone() } else { b.not() };
        let mut undefined = Vec::new();
        for (i, (m, _, u)) in parts.iter().enumerate() {
            // A body that is defined everywhere needs no order.
            if u.simplify().as_bool() == Some(false) {
                continue;
            }
            let mut here = vec![m.when.clone(), u.clone()];
            for (j, (n, b, _)) in parts.iter().enumerate() {
                if i != j {
                    let before = elem_lt(&n.x, &m.x).ok_or_else(|| {
                        unsolvable(body, "a quantifier over a set of sets whose body may be undefined")
                    })?;
                    here.push(Bool::and(&[n.when.clone(), before]).implies(goes_on(b)));
                }
            }
            undefined.push(Bool::and(&here));
        }
        self.undef.push(any(&undefined));
        Ok(T::Bool(if forall {
            Bool::and(&parts.iter().map(|(m, b, _)| m.when.implies(b)).collect::<Vec<_>>())
        } else {
            any(&parts.iter().map(|(m, b, _)| Bool::and(&[m.when.clone(), b.clone()])).collect::<Vec<_>>())
        }))
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, e: &Expr, s: &mut Scope) -> Result<T, Unsolvable> {
        match op {
            BinOp::And | BinOp::Or | BinOp::Implies => {
                // The right side is evaluated only when the left does not
                // decide (Rust's short circuit).
                let x = self.boolean(a, s)?;
                let (y, uy) = self.scoped(|t| t.boolean(b, s))?;
                let goes_on = if op == BinOp::Or { x.not() } else { x.clone() };
                self.undef.push(Bool::and(&[goes_on, uy]));
                return Ok(T::Bool(match op {
                    BinOp::And => Bool::and(&[x, y]),
                    BinOp::Or => Bool::or(&[x, y]),
                    _ => x.implies(&y),
                }));
            }
            BinOp::Eq | BinOp::Ne => {
                let eq = match (self.term(a, s)?, self.term(b, s)?) {
                    (T::Int(x, _), T::Int(y, _)) => x.eq(&y),
                    (T::Bool(x), T::Bool(y)) => x.eq(&y),
                    (T::Set(x), T::Set(y)) => {
                        x.equals(&y).ok_or_else(|| unsolvable(e, "equality of sets of unlike elements"))?
                    }
                    // A sequence is never a set to the evaluator (values of
                    // two kinds), whatever their elements.
                    (T::Seq(_), T::Set(_)) | (T::Set(_), T::Seq(_)) => Bool::from_bool(false),
                    (T::Data(x), T::Data(y)) => {
                        data_eq(&x, &y).ok_or_else(|| unsolvable(e, "equality of unlike values"))?
                    }
                    (T::Seq(x), T::Seq(y)) => {
                        seq_eq(&x, &y).ok_or_else(|| unsolvable(e, "equality of unlike values"))?
                    }
                    (T::Undef, _) | (_, T::Undef) => Bool::fresh_const("undef"),
                    _ => return Err(unsolvable(e, "equality of values of different types")),
                };
                return Ok(T::Bool(if op == BinOp::Eq { eq } else { eq.not() }));
            }
            _ => {}
        }
        let (x, xb) = self.int(a, s)?;
        let (y, yb) = self.int(b, s)?;
        let add = |p: Option<(i128, i128)>, q: Option<(i128, i128)>| Some((p?.0 + q?.0, p?.1 + q?.1));
        Ok(match op {
            BinOp::Add => T::Int(Int::add(&[x, y]), add(xb, yb)),
            BinOp::Sub => T::Int(Int::sub(&[x, y]), add(xb, yb.map(|(lo, hi)| (-hi, -lo)))),
            BinOp::Mul => {
                let (kx, ky) = (constant(&x), constant(&y));
                if kx.is_none() && ky.is_none() {
                    return Err(unsolvable(e, "non-linear arithmetic (a product of two unknowns)"));
                }
                let bounds = match (xb, yb) {
                    (Some((a0, a1)), Some((b0, b1))) => {
                        let c = [a0 * b0, a0 * b1, a1 * b0, a1 * b1];
                        Some((*c.iter().min().expect("4"), *c.iter().max().expect("4")))
                    }
                    _ => None,
                };
                T::Int(Int::mul(&[x, y]), bounds)
            }
            BinOp::Div | BinOp::Rem => {
                let Some(k) = constant(&y) else {
                    return Err(unsolvable(e, "division by something other than a constant"));
                };
                if k == 0 {
                    // Division by zero: undefined wherever it is reached.
                    self.undef.push(Bool::from_bool(true));
                    return Ok(T::Int(Int::fresh_const("undef"), None));
                }
                // Rust truncates toward zero; SMT-LIB's div is Euclidean.
                let kt = Int::from_i128(k.abs());
                let q_pos = x.div(&kt);
                let q_neg = x.unary_minus().div(&kt).unary_minus();
                let q_abs = x.ge(Int::from_i64(0)).ite(&q_pos, &q_neg);
                let q = if k < 0 { q_abs.unary_minus() } else { q_abs };
                if op == BinOp::Div {
                    T::Int(q, None)
                } else {
                    T::Int(Int::sub(&[x, Int::mul(&[q, Int::from_i128(k)])]), None)
                }
            }
            BinOp::Lt => T::Bool(x.lt(&y)),
            BinOp::Le => T::Bool(x.le(&y)),
            BinOp::Gt => T::Bool(x.gt(&y)),
            BinOp::Ge => T::Bool(x.ge(&y)),
            _ => unreachable!("handled above"),
        })
    }

    fn call(&mut self, f: &str, args: &[Expr], e: &Expr, s: &mut Scope) -> Result<T, Unsolvable> {
        if let Some((ctor, x)) = Expr::ctor_test(f, args) {
            return match self.term(x, s)? {
                T::Data(node) => {
                    let chosen: Vec<Bool> =
                        node.alts.iter().filter(|a| node.def.ctors[a.ctor].name == ctor).map(|a| a.chosen()).collect();
                    Ok(T::Bool(any(&chosen)))
                }
                T::Undef => Ok(T::Undef),
                _ => Err(unsolvable(e, "a constructor test of something that is not data")),
            };
        }
        match (f, args) {
            ("len", [x]) => match self.term(x, s)? {
                T::Seq(seq) => return Ok(T::Int(seq.len.clone(), Some((0, seq.elems.len() as i128)))),
                T::Set(set) => return set.len().ok_or_else(|| unsolvable(e, "a set of unlike elements")),
                T::Undef => return Ok(T::Undef),
                _ => {}
            },
            ("is_empty", [x]) => match self.term(x, s)? {
                T::Seq(seq) => return Ok(T::Bool(seq.len.eq(Int::from_i64(0)))),
                T::Set(set) => return Ok(T::Bool(set.is_empty())),
                T::Undef => return Ok(T::Undef),
                _ => {}
            },
            ("empty", []) => return Ok(T::Set(SetT::empty())),
            ("singleton", [x]) => {
                return Ok(match self.term(x, s)? {
                    // Where it is taken, the spec is false anyway.
                    T::Undef => T::Undef,
                    x => T::Set(SetT::singleton(x)),
                });
            }
            ("elems", [x]) => return Ok(T::Set(self.set(x, s)?)),
            ("union", [a, b]) => return Ok(T::Set(SetT::union(self.set(a, s)?, self.set(b, s)?))),
            ("inter" | "intersection", [a, b]) => {
                let set = SetT::inter(self.set(a, s)?, self.set(b, s)?);
                return set.map(T::Set).ok_or_else(|| unsolvable(e, "sets of unlike elements"));
            }
            ("diff" | "difference", [a, b]) => {
                let set = SetT::diff(self.set(a, s)?, self.set(b, s)?);
                return set.map(T::Set).ok_or_else(|| unsolvable(e, "sets of unlike elements"));
            }
            ("member", [x, set]) | ("contains", [set, x]) => {
                let x = match self.term(x, s)? {
                    T::Undef => return Ok(T::Undef),
                    x => x,
                };
                let set = self.set(set, s)?;
                return set.contains(&x).map(T::Bool).ok_or_else(|| unsolvable(e, "an element of another type"));
            }
            ("subset" | "is_subset", [a, b]) => {
                let (a, b) = (self.set(a, s)?, self.set(b, s)?);
                return a.subset(&b).map(T::Bool).ok_or_else(|| unsolvable(e, "sets of unlike elements"));
            }
            ("abs", [x]) => {
                let (x, b) = self.int(x, s)?;
                let bounds = b.map(|(lo, hi)| (0.max(lo).max(-hi), lo.abs().max(hi.abs())));
                return Ok(T::Int(x.ge(Int::from_i64(0)).ite(&x, &x.unary_minus()), bounds));
            }
            ("min" | "max", [a, b]) => {
                let ((x, xb), (y, yb)) = (self.int(a, s)?, self.int(b, s)?);
                let pick = if f == "min" { x.le(&y) } else { x.ge(&y) };
                let bounds = match (xb, yb) {
                    (Some(p), Some(q)) => Some((p.0.min(q.0), p.1.max(q.1))),
                    _ => None,
                };
                return Ok(T::Int(pick.ite(&x, &y), bounds));
            }
            _ => {}
        }
        self.measure(f, args, e, s)
    }

    fn measure(&mut self, f: &str, args: &[Expr], e: &Expr, s: &mut Scope) -> Result<T, Unsolvable> {
        let m = match self.measures.get(f) {
            Some(Ok(m)) => m,
            Some(Err(err)) => return Err(unsolvable(e, format!("measure `{f}` does not parse: {err}"))),
            None => return Err(unsolvable(e, format!("`{f}` is not a measure (mark it `#[measure]`) nor a built-in"))),
        };
        if m.params.len() != args.len() {
            return Err(unsolvable(e, format!("measure `{f}` takes {} arguments", m.params.len())));
        }
        let vals = args.iter().map(|a| self.term(a, s)).collect::<Result<Vec<_>, _>>()?;
        let params: Scope = m.params.iter().cloned().zip(vals.iter().cloned()).collect();
        // A measure defined by one expression is a macro over its arguments,
        // whatever their types (`weights_ok(size(l), size(r))`).
        if let Body::Expr(body) = &m.body {
            let key = Call { measure: f.to_string(), node: u32::MAX, rest: Vec::new() };
            if self.unfolding.contains(&key) {
                return Err(unsolvable(e, format!("measure `{f}` calls itself without matching on data")));
            }
            self.unfolding.push(key);
            let mut scope = params;
            let result = self.term(body, &mut scope);
            self.unfolding.pop();
            return result;
        }
        let node = match &vals[0] {
            T::Data(node) => node,
            T::Undef => return Ok(T::Undef),
            _ => return Err(unsolvable(e, format!("measure `{f}` matches on something that is not data"))),
        };
        // Memoized on every argument: a call repeated with the same ones
        // (a measure a refinement and a spec both call) unfolds once.
        let rest: Option<Vec<Arg>> = vals[1..].iter().map(Arg::of).collect();
        let memoizable = rest.is_some();
        let key = Call { measure: f.to_string(), node: node.id, rest: rest.unwrap_or_default() };
        if memoizable && let Some((t, u)) = self.memo.get(&key) {
            self.undef.push(u.clone());
            return Ok(t.clone());
        }
        if self.unfolding.contains(&key) && memoizable {
            return Err(unsolvable(e, format!("measure `{f}` does not terminate (it calls itself on the same value)")));
        }
        if self.unfolding.len() > 10_000 {
            return Err(unsolvable(e, format!("measure `{f}` unfolds more than 10000 calls deep")));
        }
        self.unfolding.push(key.clone());
        let mut undefined = Vec::new();
        let result = match &m.body {
            Body::Expr(_) => unreachable!("expanded above"),
            Body::Match(_) => {
                let mut cases = Vec::new();
                let mut failed = None;
                for alt in &node.alts {
                    let Some((body, binds)) = m.arm(node.def, alt.ctor) else {
                        failed = Some(unsolvable(
                            e,
                            format!("measure `{f}` has no arm for `{}`", node.def.ctors[alt.ctor].name),
                        ));
                        break;
                    };
                    let mut scope = params.clone();
                    for (var, i) in binds {
                        scope.push((var, T::of(&alt.fields[i])));
                    }
                    match self.scoped(|t| t.term(body, &mut scope)) {
                        Ok((t, u)) => {
                            undefined.push(Bool::and(&[alt.chosen(), u]));
                            cases.push((alt.chosen(), t));
                        }
                        Err(err) => {
                            failed = Some(err);
                            break;
                        }
                    }
                }
                match failed {
                    Some(err) => Err(err),
                    None => ite_all(e, cases),
                }
            }
        };
        self.unfolding.pop();
        let result = result?;
        let undefined = any(&undefined);
        self.undef.push(undefined.clone());
        if memoizable {
            self.memo.insert(key, (result.clone(), undefined));
        }
        Ok(result)
    }
}

/// Structural equality of two symbolic data values: the same constructor
/// chosen on both, with equal fields (`None` for values of unlike types).
fn data_eq(a: &DataSym, b: &DataSym) -> Option<Bool> {
    if a.def.name != b.def.name {
        return None;
    }
    let mut cases = Vec::new();
    for x in &a.alts {
        for y in b.alts.iter().filter(|y| y.ctor == x.ctor) {
            let mut all = vec![x.chosen(), y.chosen()];
            for (f, g) in x.fields.iter().zip(&y.fields) {
                all.push(sym_eq(f, g)?);
            }
            cases.push(Bool::and(&all));
        }
    }
    Some(any(&cases))
}

/// Structural equality of two symbolic sequences: equal lengths and equal
/// elements below the length.
fn seq_eq(a: &SeqSym, b: &SeqSym) -> Option<Bool> {
    let mut all = vec![a.len.eq(&b.len)];
    for (k, (x, y)) in a.elems.iter().zip(&b.elems).enumerate() {
        all.push(a.len.gt(Int::from_i64(k as i64)).implies(&sym_eq(x, y)?));
    }
    Some(Bool::and(&all))
}

fn sym_eq(a: &Sym, b: &Sym) -> Option<Bool> {
    elem_eq(&T::of(a), &T::of(b))
}

/// The constant value of an integer term, if it is one.
fn constant(x: &Int) -> Option<i128> {
    x.simplify().as_i128()
}

/// The set of a sequence's elements.
fn elements(seq: &SeqSym) -> SetT {
    let members = seq
        .elems
        .iter()
        .enumerate()
        .map(|(k, el)| Member { when: seq.len.gt(Int::from_i64(k as i64)), x: T::of(el) })
        .collect();
    SetT { members: Rc::new(members) }
}

/// The disjunction of `conditions` (false when there is none).
fn any(conditions: &[Bool]) -> Bool {
    match conditions {
        [] => Bool::from_bool(false),
        [one] => one.clone(),
        many => Bool::or(many),
    }
}

fn ite(e: &Expr, c: &Bool, a: T, b: T) -> Result<T, Unsolvable> {
    Ok(match (a, b) {
        // Where the undefined side is taken, the spec is false anyway.
        (T::Undef, t) | (t, T::Undef) => t,
        (T::Int(x, xb), T::Int(y, yb)) => {
            let bounds = match (xb, yb) {
                (Some(p), Some(q)) => Some((p.0.min(q.0), p.1.max(q.1))),
                _ => None,
            };
            T::Int(c.ite(&x, &y), bounds)
        }
        (T::Bool(x), T::Bool(y)) => T::Bool(c.ite(&x, &y)),
        (T::Set(x), T::Set(y)) => T::Set(SetT::ite(c, x, y)),
        _ => return Err(unsolvable(e, "a choice between data values")),
    })
}

/// `ite(c1, t1, ite(c2, t2, … tn))`: the last case is the default.
fn ite_all(e: &Expr, mut cases: Vec<(Bool, T)>) -> Result<T, Unsolvable> {
    let (_, mut acc) = cases.pop().ok_or_else(|| unsolvable(e, "no case"))?;
    while let Some((c, t)) = cases.pop() {
        acc = ite(e, &c, t, acc)?;
    }
    Ok(acc)
}
