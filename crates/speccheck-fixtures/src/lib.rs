//! # speccheck-fixtures
//!
//! Systems with planted bugs, and the reference systems they are mutants
//! of: what speccheck's tour (`speccheck tour`), its `http` and `sync`
//! commands (against the bundled systems), its examples, its benchmarks and
//! its engines' tests run on. Test material, not a library to build on:
//! nothing here is part of any engine's API, and the crate is not
//! published (`publish = false`).
//!
//! | what | for | planted bugs |
//! |---|---|---|
//! | [`smartcheck`]: Div0, a parser, XMonad's StackSet | SmartCheck (reduction, generalization) | one a program, two in the parser |
//! | [`contracts`]: the LPtest paper's quicksort under a contract | contracts (LPtest, Ciao) | equal elements lost |
//! | [`intervals`]: an interval domain whose laws are contracts | contracts, their input strategies | three |
//! | [`interface`]: ArtiCheck's §2 and §5 APIs, a Monolith reference pair | interface fuzzing | one an API |
//! | [`cmp`]: the thesis's integer machines CMP-SET and CMP-RST (§2.2.1), their wire protocol and servers | testing by dualization (speccheck-dual) | [`cmp::CmpBug`] |
//! | [`kv`]: a key-value store whose server chooses version tags, its protocol and servers | testing by dualization | [`kv::KvBug`] |
//! | [`http`]: a reference HTTP/1.1 server | the HTTP tester (speccheck-http; thesis §6.1) | 27 mutants, [`http::HttpBug`] |
//! | [`sync`] (Unix only) and the `refsync` binary: a reference file synchronizer | the file-synchronizer tester (speccheck-sync; thesis §6.2) | 10 mutants, [`sync::SyncBug`] |
//!
//! Each system's own tests (`tests/`) check that the reference passes and
//! that every mutant is caught.

#![warn(missing_docs)]

pub mod cmp;
pub mod contracts;
pub mod http;
pub mod interface;
pub mod intervals;
pub mod kv;
pub mod smartcheck;
#[cfg(unix)]
pub mod sync;
