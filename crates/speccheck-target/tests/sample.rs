//! The sampler: every input it yields is valid (the evaluator agrees) and
//! no larger than asked; it reaches large valid inputs that filtering
//! random values does not; a spec nothing meets ends in "none found", and a
//! property run with `Strategy::Sample` gives up saying so; a bug that needs
//! a large valid input is found and shrunk to the smallest one.

use speccheck::spec::Targetable;
use speccheck::spec::prelude::{Set, empty, singleton, union};
use speccheck::target::{ArgSpec, Strategy, apply};
use speccheck::{Config, Property, RunVerdict, gens, measure};
use speccheck_spec::{Measures, Value, parse_str};
use speccheck_target::sample::Sampler;

#[path = "common/trees.rs"]
mod trees;
use trees::{Color, Rbt, Sorted};

#[measure]
fn length(l: &Sorted) -> i64 {
    match l {
        Sorted::Empty => 0,
        Sorted::Link(_, t) => 1 + length(t),
    }
}

#[measure]
fn black(c: &Color) -> bool {
    match c {
        Color::R => false,
        Color::B => true,
    }
}

#[measure]
fn red(t: &Rbt) -> bool {
    match t {
        Rbt::Leaf => false,
        Rbt::Node { color, .. } => !black(color),
    }
}

#[measure]
fn is_rb(t: &Rbt) -> bool {
    match t {
        Rbt::Leaf => true,
        Rbt::Node { color, left, right, .. } => {
            (black(color) || (!red(left) && !red(right))) && is_rb(left) && is_rb(right)
        }
    }
}

#[measure]
fn bh(t: &Rbt) -> i64 {
    match t {
        Rbt::Leaf => 0,
        Rbt::Node { color, left, .. } => bh(left) + if black(color) { 1 } else { 0 },
    }
}

#[measure]
fn bh_ok(t: &Rbt) -> bool {
    match t {
        Rbt::Leaf => true,
        Rbt::Node { left, right, .. } => bh(left) == bh(right) && bh_ok(left) && bh_ok(right),
    }
}

const RB: &str = "is_rb(x) && bh_ok(x)";

/// Recursive steps in a value: links of a list, nodes of a tree.
fn steps(v: &Value) -> u32 {
    match v {
        Value::Data { def, ctor, fields } => {
            let own = u32::from(def.ctors[*ctor].recursive);
            own + fields.iter().map(steps).sum::<u32>()
        }
        _ => 0,
    }
}

fn sampler<T: Targetable>(spec: Option<&str>) -> Sampler<'static> {
    let requires: Vec<_> = spec.map(|s| parse_str(s).unwrap()).into_iter().collect();
    Sampler::new(&[("x".into(), T::ty())], &requires, Measures::global()).unwrap()
}

fn admitted(v: &Value, spec: Option<&str>) -> bool {
    let requires: Vec<_> = spec.map(|s| (s.to_string(), parse_str(s).unwrap())).into_iter().collect();
    speccheck_spec::admits(&[("x", v.clone())], &requires, Measures::global()).unwrap().is_none()
}

fn check_valid_and_bounded<T: Targetable>(spec: Option<&str>) {
    let mut s = sampler::<T>(spec);
    let mut found = 0;
    for size in 0..=10u32 {
        for seed in 0..20 {
            let Some(v) = s.sample(seed, size).unwrap() else { continue };
            let x = &v[0];
            assert!(admitted(x, spec), "the sampler yielded {x}, which the spec rejects");
            assert!(steps(x) <= size, "asked for size {size}, got {x} ({} steps)", steps(x));
            found += 1;
        }
    }
    assert!(found >= 200, "only {found} of 220 samples found an input");
}

#[test]
fn every_sample_is_valid_and_no_larger_than_asked() {
    check_valid_and_bounded::<Sorted>(None);
    check_valid_and_bounded::<Rbt>(Some(RB));
}

#[test]
fn a_size_bound_past_the_sizes_attempts_reach_costs_little_more() {
    // Red-black trees of 60 nodes are rarely built before an attempt's
    // steps run out: the sampler learns which sizes pay and starts there,
    // instead of failing at size 60 and walking down on every case.
    let judged = |size| {
        let mut s = sampler::<Rbt>(Some(RB));
        for seed in 0..300 {
            let v = s.sample(seed, size).unwrap().expect("every sample finds a tree");
            assert!(admitted(&v[0], Some(RB)), "the sampler yielded {}, which the spec rejects", v[0]);
        }
        s.evaluated
    };
    let (small, large) = (judged(16), judged(100));
    assert!(large < 3 * small, "{large} partial inputs judged at size 100, {small} at size 16");
}

#[test]
fn a_recheck_that_remembers_agrees_with_one_that_does_not() {
    // Valid trees, and invalid ones built over their parts: a part checked
    // (and remembered: its refinements, and what the clause's measures say
    // of it) before, inside a whole that breaks the spec. Also with a memo
    // that starts again every few results, mid-check.
    let requires = vec![(RB.to_string(), parse_str(RB).unwrap())];
    let memo = std::cell::RefCell::new(speccheck_spec::Memo::new());
    let small = std::cell::RefCell::new(speccheck_spec::Memo::with_limit(16));
    let mut s = sampler::<Rbt>(Some(RB));
    let (mut valid, mut invalid) = (0, 0);
    for seed in 0..100 {
        let Some(v) = s.sample(seed, 12).unwrap() else { continue };
        let t = v[0].clone();
        let Value::Data { def, .. } = &t else { unreachable!("a tree") };
        let node = def.ctors.iter().position(|c| c.recursive).expect("a node constructor");
        // Red over two copies of `t`: the same keys on both sides.
        let over = |l: &Value, r: &Value| Value::Data {
            def,
            ctor: node,
            fields: vec![Color::R.reflect(), Value::Int(0), l.clone(), r.clone()].into(),
        };
        for x in [t.clone(), over(&t, &t), over(&t, &over(&t, &t)), t.clone()] {
            let fresh = speccheck_spec::admits(&[("x", x.clone())], &requires, Measures::global()).unwrap();
            let kept = speccheck_spec::admits_remembering(&[("x", x.clone())], &requires, Measures::global(), &memo);
            assert_eq!(kept.unwrap(), fresh, "on {x}");
            let kept = speccheck_spec::admits_remembering(&[("x", x.clone())], &requires, Measures::global(), &small);
            assert_eq!(kept.unwrap(), fresh, "on {x}, with a memo of 16");
            if fresh.is_none() { valid += 1 } else { invalid += 1 }
        }
    }
    assert!(valid >= 200 && invalid >= 100, "{valid} valid, {invalid} invalid");
}

#[test]
fn samples_reach_large_valid_inputs() {
    // The size is a bound, each input's size up to it at random.
    let mut s = sampler::<Sorted>(None);
    let lists: Vec<Value> = (0..50).map(|seed| s.sample(seed, 20).unwrap().unwrap().remove(0)).collect();
    let sizes: std::collections::BTreeSet<u32> = lists.iter().map(steps).collect();
    assert!(sizes.len() >= 10 && sizes.contains(&20), "sizes {sizes:?}");
    let distinct: std::collections::BTreeSet<_> = lists.iter().collect();
    assert!(distinct.len() >= 45, "{} distinct of 50", distinct.len());

    // Filtering random trees leaves almost only the smallest red-black
    // ones; the sampler reaches eight nodes and more on a good share.
    let mut s = sampler::<Rbt>(Some(RB));
    let trees: Vec<Value> = (0..40).map(|seed| s.sample(seed, 16).unwrap().unwrap().remove(0)).collect();
    let large = trees.iter().filter(|t| steps(t) >= 8).count();
    assert!(large >= 10, "only {large} of 40 trees asked at size up to 16 had 8 nodes or more");
}

/// The field lists of the data values in `v` (shared, not copied, when
/// `v` took a part of an earlier input whole); the root's own with `root`.
fn field_lists(v: &Value, root: bool, out: &mut Vec<usize>) {
    if let Value::Data { fields, .. } = v {
        if root {
            out.push(std::sync::Arc::as_ptr(fields).cast::<Value>() as usize);
        }
        for f in fields.iter() {
            field_lists(f, true, out);
        }
    }
}

/// Samples 400 inputs of `params` under `spec` (sizes cycling through
/// 4..=31), checking each with `valid`; returns how many of the first
/// hundred and of the next three hundred hold a part of an earlier input
/// in their argument `at`.
fn spliced_counts(
    params: Vec<(String, speccheck_spec::Ty)>,
    spec: &str,
    at: usize,
    valid: impl Fn(&[Value]) -> bool,
) -> (usize, usize) {
    let mut s = Sampler::new(&params, &[parse_str(spec).unwrap()], Measures::global()).unwrap();
    // Kept alive, so that no part's memory is reused by a later input.
    let mut inputs: Vec<Vec<Value>> = Vec::new();
    let mut earlier = std::collections::HashSet::new();
    let (mut first, mut later) = (0, 0);
    for seed in 0..400u64 {
        let size = 4 + (seed % 28) as u32;
        let v = s.sample(seed, size).unwrap().expect("an input");
        assert!(valid(&v), "the sampler yielded {v:?}, which the spec rejects");
        assert!(v.iter().map(steps).sum::<u32>() <= size, "asked for size {size}, got {v:?}");
        let mut inside = Vec::new();
        field_lists(&v[at], false, &mut inside);
        let spliced = inside.iter().any(|p| earlier.contains(p));
        if seed < 100 {
            first += usize::from(spliced)
        } else {
            later += usize::from(spliced)
        }
        for a in &v {
            let mut all = Vec::new();
            field_lists(a, true, &mut all);
            earlier.extend(all);
        }
        inputs.push(v);
    }
    (first, later)
}

#[test]
fn past_the_first_inputs_most_are_spliced_from_parts_of_earlier_ones() {
    let params = vec![("x".to_string(), Rbt::ty())];
    let (first, later) = spliced_counts(params, RB, 0, |v| admitted(&v[0], Some(RB)));
    // The first hundred (a default run's) are each built afresh.
    assert_eq!(first, 0, "inputs among the first hundred took parts of earlier ones");
    assert!(later >= 200, "only {later} of the 300 later inputs took parts of earlier ones");

    // Beside an argument that cannot take parts (a colour), the tree
    // still does.
    let params = vec![("x".to_string(), Rbt::ty()), ("c".to_string(), Color::ty())];
    let spec = "is_rb(x) && bh_ok(x) && (black(c) || !red(x))";
    let requires = vec![(spec.to_string(), parse_str(spec).unwrap())];
    let valid = |v: &[Value]| {
        speccheck_spec::admits(&[("x", v[0].clone()), ("c", v[1].clone())], &requires, Measures::global())
            .unwrap()
            .is_none()
    };
    let (first, later) = spliced_counts(params, spec, 0, valid);
    assert_eq!(first, 0);
    assert!(later >= 200, "only {later} of the 300 later inputs took parts of earlier ones, beside a colour");
}

#[test]
fn arguments_with_nothing_to_splice_keep_their_sizes_spread() {
    // A sequence of integers holds no parts: every case builds as before,
    // its length up to the size at random, past the first hundred too.
    let params = vec![("xs".to_string(), speccheck_spec::Ty::Seq(Box::new(i64::ty())))];
    let spec = "len(xs) >= 0";
    let mut s = Sampler::new(&params, &[parse_str(spec).unwrap()], Measures::global()).unwrap();
    let lengths: Vec<usize> = (0..400u64)
        .map(|seed| match &s.sample(seed, 30).unwrap().expect("a sequence")[0] {
            Value::Seq(xs) => xs.len(),
            other => panic!("not a sequence: {other}"),
        })
        .collect();
    let later: std::collections::BTreeSet<usize> = lengths[100..].iter().copied().collect();
    let at_size = lengths[100..].iter().filter(|&&n| n == 30).count();
    assert!(later.len() >= 15 && at_size < 100, "lengths past the first hundred: {later:?}, {at_size} at the size");
}

#[test]
fn a_spec_nothing_meets_is_none_found_and_the_run_gives_up() {
    let mut s = sampler::<Sorted>(Some("length(x) < 0"));
    assert_eq!(s.sample(1, 5).unwrap(), None);

    let spec = ArgSpec::new(vec![("x".into(), Sorted::ty())], &[("length(x) < 0", "length(x) < 0")]).unwrap();
    let p = Property::new(gens::arguments((gens::argument::<Sorted>("x"),))).config(Config {
        cases: 10,
        seed: Some(3),
        database: None,
        ..Config::named("sample-unsat")
    });
    let r = apply(p, &spec, Strategy::Sample, 5, |v| Some((Sorted::reify(v.first()?)?,))).run(|_: (Sorted,)| {});
    match &r.verdict {
        RunVerdict::GaveUp { reason } => {
            assert!(reason.contains("found no input satisfying `length(x) < 0`"), "{reason}")
        }
        other => panic!("expected a give-up, got {other:?}: {}", r.summary()),
    }
}

fn to_vec(l: &Sorted) -> Vec<i64> {
    let mut out = Vec::new();
    let mut at = l;
    while let Sorted::Link(h, t) = at {
        out.push(*h);
        at = t;
    }
    out
}

#[test]
fn a_bug_needing_a_large_valid_input_is_found_and_shrunk_to_its_size() {
    let spec = ArgSpec::new(vec![("x".into(), Sorted::ty())], &[]).unwrap();
    let p = Property::new(gens::arguments((gens::argument::<Sorted>("x"),))).config(Config {
        cases: 100,
        seed: Some(7),
        database: None,
        ..Config::named("sample-large")
    });
    let r = apply(p, &spec, Strategy::Sample, 5, |v| Some((Sorted::reify(v.first()?)?,))).run(|(l,): (Sorted,)| {
        let xs = to_vec(&l);
        assert!(xs.windows(2).all(|w| w[0] <= w[1]), "the sampler gave an unsorted list {xs:?}");
        // A planted bug: sorted lists of six or more break it.
        assert!(xs.len() < 6, "six or more elements");
    });
    let RunVerdict::Failed(c) = &r.verdict else { panic!("not found: {}", r.summary()) };
    let shown = format!("{:?}", c.inputs);
    assert_eq!(shown.matches("Link").count(), 6, "shrunk to {shown}");
}

/// A chain through `Option<Box<Self>>` beside an `Option<i64>`: the two
/// `Option`s are different types (one grows, one does not).
#[derive(speccheck::Arbitrary, speccheck::Targetable, Clone, Debug, PartialEq)]
struct Chain {
    tag: Option<i64>,
    next: Option<Box<Chain>>,
}

fn links(v: &Value) -> u32 {
    match v {
        Value::Data { def, fields, .. } => u32::from(def.name == "Chain") + fields.iter().map(links).sum::<u32>(),
        _ => 0,
    }
}

#[test]
fn growth_is_told_apart_by_type_not_by_name() {
    let mut s = sampler::<Chain>(None);
    let longest = (0..20).map(|seed| links(&s.sample(seed, 8).unwrap().unwrap()[0])).max().unwrap();
    assert!(longest >= 5, "the longest of 20 chains asked at size up to 8 had {longest} links");
}

/// A list with no element twice (a refinement over a set-valued measure).
#[derive(speccheck::Arbitrary, speccheck::Targetable, Clone, Debug, PartialEq)]
enum Uniq {
    Nil,
    More(i64, #[refine(!member(_0, ukeys(_1)))] Box<Uniq>),
}

#[measure]
fn ukeys(u: &Uniq) -> Set<i64> {
    match u {
        Uniq::Nil => empty(),
        Uniq::More(x, rest) => union(singleton(*x), ukeys(rest)),
    }
}

/// A sampler over `(xs, i)` or one tree argument, judging every partial
/// input whole as well.
fn verifying(params: Vec<(String, speccheck_spec::Ty)>, spec: &str) -> Sampler<'static> {
    Sampler::new(&params, &[parse_str(spec).unwrap()], Measures::global()).unwrap().verify_every_step()
}

#[test]
fn judging_by_the_last_fill_agrees_with_judging_the_whole_input() {
    // The sampler judges a partial input by what its last fill changed
    // (the residuals the specs left); the evaluator judges it whole. On
    // every partial input of these runs both say the same: refuted, true,
    // or undecided. Conjunctions, disjunctions, implications, partial
    // operations (an index out of range, guarded and not), quantifiers,
    // measures over measures, and field refinements inside.
    let seq = || vec![("xs".to_string(), Vec::<i64>::ty()), ("i".to_string(), i64::ty())];
    let tree = || vec![("x".to_string(), Rbt::ty())];
    let list = || vec![("x".to_string(), Sorted::ty())];
    let uniq = || vec![("x".to_string(), Uniq::ty()), ("i".to_string(), i64::ty())];
    let cases: Vec<(Vec<(String, speccheck_spec::Ty)>, &str)> = vec![
        (tree(), RB),
        (tree(), "is_rb(x) || bh_ok(x)"),
        (tree(), "bh(x) >= 1 ==> is_rb(x) && bh_ok(x)"),
        (tree(), "!red(x) && (bh(x) == 2 || bh_ok(x))"),
        (list(), "length(x) >= 3 && length(x) <= 6"),
        (seq(), "i >= 0 && i < len(xs) && xs[i] > 0"),
        (seq(), "xs[i] > 0 && len(xs) >= 2"),
        (seq(), "forall!(k in 0..len(xs) - 1, xs[k] <= xs[k + 1]) && i == len(xs)"),
        (seq(), "exists!(x in xs, x == i) && len(xs) > 2"),
        (uniq(), "!member(i, ukeys(x)) || i == 0"),
        // The left side undecided, the right one decides.
        (seq(), "forall!(k in 0..len(xs), xs[k] > i) && len(xs) < 2"),
    ];
    // Past the first hundred inputs most are spliced from parts of
    // earlier ones (whose refinements are not judged again, and whose
    // measures are remembered from one attempt to the next): 160 samples
    // judge those too.
    for (params, spec) in cases {
        let mut s = verifying(params, spec);
        let mut found = 0;
        for seed in 0..160 {
            match s.sample(seed, 12) {
                Ok(Some(_)) => found += 1,
                Ok(None) => {}
                Err(e) => panic!("`{spec}`, seed {seed}: {e}"),
            }
        }
        assert!(found >= 120, "`{spec}`: only {found} of 160 samples found an input");
    }
}

#[test]
fn an_integer_compared_with_one_drawn_later_is_drawn_within_its_bound() {
    // `a < b` waits on `a`, compared with `b`, not drawn yet: `b` is drawn
    // first, and then `a` below it (the comparison taken up again once `b`
    // is known), so almost every attempt meets both bounds.
    let params = vec![("a".to_string(), i64::ty()), ("b".to_string(), i64::ty())];
    let spec = parse_str("a < b && b < a + 3").unwrap();
    let mut s = Sampler::new(&params, std::slice::from_ref(&spec), Measures::global()).unwrap();
    let requires = [("a < b && b < a + 3".to_string(), spec)];
    for seed in 0..50 {
        let v = s.sample(seed, 10).unwrap().expect("an input");
        let named = [("a", v[0].clone()), ("b", v[1].clone())];
        assert_eq!(speccheck_spec::admits(&named, &requires, Measures::global()), Ok(None), "{v:?}");
    }
    assert!(s.restarts <= 10, "{} attempts abandoned for 50 inputs", s.restarts);
}

#[test]
fn a_spliced_input_is_not_one_spliced_before() {
    // A pair of sorted lists has nothing of its own to draw: two splices
    // over the same two parts would be the same input.
    let params = vec![("x".to_string(), <(Sorted, Sorted)>::ty())];
    let mut s = Sampler::new(&params, &[parse_str("true").unwrap()], Measures::global()).unwrap();
    let inputs: Vec<Vec<Value>> = (0..600u64).filter_map(|seed| s.sample(seed, 20).unwrap()).collect();
    assert!(s.spliced >= 300, "only {} spliced", s.spliced);
    for v in &inputs {
        assert_eq!(speccheck_spec::admits(&[("x", v[0].clone())], &[], Measures::global()), Ok(None), "{v:?}");
    }
    let later = &inputs[100..];
    let distinct: std::collections::BTreeSet<&Vec<Value>> = later.iter().collect();
    // Built inputs may repeat (small ones are few); spliced ones do not.
    assert!(distinct.len() + 10 >= later.len(), "{} distinct of {}", distinct.len(), later.len());
}
