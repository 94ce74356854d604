//! Checking a value against the refinements inside its type
//! (`#[refine(...)]` on fields) and a function's argument specs: the
//! concrete meaning the random and exhaustive strategies filter by, and
//! that the SMT and lazy strategies build in.

use crate::ast::Expr;
use std::cell::RefCell;

use crate::eval::{Env, EvalError, Memo};
use crate::measure::Measures;
use crate::targetable::Targetable;
use crate::ty::{DataDef, Ty};
use crate::value::Value;

/// How many times `#[derive(Arbitrary)]` draws a refined field at random
/// before the case is rejected (naming the refinement).
pub const FIELD_TRIES: u32 = 8;

/// Where field `field` of constructor `ctor` is, for messages: "field `f`
/// of `T::C`" (or of `T` for a struct or a tuple).
pub fn field_place(def: &DataDef, ctor: usize, field: usize) -> String {
    let c = &def.ctors[ctor];
    let f = c.fields.get(field).map_or("?", |f| f.name.as_str());
    if c.name.is_empty() || c.name == def.name {
        format!("field `{f}` of `{}`", def.name)
    } else {
        format!("field `{f}` of `{}::{}`", def.name, c.name)
    }
}

/// What a refinement says of the values bound in `env`: `Ok(None)` when it
/// holds, the violation when it is false — a partial operation met on the
/// way (a field of another constructor, an index out of range, a division
/// by zero) makes it false, as it does for the lazy strategy and the
/// solver —, an error naming the refinement and `at` when it cannot be
/// evaluated at all (holes pass through, for the lazy strategy).
pub fn refinement_holds(
    env: &mut Env<'_>,
    spec: &Expr,
    at: impl Fn() -> String,
) -> Result<Option<Violation>, EvalError> {
    match env.bool(spec) {
        Ok(true) => Ok(None),
        Ok(false) => Ok(Some(Violation { spec: spec.to_string(), at: at() })),
        Err(e) if e.is_partial() => Ok(Some(Violation { spec: spec.to_string(), at: format!("{}, where {e}", at()) })),
        Err(e @ (EvalError::Hole(_) | EvalError::In { .. })) => Err(e),
        Err(e) => Err(EvalError::In { spec: spec.to_string(), at: at(), error: Box::new(e) }),
    }
}

/// Whether field `field` of constructor `ctor` of `T` satisfies its
/// refinement, `fields` being the constructor's fields up to it (what
/// `#[derive(Arbitrary)]` checks as it draws). A refinement that cannot be
/// evaluated (a measure that is not registered, a type error) panics with
/// an error naming the type and the field.
pub fn field_holds<T: Targetable>(ctor: usize, field: usize, fields: &[Value]) -> bool {
    let Ty::Data(r) = T::ty() else { return true };
    let def = r.get();
    let c = &def.ctors[ctor];
    let Some(spec) = c.fields.get(field).and_then(|f| f.refine.as_ref()) else { return true };
    let mut env = Env::new(Measures::global());
    for (fd, v) in c.fields.iter().zip(fields) {
        env.bind(field_binding_static(&fd.name), v.clone());
    }
    match refinement_holds(&mut env, spec, || field_place(def, ctor, field)) {
        Ok(v) => v.is_none(),
        Err(e) => panic!("{e}"),
    }
}

/// The name a field is bound to in its type's refinements: its own name,
/// or `_0`, `_1`, … for a tuple field.
pub fn field_binding(name: &str) -> String {
    if name.parse::<usize>().is_ok() { format!("_{name}") } else { name.to_string() }
}

/// [`field_binding`] for a field of a type described for the process's
/// life (every [`DataDef`] a value refers to), without a copy: a
/// judgement binds the fields of every node it checks.
pub fn field_binding_static(name: &'static str) -> &'static str {
    const TUPLE: [&str; 16] =
        ["_0", "_1", "_2", "_3", "_4", "_5", "_6", "_7", "_8", "_9", "_10", "_11", "_12", "_13", "_14", "_15"];
    // As `field_binding` spells it ("01" is `_01`, not `_1`).
    match name.parse::<usize>() {
        Ok(i) if i < TUPLE.len() && TUPLE[i][1..] == *name => TUPLE[i],
        Ok(_) => crate::intern::intern(&format!("_{name}")),
        Err(_) => name,
    }
}

fn first_violation<'v>(
    mut xs: impl Iterator<Item = &'v Value>,
    env: &mut Env<'_>,
    memo: Option<&RefCell<Memo>>,
) -> Result<Option<Violation>, EvalError> {
    xs.try_fold(None, |found, x| match found {
        Some(bad) => Ok(Some(bad)),
        None => violation_in(x, env, memo),
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
    violation_in(v, &mut Env::new(measures), None)
}

/// [`violation`], remembering in `memo` which data held no violation:
/// checking many inputs that share parts (a strategy's consecutive inputs)
/// checks each shared part's refinements once. Measure results are not
/// remembered in this walk of the field refinements: most of its calls
/// are on parts no other input shares (a list's every suffix), and keeping
/// them costs more than they save. (The clauses over the arguments do
/// remember them: see [`admits_remembering`].)
///
/// One scope, `env`, serves the whole walk (emptied at each constructor):
/// a scope per constructor cost an allocation for each, refined or not,
/// and each measure call under it another.
fn violation_in(v: &Value, env: &mut Env<'_>, memo: Option<&RefCell<Memo>>) -> Result<Option<Violation>, EvalError> {
    match v {
        Value::Int(_) | Value::Bool(_) => Ok(None),
        Value::Hole(h) => Err(EvalError::Hole(*h)),
        Value::Seq(xs) => first_violation(xs.iter(), env, memo),
        Value::Set(xs) => first_violation(xs.iter(), env, memo),
        Value::Data { def, ctor, fields } => {
            if memo.is_some_and(|m| m.borrow().verified(fields)) {
                return Ok(None);
            }
            for f in fields.iter() {
                if let Some(bad) = violation_in(f, env, memo)? {
                    return Ok(Some(bad));
                }
            }
            let c = &def.ctors[*ctor];
            if c.fields.iter().any(|fd| fd.refine.is_some()) {
                env.empty_scope();
                for (i, (fd, fv)) in c.fields.iter().zip(fields.iter()).enumerate() {
                    env.bind(field_binding_static(&fd.name), fv.clone());
                    if let Some(r) = &fd.refine
                        && let Some(bad) = refinement_holds(env, r, || field_place(def, *ctor, i))?
                    {
                        return Ok(Some(bad));
                    }
                }
                env.empty_scope();
            }
            if let Some(m) = memo {
                m.borrow_mut().set_verified(fields);
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
    admits_in(args, requires, measures, None)
}

/// [`admits`], remembering in `memo` which data held no violation (see
/// [`Memo`]) and what the clauses' measures said of data: the same
/// answers, the refinements of each part many inputs share checked once,
/// a clause over a large argument walking only what is new in it. (One
/// exception: a value too deep for the evaluator's stack can be decided
/// here through results remembered on its parts, where [`admits`] says it
/// is too deep.) The memo must be used with these `measures` only.
pub fn admits_remembering(
    args: &[(&str, Value)],
    requires: &[(String, Expr)],
    measures: &Measures,
    memo: &RefCell<Memo>,
) -> Result<Option<Violation>, EvalError> {
    admits_in(args, requires, measures, Some(memo))
}

fn admits_in(
    args: &[(&str, Value)],
    requires: &[(String, Expr)],
    measures: &Measures,
    memo: Option<&RefCell<Memo>>,
) -> Result<Option<Violation>, EvalError> {
    let mut env = Env::new(measures);
    for (name, v) in args {
        if let Some(mut bad) = violation_in(v, &mut env, memo)? {
            bad.at = format!("{} inside argument `{name}`", bad.at);
            return Ok(Some(bad));
        }
    }
    // The clauses over the arguments remember what their measures say of
    // data: a builder's consecutive inputs share their large parts (a
    // spliced tree's subtrees), and a clause walks the whole argument.
    let mut env = match memo {
        Some(memo) => Env::memoized(measures, memo),
        None => env,
    };
    env.empty_scope();
    for (name, v) in args {
        env.bind(name.to_string(), v.clone());
    }
    for (source, e) in requires {
        if let Some(mut bad) = refinement_holds(&mut env, e, || CLAUSE_VIOLATION.into())? {
            bad.spec.clone_from(source);
            return Ok(Some(bad));
        }
    }
    Ok(None)
}

/// Checks that every field refinement inside `ty` names only its field and
/// the fields before it (as `#[derive(Targetable)]` does at compile time,
/// for types described by hand): the error names the type, the field and
/// the name.
pub fn check_scopes(ty: &Ty) -> Result<(), String> {
    fn walk(ty: &Ty, seen: &mut Vec<crate::ty::DataRef>) -> Result<(), String> {
        match ty {
            Ty::Int { .. } | Ty::Bool => Ok(()),
            Ty::Seq(t) | Ty::Set(t) => walk(t, seen),
            Ty::Data(r) => {
                if seen.contains(r) {
                    return Ok(());
                }
                seen.push(r.clone());
                let def = r.get();
                for (c, ctor) in def.ctors.iter().enumerate() {
                    let mut scope = Vec::new();
                    for (i, f) in ctor.fields.iter().enumerate() {
                        scope.push(field_binding(&f.name));
                        if let Some(r) = &f.refine
                            && let Some(v) = r.free_vars().into_iter().find(|v| !scope.contains(v))
                        {
                            return Err(format!(
                                "the refinement `{r}` of {} names `{v}`, which is not this field or a field before it",
                                field_place(def, c, i)
                            ));
                        }
                        walk(&f.ty, seen)?;
                    }
                }
                Ok(())
            }
        }
    }
    walk(ty, &mut Vec::new())
}
