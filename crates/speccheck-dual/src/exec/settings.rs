//! The settings of one execution: connections, fuel, time budgets, the
//! generation's pace, the validator's bounds.

use std::time::Duration;

use crate::dual::Limits;
use crate::rule::{Level, Rule};

/// Settings of one execution.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Concurrent client connections.
    pub conns: usize,
    /// Fuel: the most steps a script may have.
    pub fuel: usize,
    /// Wall-clock budget of one execution; when it runs out the script
    /// stops and the execution drains.
    pub budget: Duration,
    /// Liveness window: requests pending with no response for this long
    /// fail the execution.
    pub liveness: Duration,
    /// Longest a `Wait` step waits.
    pub wait: Duration,
    /// Probability that a generated step is a `Wait`.
    pub p_wait: f64,
    /// Most requests the heuristics keep in flight: beyond it they wait
    /// for responses (each pending request multiplies the orders in which
    /// the server may have handled them, which the validator explores).
    pub max_in_flight: usize,
    /// Bounds on the validator.
    pub limits: Limits,
    /// Executions of a known failing script before it counts as not
    /// reproducing (the confirmation of a failure found adaptively, and
    /// the final run of the shrunk one): the interleaving of concurrent
    /// connections is the system's, so a failure that needs one may take
    /// more than one try. Reported with the attempt it took.
    pub attempts: usize,
    /// The rules whose breach fails an execution: MUSTs only by default
    /// (`Level::Should`: every rule, a strict run).
    pub enforce: Level,
    /// Whether to look for findings: responses that break a rule not
    /// enforced (a second validator enforcing every rule runs beside the
    /// first).
    pub findings: bool,
    /// Rules not enforced although their level is: the SHOULDs of failures
    /// already reported, while a strict run searches for further ones (a
    /// SHOULD the system breaks at every turn would otherwise end every
    /// execution before anything else could show). A search waives
    /// SHOULDs only: a model goes on from a response a SHOULD did not
    /// describe, not from one a MUST forbids.
    pub waived: Vec<Rule>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            conns: 2,
            fuel: 40,
            budget: Duration::from_secs(5),
            liveness: Duration::from_millis(500),
            wait: Duration::from_millis(20),
            p_wait: 0.15,
            max_in_flight: 4,
            limits: Limits::default(),
            attempts: 8,
            enforce: Level::Must,
            findings: true,
            waived: Vec::new(),
        }
    }
}
