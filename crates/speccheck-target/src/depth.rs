//! The meaning of "depth", shared with the core's exhaustive enumeration
//! ([`speccheck_core::enumerate`]), so that the SMT, exhaustive and lazy
//! strategies enumerate the same inputs at the same depth:
//!
//! * each argument of a function gets the whole depth `d`;
//! * an integer at depth `d` ranges over `-d..=d` (signed types) or
//!   `0..=2d` (unsigned), clipped to its type;
//! * a data value at depth `d` takes any constructor, or only the
//!   non-recursive ones at depth 0; its fields get depth `d - 1`;
//! * a `Vec` at depth `d` has at most `d` elements, each at depth `d - 1`.

/// The integers an integer of type range `lo..=hi` takes at depth `d`.
pub fn int_window(lo: i128, hi: i128, d: u32) -> (i128, i128) {
    let d = i128::from(d);
    if lo < 0 { ((-d).max(lo), d.min(hi)) } else { (lo, (lo + 2 * d).min(hi)) }
}

/// The depth of a data value's fields (and of a sequence's elements).
pub fn below(d: u32) -> u32 {
    d.saturating_sub(1)
}
