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
//! test. Proofs are sound for that fragment; the body of the function is
//! not analysed (Rust code is not in the spec language), so a part about
//! `result` is proved only when it holds for any result.

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
        for (w, s) in &self.parts {
            write!(f, "\n  `{w}`: {s}")?;
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
        Classification { function: contract.function().to_string(), vacuous: None, parts }
    }
}

#[cfg(feature = "z3")]
mod solver {
    use std::collections::HashMap;

    use speccheck_spec::{BinOp, Expr, UnOp};
    use z3::ast::{Bool, Int};
    use z3::{SatResult, Solver};

    use super::{Classification, Status};
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
        let parts = contract
            .parts()
            .iter()
            .filter(|p| matches!(p.kind, PartKind::Ensures | PartKind::Cost))
            .map(|p| {
                let status = match contract.before_after_view(p).map(|e| sk.bool(&e)) {
                    None => Status::ToTest("not a spec".into()),
                    Some(Err(why)) => Status::ToTest(format!("outside the solver's fragment: {why}")),
                    Some(Ok(b)) => {
                        let mut refute = pre.clone();
                        refute.push(b.not());
                        let mut meet = pre.clone();
                        meet.push(b);
                        match (sat(&refute), sat(&meet)) {
                            (Some(false), _) => Status::Proved,
                            (_, Some(false)) if whole => Status::False,
                            (None, _) | (_, None) => Status::ToTest("the solver could not decide".into()),
                            _ => Status::ToTest("depends on what the function does".into()),
                        }
                    }
                };
                (p.written.clone(), status)
            })
            .collect();
        Classification { function: contract.function().to_string(), vacuous, parts }
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
}
