//! Cold build of a crate with one property, speccheck against proptest, in
//! one run: two fresh crates (the same property, written for each tool,
//! each tool at its default features), each built from an empty target
//! directory with `cargo test --no-run`, alternating tool by tool; wall
//! time and the size of the target directory. Dependencies come from the
//! local registry cache (downloads are not timed: run `cargo fetch` in the
//! workspace first).
//!
//! ```text
//! cargo run --release -p speccheck-bench --bin cold_build -- [--runs N] [--out FILE]
//! ```

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use clap::Parser;
use speccheck_bench::{Summary, Table, machine};

#[derive(Parser, Debug)]
struct Args {
    /// Builds per tool.
    #[arg(long, default_value_t = 5)]
    runs: usize,
    /// Where to write the markdown results.
    #[arg(long)]
    out: Option<String>,
    /// Build this checkout's speccheck instead of the workspace's (to
    /// measure an earlier commit the same way: a `git worktree` of it).
    #[arg(long)]
    speccheck_path: Option<PathBuf>,
}

const SPECCHECK_TEST: &str = r#"use speccheck::prelude::*;

#[property]
fn reverse_twice(xs: Vec<u32>) {
    let mut r = xs.clone();
    r.reverse();
    r.reverse();
    assert_eq!(r, xs);
}
"#;

const PROPTEST_TEST: &str = r#"use proptest::prelude::*;

proptest! {
    #[test]
    fn reverse_twice(xs in proptest::collection::vec(any::<u32>(), 0..100)) {
        let mut r = xs.clone();
        r.reverse();
        r.reverse();
        prop_assert_eq!(r, xs);
    }
}
"#;

/// A one-property crate depending on `dependency`.
fn make_crate(root: &Path, name: &str, dependency: &str, test: &str) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(dir.join("src")).expect("crate dir");
    std::fs::create_dir_all(dir.join("tests")).expect("tests dir");
    let manifest = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[dev-dependencies]\n{dependency}\n\n[workspace]\n"
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).expect("manifest");
    std::fs::write(dir.join("src/lib.rs"), "").expect("lib");
    std::fs::write(dir.join("tests/property.rs"), test).expect("test");
    let status = Command::new("cargo").arg("generate-lockfile").arg("--offline").current_dir(&dir).status();
    if !status.is_ok_and(|s| s.success()) {
        // Not everything cached yet: resolve online once (not timed).
        let _ = Command::new("cargo").arg("generate-lockfile").current_dir(&dir).status();
    }
    let _ = Command::new("cargo").arg("fetch").current_dir(&dir).status();
    dir
}

fn dir_size(p: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(p) else { return 0 };
    entries
        .flatten()
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => dir_size(&e.path()),
            Ok(_) => e.metadata().map_or(0, |m| m.len()),
            Err(_) => 0,
        })
        .sum()
}

/// One cold build: seconds and megabytes of target.
fn build(dir: &Path) -> (f64, f64) {
    let target = dir.join("target");
    let _ = std::fs::remove_dir_all(&target);
    let start = Instant::now();
    let status = Command::new("cargo")
        .args(["test", "--no-run", "--offline", "--quiet"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", &target)
        .env_remove("RUSTFLAGS")
        .status()
        .expect("cargo runs");
    let secs = start.elapsed().as_secs_f64();
    assert!(status.success(), "the build of {} failed", dir.display());
    (secs, dir_size(&target) as f64 / 1e6)
}

fn main() {
    let args = Args::parse();
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace").to_path_buf();
    let root = std::env::temp_dir().join(format!("speccheck-cold-build-{}", std::process::id()));
    let checkout = args.speccheck_path.clone().unwrap_or(workspace);
    let speccheck_dep = format!("speccheck = {{ path = \"{}\" }}", checkout.join("crates/speccheck").display());
    let tools = [
        ("speccheck", make_crate(&root, "cold_speccheck", &speccheck_dep, SPECCHECK_TEST)),
        ("proptest", make_crate(&root, "cold_proptest", "proptest = \"1\"", PROPTEST_TEST)),
    ];
    let mut times = vec![Vec::new(); tools.len()];
    let mut sizes = vec![Vec::new(); tools.len()];
    for run in 0..args.runs {
        // Alternate which tool builds first, so neither always gets the
        // warmer page cache.
        for k in 0..tools.len() {
            let t = (k + run) % tools.len();
            let (secs, mb) = build(&tools[t].1);
            eprintln!("run {run}: {} {secs:.2} s, {mb:.0} MB", tools[t].0);
            times[t].push(secs);
            sizes[t].push(mb);
        }
    }
    let _ = std::fs::remove_dir_all(&root);

    let mut table =
        Table::new(&["tool", "build s (mean)", "sd", "p95", "target MB (mean)", "ratio time", "ratio size"]);
    let (base_t, base_s) = (Summary::of(&times[1]).mean, Summary::of(&sizes[1]).mean);
    for (k, (name, _)) in tools.iter().enumerate() {
        let (t, s) = (Summary::of(&times[k]), Summary::of(&sizes[k]));
        table.row(vec![
            name.to_string(),
            format!("{:.2}", t.mean),
            format!("{:.2}", t.sd),
            format!("{:.2}", t.p95),
            format!("{:.0}", s.mean),
            format!("{:.2}", t.mean / base_t),
            format!("{:.2}", s.mean / base_s),
        ]);
    }
    let text = format!(
        "# Cold build of a one-property crate\n\n`cargo run --release -p speccheck-bench --bin cold_build -- --runs {}`\n\n\
         {}\n\nEach tool at its default features; the same property (`reverse_twice` over `Vec<u32>`); `cargo test \
         --no-run` from an empty target directory, dependencies already downloaded; ratios against proptest.\n\n{}",
        args.runs,
        machine(),
        table.to_markdown()
    );
    match &args.out {
        Some(p) => std::fs::write(p, &text).expect("write the results"),
        None => print!("{text}"),
    }
}
