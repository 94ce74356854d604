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

/// `name`, kept for the process's life (once per distinct name).
pub(crate) fn intern(name: &str) -> &'static str {
    static NAMES: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut names = NAMES.get_or_init(Mutex::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(kept) = names.get(name) {
        return kept;
    }
    let kept: &'static str = Box::leak(name.to_owned().into_boxed_str());
    names.insert(kept);
    kept
}

#[cfg(test)]
mod tests {
    use super::intern;

    #[test]
    fn a_name_is_kept_once() {
        let a = intern("speccheck_intern_test");
        let b = intern(&String::from("speccheck_intern_test"));
        assert_eq!(a, "speccheck_intern_test");
        assert!(std::ptr::eq(a, b));
    }
}
