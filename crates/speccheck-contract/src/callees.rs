//! Contracts the static classifier can assume at a call: every contracted
//! function registers its contract under its path, and a caller's body
//! summary names the functions it calls by path. When the classifier
//! reads a caller's body, a call to a registered function stands for an
//! unknown result that meets the callee's postconditions whenever its
//! precondition holds (Ciao's use of the callees' *success* assertions),
//! and the call itself is checked against the callee's precondition (its
//! *calls* assertion).
//!
//! Paths are matched as rustc prints a function's path
//! (`type_name_of_val`), against the call's path resolved from the
//! caller's module. A call that matches nothing, or more than one
//! registration, is an unknown value: assuming nothing is always sound.

use crate::check::Contract;

/// A contracted function, registered by `#[contract]`.
pub struct Registered {
    /// The function's path, as rustc prints it (`crate::m::g`,
    /// `crate::m::Counter::incr`).
    pub path: fn() -> &'static str,
    /// Builds its contract.
    pub contract: fn() -> Contract,
}

speccheck_spec::inventory::collect!(Registered);

/// The contract registered under `path`, when exactly one is.
pub fn registered(path: &str) -> Option<Contract> {
    let mut found = speccheck_spec::inventory::iter::<Registered>().filter(|r| (r.path)() == path);
    let first = found.next()?;
    found.next().is_none().then(|| (first.contract)())
}
