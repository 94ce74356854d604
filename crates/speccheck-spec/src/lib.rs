//! # speccheck-spec
//!
//! speccheck's one specification language, shared by refinement specs
//! (Target: specs become SMT queries) and contracts (LPtest: specs become
//! run-time checks and generated tests).
//!
//! A spec is a Rust boolean expression over the function's arguments and
//! `result`: integer arithmetic and comparisons (integers are
//! mathematical), `&&` `||` `!` and `==>` (implication), `if … else`,
//! calls to *measures* (`#[measure]` functions, structurally recursive
//! over data: `len`, `height`, `keys`, with extra arguments allowed),
//! finite sets (`empty()`, `singleton(x)`, `union`, `inter`, `diff`,
//! `member`, `subset`), bounded quantifiers
//! (`forall!(i in 0..len(xs) - 1, xs[i] <= xs[i + 1])`,
//! `exists!(k in keys(t), k < 0)`), `==` on data and sequences (whole
//! values), and constructor tests (`matches!(t, Node { left: Leaf, .. })`;
//! measures' arms may nest patterns too).
//!
//! * [`parse`] reads a spec (the macros use it too, so a construct outside
//!   the language is a compile error at that construct);
//! * [`eval`] gives it its concrete meaning over [`Value`]s;
//! * [`Targetable`] describes a Rust type to the language ([`Ty`]) and
//!   converts its values both ways.

#![warn(missing_docs)]

pub mod ast;
pub mod eval;
mod intern;
pub mod measure;
pub mod native;
pub mod parse;
pub mod pattern;
pub mod prelude;
pub mod refined;
pub mod residual;
pub mod sorts;
pub mod targetable;
pub mod ty;
pub mod value;

pub use ast::{BinOp, Callee, Domain, Expr, UnOp};
pub use eval::{Env, EvalError, Hint, Memo, Side};
pub use measure::{Measure, MeasureSource, Measures};
pub use native::NativePredicate;
pub use parse::{Located, ParseError, binary_op, implies_to_rust, parse_str, parse_tokens};
pub use refined::{Violation, admits, admits_remembering, violation};
pub use residual::Residual;
pub use sorts::{Sort, check_sorts};
pub use targetable::Targetable;
pub use ty::{CtorDef, DataDef, DataRef, FieldDef, Ty};
pub use value::Value;

#[doc(hidden)]
pub use inventory;
