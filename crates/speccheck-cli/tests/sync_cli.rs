//! `speccheck sync` as a script or CI job uses it: its exit status (0
//! passed, 1 failed, 2 could not test), its report, its JSON, and what bad
//! synchronizers get.

use std::process::Output;

mod common;

use common::text;

fn speccheck(args: &[&str]) -> Output {
    common::speccheck("sync", args)
}

#[test]
fn the_bundled_synchronizer_passes_and_a_mutant_is_rejected_with_json() {
    let o = speccheck(&["--executions", "15", "--steps", "20", "--seed", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("synchronizations: exit 0"), "the exit codes seen are counted:\n{}", text(&o));
    assert!(text(&o).contains("exercised: ") && text(&o).contains("conflicts "), "coverage is shown:\n{}", text(&o));

    let json = std::env::temp_dir().join(format!("speccheck-sync-{}.json", std::process::id()));
    let o = speccheck(&["--mutant", "delete-wins", "--seed", "1", "--json", json.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = text(&o);
    assert!(out.contains("REJECTED") && out.contains("sync"), "the rejection and its run are shown:\n{out}");
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["verdict"], "rejected", "{report}");
    assert!(report["failure"]["trace"].as_array().is_some_and(|t| !t.is_empty()), "{report}");
    assert!(report["replay"].as_str().is_some_and(|r| r.starts_with("SPECCHECK_REPLAY=")), "{report}");
    assert!(report["exit_codes"].as_object().is_some_and(|c| !c.is_empty()), "{report}");
    assert!(report["coverage"]["synchronizations"].as_u64().is_some_and(|n| n > 0), "{report}");
    let _ = std::fs::remove_file(json);
}

#[test]
fn mutants_are_listed_and_unknown_ones_refused() {
    let o = speccheck(&["--list-mutants"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).lines().count() >= 10);
    let o = speccheck(&["--mutant", "no-such-bug"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("delete-wins"), "the error names the valid mutants: {}", text(&o));
}

#[test]
fn a_command_that_cannot_be_run_is_refused_before_testing() {
    let o = speccheck(&["--command", "no-such-synchronizer {a} {b}", "--executions", "3"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("no-such-synchronizer"), "the error names the command: {}", text(&o));
    let o = speccheck(&["--command", "cp -r {a} /tmp/x", "--executions", "3"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("{b}"), "the error says what is missing: {}", text(&o));
}

#[test]
fn a_synchronizer_that_hangs_is_a_liveness_failure_naming_its_time_limit() {
    let o = speccheck(&["--command", "sleep 30 # {a} {b}", "--executions", "5", "--seed", "1", "--timeout", "1"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("LIVENESS") && text(&o).contains("1 s limit"), "{}", text(&o));
}

#[test]
fn a_pass_where_no_synchronization_finished_says_so() {
    // Exit 2 (stopped early) allows any subset of the propagations, none
    // included: a pass, but one that checked nothing a finished run does.
    let o = speccheck(&["--command", "exit 2 # {a} {b}", "--executions", "5", "--steps", "10", "--seed", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("no synchronization finished"), "{}", text(&o));
}

#[test]
fn a_profile_file_drives_the_synchronizer_and_a_bad_one_is_refused_naming_what_is_wrong() {
    let dir = tempfile_dir();
    let good = dir.join("stops.toml");
    std::fs::write(&good, "name = \"always stops\"\ncommand = \"exit 2 # {a} {b}\"\n").unwrap();
    let o = speccheck(&["--profile", good.to_str().unwrap(), "--executions", "5", "--steps", "10", "--seed", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("always stops") && text(&o).contains("no synchronization finished"), "{}", text(&o));

    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "name = \"s\"\ncommand = \"s {a} {b}\"\n[freedoms]\nmerges_contents = true\n").unwrap();
    let o = speccheck(&["--profile", bad.to_str().unwrap(), "--executions", "3"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("unknown freedom `merges_contents`"), "{}", text(&o));

    let json = dir.join("rename.json");
    let unexpressible =
        r#"{"name": "s", "command": "s {a} {b}", "freedoms": {"conflict_rename": ["{name}.1", "{name}.2"]}}"#;
    std::fs::write(&json, unexpressible).unwrap();
    let o = speccheck(&["--profile", json.to_str().unwrap(), "--executions", "3"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("`conflict_rename` needs `no_directories`"), "{}", text(&o));

    let o = speccheck(&["--profile", "no-such-profile", "--executions", "3"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("rclone-bisync"), "the built-in profiles are named: {}", text(&o));
    let _ = std::fs::remove_dir_all(dir);
}

/// A fresh directory for this test's files.
fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("speccheck-sync-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
