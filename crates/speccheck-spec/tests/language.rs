//! The spec language: what it reads, what it rejects (naming the
//! construct) and what its specs mean.

use std::cell::RefCell;
use std::sync::Arc;

use speccheck_spec::{
    BinOp, CtorDef, DataDef, DataRef, Env, EvalError, Expr, FieldDef, Measures, Memo, Targetable, Ty, Value, parse_str,
};

/// `enum List { Nil, Cons(i64, Box<List>) }`, described by hand.
struct List;

fn list_ty() -> Ty {
    Ty::Data(DataRef::new::<List>("List", || DataDef {
        name: "List".into(),
        ctors: vec![
            CtorDef { name: "Nil".into(), fields: vec![], recursive: false },
            CtorDef {
                name: "Cons".into(),
                fields: vec![FieldDef::plain("0", i64::ty()), FieldDef::plain("1", list_ty())],
                recursive: true,
            },
        ],
    }))
}

fn list(xs: &[i128]) -> Value {
    let Ty::Data(d) = list_ty() else { unreachable!() };
    let def = d.get();
    xs.iter().rev().fold(Value::Data { def, ctor: 0, fields: vec![].into() }, |tail, x| Value::Data {
        def,
        ctor: 1,
        fields: vec![Value::Int(*x), tail].into(),
    })
}

fn measures() -> Measures {
    Measures::new()
        .with("fn size(l: &List) -> i64 { match l { List::Nil => 0, List::Cons(_, t) => 1 + size(t) } }")
        .unwrap()
        .with("fn all_ge(l: &List, x: i64) -> bool { match l { Nil => true, Cons(h, t) => *h >= x && all_ge(t, x) } }")
        .unwrap()
        .with(
            "fn keys(l: &List) -> Set<i64> { match l { Nil => empty(), Cons(h, t) => union(singleton(*h), keys(t)) } }",
        )
        .unwrap()
        .with("fn looping(l: &List) -> i64 { match l { _ => looping(l) } }")
        .unwrap()
}

fn holds(spec: &str, env: &[(&str, Value)]) -> Result<bool, EvalError> {
    let m = measures();
    let mut e = Env::new(&m);
    for (n, v) in env {
        e.bind(n.to_string(), v.clone());
    }
    e.bool(&parse_str(spec).unwrap())
}

#[test]
fn implication_binds_loosest_and_associates_to_the_right() {
    let e = parse_str("a && b ==> c || d ==> e").unwrap();
    let Expr::Binary(BinOp::Implies, lhs, rhs) = e else { panic!("{e:?}") };
    assert!(matches!(*lhs, Expr::Binary(BinOp::And, ..)));
    assert!(matches!(*rhs, Expr::Binary(BinOp::Implies, ..)), "{rhs}");
    // Inside calls and quantifiers too, part by part.
    let q = parse_str("forall!(i in 0..n, i > 0 ==> xs[i] >= 0)").unwrap();
    assert_eq!(q.to_string(), "forall!(i in 0..n, (i > 0) ==> (xs[i] >= 0))");
}

#[test]
fn constructs_outside_the_language_are_named() {
    for (src, construct) in [
        ("x & y == 0", "x & y"),
        ("foo::bar(x)", ""),
        ("vec![1] == xs", "vec ! [1]"),
        ("if a { b }", "if a { b }"),
        ("match x { _ => true }", "match x"),
        ("\"text\" == s", "\"text\""),
    ] {
        match parse_str(src) {
            Err(e) => assert!(e.construct.contains(construct), "{src}: {e}"),
            Ok(e) if src.starts_with("foo::") => assert_eq!(e, Expr::Call("bar".into(), vec![Expr::Var("x".into())])),
            Ok(e) => panic!("{src} parsed as {e}"),
        }
    }
}

#[test]
fn specs_evaluate_as_rust_would() {
    let env = [("r1", Value::Int(5)), ("r2", Value::Int(100)), ("s", Value::Int(2))];
    assert!(holds("0 < r1 && 0 < r2 && 0 <= s && s < r1", &env).unwrap());
    assert!(holds("-7 / 2 == -3 && -7 % 2 == -1", &[]).unwrap(), "division truncates");
    assert!(holds("if s > 1 { r1 == 5 } else { false }", &env).unwrap());
    assert!(holds("false ==> 1 / 0 == 0", &[]).unwrap(), "the connectives short-circuit");
    assert_eq!(holds("1 / 0 == 0", &[]), Err(EvalError::DivisionByZero("1 / 0".into())));
}

#[test]
fn quantifiers_and_sequences() {
    let sorted = Value::Seq([1, 2, 2, 5].map(Value::Int).to_vec());
    let unsorted = Value::Seq([3, 1].map(Value::Int).to_vec());
    let spec = "forall!(i in 0..len(xs) - 1, xs[i] <= xs[i + 1])";
    assert!(holds(spec, &[("xs", sorted.clone())]).unwrap());
    assert!(!holds(spec, &[("xs", unsorted)]).unwrap());
    assert!(holds("exists!(x in xs, x == 5) && !exists!(x in xs, x > 5)", &[("xs", sorted.clone())]).unwrap());
    assert!(holds("xs.len() == 4 && forall!(k in 1..=2, xs[k] == 2)", &[("xs", sorted)]).unwrap());
}

#[test]
fn measures_unfold_over_data_with_extra_arguments_and_sets() {
    let l = list(&[3, 1, 4]);
    assert!(holds("size(l) == 3", &[("l", l.clone())]).unwrap());
    assert!(holds("all_ge(l, 1) && !all_ge(l, 2)", &[("l", l.clone())]).unwrap());
    assert!(holds("keys(l) == union(singleton(1), union(singleton(3), singleton(4)))", &[("l", l.clone())]).unwrap());
    assert!(
        holds("member(4, keys(l)) && subset(keys(l), keys(l)) && diff(keys(l), keys(l)) == empty()", &[("l", l)])
            .unwrap()
    );
}

#[test]
fn bad_measures_and_unknown_functions_are_reported() {
    let l = list(&[1]);
    assert_eq!(holds("looping(l) == 0", &[("l", l.clone())]), Err(EvalError::NotTerminating("looping".into())));
    assert_eq!(holds("is_prime(3)", &[]), Err(EvalError::UnknownFunction("is_prime".into())));
    assert_eq!(holds("q > 0", &[]), Err(EvalError::Unbound("q".into())));
    let e = holds("size(l) && true", &[("l", l)]).unwrap_err();
    assert!(e.to_string().contains("expected a boolean"), "{e}");
}

#[test]
fn rust_values_reflect_and_reify() {
    let v = (3i64, vec![true, false], Some(7u8));
    let r = v.reflect();
    assert_eq!(<(i64, Vec<bool>, Option<u8>)>::reify(&r), Some(v));
    assert_eq!(u8::reify(&Value::Int(300)), None, "values that do not fit are refused");
    assert_eq!(r.to_string(), "(3, [true, false], Some(7))");
}

/// `Cons(head, tail)`, sharing `tail`.
fn cons(head: Value, tail: &Value) -> Value {
    let Value::Data { def, .. } = tail else { panic!("a list") };
    Value::Data { def, ctor: 1, fields: vec![head, tail.clone()].into() }
}

#[test]
fn a_memo_changes_no_answer_and_looks_up_a_shared_part() {
    let m = measures();
    let memo = RefCell::new(Memo::new());
    let tail = list(&[3, 4, 5, 6]);
    let partial = cons(Value::Hole(9), &list(&[]));
    let lists = [cons(Value::Int(1), &tail), cons(Value::Int(2), &tail), tail.clone(), partial.clone(), partial];
    let specs = ["size(l)", "all_ge(l, 2)", "all_ge(l, 4) && size(l) > 2", "keys(l)"];
    for spec in specs {
        let e = parse_str(spec).unwrap();
        for l in &lists {
            let mut plain = Env::new(&m).with("l", l.clone());
            let mut memoized = Env::memoized(&m, &memo).with("l", l.clone());
            assert_eq!(plain.eval(&e), memoized.eval(&e), "{spec} of {l}");
            assert_eq!(plain.hints(), memoized.hints(), "{spec} of {l}");
            assert_eq!(plain.skipped(), memoized.skipped(), "{spec} of {l}");
        }
    }
    // A list sharing a measured tail costs one more result: its own node.
    memo.borrow_mut().clear();
    let size = parse_str("size(l)").unwrap();
    Env::memoized(&m, &memo).with("l", lists[0].clone()).eval(&size).unwrap();
    let before = memo.borrow().len();
    assert_eq!(before, 6, "a result per node and the empty list");
    assert_eq!(Env::memoized(&m, &memo).with("l", lists[1].clone()).eval(&size), Ok(Value::Int(5)));
    assert_eq!(memo.borrow().len(), before + 1);
    // What a comparison with a hole told the first evaluation, a looked-up
    // result tells again.
    let ge = parse_str("all_ge(l, 2)").unwrap();
    let mut first = Env::memoized(&m, &memo).with("l", lists[3].clone());
    assert_eq!(first.eval(&ge), Err(EvalError::Hole(9)));
    let mut again = Env::memoized(&m, &memo).with("l", lists[3].clone());
    assert_eq!(again.eval(&ge), Err(EvalError::Hole(9)));
    assert!(!again.hints().is_empty());
    assert_eq!(first.hints(), again.hints());
}

#[test]
fn residuals_decide_what_a_partial_value_decides_and_wait_on_the_rest() {
    let m = measures();
    let residuals = |spec: &str, l: &Value| {
        let mut out = Vec::new();
        let r = Env::new(&m).with("l", l.clone()).residuals(&Arc::new(parse_str(spec).unwrap()), &mut out);
        (r, out)
    };
    let head_open = |tail: &[i128]| cons(Value::Hole(1), &list(tail));
    // The known part decides: false, whatever the hole becomes (the left
    // conjunct undecided, the right one false).
    assert_eq!(residuals("all_ge(l, 2)", &head_open(&[5, 1])).0, Ok(false));
    assert_eq!(residuals("all_ge(l, 2) && size(l) == 5", &head_open(&[5, 6])).0, Ok(false));
    // Else what is left waits on the hole: the measure unfolded down to
    // the one comparison that needs it.
    let (r, out) = residuals("all_ge(l, 2) && size(l) == 3", &head_open(&[5, 6]));
    assert_eq!(r, Ok(true));
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!((out[0].hole(), out[0].conjunct()), (1, "h >= x".to_string()));
    assert_eq!(out[0].hints().len(), 1);
    // Taken up with the hole filled: decided either way.
    for (by, holds) in [(7, true), (0, false)] {
        let fills = [None, Some(Value::Int(by))];
        let mut again = Vec::new();
        assert_eq!(Env::new(&m).with_fills(&fills).resume(&out[0], &mut again), Ok(holds));
        assert!(again.is_empty());
    }
    // A disjunction waits whole; a call on a hole waits at the call.
    let (_, out) = residuals("all_ge(l, 2) || size(l) == 0", &head_open(&[5]));
    assert_eq!(out.iter().map(|r| r.conjunct()).collect::<Vec<_>>(), ["all_ge(l, 2) || (size(l) == 0)"]);
    let (_, out) = residuals("all_ge(l, 2)", &Value::Hole(4));
    assert_eq!((out[0].hole(), out[0].conjunct()), (4, "all_ge(l, 2)".to_string()));
    // A hole filled with a part that has holes of its own: the residual
    // taken up waits on the new hole.
    let fills = [None, None, None, None, Some(head_open(&[3]))];
    let mut again = Vec::new();
    assert_eq!(Env::new(&m).with_fills(&fills).resume(&out[0], &mut again), Ok(true));
    assert_eq!(again.iter().map(|r| r.hole()).collect::<Vec<_>>(), [1]);
}

#[test]
fn residuals_go_after_what_the_caller_holds_and_a_refuted_conjunction_leaves_none() {
    // Each side of a conjunction pushes its residuals onto the caller's
    // list: a conjunction refuted by its right side, after its left one
    // left residuals, must take them back, and one whose right side fails
    // must leave one residual for the whole, after what was there before.
    let m = measures();
    let head_open = |tail: &[i128]| cons(Value::Hole(1), &list(tail));
    let held = || {
        let mut out = Vec::new();
        let r =
            Env::new(&m).with("l", Value::Hole(4)).residuals(&Arc::new(parse_str("all_ge(l, 2)").unwrap()), &mut out);
        assert_eq!((r, out.len()), (Ok(true), 1));
        out
    };
    let residuals = |spec: &str, out: &mut Vec<_>| {
        Env::new(&m).with("l", head_open(&[5, 6])).residuals(&Arc::new(parse_str(spec).unwrap()), out)
    };
    let mut out = held();
    assert_eq!(residuals("all_ge(l, 2) && size(l) == 5", &mut out), Ok(false));
    assert_eq!(out.iter().map(|r| r.hole()).collect::<Vec<_>>(), [4], "the refuted conjunction's residuals taken back");
    let mut out = held();
    assert_eq!(residuals("(all_ge(l, 2) && size(l) == 3) && size(l) == 5", &mut out), Ok(false));
    assert_eq!(out.len(), 1, "{out:?}");
    let mut out = held();
    assert_eq!(residuals("all_ge(l, 2) && size(l) == 3", &mut out), Ok(true));
    assert_eq!(
        out.iter().map(|r| (r.hole(), r.conjunct())).collect::<Vec<_>>(),
        [(4, "all_ge(l, 2)".to_string()), (1, "h >= x".to_string())]
    );
    // The right side an error (a measure of lists given an integer) where the
    // left may still be false: the two wait as one, on the left's hole.
    let mut out = held();
    assert_eq!(residuals("all_ge(l, 2) && size(3) == 1", &mut out), Ok(true));
    assert_eq!(
        out.iter().map(|r| (r.hole(), r.conjunct())).collect::<Vec<_>>(),
        [(4, "all_ge(l, 2)".to_string()), (1, "all_ge(l, 2) && (size(3) == 1)".to_string())]
    );
}

#[test]
fn a_comparison_waiting_on_a_hole_decides_as_the_comparison_does() {
    // `k < 7` with `k` a hole keeps only its hint and is taken up as one
    // comparison; `k + 1 < 7` is evaluated again. Both must say what the
    // spec says of every fill, wait while the hole is open, and refuse a
    // fill that is not an integer.
    let m = measures();
    for (spec, holds_for) in [
        ("k < 7", &(|x: i128| x < 7) as &dyn Fn(i128) -> bool),
        ("7 > k", &|x| 7 > x),
        ("k >= -2", &|x| x >= -2),
        ("k + 1 < 7", &|x| x + 1 < 7),
        ("all_ge(l, k)", &|x| x <= 3),
        // The other side compares the hole too: its hint is not this one.
        ("k < (if k < 5 { 0 } else { 10 })", &|x| x < if x < 5 { 0 } else { 10 }),
        ("(if k > 3 { 1 } else { 2 }) < k", &|x| (if x > 3 { 1 } else { 2 }) < x),
    ] {
        let e = Arc::new(parse_str(spec).unwrap());
        let mut out = Vec::new();
        let r = Env::new(&m).with("k", Value::Hole(1)).with("l", list(&[3, 5])).residuals(&e, &mut out);
        assert_eq!(r, Ok(true), "{spec}");
        assert!(!out.is_empty() && out.iter().all(|r| r.hole() == 1), "{spec}: {out:?}");
        for x in -4..10 {
            let fills = [None, Some(Value::Int(x))];
            let mut holds = true;
            for r in &out {
                let mut again = Vec::new();
                holds &= Env::new(&m).with_fills(&fills).resume(r, &mut again).unwrap();
                assert!(again.is_empty(), "{spec} with k = {x}: {again:?}");
            }
            assert_eq!(holds, holds_for(x), "{spec} with k = {x}");
        }
        let mut again = Vec::new();
        assert_eq!(Env::new(&m).with_fills(&[None, None]).resume(&out[0], &mut again), Ok(true), "{spec}");
        assert_eq!(again.len(), 1, "{spec}: still waiting on the open hole");
        assert_eq!(again[0].hints(), out[0].hints(), "{spec}");
        // Filled with another hole: waits on that one, then decides.
        if out.len() == 1 {
            let mut moved = Vec::new();
            let fills = [None, Some(Value::Hole(2)), None];
            assert_eq!(Env::new(&m).with_fills(&fills).resume(&out[0], &mut moved), Ok(true), "{spec}");
            assert_eq!(moved.iter().map(|r| r.hole()).collect::<Vec<_>>(), [2], "{spec}");
            for x in [-4, 9] {
                let fills = [None, Some(Value::Hole(2)), Some(Value::Int(x))];
                let decided = Env::new(&m).with_fills(&fills).resume(&moved[0], &mut Vec::new());
                assert_eq!(decided, Ok(holds_for(x)), "{spec} with k = {x} through another hole");
            }
        }
        let fills = [None, Some(Value::Bool(true))];
        let refused = Env::new(&m).with_fills(&fills).resume(&out[0], &mut Vec::new());
        assert!(matches!(refused, Err(EvalError::Type { .. })), "{spec}: {refused:?}");
    }
}

#[test]
fn a_disjunction_undecided_on_both_sides_is_woken_by_either_hole() {
    // `all_ge(l, 2) || size(k) == 1` with `l`'s head and `k` itself holes:
    // filling `k` alone can decide it, so the residual must be taken up
    // then, not only when the hole it names is filled (the sampler fills
    // holes in other orders than the one a residual names).
    let m = measures();
    let spec = Arc::new(parse_str("all_ge(l, 2) || size(k) == 1").unwrap());
    let l = cons(Value::Hole(1), &list(&[5, 6]));
    let mut out = Vec::new();
    let r = Env::new(&m).with("l", l.clone()).with("k", Value::Hole(2)).residuals(&spec, &mut out);
    assert_eq!(r, Ok(true));
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].woken_by(1) && out[0].woken_by(2), "waits on {} only", out[0].hole());
    assert!(!out[0].woken_by(3));
    // Taken up with `k` filled by a one-element list: true, whatever `l`'s
    // head becomes (left waiting on that head only as a part skipped,
    // where a partial operation could still fail).
    let fills = [None, None, Some(list(&[7]))];
    let mut again = Vec::new();
    assert_eq!(Env::new(&m).with_fills(&fills).resume(&out[0], &mut again), Ok(true));
    assert!(again.iter().all(|r| r.hole() == 1 && !r.woken_by(2)), "{again:?}");
}

#[test]
fn a_deep_value_is_measured_or_refused_never_a_stack_overflow() {
    // A test thread's stack (2 MB here, as `cargo test` gives a debug
    // build's threads): a measure over a list of 900 used to overflow it
    // and abort the whole process.
    let run = |n: i128| {
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || {
                let m = measures();
                let xs: Vec<i128> = (0..n).collect();
                Env::new(&m)
                    .with("l", list(&xs))
                    .eval(&parse_str("size(l) + if all_ge(l, 0) { 0 } else { 1 }").unwrap())
            })
            .unwrap()
            .join()
            .expect("no panic")
    };
    assert_eq!(run(900), Ok(Value::Int(900)));
    // Past the evaluator's depth: a clear error naming the measure.
    assert_eq!(run(5000), Err(EvalError::TooDeep("size".into())));
}
