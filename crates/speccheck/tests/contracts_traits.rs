//! Contracts on a trait impl's methods (`#[contracts]` on `impl Trait for
//! T`): the body runs as written (`return`, `?`, `mut` arguments), the
//! receiver is read after a `&mut self` call, `Self` and associated types
//! may appear in signatures, the generated tests call the method by its
//! qualified path (the trait need not be in scope), and reports name the
//! method `<T as Trait>::m`.

use speccheck::contracts::switch::forced;
use speccheck::{Arbitrary, Targetable, contracts};

fn failure(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let err = std::panic::catch_unwind(|| forced(f)).expect_err("the contract should fire");
    err.downcast_ref::<String>().cloned().unwrap_or_default()
}

/// The trait lives in a module and is not imported here: the generated
/// tests must not need it in scope.
mod shapes {
    pub trait Stack {
        type Item;
        fn push(&mut self, x: Self::Item);
        fn pop(&mut self) -> Option<Self::Item>;
        fn depth(&self) -> i64;
        fn push_checked(&mut self, x: Self::Item) -> Result<usize, super::PushError>;
        fn merged(self, other: Self) -> Self;
        fn with_cap(cap: i64) -> Self;
    }
}

/// A stack that holds at most `cap` items.
#[derive(Clone, Debug, PartialEq, Arbitrary, Targetable)]
pub struct Bounded {
    items: Vec<i64>,
    cap: i64,
}

#[contracts]
impl shapes::Stack for Bounded {
    type Item = i64;

    #[contract(
        requires(len(self.items) < self.cap),
        ensures(len(self.items) == len(old(self.items)) + 1 && self.items[len(self.items) - 1] == x),
        test(strategy = exhaustive, depth = 3)
    )]
    fn push(&mut self, x: Self::Item) {
        self.items.push(x);
    }

    #[contract(
        ensures(len(self.items) + 1 >= len(old(self.items)) && len(self.items) <= len(old(self.items))),
        test(strategy = exhaustive, depth = 3)
    )]
    fn pop(&mut self) -> Option<i64> {
        if self.items.is_empty() {
            return None;
        }
        self.items.pop()
    }

    #[contract(ensures(result == len(self.items)), pure, example(self = Bounded { items: vec![4, 5], cap: 3 } => result == 2))]
    fn depth(&self) -> i64 {
        self.items.len() as i64
    }

    #[contract(
        ensures(len(self.items) <= len(old(self.items)) + 1),
        test(strategy = exhaustive, depth = 3)
    )]
    fn push_checked(&mut self, x: i64) -> Result<usize, PushError> {
        let at = self.free_slot()?;
        self.items.push(x);
        Ok(at)
    }

    #[contract(ensures(len(result.items) == len(self.items) + len(other.items)), test(strategy = exhaustive, depth = 3))]
    fn merged(mut self, other: Self) -> Self {
        self.items.extend(other.items);
        self
    }

    #[contract(requires(cap >= 0), ensures(len(result.items) == 0 && result.cap == cap))]
    fn with_cap(cap: i64) -> Self {
        Bounded { items: Vec::new(), cap }
    }
}

/// A result borrowed from the receiver, shared and unique.
#[contracts]
impl std::ops::Index<usize> for Bounded {
    type Output = i64;

    #[contract(requires(i < len(self.items)), ensures(result == self.items[i]))]
    fn index(&self, i: usize) -> &i64 {
        &self.items[i]
    }
}

#[contracts]
impl std::ops::IndexMut<usize> for Bounded {
    #[contract(requires(i < len(self.items)))]
    fn index_mut(&mut self, i: usize) -> &mut i64 {
        &mut self.items[i]
    }
}

/// A result type whose name contains `impl` (the body's closure is still
/// typed by it: `?` converts through `From`).
#[derive(Debug, PartialEq)]
pub struct Simple(usize);

pub trait Slots {
    fn slot(&self) -> Result<Simple, PushError>;
}

#[contracts]
impl Slots for Bounded {
    #[contract(pure)]
    fn slot(&self) -> Result<Simple, PushError> {
        let at = self.free_slot()?;
        Ok(Simple(at))
    }
}

/// The stack is full.
#[derive(Debug, PartialEq)]
pub struct Full;

/// Why a push failed (made from [`Full`] by `?`).
#[derive(Debug, PartialEq)]
pub enum PushError {
    Full,
}

impl From<Full> for PushError {
    fn from(_: Full) -> Self {
        PushError::Full
    }
}

impl Bounded {
    fn free_slot(&self) -> Result<usize, Full> {
        if (self.items.len() as i64) < self.cap { Ok(self.items.len()) } else { Err(Full) }
    }
}

/// Counts down, but does not stop at zero.
#[derive(Clone, Debug, PartialEq, Arbitrary, Targetable)]
pub struct Countdown {
    n: i64,
}

#[contracts]
impl Iterator for Countdown {
    type Item = i64;

    #[contract(
        requires(self.n >= 0),
        ensures(self.n >= 0),
        test(strategy = exhaustive, depth = 3, should_panic = "the postcondition `self.n >= 0` is false")
    )]
    fn next(&mut self) -> Option<Self::Item> {
        self.n -= 1;
        Some(self.n)
    }
}

#[test]
fn a_trait_method_contract_that_holds_does_not_fire() {
    use shapes::Stack;
    forced(|| {
        let mut s = Bounded::with_cap(3);
        s.push(1);
        assert_eq!(s.push_checked(7), Ok(1));
        s.push(8);
        assert_eq!(s.push_checked(9), Err(PushError::Full), "`?` returns the error from the body");
        s.pop();
        assert_eq!(s.depth(), 2);
        assert_eq!(s.pop(), Some(7));
        assert_eq!(s.clone().merged(s.clone()).depth(), 2);
        s.pop();
        assert_eq!(s.pop(), None, "`return` returns from the body");
        s.push(4);
        s[0] += 1;
        assert_eq!(s[0], 5);
        assert_eq!(s.slot(), Ok(Simple(1)));
    });
}

#[test]
fn a_trait_method_precondition_names_the_impl_and_the_receiver() {
    use shapes::Stack;
    let m = failure(|| Bounded { items: vec![1], cap: 1 }.push(2));
    assert!(
        m.contains(
            "violated by a caller of `<Bounded as Stack>::push`: the precondition `len(self.items) < self.cap` is false"
        ),
        "{m}"
    );
    assert!(m.contains("inputs: self = Bounded { items: [1], cap: 1 }, x = 2"), "{m}");
}

#[test]
fn a_postcondition_on_a_trait_method_reads_the_receiver_after_the_call() {
    let m = failure(|| {
        Countdown { n: 0 }.next();
    });
    assert!(m.contains("contract of `<Countdown as Iterator>::next` violated: the postcondition `self.n >= 0`"), "{m}");
    assert!(m.contains("after the call: self = Countdown { n: -1 }"), "{m}");
}
