//! One meaning for every spec, at the edges: an input a strategy produces
//! is re-checked by the evaluator before it is used (a disagreement is an
//! error naming the spec and the input), and a refinement naming something
//! not in scope is an error naming the type and the field, whatever the
//! strategy.

use speccheck_spec::{CtorDef, DataDef, DataRef, FieldDef, Ty, Value, parse_str};
use speccheck_target::ArgSpec;
use speccheck_target::lazy::Lazy;

fn int() -> Ty {
    Ty::Int { lo: i64::MIN.into(), hi: i64::MAX.into() }
}

/// `struct Range(i64, #[refine(_1 >= lo)] i64)` described by hand (the
/// derive refuses it at compile time).
fn range() -> Ty {
    struct Marker;
    Ty::Data(DataRef::new::<Marker>("Range", || DataDef {
        name: "Range".into(),
        ctors: vec![CtorDef {
            name: "Range".into(),
            fields: vec![
                FieldDef::plain("0", int()),
                FieldDef { name: "1".into(), ty: int(), refine: Some(parse_str("_1 >= lo").unwrap()) },
            ],
            recursive: false,
        }],
    }))
}

#[test]
fn an_input_the_spec_rejects_is_an_error_naming_the_spec_and_the_input() {
    let spec = ArgSpec::new(vec![("xs".into(), Ty::Seq(Box::new(int())))], &[("xs[1] > 0", "xs[1] > 0")]).unwrap();
    let good = vec![Value::Seq(vec![Value::Int(0), Value::Int(1)])];
    assert_eq!(spec.recheck("the SMT solver (z3)", good.clone()), Ok(good));
    // Too short: the index is out of range, so the spec is false there.
    let short = vec![Value::Seq(vec![Value::Int(4)])];
    let e = spec.recheck("the SMT solver (z3)", short).unwrap_err();
    assert!(e.contains("the SMT solver (z3) produced the input ([4])"), "{e}");
    assert!(e.contains("`xs[1] > 0`") && e.contains("out of range"), "{e}");
    assert!(e.contains("a bug in speccheck"), "{e}");
}

#[test]
fn a_refinement_naming_what_is_not_in_scope_names_the_type_and_field() {
    let e = ArgSpec::new(vec![("r".into(), range())], &[]).unwrap_err();
    assert!(e.contains("field `1` of `Range`") && e.contains("names `lo`"), "{e}");
    // The lazy strategy, given the type directly, says where too.
    let err = Lazy::new(&[("r".into(), range())], &[], speccheck_spec::Measures::global(), 1)
        .find_map(Result::err)
        .expect("an error");
    let e = err.to_string();
    assert!(e.contains("`_1 >= lo`") && e.contains("field `1` of `Range`") && e.contains("`lo`"), "{e}");
}

#[test]
fn the_property_checks_an_input_the_strategy_did_not_hand_out_in_full() {
    // A strategy's re-check lets the property's own check of that same
    // input compare instead of evaluating; any other input is evaluated.
    let spec = ArgSpec::new(vec![("xs".into(), Ty::Seq(Box::new(int())))], &[("xs[1] > 0", "xs[1] > 0")]).unwrap();
    let prologue = spec.clone();
    let good = vec![Value::Seq(vec![Value::Int(0), Value::Int(1)])];
    let bad = vec![Value::Seq(vec![Value::Int(0), Value::Int(-1)])];
    let admitted = |args: &[Value]| {
        let p = prologue.clone();
        let args = args.to_vec();
        std::panic::catch_unwind(move || p.admit(&args)).is_ok()
    };
    assert_eq!(spec.recheck("the sampler", good.clone()), Ok(good.clone()));
    assert!(!admitted(&bad), "an input other than the one re-checked is rejected");
    assert_eq!(spec.recheck("the sampler", good.clone()), Ok(good.clone()));
    assert!(admitted(&good));
    // Once: the next check of it evaluates again (and admits it).
    assert!(admitted(&good));
    assert!(!admitted(&bad));
}
