//! (f) XMonad's `StackSet` (§7.1) with the `delete` typo: removing window
//! `w` from each workspace filters with `== w` instead of `/= w`, so
//! deleting the focused window keeps it. Property (`prop_delete`): after
//! deleting the focused window, it is no longer a member. Size:
//! constructors (records, `Some`/`None`, list cells and nils; windows,
//! numbers and the floating map are opaque).

use std::collections::BTreeMap;

use proptest::prelude::{Strategy, any};
use quickcheck::{Arbitrary as QcArbitrary, Gen};

use super::common::{self, Check, Sample, Tool};

pub type Window = char;

/// A workspace tag (XMonad's `NonNegative Int`).
#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub struct Tag(pub u8);

#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub struct Stack {
    pub focus: Window,
    pub up: Vec<Window>,
    pub down: Vec<Window>,
}

#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub struct Workspace {
    pub tag: Tag,
    pub layout: i8,
    pub stack: Option<Stack>,
}

#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub struct Screen {
    pub workspace: Workspace,
    pub screen: i8,
    pub detail: i8,
}

#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub struct StackSet {
    pub current: Screen,
    pub visible: Vec<Screen>,
    pub hidden: Vec<Workspace>,
    /// Floating windows and their geometry: opaque, as in the paper.
    #[speccheck(opaque)]
    pub floating: BTreeMap<Window, (u8, u8, u8, u8)>,
}

fn peek(s: &StackSet) -> Option<Window> {
    s.current.workspace.stack.as_ref().map(|st| st.focus)
}

/// XMonad's `filter` on a stack: keep the windows satisfying `p`; the
/// focus moves down, else up; `None` when nothing is left.
fn filter(st: &Stack, p: impl Fn(Window) -> bool) -> Option<Stack> {
    let mut rest: Vec<Window> = std::iter::once(st.focus).chain(st.down.iter().copied()).filter(|&w| p(w)).collect();
    let up: Vec<Window> = st.up.iter().copied().filter(|&w| p(w)).collect();
    if !rest.is_empty() {
        let focus = rest.remove(0);
        return Some(Stack { focus, up, down: rest });
    }
    let mut up = up;
    if up.is_empty() {
        return None;
    }
    let focus = up.remove(0);
    Some(Stack { focus, up, down: Vec::new() })
}

/// `delete w`, with the typo when `buggy`.
pub fn delete(w: Window, s: &StackSet, buggy: bool) -> StackSet {
    let keep = move |x: Window| if buggy { x == w } else { x != w };
    let remove = |ws: &Workspace| Workspace { stack: ws.stack.as_ref().and_then(|st| filter(st, keep)), ..ws.clone() };
    let screen = |sc: &Screen| Screen { workspace: remove(&sc.workspace), ..sc.clone() };
    let mut floating = s.floating.clone();
    floating.remove(&w);
    StackSet {
        current: screen(&s.current),
        visible: s.visible.iter().map(screen).collect(),
        hidden: s.hidden.iter().map(remove).collect(),
        floating,
    }
}

fn workspaces(s: &StackSet) -> impl Iterator<Item = &Workspace> {
    std::iter::once(&s.current.workspace).chain(s.visible.iter().map(|sc| &sc.workspace)).chain(s.hidden.iter())
}

pub fn member(w: Window, s: &StackSet) -> bool {
    workspaces(s)
        .any(|ws| ws.stack.as_ref().is_some_and(|st| st.focus == w || st.up.contains(&w) || st.down.contains(&w)))
}

pub fn check_with(s: &StackSet, buggy: bool) -> Check {
    match peek(s) {
        None => Check::Pass,
        Some(i) => {
            if member(i, &delete(i, s, buggy)) {
                Check::Fail
            } else {
                Check::Pass
            }
        }
    }
}

pub fn check(s: &StackSet) -> Check {
    check_with(s, true)
}

pub fn check_fixed(s: &StackSet) -> Check {
    check_with(s, false)
}

fn size_ws(w: &Workspace) -> usize {
    // Workspace, its tag, and the stack: None, or Some(Stack { up, down }).
    2 + match &w.stack {
        None => 1,
        Some(st) => 2 + (st.up.len() + 1) + (st.down.len() + 1),
    }
}

fn size_screen(sc: &Screen) -> usize {
    1 + size_ws(&sc.workspace)
}

pub fn size(s: &StackSet) -> usize {
    1 + size_screen(&s.current)
        + (s.visible.len() + 1)
        + s.visible.iter().map(size_screen).sum::<usize>()
        + (s.hidden.len() + 1)
        + s.hidden.iter().map(size_ws).sum::<usize>()
}

// ----- proptest ----------------------------------------------------------------

fn pt_window() -> impl Strategy<Value = Window> {
    proptest::char::range('a', 'z')
}

fn pt_stackset() -> impl Strategy<Value = StackSet> {
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

// ----- quickcheck --------------------------------------------------------------

/// quickcheck: a generator bounded like proptest's, and a shrink that
/// shrinks each field in turn (what `genericShrink` derives).
#[derive(Clone, Debug)]
pub struct QcStackSet(pub StackSet);

fn qc_window(g: &mut Gen) -> Window {
    (b'a' + common::qc_below(g, 26) as u8) as char
}

fn qc_ws(g: &mut Gen) -> Workspace {
    let stack = bool::arbitrary(g).then(|| Stack {
        focus: qc_window(g),
        up: common::qc_vec(g, 3, qc_window),
        down: common::qc_vec(g, 3, qc_window),
    });
    Workspace { tag: Tag(u8::arbitrary(g)), layout: i8::arbitrary(g), stack }
}

fn qc_screen(g: &mut Gen) -> Screen {
    Screen { workspace: qc_ws(g), screen: i8::arbitrary(g), detail: i8::arbitrary(g) }
}

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
        let current = qc_screen(g);
        let visible = common::qc_vec(g, 3, qc_screen);
        let hidden = common::qc_vec(g, 4, qc_ws);
        let floating = common::qc_vec(g, 2, |g| (qc_window(g), <(u8, u8, u8, u8)>::arbitrary(g))).into_iter().collect();
        QcStackSet(StackSet { current, visible, hidden, floating })
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

fn qc_check(s: &QcStackSet) -> Check {
    check(&s.0)
}

pub fn run(tool: Tool, seed: u64) -> Option<Sample> {
    common::timed(|| match tool {
        _ if tool.is_speccheck() => {
            common::speccheck(speccheck::any::<StackSet>(), common::speccheck_config(tool, seed, None), check)
                .map(|s| size(&s))
        }
        Tool::Proptest => common::proptest(pt_stackset(), seed, check).map(|s| size(&s)),
        Tool::Quickcheck => common::quickcheck::<QcStackSet>(seed, true, qc_check).map(|s| size(&s.0)),
        _ => common::quickcheck::<QcStackSet>(seed, false, qc_check).map(|s| size(&s.0)),
    })
}
