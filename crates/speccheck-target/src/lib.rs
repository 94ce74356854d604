//! # speccheck-target
//!
//! Type targeted testing (Target, Seidel, Vazou and Jhala): a function's
//! refinement spec (`requires`, refinements inside its argument types,
//! `ensures`) becomes an SMT query whose models are exactly the valid
//! inputs up to a depth; each is decoded, run, and its result checked.
//!
//! The depth is the core's exhaustive depth ([`depth`]), so the SMT,
//! exhaustive, lazy and random strategies can be compared input for input.

#![warn(missing_docs)]

pub mod depth;
pub mod fun;
mod incremental;
mod judge;
pub mod lazy;
mod producer;
pub mod sample;
pub mod strategy;

pub use fun::{Fun, FunSpec};
pub use strategy::{ArgSpec, SampleInputs, Strategy, apply, apply_default, apply_topped_up};
#[cfg(feature = "z3")]
pub mod smt;
