//! Describing an API (ArtiCheck §2, §3.1): its types, its functions (the
//! *negative* types: computations from arguments to a result) and its
//! laws.
//!
//! A [`Builder`] collects declarations; [`Builder::build`] resolves every
//! atom against them and checks that each abstract type can be built by
//! combining the API's functions, starting from ground values (a type no
//! function can construct is an error naming it). The `interface!` macro
//! expands into these calls.
//!
//! One file per part, each importing only the parts above it:
//!
//! * `value` — [`Dyn`], a value of any type as the engine moves it.
//! * `pooled` — the types that have pools, abstract or ground: how their
//!   values are cloned, hashed, compared and drawn.
//! * [`pos`] — positive types: what a function takes and returns, as
//!   declared (atoms, products and sums, sequences).
//! * `args` — [`Args`], the arguments of one call as the description's
//!   closures see them.
//! * `function`, `law` — a [`Function`] and a [`Law`] as declared.
//! * `shape` — positive types resolved against the declarations, their
//!   atoms as pools.
//! * `api` — [`Api`], the resolved description the engine tests.
//! * `build` — the [`Builder`]: declarations in, an [`Api`] or a
//!   [`DescribeError`] out.

mod api;
mod args;
mod build;
mod function;
mod law;
mod pooled;
pub mod pos;
mod shape;
mod value;

pub use api::Api;
pub use args::Args;
pub use build::{Builder, DescribeError};
pub use function::{CallError, CallFn, CallStyle, Function, Mode, Param};
pub use law::{Law, LawFn, LawVerdict};
pub use pooled::{AbstractType, GroundType};
pub use pos::Pos;
pub(crate) use shape::Shape;
pub use value::Dyn;
pub(crate) use value::hash_one;
