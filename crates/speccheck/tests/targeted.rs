//! Targeted property-based testing: `target(score, label)` steers the
//! search toward inputs with higher scores (hill climbing after half of
//! the cases are generated).

use speccheck::{Property, RunVerdict, any, target};

/// Fails only at one point of a 2^64 plane: random inputs never reach it;
/// a score that rises as an input gets closer leads the climb there.
fn exact_point(x: u32, y: u32, steer: bool) -> bool {
    let distance = u64::from(x.abs_diff(1_000_000)) + u64::from(y.abs_diff(3_000_000));
    if steer {
        target(-(distance as f64), "closeness");
    }
    distance != 0
}

fn search(steer: bool, seed: u64) -> speccheck::RunReport {
    Property::new((any::<u32>(), any::<u32>()))
        .configure(|c| {
            c.cases = 4000;
            c.seed = Some(seed);
            c.database = None;
        })
        .run(move |(x, y)| exact_point(x, y, steer))
}

#[test]
fn hill_climbing_on_a_score_finds_what_random_inputs_miss() {
    for seed in 1..=3 {
        let random = search(false, seed);
        assert!(random.passed(), "random generation alone found it (the test shows nothing):\n{random}");
        let steered = search(true, seed);
        let RunVerdict::Failed(c) = &steered.verdict else {
            panic!("not found with a target, seed {seed}:\n{steered}")
        };
        assert!(c.source.as_deref().is_some_and(|s| s.contains("target phase")), "{steered}");
        assert!(steered.to_string().contains("1000000") && steered.to_string().contains("3000000"), "{steered}");
    }
}

#[test]
fn a_passing_run_reports_each_labels_best_score() {
    let report = Property::new(any::<u8>())
        .configure(|c| {
            c.cases = 200;
            c.database = None;
        })
        .run(|x: u8| target(f64::from(x), "value"));
    assert!(report.passed(), "{report}");
    let t = &report.stats.targets["value"];
    assert_eq!(t.best, 255.0, "the climb reaches the top of the range:\n{report}");
    assert!(t.best >= t.generated && t.climbs > 0, "{report}");
    assert_eq!(report.stats.passed, 200, "the target phase spends the run's cases, not more:\n{report}");
    assert!(report.to_string().contains("value: 255"), "{report}");
}

#[test]
fn a_score_that_is_not_a_number_is_an_error_naming_its_label() {
    let report = Property::new(any::<u8>()).configure(|c| c.database = None).run(|x: u8| {
        target(if x > 3 { f64::NAN } else { 1.0 }, "ratio of widgets");
    });
    let RunVerdict::Error(e) = &report.verdict else { panic!("{report}") };
    assert!(e.contains("\"ratio of widgets\"") && e.contains("NaN"), "{e}");
}

#[test]
fn a_target_phase_that_ends_early_says_so() {
    // Scores come only from the first cases: the best input does not
    // report one when run again, so there is nothing to climb from.
    let calls = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let seen = calls.clone();
    let report = Property::new(any::<u8>())
        .configure(|c| {
            c.cases = 100;
            c.database = None;
        })
        .run(move |x: u8| {
            if seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < 10 {
                target(f64::from(x), "early");
            }
        });
    assert!(report.passed(), "{report}");
    assert!(report.stats.passed < 100, "{report}");
    assert!(report.warnings.iter().any(|n| n.contains("target phase ended before the run's 100 cases")), "{report}");
}
