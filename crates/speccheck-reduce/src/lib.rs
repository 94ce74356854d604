//! # speccheck-reduce
//!
//! SmartCheck for speccheck: automatic counterexample reduction and
//! generalization (Lee Pike, "SmartCheck: Automatic and Efficient
//! Counterexample Reduction and Generalization", Haskell Symposium 2014;
//! `../shared/papers/smartcheck-counterexample-reduction.tex.txt`).
//!
//! Everything works on the *span tree* of the failing test case — the
//! tree of sub-values every generator marks as it draws — so it works for
//! derived types and hand-written generators alike: "replace this
//! sub-value by a random smaller one" is a splice that redraws one span,
//! "same type" is the span's [`TypeInfo`](speccheck_core::TypeInfo), and
//! opaque leaves are opaque types and opaque slots.
//!
//! | paper | module |
//! |---|---|
//! | §3 the `SubTypes` class: sub-values, breadth-first indices, size | [`view`] |
//! | §4.1 reduction algorithm (Fig. 3, 4), §4.2.3 `scMaxReduce`/`scMaxSize`/`scMaxDepth` | [`reduce`], [`config`] |
//! | §4.2.1 variant hypothesis, §4.3.1 sub-value hypothesis | [`hypotheses`] |
//! | §4.2.2 opaque types | [`view`] (opaque leaves) |
//! | `pass`/`fail` on a property with a precondition | [`oracle`] |
//! | §5.1 universal sub-value generalization (Fig. 5) | [`generalize::universal`] |
//! | §5.2 existential (constructor) generalization (Fig. 6) | [`generalize::existential`] |
//! | §5.3 shape matching (Fig. 7) | [`shapes`] |
//! | §5.3 precondition strengthening, several bugs in one run | [`multi`] |
//! | §6 printing (Rust syntax, tree format), §9 sharing as `where` bindings | [`display`] |
//! | the runner's explanation step | [`mod@explainer`] ([`SmartCheck`]) |
//!
//! The step runs after the choice-sequence shrinker and alternates with
//! it ([`reduce::reduce_and_shrink`]), so its result is never worse
//! than either alone. The runner's [`ExplainMode`](speccheck_core::ExplainMode)
//! selects the phases: off, reduce only, or reduce and generalize (with the
//! search for further failure classes).

#![warn(missing_docs)]

pub mod config;
pub mod display;
pub mod explainer;
pub mod generalize;
pub mod hypotheses;
pub mod multi;
pub mod oracle;
pub mod origin;
pub mod reduce;
pub mod shapes;
pub mod view;

use std::sync::Arc;

pub use config::{Format, ReduceConfig};
pub use explainer::SmartCheck;
pub use generalize::{Exists, Forall, Generalization};
pub use oracle::Oracle;
pub use origin::Origin;
pub use reduce::{Reduction, Stop};
pub use shapes::{Kernel, Shape};
pub use view::{Position, View};

/// The SmartCheck explanation step with default settings, ready for
/// [`Property::explainer`](speccheck_core::Property::explainer).
pub fn explainer() -> Arc<dyn speccheck_core::runner::Explainer> {
    Arc::new(SmartCheck::default())
}
