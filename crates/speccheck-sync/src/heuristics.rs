//! What the tester does next: generic to file synchronizers, not to any
//! one of them. Operations go mostly to paths that exist in either replica
//! (so that both sides change the same path: conflicts), new names go
//! under existing directories, and synchronizations come often enough that
//! histories build on agreed states. Symbolic links (dangling: their
//! targets are names the tester never makes), renames within a directory
//! and case-only renames (`x` to `X`) are generated too.

use rand::Rng;
use rand::rngs::SmallRng;
use serde_json::json;
use speccheck_dual::harness::jexp::JExp;
use speccheck_dual::protocol::View;

use crate::tree::{self, Node};
use crate::{Content, Sync};

/// Names of new files and directories (a small set, so paths meet).
const NAMES: [&str; 3] = ["x", "y", "z"];
/// What links point to: names never made (no name in [`NAMES`], or a
/// case variant of one), so links dangle.
const TARGETS: [&str; 2] = ["nowhere", "gone/away"];
/// Deepest path the tester creates.
const MAX_DEPTH: usize = 3;
/// Contents: empty, short, same-size pairs, a newline, and (rarely) a
/// large file, past any single buffer.
const TEXTS: [&str; 6] = ["", "a", "b", "hello", "world", "two\nlines"];
const LARGE: usize = 300_000;
const FILE_MODES: [u32; 6] = [0o644, 0o600, 0o755, 0o444, 0o640, 0o400];
const DIR_MODES: [u32; 5] = [0o755, 0o700, 0o555, 0o500, 0o750];

pub(super) fn propose(view: &View<'_, Sync>, rng: &mut SmallRng) -> JExp {
    // Paths that exist in either replica, in the first branch (after an
    // observed synchronization every branch agrees on the replicas).
    let (mut files, mut dirs, mut links) = (Vec::new(), Vec::new(), Vec::new());
    if let Some(s) = view.states.first() {
        for (p, e) in s.a.iter().chain(&s.b) {
            match e.as_const().and_then(|v| v.as_str()).map(tree::node) {
                Some(Node::Dir { .. }) => dirs.push(p.clone()),
                Some(Node::File { .. }) => files.push(p.clone()),
                Some(Node::Link { .. }) => links.push(p.clone()),
                _ => {}
            }
        }
    }
    files.sort();
    files.dedup();
    dirs.sort();
    dirs.dedup();
    links.sort();
    links.dedup();
    let at = if rng.random_bool(0.5) { "a" } else { "b" };
    let any = |rng: &mut SmallRng, xs: &[String]| xs.get(rng.random_range(0..xs.len().max(1))).cloned();
    let fresh = |rng: &mut SmallRng| -> String {
        let parents: Vec<&String> = dirs.iter().filter(|d| d.split('/').count() < MAX_DEPTH || d.is_empty()).collect();
        let parent = parents.get(rng.random_range(0..parents.len().max(1))).map_or("", |p| p.as_str());
        tree::join(parent, NAMES[rng.random_range(0..NAMES.len())])
    };
    let existing = |rng: &mut SmallRng| -> String {
        let all: Vec<String> =
            files.iter().chain(&links).chain(dirs.iter().filter(|d| !d.is_empty())).cloned().collect();
        if rng.random_bool(0.85) { any(rng, &all).unwrap_or_else(|| fresh(rng)) } else { fresh(rng) }
    };
    let op = |name: &str, path: String| vec![("op", JExp::lit(name)), ("at", JExp::lit(at)), ("path", JExp::lit(path))];
    let fields = match rng.random_range(0..100) {
        0..=29 => {
            let path = if !files.is_empty() && rng.random_bool(0.5) {
                any(rng, &files).unwrap_or_default()
            } else {
                fresh(rng)
            };
            let content = if rng.random_bool(0.04) {
                Content::Pattern(LARGE)
            } else {
                Content::Text(TEXTS[rng.random_range(0..TEXTS.len())].to_string())
            };
            let mut f = op("write", path);
            f.push((
                "content",
                JExp::lit(match content {
                    Content::Text(s) => json!(s),
                    Content::Pattern(n) => json!({"pattern": n}),
                }),
            ));
            f
        }
        30..=41 => op("mkdir", fresh(rng)),
        42..=50 => op("remove", existing(rng)),
        51..=60 => {
            let path = existing(rng);
            let modes: &[u32] = if dirs.contains(&path) { &DIR_MODES } else { &FILE_MODES };
            let mut f = op("chmod", path);
            f.push(("mode", JExp::lit(format!("{:03o}", modes[rng.random_range(0..modes.len())]))));
            f
        }
        61..=66 => op("read", existing(rng)),
        67..=70 => op("list", any(rng, &dirs).unwrap_or_default()),
        71..=72 => match any(rng, &links) {
            Some(link) if rng.random_bool(0.5) => op("remove", link),
            _ => {
                let mut f = op("symlink", fresh(rng));
                f.push(("target", JExp::lit(TARGETS[rng.random_range(0..TARGETS.len())])));
                f
            }
        },
        73..=76 => {
            // Within the directory: a case-only rename half the time.
            let path = existing(rng);
            let (parent, name) = path.rsplit_once('/').unwrap_or(("", &path));
            let to = if rng.random_bool(0.5) {
                flip_case(name)
            } else {
                NAMES[rng.random_range(0..NAMES.len())].to_string()
            };
            let mut f = op("rename", path.clone());
            f.push(("to", JExp::lit(tree::join(parent, &to))));
            f
        }
        77..=78 => {
            // The whole replica: removed, or a removed one recreated.
            if rng.random_bool(0.5) { op("remove", String::new()) } else { op("mkdir", String::new()) }
        }
        79..=81 => vec![("op", JExp::lit("delay"))],
        _ => vec![("op", JExp::lit("sync"))],
    };
    JExp::object(fields)
}

/// A name with the case of its first letter flipped (`x` ↔ `X`).
fn flip_case(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if c.is_ascii_lowercase() => c.to_ascii_uppercase().to_string() + chars.as_str(),
        Some(c) => c.to_ascii_lowercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}
