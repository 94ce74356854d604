//! Pools: the bounded containers of instances, one per type (ArtiCheck
//! §3.2, "sampling sets").
//!
//! Generation is breadth-first, and the number of instances grows
//! exponentially with the number of calls, so every pool has a bound and
//! a policy for what to keep once the bound is reached. The paper tried
//! three and found the last the most effective; all three are here,
//! behind one trait, one per file:
//!
//! * [`Buckets`] — a hash set of fixed-size buckets; a full bucket drops
//!   one of its elements (at random) to make room. Keeps a balance between
//!   old and new instances across the whole hash space.
//! * [`Reservoir`] — reservoir sampling (Knuth's algorithm R): every
//!   distinct instance offered has the same chance to be in the pool.
//! * [`PlainSet`] — a plain set that stops accepting once full.
//!
//! No container ever holds more than its bound.

mod buckets;
mod container;
mod plain;
mod reservoir;

pub use buckets::Buckets;
pub use container::{Container, Insert, PoolItem};
pub use plain::PlainSet;
pub use reservoir::Reservoir;

/// Which container pools use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContainerKind {
    /// Fixed-size hash buckets that drop an element when full (the
    /// paper's best).
    Buckets {
        /// Elements per bucket.
        bucket_size: usize,
    },
    /// Reservoir sampling.
    Reservoir,
    /// A plain set that stops growing at its bound.
    PlainSet,
}

impl Default for ContainerKind {
    fn default() -> Self {
        ContainerKind::Buckets { bucket_size: 8 }
    }
}

impl ContainerKind {
    /// A container of this kind holding at most `bound` items.
    pub fn make<E: PoolItem + 'static>(self, bound: usize) -> Box<dyn Container<E>> {
        match self {
            ContainerKind::Buckets { bucket_size } => Box::new(Buckets::new(bound, bucket_size)),
            ContainerKind::Reservoir => Box::new(Reservoir::new(bound)),
            ContainerKind::PlainSet => Box::new(PlainSet::new(bound)),
        }
    }

    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            ContainerKind::Buckets { .. } => "buckets",
            ContainerKind::Reservoir => "reservoir",
            ContainerKind::PlainSet => "plain set",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    fn fill(kind: ContainerKind, bound: usize, n: u64) -> Box<dyn Container<u64>> {
        let mut c = kind.make::<u64>(bound);
        let mut rng = SmallRng::seed_from_u64(1);
        for i in 0..n {
            c.insert(i, &mut rng);
            assert!(c.len() <= bound, "{kind:?} grew past its bound");
        }
        c
    }

    #[test]
    fn no_container_grows_past_its_bound() {
        for kind in [ContainerKind::Buckets { bucket_size: 8 }, ContainerKind::Reservoir, ContainerKind::PlainSet] {
            for bound in [1, 7, 100, 1000] {
                let c = fill(kind, bound, 20_000);
                assert!(c.len() <= bound);
                assert!(c.len() * 2 >= bound.min(8), "{kind:?} with bound {bound} holds only {}", c.len());
                let mut seen = std::collections::HashSet::new();
                c.for_each(&mut |x| assert!(seen.insert(*x), "{kind:?} holds a duplicate"));
            }
        }
    }

    #[test]
    fn duplicates_are_recognized() {
        for kind in [ContainerKind::Buckets { bucket_size: 4 }, ContainerKind::Reservoir, ContainerKind::PlainSet] {
            let mut c = kind.make::<u64>(100);
            let mut rng = SmallRng::seed_from_u64(1);
            assert_eq!(c.insert(5, &mut rng), Insert::Added);
            assert_eq!(c.insert(5, &mut rng), Insert::Duplicate);
            assert!(c.contains(&5));
            assert!(!c.contains(&6));
        }
    }

    #[test]
    fn sampling_containers_keep_late_items_and_the_plain_set_does_not() {
        let late = |c: &dyn Container<u64>| {
            let mut n = 0;
            c.for_each(&mut |x| n += usize::from(*x >= 10_000));
            n
        };
        let buckets = fill(ContainerKind::Buckets { bucket_size: 8 }, 1000, 20_000);
        let reservoir = fill(ContainerKind::Reservoir, 1000, 20_000);
        let plain = fill(ContainerKind::PlainSet, 1000, 20_000);
        assert_eq!(late(&*plain), 0);
        // Buckets favour recent items, the reservoir keeps a uniform sample.
        assert!(late(&*buckets) > 800, "{}", late(&*buckets));
        assert!((350..650).contains(&late(&*reservoir)), "{}", late(&*reservoir));
    }
}
