//! Values as the spec language sees them: integers are mathematical,
//! data is a constructor with fields, collections are sequences and sets.

use std::cmp::Ordering;
use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

use crate::ty::DataDef;

/// A value of the spec language (what a Rust value reflects to).
#[derive(Clone, Debug)]
pub enum Value {
    /// An integer of any width.
    Int(i128),
    /// A boolean.
    Bool(bool),
    /// A constructor of a data type, with its fields in order.
    Data {
        /// The type.
        def: &'static DataDef,
        /// Index of the constructor in `def.ctors`.
        ctor: usize,
        /// The fields (shared: a value is cloned on every read by the
        /// evaluator, and a tree's clone is then one count, not a copy).
        fields: Arc<[Value]>,
    },
    /// A sequence (`Vec`, slices).
    Seq(Vec<Value>),
    /// A finite set.
    Set(BTreeSet<Value>),
    /// A part of a partial value not chosen yet (the lazy strategy builds
    /// inputs from the parts a spec demands). Evaluating anything that
    /// needs it fails with [`EvalError::Hole`](crate::EvalError::Hole).
    Hole(u32),
}

impl Value {
    fn rank(&self) -> u8 {
        match self {
            Value::Int(_) => 0,
            Value::Bool(_) => 1,
            Value::Data { .. } => 2,
            Value::Seq(_) => 3,
            Value::Set(_) => 4,
            Value::Hole(_) => 5,
        }
    }

    /// The integer, if it is one.
    pub fn as_int(&self) -> Option<i128> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The boolean, if it is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The first hole in the value (depth first), if it is partial.
    pub fn first_hole(&self) -> Option<u32> {
        match self {
            Value::Int(_) | Value::Bool(_) => None,
            Value::Hole(h) => Some(*h),
            Value::Data { fields, .. } => fields.iter().find_map(Value::first_hole),
            Value::Seq(xs) => xs.iter().find_map(Value::first_hole),
            Value::Set(s) => s.iter().find_map(Value::first_hole),
        }
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Value {}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Value::Int(a), Value::Int(b)) => a.cmp(b),
            (Value::Bool(a), Value::Bool(b)) => a.cmp(b),
            (Value::Data { def: d1, ctor: c1, fields: f1 }, Value::Data { def: d2, ctor: c2, fields: f2 }) => {
                // Shared parts are equal without a walk (a measure's loop
                // check compares its arguments on every call).
                let same_type = std::ptr::eq(*d1, *d2);
                if same_type && c1 == c2 && Arc::ptr_eq(f1, f2) {
                    return Ordering::Equal;
                }
                let names = if same_type { Ordering::Equal } else { d1.name.cmp(&d2.name) };
                names.then(c1.cmp(c2)).then_with(|| f1.cmp(f2))
            }
            (Value::Seq(a), Value::Seq(b)) => a.cmp(b),
            (Value::Set(a), Value::Set(b)) => a.cmp(b),
            (Value::Hole(a), Value::Hole(b)) => a.cmp(b),
            (a, b) => a.rank().cmp(&b.rank()),
        }
    }
}

impl std::hash::Hash for Value {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        match self {
            Value::Int(i) => i.hash(state),
            Value::Bool(b) => b.hash(state),
            Value::Data { def, ctor, fields } => {
                def.name.hash(state);
                ctor.hash(state);
                fields.hash(state);
            }
            Value::Seq(v) => v.hash(state),
            Value::Set(s) => s.hash(state),
            Value::Hole(h) => h.hash(state),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Data { def, ctor, fields } => {
                let c = &def.ctors[*ctor];
                write!(f, "{}", c.name)?;
                if fields.is_empty() {
                    return Ok(());
                }
                let named = c.fields.iter().any(|fd| fd.name.parse::<usize>().is_err());
                if named {
                    write!(f, " {{ ")?;
                    for (i, (fd, v)) in c.fields.iter().zip(fields.iter()).enumerate() {
                        write!(f, "{}{}: {v}", if i > 0 { ", " } else { "" }, fd.name)?;
                    }
                    write!(f, " }}")
                } else {
                    write!(f, "(")?;
                    for (i, v) in fields.iter().enumerate() {
                        write!(f, "{}{v}", if i > 0 { ", " } else { "" })?;
                    }
                    write!(f, ")")
                }
            }
            Value::Seq(v) => {
                write!(f, "[")?;
                for (i, x) in v.iter().enumerate() {
                    write!(f, "{}{x}", if i > 0 { ", " } else { "" })?;
                }
                write!(f, "]")
            }
            Value::Hole(_) => write!(f, "_"),
            Value::Set(s) => {
                write!(f, "{{")?;
                for (i, x) in s.iter().enumerate() {
                    write!(f, "{}{x}", if i > 0 { ", " } else { "" })?;
                }
                write!(f, "}}")
            }
        }
    }
}
