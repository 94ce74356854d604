//! Seeds and stable hashes: a run's seed, each case's seed derived from it,
//! and the name hash that keys seeds in CI, replay tags and database files.
//! Everything that must come out the same on every machine and every run
//! goes through here.

/// FNV-1a: a stable hash for names (seeds in CI, database file keys,
/// replay tags).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// A fresh seed for a run nobody gave one to.
pub(crate) fn random_seed() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    RandomState::new().hash_one(nanos)
}

/// SplitMix64: derives independent per-case seeds from the run seed, so a
/// case's input depends only on (run seed, case index) — never on the
/// thread that ran it.
pub fn case_seed(run_seed: u64, index: u64) -> u64 {
    let mut z = run_seed.wrapping_add(index.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
