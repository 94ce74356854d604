//! A described API, resolved: every function and law with its argument
//! and result types as [`Shape`]s over the pooled types. This is what the
//! engine tests ([`Api::check`]).

use std::fmt::{self, Debug};

use super::function::{CallFn, Function};
use super::law::{Law, LawFn};
use super::pooled::TypeDesc;
use super::shape::Shape;

/// A function with its shapes resolved.
#[derive(Clone)]
pub(crate) struct FnSpec {
    pub(crate) f: Function,
    pub(crate) call: CallFn,
    pub(crate) args: Vec<Shape>,
    pub(crate) ret: Shape,
}

/// A law with its shapes resolved.
#[derive(Clone)]
pub(crate) struct LawSpec {
    pub(crate) law: Law,
    pub(crate) check: LawFn,
    pub(crate) args: Vec<Shape>,
}

/// A described API, ready to be tested (see [`Api::check`]).
#[derive(Clone)]
pub struct Api {
    pub(crate) name: String,
    pub(crate) types: Vec<TypeDesc>,
    pub(crate) functions: Vec<FnSpec>,
    pub(crate) laws: Vec<LawSpec>,
    pub(crate) reference: Option<String>,
    /// Where the description was compiled: the package and the test
    /// target's flag (`--test x`), for the replay line's `cargo test`.
    pub(crate) compiled_in: Option<(String, Option<String>)>,
}

impl Debug for Api {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Api")
            .field("name", &self.name)
            .field("types", &self.types.iter().map(|t| t.name.as_str()).collect::<Vec<_>>())
            .field("functions", &self.functions.iter().map(|f| f.f.name.as_str()).collect::<Vec<_>>())
            .field("laws", &self.laws.iter().map(|l| l.law.name.as_str()).collect::<Vec<_>>())
            .finish()
    }
}

impl Api {
    /// The `cargo test` command that reruns the test checking this API,
    /// when it is checked inside `cargo test` and the macro said where it
    /// was compiled.
    pub fn rerun_command(&self) -> Option<String> {
        let (package, target) = self.compiled_in.as_ref()?;
        let test = speccheck_core::rerun::current_test()?;
        Some(speccheck_core::rerun::command_for(package, target.as_deref(), &test))
    }

    /// The API's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Names of the abstract types.
    pub fn abstract_types(&self) -> Vec<&str> {
        self.types.iter().filter(|t| t.is_abstract()).map(|t| t.name.as_str()).collect()
    }

    /// The crate under test: the one that defines the first abstract type
    /// (in reference mode, the candidate's), when it can be told.
    pub fn crate_under_test(&self) -> Option<&str> {
        self.types.iter().find_map(|t| t.krate.as_deref())
    }

    /// Names of every pooled type (abstract and ground).
    pub fn type_names(&self) -> Vec<&str> {
        self.types.iter().map(|t| t.name.as_str()).collect()
    }

    /// Names of the functions.
    pub fn function_names(&self) -> Vec<&str> {
        self.functions.iter().map(|f| f.f.name.as_str()).collect()
    }

    /// Names of the laws.
    pub fn law_names(&self) -> Vec<&str> {
        self.laws.iter().map(|l| l.law.name.as_str()).collect()
    }

    /// The reference implementation's name, in reference-model mode.
    pub fn reference(&self) -> Option<&str> {
        self.reference.as_deref()
    }
}
