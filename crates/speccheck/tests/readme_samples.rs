//! Every Rust sample in README.md is one a user can copy as it is: each is
//! kept, verbatim and imports included, in a test file of this crate
//! (`tests/readme*.rs`), where it is compiled and its properties run.

use std::path::Path;

/// A text's lines as compared: trimmed (a sample may sit indented in a
/// test), blank lines dropped.
fn lines(text: &str) -> Vec<&str> {
    text.lines().map(str::trim).filter(|l| !l.is_empty()).collect()
}

/// The ```rust blocks of a markdown text.
fn rust_blocks(markdown: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in markdown.lines() {
        match &mut current {
            None if line.trim_start() == "```rust" => current = Some(Vec::new()),
            Some(block) if line.trim_start().starts_with("```") => {
                blocks.push(block.join("\n"));
                current = None;
            }
            Some(block) => block.push(line),
            None => {}
        }
    }
    blocks
}

/// True when `needle`'s lines appear, in order and together, in `hay`.
fn contains_block(hay: &[&str], needle: &[&str]) -> bool {
    needle.is_empty() || hay.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn every_readme_sample_is_a_tested_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("../../README.md")).expect("README.md");
    let mut tests = Vec::new();
    for entry in std::fs::read_dir(root.join("tests")).expect("tests/") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        if name.starts_with("readme") && name != "readme_samples.rs" && name.ends_with(".rs") {
            tests.push((name, std::fs::read_to_string(&path).expect("a test file")));
        }
    }
    let blocks = rust_blocks(&readme);
    assert!(blocks.len() >= 5, "README.md has {} Rust samples; expected its five", blocks.len());
    for (i, block) in blocks.iter().enumerate() {
        let needle = lines(block);
        let home = tests.iter().find(|(_, text)| contains_block(&lines(text), &needle));
        assert!(
            home.is_some(),
            "README.md's Rust sample {} (starting `{}`) is in no tests/readme*.rs file as written: copy it there \
             (and make it pass) or mark it as text",
            i + 1,
            needle.first().unwrap_or(&"")
        );
    }
}

#[test]
fn a_sample_that_changed_is_caught() {
    let test = lines("use a;\n\nfn f() {\n    g();\n}\n");
    assert!(contains_block(&test, &lines("fn f() {\ng();\n}")));
    assert!(!contains_block(&test, &lines("fn f() {\nh();\n}")));
    assert_eq!(rust_blocks("x\n```rust\nfn a() {}\n```\n```text\nno\n```\n"), vec!["fn a() {}".to_string()]);
}
