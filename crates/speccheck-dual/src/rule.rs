//! What a specification obliges and what it only recommends.
//!
//! A protocol's specification says MUST for some behaviours and SHOULD for
//! others (RFC 2119). A model tags each expectation of a response with the
//! [`Rule`] behind it; the validator enforces the rules up to a [`Level`]:
//! a default run rejects a system only for breaking a MUST, and a SHOULD it
//! does not follow is a *finding*, reported with its trace and clause but
//! no failure. A strict run enforces both.
//!
//! A rule also gives a rejection its identity: the shrinker keeps a
//! candidate only if it breaks the same rules, so a failure does not turn
//! into a different, simpler one while it is made smaller.

use std::fmt;

use crate::sym::Expr;

/// How strongly a specification demands a behaviour (RFC 2119).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// An absolute requirement: breaking it is a deviation.
    Must,
    /// A recommendation: there may be valid reasons not to follow it.
    Should,
}

impl Level {
    /// The keyword, as the specifications write it.
    pub fn keyword(self) -> &'static str {
        match self {
            Level::Must => "MUST",
            Level::Should => "SHOULD",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.keyword())
    }
}

/// A requirement of the specification: how strong, where it is written,
/// and what it says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rule {
    /// MUST or SHOULD.
    pub level: Level,
    /// Where the specification says it (e.g. `RFC 9110 §9.3.4`).
    pub clause: &'static str,
    /// What it demands, in a few words.
    pub says: &'static str,
}

impl Rule {
    /// A MUST at `clause`.
    pub const fn must(clause: &'static str, says: &'static str) -> Rule {
        Rule { level: Level::Must, clause, says }
    }

    /// A SHOULD at `clause`.
    pub const fn should(clause: &'static str, says: &'static str) -> Rule {
        Rule { level: Level::Should, clause, says }
    }

    /// The rule of a model that names none: whatever the model says the
    /// response is, as a MUST.
    pub const MODEL: Rule = Rule::must("the model", "the response the model sends");
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: {}", self.clause, self.level, self.says)
    }
}

/// One expectation of a response: the constraint under which the observed
/// response meets it, and the rule that demands it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Check {
    /// The rule.
    pub rule: Rule,
    /// When the observation meets it.
    pub holds: Expr,
}

impl Check {
    /// `holds`, demanded by `rule`.
    pub fn new(rule: Rule, holds: Expr) -> Check {
        Check { rule, holds }
    }
}

/// A rule a response broke, and what the response answered (e.g. the
/// request's method, when the protocol names it).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Broken {
    /// The rule.
    pub rule: Rule,
    /// What the response answered, if the protocol says.
    pub answering: Option<String>,
}

impl fmt::Display for Broken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(a) = &self.answering {
            write!(f, "{a}: ")?;
        }
        write!(f, "{} {} ({})", self.rule.clause, self.rule.level, self.rule.says)
    }
}

/// The rules a rejected observation breaks, as one name: what "the same
/// failure" means while shrinking (the distinct broken rules, sorted:
/// the order in which branches died is the validator's, not the system's).
pub fn identity(broken: &[Broken]) -> String {
    let mut names: Vec<String> = broken.iter().map(Broken::to_string).collect();
    names.sort();
    names.dedup();
    if names.is_empty() { "no behaviour of the model".to_string() } else { names.join("; ") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_names_each_rule_once_sorted() {
        let a = Rule::must("RFC 9110 §9.3.4", "an overwrite answers 200 or 204");
        let b = Rule::should("RFC 9110 §8.8.3", "a response carries the validator");
        let on = |rule: Rule, m: &str| Broken { rule, answering: Some(m.to_string()) };
        let id = identity(&[on(a, "PUT"), on(b, "PUT"), on(a, "PUT")]);
        assert_eq!(
            id,
            "PUT: RFC 9110 §8.8.3 SHOULD (a response carries the validator); PUT: RFC 9110 §9.3.4 MUST (an \
             overwrite answers 200 or 204)"
        );
        assert_eq!(id, identity(&[on(b, "PUT"), on(a, "PUT")]));
        assert_ne!(identity(&[on(a, "PUT")]), identity(&[on(a, "DELETE")]));
        assert_eq!(identity(&[]), "no behaviour of the model");
    }

    #[test]
    fn must_is_stronger_than_should() {
        assert!(Level::Must < Level::Should);
        assert_eq!(Rule::should("x", "y").to_string(), "x SHOULD: y");
    }
}
