//! The failure database: one small text file per test in a directory of
//! the crate (`.speccheck/failures/` by default), written atomically (a
//! temporary file renamed into place). Each failure is a line holding its
//! replay string and, for people, its message. It stores *choices*, not
//! seeds:
//! when the generator changes, a stored sequence that no longer fits is
//! reported stale and dropped instead of silently replaying something
//! else. Known failures replay first on the next run.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::choice::ChoiceSequence;

/// First line of a file: what it is and its format version.
const HEADER: &str = "# speccheck failure database, format 2";
/// Failures kept per test.
pub(crate) const MAX_ENTRIES: usize = 8;

/// One stored failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredFailure {
    /// The failing choices.
    pub choices: ChoiceSequence,
    /// The failure message when it was saved (for humans).
    pub message: String,
    /// The failure crashed its process: the next run replays it isolated.
    pub crashed: bool,
}

/// Something wrong with a database file; it is ignored, never fatal.
#[derive(Debug)]
pub enum DatabaseWarning {
    /// The file could not be read.
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a failure database file (or is corrupt).
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        detail: String,
    },
    /// A store could not be reached, or answered something that is not a
    /// store's answer: it is skipped for this load.
    Unavailable {
        /// The store (its URL).
        location: String,
        /// Why.
        detail: String,
    },
    /// One stored entry is not a failure this version can read (corrupt,
    /// or written by another version): it is left out.
    CorruptEntry {
        /// Where the entry is.
        location: String,
        /// What is wrong.
        detail: String,
    },
}

impl std::fmt::Display for DatabaseWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DatabaseWarning::Unreadable { path, source } => write!(f, "could not read {}: {source}", path.display()),
            DatabaseWarning::Corrupt { path, detail } => {
                write!(f, "ignoring corrupt failure database file {}: {detail}", path.display())
            }
            DatabaseWarning::Unavailable { location, detail } => {
                write!(f, "the failure store {location} is unavailable ({detail}); going on without it")
            }
            DatabaseWarning::CorruptEntry { location, detail } => {
                write!(f, "ignoring an unreadable entry of the failure store {location}: {detail}")
            }
        }
    }
}

impl std::error::Error for DatabaseWarning {}

/// A file's text: the header, the test's name, one line per failure
/// (`failure <replay string> <message, escaped onto one line>`).
fn to_text(test: &str, failures: &[StoredFailure]) -> String {
    let mut out = format!("{HEADER}\ntest {}\n", escape(test));
    for f in failures {
        let keyword = if f.crashed { "crash" } else { "failure" };
        out.push_str(&format!("{keyword} {} {}\n", f.choices.to_replay_string(), escape(&f.message)));
    }
    out
}

/// Reads [`to_text`]'s output.
fn from_text(text: &str) -> Result<Vec<StoredFailure>, String> {
    let mut lines = text.lines();
    match lines.next() {
        Some(HEADER) => {}
        Some(other) if other.starts_with("# speccheck failure database") => {
            return Err(format!("unknown format ({other})"));
        }
        _ => return Err("not a speccheck failure database file".into()),
    }
    let mut failures = Vec::new();
    for line in lines {
        if line.is_empty() || line.starts_with("test ") {
            continue;
        }
        let (crashed, rest) = match (line.strip_prefix("failure "), line.strip_prefix("crash ")) {
            (Some(rest), _) => (false, rest),
            (None, Some(rest)) => (true, rest),
            _ => return Err(format!("unexpected line {line:?}")),
        };
        let (replay, message) = rest.split_once(' ').unwrap_or((rest, ""));
        let choices = ChoiceSequence::from_replay_string(replay).map_err(|e| e.to_string())?;
        failures.push(StoredFailure { choices, message: unescape(message), crashed });
    }
    Ok(failures)
}

/// One line: backslashes and line breaks escaped.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('\n', "\\n").replace('\r', "\\r")
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// A directory of failure files.
#[derive(Clone, Debug)]
pub struct FailureDatabase {
    dir: PathBuf,
}

impl FailureDatabase {
    /// The database in `dir` (created on first write).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        FailureDatabase { dir: dir.into() }
    }

    /// The default location for a crate: `<manifest dir>/.speccheck/failures`.
    pub fn default_dir(manifest_dir: &Path) -> PathBuf {
        manifest_dir.join(".speccheck").join("failures")
    }

    /// The file holding `test`'s failures.
    pub fn path_for(&self, test: &str) -> PathBuf {
        use std::fmt::Write as _;
        // Built in one buffer: a worker runs a property thousands of times
        // a second, and every run looks its file up.
        let mut name = String::with_capacity(test.len().min(120) + 18);
        name.extend(test.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }));
        if name.len() > 120 {
            name.truncate(100);
        }
        // Different names can sanitize alike; the hash keeps them apart.
        let _ = write!(name, "-{:08x}.failures", crate::seed::fnv1a(test.as_bytes()) as u32);
        self.dir.join(name)
    }

    /// The file recording `test`'s runs that died mid-case.
    fn crashed_path(&self, test: &str) -> PathBuf {
        self.path_for(test).with_extension("crashed")
    }

    /// Seeds of `test`'s runs that died mid-case (found in the journal of
    /// a process that died: see [`crate::journal`]), oldest first.
    pub fn crashed_runs(&self, test: &str) -> Vec<u64> {
        fs::read_to_string(self.crashed_path(test))
            .map(|t| t.lines().filter_map(|l| l.trim().strip_prefix("seed ")?.parse().ok()).collect())
            .unwrap_or_default()
    }

    /// Records that a run of `test` with `seed` died mid-case.
    pub fn record_crashed_run(&self, test: &str, seed: u64) -> std::io::Result<()> {
        fs::create_dir_all(&self.dir)?;
        let mut f = fs::OpenOptions::new().create(true).append(true).open(self.crashed_path(test))?;
        f.write_all(format!("seed {seed}\n").as_bytes())
    }

    /// Forgets `test`'s crashed runs (they were replayed).
    pub fn forget_crashed_runs(&self, test: &str) -> std::io::Result<()> {
        match fs::remove_file(self.crashed_path(test)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }

    /// The directory of the database.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The stored failures of `test` (none if the file is missing). A
    /// damaged file yields a warning and no failures.
    pub fn load(&self, test: &str) -> (Vec<StoredFailure>, Option<DatabaseWarning>) {
        let path = self.path_for(test);
        let text = match fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (Vec::new(), None),
            Err(source) => return (Vec::new(), Some(DatabaseWarning::Unreadable { path, source })),
        };
        // Replay strings carry valid choices only: a value above its bound
        // is a parse error, so a damaged file warns.
        match from_text(&text) {
            Ok(failures) => (failures, None),
            Err(detail) => (Vec::new(), Some(DatabaseWarning::Corrupt { path, detail })),
        }
    }

    /// Stores `failure` first for `test` (dropping an identical entry and
    /// the oldest beyond the limit).
    pub fn save(&self, test: &str, failure: StoredFailure) -> std::io::Result<()> {
        let (mut failures, _) = self.load(test);
        failures.retain(|f| f.choices != failure.choices);
        failures.insert(0, failure);
        failures.truncate(MAX_ENTRIES);
        self.write(test, failures)
    }

    /// Removes `choices` from `test`'s failures (it passes now).
    pub fn remove(&self, test: &str, choices: &ChoiceSequence) -> std::io::Result<()> {
        let (mut failures, warning) = self.load(test);
        let before = failures.len();
        failures.retain(|f| &f.choices != choices);
        if failures.len() == before && warning.is_none() {
            return Ok(());
        }
        self.write(test, failures)
    }

    fn write(&self, test: &str, failures: Vec<StoredFailure>) -> std::io::Result<()> {
        let path = self.path_for(test);
        // After the file changed (see `store::recently_read`).
        let written = self.write_file(test, &path, failures);
        crate::store::recently_read::forget();
        written
    }

    fn write_file(&self, test: &str, path: &Path, failures: Vec<StoredFailure>) -> std::io::Result<()> {
        if failures.is_empty() {
            return match fs::remove_file(path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
                _ => Ok(()),
            };
        }
        fs::create_dir_all(&self.dir)?;
        let text = to_text(test, &failures);
        // Write beside the target, then rename: readers never see half a file.
        let tmp = self.dir.join(format!(
            ".{}.{}.tmp",
            path.file_name().and_then(|n| n.to_str()).unwrap_or("failure"),
            std::process::id()
        ));
        {
            let mut f = fs::File::create(&tmp)?;
            f.write_all(text.as_bytes())?;
            f.sync_all()?;
        }
        fs::rename(&tmp, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::choice::{Choice, ChoiceKind};

    fn temp_dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("speccheck-db-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    fn seq(vals: &[u64]) -> ChoiceSequence {
        ChoiceSequence(vals.iter().map(|&v| Choice::new(v, 100, ChoiceKind::Integer)).collect())
    }

    #[test]
    fn round_trip_and_remove() {
        let db = FailureDatabase::new(temp_dir("rt"));
        let f = StoredFailure { choices: seq(&[1, 2, 3]), message: "boom".into(), crashed: false };
        db.save("mod::test", f.clone()).unwrap();
        db.save("mod::test", StoredFailure { choices: seq(&[4]), message: "b".into(), crashed: false }).unwrap();
        let (loaded, w) = db.load("mod::test");
        assert!(w.is_none());
        assert_eq!(loaded.len(), 2);
        assert_eq!(loaded[1], f);
        db.remove("mod::test", &seq(&[4])).unwrap();
        db.remove("mod::test", &seq(&[1, 2, 3])).unwrap();
        assert!(!db.path_for("mod::test").exists());
    }

    #[test]
    fn corrupt_files_warn_and_are_ignored() {
        let db = FailureDatabase::new(temp_dir("corrupt"));
        fs::create_dir_all(&db.dir).unwrap();
        fs::write(db.path_for("t"), "{ not json").unwrap();
        let (loaded, w) = db.load("t");
        assert!(loaded.is_empty());
        assert!(matches!(w, Some(DatabaseWarning::Corrupt { .. })));
        // Saving over a corrupt file replaces it.
        db.save("t", StoredFailure { choices: seq(&[1]), message: String::new(), crashed: false }).unwrap();
        assert_eq!(db.load("t").0.len(), 1);
    }

    #[test]
    fn messages_with_line_breaks_survive_the_file() {
        let db = FailureDatabase::new(temp_dir("lines"));
        let f = StoredFailure { choices: seq(&[7]), message: "left: 1\nright: 2 \\ done".into(), crashed: false };
        db.save("m::t", f.clone()).unwrap();
        assert_eq!(db.load("m::t").0, vec![f]);
    }

    #[test]
    fn names_that_sanitize_alike_do_not_collide() {
        let db = FailureDatabase::new("x");
        assert_ne!(db.path_for("a::b"), db.path_for("a__b"));
    }
}
