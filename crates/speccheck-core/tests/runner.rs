//! The runner's behaviour on good and bad properties.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use speccheck_core::gens::{self, Generator};
use speccheck_core::{Config, FailureKind, Property, RunReport, RunVerdict, any, assume};

fn quiet(name: &str) -> Config {
    Config { database: None, timeout: Some(Duration::from_secs(5)), seed: Some(42), ..Config::named(name) }
}

fn failed(r: &RunReport) -> &speccheck_core::runner::Counterexample {
    match &r.verdict {
        RunVerdict::Failed(c) => c,
        other => panic!("expected a failure, got {other:?}\n{r}"),
    }
}

#[test]
fn shrinks_to_the_minimal_counterexample() {
    let r = Property::new(any::<Vec<i32>>()).config(quiet("min")).run(|xs: Vec<i32>| xs.iter().all(|&x| x <= 100));
    let c = failed(&r);
    assert_eq!(c.inputs[0].1.to_line(), "[101]", "{r}");
}

#[test]
fn shrinks_through_dependent_generation() {
    // A length, then that many elements: flat_map shrinks as one sequence.
    let g = gens::ints(0..=20usize).flat_map(|n| gens::vec(gens::ints(0..=1000u32), n..=n));
    let r = Property::new(g).config(quiet("dep")).run(|xs: Vec<u32>| xs.iter().sum::<u32>() < 1000);
    let c = failed(&r);
    let line = c.inputs[0].1.to_line();
    assert_eq!(line, "[1000]");
}

#[test]
fn panics_are_failures_with_their_message_and_location() {
    let r = Property::new(any::<u8>()).config(quiet("panic")).run(|x: u8| {
        if x > 10 {
            panic!("too big: {x}");
        }
    });
    let c = failed(&r);
    assert_eq!(c.failure.kind, FailureKind::Panic);
    assert_eq!(c.failure.message, "too big: 11");
    assert!(c.failure.location.as_deref().unwrap().contains("runner.rs"));
}

#[test]
fn too_many_discards_name_the_precondition() {
    let r = Property::new(any::<u32>()).config(quiet("discards")).run(|x: u32| {
        assume(x == 12345);
    });
    match &r.verdict {
        RunVerdict::GaveUp { reason } => {
            assert!(reason.contains("assume at") && reason.contains("runner.rs"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
    let r = Property::new(any::<u32>()).config(quiet("discards2")).run(|x: u32| {
        speccheck_core::assume!(x % 1000 == 7);
    });
    match &r.verdict {
        RunVerdict::GaveUp { reason } => assert!(reason.contains("x % 1000 == 7"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_unsatisfiable_filter_is_an_error_not_a_hang() {
    let g = any::<u8>().filter("greater than 255", |&x| u16::from(x) > 255);
    let r = Property::new(g).config(quiet("filter")).run(|_: u8| true);
    match &r.verdict {
        RunVerdict::GaveUp { reason } => assert!(reason.contains("filter `greater than 255`"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn hangs_become_timeout_failures() {
    let config = Config { timeout: Some(Duration::from_millis(200)), ..quiet("hang") };
    let r = Property::new(any::<u8>()).config(config).run(|x: u8| {
        if x > 3 {
            std::thread::sleep(Duration::from_secs(3600));
        }
    });
    let c = failed(&r);
    assert_eq!(c.failure.kind, FailureKind::Timeout);
    assert!(!c.inputs.is_empty());
}

#[test]
fn flaky_properties_are_reported_as_flaky() {
    let calls = Arc::new(AtomicU32::new(0));
    let seen = calls.clone();
    let r = Property::new(any::<u8>()).config(quiet("flaky")).run(move |_: u8| {
        // Fails exactly once: on replay it passes.
        seen.fetch_add(1, Ordering::SeqCst) != 5
    });
    assert!(matches!(r.verdict, RunVerdict::Flaky(_)), "{r}");
    assert!(r.to_string().contains("FLAKY"));
}

#[test]
fn a_flaky_failure_does_not_hide_a_later_one_that_comes_back() {
    let odd_seen = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let seen = odd_seen.clone();
    let r = Property::new(any::<u8>()).config(quiet("flaky, then real")).run(move |x: u8| {
        // The first odd input fails, once only; every input from 200 on fails.
        let first_odd = x % 2 == 1 && !seen.swap(true, Ordering::SeqCst);
        !first_odd && x < 200
    });
    let c = failed(&r);
    assert_eq!(c.inputs[0].1.to_string(), "200", "{r}");
    assert!(r.warnings.iter().any(|w| w.contains("passed when run again (flaky)")), "{:?}", r.warnings);
    assert!(odd_seen.load(Ordering::SeqCst));
}

#[test]
fn same_seed_same_counterexample() {
    let run =
        || Property::new(any::<Vec<u16>>()).config(quiet("det")).run(|xs: Vec<u16>| xs.len() < 3 || xs[0] < xs[1]);
    let (a, b) = (run(), run());
    assert_eq!(failed(&a).choices, failed(&b).choices);
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let run = |threads| {
        let config = Config { threads, cases: 300, ..quiet("threads") };
        Property::new(any::<(u32, Vec<u8>)>()).config(config).run(|(x, v): (u32, Vec<u8>)| {
            speccheck_core::label(if v.is_empty() { "empty" } else { "non-empty" });
            assume(x % 3 != 0);
            x % 1000 != 999 || v.len() < 2
        })
    };
    let one = run(1);
    let four = run(4);
    assert_eq!(one.stats.passed, four.stats.passed);
    assert_eq!(one.stats.discarded, four.stats.discarded);
    assert_eq!(one.stats.labels, four.stats.labels);
    match (&one.verdict, &four.verdict) {
        (RunVerdict::Failed(a), RunVerdict::Failed(b)) => {
            assert_eq!(a.found_after, b.found_after);
            assert_eq!(a.choices, b.choices);
        }
        (RunVerdict::Passed, RunVerdict::Passed) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn failures_persist_and_replay_first() {
    let dir = std::env::temp_dir().join(format!("speccheck-persist-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let config = Config { database: Some(dir.clone()), database_writes: true, seed: None, ..quiet("persist") };
    let prop = |x: u64| x < 1_000_000;
    let first = Property::new(any::<u64>()).config(config.clone()).run(prop);
    let c = failed(&first);
    assert!(c.saved_to.is_some());
    let second = Property::new(any::<u64>()).config(config.clone()).run(prop);
    let c2 = failed(&second);
    assert_eq!(c2.found_after, 0, "replayed from the database");
    assert!(c2.source.as_deref().unwrap().contains("saved"));
    assert_eq!(c.choices, c2.choices);
    // Fixed: the entry goes away.
    let third = Property::new(any::<u64>()).config(config.clone()).run(|_: u64| true);
    assert!(third.passed());
    // Only the write-ahead journal (`.journal/`) is left.
    let files = std::fs::read_dir(&dir)
        .map(|d| d.flatten().filter(|e| !e.file_name().to_string_lossy().starts_with('.')).count());
    assert_eq!(files.unwrap_or(0), 0);
}

#[test]
fn corrupt_database_files_are_warnings() {
    let dir = std::env::temp_dir().join(format!("speccheck-corrupt-{}", std::process::id()));
    let db = speccheck_core::database::FailureDatabase::new(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(db.path_for("corrupt"), b"\x00\x01garbage").unwrap();
    let config = Config { database: Some(dir), ..quiet("corrupt") };
    let r = Property::new(any::<u8>()).config(config).run(|_: u8| true);
    assert!(r.passed());
    assert!(r.warnings.iter().any(|w| w.contains("corrupt")), "{:?}", r.warnings);
}

#[test]
fn stale_database_entries_are_dropped_with_a_warning() {
    let dir = std::env::temp_dir().join(format!("speccheck-stale-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let config = Config { database: Some(dir), database_writes: true, seed: Some(1), ..quiet("stale") };
    let r = Property::new(any::<Vec<u32>>()).config(config.clone()).run(|v: Vec<u32>| v.len() < 2);
    failed(&r);
    // The generator changes shape: the saved choices no longer fit.
    let r = Property::new(any::<(bool, String)>()).config(config).run(|_: (bool, String)| true);
    assert!(r.passed(), "{r}");
    assert!(r.warnings.iter().any(|w| w.contains("no longer fits")), "{:?}", r.warnings);
}

#[test]
fn replay_strings_reproduce_the_failure() {
    let r = Property::new(any::<i64>()).config(quiet("replay")).run(|x: i64| x > -50);
    let c = failed(&r);
    let config = Config { replay: Some(c.replay_string()), seed: Some(7), ..quiet("replay") };
    let again = Property::new(any::<i64>()).config(config).run(|x: i64| x > -50);
    assert_eq!(failed(&again).inputs, c.inputs);
}

#[test]
fn statistics_count_labels() {
    let r = Property::new(any::<Vec<u8>>()).config(quiet("labels")).run(|v: Vec<u8>| {
        speccheck_core::collect(&v.is_empty());
    });
    assert!(r.passed());
    assert_eq!(r.stats.labels.values().sum::<u64>(), 100);
    assert!(r.to_string().contains("% false"));
}

#[test]
fn exhaustive_runs_cover_every_input_up_to_the_depth() {
    let config = Config { exhaustive: Some(2), ..quiet("exhaustive") };
    let r = Property::new(any::<Vec<bool>>()).config(config).run(|_: Vec<bool>| true);
    assert!(r.passed());
    assert_eq!(r.stats.passed, 7, "{r}");
    assert!(r.notes.iter().any(|n| n.contains("every input up to depth 2")), "{:?}", r.notes);
}

#[test]
fn exhaustive_runs_find_the_smallest_counterexample_first() {
    let config = Config { exhaustive: Some(3), ..quiet("exhaustive-fail") };
    let r = Property::new(any::<Vec<bool>>()).config(config).run(|xs: Vec<bool>| xs.len() < 2 || xs[0] == xs[1]);
    let c = failed(&r);
    assert_eq!(c.inputs[0].1.to_line(), "[false, true]");
}

#[test]
fn exhaustive_runs_that_accept_nothing_give_up() {
    let config = Config { exhaustive: Some(2), ..quiet("exhaustive-none") };
    let r = Property::new(any::<u8>()).config(config).run(|x: u8| assume(x > 200));
    assert!(matches!(r.verdict, RunVerdict::GaveUp { .. }), "{r}");
}

#[test]
fn properties_that_draw_as_they_go_still_shrink() {
    // Everything is drawn inside the body: the choices at the start of the
    // body do not identify the input, so nothing may be skipped as "seen".
    let r = Property::new(gens::just(())).config(quiet("interactive")).run_with_case(|tc, ()| {
        let xs = tc.draw(&gens::vec(gens::ints(0..=1000u32), 0..20));
        xs.iter().sum::<u32>() <= 1000
    });
    let c = failed(&r);
    // Two elements (each at most 1000): "more", value, "more", value, "stop".
    assert_eq!(c.choices.len(), 5, "shrunk to a two-element vector: {r}");
}

#[test]
fn a_report_carries_the_typed_counterexample_and_the_time_to_find_it() {
    let r = Property::new((gens::vec(any::<u8>(), 0..20), gens::ints(0..=1000u32)))
        .config(quiet("typed"))
        .run(|(v, n): (Vec<u8>, u32)| v.len() < 3 || n < 10);
    let (v, n) = r.counterexample_value::<(Vec<u8>, u32)>().expect("the typed input");
    assert_eq!((v, n), (vec![0, 0, 0], 10), "{r}");
    // Another type is refused, not transmuted.
    assert!(r.counterexample_value::<Vec<u8>>().is_none());
    let found = r.stats.time_to_failure.expect("the time to the first failure");
    assert!(found <= r.stats.elapsed, "{found:?} after a run of {:?}", r.stats.elapsed);
    assert!(failed(&r).found_after >= 1);
    // A passing run found nothing, and says so.
    let pass = Property::new(any::<u8>()).config(quiet("typed_pass")).run(|_: u8| true);
    assert!(pass.stats.time_to_failure.is_none() && pass.counterexample_value::<u8>().is_none());
}

/// Every combinator is `Clone` when its parts are (a generator built once
/// and shared, as proptest's strategies are).
#[test]
fn every_combinator_is_clone() {
    fn clone_of<G: Generator + Clone>(g: &G) -> G {
        g.clone()
    }
    let base = gens::ints(0..10u8);
    let _ = clone_of(&base.map(|x| x + 1));
    let _ = clone_of(&base.map_inv(u16::from, |y| u8::try_from(*y).ok()));
    let _ = clone_of(&base.filter("odd", |x| x % 2 == 1));
    let _ = clone_of(&base.flat_map(|n| gens::vec(any::<bool>(), 0..=usize::from(n))));
    let _ = clone_of(&base.boxed());
    let _ = clone_of(&gens::one_of(vec![base.boxed(), gens::just(3u8).boxed()]));
    let _ = clone_of(&gens::select(vec![1, 2]));
    let _ = clone_of(&gens::subsequence(vec![1, 2], 0..2));
    let _ = clone_of(&gens::shuffle(gens::vec(base, 0..4)));
    let _ = clone_of(&gens::index(3));
    let _ = clone_of(&gens::uniform(0..9i64));
    let _ = clone_of(&gens::option(base));
    let _ = clone_of(&gens::result(base, any::<bool>()));
    let _ = clone_of(&gens::array::<_, 2>(base));
    let _ = clone_of(&gens::btree_map(base, base, 0..3));
    let _ = clone_of(&gens::resize(base, 4));
    let _ = clone_of(&gens::sized(|n| gens::ints(0..=n)));
    let _ = clone_of(&gens::from_fn(|tc| tc.draw(&gens::ints(0..3u8))));
    let _ = clone_of(&gens::recursive(base, 3, |sub| sub.map(|x| x / 2).boxed()));
    let _ = clone_of(&(base, gens::floats(0.0..1.0), any::<String>()));
}

#[test]
fn a_shrunk_input_that_does_not_fail_again_gives_way_to_the_one_found() {
    // Inputs of 5 or more elements always fail; smaller ones fail only the
    // first time they are run (a failure that needed more than the input).
    // Shrinking accepts such a small one; its final replay passes. The
    // input as found still fails: that is the counterexample, with a note.
    let seen = Arc::new(std::sync::Mutex::new(std::collections::HashSet::<Vec<u8>>::new()));
    let s = seen.clone();
    let r = Property::new(gens::vec(any::<u8>(), 0..20)).config(quiet("fall back")).run(move |xs: Vec<u8>| {
        let first_time = s.lock().unwrap().insert(xs.clone());
        !(xs.len() >= 5 || (!xs.is_empty() && first_time))
    });
    let c = failed(&r);
    assert!(c.notes.iter().any(|n| n.contains("did not fail again")), "{r}");
    assert_eq!(r.counterexample_value::<Vec<u8>>().map(|xs| xs.len() >= 5), Some(true), "{r}");
}

/// An input recorded with more choices than the default bound (a long
/// program built by a search) replays whole: the replay is not cut short
/// and reported as a pass.
#[test]
fn a_replay_longer_than_the_choice_bound_runs_whole() {
    use speccheck_core::test_case::CaseControl;
    let n = 70_000;
    let g = gens::vec(any::<bool>(), n..=n);
    let mut tc = speccheck_core::TestCase::random(7, 100).with_max_choices(10 * n);
    let v = tc.draw(&g);
    assert_eq!(v.len(), n);
    let (choices, _) = tc.finish();
    assert!(choices.0.len() > speccheck_core::test_case::DEFAULT_MAX_CHOICES);
    let config = Config { start_from: Some(choices), shrink: false, ..quiet("long-replay") };
    let r = Property::new(g).config(config).run(move |xs: Vec<bool>| xs.len() < n);
    failed(&r);
}

/// A start that cannot be rebuilt is an error that says so, not a pass.
#[test]
fn a_start_that_cannot_be_rebuilt_is_not_a_pass() {
    let config = Config { start_from: Some(Default::default()), ..quiet("unrebuildable") };
    let g = gens::ints(0..=10u32).filter("over 100", |x: &u32| *x > 100);
    let r = Property::new(g).config(config).run(|_: u32| true);
    match &r.verdict {
        RunVerdict::Error(e) => assert!(e.contains("was not replayed"), "{e}"),
        other => panic!("expected an error, got {other:?}\n{r}"),
    }
}

/// The first input is the generator's simplest value (Hypothesis tries it
/// first): a bug that any input shows is found there, already minimal.
#[test]
fn the_simplest_input_runs_first() {
    let first = Arc::new(std::sync::Mutex::new(None));
    let seen = first.clone();
    let r = Property::new((gens::vec(any::<u8>(), 0..20), gens::ints(5..=1000u32))).config(quiet("simplest")).run(
        move |(v, n): (Vec<u8>, u32)| {
            seen.lock().unwrap().get_or_insert((v.clone(), n));
            v.len() > 100
        },
    );
    assert_eq!(first.lock().unwrap().clone(), Some((vec![], 5)));
    let c = failed(&r);
    assert_eq!(c.found_after, 1, "{r}");
    assert_eq!(r.counterexample_value::<(Vec<u8>, u32)>(), Some((vec![], 5)));
    assert_eq!(c.shrink.map(|s| s.improvements), Some(0), "nothing smaller to find: {r}");
    // Random inputs count after it: the run tests as many inputs as asked.
    let passing = Property::new(any::<u16>()).config(Config { cases: 50, ..quiet("simplest_pass") }).run(|_: u16| true);
    assert_eq!(passing.stats.passed, 50, "{passing}");
}

/// A generator that cannot make its simplest value (a filter rejecting it)
/// loses that one try, which is not counted; the run goes on at random.
#[test]
fn a_filter_rejecting_the_simplest_value_costs_nothing() {
    let g = any::<u8>().filter("odd", |x| x % 2 == 1);
    let r = Property::new(g).config(Config { cases: 50, ..quiet("simplest_filtered") }).run(|x: u8| x % 2 == 1);
    assert!(r.passed(), "{r}");
    assert_eq!((r.stats.passed, r.stats.invalid), (50, 0), "{r}");
}

/// A hang on the simplest input is reported as that input, the first.
#[test]
fn a_hang_on_the_simplest_input_is_reported_as_the_first_input() {
    let config = Config { timeout: Some(Duration::from_millis(200)), ..quiet("simplest_hang") };
    let r = Property::new(gens::ints(3..=9u8)).config(config).run(|x: u8| {
        if x == 3 {
            std::thread::sleep(Duration::from_secs(3600));
        }
    });
    let c = failed(&r);
    assert_eq!((c.failure.kind, c.found_after), (FailureKind::Timeout, 1), "{r}");
    assert_eq!(c.inputs[0].1.to_line(), "3", "{r}");
}

/// A shrink budget spent before the first step is reported as such, not as
/// "nothing smaller to try".
#[test]
fn a_shrink_budget_spent_before_any_step_is_not_called_a_minimum() {
    let config = Config { shrink_steps: 0, ..quiet("no_shrink_steps") };
    let r = Property::new(gens::vec(any::<u8>(), 0..50)).config(config).run(|v: Vec<u8>| v.len() < 5);
    let c = failed(&r);
    assert_eq!(c.shrink.map(|s| (s.steps, s.improvements)), Some((0, 0)), "{r}");
    let summary = r.summary();
    assert!(summary.contains("not shrunk (step budget reached)"), "{summary}");
    assert!(!summary.contains("nothing smaller"), "{summary}");
}

#[test]
fn a_time_budget_too_long_to_reach_is_no_deadline() {
    // `Duration::MAX` as "no budget" cannot be added to a clock reading.
    for threads in [1, 2] {
        let config = Config { time_budget: Some(Duration::MAX), cases: 50, threads, ..quiet("endless budget") };
        let r = Property::new(any::<u8>()).config(config).run(|_: u8| true);
        assert!(matches!(r.verdict, RunVerdict::Passed), "{r}");
        assert_eq!(r.stats.passed, 50, "{r}");
    }
}

/// Counts 10, 20, 30, … as inputs (an input source).
struct Tens(u8);

impl speccheck_core::InputSource<u8> for Tens {
    fn describe(&self) -> String {
        "tens".into()
    }
    fn next_input(&mut self) -> speccheck_core::SourceStep<u8> {
        self.0 += 10;
        if self.0 > 100 {
            return speccheck_core::SourceStep::Complete { what: "tens".into(), depth: None };
        }
        speccheck_core::SourceStep::Input(self.0)
    }
}

#[test]
fn a_hang_on_an_enumerated_or_sourced_input_is_reported_with_that_input() {
    let hangs_on = |target: u8| {
        move |x: u8| {
            if x == target {
                std::thread::sleep(Duration::from_secs(3600));
            }
        }
    };
    let config = |name: &str| Config { timeout: Some(Duration::from_millis(200)), ..quiet(name) };
    // Every input up to a depth: the hang is on the walk's input, not on a
    // random one of the same number.
    let exhaustive = Config { exhaustive: Some(2), ..config("hang while enumerating") };
    let r = Property::new(gens::ints(0..=9u8)).config(exhaustive).run(hangs_on(3));
    let c = failed(&r);
    assert_eq!(c.failure.kind, FailureKind::Timeout, "{r}");
    assert_eq!(c.inputs[0].1.to_line(), "3", "{r}");
    assert_eq!(c.found_after, 4, "inputs 0 to 3 ran: {r}");
    // An input source's inputs.
    let r = Property::new(any::<u8>()).config(config("hang on a sourced input")).inputs_from(Tens(0)).run(hangs_on(40));
    let c = failed(&r);
    assert_eq!(c.failure.kind, FailureKind::Timeout, "{r}");
    assert_eq!(c.inputs[0].1.to_line(), "40", "{r}");
    assert_eq!(c.found_after, 4, "{r}");
}

/// A store that counts its loads (a shared store's round trips).
#[derive(Debug, Default)]
struct CountingStore {
    loads: AtomicU32,
    failures: std::sync::Mutex<Vec<speccheck_core::database::StoredFailure>>,
}

impl speccheck_core::store::FailureStore for CountingStore {
    fn location(&self, _: &str) -> String {
        "counting://".into()
    }
    fn load(
        &self,
        _: &str,
    ) -> (Vec<speccheck_core::database::StoredFailure>, Vec<speccheck_core::database::DatabaseWarning>) {
        self.loads.fetch_add(1, Ordering::Relaxed);
        (self.failures.lock().unwrap().clone(), Vec::new())
    }
    fn save(&self, _: &str, f: speccheck_core::database::StoredFailure) -> std::io::Result<()> {
        self.failures.lock().unwrap().insert(0, f);
        Ok(())
    }
    fn remove(&self, _: &str, choices: &speccheck_core::choice::ChoiceSequence) -> std::io::Result<()> {
        self.failures.lock().unwrap().retain(|f| &f.choices != choices);
        Ok(())
    }
}

#[test]
fn a_run_reads_the_store_once() {
    let dir = std::env::temp_dir().join(format!("speccheck-store-once-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Arc::new(CountingStore::default());
    let config = Config {
        database: Some(dir.clone()),
        store: Some(store.clone()),
        database_writes: true,
        seed: None,
        ..quiet("store_once")
    };
    let loads = || store.loads.load(Ordering::Relaxed);
    // The saved-crash check and the replay phase share one read.
    let passed = Property::new(any::<u64>()).config(config.clone()).run(|_: u64| true);
    assert!(passed.passed(), "{passed}");
    assert_eq!(loads(), 1);
    let prop = |x: u64| x < 1_000_000;
    let first = Property::new(any::<u64>()).config(config.clone()).run(prop);
    failed(&first);
    assert_eq!(loads(), 2);
    assert_eq!(store.failures.lock().unwrap().len(), 1, "saved to the store");
    // What was read ahead is what the replay phase replays.
    let second = Property::new(any::<u64>()).config(config.clone()).run(prop);
    assert_eq!(failed(&second).found_after, 0, "replayed from the store");
    assert_eq!(loads(), 3);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_mix_per_case_reaches_many_distinct_values_and_its_failures_replay_on_any_executor() {
    use speccheck_core::runner::IntegerMix;
    // 2000 values of a 16-bit range, at least 1700 of them distinct: the
    // fixed mix gives about 1300 (a third of its draws are special values
    // or near 0), the cases that lean to values anywhere about 1830.
    let many_distinct = |v: Vec<u16>| v.iter().collect::<std::collections::HashSet<_>>().len() < 1700;
    let run = |integer_mix, threads| {
        let config = Config { cases: 200, integer_mix, threads, shrink: false, ..quiet("distinct") };
        Property::new(gens::vec(any::<u16>(), 2000..=2000)).config(config).run(many_distinct)
    };
    let fixed = run(IntegerMix::Fixed, 1);
    assert!(fixed.passed(), "{fixed}");
    let one = run(IntegerMix::PerCase, 1);
    let two = run(IntegerMix::PerCase, 2);
    // Found, and confirmed by the recorded re-run (the case's mix comes
    // from its seed, so the re-run draws the same values): not flaky.
    let (a, b) = (failed(&one), failed(&two));
    assert_eq!((a.found_after, &a.choices), (b.found_after, &b.choices));
}

#[test]
fn a_crash_journal_that_cannot_be_written_is_said() {
    // `.journal` taken by a file: no journal directory can be made there.
    let dir = std::env::temp_dir().join(format!("speccheck-nojournal-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(".journal"), b"not a directory").unwrap();
    let config = Config { database: Some(dir.clone()), database_writes: true, ..quiet("nojournal") };
    let r = Property::new(any::<u8>()).config(config).run(|_: u8| true);
    assert!(r.passed(), "{r}");
    assert!(r.warnings.iter().any(|w| w.contains("crash journal could not be written")), "{:?}", r.warnings);
    let _ = std::fs::remove_dir_all(&dir);
}

/// [`Tens`], saying whether its inputs come checked (see
/// `InputSource::prechecked`).
struct CheckedTens(Tens, bool);

impl speccheck_core::InputSource<u8> for CheckedTens {
    fn describe(&self) -> String {
        self.0.describe()
    }
    fn next_input(&mut self) -> speccheck_core::SourceStep<u8> {
        self.0.next_input()
    }
    fn prechecked(&self) -> bool {
        self.1
    }
}

#[test]
fn only_a_prechecked_sources_inputs_skip_the_refinement_checks_and_shrinking_checks_again() {
    // Which cases said their refinements were checked, by input: the
    // source's inputs say what the source says; the shrinker's candidates
    // (any value below 50) are checked again.
    let run = |prechecked: bool| {
        let seen: Arc<std::sync::Mutex<Vec<(u8, bool)>>> = Arc::default();
        let record = seen.clone();
        let r = Property::new(gens::ints(0..=255u8))
            .config(quiet("prechecked source"))
            .inputs_from(CheckedTens(Tens(0), prechecked))
            .run_with_case(move |tc, x: u8| {
                record.lock().unwrap().push((x, tc.refinements_prechecked()));
                assert!(x < 50);
            });
        (r, std::mem::take(&mut *seen.lock().unwrap()))
    };
    let (r, seen) = run(true);
    assert_eq!(failed(&r).inputs[0].1.to_line(), "50", "{r}");
    let sourced: Vec<_> = seen.iter().take(5).copied().collect();
    assert_eq!(sourced, [(10, true), (20, true), (30, true), (40, true), (50, true)], "{seen:?}");
    assert!(seen[5..].iter().all(|(_, p)| !p), "replays and shrinking check: {seen:?}");
    let (_, seen) = run(false);
    assert!(seen.iter().all(|(_, p)| !p), "{seen:?}");
}
