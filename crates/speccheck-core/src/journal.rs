//! The write-ahead journal: before a run starts, a line saying which
//! property runs with which seed; after it, a line saying it ended. Each
//! process appends to a file of its own (locked while it lives), mapped
//! into its memory: a line is a copy into the page cache, not a system
//! call, and no `fsync`. A process that dies keeps what it copied, as it
//! keeps what it `write`s (the kernel owns a shared mapping's pages; only
//! the whole machine failing would lose them). The next process to
//! use the database finds the journals of processes that died, turns each
//! run that began and never ended into a *crashed run* record of its
//! property (the database's `.crashed` file), and deletes the journal; the
//! property's next run then replays that seed in isolation first, and
//! reports the crash with its input (see `runner::isolate`).
//!
//! Cost: two lines copied per property run (a fraction of a microsecond;
//! two `write` calls cost a worker running a fast property a tenth of its
//! runs), only when the failure database is written (not under the CI
//! profile). A journal past 256 KiB (`ROTATE_AFTER`) is replaced by a new
//! one holding only the runs under way, so a worker that runs properties
//! for hours keeps a small file. A journal's file is twice that size,
//! written with zeros when it is made (so that its disk space is taken
//! then: a full disk turns the journal off, where a page with no block
//! behind it would kill the process at its first line), and reading
//! stops at the first zero.
//!
//! Crashed-run records appear only when a journal is recovered: this
//! process recovered the journals of dead processes when it opened its
//! own, and any record written later comes from another process's
//! recovery. So a process reads a property's records at its first run of
//! it, then at most once every 0.1 s (`CRASHES_READ_EVERY`), not at
//! every run of a worker that runs it
//! thousands of times a second.

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use memmap2::MmapMut;

use crate::database::FailureDatabase;

/// Size past which a journal is rotated.
const ROTATE_AFTER: usize = 256 << 10;

/// How often a process reads a property's crashed-run records at most.
const CRASHES_READ_EVERY: Duration = Duration::from_millis(100);

/// This process's journal for one database.
pub(crate) struct Journal {
    dir: PathBuf,
    file: Mutex<Open>,
    /// When this process last read each property's crashed-run records.
    crashes_read: Mutex<HashMap<String, Instant>>,
}

/// The journal file being written, mapped.
struct Open {
    map: MmapMut,
    /// Held for its lock (see [`new_file`]).
    _file: File,
    path: PathBuf,
    /// Bytes written to it.
    written: usize,
    /// The runs under way: begun, not ended.
    running: Vec<(String, u64)>,
    /// Size past which it is rotated (`ROTATE_AFTER`; smaller in tests).
    rotate_after: usize,
    /// The line being written (kept: a line costs no allocation).
    scratch: String,
}

/// The journal of `db` for this process, created (and the journals of dead
/// processes recovered) on first use. `None` when it cannot be written.
pub(crate) fn for_database(db: &FailureDatabase) -> Option<Arc<Journal>> {
    static OPEN: OnceLock<Mutex<HashMap<PathBuf, Option<Arc<Journal>>>>> = OnceLock::new();
    let mut open = OPEN.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    // Looked up before an entry is made: a key is a copy of the path.
    if let Some(journal) = open.get(db.dir()) {
        return journal.clone();
    }
    let dir = db.dir().join(".journal");
    recover(&dir, db);
    let journal = create(&dir).map(Arc::new);
    open.insert(db.dir().to_path_buf(), journal.clone());
    journal
}

fn create(dir: &Path) -> Option<Journal> {
    let (_file, map, path) = new_file(dir, 2 * ROTATE_AFTER)?;
    let open =
        Open { map, _file, path, written: 0, running: Vec::new(), rotate_after: ROTATE_AFTER, scratch: String::new() };
    Some(Journal { dir: dir.to_path_buf(), file: Mutex::new(open), crashes_read: Mutex::default() })
}

/// A new journal file of this process in `dir`, locked, of `size` bytes
/// (zeros: sparse), mapped.
fn new_file(dir: &Path, size: usize) -> Option<(File, MmapMut, PathBuf)> {
    fs::create_dir_all(dir).ok()?;
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let path = dir.join(format!("{}-{nanos}.journal", std::process::id()));
    let file = fs::OpenOptions::new().create_new(true).read(true).write(true).open(&path).ok()?;
    // Held while this process lives: a journal whose lock can be taken
    // belongs to a process that is gone.
    file.try_lock().ok()?;
    let mapped = (&file).write_all(&vec![0; size]).ok().and_then(|()| {
        // SAFETY: the file is this process's own (created here, and
        // locked: no other process writes it, and recovery reads only
        // unlocked ones), its size does not change while it is mapped,
        // and its blocks are written (a write into the mapping cannot
        // meet a full disk).
        unsafe { MmapMut::map_mut(&file) }.ok()
    });
    let Some(map) = mapped else {
        let _ = fs::remove_file(&path);
        return None;
    };
    Some((file, map, path))
}

impl Journal {
    /// Before a run of `name` with `seed`.
    /// False when the line could not be written (the journal was full
    /// and no new file could be made): a crash of this run would go
    /// unrecorded.
    pub(crate) fn begin(&self, name: &str, seed: u64) -> bool {
        let mut open = self.file.lock().unwrap_or_else(|e| e.into_inner());
        open.running.push((name.to_string(), seed));
        open.scratch.clear();
        push_begin_line(&mut open.scratch, name, seed);
        // Else a new file begins with every run under way, this one too.
        open.line() || self.rotate(&mut open)
    }

    /// The directory of this journal's files.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// After the run of `name` with `seed` (whatever its verdict).
    pub(crate) fn end(&self, name: &str, seed: u64) {
        let mut open = self.file.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(k) = open.running.iter().rposition(|(n, s)| n == name && *s == seed) {
            open.running.remove(k);
        }
        open.scratch.clear();
        open.scratch.push_str("end ");
        open.scratch.push_str(&escape(name));
        open.scratch.push('\n');
        if !open.line() || open.written > open.rotate_after {
            self.rotate(&mut open);
        }
    }

    /// Whether `name`'s crashed-run records are worth reading now: at
    /// this process's first run of it, then once per `CRASHES_READ_EVERY`.
    pub(crate) fn crashes_due(&self, name: &str) -> bool {
        let mut read = self.crashes_read.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        match read.get_mut(name) {
            Some(at) if now.duration_since(*at) < CRASHES_READ_EVERY => false,
            Some(at) => {
                *at = now;
                true
            }
            None => {
                read.insert(name.to_string(), now);
                true
            }
        }
    }

    /// Moves to a new file that begins the runs under way, then deletes
    /// the old one. A crash in between leaves both, and recovery reads
    /// both: a run under way may be recorded twice, none is lost. The old
    /// file is deleted while still locked: another process's recovery
    /// that opened it then finds it locked, or gone by its path, never a
    /// journal of live runs free to read.
    /// False when no new file could be made (the old one is kept).
    fn rotate(&self, open: &mut Open) -> bool {
        let mut under_way = String::new();
        for (name, seed) in &open.running {
            push_begin_line(&mut under_way, name, *seed);
        }
        let size = (2 * open.rotate_after).max(2 * under_way.len());
        let Some((file, mut map, path)) = new_file(&self.dir, size) else { return false };
        map[..under_way.len()].copy_from_slice(under_way.as_bytes());
        // The old mapping goes first (Windows deletes no mapped file), then
        // the file, and only then its handle and lock.
        drop(std::mem::replace(&mut open.map, map));
        let _ = fs::remove_file(&open.path);
        (open._file, open.path, open.written) = (file, path, under_way.len());
        true
    }
}

impl Open {
    /// Appends the line in `scratch`; false when it does not fit in the
    /// file.
    fn line(&mut self) -> bool {
        let line = &self.scratch;
        let end = self.written + line.len();
        if end > self.map.len() {
            return false;
        }
        // A process killed during the copy leaves part of a line, which
        // recovery ignores (see [`complete_lines`]): a begin line not
        // whole was a run not begun; an end line not whole is a run that
        // ended as its process was killed, replayed as a crash (where it
        // passes, and the report says so).
        self.map[self.written..end].copy_from_slice(line.as_bytes());
        self.written = end;
        true
    }
}

/// The whole lines of a journal's bytes: up to the first zero (the file
/// past what was written) and the last line end.
fn complete_lines(bytes: &[u8]) -> String {
    let written = &bytes[..bytes.iter().position(|b| *b == 0).unwrap_or(bytes.len())];
    let whole = &written[..written.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1)];
    String::from_utf8_lossy(whole).into_owned()
}

fn push_begin_line(out: &mut String, name: &str, seed: u64) {
    use std::fmt::Write as _;
    let _ = writeln!(out, "begin {seed} {}", escape(name));
}

/// Turns the unfinished runs in the journals of dead processes into crashed
/// run records, and deletes those journals.
fn recover(dir: &Path, db: &FailureDatabase) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "journal") {
            continue;
        }
        let Ok(file) = fs::OpenOptions::new().read(true).append(true).open(&path) else { continue };
        if file.try_lock().is_err() {
            continue; // Its process is alive.
        }
        // Through the handle that holds the lock (on Windows a lock bars
        // every other handle).
        let mut bytes = Vec::new();
        if (&file).read_to_end(&mut bytes).is_err() {
            continue;
        }
        for (name, seed) in unfinished(&complete_lines(&bytes)) {
            let _ = db.record_crashed_run(&name, seed);
        }
        let _ = fs::remove_file(&path);
    }
}

/// The runs that began and did not end: `(name, seed)`.
fn unfinished(text: &str) -> Vec<(String, u64)> {
    let mut open: Vec<(String, u64)> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("begin ") {
            let Some((seed, name)) = rest.split_once(' ') else { continue };
            if let Ok(seed) = seed.parse() {
                open.push((unescape(name), seed));
            }
        } else if let Some(name) = line.strip_prefix("end ") {
            let name = unescape(name);
            if let Some(k) = open.iter().rposition(|(n, _)| *n == name) {
                open.remove(k);
            }
        }
    }
    open
}

fn escape(s: &str) -> std::borrow::Cow<'_, str> {
    if s.contains(['\\', '\n']) { s.replace('\\', "\\\\").replace('\n', "\\n").into() } else { s.into() }
}

fn unescape(s: &str) -> String {
    s.replace("\\n", "\n").replace("\\\\", "\\")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_that_began_and_never_ended_are_the_crashed_ones() {
        let text = "begin 7 a::p\nend a::p\nbegin 9 a::q\nbegin 11 a::p\n";
        assert_eq!(unfinished(text), vec![("a::q".to_string(), 9), ("a::p".to_string(), 11)]);
    }

    #[test]
    fn a_dead_processs_journal_becomes_crash_records() {
        let dir = std::env::temp_dir().join(format!("speccheck-journal-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let db = FailureDatabase::new(&dir);
        fs::create_dir_all(dir.join(".journal")).unwrap();
        // A journal nobody holds: its process is gone.
        fs::write(dir.join(".journal").join("1-1.journal"), "begin 42 m::crashy\nbegin 5 m::fine\nend m::fine\n")
            .unwrap();
        recover(&dir.join(".journal"), &db);
        assert_eq!(db.crashed_runs("m::crashy"), vec![42]);
        assert!(db.crashed_runs("m::fine").is_empty());
        assert!(!dir.join(".journal").join("1-1.journal").exists());
        // A live journal (locked) is left alone.
        let live = create(&dir.join(".journal")).expect("a journal");
        live.begin("m::running", 3);
        recover(&dir.join(".journal"), &db);
        assert!(db.crashed_runs("m::running").is_empty());
        let _ = fs::remove_dir_all(&dir);
    }

    /// A journal in a new directory of its own.
    fn fresh(tag: &str) -> (PathBuf, Journal) {
        let dir = std::env::temp_dir().join(format!("speccheck-journal-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let journal = create(&dir).unwrap();
        (dir, journal)
    }

    #[test]
    fn a_long_journal_is_rotated_and_keeps_the_runs_under_way() {
        let (dir, journal) = fresh("rotate");
        journal.file.lock().unwrap().rotate_after = 4096;
        let short_runs = || {
            for seed in 0..10_000 {
                journal.begin("m::short", seed);
                journal.end("m::short", seed);
            }
        };
        journal.begin("m::long", 7);
        short_runs();
        // A second run of the same property (another thread) begins, and the first ends.
        journal.begin("m::long", 8);
        journal.end("m::long", 7);
        short_runs();
        let files: Vec<PathBuf> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        assert_eq!(files.len(), 1, "{files:?}");
        let text = complete_lines(&fs::read(&files[0]).unwrap());
        assert!(text.len() < 4096 + 100, "{} bytes", text.len());
        // The run still under way is there, and nothing else is unfinished.
        assert_eq!(unfinished(&text), vec![("m::long".to_string(), 8)]);
        journal.end("m::long", 8);
        assert!(unfinished(&complete_lines(&fs::read(&journal.file.lock().unwrap().path).unwrap())).is_empty());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_line_cut_short_is_not_read() {
        // A process killed while copying a line leaves part of it, then
        // the zeros of the file not written.
        let mut bytes = b"begin 7 m::done\nend m::done\nbegin 9 m::crashy\nbegin 1".to_vec();
        bytes.extend([0; 64]);
        assert_eq!(unfinished(&complete_lines(&bytes)), vec![("m::crashy".to_string(), 9)]);
        // A journal of the former format (appended lines, no zeros).
        assert_eq!(unfinished(&complete_lines(b"begin 3 m::p\n")), vec![("m::p".to_string(), 3)]);
    }

    #[test]
    fn a_run_begun_with_the_file_full_is_in_the_next_file() {
        let (dir, journal) = fresh("full");
        // Short runs past the limit move the journal to a file of twice
        // it; then a name longer than that file cannot fit, and the next
        // file is made large enough for the runs under way.
        journal.file.lock().unwrap().rotate_after = 64;
        for seed in 0..8 {
            journal.begin("m::short", seed);
            journal.end("m::short", seed);
        }
        assert_eq!(journal.file.lock().unwrap().map.len(), 128);
        let long = "m::".to_string() + &"x".repeat(300);
        journal.begin(&long, 5);
        let path = journal.file.lock().unwrap().path.clone();
        assert_eq!(unfinished(&complete_lines(&fs::read(&path).unwrap())), vec![(long.clone(), 5)]);
        journal.end(&long, 5);
        let path = journal.file.lock().unwrap().path.clone();
        assert!(unfinished(&complete_lines(&fs::read(&path).unwrap())).is_empty());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn crash_records_are_read_at_a_first_run_then_once_in_a_while() {
        let (dir, journal) = fresh("first");
        assert!(journal.crashes_due("m::p"));
        assert!(!journal.crashes_due("m::p"));
        assert!(journal.crashes_due("m::q"));
        std::thread::sleep(CRASHES_READ_EVERY);
        assert!(journal.crashes_due("m::p"));
        let _ = fs::remove_dir_all(&dir);
    }
}
