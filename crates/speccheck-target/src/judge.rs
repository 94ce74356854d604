//! What a spec says of a partial input (holes and all), shared by the
//! strategies that build inputs hole by hole: the lazy enumeration
//! ([`crate::lazy`]) and the sampler ([`crate::sample`]). A spec false on
//! a partial input is false on every input completing it; one the
//! evaluation could not decide names the hole it needed. Both strategies
//! judge by what each fill changed ([`crate::incremental`]); the whole
//! judgement here checks what they return.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use speccheck_spec::refined::{field_binding_static, field_place, refinement_holds};

use crate::incremental::Pending;
use speccheck_spec::{DataRef, Env, EvalError, Expr, Hint, Measures, Memo, Ty, Value, Violation};

/// What the spec says of a partial input.
pub(crate) enum Decision {
    Refuted,
    True,
    /// Undecided until this hole is filled.
    Needs(u32),
}

/// A hole still open: its id, type, bound (the lazy strategy's depth, the
/// sampler's size budget) and the data types above it (for recursion, see
/// [`crate::depth`]).
#[derive(Clone)]
pub(crate) struct Open {
    pub(crate) id: u32,
    pub(crate) ty: Ty,
    pub(crate) bound: u32,
    pub(crate) path: Rc<Vec<DataRef>>,
}

impl Open {
    /// The path of the fields of a value of data type `r` filling this hole.
    pub(crate) fn path_into(&self, r: &DataRef) -> Rc<Vec<DataRef>> {
        let mut path = self.path.as_ref().clone();
        path.push(r.clone());
        Rc::new(path)
    }
}

/// A partial input.
pub(crate) struct Partial {
    pub(crate) args: Vec<Value>,
    pub(crate) open: Vec<Open>,
    /// Every spec is true and no open hole has refinements inside: each
    /// completion is valid, and no more checks are needed.
    pub(crate) decided: bool,
    /// For the sampler: what the specs left undecided before the last
    /// fill, and that fill (see [`crate::incremental`]).
    pub(crate) pending: Option<Rc<Pending>>,
    pub(crate) filled: Option<(u32, Value)>,
}

/// The specs a partial input is judged by: the arguments' refinements and
/// the `requires` clauses over them.
pub(crate) struct Judge<'m> {
    pub(crate) params: Vec<(String, Ty)>,
    /// Names bound to fixed values (not generated).
    pub(crate) given: Vec<(String, Value)>,
    pub(crate) requires: Vec<Expr>,
    pub(crate) measures: &'m Measures,
    /// What measures said of the parts judged before (most of a partial
    /// input is unchanged from one judgement to the next).
    pub(crate) memo: RefCell<Memo>,
    /// The `requires` clauses and the field refinements met so far (by
    /// type, constructor and field), shared with the residuals they leave
    /// (see [`crate::incremental`]).
    pub(crate) shared_requires: Vec<Arc<Expr>>,
    pub(crate) field_specs: RefCell<FieldSpecs>,
}

/// Field refinements by (type's address, constructor, field).
pub(crate) type FieldSpecs = HashMap<(usize, usize, usize), Option<Arc<Expr>>>;

impl<'m> Judge<'m> {
    /// The judge of `params` by `requires` and the refinements in their
    /// types.
    pub(crate) fn new(params: &[(String, Ty)], requires: &[Expr], measures: &'m Measures) -> Self {
        Judge {
            params: params.to_vec(),
            given: Vec::new(),
            requires: requires.to_vec(),
            measures,
            memo: RefCell::new(Memo::new()),
            shared_requires: requires.iter().cloned().map(Arc::new).collect(),
            field_specs: RefCell::default(),
        }
    }

    /// What the specs say of `args`; the comparisons met between a hole
    /// and a known integer go to `hints`. The whole input is judged (the
    /// check of what the incremental judgement decided, see
    /// [`crate::incremental`]).
    pub(crate) fn decide(&self, args: &[Value], hints: &mut Vec<Hint>) -> Result<Decision, EvalError> {
        let mut needs = None;
        // What one refinement says of the partial input: false refutes it
        // (a partial operation met makes it false, as for the evaluator and
        // the solver); true counts only if no hole was skipped on the way
        // (else a completion could still meet a partial operation there).
        let mut verdict =
            |r: Result<Option<Violation>, EvalError>, skipped: Option<u32>, met: &[Hint]| -> Result<bool, EvalError> {
                hints.extend_from_slice(met);
                match r {
                    Ok(Some(_)) => Ok(false),
                    Ok(None) => {
                        if let Some(h) = skipped {
                            needs.get_or_insert(h);
                        }
                        Ok(true)
                    }
                    Err(EvalError::Hole(h)) => {
                        needs.get_or_insert(h);
                        Ok(true)
                    }
                    Err(e) => Err(e),
                }
            };
        for a in args {
            if !self.refinements_hold(a, &mut verdict)? {
                return Ok(Decision::Refuted);
            }
        }
        let mut env = self.arguments(args);
        for r in &self.requires {
            let holds = refinement_holds(&mut env, r, || "the arguments".into());
            if !verdict(holds, env.skipped(), env.hints())? {
                return Ok(Decision::Refuted);
            }
        }
        Ok(match needs {
            Some(h) => Decision::Needs(h),
            None => Decision::True,
        })
    }

    /// A scope with the given names and the parameters bound to `args`
    /// (what the `requires` clauses see).
    pub(crate) fn arguments(&self, args: &[Value]) -> Env<'_> {
        let mut env = Env::memoized(self.measures, &self.memo);
        for (name, v) in &self.given {
            env.bind(name.clone(), v.clone());
        }
        for ((name, _), v) in self.params.iter().zip(args) {
            env.bind(name.clone(), v.clone());
        }
        env
    }

    /// False when a refinement inside `v` is false; undecided ones go to
    /// `verdict` as holes.
    fn refinements_hold(
        &self,
        v: &Value,
        verdict: &mut impl FnMut(Result<Option<Violation>, EvalError>, Option<u32>, &[Hint]) -> Result<bool, EvalError>,
    ) -> Result<bool, EvalError> {
        match v {
            Value::Int(_) | Value::Bool(_) | Value::Hole(_) => Ok(true),
            Value::Seq(xs) => {
                for x in xs {
                    if !self.refinements_hold(x, verdict)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Value::Set(xs) => {
                for x in xs {
                    if !self.refinements_hold(x, verdict)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Value::Data { def, ctor, fields } => {
                let c = &def.ctors[*ctor];
                for (i, fd) in c.fields.iter().enumerate() {
                    let Some(r) = &fd.refine else { continue };
                    // Each refinement in an environment of its own, so a
                    // hole one skipped is not blamed on the next.
                    let mut env = Env::memoized(self.measures, &self.memo);
                    for (fd, fv) in c.fields.iter().zip(fields.iter()).take(i + 1) {
                        env.bind(field_binding_static(&fd.name), fv.clone());
                    }
                    let holds = refinement_holds(&mut env, r, || field_place(def, *ctor, i));
                    if !verdict(holds, env.skipped(), env.hints())? {
                        return Ok(false);
                    }
                }
                for f in fields.iter() {
                    if !self.refinements_hold(f, verdict)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
        }
    }
}

/// The way to `hole` in `args`: the argument's index, then each field's
/// (or element's) index down to it.
pub(crate) fn locate(args: &[Value], hole: u32) -> Option<Vec<usize>> {
    fn walk(v: &Value, hole: u32, way: &mut Vec<usize>) -> bool {
        match v {
            Value::Hole(h) => *h == hole,
            Value::Data { fields, .. } => walk_all(fields, hole, way),
            Value::Seq(xs) => walk_all(xs, hole, way),
            _ => false,
        }
    }
    fn walk_all(xs: &[Value], hole: u32, way: &mut Vec<usize>) -> bool {
        for (i, x) in xs.iter().enumerate() {
            way.push(i);
            if walk(x, hole, way) {
                return true;
            }
            way.pop();
        }
        false
    }
    let mut way = Vec::new();
    args.iter().enumerate().find_map(|(i, a)| {
        way.clear();
        way.push(i);
        walk(a, hole, &mut way).then(|| way.clone())
    })
}

/// `v` with hole `hole` replaced by `by`. Only the way down to the hole
/// is copied: every other part is the same shared value as in `v` (what
/// a measure said of it is remembered, see [`Judge::memo`]).
pub(crate) fn fill(v: &Value, hole: u32, by: &Value) -> Value {
    filled(v, hole, by).unwrap_or_else(|| v.clone())
}

/// `args` with hole `hole` filled by `by`, found at `way` ([`locate`])
/// when it is known: only the way down is copied.
pub(crate) fn fill_args(args: &[Value], way: Option<&[usize]>, hole: u32, by: &Value) -> Vec<Value> {
    match way {
        Some([arg, rest @ ..]) => {
            let mut out = args.to_vec();
            out[*arg] = fill_along(&args[*arg], rest, by);
            out
        }
        _ => args.iter().map(|a| fill(a, hole, by)).collect(),
    }
}

/// `v` with the part at `way` (field and element indices, as [`locate`]
/// gives them past the argument's) replaced by `by`, the rest shared.
fn fill_along(v: &Value, way: &[usize], by: &Value) -> Value {
    let Some((&i, rest)) = way.split_first() else { return by.clone() };
    match v {
        Value::Data { def, ctor, fields } => {
            let mut copy = fields.to_vec();
            copy[i] = fill_along(&fields[i], rest, by);
            Value::Data { def, ctor: *ctor, fields: copy.into() }
        }
        Value::Seq(xs) => {
            let mut copy = xs.clone();
            copy[i] = fill_along(&xs[i], rest, by);
            Value::Seq(copy)
        }
        other => unreachable!("a way leads through data and sequences, not `{other}`"),
    }
}

/// `v` with the hole replaced, `None` when it is not in `v`.
fn filled(v: &Value, hole: u32, by: &Value) -> Option<Value> {
    let within = |xs: &[Value]| {
        xs.iter().enumerate().find_map(|(i, x)| filled(x, hole, by).map(|x| (i, x))).map(|(i, x)| {
            let mut copy = xs.to_vec();
            copy[i] = x;
            copy
        })
    };
    match v {
        Value::Hole(h) if *h == hole => Some(by.clone()),
        Value::Data { def, ctor, fields } => {
            within(fields).map(|fields| Value::Data { def, ctor: *ctor, fields: fields.into() })
        }
        Value::Seq(xs) => within(xs).map(Value::Seq),
        _ => None,
    }
}

/// True when some value of `ty` carries a field refinement.
pub(crate) fn has_refinements(ty: &Ty, seen: &mut Vec<DataRef>) -> bool {
    match ty {
        Ty::Int { .. } | Ty::Bool => false,
        Ty::Seq(t) | Ty::Set(t) => has_refinements(t, seen),
        Ty::Data(r) => {
            // By type, not name: `Option<i64>` and `Option<Box<T>>` share one.
            if seen.contains(r) {
                return false;
            }
            seen.push(r.clone());
            let def = r.get();
            def.ctors.iter().flat_map(|c| &c.fields).any(|f| f.refine.is_some() || has_refinements(&f.ty, seen))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use speccheck_spec::Targetable;

    #[test]
    fn filling_a_hole_copies_only_the_way_to_it() {
        let pair = |a: Value, b: Value| {
            let Ty::Data(r) = <(i64, i64)>::ty() else { unreachable!() };
            Value::Data { def: r.get(), ctor: 0, fields: vec![a, b].into() }
        };
        let untouched = pair(Value::Int(1), Value::Int(2));
        let v = pair(untouched.clone(), pair(Value::Hole(3), Value::Int(4)));
        let filled = fill(&v, 3, &Value::Int(5));
        assert_eq!(filled, pair(untouched.clone(), pair(Value::Int(5), Value::Int(4))));
        let (Value::Data { fields: a, .. }, Value::Data { fields: b, .. }) = (&v, &filled) else { unreachable!() };
        let (Value::Data { fields: x, .. }, Value::Data { fields: y, .. }) = (&a[0], &b[0]) else { unreachable!() };
        assert!(std::sync::Arc::ptr_eq(x, y), "the part off the way is shared");
        // A hole not in the value leaves it as it is.
        let (Value::Data { fields: same, .. }, _) = (&fill(&v, 99, &Value::Int(0)), ()) else { unreachable!() };
        assert!(std::sync::Arc::ptr_eq(same, a));
    }
}
