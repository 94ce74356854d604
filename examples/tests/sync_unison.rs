//! The file-synchronizer tester against Unison (Debian's package, which
//! `./run test` installs), through its built-in profile: the strict model
//! (Unison takes none of the freedoms), `$UNISON` and `$HOME` in the
//! sandbox. Not skipped when Unison is missing: that fails, naming the
//! install.

use speccheck::Config;
use speccheck::sync::Profile;
use speccheck::sync::session::Synchronizer;

#[test]
fn unison_passes_under_the_model_and_says_what_it_exercised() {
    let unison = Synchronizer::from_profile(Profile::unison());
    let (tester, tally) = unison.tester().unwrap_or_else(|e| panic!("{e}"));
    let r = tester.config(Config { cases: 150, seed: Some(21), database: None, ..Config::named("unison") }).run();
    let c = tally.get();
    println!("Unison: {}\n  exercised: {c}", r.run.summary());
    assert!(r.passed(), "{r}\n{}", r.final_execution.as_ref().map(|e| e.trace_lines()).unwrap_or_default());
    let finished: u64 = [0, 1].iter().filter_map(|code| c.exit_codes.get(code)).sum();
    assert!(finished > 150, "too few finished synchronizations: {c}");
    assert!(c.fewer_than(5).is_empty(), "too few {:?}: {c}", c.fewer_than(5));
}
