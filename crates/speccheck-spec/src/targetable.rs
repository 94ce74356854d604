//! [`Targetable`]: how a Rust type describes itself to the spec language
//! (Target's class of the same name), reflects its values into the
//! language and rebuilds them from it; implementations for the std types.

use std::collections::BTreeSet;

use crate::ty::{CtorDef, DataDef, DataRef, FieldDef, Ty};
use crate::value::Value;

impl Ty {
    /// The type of `T`.
    pub fn of<T: Targetable>() -> Ty {
        T::ty()
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
    /// True for a generated function (`speccheck_target::Fun`): its value
    /// is a variant, so enumerating the values enumerates a few functions,
    /// not every function, and the report says so.
    const FUNCTION: bool = false;
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
            None => Value::Data { def: d.get(), ctor: 0, fields: vec![].into() },
            Some(x) => Value::Data { def: d.get(), ctor: 1, fields: vec![x.reflect()].into() },
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
                Value::Data { def: d.get(), ctor: 0, fields: vec![$(self.$i.reflect()),+].into() }
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
