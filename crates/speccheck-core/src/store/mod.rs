//! Failure stores (Hypothesis's `ExampleDatabase` family): where a failing
//! property's input, as its choices, waits for the next run, keyed by the
//! property's name. [`FailureStore`] is the interface; the runner holds
//! one as `Arc<dyn FailureStore>` built from [`Config`](crate::Config)
//! (see [`Config::failure_store`](crate::Config::failure_store)):
//!
//! * [`FailureDatabase`]: a directory of the crate (the default);
//! * [`ReadOnly`]: reads another store, never writes it (the CI profile);
//! * [`Multiplexed`]: reads from all its stores, writes to all of them
//!   (a developer's directory beside a store the team shares);
//! * `redis::RedisStore` (cargo feature `redis`): a Redis server shared by
//!   machines, opened from a `redis://` URL.
//!
//! A store that cannot be reached or holds garbage is a warning, never a
//! failed run: the failures are a cache of work already done.

use std::fmt;
use std::io;
use std::sync::{Arc, Mutex};

use crate::choice::ChoiceSequence;
use crate::database::{DatabaseWarning, FailureDatabase, StoredFailure};

#[cfg(feature = "redis")]
pub mod redis;

/// Where the failures of properties are kept between runs, keyed by
/// property name. Shared by the threads of a run (hence `Send + Sync`).
pub trait FailureStore: Send + Sync + fmt::Debug {
    /// Where `test`'s failures are kept, for people (a file, a URL).
    fn location(&self, test: &str) -> String;

    /// `test`'s stored failures, newest first. What cannot be read (an
    /// unreachable server, a corrupt entry) is left out with a warning.
    fn load(&self, test: &str) -> (Vec<StoredFailure>, Vec<DatabaseWarning>);

    /// Stores `failure` first among `test`'s.
    fn save(&self, test: &str, failure: StoredFailure) -> io::Result<()>;

    /// Forgets `choices` among `test`'s failures (it passes now, or no
    /// longer fits its generator).
    fn remove(&self, test: &str, choices: &ChoiceSequence) -> io::Result<()>;
}

impl FailureStore for FailureDatabase {
    fn location(&self, test: &str) -> String {
        self.path_for(test).display().to_string()
    }

    /// The file's failures as this process last read them, when that was
    /// less than a tenth of a second ago and nothing was written through a
    /// `FailureDatabase` in this process since; else the file, read.
    fn load(&self, test: &str) -> (Vec<StoredFailure>, Vec<DatabaseWarning>) {
        if let Some(failures) = recently_read::get(self.dir(), test) {
            return (failures, Vec::new());
        }
        let writes = recently_read::writes();
        let (failures, warning) = FailureDatabase::load(self, test);
        if warning.is_none() {
            recently_read::put(self.dir(), test, &failures, writes);
        }
        (failures, warning.into_iter().collect())
    }

    fn save(&self, test: &str, failure: StoredFailure) -> io::Result<()> {
        FailureDatabase::save(self, test, failure)
    }

    fn remove(&self, test: &str, choices: &ChoiceSequence) -> io::Result<()> {
        FailureDatabase::remove(self, test, choices)
    }
}

/// What this process read of each failures file, for a worker that runs a
/// property many times a second: each run reading the file (a missing one
/// included) cost a fast property a tenth of its throughput. A process
/// reads a file at its first load of it, then again once its answer is
/// `REREAD_AFTER` old; a write through a `FailureDatabase` of this process
/// forgets the file's answer at once. So a failure another process saves
/// is seen within `REREAD_AFTER` (as the Redis store's cache holds an
/// answer at most a second), and this process's own at once.
pub(crate) mod recently_read {
    use std::collections::HashMap;
    use std::path::{Path, PathBuf};
    use std::sync::{Mutex, OnceLock};
    use std::time::{Duration, Instant};

    use crate::database::StoredFailure;

    /// How old an answer may be before the file is read again.
    pub(crate) const REREAD_AFTER: Duration = Duration::from_millis(100);

    /// By directory, then property: a hit builds no path (a worker runs a
    /// property thousands of times a second, and every run loads).
    type Read = HashMap<PathBuf, HashMap<String, (Instant, Vec<StoredFailure>)>>;

    /// The answers, and how many writes this process has made so far.
    fn table() -> std::sync::MutexGuard<'static, (Read, u64)> {
        static READ: OnceLock<Mutex<(Read, u64)>> = OnceLock::new();
        READ.get_or_init(Mutex::default).lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many writes this process has made so far: taken before a read,
    /// so that an answer read while another thread wrote is not kept.
    pub(crate) fn writes() -> u64 {
        table().1
    }

    /// The failures last read of `test` in `dir`, if read recently.
    pub(crate) fn get(dir: &Path, test: &str) -> Option<Vec<StoredFailure>> {
        let table = table();
        let (at, failures) = table.0.get(dir)?.get(test)?;
        (at.elapsed() < REREAD_AFTER).then(|| failures.clone())
    }

    /// Notes what `test`'s file in `dir` held just now, read when this
    /// process had made `writes` writes (not kept if it has made more
    /// since).
    pub(crate) fn put(dir: &Path, test: &str, failures: &[StoredFailure], writes: u64) {
        let mut table = table();
        if table.1 != writes {
            return;
        }
        // A process that loads many properties' files (in many
        // directories) keeps a bounded table: past the bound, what is too
        // old to answer with goes, and so do directories left with nothing.
        if table.0.len() + table.0.values().map(HashMap::len).sum::<usize>() >= 4096 {
            table.0.retain(|_, answers| {
                answers.retain(|_, (at, _)| at.elapsed() < REREAD_AFTER);
                !answers.is_empty()
            });
        }
        let answers = match table.0.get_mut(dir) {
            Some(answers) => answers,
            None => table.0.entry(dir.to_path_buf()).or_default(),
        };
        answers.insert(test.to_string(), (Instant::now(), failures.to_vec()));
    }

    /// A file was written: every next load reads its file (all of them:
    /// two spellings of one directory, relative and absolute, are two
    /// keys, and writes are rare).
    pub(crate) fn forget() {
        let mut table = table();
        table.0.clear();
        table.1 += 1;
    }
}

/// Reads a store and never writes it: saves and removals succeed without
/// doing anything (what CI uses, so that a run does not change the store
/// it shares with developers).
#[derive(Clone, Debug)]
pub struct ReadOnly(pub Arc<dyn FailureStore>);

impl FailureStore for ReadOnly {
    fn location(&self, test: &str) -> String {
        self.0.location(test)
    }

    fn load(&self, test: &str) -> (Vec<StoredFailure>, Vec<DatabaseWarning>) {
        self.0.load(test)
    }

    fn save(&self, _: &str, _: StoredFailure) -> io::Result<()> {
        Ok(())
    }

    fn remove(&self, _: &str, _: &ChoiceSequence) -> io::Result<()> {
        Ok(())
    }
}

/// A store whose failures for one test were read ahead: the run reads
/// them once at its start (a saved failure that crashed its process makes
/// the run isolated) and its replay phase gets that same answer, warnings
/// included, instead of a second round trip to a shared store. Later loads,
/// and any load after a write, go to the store.
#[derive(Debug)]
pub(crate) struct Preloaded {
    inner: Arc<dyn FailureStore>,
    test: String,
    ahead: Mutex<Option<(Vec<StoredFailure>, Vec<DatabaseWarning>)>>,
}

impl Preloaded {
    /// Reads `test`'s failures from `inner` now.
    pub(crate) fn new(inner: Arc<dyn FailureStore>, test: &str) -> Self {
        let loaded = inner.load(test);
        Preloaded { inner, test: test.to_string(), ahead: Mutex::new(Some(loaded)) }
    }

    /// Whether a failure read ahead crashed its process.
    pub(crate) fn holds_a_crash(&self) -> bool {
        let ahead = self.ahead.lock().unwrap_or_else(|e| e.into_inner());
        ahead.as_ref().is_some_and(|(failures, _)| failures.iter().any(|f| f.crashed))
    }

    fn forget(&self) {
        *self.ahead.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

impl FailureStore for Preloaded {
    fn location(&self, test: &str) -> String {
        self.inner.location(test)
    }

    fn load(&self, test: &str) -> (Vec<StoredFailure>, Vec<DatabaseWarning>) {
        if test == self.test
            && let Some(loaded) = self.ahead.lock().unwrap_or_else(|e| e.into_inner()).take()
        {
            return loaded;
        }
        self.inner.load(test)
    }

    fn save(&self, test: &str, failure: StoredFailure) -> io::Result<()> {
        self.forget();
        self.inner.save(test, failure)
    }

    fn remove(&self, test: &str, choices: &ChoiceSequence) -> io::Result<()> {
        self.forget();
        self.inner.remove(test, choices)
    }
}

/// Several stores as one: loads read every store (the first store's
/// failures first, then the others' not seen yet), saves and removals go
/// to every store. One store failing does not stop the others.
#[derive(Clone, Debug)]
pub struct Multiplexed(pub Vec<Arc<dyn FailureStore>>);

impl Multiplexed {
    /// Applies `write` to every store; an error names the stores that
    /// failed, and says where it worked.
    fn each(&self, test: &str, write: impl Fn(&dyn FailureStore) -> io::Result<()>) -> io::Result<()> {
        let (mut done, mut failed) = (Vec::new(), Vec::new());
        for store in &self.0 {
            match write(&**store) {
                Ok(()) => done.push(store.location(test)),
                Err(e) => failed.push(format!("{}: {e}", store.location(test))),
            }
        }
        if failed.is_empty() {
            return Ok(());
        }
        let done = if done.is_empty() { String::new() } else { format!(" (done in {})", done.join(", ")) };
        Err(io::Error::other(format!("{}{done}", failed.join("; "))))
    }
}

impl FailureStore for Multiplexed {
    fn location(&self, test: &str) -> String {
        self.0.iter().map(|s| s.location(test)).collect::<Vec<_>>().join(" and ")
    }

    fn load(&self, test: &str) -> (Vec<StoredFailure>, Vec<DatabaseWarning>) {
        let (mut all, mut warnings) = (Vec::<StoredFailure>::new(), Vec::new());
        for store in &self.0 {
            let (failures, w) = store.load(test);
            warnings.extend(w);
            for f in failures {
                // The same input in two stores is replayed once.
                if !all.iter().any(|g| g.choices == f.choices) {
                    all.push(f);
                }
            }
        }
        (all, warnings)
    }

    fn save(&self, test: &str, failure: StoredFailure) -> io::Result<()> {
        self.each(test, |s| s.save(test, failure.clone()))
    }

    fn remove(&self, test: &str, choices: &ChoiceSequence) -> io::Result<()> {
        self.each(test, |s| s.remove(test, choices))
    }
}

/// Opens the store a URL names (`redis://host:port/db`, with the `redis`
/// feature). One store per URL and process, so that its connection (or
/// the knowledge that it is down) serves every property of the process.
pub fn open_url(url: &str) -> Result<Arc<dyn FailureStore>, String> {
    let scheme = url.split_once("://").map(|(s, _)| s.to_ascii_lowercase());
    match scheme.as_deref() {
        Some("redis") => open_redis(url),
        _ => Err(format!("{url}: not a failure store URL (expected a directory, `off`, or redis://host:port/db)")),
    }
}

#[cfg(feature = "redis")]
fn open_redis(url: &str) -> Result<Arc<dyn FailureStore>, String> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static OPEN: OnceLock<Mutex<HashMap<String, Arc<dyn FailureStore>>>> = OnceLock::new();
    let mut open = OPEN.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(store) = open.get(url) {
        return Ok(store.clone());
    }
    let store: Arc<dyn FailureStore> = Arc::new(redis::RedisStore::open(url)?);
    open.insert(url.to_string(), store.clone());
    Ok(store)
}

#[cfg(not(feature = "redis"))]
fn open_redis(url: &str) -> Result<Arc<dyn FailureStore>, String> {
    Err(format!("{url}: this build has no Redis support (turn on speccheck's `redis` cargo feature)"))
}

#[cfg(test)]
mod tests;
