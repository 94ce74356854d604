//! Replicas as the model and the tester both see them: a flat map from a
//! path (`""` the root, `"x"`, `"x/y"`) to a *node code*, a short string
//! that says what is there — `d755` a directory with its permission bits,
//! `f644:hello` a file with its bits and its contents' key, `l:nowhere` a
//! symbolic link and what it points to — so that
//! comparing two replicas, or a replica with what the model expects, is
//! comparing strings, which the solver does exactly.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// The node code of a path where nothing is.
pub const ABSENT: &str = "-";

/// A replica, observed: path → node code.
pub type Tree = BTreeMap<String, String>;

/// Most entries an observed replica may have (a synchronizer that copies
/// without end is reported, not followed).
pub const MAX_ENTRIES: usize = 10_000;

/// The node code of a file.
pub fn file_code(mode: u32, key: &str) -> String {
    format!("f{:03o}:{key}", mode & 0o777)
}

/// The node code of a directory.
pub fn dir_code(mode: u32) -> String {
    format!("d{:03o}", mode & 0o777)
}

/// The node code of a symbolic link (its own permission bits mean
/// nothing on Linux, so it has none).
pub fn link_code(target: &str) -> String {
    format!("l:{target}")
}

/// What a node code says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node<'a> {
    /// Nothing.
    Absent,
    /// A directory.
    Dir {
        /// Permission bits.
        mode: u32,
    },
    /// A file.
    File {
        /// Permission bits.
        mode: u32,
        /// Its contents' key ([`content_key`]).
        key: &'a str,
    },
    /// A symbolic link, not followed.
    Link {
        /// What it points to.
        target: &'a str,
    },
    /// Something else (a device, a socket): never what the model expects.
    Other,
}

/// Reads a node code.
pub fn node(code: &str) -> Node<'_> {
    let mode = |s: &str| u32::from_str_radix(s, 8).ok();
    if code == ABSENT {
        return Node::Absent;
    }
    if let Some(m) = code.strip_prefix('d').and_then(mode) {
        return Node::Dir { mode: m };
    }
    if let Some(rest) = code.strip_prefix('f')
        && let Some((m, key)) = rest.split_once(':')
        && let Some(m) = mode(m)
    {
        return Node::File { mode: m, key };
    }
    if let Some(target) = code.strip_prefix("l:") {
        return Node::Link { target };
    }
    Node::Other
}

/// The key of a file's contents in node codes: short printable contents
/// stand for themselves, anything else is its length and a 64-bit FNV-1a
/// digest (so a truncated copy of a large file shows as a different key).
pub fn content_key(bytes: &[u8]) -> String {
    if bytes.len() <= 24 && bytes.iter().all(|b| (0x20..0x7f).contains(b)) {
        return String::from_utf8_lossy(bytes).into_owned();
    }
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("<{} bytes {h:016x}>", bytes.len())
}

/// The parent of a path (`None` for the root).
pub fn parent(path: &str) -> Option<&str> {
    if path.is_empty() {
        return None;
    }
    Some(path.rsplit_once('/').map_or("", |(p, _)| p))
}

/// `path` joined under `dir`.
pub fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() { name.to_string() } else { format!("{dir}/{name}") }
}

/// Whether `path` is `top` or lies beneath it.
pub fn is_under(path: &str, top: &str) -> bool {
    top.is_empty() || path == top || path.strip_prefix(top).is_some_and(|rest| rest.starts_with('/'))
}

/// The direct children's names of `dir` among the paths of a replica.
pub fn children<'a>(paths: impl Iterator<Item = &'a String>, dir: &str) -> Vec<String> {
    let mut out: Vec<String> = paths
        .filter(|p| !p.is_empty() && parent(p) == Some(dir))
        .map(|p| p.rsplit('/').next().unwrap_or(p).to_string())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// A node code without its permission bits (what a synchronizer that
/// does not propagate modes compares): `f:key`, `d`, links as they are.
pub fn without_mode(code: &str) -> String {
    match node(code) {
        Node::File { key, .. } => format!("f:{key}"),
        Node::Dir { .. } => "d".to_string(),
        _ => code.to_string(),
    }
}

/// Observes the replica at `root` without following symbolic links:
/// `None` when the root does not exist.
pub fn observe(root: &Path) -> io::Result<Option<Tree>> {
    let meta = match fs::symlink_metadata(root) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut tree = Tree::new();
    let mut todo = vec![(String::new(), root.to_path_buf(), meta)];
    while let Some((path, at, meta)) = todo.pop() {
        if tree.len() >= MAX_ENTRIES {
            return Err(io::Error::other(format!("more than {MAX_ENTRIES} entries in {}", root.display())));
        }
        let mode = meta.permissions().mode();
        let ft = meta.file_type();
        if ft.is_dir() {
            tree.insert(path.clone(), dir_code(mode));
            for entry in fs::read_dir(&at)? {
                let entry = entry?;
                let name = entry.file_name().to_string_lossy().into_owned();
                todo.push((join(&path, &name), entry.path(), fs::symlink_metadata(entry.path())?));
            }
        } else if ft.is_file() {
            tree.insert(path, file_code(mode, &content_key(&fs::read(&at)?)));
        } else if ft.is_symlink() {
            tree.insert(path, link_code(&fs::read_link(&at)?.to_string_lossy()));
        } else {
            tree.insert(path, "other".to_string());
        }
    }
    Ok(Some(tree))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_paths_nest() {
        assert_eq!(node(&file_code(0o100644, "hi")), Node::File { mode: 0o644, key: "hi" });
        assert_eq!(node(&dir_code(0o40555)), Node::Dir { mode: 0o555 });
        assert_eq!(node(ABSENT), Node::Absent);
        assert_eq!(node("other"), Node::Other);
        assert_eq!(node(&link_code("nowhere")), Node::Link { target: "nowhere" });
        assert_eq!(parent("x/y"), Some("x"));
        assert_eq!(parent("x"), Some(""));
        assert_eq!(parent(""), None);
        assert!(is_under("x/y", "x") && is_under("x", "x") && is_under("x", ""));
        assert!(!is_under("xy", "x"));
        let paths = ["".to_string(), "x".into(), "x/y".into(), "z".into()];
        assert_eq!(children(paths.iter(), ""), vec!["x", "z"]);
        assert_eq!(children(paths.iter(), "x"), vec!["y"]);
    }

    #[test]
    fn large_or_binary_contents_are_keyed_by_length_and_digest() {
        assert_eq!(content_key(b"hello"), "hello");
        let big = vec![7u8; 70_000];
        let key = content_key(&big);
        assert!(key.starts_with("<70000 bytes "), "{key}");
        assert_ne!(key, content_key(&big[..65_536]));
        assert_ne!(content_key(b"a\n"), "a\n");
    }
}
