//! # speccheck
//!
//! Property-based testing for Rust that turns specifications into tests
//! and failures into explanations.
//!
//! ```
//! use speccheck::prelude::*;
//!
//! #[derive(Arbitrary, Debug, Clone, PartialEq)]
//! enum Expr {
//!     Num(i64),
//!     Add(Box<Expr>, Box<Expr>),
//! }
//!
//! fn eval(e: &Expr) -> i64 {
//!     match e {
//!         Expr::Num(n) => *n,
//!         Expr::Add(a, b) => eval(a).wrapping_add(eval(b)),
//!     }
//! }
//!
//! // In a test module this would be `#[property] fn eval_is_total(e: Expr) { ... }`.
//! speccheck::check(any::<Expr>(), |e: Expr| {
//!     let _ = eval(&e);
//! });
//! ```
//!
//! This crate is the front door: it re-exports the engine
//! ([`speccheck_core`]), the macros ([`macro@property`],
//! [`derive@Arbitrary`], [`interface!`]), the techniques ([`reduce`],
//! [`mod@interface`], [`dual`] with its protocols [`http`] and
//! [`mod@sync`]) and installs the default explanation step.

#![warn(missing_docs)]

pub use speccheck_core::{
    Arbitrary, BoxedGenerator, CharClass, Choice, ChoiceKind, ChoiceSequence, Config, EncodeError, Encoder,
    ExplainMode, FailureInfo, FailureKind, Fields, FloatSpec, Fresh, Generator, Invalid, Outcome, Profile, Property,
    RunReport, RunVerdict, Span, SpanKind, SpanTree, Tail, Term, TestCase, TestResult, TreeView, TypeInfo, Verbosity,
    Verdict, any, assume, collect, cover, decode_value, encode_value, label, note, reject, target,
};
pub use speccheck_core::{case, database, enumerate::enumerate, gens, runner, shrink, store, term, test_case};
pub use speccheck_derive::{Arbitrary, Targetable, contract, contracts, measure, predicate, property};
/// Testing by dualization: symbolic protocol models test live systems
/// (cargo feature `dual`).
#[cfg(feature = "dual")]
pub use speccheck_dual as dual;
/// HTTP/1.1 for the dualization tester: a model of an origin server, its
/// codec and heuristics (cargo feature `dual`).
#[cfg(feature = "dual")]
pub use speccheck_http as http;
/// Interface fuzzing (ArtiCheck, Monolith): black-box testing of an API
/// by combining its own functions. Describe the API with [`interface!`]
/// (cargo feature `interface`).
#[cfg(feature = "interface")]
pub use speccheck_interface as interface;
/// Counterexample reduction and generalization (SmartCheck): the default
/// explanation step (cargo feature `reduce`, on by default).
#[cfg(feature = "reduce")]
pub use speccheck_reduce as reduce;
/// The specification language shared by refinement specs and contracts:
/// Rust-syntax specs, measures, sets, bounded quantifiers (cargo feature
/// `target`).
#[cfg(feature = "target")]
pub use speccheck_spec as spec;
/// File synchronizers for the dualization tester: a model of two replicas
/// and reconciliation, a sandboxed local session (cargo feature `dual`).
#[cfg(feature = "dual")]
pub use speccheck_sync as sync;
/// Type targeted testing (Target): refinement specs solved by SMT, with
/// exhaustive, lazy and random baselines (cargo feature `target`; the SMT
/// strategy needs feature `smt` and the system's libz3).
#[cfg(feature = "target")]
pub use speccheck_target as target;

#[doc(hidden)]
#[cfg(feature = "interface")]
pub use speccheck_derive::interface as __interface;

/// Describes an API for interface fuzzing; see [`speccheck_interface`] and
/// the `interface!` macro of `speccheck-derive` for the syntax (cargo
/// feature `interface`).
#[cfg(feature = "interface")]
#[macro_export]
macro_rules! interface {
    ($($body:tt)*) => {
        $crate::__interface! { crate = $crate::interface; $($body)* }
    };
}

#[cfg(feature = "fuzz")]
pub mod fuzz;
/// A `#[property]` as a libFuzzer target: `speccheck::fuzz_target!(my_crate::p);`
/// in a `cargo fuzz` target (cargo feature `fuzz`; see [`fuzz`]).
#[cfg(feature = "fuzz")]
pub use speccheck_derive::fuzz_target;

/// What most test files need.
pub mod prelude {
    pub use crate::gens::{self, Generator};
    pub use crate::{Arbitrary, TestCase, TestResult, TreeView, any, assume, collect, label, property, target};
}

/// Checks `body` on values of `generator` with the default settings and
/// explanation step, panicking with the report if it fails.
#[track_caller]
pub fn check<G, V>(generator: G, body: impl Fn(G::Value) -> V + Send + Sync + 'static)
where
    G: Generator + 'static,
    G::Value: std::fmt::Debug + 'static,
    V: Verdict,
{
    Property::new(generator).explainer(__private::default_explainer()).check(body)
}

/// Contracts (LPtest / Ciao): the run-time side of `#[contract]` — the
/// step counter a `cost(...)` part bounds ([`tick`](contracts::tick)),
/// the switch that turns checks on and off, static classification (cargo
/// feature `contracts`).
#[cfg(feature = "contracts")]
pub use speccheck_contract as contracts;

#[doc(hidden)]
pub mod __private {
    //! Used by the macros' expansions; not a public API.

    use std::fmt::Debug;
    use std::path::PathBuf;
    use std::sync::Arc;

    #[cfg(feature = "contracts")]
    pub use speccheck_contract as contract;
    pub use speccheck_core as core;
    use speccheck_core::runner::Explainer;
    use speccheck_core::{ExplainMode, Term, TreeView};
    #[cfg(feature = "target")]
    pub use speccheck_spec as spec;
    #[cfg(feature = "target")]
    pub use speccheck_target as target;

    /// Picks the tree view's printing when the type has one, `Debug`
    /// otherwise, and the type's name for a type with neither (autoref
    /// specialization: called as `(&&Show(v)).term()`), so an input that
    /// cannot be printed never stops a property from compiling.
    pub struct Show<'a, T>(pub &'a T);

    /// Printing through [`TreeView`].
    pub trait ViaTree {
        /// The value as a term.
        fn term(&self) -> Term;
    }

    impl<T: TreeView> ViaTree for &Show<'_, T> {
        fn term(&self) -> Term {
            self.0.to_term()
        }
    }

    /// Printing through `Debug`.
    pub trait ViaDebug {
        /// The value as a term.
        fn term(&self) -> Term;
    }

    impl<T: Debug> ViaDebug for &&Show<'_, T> {
        fn term(&self) -> Term {
            Term::debug(self.0)
        }
    }

    /// A value that has neither: shown by its type.
    pub trait ViaName {
        /// The type's name, as a term.
        fn term(&self) -> Term;
    }

    impl<T> ViaName for Show<'_, T> {
        fn term(&self) -> Term {
            Term::Atom(format!("<a {} (no Debug)>", std::any::type_name::<T>()))
        }
    }

    /// The failure database directory of a crate.
    pub fn database_dir(manifest_dir: &str) -> PathBuf {
        speccheck_core::database::FailureDatabase::default_dir(std::path::Path::new(manifest_dir))
    }

    pub use speccheck_core::rerun::{rerun_command, test_path, test_target};

    /// Parses `explain = "..."`.
    pub fn explain_mode(s: &str) -> ExplainMode {
        match s {
            "off" => ExplainMode::Off,
            "reduce" => ExplainMode::Reduce,
            "generalize" => ExplainMode::Generalize,
            other => panic!("explain = {other:?}: expected \"off\", \"reduce\" or \"generalize\""),
        }
    }

    /// The explanation step installed by default: SmartCheck reduction
    /// and generalization (`speccheck_reduce`), when the `reduce` feature
    /// is on; none otherwise.
    pub fn default_explainer() -> Option<Arc<dyn Explainer>> {
        #[cfg(feature = "reduce")]
        {
            Some(speccheck_reduce::explainer())
        }
        #[cfg(not(feature = "reduce"))]
        {
            None
        }
    }
}
