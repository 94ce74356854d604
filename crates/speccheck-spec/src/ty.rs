//! Types as the spec language sees them, and [`Targetable`]: how a Rust
//! type describes itself (Target's class of the same name), reflects its
//! values into the language and rebuilds them from it.

use std::any::TypeId;
use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use crate::ast::Expr;
use crate::value::Value;

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
    /// The type of `T`.
    pub fn of<T: Targetable>() -> Ty {
        T::ty()
    }

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

/// A Rust type the spec language can describe, reflect and rebuild
/// (Target's `Targetable`). Derived with `#[derive(Targetable)]`.
pub trait Targetable: Sized + 'static {
    /// The type's description.
    fn ty() -> Ty;
    /// The value as the spec language sees it.
    fn reflect(&self) -> Value;
    /// The Rust value for a spec value (`None` if it does not fit).
    fn reify(v: &Value) -> Option<Self>;
}

macro_rules! int_targetable {
    ($($t:ty),*) => {$(
        impl Targetable for $t {
            fn ty() -> Ty {
                Ty::Int { lo: <$t>::MIN as i128, hi: <$t>::MAX as i128 }
            }
            fn reflect(&self) -> Value {
                Value::Int(*self as i128)
            }
            fn reify(v: &Value) -> Option<Self> {
                <$t>::try_from(v.as_int()?).ok()
            }
        }
    )*};
}
int_targetable!(i8, i16, i32, i64, isize, u8, u16, u32, usize);

impl Targetable for u64 {
    fn ty() -> Ty {
        Ty::Int { lo: 0, hi: u64::MAX as i128 }
    }
    fn reflect(&self) -> Value {
        Value::Int(*self as i128)
    }
    fn reify(v: &Value) -> Option<Self> {
        u64::try_from(v.as_int()?).ok()
    }
}

impl Targetable for bool {
    fn ty() -> Ty {
        Ty::Bool
    }
    fn reflect(&self) -> Value {
        Value::Bool(*self)
    }
    fn reify(v: &Value) -> Option<Self> {
        v.as_bool()
    }
}

impl<T: Targetable> Targetable for Box<T> {
    fn ty() -> Ty {
        T::ty()
    }
    fn reflect(&self) -> Value {
        (**self).reflect()
    }
    fn reify(v: &Value) -> Option<Self> {
        T::reify(v).map(Box::new)
    }
}

impl<T: Targetable> Targetable for Vec<T> {
    fn ty() -> Ty {
        Ty::Seq(Box::new(T::ty()))
    }
    fn reflect(&self) -> Value {
        Value::Seq(self.iter().map(T::reflect).collect())
    }
    fn reify(v: &Value) -> Option<Self> {
        match v {
            Value::Seq(xs) => xs.iter().map(T::reify).collect(),
            _ => None,
        }
    }
}

impl<T: Targetable + Ord> Targetable for BTreeSet<T> {
    fn ty() -> Ty {
        Ty::Set(Box::new(T::ty()))
    }
    fn reflect(&self) -> Value {
        Value::Set(self.iter().map(T::reflect).collect())
    }
    fn reify(v: &Value) -> Option<Self> {
        match v {
            Value::Set(xs) => xs.iter().map(T::reify).collect(),
            _ => None,
        }
    }
}

impl<T: Targetable> Targetable for Option<T> {
    fn ty() -> Ty {
        Ty::Data(DataRef::new::<Option<T>>("Option", || DataDef {
            name: format!("Option<{}>", T::ty().name()),
            ctors: vec![
                CtorDef { name: "None".into(), fields: vec![], recursive: false },
                CtorDef { name: "Some".into(), fields: vec![FieldDef::plain("0", T::ty())], recursive: false },
            ],
        }))
    }
    fn reflect(&self) -> Value {
        let Ty::Data(d) = Self::ty() else { unreachable!("Option is data") };
        match self {
            None => Value::Data { def: d.get(), ctor: 0, fields: vec![] },
            Some(x) => Value::Data { def: d.get(), ctor: 1, fields: vec![x.reflect()] },
        }
    }
    fn reify(v: &Value) -> Option<Self> {
        match v {
            Value::Data { ctor: 0, .. } => Some(None),
            Value::Data { ctor: 1, fields, .. } => Some(Some(T::reify(fields.first()?)?)),
            _ => None,
        }
    }
}

macro_rules! tuple_targetable {
    ($($t:ident $i:tt),+) => {
        impl<$($t: Targetable),+> Targetable for ($($t,)+) {
            fn ty() -> Ty {
                Ty::Data(DataRef::new::<($($t,)+)>("tuple", || DataDef {
                    name: format!("({})", [$($t::ty().name()),+].join(", ")),
                    ctors: vec![CtorDef {
                        name: String::new(),
                        fields: vec![$(FieldDef::plain(stringify!($i), $t::ty())),+],
                        recursive: false,
                    }],
                }))
            }
            fn reflect(&self) -> Value {
                let Ty::Data(d) = Self::ty() else { unreachable!("a tuple is data") };
                Value::Data { def: d.get(), ctor: 0, fields: vec![$(self.$i.reflect()),+] }
            }
            fn reify(v: &Value) -> Option<Self> {
                match v {
                    Value::Data { fields, .. } => Some(($($t::reify(fields.get($i)?)?,)+)),
                    _ => None,
                }
            }
        }
    };
}
tuple_targetable!(A 0);
tuple_targetable!(A 0, B 1);
tuple_targetable!(A 0, B 1, C 2);
tuple_targetable!(A 0, B 1, C 2, D 3);
tuple_targetable!(A 0, B 1, C 2, D 3, E 4);
