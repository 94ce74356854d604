//! # speccheck-contract
//!
//! Contracts (LPtest, Ciao's assertions): one spec per function, written
//! in the spec language (`speccheck_spec`) with `#[contract(...)]`, used
//! three ways:
//!
//! * **run-time checks** ([`Contract::enter`], [`Contract::exit`]): on in
//!   tests and debug builds, off in release unless asked for
//!   ([`switch`]), sampled if wanted; a violation names the part, the
//!   function, the inputs and the result;
//! * **unit examples**: concrete calls checked against the whole contract;
//! * **generated tests**: inputs satisfying `requires`, by any strategy.
//!
//! Before testing, [`classify()`] sorts each part into *proved*, *false* or
//! *to test* with the solver (Ciao's `checked` / `false` / `check`), and
//! reports a precondition no input meets.

#![warn(missing_docs)]

pub mod body;
pub mod callees;
pub mod check;
pub mod classify;
pub mod steps;
pub mod switch;

pub use check::{Contract, ContractError, Entered, Part, PartKind};
pub use classify::{Classification, Status, classify};
pub use steps::{steps, tick, tick_n};
