//! SmartCheck as a user meets it: a counterexample reduced to its
//! essentials, generalized into a formula (`forall x0 x1: …`), and further
//! failure classes found in the same run. Run with
//! `cargo run -p speccheck-examples --example smartcheck_reduce`.
//!
//! With `#[property]` (or `speccheck::check`) none of the wiring below is
//! needed: SmartCheck is the default explanation step. Here the properties
//! are built by hand to show the settings (`explain`, `ReduceConfig`).

use std::collections::BTreeMap;

use speccheck::prelude::*;
use speccheck::{Config, ExplainMode, Property};
use speccheck_reduce::{Format, ReduceConfig, SmartCheck};

/// The calculator language of the paper (§4.3.1).
#[derive(Arbitrary, Debug, Clone, PartialEq)]
enum Exp {
    C(i32),
    Add(Box<Exp>, Box<Exp>),
    Div(Box<Exp>, Box<Exp>),
}

fn eval(e: &Exp) -> Option<i64> {
    match e {
        Exp::C(i) => Some(i64::from(*i)),
        Exp::Add(a, b) => Some(eval(a)?.wrapping_add(eval(b)?)),
        Exp::Div(a, b) => match eval(b)? {
            0 => None,
            d => Some(eval(a)?.div_euclid(d)),
        },
    }
}

/// Meant to rule out division by zero, but only looks for a literal zero.
fn div_sub_terms(e: &Exp) -> bool {
    match e {
        Exp::C(_) => true,
        Exp::Div(_, b) if **b == Exp::C(0) => false,
        Exp::Add(a, b) | Exp::Div(a, b) => div_sub_terms(a) && div_sub_terms(b),
    }
}

/// A window manager's workspaces, after XMonad's `StackSet` (§7.1).
#[derive(Arbitrary, Debug, Clone, PartialEq)]
struct StackSet {
    current: Screen,
    visible: Vec<Screen>,
    hidden: Vec<Workspace>,
    /// Window geometry: left alone by reduction and generalization.
    #[speccheck(opaque)]
    floating: BTreeMap<char, (u8, u8)>,
}

#[derive(Arbitrary, Debug, Clone, PartialEq)]
struct Screen {
    workspace: Workspace,
    screen: i8,
}

#[derive(Arbitrary, Debug, Clone, PartialEq)]
struct Workspace {
    tag: Tag,
    layout: i8,
    stack: Option<Stack>,
}

#[derive(Arbitrary, Debug, Clone, PartialEq)]
struct Tag(u8);

#[derive(Arbitrary, Debug, Clone, PartialEq)]
struct Stack {
    focus: char,
    up: Vec<char>,
    down: Vec<char>,
}

impl StackSet {
    fn workspaces_mut(&mut self) -> impl Iterator<Item = &mut Workspace> {
        std::iter::once(&mut self.current.workspace)
            .chain(self.visible.iter_mut().map(|s| &mut s.workspace))
            .chain(self.hidden.iter_mut())
    }

    fn member(&mut self, w: char) -> bool {
        self.workspaces_mut()
            .any(|ws| ws.stack.as_ref().is_some_and(|s| s.focus == w || s.up.contains(&w) || s.down.contains(&w)))
    }

    /// Removes window `w` everywhere. The typo: `== w` where `!= w` was meant.
    fn delete(mut self, w: char) -> StackSet {
        for ws in self.workspaces_mut() {
            ws.stack = ws.stack.take().and_then(|s| {
                let keep = |x: &char| *x == w; // should be `*x != w`
                let mut rest: Vec<char> = std::iter::once(s.focus).chain(s.down).filter(keep).collect();
                let up: Vec<char> = s.up.into_iter().filter(keep).collect();
                if rest.is_empty() {
                    return up.split_first().map(|(f, up)| Stack { focus: *f, up: up.to_vec(), down: vec![] });
                }
                let focus = rest.remove(0);
                Some(Stack { focus, up, down: rest })
            });
        }
        self.floating.remove(&w);
        self
    }
}

fn main() {
    let config =
        |name: &str| Config { database: None, seed: Some(11), explain: ExplainMode::Generalize, ..Config::named(name) };

    println!("== Div0: if no divisor is a literal zero, evaluation succeeds (it does not) ==");
    let report = Property::with_render(any::<Exp>(), |e: &Exp| vec![("e".into(), e.to_term())])
        .config(config("div0"))
        .explainer(speccheck_reduce::explainer())
        .run(|e: Exp| {
            assume(div_sub_terms(&e));
            eval(&e).is_some()
        });
    println!("{report}");

    println!("== StackSet: deleting the focused window removes it (a typo says otherwise) ==");
    let smartcheck = SmartCheck::new(ReduceConfig { multi: false, ..ReduceConfig::default() });
    let report = Property::with_render(any::<StackSet>(), |s: &StackSet| vec![("s".into(), s.to_term())])
        .config(config("stackset_delete"))
        .explainer(std::sync::Arc::new(smartcheck) as std::sync::Arc<dyn speccheck::runner::Explainer>)
        .run(|s: StackSet| match s.current.workspace.stack.as_ref().map(|st| st.focus) {
            None => true,
            Some(w) => !s.delete(w).member(w),
        });
    println!("{report}");

    println!("== The same, printed in SmartCheck's tree format ==");
    let tree = SmartCheck::new(ReduceConfig { multi: false, format: Format::Tree, ..ReduceConfig::default() });
    let report = Property::with_render(any::<StackSet>(), |s: &StackSet| vec![("s".into(), s.to_term())])
        .config(config("stackset_delete_tree"))
        .explainer(std::sync::Arc::new(tree) as std::sync::Arc<dyn speccheck::runner::Explainer>)
        .run(|s: StackSet| match s.current.workspace.stack.as_ref().map(|st| st.focus) {
            None => true,
            Some(w) => !s.delete(w).member(w),
        });
    if let Some(c) = report.counterexample()
        && let Some(g) = c.explanation.iter().find(|s| s.title.starts_with("generalized"))
    {
        println!("{}", g.body);
    }
}
