//! The SMT strategy (Target §4): query — every input up to a depth as
//! symbolic values constrained by the spec; decode — a model into values
//! (with every value of the integers no spec mentions); refute — block the
//! model on its decode-relevant literals only, so the next model is a new
//! input; until unsat (confirmed by a fresh solver: every valid input was
//! found) or a budget.

mod sym;
mod term;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use speccheck_spec::{Expr, Measures, Ty, Value};
use z3::ast::{Bool, Dynamic};
use z3::{Params, SatResult, Solver};

pub use term::Unsolvable;

use sym::{Builder, Decoding, Shape, Sym, decode, mentioned};
use term::Translator;

/// Why the SMT search could not go on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SmtError {
    /// A spec outside the solvable fragment.
    #[error("the spec is outside what the solver takes: {0}")]
    Unsolvable(Unsolvable),
    /// An argument type the encoding does not cover.
    #[error("the solver cannot generate {0}")]
    Type(String),
    /// An argument type with no finite value (`Ty::unbounded`).
    #[error("{0}")]
    Unbounded(String),
    /// One query ran past its time limit.
    #[error("a solver query at depth {depth} ran past its {limit:?} limit after {found} inputs")]
    Timeout {
        /// The depth.
        depth: u32,
        /// The limit per query.
        limit: Duration,
        /// Inputs found at this depth before.
        found: u64,
    },
    /// The solver gave up for another reason.
    #[error("the solver gave up at depth {depth}: {reason}")]
    Unknown {
        /// The depth.
        depth: u32,
        /// The solver's reason.
        reason: String,
    },
}

/// Every input satisfying a spec up to a depth, one solver model at a time.
///
/// Inputs come height by height (the number of recursive steps from the
/// argument down: a field going back to a data type above it, or its own,
/// [`crate::depth::reenters`]; element `k` of a sequence is `k + 1` steps
/// down, so a sequence is as tall as it is long):
/// one solver holds the inputs of height exactly 0, the next those of
/// height exactly 1, and so on, until a height that cuts nothing off. The heights partition the
/// inputs up to the depth, so the union is the same set with no duplicate;
/// each solver holds only what its height needs, so the small inputs are
/// not paid for with the whole depth's encoding, and they come first.
///
/// An integer that no spec or refinement mentions (only its range holds
/// it) is *free*: the solver is not asked for its values. A model stands
/// for its shape with every value of its free integers, which the search
/// then yields itself, and its block leaves them out.
pub struct Search<'m> {
    params: Vec<(String, Ty)>,
    requires: Vec<Expr>,
    measures: &'m Measures,
    depth: u32,
    height: u32,
    /// The solver for the current height, its symbolic arguments, its free
    /// integers, and whether taller inputs exist.
    solver: Solver,
    args: Vec<Sym>,
    free: HashSet<Dynamic>,
    taller: bool,
    /// The inputs of the last model's shape not yet yielded.
    pending: Option<Fill>,
    found: u64,
    models: u64,
    finished: bool,
    query_limit: Duration,
    /// Time spent in the solver.
    pub solving: Duration,
}

/// One height's solver: its symbolic arguments, its free integers and
/// whether the height cut anything off.
struct Height {
    solver: Solver,
    args: Vec<Sym>,
    free: HashSet<Dynamic>,
    taller: bool,
}

/// Every input of one model's shape: its free integers run through their
/// ranges (simplest value first) like an odometer.
struct Fill {
    shapes: Vec<Shape>,
    values: Vec<Vec<i128>>,
    at: Vec<usize>,
    done: bool,
}

impl Fill {
    fn new(shapes: Vec<Shape>, slots: &[(i128, i128)]) -> Fill {
        let values: Vec<Vec<i128>> = slots.iter().map(|&(lo, hi)| simplest_first(lo, hi)).collect();
        let done = values.iter().any(Vec::is_empty);
        Fill { shapes, at: vec![0; values.len()], values, done }
    }
}

impl Iterator for Fill {
    type Item = Vec<Value>;

    fn next(&mut self) -> Option<Vec<Value>> {
        if self.done {
            return None;
        }
        let ints: Vec<i128> = self.at.iter().zip(&self.values).map(|(&i, vs)| vs[i]).collect();
        let input = self.shapes.iter().map(|s| s.fill(&ints)).collect();
        // The next combination: the last integer turns fastest.
        self.done = true;
        for k in (0..self.at.len()).rev() {
            self.at[k] += 1;
            if self.at[k] < self.values[k].len() {
                self.done = false;
                break;
            }
            self.at[k] = 0;
        }
        Some(input)
    }
}

/// The integers of `lo..=hi` by magnitude, the positive first of each.
fn simplest_first(lo: i128, hi: i128) -> Vec<i128> {
    let mut out: Vec<i128> = (lo..=hi).collect();
    out.sort_by_key(|&v| (v.unsigned_abs(), v < 0));
    out
}

impl<'m> Search<'m> {
    /// The inputs `params` (name, type) at depth `depth` that satisfy every
    /// spec in `requires` (field refinements of the types included).
    pub fn new(
        params: &[(String, Ty)],
        requires: &[Expr],
        measures: &'m Measures,
        depth: u32,
        query_limit: Duration,
    ) -> Result<Search<'m>, SmtError> {
        Search::at_least(params, requires, measures, depth, 0, query_limit)
    }

    /// [`Search::new`], making only the inputs at least `height` recursive
    /// steps tall: the first solver built is that height's (no shorter
    /// input is asked for).
    pub fn at_least(
        params: &[(String, Ty)],
        requires: &[Expr],
        measures: &'m Measures,
        depth: u32,
        height: u32,
        query_limit: Duration,
    ) -> Result<Search<'m>, SmtError> {
        if let Some(why) = params.iter().find_map(|(_, ty)| ty.unbounded()) {
            return Err(SmtError::Unbounded(why));
        }
        let Height { solver, args, free, taller } = encode(params, requires, measures, depth, height, query_limit)?;
        Ok(Search {
            params: params.to_vec(),
            requires: requires.to_vec(),
            measures,
            depth,
            height,
            solver,
            args,
            free,
            taller,
            pending: None,
            found: 0,
            models: 0,
            finished: false,
            query_limit,
            solving: Duration::ZERO,
        })
    }

    /// Inputs found so far.
    pub fn found(&self) -> u64 {
        self.found
    }

    /// Models the solver gave so far: one per input, or fewer when free
    /// integers let one model stand for many inputs.
    pub fn models(&self) -> u64 {
        self.models
    }

    /// True once the solver said no input is left (every valid input up to
    /// the depth was produced).
    pub fn is_complete(&self) -> bool {
        self.finished
    }

    /// One query of the current height's solver. An `unsat` is confirmed
    /// by a fresh solver given the same assertions before it ends the
    /// height: z3 4.8 (the version Debian ships) sometimes answers `unsat`
    /// incrementally while models are left — measured here, the agreement
    /// tests lost inputs that way in about one run in five when other
    /// searches ran in the process, and a fresh solver found the models
    /// every time. The search goes on with the fresh solver.
    fn check(&mut self) -> SatResult {
        let t = Instant::now();
        let mut r = self.solver.check();
        if r == SatResult::Unsat {
            let fresh = new_solver(self.query_limit);
            for a in self.solver.get_assertions() {
                fresh.assert(&a);
            }
            r = fresh.check();
            if r != SatResult::Unsat {
                self.solver = fresh;
            }
        }
        self.solving += t.elapsed();
        r
    }

    /// Moves to the next height; false when there is none.
    fn taller(&mut self) -> Result<bool, SmtError> {
        if !self.taller {
            return Ok(false);
        }
        self.height += 1;
        let next = encode(&self.params, &self.requires, self.measures, self.depth, self.height, self.query_limit)?;
        self.enter(next);
        Ok(true)
    }

    fn enter(&mut self, h: Height) {
        (self.solver, self.args, self.free, self.taller) = (h.solver, h.args, h.free, h.taller);
    }
}

/// An empty solver whose queries stop at `query_limit`.
fn new_solver(query_limit: Duration) -> Solver {
    let solver = Solver::new();
    let mut p = Params::new();
    p.set_u32("timeout", query_limit.as_millis().clamp(1, u128::from(u32::MAX)) as u32);
    solver.set_params(&p);
    solver
}

/// The solver for the inputs of height exactly `height` at depth `depth`.
fn encode(
    params: &[(String, Ty)],
    requires: &[Expr],
    measures: &Measures,
    depth: u32,
    height: u32,
    query_limit: Duration,
) -> Result<Height, SmtError> {
    let mut b = Builder::new(height);
    let truth = Bool::from_bool(true);
    let mut scope = Vec::new();
    let solver = new_solver(query_limit);
    for (name, ty) in params {
        match b.make(ty, depth, 0, &truth, name).map_err(SmtError::Type)? {
            Some(s) => scope.push((name.clone(), s)),
            None => {
                // No value of this argument fits this height: no input.
                solver.assert(Bool::from_bool(false));
                return Ok(Height { solver, args: Vec::new(), free: HashSet::new(), taller: b.cut });
            }
        }
    }
    let mut tr = Translator::new(measures);
    let mut formulas = std::mem::take(&mut b.constraints);
    for r in std::mem::take(&mut b.refinements) {
        let f = tr.formula(&r.spec, &r.scope).map_err(SmtError::Unsolvable)?;
        formulas.push(r.guard.implies(&f));
    }
    for r in requires {
        formulas.push(tr.formula(r, &scope).map_err(SmtError::Unsolvable)?);
    }
    if height > 0 {
        // Exactly this height: the shorter inputs came from earlier solvers.
        formulas.push(Bool::or(&b.frontier));
    }
    // Free: held by a range and by nothing else.
    let free = match (mentioned(&b.ranges), mentioned(&formulas)) {
        (Some(ranged), Some(used)) => ranged.difference(&used).cloned().collect(),
        _ => HashSet::new(),
    };
    for f in formulas.iter().chain(&b.ranges) {
        solver.assert(f);
    }
    Ok(Height { solver, args: scope.into_iter().map(|(_, s)| s).collect(), free, taller: b.cut })
}

impl Iterator for Search<'_> {
    type Item = Result<Vec<Value>, SmtError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.finished {
            return None;
        }
        if let Some(input) = self.pending.as_mut().and_then(Fill::next) {
            self.found += 1;
            return Some(Ok(input));
        }
        self.pending = None;
        let mut r = self.check();
        while r == SatResult::Unsat {
            match self.taller() {
                Ok(true) => {}
                Ok(false) => {
                    self.finished = true;
                    return None;
                }
                Err(e) => {
                    self.finished = true;
                    return Some(Err(e));
                }
            }
            r = self.check();
        }
        match r {
            SatResult::Unsat => unreachable!("moved to a taller height above"),
            SatResult::Unknown => {
                self.finished = true;
                let reason = self.solver.get_reason_unknown().unwrap_or_default();
                Some(Err(if reason.contains("timeout") || reason.contains("canceled") {
                    SmtError::Timeout { depth: self.depth, limit: self.query_limit, found: self.found }
                } else {
                    SmtError::Unknown { depth: self.depth, reason }
                }))
            }
            SatResult::Sat => {
                let Some(model) = self.solver.get_model() else {
                    self.finished = true;
                    return Some(Err(SmtError::Unknown { depth: self.depth, reason: "no model".into() }));
                };
                self.models += 1;
                let mut relevant = Vec::new();
                let mut how = Decoding { free: &self.free, slots: Vec::new() };
                let shapes: Vec<Shape> = self.args.iter().map(|a| decode(a, &model, &mut relevant, &mut how)).collect();
                // Refute only what the value was decoded from (§4.5): with
                // its free integers left out, every input of the shape.
                let block: Vec<Bool> = relevant.iter().map(|l| l.not()).collect();
                self.solver.assert(Bool::or(&block));
                let mut fill = Fill::new(shapes, &how.slots);
                let Some(input) = fill.next() else {
                    // A model gives every integer a value in its range.
                    self.finished = true;
                    return Some(Err(SmtError::Unknown {
                        depth: self.depth,
                        reason: "a free integer's range is empty".into(),
                    }));
                };
                self.pending = Some(fill);
                self.found += 1;
                Some(Ok(input))
            }
        }
    }
}
