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
    /// Inside [`traced`]: panics record their backtrace.
    static TRACE: Cell<bool> = const { Cell::new(false) };
    static LAST_TRACE: RefCell<Option<String>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();

fn install() {
    HOOK.call_once(|| {
        // speccheck's runner installs its hook lazily, on its first case;
        // make it install first so that ours is the outer one and sees
        // panics raised inside `capture` even within a runner case.
        let mut tc = speccheck_core::TestCase::random(0, 0);
        let _ = speccheck_core::case::run_in_place(&|_| speccheck_core::Outcome::Pass, &mut tc);
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if DEPTH.with(Cell::get) > 0 {
                let message = info
                    .payload_as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| "<non-string panic payload>".to_string());
                let location = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
                LAST.with(|p| *p.borrow_mut() = Some(Caught { message, location }));
                if TRACE.with(Cell::get) {
                    let bt = std::backtrace::Backtrace::capture();
                    if bt.status() == std::backtrace::BacktraceStatus::Captured {
                        LAST_TRACE.with(|t| *t.borrow_mut() = Some(bt.to_string()));
                    }
                }
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

/// Runs `f` (which captures panics) and returns, with its result, the
/// backtrace of the last panic it caught, when backtraces are on
/// (`RUST_BACKTRACE`): for the one re-run of a reported failure, as
/// capturing one costs far more than a call.
pub(crate) fn traced<R>(f: impl FnOnce() -> R) -> (R, Option<String>) {
    install();
    TRACE.with(|t| t.set(true));
    LAST_TRACE.with(|t| t.borrow_mut().take());
    let r = f();
    TRACE.with(|t| t.set(false));
    (r, LAST_TRACE.with(|t| t.borrow_mut().take()))
}

/// The innermost frame of `backtrace` (std's format) in crate `krate`:
/// `file:line:col (function)`.
pub(crate) fn first_frame_in(backtrace: &str, krate: &str) -> Option<String> {
    let mut lines = backtrace.lines().map(str::trim).peekable();
    while let Some(line) = lines.next() {
        let Some((n, symbol)) = line.split_once(": ") else { continue };
        if n.parse::<u32>().is_err() {
            continue;
        }
        let ours = symbol.starts_with(&format!("{krate}::")) || symbol.starts_with(&format!("<{krate}::"));
        if ours && let Some(at) = lines.peek().and_then(|l| l.strip_prefix("at ")) {
            return Some(format!("{at} ({symbol})"));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_frame_in_a_crate_is_found_in_a_backtrace() {
        let bt = "   0: std::panicking::begin_panic
             at /rustc/x/library/std/src/panicking.rs:10:5
   1: sized_chunks::sized_chunk::Chunk<A,N>::remove
             at /reg/sized-chunks-0.6.5/src/sized_chunk/mod.rs:700:9
   2: im::nodes::btree::Node<A>::remove_index
             at /reg/im-15.0.0/src/nodes/btree.rs:612:17
   3: <im::ord::map::OrdMap<K,V> as deep::Map>::remove
             at ./tests/deep.rs:40:9";
        assert_eq!(
            first_frame_in(bt, "im").as_deref(),
            Some("/reg/im-15.0.0/src/nodes/btree.rs:612:17 (im::nodes::btree::Node<A>::remove_index)")
        );
        assert_eq!(first_frame_in(bt, "deep"), None);
        assert_eq!(first_frame_in(bt, "sized_chunks").map(|f| f.contains("mod.rs:700")), Some(true));
    }

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
