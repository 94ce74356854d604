//! A plain set with a size bound (ArtiCheck §3.2, "regular sets").

use std::collections::HashMap;

use rand::rngs::SmallRng;

use super::container::{Container, Insert, PoolItem};

/// Accepts distinct items until it holds `bound` of them, then refuses
/// newcomers: the instances built by the fewest calls fill it.
#[derive(Debug)]
pub struct PlainSet<E> {
    items: Vec<E>,
    index: HashMap<u64, usize>,
    bound: usize,
}

impl<E> PlainSet<E> {
    /// A set of at most `bound` items.
    pub fn new(bound: usize) -> Self {
        PlainSet { items: Vec::new(), index: HashMap::new(), bound: bound.max(1) }
    }
}

impl<E: PoolItem> Container<E> for PlainSet<E> {
    fn insert(&mut self, item: E, _: &mut SmallRng) -> Insert<E> {
        let key = item.key();
        if let Some(&i) = self.index.get(&key) {
            return if self.items[i].same(&item) { Insert::Duplicate } else { Insert::Dropped(item) };
        }
        if self.items.len() >= self.bound {
            return Insert::Dropped(item);
        }
        self.index.insert(key, self.items.len());
        self.items.push(item);
        Insert::Added
    }

    fn len(&self) -> usize {
        self.items.len()
    }

    fn bound(&self) -> usize {
        self.bound
    }

    fn for_each(&self, f: &mut dyn FnMut(&E)) {
        self.items.iter().for_each(f);
    }

    fn sample(&self, rng: &mut SmallRng) -> Option<&E> {
        if self.items.is_empty() { None } else { self.items.get(rand::Rng::random_range(rng, 0..self.items.len())) }
    }

    fn contains(&self, item: &E) -> bool {
        self.index.get(&item.key()).is_some_and(|&i| self.items[i].same(item))
    }

    fn saturated(&self) -> bool {
        self.items.len() >= self.bound
    }
}
