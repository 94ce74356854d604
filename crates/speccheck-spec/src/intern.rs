//! Identifiers of specs as `&'static str`.
//!
//! A measure binds its parameters and pattern variables at every call (a
//! call per node of the data it walks). A shared string (`Arc<str>`) cost
//! two atomic operations per binding, bound and unbound; a `&'static str`
//! costs none. The strings kept are the identifiers specs are written
//! with, each once, so what is kept for the process's life is bounded by
//! the specs' text.

use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};

/// `name`, kept for the process's life (once per distinct name). Each
/// thread looks in its own table first: a quantifier interns its variable
/// at every evaluation, and threads evaluating specs at once (a strategy's
/// producer and the run) would otherwise take turns at one lock.
pub(crate) fn intern(name: &str) -> &'static str {
    if let Some(kept) = SEEN.with(|s| s.borrow().get(name).copied()) {
        return kept;
    }
    let kept = intern_shared(name);
    SEEN.with(|s| s.borrow_mut().insert(kept));
    kept
}

/// `name` as kept, when it is: a lookup by a name never kept (a caller's
/// arbitrary string) keeps nothing.
pub(crate) fn interned(name: &str) -> Option<&'static str> {
    if let Some(kept) = SEEN.with(|s| s.borrow().get(name).copied()) {
        return Some(kept);
    }
    let kept = shared().lock().unwrap_or_else(|e| e.into_inner()).get(name).copied()?;
    SEEN.with(|s| s.borrow_mut().insert(kept));
    Some(kept)
}

thread_local! {
    /// This thread's view of [`shared`].
    static SEEN: std::cell::RefCell<HashSet<&'static str>> = std::cell::RefCell::new(HashSet::new());
}

/// [`intern`]'s table for every thread.
fn shared() -> &'static Mutex<HashSet<&'static str>> {
    static NAMES: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    NAMES.get_or_init(Mutex::default)
}

/// [`intern`] in the table for every thread.
fn intern_shared(name: &str) -> &'static str {
    let mut names = shared().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(kept) = names.get(name) {
        return kept;
    }
    let kept: &'static str = Box::leak(name.to_owned().into_boxed_str());
    names.insert(kept);
    kept
}

#[cfg(test)]
mod tests {
    use super::{intern, interned};

    #[test]
    fn a_name_is_kept_once() {
        let a = intern("speccheck_intern_test");
        let b = intern(&String::from("speccheck_intern_test"));
        assert_eq!(a, "speccheck_intern_test");
        assert!(std::ptr::eq(a, b));
        assert!(std::ptr::eq(interned("speccheck_intern_test").expect("kept"), a));
        assert_eq!(interned("speccheck_intern_never_kept"), None);
    }
}
