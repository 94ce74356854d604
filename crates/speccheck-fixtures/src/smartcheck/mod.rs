//! SmartCheck's benchmark programs (Pike 2014), written in Rust from the
//! paper's descriptions: each a buggy function and the property it
//! breaks. The example `smartcheck_reduce`, the tour and the benchmark
//! (`speccheck-bench --bin smartcheck`) all test these same models.
//!
//! | module | paper | planted bug |
//! |---|---|---|
//! | [`div0`] | §4.3.1 | the "no division by zero" precondition only looks for a literal `0` divisor |
//! | [`parser`] | §7.3 `Parser` | the parser swaps the arguments of `Or` (and, optionally, reads `Mul` as `Div`) |
//! | [`stackset`] | §7.1 XMonad | `delete` keeps the windows it should remove (`== w` for `/= w`) |

pub mod div0;
pub mod parser;
pub mod stackset;
