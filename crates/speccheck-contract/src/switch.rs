//! When run-time checks run: in tests and debug builds by default, not in
//! release builds, unless the environment says otherwise:
//!
//! * `SPECCHECK_CONTRACTS=off` turns them off, `on` turns them on (release
//!   builds included), and a rate such as `0.01` checks about one call in
//!   a hundred at each contracted function (every `1/rate`-th call, so a
//!   run is reproducible);
//! * the cargo feature `release-checks` turns them on in release builds.
//!
//! Generated contract tests and examples check every call whatever the
//! setting ([`forced`]).

use std::cell::Cell;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// The environment's setting: `None` when unset, else the check period
/// (0: never, 1: every call, n: every n-th call).
fn period_from_env() -> Option<u64> {
    static PERIOD: OnceLock<Option<u64>> = OnceLock::new();
    *PERIOD.get_or_init(|| parse(&std::env::var("SPECCHECK_CONTRACTS").ok()?))
}

/// Reads a `SPECCHECK_CONTRACTS` value; an unreadable one is ignored (with
/// a warning: a typo must not silently turn checks off).
fn parse(v: &str) -> Option<u64> {
    match v.trim() {
        "off" | "0" | "false" => Some(0),
        "on" | "1" | "true" => Some(1),
        other => match other.parse::<f64>() {
            Ok(r) if r > 0.0 && r <= 1.0 => Some((1.0 / r).round().max(1.0) as u64),
            _ => {
                eprintln!(
                    "speccheck: SPECCHECK_CONTRACTS={other} is not `on`, `off` or a rate in (0, 1]; using the default"
                );
                None
            }
        },
    }
}

thread_local! {
    static FORCED: Cell<u32> = const { Cell::new(0) };
}

/// Runs `f` with every contract check on, whatever the setting (contract
/// tests and examples run their calls this way).
pub fn forced<R>(f: impl FnOnce() -> R) -> R {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            FORCED.with(|c| c.set(c.get() - 1));
        }
    }
    FORCED.with(|c| c.set(c.get() + 1));
    let _reset = Reset;
    f()
}

/// Whether this call of a contracted function is checked. `debug` is
/// `cfg!(debug_assertions)` where the function is compiled; `calls` counts
/// the function's calls (for sampling).
#[inline]
pub fn active(debug: bool, calls: &AtomicU64) -> bool {
    if FORCED.with(Cell::get) > 0 {
        return true;
    }
    let period = match period_from_env() {
        Some(p) => p,
        None if debug || cfg!(feature = "release-checks") => 1,
        None => 0,
    };
    match period {
        0 => false,
        1 => true,
        n => calls.fetch_add(1, Ordering::Relaxed).is_multiple_of(n),
    }
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn settings_read_as_periods() {
        assert_eq!(parse("off"), Some(0));
        assert_eq!(parse("on"), Some(1));
        assert_eq!(parse("0.01"), Some(100));
        assert_eq!(parse("0.3"), Some(3));
        assert_eq!(parse("sometimes"), None);
        assert_eq!(parse("2"), None);
    }
}
