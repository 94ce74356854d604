//! A property as a libFuzzer target, for `cargo fuzz` (cargo feature
//! `fuzz`).
//!
//! ```text
//! // fuzz/fuzz_targets/header.rs
//! #![no_main]
//! speccheck::fuzz_target!(my_crate::header_round_trips);
//! ```
//!
//! The target runs the property `#[property] pub fn header_round_trips(…)`
//! of `my_crate` — its generator, settings and body, as its `#[test]`
//! does — on every input the fuzzer makes. The input's bytes are the
//! generator's choices ([`bytes`] documents the mapping: stable, and a
//! short input is a simple test case, never an error). A failure is
//! shrunk, explained and replayed by speccheck, printed as the report
//! `cargo test` prints, saved to the property's failure store (the next
//! `cargo test` replays it first), and written as a corpus entry of the
//! shrunk input beside libFuzzer's crash artifact; then the process
//! aborts, so libFuzzer records the crash.
//!
//! Build with `RUSTC_WRAPPER=speccheck-fuzz-rustc` (the crate of that
//! name): `cargo fuzz` otherwise instruments speccheck's own crates too,
//! and libFuzzer then spends most of each execution on the coverage of
//! speccheck's runner and draw machinery, not on the code under test.
//!
//! Conversions, run through the target itself (`cargo fuzz run <target>`
//! with a variable set; the target does the conversion and exits):
//!
//! * `SPECCHECK_FUZZ_REPLAY_OF=<file>`: prints the replay string
//!   (`SPECCHECK_REPLAY=…`) of a corpus entry or crash artifact. An entry
//!   filed under another target (`corpus/<other>/…`) is refused by name.
//! * `SPECCHECK_FUZZ_ENTRY_OF=<replay string>`: writes the corpus entry of
//!   a replay string into the target's corpus directory (the first
//!   directory libFuzzer was given) and prints its path. A string made
//!   for another property is refused by name.

use std::io::Write as _;
use std::path::{Path, PathBuf};

pub use libfuzzer_sys::Corpus;
pub use speccheck_core::bytes;
pub use speccheck_core::runner::{AsFuzzTarget, FuzzError, FuzzOutcome, FuzzTarget};

/// Reads a replay string out of a corpus entry (see the module
/// documentation).
pub const REPLAY_OF: &str = "SPECCHECK_FUZZ_REPLAY_OF";
/// Writes a replay string's corpus entry (see the module documentation).
pub const ENTRY_OF: &str = "SPECCHECK_FUZZ_ENTRY_OF";

/// libFuzzer's initialization hook: does the conversion a variable asks
/// for and exits, or returns to fuzzing.
pub fn init(target: &FuzzTarget) {
    let args: Vec<String> = std::env::args().collect();
    let name = target_name(&args);
    let done = if let Some(path) = std::env::var_os(REPLAY_OF) {
        Some(target.replay_string_of_file(Path::new(&path), &name).map(|s| println!("{s}")))
    } else if let Ok(replay) = std::env::var(ENTRY_OF) {
        Some(write_entry(target, &replay, &args))
    } else {
        None
    };
    match done {
        None => {}
        Some(Ok(())) => std::process::exit(0),
        Some(Err(e)) => {
            eprintln!("speccheck: {e}");
            std::process::exit(2);
        }
    }
}

/// libFuzzer's entry point: runs the property on `bytes`; on a failure,
/// prints speccheck's report, saves the shrunk input and aborts.
pub fn run(target: &FuzzTarget, bytes: &[u8]) -> Corpus {
    match target.check(bytes) {
        FuzzOutcome::Passed => Corpus::Keep,
        FuzzOutcome::Rejected => Corpus::Reject,
        FuzzOutcome::Failed(report) => {
            let mut out = format!(
                "\nspeccheck: fuzz target `{}` found a failing input; speccheck's report:\n{report}\n",
                target.name()
            );
            if let Some(c) = report.counterexample() {
                let entry = bytes::to_bytes(&c.choices.0);
                let path = artifact_path(&std::env::args().collect::<Vec<_>>(), &entry);
                match std::fs::write(&path, &entry) {
                    Ok(()) => out.push_str(&format!(
                        "speccheck: the shrunk input, as a fuzzer input, is {} (libFuzzer saves the input as found)\n",
                        path.display()
                    )),
                    Err(e) => out.push_str(&format!("speccheck: could not write {}: {e}\n", path.display())),
                }
            }
            let _ = std::io::stderr().lock().write_all(out.as_bytes());
            std::process::abort()
        }
        FuzzOutcome::Error(report) => {
            eprintln!("\nspeccheck: fuzz target `{}` cannot run:\n{report}", target.name());
            std::process::exit(1)
        }
    }
}

/// The fuzz target's name: its executable's (`cargo fuzz` names the
/// binary after the target).
fn target_name(args: &[String]) -> String {
    let exe = args.first().map(Path::new);
    exe.and_then(Path::file_stem).and_then(|s| s.to_str()).unwrap_or("").to_string()
}

/// The value of libFuzzer's `-name=value` flag, if given.
fn flag<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter().skip(1).rev().find_map(|a| a.strip_prefix('-')?.strip_prefix(name)?.strip_prefix('='))
}

/// Where the shrunk failure goes: beside libFuzzer's own artifacts
/// (`-artifact_prefix`, which `cargo fuzz` sets to the target's
/// `artifacts/` directory), named after its contents as libFuzzer names
/// its crash files.
fn artifact_path(args: &[String], entry: &[u8]) -> PathBuf {
    let prefix = flag(args, "artifact_prefix").unwrap_or("./");
    PathBuf::from(format!("{prefix}shrunk-{:016x}", speccheck_core::seed::fnv1a(entry)))
}

/// Writes the corpus entry of `replay` into the target's corpus.
fn write_entry(target: &FuzzTarget, replay: &str, args: &[String]) -> Result<(), FuzzError> {
    let entry = target.corpus_entry(replay)?;
    // libFuzzer's positional arguments are its corpus directories; new
    // entries go to the first.
    let dir = args.iter().skip(1).find(|a| !a.starts_with('-') && Path::new(a).is_dir()).ok_or_else(|| {
        FuzzError("no corpus directory was given to write the entry to (cargo fuzz run gives one)".into())
    })?;
    let path = Path::new(dir).join(format!("speccheck-{:016x}", speccheck_core::seed::fnv1a(&entry)));
    std::fs::write(&path, &entry).map_err(|e| FuzzError(format!("cannot write {}: {e}", path.display())))?;
    println!("{}", path.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn reads_libfuzzer_flags_and_the_target_name() {
        let a = args(&["/t/release/header", "-artifact_prefix=/f/artifacts/header/", "corpus/header", "-runs=5"]);
        assert_eq!(target_name(&a), "header");
        assert_eq!(flag(&a, "artifact_prefix"), Some("/f/artifacts/header/"));
        assert_eq!(flag(&a, "runs"), Some("5"));
        assert_eq!(flag(&a, "max_len"), None);
        assert!(artifact_path(&a, b"x").starts_with("/f/artifacts/header/"));
    }
}
