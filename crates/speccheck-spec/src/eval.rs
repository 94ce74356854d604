//! The concrete meaning of a spec: evaluation over [`Value`]s. This is the
//! check of Target's query–decode–check loop, the run-time check of a
//! contract, and the oracle the solver's encoding is tested against.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::Arc;

use crate::ast::{BinOp, Callee, Domain, Expr, UnOp};
use crate::measure::{Body, Measures};
use crate::parse::ParseError;
use crate::value::Value;

/// Measure calls nested deeper than this are refused (the evaluator
/// recurses on the native stack).
pub(crate) const MAX_MEASURE_DEPTH: u32 = 1_000;
/// The nesting of measure calls from which a call repeating one under way
/// is looked for (a measure that does not terminate repeats itself at
/// every depth; the shallow calls are not copied).
pub(crate) const LOOP_CHECK_FROM: usize = 64;

/// When less native stack than this is left, a measure call moves to a new
/// segment of [`STACK_SEGMENT`] bytes (a debug build's test thread has
/// 2 MB, which a list of a few hundred elements used to overflow: an
/// abort of the whole test process).
pub(crate) const STACK_RED_ZONE: usize = 128 * 1024;
/// See [`STACK_RED_ZONE`].
pub(crate) const STACK_SEGMENT: usize = 4 * 1024 * 1024;

/// Why a spec could not be evaluated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    /// A name that is neither an argument, `result`, a field nor bound.
    #[error("`{0}` is not in scope in this spec")]
    Unbound(String),
    /// An operation applied to the wrong kind of value.
    #[error("in `{expr}`: expected {expected}, found `{found}`")]
    Type {
        /// The subexpression.
        expr: String,
        /// What was expected.
        expected: &'static str,
        /// What was there.
        found: String,
    },
    /// A call to something that is neither a built-in, a measure nor a
    /// predicate.
    #[error(
        "`{0}` is not a built-in of the spec language, a measure (`#[measure]`) or a Rust predicate (`#[predicate]`)"
    )]
    UnknownFunction(String),
    /// A measure whose source did not parse.
    #[error("measure `{0}`: {1}")]
    BadMeasure(String, ParseError),
    /// Division or remainder by zero.
    #[error("division by zero in `{0}`")]
    DivisionByZero(String),
    /// `xs[i]` out of range.
    #[error("index {index} out of range for a sequence of length {len} in `{expr}`")]
    Index {
        /// The subexpression.
        expr: String,
        /// The index.
        index: i128,
        /// The sequence's length.
        len: usize,
    },
    /// A field the value's constructor does not have, though another
    /// constructor of its type does (a partial operation: see
    /// [`EvalError::is_partial`]).
    #[error("`{value}` has no field `{field}` (another constructor of its type has it)")]
    NoField {
        /// The value.
        value: String,
        /// The field.
        field: String,
    },
    /// A field no constructor of the value's type has (or a field of
    /// something that is not data): a mistake in the spec.
    #[error("`{value}` has no field `{field}`: no constructor of its type has one")]
    UnknownField {
        /// The value.
        value: String,
        /// The field.
        field: String,
    },
    /// An error inside a refinement, with where the refinement is (the
    /// type and field, or the argument).
    #[error("the refinement `{spec}` of {at} cannot be evaluated: {error}")]
    In {
        /// The refinement as written.
        spec: String,
        /// Where it is: "field `f` of `T::C`", "argument `x`".
        at: String,
        /// What went wrong.
        error: Box<EvalError>,
    },
    /// A measure with no arm for a constructor.
    #[error("measure `{measure}` has no arm for constructor `{ctor}`")]
    NoArm {
        /// The measure.
        measure: String,
        /// The constructor.
        ctor: String,
    },
    /// A measure that called itself again with the same arguments.
    #[error("measure `{0}` does not terminate on this value (it calls itself with the same arguments)")]
    NotTerminating(String),
    /// Measure calls nested too deeply to evaluate.
    #[error("measure `{0}` nests more than {MAX_MEASURE_DEPTH} calls (a value this deep is beyond the evaluator)")]
    TooDeep(String),
    /// The spec needs a part of a partial value that is not chosen yet
    /// (see [`Value::Hole`]): its truth is not decided.
    #[error("the spec needs part `_{0}` of the input, which is not built yet")]
    Hole(u32),
    /// A measure called with the wrong number of arguments.
    #[error("measure `{0}` takes {1} arguments, given {2}")]
    Arity(String, usize, usize),
}

impl EvalError {
    /// True for a *partial operation* met on this value: a field of
    /// another constructor, an index out of range, a division by zero.
    /// A spec is false where it meets one (the candidate is not a valid
    /// input), and the evaluator, the lazy enumeration and the solver agree
    /// on that; every other error is a mistake in the spec itself.
    pub fn is_partial(&self) -> bool {
        matches!(self, EvalError::NoField { .. } | EvalError::Index { .. } | EvalError::DivisionByZero(_))
    }
}

/// A name in scope: a caller's (a contract's argument names are
/// `'static`), or a measure's parameter, pattern variable or quantified
/// variable, kept for the process's life (see [`crate::intern`]): binding
/// one copies a pointer.
#[derive(Clone, Debug)]
pub(crate) enum Name {
    /// A caller's.
    Given(Cow<'static, str>),
    /// A measure's, or a quantifier's.
    Kept(&'static str),
}

/// What a name in scope stands for: a value of its own, or a part of the
/// current measure call's arguments ([`Env::frame`]), read in place. A
/// measure binds its parameters and pattern variables at every call, and
/// a copy of data costs two atomic reference-count operations (one to
/// copy, one to drop).
#[derive(Clone, Debug)]
pub(crate) enum Bound {
    /// A value of its own.
    Value(Value),
    /// Argument `i` of the current call.
    Arg(usize),
    /// Field `i` of the current call's first argument (the data a `match`
    /// body matched on).
    Field(usize),
}

impl Name {
    fn as_str(&self) -> &str {
        match self {
            Name::Given(n) => n,
            Name::Kept(n) => n,
        }
    }

    /// Whether it is `name`: `==` on strings compares lengths first; the
    /// first letter then decides most names of equal length without a
    /// call to compare memory (a lookup passes every name bound after the
    /// one it finds).
    #[inline]
    fn is(&self, name: &str) -> bool {
        let n = self.as_str();
        n.as_bytes().first() == name.as_bytes().first() && n == name
    }
}

/// Names in scope and the measures callable.
#[derive(Clone, Debug)]
pub struct Env<'m> {
    /// Names are mostly the `'static` ones of a contract's arguments:
    /// binding them allocates nothing.
    pub(crate) vars: Vec<(Name, Bound)>,
    /// The arguments of the measure call under way (what [`Bound::Arg`]
    /// and [`Bound::Field`] read), moved in for the call and back out.
    pub(crate) frame: Vec<Value>,
    pub(crate) measures: &'m Measures,
    /// The measure calls under way (a repeat is a loop).
    pub(crate) active: Vec<(usize, Vec<Value>)>,
    /// A hole a parallel connective or quantifier left unread because the
    /// other side decided (see [`Env::skipped`]).
    pub(crate) skipped: Option<u32>,
    /// What comparisons said of holes (see [`Env::hints`]).
    pub(crate) hints: Vec<Hint>,
    /// Holes besides the one reported that kept a part of an undecided
    /// evaluation undecided (see [`Env::also_waits`]).
    pub(crate) also_waits: Vec<u32>,
    /// Set by the last comparison that met a hole: the index in `hints` of
    /// the hint it left when that hint is the whole comparison (the hole
    /// itself against an integer), `None` otherwise (see
    /// [`crate::Residual`]).
    pub(crate) exact_hint: Option<usize>,
    /// Measure results kept across evaluations (see [`Memo`]).
    pub(crate) memo: Option<&'m RefCell<Memo>>,
    /// What the holes filled since the values in scope were bound were
    /// filled with, by hole (see [`Env::with_fills`]).
    pub(crate) fills: Option<&'m [Option<Value>]>,
    /// How many filled holes this evaluation read through `fills` (a
    /// measure result that read one is not remembered: see [`Memo`]).
    pub(crate) resolved: u32,
    /// Scopes of finished measure calls, emptied, for the next calls.
    pub(crate) spare_scopes: Vec<Vec<(Name, Bound)>>,
    /// Argument lists of finished calls, emptied, for the next calls (a
    /// measure walking a structure makes a call per node).
    pub(crate) spare_args: Vec<Vec<Value>>,
}

/// Measure results remembered across evaluations, keyed by the identity of
/// the data measured: a builder of partial inputs (the lazy strategy, the
/// sampler) copies only the path to the hole it fills, so every part off
/// that path is the same shared value as before, and a measure of it (a
/// subtree's black height, whether its keys are below a bound) is looked
/// up instead of walked again. Only data, integers and booleans make a
/// key; a call on anything else is evaluated every time. A key holds its
/// data alive, so an address is never reused while it is remembered.
#[derive(Default)]
pub struct Memo {
    table: HashMap<MemoKey, Remembered, BuildHasherDefault<IdHasher>>,
    /// Data known to hold no hole (by address, held alive): a walk for
    /// filled holes skips it.
    complete: HashMap<usize, Arc<[Value]>, BuildHasherDefault<IdHasher>>,
    /// Data with holes as the current fills make it (by address, held
    /// alive; `None` when no hole in it is filled), and whether that holds
    /// no hole: the values residuals hold share their parts, so each part
    /// is copied once per fill and the copies are shared too (a measure
    /// result on one is then a result on all). Valid for one set of fills
    /// (see [`Memo::new_fills`]).
    refilled: HashMap<usize, Refilled, BuildHasherDefault<IdHasher>>,
    /// Data whose field refinements (its own and its parts') were checked
    /// and held (by address, held alive): a re-check of an input sharing
    /// it skips it (see [`crate::refined::admits_remembering`]), and so
    /// does a builder judging a partial input that took it whole (the
    /// sampler's splices of parts of inputs it checked).
    verified: HashMap<usize, Arc<[Value]>, BuildHasherDefault<IdHasher>>,
    limit: Limit,
}

/// How many results a memo keeps before it starts again.
#[derive(Clone, Copy)]
struct Limit(usize);

impl Default for Limit {
    fn default() -> Self {
        Limit(MEMO_LIMIT)
    }
}

/// A part as the current fills make it: the part (held alive), its copy
/// when a hole in it is filled, and whether that holds no hole.
type Refilled = (Arc<[Value]>, Option<Value>, bool);

/// A hasher for keys made of addresses and small integers (the standard
/// one is built to resist chosen keys, which these are not): FxHash's
/// multiply and rotate.
#[derive(Default)]
pub(crate) struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Memo({} results)", self.table.len())
    }
}

/// More results than this and the memo starts again (a long enumeration
/// would otherwise keep every value it built).
const MEMO_LIMIT: usize = 1 << 18;

impl Memo {
    /// An empty memo.
    pub fn new() -> Self {
        Memo::default()
    }

    /// An empty memo that starts again past `limit` results. A large table
    /// costs each lookup more (it leaves the processor's caches) and holds
    /// every value it keys alive: a builder whose inputs share parts with
    /// the last few hundred ones only (the sampler's splices, a re-check of
    /// them) is faster with a small one, measured (4,096 against the
    /// default 262,144: sampled red-black trees 10-14% more a second).
    pub fn with_limit(limit: usize) -> Self {
        Memo { limit: Limit(limit.max(1)), ..Memo::default() }
    }

    /// Forgets every result (and the values they held alive).
    pub fn clear(&mut self) {
        self.table.clear();
        self.complete.clear();
        self.refilled.clear();
        self.verified.clear();
    }

    /// Whether the data with these fields was checked and held: every
    /// field refinement inside it holds.
    pub fn verified(&self, fields: &Arc<[Value]>) -> bool {
        self.verified.contains_key(&(Arc::as_ptr(fields) as *const () as usize))
    }

    /// Notes that the data with these fields was checked and held: every
    /// field refinement inside it holds (a part of a checked input is).
    pub fn set_verified(&mut self, fields: &Arc<[Value]>) {
        if self.table.len() + self.verified.len() >= self.limit.0 {
            self.clear();
        }
        self.verified.insert(Arc::as_ptr(fields) as *const () as usize, fields.clone());
    }

    /// Forgets every measure result, keeping which data was verified.
    pub fn clear_results(&mut self) {
        self.table.clear();
        self.complete.clear();
        self.refilled.clear();
    }

    /// The fills changed: forgets what they made of values.
    pub fn new_fills(&mut self) {
        self.refilled.clear();
    }

    /// How many results are remembered.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether nothing is remembered.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }
}

/// A measure and its arguments, data compared by identity.
struct MemoKey {
    measure: usize,
    args: Vec<Value>,
}

/// Whether every argument can be part of a [`MemoKey`].
fn keyable(args: &[Value]) -> bool {
    args.iter().all(|a| matches!(a, Value::Int(_) | Value::Bool(_) | Value::Data { .. }))
}

/// A [`MemoKey`] as the table compares it, so that a lookup borrows the
/// arguments instead of moving them into a key (a lookup per measure
/// call, most of them misses whose arguments the call then takes).
trait KeyView {
    fn measure(&self) -> usize;
    fn args(&self) -> &[Value];
}

impl KeyView for MemoKey {
    fn measure(&self) -> usize {
        self.measure
    }
    fn args(&self) -> &[Value] {
        &self.args
    }
}

impl KeyView for (usize, &[Value]) {
    fn measure(&self) -> usize {
        self.0
    }
    fn args(&self) -> &[Value] {
        self.1
    }
}

impl<'a> std::borrow::Borrow<dyn KeyView + 'a> for MemoKey {
    fn borrow(&self) -> &(dyn KeyView + 'a) {
        self
    }
}

impl Hash for dyn KeyView + '_ {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.measure().hash(state);
        for a in self.args() {
            match a {
                Value::Int(i) => i.hash(state),
                Value::Bool(b) => b.hash(state),
                Value::Data { fields, ctor, .. } => {
                    (Arc::as_ptr(fields) as *const () as usize).hash(state);
                    ctor.hash(state);
                }
                _ => {}
            }
        }
    }
}

impl PartialEq for dyn KeyView + '_ {
    fn eq(&self, other: &Self) -> bool {
        self.measure() == other.measure()
            && self.args().len() == other.args().len()
            && self.args().iter().zip(other.args()).all(|(a, b)| match (a, b) {
                (Value::Int(x), Value::Int(y)) => x == y,
                (Value::Bool(x), Value::Bool(y)) => x == y,
                (Value::Data { def: d, ctor: c, fields: f }, Value::Data { def: e, ctor: k, fields: g }) => {
                    c == k && Arc::ptr_eq(f, g) && std::ptr::eq(*d, *e)
                }
                _ => false,
            })
    }
}

impl Eq for dyn KeyView + '_ {}

// The table's key hashes and compares as its view does (`Borrow`'s rule).
impl Hash for MemoKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (self as &dyn KeyView).hash(state);
    }
}

impl PartialEq for MemoKey {
    fn eq(&self, other: &Self) -> bool {
        (self as &dyn KeyView) == (other as &dyn KeyView)
    }
}

impl Eq for MemoKey {}

/// A measure call's outcome with what it told its caller on the way.
#[derive(Clone)]
struct Remembered {
    result: Result<Value, EvalError>,
    skipped: Option<u32>,
    // Boxed slices, not `Arc`s: most are empty, and an empty box allocates
    // nothing.
    hints: Box<[Hint]>,
    also_waits: Box<[u32]>,
}

/// A comparison met on a partial value between a hole and another side,
/// `hole op other`: with the other side known, what that part must be for
/// the comparison to hold (the sampler draws there first); with it unknown,
/// the hole it needs (the sampler builds that first, so that the next
/// comparison has a bound). Not a constraint of the spec: the comparison
/// may sit under a disjunction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The hole compared.
    pub hole: u32,
    /// `<`, `<=`, `>`, `>=` or `==`, with the hole on the left.
    pub op: BinOp,
    /// The other side.
    pub other: Side,
}

/// The other side of a [`Hint`]'s comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// An integer.
    Known(i128),
    /// Not known until this hole is built.
    Needs(u32),
}

impl<'m> Env<'m> {
    /// An empty scope calling `measures`.
    pub fn new(measures: &'m Measures) -> Self {
        // A contract's arguments, result and steps: one allocation.
        Env {
            vars: Vec::with_capacity(8),
            frame: Vec::new(),
            measures,
            active: Vec::new(),
            skipped: None,
            hints: Vec::new(),
            also_waits: Vec::new(),
            exact_hint: None,
            memo: None,
            fills: None,
            resolved: 0,
            spare_scopes: Vec::new(),
            spare_args: Vec::new(),
        }
    }

    /// Keeps an argument list's storage for a later call.
    fn recycle(&mut self, mut args: Vec<Value>) {
        args.clear();
        if self.spare_args.len() < 64 {
            self.spare_args.push(args);
        }
    }

    /// Unbinds every name and forgets what the last evaluation said of
    /// holes, keeping the storage (one scope for many evaluations).
    pub fn empty_scope(&mut self) {
        self.vars.clear();
        self.hints.clear();
        self.also_waits.clear();
        self.skipped = None;
        self.resolved = 0;
    }

    /// An empty scope calling `measures`, whose results on data are looked
    /// up in and added to `memo`.
    pub fn memoized(measures: &'m Measures, memo: &'m RefCell<Memo>) -> Self {
        Env { memo: Some(memo), ..Env::new(measures) }
    }

    /// With `fills`: a hole `h` met in a value in scope whose `fills[h]` is
    /// known reads as that value (a spec left waiting on a partial input
    /// is taken up again after more of its holes were filled, without
    /// copying the values it holds: see [`crate::Residual`]).
    pub fn with_fills(mut self, fills: &'m [Option<Value>]) -> Self {
        self.fills = Some(fills);
        self
    }

    /// `v`, or what it was filled with when it is a filled hole.
    pub(crate) fn resolve(&mut self, v: Value) -> Value {
        match (&v, self.fills) {
            (Value::Hole(h), Some(fills)) => match fills.get(*h as usize) {
                Some(Some(by)) => {
                    self.resolved += 1;
                    let by = by.clone();
                    self.resolve(by)
                }
                _ => v,
            },
            _ => v,
        }
    }

    /// `v` with every filled hole inside it replaced (for the operations
    /// that look at a whole value: equality, built-ins, predicates).
    pub(crate) fn resolve_deep(&mut self, v: Value) -> Value {
        if self.fills.is_none() {
            return v;
        }
        self.replaced(&v).0.unwrap_or(v)
    }

    /// `v` with its filled holes replaced (`None` when it has none), and
    /// whether the result holds no hole.
    fn replaced(&mut self, v: &Value) -> (Option<Value>, bool) {
        match v {
            Value::Int(_) | Value::Bool(_) => (None, true),
            Value::Hole(h) => {
                let r = self.resolve(v.clone());
                if let Value::Hole(g) = r {
                    // Open, or filled with another hole (which is then the
                    // one to wait on).
                    return ((g != *h).then_some(r), false);
                }
                let (inner, complete) = self.replaced(&r);
                (Some(inner.unwrap_or(r)), complete)
            }
            Value::Data { def, ctor, fields } => {
                let id = Arc::as_ptr(fields) as *const () as usize;
                if let Some(memo) = self.memo {
                    let memo = memo.borrow();
                    if memo.complete.contains_key(&id) {
                        return (None, true);
                    }
                    if let Some((_, new, complete)) = memo.refilled.get(&id) {
                        return (new.clone(), *complete);
                    }
                }
                let (new, complete) = self.replaced_all(fields);
                let out = new.map(|fields| Value::Data { def, ctor: *ctor, fields: fields.into() });
                if let Some(memo) = self.memo {
                    let mut memo = memo.borrow_mut();
                    if memo.complete.len() + memo.refilled.len() >= memo.limit.0 {
                        memo.clear();
                    }
                    if complete {
                        let held = match &out {
                            Some(Value::Data { fields, .. }) => fields.clone(),
                            _ => fields.clone(),
                        };
                        memo.complete.insert(Arc::as_ptr(&held) as *const () as usize, held);
                    }
                    memo.refilled.insert(id, (fields.clone(), out.clone(), complete));
                }
                (out, complete)
            }
            Value::Seq(xs) => {
                let (new, complete) = self.replaced_all(xs);
                (new.map(Value::Seq), complete)
            }
            Value::Set(_) => (None, v.first_hole().is_none()),
        }
    }

    /// `xs` with their filled holes replaced (`None` when none has one; a
    /// copy only then), and whether none holds a hole.
    fn replaced_all(&mut self, xs: &[Value]) -> (Option<Vec<Value>>, bool) {
        let mut complete = true;
        let mut out: Option<Vec<Value>> = None;
        for (i, x) in xs.iter().enumerate() {
            let (new, c) = self.replaced(x);
            complete &= c;
            match (new, &mut out) {
                (Some(n), None) => {
                    let mut copy = xs[..i].to_vec();
                    copy.push(n);
                    out = Some(copy);
                }
                (Some(n), Some(copy)) => copy.push(n),
                (None, Some(copy)) => copy.push(x.clone()),
                (None, None) => {}
            }
        }
        (out, complete)
    }

    /// Binds `name` (shadowing earlier bindings).
    pub fn bind(&mut self, name: impl Into<Cow<'static, str>>, v: Value) -> &mut Self {
        self.vars.push((Name::Given(name.into()), Bound::Value(v)));
        self
    }

    /// With `name` bound.
    pub fn with(mut self, name: impl Into<Cow<'static, str>>, v: Value) -> Self {
        self.bind(name, v);
        self
    }

    /// On a partial value, a hole whose part an evaluation decided without
    /// (`h && false`): the result holds for every completion on which
    /// evaluating that part does not fail. A spec found *true* this way is
    /// not yet true of every completion (a partial operation there makes
    /// it false), so the lazy strategy fills that hole before it accepts.
    pub fn skipped(&self) -> Option<u32> {
        self.skipped
    }

    /// Holes that kept parts of the evaluations so far undecided besides
    /// the one an undecided result names: `a || b` with both sides
    /// undecided waits on `a`'s hole and on `b`'s, since filling either
    /// may decide it.
    pub fn also_waits(&self) -> &[u32] {
        &self.also_waits
    }

    /// The comparisons between a hole and a known integer the evaluations
    /// so far met ([`Hint`]).
    pub fn hints(&self) -> &[Hint] {
        &self.hints
    }

    /// `a op b` on integers; a hole met on one side, the other side known,
    /// leaves a [`Hint`].
    fn compared(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Result<bool, EvalError> {
        let x = match self.int(a) {
            Ok(x) => x,
            Err(EvalError::Hole(h)) => {
                let mut exact = None;
                if let Some(off) = self.hole_plus(a, h) {
                    let other = match self.int(b) {
                        Ok(y) => {
                            if off == 0 {
                                exact = Some(self.hints.len());
                            }
                            Some(Side::Known(y.saturating_sub(off)))
                        }
                        Err(EvalError::Hole(g)) if g != h => Some(Side::Needs(g)),
                        Err(_) => None,
                    };
                    if let Some(other) = other {
                        self.hints.push(Hint { hole: h, op, other });
                    }
                }
                // Set last, after the other side's own comparisons.
                self.exact_hint = exact;
                return Err(EvalError::Hole(h));
            }
            Err(e) => return Err(e),
        };
        match self.int(b) {
            Ok(y) => Ok(compare(op, x, y)),
            Err(EvalError::Hole(h)) => {
                let mut exact = None;
                if let Some(off) = self.hole_plus(b, h) {
                    if off == 0 {
                        exact = Some(self.hints.len());
                    }
                    self.hints.push(Hint { hole: h, op: flipped(op), other: Side::Known(x.saturating_sub(off)) });
                }
                self.exact_hint = exact;
                Err(EvalError::Hole(h))
            }
            Err(e) => Err(e),
        }
    }

    /// `Some(c)` when `e` is the hole `h` plus a known integer `c` (`h`,
    /// `h + 1`, `h - n`, `2 + h`): a comparison of it bounds the hole.
    fn hole_plus(&mut self, e: &Expr, h: u32) -> Option<i128> {
        match e {
            Expr::Var(_) | Expr::Field(..) => self.is_hole(e, h).then_some(0),
            Expr::Binary(BinOp::Add, x, c) => match (self.hole_plus(x, h), self.int(c)) {
                (Some(off), Ok(k)) => off.checked_add(k),
                _ => match (self.int(x), self.hole_plus(c, h)) {
                    (Ok(k), Some(off)) => off.checked_add(k),
                    _ => None,
                },
            },
            Expr::Binary(BinOp::Sub, x, c) => match (self.hole_plus(x, h), self.int(c)) {
                (Some(off), Ok(k)) => off.checked_sub(k),
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether a remembered result still holds: one that stopped at a hole
    /// (or skipped one) since filled does not.
    fn still_holds(&self, m: &Remembered) -> bool {
        let filled = |h: u32| self.fills.is_some_and(|f| matches!(f.get(h as usize), Some(Some(_))));
        !matches!(m.result, Err(EvalError::Hole(h)) if filled(h))
            && !m.skipped.is_some_and(filled)
            && !m.also_waits.iter().any(|h| filled(*h))
    }

    /// Whether `e` is the hole `h` itself (not a computation that needs it).
    fn is_hole(&mut self, e: &Expr, h: u32) -> bool {
        matches!(e, Expr::Var(_) | Expr::Field(..)) && matches!(self.eval(e), Ok(Value::Hole(g)) if g == h)
    }

    /// The value of `name` with the holes filled since it was bound put in
    /// (only the way to each is copied, and the binding keeps the result):
    /// a measure result is then one of this value, remembered, and the
    /// next evaluation looks up every part this fill did not change.
    fn fresh(&mut self, name: &str) -> Result<Value, EvalError> {
        let i = self.vars.iter().rposition(|(n, _)| n.is(name)).ok_or_else(|| EvalError::Unbound(name.into()))?;
        // A call's arguments were evaluated with these fills, so they and
        // their fields have every filled hole put in already.
        if let Bound::Arg(_) | Bound::Field(_) = self.vars[i].1 {
            return Ok(self.read(&self.vars[i].1).clone());
        }
        let v = self.read(&self.vars[i].1).clone();
        let v = self.resolve_deep(v);
        self.vars[i].1 = Bound::Value(v.clone());
        Ok(v)
    }

    fn lookup(&self, name: &str) -> Option<&Value> {
        self.vars.iter().rev().find(|(n, _)| n.is(name)).map(|(_, b)| self.read(b))
    }

    /// The value `b` stands for.
    pub(crate) fn read<'a>(&'a self, b: &'a Bound) -> &'a Value {
        match b {
            Bound::Value(v) => v,
            Bound::Arg(i) => &self.frame[*i],
            Bound::Field(i) => match &self.frame[0] {
                Value::Data { fields, .. } => &fields[*i],
                _ => unreachable!("a field is bound only when the call matched on data"),
            },
        }
    }

    /// Evaluates `e`.
    pub fn eval(&mut self, e: &Expr) -> Result<Value, EvalError> {
        let ty = |expected: &'static str, v: &Value, at: &Expr| EvalError::Type {
            expr: at.to_string(),
            expected,
            found: v.to_string(),
        };
        Ok(match e {
            Expr::Int(i) => Value::Int(*i),
            Expr::Bool(b) => Value::Bool(*b),
            Expr::Var(v) => {
                if self.fills.is_some() {
                    return self.fresh(v);
                }
                self.lookup(v).cloned().ok_or_else(|| EvalError::Unbound(v.clone()))?
            }
            Expr::Field(base, field) => {
                let v = self.eval(base)?;
                let f = field_of(&v, field)?;
                self.resolve(f)
            }
            Expr::Index(seq, i) => {
                let s = known(self.eval(seq)?)?;
                let i = self.int(i)?;
                let Value::Seq(xs) = &s else { return Err(ty("a sequence", &s, seq)) };
                let x = usize::try_from(i).ok().and_then(|k| xs.get(k)).cloned().ok_or(EvalError::Index {
                    expr: e.to_string(),
                    index: i,
                    len: xs.len(),
                })?;
                self.resolve(x)
            }
            Expr::Unary(UnOp::Not, x) => Value::Bool(!self.bool(x)?),
            Expr::Unary(UnOp::Neg, x) => Value::Int(-self.int(x)?),
            Expr::Binary(op, a, b) => self.binary(*op, a, b, e)?,
            Expr::If(c, a, b) => {
                if self.bool(c)? {
                    self.eval(a)?
                } else {
                    self.eval(b)?
                }
            }
            Expr::Call(f, args) if f.is_builtin() && Expr::ctor_test(f, args).is_some() => {
                // Only the constructor is read: the fields may be holes.
                let (ctor, x) = Expr::ctor_test(f, args).expect("checked by the guard");
                match known(self.eval(x)?)? {
                    Value::Data { def, ctor: c, .. } => Value::Bool(def.ctors[c].name == ctor),
                    other => return Err(ty("a data value", &other, x)),
                }
            }
            Expr::Call(f, args) => {
                let mut vals = self.spare_args.pop().unwrap_or_default();
                for a in args {
                    let v = self.eval(a)?;
                    vals.push(v);
                }
                self.call(*f, vals, e)?
            }
            Expr::Quant { forall, var, domain, body } => {
                let items: Vec<Value> = match domain {
                    Domain::Range(lo, hi) => (self.int(lo)?..self.int(hi)?).map(Value::Int).collect(),
                    Domain::RangeInclusive(lo, hi) => (self.int(lo)?..=self.int(hi)?).map(Value::Int).collect(),
                    Domain::Elements(s) => match known(self.eval(s)?)? {
                        Value::Seq(xs) => xs,
                        Value::Set(xs) => xs.into_iter().collect(),
                        other => return Err(ty("a set or a sequence", &other, s)),
                    },
                };
                // Like the connectives: an undecided item does not hide a
                // deciding one after it.
                let mut undecided = None;
                let also_mark = self.also_waits.len();
                let var = Name::Kept(crate::intern::intern(var));
                for item in items {
                    self.vars.push((var.clone(), Bound::Value(item)));
                    let b = self.bool(body);
                    self.vars.pop();
                    match b {
                        Ok(b) if b != *forall => {
                            if let Some(h) = undecided {
                                self.skipped.get_or_insert(h);
                            }
                            self.also_waits.truncate(also_mark);
                            return Ok(Value::Bool(!*forall));
                        }
                        Ok(_) => {}
                        Err(EvalError::Hole(h)) => match undecided {
                            None => undecided = Some(h),
                            Some(u) if u != h => self.also_waits.push(h),
                            Some(_) => {}
                        },
                        // An undecided item before it may decide first,
                        // on some completions: undecided, as a connective.
                        Err(_) if undecided.is_some() => break,
                        Err(e) => return Err(e),
                    }
                }
                match undecided {
                    Some(h) => return Err(EvalError::Hole(h)),
                    None => {
                        self.also_waits.truncate(also_mark);
                        Value::Bool(*forall)
                    }
                }
            }
        })
    }

    /// Evaluates a boolean spec.
    pub fn bool(&mut self, e: &Expr) -> Result<bool, EvalError> {
        // Scalar connectives and comparisons without building values (a
        // checked call evaluates its parts on every call).
        match e {
            Expr::Bool(b) => return Ok(*b),
            Expr::Var(v) => {
                if let Some(Value::Bool(b)) = self.lookup(v) {
                    return Ok(*b);
                }
            }
            Expr::Unary(UnOp::Not, x) => return Ok(!self.bool(x)?),
            Expr::Binary(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b) => {
                return self.compared(*op, a, b);
            }
            Expr::Binary(BinOp::And, a, b) => return self.connective_bool(a, b, false, false),
            Expr::Binary(BinOp::Or, a, b) => return self.connective_bool(a, b, true, false),
            Expr::Binary(BinOp::Implies, a, b) => return self.connective_bool(a, b, true, true),
            _ => {}
        }
        let v = known(self.eval(e)?)?;
        v.as_bool().ok_or_else(|| EvalError::Type { expr: e.to_string(), expected: "a boolean", found: v.to_string() })
    }

    /// Evaluates an integer spec.
    pub fn int(&mut self, e: &Expr) -> Result<i128, EvalError> {
        match e {
            Expr::Int(i) => return Ok(*i),
            Expr::Var(v) => {
                if let Some(Value::Int(i)) = self.lookup(v) {
                    return Ok(*i);
                }
            }
            Expr::Unary(UnOp::Neg, x) => return Ok(-self.int(x)?),
            Expr::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem), a, b) => {
                let (x, y) = (self.int(a)?, self.int(b)?);
                return arithmetic(*op, x, y, e);
            }
            _ => {}
        }
        let v = known(self.eval(e)?)?;
        v.as_int().ok_or_else(|| EvalError::Type { expr: e.to_string(), expected: "an integer", found: v.to_string() })
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, whole: &Expr) -> Result<Value, EvalError> {
        // The connectives short-circuit, as Rust's do (a guard protects
        // what it guards: `i < len(xs) && xs[i] > 0`).
        // On a partial value whose left side is undecided, the right side
        // may still decide (Lazy SmallCheck's parallel conjunction).
        match op {
            BinOp::And => return self.connective(a, b, false, false),
            BinOp::Or => return self.connective(a, b, true, false),
            BinOp::Implies => return self.connective(a, b, true, true),
            BinOp::Eq | BinOp::Ne => {
                let (x, y) = (self.eval(a)?, self.eval(b)?);
                let (x, y) = (self.resolve_deep(x), self.resolve_deep(y));
                if let Some(h) = x.first_hole().or(y.first_hole()) {
                    if let (BinOp::Eq, Value::Hole(g), Value::Int(v)) | (BinOp::Eq, Value::Int(v), Value::Hole(g)) =
                        (op, &x, &y)
                    {
                        self.hints.push(Hint { hole: *g, op, other: Side::Known(*v) });
                    }
                    return Err(EvalError::Hole(h));
                }
                return Ok(Value::Bool((x == y) == (op == BinOp::Eq)));
            }
            _ => {}
        }
        if matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge) {
            return self.compared(op, a, b).map(Value::Bool);
        }
        let (x, y) = (self.int(a)?, self.int(b)?);
        Ok(Value::Int(arithmetic(op, x, y, whole)?))
    }

    /// `a && b` (`decides` false), `a || b` (`decides` true), `!a || b`
    /// (`negate_left`): short-circuit on a decided left side; on an
    /// undecided one, a deciding right side still decides.
    fn connective(&mut self, a: &Expr, b: &Expr, decides: bool, negate_left: bool) -> Result<Value, EvalError> {
        self.connective_bool(a, b, decides, negate_left).map(Value::Bool)
    }

    fn connective_bool(&mut self, a: &Expr, b: &Expr, decides: bool, negate_left: bool) -> Result<bool, EvalError> {
        let also_mark = self.also_waits.len();
        let r = self.connective_undecided(a, b, decides, negate_left);
        // Decided: what kept a part of it undecided no longer matters.
        if r.is_ok() {
            self.also_waits.truncate(also_mark);
        }
        r
    }

    fn connective_undecided(
        &mut self,
        a: &Expr,
        b: &Expr,
        decides: bool,
        negate_left: bool,
    ) -> Result<bool, EvalError> {
        match self.bool(a).map(|x| x != negate_left) {
            Ok(x) if x == decides => Ok(decides),
            Ok(_) => self.bool(b),
            Err(EvalError::Hole(h)) => match self.bool(b) {
                Ok(y) if y == decides => {
                    self.skipped.get_or_insert(h);
                    Ok(decides)
                }
                // Whatever else the right side does, the left is undecided;
                // a right side undecided too waits on its hole as well.
                Err(EvalError::Hole(g)) => {
                    if g != h {
                        self.also_waits.push(g);
                    }
                    Err(EvalError::Hole(h))
                }
                _ => Err(EvalError::Hole(h)),
            },
            Err(e) => Err(e),
        }
    }

    pub(crate) fn call(&mut self, f: Callee, args: Vec<Value>, at: &Expr) -> Result<Value, EvalError> {
        // A measure unfolds once per level of the data it measures: on a
        // fresh stack segment when this one runs low (see `STACK_RED_ZONE`).
        stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || self.call_here(f, args, at))
    }

    fn call_here(&mut self, f: Callee, args: Vec<Value>, at: &Expr) -> Result<Value, EvalError> {
        // The measure, looked up once (a built-in's name is not, unless its
        // arguments fit no built-in).
        let builtin_name = f.is_builtin();
        let measures = self.measures;
        let found = (!builtin_name).then(|| measures.find(f));
        // A built-in or a Rust predicate reads whole values.
        let args = if self.fills.is_some() && (builtin_name || matches!(found, Some(None))) {
            args.into_iter().map(|a| self.resolve_deep(a)).collect()
        } else {
            args
        };
        // (`builtin` answers `None` for any other name.)
        if builtin_name && let Some(v) = builtin(&f, &args, at)? {
            self.recycle(args);
            return Ok(v);
        }
        let measure = match found.unwrap_or_else(|| measures.find(f)) {
            Some(Ok(m)) => m,
            Some(Err(e)) => return Err(EvalError::BadMeasure(f.to_string(), e.clone())),
            None => return native(&f, &args, at),
        };
        if args.len() != measure.params.len() {
            return Err(EvalError::Arity(f.to_string(), measure.params.len(), args.len()));
        }
        // A measure is known by its address while the call lasts.
        let id = Arc::as_ptr(measure) as usize;
        // Looked up with the arguments borrowed; a key is made (and the
        // list kept in it) only for a result to remember.
        let keyed = self.memo.filter(|_| keyable(&args));
        if let Some(memo) = keyed {
            let memo = memo.borrow();
            if let Some(m) = memo.table.get(&(id, args.as_slice()) as &dyn KeyView).filter(|m| self.still_holds(m)) {
                self.hints.extend_from_slice(&m.hints);
                self.also_waits.extend_from_slice(&m.also_waits);
                if let Some(h) = m.skipped {
                    self.skipped.get_or_insert(h);
                }
                let result = m.result.clone();
                drop(memo);
                self.recycle(args);
                return result;
            }
        }
        self.check_recursion(&f, id, &args)?;
        // A measure sees only its parameters (and the fields it binds): the
        // caller's scope and what the call tells it are set aside (the
        // scope's storage is reused from call to call), and the arguments
        // are moved in for the call (names bound to them read them there).
        let spare = self.spare_scopes.pop().unwrap_or_default();
        let outer_vars = std::mem::replace(&mut self.vars, spare);
        let outer_hints = std::mem::take(&mut self.hints);
        let outer_also = std::mem::take(&mut self.also_waits);
        let outer_skipped = self.skipped.take();
        let outer_resolved = std::mem::replace(&mut self.resolved, 0);
        self.active.push((id, Self::loop_check_args(self.active.len(), &args)));
        let outer_frame = std::mem::replace(&mut self.frame, args);
        let r = self.apply(&f, measure, at);
        let args = std::mem::replace(&mut self.frame, outer_frame);
        self.active.pop();
        let mut scope = std::mem::replace(&mut self.vars, outer_vars);
        scope.clear();
        self.spare_scopes.push(scope);
        let mut inner_hints = std::mem::replace(&mut self.hints, outer_hints);
        let mut inner_also = std::mem::replace(&mut self.also_waits, outer_also);
        let inner_skipped = std::mem::replace(&mut self.skipped, outer_skipped);
        let inner_resolved = std::mem::replace(&mut self.resolved, outer_resolved);
        self.resolved += inner_resolved;
        // What a partial input's parts are is fixed, so is what a measure
        // says of them: a result and a hole it stopped at are both kept
        // (an error in the spec is not: it is reported where it is met).
        // A result that read a filled hole is one of this branch of the
        // search only: the same data with that hole filled otherwise is
        // another value.
        if let Some(memo) = keyed
            && matches!(r, Ok(_) | Err(EvalError::Hole(_)))
            && inner_resolved == 0
        {
            let mut memo = memo.borrow_mut();
            if memo.table.len() >= memo.limit.0 {
                memo.clear();
            }
            let m = Remembered {
                result: r.clone(),
                skipped: inner_skipped,
                hints: inner_hints.as_slice().into(),
                also_waits: inner_also.as_slice().into(),
            };
            memo.table.insert(MemoKey { measure: id, args }, m);
        } else {
            self.recycle(args);
        }
        self.hints.append(&mut inner_hints);
        self.also_waits.append(&mut inner_also);
        if let Some(h) = inner_skipped {
            self.skipped.get_or_insert(h);
        }
        r
    }

    /// Fails a call `id(args)` nested too deep, or repeating one under way
    /// (a measure that does not terminate).
    pub(crate) fn check_recursion(&self, f: &str, id: usize, args: &[Value]) -> Result<(), EvalError> {
        if self.active.len() >= MAX_MEASURE_DEPTH as usize {
            return Err(EvalError::TooDeep(f.to_string()));
        }
        if self.active.len() >= LOOP_CHECK_FROM && self.active.iter().any(|(n, a)| *n == id && a.as_slice() == args) {
            return Err(EvalError::NotTerminating(f.to_string()));
        }
        Ok(())
    }

    /// What the call stack keeps of a call's arguments at depth `depth`:
    /// nothing for the shallow calls every measure makes (a copy per call
    /// would cost more than the call), the arguments from
    /// [`LOOP_CHECK_FROM`] on (a loop repeats itself there too).
    pub(crate) fn loop_check_args(depth: usize, args: &[Value]) -> Vec<Value> {
        if depth + 1 >= LOOP_CHECK_FROM { args.to_vec() } else { Vec::new() }
    }

    /// Evaluates `measure`'s body on the arguments in [`Env::frame`].
    fn apply(&mut self, f: &str, measure: &crate::measure::Measure, at: &Expr) -> Result<Value, EvalError> {
        let arm = self.enter(f, measure, at)?;
        match (&measure.body, arm) {
            (Body::Match(arms), Some(k)) => self.eval(&arms[k].body),
            (Body::Expr(e), _) => self.eval(e),
            (Body::Match(_), None) => unreachable!("a match body takes an arm"),
        }
    }

    /// Binds a measure's parameters to the arguments in [`Env::frame`]
    /// and, for a `match` body, the variables of the arm taken (whose
    /// index is returned): only those the body reads, each to its place
    /// in the arguments.
    pub(crate) fn enter(
        &mut self,
        f: &str,
        measure: &crate::measure::Measure,
        at: &Expr,
    ) -> Result<Option<usize>, EvalError> {
        let names = measure.names();
        let Body::Match(_) = &measure.body else {
            self.bind_params(&names.params, &names.uses);
            return Ok(None);
        };
        let (def, ctor) = match &self.frame[0] {
            Value::Hole(h) => return Err(EvalError::Hole(*h)),
            Value::Data { def, ctor, .. } => (*def, *ctor),
            other => {
                return Err(EvalError::Type {
                    expr: at.to_string(),
                    expected: "a data value (a measure matches on it)",
                    found: other.to_string(),
                });
            }
        };
        let k = measure
            .arm_index(def, ctor)
            .ok_or_else(|| EvalError::NoArm { measure: f.to_string(), ctor: def.ctors[ctor].name.clone() })?;
        let arm = &names.arms[k];
        self.bind_params(&names.params, &arm.uses);
        for (i, var) in arm.positional.iter().enumerate() {
            if let Some(var) = var {
                self.vars.push((Name::Kept(var), Bound::Field(i)));
            }
        }
        if !arm.named.is_empty() {
            let at = arm.field_indices(def, ctor);
            for ((_, var), i) in arm.named.iter().zip(at.iter()) {
                if let Some(i) = i {
                    self.vars.push((Name::Kept(var), Bound::Field(*i)));
                }
            }
        }
        Ok(Some(k))
    }

    /// Binds the parameters a measure's body reads to the arguments.
    fn bind_params(&mut self, params: &[&'static str], uses: &[bool]) {
        for (i, (p, used)) in params.iter().zip(uses).enumerate() {
            if *used && i < self.frame.len() {
                self.vars.push((Name::Kept(p), Bound::Arg(i)));
            }
        }
    }

    /// What the memo says `measure(args)` is, when it says a boolean that
    /// holds on this branch and skipped no hole.
    pub(crate) fn remembered_bool(&self, measure: usize, args: &[Value]) -> Option<bool> {
        let memo = self.memo?;
        if !keyable(args) {
            return None;
        }
        let memo = memo.borrow();
        let m =
            memo.table.get(&(measure, args) as &dyn KeyView).filter(|m| self.still_holds(m) && m.skipped.is_none())?;
        match m.result {
            Ok(Value::Bool(b)) => Some(b),
            _ => None,
        }
    }
}

/// `op` with its sides swapped (`a < b` is `b > a`).
fn flipped(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        other => other,
    }
}

/// An integer comparison.
pub(crate) fn compare(op: BinOp, x: i128, y: i128) -> bool {
    match op {
        BinOp::Lt => x < y,
        BinOp::Le => x <= y,
        BinOp::Gt => x > y,
        BinOp::Ge => x >= y,
        _ => unreachable!("not a comparison: {op:?}"),
    }
}

/// Integer arithmetic: `*` saturates (a bound like `3 * len(xs)` stays
/// ordered), division by zero is an error of `whole`.
fn arithmetic(op: BinOp, x: i128, y: i128, whole: &Expr) -> Result<i128, EvalError> {
    let zero = || EvalError::DivisionByZero(whole.to_string());
    Ok(match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        BinOp::Mul => x.checked_mul(y).unwrap_or(if (x < 0) == (y < 0) { i128::MAX } else { i128::MIN }),
        BinOp::Div => x.checked_div(y).ok_or_else(zero)?,
        BinOp::Rem => x.checked_rem(y).ok_or_else(zero)?,
        _ => unreachable!("not arithmetic: {op:?}"),
    })
}

/// `v`, unless it is a hole (then the evaluation needs it built).
fn known(v: Value) -> Result<Value, EvalError> {
    match v {
        Value::Hole(h) => Err(EvalError::Hole(h)),
        v => Ok(v),
    }
}

/// A field of a data value.
pub fn field_of(v: &Value, field: &str) -> Result<Value, EvalError> {
    if let Value::Hole(h) = v {
        return Err(EvalError::Hole(*h));
    }
    if let Value::Data { def, ctor, fields } = v {
        if let Some(i) = def.ctors[*ctor].fields.iter().position(|f| f.name == field) {
            return Ok(fields[i].clone());
        }
        if def.ctors.iter().any(|c| c.fields.iter().any(|f| f.name == field)) {
            return Err(EvalError::NoField { value: v.to_string(), field: field.to_string() });
        }
    }
    Err(EvalError::UnknownField { value: v.to_string(), field: field.to_string() })
}

/// A call to a Rust predicate (`#[predicate]`): on complete values only.
fn native(f: &str, args: &[Value], at: &Expr) -> Result<Value, EvalError> {
    let Some(p) = crate::native::native_predicate(f) else {
        return Err(EvalError::UnknownFunction(f.to_string()));
    };
    if args.len() != p.arity {
        return Err(EvalError::Arity(f.to_string(), p.arity, args.len()));
    }
    if let Some(h) = args.iter().find_map(Value::first_hole) {
        return Err(EvalError::Hole(h));
    }
    match (p.call)(args) {
        Some(b) => Ok(Value::Bool(b)),
        None => Err(EvalError::Type {
            expr: at.to_string(),
            expected: "arguments of the predicate's parameter types",
            found: args.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "),
        }),
    }
}

/// The built-in functions: `len`, set operations, `count(xs, x)` (how
/// often `x` occurs in a sequence: the multiset view, for permutations),
/// `abs`, `min`, `max`.
/// `None` when `f` is not one for these arguments (then it may be a measure).
pub fn builtin(f: &str, args: &[Value], at: &Expr) -> Result<Option<Value>, EvalError> {
    let set = |v: &Value| match v {
        Value::Set(s) => Ok(s.clone()),
        Value::Seq(xs) => Ok(xs.iter().cloned().collect::<BTreeSet<_>>()),
        other => Err(EvalError::Type { expr: at.to_string(), expected: "a set", found: other.to_string() }),
    };
    let int = |v: &Value| {
        v.as_int().ok_or_else(|| EvalError::Type { expr: at.to_string(), expected: "an integer", found: v.to_string() })
    };
    // A length is known before the elements are; anything else needs the
    // whole value.
    match (f, args) {
        ("len" | "is_empty", [Value::Seq(_)]) => {}
        _ if !is_builtin(f) => return Ok(None),
        _ => {
            if let Some(h) = args.iter().find_map(Value::first_hole) {
                return Err(EvalError::Hole(h));
            }
        }
    }
    Ok(Some(match (f, args) {
        ("len", [Value::Seq(xs)]) => Value::Int(xs.len() as i128),
        ("len", [Value::Set(xs)]) => Value::Int(xs.len() as i128),
        ("is_empty", [Value::Seq(xs)]) => Value::Bool(xs.is_empty()),
        ("is_empty", [Value::Set(xs)]) => Value::Bool(xs.is_empty()),
        ("empty", []) => Value::Set(BTreeSet::new()),
        ("singleton", [x]) => Value::Set(BTreeSet::from([x.clone()])),
        ("elems", [s]) => Value::Set(set(s)?),
        ("union", [a, b]) => Value::Set(set(a)?.union(&set(b)?).cloned().collect()),
        ("inter" | "intersection", [a, b]) => Value::Set(set(a)?.intersection(&set(b)?).cloned().collect()),
        ("diff" | "difference", [a, b]) => Value::Set(set(a)?.difference(&set(b)?).cloned().collect()),
        ("member", [x, s]) => Value::Bool(set(s)?.contains(x)),
        ("contains", [s, x]) => Value::Bool(set(s)?.contains(x)),
        ("subset" | "is_subset", [a, b]) => Value::Bool(set(a)?.is_subset(&set(b)?)),
        ("count", [Value::Seq(xs), x]) => Value::Int(xs.iter().filter(|y| *y == x).count() as i128),
        ("abs", [x]) => Value::Int(int(x)?.abs()),
        ("min", [x, y]) => Value::Int(int(x)?.min(int(y)?)),
        ("max", [x, y]) => Value::Int(int(x)?.max(int(y)?)),
        _ => return Ok(None),
    }))
}

/// Whether `f` names a built-in (a `match`, not a scan of [`BUILTINS`]; a
/// [`Callee`] asks once, when it is made).
pub(crate) fn is_builtin(f: &str) -> bool {
    f.starts_with(crate::ast::MATCHES)
        || matches!(
            f,
            "len"
                | "is_empty"
                | "empty"
                | "singleton"
                | "elems"
                | "union"
                | "inter"
                | "intersection"
                | "diff"
                | "difference"
                | "member"
                | "contains"
                | "subset"
                | "is_subset"
                | "count"
                | "abs"
                | "min"
                | "max"
        )
}

/// The names of the built-in functions (for error messages and checks).
pub const BUILTINS: &[&str] = &[
    "len",
    "is_empty",
    "empty",
    "singleton",
    "elems",
    "union",
    "inter",
    "intersection",
    "diff",
    "difference",
    "member",
    "contains",
    "subset",
    "is_subset",
    "count",
    "abs",
    "min",
    "max",
];
