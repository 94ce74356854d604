//! Predicates written in Rust (`#[predicate]`): specs may call them like
//! measures. They run on complete values only, so they check inputs and
//! results and filter generated ones, but cannot guide a search the way a
//! measure does (a partial value is undecided, and the solver cannot see
//! inside them). A predicate written once is the run-time check of a
//! contract and the filter of its generated tests.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::value::Value;

/// A Rust predicate, registered by `#[predicate]`.
#[derive(Debug)]
pub struct NativePredicate {
    /// The function's name.
    pub name: &'static str,
    /// `module_path!()` where it is defined.
    pub module: &'static str,
    /// Its number of parameters.
    pub arity: usize,
    /// Converts the values to the parameters' types and calls it (`None`
    /// when a value is not of its type).
    pub call: fn(&[Value]) -> Option<bool>,
}

inventory::collect!(NativePredicate);

/// The predicate registered under `name` (the first, when several modules
/// define one).
pub fn native_predicate(name: &str) -> Option<&'static NativePredicate> {
    static BY_NAME: OnceLock<HashMap<&'static str, &'static NativePredicate>> = OnceLock::new();
    BY_NAME
        .get_or_init(|| {
            let mut m = HashMap::new();
            for p in inventory::iter::<NativePredicate> {
                m.entry(p.name).or_insert(p);
            }
            m
        })
        .get(name)
        .copied()
}
