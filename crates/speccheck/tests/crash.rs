//! Crash-safe runs, as `cargo test` shows them: this test binary runs its
//! own ignored properties in a child process and reads what they print.

use std::process::Command;

use speccheck::prelude::*;

/// Recurses without end: overflows any stack.
#[inline(never)]
#[allow(unconditional_recursion)]
fn deep_recursion(n: u64) -> u64 {
    let frame = std::hint::black_box([n; 64]);
    deep_recursion(frame[n as usize % 64] + 1) + frame[3]
}

#[property(isolate = true, explain = "reduce")]
#[ignore = "crashes on purpose: run in a child process by the tests below"]
fn crash_overflows_above_1000(x: u32) {
    if x > 1000 {
        std::hint::black_box(deep_recursion(u64::from(x)));
    }
}

#[property]
#[ignore = "run in a child process by the tests below"]
fn crash_neighbour_reverse(xs: Vec<u8>) {
    let mut r = xs.clone();
    r.reverse();
    r.reverse();
    assert_eq!(r, xs);
}

#[property]
#[ignore = "run in a child process by the tests below"]
fn crash_neighbour_sum(a: u16, b: u16) {
    assert_eq!(u32::from(a) + u32::from(b), u32::from(b) + u32::from(a));
}

#[property]
#[ignore = "run in a child process by the tests below"]
fn crash_neighbour_sort(mut xs: Vec<i32>) {
    xs.sort();
    assert!(xs.windows(2).all(|w| w[0] <= w[1]));
}

/// The output of this test binary running the ignored tests named `filter`.
fn run_child(filter: &str, env: &[(&str, &str)]) -> (bool, String) {
    let mut cmd = Command::new(std::env::current_exe().expect("the test binary"));
    cmd.args([filter, "--ignored", "--test-threads", "1"]).env("SPECCHECK_SEED", "5").env("SPECCHECK_DATABASE", "off");
    // The default profile (the failure database written), whatever runs us.
    cmd.env_remove("CI");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("the child runs");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr))
}

#[test]
fn a_stack_overflow_is_a_shrunk_crash_and_the_other_tests_still_run() {
    let (ok, text) = run_child("crash_", &[]);
    assert!(!ok, "the crashing property fails the run:\n{text}");
    assert!(text.contains("test crash_overflows_above_1000 ... FAILED"), "{text}");
    for neighbour in ["crash_neighbour_reverse", "crash_neighbour_sum", "crash_neighbour_sort"] {
        assert!(text.contains(&format!("test {neighbour} ... ok")), "{neighbour} did not pass:\n{text}");
    }
    assert!(text.contains("failed (crash)"), "{text}");
    assert!(text.contains("stack overflow"), "{text}");
    assert!(text.contains("x = 1001"), "not shrunk to the smallest crashing input:\n{text}");
    assert!(text.contains("test result: FAILED. 3 passed; 1 failed"), "{text}");
}

#[property]
#[ignore = "aborts the process on purpose: run in a child process by the tests below"]
fn abort_above_1000(x: u32) {
    if x > 1000 {
        std::process::abort();
    }
}

#[test]
fn a_crash_without_isolation_is_reported_on_the_next_run_from_the_journal() {
    let db = std::env::temp_dir().join(format!("speccheck-crash-db-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&db);
    let db_var = db.to_string_lossy().into_owned();
    // The first run dies with its process: nothing is reported…
    let (ok, first) = run_child("abort_above_1000", &[("SPECCHECK_DATABASE", &db_var)]);
    assert!(!ok && !first.contains("speccheck:"), "the first run should die mid-case:\n{first}");
    // …but the journal saw it, and the next run replays that seed isolated.
    let (ok, second) = run_child("abort_above_1000", &[("SPECCHECK_DATABASE", &db_var)]);
    // The saved crash is replayed isolated from then on: reported, not fatal.
    let (_, third) = run_child("abort_above_1000", &[("SPECCHECK_DATABASE", &db_var)]);
    let _ = std::fs::remove_dir_all(&db);
    assert!(third.contains("failed (crash) on a failure saved by an earlier run"), "{third}");
    assert!(!ok, "{second}");
    assert!(second.contains("under way when its process died mid-case"), "{second}");
    assert!(second.contains("failed (crash)"), "{second}");
    assert!(second.contains("SIGABRT"), "{second}");
    assert!(second.contains("x = 1001"), "{second}");
}

/// A value whose `Drop` panics when it is dropped by a failure unwinding:
/// the runtime aborts the process (a panic while panicking).
#[derive(Debug, Clone, Arbitrary)]
struct LoudOnUnwind(u32);

impl Drop for LoudOnUnwind {
    fn drop(&mut self) {
        if std::thread::panicking() {
            panic!("dropped while unwinding");
        }
    }
}

#[property(explain = "reduce")]
#[ignore = "aborts the process on purpose: run in a child process by the tests below"]
fn drop_panics_while_unwinding(v: LoudOnUnwind) {
    assert!(v.0 <= 1000, "too large");
}

#[test]
fn a_drop_that_panics_while_a_failure_unwinds_is_a_crash_reported_on_the_next_run() {
    let db = std::env::temp_dir().join(format!("speccheck-drop-db-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&db);
    let db_var = db.to_string_lossy().into_owned();
    let (ok, first) = run_child("drop_panics_while_unwinding", &[("SPECCHECK_DATABASE", &db_var)]);
    assert!(!ok && !first.contains("speccheck:"), "the first run should abort:\n{first}");
    let (ok, second) = run_child("drop_panics_while_unwinding", &[("SPECCHECK_DATABASE", &db_var)]);
    let _ = std::fs::remove_dir_all(&db);
    assert!(!ok, "{second}");
    assert!(second.contains("failed (crash)"), "{second}");
    assert!(second.contains("v = LoudOnUnwind(1001)"), "not shrunk to the smallest aborting input:\n{second}");
}

#[property(timeout_ms = 300, explain = "reduce")]
#[ignore = "hangs on purpose: run in a child process by the tests below"]
fn hang_above_1000(x: u32) {
    if x > 1000 {
        loop {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
}

#[test]
fn a_hang_is_shrunk_to_the_smallest_input_that_still_hangs() {
    let (ok, text) = run_child("hang_above_1000", &[]);
    assert!(!ok, "{text}");
    assert!(text.contains("failed (timeout)"), "{text}");
    assert!(text.contains("x = 1001"), "the hang was not shrunk:\n{text}");
    assert!(text.contains("shrunk in child"), "{text}");
}

#[property(timeout_ms = 250, explain = "reduce")]
#[ignore = "hangs on purpose: run in a child process by the tests below"]
fn hang_above_1000_slow_above_100(x: u32) {
    if x > 1000 {
        loop {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
    if x > 100 {
        // Slow, well inside the timeout: not a hang.
        std::thread::sleep(std::time::Duration::from_millis(120));
    }
}

#[test]
fn shrinking_a_hang_uses_the_users_timeout_so_a_slow_input_is_not_a_hang() {
    let (ok, text) = run_child("hang_above_1000_slow_above_100", &[]);
    assert!(!ok, "{text}");
    assert!(text.contains("failed (timeout)"), "{text}");
    // Every candidate kept while shrinking hung at the user's limit: the
    // report is an input above 1000 (1001 unless the shrink budget ran
    // out first), never one that is merely slow.
    let x: u32 = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("x = "))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no input in the report:\n{text}"));
    assert!(x > 1000, "shrunk to an input that only runs slowly:\n{text}");
}

#[property(isolate = true, shrink = false, cases = 200)]
#[ignore = "run in a child process by the tests below, with a mix per case"]
fn isolated_many_distinct(#[from(gens::vec(gens::any::<u16>(), 2000..=2000))] v: Vec<u16>) {
    let distinct = v.iter().collect::<std::collections::HashSet<_>>().len();
    assert!(distinct < 1700, "{distinct} distinct values");
}

#[test]
fn an_isolated_run_draws_each_case_with_the_mix_its_seed_picks() {
    // The child process draws the cases; the parent re-runs the failing one
    // recorded. Both must take the same mix for it, or the failure would
    // not come back (FLAKY).
    let (ok, text) =
        run_child("isolated_many_distinct", &[("SPECCHECK_INTEGER_MIX", "per-case"), ("SPECCHECK_SEED", "42")]);
    assert!(!ok, "{text}");
    assert!(text.contains("distinct values"), "{text}");
    assert!(!text.to_lowercase().contains("flaky"), "{text}");
}

#[property(isolate = true, max_discard_ratio = 100)]
#[ignore = "run in a child process by the tests below, to read its report"]
fn isolated_sorted_only(v: Vec<u32>) {
    speccheck::assume(v.windows(2).all(|w| w[0] <= w[1]));
}

#[test]
fn an_isolated_run_sends_how_large_its_inputs_grew_for_the_size_check() {
    let out = Command::new(std::env::current_exe().expect("the test binary"))
        .args(["isolated_sorted_only", "--ignored", "--exact", "--nocapture", "--test-threads", "1"])
        .env("SPECCHECK_SEED", "5")
        .env("SPECCHECK_DATABASE", "off")
        .env_remove("CI")
        .output()
        .expect("the child runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("the inputs checked stayed small"), "no size warning from the isolated run:\n{text}");
}
