//! The arguments of one call, as the description's closures see them.
//!
//! The engine lends arguments passed by shared reference straight from the
//! pools (no copy) and hands over clones for arguments passed by value or
//! by `&mut` (the instance in the pool is never changed: a mutating call
//! works on a clone, and the clone after the call is a new instance).

use std::any::Any;

use super::value::{Dyn, short};

enum Slot<'a> {
    Borrowed(&'a dyn Any),
    Owned(Option<Dyn>),
}

/// The arguments of one call.
pub struct Args<'a> {
    slots: Vec<Slot<'a>>,
}

impl<'a> Args<'a> {
    pub(crate) fn with_capacity(n: usize) -> Self {
        Args { slots: Vec::with_capacity(n) }
    }

    pub(crate) fn push_borrowed(&mut self, v: &'a dyn Any) {
        self.slots.push(Slot::Borrowed(v));
    }

    pub(crate) fn push_owned(&mut self, v: Dyn) {
        self.slots.push(Slot::Owned(Some(v)));
    }

    /// Number of arguments.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Argument `i`, by reference.
    pub fn get<T: 'static>(&self, i: usize) -> &T {
        let v: &dyn Any = match &self.slots[i] {
            Slot::Borrowed(v) => *v,
            Slot::Owned(Some(v)) => &**v,
            Slot::Owned(None) => panic!("speccheck-interface: argument {i} was already taken"),
        };
        v.downcast_ref::<T>().unwrap_or_else(|| mismatch::<T>(i))
    }

    /// Argument `i`, by value (arguments passed by value or `&mut`).
    pub fn take<T: 'static>(&mut self, i: usize) -> T {
        match &mut self.slots[i] {
            Slot::Owned(v) => {
                let v = v.take().unwrap_or_else(|| panic!("speccheck-interface: argument {i} was already taken"));
                *v.downcast::<T>().unwrap_or_else(|_| mismatch::<T>(i))
            }
            Slot::Borrowed(_) => panic!("speccheck-interface: argument {i} is lent, not given"),
        }
    }

    /// Puts a `&mut` argument back after the call: the engine keeps it as
    /// the argument's new state.
    pub fn put<T: 'static>(&mut self, i: usize, value: T) {
        self.slots[i] = Slot::Owned(Some(Box::new(value)));
    }

    /// Takes back what [`put`](Self::put) stored.
    pub(crate) fn take_dyn(&mut self, i: usize) -> Option<Dyn> {
        match &mut self.slots[i] {
            Slot::Owned(v) => v.take(),
            Slot::Borrowed(_) => None,
        }
    }
}

fn mismatch<T>(i: usize) -> ! {
    panic!("speccheck-interface: argument {i} is not a {} (the description does not match the function)", short::<T>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lent_given_and_returned() {
        let shared = 5i32;
        let mut a = Args::with_capacity(2);
        a.push_borrowed(&shared);
        a.push_owned(Box::new(vec![1u8]));
        assert_eq!(*a.get::<i32>(0), 5);
        let mut v: Vec<u8> = a.take(1);
        v.push(2);
        a.put(1, v);
        let back = a.take_dyn(1).unwrap();
        assert_eq!(*back.downcast::<Vec<u8>>().unwrap(), vec![1, 2]);
    }
}
