//! A run reports what it did: nothing that did not do what its settings
//! say passes silently.

use speccheck::prelude::*;
use speccheck::{Config, Property, RunVerdict, enumerate};

#[derive(Arbitrary, Debug, Clone)]
enum Big {
    A(i64),
    B(String),
    C(u8),
    D(Box<Big>, Box<Big>),
    E(Box<Big>),
}

fn quiet(name: &str) -> Config {
    Config { database: None, seed: Some(3), ..Config::named(name) }
}

/// The argument list `#[property] fn p(x: T)` expands to.
fn one_argument<T: speccheck::Arbitrary + 'static>() -> impl Generator<Value = (T,)> {
    gens::arguments((gens::slot(any::<T>(), "x"),))
}

#[test]
fn an_exhaustive_run_that_stops_at_its_limit_is_incomplete_not_a_pass() {
    let config = Config { exhaustive: Some(6), max_enumerated: 20_000, ..quiet("big") };
    let r = Property::new(one_argument::<Big>()).config(config).run(|_: (Big,)| true);
    let RunVerdict::Incomplete { reason } = &r.verdict else { panic!("expected an incomplete run, got {r}") };
    assert!(!r.passed());
    // It says what was covered, how big the depth is, and what to change.
    assert!(reason.contains("stopped after 20000 inputs"), "{reason}");
    assert!(reason.contains("depth 6 was not covered"), "{reason}");
    assert!(reason.contains("it has about"), "{reason}");
    assert!(reason.contains("allow_partial"), "{reason}");
    assert!(r.to_string().contains("INCOMPLETE"), "{r}");
}

#[test]
fn a_partial_exhaustive_run_passes_only_when_allowed_and_says_so() {
    let config = Config { exhaustive: Some(6), max_enumerated: 5_000, allow_partial: true, ..quiet("big-partial") };
    let r = Property::new(one_argument::<Big>()).config(config).run(|_: (Big,)| true);
    assert!(r.passed(), "{r}");
    assert!(r.summary().contains("PARTIAL"), "{}", r.summary());
}

#[test]
fn a_complete_exhaustive_run_says_how_many_inputs_the_depth_has() {
    let config = Config { exhaustive: Some(2), ..quiet("complete") };
    let r = Property::new(one_argument::<Vec<bool>>()).config(config).run(|_: (Vec<bool>,)| true);
    assert!(r.passed(), "{r}");
    assert!(r.summary().contains("every input up to depth 2: 7 inputs"), "{}", r.summary());
}

#[test]
fn one_depth_means_the_same_for_enumerate_and_for_a_property() {
    for depth in 1..=4 {
        let direct = enumerate(&any::<Vec<Option<bool>>>(), depth).count() as u64;
        let config = Config { exhaustive: Some(depth), ..quiet("depths") };
        let r = Property::new(one_argument::<Vec<Option<bool>>>()).config(config).run(|_: (Vec<Option<bool>>,)| true);
        assert_eq!(r.stats.passed, direct, "depth {depth}: {r}");
    }
}

#[property(exhaustive = 6, max_enumerated = 2_000)]
#[should_panic(expected = "INCOMPLETE")]
fn exhaustive_attribute_fails_when_the_depth_is_not_covered(_b: Big) {}

#[property(exhaustive = 2)]
fn exhaustive_attribute_covers_the_same_depth_as_enumerate(xs: Vec<bool>) {
    assert!(xs.len() <= 2);
}

fn failing_report(name: &str, shrink: bool) -> speccheck::RunReport {
    let config = Config { shrink, explain: speccheck::ExplainMode::Off, ..quiet(name) };
    Property::new(one_argument::<Vec<u8>>()).config(config).run(|(xs,): (Vec<u8>,)| xs.iter().all(|&x| x < 200))
}

#[test]
fn a_replay_string_given_to_another_property_is_refused() {
    let r = failing_report("honesty::first", true);
    let replay = r.counterexample().expect("a failure").replay_string();
    let config = Config { replay: Some(replay.clone()), ..quiet("honesty::second") };
    let other = Property::new(one_argument::<Vec<u8>>()).config(config).run(|_: (Vec<u8>,)| true);
    let RunVerdict::Error(e) = &other.verdict else { panic!("expected a refusal, got {other}") };
    assert!(e.contains("made for another property") && e.contains("honesty::second"), "{e}");
    // Same name, other argument types: the string no longer describes an input.
    let config = Config { replay: Some(replay), ..quiet("honesty::first") };
    let changed = Property::new(one_argument::<Vec<u16>>()).config(config).run(|_: (Vec<u16>,)| true);
    let RunVerdict::Error(e) = &changed.verdict else { panic!("expected a refusal, got {changed}") };
    assert!(e.contains("inputs had another type"), "{e}");
}

#[test]
fn an_untagged_replay_string_that_does_not_fit_is_refused() {
    let seq = speccheck::ChoiceSequence(vec![speccheck::Choice::new(1, 1, speccheck::ChoiceKind::More); 3]);
    let config = Config { replay: Some(seq.to_replay_string()), ..quiet("honesty::untagged") };
    let r = Property::new(one_argument::<bool>()).config(config).run(|_: (bool,)| true);
    assert!(matches!(r.verdict, RunVerdict::Error(ref e) if e.contains("does not")), "{r}");
}

#[test]
fn replaying_a_reported_counterexample_shows_that_counterexample() {
    // An unshrunk failure: replaying it must not shrink it to another value.
    let r = failing_report("honesty::as-given", false);
    let cx = r.counterexample().expect("a failure");
    let config = Config { replay: Some(cx.replay_string()), ..quiet("honesty::as-given") };
    let again =
        Property::new(one_argument::<Vec<u8>>()).config(config).run(|(xs,): (Vec<u8>,)| xs.iter().all(|&x| x < 200));
    let shown = again.counterexample().expect("the replay fails again");
    assert_eq!(shown.choices, cx.choices, "{again}");
    assert_eq!(shown.inputs[0].1.to_line(), cx.inputs[0].1.to_line());
    assert!(again.summary().contains("SPECCHECK_REPLAY"), "{}", again.summary());
    // A replayed input that passes says that only it was run.
    let config = Config { replay: Some(cx.replay_string()), ..quiet("honesty::as-given") };
    let fixed = Property::new(one_argument::<Vec<u8>>()).config(config).run(|_: (Vec<u8>,)| true);
    assert!(fixed.passed() && fixed.summary().contains("one replayed input"), "{fixed}");
}

#[test]
fn the_final_replay_runs_on_a_thread_of_the_callers_own() {
    // Pooled workers were started by whichever test came first: what the
    // property prints on its final run must go to this test's output, so
    // the final run happens on a thread this test started.
    let finals = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = finals.clone();
    let config = Config { timeout: Some(std::time::Duration::from_secs(5)), ..quiet("honesty::final-thread") };
    let r = Property::new(one_argument::<u8>()).config(config).run_with_case(move |tc, (x,): (u8,)| {
        if tc.is_final() {
            seen.lock().unwrap().push(std::thread::current().name().map(str::to_string));
        }
        x < 100
    });
    assert!(r.counterexample().is_some(), "{r}");
    assert_eq!(*finals.lock().unwrap(), vec![Some("speccheck-final".to_string())]);
}

/// A value whose `Debug` panics.
#[derive(Clone, PartialEq)]
struct Exploding(u8);

impl std::fmt::Debug for Exploding {
    fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        panic!("debug exploded")
    }
}

#[test]
fn a_panicking_debug_does_not_mask_the_propertys_failure() {
    let g = gens::ints(0..=255u8).map(Exploding);
    let r = Property::new(g).config(quiet("honesty::exploding")).run(|x: Exploding| assert!(x.0 < 10, "too large"));
    let c = r.counterexample().expect("a failure");
    assert!(c.failure.message.contains("too large"), "{:?}", c.failure);
    let shown: String = c.inputs.iter().map(|(_, t)| t.to_line()).collect();
    assert!(shown.contains("Debug panicked") && shown.contains("debug exploded"), "{shown}");
    // The report itself prints.
    assert!(r.to_string().contains("too large"));
}
