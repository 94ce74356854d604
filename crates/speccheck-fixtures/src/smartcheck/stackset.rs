//! XMonad's `StackSet` (§7.1) with the `delete` typo: removing window
//! `w` from each workspace filters with `== w` instead of `/= w`, so
//! deleting the focused window keeps it. Property (`prop_delete`): after
//! deleting the focused window, it is no longer a member. Size:
//! constructors (records, `Some`/`None`, list cells and nils; windows,
//! numbers and the floating map are opaque).

use std::collections::BTreeMap;

/// A window.
pub type Window = char;

/// A workspace tag (XMonad's `NonNegative Int`).
#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub struct Tag(pub u8);

/// The windows of a workspace, with the focus between `up` and `down`.
#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub struct Stack {
    /// The focused window.
    pub focus: Window,
    /// Windows above the focus, nearest first.
    pub up: Vec<Window>,
    /// Windows below the focus, nearest first.
    pub down: Vec<Window>,
}

/// A workspace: its tag, layout and (possibly empty) stack.
#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub struct Workspace {
    /// Its tag.
    pub tag: Tag,
    /// Its layout (opaque here).
    pub layout: i8,
    /// Its windows, if any.
    pub stack: Option<Stack>,
}

/// A physical screen and the workspace it shows.
#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub struct Screen {
    /// The workspace shown.
    pub workspace: Workspace,
    /// The screen id.
    pub screen: i8,
    /// Screen details (geometry).
    pub detail: i8,
}

/// The window manager's state: the focused screen, the other visible
/// screens, the hidden workspaces, the floating windows.
#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub struct StackSet {
    /// The focused screen.
    pub current: Screen,
    /// The other visible screens.
    pub visible: Vec<Screen>,
    /// Workspaces not shown.
    pub hidden: Vec<Workspace>,
    /// Floating windows and their geometry: opaque, as in the paper.
    #[speccheck(opaque)]
    pub floating: BTreeMap<Window, (u8, u8, u8, u8)>,
}

/// The focused window of the current screen.
pub fn peek(s: &StackSet) -> Option<Window> {
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

/// Whether window `w` is on some workspace.
pub fn member(w: Window, s: &StackSet) -> bool {
    workspaces(s)
        .any(|ws| ws.stack.as_ref().is_some_and(|st| st.focus == w || st.up.contains(&w) || st.down.contains(&w)))
}

/// The property `prop_delete`: after deleting the focused window, it is
/// no longer a member (vacuously true with no focused window). `buggy`
/// selects the `delete` with the typo.
pub fn prop_delete(s: &StackSet, buggy: bool) -> bool {
    peek(s).is_none_or(|w| !member(w, &delete(w, s, buggy)))
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

/// The benchmark's size: constructors.
pub fn size(s: &StackSet) -> usize {
    1 + size_screen(&s.current)
        + (s.visible.len() + 1)
        + s.visible.iter().map(size_screen).sum::<usize>()
        + (s.hidden.len() + 1)
        + s.hidden.iter().map(size_ws).sum::<usize>()
}
