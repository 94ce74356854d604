//! The bundled file synchronizer run on real directories: the reference
//! does what its contract says, each mutant but the hanging one differs
//! from it in one small scenario, and the command line and mutant names
//! work.

#![cfg(unix)]

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use speccheck_fixtures::sync::{SyncBug, main_with_args, synchronize};

/// Tells scratch directories of one process apart.
static NEXT: AtomicUsize = AtomicUsize::new(0);

/// A scratch directory holding the replicas `a` and `b` and the state
/// directory `state` (made by the first run); removed on drop.
struct Scratch {
    root: PathBuf,
}

impl Scratch {
    fn new(name: &str) -> Self {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let root = std::env::temp_dir().join(format!("refsync-test-{}-{name}-{n}", std::process::id()));
        let _ = remove(&root);
        for replica in ["a", "b"] {
            fs::create_dir_all(root.join(replica)).unwrap();
            chmod(&root.join(replica), 0o755);
        }
        Scratch { root }
    }

    fn a(&self) -> PathBuf {
        self.root.join("a")
    }

    fn b(&self) -> PathBuf {
        self.root.join("b")
    }

    fn state(&self) -> PathBuf {
        self.root.join("state")
    }

    fn sync(&self, bug: Option<SyncBug>) -> i32 {
        synchronize(&self.a(), &self.b(), &self.state(), bug)
    }

    /// The replicas now, after runs that exited with `codes`.
    fn outcome(&self, codes: Vec<i32>) -> Outcome {
        Outcome { codes, a: snapshot(&self.a()), b: snapshot(&self.b()), escaped: self.root.join("escaped").exists() }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = remove(&self.root);
    }
}

/// Removes a tree, read-only directories included.
fn remove(path: &Path) -> io::Result<()> {
    if fs::symlink_metadata(path)?.is_dir() {
        fs::set_permissions(path, fs::Permissions::from_mode(0o700))?;
        for entry in fs::read_dir(path)? {
            remove(&entry?.path())?;
        }
        fs::remove_dir(path)
    } else {
        fs::remove_file(path)
    }
}

fn chmod(path: &Path, mode: u32) {
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

fn mode(path: &Path) -> u32 {
    fs::symlink_metadata(path).unwrap().permissions().mode() & 0o777
}

/// (Re)writes the file `rel` under `dir`.
fn put(dir: &Path, rel: &str, content: &[u8], mode: u32) {
    let path = dir.join(rel);
    let _ = fs::remove_file(&path);
    fs::write(&path, content).unwrap();
    chmod(&path, mode);
}

fn mkdir(dir: &Path, rel: &str, mode: u32) {
    fs::create_dir(dir.join(rel)).unwrap();
    chmod(&dir.join(rel), mode);
}

/// A tree as a test sees it: relative path → (a file's contents, mode).
type Snapshot = BTreeMap<String, (Option<Vec<u8>>, u32)>;

fn snapshot(root: &Path) -> Snapshot {
    let mut snap = Snapshot::new();
    walk(root, "", &mut snap);
    snap
}

fn walk(path: &Path, rel: &str, snap: &mut Snapshot) {
    if !fs::symlink_metadata(path).unwrap().is_dir() {
        snap.insert(rel.to_string(), (Some(fs::read(path).unwrap()), mode(path)));
        return;
    }
    snap.insert(rel.to_string(), (None, mode(path)));
    for entry in fs::read_dir(path).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let child = if rel.is_empty() { name.clone() } else { format!("{rel}/{name}") };
        walk(&path.join(&name), &child, snap);
    }
}

/// The contents of the file `rel` in `snap`, if it is one.
fn content<'s>(snap: &'s Snapshot, rel: &str) -> Option<&'s [u8]> {
    snap.get(rel).and_then(|(content, _)| content.as_deref())
}

/// What a scenario ended with.
#[derive(Debug, PartialEq)]
struct Outcome {
    codes: Vec<i32>,
    a: Snapshot,
    b: Snapshot,
    /// Whether a file `escaped` appeared beside the replicas.
    escaped: bool,
}

/// Runs `scenario` with the reference and with `bug`, each in a fresh
/// scratch directory: (the reference's outcome, the mutant's).
fn both(bug: SyncBug, scenario: impl Fn(&Scratch, Option<SyncBug>) -> Outcome) -> (Outcome, Outcome) {
    let reference = Scratch::new(&format!("{}-reference", bug.name()));
    let mutant = Scratch::new(&format!("{}-mutant", bug.name()));
    (scenario(&reference, None), scenario(&mutant, Some(bug)))
}

/// Asserts that no temporary file is left anywhere in the scratch directory.
fn assert_no_temporaries(s: &Scratch) {
    for path in snapshot(&s.root).keys() {
        assert!(!path.contains(".refsync-tmp-") && !path.ends_with(".tmp"), "left behind: {path}");
    }
}

/// Syncs a file `f` holding `base` into both replicas.
fn base(s: &Scratch, bug: Option<SyncBug>) -> i32 {
    put(&s.a(), "f", b"base", 0o644);
    s.sync(bug)
}

#[test]
fn a_new_file_propagates_with_its_mode() {
    let s = Scratch::new("new-file");
    put(&s.a(), "f", b"hello", 0o640);
    assert_eq!(s.sync(None), 0);
    assert_eq!(content(&snapshot(&s.b()), "f"), Some(&b"hello"[..]));
    assert_eq!(mode(&s.b().join("f")), 0o640);
    assert_eq!(snapshot(&s.a()), snapshot(&s.b()));
    assert!(s.state().join("archive.json").is_file());
    assert_no_temporaries(&s);
    let before = s.outcome(vec![0]);
    assert_eq!(s.sync(None), 0);
    assert_eq!(s.outcome(vec![0]), before, "a second run changes nothing");
}

#[test]
fn a_new_read_only_directory_propagates_with_its_children() {
    let s = Scratch::new("read-only-dir");
    mkdir(&s.a(), "d", 0o700);
    put(&s.a(), "d/x", b"x", 0o444);
    mkdir(&s.a(), "d/e", 0o700);
    put(&s.a(), "d/e/y", b"y", 0o600);
    chmod(&s.a().join("d/e"), 0o500);
    chmod(&s.a().join("d"), 0o555);
    assert_eq!(s.sync(None), 0);
    assert_eq!(snapshot(&s.b()), snapshot(&s.a()));
    assert_eq!(mode(&s.b().join("d")), 0o555);
    assert_eq!(mode(&s.b().join("d/e")), 0o500);
    assert_no_temporaries(&s);
}

#[test]
fn a_deletion_propagates() {
    let s = Scratch::new("deletion");
    put(&s.a(), "f", b"f", 0o644);
    put(&s.a(), "g", b"g", 0o644);
    mkdir(&s.a(), "d", 0o700);
    put(&s.a(), "d/x", b"x", 0o644);
    chmod(&s.a().join("d"), 0o555);
    assert_eq!(s.sync(None), 0);
    fs::remove_file(s.b().join("f")).unwrap();
    remove(&s.b().join("d")).unwrap();
    assert_eq!(s.sync(None), 0);
    assert_eq!(snapshot(&s.a()), snapshot(&s.b()));
    assert!(!s.a().join("f").exists() && !s.a().join("d").exists());
    assert!(s.a().join("g").exists());
}

#[test]
fn a_write_write_conflict_exits_1_and_keeps_both() {
    let s = Scratch::new("conflict");
    assert_eq!(base(&s, None), 0);
    put(&s.a(), "f", b"from a", 0o644);
    put(&s.b(), "f", b"from b", 0o644);
    put(&s.a(), "other", b"o", 0o644);
    assert_eq!(s.sync(None), 1);
    let (a, b) = (snapshot(&s.a()), snapshot(&s.b()));
    assert_eq!(content(&a, "f"), Some(&b"from a"[..]));
    assert_eq!(content(&b, "f"), Some(&b"from b"[..]));
    assert_eq!(content(&b, "other"), Some(&b"o"[..]), "the rest is still synchronized");
    assert_eq!(s.sync(None), 1, "the conflict stays until resolved");
    assert_eq!((snapshot(&s.a()), snapshot(&s.b())), (a, b));
}

#[test]
fn identical_changes_agree() {
    let s = Scratch::new("identical");
    assert_eq!(base(&s, None), 0);
    for replica in [s.a(), s.b()] {
        put(&replica, "f", b"same", 0o600);
        put(&replica, "n", b"new", 0o644);
    }
    assert_eq!(s.sync(None), 0);
    put(&s.a(), "f", b"later", 0o600);
    assert_eq!(s.sync(None), 0, "the agreement was archived");
    assert_eq!(content(&snapshot(&s.b()), "f"), Some(&b"later"[..]));
}

#[test]
fn a_mode_only_change_propagates() {
    let s = Scratch::new("mode-only");
    put(&s.a(), "f", b"f", 0o644);
    mkdir(&s.a(), "d", 0o755);
    assert_eq!(s.sync(None), 0);
    chmod(&s.a().join("f"), 0o600);
    chmod(&s.b().join("d"), 0o700);
    assert_eq!(s.sync(None), 0);
    assert_eq!(mode(&s.b().join("f")), 0o600);
    assert_eq!(mode(&s.a().join("d")), 0o700);
    assert_eq!(snapshot(&s.a()), snapshot(&s.b()));
}

#[test]
fn a_directory_changed_in_mode_on_one_side_and_contents_on_the_other_merges() {
    let s = Scratch::new("merge-dir");
    mkdir(&s.a(), "d", 0o755);
    assert_eq!(s.sync(None), 0);
    chmod(&s.a().join("d"), 0o555);
    put(&s.b(), "d/x", b"x", 0o644);
    assert_eq!(s.sync(None), 0);
    assert_eq!(snapshot(&s.a()), snapshot(&s.b()));
    assert_eq!(mode(&s.b().join("d")), 0o555);
    assert_eq!(content(&snapshot(&s.a()), "d/x"), Some(&b"x"[..]));
}

#[test]
fn a_missing_replica_exits_3_and_changes_nothing() {
    let s = Scratch::new("missing");
    put(&s.a(), "f", b"f", 0o644);
    fs::remove_dir(s.b()).unwrap();
    let before = snapshot(&s.a());
    assert_eq!(s.sync(None), 3);
    fs::write(s.b(), b"not a directory").unwrap();
    assert_eq!(s.sync(None), 3);
    assert_eq!(snapshot(&s.a()), before);
    assert!(!s.state().exists(), "no archive is written");
}

#[test]
fn mutant_conflict_overwrites() {
    let (reference, mutant) = both(SyncBug::ConflictOverwrites, |s, bug| {
        let first = base(s, bug);
        put(&s.a(), "f", b"from a", 0o644);
        put(&s.b(), "f", b"from b", 0o644);
        s.outcome(vec![first, s.sync(bug)])
    });
    assert_eq!(reference.codes, [0, 1]);
    assert_eq!(content(&reference.b, "f"), Some(&b"from b"[..]));
    assert_eq!(content(&mutant.b, "f"), Some(&b"from a"[..]));
}

#[test]
fn mutant_delete_wins() {
    let (reference, mutant) = both(SyncBug::DeleteWins, |s, bug| {
        let first = base(s, bug);
        fs::remove_file(s.a().join("f")).unwrap();
        put(&s.b(), "f", b"changed", 0o644);
        s.outcome(vec![first, s.sync(bug)])
    });
    assert_eq!(reference.codes, [0, 1]);
    assert_eq!(content(&reference.b, "f"), Some(&b"changed"[..]));
    assert_eq!(content(&mutant.b, "f"), None);
}

#[test]
fn mutant_stale_archive() {
    let (reference, mutant) = both(SyncBug::StaleArchive, |s, bug| {
        let first = s.sync(bug);
        put(&s.a(), "f", b"f", 0o644);
        let second = s.sync(bug);
        fs::remove_file(s.a().join("f")).unwrap();
        s.outcome(vec![first, second, s.sync(bug)])
    });
    assert_eq!(reference.codes, [0, 0, 0]);
    assert!(!reference.b.contains_key("f"), "the deletion propagates");
    assert!(mutant.a.contains_key("f"), "the mutant brings the deleted file back");
    assert_ne!(reference, mutant);
}

#[test]
fn mutant_exit_zero_on_conflict() {
    let (reference, mutant) = both(SyncBug::ExitZeroOnConflict, |s, bug| {
        let first = base(s, bug);
        put(&s.a(), "f", b"from a", 0o644);
        put(&s.b(), "f", b"from b", 0o644);
        s.outcome(vec![first, s.sync(bug)])
    });
    assert_eq!(reference.codes, [0, 1]);
    assert_eq!(mutant.codes, [0, 0]);
}

#[test]
fn mutant_ignores_new_dirs() {
    let (reference, mutant) = both(SyncBug::IgnoresNewDirs, |s, bug| {
        mkdir(&s.a(), "d", 0o755);
        put(&s.a(), "d/x", b"x", 0o644);
        s.outcome(vec![s.sync(bug)])
    });
    assert_eq!(reference.codes, [0]);
    assert_eq!(content(&reference.b, "d/x"), Some(&b"x"[..]));
    assert!(!mutant.b.contains_key("d"));
}

#[test]
fn mutant_drops_permissions() {
    let (reference, mutant) = both(SyncBug::DropsPermissions, |s, bug| {
        put(&s.a(), "f", b"secret", 0o600);
        mkdir(&s.a(), "d", 0o700);
        s.outcome(vec![s.sync(bug)])
    });
    assert_eq!(reference.a, reference.b);
    assert_eq!(reference.b["f"].1, 0o600);
    assert_eq!(mutant.b["f"].1, 0o644);
    assert_eq!(mutant.b["d"].1, 0o755);
}

#[test]
fn mutant_conflict_one_side() {
    let (reference, mutant) = both(SyncBug::ConflictOneSide, |s, bug| {
        let first = base(s, bug);
        put(&s.a(), "f", b"from a", 0o644);
        put(&s.b(), "f", b"from b", 0o644);
        let second = s.sync(bug);
        s.outcome(vec![first, second, s.sync(bug)])
    });
    assert_eq!(reference.codes, [0, 1, 1]);
    assert_eq!(content(&reference.a, "f"), Some(&b"from a"[..]));
    assert_eq!(content(&reference.b, "f"), Some(&b"from b"[..]));
    assert_eq!(mutant.codes, [0, 1, 0], "the next run takes the conflict as resolved");
    assert_eq!(content(&mutant.a, "f"), Some(&b"from b"[..]), "A's change is lost");
}

#[test]
fn mutant_truncates_large() {
    let big: Vec<u8> = (0..100_000u32).map(|i| (i % 251) as u8).collect();
    let (reference, mutant) = both(SyncBug::TruncatesLarge, |s, bug| {
        put(&s.a(), "big", &big, 0o644);
        s.outcome(vec![s.sync(bug)])
    });
    assert_eq!(content(&reference.b, "big"), Some(&big[..]));
    assert_eq!(content(&mutant.b, "big").map(<[u8]>::len), Some(65536));
}

#[test]
fn mutant_writes_outside() {
    let (reference, mutant) = both(SyncBug::WritesOutside, |s, bug| {
        put(&s.a(), "f", b"f", 0o644);
        s.outcome(vec![s.sync(bug)])
    });
    assert!(!reference.escaped);
    assert!(mutant.escaped);
    assert_eq!((&reference.a, &reference.b), (&mutant.a, &mutant.b), "inside the replicas it is the reference");
}

#[test]
fn mutant_hangs_on_conflict_is_the_reference_without_conflicts() {
    let (reference, mutant) = both(SyncBug::HangsOnConflict, |s, bug| {
        let first = base(s, bug);
        put(&s.b(), "f", b"changed", 0o600);
        s.outcome(vec![first, s.sync(bug)])
    });
    assert_eq!(reference.codes, [0, 0]);
    assert_eq!(reference, mutant);
}

#[test]
fn mutant_names_round_trip() {
    assert_eq!(SyncBug::ALL.len(), 10);
    for bug in SyncBug::ALL {
        assert_eq!(SyncBug::from_name(bug.name()), Some(bug));
        assert_eq!(bug.to_string(), bug.name());
        assert!(!bug.describe().is_empty());
    }
    assert_eq!(SyncBug::from_name("no-such-bug"), None);
}

#[test]
fn the_command_line() {
    let args = |list: &[&str]| list.iter().map(|arg| arg.to_string()).collect::<Vec<String>>();
    assert_eq!(main_with_args(&args(&[])), 64);
    assert_eq!(main_with_args(&args(&["a", "b"])), 64);
    assert_eq!(main_with_args(&args(&["a", "b", "c", "d"])), 64);
    assert_eq!(main_with_args(&args(&["--bug"])), 64);
    assert_eq!(main_with_args(&args(&["--bug", "no-such-bug", "a", "b", "c"])), 64);
    assert_eq!(main_with_args(&args(&["--verbose", "a", "b", "c"])), 64);
    let s = Scratch::new("command-line");
    put(&s.a(), "f", b"f", 0o644);
    let paths = [s.a(), s.b(), s.state()].map(|path| path.to_str().unwrap().to_string());
    let [a, b, state] = [&paths[0], &paths[1], &paths[2]].map(String::as_str);
    assert_eq!(main_with_args(&args(&["--bug", "writes-outside", a, b, state])), 0);
    assert!(s.root.join("escaped").exists());
    assert_eq!(main_with_args(&args(&[a, b, state])), 0);
    let missing = s.root.join("missing");
    assert_eq!(main_with_args(&args(&[a, missing.to_str().unwrap(), state])), 3);
}
