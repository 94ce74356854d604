//! Reducing a counterexample program with speccheck's own machinery.
//!
//! A client program is encoded as the choices of a *program generator*
//! (`ProgramGen`): which law it ends with, then for each statement a
//! "more" choice (inside a slot span, so deleting the span deletes the
//! statement), which function, and for each argument which earlier result
//! of the right type (counted from the oldest) or — for ground types —
//! "a literal" followed by the literal's own choices. Generating from a
//! choice sequence *runs* the program, since which results exist depends
//! on what the calls return.
//!
//! The program found by the search is encoded by running it against a
//! script (`encode`), then handed to the core runner as a replay
//! (`Property` with `SPECCHECK_REPLAY`-style replay), which
//!
//! 1. replays it and runs the **core choice-sequence shrinker** on it:
//!    deleting statement spans drops calls, lowering an argument's choice
//!    picks an older (simpler) result or a literal, minimizing a literal's
//!    choices simplifies it;
//! 2. runs `ProgramReducer` as the run's explanation step: a bounded
//!    delta-debugging pass that knows the choices are a program — it drops
//!    calls whose results nothing uses (which the shrinker cannot do when a
//!    later call refers to them by position) and tries *every* older value
//!    for each argument (the shrinker's binary search assumes that smaller
//!    choices fail monotonically; "which earlier value" does not), then
//!    hands the result back to the core shrinker, until neither helps.
//!
//! Every candidate is kept only if it fails the same way (the same law,
//! the same panic location, the same function disagreeing with the
//! reference) and is strictly smaller in shortlex order; the core runner
//! re-checks the final one, watches every replay for hangs, and produces
//! the replay string.

use speccheck_core::test_case::CaseControl as _;
use std::cmp::Ordering;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::sync::{Arc, Mutex};

pub(crate) mod direct;
pub(crate) mod hints;

use rand::Rng;
use speccheck_core::runner::{CaseResult, ExplainContext, Explainer, Explanation, FailureInfo, RunVerdict};
use speccheck_core::test_case::catch_invalid;
use speccheck_core::{
    ChoiceKind, ChoiceSequence, Encoder, ExplainMode, Generator, Invalid, Outcome, Property, RunReport, Tail, Term,
    TestCase, Verbosity, shortlex,
};

use crate::config::Config;
use crate::describe::Args;
use crate::describe::Dyn;
use crate::describe::{Api, CallError, LawVerdict, Mode, Shape};
use crate::engine::{call_panicked, law_failed, law_panicked, mismatch};
use crate::memory::{Exceeded, Meter};
use crate::panics::capture;
use crate::program::{ArgExpr, Ending, Program, Stmt, VarRef};
use crate::provenance::{Literal, Step};

/// Programs longer than this go through [`direct::delete_chunks`] before
/// the shrinker.
pub(crate) const DELETE_CHUNKS_FROM: usize = 64;

/// Longest program the shrinker takes: its replays keep every value a
/// program makes (a later statement may name any), so much longer ones are
/// cut down by chunk deletion only (which, like [`encode`], runs a known
/// program and drops each value after its last use).
pub(crate) const SHRINK_AT_MOST: usize = 1000;

/// Longest program the generator draws.
const MAX_STATEMENTS: usize = 100_000;

/// A value a statement produced.
pub(crate) struct Binding {
    ty: usize,
    /// `None` once past its last use (running a known program): the
    /// binding keeps its number, which later choices count by.
    value: Option<Dyn>,
    var: VarRef,
}

impl Binding {
    fn value(&self) -> &Dyn {
        self.value.as_ref().expect("a value is used after its last counted use")
    }
}

/// Where one argument's value comes from when the call is made.
enum ArgVal {
    Binding(usize),
    Owned(Dyn),
}

/// What an atom argument is.
pub(crate) enum Pick {
    Binding(usize),
    Literal(Dyn, Arc<Literal>),
}

/// Where the executor's decisions come from: choices of a test case, or a
/// script that writes the choices of a known program.
pub(crate) trait Source {
    fn target(&mut self, n: usize) -> usize;
    fn more(&mut self, count: usize) -> bool;
    fn statement(&mut self, open: bool);
    fn cancel_statement(&mut self);
    fn function(&mut self, n: usize) -> usize;
    fn atom(&mut self, api: &Api, ty: usize, available: &[usize], bindings: &[Binding]) -> Pick;
    fn variant(&mut self, n: usize) -> usize;
    fn item(&mut self, count: usize, max: usize) -> bool;
    /// True once the source no longer follows its program (a script out
    /// of step): what it picks then may be a value already dropped, so
    /// nothing more is called.
    fn diverged(&self) -> bool {
        false
    }
}

/// A program run from a source.
pub(crate) struct Executed {
    pub(crate) program: Program,
    /// The failure of a statement (the program then ends there).
    pub(crate) failure: Option<FailureInfo>,
    law: Option<(usize, Vec<ArgVal>)>,
    bindings: Vec<Binding>,
    /// Set when the memory budget stopped the program before its end.
    pub(crate) out_of_memory: Option<crate::memory::Exceeded>,
    /// Set when it named a value after the last use its hints gave.
    lost: bool,
}

impl Executed {
    /// Checks the pending law, if the program ends with one.
    fn verdict(self, api: &Api) -> Outcome {
        if let Some(f) = self.failure {
            return Outcome::Fail(f);
        }
        let Some((law, vals)) = self.law else { return Outcome::Pass };
        let spec = &api.laws[law];
        let bindings = &self.bindings;
        let mut args = Args::with_capacity(vals.len());
        for (v, p) in vals.into_iter().zip(&spec.law.params) {
            match (v, p.mode) {
                (ArgVal::Binding(i), Mode::Ref) => args.push_borrowed(&**bindings[i].value()),
                (ArgVal::Binding(i), _) => {
                    args.push_owned((api.types[bindings[i].ty].ops.clone)(&**bindings[i].value()))
                }
                (ArgVal::Owned(d), _) => args.push_owned(d),
            }
        }
        match capture(|| (spec.check)(&mut args)) {
            Ok(LawVerdict::Holds) => Outcome::Pass,
            Ok(LawVerdict::Aborted) => Outcome::Discard { reason: format!("precondition of law `{}`", spec.law.name) },
            Ok(LawVerdict::Fails) => Outcome::Fail(law_failed(api, law).0),
            Err(c) => Outcome::Fail(law_panicked(api, law, c).0),
        }
    }
}

/// Uses of each value a known program makes (how many arguments name it).
pub(crate) type Uses = std::collections::HashMap<VarRef, u32>;

/// How a run knows how often each value it makes is used.
#[derive(Clone, Copy)]
pub(crate) enum Liveness<'a> {
    /// A known program's uses, by the value's name.
    Named(&'a Uses),
    /// Uses by the value's number, in the order the run makes them (the
    /// hints a saved replay comes with: see [`hints`]).
    Numbered(&'a [u32]),
}

struct Executor<'a> {
    api: &'a Api,
    list_max: usize,
    bindings: Vec<Binding>,
    available: Vec<Vec<usize>>,
    /// Running a known program: the uses of each value it makes, and per
    /// binding the uses left. A value is dropped after the statement that
    /// uses it last, so a long program runs in the memory of its live
    /// values. Without them (choices, which may name any earlier value),
    /// every value is kept.
    uses: Option<Liveness<'a>>,
    left: Vec<u32>,
    /// Bindings whose last use is in the statement being run.
    dying: Vec<usize>,
    /// Set when a value was named after what `uses` said was its last use
    /// (a replay that does not run as the one its hints were taken from).
    lost: bool,
}

impl Executor<'_> {
    fn produce(&mut self, shape: &Shape, src: &mut dyn Source) -> (ArgVal, ArgExpr) {
        match shape {
            Shape::Atom(k) => match src.atom(self.api, *k, &self.available[*k], &self.bindings) {
                Pick::Binding(i) => {
                    let b = self.available[*k][i];
                    self.lost |= self.bindings[b].value.is_none();
                    if self.stopped(src) {
                        // Maybe a value already dropped: never looked at
                        // (nothing more is called), only stands in.
                        return (ArgVal::Owned(Box::new(())), ArgExpr::Var(self.bindings[b].var.clone()));
                    }
                    if let Some(left) = self.left.get_mut(b) {
                        *left = left.saturating_sub(1);
                        if *left == 0 {
                            self.dying.push(b);
                        }
                    }
                    (ArgVal::Binding(b), ArgExpr::Var(self.bindings[b].var.clone()))
                }
                Pick::Literal(v, lit) => (ArgVal::Owned(v), ArgExpr::Literal(lit)),
            },
            Shape::Data(d, vs) => {
                let v = src.variant(vs.len());
                let mut values = Vec::new();
                let mut exprs = Vec::new();
                for f in vs[v].iter() {
                    let (val, e) = self.produce(f, src);
                    values.push(val);
                    exprs.push(e);
                }
                let expr = ArgExpr::Data { variant: v, fields: exprs };
                if self.stopped(src) {
                    return (ArgVal::Owned(Box::new(())), expr);
                }
                let values = values.into_iter().map(|val| self.owned(val)).collect();
                (ArgVal::Owned(d.ops.build(v, values)), expr)
            }
            Shape::List(l, e) => {
                let max = l.max_len.unwrap_or(self.list_max);
                let mut values = Vec::new();
                let mut exprs = Vec::new();
                while src.item(values.len(), max) {
                    let (val, ex) = self.produce(e, src);
                    values.push(val);
                    exprs.push(ex);
                }
                let expr = ArgExpr::List(exprs);
                if self.stopped(src) {
                    return (ArgVal::Owned(Box::new(())), expr);
                }
                let values = values.into_iter().map(|val| self.owned(val)).collect();
                (ArgVal::Owned(l.ops.build(values)), expr)
            }
        }
    }

    /// Whether nothing more may be called: the source no longer follows
    /// its program, or a value was named after its last use.
    fn stopped(&self, src: &dyn Source) -> bool {
        self.lost || src.diverged()
    }

    fn owned(&self, v: ArgVal) -> Dyn {
        match v {
            ArgVal::Binding(i) => (self.api.types[self.bindings[i].ty].ops.clone)(&**self.bindings[i].value()),
            ArgVal::Owned(d) => d,
        }
    }

    /// Binding `b` given by value: moved out on its last use when nothing
    /// else in the statement names it (`once`), copied otherwise.
    fn given(&mut self, b: usize, once: bool) -> Dyn {
        if once
            && self.left.get(b) == Some(&0)
            && let Some(v) = self.bindings[b].value.take()
        {
            return v;
        }
        self.owned(ArgVal::Binding(b))
    }

    fn bind(&mut self, ty: usize, value: Dyn, var: VarRef) {
        let value = match self.uses {
            Some(uses) => {
                let n = match uses {
                    Liveness::Named(uses) => uses.get(&var).copied().unwrap_or(0),
                    Liveness::Numbered(uses) => uses.get(self.bindings.len()).copied().unwrap_or(0),
                };
                self.left.push(n);
                // Nothing names it: dropped now.
                (n > 0).then_some(value)
            }
            None => Some(value),
        };
        self.available[ty].push(self.bindings.len());
        self.bindings.push(Binding { ty, value, var });
    }

    /// Drops the values whose last use was the statement just run.
    fn bury(&mut self) {
        for b in self.dying.drain(..) {
            self.bindings[b].value = None;
        }
    }

    fn destruct(&mut self, shape: &Shape, value: Dyn, stmt: usize, path: &mut Vec<Step>) {
        let _ = shape.parts::<()>(value, path, &mut |k, v, at| {
            self.bind(k, v, VarRef::Part { stmt, path: at.to_vec() });
            Ok(())
        });
    }
}

/// Runs the program `src` describes. `uses` (see [`Executor`]) lets it
/// drop each value after its last use; `meter` stops it at the memory
/// budget.
pub(crate) fn execute(
    api: &Api,
    src: &mut dyn Source,
    list_max: usize,
    uses: Option<Liveness<'_>>,
    meter: Option<&Meter>,
) -> Executed {
    let mut ex = Executor {
        api,
        list_max,
        bindings: Vec::new(),
        available: vec![Vec::new(); api.types.len()],
        uses,
        left: Vec::new(),
        dying: Vec::new(),
        lost: false,
    };
    let target = src.target(api.laws.len() + 1);
    let mut statements: Vec<Stmt> = Vec::new();
    let mut failure = None;
    let mut out_of_memory = None;
    loop {
        if let Some(m) = meter
            && m.tick()
        {
            out_of_memory = m.exceeded();
            break;
        }
        src.statement(true);
        if !src.more(statements.len()) {
            src.cancel_statement();
            break;
        }
        let f = src.function(api.functions.len());
        let spec = &api.functions[f];
        let mut vals = Vec::with_capacity(spec.args.len());
        let mut exprs = Vec::with_capacity(spec.args.len());
        for shape in &spec.args {
            let (v, e) = ex.produce(shape, src);
            vals.push(v);
            exprs.push(e);
        }
        src.statement(false);
        if ex.stopped(src) {
            break;
        }
        let si = statements.len();
        statements.push(Stmt { fun: f, args: exprs });
        let mut args = Args::with_capacity(vals.len());
        let mut owned_vals = Vec::with_capacity(vals.len());
        let named = |b: usize| vals.iter().filter(|v| matches!(v, ArgVal::Binding(c) if *c == b)).count();
        let once: Vec<bool> = vals.iter().map(|v| matches!(v, ArgVal::Binding(b) if named(*b) == 1)).collect();
        // Values given by value are taken first, so that lending the
        // others from `ex.bindings` does not overlap with them.
        for ((v, p), once) in vals.into_iter().zip(&spec.f.params).zip(once) {
            owned_vals.push(match (v, p.mode) {
                (ArgVal::Binding(i), Mode::Ref) => ArgVal::Binding(i),
                (ArgVal::Binding(i), _) => ArgVal::Owned(ex.given(i, once)),
                (v, _) => ArgVal::Owned(ex.owned(v)),
            });
        }
        for v in owned_vals {
            match v {
                ArgVal::Binding(i) => args.push_borrowed(&**ex.bindings[i].value()),
                ArgVal::Owned(d) => args.push_owned(d),
            }
        }
        let r = capture(|| (spec.call)(&mut args));
        let mut mutated = Vec::new();
        if matches!(r, Ok(Ok(_))) {
            for (i, p) in spec.f.params.iter().enumerate() {
                if p.mode == Mode::Mut
                    && let (Shape::Atom(k), Some(v)) = (&spec.args[i], args.take_dyn(i))
                {
                    mutated.push((*k, v, i));
                }
            }
        }
        drop(args);
        ex.bury();
        match r {
            Err(c) if !spec.f.panics_allowed => {
                failure = Some(call_panicked(api, f, c).0);
                break;
            }
            Err(_) | Ok(Err(CallError::Refused)) => {}
            Ok(Err(CallError::Mismatch(m))) => {
                failure = Some(mismatch(api, f, m).0);
                break;
            }
            Ok(Ok(result)) => {
                for (k, v, i) in mutated {
                    ex.bind(k, v, VarRef::Mutated { stmt: si, arg: i });
                }
                ex.destruct(&spec.ret, result, si, &mut Vec::new());
            }
        }
    }
    let mut law = None;
    let ending = if target > 0 && failure.is_none() && out_of_memory.is_none() && !ex.lost {
        let l = target - 1;
        let mut vals = Vec::new();
        let mut exprs = Vec::new();
        for shape in &api.laws[l].args {
            let (v, e) = ex.produce(shape, src);
            vals.push(v);
            exprs.push(e);
        }
        law = Some((l, vals));
        Ending::Law { law: l, args: exprs }
    } else {
        Ending::Call
    };
    Executed {
        program: Program { statements, ending },
        failure,
        law,
        bindings: ex.bindings,
        out_of_memory,
        lost: ex.lost,
    }
}

// ----- drawing programs from a test case ------------------------------------------

fn program_info() -> speccheck_core::TypeInfo {
    speccheck_core::TypeInfo::of::<Program>(&[], false)
}

struct Draw<'t> {
    tc: &'t mut TestCase,
}

impl Source for Draw<'_> {
    fn target(&mut self, n: usize) -> usize {
        self.tc.draw_index(n)
    }
    fn more(&mut self, count: usize) -> bool {
        if count >= MAX_STATEMENTS {
            return false;
        }
        self.tc.draw_raw(1, ChoiceKind::More, |rng, _| u64::from(rng.random_ratio(7, 8)), |_| 2) == 1
    }
    fn statement(&mut self, open: bool) {
        if open {
            self.tc.start_span(speccheck_core::SpanKind::Slot, program_info, "");
        } else {
            self.tc.stop_span(speccheck_core::SpanKind::Slot);
        }
    }
    fn cancel_statement(&mut self) {
        self.tc.cancel_span(speccheck_core::SpanKind::Slot);
    }
    fn function(&mut self, n: usize) -> usize {
        self.tc.draw_index(n)
    }
    fn atom(&mut self, api: &Api, ty: usize, available: &[usize], _: &[Binding]) -> Pick {
        let t = &api.types[ty];
        match t.ground() {
            Some(g) => {
                let i = self.tc.draw_index(available.len() + 1);
                if i > 0 {
                    return Pick::Binding(i - 1);
                }
                let from = self.tc.choices().len();
                let v = (g.draw)(self.tc);
                let term = (g.term)(&*v);
                // Kept to encode the program again after reducing it (the
                // choices only describe the literal, they steer nothing).
                let choices = self.tc.choices().get(from..).map(<[_]>::to_vec).unwrap_or_default();
                Pick::Literal(v, Arc::new(Literal { term, choices }))
            }
            None => {
                if available.is_empty() {
                    self.tc.mark_invalid(Invalid::Other(format!("no `{}` built yet", t.name)));
                }
                Pick::Binding(self.tc.draw_index(available.len()))
            }
        }
    }
    fn variant(&mut self, n: usize) -> usize {
        self.tc.draw_index(n)
    }
    fn item(&mut self, count: usize, max: usize) -> bool {
        if count >= max {
            return false;
        }
        self.tc.draw_raw(1, ChoiceKind::More, |rng, _| u64::from(rng.random_ratio(1, 2)), |_| 2) == 1
    }
}

/// The last program run, kept when the reducer asks for it.
#[derive(Default)]
pub(crate) struct LastProgram {
    record: AtomicBool,
    program: Mutex<Option<Program>>,
}

/// The generator of client programs (see the module documentation).
pub(crate) struct ProgramGen {
    pub(crate) api: Arc<Api>,
    pub(crate) list_max: usize,
    pub(crate) last: Arc<LastProgram>,
    /// The memory budget: once over it, every program is invalid (the
    /// shrinker's candidates end at once, and the run with them).
    pub(crate) meter: Arc<Meter>,
    /// The uses of each value the replayed program makes (see [`hints`]):
    /// only for a replay shown as given, which runs no other program.
    pub(crate) hints: Option<Arc<Vec<u32>>>,
}

/// Why a program stopped by the memory budget is no program.
const OUT_OF_MEMORY: &str = "the memory budget was reached";

impl Generator for ProgramGen {
    type Value = Executed;
    fn generate(&self, tc: &mut TestCase) -> Executed {
        if self.meter.exceeded().is_some() {
            tc.mark_invalid(Invalid::Other(OUT_OF_MEMORY.to_string()));
        }
        let uses = self.hints.as_deref().map(|h| Liveness::Numbered(h));
        let run = execute(&self.api, &mut Draw { tc }, self.list_max, uses, Some(&self.meter));
        if run.out_of_memory.is_some() {
            drop(run);
            tc.mark_invalid(Invalid::Other(OUT_OF_MEMORY.to_string()));
        }
        if run.lost {
            drop(run);
            tc.mark_invalid(Invalid::Other(hints::LOST.to_string()));
        }
        if self.last.record.load(AtomicOrdering::Relaxed) {
            *self.last.program.lock().unwrap_or_else(|e| e.into_inner()) = Some(run.program.clone());
        }
        run
    }
}

/// The interface reducer, run by the core runner after its shrinker (as
/// its explanation step): it knows that the choices are a program, so it
/// drops calls whose results nothing uses (which the shrinker cannot do
/// when a later call refers to them by position), tries every older value
/// of the right type for each argument (not only a binary search), and
/// hands the result back to the shrinker, until neither helps.
pub(crate) struct ProgramReducer {
    pub(crate) api: Arc<Api>,
    pub(crate) list_max: usize,
    pub(crate) last: Arc<LastProgram>,
    pub(crate) meter: Arc<Meter>,
}

/// Most candidate programs the reducer's own passes run.
const REDUCER_STEPS: usize = 3000;

impl ProgramReducer {
    fn same_failure(a: &Outcome, b: &Outcome) -> bool {
        match (a, b) {
            (Outcome::Fail(x), Outcome::Fail(y)) => x.origin() == y.origin(),
            _ => false,
        }
    }

    /// The program behind a failing case (run once more, recording it).
    fn program_of(&self, ctx: &mut ExplainContext<'_>, choices: &ChoiceSequence) -> Option<Program> {
        self.last.record.store(true, AtomicOrdering::Relaxed);
        let _ = (ctx.run)(TestCase::replay(choices.0.clone(), Tail::Simplest).with_spans(true));
        self.last.record.store(false, AtomicOrdering::Relaxed);
        self.last.program.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    /// Drops dead calls; returns the smaller failing case, if any.
    fn dead_code(&self, ctx: &mut ExplainContext<'_>, best: &CaseResult) -> Option<CaseResult> {
        let program = self.program_of(ctx, &best.choices)?;
        let live = program.live();
        if live.len() >= program.len() {
            return None;
        }
        let choices = encode(&self.api, &live, self.list_max, Some(&self.meter)).ok()?;
        let r = (ctx.run)(TestCase::replay(choices.0, Tail::Simplest).with_spans(true));
        (Self::same_failure(&r.outcome, &best.outcome) && shortlex(&r.choices.0, &best.choices.0) == Ordering::Less)
            .then_some(r)
    }

    /// Tries every smaller value of each small index choice (which
    /// earlier value an argument uses, which function, which variant);
    /// returns the first smaller failing case.
    fn lower_indices(&self, ctx: &mut ExplainContext<'_>, best: &CaseResult, steps: &mut usize) -> Option<CaseResult> {
        for i in 0..best.choices.len() {
            let c = best.choices.0[i];
            if c.kind != ChoiceKind::Index || c.max > 64 {
                continue;
            }
            for v in 0..c.value {
                if *steps >= REDUCER_STEPS {
                    return None;
                }
                *steps += 1;
                let mut candidate = best.choices.0.clone();
                candidate[i].value = v;
                let r = (ctx.run)(TestCase::replay(candidate, Tail::Simplest).with_spans(true));
                if Self::same_failure(&r.outcome, &best.outcome)
                    && shortlex(&r.choices.0, &best.choices.0) == Ordering::Less
                {
                    return Some(r);
                }
            }
        }
        None
    }
}

impl Explainer for ProgramReducer {
    fn explain(&self, ctx: &mut ExplainContext<'_>) -> Explanation {
        let mut best = ctx.failing.clone();
        let mut steps = 0;
        let mut improved_any = false;
        while steps < REDUCER_STEPS {
            let mut improved = false;
            if let Some(r) = self.dead_code(ctx, &best) {
                best = r;
                improved = true;
            }
            while let Some(r) = self.lower_indices(ctx, &best, &mut steps) {
                best = r;
                improved = true;
                if let Some(r) = self.dead_code(ctx, &best) {
                    best = r;
                }
            }
            if !improved {
                break;
            }
            improved_any = true;
            best = (ctx.shrink)(best, &|_| true);
        }
        Explanation { reduced: improved_any.then(|| best.choices.clone()), sections: Vec::new() }
    }
}

// ----- encoding a known program -----------------------------------------------------

enum Decision {
    Target(usize),
    More(bool),
    Function(usize),
    Var(VarRef),
    Literal(Arc<Literal>),
    Variant(usize),
    Item(bool),
}

fn flatten_arg(a: &ArgExpr, out: &mut Vec<Decision>) {
    match a {
        ArgExpr::Var(v) => out.push(Decision::Var(v.clone())),
        ArgExpr::Literal(l) => out.push(Decision::Literal(l.clone())),
        ArgExpr::Data { variant, fields } => {
            out.push(Decision::Variant(*variant));
            fields.iter().for_each(|f| flatten_arg(f, out));
        }
        ArgExpr::List(items) => {
            for it in items {
                out.push(Decision::Item(true));
                flatten_arg(it, out);
            }
            out.push(Decision::Item(false));
        }
    }
}

fn flatten(p: &Program) -> Vec<Decision> {
    let mut out = vec![Decision::Target(match &p.ending {
        Ending::Law { law, .. } => law + 1,
        Ending::Call => 0,
    })];
    for s in &p.statements {
        out.push(Decision::More(true));
        out.push(Decision::Function(s.fun));
        s.args.iter().for_each(|a| flatten_arg(a, &mut out));
    }
    out.push(Decision::More(false));
    if let Ending::Law { args, .. } = &p.ending {
        args.iter().for_each(|a| flatten_arg(a, &mut out));
    }
    out
}

struct Script {
    decisions: Vec<Decision>,
    pos: usize,
    enc: Encoder,
    error: Option<String>,
    /// Which binding holds each value made so far (for long programs: a
    /// lookup, not a scan per argument).
    index: std::collections::HashMap<VarRef, usize>,
    indexed: usize,
}

impl Script {
    fn next(&mut self) -> Option<&Decision> {
        let d = self.decisions.get(self.pos);
        self.pos += 1;
        d
    }

    fn fail(&mut self, why: &str) {
        if self.error.is_none() {
            self.error = Some(why.to_string());
        }
    }
}

impl Source for Script {
    fn target(&mut self, n: usize) -> usize {
        match self.next() {
            Some(&Decision::Target(t)) => {
                let _ = self.enc.write_index(t, n);
                t
            }
            _ => {
                self.fail("the program does not start with its target");
                0
            }
        }
    }
    fn more(&mut self, _: usize) -> bool {
        if self.error.is_some() {
            return false;
        }
        match self.next() {
            Some(&Decision::More(b)) => {
                self.enc.write_raw(u64::from(b), 1, ChoiceKind::More);
                b
            }
            _ => {
                self.fail("a statement is out of step");
                false
            }
        }
    }
    fn statement(&mut self, _: bool) {}
    fn cancel_statement(&mut self) {}
    fn function(&mut self, n: usize) -> usize {
        match self.next() {
            Some(&Decision::Function(f)) => {
                let _ = self.enc.write_index(f, n);
                f
            }
            _ => {
                self.fail("a function is out of step");
                0
            }
        }
    }
    fn atom(&mut self, api: &Api, ty: usize, available: &[usize], bindings: &[Binding]) -> Pick {
        let ground = api.types[ty].ground().cloned();
        let d = match self.decisions.get_mut(self.pos) {
            Some(d) => std::mem::replace(d, Decision::Item(false)),
            None => Decision::Item(false),
        };
        self.pos += 1;
        match d {
            Decision::Var(v) => {
                while self.indexed < bindings.len() {
                    self.index.insert(bindings[self.indexed].var.clone(), self.indexed);
                    self.indexed += 1;
                }
                // `available` lists binding numbers in increasing order.
                let found = self.index.get(&v).and_then(|b| available.binary_search(b).ok());
                let Some(i) = found else {
                    self.fail("a value the program uses was not produced when it was run again");
                    return fallback(api, ty, available);
                };
                match ground {
                    Some(_) => {
                        let _ = self.enc.write_index(i + 1, available.len() + 1);
                    }
                    None => {
                        let _ = self.enc.write_index(i, available.len());
                    }
                }
                Pick::Binding(i)
            }
            Decision::Literal(lit) => {
                let Some(g) = ground else {
                    self.fail("a literal of an abstract type");
                    return fallback(api, ty, available);
                };
                let _ = self.enc.write_index(0, available.len() + 1);
                for c in &lit.choices {
                    self.enc.write_raw(c.value, c.max, c.kind);
                }
                let mut tc = TestCase::replay(lit.choices.clone(), Tail::Stop);
                match catch_invalid(&mut tc, |tc| (g.draw)(tc)) {
                    Ok(v) => Pick::Literal(v, lit),
                    Err(_) => {
                        self.fail("a literal does not replay");
                        fallback(api, ty, available)
                    }
                }
            }
            _ => {
                self.fail("an argument is out of step");
                fallback(api, ty, available)
            }
        }
    }
    fn variant(&mut self, n: usize) -> usize {
        match self.next() {
            Some(&Decision::Variant(v)) => {
                let _ = self.enc.write_index(v, n);
                v
            }
            _ => {
                self.fail("a variant is out of step");
                0
            }
        }
    }
    fn diverged(&self) -> bool {
        self.error.is_some()
    }
    fn item(&mut self, count: usize, max: usize) -> bool {
        match self.next() {
            Some(&Decision::Item(b)) => {
                if count < max {
                    self.enc.write_raw(u64::from(b), 1, ChoiceKind::More);
                } else if b {
                    self.fail("a container is longer than the generator allows");
                    return false;
                }
                b
            }
            _ => {
                self.fail("a container is out of step");
                false
            }
        }
    }
}

/// Something to keep a diverged script running to its end (the result is
/// discarded).
fn fallback(api: &Api, ty: usize, available: &[usize]) -> Pick {
    if available.is_empty() {
        let t = &api.types[ty];
        let g = t.ground().expect("abstract arguments always have a candidate in a script");
        let mut tc = TestCase::replay(Vec::new(), Tail::Simplest);
        let v = catch_invalid(&mut tc, |tc| (g.draw)(tc)).unwrap_or_else(|_| Box::new(()));
        Pick::Literal(v, Arc::new(Literal { term: Term::Atom("_".into()), choices: Vec::new() }))
    } else {
        Pick::Binding(0)
    }
}

/// The choices that make [`ProgramGen`] rebuild `program` (running it, in
/// the memory of its live values: each is dropped after its last use;
/// `meter` stops it at the memory budget).
pub(crate) fn encode(
    api: &Api,
    program: &Program,
    list_max: usize,
    meter: Option<&Meter>,
) -> Result<ChoiceSequence, String> {
    encode_with_uses(api, program, list_max, meter).map(|(choices, _)| choices)
}

/// [`encode`], with the uses of each value the program makes, by number:
/// the [`hints`] that let a replay of the choices drop them too.
pub(crate) fn encode_with_uses(
    api: &Api,
    program: &Program,
    list_max: usize,
    meter: Option<&Meter>,
) -> Result<(ChoiceSequence, Vec<u32>), String> {
    let uses = program.uses();
    let mut script = Script {
        decisions: flatten(program),
        pos: 0,
        enc: Encoder::new(),
        error: None,
        index: std::collections::HashMap::new(),
        indexed: 0,
    };
    let run = execute(api, &mut script, list_max, Some(Liveness::Named(&uses)), meter);
    if let Some(e) = run.out_of_memory {
        return Err(format!("stopped at the memory budget ({e})"));
    }
    let numbered = run.bindings.iter().map(|b| uses.get(&b.var).copied().unwrap_or(0)).collect();
    let lost = run.lost;
    drop(run);
    match script.error {
        Some(e) => Err(e),
        None if lost => Err("a value was named after its last counted use".to_string()),
        None => Ok((script.enc.finish(), numbered)),
    }
}

/// The program a choice sequence describes, run (for printing; `None`
/// when it cannot be, or the memory budget stops it; `hints` as for
/// [`ProgramGen`]).
pub(crate) fn decode(
    api: &Api,
    choices: &ChoiceSequence,
    list_max: usize,
    meter: &Meter,
    hints: Option<&[u32]>,
) -> Option<Program> {
    let mut tc = TestCase::replay(choices.0.clone(), Tail::Simplest);
    let uses = hints.map(Liveness::Numbered);
    let run = catch_invalid(&mut tc, |tc| execute(api, &mut Draw { tc }, list_max, uses, Some(meter))).ok()?;
    (run.out_of_memory.is_none() && !run.lost).then_some(run.program)
}

/// What reducing produced.
pub(crate) struct Reduced {
    pub(crate) program: Option<Program>,
    pub(crate) failure: Option<FailureInfo>,
    pub(crate) replay: Option<String>,
    pub(crate) note: Option<String>,
    pub(crate) report: Option<RunReport>,
    /// Set when the memory budget stopped it (everything else is then
    /// `None`: nothing it found could be shown without running again).
    pub(crate) out_of_memory: Option<Exceeded>,
}

/// Replays the program given by `replay` (its choices) on the core runner,
/// shrinking it if it fails and `cfg.reduce` is on; `name` names the run.
/// `hints` (see [`hints`]) let a replay shown as given drop each value
/// after its last use (a shrinking run ignores them: its other programs
/// use their values otherwise).
pub(crate) fn replay_and_shrink(
    api: &Arc<Api>,
    cfg: &Config,
    seed: u64,
    name: &str,
    replay: ChoiceSequence,
    hints: Option<Arc<Vec<u32>>>,
) -> Reduced {
    let hints = hints.filter(|_| !cfg.reduce);
    let core = speccheck_core::Config {
        name: name.to_string(),
        seed: Some(seed),
        start_from: Some(replay),
        shrink: cfg.reduce,
        shrink_steps: cfg.shrink_steps,
        shrink_time: cfg.shrink_time,
        timeout: cfg.call_timeout,
        database: None,
        database_writes: false,
        explain: if cfg.reduce { ExplainMode::Reduce } else { ExplainMode::Off },
        verbosity: Verbosity::Quiet,
        cases: 1,
        ..speccheck_core::Config::base()
    };
    let (render_api, body_api) = (api.clone(), api.clone());
    let list_max = cfg.list_max_len;
    let last = Arc::new(LastProgram::default());
    let meter = Arc::new(Meter::new(cfg.memory_budget));
    let reducer = ProgramReducer { api: api.clone(), list_max, last: last.clone(), meter: meter.clone() };
    let generator = ProgramGen { api: api.clone(), list_max, last, meter: meter.clone(), hints: hints.clone() };
    let property = Property::with_render(generator, move |run: &Executed| {
        vec![("program".to_string(), Term::Atom(run.program.render(&render_api, None)))]
    })
    .config(core)
    .explainer(Some(Arc::new(reducer) as Arc<dyn Explainer>));
    let report = property.run_with_case(move |_, run: Executed| run.verdict(&body_api));
    let program = match &report.verdict {
        RunVerdict::Failed(cx) => decode(api, &cx.choices, list_max, &meter, hints.as_deref().map(Vec::as_slice)),
        _ => None,
    };
    // Whatever the runner made of programs cut off at the budget (invalid
    // inputs, a flaky failure), the run stopped there.
    if let Some(e) = meter.exceeded() {
        return Reduced {
            program: None,
            failure: None,
            replay: None,
            note: Some(format!("the shrinker stopped at the memory budget ({e})")),
            report: None,
            out_of_memory: Some(e),
        };
    }
    match &report.verdict {
        RunVerdict::Failed(cx) => Reduced {
            program,
            failure: Some(cx.failure.clone()),
            replay: Some(cx.replay_string()),
            note: None,
            report: Some(report.clone()),
            out_of_memory: None,
        },
        RunVerdict::Passed | RunVerdict::Flaky(_) => Reduced {
            program: None,
            failure: None,
            replay: None,
            note: Some(
                "the program did not fail when run again on its own: the API's behaviour depends on state the \
                 program does not create (a global table, a cache, a clock); shown as found"
                    .to_string(),
            ),
            report: Some(report.clone()),
            out_of_memory: None,
        },
        RunVerdict::GaveUp { reason } | RunVerdict::Incomplete { reason } | RunVerdict::Error(reason) => Reduced {
            program: None,
            failure: None,
            replay: None,
            note: Some(format!("could not replay the program: {reason}")),
            report: Some(report.clone()),
            out_of_memory: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

    use super::*;
    use crate::program::{ArgExpr, Ending, Program, Stmt, VarRef};

    static LIVE: AtomicUsize = AtomicUsize::new(0);
    static PEAK: AtomicUsize = AtomicUsize::new(0);

    /// An immutable collection that counts its live instances.
    #[derive(Debug, PartialEq, Eq, Hash)]
    pub struct Counted(Vec<u64>);

    impl Counted {
        fn made(v: Vec<u64>) -> Self {
            PEAK.fetch_max(LIVE.fetch_add(1, Relaxed) + 1, Relaxed);
            Counted(v)
        }
        pub fn new() -> Self {
            Counted::made(Vec::new())
        }
        pub fn grow(&self) -> Self {
            let mut v = self.0.clone();
            v.push(v.len() as u64);
            Counted::made(v)
        }
    }

    impl Clone for Counted {
        fn clone(&self) -> Self {
            Counted::made(self.0.clone())
        }
    }

    impl Drop for Counted {
        fn drop(&mut self) {
            LIVE.fetch_sub(1, Relaxed);
        }
    }

    /// `c0 = Counted::new(); c1 = c0.grow(); …; c{n} = c{n-1}.grow()`.
    fn lineage(api: &Api, n: usize) -> Program {
        let f = |name: &str| api.functions.iter().position(|f| f.f.name == name).unwrap();
        let mut statements = vec![Stmt { fun: f("new"), args: Vec::new() }];
        for i in 0..n {
            let previous = ArgExpr::Var(VarRef::Part { stmt: i, path: Vec::new() });
            statements.push(Stmt { fun: f("grow"), args: vec![previous] });
        }
        Program { statements, ending: Ending::Call }
    }

    #[test]
    fn encoding_a_known_program_keeps_only_its_live_values() {
        let api = crate::interface! {
            abstract Counted;
            impl Counted {
                fn new() -> Self;
                fn grow(&self) -> Self;
            }
        }
        .unwrap();
        let program = lineage(&api, 2_000);
        let before = LIVE.load(Relaxed);
        PEAK.store(before, Relaxed);
        let choices = encode(&api, &program, 3, None).expect("encoded");
        // Each instance lives until the call that grows it: two at a time
        // (three while the result is bound), not the 2,001 the program makes.
        assert!(PEAK.load(Relaxed) - before <= 3, "{} instances alive at once", PEAK.load(Relaxed) - before);
        assert_eq!(LIVE.load(Relaxed), before, "every instance dropped");
        // The choices still rebuild the program.
        let decoded = decode(&api, &choices, 3, &Meter::new(None), None).expect("decoded");
        assert_eq!(decoded.len(), program.len());
    }
}
