use std::io;
use std::sync::{Arc, Mutex};

use super::*;
use crate::choice::{Choice, ChoiceKind};

fn seq(vals: &[u64]) -> ChoiceSequence {
    ChoiceSequence(vals.iter().map(|&v| Choice::new(v, 100, ChoiceKind::Integer)).collect())
}

fn failure(vals: &[u64]) -> StoredFailure {
    StoredFailure { choices: seq(vals), message: "boom".into(), crashed: false }
}

/// A store in memory that counts writes and can be made to fail.
#[derive(Debug, Default)]
struct Memory {
    failures: Mutex<Vec<StoredFailure>>,
    writes: Mutex<u32>,
    down: bool,
}

impl Memory {
    fn down() -> Self {
        Memory { down: true, ..Memory::default() }
    }
    fn holding(vals: &[&[u64]]) -> Self {
        let m = Memory::default();
        *m.failures.lock().unwrap() = vals.iter().map(|v| failure(v)).collect();
        m
    }
    fn choices(&self) -> Vec<ChoiceSequence> {
        self.failures.lock().unwrap().iter().map(|f| f.choices.clone()).collect()
    }
    fn check(&self) -> io::Result<()> {
        if self.down { Err(io::Error::other("connection refused")) } else { Ok(()) }
    }
}

impl FailureStore for Memory {
    fn location(&self, _: &str) -> String {
        if self.down { "mem://down".into() } else { "mem://up".into() }
    }
    fn load(&self, _: &str) -> (Vec<StoredFailure>, Vec<DatabaseWarning>) {
        match self.check() {
            Ok(()) => (self.failures.lock().unwrap().clone(), Vec::new()),
            Err(e) => (
                Vec::new(),
                vec![DatabaseWarning::Unavailable { location: "mem://down".into(), detail: e.to_string() }],
            ),
        }
    }
    fn save(&self, _: &str, f: StoredFailure) -> io::Result<()> {
        *self.writes.lock().unwrap() += 1;
        self.check()?;
        self.failures.lock().unwrap().insert(0, f);
        Ok(())
    }
    fn remove(&self, _: &str, choices: &ChoiceSequence) -> io::Result<()> {
        *self.writes.lock().unwrap() += 1;
        self.check()?;
        self.failures.lock().unwrap().retain(|f| &f.choices != choices);
        Ok(())
    }
}

#[test]
fn read_only_reads_and_never_writes() {
    let inner = Arc::new(Memory::holding(&[&[1]]));
    let ro = ReadOnly(inner.clone());
    assert_eq!(ro.load("t").0, vec![failure(&[1])]);
    ro.save("t", failure(&[2])).unwrap();
    ro.remove("t", &seq(&[1])).unwrap();
    assert_eq!(*inner.writes.lock().unwrap(), 0);
    assert_eq!(inner.choices(), vec![seq(&[1])]);
}

#[test]
fn multiplexed_reads_from_all_first_store_first_without_duplicates() {
    let local = Arc::new(Memory::holding(&[&[1], &[2]]));
    let shared = Arc::new(Memory::holding(&[&[3], &[2]]));
    let m = Multiplexed(vec![local, shared]);
    let (loaded, warnings) = m.load("t");
    assert!(warnings.is_empty());
    let choices: Vec<_> = loaded.into_iter().map(|f| f.choices).collect();
    assert_eq!(choices, vec![seq(&[1]), seq(&[2]), seq(&[3])]);
}

#[test]
fn multiplexed_writes_to_all() {
    let (a, b) = (Arc::new(Memory::default()), Arc::new(Memory::default()));
    let m = Multiplexed(vec![a.clone(), b.clone()]);
    m.save("t", failure(&[5])).unwrap();
    assert_eq!(a.choices(), vec![seq(&[5])]);
    assert_eq!(b.choices(), vec![seq(&[5])]);
    m.remove("t", &seq(&[5])).unwrap();
    assert!(a.choices().is_empty() && b.choices().is_empty());
}

#[test]
fn multiplexed_survives_one_side_failing() {
    let local = Arc::new(Memory::holding(&[&[1]]));
    let m = Multiplexed(vec![local.clone(), Arc::new(Memory::down())]);
    // Reads: the live store's failures, and a warning naming the dead one.
    let (loaded, warnings) = m.load("t");
    assert_eq!(loaded, vec![failure(&[1])]);
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].to_string().contains("mem://down"), "{}", warnings[0]);
    // Writes: the live store has it; the error names the dead one and
    // where it was saved all the same.
    let e = m.save("t", failure(&[2])).unwrap_err().to_string();
    assert!(e.contains("mem://down") && e.contains("done in mem://up"), "{e}");
    assert_eq!(local.choices(), vec![seq(&[2]), seq(&[1])]);
    // The dead store does not stop the removal either.
    assert!(m.remove("t", &seq(&[1])).is_err());
    assert_eq!(local.choices(), vec![seq(&[2])]);
}

#[test]
fn the_directory_store_behaves_as_the_database() {
    let dir = std::env::temp_dir().join(format!("speccheck-store-dir-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let db = FailureDatabase::new(&dir);
    let store: Arc<dyn FailureStore> = Arc::new(db.clone());
    store.save("m::t", failure(&[9])).unwrap();
    // The same file as before the trait.
    assert_eq!(FailureDatabase::load(&db, "m::t").0, vec![failure(&[9])]);
    assert_eq!(store.location("m::t"), db.path_for("m::t").display().to_string());
    store.remove("m::t", &seq(&[9])).unwrap();
    assert!(!db.path_for("m::t").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn urls_of_unknown_schemes_are_errors_naming_them() {
    let e = open_url("memcached://x:1").unwrap_err();
    assert!(e.contains("memcached://x:1"), "{e}");
}

#[test]
fn a_preloaded_store_answers_its_first_load_and_reads_again_after_a_write() {
    let inner = Arc::new(Memory::holding(&[&[1]]));
    let pre = Preloaded::new(inner.clone(), "t");
    inner.failures.lock().unwrap().clear();
    // The first load is the answer read ahead, the next ones the store's.
    assert_eq!(pre.load("t").0, vec![failure(&[1])]);
    assert!(pre.load("t").0.is_empty());
    // Another test's load, or a load after a write, is never stale.
    let pre = Preloaded::new(inner.clone(), "t");
    assert!(pre.load("u").0.is_empty());
    pre.save("t", failure(&[2])).unwrap();
    assert_eq!(pre.load("t").0, vec![failure(&[2])]);
}

#[test]
fn the_directory_is_read_again_after_a_tenth_of_a_second_or_at_once_after_a_write_here() {
    let dir = std::env::temp_dir().join(format!("speccheck-store-reread-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store: Arc<dyn FailureStore> = Arc::new(FailureDatabase::new(&dir));
    assert!(store.load("m::t").0.is_empty());
    // Another handle on the same directory in this process saves: the
    // next load sees it at once.
    FailureDatabase::new(&dir).save("m::t", failure(&[4])).unwrap();
    assert_eq!(store.load("m::t").0, vec![failure(&[4])]);
    // Another process changes the file (here: written behind the
    // database's back): seen once the answer is old enough.
    let other = std::env::temp_dir().join(format!("speccheck-store-reread-other-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&other);
    let db = FailureDatabase::new(&other);
    db.save("m::t", failure(&[5])).unwrap();
    std::fs::copy(db.path_for("m::t"), FailureDatabase::new(&dir).path_for("m::t")).unwrap();
    std::thread::sleep(recently_read::REREAD_AFTER);
    assert_eq!(store.load("m::t").0, vec![failure(&[5])]);
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&other);
}

#[test]
fn an_answer_read_while_this_process_wrote_is_not_kept() {
    let dir = std::path::Path::new("/nonexistent/speccheck-recently-read-race");
    // A read began; another thread wrote some file before it ended.
    let writes = recently_read::writes();
    recently_read::forget();
    recently_read::put(dir, "m::t", &[failure(&[1])], writes);
    assert_eq!(recently_read::get(dir, "m::t"), None);
    // Read with nothing written meanwhile: kept (tried again if another
    // test of this process wrote in between), and only for its property.
    let kept = (0..100).any(|_| {
        recently_read::put(dir, "m::t", &[failure(&[1])], recently_read::writes());
        recently_read::get(dir, "m::t") == Some(vec![failure(&[1])]) && recently_read::get(dir, "m::u").is_none()
    });
    assert!(kept);
}
