//! Reference-model mode (Monolith): every call runs on a candidate and on
//! a reference implementation of the same API, and what the client can
//! observe must agree.
//!
//! An instance of an abstract type is a [`Model`]: the candidate's value
//! and the reference's value, built by the same calls. A function runs on
//! both sides ([`side`] catches each side's panic), then [`settle`]
//! compares: results of ground types must be equal (`PartialEq`), results
//! of the abstract type become a new pair, `Option`/`Result`/tuples/`Vec`
//! are compared structurally ([`same_variant`], [`same_len`]); a panic on
//! one side only is a disagreement unless the description allows the
//! candidate's panics; panics on both sides refuse the call.
//! A nondeterministic operation is not compared: the reference validates
//! the candidate's result instead ([`validate`]).
//!
//! The `interface!` macro writes this glue from a trait both
//! implementations implement.

use std::fmt::Debug;

use crate::describe::CallError;
use crate::describe::Dyn;
use crate::panics::{Caught, capture};

/// An instance of an abstract type in reference mode: the same history
/// applied to the candidate and to the reference.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Model<C, R> {
    /// The candidate's value.
    pub candidate: C,
    /// The reference's value.
    pub reference: R,
}

impl<C, R> Model<C, R> {
    /// A pair.
    pub fn new(candidate: C, reference: R) -> Self {
        Model { candidate, reference }
    }
}

/// Runs one side of a call, catching its panic.
pub fn side<T>(f: impl FnOnce() -> T) -> Result<T, Caught> {
    capture(f)
}

/// Why two results disagree.
pub type Mismatch = String;

/// Compares the two sides of a call: both panicked → refused; one
/// panicked → a disagreement (unless `panics_allowed` and it is the
/// candidate); both returned → `zip` pairs or compares the results.
pub fn settle<C, R, T: 'static>(
    candidate: Result<C, Caught>,
    reference: Result<R, Caught>,
    panics_allowed: bool,
    reference_name: &str,
    zip: impl FnOnce(C, R) -> Result<T, Mismatch>,
) -> Result<Dyn, CallError>
where
    C: Debug,
    R: Debug,
{
    match (candidate, reference) {
        (Ok(c), Ok(r)) => zip(c, r).map(|v| Box::new(v) as Dyn).map_err(CallError::Mismatch),
        (Err(_), Err(_)) => Err(CallError::Refused),
        (Err(_), Ok(_)) if panics_allowed => Err(CallError::Refused),
        (Err(c), Ok(r)) => Err(CallError::Mismatch(format!("{c}, but {reference_name} returns {r:?}"))),
        (Ok(c), Err(r)) => Err(CallError::Mismatch(format!(
            "returns {c:?}, but {reference_name} rejects the call ({r}): the candidate should panic too"
        ))),
    }
}

/// Results of a ground type must be equal.
pub fn same<T: PartialEq + Debug>(candidate: T, reference: T, reference_name: &str) -> Result<T, Mismatch> {
    if candidate == reference {
        Ok(candidate)
    } else {
        Err(format!("returns {candidate:?}, but {reference_name} returns {reference:?}"))
    }
}

/// Two results must be the same variant (for sums holding abstract
/// values, compared part by part afterwards).
pub fn same_variant<C: Debug, R: Debug>(c: &C, r: &R, same: bool, reference_name: &str) -> Result<(), Mismatch> {
    if same { Ok(()) } else { Err(format!("returns {c:?}, but {reference_name} returns {r:?}")) }
}

/// Two containers must have the same length.
pub fn same_len<C: Debug, R: Debug>(c: &[C], r: &[R], reference_name: &str) -> Result<(), Mismatch> {
    if c.len() == r.len() {
        Ok(())
    } else {
        Err(format!("returns {} elements ({c:?}), but {reference_name} returns {} ({r:?})", c.len(), r.len()))
    }
}

/// A nondeterministic result: accepted when the reference's validator
/// says so.
pub fn validate<T: Debug>(candidate: T, ok: bool, reference_name: &str) -> Result<T, Mismatch> {
    if ok { Ok(candidate) } else { Err(format!("returns {candidate:?}, which {reference_name} does not allow")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settling_compares_results_and_panics() {
        let ok = settle(Ok(1), Ok(1), false, "ref", |c, r| same(c, r, "ref"));
        assert_eq!(*ok.unwrap().downcast::<i32>().unwrap(), 1);
        let bad = settle(Ok(1), Ok(2), false, "ref", |c, r| same(c, r, "ref"));
        assert_eq!(bad.unwrap_err(), CallError::Mismatch("returns 1, but ref returns 2".into()));
        let both: Result<i32, Caught> = side(|| panic!("x"));
        let both2: Result<i32, Caught> = side(|| panic!("y"));
        assert_eq!(settle(both, both2, false, "ref", |c, r| same(c, r, "ref")).unwrap_err(), CallError::Refused);
        let one: Result<i32, Caught> = side(|| panic!("empty"));
        let e = settle(one.clone(), Ok(3), false, "ref", |c, r| same(c, r, "ref")).unwrap_err();
        assert!(matches!(e, CallError::Mismatch(m) if m.contains("empty") && m.contains("returns 3")));
        assert_eq!(settle(one, Ok(3), true, "ref", |c, r| same(c, r, "ref")).unwrap_err(), CallError::Refused);
    }
}
