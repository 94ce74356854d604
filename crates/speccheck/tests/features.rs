//! What a crate depending on `speccheck` at its default features gets: the
//! engine, the macros and the explanation step, and nothing of the spec
//! language or the contracts; a spec attribute used there is a compile
//! error that names the feature turning it on.
//!
//! Each test makes a throw-away crate beside this workspace's target
//! directory and runs cargo on it (offline: the workspace's own build has
//! fetched every dependency).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A crate depending on this `speccheck` at `features`, with `test` as its
/// only test file.
fn user_crate(name: &str, features: &str, test: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/feature-check").join(name);
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::create_dir_all(root.join("tests")).unwrap();
    let manifest = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dev-dependencies]\nspeccheck = {{ path = {:?}, {features} }}\n\n[workspace]\n",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::write(root.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(root.join("src/lib.rs"), "").unwrap();
    std::fs::write(root.join("tests/p.rs"), test).unwrap();
    root
}

fn cargo(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO"))
        .args(args)
        .arg("--offline")
        .current_dir(dir)
        // A target directory of its own: the outer `cargo test` may hold
        // the workspace's.
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs")
}

#[test]
fn the_default_build_has_no_spec_language_and_no_contracts() {
    let dir = user_crate("default_features", "default-features = true", "");
    let out = cargo(&dir, &["tree", "-e", "normal,dev", "--prefix", "none"]);
    let tree = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "cargo tree failed: {}", String::from_utf8_lossy(&out.stderr));
    for present in ["speccheck-core", "speccheck-derive", "speccheck-reduce"] {
        assert!(tree.contains(present), "{present} missing from the default build:\n{tree}");
    }
    for absent in ["speccheck-spec", "speccheck-contract", "speccheck-target", "speccheck-interface", "speccheck-dual"]
    {
        assert!(!tree.contains(absent), "{absent} is in the default build:\n{tree}");
    }
}

#[test]
fn a_refinement_without_the_target_feature_is_an_error_naming_it() {
    let test =
        "use speccheck::prelude::*;\n\n#[property]\nfn positive(#[refine(x > 0)] x: i32) {\n    assert!(x > 0);\n}\n";
    let dir = user_crate("refine_without_target", "default-features = true", test);
    let out = cargo(&dir, &["test", "--no-run"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "a refinement compiled without the `target` feature");
    assert!(
        stderr.contains("`#[refine]` needs speccheck's spec language: turn on the `target` feature"),
        "the error does not name the feature:\n{stderr}"
    );
}
