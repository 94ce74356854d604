//! Contracts on methods (`#[contracts]` on the impl block): `self` in
//! specs, the receiver's value after a `&mut self` call with `old(..)` for
//! before, `pure`, associated functions, examples on methods, and the
//! generated tests that make the receiver like any other argument. Also
//! `&mut` arguments of free functions, which follow the same rule.

use speccheck::contracts::switch::forced;
use speccheck::{Arbitrary, Targetable, contract, contracts};

fn failure(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let err = std::panic::catch_unwind(|| forced(f)).expect_err("the contract should fire");
    err.downcast_ref::<String>().cloned().unwrap_or_default()
}

/// A counter that must stay at or below its cap.
#[derive(Clone, Debug, PartialEq, Arbitrary, Targetable)]
pub struct Counter {
    n: i64,
    cap: i64,
}

#[contracts]
impl Counter {
    #[contract(requires(cap >= 0), ensures(result.n == 0 && result.cap == cap), test(strategy = exhaustive, depth = 3))]
    pub fn new(cap: i64) -> Counter {
        Counter { n: 0, cap }
    }

    #[contract(
        requires(self.n < self.cap),
        ensures(self.n == old(self.n) + 1 && self.cap == old(self.cap)),
        example(self = Counter { n: 0, cap: 1 } => self.n == 1),
        test(strategy = exhaustive, depth = 3)
    )]
    pub fn incr(&mut self) {
        self.n += 1;
    }

    #[contract(
        requires(0 <= self.n && self.n <= self.cap),
        pure,
        ensures(result == self.cap - self.n),
        example(self = Counter { n: 1, cap: 3 } => result == 2)
    )]
    pub fn room(&self) -> i64 {
        self.cap - self.n
    }

    /// Claims to be pure, but resets a counter that reached 2.
    #[contract(pure, test(strategy = exhaustive, depth = 3, should_panic = "`pure` is false"))]
    pub fn peek(&mut self) -> i64 {
        if self.n == 2 {
            self.n = 0;
        }
        self.n
    }

    /// Forgets to add 2.
    #[contract(
        ensures(self.n == old(self.n) + by),
        test(strategy = exhaustive, depth = 3, should_panic = "the postcondition `self.n == old(self.n) + by` is false")
    )]
    pub fn add(&mut self, by: i64) {
        if by != 2 {
            self.n += by;
        }
    }

    #[contract(ensures(result == self.n), deterministic, test(strategy = exhaustive, depth = 3))]
    pub fn into_count(self) -> i64 {
        self.n
    }
}

#[contract(ensures(len(xs) == len(old(xs)) + 1 && xs[len(xs) - 1] == x), test(strategy = exhaustive, depth = 3))]
fn push(xs: &mut Vec<i64>, x: i64) {
    xs.push(x);
}

/// Drops the element when it is zero.
#[contract(
    ensures(len(xs) == len(old(xs)) + 1),
    test(strategy = exhaustive, depth = 3, should_panic = "the postcondition `len(xs) == len(old(xs)) + 1` is false")
)]
fn push_nonzero(xs: &mut Vec<i64>, x: i64) {
    if x != 0 {
        xs.push(x);
    }
}

#[test]
fn a_method_contract_that_holds_does_not_fire() {
    forced(|| {
        let mut c = Counter::new(2);
        c.incr();
        assert_eq!(c.room(), 1);
        assert_eq!(c.peek(), 1);
        c.add(3);
        assert_eq!(c.into_count(), 4);
        let mut xs = vec![1];
        push(&mut xs, 0);
        assert_eq!(xs, vec![1, 0]);
    });
}

#[test]
fn a_method_precondition_names_the_type_the_method_and_the_receiver() {
    let m = failure(|| Counter { n: 1, cap: 1 }.incr());
    assert!(
        m.contains("violated by a caller of `Counter::incr`: the precondition `self.n < self.cap` is false"),
        "{m}"
    );
    assert!(m.contains("inputs: self = Counter { n: 1, cap: 1 }"), "{m}");
}

#[test]
fn a_postcondition_on_a_mut_receiver_reads_it_after_the_call_and_old_before() {
    let m = failure(|| Counter { n: 1, cap: 5 }.add(2));
    assert!(m.contains("contract of `Counter::add` violated: the postcondition `self.n == old(self.n) + by`"), "{m}");
    // The inputs as they were, and the receiver after the call.
    assert!(m.contains("inputs: self = Counter { n: 1, cap: 5 }, by = 2"), "{m}");
    assert!(m.contains("after the call: self = Counter { n: 1, cap: 5 }"), "{m}");
}

#[test]
fn pure_compares_the_receiver_before_and_after() {
    let m = failure(|| {
        Counter { n: 2, cap: 5 }.peek();
    });
    assert!(m.contains("contract of `Counter::peek` violated: `pure` is false"), "{m}");
    assert!(m.contains("before: Counter { n: 2, cap: 5 }") && m.contains("after:  Counter { n: 0, cap: 5 }"), "{m}");
}

#[test]
fn a_mut_argument_of_a_free_function_is_read_after_the_call() {
    let m = failure(|| push_nonzero(&mut vec![4], 0));
    // `x` is not read: the contract does not mention it.
    assert!(m.contains("inputs: xs = [4]\n  after the call: xs = [4]"), "{m}");
}
