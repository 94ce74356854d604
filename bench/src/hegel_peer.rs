//! hegeltest (Hypothesis's engine for Rust, library `hegel`) as a peer in
//! the benchmarks: one run of its own runner, at its defaults but the
//! search budget and seed, with no example database, and the shrunk
//! counterexample it ends with.

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::rc::Rc;
use std::sync::Once;

pub use hegel::generators as gs;
pub use hegel::{Generator, PrintableGenerator, TestCase};

/// The settings every hegeltest run uses: its default profile
/// (`Settings::new()`), but the search budget (`test_cases`), a fixed seed,
/// no example database, and no printing (`Verbosity::Quiet`, no
/// reproducer line), as the other tools print nothing either.
pub fn settings(cases: u64, seed: u64) -> hegel::Settings {
    hegel::Settings::new()
        .test_cases(cases)
        .seed(Some(seed))
        .database(hegel::Database::Disabled)
        .verbosity(hegel::Verbosity::Quiet)
        .print_blob(false)
}

thread_local! {
    /// Set while a run of ours is under way: its final panic (the failure
    /// it reports) is expected and not printed.
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

fn quiet_hook() {
    static INIT: Once = Once::new();
    INIT.call_once(|| {
        let prev = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !QUIET.get() {
                prev(info);
            }
        }));
    });
}

/// Runs hegeltest on `body`, which draws an input from the test case and
/// returns `Err(value)` when the property fails on it (a precondition
/// rejects with `tc.reject()`, hegeltest's only way). A failure panics, as
/// an `assert!` in a user's test would; hegeltest shrinks it and replays
/// the shrunk case last, so the last failing value is its counterexample.
/// Returns it, `Ok(None)` when every case passed, or the run's own error
/// (a failed health check, `Unsatisfiable`, …) as its message.
pub fn find<T: 'static>(
    settings: hegel::Settings,
    mut body: impl FnMut(&TestCase) -> Result<(), T>,
) -> Result<Option<T>, String> {
    quiet_hook();
    let last: Rc<RefCell<Option<T>>> = Rc::new(RefCell::new(None));
    let store = last.clone();
    QUIET.set(true);
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| {
        hegel::Hegel::new(move |tc: TestCase| {
            if let Err(v) = body(&tc) {
                *store.borrow_mut() = Some(v);
                panic!("property failed");
            }
        })
        .settings(settings)
        .run()
    }));
    QUIET.set(false);
    match outcome {
        Ok(()) => Ok(None),
        Err(payload) => match last.borrow_mut().take() {
            Some(v) => Ok(Some(v)),
            // Not a failure of the property: a health check or a run error.
            None => Err(payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "hegeltest stopped with a non-string panic".into())),
        },
    }
}

/// A vector whose length is uniform in `0..max_len`, as the other tools draw
/// it (`vec(_, 0..100)`): the length first, then exactly that many elements.
/// hegeltest's own `vecs(..).max_size(99)` draws far shorter vectors (an
/// average of about five elements, Hypothesis's default), which would not
/// compare like for like.
pub fn vec_uniform_len<T, G>(tc: &TestCase, max_len: usize, element: G) -> Vec<T>
where
    G: hegel::Generator<T> + hegel::PrintableGenerator<T>,
    T: std::fmt::Debug + 'static,
{
    let n = tc.draw(gs::integers::<usize>().max_value(max_len - 1));
    tc.draw(gs::vecs(element).min_size(n).max_size(n))
}
