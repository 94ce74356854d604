//! `speccheck-fuzz-rustc`: a `RUSTC_WRAPPER` for `cargo fuzz` that leaves
//! speccheck's own crates out of libFuzzer's coverage instrumentation.
//!
//! ```sh
//! cargo install speccheck-fuzz-rustc          # or: --path crates/speccheck-fuzz-rustc
//! RUSTC_WRAPPER=speccheck-fuzz-rustc cargo fuzz build --sanitizer none
//! RUSTC_WRAPPER=speccheck-fuzz-rustc cargo fuzz run <target>
//! ```
//!
//! `cargo fuzz` instruments every crate it builds (`-Cpasses=sancov-module`
//! and the `-sanitizer-coverage-*` options, through `RUSTFLAGS`). For a
//! speccheck fuzz target that includes speccheck's runner, shrinker and
//! explainer, which run only once a failure is found, and its draw
//! machinery. libFuzzer then scans their coverage counters after every
//! execution (most of the binary's counters) and calls its comparison hooks
//! from speccheck's internal branches, which also fill its table of
//! comparison operands, the one its mutations take values from, with
//! speccheck's own numbers. None of that is the code under test. Clang
//! users drop such code with `-fsanitize-coverage-ignorelist`; stable Rust
//! has no per-crate or per-function way, so this wrapper drops the
//! instrumentation options when cargo compiles one of speccheck's
//! packages (`CARGO_PKG_NAME`), and passes every other compilation through
//! unchanged. Sanitizers (`-Zsanitizer=…`) stay on for every crate.
//!
//! What stays instrumented: the crate under test, the property's body and
//! everything generic that speccheck instantiates for the property's types
//! (a derived generator's constructor choice, a collection's loop), as
//! `arbitrary`'s derived decoders are in a plain target. Packages of other
//! libraries whose coverage is noise can be added by name, comma-separated,
//! in `SPECCHECK_FUZZ_UNINSTRUMENTED`. Cargo does not know the wrapper reads
//! it: after changing it, rebuild those packages (`cargo clean -p <name>`,
//! or another `CARGO_TARGET_DIR`).

use std::ffi::OsString;
use std::process::{Command, ExitCode};

/// speccheck's library packages: the machinery around a property, never
/// the code under test. (Its fixtures of planted bugs are code under test,
/// and stay instrumented.)
const SPECCHECK_PACKAGES: &[&str] = &[
    "speccheck",
    "speccheck-core",
    "speccheck-reduce",
    "speccheck-spec",
    "speccheck-target",
    "speccheck-contract",
    "speccheck-interface",
    "speccheck-dual",
    "speccheck-http",
    "speccheck-sync",
];

/// The variable naming more packages to leave uninstrumented.
const EXTRA: &str = "SPECCHECK_FUZZ_UNINSTRUMENTED";

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let Some(rustc) = args.next() else {
        eprintln!(
            "speccheck-fuzz-rustc: a rustc wrapper; run it as cargo does:\n  \
             RUSTC_WRAPPER=speccheck-fuzz-rustc cargo fuzz build --sanitizer none"
        );
        return ExitCode::from(2);
    };
    let args: Vec<OsString> = args.collect();
    let package = std::env::var("CARGO_PKG_NAME").unwrap_or_default();
    let extra = std::env::var(EXTRA).unwrap_or_default();
    let args = if uninstrumented(&package, &extra) { without_coverage(args) } else { args };
    run(Command::new(rustc).args(args))
}

/// True when `package` is left out of the coverage instrumentation.
fn uninstrumented(package: &str, extra: &str) -> bool {
    SPECCHECK_PACKAGES.contains(&package) || extra.split(',').map(str::trim).any(|p| !p.is_empty() && p == package)
}

/// `args` without the coverage instrumentation's options:
/// `-Cpasses=sancov-module` (alone or in a list of passes), and the LLVM
/// options `-sanitizer-coverage-…` and `-simplifycfg-branch-fold-threshold`
/// (cargo fuzz's finer coverage) in `-Cllvm-args`. Each codegen option may
/// be one argument (`-Cx`, `--codegen=x`) or two (`-C x`, `--codegen x`);
/// every other argument is passed on as it came.
fn without_coverage(args: Vec<OsString>) -> Vec<OsString> {
    let mut out = Vec::with_capacity(args.len());
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let Some(text) = arg.to_str() else {
            out.push(arg);
            continue;
        };
        if text == "-C" || text == "--codegen" {
            let Some(value) = args.next() else {
                out.push(arg);
                break;
            };
            match value.to_str().map(codegen_option) {
                Some(Kept::Dropped) => {}
                Some(Kept::Changed(v)) => out.extend([arg, OsString::from(v)]),
                Some(Kept::Same) | None => out.extend([arg, value]),
            }
            continue;
        }
        let joined = text
            .strip_prefix("--codegen=")
            .map(|v| ("--codegen=", v))
            .or_else(|| text.strip_prefix("-C").map(|v| ("-C", v)));
        match joined.map(|(flag, v)| (flag, codegen_option(v))) {
            Some((_, Kept::Dropped)) => {}
            Some((flag, Kept::Changed(v))) => out.push(OsString::from(format!("{flag}{v}"))),
            Some((_, Kept::Same)) | None => out.push(arg),
        }
    }
    out
}

/// What is left of one codegen option (`-C`'s value).
#[derive(Debug, PartialEq, Eq)]
enum Kept {
    /// All of it.
    Same,
    /// A part of its list.
    Changed(String),
    /// Nothing.
    Dropped,
}

/// A codegen option with the coverage instrumentation taken out of its
/// list (rustc reads both `passes` and `llvm-args` as lists split on
/// white space).
fn codegen_option(value: &str) -> Kept {
    let (key, list, coverage): (&str, &str, fn(&str) -> bool) = if let Some(list) = value.strip_prefix("passes=") {
        ("passes=", list, |p| p == "sancov-module")
    } else if let Some(list) = value.strip_prefix("llvm-args=") {
        ("llvm-args=", list, |a| {
            let name = a.trim_start_matches('-');
            name.starts_with("sanitizer-coverage") || name.starts_with("simplifycfg-branch-fold-threshold")
        })
    } else {
        return Kept::Same;
    };
    let items: Vec<&str> = list.split_whitespace().collect();
    let kept: Vec<&str> = items.iter().copied().filter(|i| !coverage(i)).collect();
    if kept.len() == items.len() {
        Kept::Same
    } else if kept.is_empty() {
        Kept::Dropped
    } else {
        Kept::Changed(format!("{key}{}", kept.join(" ")))
    }
}

/// Runs rustc and exits as it did (on Unix, rustc takes this process's
/// place, so cargo's jobserver and signals reach it directly).
fn run(command: &mut Command) -> ExitCode {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let err = command.exec();
        eprintln!("speccheck-fuzz-rustc: cannot run {:?}: {err}", command.get_program());
        ExitCode::from(101)
    }
    #[cfg(not(unix))]
    match command.status() {
        Ok(status) => std::process::exit(status.code().unwrap_or(101)),
        Err(err) => {
            eprintln!("speccheck-fuzz-rustc: cannot run {:?}: {err}", command.get_program());
            ExitCode::from(101)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip(args: &[&str]) -> Vec<String> {
        without_coverage(args.iter().map(OsString::from).collect())
            .into_iter()
            .map(|a| a.into_string().unwrap())
            .collect()
    }

    #[test]
    fn cargo_fuzz_coverage_options_are_dropped_and_the_rest_kept() {
        // The options `cargo fuzz build` puts in RUSTFLAGS, as cargo passes them.
        let args = [
            "--crate-name",
            "speccheck_core",
            "-C",
            "opt-level=3",
            "-Cpasses=sancov-module",
            "-Cllvm-args=-sanitizer-coverage-level=4",
            "-Cllvm-args=-sanitizer-coverage-inline-8bit-counters",
            "-Cllvm-args=-sanitizer-coverage-pc-table",
            "-Cllvm-args=-sanitizer-coverage-trace-compares",
            "--cfg",
            "fuzzing",
            "-Cllvm-args=-simplifycfg-branch-fold-threshold=0",
            "-Cllvm-args=-sanitizer-coverage-stack-depth",
            "-Zsanitizer=address",
            "-Ccodegen-units=1",
        ];
        assert_eq!(
            strip(&args),
            [
                "--crate-name",
                "speccheck_core",
                "-C",
                "opt-level=3",
                "--cfg",
                "fuzzing",
                "-Zsanitizer=address",
                "-Ccodegen-units=1"
            ]
        );
    }

    #[test]
    fn split_options_and_lists_are_read() {
        assert_eq!(
            strip(&[
                "-C",
                "passes=sancov-module",
                "--codegen",
                "llvm-args=-sanitizer-coverage-level=4",
                "-C",
                "debuginfo=1"
            ]),
            ["-C", "debuginfo=1"]
        );
        // Lists are split on white space, as rustc splits them.
        assert_eq!(strip(&["-Cpasses=sancov-module lint"]), ["-Cpasses=lint"]);
        assert_eq!(strip(&["-C", "passes=lint sancov-module"]), ["-C", "passes=lint"]);
        assert_eq!(strip(&["-Cpasses=lint,sancov-module"]), ["-Cpasses=lint,sancov-module"]);
        assert_eq!(
            strip(&["--codegen=llvm-args=-sanitizer-coverage-level=4 -inline-threshold=9"]),
            ["--codegen=llvm-args=-inline-threshold=9"]
        );
        assert_eq!(strip(&["-Cllvm-args=-foo --sanitizer-coverage-level=4"]), ["-Cllvm-args=-foo"]);
        assert_eq!(strip(&["-C"]), ["-C"]);
    }

    #[cfg(unix)]
    #[test]
    fn arguments_that_are_not_text_pass_unchanged() {
        use std::os::unix::ffi::OsStringExt;
        let path = OsString::from_vec(b"link-arg=/tmp/\xff.o".to_vec());
        let raw = OsString::from_vec(vec![b'-', b'C', b'l', 0xff]);
        let args = vec![OsString::from("-C"), path.clone(), raw.clone(), OsString::from("-Cpasses=sancov-module")];
        assert_eq!(without_coverage(args), vec![OsString::from("-C"), path, raw]);
    }

    #[test]
    fn only_speccheck_packages_and_named_ones_are_left_out() {
        assert!(uninstrumented("speccheck-core", ""));
        assert!(uninstrumented("speccheck", ""));
        // The code under test, planted bugs included, stays instrumented.
        assert!(!uninstrumented("speccheck-fixtures", ""));
        assert!(!uninstrumented("speccheck-fuzz-example", ""));
        assert!(!uninstrumented("my-parser", ""));
        assert!(uninstrumented("serde_json", "rand, serde_json"));
        assert!(!uninstrumented("", ""));
        assert!(!uninstrumented("", " ,"));
    }

    /// The list names every library crate of this workspace that a fuzz
    /// target links, so a crate added later is not instrumented unnoticed.
    #[test]
    fn every_speccheck_library_crate_is_listed() {
        // Not linked into a target's code (a proc macro, a binary, this
        // tool), or code under test (the planted-bug fixtures).
        let not_machinery = ["speccheck-derive", "speccheck-cli", "speccheck-fuzz-rustc", "speccheck-fixtures"];
        let crates = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut found = Vec::new();
        for entry in std::fs::read_dir(&crates).expect("the crates directory") {
            let manifest = entry.expect("an entry").path().join("Cargo.toml");
            let Ok(text) = std::fs::read_to_string(&manifest) else { continue };
            let name = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("name = \"")?.strip_suffix('"'))
                .unwrap_or_else(|| panic!("{} names no package", manifest.display()))
                .to_string();
            if !not_machinery.contains(&name.as_str()) {
                assert!(SPECCHECK_PACKAGES.contains(&name.as_str()), "{name} is missing from SPECCHECK_PACKAGES");
                found.push(name);
            }
        }
        assert_eq!(found.len(), SPECCHECK_PACKAGES.len(), "SPECCHECK_PACKAGES names a crate that is gone: {found:?}");
    }
}
