//! The file-synchronizer tester against Unison (Debian's package, which
//! `./run test` installs): Unison passes under the model, as this user.
//! Not skipped when Unison is missing: that fails, naming the install.

use speccheck::Config;
use speccheck::dual::tester::Tester;
use speccheck::sync::Sync;
use speccheck::sync::session::Synchronizer;

#[test]
fn unison_passes_under_the_model() {
    let unison = Synchronizer::new("unison {a} {b} -batch -confirmbigdel=false -silent");
    let target = unison.target().unwrap_or_else(|e| panic!("{e}"));
    let finished = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen = finished.clone();
    let r = Tester::new(Sync::detect(), target)
        .with_settings(|s| s.conns = 1)
        .on_execution(move |e| {
            let n = e.trace.iter().filter(|t| matches!(t.ir.get("exit").and_then(|c| c.as_i64()), Some(0 | 1))).count();
            seen.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        })
        .config(Config { cases: 150, seed: Some(21), database: None, ..Config::named("unison") })
        .run();
    assert!(r.passed(), "{r}");
    assert!(finished.load(std::sync::atomic::Ordering::Relaxed) > 150, "too few finished synchronizations:\n{r}");
}
