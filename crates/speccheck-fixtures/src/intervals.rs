//! Contracts on an abstract domain (the LPtest paper's case study, in
//! small): intervals with `leq`, `join`, `meet`, and transfer functions
//! for `+`, `*` and `<`. The contracts state the lattice laws, soundness
//! (every concrete result is in the abstract one) and monotonicity, with
//! preconditions relating two generated values (`leq(a, b)`,
//! `has(a, x)`), which the lazy strategy meets by construction.
//!
//! Three bugs are planted in rarely exercised cases (equal lower bounds in
//! `join`, multiplying by exactly zero, intervals that touch in `<`); each
//! contract test that should find one is marked `should_panic` with what
//! its report says. The passing laws are tested on every valid input up to
//! depth 3.
//!
//! Run: `cargo test -p speccheck-fixtures --lib intervals`; the cost of
//! finding each bug, by strategy: `cargo run --release -p speccheck-bench
//! --bin contracts_study`.

use speccheck::{Arbitrary, Targetable, contract, measure};

/// The integers `lo..=hi`; empty (bottom) when `lo > hi`.
#[derive(Arbitrary, Targetable, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Itv {
    /// The least member.
    pub lo: i64,
    /// The greatest member.
    pub hi: i64,
}

/// The empty interval.
pub const BOT: Itv = Itv { lo: 1, hi: 0 };

/// `a = ⊥`: no integer is in `a`.
#[measure]
pub fn is_bot(a: &Itv) -> bool {
    a.lo > a.hi
}

/// `a ⊑ b`: every integer of `a` is in `b`.
#[measure]
pub fn leq(a: &Itv, b: &Itv) -> bool {
    a.lo > a.hi || (b.lo <= a.lo && a.hi <= b.hi)
}

/// `x ∈ a`.
#[measure]
pub fn has(a: &Itv, x: i64) -> bool {
    a.lo <= x && x <= a.hi
}

/// The least upper bound. Planted bug: with equal lower bounds, `a` is
/// returned as is, whatever `b`'s upper bound.
#[contract(
    ensures(leq(a, result) && leq(b, result)),
    test(strategy = lazy, depth = 3, should_panic = "the postcondition `leq(a, result) && leq(b, result)` is false")
)]
pub fn join(a: Itv, b: Itv) -> Itv {
    if is_bot(&a) {
        return b;
    }
    if is_bot(&b) || a.lo == b.lo {
        return a;
    }
    Itv { lo: a.lo.min(b.lo), hi: a.hi.max(b.hi) }
}

/// The greatest lower bound.
#[contract(ensures(leq(result, a) && leq(result, b)), test(strategy = lazy, depth = 3))]
pub fn meet(a: Itv, b: Itv) -> Itv {
    Itv { lo: a.lo.max(b.lo), hi: a.hi.min(b.hi) }
}

/// Abstract `+`.
pub fn add(a: Itv, b: Itv) -> Itv {
    if is_bot(&a) || is_bot(&b) {
        return BOT;
    }
    Itv { lo: a.lo + b.lo, hi: a.hi + b.hi }
}

/// Abstract `*`. Planted bug: multiplying by exactly zero returns the
/// other operand.
pub fn mul(a: Itv, b: Itv) -> Itv {
    if is_bot(&a) || is_bot(&b) {
        return BOT;
    }
    if a == (Itv { lo: 0, hi: 0 }) {
        return b;
    }
    let corners = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi];
    Itv { lo: *corners.iter().min().expect("four"), hi: *corners.iter().max().expect("four") }
}

/// What `x < y` may be for `x ∈ a`, `y ∈ b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MayBe {
    /// `x < y` may hold.
    pub may_true: bool,
    /// `x < y` may fail.
    pub may_false: bool,
}

/// Abstract `<`. Planted bug: intervals that touch (`a.hi == b.lo`) are
/// judged surely less, though `x == y` is possible there.
pub fn less(a: Itv, b: Itv) -> MayBe {
    if is_bot(&a) || is_bot(&b) {
        return MayBe { may_true: false, may_false: false };
    }
    MayBe { may_true: a.lo < b.hi, may_false: a.hi > b.lo }
}

/// `+` is sound: the sum of two members is a member of the sum.
#[contract(requires(has(a, x) && has(b, y)), ensures(result), test(strategy = lazy, depth = 3))]
pub fn add_is_sound(a: Itv, b: Itv, x: i64, y: i64) -> bool {
    has(&add(a, b), x + y)
}

/// `*` is sound.
#[contract(
    requires(has(a, x) && has(b, y)),
    ensures(result),
    test(strategy = lazy, depth = 3, should_panic = "contract of `mul_is_sound` violated")
)]
pub fn mul_is_sound(a: Itv, b: Itv, x: i64, y: i64) -> bool {
    has(&mul(a, b), x * y)
}

/// `<` is sound: what happens concretely is allowed abstractly.
#[contract(
    requires(has(a, x) && has(b, y)),
    ensures(result),
    test(strategy = lazy, depth = 3, should_panic = "contract of `less_is_sound` violated")
)]
pub fn less_is_sound(a: Itv, b: Itv, x: i64, y: i64) -> bool {
    let m = less(a, b);
    if x < y { m.may_true } else { m.may_false }
}

/// `+` is monotone in its first argument.
#[contract(requires(leq(a, b)), ensures(result), test(strategy = lazy, depth = 3))]
pub fn add_is_monotone(a: Itv, b: Itv, c: Itv) -> bool {
    leq(&add(a, c), &add(b, c))
}

/// `meet` is monotone.
#[contract(requires(leq(a, b)), ensures(result), test(strategy = lazy, depth = 3))]
pub fn meet_is_monotone(a: Itv, b: Itv, c: Itv) -> bool {
    leq(&meet(a, c), &meet(b, c))
}
