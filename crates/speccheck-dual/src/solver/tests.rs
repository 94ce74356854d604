//! The solver checked against brute force (and against z3 with the `z3`
//! feature) on random constraint sets, with speccheck itself.

use std::collections::BTreeMap;

use speccheck::gens;
use speccheck::{Config, Property, TestCase};

use super::{Native, Solver};
use crate::sym::{Expr, Sort, Value, Var};

const INT_VARS: u32 = 2;
const STR_VARS: u32 = 2;
const BOOL_VARS: u32 = 2;
/// With constants in -2..=2 and offsets in -1..=1 over two variables, a
/// satisfiable set has a difference-logic solution within ±14 (shortest
/// paths over three nodes with weights in -7..=6): brute force over ±16 is
/// exact.
const INT_BOUND: i64 = 16;
const STRINGS: [&str; 3] = ["a", "\"t\"", "W/\"t\""];
const TAGS: [&str; 3] = ["\"t\"", "W/\"t\"", "\"u\""];

fn var(sort: Sort, k: u32) -> Var {
    let base = match sort {
        Sort::Int => 0,
        Sort::Str => INT_VARS,
        Sort::Bool => INT_VARS + STR_VARS,
    };
    Var { id: base + k, sort, hint: "v" }
}

fn all_vars() -> Vec<Var> {
    let mut v = Vec::new();
    v.extend((0..INT_VARS).map(|k| var(Sort::Int, k)));
    v.extend((0..STR_VARS).map(|k| var(Sort::Str, k)));
    v.extend((0..BOOL_VARS).map(|k| var(Sort::Bool, k)));
    v
}

fn int_term(tc: &mut TestCase, depth: u32) -> Expr {
    match tc.draw_index(if depth > 0 { 4 } else { 2 }) {
        0 => Expr::int(tc.draw_int(-2i64, 2)),
        1 => Expr::Var(var(Sort::Int, tc.draw_index(INT_VARS as usize) as u32)),
        2 => int_term(tc, 0).plus(tc.draw_int(-1i64, 1)),
        // An if-then-else term, under an offset or not.
        _ => {
            let ite = Expr::Ite(Box::new(bool_term(tc)), Box::new(int_term(tc, 0)), Box::new(int_term(tc, 0)));
            if tc.draw_bool(0.5) { ite.plus(tc.draw_int(-1i64, 1)) } else { ite }
        }
    }
}

fn str_term(tc: &mut TestCase) -> Expr {
    match tc.draw_index(5) {
        0 | 1 => Expr::str(STRINGS[tc.draw_index(STRINGS.len())]),
        2 | 3 => Expr::Var(var(Sort::Str, tc.draw_index(STR_VARS as usize) as u32)),
        _ => Expr::Ite(Box::new(bool_term(tc)), Box::new(str_term(tc)), Box::new(str_term(tc))),
    }
}

fn bool_term(tc: &mut TestCase) -> Expr {
    match tc.draw_index(2) {
        0 => Expr::bool(tc.draw_bool(0.5)),
        _ => Expr::Var(var(Sort::Bool, tc.draw_index(BOOL_VARS as usize) as u32)),
    }
}

fn constraint(tc: &mut TestCase, depth: u32) -> Expr {
    let n = if depth > 0 { 9 } else { 6 };
    match tc.draw_index(n) {
        0 => int_term(tc, 1).equals(int_term(tc, 1)),
        1 => int_term(tc, 1).lt(int_term(tc, 1)),
        2 => int_term(tc, 1).le(int_term(tc, 1)),
        3 => str_term(tc).equals(str_term(tc)),
        4 if tc.draw_bool(0.4) => {
            // Two values made of a flag and a name, any part unknown,
            // compared loosely (same name) or strictly (same name, both
            // flags off): how a protocol's structured values compare, e.g.
            // HTTP's entity tags (weak?, opaque tag).
            let pair = |tc: &mut TestCase| (bool_term(tc), str_term(tc));
            let ((fa, na), (fb, nb)) = (pair(tc), pair(tc));
            if tc.draw_bool(0.5) { na.equals(nb) } else { Expr::and([!fa, !fb, na.equals(nb)]) }
        }
        4 => {
            // A string term against a constant, exactly or in either of its
            // two forms (`x`, `W/x`): how a protocol's loose match against a
            // concrete value reaches the solver, e.g. HTTP's weak
            // entity-tag comparison.
            let t = str_term(tc);
            let c = TAGS[tc.draw_index(TAGS.len())];
            if tc.draw_bool(0.5) {
                let plain = c.trim_start_matches("W/");
                Expr::or([t.equals(plain), t.equals(format!("W/{plain}"))])
            } else {
                t.equals(c)
            }
        }
        5 => {
            let b = Expr::Var(var(Sort::Bool, tc.draw_index(BOOL_VARS as usize) as u32));
            match tc.draw_index(4) {
                0 => b,
                // A boolean if-then-else as a formula.
                3 => Expr::Ite(Box::new(b), Box::new(bool_term(tc)), Box::new(bool_term(tc))),
                1 => b.equals(Expr::Var(var(Sort::Bool, 0))),
                // Comparisons with constants, either side.
                _ if tc.draw_bool(0.5) => b.equals(Expr::bool(tc.draw_bool(0.5))),
                _ => Expr::bool(tc.draw_bool(0.5)).equals(b),
            }
        }
        6 => !constraint(tc, depth - 1),
        7 => Expr::and([constraint(tc, depth - 1), constraint(tc, depth - 1)]),
        _ => Expr::or([constraint(tc, depth - 1), constraint(tc, depth - 1)]),
    }
}

fn constraints() -> impl speccheck::Generator<Value = Vec<Expr>> {
    gens::from_fn(|tc| {
        let n = tc.draw_index(6) + 1;
        (0..n).map(|_| constraint(tc, 2)).collect()
    })
}

fn domain(sort: Sort) -> Vec<Value> {
    match sort {
        Sort::Int => (-INT_BOUND..=INT_BOUND).map(Value::Int).collect(),
        Sort::Bool => vec![Value::Bool(false), Value::Bool(true)],
        Sort::Str => {
            let mut d: Vec<Value> = STRINGS.iter().chain(&TAGS).map(|s| Value::Str(s.to_string())).collect();
            d.push(Value::Str("W/\"u\"".into()));
            d.extend((0..STR_VARS).map(|k| Value::Str(format!("fresh{k}"))));
            d.sort();
            d.dedup();
            d
        }
    }
}

/// Is the conjunction satisfiable over the (sufficient) finite domains?
fn brute(cs: &[Expr]) -> bool {
    let mut vars = Vec::new();
    for c in cs {
        c.vars(&mut vars);
    }
    fn go(vars: &[Var], k: usize, asg: &mut BTreeMap<Var, Value>, cs: &[Expr]) -> bool {
        if k == vars.len() {
            return cs.iter().all(|c| c.eval(&|v| asg.get(&v).cloned()) == Some(Value::Bool(true)));
        }
        for val in domain(vars[k].sort) {
            asg.insert(vars[k], val);
            if go(vars, k + 1, asg, cs) {
                return true;
            }
        }
        asg.remove(&vars[k]);
        false
    }
    go(&vars, 0, &mut BTreeMap::new(), cs)
}

fn store<S: Solver>() -> S {
    let mut s = S::empty();
    for v in all_vars() {
        let got = s.fresh(v.sort, "v");
        assert_eq!(got.id, v.id);
    }
    s
}

fn config(name: &str) -> Config {
    Config { cases: 300, database: None, seed: Some(0x5017), ..Config::named(name) }
}

#[test]
fn native_agrees_with_brute_force_after_every_assertion() {
    Property::new(constraints()).config(config("native_vs_brute")).check(|cs: Vec<Expr>| {
        let mut s: Native = store();
        for k in 0..cs.len() {
            let expected = brute(&cs[..=k]);
            let got = s.assert(cs[k].clone());
            assert_eq!(got, expected, "after asserting {:?}", &cs[..=k]);
            if !got {
                speccheck::label(format!("unsat after {} constraints", k + 1));
                return;
            }
            // The model satisfies everything asserted so far.
            let m = s.model().expect("a model of a satisfiable store");
            for c in &cs[..=k] {
                assert_eq!(c.eval(&|v| m.get(&v).cloned()), Some(Value::Bool(true)), "model {m:?} violates {c}");
            }
        }
        speccheck::label("satisfiable");
    });
}

#[test]
fn bindings_resolve_and_conflicts_kill() {
    let mut s = Native::empty();
    let t = Expr::Var(s.fresh(Sort::Str, "etag"));
    let n = Expr::Var(s.fresh(Sort::Int, "n"));
    assert!(s.assert(t.equals("\"v1\"")));
    assert_eq!(s.resolve(&t), Expr::str("\"v1\""));
    assert!(s.assert(n.gt(3)));
    assert!(s.assert(n.le(4)));
    assert_eq!(s.model().unwrap()[&Var { id: 1, sort: Sort::Int, hint: "n" }], Value::Int(4));
    assert!(!s.assert(n.not_equals(4)), "3 < n <= 4 and n != 4 is unsatisfiable");
    assert!(!s.is_sat());
    assert!(!s.assert(Expr::bool(true)), "a dead store stays dead");
}

#[test]
fn a_boolean_differs_from_at_most_one_constant() {
    let mut s = Native::empty();
    let b = Expr::Var(s.fresh(Sort::Bool, "b"));
    assert!(s.assert(b.not_equals(true)));
    assert_eq!(s.resolve(&b), Expr::bool(false), "b != true binds b to false");
    assert!(!s.assert(b.not_equals(false)), "b != true && b != false is unsatisfiable");
    let mut s = Native::empty();
    let b = Expr::Var(s.fresh(Sort::Bool, "b"));
    assert!(!s.assert(Expr::and([Expr::bool(false).not_equals(b.clone()), b.not_equals(true)])));
}

#[test]
fn stores_reached_by_different_routes_are_equal() {
    let (mut a, mut b) = (Native::empty(), Native::empty());
    let x = Expr::Var(a.fresh(Sort::Int, "x"));
    b.fresh(Sort::Int, "x");
    assert!(a.assert(x.equals(3)));
    assert!(b.assert(x.ge(3)));
    assert!(b.assert(x.le(3)));
    assert_ne!(a.asserted(), b.asserted());
    let (a, b) = (a.project(&[]), b.project(&[]));
    assert_eq!(a, b, "two stores with the same constraints are one state");
    let h = std::hash::RandomState::new();
    use std::hash::BuildHasher;
    assert_eq!(h.hash_one(&a), h.hash_one(&b));
}

#[test]
fn integer_range_is_i64() {
    let mut s = Native::empty();
    let x = Expr::Var(s.fresh(Sort::Int, "x"));
    assert!(s.assert(x.ge(i64::MAX)));
    assert_eq!(s.model().unwrap()[&Var { id: 0, sort: Sort::Int, hint: "x" }], Value::Int(i64::MAX));
    assert!(!s.assert(x.plus(1).le(x.clone())), "x + 1 <= x never holds");
    let mut s = Native::empty();
    let x = Expr::Var(s.fresh(Sort::Int, "x"));
    assert!(!s.assert(x.gt(i64::MAX)), "no i64 is above i64::MAX");
}

#[test]
fn disequalities_over_two_values_are_pigeonholed() {
    let mut s = Native::empty();
    let xs: Vec<Expr> = (0..3).map(|_| Expr::Var(s.fresh(Sort::Int, "x"))).collect();
    for x in &xs {
        assert!(s.assert(x.ge(0)));
        assert!(s.assert(x.le(1)));
    }
    assert!(s.assert(xs[0].not_equals(xs[1].clone())));
    assert!(s.assert(xs[1].not_equals(xs[2].clone())));
    assert!(!s.assert(xs[0].not_equals(xs[2].clone())), "three distinct values in {{0, 1}}");
}

#[cfg(feature = "z3")]
#[test]
fn native_agrees_with_z3() {
    use super::Z3;
    Property::new(constraints()).config(config("native_vs_z3")).check(|cs: Vec<Expr>| {
        let (mut a, mut b): (Native, Z3) = (store(), store());
        for c in &cs {
            assert_eq!(a.assert(c.clone()), b.assert(c.clone()), "after {c} in {cs:?}");
        }
    });
}
