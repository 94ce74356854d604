//! # speccheck-interface
//!
//! Black-box testing of a Rust API by combining its own functions: the
//! tester acts as a client, builds instances of the API's abstract types
//! by calling its functions on instances it already has, checks the
//! API's laws on everything it builds, and reports a counterexample as a
//! minimal client program. This is ArtiCheck (Braibant, Protzenko,
//! Scherer, "Well-typed generic fuzzing for module interfaces";
//! `../shared/papers/articheck-module-interface-fuzzing.txt`), with a
//! reference-model mode after Monolith (Pottier), where every call runs on
//! a candidate and a reference implementation and their observable results
//! must agree.
//!
//! Users reach it through the facade: `speccheck::interface!` and
//! `speccheck::interface::Config` (cargo feature `interface`).
//!
//! ```
//! use speccheck_interface::{interface, Config};
//!
//! #[derive(Clone, Debug, PartialEq, Eq, Hash)]
//! pub struct SortedList(Vec<i32>);
//!
//! impl SortedList {
//!     pub fn empty() -> Self { SortedList(Vec::new()) }
//!     pub fn add(&self, x: i32) -> Self {
//!         let mut v = self.0.clone();
//!         let at = v.iter().position(|&y| y >= x).unwrap_or(v.len());
//!         v.insert(at, x);
//!         SortedList(v)
//!     }
//!     pub fn is_sorted(&self) -> bool { self.0.windows(2).all(|w| w[0] <= w[1]) }
//! }
//!
//! let api = interface! {
//!     name = "sorted list";
//!     abstract SortedList;
//!     ground i32 = speccheck_interface::gens::ints(-20..=20);
//!     impl SortedList {
//!         fn empty() -> Self;
//!         fn add(&self, x: i32) -> Self;
//!     }
//!     law sorted(l: &SortedList) => l.is_sorted();
//! }
//! .unwrap();
//! let report = api.check(Config { required: 500, ..Config::seeded(1) });
//! assert!(report.passed(), "{report}");
//! ```
//!
//! | paper | module |
//! |---|---|
//! | §2 signature descriptions; §3.1 negative (functions) and positive types (atoms, products, sums, bijections) | [`describe`], [`describe::pos`] |
//! | §3.1 `destruct` (results feed the pools of their parts) and `produce` (arguments from the pools) | [`engine`] (`destruct`), [`space`] |
//! | §3.2 sets of instances, sampling sets: fixed-size hash buckets, reservoir sampling, plain sets | [`pool`] |
//! | §3.2 not holding products in memory: symbolic products iterated lazily | [`space`] |
//! | §3.3 instance generation as a fixpoint of bounded pools | [`engine`] |
//! | §4 laws `∀x̄. P(x̄) ⇒ T(x̄)`, aborted tests | [`describe::Law`], [`describe::LawVerdict`] |
//! | §2, §5 counterexamples as client programs, from provenance | [`provenance`], [`program`] |
//! | (reduction of the program, with the core shrinker) | [`reduce`] |
//! | Monolith: candidate vs reference, allowed panics, nondeterminism | [`reference`](mod@reference) |
//!
//! The §5 examples — sorted lists, AVL trees, red-black trees with
//! zippers, the OCaml `Set` bug, BDDs — and a Monolith-style reference
//! pair, each with a planted bug, are test fixtures rather than part of
//! this crate: they live in the `interface` module of the
//! `speccheck-examples` package, which the tour, this crate's tests and
//! the benchmark run.
//!
//! `&mut self` methods are supported by cloning: the instance in the pool
//! is never changed; the call works on a clone, and the clone after the
//! call is a new instance (printed as `let mut s3 = s1.clone(); s3.push(4);`).
//! A function that panics is a counterexample unless the description
//! allows its panics; one that hangs past [`Config::call_timeout`] is a
//! counterexample too (its thread is abandoned).

#![warn(missing_docs)]

extern crate self as speccheck_interface;

pub mod config;
pub mod describe;
pub mod engine;
pub mod memory;
pub mod panics;
pub mod pool;
pub mod program;
pub mod provenance;
pub mod reduce;
pub mod reference;
pub mod report;
mod run;
pub mod space;

pub use config::Config;
pub use describe::{
    AbstractType, Api, Args, Builder, CallError, CallStyle, DescribeError, Function, GroundType, Law, LawVerdict, Mode,
    Param, Pos,
};
pub use pool::ContainerKind;
pub use program::Program;
pub use reference::Model;
pub use report::{Counterexample, InterfaceReport, Stats, StopReason, Verdict};
/// Generators for ground types (the core's), for descriptions written against this crate.
pub use speccheck_core::gens;
/// Describes an API: its abstract and ground types, data types, functions
/// and laws, or (reference mode) a candidate and a reference implementing
/// the same trait. Expands into [`Builder`] calls and evaluates to
/// `Result<Api, DescribeError>`. See the crate documentation and
/// `speccheck_derive::interface` for the syntax.
pub use speccheck_derive::interface;

// The description's former homes, kept so that paths written against
// them still resolve: everything is in `describe` now.
#[doc(hidden)]
pub use describe::pos;
#[doc(hidden)]
pub mod args {
    //! Moved to [`describe`](crate::describe).
    pub use crate::describe::Args;
}
#[doc(hidden)]
pub mod signature {
    //! Moved to [`describe`](crate::describe).
    pub use crate::describe::{
        Api, Builder, CallError, CallFn, CallStyle, DescribeError, Function, Law, LawFn, LawVerdict, Mode, Param,
    };
}

#[doc(hidden)]
pub mod __rt {
    //! Used by the `interface!` macro's expansion; not a public API.
    pub use crate::panics::capture;
    pub use crate::reference::{same, same_len, same_variant, settle, side, validate};
    pub use speccheck_core;
}
