//! The shrinker's tables, kept for the thread's next shrink.
//!
//! A shrink starts with room for a typical shrink's bookkeeping (a
//! kilo-node tree of known replays, a hash set of tried candidates): tens
//! of kilobytes, which the allocator serves from its slow path (1.3% of
//! a whole run on the SmartCheck benchmark's Reverse, a dozen short runs).
//! The thread's last shrink leaves its tables here, emptied, for the next.

use std::cell::RefCell;

use crate::choice::FingerprintSet;

/// A table larger than this (in entries) is freed, not kept: one huge
/// shrink must not pin its memory for the thread's life.
const LARGEST: usize = 1 << 16;

thread_local! {
    static TRIED: RefCell<Option<FingerprintSet>> = const { RefCell::new(None) };
}

/// The set of tried candidates, empty, with room for `n`.
pub(super) fn tried(n: usize) -> Tried {
    let kept = TRIED.try_with(|t| t.try_borrow_mut().ok().and_then(|mut t| t.take())).ok().flatten();
    let mut set = kept.unwrap_or_default();
    set.clear();
    set.reserve(n);
    Tried(set)
}

/// A set of tried candidates that goes back to the thread's spare when
/// dropped.
#[derive(Debug)]
pub(super) struct Tried(FingerprintSet);

impl Tried {
    /// Adds a fingerprint; false if it was there.
    pub(super) fn insert(&mut self, key: u64) -> bool {
        self.0.insert(key)
    }
}

impl Drop for Tried {
    fn drop(&mut self) {
        let set = std::mem::take(&mut self.0);
        if set.capacity() <= LARGEST {
            let _ = TRIED.try_with(|t| t.try_borrow_mut().map(|mut t| *t = Some(set)));
        }
    }
}
