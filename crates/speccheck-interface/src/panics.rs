//! Catching the panics of the API under test without printing them.
//!
//! A function that panics on an instance is either a counterexample or, if
//! the description allows it, a call that produced nothing; either way the
//! message must not be printed for each of the thousands of calls made.
//! A process-wide hook records the message and location of panics raised
//! inside [`capture`] on the current thread and passes every other panic
//! on to the hook that was there before (so speccheck's own runner hook
//! and the default hook keep working).

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

/// A panic caught by [`capture`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Caught {
    /// The panic message.
    pub message: String,
    /// Where it was raised (`file:line:col`), when known.
    pub location: Option<String>,
}

impl std::fmt::Display for Caught {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.location {
            Some(l) => write!(f, "panicked at {l}: {}", self.message),
            None => write!(f, "panicked: {}", self.message),
        }
    }
}

thread_local! {
    static DEPTH: Cell<u32> = const { Cell::new(0) };
    static LAST: RefCell<Option<Caught>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();

fn install() {
    HOOK.call_once(|| {
        // speccheck's runner installs its hook lazily, on its first case;
        // make it install first so that ours is the outer one and sees
        // panics raised inside `capture` even within a runner case.
        let mut tc = speccheck_core::TestCase::random(0, 0);
        let _ = speccheck_core::runner::case::run_in_place(&|_| speccheck_core::Outcome::Pass, &mut tc);
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if DEPTH.with(Cell::get) > 0 {
                let message = info
                    .payload_as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| "<non-string panic payload>".to_string());
                let location = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
                LAST.with(|p| *p.borrow_mut() = Some(Caught { message, location }));
            } else {
                previous(info);
            }
        }));
    });
}

/// Runs `f`, turning a panic into `Err` (recorded quietly).
pub fn capture<R>(f: impl FnOnce() -> R) -> Result<R, Caught> {
    install();
    DEPTH.with(|d| d.set(d.get() + 1));
    LAST.with(|p| p.borrow_mut().take());
    let r = panic::catch_unwind(AssertUnwindSafe(f));
    DEPTH.with(|d| d.set(d.get() - 1));
    r.map_err(|payload| {
        LAST.with(|p| p.borrow_mut().take()).unwrap_or_else(|| Caught {
            message: payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "<non-string panic payload>".to_string()),
            location: None,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panics_are_caught_with_their_location() {
        let r: Result<(), Caught> = capture(|| panic!("boom {}", 7));
        let c = r.unwrap_err();
        assert_eq!(c.message, "boom 7");
        assert!(c.location.unwrap().contains("panics.rs"));
        assert_eq!(capture(|| 3), Ok(3));
        // Nested captures keep working.
        let outer = capture(|| {
            let inner: Result<(), Caught> = capture(|| panic!("inner"));
            assert_eq!(inner.unwrap_err().message, "inner");
            panic!("outer")
        });
        assert_eq!(outer.unwrap_err().message, "outer");
    }
}
