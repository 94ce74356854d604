//! What a pool is to the engine: a bounded container of distinct items
//! ([`Container`]), what an offer comes to ([`Insert`]), and what an item
//! must be to be pooled ([`PoolItem`]). The containers implement it, one
//! per file beside this one.

use rand::rngs::SmallRng;

/// Something a pool can hold: it has a hash key and an equality.
pub trait PoolItem {
    /// A 64-bit hash of the value (equal values, equal keys).
    fn key(&self) -> u64;
    /// Whether two items are the same value.
    fn same(&self, other: &Self) -> bool;
}

impl PoolItem for u64 {
    fn key(&self) -> u64 {
        crate::describe::hash_one(self)
    }
    fn same(&self, other: &Self) -> bool {
        self == other
    }
}

/// What happened to an offered item.
#[derive(Debug, PartialEq, Eq)]
pub enum Insert<E> {
    /// Kept; nothing was dropped.
    Added,
    /// Kept, and this element was dropped to make room.
    Replaced(E),
    /// Already there (the offered copy is discarded).
    Duplicate,
    /// Not kept (the pool is full and its policy keeps what it has).
    Dropped(E),
}

impl<E> Insert<E> {
    /// True when the offered item is now in the pool.
    pub fn kept(&self) -> bool {
        matches!(self, Insert::Added | Insert::Replaced(_))
    }
}

/// A bounded container of distinct items.
pub trait Container<E> {
    /// Offers an item.
    fn insert(&mut self, item: E, rng: &mut SmallRng) -> Insert<E>;
    /// Items held.
    fn len(&self) -> usize;
    /// True when empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Most items it ever holds.
    fn bound(&self) -> usize;
    /// Visits every item.
    fn for_each(&self, f: &mut dyn FnMut(&E));
    /// Whether an item equal to `item` is held.
    fn contains(&self, item: &E) -> bool;
    /// An item picked at random (about uniformly), if any.
    fn sample(&self, rng: &mut SmallRng) -> Option<&E>;
    /// True when the container will never accept another item (a full
    /// plain set): its pool is at its fixpoint whatever is offered.
    fn saturated(&self) -> bool {
        false
    }
}
