//! The step counter behind `cost(...)` parts: a function ticks it where it
//! does a unit of work, and its contract bounds the ticks of one call
//! (nested calls included) by an expression over the arguments.

use std::cell::Cell;

thread_local! {
    static STEPS: Cell<u64> = const { Cell::new(0) };
}

/// Counts one step of work on this thread.
#[inline]
pub fn tick() {
    STEPS.with(|s| s.set(s.get().wrapping_add(1)));
}

/// Counts `n` steps of work on this thread.
#[inline]
pub fn tick_n(n: u64) {
    STEPS.with(|s| s.set(s.get().wrapping_add(n)));
}

/// Steps counted on this thread so far (a call's cost is the difference
/// between its exit and its entry).
pub fn steps() -> u64 {
    STEPS.with(Cell::get)
}
