//! Static classification (Ciao's CiaoPP step, with the solver instead of
//! an abstract interpreter): before testing, each part of a contract is
//!
//! * **proved** when it follows from the precondition alone, whatever the
//!   function returns (`ensures(len(xs) >= 0)`, `ensures(x + 1 > x)`);
//! * **false** when it contradicts the precondition: no result can meet it
//!   on any valid input (`requires(x > 0), ensures(result > x && result < x)`);
//! * **to test** otherwise, or when it is outside what the solver decides.
//!
//! A precondition no input meets is *vacuous*: reported, and no tests run.
//!
//! The solver sees the part's integer and boolean skeleton: variables,
//! fields of arguments (`x.lo`), literals, `+ - *`, comparisons,
//! connectives and `if`, over mathematical integers (the spec language's
//! meaning). A part that calls a measure, indexes or quantifies is to
//! test.
//!
//! When `#[contract]` could summarize the body ([`crate::callees`]: its
//! `let`s and tail, straight-line arithmetic, `if`s and calls), the
//! solver also knows what the function returns, and each call to another
//! contracted function stands for a result meeting that function's
//! postconditions where its precondition holds (the *callees'
//! contracts*). Each such call is classified too: does it meet the
//! callee's precondition? Proofs are then relative to the callees keeping
//! their contracts (each is checked at run time and by its own tests) and
//! to arithmetic not overflowing (debug builds panic on overflow, so a
//! call that returns did not overflow; release builds do not read bodies).
//! Without a summary, a part about `result` is proved only when it holds
//! for any result.

use crate::check::Contract;
#[cfg(not(feature = "z3"))]
use crate::check::PartKind;

/// A part's static status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Follows from the precondition.
    Proved,
    /// Contradicts the precondition.
    False,
    /// Left to testing, and why.
    ToTest(String),
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Status::Proved => f.write_str("proved"),
            Status::False => f.write_str("false"),
            Status::ToTest(why) => write!(f, "to test ({why})"),
        }
    }
}

/// The statuses of a contract's parts.
#[derive(Clone, Debug)]
pub struct Classification {
    /// The function.
    pub function: String,
    /// `Some(true)` when the precondition has no solution, `Some(false)`
    /// when it has, `None` when the solver could not say.
    pub vacuous: Option<bool>,
    /// Each postcondition and cost part, as written, with its status.
    pub parts: Vec<(String, Status)>,
    /// What was read of the body: `Ok` with the callees whose contracts
    /// were assumed, or why the body was not read (`None`: not asked).
    pub body: Option<Result<Vec<String>, String>>,
    /// Each call the body makes to a contracted function, as `g(args)`,
    /// with the status of "the call meets `g`'s precondition".
    pub calls: Vec<(String, Status)>,
}

impl Classification {
    /// Parts with this status.
    pub fn count(&self, status: &Status) -> usize {
        self.parts.iter().filter(|(_, s)| std::mem::discriminant(s) == std::mem::discriminant(status)).count()
    }
}

impl std::fmt::Display for Classification {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "contract of `{}`, statically:", self.function)?;
        match self.vacuous {
            Some(true) => write!(f, "\n  precondition: vacuous (no input satisfies it)")?,
            Some(false) => write!(f, "\n  precondition: satisfiable")?,
            None => {}
        }
        match &self.body {
            Some(Ok(assumed)) if assumed.is_empty() => write!(f, "\n  body: read")?,
            Some(Ok(assumed)) => {
                let names: Vec<String> = assumed.iter().map(|a| format!("`{a}`")).collect();
                write!(f, "\n  body: read, assuming the contracts of {}", names.join(", "))?
            }
            Some(Err(why)) => write!(f, "\n  body: not read ({why})")?,
            None => {}
        }
        for (w, s) in &self.parts {
            write!(f, "\n  `{w}`: {s}")?;
        }
        for (call, s) in &self.calls {
            write!(f, "\n  call `{call}` meets its callee's precondition: {s}")?;
        }
        Ok(())
    }
}

/// Classifies each part of `contract` (see the [module](self)).
pub fn classify(contract: &Contract) -> Classification {
    #[cfg(feature = "z3")]
    {
        solver::classify(contract)
    }
    #[cfg(not(feature = "z3"))]
    {
        let parts = contract
            .parts()
            .iter()
            .filter(|p| matches!(p.kind, PartKind::Ensures | PartKind::Cost))
            .map(|p| (p.written.clone(), Status::ToTest("built without the solver (feature `z3`)".into())))
            .collect();
        let body = contract.body_summary().map(|b| match b {
            Ok(_) => Err("built without the solver (feature `z3`)".to_string()),
            Err(why) => Err(why.clone()),
        });
        Classification { function: contract.function().to_string(), vacuous: None, parts, body, calls: Vec::new() }
    }
}

#[cfg(feature = "z3")]
mod solver {
    use std::collections::HashMap;

    use speccheck_spec::{BinOp, Expr, UnOp};
    use z3::ast::{Bool, Int};
    use z3::{SatResult, Solver};

    use super::{Classification, Status};
    use crate::body::{Body, CALL, OPAQUE};
    use crate::callees::registered;
    use crate::check::{Contract, PartKind};

    /// An integer or boolean term.
    #[derive(Clone)]
    enum T {
        Int(Int),
        Bool(Bool),
    }

    /// Translates the integer/boolean skeleton of a spec; variables (and
    /// field paths) get one constant per name and sort.
    #[derive(Default)]
    struct Skeleton {
        ints: HashMap<String, Int>,
        bools: HashMap<String, Bool>,
    }

    fn path(e: &Expr) -> Option<String> {
        match e {
            Expr::Var(v) => Some(v.clone()),
            Expr::Field(b, f) => Some(format!("{}.{f}", path(b)?)),
            _ => None,
        }
    }

    /// True when `e` is certainly boolean.
    fn is_bool(e: &Expr) -> bool {
        match e {
            Expr::Bool(_) | Expr::Unary(UnOp::Not, _) => true,
            Expr::Binary(op, _, _) => !matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem),
            Expr::If(_, a, b) => is_bool(a) || is_bool(b),
            _ => false,
        }
    }

    impl Skeleton {
        fn int(&mut self, e: &Expr) -> Result<Int, String> {
            match self.term(e, false)? {
                T::Int(i) => Ok(i),
                T::Bool(_) => Err(format!("`{e}` is a boolean where an integer is expected")),
            }
        }

        fn bool(&mut self, e: &Expr) -> Result<Bool, String> {
            match self.term(e, true)? {
                T::Bool(b) => Ok(b),
                T::Int(_) => Err(format!("`{e}` is an integer where a boolean is expected")),
            }
        }

        fn term(&mut self, e: &Expr, want_bool: bool) -> Result<T, String> {
            if let Some(p) = path(e) {
                return Ok(if want_bool {
                    T::Bool(self.bools.entry(p.clone()).or_insert_with(|| Bool::new_const(p)).clone())
                } else {
                    T::Int(self.ints.entry(p.clone()).or_insert_with(|| Int::new_const(p)).clone())
                });
            }
            Ok(match e {
                Expr::Int(i) => T::Int(Int::from_i128(*i)),
                Expr::Bool(b) => T::Bool(Bool::from_bool(*b)),
                Expr::Unary(UnOp::Not, a) => T::Bool(self.bool(a)?.not()),
                Expr::Unary(UnOp::Neg, a) => T::Int(self.int(a)?.unary_minus()),
                Expr::If(c, a, b) => {
                    let c = self.bool(c)?;
                    if want_bool {
                        T::Bool(c.ite(&self.bool(a)?, &self.bool(b)?))
                    } else {
                        T::Int(c.ite(&self.int(a)?, &self.int(b)?))
                    }
                }
                Expr::Binary(op, a, b) => match op {
                    BinOp::Add => T::Int(Int::add(&[self.int(a)?, self.int(b)?])),
                    BinOp::Sub => T::Int(Int::sub(&[self.int(a)?, self.int(b)?])),
                    BinOp::Mul => T::Int(Int::mul(&[self.int(a)?, self.int(b)?])),
                    BinOp::Lt => T::Bool(self.int(a)?.lt(self.int(b)?)),
                    BinOp::Le => T::Bool(self.int(a)?.le(self.int(b)?)),
                    BinOp::Gt => T::Bool(self.int(a)?.gt(self.int(b)?)),
                    BinOp::Ge => T::Bool(self.int(a)?.ge(self.int(b)?)),
                    BinOp::And => T::Bool(Bool::and(&[self.bool(a)?, self.bool(b)?])),
                    BinOp::Or => T::Bool(Bool::or(&[self.bool(a)?, self.bool(b)?])),
                    BinOp::Implies => T::Bool(self.bool(a)?.implies(self.bool(b)?)),
                    BinOp::Eq | BinOp::Ne => {
                        let eq = if is_bool(a) || is_bool(b) {
                            self.bool(a)?.eq(self.bool(b)?)
                        } else {
                            self.int(a)?.eq(self.int(b)?)
                        };
                        T::Bool(if *op == BinOp::Eq { eq } else { eq.not() })
                    }
                    BinOp::Div | BinOp::Rem => return Err("it divides (Rust's truncating division)".into()),
                },
                Expr::Call(f, _) => return Err(format!("it calls `{f}`")),
                Expr::Index(..) => return Err("it indexes a sequence".into()),
                Expr::Quant { .. } => return Err("it quantifies".into()),
                Expr::Var(_) | Expr::Field(..) => unreachable!("paths are handled above"),
            })
        }
    }

    fn sat(facts: &[Bool]) -> Option<bool> {
        let solver = Solver::new();
        for f in facts {
            solver.assert(f);
        }
        match solver.check() {
            SatResult::Sat => Some(true),
            SatResult::Unsat => Some(false),
            SatResult::Unknown => None,
        }
    }

    /// A call the body makes to a contracted function.
    struct Site {
        /// As shown: `abs(x - 1)`.
        shown: String,
        /// The callee's name, as its contract names it.
        callee: String,
        /// Under what the call is made (`if` branches, `&&`, `||`).
        pc: Vec<Expr>,
        /// The callee's precondition at this call.
        pre: Vec<Expr>,
        /// The callee's postconditions at this call, about its result.
        posts: Vec<Expr>,
    }

    /// The body read as facts: the calls, in the order they are made,
    /// and what the function returns.
    struct Reading<'a> {
        body: &'a Body,
        sites: Vec<Site>,
        calls: usize,
        /// Results whose type is not an integer or a `bool` (a float, a
        /// type with its own `==`): nothing is computed with them.
        untyped: Vec<String>,
    }

    impl Reading<'_> {
        /// Whether `e` is an unknown value of unknown type.
        fn unknown(&self, e: &Expr) -> bool {
            matches!(e, Expr::Var(v) if v.starts_with(OPAQUE) || self.untyped.contains(v))
        }

        /// `e` with every operation on an unknown value of unknown type
        /// made unknown in turn: `a == a` is not true of a NaN, nor is
        /// `a + 1 > a` of a wrapping or saturating type.
        fn typed(&mut self, e: &Expr) -> Expr {
            let e = match e {
                Expr::Binary(op, a, b) => Expr::bin(*op, self.typed(a), self.typed(b)),
                Expr::Unary(op, a) => Expr::Unary(*op, Box::new(self.typed(a))),
                Expr::If(c, a, b) => {
                    Expr::If(Box::new(self.typed(c)), Box::new(self.typed(a)), Box::new(self.typed(b)))
                }
                Expr::Field(a, n) => Expr::Field(Box::new(self.typed(a)), n.clone()),
                _ => return e.clone(),
            };
            let operands: Vec<&Expr> = match &e {
                Expr::Binary(_, a, b) => vec![a, b],
                Expr::Unary(_, a) | Expr::Field(a, _) => vec![a],
                Expr::If(c, _, _) => vec![c],
                _ => Vec::new(),
            };
            if operands.iter().any(|o| self.unknown(o)) {
                self.calls += 1;
                return Expr::Var(format!("{OPAQUE}typed#{}", self.calls));
            }
            e
        }

        /// `e` with each call replaced by a variable for its result; calls
        /// to contracted functions are recorded as sites under `pc`.
        fn calls_abstracted(&mut self, e: &Expr, pc: &[Expr]) -> Expr {
            let with = |pc: &[Expr], c: Expr| -> Vec<Expr> { pc.iter().cloned().chain([c]).collect() };
            match e {
                Expr::Call(name, args) if name.starts_with(CALL) => {
                    let args: Vec<Expr> = args.iter().map(|a| self.calls_abstracted(a, pc)).collect();
                    let var = format!("call#{}", self.calls);
                    self.calls += 1;
                    match self.body.callee(name).and_then(|p| site(p, &args, &var, pc)) {
                        Some((site, true)) => self.sites.push(site),
                        Some((site, false)) => {
                            self.sites.push(site);
                            self.untyped.push(var.clone());
                        }
                        None => self.untyped.push(var.clone()),
                    }
                    Expr::Var(var)
                }
                // A condition guards what is assumed of the calls under
                // it: only what is known of it is used.
                Expr::If(c, a, b) => {
                    let c = self.calls_abstracted(c, pc);
                    let known = self.typed(&c);
                    let a = self.calls_abstracted(a, &with(pc, known.clone()));
                    let b = self.calls_abstracted(b, &with(pc, Expr::Unary(UnOp::Not, Box::new(known))));
                    Expr::If(Box::new(c), Box::new(a), Box::new(b))
                }
                Expr::Binary(op @ (BinOp::And | BinOp::Or | BinOp::Implies), a, b) => {
                    let a = self.calls_abstracted(a, pc);
                    let known = self.typed(&a);
                    let cond = if *op == BinOp::Or { Expr::Unary(UnOp::Not, Box::new(known)) } else { known };
                    let b = self.calls_abstracted(b, &with(pc, cond));
                    Expr::bin(*op, a, b)
                }
                Expr::Binary(op, a, b) => {
                    let a = self.calls_abstracted(a, pc);
                    Expr::bin(*op, a, self.calls_abstracted(b, pc))
                }
                Expr::Unary(op, a) => Expr::Unary(*op, Box::new(self.calls_abstracted(a, pc))),
                Expr::Field(a, n) => Expr::Field(Box::new(self.calls_abstracted(a, pc)), n.clone()),
                Expr::Index(a, b) => {
                    let a = self.calls_abstracted(a, pc);
                    Expr::Index(Box::new(a), Box::new(self.calls_abstracted(b, pc)))
                }
                Expr::Call(name, args) => {
                    Expr::Call(*name, args.iter().map(|a| self.calls_abstracted(a, pc)).collect())
                }
                Expr::Int(_) | Expr::Bool(_) | Expr::Var(_) | Expr::Quant { .. } => e.clone(),
            }
        }
    }

    /// The call of the function registered at `path` with `args`, its
    /// result named `var`: its contract with the arguments in place of the
    /// parameters (`None` when nothing is registered there, or the contract
    /// does not fit the call), and whether its result is an integer or a
    /// `bool`.
    fn site(path: &str, args: &[Expr], var: &str, pc: &[Expr]) -> Option<(Site, bool)> {
        let g = registered(path)?;
        if g.param_names().len() != args.len() || !g.mutated_names().is_empty() {
            return None;
        }
        let mut map: HashMap<&str, Expr> =
            g.param_names().iter().map(String::as_str).zip(args.iter().cloned()).collect();
        map.insert("result", Expr::Var(var.to_string()));
        let at_call =
            |e: &Expr| e.rewrite(&mut |x| if let Expr::Var(v) = x { map.get(v.as_str()).cloned() } else { None });
        let pre = g
            .parts()
            .iter()
            .filter(|p| p.kind == PartKind::Requires)
            .filter_map(|p| p.expr.as_ref())
            .map(at_call)
            .collect();
        let posts = g
            .parts()
            .iter()
            .filter(|p| p.kind == PartKind::Ensures)
            .filter_map(|p| g.before_after_view(p))
            .map(|e| at_call(&e))
            .collect();
        let shown = args.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
        let site = Site {
            shown: format!("{}({shown})", g.function()),
            callee: g.function().to_string(),
            pc: pc.to_vec(),
            pre,
            posts,
        };
        Some((site, g.returns_scalar()))
    }

    /// Replaces the `let`-bound names by their values, all at once.
    fn expand(e: &Expr, env: &HashMap<String, Expr>) -> Expr {
        e.rewrite(&mut |x| if let Expr::Var(v) = x { env.get(v).cloned() } else { None })
    }

    /// What a call site assumes: where the call is made and the callee's
    /// precondition holds, the callee's postconditions hold of its result.
    fn assumed(site: &Site) -> Vec<Expr> {
        let guard = Expr::all(site.pc.iter().chain(&site.pre).cloned());
        site.posts.iter().map(|p| Expr::bin(BinOp::Implies, guard.clone(), p.clone())).collect()
    }

    /// `status` of a claim `b` under the assumptions `given`: proved when
    /// its negation contradicts them, false when it does and `whole` says
    /// nothing was left out of them.
    fn status(given: &[Bool], b: &Bool, whole: bool) -> Status {
        let mut refute = given.to_vec();
        refute.push(b.not());
        let mut meet = given.to_vec();
        meet.push(b.clone());
        match (sat(&refute), sat(&meet)) {
            (Some(false), _) => Status::Proved,
            (_, Some(false)) if whole => Status::False,
            (None, _) | (_, None) => Status::ToTest("the solver could not decide".into()),
            _ => Status::ToTest("depends on what the function does".into()),
        }
    }

    pub(super) fn classify(contract: &Contract) -> Classification {
        let mut sk = Skeleton::default();
        // The precondition's decidable clauses; the others are left out,
        // which only weakens what is assumed (proofs stay sound, but a
        // part is then called false only if it contradicts what is kept:
        // so with clauses left out, nothing is called false).
        let mut pre = Vec::new();
        let mut whole = true;
        for p in contract.parts().iter().filter(|p| p.kind == PartKind::Requires) {
            match p.expr.as_ref().map(|e| sk.bool(e)) {
                Some(Ok(b)) => pre.push(b),
                _ => whole = false,
            }
        }
        let vacuous = match sat(&pre) {
            Some(false) => Some(true),
            Some(true) if whole => Some(false),
            _ => None,
        };

        // The body, read as facts after the precondition. A fact outside
        // the solver's fragment is left out (assuming less stays sound).
        let mut given = pre.clone();
        let mut calls = Vec::new();
        let mut body = contract.body_summary().map(|b| b.clone().map(|_| Vec::new()));
        if let Some(Ok(summary)) = contract.body_summary() {
            let mut reading = Reading { body: summary, sites: Vec::new(), calls: 0, untyped: Vec::new() };
            let mut env = HashMap::new();
            for (name, value) in &summary.lets {
                let v = reading.calls_abstracted(&expand(value, &env), &[]);
                let v = reading.typed(&v);
                env.insert(name.clone(), v);
            }
            let tail = summary.tail.as_ref().map(|t| {
                let t = reading.calls_abstracted(&expand(t, &env), &[]);
                reading.typed(&t)
            });
            let mut assumed_of = Vec::new();
            for site in &reading.sites {
                // Each call is judged on what holds when it is made: the
                // precondition and the calls made before it.
                let status = match (
                    sk.bool(&Expr::all(site.pre.iter().cloned())),
                    site.pc.iter().map(|c| sk.bool(c)).collect::<Result<Vec<_>, _>>(),
                ) {
                    (Ok(b), Ok(pc)) => {
                        let mut at = given.clone();
                        at.extend(pc);
                        status(&at, &b, whole)
                    }
                    (Err(why), _) | (_, Err(why)) => Status::ToTest(format!("outside the solver's fragment: {why}")),
                };
                calls.push((site.shown.clone(), status));
                given.extend(assumed(site).iter().filter_map(|f| sk.bool(f).ok()));
                if !assumed_of.contains(&site.callee) {
                    assumed_of.push(site.callee.clone());
                }
            }
            if let Some(t) = tail {
                let fact = Expr::bin(BinOp::Eq, Expr::Var("result".into()), t);
                if let Ok(f) = sk.bool(&fact) {
                    given.push(f);
                }
            }
            body = Some(Ok(assumed_of));
            // Callees' contracts that no returning call can meet would
            // prove anything: say so and assume nothing from the body.
            if sat(&pre) == Some(true) && sat(&given) == Some(false) {
                body = Some(Err("by the callees' contracts no call returns: check those contracts".into()));
                given = pre.clone();
            }
        }

        let parts = contract
            .parts()
            .iter()
            .filter(|p| matches!(p.kind, PartKind::Ensures | PartKind::Cost))
            .map(|p| {
                let status = match contract.before_after_view(p).map(|e| sk.bool(&e)) {
                    None => Status::ToTest("not a spec".into()),
                    Some(Err(why)) => Status::ToTest(format!("outside the solver's fragment: {why}")),
                    Some(Ok(b)) => status(&given, &b, whole),
                };
                (p.written.clone(), status)
            })
            .collect();
        Classification { function: contract.function().to_string(), vacuous, parts, body, calls }
    }
}

#[cfg(all(test, feature = "z3"))]
mod tests {
    use super::*;

    fn contract(requires: &[&str], ensures: &[&str]) -> Classification {
        let r: Vec<(&str, &str)> = requires.iter().map(|s| (*s, *s)).collect();
        let e: Vec<(&str, &str)> = ensures.iter().map(|s| (*s, *s)).collect();
        classify(&Contract::new("f", &r, &e, None, false, None).unwrap())
    }

    #[test]
    fn parts_following_from_the_precondition_are_proved() {
        let c = contract(&["x > 0"], &["x + 1 > 1", "result >= 0 || result < 0"]);
        assert_eq!(c.vacuous, Some(false));
        assert_eq!(c.parts[0].1, Status::Proved);
        assert_eq!(c.parts[1].1, Status::Proved);
    }

    #[test]
    fn parts_contradicting_the_precondition_are_false() {
        let c = contract(&["x > 0"], &["x < 0", "result > x && result < x"]);
        assert_eq!(c.parts[0].1, Status::False);
        assert_eq!(c.parts[1].1, Status::False);
    }

    #[test]
    fn parts_about_the_result_or_measures_are_to_test() {
        let c = contract(&["x > 0"], &["result > x", "len(result) == x"]);
        assert!(matches!(&c.parts[0].1, Status::ToTest(w) if w.contains("function does")), "{c}");
        assert!(matches!(&c.parts[1].1, Status::ToTest(w) if w.contains("calls `len`")), "{c}");
    }

    #[test]
    fn after_values_are_unknown_and_old_values_are_the_arguments() {
        let c = Contract::new(
            "push",
            &[("n >= 0", "n >= 0")],
            &[("n == old(n) + 1", "n == old(n) + 1")],
            None,
            false,
            None,
        )
        .unwrap();
        // Without `mutated`, `n` is the argument itself: `n == n + 1` is false.
        assert_eq!(classify(&c).parts[0].1, Status::False);
        let c = c.mutated(&["n"]);
        assert!(matches!(classify(&c).parts[0].1, Status::ToTest(_)), "{}", classify(&c));
        let c = Contract::new("f", &[], &[("old(n) == n || true", "old(n) == n || true")], None, false, None)
            .unwrap()
            .mutated(&["n"]);
        assert_eq!(classify(&c).parts[0].1, Status::Proved);
    }

    #[test]
    fn an_unsatisfiable_precondition_is_vacuous() {
        let c = contract(&["x > 0", "x.lo < x.hi && x.hi < x.lo"], &["result == 0"]);
        assert_eq!(c.vacuous, Some(true), "{c}");
        let c = contract(&["x > 0", "x < 0"], &[]);
        assert_eq!(c.vacuous, Some(true), "{c}");
    }

    #[test]
    fn with_an_undecided_precondition_nothing_is_called_false_or_satisfiable() {
        let c = contract(&["len(xs) > 2"], &["len(xs) < 0", "x < x"]);
        assert_eq!(c.vacuous, None);
        assert!(matches!(c.parts[1].1, Status::ToTest(_)), "{c}");
    }

    /// The classifier against brute force: for bodies and postconditions
    /// over one small integer argument, a part called proved holds on
    /// every valid input, and a part called false holds on none.
    #[test]
    fn readings_of_the_body_agree_with_brute_force() {
        use speccheck_spec::{Env, Measures, Value};
        let tails = [
            "x + 1",
            "x - 1",
            "x * x",
            "if x > 0 { x } else { 0 - x }",
            "x * 2 - x",
            "if x >= 2 { x } else { 2 }",
            "(x + 3) * (x - 3)",
            "__sc_opaque_0",
            "if __sc_opaque_0 > x { x } else { x + 1 }",
        ];
        let posts =
            ["result >= 0", "result > x", "result == x + 1", "result >= x", "result < x", "result != x", "result >= 2"];
        let measures = Box::leak(Box::new(Measures::default()));
        let (mut proved, mut false_) = (0, 0);
        for tail in tails {
            for post in posts {
                let c =
                    Contract::new("f", &[("x > -5 && x < 5", "x > -5 && x < 5")], &[(post, post)], None, false, None)
                        .unwrap()
                        .params(&["x"])
                        .body("k", &[], Some(tail), &[]);
                let class = classify(&c);
                let status = &class.parts[0].1;
                let holds: Vec<Option<bool>> = (-4..=4)
                    .map(|x| {
                        let env = Env::new(measures).with("x", Value::Int(x));
                        // An opaque value may be anything: the part holds
                        // only if it holds for every value tried.
                        let outcomes: Vec<bool> = (-6..=6)
                            .map(|o| {
                                let mut env = env.clone().with("__sc_opaque_0", Value::Int(o));
                                let r = env.eval(&speccheck_spec::parse_str(tail).unwrap()).unwrap();
                                env.with("result", r).bool(&speccheck_spec::parse_str(post).unwrap()).unwrap()
                            })
                            .collect();
                        if outcomes.iter().all(|b| *b) {
                            Some(true)
                        } else if outcomes.iter().all(|b| !*b) {
                            Some(false)
                        } else {
                            None
                        }
                    })
                    .collect();
                match status {
                    Status::Proved => {
                        proved += 1;
                        assert!(holds.iter().all(|h| *h == Some(true)), "`{post}` of `{tail}` called proved: {class}");
                    }
                    Status::False => {
                        false_ += 1;
                        assert!(holds.iter().all(|h| *h == Some(false)), "`{post}` of `{tail}` called false: {class}");
                    }
                    Status::ToTest(_) => {}
                }
            }
        }
        // The reading decides most of these.
        assert!(proved >= 10 && false_ >= 3, "proved {proved}, false {false_}");
    }
}
