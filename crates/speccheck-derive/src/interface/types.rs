//! The description as parsed: its items, and the functions, laws and
//! data types inside them, with every argument's passing mode read off
//! its type.

use syn::{Attribute, Expr, Ident, LitStr, Path, Type};

/// The whole input of `interface! { … }`.
pub struct Input {
    pub items: Vec<Item>,
}

/// One item of the description, as written.
pub enum Item {
    /// `name = "…";`
    Name(LitStr),
    /// `crate = path;`
    Crate(Path),
    /// `abstract Type [as "name"];`
    Abstract(Type, Option<LitStr>),
    /// `ground Type [= generator];`
    Ground(Type, Option<Expr>),
    /// `fresh Type = initial, per_round;`
    Fresh(Type, Expr, Expr),
    /// `pool Type = bound;`
    Pool(Type, Expr),
    /// `enum E { … }` or `struct S { … }`
    Data(DataItem),
    /// `impl Type { fn …; }`
    Impl(Type, Vec<FnItem>),
    /// `fn f(…) -> R = path_or_closure;`
    Fn(FnItem),
    /// `law name(…) [requires …] => …;`
    Law(LawItem),
    /// `compare Candidate with Reference by Trait { fn …; }`
    Compare { candidate: Type, reference: Type, by: Path, fns: Vec<FnItem> },
}

/// An argument of a function or law.
pub struct Param {
    pub name: String,
    pub ident: Option<Ident>,
    pub mode: Mode,
    /// The type with `&`/`&mut` removed (and `Self` substituted).
    pub ty: Type,
    /// `&str` and `&[T]` are lent from a `String` / `Vec<T>`.
    pub view: View,
}

/// How an argument is passed.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Owned,
    Ref,
    Mut,
}

/// How an argument passed by reference is lent.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum View {
    Plain,
    Str,
    Slice,
}

/// A function's signature (and, for a free function, its body).
pub struct FnItem {
    pub attrs: Vec<Attribute>,
    pub name: Ident,
    pub receiver: bool,
    pub params: Vec<Param>,
    pub ret: Option<Type>,
    /// `= expr` for free functions.
    pub body: Option<Expr>,
}

/// A data type's constructors.
pub enum DataKind {
    Enum(Vec<(Ident, syn::Fields)>),
    Struct(syn::Fields),
}

/// A user enum or struct, described by its constructors.
pub struct DataItem {
    pub path: Path,
    pub kind: DataKind,
}

/// A law: its quantified variables, its precondition and its test, each
/// with its source text.
pub struct LawItem {
    pub name: Ident,
    pub params: Vec<Param>,
    pub requires: Option<(Expr, String)>,
    pub body: (Expr, String),
}

/// Reference mode (a `compare` block): the candidate, the reference, and
/// the type `Model<Candidate, Reference>` that stands for `Self` in the
/// description.
pub struct ReferenceModel {
    pub candidate: Type,
    pub reference: Type,
    pub model: Type,
}
