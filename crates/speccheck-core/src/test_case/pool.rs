//! Buffers handed from one test case to the next on the same thread.
//!
//! A shrinker runs many short replays in a row, each filling a choice
//! buffer and a span buffer of about the same length; allocating, growing
//! and freeing them cost as much as the replays themselves. A finished
//! case's buffers come back here (when its [`CaseResult`] is dropped by an
//! engine that calls [`recycle`], or its replayed prefix when the case
//! ends), and the next case takes them, capacity kept.
//!
//! [`CaseResult`]: crate::runner::case::CaseResult

use std::cell::RefCell;

use crate::choice::Choice;
use crate::span::Span;

/// Buffers kept per kind and thread: a shrink has a few alive at once (the
/// best case, the candidate, its prefix).
const KEEP: usize = 8;
/// A buffer larger than this is freed, not kept (one huge case must not
/// pin its memory for the thread's life).
const LARGEST: usize = 1 << 16;

thread_local! {
    static CHOICES: RefCell<Vec<Vec<Choice>>> = const { RefCell::new(Vec::new()) };
    static SPANS: RefCell<Vec<Vec<Span>>> = const { RefCell::new(Vec::new()) };
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

fn take<T: 'static>(pool: &'static std::thread::LocalKey<RefCell<Vec<Vec<T>>>>, n: usize) -> Vec<T> {
    let reused = pool.try_with(|p| p.try_borrow_mut().ok().and_then(|mut p| p.pop())).ok().flatten();
    let mut v = reused.unwrap_or_default();
    v.clear();
    v.reserve(n);
    v
}

fn give<T: 'static>(pool: &'static std::thread::LocalKey<RefCell<Vec<Vec<T>>>>, mut v: Vec<T>) {
    if v.capacity() == 0 || v.capacity() > LARGEST {
        return;
    }
    v.clear();
    // During thread teardown the pool may be gone: the buffer is freed.
    let _ = pool.try_with(|p| {
        if let Ok(mut p) = p.try_borrow_mut()
            && p.len() < KEEP
        {
            p.push(v);
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
