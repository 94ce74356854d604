//! Generalization (SmartCheck §5): `∀` holes really fail for fresh
//! values, `∃` holes have a failing witness per constructor, shapes match
//! as the paper's examples say, and one run reports two independent bugs.

mod common;
mod models;

use common::Harness;
use models::{Exp, Expr, div_sub_terms, eval};
use speccheck::prelude::*;
use speccheck::reduce::generalize::generalize;
use speccheck::reduce::oracle::{Oracle, Origin, Verdict, verdict};
use speccheck::reduce::reduce::reduce_and_shrink;
use speccheck::reduce::{Kernel, ReduceConfig, Shape, SmartCheck, View};
use speccheck::test_case::CaseControl as _;
use speccheck::{
    ChoiceSequence, Config, ExplainMode, Fresh, Property, SpanTree, Tail, TestCase, decode_value, encode_value,
};

fn div0() -> Harness {
    Harness::new(any::<Exp>(), models::render, |e: Exp| {
        speccheck::assume(div_sub_terms(&e));
        eval(&e).is_some()
    })
}

/// Finds, reduces and generalizes a counterexample of `h`.
fn reduced_and_generalized(
    h: &Harness,
    seed: u64,
) -> (speccheck::runner::CaseResult, speccheck::reduce::Generalization) {
    let start = h.find(seed, 2_000).expect("fails");
    let config = ReduceConfig::default();
    let origin = Origin::of_case(&start).unwrap();
    h.with_context(&start, seed, |ctx| {
        let mut oracle = Oracle::new(ctx, &config);
        let red = reduce_and_shrink(&mut oracle, start.clone(), &origin, &config, false);
        let g = generalize(&mut oracle, &red.case, &origin, &config);
        (red.case, g)
    })
}

#[test]
fn forall_holes_really_fail_for_fresh_values() {
    let h = div0();
    for seed in 0..8 {
        let (case, g) = reduced_and_generalized(&h, seed);
        let origin = Origin::of_case(&case).unwrap();
        assert!(!g.forall.is_empty(), "seed {seed}: the dividend of Div(_, zero) generalizes");
        let view = View::new(&case.spans);
        let root = view.subjects()[0];
        // The dividend, the root's first child, is one of them.
        assert!(g.forall.iter().any(|f| f.ordinal == view.children(Some(root))[0]), "seed {seed}: {g:?}");
        for f in &g.forall {
            assert!(f.failed >= ReduceConfig::default().min_forall);
            // Re-test the claim with 100 values the generalizer never saw.
            let (mut tested, span) = (0, case.spans.spans[f.ordinal]);
            for k in 0..100u64 {
                let fresh = Fresh::random(0xdead_beef ^ (seed << 20) ^ k, (k % 12) as usize);
                let r = h.run(TestCase::splice(case.choices.0.clone(), f.ordinal, &span, fresh, None));
                match verdict(&r, &origin) {
                    Verdict::Rejected => {}
                    v => {
                        tested += 1;
                        assert_eq!(
                            v,
                            Verdict::Same,
                            "a fresh value at a ∀ hole passed: {:?}",
                            decode_value::<Exp>(&r.choices)
                        );
                    }
                }
            }
            assert!(tested >= 50, "only {tested} fresh values passed the precondition");
        }
    }
}

#[test]
fn existential_holes_have_a_failing_witness_per_constructor() {
    // Without the precondition, a zero divisor of any constructor fails:
    // C(0), Add(C(0), C(0)), Div(C(0), C(1)) (the paper's §5.2 example).
    let h = Harness::new(any::<Exp>(), models::render, |e: Exp| eval(&e).is_some());
    let mut seen = 0;
    for seed in 0..10 {
        let (case, g) = reduced_and_generalized(&h, seed);
        let view = View::new(&case.spans);
        let divisor = view.children(Some(view.subjects()[0]))[1];
        let Some(e) = g.exists.iter().find(|e| e.ordinal == divisor) else { continue };
        seen += 1;
        assert_eq!(e.witnesses.len(), 3);
        for (ctor, w) in &e.witnesses {
            let again = h.replay(&w.choices);
            assert!(again.outcome.is_fail(), "the witness for {ctor} must fail");
            let got = decode_value::<Exp>(&w.choices).unwrap();
            let Exp::Div(_, d) = got else { panic!("the root stays a division: {got:?}") };
            let name = match *d {
                Exp::C(_) => "C",
                Exp::Add(..) => "Add",
                Exp::Div(..) => "Div",
            };
            assert_eq!(name, *ctor);
        }
    }
    assert!(seen >= 5, "the divisor was existentially generalized in only {seen} of 10 runs");
}

fn tree_of(e: &Exp) -> SpanTree {
    let choices: ChoiceSequence = encode_value(e).unwrap();
    let mut tc = TestCase::replay(choices.0, Tail::Stop).with_spans(true);
    let _ = any::<Exp>().generate(&mut tc);
    tc.finish().1
}

fn c(n: i32) -> Box<Exp> {
    Box::new(Exp::C(n))
}

#[test]
fn shapes_match_as_in_the_paper() {
    // §5.3: e0 = Div (C 1) (C 2), e1 = Div (C 1) (C 3),
    // e2 = Div (Add (C 1) (C 2)) (C 7), e3 = Div (Div (C 8) (C 2)) (C 7).
    let e0 = Exp::Div(c(1), c(2));
    let e1 = Exp::Div(c(1), c(3));
    let e2 = Exp::Div(Box::new(Exp::Add(c(1), c(2))), c(7));
    let e3 = Exp::Div(Box::new(Exp::Div(c(8), c(2))), c(7));
    let origin = Origin { kind: speccheck::FailureKind::Returned, location: None };
    let shape = |e: &Exp, generalized_first_child: bool| {
        let tree = tree_of(e);
        let view = View::new(&tree);
        let holes = if generalized_first_child { vec![view.children(Some(view.subjects()[0]))[0]] } else { vec![] };
        Shape::from_tree(tree.clone(), holes, origin.clone())
    };
    assert!(shape(&e1, false).matches_tree(&tree_of(&e0)), "opaque values are ignored");
    assert!(!shape(&e2, false).matches_tree(&tree_of(&e1)), "C is not Add");
    assert!(shape(&e2, true).matches_tree(&tree_of(&e1)), "a generalized index matches anything");
    assert!(shape(&e2, true).matches_tree(&tree_of(&e3)));
}

fn has_div(e: &Exp) -> bool {
    match e {
        Exp::C(_) => false,
        Exp::Div(..) => true,
        Exp::Add(a, b) => has_div(a) || has_div(b),
    }
}

#[test]
fn kernels_are_the_context_free_core_of_a_class() {
    // The property "no division anywhere": the bug is `Div(∀, ∀)` in any
    // context.
    let h = Harness::new(any::<Exp>(), models::render, |e: Exp| !has_div(&e));
    let case = |e: &Exp| h.replay(&encode_value(e).unwrap());
    let origin = Origin { kind: speccheck::FailureKind::Returned, location: None };
    // `∀` holes: the children of every `Div` node (tree-view ordinals).
    let div_children = |e: &Exp| {
        let r = case(e);
        let view = View::new(&r.spans);
        let holes: Vec<usize> = view
            .positions(None)
            .iter()
            .filter(|p| view.span(p.ordinal).ctor == 2)
            .flat_map(|p| view.children(Some(p.ordinal)).iter().copied())
            .collect();
        (r, holes)
    };
    let kernel = |e: &Exp| {
        let (r, holes) = div_children(e);
        Kernel::of(&r, &holes, origin.clone())
    };

    let k = kernel(&Exp::Div(c(1), c(2))).expect("Div(∀, ∀) is its own kernel");
    let deep = Exp::Add(c(5), Box::new(Exp::Div(Box::new(Exp::Add(c(1), c(1))), c(0))));
    assert!(k.occurs_in(&case(&deep)), "the same bug in another context");
    assert!(!k.occurs_in(&case(&Exp::Add(c(5), c(6)))), "a passing input holds no kernel");

    // `Add(C(1), Div(∀, ∀))`: the `Add` beside a constant may matter.
    assert!(kernel(&Exp::Add(c(1), Box::new(Exp::Div(c(2), c(3))))).is_none());
    // Two candidate nodes: no single core.
    let two = Exp::Add(Box::new(Exp::Div(c(2), c(3))), Box::new(Exp::Div(c(4), c(5))));
    assert!(kernel(&two).is_none());
    // `Div(Add(∀, ∀), ∀)`: the `Div` above has a generalized sibling, so
    // `Add` is not the core.
    let (r, _) = div_children(&Exp::Div(Box::new(Exp::Add(c(1), c(2))), c(3)));
    let view = View::new(&r.spans);
    let root = view.subjects()[0];
    let kids = view.children(Some(root));
    let mut holes = view.children(Some(kids[0])).to_vec();
    holes.push(kids[1]);
    assert!(Kernel::of(&r, &holes, origin.clone()).is_none());
}

#[test]
fn one_run_reports_two_independent_bugs() {
    let mut both = 0;
    for seed in 0..6 {
        let r = Property::with_render(any::<Expr>(), |e: &Expr| vec![("e".into(), e.to_term())])
            .config(Config {
                seed: Some(seed),
                database: None,
                explain: ExplainMode::Generalize,
                ..Config::named("simplify")
            })
            .explainer(speccheck::reduce::explainer())
            .run(|e: Expr| models::value(&models::simplify(&e)) == models::value(&e));
        let c = r.counterexample().expect("the simplifier is wrong");
        let mut texts = vec![c.inputs[0].1.to_line()];
        texts.extend(c.explanation.iter().filter(|s| s.title.starts_with("failure class")).map(|s| s.body.clone()));
        let all = texts.join("\n");
        if all.contains("Neg(Neg(") && all.contains("Num(1))") {
            both += 1;
        }
        assert!(c.explanation.iter().any(|s| s.title.starts_with("other failure classes")), "{r}");
    }
    assert!(both >= 4, "both bugs reported in only {both} of 6 runs");
}

#[test]
fn formulas_print_holes_in_rust_syntax() {
    #[derive(Arbitrary, Debug, Clone, PartialEq)]
    struct Workspace {
        tag: Tag,
        layout: i8,
        stack: Option<Vec<char>>,
    }
    #[derive(Arbitrary, Debug, Clone, PartialEq)]
    struct Tag(u8);
    // Fails whenever there is a stack: the tag is irrelevant (∀), the
    // stack's contents too.
    let h = Harness::new(
        any::<Workspace>(),
        |w: &Workspace| vec![("w".into(), w.to_term())],
        |w: Workspace| w.stack.is_none(),
    );
    let start = h.shrink(h.find(2, 1_000).expect("fails"));
    let config = Config { explain: ExplainMode::Generalize, ..h.config.clone() };
    let h = Harness { config, ..h };
    let ex = h.explain(&SmartCheck::default(), &start, 2);
    let g = ex.sections.iter().find(|s| s.title.starts_with("generalized")).expect("generalized");
    assert!(g.body.starts_with("forall x0 x1: Workspace { tag: x0, layout: 0, stack: Some(x1) }"), "{}", g.body);
    assert!(g.body.contains("x0: Tag — "), "{}", g.body);
}

#[test]
fn generalization_is_off_in_reduce_mode() {
    let h = div0();
    let start = h.find(0, 2_000).unwrap();
    let h = Harness { config: Config { explain: ExplainMode::Reduce, ..h.config.clone() }, ..h };
    let ex = h.explain(&SmartCheck::default(), &start, 0);
    assert_eq!(ex.sections.len(), 1);
    assert!(ex.reduced.is_some() || ex.sections[0].body.starts_with("no smaller"));
}

#[test]
fn holes_without_a_term_position_are_named_by_their_place() {
    // A hand-written generator printed with `Debug`: the formula cannot
    // mark the holes in the value, so it names their places.
    let g = (speccheck::gens::vec(speccheck::gens::ints(0..100u32), 0..5), speccheck::gens::ints(0..100u32));
    let h = Harness::new(
        g,
        |v| vec![("v".into(), speccheck::Term::debug(v))],
        |(xs, n): (Vec<u32>, u32)| n < 50 || xs.len() > 100,
    );
    let start = h.shrink(h.find(9, 1_000).expect("fails"));
    let ex = h.explain(&SmartCheck::default(), &start, 9);
    let g = ex.sections.iter().find(|s| s.title.starts_with("generalized")).expect("generalized");
    // The value prints as one `Debug` atom: no hole can stand in it, so none
    // is named (a `forall x0` over a value without `x0` would mislead).
    assert!(!g.body.contains("forall"), "{}", g.body);
    assert!(g.body.contains("and any value at v.0: Vec<u32> — "), "{}", g.body);
}

#[derive(Arbitrary, Debug, Clone, PartialEq)]
struct Item {
    name: String,
    count: u32,
}

#[test]
fn every_hole_a_formula_names_is_in_the_printed_value() {
    // Elements from a `map`ped tuple: the tuple's span has no term of its
    // own, but the element it makes stands where the span does.
    let items = speccheck::gens::vec(
        (speccheck::any::<String>(), speccheck::gens::ints(0..9u32)).map(|(name, count)| Item { name, count }),
        0..6,
    );
    let h = Harness::new(items, |v: &Vec<Item>| vec![("ops".into(), v.to_term())], |v: Vec<Item>| v.len() < 2);
    for seed in 0..4 {
        let start = h.shrink(h.find(seed, 1_000).expect("fails"));
        let ex = h.explain(&SmartCheck::default(), &start, seed);
        let g = ex.sections.iter().find(|s| s.title.starts_with("generalized")).expect("generalized");
        let head_and_value = g.body.lines().take_while(|l| !l.starts_with("  ")).collect::<Vec<_>>().join("\n");
        let named: Vec<&str> = g
            .body
            .lines()
            .filter_map(|l| l.trim_start().split(':').next())
            .filter(|n| {
                n.len() >= 2 && (n.starts_with('x') || n.starts_with('c')) && n[1..].chars().all(|c| c.is_ascii_digit())
            })
            .collect();
        assert!(!named.is_empty(), "seed {seed}: {}", g.body);
        for n in named {
            let shown = head_and_value.split(|c: char| !c.is_alphanumeric()).filter(|w| *w == n).count();
            // Once in the `forall` head, once in the value.
            assert!(shown >= 2, "seed {seed}: `{n}` is named but not shown in the value:\n{}", g.body);
        }
    }
}
