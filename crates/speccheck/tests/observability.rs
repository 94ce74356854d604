//! `SPECCHECK_OBSERVE`: every case and the run as JSON lines in
//! Hypothesis's observation schema (the fields Tyche reads).

use speccheck::{Property, RunVerdict, any, label, reject};

/// The keys the schema requires of a test case, and the only ones it allows.
const TEST_CASE_KEYS: [&str; 12] = [
    "type",
    "status",
    "status_reason",
    "representation",
    "arguments",
    "how_generated",
    "features",
    "coverage",
    "timing",
    "metadata",
    "property",
    "run_start",
];

fn observations(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .expect("the observation file")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

#[test]
fn every_case_and_the_run_are_observed_in_hypothesis_schema() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("observations.jsonl");
    let report = Property::new(any::<u8>())
        .named("observed \"quotes\"\nand lines")
        .configure(|c| {
            c.cases = 40;
            c.seed = Some(9);
            c.database = None;
            c.observe = Some(path.clone());
        })
        .run(|x: u8| {
            if x % 5 == 1 {
                reject("one in five");
            }
            label(if x > 127 { "high" } else { "low" });
            assert!(x <= 200, "above two hundred");
        });
    let lines = observations(&path);
    let cases: Vec<_> = lines.iter().filter(|l| l["type"] == "test_case").collect();
    for c in &cases {
        let keys: Vec<&str> = c.as_object().unwrap().keys().map(String::as_str).collect();
        let mut want = TEST_CASE_KEYS.to_vec();
        want.sort_unstable();
        let mut got = keys.clone();
        got.sort_unstable();
        assert_eq!(got, want, "{c}");
        assert_eq!(c["property"], "observed \"quotes\"\nand lines");
        assert!(c["representation"].as_str().unwrap().starts_with("input = "), "{c}");
        assert!(c["arguments"]["input"].is_string(), "{c}");
        assert!(c["run_start"].as_f64().unwrap() > 1.0e9, "{c}");
    }
    let count = |status: &str| cases.iter().filter(|c| c["status"] == status).count() as u64;
    assert_eq!(count("passed"), report.stats.passed, "{report}");
    assert_eq!(count("gave_up"), report.stats.discarded, "{report}");
    assert!(cases.iter().filter(|c| c["status"] == "gave_up").all(|c| c["status_reason"] == "one in five"));
    assert!(cases.iter().filter(|c| c["status"] == "passed").all(|c| c["timing"]["execute:test"].is_number()));
    assert!(
        cases
            .iter()
            .filter(|c| c["status"] == "passed")
            .all(|c| { c["features"].get("high").is_some() || c["features"].get("low").is_some() })
    );
    // A label is an event with no payload, as Hypothesis writes one.
    assert!(cases.iter().flat_map(|c| c["features"].get("high")).all(|v| v == ""), "labels are empty strings");
    assert!(matches!(report.verdict, RunVerdict::Failed(_)), "{report}");
    assert_eq!(count("failed"), 1, "the failing case as generation met it:\n{report}");
    let failed = cases.iter().find(|c| c["status"] == "failed").unwrap();
    assert!(failed["status_reason"].as_str().unwrap().contains("above two hundred"), "{failed}");
    let info = lines.last().unwrap();
    assert_eq!(info["type"], "info");
    assert!(info["content"].as_str().unwrap().contains("speccheck:"), "{info}");
    assert!(!report.to_string().contains("\u{1}"), "observations never show as labels:\n{report}");
}

#[test]
fn an_observation_file_that_cannot_be_written_is_a_warning_not_a_failure() {
    let report = Property::new(any::<u8>())
        .configure(|c| {
            c.cases = 10;
            c.database = None;
            c.observe = Some("/nonexistent-dir/x/observations.jsonl".into());
        })
        .run(|_: u8| true);
    assert!(report.passed(), "{report}");
    assert!(report.warnings.iter().any(|w| w.contains("SPECCHECK_OBSERVE")), "{report}");
}
