//! (d) Heap, from QuickCheck's examples: skew heaps built by heap programs,
//! with `to_sorted_list` calling the unsorted `to_list` on the merged
//! children (the planted bug). The input is a program with the heap it
//! builds (`HeapPP`). Two models: [`run`], where every tool shrinks the
//! program and rebuilds the heap, and [`run_as_data`], the paper's, where
//! speccheck records the heap as data and reduces it on its own. Size:
//! constructors of the program plus constructors of the heap (the
//! benchmark's `sizePP`).

use proptest::prelude::{Just, Strategy, any};
use proptest::prop_oneof;
use quickcheck::{Arbitrary as QcArbitrary, Gen};

use super::common::{self, Check, Sample, Tool};

#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub enum Heap {
    Node(i32, Box<Heap>, Box<Heap>),
    Nil,
}

#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub enum HeapP {
    Empty,
    Unit(i32),
    Insert(i32, Box<HeapP>),
    SafeRemoveMin(Box<HeapP>),
    Merge(Box<HeapP>, Box<HeapP>),
    FromList(Vec<i32>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct HeapPP {
    pub program: HeapP,
    pub heap: Heap,
}

impl HeapPP {
    pub fn of(program: HeapP) -> Self {
        let heap = heap(&program);
        HeapPP { program, heap }
    }
}

fn unit(x: i32) -> Heap {
    Heap::Node(x, Box::new(Heap::Nil), Box::new(Heap::Nil))
}

fn merge(a: Heap, b: Heap) -> Heap {
    match (a, b) {
        (h, Heap::Nil) | (Heap::Nil, h) => h,
        (Heap::Node(x, h11, h12), h2 @ Heap::Node(..)) if x <= root(&h2) => {
            Heap::Node(x, Box::new(merge(*h12, h2)), h11)
        }
        (h1, Heap::Node(y, h21, h22)) => Heap::Node(y, Box::new(merge(*h22, h1)), h21),
    }
}

fn root(h: &Heap) -> i32 {
    match h {
        Heap::Node(x, ..) => *x,
        Heap::Nil => i32::MAX,
    }
}

fn from_list(xs: &[i32]) -> Heap {
    let mut hs: Vec<Heap> = xs.iter().map(|&x| unit(x)).collect();
    if hs.is_empty() {
        return Heap::Nil;
    }
    while hs.len() > 1 {
        let mut next = Vec::with_capacity(hs.len().div_ceil(2));
        let mut it = hs.into_iter();
        while let Some(a) = it.next() {
            next.push(match it.next() {
                Some(b) => merge(a, b),
                None => a,
            });
        }
        hs = next;
    }
    hs.pop().unwrap_or(Heap::Nil)
}

pub fn heap(p: &HeapP) -> Heap {
    match p {
        HeapP::Empty => Heap::Nil,
        HeapP::Unit(x) => unit(*x),
        HeapP::Insert(x, p) => merge(unit(*x), heap(p)),
        HeapP::SafeRemoveMin(p) => match heap(p) {
            Heap::Nil => Heap::Nil,
            Heap::Node(_, a, b) => merge(*a, *b),
        },
        HeapP::Merge(p, q) => merge(heap(p), heap(q)),
        HeapP::FromList(xs) => from_list(xs),
    }
}

/// Pre-order, as the Haskell `toList'` (children before the rest).
fn to_list(h: &Heap) -> Vec<i32> {
    fn go(h: &Heap, out: &mut Vec<i32>) {
        if let Heap::Node(x, a, b) = h {
            out.push(*x);
            go(a, out);
            go(b, out);
        }
    }
    let mut out = Vec::new();
    go(h, &mut out);
    out
}

/// The planted bug: the rest comes out unsorted.
fn to_sorted_list(h: &Heap) -> Vec<i32> {
    match h {
        Heap::Nil => Vec::new(),
        Heap::Node(x, a, b) => {
            let mut out = vec![*x];
            out.extend(to_list(&merge((**a).clone(), (**b).clone())));
            out
        }
    }
}

pub fn check(pp: &HeapPP) -> Check {
    let xs = to_sorted_list(&pp.heap);
    let mut all = to_list(&pp.heap);
    all.sort_unstable();
    let mut sorted = xs.clone();
    sorted.sort_unstable();
    if all == sorted && xs == sorted { Check::Pass } else { Check::Fail }
}

fn size_p(p: &HeapP) -> usize {
    match p {
        HeapP::Empty | HeapP::Unit(_) => 1,
        HeapP::Insert(_, p) | HeapP::SafeRemoveMin(p) => 1 + size_p(p),
        HeapP::Merge(p, q) => 1 + size_p(p) + size_p(q),
        HeapP::FromList(xs) => 1 + xs.len(),
    }
}

fn size_h(h: &Heap) -> usize {
    match h {
        Heap::Node(_, a, b) => 1 + size_h(a) + size_h(b),
        Heap::Nil => 1,
    }
}

pub fn size(pp: &HeapPP) -> usize {
    size_p(&pp.program) + size_h(&pp.heap)
}

/// The common distribution (proptest's recursive strategy).
fn pt_program() -> impl Strategy<Value = HeapP> + 'static {
    let leaf = prop_oneof![
        Just(HeapP::Empty),
        any::<i32>().prop_map(HeapP::Unit),
        proptest::collection::vec(any::<i32>(), 0..10).prop_map(HeapP::FromList),
    ];
    leaf.prop_recursive(6, 48, 2, |inner| {
        prop_oneof![
            (any::<i32>(), inner.clone()).prop_map(|(x, p)| HeapP::Insert(x, Box::new(p))),
            inner.clone().prop_map(|p| HeapP::SafeRemoveMin(Box::new(p))),
            (inner.clone(), inner).prop_map(|(p, q)| HeapP::Merge(Box::new(p), Box::new(q))),
        ]
    })
}

/// quickcheck: programs from the common strategy, and the shrinker of
/// QuickCheck's heap example (`shrink` as written there).
#[derive(Clone, Debug)]
pub struct QcHeapPP(pub HeapPP);

fn qc_shrink(p: &HeapP) -> Vec<HeapP> {
    let b = |p: HeapP| Box::new(p);
    match p {
        HeapP::Unit(x) => x.shrink().map(HeapP::Unit).collect(),
        HeapP::FromList(xs) => {
            let mut out: Vec<HeapP> = xs.iter().map(|&x| HeapP::Unit(x)).collect();
            out.extend(xs.shrink().map(HeapP::FromList));
            out
        }
        HeapP::Insert(x, q) => {
            let mut out = vec![(**q).clone()];
            out.extend(qc_shrink(q).into_iter().map(|q2| HeapP::Insert(*x, b(q2))));
            out.extend(x.shrink().map(|x2| HeapP::Insert(x2, q.clone())));
            out
        }
        HeapP::SafeRemoveMin(q) => {
            let mut out = vec![(**q).clone()];
            out.extend(qc_shrink(q).into_iter().map(|q2| HeapP::SafeRemoveMin(b(q2))));
            out
        }
        HeapP::Merge(p1, q1) => {
            let mut out = vec![(**p1).clone(), (**q1).clone()];
            out.extend(qc_shrink(p1).into_iter().map(|p2| HeapP::Merge(b(p2), q1.clone())));
            out.extend(qc_shrink(q1).into_iter().map(|q2| HeapP::Merge(p1.clone(), b(q2))));
            out
        }
        HeapP::Empty => Vec::new(),
    }
}

impl QcArbitrary for QcHeapPP {
    fn arbitrary(g: &mut Gen) -> Self {
        QcHeapPP(HeapPP::of(common::sample_from(pt_program, common::qc_seed(g))))
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(qc_shrink(&self.0.program).into_iter().map(|p| QcHeapPP(HeapPP::of(p))))
    }
}

impl common::QcSubject for QcHeapPP {
    fn check(&self) -> Check {
        check(&self.0)
    }
}

/// hegeltest: the strategy's shape as a composite of draws (one of the
/// three leaves, or below the depth bound of 6 one of the three program
/// steps), each choice drawn from the test case so its engine shrinks it;
/// the heap is rebuilt from the program, as for proptest and quickcheck.
fn hg_program(tc: &speccheck_bench::hegel_peer::TestCase, depth: usize) -> HeapP {
    use speccheck_bench::hegel_peer::gs;
    let int = || tc.draw(gs::integers::<i32>());
    match common::hg_below(tc, if depth == 0 { 3 } else { 6 }) {
        0 => HeapP::Empty,
        1 => HeapP::Unit(int()),
        2 => HeapP::FromList(common::hg_vec(tc, 10, gs::integers::<i32>())),
        3 => HeapP::Insert(int(), Box::new(hg_program(tc, depth - 1))),
        4 => HeapP::SafeRemoveMin(Box::new(hg_program(tc, depth - 1))),
        _ => HeapP::Merge(Box::new(hg_program(tc, depth - 1)), Box::new(hg_program(tc, depth - 1))),
    }
}

pub fn run(tool: Tool, seed: u64) -> Option<Sample> {
    common::timed(|| match tool {
        _ if tool.is_speccheck() => {
            let g = speccheck::Generator::map(common::sampled(pt_program), HeapPP::of);
            common::speccheck(g, common::speccheck_config(tool, seed, None), check).map(|h| size(&h))
        }
        Tool::Proptest => common::proptest(pt_program().prop_map(HeapPP::of), seed, check).map(|h| size(&h)),
        Tool::Quickcheck => common::quickcheck::<QcHeapPP>(seed, true).map(|h| size(&h.0)),
        Tool::Hegeltest => common::hegel(seed, |tc| HeapPP::of(hg_program(tc, 6)), check).map(|h| size(&h)),
        _ => common::quickcheck::<QcHeapPP>(seed, false).map(|h| size(&h.0)),
    })
}

/// The paper's model (its `HeapPP` with SmartCheck's `SubTypes` over both
/// fields): the heap is built from the program when generating, but it is
/// recorded as a heap — `gens::represent` — so shrinking and reduction work
/// on the heap's own tree, independently of the program, and may break the
/// heap order as SmartCheck's reduction does. proptest and quickcheck can
/// only shrink the program (QuickCheck's `shrink` for `HeapPP` rebuilds the
/// heap, as in the paper); their rows repeat [`run`]'s.
pub fn run_as_data(tool: Tool, seed: u64) -> Option<Sample> {
    if !tool.is_speccheck() {
        return run(tool, seed);
    }
    common::timed(|| {
        let g = speccheck::Generator::flat_map(common::sampled(pt_program), |program: HeapP| {
            let built = speccheck::gens::represent(speccheck::gens::just(heap(&program)), speccheck::any::<Heap>());
            speccheck::Generator::map(built, move |heap| HeapPP { program: program.clone(), heap })
        });
        common::speccheck(g, common::speccheck_config(tool, seed, None), check).map(|h| size(&h))
    })
}

/// The smallest failing input when the heap is data: `Empty` with the
/// (invalid) heap `Node(1, Node(0, Nil, Nil), Nil)`.
pub fn smallest_failing_as_data() -> Option<usize> {
    let leaf = |x| Box::new(unit(x));
    let pp = HeapPP { program: HeapP::Empty, heap: Heap::Node(1, leaf(0), Box::new(Heap::Nil)) };
    (check(&pp) == Check::Fail).then(|| size(&pp))
}

/// Every program of exactly `k` constructors over the values `0..5` (heaps
/// only compare values, and five values order up to five elements in every
/// way, ties included).
fn programs(k: usize, memo: &mut Vec<Vec<HeapP>>) -> Vec<HeapP> {
    while memo.len() <= k {
        let n = memo.len();
        let mut out = Vec::new();
        if n == 1 {
            out.push(HeapP::Empty);
            out.extend((0..5).map(HeapP::Unit));
        }
        if n >= 2 {
            for p in &memo[n - 1] {
                out.extend((0..5).map(|x| HeapP::Insert(x, Box::new(p.clone()))));
                out.push(HeapP::SafeRemoveMin(Box::new(p.clone())));
            }
            for a in 1..n - 1 {
                for p in &memo[a] {
                    for q in &memo[n - 1 - a] {
                        out.push(HeapP::Merge(Box::new(p.clone()), Box::new(q.clone())));
                    }
                }
            }
        }
        if n >= 1 {
            // FromList of n - 1 elements.
            let mut lists: Vec<Vec<i32>> = vec![Vec::new()];
            for _ in 0..n - 1 {
                lists = lists.into_iter().flat_map(|l| (0..5).map(move |x| [l.clone(), vec![x]].concat())).collect();
            }
            out.extend(lists.into_iter().map(HeapP::FromList));
        }
        memo.push(out);
    }
    memo[k].clone()
}

/// The size of the smallest failing input among all programs of at most
/// `max` constructors: a lower bound no tool can beat without breaking the
/// heap invariant.
pub fn smallest_failing(max: usize) -> Option<usize> {
    let mut memo = vec![Vec::new()];
    (1..=max)
        .flat_map(|k| programs(k, &mut memo))
        .map(HeapPP::of)
        .filter(|pp| check(pp) == Check::Fail)
        .map(|pp| size(&pp))
        .min()
}
