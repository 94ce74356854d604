//! A two-replica file synchronizer with planted bugs: the reference system
//! a synchronizer tester is evaluated on.
//!
//! `refsync A B STATE` makes the directory trees `A` and `B` agree wherever
//! only one of them changed since the last run, and leaves a conflict
//! wherever both changed, differently. What changed is judged against the
//! archive `STATE/archive.json`, the trees' last agreed state (none: the
//! empty archive). This is the reconciliation of Pierce and Vouillon's
//! specification of Unison, cut down to regular files, directories and
//! their permission bits; anything else (symbolic links, sockets, names
//! that are not UTF-8) is not seen and never made.
//!
//! A tree is flattened into a map from relative path (`""` the root,
//! `"x/y"`) to a node: a file's bytes and mode, or a directory's mode
//! (mode: the permission bits, `& 0o777`). Starting at the root, the
//! subtrees at a path `p` of `A`, `B` and the archive `G` decide:
//!
//! - equal in `A` and `B`: they agree, and `G` takes them;
//! - one side equal to `G`: the other side's subtree is copied over it,
//!   and `G` takes it;
//! - both changed, and both are directories: the directory's mode is
//!   reconciled the same way (a mode changed on both sides, differently,
//!   is a conflict), then each child of `p` in `A`, `B` or `G`, in name
//!   order;
//! - both changed otherwise: a conflict. Nothing at `p` changes, not even
//!   `G`.
//!
//! The exit code is [`EXIT_SYNCED`], [`EXIT_CONFLICTS`] if a conflict was
//! left, [`EXIT_IO_ERROR`] if a copy failed (what did not fail is done, and
//! the archive takes only that), [`EXIT_NO_REPLICA`] if `A` or `B` is not
//! a directory (then nothing, not even the archive, is touched), or
//! [`EXIT_USAGE`].
//!
//! This is a test fixture, not a production tool: the exact semantics
//! above are what a model written separately predicts, so the code follows
//! them literally. A copy writes only what differs (equal files and
//! directories are left alone), builds each replaced entry under a
//! temporary sibling `.refsync-tmp-<name>` and renames it into place,
//! gives directories their mode only once their children are made (so
//! `0o555` trees can be copied), and sets every mode explicitly, whatever
//! the umask. [`synchronize`] with no bug is the reference; each
//! [`SyncBug`] is one mutant, a plausible slip in one step.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::fs;
use std::io::{self, Write as _};
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::Duration;

use serde_json::{Value, json};

/// Exit code: the replicas agree everywhere.
pub const EXIT_SYNCED: i32 = 0;
/// Exit code: at least one conflict was left.
pub const EXIT_CONFLICTS: i32 = 1;
/// Exit code: reading or writing failed (it wins over [`EXIT_CONFLICTS`]).
pub const EXIT_IO_ERROR: i32 = 2;
/// Exit code: a replica is not an existing directory.
pub const EXIT_NO_REPLICA: i32 = 3;
/// Exit code: the command line is wrong.
pub const EXIT_USAGE: i32 = 64;

/// The command line.
const USAGE: &str = "usage: refsync [--bug NAME] A B STATE";
/// The archive's file name in the state directory.
const ARCHIVE: &str = "archive.json";
/// The archive's format tag; a file with another is refused.
const FORMAT: &str = "refsync-archive-1";
/// The prefix of the temporary sibling a replacement is built under.
const TMP_PREFIX: &str = ".refsync-tmp-";
/// The most bytes of a file [`SyncBug::TruncatesLarge`] copies.
const TRUNCATE_AT: usize = 65536;
/// The owner's read, write and search bits.
const OWNER_ALL: u32 = 0o700;

/// Declares [`SyncBug`] from one table: each variant's doc line is its
/// description, and its name the string after `=>`.
macro_rules! sync_bugs {
    ($($(#[doc = $doc:literal])+ $bug:ident => $name:literal,)+) => {
        /// A planted bug of [`synchronize`]: each is one mutant.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum SyncBug {
            $($(#[doc = $doc])+ $bug,)+
        }

        impl SyncBug {
            /// Every mutant, in a fixed order.
            pub const ALL: [SyncBug; [$($name),+].len()] = [$(SyncBug::$bug),+];

            /// The mutant's stable kebab-case name (a command-line value).
            pub fn name(self) -> &'static str {
                match self {
                    $(SyncBug::$bug => $name,)+
                }
            }

            /// What is wrong with the mutant, in one sentence.
            pub fn describe(self) -> &'static str {
                match self {
                    $(SyncBug::$bug => concat!($($doc),+).trim_start(),)+
                }
            }
        }
    };
}

sync_bugs! {
    /// A conflict between two changed files is resolved by copying A's file over B's (and archiving it).
    ConflictOverwrites => "conflict-overwrites",
    /// A conflict where one side deleted what the other changed propagates the deletion.
    DeleteWins => "delete-wins",
    /// The archive is written only when there was none: later runs judge changes against the first run's.
    StaleArchive => "stale-archive",
    /// The exit code is 0 even when conflicts were left.
    ExitZeroOnConflict => "exit-zero-on-conflict",
    /// A directory new on one side is not copied to the other, but archived as if it had been.
    IgnoresNewDirs => "ignores-new-dirs",
    /// Copied files get mode 0o644 and copied directories 0o755, whatever the source's.
    DropsPermissions => "drops-permissions",
    /// A conflict archives A's side as agreed, so the next run copies B's over it.
    ConflictOneSide => "conflict-one-side",
    /// A copied file keeps only its first 65536 bytes.
    TruncatesLarge => "truncates-large",
    /// Each propagation also writes a file `escaped` beside A (`A/../escaped`).
    WritesOutside => "writes-outside",
    /// A conflict makes the run sleep forever instead of finishing.
    HangsOnConflict => "hangs-on-conflict",
}

impl SyncBug {
    /// The mutant named `name` (see [`SyncBug::name`]), if any.
    pub fn from_name(name: &str) -> Option<SyncBug> {
        SyncBug::ALL.into_iter().find(|bug| bug.name() == name)
    }
}

impl fmt::Display for SyncBug {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One entry of a replica or of the archive.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Node {
    /// A regular file: its bytes and permission bits.
    File { content: Vec<u8>, mode: u32 },
    /// A directory and its permission bits.
    Dir { mode: u32 },
}

/// A flattened tree: relative path (`""` the root, `'/'`-separated) → node.
type Tree = BTreeMap<String, Node>;

/// `p/name`, or `name` at the root.
fn join(p: &str, name: &str) -> String {
    if p.is_empty() { name.to_string() } else { format!("{p}/{name}") }
}

/// Whether `key` is `p` or lies under it.
fn is_within(key: &str, p: &str) -> bool {
    p.is_empty() || key.strip_prefix(p).is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// Whether `key` lies directly under `p`.
fn is_child(key: &str, p: &str) -> bool {
    let rest = if p.is_empty() { Some(key) } else { key.strip_prefix(p).and_then(|rest| rest.strip_prefix('/')) };
    rest.is_some_and(|name| !name.is_empty() && !name.contains('/'))
}

/// The last component of a non-root path.
fn name_of(p: &str) -> &str {
    p.rsplit_once('/').map_or(p, |(_, name)| name)
}

/// The entries of `tree` at `p` and under it.
fn entries<'t>(tree: &'t Tree, p: &'t str) -> impl Iterator<Item = (&'t String, &'t Node)> {
    tree.iter().filter(move |(key, _)| is_within(key, p))
}

/// Whether two trees hold the same subtree at `p`.
fn same_at(x: &Tree, y: &Tree, p: &str) -> bool {
    entries(x, p).eq(entries(y, p))
}

/// A copy of the subtree of `tree` at `p`.
fn subtree(tree: &Tree, p: &str) -> Tree {
    entries(tree, p).map(|(key, node)| (key.clone(), node.clone())).collect()
}

/// Replaces the subtree of `tree` at `p` by `new` (a subtree at `p`).
fn set_subtree(tree: &mut Tree, p: &str, new: Tree) {
    tree.retain(|key, _| !is_within(key, p));
    tree.extend(new);
}

/// The paths directly under `p` in either tree, in name order.
fn children(x: &Tree, y: &Tree, p: &str) -> BTreeSet<String> {
    x.keys().chain(y.keys()).filter(|key| is_child(key, p)).cloned().collect()
}

/// Where the entry `p` of the replica at `root` is.
fn fs_path(root: &Path, p: &str) -> PathBuf {
    if p.is_empty() { root.to_path_buf() } else { root.join(p) }
}

/// Adds `path` to an error's message, keeping its kind.
fn at(path: &Path) -> impl FnOnce(io::Error) -> io::Error {
    move |error| io::Error::new(error.kind(), format!("{}: {error}", path.display()))
}

/// The permission bits of an entry.
fn mode_of(meta: &fs::Metadata) -> u32 {
    meta.permissions().mode() & 0o777
}

/// Gives the entry at `path` exactly the permission bits `mode`.
fn set_mode(path: &Path, mode: u32) -> io::Result<()> {
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).map_err(at(path))
}

/// Gives the owner full access to the directory at `path` (now `mode`) if
/// it lacks any, so entries can be made and removed in it; whether the
/// mode changed.
fn open_dir(path: &Path, mode: u32) -> io::Result<bool> {
    if mode & OWNER_ALL == OWNER_ALL {
        return Ok(false);
    }
    set_mode(path, mode | OWNER_ALL)?;
    Ok(true)
}

/// Runs `read` on the entry at `path` (now `mode`); if that is denied and
/// the owner lacks some of `bits`, grants them for a second try and
/// restores the mode after.
fn with_access<T>(path: &Path, mode: u32, bits: u32, mut read: impl FnMut() -> io::Result<T>) -> io::Result<T> {
    match read() {
        Err(error) if error.kind() == io::ErrorKind::PermissionDenied && mode & bits != bits => {
            set_mode(path, mode | bits)?;
            let result = read();
            set_mode(path, mode)?;
            result
        }
        other => other,
    }
}

/// Flattens the directory tree at `root` (which is followed if a link).
fn scan(root: &Path) -> io::Result<Tree> {
    let mode = mode_of(&fs::metadata(root).map_err(at(root))?);
    let mut tree = Tree::new();
    tree.insert(String::new(), Node::Dir { mode });
    with_access(root, mode, 0o500, || scan_dir(root, "", &mut tree))?;
    Ok(tree)
}

/// Adds the entries under the directory `dir`, whose relative path is
/// `rel`, to `tree`; links and special files are skipped.
fn scan_dir(dir: &Path, rel: &str, tree: &mut Tree) -> io::Result<()> {
    for entry in fs::read_dir(dir).map_err(at(dir))? {
        let entry = entry.map_err(at(dir))?;
        let Ok(name) = entry.file_name().into_string() else { continue };
        let path = entry.path();
        let meta = fs::symlink_metadata(&path).map_err(at(&path))?;
        let (key, mode) = (join(rel, &name), mode_of(&meta));
        if meta.is_dir() {
            tree.insert(key.clone(), Node::Dir { mode });
            with_access(&path, mode, 0o500, || scan_dir(&path, &key, tree))?;
        } else if meta.is_file() {
            let content = with_access(&path, mode, 0o400, || fs::read(&path).map_err(at(&path)))?;
            tree.insert(key, Node::File { content, mode });
        }
    }
    Ok(())
}

/// Removes whatever is at `path` (links are not followed), opening
/// directories to their owner first; nothing there is no error.
fn remove_any(path: &Path) -> io::Result<()> {
    let meta = match fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(error) => return Err(at(path)(error)),
    };
    if !meta.is_dir() {
        return fs::remove_file(path).map_err(at(path));
    }
    open_dir(path, mode_of(&meta))?;
    for entry in fs::read_dir(path).map_err(at(path))? {
        remove_any(&entry.map_err(at(path))?.path())?;
    }
    fs::remove_dir(path).map_err(at(path))
}

/// A free name beside `target` to build its replacement under.
fn temp_sibling(target: &Path) -> io::Result<PathBuf> {
    let name = target.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    let parent = target.parent().unwrap_or(Path::new("."));
    for n in 0..100 {
        let candidate =
            parent.join(if n == 0 { format!("{TMP_PREFIX}{name}") } else { format!("{TMP_PREFIX}{name}-{n}") });
        match fs::symlink_metadata(&candidate) {
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(candidate),
            Err(error) => return Err(at(&candidate)(error)),
            Ok(_) => {}
        }
    }
    Err(io::Error::new(io::ErrorKind::AlreadyExists, format!("{}: no free temporary name", target.display())))
}

/// Writes one replica's entries to match another's.
struct Copier<'a> {
    /// The replica written to.
    root: &'a Path,
    bug: Option<SyncBug>,
}

impl Copier<'_> {
    fn has(&self, bug: SyncBug) -> bool {
        self.bug == Some(bug)
    }

    /// The mode a copied file gets.
    fn file_mode(&self, mode: u32) -> u32 {
        if self.has(SyncBug::DropsPermissions) { 0o644 } else { mode }
    }

    /// The mode a copied directory gets.
    fn dir_mode(&self, mode: u32) -> u32 {
        if self.has(SyncBug::DropsPermissions) { 0o755 } else { mode }
    }

    /// Makes the replica's subtree at `p`, now `old`'s, equal to `new`'s,
    /// writing only what differs. Goes on past a failure; returns the first.
    fn update(&self, p: &str, old: &Tree, new: &Tree) -> io::Result<()> {
        if same_at(old, new, p) {
            return Ok(());
        }
        match (old.get(p), new.get(p)) {
            (Some(&Node::Dir { mode: from }), Some(&Node::Dir { mode: to })) => self.update_dir(p, from, to, old, new),
            (None, Some(Node::Dir { .. })) if self.has(SyncBug::IgnoresNewDirs) => Ok(()),
            _ => self.replace(p, new),
        }
    }

    /// Updates a directory both trees have: its children, then its mode.
    fn update_dir(&self, p: &str, from: u32, to: u32, old: &Tree, new: &Tree) -> io::Result<()> {
        let path = fs_path(self.root, p);
        let opened = open_dir(&path, from)?;
        let mut result = Ok(());
        for child in children(old, new, p) {
            let updated = self.update(&child, old, new);
            if result.is_ok() {
                result = updated;
            }
        }
        let mode = if from == to { from } else { self.dir_mode(to) };
        if opened || mode != from {
            set_mode(&path, mode)?;
        }
        result
    }

    /// Replaces whatever is at `p` by `new`'s entries there (none: removes
    /// it), built under a temporary sibling and renamed into place.
    fn replace(&self, p: &str, new: &Tree) -> io::Result<()> {
        if p.is_empty() {
            return Err(io::Error::other("a replica's root is never replaced"));
        }
        let target = fs_path(self.root, p);
        if !new.contains_key(p) {
            return remove_any(&target);
        }
        let tmp = temp_sibling(&target)?;
        let made = self
            .build(&tmp, p, new)
            .and_then(|()| remove_any(&target))
            .and_then(|()| fs::rename(&tmp, &target).map_err(at(&target)));
        if made.is_err() {
            let _ = remove_any(&tmp);
        }
        made
    }

    /// Creates `new`'s entry `p`, and everything under it, at `path`:
    /// children first, each mode last.
    fn build(&self, path: &Path, p: &str, new: &Tree) -> io::Result<()> {
        match &new[p] {
            Node::File { content, mode } => {
                let kept = if self.has(SyncBug::TruncatesLarge) {
                    &content[..content.len().min(TRUNCATE_AT)]
                } else {
                    &content[..]
                };
                let mut file = fs::OpenOptions::new().write(true).create_new(true).open(path).map_err(at(path))?;
                file.write_all(kept).map_err(at(path))?;
                drop(file);
                set_mode(path, self.file_mode(*mode))
            }
            Node::Dir { mode } => {
                fs::create_dir(path).map_err(at(path))?;
                set_mode(path, OWNER_ALL)?;
                for child in children(new, new, p) {
                    self.build(&path.join(name_of(&child)), &child, new)?;
                }
                set_mode(path, self.dir_mode(*mode))
            }
        }
    }
}

/// One of the two replicas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    A,
    B,
}

/// A replica: where it is, and what the scan found there.
struct Replica {
    root: PathBuf,
    tree: Tree,
}

/// One run of the synchronizer.
struct Run {
    a: Replica,
    b: Replica,
    /// The archive, updated as paths are settled.
    archive: Tree,
    bug: Option<SyncBug>,
    conflicts: usize,
    errors: usize,
}

impl Run {
    fn has(&self, bug: SyncBug) -> bool {
        self.bug == Some(bug)
    }

    /// Reports a failed read or write.
    fn error(&mut self, error: io::Error) {
        self.errors += 1;
        eprintln!("refsync: {error}");
    }

    /// Reports a conflict at `p`.
    fn count_conflict(&mut self, p: &str) {
        self.conflicts += 1;
        println!("conflict: /{p}");
        if self.has(SyncBug::HangsOnConflict) {
            loop {
                thread::sleep(Duration::from_secs(3600));
            }
        }
    }

    /// Reconciles the subtrees at `p` (see the module documentation).
    fn reconcile(&mut self, p: &str) {
        if same_at(&self.a.tree, &self.b.tree, p) {
            let agreed = subtree(&self.a.tree, p);
            set_subtree(&mut self.archive, p, agreed);
            return;
        }
        let changed_a = !same_at(&self.a.tree, &self.archive, p);
        let changed_b = !same_at(&self.b.tree, &self.archive, p);
        let dirs = match (self.a.tree.get(p), self.b.tree.get(p)) {
            (Some(&Node::Dir { mode: mode_a }), Some(&Node::Dir { mode: mode_b })) => Some((mode_a, mode_b)),
            _ => None,
        };
        if !changed_a {
            self.propagate(Side::B, p);
        } else if !changed_b {
            self.propagate(Side::A, p);
        } else if let Some((mode_a, mode_b)) = dirs {
            self.merge_dir(p, mode_a, mode_b);
        } else {
            self.conflict(p);
        }
    }

    /// Copies `from`'s subtree at `p` over the other replica's; the
    /// archive takes it once the copy is made.
    fn propagate(&mut self, from: Side, p: &str) {
        let (src, dst) = match from {
            Side::A => (&self.a, &self.b),
            Side::B => (&self.b, &self.a),
        };
        let copied = Copier { root: &dst.root, bug: self.bug }.update(p, &dst.tree, &src.tree);
        let agreed = subtree(&src.tree, p);
        match copied {
            Ok(()) => {
                set_subtree(&mut self.archive, p, agreed);
                if self.has(SyncBug::WritesOutside) {
                    let _ = fs::write(self.a.root.join("..").join("escaped"), b"refsync was here\n");
                }
            }
            Err(error) => self.error(error),
        }
    }

    /// Both replicas changed the directory at `p`: reconciles its mode,
    /// then each child; the archive takes the mode once both have it.
    fn merge_dir(&mut self, p: &str, mode_a: u32, mode_b: u32) {
        let (dir_a, dir_b) = (Node::Dir { mode: mode_a }, Node::Dir { mode: mode_b });
        let base = self.archive.get(p).cloned();
        // The modes the replicas end with, and the archive's entry then.
        let (end_a, end_b, agreed) = if mode_a == mode_b {
            (mode_a, mode_b, Some(dir_a))
        } else if base.as_ref() == Some(&dir_a) {
            (mode_b, mode_b, Some(dir_b))
        } else if base.as_ref() == Some(&dir_b) {
            (mode_a, mode_a, Some(dir_a))
        } else {
            self.count_conflict(p);
            (mode_a, mode_b, self.has(SyncBug::ConflictOneSide).then_some(dir_a))
        };
        let (path_a, path_b) = (fs_path(&self.a.root, p), fs_path(&self.b.root, p));
        let opened_a = self.open(&path_a, mode_a);
        let opened_b = self.open(&path_b, mode_b);
        // Children in `G` too: one deleted on both sides is an agreement
        // the archive must learn, or it would later count as a change.
        let mut names = children(&self.a.tree, &self.b.tree, p);
        names.extend(children(&self.archive, &self.archive, p));
        for child in names {
            self.reconcile(&child);
        }
        let settled_a = self.settle(&path_a, mode_a, end_a, opened_a);
        let settled_b = self.settle(&path_b, mode_b, end_b, opened_b);
        if let Some(node) = agreed.filter(|_| settled_a && settled_b) {
            self.archive.insert(p.to_string(), node);
        }
    }

    /// Opens the directory at `path` (now `mode`) to its owner while its
    /// children are reconciled; whether its mode changed.
    fn open(&mut self, path: &Path, mode: u32) -> bool {
        open_dir(path, mode).unwrap_or_else(|error| {
            self.error(error);
            false
        })
    }

    /// Gives the directory at `path`, `mode` when scanned (and `opened`
    /// since, or not), the mode `end`; whether it has it.
    fn settle(&mut self, path: &Path, mode: u32, end: u32, opened: bool) -> bool {
        if !opened && mode == end {
            return true;
        }
        set_mode(path, end).map_err(|error| self.error(error)).is_ok()
    }

    /// Both replicas changed `p`, not both into directories: a conflict.
    fn conflict(&mut self, p: &str) {
        let (in_a, in_b) = (self.a.tree.get(p), self.b.tree.get(p));
        let both_files = matches!((in_a, in_b), (Some(Node::File { .. }), Some(Node::File { .. })));
        let (absent_a, absent_b) = (in_a.is_none(), in_b.is_none());
        // A's version wins a file-file conflict, a deletion wins against a change.
        let a_wins =
            (both_files && self.has(SyncBug::ConflictOverwrites)) || (absent_a && self.has(SyncBug::DeleteWins));
        if a_wins {
            self.propagate(Side::A, p);
        } else if absent_b && self.has(SyncBug::DeleteWins) {
            self.propagate(Side::B, p);
        } else {
            self.count_conflict(p);
            if self.has(SyncBug::ConflictOneSide) {
                let mine = subtree(&self.a.tree, p);
                set_subtree(&mut self.archive, p, mine);
            }
        }
    }

    /// The run's exit code.
    fn exit_code(&self) -> i32 {
        if self.errors > 0 {
            EXIT_IO_ERROR
        } else if self.conflicts > 0 && !self.has(SyncBug::ExitZeroOnConflict) {
            EXIT_CONFLICTS
        } else {
            EXIT_SYNCED
        }
    }
}

/// Lower-case hexadecimal.
fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(2 * bytes.len());
    for &byte in bytes {
        text.push(char::from(DIGITS[usize::from(byte >> 4)]));
        text.push(char::from(DIGITS[usize::from(byte & 0xf)]));
    }
    text
}

/// The bytes a hexadecimal string spells, if it is one.
fn from_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    let digit = |b: u8| char::from(b).to_digit(16);
    text.as_bytes().chunks(2).map(|pair| u8::try_from(digit(pair[0])? * 16 + digit(pair[1])?).ok()).collect()
}

/// The archive as JSON: `{"format", "entries": [{"path", "type", "mode", "content"}]}`,
/// modes in octal, file contents in hexadecimal.
fn encode_archive(tree: &Tree) -> Value {
    let entries: Vec<Value> = tree
        .iter()
        .map(|(path, node)| match node {
            Node::Dir { mode } => json!({ "path": path, "type": "dir", "mode": format!("{mode:03o}") }),
            Node::File { content, mode } => {
                json!({ "path": path, "type": "file", "mode": format!("{mode:03o}"), "content": to_hex(content) })
            }
        })
        .collect();
    json!({ "format": FORMAT, "entries": entries })
}

/// The archive [`encode_archive`] wrote, if `value` is one.
fn decode_archive(value: &Value) -> Option<Tree> {
    if value.get("format")?.as_str()? != FORMAT {
        return None;
    }
    value.get("entries")?.as_array()?.iter().map(decode_entry).collect()
}

/// One archive entry.
fn decode_entry(entry: &Value) -> Option<(String, Node)> {
    let path = entry.get("path")?.as_str()?.to_string();
    let mode = u32::from_str_radix(entry.get("mode")?.as_str()?, 8).ok().filter(|mode| mode & !0o777 == 0)?;
    let node = match entry.get("type")?.as_str()? {
        "dir" => Node::Dir { mode },
        "file" => Node::File { content: from_hex(entry.get("content")?.as_str()?)?, mode },
        _ => return None,
    };
    Some((path, node))
}

/// Reads the archive in `state`; `None` if there is none.
fn load_archive(state: &Path) -> io::Result<Option<Tree>> {
    let path = state.join(ARCHIVE);
    let bytes = match fs::read(&path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(at(&path)(error)),
    };
    let invalid = |why: String| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {why}", path.display()));
    let value: Value = serde_json::from_slice(&bytes).map_err(|error| invalid(error.to_string()))?;
    decode_archive(&value).map(Some).ok_or_else(|| invalid("not a refsync archive".to_string()))
}

/// Writes the archive into `state` (made if missing), replacing the old
/// one by a rename.
fn save_archive(state: &Path, tree: &Tree) -> io::Result<()> {
    fs::create_dir_all(state).map_err(at(state))?;
    let (path, tmp) = (state.join(ARCHIVE), state.join(format!("{ARCHIVE}.tmp")));
    let bytes = serde_json::to_vec_pretty(&encode_archive(tree)).map_err(io::Error::other)?;
    let written = fs::write(&tmp, bytes).map_err(at(&tmp)).and_then(|()| fs::rename(&tmp, &path).map_err(at(&path)));
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written
}

/// Synchronizes the replicas `a` and `b` with the archive in `state`, as
/// the reference (`bug: None`) or a mutant; returns the exit code.
pub fn synchronize(a: &Path, b: &Path, state: &Path, bug: Option<SyncBug>) -> i32 {
    for replica in [a, b] {
        if !fs::metadata(replica).is_ok_and(|meta| meta.is_dir()) {
            eprintln!("refsync: {}: not a directory", replica.display());
            return EXIT_NO_REPLICA;
        }
    }
    let loaded = load_archive(state).and_then(|archive| Ok((archive, scan(a)?, scan(b)?)));
    let (archive, tree_a, tree_b) = match loaded {
        Ok(loaded) => loaded,
        Err(error) => {
            eprintln!("refsync: {error}");
            return EXIT_IO_ERROR;
        }
    };
    let had_archive = archive.is_some();
    let mut run = Run {
        a: Replica { root: a.to_path_buf(), tree: tree_a },
        b: Replica { root: b.to_path_buf(), tree: tree_b },
        archive: archive.unwrap_or_default(),
        bug,
        conflicts: 0,
        errors: 0,
    };
    run.reconcile("");
    if !(had_archive && run.has(SyncBug::StaleArchive))
        && let Err(error) = save_archive(state, &run.archive)
    {
        run.error(error);
    }
    run.exit_code()
}

/// Reads `[--bug NAME] A B STATE`: the mutant, and the three paths.
fn parse_args(args: &[String]) -> Result<(Option<SyncBug>, [&str; 3]), String> {
    let mut bug = None;
    let mut paths = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let name = if arg == "--bug" {
            Some(rest.next().ok_or("--bug needs a mutant name")?.as_str())
        } else {
            arg.strip_prefix("--bug=")
        };
        if let Some(name) = name {
            let found = SyncBug::from_name(name).ok_or_else(|| {
                let names: Vec<&str> = SyncBug::ALL.iter().map(|bug| bug.name()).collect();
                format!("unknown mutant {name:?}; valid names: {}", names.join(", "))
            })?;
            if bug.replace(found).is_some() {
                return Err("--bug given twice".to_string());
            }
        } else if arg.starts_with('-') && arg.len() > 1 {
            return Err(format!("unknown option {arg:?}"));
        } else {
            paths.push(arg.as_str());
        }
    }
    let paths = <[&str; 3]>::try_from(paths)
        .map_err(|paths| format!("expected three paths (A B STATE), got {}", paths.len()))?;
    Ok((bug, paths))
}

/// The command line `refsync [--bug NAME] A B STATE` (`args` without the
/// program name): runs [`synchronize`] and returns its exit code, or
/// [`EXIT_USAGE`] after a message on standard error.
pub fn main_with_args(args: &[String]) -> i32 {
    match parse_args(args) {
        Ok((bug, [a, b, state])) => synchronize(Path::new(a), Path::new(b), Path::new(state), bug),
        Err(message) => {
            eprintln!("refsync: {message}\n{USAGE}");
            EXIT_USAGE
        }
    }
}
