//! Types as the spec language sees them: integers, booleans, sequences,
//! sets and data types described by their constructors and (refined)
//! fields. How a Rust type describes itself is [`Targetable`](crate::Targetable).

use std::any::TypeId;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

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

    /// The definition (built once per type).
    pub fn get(&self) -> Arc<DataDef> {
        static DEFS: OnceLock<Mutex<HashMap<TypeId, Arc<DataDef>>>> = OnceLock::new();
        let defs = DEFS.get_or_init(Default::default);
        if let Some(d) = defs.lock().unwrap_or_else(|e| e.into_inner()).get(&self.id) {
            return d.clone();
        }
        // Built outside the lock: a definition may resolve other types.
        let d = Arc::new((self.def)());
        defs.lock().unwrap_or_else(|e| e.into_inner()).entry(self.id).or_insert(d).clone()
    }
}

impl PartialEq for DataRef {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}
impl Eq for DataRef {}

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
    /// Whether a field mentions the type itself: exhaustive enumeration
    /// takes only non-recursive constructors once the depth is spent.
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
