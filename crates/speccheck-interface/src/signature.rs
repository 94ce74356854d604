//! Describing an API (ArtiCheck §2, §3.1): its types, its functions (the
//! *negative* types: computations from arguments to a result) and its
//! laws.
//!
//! A [`Builder`] collects declarations; [`Builder::build`] resolves every
//! atom against them and checks that each abstract type can be built by
//! combining the API's functions, starting from ground values (a type no
//! function can construct is an error naming it). The `interface!` macro
//! expands into these calls.

use std::any::{Any, TypeId};
use std::collections::{HashMap, HashSet};
use std::fmt::{self, Debug};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use speccheck_core::{Term, TestCase};

use crate::args::Args;
use crate::pos::{AtomRef, DataDesc, Dyn, ListDesc, Pos, PosNode};

/// How a function receives an argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// By value: the function gets a clone of the instance.
    Owned,
    /// By shared reference: the function borrows the instance in the pool.
    Ref,
    /// By `&mut`: the function gets a clone, and the clone after the call
    /// becomes a new instance (the instance in the pool never changes).
    Mut,
}

/// One argument of a function or law.
#[derive(Clone, Debug)]
pub struct Param {
    /// Its name in the signature (`self`, `x`).
    pub name: String,
    /// How it is passed.
    pub mode: Mode,
    /// Its type.
    pub pos: Pos,
}

impl Param {
    /// An argument.
    pub fn new(name: impl Into<String>, mode: Mode, pos: Pos) -> Self {
        Param { name: name.into(), mode, pos }
    }
}

/// How a call is written in a client program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallStyle {
    /// A path applied to the arguments: `Set::empty()`, `set::union(&a, &b)`.
    Path(String),
    /// A method of the first argument: `s.insert(3)`.
    Method(String),
}

/// Why a call produced no instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallError {
    /// The call was rightly refused (both the candidate and the reference
    /// panicked): nothing is produced, nothing is wrong.
    Refused,
    /// The candidate and the reference disagree (reference-model mode), or
    /// a nondeterministic result was not accepted by the reference.
    Mismatch(String),
}

/// What a function's closure does: read its arguments, call, box the result.
pub type CallFn = Arc<dyn Fn(&mut Args<'_>) -> Result<Dyn, CallError> + Send + Sync>;

/// One function (or method) of the API.
#[derive(Clone)]
pub struct Function {
    pub(crate) name: String,
    pub(crate) style: CallStyle,
    pub(crate) params: Vec<Param>,
    pub(crate) ret: Pos,
    pub(crate) call: Option<CallFn>,
    pub(crate) panics_allowed: bool,
    pub(crate) nondeterministic: bool,
    pub(crate) weight: u32,
}

impl Function {
    /// A function named `name`, written as `style` in programs, returning
    /// `()` until [`returns`](Self::returns) says otherwise.
    pub fn new(name: impl Into<String>, style: CallStyle) -> Self {
        Function {
            name: name.into(),
            style,
            params: Vec::new(),
            ret: crate::pos::unit(),
            call: None,
            panics_allowed: false,
            nondeterministic: false,
            weight: 1,
        }
    }

    /// Adds an argument (the receiver first, for a method).
    pub fn param(mut self, name: impl Into<String>, mode: Mode, pos: Pos) -> Self {
        self.params.push(Param::new(name, mode, pos));
        self
    }

    /// Sets the result type.
    pub fn returns(mut self, pos: Pos) -> Self {
        self.ret = pos;
        self
    }

    /// Sets the body: reads the arguments from [`Args`] and returns the
    /// boxed result, or why there is none.
    pub fn call(mut self, f: impl Fn(&mut Args<'_>) -> Result<Dyn, CallError> + Send + Sync + 'static) -> Self {
        self.call = Some(Arc::new(f));
        self
    }

    /// Sets a body that always returns a value.
    pub fn body<R: 'static>(self, f: impl Fn(&mut Args<'_>) -> R + Send + Sync + 'static) -> Self {
        self.call(move |a| Ok(Box::new(f(a)) as Dyn))
    }

    /// A panic of this function is not a bug: the call just produces
    /// nothing (a documented precondition, such as `pop` on an empty stack).
    pub fn panics_allowed(mut self, allowed: bool) -> Self {
        self.panics_allowed = allowed;
        self
    }

    /// How often deep search picks this function among those it can call
    /// on an instance, relative to the others (1 by default; at least 1).
    /// Breadth-first rounds call every function alike.
    pub fn weight(mut self, weight: u32) -> Self {
        self.weight = weight.max(1);
        self
    }

    /// The function may legitimately return different results (reference
    /// mode compares it through a validator instead of by equality).
    pub fn nondeterministic(mut self, yes: bool) -> Self {
        self.nondeterministic = yes;
        self
    }

    /// The function's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// The outcome of checking a law on one tuple of instances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LawVerdict {
    /// The precondition held and so did the test.
    Holds,
    /// The precondition held but the test did not.
    Fails,
    /// The precondition did not hold: the test is aborted (ArtiCheck §4),
    /// counted apart from the tests that passed.
    Aborted,
}

impl LawVerdict {
    /// `P ⇒ T` evaluated lazily: aborted unless `pre`, else `test()`.
    pub fn implies(pre: bool, test: impl FnOnce() -> bool) -> Self {
        if !pre {
            LawVerdict::Aborted
        } else if test() {
            LawVerdict::Holds
        } else {
            LawVerdict::Fails
        }
    }
}

impl From<bool> for LawVerdict {
    fn from(b: bool) -> Self {
        if b { LawVerdict::Holds } else { LawVerdict::Fails }
    }
}

/// What a law's closure does.
pub type LawFn = Arc<dyn Fn(&mut Args<'_>) -> LawVerdict + Send + Sync>;

/// A law `∀ x̄. P(x̄) ⇒ T(x̄)` (ArtiCheck §4): the quantified variables range
/// over the instances built; a false precondition aborts the test.
#[derive(Clone)]
pub struct Law {
    pub(crate) name: String,
    pub(crate) params: Vec<Param>,
    pub(crate) check: Option<LawFn>,
    pub(crate) requires: Option<String>,
    pub(crate) body: Option<String>,
}

impl Law {
    /// A law named `name`.
    pub fn new(name: impl Into<String>) -> Self {
        Law { name: name.into(), params: Vec::new(), check: None, requires: None, body: None }
    }

    /// Adds a quantified variable.
    pub fn param(mut self, name: impl Into<String>, mode: Mode, pos: Pos) -> Self {
        self.params.push(Param::new(name, mode, pos));
        self
    }

    /// Sets the check.
    pub fn check(mut self, f: impl Fn(&mut Args<'_>) -> LawVerdict + Send + Sync + 'static) -> Self {
        self.check = Some(Arc::new(f));
        self
    }

    /// The source text of the precondition and of the test, to print the
    /// law inside counterexample programs.
    pub fn source(mut self, requires: Option<&str>, body: &str) -> Self {
        self.requires = requires.map(str::to_string);
        self.body = Some(body.to_string());
        self
    }

    /// The law's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

// ----- resolved descriptions ---------------------------------------------------

/// Operations every pooled type needs.
#[derive(Clone, Copy)]
pub(crate) struct ValueOps {
    pub(crate) clone: fn(&dyn Any) -> Dyn,
    pub(crate) hash: fn(&dyn Any) -> u64,
    pub(crate) eq: fn(&dyn Any, &dyn Any) -> bool,
}

fn cast<T: 'static>(v: &dyn Any) -> &T {
    v.downcast_ref::<T>().expect("speccheck-interface: an instance has the wrong type")
}

fn clone_of<T: Clone + 'static>(v: &dyn Any) -> Dyn {
    Box::new(cast::<T>(v).clone())
}

/// The length of `v`'s `Debug` form, or a number past `limit` once it is
/// longer (formatting stops there: a huge value costs no more than `limit`).
pub(crate) fn debug_len<T: Debug + ?Sized>(v: &T, limit: usize) -> usize {
    struct Count {
        n: usize,
        limit: usize,
    }
    impl fmt::Write for Count {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            self.n += s.len();
            if self.n > self.limit { Err(fmt::Error) } else { Ok(()) }
        }
    }
    let mut c = Count { n: 0, limit };
    let _ = fmt::write(&mut c, format_args!("{v:?}"));
    c.n
}

/// The first crate named in a type's path that is not speccheck's or the
/// standard library's: `im` in `Model<im::OrdMap<u16, u16>, BTreeMap<…>>`.
pub(crate) fn crate_of(type_name: &str) -> Option<String> {
    const SKIP: [&str; 6] = ["speccheck_interface", "speccheck", "speccheck_core", "std", "core", "alloc"];
    type_name
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .filter_map(|path| path.split_once("::").map(|(krate, _)| krate))
        .find(|krate| !krate.is_empty() && !SKIP.contains(krate))
        .map(str::to_string)
}

/// A deterministic hash (SipHash with fixed keys): runs do not depend on
/// the process.
pub(crate) fn hash_one<T: Hash + ?Sized>(v: &T) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    v.hash(&mut h);
    h.finish()
}

fn hash_of<T: Hash + 'static>(v: &dyn Any) -> u64 {
    hash_one(cast::<T>(v))
}

fn eq_of<T: Eq + 'static>(a: &dyn Any, b: &dyn Any) -> bool {
    cast::<T>(a) == cast::<T>(b)
}

fn hash_by_debug<T: Debug + 'static>(v: &dyn Any) -> u64 {
    hash_one(&format!("{:?}", cast::<T>(v)))
}

fn eq_by_debug<T: Debug + 'static>(a: &dyn Any, b: &dyn Any) -> bool {
    format!("{:?}", cast::<T>(a)) == format!("{:?}", cast::<T>(b))
}

pub(crate) type DrawFn = Arc<dyn Fn(&mut TestCase) -> Dyn + Send + Sync>;

/// How fresh values of a ground type are made.
#[derive(Clone)]
pub(crate) struct Ground {
    pub(crate) draw: DrawFn,
    pub(crate) term: fn(&dyn Any) -> Term,
    /// The length of a value's `Debug` form, counted up to a limit (a
    /// size to compare values a call returned with the ones drawn).
    pub(crate) size: fn(&dyn Any, usize) -> usize,
    pub(crate) initial: Option<usize>,
    pub(crate) per_round: Option<usize>,
}

/// Abstract or ground.
#[derive(Clone)]
pub(crate) enum Kind {
    Abstract,
    Ground(Ground),
}

/// A pooled type.
#[derive(Clone)]
pub(crate) struct TypeDesc {
    pub(crate) name: String,
    pub(crate) prefix: String,
    /// The crate that defines it (abstract types: the crate under test;
    /// see [`crate_of`]).
    pub(crate) krate: Option<String>,
    pub(crate) kind: Kind,
    pub(crate) ops: ValueOps,
    /// How many instances its pool holds, when not the run's `pool_bound`.
    pub(crate) bound: Option<usize>,
}

impl TypeDesc {
    pub(crate) fn is_abstract(&self) -> bool {
        matches!(self.kind, Kind::Abstract)
    }

    pub(crate) fn ground(&self) -> Option<&Ground> {
        match &self.kind {
            Kind::Ground(g) => Some(g),
            Kind::Abstract => None,
        }
    }
}

/// A positive type with its atoms resolved to pools.
#[derive(Clone)]
pub(crate) enum Shape {
    Atom(usize),
    Data(Arc<DataDesc>, Arc<Vec<Vec<Shape>>>),
    List(Arc<ListDesc>, Arc<Shape>),
}

/// What [`Shape::parts`] calls on each atom: its pool, the value, the path.
pub(crate) type PartFn<'a, E> = dyn FnMut(usize, crate::pos::Dyn, &[crate::provenance::Step]) -> Result<(), E> + 'a;

impl Shape {
    /// Takes a value of this shape apart: `f` gets every atom inside (its
    /// pool, the value, the path to it from `path`), in order.
    pub(crate) fn parts<E>(
        &self,
        value: crate::pos::Dyn,
        path: &mut Vec<crate::provenance::Step>,
        f: &mut PartFn<'_, E>,
    ) -> Result<(), E> {
        use crate::provenance::Step;
        match self {
            Shape::Atom(k) => f(*k, value, path),
            Shape::Data(d, vs) => {
                let (v, fields) = d.ops.split(&*value);
                for (i, field) in fields.into_iter().enumerate() {
                    path.push(Step::Field(v as u32, i as u32));
                    vs[v][i].parts(field, path, f)?;
                    path.pop();
                }
                Ok(())
            }
            Shape::List(l, e) => {
                for (i, item) in l.ops.split(&*value).into_iter().enumerate() {
                    path.push(Step::Elem(i as u32));
                    e.parts(item, path, f)?;
                    path.pop();
                }
                Ok(())
            }
        }
    }

    /// Every pool this shape can yield instances of when destructed.
    fn atoms(&self, out: &mut Vec<usize>) {
        match self {
            Shape::Atom(k) => out.push(*k),
            Shape::Data(_, vs) => vs.iter().flatten().for_each(|s| s.atoms(out)),
            Shape::List(_, e) => e.atoms(out),
        }
    }

    /// Whether a value of this shape can be produced from the pools that
    /// are `inhabited`.
    fn producible(&self, inhabited: &[bool]) -> bool {
        match self {
            Shape::Atom(k) => inhabited[*k],
            Shape::Data(_, vs) => vs.iter().any(|fields| fields.iter().all(|f| f.producible(inhabited))),
            Shape::List(..) => true,
        }
    }

    pub(crate) fn name(&self, api: &Api) -> String {
        match self {
            Shape::Atom(k) => api.types[*k].name.clone(),
            Shape::Data(d, _) => d.name.clone(),
            Shape::List(l, _) => l.name.clone(),
        }
    }
}

/// A function with its shapes resolved.
#[derive(Clone)]
pub(crate) struct FnSpec {
    pub(crate) f: Function,
    pub(crate) call: CallFn,
    pub(crate) args: Vec<Shape>,
    pub(crate) ret: Shape,
}

/// A law with its shapes resolved.
#[derive(Clone)]
pub(crate) struct LawSpec {
    pub(crate) law: Law,
    pub(crate) check: LawFn,
    pub(crate) args: Vec<Shape>,
}

/// A described API, ready to be tested (see [`Api::check`]).
#[derive(Clone)]
pub struct Api {
    pub(crate) name: String,
    pub(crate) types: Vec<TypeDesc>,
    pub(crate) functions: Vec<FnSpec>,
    pub(crate) laws: Vec<LawSpec>,
    pub(crate) reference: Option<String>,
}

impl Debug for Api {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Api")
            .field("name", &self.name)
            .field("types", &self.types.iter().map(|t| t.name.as_str()).collect::<Vec<_>>())
            .field("functions", &self.functions.iter().map(|f| f.f.name.as_str()).collect::<Vec<_>>())
            .field("laws", &self.laws.iter().map(|l| l.law.name.as_str()).collect::<Vec<_>>())
            .finish()
    }
}

impl Api {
    /// The API's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Names of the abstract types.
    pub fn abstract_types(&self) -> Vec<&str> {
        self.types.iter().filter(|t| t.is_abstract()).map(|t| t.name.as_str()).collect()
    }

    /// The crate under test: the one that defines the first abstract type
    /// (in reference mode, the candidate's), when it can be told.
    pub fn crate_under_test(&self) -> Option<&str> {
        self.types.iter().find_map(|t| t.krate.as_deref())
    }

    /// Names of every pooled type (abstract and ground).
    pub fn type_names(&self) -> Vec<&str> {
        self.types.iter().map(|t| t.name.as_str()).collect()
    }

    /// Names of the functions.
    pub fn function_names(&self) -> Vec<&str> {
        self.functions.iter().map(|f| f.f.name.as_str()).collect()
    }

    /// Names of the laws.
    pub fn law_names(&self) -> Vec<&str> {
        self.laws.iter().map(|l| l.law.name.as_str()).collect()
    }

    /// The reference implementation's name, in reference-model mode.
    pub fn reference(&self) -> Option<&str> {
        self.reference.as_deref()
    }
}

/// Why a description cannot be tested.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DescribeError {
    /// Some abstract types cannot be built by any combination of the API's
    /// functions.
    Unconstructible {
        /// The types, by name.
        types: Vec<String>,
        /// Why, type by type.
        explanation: String,
    },
    /// A type used by a function or law was never declared.
    Undeclared {
        /// The type.
        type_name: String,
        /// The function or law that uses it.
        used_by: String,
    },
    /// A function has no body, or a law no check.
    Incomplete(String),
    /// Two declarations have the same name.
    Duplicate(String),
    /// A data type contains itself (recursive data must be an abstract type).
    Recursive(String),
    /// There is nothing to call.
    NoFunctions,
}

impl fmt::Display for DescribeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DescribeError::Unconstructible { types, explanation } => {
                let list: Vec<String> = types.iter().map(|t| format!("`{t}`")).collect();
                write!(
                    f,
                    "no combination of the API's functions can construct {} {}:\n{explanation}",
                    if types.len() == 1 { "the type" } else { "the types" },
                    list.join(", ")
                )
            }
            DescribeError::Undeclared { type_name, used_by } => write!(
                f,
                "`{used_by}` uses the type `{type_name}`, which the description does not declare: declare it \
                 abstract (built by the API), ground (with a generator of fresh values), or as a data type"
            ),
            DescribeError::Incomplete(what) => write!(f, "{what}"),
            DescribeError::Duplicate(name) => write!(f, "`{name}` is declared twice"),
            DescribeError::Recursive(name) => write!(
                f,
                "the data type `{name}` contains itself: declare it as an abstract type instead (built by the API)"
            ),
            DescribeError::NoFunctions => write!(f, "the description has no functions to call"),
        }
    }
}

impl std::error::Error for DescribeError {}

enum Decl {
    Type(TypeId, TypeDesc),
    Fresh(TypeId, usize, usize),
    Bound(TypeId, usize),
}

/// Collects the declarations of an API.
pub struct Builder {
    name: String,
    decls: Vec<Decl>,
    data: HashMap<TypeId, Pos>,
    functions: Vec<Function>,
    laws: Vec<Law>,
    reference: Option<String>,
}

impl Debug for Builder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Builder").field("name", &self.name).finish_non_exhaustive()
    }
}

fn prefix_of(name: &str) -> String {
    let base = name.rsplit("::").next().unwrap_or(name);
    match base.chars().find(|c| c.is_alphabetic()) {
        Some(c) => c.to_lowercase().collect(),
        None => "v".to_string(),
    }
}

impl Builder {
    /// An empty description of the API named `name`.
    pub fn new(name: impl Into<String>) -> Self {
        Builder {
            name: name.into(),
            decls: Vec::new(),
            data: HashMap::new(),
            functions: Vec::new(),
            laws: Vec::new(),
            reference: None,
        }
    }

    fn declare(&mut self, id: TypeId, desc: TypeDesc) -> &mut Self {
        self.decls.push(Decl::Type(id, desc));
        self
    }

    /// Declares an abstract type: its instances are only ever built by
    /// calling the API.
    pub fn abstract_type<T: Clone + Debug + Hash + Eq + 'static>(&mut self, name: &str) -> &mut Self {
        let ops = ValueOps { clone: clone_of::<T>, hash: hash_of::<T>, eq: eq_of::<T> };
        self.declare(
            TypeId::of::<T>(),
            TypeDesc {
                name: name.to_string(),
                prefix: prefix_of(name),
                krate: crate_of(std::any::type_name::<T>()),
                kind: Kind::Abstract,
                ops,
                bound: None,
            },
        )
    }

    /// Declares a ground type whose fresh values come from `generator`
    /// (replayable and encodable: they are choices of a test case).
    pub fn ground<T, G>(&mut self, name: &str, generator: G) -> &mut Self
    where
        T: Clone + Debug + Hash + Eq + 'static,
        G: speccheck_core::Generator<Value = T> + 'static,
    {
        let ops = ValueOps { clone: clone_of::<T>, hash: hash_of::<T>, eq: eq_of::<T> };
        self.ground_with_ops(name, generator, ops)
    }

    /// Like [`ground`](Self::ground) for a type without `Hash`/`Eq`
    /// (floats): values are compared by their `Debug` form.
    pub fn ground_by_debug<T, G>(&mut self, name: &str, generator: G) -> &mut Self
    where
        T: Clone + Debug + 'static,
        G: speccheck_core::Generator<Value = T> + 'static,
    {
        let ops = ValueOps { clone: clone_of::<T>, hash: hash_by_debug::<T>, eq: eq_by_debug::<T> };
        self.ground_with_ops(name, generator, ops)
    }

    fn ground_with_ops<T, G>(&mut self, name: &str, generator: G, ops: ValueOps) -> &mut Self
    where
        T: Clone + Debug + 'static,
        G: speccheck_core::Generator<Value = T> + 'static,
    {
        let draw: DrawFn =
            Arc::new(move |tc: &mut TestCase| Box::new(speccheck_core::Generator::generate(&generator, tc)) as Dyn);
        fn term<T: Debug + 'static>(v: &dyn Any) -> Term {
            Term::debug(cast::<T>(v))
        }
        fn size<T: Debug + 'static>(v: &dyn Any, limit: usize) -> usize {
            debug_len(cast::<T>(v), limit)
        }
        let ground = Ground { draw, term: term::<T>, size: size::<T>, initial: None, per_round: None };
        self.declare(
            TypeId::of::<T>(),
            TypeDesc {
                name: name.to_string(),
                prefix: prefix_of(name),
                krate: None,
                kind: Kind::Ground(ground),
                ops,
                bound: None,
            },
        )
    }

    /// How many fresh values of the ground type `T` to draw before the
    /// first round and at each round (overriding the run's defaults).
    pub fn fresh_values<T: 'static>(&mut self, initial: usize, per_round: usize) -> &mut Self {
        self.decls.push(Decl::Fresh(TypeId::of::<T>(), initial, per_round));
        self
    }

    /// How many instances the pool of `T` (abstract or ground) holds,
    /// overriding the run's [`Config::pool_bound`](crate::Config) for this
    /// type only: a larger key pool than instance pool, say, so that
    /// instances can hold many distinct keys.
    pub fn pool_bound<T: 'static>(&mut self, bound: usize) -> &mut Self {
        self.decls.push(Decl::Bound(TypeId::of::<T>(), bound));
        self
    }

    /// Declares a data type (a user enum or struct described by
    /// [`pos::data`](crate::pos::data)): produced and destructed like
    /// `Option` and tuples.
    pub fn data_type(&mut self, pos: Pos) -> &mut Self {
        self.data.insert(pos.type_id(), pos);
        self
    }

    /// Adds a function.
    pub fn function(&mut self, f: Function) -> &mut Self {
        self.functions.push(f);
        self
    }

    /// Adds a law.
    pub fn law(&mut self, law: Law) -> &mut Self {
        self.laws.push(law);
        self
    }

    /// Names the reference implementation (reference-model mode, where
    /// every function runs on both and compares).
    pub fn reference(&mut self, name: &str) -> &mut Self {
        self.reference = Some(name.to_string());
        self
    }

    /// Resolves the description and checks that every abstract type can
    /// be constructed.
    pub fn build(mut self) -> Result<Api, DescribeError> {
        if self.functions.is_empty() {
            return Err(DescribeError::NoFunctions);
        }
        // Primitives used but not declared get their default generator.
        let mut declared: HashSet<TypeId> = self
            .decls
            .iter()
            .filter_map(|d| match d {
                Decl::Type(id, _) => Some(*id),
                Decl::Fresh(..) | Decl::Bound(..) => None,
            })
            .collect();
        let mut defaults = Vec::new();
        {
            let mut seen = HashSet::new();
            let mut visit = |p: &Pos| collect_defaults(p, &self.data, &declared, &mut seen, &mut defaults);
            for f in &self.functions {
                f.params.iter().for_each(|p| visit(&p.pos));
                visit(&f.ret);
            }
            for l in &self.laws {
                l.params.iter().for_each(|p| visit(&p.pos));
            }
        }
        for (id, register) in defaults {
            if declared.insert(id) {
                register(&mut self);
            }
        }

        let mut types: Vec<TypeDesc> = Vec::new();
        let mut index: HashMap<TypeId, usize> = HashMap::new();
        let mut fresh = Vec::new();
        let mut bounds = Vec::new();
        for d in std::mem::take(&mut self.decls) {
            match d {
                Decl::Type(id, desc) => {
                    if index.contains_key(&id) || types.iter().any(|t| t.name == desc.name) {
                        return Err(DescribeError::Duplicate(desc.name));
                    }
                    index.insert(id, types.len());
                    types.push(desc);
                }
                Decl::Fresh(id, initial, per_round) => fresh.push((id, initial, per_round)),
                Decl::Bound(id, bound) => bounds.push((id, bound)),
            }
        }
        for (id, bound) in bounds {
            match index.get(&id) {
                Some(&k) if bound > 0 => types[k].bound = Some(bound),
                Some(_) => return Err(DescribeError::Incomplete("`pool_bound` must be at least 1".to_string())),
                None => {
                    return Err(DescribeError::Incomplete(
                        "`pool_bound` names a type that is not declared".to_string(),
                    ));
                }
            }
        }
        for (id, initial, per_round) in fresh {
            match index.get(&id).map(|&k| &mut types[k].kind) {
                Some(Kind::Ground(g)) => {
                    g.initial = Some(initial);
                    g.per_round = Some(per_round);
                }
                _ => {
                    return Err(DescribeError::Incomplete(
                        "`fresh_values` names a type that is not declared ground".to_string(),
                    ));
                }
            }
        }

        let resolver = Resolver { index: &index, data: &self.data };
        let mut names = HashSet::new();
        let mut functions = Vec::new();
        for f in self.functions {
            if !names.insert(f.name.clone()) {
                return Err(DescribeError::Duplicate(f.name));
            }
            let call = f
                .call
                .clone()
                .ok_or_else(|| DescribeError::Incomplete(format!("function `{}` has no body", f.name)))?;
            let args = f
                .params
                .iter()
                .map(|p| resolver.shape(&p.pos, &f.name, &mut Vec::new()))
                .collect::<Result<Vec<_>, _>>()?;
            let ret = resolver.shape(&f.ret, &f.name, &mut Vec::new())?;
            functions.push(FnSpec { f, call, args, ret });
        }
        let mut laws = Vec::new();
        for l in self.laws {
            if !names.insert(l.name.clone()) {
                return Err(DescribeError::Duplicate(l.name));
            }
            let check =
                l.check.clone().ok_or_else(|| DescribeError::Incomplete(format!("law `{}` has no check", l.name)))?;
            let args = l
                .params
                .iter()
                .map(|p| resolver.shape(&p.pos, &l.name, &mut Vec::new()))
                .collect::<Result<Vec<_>, _>>()?;
            laws.push(LawSpec { law: l, check, args });
        }
        let api = Api { name: self.name, types, functions, laws, reference: self.reference };
        check_constructible(&api)?;
        Ok(api)
    }
}

fn collect_defaults(
    p: &Pos,
    data: &HashMap<TypeId, Pos>,
    declared: &HashSet<TypeId>,
    seen: &mut HashSet<TypeId>,
    out: &mut Vec<(TypeId, crate::pos::DefaultGround)>,
) {
    match &p.0 {
        PosNode::Atom(a) => {
            if let Some(d) = data.get(&a.type_id) {
                if seen.insert(a.type_id) {
                    collect_defaults(d, data, declared, seen, out);
                }
            } else if let Some(reg) = &a.default
                && !declared.contains(&a.type_id)
                && seen.insert(a.type_id)
            {
                out.push((a.type_id, reg.clone()));
            }
        }
        PosNode::Data(d) => {
            for v in &d.variants {
                v.fields.iter().for_each(|f| collect_defaults(f, data, declared, seen, out));
            }
        }
        PosNode::List(l) => collect_defaults(&l.elem, data, declared, seen, out),
    }
}

struct Resolver<'a> {
    index: &'a HashMap<TypeId, usize>,
    data: &'a HashMap<TypeId, Pos>,
}

impl Resolver<'_> {
    fn shape(&self, p: &Pos, used_by: &str, stack: &mut Vec<TypeId>) -> Result<Shape, DescribeError> {
        match &p.0 {
            PosNode::Atom(AtomRef { type_id, name, .. }) => {
                if let Some(&k) = self.index.get(type_id) {
                    return Ok(Shape::Atom(k));
                }
                if let Some(d) = self.data.get(type_id) {
                    return self.shape(d, used_by, stack);
                }
                Err(DescribeError::Undeclared { type_name: name.clone(), used_by: used_by.to_string() })
            }
            PosNode::Data(d) => {
                if stack.contains(&d.type_id) {
                    return Err(DescribeError::Recursive(d.name.clone()));
                }
                stack.push(d.type_id);
                let variants = d
                    .variants
                    .iter()
                    .map(|v| v.fields.iter().map(|f| self.shape(f, used_by, stack)).collect::<Result<Vec<_>, _>>())
                    .collect::<Result<Vec<_>, _>>();
                stack.pop();
                Ok(Shape::Data(d.clone(), Arc::new(variants?)))
            }
            PosNode::List(l) => Ok(Shape::List(l.clone(), Arc::new(self.shape(&l.elem, used_by, stack)?))),
        }
    }
}

/// The fixpoint of "which pools can ever hold an instance": ground pools
/// start inhabited; a function whose arguments can all be produced
/// inhabits every pool its result destructs into.
pub(crate) fn inhabited(api: &Api) -> Vec<bool> {
    let mut inhabited: Vec<bool> = api.types.iter().map(|t| !t.is_abstract()).collect();
    loop {
        let mut changed = false;
        for f in &api.functions {
            if f.args.iter().all(|a| a.producible(&inhabited)) {
                let mut out = Vec::new();
                f.ret.atoms(&mut out);
                for k in out {
                    if !inhabited[k] {
                        inhabited[k] = true;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            return inhabited;
        }
    }
}

fn check_constructible(api: &Api) -> Result<(), DescribeError> {
    let inhabited = inhabited(api);
    let missing: Vec<usize> = (0..api.types.len()).filter(|&k| !inhabited[k]).collect();
    if missing.is_empty() {
        return Ok(());
    }
    let mut explanation = String::new();
    for &k in &missing {
        let name = &api.types[k].name;
        let producers: Vec<&FnSpec> = api
            .functions
            .iter()
            .filter(|f| {
                let mut out = Vec::new();
                f.ret.atoms(&mut out);
                out.contains(&k)
            })
            .collect();
        if producers.is_empty() {
            explanation.push_str(&format!("  - no function returns a `{name}`\n"));
        } else {
            for f in producers {
                let needs: Vec<String> =
                    f.args.iter().filter(|a| !a.producible(&inhabited)).map(|a| format!("`{}`", a.name(api))).collect();
                explanation.push_str(&format!(
                    "  - `{}` returns a `{name}` but needs {} first, which nothing else builds\n",
                    f.f.name,
                    needs.join(" and ")
                ));
            }
        }
    }
    Err(DescribeError::Unconstructible {
        types: missing.iter().map(|&k| api.types[k].name.clone()).collect(),
        explanation: explanation.trim_end().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crate_under_test_is_read_from_the_type_path() {
        let m = "speccheck_interface::reference::Model<im::ord::map::OrdMap<u16, u16>, alloc::collections::btree::map::BTreeMap<u16, u16>>";
        assert_eq!(crate_of(m).as_deref(), Some("im"));
        assert_eq!(crate_of("deep::ChunkMap").as_deref(), Some("deep"));
        assert_eq!(crate_of("alloc::vec::Vec<i32>"), None);
    }
    use crate::pos;

    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    struct Stack(Vec<i32>);

    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    struct Orphan;

    fn push() -> Function {
        Function::new("push", CallStyle::Method("push".into()))
            .param("self", Mode::Ref, pos::atom::<Stack>("Stack"))
            .param("x", Mode::Owned, pos::ground::<i32>("i32"))
            .returns(pos::atom::<Stack>("Stack"))
            .body(|a| {
                let mut s = a.get::<Stack>(0).clone();
                s.0.push(a.take::<i32>(1));
                s
            })
    }

    #[test]
    fn a_type_no_function_constructs_is_named() {
        let mut b = Builder::new("stack");
        b.abstract_type::<Stack>("Stack").function(push());
        let e = b.build().unwrap_err();
        let DescribeError::Unconstructible { types, .. } = &e else { panic!("{e}") };
        assert_eq!(types, &["Stack".to_string()]);
        assert!(e.to_string().contains("`push` returns a `Stack` but needs `Stack` first"), "{e}");

        let mut b = Builder::new("stack");
        b.abstract_type::<Stack>("Stack").abstract_type::<Orphan>("Orphan");
        b.function(
            Function::new("new", CallStyle::Path("Stack::new".into()))
                .returns(pos::atom::<Stack>("Stack"))
                .body(|_| Stack(Vec::new())),
        );
        b.function(
            Function::new("eat", CallStyle::Path("eat".into()))
                .param("o", Mode::Ref, pos::atom::<Orphan>("Orphan"))
                .body(|_| ()),
        );
        let e = b.build().unwrap_err();
        assert!(e.to_string().contains("no function returns a `Orphan`"), "{e}");
    }

    #[test]
    fn undeclared_types_are_errors_and_primitives_default_to_ground() {
        let mut b = Builder::new("stack");
        b.function(push());
        let e = b.build().unwrap_err();
        assert_eq!(e, DescribeError::Undeclared { type_name: "Stack".into(), used_by: "push".into() });

        let mut b = Builder::new("stack");
        b.abstract_type::<Stack>("Stack").function(push());
        b.function(
            Function::new("new", CallStyle::Path("Stack::new".into()))
                .returns(pos::atom::<Stack>("Stack"))
                .body(|_| Stack(Vec::new())),
        );
        let api = b.build().unwrap();
        assert_eq!(api.type_names(), vec!["Stack", "i32"]);
        assert_eq!(api.abstract_types(), vec!["Stack"]);
    }

    #[test]
    fn options_of_unbuildable_types_are_still_producible() {
        // `Option<Orphan>` can always be `None`, so a function taking one
        // can run.
        let mut b = Builder::new("opt");
        b.abstract_type::<Stack>("Stack").abstract_type::<Orphan>("Orphan");
        b.function(
            Function::new("from", CallStyle::Path("from".into()))
                .param("o", Mode::Owned, pos::option::<Orphan>(pos::atom::<Orphan>("Orphan")))
                .returns(pos::atom::<Stack>("Stack"))
                .body(|_| Stack(Vec::new())),
        );
        let e = b.build().unwrap_err();
        let DescribeError::Unconstructible { types, .. } = e else { panic!() };
        assert_eq!(types, vec!["Orphan".to_string()]);
    }
}
