//! Fixed-size hash buckets that drop an element when full (ArtiCheck
//! §3.2, "sampling sets, done right").

use rand::Rng;
use rand::rngs::SmallRng;

use super::container::{Container, Insert, PoolItem};

/// A hash set made of `buckets × bucket_size` slots: an item goes to the
/// bucket its hash selects; when that bucket is full, one of its items,
/// chosen at random, makes room.
#[derive(Debug)]
pub struct Buckets<E> {
    buckets: Vec<Vec<E>>,
    bucket_size: usize,
    len: usize,
}

impl<E> Buckets<E> {
    /// Buckets holding at most `bound` items, `bucket_size` per bucket.
    pub fn new(bound: usize, bucket_size: usize) -> Self {
        let bound = bound.max(1);
        let bucket_size = bucket_size.clamp(1, bound);
        let n = (bound / bucket_size).max(1);
        Buckets { buckets: (0..n).map(|_| Vec::new()).collect(), bucket_size, len: 0 }
    }

    fn bucket(&self, key: u64) -> usize {
        // Lemire's multiply-shift reduction of a well-mixed hash.
        ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize
    }
}

impl<E: PoolItem> Container<E> for Buckets<E> {
    fn insert(&mut self, item: E, rng: &mut SmallRng) -> Insert<E> {
        let key = item.key();
        let b = self.bucket(key);
        let size = self.bucket_size;
        let bucket = &mut self.buckets[b];
        if bucket.iter().any(|e| e.key() == key && e.same(&item)) {
            return Insert::Duplicate;
        }
        if bucket.len() < size {
            bucket.reserve_exact(size - bucket.len());
            bucket.push(item);
            self.len += 1;
            return Insert::Added;
        }
        let j = rng.random_range(0..bucket.len());
        Insert::Replaced(std::mem::replace(&mut bucket[j], item))
    }

    fn len(&self) -> usize {
        self.len
    }

    fn bound(&self) -> usize {
        self.buckets.len() * self.bucket_size
    }

    fn for_each(&self, f: &mut dyn FnMut(&E)) {
        self.buckets.iter().flatten().for_each(f);
    }

    fn sample(&self, rng: &mut SmallRng) -> Option<&E> {
        if self.len == 0 {
            return None;
        }
        // A random slot of a random bucket: uniform while buckets are
        // full, which they soon are; a few misses fall back to a scan.
        for _ in 0..16 {
            let b = &self.buckets[rng.random_range(0..self.buckets.len())];
            let j = rng.random_range(0..self.bucket_size);
            if let Some(e) = b.get(j) {
                return Some(e);
            }
        }
        let n = rng.random_range(0..self.len);
        self.buckets.iter().flatten().nth(n)
    }

    fn contains(&self, item: &E) -> bool {
        let key = item.key();
        self.buckets[self.bucket(key)].iter().any(|e| e.key() == key && e.same(item))
    }
}
