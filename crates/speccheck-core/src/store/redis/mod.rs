//! A failure store on a Redis server (cargo feature `redis`), shared by
//! every machine that reaches it: a failure one worker saves is replayed
//! first by the others. Each property is a Redis hash at
//! `<prefix><property name>` (prefix `speccheck:failures:`, or the URL's
//! `?prefix=`): one field per failure, its replay string, whose value is
//! `1 <saved at, ms since 1970> <failure|crash> <message>`. One field per
//! failure makes saves and removals single commands: two workers saving
//! at once both keep theirs.
//!
//! The server being down, slow, or not a Redis server is a warning naming
//! the URL, never a failed run; after a connection fails the store is left
//! alone for a few seconds, so that a suite of many properties does not
//! wait on a dead server once per property.
//!
//! A process that reads a property's failures a second time (a worker
//! running it run after run) turns on its cache (module `cache`): from then on an
//! answer is reused until the server says the key changed, so a run that
//! finds nothing new costs no round trip, and a failure saved by another
//! worker still reaches it within the time of one message.

use std::collections::HashSet;
use std::io;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::FailureStore;
use crate::choice::ChoiceSequence;
use crate::database::{DatabaseWarning, MAX_ENTRIES, StoredFailure};
use cache::{Entries, Listener};

/// Longest wait for a connection: a store is a cache, not worth a slow start.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(1);
/// Longest wait for an answer.
const IO_TIMEOUT: Duration = Duration::from_secs(2);
/// How long a store that failed is left alone before trying again.
const RETRY_AFTER: Duration = Duration::from_secs(5);
/// How long a process reads without the cache after tracking was refused.
const TRACK_RETRY_AFTER: Duration = Duration::from_secs(60);
/// Key prefix when the URL names none.
const DEFAULT_PREFIX: &str = "speccheck:failures:";
/// Version of the entry format (the first word of a value).
const VERSION: &str = "1";

/// A failure store on a Redis server. Connects on first use, and again
/// after a failure; commands of the threads of a process share one
/// connection (a few per run: not worth a pool).
pub struct RedisStore {
    client: ::redis::Client,
    /// The URL without credentials, for messages.
    shown: String,
    prefix: String,
    link: Mutex<Link>,
}

mod cache;

#[derive(Default)]
struct Link {
    conn: Option<::redis::Connection>,
    /// Set when connecting or a command failed: until when it is left alone, and why.
    down: Option<(Instant, String)>,
    /// Keys this process has read (a second read turns the cache on).
    read: HashSet<String>,
    /// The listener of invalidations (it may outlive a connection).
    listener: Option<Arc<Listener>>,
    /// Whether the reads of `conn` are tracked, their invalidations sent to `listener`.
    tracked: bool,
    /// Set when tracking was refused (an old server, a user without the
    /// right, too many clients): until then every read goes to the server.
    untracked_until: Option<Instant>,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore").field("url", &self.shown).field("prefix", &self.prefix).finish()
    }
}

impl RedisStore {
    /// The store at `url`: `redis://[user:password@]host:port[/db][?prefix=P]`.
    /// Only a malformed URL is an error: the server is reached on first use.
    pub fn open(url: &str) -> Result<Self, String> {
        let shown = without_credentials(url);
        let (base, query) = url.split_once('?').unwrap_or((url, ""));
        let mut prefix = DEFAULT_PREFIX.to_string();
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            match pair.split_once('=') {
                Some(("prefix", p)) => prefix = p.to_string(),
                _ => return Err(format!("{shown}: unknown parameter {pair:?} (the only one is `prefix=`)")),
            }
        }
        let client = ::redis::Client::open(base).map_err(|e| format!("{shown}: not a Redis URL: {e}"))?;
        Ok(RedisStore { client, shown, prefix, link: Mutex::new(Link::default()) })
    }

    /// The URL, without credentials.
    pub fn url(&self) -> &str {
        &self.shown
    }

    fn key(&self, test: &str) -> String {
        format!("{}{test}", self.prefix)
    }

    fn lock(&self) -> MutexGuard<'_, Link> {
        self.link.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `command` on the connection (made first if needed).
    fn with<T>(&self, command: impl FnOnce(&mut ::redis::Connection) -> ::redis::RedisResult<T>) -> Result<T, String> {
        self.on(&mut self.lock(), command)
    }

    /// Runs `command` on `link`'s connection (made first if needed). Any
    /// error drops the connection (after a garbled answer it cannot be
    /// trusted); one of the connection itself also leaves the store alone
    /// for a while.
    fn on<T>(
        &self,
        link: &mut Link,
        command: impl FnOnce(&mut ::redis::Connection) -> ::redis::RedisResult<T>,
    ) -> Result<T, String> {
        if let Some((until, why)) = &link.down {
            if Instant::now() < *until {
                return Err(why.clone());
            }
            link.down = None;
        }
        if link.conn.is_none() {
            let connected = self.client.get_connection_with_timeout(CONNECT_TIMEOUT).and_then(|c| {
                c.set_read_timeout(Some(IO_TIMEOUT))?;
                c.set_write_timeout(Some(IO_TIMEOUT))?;
                Ok(c)
            });
            match connected {
                Ok(c) => {
                    link.conn = Some(c);
                    link.tracked = false;
                }
                Err(e) => {
                    let why = format!("cannot connect: {e}");
                    link.down = Some((Instant::now() + RETRY_AFTER, why.clone()));
                    return Err(why);
                }
            }
        }
        let conn = link.conn.as_mut().expect("connected above");
        match command(conn) {
            Ok(v) => Ok(v),
            Err(e) => {
                (link.conn, link.tracked) = (None, false);
                let why = e.to_string();
                if e.is_io_error() || e.is_timeout() || e.is_connection_dropped() || e.is_connection_refusal() {
                    link.down = Some((Instant::now() + RETRY_AFTER, why.clone()));
                }
                Err(why)
            }
        }
    }

    /// Every entry of `test`: field and value, as stored; from the cache
    /// when it holds a true answer.
    fn entries(&self, test: &str) -> Result<Entries, String> {
        let key = self.key(test);
        let mut link = self.lock();
        if link.tracked && !link.listener.as_ref().is_some_and(|l| l.listening()) {
            // Invalidations may have been lost: start again on a new connection.
            (link.conn, link.tracked) = (None, false);
        }
        // A key read before allocates nothing.
        let again = link.read.contains(&key) || !link.read.insert(key.clone());
        let refused = link.untracked_until.is_some_and(|until| Instant::now() < until);
        if again && !link.tracked && !refused && link.conn.is_some() {
            self.track(&mut link);
        }
        let listener = link.listener.clone().filter(|_| link.tracked);
        if let Some(held) = listener.as_ref().and_then(|l| l.held(&key)) {
            return Ok(held);
        }
        let ticket = listener.as_ref().map(|l| l.reading(&key));
        let entries: Entries = self.on(&mut link, |c| ::redis::cmd("HGETALL").arg(&key).query(c))?;
        if let (Some(l), Some(ticket), true) = (&listener, ticket, link.tracked) {
            l.read(&key, ticket, &entries);
        }
        Ok(entries)
    }

    /// Tracks the reads of `link`'s connection, their invalidations sent
    /// to a listener (the one there is, if it still listens). A refusal
    /// leaves the connection as it is, untracked, and the cache off for a
    /// while: reads then go to the server.
    fn track(&self, link: &mut Link) {
        let refused = |link: &mut Link| link.untracked_until = Some(Instant::now() + TRACK_RETRY_AFTER);
        let listener = match link.listener.clone().filter(|l| l.listening()) {
            Some(l) => l,
            None => match Listener::start(&self.client, CONNECT_TIMEOUT, IO_TIMEOUT) {
                Ok(l) => l,
                Err(_) => return refused(link),
            },
        };
        let Some(conn) = link.conn.as_mut() else { return };
        let on = ::redis::cmd("CLIENT").arg("TRACKING").arg("ON").arg("REDIRECT").arg(listener.id).query::<()>(conn);
        // Answers read on an earlier connection were not tracked by this one.
        listener.forget_all();
        match on {
            Ok(()) => {
                (link.listener, link.tracked, link.untracked_until) = (Some(listener), true, None);
            }
            Err(e) => {
                // The listener may be what was refused (its client gone): not reused.
                listener.stop();
                link.listener = None;
                if e.is_io_error() || e.is_timeout() || e.is_connection_dropped() {
                    // The command connection itself failed: reads will say so.
                    link.conn = None;
                } else {
                    refused(link);
                }
            }
        }
    }

    /// Forgets what this process holds of `test`'s key (it wrote it).
    fn wrote(&self, test: &str) {
        if let Some(l) = &self.lock().listener {
            l.forget(&self.key(test));
        }
    }
}

/// An entry read: when it was saved, and the failure.
fn parse_entry(field: &[u8], value: &[u8]) -> Result<(u64, StoredFailure), String> {
    let field = std::str::from_utf8(field).map_err(|_| "its name is not text".to_string())?;
    let value = std::str::from_utf8(value).map_err(|_| "its value is not text".to_string())?;
    let choices = ChoiceSequence::from_replay_string(field).map_err(|e| format!("{field:?}: {e}"))?;
    let mut words = value.splitn(4, ' ');
    let (version, at, kind) = (words.next(), words.next(), words.next());
    if version != Some(VERSION) {
        return Err(format!("{field:?}: not an entry of this version (value {value:?})"));
    }
    let at: u64 = at.and_then(|a| a.parse().ok()).ok_or_else(|| format!("{field:?}: no time in {value:?}"))?;
    let crashed = match kind {
        Some("failure") => false,
        Some("crash") => true,
        _ => return Err(format!("{field:?}: unknown kind in {value:?}")),
    };
    Ok((at, StoredFailure { choices, message: words.next().unwrap_or("").to_string(), crashed }))
}

fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// `redis://user:pw@host/…` shown as `redis://host/…`.
fn without_credentials(url: &str) -> String {
    match url.split_once("://") {
        Some((scheme, rest)) => {
            let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
            let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
            format!("{scheme}://{host}{path}")
        }
        None => url.to_string(),
    }
}

impl FailureStore for RedisStore {
    fn location(&self, test: &str) -> String {
        format!("{} (key {})", self.shown, self.key(test))
    }

    fn load(&self, test: &str) -> (Vec<StoredFailure>, Vec<DatabaseWarning>) {
        let entries = match self.entries(test) {
            Ok(e) => e,
            Err(detail) => {
                return (Vec::new(), vec![DatabaseWarning::Unavailable { location: self.shown.clone(), detail }]);
            }
        };
        let (mut found, mut warnings) = (Vec::new(), Vec::new());
        for (field, value) in entries {
            match parse_entry(&field, &value) {
                Ok(entry) => found.push(entry),
                Err(detail) => warnings.push(DatabaseWarning::CorruptEntry { location: self.location(test), detail }),
            }
        }
        // Newest first, as the directory store keeps them.
        found.sort_by_key(|e| std::cmp::Reverse(e.0));
        found.truncate(MAX_ENTRIES);
        (found.into_iter().map(|(_, f)| f).collect(), warnings)
    }

    fn save(&self, test: &str, failure: StoredFailure) -> io::Result<()> {
        let key = self.key(test);
        let kind = if failure.crashed { "crash" } else { "failure" };
        let value = format!("{VERSION} {} {kind} {}", now_ms(), failure.message);
        let field = failure.choices.to_replay_string();
        let stored = self.with(|c| {
            ::redis::pipe().cmd("HSET").arg(&key).arg(&field).arg(&value).ignore().cmd("HLEN").arg(&key).query(c)
        });
        // Whatever happened to the write, what this process held is stale.
        self.wrote(test);
        let (stored,): (usize,) = stored.map_err(io::Error::other)?;
        if stored > MAX_ENTRIES {
            // Keep the newest few, as the directory does.
            let mut all: Vec<(u64, Vec<u8>)> = self
                .entries(test)
                .map_err(io::Error::other)?
                .into_iter()
                .filter_map(|(f, v)| Some((parse_entry(&f, &v).ok()?.0, f)))
                .collect();
            all.sort_by_key(|e| std::cmp::Reverse(e.0));
            let old: Vec<Vec<u8>> = all.into_iter().skip(MAX_ENTRIES).map(|(_, f)| f).collect();
            if !old.is_empty() {
                let removed = self.with(|c| ::redis::cmd("HDEL").arg(&key).arg(&old).query::<()>(c));
                self.wrote(test);
                removed.map_err(io::Error::other)?;
            }
        }
        Ok(())
    }

    fn remove(&self, test: &str, choices: &ChoiceSequence) -> io::Result<()> {
        let key = self.key(test);
        let field = choices.to_replay_string();
        let removed = self.with(|c| ::redis::cmd("HDEL").arg(&key).arg(&field).query::<()>(c));
        self.wrote(test);
        removed.map_err(io::Error::other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_are_not_shown() {
        assert_eq!(without_credentials("redis://u:secret@h:1/2"), "redis://h:1/2");
        assert_eq!(without_credentials("redis://h:1"), "redis://h:1");
    }

    #[test]
    fn entries_round_trip_and_garbage_is_an_error() {
        let f = StoredFailure { choices: ChoiceSequence(Vec::new()), message: "a b\nc".into(), crashed: true };
        let field = f.choices.to_replay_string();
        let value = format!("{VERSION} 17 crash {}", f.message);
        assert_eq!(parse_entry(field.as_bytes(), value.as_bytes()).unwrap(), (17, f));
        assert!(parse_entry(b"zzz", value.as_bytes()).is_err());
        assert!(parse_entry(field.as_bytes(), b"9 17 crash x").is_err());
        assert!(parse_entry(field.as_bytes(), &[0xff]).is_err());
    }

    #[test]
    fn a_url_with_an_unknown_parameter_is_refused() {
        assert!(RedisStore::open("redis://127.0.0.1:1/0?prefix=p").is_ok());
        assert!(RedisStore::open("redis://127.0.0.1:1/0?pool=3").is_err());
    }
}
