//! Static classification that reads the body and assumes the callees'
//! contracts (Ciao's CiaoPP step): a postcondition that follows from what
//! the body computes and from what its callees guarantee is proved; each
//! call is checked against its callee's precondition; a body that could
//! be misread is not read, and says why; nothing is proved that is false.
#![cfg(feature = "smt")]

use speccheck::contracts::callees::registered;
use speccheck::{Arbitrary, Targetable, contract};

#[contract(requires(x > -1000 && x < 1000), ensures(result >= 0))]
fn magnitude(x: i64) -> i64 {
    if x < 0 { -x } else { x }
}

#[contract(requires(x > -1000 && x < 1000), ensures(result >= 1))]
fn magnitude_plus_one(x: i64) -> i64 {
    let m = magnitude(x);
    m + 1
}

#[contract(requires(x > -1000 && x < 1000), ensures(result >= 0), test(should_panic = "is false"))]
fn magnitude_minus_one(x: i64) -> i64 {
    magnitude(x) - 1
}

#[contract(requires(n >= 0 && n < 1000000), ensures(result >= n))]
fn double(n: i64) -> i64 {
    n + n
}

#[contract(requires(x >= 1 && x < 1000), ensures(result >= 0))]
fn double_before(x: i64) -> i64 {
    double(x - 1)
}

#[contract(requires(x > -1000 && x < 1000), ensures(result >= 0))]
fn double_if_positive(x: i64) -> i64 {
    if x > 0 { double(x) } else { 0 }
}

#[contract(requires(x > -1000 && x < 1000), ensures(result == x + 2))]
fn shadowed(x: i64) -> i64 {
    let x = x + 1;
    x + 1
}

#[contract(requires(x > -1000 && x < 1000), ensures(result >= 0))]
fn leaves_early(x: i64) -> i64 {
    if x < 0 {
        return -x;
    }
    x
}

fn helper(x: i64) -> i64 {
    x.abs()
}

#[contract(requires(x > -1000 && x < 1000), ensures(result >= 0))]
fn through_an_uncontracted_helper(x: i64) -> i64 {
    helper(x)
}

/// Runs the generated static test of a function (in this test binary)
/// and returns whether it passed and what it printed: the classification.
macro_rules! classified {
    ($name:literal) => {{
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([concat!($name, "_contract_static"), "--exact", "--nocapture", "--test-threads=1"])
            .env("RUST_BACKTRACE", "0")
            .output()
            .unwrap();
        (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned())
    }};
}

#[test]
fn a_postcondition_follows_from_the_body_and_a_callees_contract() {
    let (ok, out) = classified!("magnitude_plus_one");
    assert!(ok, "{out}");
    assert!(out.contains("body: read, assuming the contracts of `magnitude`"), "{out}");
    assert!(out.contains("`result >= 1`: proved"), "{out}");
    let (ok, out) = classified!("magnitude");
    assert!(ok, "{out}");
    assert!(out.contains("body: read\n"), "{out}");
    assert!(out.contains("`result >= 0`: proved"), "{out}");
}

#[test]
fn what_does_not_follow_is_not_proved() {
    let (ok, out) = classified!("magnitude_minus_one");
    assert!(ok, "{out}");
    assert!(out.contains("`result >= 0`: to test"), "{out}");
    let (_, out) = classified!("through_an_uncontracted_helper");
    assert!(out.contains("body: read\n"), "{out}");
    assert!(out.contains("`result >= 0`: to test"), "{out}");
}

#[test]
fn each_call_is_checked_against_its_callees_precondition() {
    let (ok, out) = classified!("double_before");
    assert!(ok, "{out}");
    assert!(out.contains("call `double(x - 1)` meets its callee's precondition: proved"), "{out}");
    assert!(out.contains("`result >= 0`: proved"), "{out}");
    // Under the `if` that guards it.
    let (ok, out) = classified!("double_if_positive");
    assert!(ok, "{out}");
    assert!(out.contains("call `double(x)` meets its callee's precondition: proved"), "{out}");
    assert!(out.contains("`result >= 0`: proved"), "{out}");
}

#[contract(
    requires(x < 0 && x > -1000),
    ensures(result >= 0),
    test(should_panic = "violated by a caller of `double`")
)]
fn breaks_its_callee(x: i64) -> i64 {
    double(x)
}

#[test]
fn a_call_that_always_breaks_its_callees_precondition_is_false() {
    // (Its generated test expects the violation, so its static test
    // reports the false call without failing.)
    let (_, out) = classified!("breaks_its_callee");
    assert!(out.contains("call `double(x)` meets its callee's precondition: false"), "{out}");
}

#[test]
fn a_let_that_shadows_an_argument_is_read_as_rust_reads_it() {
    let (ok, out) = classified!("shadowed");
    assert!(ok, "{out}");
    assert!(out.contains("`result == x + 2`: proved"), "{out}");
}

#[contract(requires(x > -1000 && x < 1000), ensures(result), test(should_panic = "the postcondition `result` is false"))]
#[allow(clippy::eq_op)] // the point: NaN is not equal to itself
fn divided_by_zero_is_itself(x: i64) -> bool {
    let a = x as f64 / 0.0;
    a == a
}

/// A type whose values are never equal, even to themselves.
#[derive(Debug)]
struct Never;

impl PartialEq for Never {
    fn eq(&self, _: &Never) -> bool {
        false
    }
}

#[contract(requires(x > -1000 && x < 1000))]
fn make_never(x: i64) -> Never {
    let _ = x;
    Never
}

#[contract(requires(x > -1000 && x < 1000), ensures(result), test(should_panic = "the postcondition `result` is false"))]
#[allow(clippy::eq_op)] // the point: `Never` is not equal to itself
fn never_equal(x: i64) -> bool {
    let a = make_never(x);
    a == a
}

#[test]
fn a_body_that_could_be_misread_is_not_read_and_says_why() {
    let (_, out) = classified!("leaves_early");
    assert!(out.contains("body: not read (it may return early)"), "{out}");
    assert!(out.contains("`result >= 0`: to test"), "{out}");
    // NaN is not equal to itself: a float body is not read as integers.
    let (_, out) = classified!("divided_by_zero_is_itself");
    assert!(out.contains("body: not read (it computes with floating-point numbers)"), "{out}");
    assert!(out.contains("`result`: to test"), "{out}");
}

#[test]
fn nothing_is_computed_with_a_result_of_unknown_type() {
    // `a == a` is not true of every type: the call's result is a `Never`.
    let (ok, out) = classified!("never_equal");
    assert!(ok, "{out}");
    assert!(out.contains("assuming the contracts of `make_never`"), "{out}");
    assert!(out.contains("`result`: to test"), "{out}");
}

#[test]
fn contracts_are_registered_under_their_paths() {
    let c = registered(&format!("{}::double", module_path!())).expect("`double` is registered");
    assert_eq!(c.function(), "double");
    assert_eq!(c.param_names(), ["n"]);
    let m = registered(&format!("{}::Meter::room", module_path!())).expect("`Meter::room` is registered");
    assert_eq!(m.param_names(), ["self"]);
    assert!(registered("no::such::function").is_none());
}

#[derive(Clone, Debug, PartialEq, Arbitrary, Targetable)]
struct Meter {
    used: i64,
    cap: i64,
}

#[speccheck::contracts]
impl Meter {
    #[contract(
        requires(0 <= self.used && self.used <= self.cap && self.cap < 1000),
        ensures(result >= 0),
        test(strategy = exhaustive, depth = 3)
    )]
    fn room(&self) -> i64 {
        self.cap - self.used
    }

    #[contract(
        requires(0 <= self.used && self.used <= self.cap && self.cap < 1000),
        ensures(result >= 1),
        test(strategy = exhaustive, depth = 3)
    )]
    fn room_and_one(&self) -> i64 {
        self.room() + 1
    }
}

#[test]
fn methods_assume_the_contracts_of_the_methods_they_call() {
    let (ok, out) = classified!("meter_room_and_one");
    assert!(ok, "{out}");
    assert!(out.contains("assuming the contracts of `Meter::room`"), "{out}");
    assert!(out.contains("call `Meter::room(self)` meets its callee's precondition: proved"), "{out}");
    assert!(out.contains("`result >= 1`: proved"), "{out}");
}
