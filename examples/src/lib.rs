//! speccheck's bundled example code: the buggy programs the tour, the
//! examples and the benchmarks test. The runnable examples live beside
//! this crate; run them with
//! `cargo run -p speccheck-examples --example <name>`.
//!
//! [`http`] is the HTTP/1.1 server — the reference and its mutants — that
//! the dual HTTP tester is evaluated on; [`sync`] (Unix only) is the file
//! synchronizer — the reference and its mutants — behind the `refsync`
//! binary, for testers of programs that change the file system;
//! [`smartcheck`] holds SmartCheck's benchmark programs, and
//! [`interface`] the APIs with planted bugs (ArtiCheck §2, §5, and a
//! Monolith-style reference pair) that interface fuzzing is shown and
//! measured on; [`contracts`] the LPtest paper's quicksort under a
//! contract.

#![warn(missing_docs)]

pub mod contracts;
pub mod http;
pub mod interface;
pub mod intervals;
pub mod smartcheck;
#[cfg(unix)]
pub mod sync;
