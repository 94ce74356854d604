//! The API's laws as the description declares them (ArtiCheck §4):
//! `∀ x̄. P(x̄) ⇒ T(x̄)` over the instances built, where a false
//! precondition aborts the test rather than passing it.

use std::sync::Arc;

use super::args::Args;
use super::function::{Mode, Param};
use super::pos::Pos;

/// The outcome of checking a law on one tuple of instances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LawVerdict {
    /// The precondition held and so did the test.
    Holds,
    /// The precondition held but the test did not.
    Fails,
    /// The precondition did not hold: the test is aborted (ArtiCheck §4),
    /// counted apart from the tests that passed.
    Aborted,
}

impl LawVerdict {
    /// `P ⇒ T` evaluated lazily: aborted unless `pre`, else `test()`.
    pub fn implies(pre: bool, test: impl FnOnce() -> bool) -> Self {
        if !pre {
            LawVerdict::Aborted
        } else if test() {
            LawVerdict::Holds
        } else {
            LawVerdict::Fails
        }
    }
}

impl From<bool> for LawVerdict {
    fn from(b: bool) -> Self {
        if b { LawVerdict::Holds } else { LawVerdict::Fails }
    }
}

/// What a law's closure does.
pub type LawFn = Arc<dyn Fn(&mut Args<'_>) -> LawVerdict + Send + Sync>;

/// A law `∀ x̄. P(x̄) ⇒ T(x̄)` (ArtiCheck §4): the quantified variables range
/// over the instances built; a false precondition aborts the test.
#[derive(Clone)]
pub struct Law {
    pub(crate) name: String,
    pub(crate) params: Vec<Param>,
    pub(crate) check: Option<LawFn>,
    pub(crate) requires: Option<String>,
    pub(crate) body: Option<String>,
}

impl Law {
    /// A law named `name`.
    pub fn new(name: impl Into<String>) -> Self {
        Law { name: name.into(), params: Vec::new(), check: None, requires: None, body: None }
    }

    /// Adds a quantified variable.
    pub fn param(mut self, name: impl Into<String>, mode: Mode, pos: Pos) -> Self {
        self.params.push(Param::new(name, mode, pos));
        self
    }

    /// Sets the check.
    pub fn check(mut self, f: impl Fn(&mut Args<'_>) -> LawVerdict + Send + Sync + 'static) -> Self {
        self.check = Some(Arc::new(f));
        self
    }

    /// The source text of the precondition and of the test, to print the
    /// law inside counterexample programs.
    pub fn source(mut self, requires: Option<&str>, body: &str) -> Self {
        self.requires = requires.map(str::to_string);
        self.body = Some(body.to_string());
        self
    }

    /// The law's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}
