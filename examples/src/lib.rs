//! speccheck's bundled example code: the buggy programs the tour, the
//! examples and the benchmarks test. The runnable examples live beside
//! this crate; run them with
//! `cargo run -p speccheck-examples --example <name>`.

#![warn(missing_docs)]

pub mod smartcheck;
