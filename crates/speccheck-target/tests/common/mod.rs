//! Helpers shared by the agreement tests.

use std::collections::BTreeSet;

use speccheck_spec::{Measures, Value, parse_str};

/// The first argument of each input a strategy (`by`) yields, checked to
/// come once each.
pub fn distinct(by: &str, inputs: impl Iterator<Item = Result<Vec<Value>, String>>) -> BTreeSet<Value> {
    let mut out = BTreeSet::new();
    for v in inputs {
        let v = v.unwrap().remove(0);
        assert!(out.insert(v.clone()), "{by}: {v} came twice");
    }
    out
}

/// The values the evaluator admits as the argument `x` under `spec` (and
/// the refinements inside their type).
pub fn admitted(values: impl IntoIterator<Item = Value>, spec: Option<&str>, m: &Measures) -> BTreeSet<Value> {
    let requires: Vec<_> = spec.map(|s| (s.to_string(), parse_str(s).unwrap())).into_iter().collect();
    values
        .into_iter()
        .filter(|v| speccheck_spec::admits(&[("x", v.clone())], &requires, m).unwrap().is_none())
        .collect()
}
