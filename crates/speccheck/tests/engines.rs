//! The techniques, reached through the facade as a user does.

use speccheck::interface::Config;

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stack(Vec<u8>);

impl Stack {
    pub fn new() -> Self {
        Stack(Vec::new())
    }
    pub fn push(&self, x: u8) -> Self {
        let mut v = self.0.clone();
        v.push(x);
        Stack(v)
    }
    /// Planted bug: drops the *first* element.
    pub fn pop(&self) -> Self {
        let mut v = self.0.clone();
        if !v.is_empty() {
            v.remove(0);
        }
        Stack(v)
    }
    pub fn top(&self) -> Option<u8> {
        self.0.last().copied()
    }
}

#[test]
fn interface_fuzzing_through_the_facade_macro() {
    let api = speccheck::interface! {
        name = "stack";
        abstract Stack;
        ground u8 = speccheck::gens::ints(0..=3u8);
        impl Stack {
            fn new() -> Self;
            fn push(&self, x: u8) -> Self;
            fn pop(&self) -> Self;
        }
        law push_pop(s: &Stack, x: u8) => s.push(x).pop() == *s;
    }
    .expect("a valid description");
    let report = api.check(Config::seeded(3));
    assert!(!report.passed(), "{report}");
    let program = &report.counterexample().expect("a counterexample").program;
    assert!(program.contains("push"), "{program}");
}

#[test]
fn the_default_explanation_is_smartcheck() {
    assert!(speccheck::__private::default_explainer().is_some());
}
