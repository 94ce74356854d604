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

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use speccheck_spec::{DataRef, EvalError, Expr, Hint, Measures, Ty, Value};

use crate::depth::{below, constructors, int_window, partial_height, reach};
use crate::incremental::Pending;
use crate::judge::{Decision, Judge, Open, Partial, fill_args, has_refinements, locate};

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
    /// The sampler's judgement of a partial input (by what the last fill
    /// changed) and the evaluator's (of the whole input) differ: a bug in
    /// speccheck, reported instead of an input that may be wrong. Only
    /// [`crate::sample::Sampler::verify_every_step`] checks each step: an
    /// input the sampler returns is re-checked by its caller
    /// ([`crate::SampleInputs`]), which reports a disagreement itself.
    #[error("the sampler and the evaluator disagree (a bug in speccheck: please report it): {0}")]
    Disagreement(String),
    /// The time set by [`Lazy::pause_at`] came, or the flag of
    /// [`Lazy::stop_when`] was set, before the next input: nothing is lost,
    /// and the next call goes on from where the enumeration was.
    #[error("interrupted before the next input")]
    Interrupted,
}

/// The fills on the way to a partial input, the last first.
struct Chain {
    hole: u32,
    value: Value,
    up: Option<Rc<Chain>>,
}

/// Every input satisfying a spec up to a depth, refuted partial inputs
/// skipped whole.
pub struct Lazy<'m> {
    judge: Judge<'m>,
    /// At most this many partial inputs evaluated.
    limit: Option<u64>,
    /// Partial inputs still to judge, each with the fills on its way.
    stack: Vec<(Partial, Option<Rc<Chain>>)>,
    /// What the holes of the partial input judged were filled with (set
    /// from its chain for the judgement, see [`crate::incremental`]).
    fills: Vec<Option<Value>>,
    hints: Vec<Hint>,
    next_hole: u32,
    failed: bool,
    /// A type no depth bounds, reported as the first item.
    unbounded: Option<String>,
    /// Only inputs at least this tall ([`crate::depth::input_height`]).
    min_height: u32,
    types: Vec<Ty>,
    /// What [`reach`] worked out.
    reach: HashMap<(DataRef, u32), u32>,
    /// The open holes' reach, for the partial input looked at.
    hole_reach: Vec<(u32, u32)>,
    /// Set when nobody wants the inputs any more.
    stop: Option<Arc<AtomicBool>>,
    /// When to pause (see [`LazyError::Interrupted`]).
    pause: Option<Instant>,
    /// Partial inputs taken since the enumeration began or went on.
    ticks: u32,
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
                .map(|(i, (_, ty))| Open { id: i as u32, ty: ty.clone(), bound: depth, path: Rc::default() })
                .collect(),
            decided: false,
            pending: None,
            filled: None,
        };
        Lazy {
            judge: Judge::new(params, requires, measures),
            limit: None,
            stack: vec![(root, None)],
            fills: Vec::new(),
            hints: Vec::new(),
            next_hole: n,
            failed: false,
            unbounded: params.iter().find_map(|(_, ty)| ty.unbounded()),
            min_height: 0,
            types: params.iter().map(|(_, ty)| ty.clone()).collect(),
            reach: HashMap::new(),
            hole_reach: Vec::new(),
            stop: None,
            pause: None,
            ticks: 0,
            found: 0,
            pruned: 0,
            evaluated: 0,
        }
    }

    /// With `name` bound to the fixed `value` in every spec (a generated
    /// function's input, when searching for its outputs).
    pub fn given(mut self, name: impl Into<String>, value: Value) -> Self {
        self.judge.given.push((name.into(), value));
        self
    }

    /// Stops with [`LazyError::Budget`] after evaluating `evaluations`
    /// partial inputs.
    pub fn limit(mut self, evaluations: u64) -> Self {
        self.limit = Some(evaluations);
        self
    }

    /// Only the inputs at least `height` tall (as the solver's heights
    /// count, [`crate::depth::input_height`]). A partial input none of
    /// whose completions within the depth can be that tall is dropped
    /// whole, as a refuted one is.
    pub fn at_least(mut self, height: u32) -> Self {
        self.min_height = height;
        self
    }

    /// Stops with [`LazyError::Interrupted`] soon after `flag` is set (the
    /// run the inputs were for is over).
    pub fn stop_when(mut self, flag: Arc<AtomicBool>) -> Self {
        self.stop = Some(flag);
        self
    }

    /// Pauses with [`LazyError::Interrupted`] soon after `when` (a trial's
    /// end), or never; the enumeration goes on at the next call.
    pub fn pause_at(&mut self, when: Option<Instant>) {
        self.pause = when;
    }

    /// Whether `p` has no completion tall enough.
    fn too_short(&mut self, p: &Partial) -> bool {
        if self.min_height == 0 {
            return false;
        }
        // Each partial input is looked at once: the holes' reach goes in a
        // buffer kept from one to the next (a map per input showed).
        let mut holes = std::mem::take(&mut self.hole_reach);
        holes.clear();
        holes.extend(p.open.iter().map(|o| (o.id, reach(&o.ty, o.bound, &mut self.reach))));
        let reach_of = |id: u32| holes.iter().find(|(h, _)| *h == id).map_or(0, |(_, r)| *r);
        let short = partial_height(&p.args, &self.types, &reach_of) < self.min_height;
        self.hole_reach = holes;
        short
    }

    /// Whether to stop before the next partial input (checked every few
    /// of them: a clock read costs more than judging a small one; never
    /// at the first, so that each call gets somewhere).
    fn interrupted(&mut self) -> bool {
        self.ticks = self.ticks.wrapping_add(1);
        self.ticks.is_multiple_of(64)
            && (self.stop.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
                || self.pause.is_some_and(|t| Instant::now() >= t))
    }

    /// True once every input was produced.
    pub fn is_complete(&self) -> bool {
        self.stack.is_empty() && !self.failed
    }

    /// The values a hole may take, each with the new holes inside it.
    fn options(&mut self, hole: &Open) -> Result<Vec<(Value, Vec<Open>)>, LazyError> {
        let d = hole.bound;
        let mut fresh = |ty: &Ty, depth: u32, path: &Rc<Vec<DataRef>>| {
            let id = self.next_hole;
            self.next_hole += 1;
            (Value::Hole(id), Open { id, ty: ty.clone(), bound: depth, path: path.clone() })
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
                let path = hole.path_into(r);
                // None at all: no completion of this partial input fits the
                // depth, and it is dropped.
                let (ctors, _) = constructors(def, &path, d, false);
                ctors
                    .into_iter()
                    .map(|c| {
                        let (fields, open): (Vec<Value>, Vec<Open>) =
                            def.ctors[c].fields.iter().map(|f| fresh(&f.ty, below(d), &path)).unzip();
                        (Value::Data { def, ctor: c, fields: fields.into() }, open)
                    })
                    .collect()
            }
        })
    }

    /// Fills `hole` in `p` every way it can be, pushing the results, each
    /// with what the specs left undecided on `p` (`pending`).
    fn expand(
        &mut self,
        p: Partial,
        chain: Option<Rc<Chain>>,
        hole: u32,
        decided: bool,
        pending: Option<Rc<Pending>>,
    ) -> Result<(), LazyError> {
        let i = p.open.iter().position(|o| o.id == hole).expect("a needed hole is open");
        let mut rest = p.open.clone();
        let filled = rest.remove(i);
        let options = self.options(&filled)?;
        let way = locate(&p.args, hole);
        if options.is_empty() {
            // No value fits here at this depth: nothing completes `p`.
            self.pruned += 1;
        }
        // Pushed in reverse, so the simplest option is explored first.
        for (v, new) in options.into_iter().rev() {
            let args = fill_args(&p.args, way.as_deref(), hole, &v);
            let mut open = rest.clone();
            open.extend(new);
            let up = Some(Rc::new(Chain { hole, value: v.clone(), up: chain.clone() }));
            let child = Partial { args, open, decided, pending: pending.clone(), filled: Some((hole, v)) };
            self.stack.push((child, up));
        }
        Ok(())
    }

    /// Sets (or clears) the fills on `chain`.
    fn set_fills(&mut self, chain: &Option<Rc<Chain>>, on: bool) {
        let mut at = chain.as_deref();
        while let Some(c) = at {
            let i = c.hole as usize;
            if self.fills.len() <= i {
                self.fills.resize(i + 1, None);
            }
            self.fills[i] = on.then(|| c.value.clone());
            at = c.up.as_deref();
        }
    }

    fn step(&mut self) -> Result<Option<Vec<Value>>, LazyError> {
        while let Some((p, chain)) = self.stack.pop() {
            // Checked before any work on `p`, judged or not: a long run of
            // decided or too short partial inputs is interruptible too.
            if self.interrupted() {
                self.ticks = 0;
                self.stack.push((p, chain));
                return Err(LazyError::Interrupted);
            }
            if self.too_short(&p) {
                self.pruned += 1;
                continue;
            }
            if p.decided {
                match p.open.first() {
                    None => return Ok(Some(p.args)),
                    Some(o) => {
                        let id = o.id;
                        self.expand(p, chain, id, true, None)?;
                        continue;
                    }
                }
            }
            if self.limit.is_some_and(|l| self.evaluated >= l) {
                self.stack.push((p, chain));
                return Err(LazyError::Budget(self.evaluated));
            }
            self.evaluated += 1;
            // Judged by what the last fill changed (see `crate::incremental`).
            self.hints.clear();
            let judged = match (&p.pending, &p.filled) {
                (Some(before), Some((hole, by))) => {
                    self.set_fills(&chain, true);
                    let r = self.judge.resume(before, *hole, by, &self.fills, &mut self.hints);
                    self.set_fills(&chain, false);
                    r
                }
                _ => self.judge.start(&p.args, &mut self.hints),
            };
            let (decision, pending) = judged.map_err(LazyError::Eval)?;
            let pending = Some(Rc::new(pending));
            match decision {
                Decision::Refuted => self.pruned += 1,
                Decision::Needs(h) => self.expand(p, chain, h, false, pending)?,
                Decision::True => match p.open.first() {
                    None => return Ok(Some(p.args)),
                    Some(o) => {
                        let id = o.id;
                        let decided = p.open.iter().all(|o| !has_refinements(&o.ty, &mut Vec::new()));
                        self.expand(p, chain, id, decided, pending)?;
                    }
                },
            }
        }
        Ok(None)
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
            // Nothing lost: the next call goes on.
            Err(LazyError::Interrupted) => Some(Err(LazyError::Interrupted)),
            Err(e) => {
                self.failed = true;
                self.stack.clear();
                Some(Err(e))
            }
        }
    }
}
