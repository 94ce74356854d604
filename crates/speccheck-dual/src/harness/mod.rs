//! The test harness (thesis §5): test inputs as J-expressions over a JSON
//! intermediate representation ([`jexp`]), recorded as choices of a
//! speccheck test case so the core shrinker can shrink them ([`script`]).
//! The heuristics themselves are the protocol's
//! ([`crate::protocol::Protocol::propose`]), fed the model's states and the
//! trace ([`crate::protocol::View`]).

pub mod jexp;
pub mod script;
