//! Judging a partial input by what the last fill changed: the specs are
//! decided once, conjunct by conjunct, and what they leave undecided
//! (residuals, see [`speccheck_spec::Residual`]) is taken up again only
//! when a hole it waits on is filled, together with the refinements
//! inside the value that filled it. Judging the whole input again after
//! each fill ([`Judge::decide`]) costs what the input holds; this costs
//! what the fill adds. The sampler and the lazy enumeration judge this
//! way; every input either returns is judged whole once more before it is
//! used ([`crate::strategy`]'s re-check of every strategy's input).

use std::rc::Rc;
use std::sync::Arc;

use speccheck_spec::refined::{field_binding_static, field_place};
use speccheck_spec::{DataDef, Env, EvalError, Expr, Hint, Residual, Side, Value};

use crate::judge::{Decision, Judge};

/// What the specs left undecided on a partial input.
#[derive(Clone, Default)]
pub(crate) struct Pending {
    residuals: Vec<(Rc<Residual>, Origin)>,
}

/// The spec a residual comes from, to name it in an error.
#[derive(Clone)]
enum Origin {
    Field(&'static DataDef, usize, usize),
    Arguments(Arc<Expr>),
}

impl Origin {
    /// `e`, said of this spec (as [`speccheck_spec::refined::refinement_holds`] does).
    fn error(&self, e: EvalError) -> EvalError {
        if let EvalError::In { .. } = e {
            return e;
        }
        let (spec, at) = match self {
            Origin::Field(def, c, f) => (
                def.ctors[*c].fields[*f].refine.as_ref().map(ToString::to_string).unwrap_or_default(),
                field_place(def, *c, *f),
            ),
            Origin::Arguments(spec) => (spec.to_string(), "the arguments".to_string()),
        };
        EvalError::In { spec, at, error: Box::new(e) }
    }
}

impl Judge<'_> {
    /// Judges `args` whole, keeping what is undecided; the comparisons met
    /// with holes go to `hints`.
    pub(crate) fn start(&self, args: &[Value], hints: &mut Vec<Hint>) -> Result<(Decision, Pending), EvalError> {
        let mut p = Pending::default();
        for a in args {
            if !self.refined(a, &[], &mut p.residuals)? {
                return Ok((Decision::Refuted, p));
            }
        }
        let mut env = self.arguments(args);
        for spec in &self.shared_requires {
            let origin = Origin::Arguments(spec.clone());
            let mut out = Vec::new();
            if !env.residuals(spec, &mut out).map_err(|e| origin.error(e))? {
                return Ok((Decision::Refuted, p));
            }
            p.residuals.extend(out.into_iter().map(|r| (Rc::new(r), origin.clone())));
        }
        Ok((decision(&p, hints), p))
    }

    /// Judges the input `before` described with `hole` filled by `by`;
    /// `fills` says what every hole filled so far was filled with, that
    /// one included (the residuals hold the values as they were when they
    /// were left).
    pub(crate) fn resume(
        &self,
        before: &Pending,
        hole: u32,
        by: &Value,
        fills: &[Option<Value>],
        hints: &mut Vec<Hint>,
    ) -> Result<(Decision, Pending), EvalError> {
        self.memo.borrow_mut().new_fills();
        // The parts' own refinements first, then what the arguments
        // require (the order a whole judgement meets them in): a part is
        // built to its invariant before the whole is.
        let mut residuals = Vec::with_capacity(before.residuals.len() + 4);
        let mut requires = Vec::new();
        // One scope for every residual taken up (emptied for each).
        let mut env = Env::memoized(self.measures, &self.memo).with_fills(fills);
        let mut new = Vec::new();
        for (r, origin) in &before.residuals {
            let to = if matches!(origin, Origin::Field(..)) { &mut residuals } else { &mut requires };
            // Waiting on this hole, or compared with it (a hint to draw the
            // hole it waits on within a bound that is now known).
            let woken = r.woken_by(hole) || r.hints().iter().any(|h| h.other == Side::Needs(hole));
            if !woken {
                to.push((r.clone(), origin.clone()));
                continue;
            }
            env.empty_scope();
            let holds = env.resume(r, &mut new).map_err(|e| origin.error(e))?;
            to.extend(new.drain(..).map(|n| (Rc::new(n), origin.clone())));
            if !holds {
                return Ok((Decision::Refuted, Pending::default()));
            }
        }
        if !self.refined(by, fills, &mut residuals)? {
            return Ok((Decision::Refuted, Pending::default()));
        }
        residuals.append(&mut requires);
        let p = Pending { residuals };
        Ok((decision(&p, hints), p))
    }

    /// Decides the refinements inside `v`, keeping what is undecided.
    fn refined(
        &self,
        v: &Value,
        fills: &[Option<Value>],
        out: &mut Vec<(Rc<Residual>, Origin)>,
    ) -> Result<bool, EvalError> {
        match v {
            Value::Int(_) | Value::Bool(_) | Value::Hole(_) => Ok(true),
            Value::Seq(xs) => {
                for x in xs {
                    if !self.refined(x, fills, out)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            Value::Set(xs) => {
                for x in xs {
                    if !self.refined(x, fills, out)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            // A part of a checked input (the sampler's splicing): its
            // refinements hold.
            Value::Data { fields, .. } if self.memo.borrow().verified(fields) => Ok(true),
            Value::Data { def, ctor, fields } => {
                let c = &def.ctors[*ctor];
                for i in 0..c.fields.len() {
                    let Some(spec) = self.field_spec(def, *ctor, i) else { continue };
                    let mut env = Env::memoized(self.measures, &self.memo).with_fills(fills);
                    for (fd, fv) in c.fields.iter().zip(fields.iter()).take(i + 1) {
                        env.bind(field_binding_static(&fd.name), fv.clone());
                    }
                    let origin = Origin::Field(def, *ctor, i);
                    let mut new = Vec::new();
                    if !env.residuals(&spec, &mut new).map_err(|e| origin.error(e))? {
                        return Ok(false);
                    }
                    out.extend(new.into_iter().map(|r| (Rc::new(r), origin.clone())));
                }
                for f in fields.iter() {
                    if !self.refined(f, fills, out)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
        }
    }

    /// The refinement of field `field` of constructor `ctor`, shared.
    fn field_spec(&self, def: &DataDef, ctor: usize, field: usize) -> Option<Arc<Expr>> {
        let key = (std::ptr::from_ref(def) as usize, ctor, field);
        self.field_specs
            .borrow_mut()
            .entry(key)
            .or_insert_with(|| def.ctors[ctor].fields[field].refine.clone().map(Arc::new))
            .clone()
    }
}

/// What the residuals say: none left, every spec holds; else the first
/// one's hole is needed. Every residual's hints go to `hints`.
fn decision(p: &Pending, hints: &mut Vec<Hint>) -> Decision {
    for (r, _) in &p.residuals {
        hints.extend_from_slice(r.hints());
    }
    match p.residuals.first() {
        None => Decision::True,
        Some((r, _)) => Decision::Needs(r.hole()),
    }
}
