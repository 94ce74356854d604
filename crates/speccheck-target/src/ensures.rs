//! A function's postconditions (Target's output refinement): clauses over
//! the arguments, as they were before the call, and `result`, checked on
//! each call a contract test makes. The result's type refinements are
//! checked too, so a function that returns an unbalanced tree of a type
//! that says "balanced" fails even without an `ensures` clause.

use speccheck_spec::{Measures, Value};

/// Parsed `ensures` clauses, checked call by call.
#[derive(Clone, Debug)]
pub struct Ensures {
    clauses: Vec<(String, speccheck_spec::Expr)>,
    measures: &'static Measures,
}

impl Ensures {
    /// The clauses (as written, and as the spec parser reads them), calling
    /// the registered measures.
    pub fn new(clauses: &[(&str, &str)]) -> Result<Ensures, String> {
        Ok(Ensures { clauses: crate::strategy::parse_clauses("ensures", clauses)?, measures: Measures::global() })
    }

    /// With these measures instead of the registered ones.
    pub fn with_measures(mut self, measures: &'static Measures) -> Self {
        self.measures = measures;
        self
    }

    /// Checks `result` against the clauses, `args` being the arguments'
    /// values before the call; the error names the clause that is false
    /// (or could not be evaluated) and the result.
    pub fn check(&self, args: &[(&str, Value)], result: Value) -> Result<(), String> {
        let shown = result.to_string();
        let mut env: Vec<(&str, Value)> = args.to_vec();
        env.push(("result", result));
        match speccheck_spec::admits(&env, &self.clauses, self.measures) {
            Ok(None) => Ok(()),
            Ok(Some(v)) if v.at == speccheck_spec::refined::CLAUSE_VIOLATION => {
                Err(format!("the postcondition `{}` is false: result = {shown}", v.spec))
            }
            Ok(Some(v)) => Err(format!("the postcondition {v} is false: result = {shown}")),
            Err(e) => Err(format!("the postcondition could not be evaluated (result = {shown}): {e}")),
        }
    }
}
