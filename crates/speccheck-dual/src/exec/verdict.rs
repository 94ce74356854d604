//! How an execution ended: accepted, or which kind of failure, or no
//! verdict (see the [module docs](super) for when each is given).

use std::fmt;
use std::time::Duration;

use super::TransportError;
use crate::dual::{Invalid, Rejection};
use crate::model::{Conn, ModelError};
use crate::protocol::show_bytes;
use crate::rule::{Level, Rule};

/// How an execution ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every observation was explained.
    Accepted {
        /// The wall-clock budget cut the script short.
        budget_hit: bool,
    },
    /// A response no behaviour of the model explains (boxed: the report is
    /// much larger than the other variants).
    Rejected(Box<Rejection>),
    /// Bytes that are not a message of the protocol.
    Malformed {
        /// The connection.
        conn: Conn,
        /// The bytes.
        bytes: Vec<u8>,
        /// What the decoder said.
        reason: String,
    },
    /// Requests pending and no response for the liveness window.
    Liveness {
        /// Requests without a response.
        pending: usize,
        /// How long the tester waited.
        waited: Duration,
        /// What the transport knows of the cause.
        cause: Option<String>,
        /// The start of a response that stopped before its end, when one
        /// had begun (its connection and bytes): a server that hangs part
        /// way through an answer, not one that never answered.
        partial: Option<(Conn, Vec<u8>)>,
    },
    /// The server reset or closed a connection (and the model does not
    /// allow it, or reconnecting failed).
    ConnectionLost(TransportError),
    /// The model is broken.
    Model(ModelError),
    /// The validator could not decide (too many branches, or no branch
    /// left after some were abandoned for lack of fuel): no verdict.
    Inconclusive(Invalid),
}

impl From<Invalid> for Verdict {
    fn from(e: Invalid) -> Self {
        match e {
            Invalid::Rejected(r) => Verdict::Rejected(r),
            Invalid::Model(e) => Verdict::Model(e),
            inconclusive => Verdict::Inconclusive(inconclusive),
        }
    }
}

impl Verdict {
    /// True for a failure of the system under test (or of its model).
    pub fn is_failure(&self) -> bool {
        !matches!(self, Verdict::Accepted { .. } | Verdict::Inconclusive(_))
    }

    /// A short name for the kind of failure (also what identifies "the
    /// same failure" while shrinking).
    pub fn kind(&self) -> &'static str {
        match self {
            Verdict::Accepted { .. } => "accepted",
            Verdict::Rejected(_) => "rejected",
            Verdict::Malformed { .. } => "malformed message",
            Verdict::Liveness { .. } => "liveness",
            Verdict::ConnectionLost(_) => "connection lost",
            Verdict::Model(_) => "model error",
            Verdict::Inconclusive(_) => "inconclusive",
        }
    }
}

impl Verdict {
    /// What makes two failures the same failure while shrinking: the kind,
    /// and for a rejection the rules the response breaks (see
    /// [`crate::rule`]), so a failure never turns into another.
    pub fn identity(&self) -> String {
        match self {
            Verdict::Rejected(r) => format!("rejected: {}", r.identity()),
            other => other.kind().to_string(),
        }
    }

    /// Whether this failure is `other` or a narrower form of it (see
    /// [`Rejection::is_within`]): what shrinking and confirming a failure
    /// accept as the same failure.
    pub fn is_within(&self, other: &Verdict) -> bool {
        match (self, other) {
            (Verdict::Rejected(mine), Verdict::Rejected(theirs)) => mine.is_within(theirs),
            _ => self.is_failure() && self.identity() == other.identity(),
        }
    }

    /// The rules a search for further failures can stop enforcing once
    /// this one is reported: those of a rejection for SHOULDs alone (a
    /// MUST, or a MUST made inexplicable by an earlier SHOULD, leaves the
    /// model nowhere to go on from).
    pub fn waivable(&self) -> Vec<Rule> {
        match self {
            Verdict::Rejected(r) if !r.after_should && r.level() == Level::Should => {
                r.broken.iter().map(|b| b.rule).collect()
            }
            _ => Vec::new(),
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Accepted { budget_hit } => {
                write!(f, "accepted{}", if *budget_hit { " (wall-clock budget reached)" } else { "" })
            }
            Verdict::Rejected(r) => write!(f, "REJECTED: {r}"),
            Verdict::Malformed { conn, bytes, reason } => {
                write!(f, "MALFORMED response on connection {conn}: {reason}\n  bytes: {}", show_bytes(bytes))
            }
            Verdict::Liveness { pending, waited, cause, partial } => {
                write!(
                    f,
                    "LIVENESS: no response within {} while {pending} request{} pending",
                    speccheck_core::human::duration(*waited),
                    if *pending == 1 { " was" } else { "s were" }
                )?;
                if let Some(c) = cause {
                    write!(f, " ({c})")?;
                }
                if let Some((conn, bytes)) = partial {
                    write!(
                        f,
                        "\n  a response had begun on connection {conn} and stopped after {} byte{}: {}",
                        bytes.len(),
                        if bytes.len() == 1 { "" } else { "s" },
                        show_bytes(bytes)
                    )?;
                }
                Ok(())
            }
            Verdict::ConnectionLost(e) => write!(f, "CONNECTION LOST: {e}"),
            Verdict::Model(e) => write!(f, "MODEL ERROR: {e}"),
            Verdict::Inconclusive(e) => write!(f, "INCONCLUSIVE: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::Broken;

    fn rejection(rules: &[Rule], after_should: bool) -> Verdict {
        let broken: Vec<Broken> = rules.iter().map(|&rule| Broken { rule, answering: Some("GET".into()) }).collect();
        Verdict::Rejected(Box::new(Rejection {
            index: 1,
            conn: 0,
            observed: String::new(),
            branches_before: 1,
            reasons: Vec::new(),
            all_broken: broken.clone(),
            broken,
            after_should,
            following: Vec::new(),
        }))
    }

    #[test]
    fn only_a_rejection_for_shoulds_alone_is_waived() {
        let should = Rule::should("§1", "recommended");
        let must = Rule::must("§2", "required");
        assert_eq!(rejection(&[should], false).waivable(), vec![should]);
        assert!(rejection(&[should, must], false).waivable().is_empty());
        assert!(rejection(&[must], false).waivable().is_empty());
        assert!(rejection(&[must], true).waivable().is_empty());
        assert!(Verdict::Accepted { budget_hit: false }.waivable().is_empty());
    }
}
