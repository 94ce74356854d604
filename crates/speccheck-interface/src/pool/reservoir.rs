//! Reservoir sampling (ArtiCheck §3.2; Knuth's algorithm R).

use std::collections::HashMap;

use rand::Rng;
use rand::rngs::SmallRng;

use super::container::{Container, Insert, PoolItem};

/// Keeps a uniform sample of `bound` of the distinct items offered: the
/// `i`-th new item replaces a random slot with probability `bound / i`.
#[derive(Debug)]
pub struct Reservoir<E> {
    items: Vec<E>,
    index: HashMap<u64, usize>,
    bound: usize,
    seen: u64,
}

impl<E> Reservoir<E> {
    /// A reservoir of `bound` items.
    pub fn new(bound: usize) -> Self {
        Reservoir { items: Vec::new(), index: HashMap::new(), bound: bound.max(1), seen: 0 }
    }
}

impl<E: PoolItem> Container<E> for Reservoir<E> {
    fn insert(&mut self, item: E, rng: &mut SmallRng) -> Insert<E> {
        let key = item.key();
        if let Some(&i) = self.index.get(&key) {
            // Equal keys of different values (a 64-bit hash collision) are
            // treated as full: the newcomer is dropped.
            return if self.items[i].same(&item) { Insert::Duplicate } else { Insert::Dropped(item) };
        }
        self.seen += 1;
        if self.items.len() < self.bound {
            self.index.insert(key, self.items.len());
            self.items.push(item);
            return Insert::Added;
        }
        let j = rng.random_range(0..self.seen);
        if j < self.bound as u64 {
            let j = j as usize;
            self.index.remove(&self.items[j].key());
            self.index.insert(key, j);
            Insert::Replaced(std::mem::replace(&mut self.items[j], item))
        } else {
            Insert::Dropped(item)
        }
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
}
