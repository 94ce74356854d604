//! The lazy strategy (Lazy SmallCheck's idea, over refinements): start
//! from an input that is all holes, evaluate the spec, and fill in only
//! the hole the evaluation needed, one constructor (or integer) at a time.
//! A spec that is false on a partial input refutes every input that
//! completes it at once: a sorted-list refinement refutes
//! `Cons(2, Cons(1, _))` once, not once per tail.
//!
//! Holes are [`Value::Hole`]s; the evaluator reports the hole it needed,
//! and its connectives and quantifiers are parallel (an undecided left
//! side does not hide a deciding right side), as in Lazy SmallCheck.
//! "Depth" means what it means for the core's enumeration and the SMT
//! strategy ([`crate::depth`]), so the three yield the same inputs.

use std::collections::BTreeSet;
use std::rc::Rc;

use speccheck_spec::refined::{field_binding, field_place, refinement_holds};
use speccheck_spec::{DataRef, Env, EvalError, Expr, Measures, Ty, Value, Violation};

use crate::depth::{below, constructors, int_window};

/// Why the lazy enumeration could not go on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LazyError {
    /// A spec could not be evaluated.
    #[error("the spec could not be evaluated: {0}")]
    Eval(EvalError),
    /// An argument type the enumeration does not cover.
    #[error("the lazy strategy cannot generate {0}")]
    Type(String),
    /// An argument type with no finite value ([`Ty::unbounded`]).
    #[error("{0}")]
    Unbounded(String),
    /// More partial inputs evaluated than the limit allows.
    #[error("gave up after evaluating {0} partial inputs")]
    Budget(u64),
}

/// A hole still open: its id, type and depth, and the data types above
/// it (see [`crate::depth`]).
#[derive(Clone)]
struct Open {
    id: u32,
    ty: Ty,
    depth: u32,
    path: Rc<Vec<DataRef>>,
}

/// A partial input.
struct Partial {
    args: Vec<Value>,
    open: Vec<Open>,
    /// Every spec is true and no open hole has refinements inside: each
    /// completion is valid, and no more checks are needed.
    decided: bool,
}

/// What the spec says of a partial input.
enum Decision {
    Refuted,
    True,
    /// Undecided until this hole is filled.
    Needs(u32),
}

/// Every input satisfying a spec up to a depth, refuted partial inputs
/// skipped whole.
pub struct Lazy<'m> {
    params: Vec<(String, Ty)>,
    /// Names bound to fixed values (not enumerated).
    given: Vec<(String, Value)>,
    /// At most this many partial inputs evaluated.
    limit: Option<u64>,
    requires: Vec<Expr>,
    measures: &'m Measures,
    stack: Vec<Partial>,
    next_hole: u32,
    failed: bool,
    /// A type no depth bounds, reported as the first item.
    unbounded: Option<String>,
    /// Inputs produced.
    pub found: u64,
    /// Partial inputs refuted (each stands for every input completing it).
    pub pruned: u64,
    /// Partial inputs evaluated.
    pub evaluated: u64,
}

impl<'m> Lazy<'m> {
    /// The inputs `params` at depth `depth` satisfying every spec in
    /// `requires` and the refinements inside their types.
    pub fn new(params: &[(String, Ty)], requires: &[Expr], measures: &'m Measures, depth: u32) -> Self {
        let n = params.len() as u32;
        let root = Partial {
            args: (0..n).map(Value::Hole).collect(),
            open: params
                .iter()
                .enumerate()
                .map(|(i, (_, ty))| Open { id: i as u32, ty: ty.clone(), depth, path: Rc::default() })
                .collect(),
            decided: false,
        };
        Lazy {
            params: params.to_vec(),
            given: Vec::new(),
            limit: None,
            requires: requires.to_vec(),
            measures,
            stack: vec![root],
            next_hole: n,
            failed: false,
            unbounded: params.iter().find_map(|(_, ty)| ty.unbounded()),
            found: 0,
            pruned: 0,
            evaluated: 0,
        }
    }

    /// With `name` bound to the fixed `value` in every spec (a generated
    /// function's input, when searching for its outputs).
    pub fn given(mut self, name: impl Into<String>, value: Value) -> Self {
        self.given.push((name.into(), value));
        self
    }

    /// Stops with [`LazyError::Budget`] after evaluating `evaluations`
    /// partial inputs.
    pub fn limit(mut self, evaluations: u64) -> Self {
        self.limit = Some(evaluations);
        self
    }

    /// True once every input was produced.
    pub fn is_complete(&self) -> bool {
        self.stack.is_empty() && !self.failed
    }

    fn decide(&self, args: &[Value]) -> Result<Decision, EvalError> {
        let mut needs = None;
        // What one refinement says of the partial input: false refutes it
        // (a partial operation met makes it false, as for the evaluator and
        // the solver); true counts only if no hole was skipped on the way
        // (else a completion could still meet a partial operation there).
        let mut verdict = |r: Result<Option<Violation>, EvalError>, skipped: Option<u32>| -> Result<bool, EvalError> {
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
        let mut env = Env::new(self.measures);
        for (name, v) in &self.given {
            env.bind(name.clone(), v.clone());
        }
        for ((name, _), v) in self.params.iter().zip(args) {
            env.bind(name.clone(), v.clone());
        }
        for r in &self.requires {
            let holds = refinement_holds(&mut env, r, || "the arguments".into());
            if !verdict(holds, env.skipped())? {
                return Ok(Decision::Refuted);
            }
        }
        Ok(match needs {
            Some(h) => Decision::Needs(h),
            None => Decision::True,
        })
    }

    /// False when a refinement inside `v` is false; undecided ones go to
    /// `verdict` as holes.
    fn refinements_hold(
        &self,
        v: &Value,
        verdict: &mut impl FnMut(Result<Option<Violation>, EvalError>, Option<u32>) -> Result<bool, EvalError>,
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
                    let mut env = Env::new(self.measures);
                    for (fd, fv) in c.fields.iter().zip(fields).take(i + 1) {
                        env.bind(field_binding(&fd.name), fv.clone());
                    }
                    let holds = refinement_holds(&mut env, r, || field_place(def, *ctor, i));
                    if !verdict(holds, env.skipped())? {
                        return Ok(false);
                    }
                }
                for f in fields {
                    if !self.refinements_hold(f, verdict)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
        }
    }

    /// The values a hole may take, each with the new holes inside it.
    fn options(&mut self, hole: &Open) -> Result<Vec<(Value, Vec<Open>)>, LazyError> {
        let d = hole.depth;
        let mut fresh = |ty: &Ty, depth: u32, path: &Rc<Vec<DataRef>>| {
            let id = self.next_hole;
            self.next_hole += 1;
            (Value::Hole(id), Open { id, ty: ty.clone(), depth, path: path.clone() })
        };
        Ok(match &hole.ty {
            Ty::Int { lo, hi } => {
                let (lo, hi) = int_window(*lo, *hi, d);
                (lo..=hi).map(|i| (Value::Int(i), Vec::new())).collect()
            }
            Ty::Bool => vec![(Value::Bool(false), Vec::new()), (Value::Bool(true), Vec::new())],
            Ty::Seq(elem) => (0..=d)
                .map(|n| {
                    let (xs, open): (Vec<Value>, Vec<Open>) = (0..n).map(|_| fresh(elem, below(d), &hole.path)).unzip();
                    (Value::Seq(xs), open)
                })
                .collect(),
            Ty::Set(_) => return Err(LazyError::Type(format!("a set-typed input (`{}`)", hole.ty.name()))),
            Ty::Data(r) => {
                let def = r.get();
                let mut path = hole.path.as_ref().clone();
                path.push(r.clone());
                let path = Rc::new(path);
                // None at all: no completion of this partial input fits the
                // depth, and it is dropped.
                let (ctors, _) = constructors(&def, &path, d, false);
                ctors
                    .into_iter()
                    .map(|c| {
                        let (fields, open): (Vec<Value>, Vec<Open>) =
                            def.ctors[c].fields.iter().map(|f| fresh(&f.ty, below(d), &path)).unzip();
                        (Value::Data { def: def.clone(), ctor: c, fields }, open)
                    })
                    .collect()
            }
        })
    }

    /// Fills `hole` in `p` every way it can be, pushing the results.
    fn expand(&mut self, p: Partial, hole: u32, decided: bool) -> Result<(), LazyError> {
        let i = p.open.iter().position(|o| o.id == hole).expect("a needed hole is open");
        let mut rest = p.open.clone();
        let filled = rest.remove(i);
        let options = self.options(&filled)?;
        if options.is_empty() {
            // No value fits here at this depth: nothing completes `p`.
            self.pruned += 1;
        }
        // Pushed in reverse, so the simplest option is explored first.
        for (v, new) in options.into_iter().rev() {
            let args = p.args.iter().map(|a| fill(a, hole, &v)).collect();
            let mut open = rest.clone();
            open.extend(new);
            self.stack.push(Partial { args, open, decided });
        }
        Ok(())
    }

    fn step(&mut self) -> Result<Option<Vec<Value>>, LazyError> {
        while let Some(p) = self.stack.pop() {
            if p.decided {
                match p.open.first() {
                    None => return Ok(Some(p.args)),
                    Some(o) => {
                        let id = o.id;
                        self.expand(p, id, true)?;
                        continue;
                    }
                }
            }
            if self.limit.is_some_and(|l| self.evaluated >= l) {
                self.stack.push(p);
                return Err(LazyError::Budget(self.evaluated));
            }
            self.evaluated += 1;
            match self.decide(&p.args).map_err(LazyError::Eval)? {
                Decision::Refuted => self.pruned += 1,
                Decision::Needs(h) => self.expand(p, h, false)?,
                Decision::True => match p.open.first() {
                    None => return Ok(Some(p.args)),
                    Some(o) => {
                        let id = o.id;
                        let decided = p.open.iter().all(|o| !has_refinements(&o.ty, &mut BTreeSet::new()));
                        self.expand(p, id, decided)?;
                    }
                },
            }
        }
        Ok(None)
    }
}

/// `v` with hole `hole` replaced by `by`.
fn fill(v: &Value, hole: u32, by: &Value) -> Value {
    match v {
        Value::Hole(h) if *h == hole => by.clone(),
        Value::Data { def, ctor, fields } => {
            Value::Data { def: def.clone(), ctor: *ctor, fields: fields.iter().map(|f| fill(f, hole, by)).collect() }
        }
        Value::Seq(xs) => Value::Seq(xs.iter().map(|x| fill(x, hole, by)).collect()),
        other => other.clone(),
    }
}

/// True when some value of `ty` carries a field refinement.
fn has_refinements(ty: &Ty, seen: &mut BTreeSet<&'static str>) -> bool {
    match ty {
        Ty::Int { .. } | Ty::Bool => false,
        Ty::Seq(t) | Ty::Set(t) => has_refinements(t, seen),
        Ty::Data(r) => {
            if !seen.insert(r.name) {
                return false;
            }
            let def = r.get();
            def.ctors.iter().flat_map(|c| &c.fields).any(|f| f.refine.is_some() || has_refinements(&f.ty, seen))
        }
    }
}

impl Iterator for Lazy<'_> {
    type Item = Result<Vec<Value>, LazyError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        if let Some(why) = self.unbounded.take() {
            self.failed = true;
            self.stack.clear();
            return Some(Err(LazyError::Unbounded(why)));
        }
        match self.step() {
            Ok(Some(v)) => {
                self.found += 1;
                Some(Ok(v))
            }
            Ok(None) => None,
            Err(e) => {
                self.failed = true;
                self.stack.clear();
                Some(Err(e))
            }
        }
    }
}
