//! Patterns in specs as a user writes them: a `#[measure]` whose arms nest
//! patterns on fields that are not boxed (a colour, a literal), and
//! `matches!` in a refinement, under every enumerating strategy and the
//! default; every input the body sees is checked against the same meaning
//! written in Rust.

use speccheck::prelude::*;
use speccheck::{Targetable, measure};

#[derive(Arbitrary, Targetable, Clone, Copy, Debug, PartialEq)]
enum Color {
    R,
    B,
}

#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq)]
enum Tree {
    Leaf,
    Node { color: Color, key: i64, left: Box<Tree>, right: Box<Tree> },
}

/// Red nodes in the tree, a red root with key 0 counted twice: nested
/// patterns on the colour field and on a literal key.
#[measure]
fn reds(t: &Tree) -> i64 {
    match t {
        Tree::Leaf => 0,
        Tree::Node { color: Color::R, key: 0, left, right } => 2 + reds(left) + reds(right),
        Tree::Node { color: Color::R, left, right, .. } => 1 + reds(left) + reds(right),
        Tree::Node { color: Color::B, left, right, .. } => reds(left) + reds(right),
    }
}

fn reds_in_rust(t: &Tree) -> i64 {
    match t {
        Tree::Leaf => 0,
        Tree::Node { color, key, left, right } => {
            let own = match (color, key) {
                (Color::R, 0) => 2,
                (Color::R, _) => 1,
                (Color::B, _) => 0,
            };
            own + reds_in_rust(left) + reds_in_rust(right)
        }
    }
}

fn black_root(t: &Tree) -> bool {
    matches!(t, Tree::Node { color: Color::B, .. })
}

#[property(strategy = smt, depth = 2)]
fn the_solver_reads_nested_patterns(#[refine(reds(t) >= 2 && matches!(t, Node { color: B, .. }))] t: Tree) {
    assert!(reds_in_rust(&t) >= 2 && black_root(&t), "{t:?}");
}

#[property(strategy = lazy, depth = 2)]
fn the_enumeration_reads_nested_patterns(#[refine(reds(t) >= 2 && matches!(t, Node { color: B, .. }))] t: Tree) {
    assert!(reds_in_rust(&t) >= 2 && black_root(&t), "{t:?}");
}

#[property(cases = 200)]
fn the_sampler_reads_nested_patterns(#[refine(reds(t) >= 1 && !matches!(t, Leaf))] t: Tree) {
    assert!(reds_in_rust(&t) >= 1 && t != Tree::Leaf, "{t:?}");
}

/// A run of `body` on the trees `spec` admits, by `strategy` (`None`: the
/// default) at depth `depth`, from `seed`, for `cases` cases.
fn run_on_trees(
    spec: &str,
    strategy: Option<&str>,
    (depth, seed, cases): (u32, u64, u32),
    body: fn(Tree),
) -> speccheck::RunReport {
    use speccheck::spec::{Targetable as _, Value};
    let spec = speccheck::target::ArgSpec::new(vec![("t".into(), Tree::ty())], &[(spec, spec)]).unwrap();
    let p = speccheck::Property::new(speccheck::gens::arguments((speccheck::any::<Tree>(),))).configure(|c| {
        c.database = None;
        c.seed = Some(seed);
        c.cases = cases;
    });
    let reify = |v: &[Value]| Some((Tree::reify(v.first()?)?,));
    let p = match strategy {
        Some(s) => speccheck::target::apply(p, &spec, s.parse().unwrap(), depth, reify),
        None => speccheck::target::apply_default(p, &spec, depth, reify),
    };
    p.run(move |(t,): (Tree,)| body(t))
}

/// The solver and the enumeration agree on how many trees there are.
#[test]
fn strategies_agree_on_the_count() {
    const SPEC: &str = "reds(t) >= 2 && matches!(t, Node { color: B, .. })";
    let count = |strategy| {
        let r = run_on_trees(SPEC, Some(strategy), (2, 1, u32::MAX), |t| {
            assert!(reds_in_rust(&t) >= 2 && black_root(&t));
        });
        assert!(matches!(r.verdict, speccheck::RunVerdict::Passed), "{}", r.summary());
        r.stats.passed
    };
    let (smt, lazy) = (count("smt"), count("lazy"));
    assert!(smt > 10, "{smt}");
    assert_eq!(smt, lazy);
}

/// A spec that few completions meet (an exact count of red nodes) does not
/// end a run that has been finding inputs: a case whose work ran out at
/// every size tries again from a size that gave inputs before (the run
/// gave up after about a hundred cases).
#[test]
fn the_sampler_keeps_going_on_a_spec_few_completions_meet() {
    for seed in 1..=8 {
        let r = run_on_trees("reds(t) == 3 && !matches!(t, Leaf)", None, (5, seed, 300), |t| {
            assert!(reds_in_rust(&t) == 3, "{t:?}");
        });
        assert!(matches!(r.verdict, speccheck::RunVerdict::Passed), "seed {seed}: {}", r.summary());
        assert_eq!(r.stats.passed, 300, "seed {seed}: {}", r.summary());
    }
}
