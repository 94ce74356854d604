//! # speccheck-core
//!
//! The engine every speccheck technique stands on.
//!
//! * A test case is a sequence of **choices** ([`choice`]); generators
//!   ([`gens`], [`Arbitrary`]) only ever draw choices from a [`TestCase`],
//!   so replay, persistence, shrinking and exhaustive enumeration work for
//!   every generator (the Hypothesis/minithesis design).
//! * Generators mark **spans** ([`span`]): the choices that built one
//!   sub-value, labelled with its type and constructor. The span tree is
//!   SmartCheck's tree of sub-values ("Reduction and generalization of
//!   counterexamples", §3), so the reducer in `speccheck-reduce` works on
//!   any generator. [`tree::TreeView`] gives the same view of values that
//!   did not come from choices, and [`Encoder`] turns such values back into
//!   choices.
//! * The **runner** ([`runner`]) owns seeds, budgets, timeouts,
//!   statistics, persistence ([`database`]) and the report; **shrinking**
//!   ([`shrink`]) works on choices; an explanation step plugs in through
//!   [`runner::Explainer`].
//!
//! Users depend on the `speccheck` facade crate, which re-exports this one.

#![warn(missing_docs)]

pub mod arbitrary;
pub mod bytes;
pub mod case;
pub mod choice;
pub mod database;
pub mod draw;
pub mod encode;
pub mod enumerate;
pub mod gens;
pub mod human;
pub mod journal;
pub mod observe;
pub mod rerun;
pub mod runner;
pub mod seed;
pub mod shrink;
pub mod span;
pub mod store;
pub mod term;
pub mod test_case;
pub mod tree;
pub mod watch;

pub use arbitrary::{Arbitrary, decode_value, encode_value};
pub use case::{
    FailureInfo, FailureKind, Outcome, TestResult, Verdict, assume, collect, cover, label, note, reject, target,
};
pub use choice::{Choice, ChoiceKind, ChoiceSequence, ReplayTag, shortlex, shortlex_le};
pub use draw::char::CharClass;
pub use draw::float::FloatSpec;
pub use encode::{EncodeError, Encoder};
pub use gens::{BoxedGenerator, Generator, any};
pub use runner::{
    Config, ExplainMode, InputSource, Profile, Property, RunReport, RunVerdict, SourceStep, Verbosity, check,
};
pub use span::{Span, SpanKind, SpanTree, TypeInfo};
pub use term::{Fields, Term};
pub use test_case::{Fresh, Invalid, Seen, Tail, TestCase};
pub use tree::TreeView;
