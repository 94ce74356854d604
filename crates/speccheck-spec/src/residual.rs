//! What a spec leaves undecided on a partial input, kept to be taken up
//! again when the hole it waits on is filled.
//!
//! A builder of partial inputs (the sampler) fills one hole at a time.
//! Evaluating every spec again after each fill walks the whole input: a
//! sorted list's refinement at each of its `n` links walks the rest of
//! the list, so one more element costs `n²`. Decided conjunct by conjunct
//! instead, a spec is true, false, or a set of *residuals*: the conjuncts
//! (of the spec, or of a measure's body it unfolded into) stopped at a
//! hole, each with the names it sees. Filling a hole takes up only the
//! residuals waiting on it (`at_least(t, x)` with `t` now `Cons(h, t2)`
//! leaves `h >= x` and `at_least(t2, x)`), so each fill costs what the new
//! part adds. A residual is re-read against the fills made since
//! ([`Env::with_fills`]), so the values it holds are never copied.

use std::sync::Arc;

use crate::ast::{BinOp, Expr};
use crate::eval::{Bound, Env, EvalError, Hint, Name, STACK_RED_ZONE, STACK_SEGMENT, Side, compare};
use crate::measure::{Body, Measure};
use crate::value::Value;

/// The expression a residual is a part of: a spec given whole, or a
/// measure's body (the arm taken, for a `match`).
#[derive(Clone, Debug)]
enum Root {
    Spec(Arc<Expr>),
    Measure(Arc<Measure>, Option<usize>),
}

impl Root {
    fn expr(&self) -> &Expr {
        match self {
            Root::Spec(e) => e,
            Root::Measure(m, arm) => match (&m.body, arm) {
                (Body::Match(arms), Some(k)) => &arms[*k].body,
                (Body::Expr(e), _) => e,
                (Body::Match(_), None) => unreachable!("a match body is entered by an arm"),
            },
        }
    }
}

/// The way down a root's conjunctions to a residual's conjunct: bit `i`
/// says which side of the `i`-th `&&` (0 left, 1 right).
#[derive(Clone, Copy, Debug)]
struct Way {
    bits: u64,
    len: u8,
}

impl Way {
    const ROOT: Way = Way { bits: 0, len: 0 };

    /// One side further down; `None` past 64 conjunctions (the rest is
    /// decided as one).
    fn down(self, right: bool) -> Option<Way> {
        (self.len < 64).then(|| Way { bits: self.bits | (u64::from(right) << self.len), len: self.len + 1 })
    }

    fn at(self, mut e: &Expr) -> &Expr {
        for i in 0..self.len {
            let Expr::Binary(BinOp::And, a, b) = e else { unreachable!("a way follows conjunctions") };
            e = if (self.bits >> i) & 1 == 0 { a } else { b };
        }
        e
    }
}

/// A conjunct a partial input left undecided: where it is, the names it
/// sees, the hole it waits on and what comparisons with holes it met.
#[derive(Clone, Debug)]
pub struct Residual {
    root: Root,
    way: Way,
    vars: Vec<(Name, Bound)>,
    hole: u32,
    /// Other holes whose filling may decide it (see [`Env::also_waits`]).
    also: Arc<[u32]>,
    hints: Arc<[Hint]>,
    /// A conjunct that is a comparison of the hole itself with a known
    /// integer (`k < 7`, a key against each node of a built subtree) is
    /// this hint and nothing else: it keeps no names, and taking it up is
    /// one comparison (see [`Env::resume`]).
    compared: Option<Hint>,
}

impl Residual {
    /// The hole it waits on.
    pub fn hole(&self) -> u32 {
        self.hole
    }

    /// Whether filling `hole` may decide it: the hole it waits on, or
    /// another that kept a part of it undecided.
    pub fn woken_by(&self, hole: u32) -> bool {
        self.hole == hole || self.also.contains(&hole)
    }

    /// What its comparisons with holes said (see [`Hint`]).
    pub fn hints(&self) -> &[Hint] {
        match &self.compared {
            Some(h) => std::slice::from_ref(h),
            None => &self.hints,
        }
    }

    /// The conjunct, as written.
    pub fn conjunct(&self) -> String {
        self.way.at(self.root.expr()).to_string()
    }
}

impl Env<'_> {
    /// Decides `spec` as far as the partial values in scope allow:
    /// `Ok(false)` when it is false on every completion (a partial
    /// operation met makes it false, as for
    /// [`refinement_holds`](crate::refined::refinement_holds)), `Ok(true)`
    /// when it holds on every completion on which each residual pushed to
    /// `out` holds. An error is a mistake in the spec.
    pub fn residuals(&mut self, spec: &Arc<Expr>, out: &mut Vec<Residual>) -> Result<bool, EvalError> {
        self.conjunct(&Root::Spec(spec.clone()), Way::ROOT, out)
    }

    /// Takes `r` up again (with this environment's fills, see
    /// [`Env::with_fills`]): what it says now, as
    /// [`Env::residuals`] does.
    pub fn resume(&mut self, r: &Residual, out: &mut Vec<Residual>) -> Result<bool, EvalError> {
        if let Some(Hint { op, other: Side::Known(y), .. }) = r.compared {
            return match self.resolve(Value::Hole(r.hole)) {
                Value::Int(x) => Ok(compare(op, x, y)),
                // Open, or filled with another hole: waits on that one.
                Value::Hole(g) => {
                    let mut again = r.clone();
                    again.hole = g;
                    again.compared = Some(Hint { hole: g, op, other: Side::Known(y) });
                    out.push(again);
                    Ok(true)
                }
                other => Err(EvalError::Type { expr: r.conjunct(), expected: "an integer", found: other.to_string() }),
            };
        }
        let outer = std::mem::replace(&mut self.vars, r.vars.clone());
        let result = self.conjunct(&r.root, r.way, out);
        self.vars = outer;
        result
    }

    fn conjunct(&mut self, root: &Root, way: Way, out: &mut Vec<Residual>) -> Result<bool, EvalError> {
        let e = way.at(root.expr());
        match e {
            Expr::Binary(BinOp::And, ..) => {
                let (Some(l), Some(r)) = (way.down(false), way.down(true)) else { return self.leaf(root, way, e, out) };
                // Each side pushes its residuals onto `out` itself (a call
                // that returns false or an error leaves `out` as it found
                // it): nested measures' conjunctions would otherwise gather
                // them in a list per level and copy them up.
                let start = out.len();
                match self.conjunct(root, l, out) {
                    Ok(true) => {}
                    other => return other,
                }
                if out.len() == start {
                    return self.conjunct(root, r, out);
                }
                // The left side undecided: the right one may still decide
                // it false (Lazy SmallCheck's parallel conjunction).
                let mid = out.len();
                match self.conjunct(root, r, out) {
                    Ok(false) => {
                        out.truncate(start);
                        Ok(false)
                    }
                    Ok(true) => Ok(true),
                    // The right side fails where the left one may be false
                    // and guard it: the two wait as one.
                    Err(_) => {
                        let left = &out[start..mid];
                        let hints: Vec<Hint> = left.iter().flat_map(|x| x.hints().iter().copied()).collect();
                        let mut r = self.residual(root, way, left[0].hole, hints);
                        // Any hole a left part waits on may decide it.
                        let also: Vec<u32> = left
                            .iter()
                            .flat_map(|x| std::iter::once(x.hole).chain(x.also.iter().copied()))
                            .filter(|h| *h != r.hole)
                            .collect();
                        r.also = also.into();
                        out.truncate(start);
                        out.push(r);
                        Ok(true)
                    }
                }
            }
            Expr::Call(f, args) if !f.is_builtin() => match self.measures.find(*f).cloned() {
                Some(Ok(m)) if m.result_type == "bool" => {
                    stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || self.unfold(root, way, f, m, args, e, out))
                }
                _ => self.leaf(root, way, e, out),
            },
            _ => self.leaf(root, way, e, out),
        }
    }

    /// A boolean measure called in a conjunction: its body, decided
    /// conjunct by conjunct in its own scope, unless the data it matches
    /// on is a hole (then the call waits on it).
    #[allow(clippy::too_many_arguments)]
    fn unfold(
        &mut self,
        root: &Root,
        way: Way,
        f: &str,
        m: Arc<Measure>,
        args: &[Expr],
        e: &Expr,
        out: &mut Vec<Residual>,
    ) -> Result<bool, EvalError> {
        let mark = self.hints.len();
        let also_mark = self.also_waits.len();
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            match self.eval(a) {
                Ok(v) => vals.push(v),
                Err(EvalError::Hole(h)) => {
                    let hints = self.hints.split_off(mark);
                    let mut r = self.residual(root, way, h, hints);
                    r.also = self.also_waits.split_off(also_mark).into();
                    out.push(r);
                    return Ok(true);
                }
                Err(err) if err.is_partial() => {
                    self.hints.truncate(mark);
                    self.also_waits.truncate(also_mark);
                    return Ok(false);
                }
                Err(err) => return Err(err),
            }
        }
        self.hints.truncate(mark);
        self.also_waits.truncate(also_mark);
        if vals.len() != m.params.len() {
            return Err(EvalError::Arity(f.to_string(), m.params.len(), vals.len()));
        }
        let id = Arc::as_ptr(&m) as usize;
        // A part measured before (off the way to the last hole filled).
        if let Some(b) = self.remembered_bool(id, &vals) {
            return Ok(b);
        }
        if let (Body::Match(_), Value::Hole(h)) = (&m.body, &vals[0]) {
            out.push(self.residual(root, way, *h, Vec::new()));
            return Ok(true);
        }
        self.check_recursion(f, id, &vals)?;
        let outer = std::mem::take(&mut self.vars);
        self.active.push((id, Self::loop_check_args(self.active.len(), &vals)));
        let outer_frame = std::mem::replace(&mut self.frame, vals);
        let result = self.enter(f, &m, e).and_then(|arm| self.conjunct(&Root::Measure(m.clone(), arm), Way::ROOT, out));
        self.frame = outer_frame;
        self.active.pop();
        self.vars = outer;
        result
    }

    /// A conjunct decided by evaluation: a hole met (or skipped on the way
    /// to a true value, where a partial operation could still make it
    /// false) leaves it waiting.
    fn leaf(&mut self, root: &Root, way: Way, e: &Expr, out: &mut Vec<Residual>) -> Result<bool, EvalError> {
        let mark = self.hints.len();
        let also_mark = self.also_waits.len();
        let outer = self.skipped.take();
        self.exact_hint = None;
        let r = self.bool(e);
        let skipped = std::mem::replace(&mut self.skipped, outer);
        let waits = match r {
            Ok(true) => skipped,
            Err(EvalError::Hole(h)) => Some(h),
            Ok(false) => None,
            Err(err) if err.is_partial() => {
                self.hints.truncate(mark);
                return Ok(false);
            }
            Err(err) => return Err(err),
        };
        let also = self.also_waits.split_off(also_mark);
        match waits {
            Some(h)
                if also.is_empty()
                    && skipped.is_none()
                    && matches!(r, Err(EvalError::Hole(_)))
                    && self.hints.len() == mark + 1
                    && self.exact_hint == Some(mark) =>
            {
                let hint = self.hints.pop().expect("one hint");
                if is_comparison(e) {
                    out.push(Residual {
                        root: root.clone(),
                        way,
                        vars: Vec::new(),
                        hole: h,
                        also: Arc::new([]),
                        hints: Arc::new([]),
                        compared: Some(hint),
                    });
                } else {
                    out.push(self.residual(root, way, h, vec![hint]));
                }
                Ok(true)
            }
            Some(h) => {
                let hints = self.hints.split_off(mark);
                let mut r = self.residual(root, way, h, hints);
                r.also = also.into();
                out.push(r);
                Ok(true)
            }
            None => {
                self.hints.truncate(mark);
                r
            }
        }
    }

    fn residual(&self, root: &Root, way: Way, hole: u32, hints: Vec<Hint>) -> Residual {
        // The names as values of their own: the call's arguments they read
        // are gone by the time it is taken up.
        let vars = self.vars.iter().map(|(n, b)| (n.clone(), Bound::Value(self.read(b).clone()))).collect();
        Residual { root: root.clone(), way, vars, hole, also: Arc::new([]), hints: hints.into(), compared: None }
    }
}

/// Whether `e` is itself an integer comparison. A conjunct that is one,
/// waiting on a hole with `exact_hint` naming the one hint it left, is
/// exactly that hint: the comparison that met the hole sets `exact_hint`
/// last, and only when one side is the hole itself and the other an
/// integer (`k < 7`, not `k + 1 < 7`, nor the `k < 5` met inside
/// `k < (if k < 5 { 0 } else { 10 })`).
fn is_comparison(e: &Expr) -> bool {
    matches!(e, Expr::Binary(BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, ..))
}
