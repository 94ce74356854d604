//! `refsync [--bug NAME] A B STATE`: the bundled reference file
//! synchronizer (or, with `--bug`, one of its mutants) as a program, so a
//! tester can run it like any other synchronizer. See
//! `speccheck_fixtures::sync` for what it does and its exit codes.

#[cfg(unix)]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(speccheck_fixtures::sync::main_with_args(&args));
}

#[cfg(not(unix))]
fn main() {
    eprintln!("refsync: Unix only (it reads and sets permission bits)");
    std::process::exit(70);
}
