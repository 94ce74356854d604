//! speccheck's runnable examples, one per technique, live beside this
//! crate; run them with `cargo run -p speccheck-examples --example <name>`.
//!
//! The buggy programs they (and the tour, the benchmarks and the engines'
//! tests) run on are in `speccheck-fixtures`; this library re-exports them,
//! so code written against `speccheck_examples::…` keeps working.

#![warn(missing_docs)]

#[cfg(unix)]
pub use speccheck_fixtures::sync;
pub use speccheck_fixtures::{contracts, http, interface, intervals, smartcheck};
