//! Bounds on reduction and generalization: SmartCheck's `ScArgs`
//! (§4.2.3 and §5), with the paper's defaults where it gives them.

use std::time::Duration;

/// How a generalized formula is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Rust syntax, or the tree format when a value is long.
    Auto,
    /// Always Rust syntax (broken over lines when long).
    Rust,
    /// Always SmartCheck's indented tree format.
    Tree,
}

/// Settings of the SmartCheck explanation step.
#[derive(Clone, Debug)]
pub struct ReduceConfig {
    /// `scMaxReduce`: random smaller replacements tried per sub-value
    /// before moving on.
    pub max_reduce: u32,
    /// Tries per constructor a replacement could save: a sub-value that
    /// can only shrink by `k` constructors gets `k` times this many tries
    /// (at most `max_reduce`).
    pub tries_per_constructor: u32,
    /// Tries per constructor when the choice-sequence shrinker has already
    /// run (it tried the simplest replacement of every sub-value, every
    /// deletion and every promotion): random replacements are then a
    /// supplement, not the main search.
    pub tries_per_constructor_after_shrink: u32,
    /// `max_reduce` when the shrinker has already run.
    pub max_reduce_after_shrink: u32,
    /// `scMaxSize`: a replacement has fewer constructors than this and than
    /// the sub-value it replaces.
    pub max_size: usize,
    /// `scMaxDepth`: how many levels below each input reduction and
    /// generalization descend (`None`: all the way to opaque leaves).
    pub max_depth: Option<usize>,
    /// The sub-value hypothesis (§4.3.1): try each sub-value of the input's
    /// own type in place of the whole input.
    pub subvalues: bool,
    /// Rounds of reduction alternated with the choice-sequence shrinker
    /// (each round runs only if the previous one improved the case).
    pub rounds: u32,
    /// Universal generalization (§5.1).
    pub forall: bool,
    /// `scMaxForall`: fresh values drawn per position.
    pub max_forall: u32,
    /// `scMinForall`: how many of them must pass the precondition (and all
    /// of those fail) to generalize the position.
    pub min_forall: u32,
    /// Existential (constructor) generalization (§5.2).
    pub exists: bool,
    /// Fresh values tried per constructor when looking for a failing one.
    pub max_exists: u32,
    /// Precondition strengthening (§5.3): after the first failure class,
    /// keep testing inputs that match no known shape, to report every
    /// distinct class in one run.
    pub multi: bool,
    /// Inputs generated while looking for further classes.
    pub multi_cases: u64,
    /// Most failure classes reported (the first included).
    pub max_classes: usize,
    /// Most variants of known classes (the same kernel in another context,
    /// see [`crate::shapes::Kernel`]) reduced before the search stops.
    pub max_variants: u64,
    /// Most test runs for the whole explanation.
    pub max_tests: u64,
    /// Longest time for the whole explanation.
    pub max_time: Duration,
    /// How formulas are printed.
    pub format: Format,
    /// Show repeated sub-terms once, as `where` bindings.
    pub sharing: bool,
}

impl Default for ReduceConfig {
    fn default() -> Self {
        ReduceConfig {
            max_reduce: 100,
            tries_per_constructor: 10,
            tries_per_constructor_after_shrink: 1,
            max_reduce_after_shrink: 10,
            max_size: 10,
            max_depth: None,
            subvalues: true,
            rounds: 4,
            forall: true,
            max_forall: 30,
            min_forall: 20,
            exists: true,
            max_exists: 12,
            multi: true,
            multi_cases: 1000,
            max_classes: 5,
            max_variants: 20,
            max_tests: 200_000,
            max_time: Duration::from_secs(10),
            format: Format::Auto,
            sharing: true,
        }
    }
}
