//! Buffers handed from one test case to the next on the same thread.
//!
//! A shrinker runs many short replays in a row, each filling a choice
//! buffer and a span buffer of about the same length; allocating, growing
//! and freeing them cost as much as the replays themselves. A finished
//! case's buffers come back here (when its [`CaseResult`] is dropped by an
//! engine that calls [`recycle`], or its replayed prefix when the case
//! ends), and the next case takes them, capacity kept. The shrinker's own
//! tables (its tree of known replays, its set of tried candidates) pass
//! from one shrink to the next the same way ([`take`], [`give`]).
//!
//! [`CaseResult`]: crate::case::CaseResult

use std::cell::RefCell;
use std::collections::HashSet;
use std::hash::{BuildHasher, Hash};

use crate::choice::Choice;
use crate::span::Span;

/// Buffers kept per kind and thread: a shrink has a few alive at once (the
/// best case, the candidate, its prefix).
const KEEP: usize = 8;
/// A buffer larger than this is freed, not kept (one huge case must not
/// pin its memory for the thread's life).
const LARGEST: usize = 1 << 16;

/// The buffers a thread keeps of one kind.
pub(crate) type Pool<B> = RefCell<Vec<B>>;

thread_local! {
    static CHOICES: Pool<Vec<Choice>> = const { RefCell::new(Vec::new()) };
    static SPANS: Pool<Vec<Span>> = const { RefCell::new(Vec::new()) };
}

/// A buffer that can be emptied and reused with its capacity.
pub(crate) trait Reusable: Default {
    /// Empties it, keeping its capacity.
    fn clear(&mut self);
    /// Room for at least `n` items in all.
    fn reserve_total(&mut self, n: usize);
    /// How many items fit without growing.
    fn capacity(&self) -> usize;
}

impl<T> Reusable for Vec<T> {
    fn clear(&mut self) {
        Vec::clear(self);
    }
    fn reserve_total(&mut self, n: usize) {
        self.reserve(n.saturating_sub(self.len()));
    }
    fn capacity(&self) -> usize {
        Vec::capacity(self)
    }
}

impl<K: Eq + Hash, S: BuildHasher + Default> Reusable for HashSet<K, S> {
    fn clear(&mut self) {
        HashSet::clear(self);
    }
    fn reserve_total(&mut self, n: usize) {
        self.reserve(n.saturating_sub(self.len()));
    }
    fn capacity(&self) -> usize {
        HashSet::capacity(self)
    }
}

/// An empty choice buffer with room for at least `n` choices.
pub(crate) fn choices(n: usize) -> Vec<Choice> {
    take(&CHOICES, n)
}

/// An empty span buffer with room for at least `n` spans.
pub(crate) fn spans(n: usize) -> Vec<Span> {
    take(&SPANS, n)
}

/// Gives a choice buffer back for the next case.
pub(crate) fn give_choices(v: Vec<Choice>) {
    give(&CHOICES, v);
}

/// Gives a span buffer back for the next case.
pub(crate) fn give_spans(v: Vec<Span>) {
    give(&SPANS, v);
}

/// An empty buffer from `pool` (a new one if it has none) with room for
/// at least `n` items.
pub(crate) fn take<B: Reusable + 'static>(pool: &'static std::thread::LocalKey<Pool<B>>, n: usize) -> B {
    let reused = pool.try_with(|p| p.try_borrow_mut().ok().and_then(|mut p| p.pop())).ok().flatten();
    let mut b = reused.unwrap_or_default();
    b.clear();
    b.reserve_total(n);
    b
}

/// Gives `b` back to `pool`, emptied, unless it is huge or the pool full.
pub(crate) fn give<B: Reusable + 'static>(pool: &'static std::thread::LocalKey<Pool<B>>, mut b: B) {
    if b.capacity() == 0 || b.capacity() > LARGEST {
        return;
    }
    b.clear();
    // During thread teardown the pool may be gone: the buffer is freed.
    let _ = pool.try_with(|p| {
        if let Ok(mut p) = p.try_borrow_mut()
            && p.len() < KEEP
        {
            p.push(b);
        }
    });
}

/// Gives the buffers of a finished case back for the next one (an engine
/// that runs many cases and drops most results calls this on each).
pub fn recycle(choices: Vec<Choice>, spans: Vec<Span>) {
    give_choices(choices);
    give_spans(spans);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::choice::ChoiceKind;

    #[test]
    fn a_given_buffer_comes_back_empty_with_its_capacity() {
        let mut v = choices(100);
        v.push(Choice::new(1, 2, ChoiceKind::Integer));
        let cap = v.capacity();
        give_choices(v);
        let again = choices(10);
        assert!(again.is_empty());
        assert!(again.capacity() >= cap.min(100));
    }

    #[test]
    fn huge_buffers_are_not_kept() {
        give_spans(Vec::with_capacity(LARGEST + 1));
        assert!(spans(0).capacity() <= LARGEST);
    }
}
