//! `build.sh` (the OSS-Fuzz / ClusterFuzzLite build script) run as
//! OSS-Fuzz runs it, on the stable toolchain (`SANITIZER=none`); each fuzzer
//! it builds then fuzzes from its seed corpus, as OSS-Fuzz starts a
//! campaign (at most five million executions; both bugs are found within
//! a few hundred thousand, seconds), and
//! runs on the crash input a campaign found for it (`fuzz/crashes/<target>/`,
//! the way a reproducer is run): each must find the bug, print speccheck's
//! report (shrunk input, failure, replay string) and save the shrunk input.
//! The fuzzers also convert a crash input to a replay string and back
//! (`SPECCHECK_FUZZ_REPLAY_OF`, `SPECCHECK_FUZZ_ENTRY_OF`), and refuse the
//! other target's string.
//! `bench/fuzz.sh` measures campaigns, from empty corpora too. Needs `cargo
//! fuzz` (`cargo install cargo-fuzz --locked`; `./run test` installs it),
//! and skips with a message without it, except under `CI`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn has_cargo_fuzz() -> bool {
    Command::new("cargo").args(["fuzz", "--version"]).output().is_ok_and(|o| o.status.success())
}

#[test]
fn build_sh_builds_fuzzers_that_report_their_bugs_as_speccheck_does() {
    if !has_cargo_fuzz() {
        let why = "`cargo fuzz` is not installed (cargo install cargo-fuzz --locked); build.sh was not run";
        // CI installs it (`./run test`): there a skip would hide that the
        // fuzz targets went untested.
        assert!(!under_ci(), "{why} (CI is set: this test must run)");
        eprintln!("SKIPPED: {why}");
        return;
    }
    let example = Path::new(env!("CARGO_MANIFEST_DIR"));
    let repo = example.join("../..").canonicalize().expect("the repository");
    let tmp = tempfile::tempdir().expect("a temporary directory");
    // OSS-Fuzz's layout: the checkout at $SRC/speccheck, fuzzers to $OUT.
    let src = tmp.path().join("src");
    let out = tmp.path().join("out");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    std::os::unix::fs::symlink(&repo, src.join("speccheck")).unwrap();
    // The fuzz crate's own target directory, apart from the workspace's
    // (its builds carry libFuzzer's instrumentation flags).
    let target_dir = std::env::var_os("SPECCHECK_FUZZ_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fuzz-build"));
    let built = Command::new("bash")
        .arg(example.join("build.sh"))
        .env("SRC", &src)
        .env("OUT", &out)
        .env("SANITIZER", "none")
        .env("CARGO_TARGET_DIR", &target_dir)
        .output()
        .expect("bash runs build.sh");
    assert!(built.status.success(), "build.sh failed:\n{}", String::from_utf8_lossy(&built.stderr));
    let mut replays = Vec::new();
    for (target, property, shrunk) in [
        ("parse", "speccheck_fuzz_example::parse_never_panics", "index out of bounds"),
        (
            "vault",
            "speccheck_fuzz_example::vault_never_overdraws",
            "commands = vec![Enter(1589660945), Enter(202374880), Withdraw(1)]",
        ),
    ] {
        let seeds = tmp.path().join(format!("{target}-seeds"));
        std::fs::create_dir_all(&seeds).unwrap();
        let unzip = Command::new("python3")
            .args(["-m", "zipfile", "-e"])
            .arg(out.join(format!("{target}_seed_corpus.zip")))
            .arg(&seeds)
            .status()
            .expect("python3 unzips the seed corpus");
        assert!(unzip.success());
        // A campaign from the seed corpus, as OSS-Fuzz starts one, then the
        // crash input a campaign found, as a reproducer is run.
        for campaign in [true, false] {
            let run = if campaign { "campaign" } else { "reproducer" };
            let corpus = tmp.path().join(format!("{target}-{run}-corpus"));
            let artifacts = tmp.path().join(format!("{target}-{run}-artifacts"));
            for d in [&corpus, &artifacts] {
                std::fs::create_dir_all(d).unwrap();
            }
            let mut fuzzer = Command::new(out.join(target));
            fuzzer.arg(format!("-artifact_prefix={}/", artifacts.display()));
            if campaign {
                // Bounded by executions, so that a slower machine gets the
                // same search: ten times the most a run from the seeds has
                // needed (`bench/results/fuzz.md`), with time as a backstop.
                fuzzer.arg("-runs=5000000").arg("-max_total_time=600").arg("-seed=1").arg(&corpus).arg(&seeds);
            } else {
                fuzzer.arg(example.join("fuzz/crashes").join(target).join("found-with-seed-1"));
            }
            // Read-only failure store: the run saves nothing in the checkout.
            let ran = fuzzer.env("SPECCHECK_DATABASE", "readonly").output().expect("the fuzzer runs");
            let stderr = String::from_utf8_lossy(&ran.stderr);
            // speccheck's own crates are not instrumented (speccheck-fuzz-rustc):
            // instrumented, they carry about 25,000 of libFuzzer's coverage
            // counters, scanned after every execution; the target's code and
            // what speccheck instantiates for its types, a few thousand.
            let counters: usize = stderr
                .split_once("inline 8-bit counters")
                .and_then(|(before, _)| before.rsplit_once('(')?.1.trim().parse().ok())
                .unwrap_or_else(|| panic!("{target}: libFuzzer did not say how many counters it loaded:\n{stderr}"));
            assert!(counters < 10_000, "{target}: {counters} coverage counters: speccheck's own code was instrumented");
            // From the seed corpus both bugs were found in every run, within
            // about 420,000 executions (`bench/results/fuzz.md`): five
            // million without it is a regression.
            assert!(!ran.status.success(), "{target}: no failure ({run}):\n{stderr}");
            for expected in [
                format!("speccheck: fuzz target `{property}` found a failing input; speccheck's report:"),
                format!("speccheck: `{property}` failed (panic)"),
                shrunk.to_string(),
                "replay: SPECCHECK_REPLAY=".to_string(),
                "libFuzzer: deadly signal".to_string(),
            ] {
                assert!(stderr.contains(&expected), "{target} ({run}): the output lacks `{expected}`:\n{stderr}");
            }
            let names: Vec<String> = std::fs::read_dir(&artifacts)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            if campaign {
                assert!(names.iter().any(|n| n.starts_with("crash-")), "{target}: no crash artifact in {names:?}");
            }
            assert!(names.iter().any(|n| n.starts_with("shrunk-")), "{target} ({run}): no shrunk input in {names:?}");
        }
        // The conversions, run through the fuzzer as `cargo fuzz run` runs
        // it: the crash input's replay string, and back to a corpus entry
        // that decodes to the same choices.
        let crash = example.join("fuzz/crashes").join(target).join("found-with-seed-1");
        let converted = Command::new(out.join(target)).env("SPECCHECK_FUZZ_REPLAY_OF", &crash).output().unwrap();
        let replay = String::from_utf8_lossy(&converted.stdout).trim().to_string();
        assert!(converted.status.success() && !replay.is_empty(), "{target}: no replay string:\n{converted:?}");
        let corpus = tmp.path().join(format!("{target}-converted"));
        std::fs::create_dir_all(&corpus).unwrap();
        let written =
            Command::new(out.join(target)).env("SPECCHECK_FUZZ_ENTRY_OF", &replay).arg(&corpus).output().unwrap();
        let entry = PathBuf::from(String::from_utf8_lossy(&written.stdout).trim());
        assert!(written.status.success() && entry.starts_with(&corpus), "{target}: no corpus entry:\n{written:?}");
        let again = Command::new(out.join(target)).env("SPECCHECK_FUZZ_REPLAY_OF", &entry).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&again.stdout).trim(), replay, "{target}: the entry is not the same input");
        replays.push((target, replay));
    }
    // A replay string is refused by the other property's fuzzer, by name.
    let [(first, replay), (second, _)] = &replays[..] else { unreachable!("two targets") };
    let corpus = tmp.path().join("refused");
    std::fs::create_dir_all(&corpus).unwrap();
    let refused = Command::new(out.join(second)).env("SPECCHECK_FUZZ_ENTRY_OF", replay).arg(&corpus).output().unwrap();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success() && stderr.contains("made for another property"),
        "{second} took {first}'s replay string:\n{stderr}"
    );
    assert_eq!(std::fs::read_dir(&corpus).unwrap().count(), 0, "nothing written for another property");
}

/// Whether `CI` says this is a CI run, as speccheck's own settings read it
/// (set, not empty, not `0` or `false`).
fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.trim().is_empty() && v != "0" && v != "false")
}
