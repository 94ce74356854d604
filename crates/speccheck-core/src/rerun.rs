//! The `cargo test` command that reruns one test, for a report's replay
//! line: from what cargo told the compiler where the test was built (the
//! package, the test target) and the test's path as libtest names it.

/// The path libtest names a test by: its module path inside the crate
/// (`module` is `module_path!()`, which starts with the crate's name).
pub fn test_path(module: &str, name: &str) -> String {
    match module.split_once("::") {
        Some((_, rest)) => format!("{rest}::{name}"),
        None => name.to_string(),
    }
}

/// The `cargo test` command that reruns one property; `target` is the
/// test target's flag (`--lib`, `--test contracts`), when known.
pub fn rerun_command(package: &str, target: Option<&str>, module: &str, name: &str) -> String {
    command_for(package, target, &test_path(module, name))
}

/// The `cargo test` command that reruns the test at `path` (libtest's
/// name for it, as its thread is named) exactly.
pub fn command_for(package: &str, target: Option<&str>, path: &str) -> String {
    let target = target.map(|t| format!(" {t}")).unwrap_or_default();
    format!("cargo test -p {package}{target} -- {path} --exact")
}

/// The flag that names the test target a test was compiled in, from what
/// cargo told the compiler: `crate_name` (`CARGO_CRATE_NAME`), `bin`
/// (`CARGO_BIN_NAME`), `integration` (`CARGO_TARGET_TMPDIR` is set: an
/// integration test), and where the running test binary is (an example's
/// lives in `examples/`). `None` when it cannot be told: the command then
/// runs every target's test of that name.
pub fn test_target(crate_name: Option<&str>, bin: Option<&str>, integration: bool) -> Option<String> {
    if let Some(b) = bin {
        return Some(format!("--bin {b}"));
    }
    let crate_name = crate_name?;
    let exe = std::env::current_exe().ok()?;
    if exe.parent().and_then(|d| d.file_name()).is_some_and(|n| n == "examples") {
        return Some(format!("--example {crate_name}"));
    }
    if integration {
        return Some(format!("--test {crate_name}"));
    }
    Some("--lib".into())
}

/// The test running on this thread, as libtest names it (`cargo test`
/// runs each test on a thread named after its path), if this is one.
pub fn current_test() -> Option<String> {
    std::thread::current().name().filter(|n| *n != "main").map(str::to_string)
}
