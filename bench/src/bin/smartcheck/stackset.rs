//! (f) XMonad's `StackSet` (§7.1): the model (types, buggy function, property, size) is
//! [`speccheck_examples::smartcheck::stackset`], shared with the tour and the
//! example; here are the peers' generators and shrinkers for it.

use proptest::prelude::{Strategy, any};
use quickcheck::{Arbitrary as QcArbitrary, Gen};

use super::common::{self, Check, Sample, Tool};

pub use speccheck_examples::smartcheck::stackset::{
    Screen, Stack, StackSet, Tag, Window, Workspace, prop_delete, size,
};

pub fn check_with(s: &StackSet, buggy: bool) -> Check {
    if prop_delete(s, buggy) { Check::Pass } else { Check::Fail }
}

pub fn check(s: &StackSet) -> Check {
    check_with(s, true)
}

pub fn check_fixed(s: &StackSet) -> Check {
    check_with(s, false)
}

// ----- proptest ----------------------------------------------------------------

fn pt_window() -> impl Strategy<Value = Window> {
    proptest::char::range('a', 'z')
}

/// The common distribution (proptest's strategies).
pub fn pt_stackset() -> impl Strategy<Value = StackSet> + 'static {
    use proptest::collection::{btree_map, vec};
    let stack = (pt_window(), vec(pt_window(), 0..4), vec(pt_window(), 0..4)).prop_map(|(focus, up, down)| Stack {
        focus,
        up,
        down,
    });
    let ws = (any::<u8>(), any::<i8>(), proptest::option::of(stack))
        .prop_map(|(t, layout, stack)| Workspace { tag: Tag(t), layout, stack })
        .boxed();
    let screen = (ws.clone(), any::<i8>(), any::<i8>())
        .prop_map(|(workspace, screen, detail)| Screen { workspace, screen, detail })
        .boxed();
    (screen.clone(), vec(screen, 0..4), vec(ws, 0..5), btree_map(pt_window(), any::<(u8, u8, u8, u8)>(), 0..3))
        .prop_map(|(current, visible, hidden, floating)| StackSet { current, visible, hidden, floating })
}

// ----- speccheck ---------------------------------------------------------------

/// The same distribution with speccheck's combinators: `char::range('a', 'z')`
/// is uniform over the 26 letters (none of proptest's special characters and
/// every preferred range it tries is within them or rejected), `option::of`
/// is `Some` half the time, `vec(.., 0..n)` has a uniform length, `any` of
/// `u8` and `i8` is uniform, and `btree_map(k, v, 0..3)` collects a vector of
/// pairs (a later duplicate key replaces the earlier one).
pub fn sc_stackset() -> speccheck::BoxedGenerator<StackSet> {
    use speccheck::Generator;
    use speccheck::gens::{just, one_of, uniform, vec};
    let window = || uniform(b'a'..=b'z').map(char::from);
    let stack = (window(), vec(window(), 0..4), vec(window(), 0..4)).map(|(focus, up, down)| Stack { focus, up, down });
    let stack = one_of(vec![just(None).boxed(), stack.map(Some).boxed()]);
    let ws = (uniform(0..=u8::MAX), uniform(i8::MIN..=i8::MAX), stack)
        .map(|(t, layout, stack)| Workspace { tag: Tag(t), layout, stack })
        .boxed();
    let screen = (ws.clone(), uniform(i8::MIN..=i8::MAX), uniform(i8::MIN..=i8::MAX))
        .map(|(workspace, screen, detail)| Screen { workspace, screen, detail })
        .boxed();
    let byte = || uniform(0..=u8::MAX);
    let floating = vec((window(), (byte(), byte(), byte(), byte())), 0..3).map(|pairs| pairs.into_iter().collect());
    (screen.clone(), vec(screen, 0..4), vec(ws, 0..5), floating)
        .map(|(current, visible, hidden, floating)| StackSet { current, visible, hidden, floating })
        .boxed()
}

/// The size of `n` values drawn from proptest's strategy and from
/// [`sc_stackset`] (mean / sd each, and the share with a non-empty current
/// stack): the two samplers must agree for the comparison to be like for like.
pub fn distributions(n: u64) -> [(f64, f64, f64); 2] {
    use speccheck::Generator;
    let summarize = |values: Vec<StackSet>| {
        let sizes: Vec<f64> = values.iter().map(|s| size(s) as f64).collect();
        let s = speccheck_bench::Summary::of(&sizes);
        let stacked = values.iter().filter(|s| s.current.workspace.stack.is_some()).count();
        (s.mean, s.sd, stacked as f64 / values.len() as f64)
    };
    // Spread seeds: proptest's XorShift, seeded with small consecutive
    // numbers, starts correlated (hidden workspaces came out 1.86 on average
    // instead of 2).
    let spread = |seed: u64| seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x1234_5678_9abc_def1;
    let proptest = (0..n).map(|seed| common::sample_from(pt_stackset, spread(seed))).collect();
    let g = sc_stackset();
    let speccheck = (0..n).map(|seed| g.generate(&mut speccheck::TestCase::random(seed, 100))).collect();
    [summarize(proptest), summarize(speccheck)]
}

// ----- quickcheck --------------------------------------------------------------

/// quickcheck: stack sets from the common strategy, and a shrink that
/// shrinks each field in turn (what `genericShrink` derives).
#[derive(Clone, Debug)]
pub struct QcStackSet(pub StackSet);

fn shrink_stack(st: &Stack) -> Vec<Stack> {
    (st.focus, st.up.clone(), st.down.clone()).shrink().map(|(focus, up, down)| Stack { focus, up, down }).collect()
}

fn shrink_ws(w: &Workspace) -> Vec<Workspace> {
    let mut out: Vec<Workspace> = Vec::new();
    out.extend(w.tag.0.shrink().map(|t| Workspace { tag: Tag(t), ..w.clone() }));
    out.extend(w.layout.shrink().map(|layout| Workspace { layout, ..w.clone() }));
    if let Some(st) = &w.stack {
        out.push(Workspace { stack: None, ..w.clone() });
        out.extend(shrink_stack(st).into_iter().map(|s| Workspace { stack: Some(s), ..w.clone() }));
    }
    out
}

fn shrink_screen(sc: &Screen) -> Vec<Screen> {
    let mut out: Vec<Screen> =
        shrink_ws(&sc.workspace).into_iter().map(|workspace| Screen { workspace, ..sc.clone() }).collect();
    out.extend(sc.screen.shrink().map(|screen| Screen { screen, ..sc.clone() }));
    out.extend(sc.detail.shrink().map(|detail| Screen { detail, ..sc.clone() }));
    out
}

/// A list shrunk as quickcheck shrinks lists: drop elements, then shrink
/// one element.
fn shrink_list<T: Clone>(xs: &[T], one: fn(&T) -> Vec<T>) -> Vec<Vec<T>> {
    let mut out = Vec::new();
    for i in 0..xs.len() {
        let mut v = xs.to_vec();
        v.remove(i);
        out.push(v);
    }
    for i in 0..xs.len() {
        for x in one(&xs[i]) {
            let mut v = xs.to_vec();
            v[i] = x;
            out.push(v);
        }
    }
    out
}

impl QcArbitrary for QcStackSet {
    fn arbitrary(g: &mut Gen) -> Self {
        QcStackSet(common::sample_from(pt_stackset, common::qc_seed(g)))
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let s = &self.0;
        let mut out: Vec<StackSet> = Vec::new();
        out.extend(shrink_screen(&s.current).into_iter().map(|current| StackSet { current, ..s.clone() }));
        out.extend(shrink_list(&s.visible, shrink_screen).into_iter().map(|visible| StackSet { visible, ..s.clone() }));
        out.extend(shrink_list(&s.hidden, shrink_ws).into_iter().map(|hidden| StackSet { hidden, ..s.clone() }));
        out.extend(s.floating.shrink().map(|floating| StackSet { floating, ..s.clone() }));
        Box::new(out.into_iter().map(QcStackSet))
    }
}

impl common::QcSubject for QcStackSet {
    fn check(&self) -> Check {
        check(&self.0)
    }
}

// ----- hegeltest ----------------------------------------------------------------

/// The same shape as a composite of hegeltest's draws: letters `a..=z`,
/// `Some` or `None` by a boolean, vectors of a length uniform in their range,
/// its `u8` and `i8` integers (Hypothesis's, not uniform).
fn hg_stackset(tc: &speccheck_bench::hegel_peer::TestCase) -> StackSet {
    use speccheck_bench::hegel_peer::{TestCase, gs};
    let window = |tc: &TestCase| char::from(tc.draw(gs::integers::<u8>().min_value(b'a').max_value(b'z')));
    let windows = |tc: &TestCase, n: usize| (0..common::hg_below(tc, n)).map(|_| window(tc)).collect::<Vec<_>>();
    let i8 = |tc: &TestCase| tc.draw(gs::integers::<i8>());
    let ws = |tc: &TestCase| {
        let tag = Tag(tc.draw(gs::integers::<u8>()));
        let layout = i8(tc);
        let stack =
            tc.draw(gs::booleans()).then(|| Stack { focus: window(tc), up: windows(tc, 4), down: windows(tc, 4) });
        Workspace { tag, layout, stack }
    };
    let screen = |tc: &TestCase| Screen { workspace: ws(tc), screen: i8(tc), detail: i8(tc) };
    let current = screen(tc);
    let visible = (0..common::hg_below(tc, 4)).map(|_| screen(tc)).collect();
    let hidden = (0..common::hg_below(tc, 5)).map(|_| ws(tc)).collect();
    let byte = |tc: &TestCase| tc.draw(gs::integers::<u8>());
    let floating =
        (0..common::hg_below(tc, 3)).map(|_| (window(tc), (byte(tc), byte(tc), byte(tc), byte(tc)))).collect();
    StackSet { current, visible, hidden, floating }
}

pub fn run(tool: Tool, seed: u64) -> Option<Sample> {
    common::timed(|| match tool {
        _ if tool.is_speccheck() => {
            common::speccheck(sc_stackset(), common::speccheck_config(tool, seed, None), check).map(|s| size(&s))
        }
        Tool::Proptest => common::proptest(pt_stackset(), seed, check).map(|s| size(&s)),
        Tool::Quickcheck => common::quickcheck::<QcStackSet>(seed, true).map(|s| size(&s.0)),
        Tool::Hegeltest => common::hegel(seed, hg_stackset, check).map(|s| size(&s)),
        _ => common::quickcheck::<QcStackSet>(seed, false).map(|s| size(&s.0)),
    })
}
