//! Checking a value against the refinements inside its type
//! (`#[refine(...)]` on fields) and a function's argument specs: the
//! concrete meaning the random and exhaustive strategies filter by, and
//! that the SMT and lazy strategies build in.

use crate::ast::Expr;
use crate::eval::{Env, EvalError};
use crate::measure::Measures;
use crate::value::Value;

/// The name a field is bound to in its type's refinements: its own name,
/// or `_0`, `_1`, … for a tuple field.
pub fn field_binding(name: &str) -> String {
    if name.parse::<usize>().is_ok() { format!("_{name}") } else { name.to_string() }
}

fn first_violation<'v>(
    mut xs: impl Iterator<Item = &'v Value>,
    measures: &Measures,
) -> Result<Option<Violation>, EvalError> {
    xs.try_fold(None, |found, x| match found {
        Some(bad) => Ok(Some(bad)),
        None => violation(x, measures),
    })
}

/// A refinement a value violates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The spec violated, as written.
    pub spec: String,
    /// Where: the type and constructor, or the argument.
    pub at: String,
}

/// `Violation::at` for a clause over the arguments (rather than a field
/// refinement inside one of them).
pub const CLAUSE_VIOLATION: &str = "the arguments";

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}` (on {})", self.spec, self.at)
    }
}

/// The first field refinement `v` violates, innermost first; `None` when
/// it satisfies all of them. Each refinement sees the fields up to the
/// refined one, as the SMT encoding does.
pub fn violation(v: &Value, measures: &Measures) -> Result<Option<Violation>, EvalError> {
    match v {
        Value::Int(_) | Value::Bool(_) => Ok(None),
        Value::Hole(h) => Err(EvalError::Hole(*h)),
        Value::Seq(xs) => first_violation(xs.iter(), measures),
        Value::Set(xs) => first_violation(xs.iter(), measures),
        Value::Data { def, ctor, fields } => {
            for f in fields {
                if let Some(bad) = violation(f, measures)? {
                    return Ok(Some(bad));
                }
            }
            let c = &def.ctors[*ctor];
            let mut env = Env::new(measures);
            for (fd, fv) in c.fields.iter().zip(fields) {
                env.bind(field_binding(&fd.name), fv.clone());
                if let Some(r) = &fd.refine
                    && !env.bool(r)?
                {
                    return Ok(Some(Violation {
                        spec: r.to_string(),
                        at: format!("field `{}` of `{}::{}`", fd.name, def.name, c.name),
                    }));
                }
            }
            Ok(None)
        }
    }
}

/// The first clause of `requires` the named arguments violate, after the
/// refinements inside each argument's type; `None` when they are a valid
/// input.
pub fn admits(
    args: &[(&str, Value)],
    requires: &[(String, Expr)],
    measures: &Measures,
) -> Result<Option<Violation>, EvalError> {
    for (name, v) in args {
        if let Some(mut bad) = violation(v, measures)? {
            bad.at = format!("{} inside argument `{name}`", bad.at);
            return Ok(Some(bad));
        }
    }
    let mut env = Env::new(measures);
    for (name, v) in args {
        env.bind(name.to_string(), v.clone());
    }
    for (source, e) in requires {
        if !env.bool(e)? {
            return Ok(Some(Violation { spec: source.clone(), at: CLAUSE_VIOLATION.into() }));
        }
    }
    Ok(None)
}
