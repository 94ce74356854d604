//! Types as the spec language sees them: integers, booleans, sequences,
//! sets and data types described by their constructors and (refined)
//! fields. How a Rust type describes itself is [`Targetable`](crate::Targetable).

use std::any::TypeId;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, OnceLock};

use crate::ast::Expr;

/// The type of a spec value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    /// An integer type with its range (`i64`: `i64::MIN..=i64::MAX`).
    Int {
        /// Smallest value.
        lo: i128,
        /// Largest value.
        hi: i128,
    },
    /// `bool`.
    Bool,
    /// A data type (enum or struct).
    Data(DataRef),
    /// A sequence (`Vec<T>`).
    Seq(Box<Ty>),
    /// A finite set (`BTreeSet<T>`, and what set operations return).
    Set(Box<Ty>),
}

impl Ty {
    /// Human-readable name.
    pub fn name(&self) -> String {
        match self {
            Ty::Int { lo, hi } => format!("int[{lo}..={hi}]"),
            Ty::Bool => "bool".into(),
            Ty::Data(d) => d.name.to_string(),
            Ty::Seq(t) => format!("Vec<{}>", t.name()),
            Ty::Set(t) => format!("Set<{}>", t.name()),
        }
    }

    /// The first data type reachable from this one that has no finite
    /// value (each of its constructors needs a value of a type that has
    /// none, itself included: `struct P { q: Box<Q> }`, `struct Q { p:
    /// Box<P> }`), which no depth can bound; `None` when every reachable
    /// type has a finite value. Sequences and sets may be empty, so they
    /// always have one.
    pub fn unbounded(&self) -> Option<String> {
        let mut types: Vec<DataRef> = Vec::new();
        collect_data(self, &mut types);
        let defs: Vec<&DataDef> = types.iter().map(DataRef::get).collect();
        // The least fixed point: a type is finite once one of its
        // constructors has only fields of finite types.
        let mut finite = vec![false; types.len()];
        let is_finite = |ty: &Ty, finite: &[bool]| match ty {
            Ty::Data(r) => types.iter().position(|t| t == r).is_some_and(|i| finite[i]),
            _ => true,
        };
        loop {
            let mut changed = false;
            for i in 0..types.len() {
                if !finite[i] && defs[i].ctors.iter().any(|c| c.fields.iter().all(|f| is_finite(&f.ty, &finite))) {
                    finite[i] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let i = finite.iter().position(|f| !f)?;
        Some(format!(
            "the type `{}` cannot be bounded: each of its constructors needs a value of `{}` or of another type with \
             no finite value, so no depth holds any of its values (give it a constructor without such a field, e.g. \
             an `Option` or a leaf variant)",
            defs[i].name, defs[i].name
        ))
    }
}

/// Every data type `ty` reaches through fields, elements and itself, once each.
fn collect_data(ty: &Ty, out: &mut Vec<DataRef>) {
    match ty {
        Ty::Int { .. } | Ty::Bool => {}
        Ty::Seq(t) | Ty::Set(t) => collect_data(t, out),
        Ty::Data(r) => {
            if out.contains(r) {
                return;
            }
            out.push(r.clone());
            for c in &r.get().ctors {
                for f in &c.fields {
                    collect_data(&f.ty, out);
                }
            }
        }
    }
}

/// A reference to a data type, resolved on first use (so recursive types
/// can name themselves).
#[derive(Clone)]
pub struct DataRef {
    id: TypeId,
    /// The type's name.
    pub name: &'static str,
    def: fn() -> DataDef,
}

impl DataRef {
    /// The data type `T`, described by `def`.
    pub fn new<T: 'static>(name: &'static str, def: fn() -> DataDef) -> Self {
        DataRef { id: TypeId::of::<T>(), name, def }
    }

    /// The definition, built once per type and kept for the life of the
    /// process: values hold it by reference, so copying a value copies no
    /// count shared by every value of its type (two threads cloning values
    /// of one type would otherwise take turns at that count's cache line).
    pub fn get(&self) -> &'static DataDef {
        thread_local! {
            // Most lookups: no lock (a program has a few dozen types).
            static SEEN: std::cell::RefCell<Vec<(TypeId, &'static DataDef)>> =
                const { std::cell::RefCell::new(Vec::new()) };
        }
        if let Some(d) = SEEN.with(|s| s.borrow().iter().find(|(id, _)| *id == self.id).map(|(_, d)| *d)) {
            return d;
        }
        static DEFS: OnceLock<Mutex<HashMap<TypeId, &'static DataDef>>> = OnceLock::new();
        let defs = DEFS.get_or_init(Default::default);
        let found = defs.lock().unwrap_or_else(|e| e.into_inner()).get(&self.id).copied();
        let d = match found {
            Some(d) => d,
            None => {
                // Built outside the lock: a definition may resolve other types.
                let d: &'static DataDef = Box::leak(Box::new((self.def)()));
                *defs.lock().unwrap_or_else(|e| e.into_inner()).entry(self.id).or_insert(d)
            }
        };
        SEEN.with(|s| s.borrow_mut().push((self.id, d)));
        d
    }
}

impl PartialEq for DataRef {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}
impl Eq for DataRef {}

impl std::hash::Hash for DataRef {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.id.hash(state);
    }
}

impl fmt::Debug for DataRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name)
    }
}

/// A data type: its constructors in declaration order.
#[derive(Clone, Debug)]
pub struct DataDef {
    /// The type's name.
    pub name: String,
    /// The constructors (a struct has one).
    pub ctors: Vec<CtorDef>,
}

impl DataDef {
    /// The constructor named `name`.
    pub fn ctor(&self, name: &str) -> Option<usize> {
        self.ctors.iter().position(|c| c.name == name)
    }
}

/// A constructor.
#[derive(Clone, Debug)]
pub struct CtorDef {
    /// Its name (the variant's, or the struct's).
    pub name: String,
    /// Its fields in order (tuple fields are named `0`, `1`, …).
    pub fields: Vec<FieldDef>,
    /// Whether it is declared recursive (a field names the type itself, or
    /// `#[speccheck(recursive)]`): once the depth is spent, enumeration
    /// takes only constructors that are not, as the derived `Arbitrary`
    /// does. Recursion through other types (`Option<Box<Self>>`, mutually
    /// recursive types) is found along the value's path instead: see
    /// `speccheck_target::depth`.
    pub recursive: bool,
}

/// A field and its refinement.
#[derive(Clone, Debug)]
pub struct FieldDef {
    /// Its name (`0`, `1`, … for tuple fields).
    pub name: String,
    /// Its type.
    pub ty: Ty,
    /// What every value of the field satisfies (`#[refine(...)]`): may
    /// mention the field itself and the fields before it.
    pub refine: Option<Expr>,
}

impl FieldDef {
    /// A field without refinement.
    pub fn plain(name: impl Into<String>, ty: Ty) -> Self {
        FieldDef { name: name.into(), ty, refine: None }
    }
}
