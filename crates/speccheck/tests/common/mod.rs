//! Fixtures shared by the refinement-spec tests: a plain list and the
//! measures its specs call.

use speccheck::{Arbitrary, Targetable, measure};

#[derive(Arbitrary, Targetable, Clone, Debug, PartialEq)]
pub enum List {
    Nil,
    Cons(i64, Box<List>),
}

#[measure]
pub fn size(l: &List) -> i64 {
    match l {
        List::Nil => 0,
        List::Cons(_, t) => 1 + size(t),
    }
}

#[measure]
pub fn ordered(l: &List) -> bool {
    match l {
        List::Nil => true,
        List::Cons(h, t) => at_least(t, *h) && ordered(t),
    }
}

#[measure]
pub fn at_least(l: &List, x: i64) -> bool {
    match l {
        List::Nil => true,
        List::Cons(h, t) => *h >= x && at_least(t, x),
    }
}
