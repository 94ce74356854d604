//! Long programs, run and cut down as programs.
//!
//! A lineage found by deep search can be tens of thousands of calls long.
//! Encoded as choices, every replay would keep every intermediate value
//! alive (a later statement may name any earlier one) and the shrinker
//! would spend its budget on single choices. Here a [`Program`] runs as
//! written: each value is dropped after its last use and moved, not
//! copied, into the call that uses it last, so a replay costs the calls
//! and memory stays that of the live values. [`delete_chunks`] then
//! deletes statements in chunks, halving the chunk size (delta debugging,
//! Zeller and Hildebrandt 2002), keeping a deletion when the program still
//! fails the same way. A later statement that used what a deleted one made
//! uses what the deleted one was given instead (the instance before the
//! call: `s2 = s1.insert(3)` deleted, `s2` becomes `s1`), so deleting a
//! stretch of a lineage leaves a lineage.

use std::any::Any;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use speccheck_core::runner::FailureInfo;
use speccheck_core::test_case::catch_invalid;
use speccheck_core::{Tail, TestCase};

use crate::describe::Args;
use crate::describe::Dyn;
use crate::describe::{Api, CallError, LawVerdict, Mode, Shape};
use crate::engine::{call_panicked, law_failed, law_panicked, mismatch};
use crate::memory::{Exceeded, Meter};
use crate::panics::capture;
use crate::program::{ArgExpr, Ending, Program, Stmt, VarRef, shape_at};
use crate::provenance::{Literal, Step};

/// How a program run ended.
#[derive(Debug)]
pub(crate) enum Run {
    /// A statement (its index) or the final law (`usize::MAX`) failed.
    Failed(FailureInfo, usize),
    /// Every statement ran and the law (if any) held.
    Passed,
    /// The program could not run as written: a value it uses was not
    /// made (a call before refused), a literal does not replay, or the
    /// law's precondition is false.
    Invalid(String),
    /// The memory budget stopped it.
    OutOfMemory(Exceeded),
}

/// Literal values, drawn once from their choices. Each is kept with its
/// literal: a literal freed (with the statements that used it) while its
/// address stayed a key would hand its value to the next literal allocated
/// there.
#[derive(Default)]
pub(crate) struct Literals {
    values: HashMap<*const Literal, (Arc<Literal>, Dyn)>,
}

impl Literals {
    fn value(&mut self, api: &Api, ty: usize, lit: &Arc<Literal>) -> Result<Dyn, String> {
        let t = &api.types[ty];
        if let Some((_, v)) = self.values.get(&Arc::as_ptr(lit)) {
            return Ok((t.ops.clone)(&**v));
        }
        let g = t.ground().ok_or_else(|| format!("a literal of the abstract type `{}`", t.name))?;
        let mut tc = TestCase::replay(lit.choices.clone(), Tail::Stop);
        let v = catch_invalid(&mut tc, |tc| (g.draw)(tc)).map_err(|_| "a literal does not replay".to_string())?;
        let copy = (t.ops.clone)(&*v);
        self.values.insert(Arc::as_ptr(lit), (lit.clone(), v));
        Ok(copy)
    }
}

struct Exec<'a> {
    api: &'a Api,
    bindings: HashMap<VarRef, Dyn>,
    /// Uses of each value not made yet.
    uses: HashMap<VarRef, u32>,
    literals: &'a mut Literals,
}

impl Exec<'_> {
    /// Counts one use of `v`: the value itself on its last use, a copy
    /// before.
    fn take(&mut self, ty: usize, v: &VarRef) -> Result<Dyn, String> {
        let left = self.uses.get_mut(v).ok_or("a value is used more often than counted")?;
        *left = left.saturating_sub(1);
        if *left == 0 {
            self.bindings.remove(v).ok_or_else(|| "a value the program uses was not made".to_string())
        } else {
            let b = self.bindings.get(v).ok_or("a value the program uses was not made")?;
            Ok((self.api.types[ty].ops.clone)(&**b))
        }
    }

    /// Counts a use of a lent value after the call; drops it after its
    /// last.
    fn release(&mut self, v: &VarRef) {
        if let Some(left) = self.uses.get_mut(v) {
            *left = left.saturating_sub(1);
            if *left == 0 {
                self.uses.remove(v);
                self.bindings.remove(v);
            }
        }
    }

    fn owned(&mut self, shape: &Shape, e: &ArgExpr) -> Result<Dyn, String> {
        match (e, shape) {
            (ArgExpr::Var(v), Shape::Atom(k)) => self.take(*k, v),
            (ArgExpr::Literal(l), Shape::Atom(k)) => self.literals.value(self.api, *k, l),
            (ArgExpr::Data { variant, fields }, Shape::Data(d, vs)) => {
                let shapes = vs.get(*variant).ok_or("a variant out of range")?;
                let mut values = Vec::with_capacity(fields.len());
                for (f, s) in fields.iter().zip(shapes.iter()) {
                    values.push(self.owned(s, f)?);
                }
                Ok(d.ops.build(*variant, values))
            }
            (ArgExpr::List(items), Shape::List(l, e)) => {
                let mut values = Vec::with_capacity(items.len());
                for it in items {
                    values.push(self.owned(e, it)?);
                }
                Ok(l.ops.build(values))
            }
            _ => Err("an argument does not match its type".to_string()),
        }
    }

    /// The arguments of a call or law: values given first, then the lent
    /// ones (borrowed from the bindings for the call).
    fn prepare(&mut self, shapes: &[Shape], modes: &[Mode], exprs: &[ArgExpr]) -> Result<Vec<Arg>, String> {
        let mut out = Vec::with_capacity(exprs.len());
        for ((s, m), e) in shapes.iter().zip(modes).zip(exprs) {
            out.push(match (m, e) {
                (Mode::Ref, ArgExpr::Var(v)) => {
                    if !self.bindings.contains_key(v) {
                        return Err("a value the program uses was not made".to_string());
                    }
                    Arg::Lent(v.clone())
                }
                _ => Arg::Given(self.owned(s, e)?),
            });
        }
        Ok(out)
    }

    fn bind(&mut self, var: VarRef, value: Dyn) {
        if self.uses.contains_key(&var) {
            self.bindings.insert(var, value);
        }
    }

    fn destruct(&mut self, shape: &Shape, value: Dyn, stmt: usize, path: &mut Vec<Step>) {
        let _ = shape.parts::<()>(value, path, &mut |_, v, at| {
            self.bind(VarRef::Part { stmt, path: at.to_vec() }, v);
            Ok(())
        });
    }
}

enum Arg {
    Lent(VarRef),
    Given(Dyn),
}

fn lend<'b>(args: &mut Vec<Arg>, bindings: &'b HashMap<VarRef, Dyn>) -> (Args<'b>, Vec<VarRef>) {
    let mut out = Args::with_capacity(args.len());
    let mut lent = Vec::new();
    for a in args.drain(..) {
        match a {
            Arg::Lent(v) => {
                out.push_borrowed(&**bindings.get(&v).expect("checked when prepared") as &dyn Any);
                lent.push(v);
            }
            Arg::Given(d) => out.push_owned(d),
        }
    }
    (out, lent)
}

/// Runs `program` as written (stopping at the memory budget `meter`
/// watches, if any).
pub(crate) fn run(api: &Api, program: &Program, literals: &mut Literals, meter: Option<&Meter>) -> Run {
    let mut ex = Exec { api, bindings: HashMap::new(), uses: program.uses(), literals };
    for (si, st) in program.statements.iter().enumerate() {
        if let Some(m) = meter
            && m.tick()
            && let Some(e) = m.exceeded()
        {
            return Run::OutOfMemory(e);
        }
        let spec = &api.functions[st.fun];
        let modes: Vec<Mode> = spec.f.params.iter().map(|p| p.mode).collect();
        let mut prepared = match ex.prepare(&spec.args, &modes, &st.args) {
            Ok(p) => p,
            Err(e) => return Run::Invalid(e),
        };
        let (r, mutated, lent) = {
            let (mut args, lent) = lend(&mut prepared, &ex.bindings);
            let r = capture(|| (spec.call)(&mut args));
            let mut mutated = Vec::new();
            if matches!(r, Ok(Ok(_))) {
                for (i, p) in spec.f.params.iter().enumerate() {
                    if p.mode == Mode::Mut
                        && let Some(v) = args.take_dyn(i)
                    {
                        mutated.push((i, v));
                    }
                }
            }
            (r, mutated, lent)
        };
        for v in &lent {
            ex.release(v);
        }
        match r {
            Err(c) if !spec.f.panics_allowed => return Run::Failed(call_panicked(api, st.fun, c).0, si),
            Err(_) | Ok(Err(CallError::Refused)) => {}
            Ok(Err(CallError::Mismatch(m))) => return Run::Failed(mismatch(api, st.fun, m).0, si),
            Ok(Ok(result)) => {
                for (i, v) in mutated {
                    ex.bind(VarRef::Mutated { stmt: si, arg: i }, v);
                }
                ex.destruct(&spec.ret, result, si, &mut Vec::new());
            }
        }
    }
    let Ending::Law { law, args } = &program.ending else { return Run::Passed };
    let spec = &api.laws[*law];
    let modes: Vec<Mode> = spec.law.params.iter().map(|p| p.mode).collect();
    let mut prepared = match ex.prepare(&spec.args, &modes, args) {
        Ok(p) => p,
        Err(e) => return Run::Invalid(e),
    };
    let (mut args, _) = lend(&mut prepared, &ex.bindings);
    match capture(|| (spec.check)(&mut args)) {
        Ok(LawVerdict::Holds) => Run::Passed,
        Ok(LawVerdict::Aborted) => Run::Invalid(format!("the precondition of law `{}` is false", spec.law.name)),
        Ok(LawVerdict::Fails) => Run::Failed(law_failed(api, *law).0, usize::MAX),
        Err(c) => Run::Failed(law_panicked(api, *law, c).0, usize::MAX),
    }
}

/// `program` without the statements marked `deleted`: what used a deleted
/// statement's result uses the instance of that type the statement was
/// given (`None` when it was given none), or for a ground value the
/// simplest of its type (`simplest`, by type: one literal each, so that
/// [`Literals`] does not fill with copies).
pub(crate) fn without(
    api: &Api,
    program: &Program,
    deleted: &[bool],
    simplest: &[Option<Arc<Literal>>],
) -> Option<Program> {
    let n = program.statements.len();
    let mut index = vec![usize::MAX; n];
    let mut next = 0;
    for s in 0..n {
        if !deleted[s] {
            index[s] = next;
            next += 1;
        }
    }
    let resolve = |v: &VarRef| -> Option<ArgExpr> {
        let mut v = v.clone();
        loop {
            let (stmt, given) = match &v {
                VarRef::Mutated { stmt, arg } if deleted[*stmt] => (*stmt, program.statements[*stmt].args.get(*arg)?),
                VarRef::Part { stmt, path } if deleted[*stmt] => {
                    let st = &program.statements[*stmt];
                    let spec = &api.functions[st.fun];
                    let Shape::Atom(k) = shape_at(&spec.ret, path) else { return None };
                    match spec.args.iter().position(|s| matches!(s, Shape::Atom(a) if a == k)) {
                        Some(j) => (*stmt, &st.args[j]),
                        // A ground value the deleted call returned (`pop`'s
                        // element): the simplest value of its type instead.
                        None => return simplest.get(*k)?.clone().map(ArgExpr::Literal),
                    }
                }
                _ => return Some(ArgExpr::Var(v)),
            };
            let _ = stmt;
            match given {
                ArgExpr::Var(w) => v = w.clone(),
                other => return Some(other.clone()),
            }
        }
    };
    fn rewrite(a: &ArgExpr, resolve: &dyn Fn(&VarRef) -> Option<ArgExpr>, index: &[usize]) -> Option<ArgExpr> {
        Some(match a {
            ArgExpr::Var(v) => match resolve(v)? {
                ArgExpr::Var(VarRef::Part { stmt, path }) => ArgExpr::Var(VarRef::Part { stmt: index[stmt], path }),
                ArgExpr::Var(VarRef::Mutated { stmt, arg }) => ArgExpr::Var(VarRef::Mutated { stmt: index[stmt], arg }),
                other => rewrite(&other, resolve, index)?,
            },
            ArgExpr::Literal(l) => ArgExpr::Literal(l.clone()),
            ArgExpr::Data { variant, fields } => ArgExpr::Data {
                variant: *variant,
                fields: fields.iter().map(|f| rewrite(f, resolve, index)).collect::<Option<_>>()?,
            },
            ArgExpr::List(items) => {
                ArgExpr::List(items.iter().map(|f| rewrite(f, resolve, index)).collect::<Option<_>>()?)
            }
        })
    }
    let mut statements = Vec::with_capacity(next);
    for (s, st) in program.statements.iter().enumerate() {
        if deleted[s] {
            continue;
        }
        let args = st.args.iter().map(|a| rewrite(a, &resolve, &index)).collect::<Option<_>>()?;
        statements.push(Stmt { fun: st.fun, args });
    }
    let ending = match &program.ending {
        Ending::Law { law, args } => {
            Ending::Law { law: *law, args: args.iter().map(|a| rewrite(a, &resolve, &index)).collect::<Option<_>>()? }
        }
        Ending::Call => Ending::Call,
    };
    Some(Program { statements, ending })
}

/// The simplest value of ground type `ty`, as a literal.
fn simplest(api: &Api, ty: usize) -> Option<Arc<Literal>> {
    let g = api.types[ty].ground()?;
    let mut tc = TestCase::replay(Vec::new(), Tail::Simplest);
    let v = catch_invalid(&mut tc, |tc| (g.draw)(tc)).ok()?;
    let term = (g.term)(&*v);
    Some(Arc::new(Literal { term, choices: tc.choices().to_vec() }))
}

/// What [`delete_chunks`] did.
pub(crate) struct Deleted {
    /// The smallest program found that fails the same way.
    pub(crate) program: Program,
    /// Programs run.
    pub(crate) runs: u64,
    /// Whether it stopped at its deadline or the memory budget (chunks of
    /// one were not all tried).
    pub(crate) cut_short: bool,
    /// Set when it stopped at the memory budget.
    pub(crate) out_of_memory: Option<Exceeded>,
}

/// Deletes statements from `program` (which fails as `failure` does) in
/// chunks of halving size, from the end, until chunks of one statement
/// were all tried, `deadline` passes or `meter` finds the memory budget
/// exceeded; `progress` hears the length after each pass.
pub(crate) fn delete_chunks(
    api: &Api,
    program: &Program,
    failure: &FailureInfo,
    deadline: Instant,
    meter: &Meter,
    progress: &mut dyn FnMut(usize, Duration),
) -> Deleted {
    let started = Instant::now();
    let mut literals = Literals::default();
    let simplest: Vec<Option<Arc<Literal>>> = (0..api.types.len()).map(|k| simplest(api, k)).collect();
    let mut best = program.live();
    let mut runs = 0u64;
    // Fails the same way; a program ending with a call then ends with the
    // one that failed.
    let same = |r: Run, p: Program| match r {
        Run::Failed(f, at) if f.origin() == failure.origin() => Some(match p.ending {
            Ending::Call if at + 1 < p.statements.len() => {
                let mut p = p;
                p.statements.truncate(at + 1);
                p.live()
            }
            _ => p,
        }),
        _ => None,
    };
    // The failing call of a program that ends with one stays.
    let fixed_tail = usize::from(matches!(best.ending, Ending::Call));
    let mut chunk = (best.len() / 2).max(1);
    loop {
        let mut end = best.len().saturating_sub(fixed_tail);
        while end > 0 {
            if Instant::now() >= deadline {
                return Deleted { program: best.live(), runs, cut_short: true, out_of_memory: None };
            }
            let start = end.saturating_sub(chunk);
            let mut deleted = vec![false; best.len()];
            deleted[start..end].iter_mut().for_each(|d| *d = true);
            if let Some(candidate) = without(api, &best, &deleted, &simplest) {
                runs += 1;
                let r = run(api, &candidate, &mut literals, Some(meter));
                if let Run::OutOfMemory(e) = r {
                    return Deleted { program: best.live(), runs, cut_short: true, out_of_memory: Some(e) };
                }
                if let Some(smaller) = same(r, candidate) {
                    // Statements before `start` keep their numbers (unless
                    // an earlier call failed, which ends the search here).
                    let cut = smaller.len() < start + usize::from(matches!(smaller.ending, Ending::Call));
                    best = smaller;
                    if cut {
                        end = best.len().saturating_sub(fixed_tail);
                        continue;
                    }
                }
            }
            end = start;
        }
        best = best.live();
        progress(best.len(), started.elapsed());
        if chunk == 1 {
            return Deleted { program: best, runs, cut_short: false, out_of_memory: None };
        }
        chunk = (chunk / 2).max(1).min(best.len().max(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    pub struct Counter(u32);

    impl Counter {
        pub fn new() -> Self {
            Counter(0)
        }
        pub fn add(&self, x: u16) -> Self {
            Counter(self.0 + u32::from(x))
        }
    }

    /// A literal's cached value is keyed by its address: the cache keeps
    /// the literal alive, so that no other literal is allocated there and
    /// handed its value.
    #[test]
    fn a_cached_literal_stays_alive_with_its_value() {
        let api = crate::interface! {
            abstract Counter;
            ground u16 = speccheck_core::gens::ints(0..=9u16);
            impl Counter {
                fn new() -> Self;
                fn add(&self, x: u16) -> Self;
            }
        }
        .unwrap();
        let ty = api.types.iter().position(|t| t.name == "u16").unwrap();
        let lit = simplest(&api, ty).expect("a simplest u16");
        let weak = Arc::downgrade(&lit);
        let mut literals = Literals::default();
        let v = literals.value(&api, ty, &lit).unwrap();
        assert_eq!(v.downcast_ref::<u16>(), Some(&0));
        drop(lit);
        assert!(weak.upgrade().is_some(), "freed while its address is a key of the cache");
    }
}
