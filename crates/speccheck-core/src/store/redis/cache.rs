//! The store's cache of answers, kept true by Redis's invalidation
//! messages (server-assisted client-side caching, Redis 6 and later).
//!
//! A worker that runs one property run after run (a fuzzing or soak
//! campaign) would otherwise pay a round trip per run to learn that
//! nothing changed, which for a run of a few microseconds is most of its
//! time. Instead, the command connection is put in tracking mode with its
//! invalidations redirected to a second connection, subscribed to
//! `__redis__:invalidate` on a thread of its own ([`Listener`]). An answer
//! read while tracked is reused until the server says its key changed
//! (a failure saved or removed by any worker), or the listener's
//! connection ends, or [`HELD_AT_MOST`] passes: the last bounds how stale
//! an answer can be if the listener is cut off without noticing. A
//! listener that hears nothing for [`HEARTBEAT`] pings the server, and
//! stops when no answer comes (a connection dropped silently, by a
//! firewall say, would otherwise leave it waiting for ever while the
//! server sends the invalidations nowhere).
//!
//! Reading and invalidating race: an invalidation may arrive while the
//! read of that key is on its way. A read therefore first marks its key
//! as being read (a ticket); the listener removes the mark with the key,
//! and the answer is kept only if its mark is still there.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, mpsc};
use std::time::{Duration, Instant};

/// How long an answer is reused at most, invalidations or not.
pub(super) const HELD_AT_MOST: Duration = Duration::from_secs(1);
/// How long a listener waits for a message before it pings the server.
const HEARTBEAT: Duration = Duration::from_secs(1);
/// The channel Redis sends invalidations to.
const INVALIDATE: &str = "__redis__:invalidate";

/// A property's entries, as the server holds them: field → value.
pub(super) type Entries = HashMap<Vec<u8>, Vec<u8>>;

enum Slot {
    /// A read of the key is on its way (its ticket).
    Reading(u64),
    /// The key's answer, and when it was read.
    Read(Entries, Instant),
}

/// The connection that receives invalidations, and the answers they keep
/// true. Lives as long as its connection; shared by the store and the
/// listening thread.
pub(super) struct Listener {
    /// The listening connection's client id (the target of `REDIRECT`).
    pub(super) id: i64,
    listening: AtomicBool,
    slots: Mutex<HashMap<String, Slot>>,
    tickets: AtomicU64,
}

impl Listener {
    /// Connects, subscribes to the invalidations and starts the thread
    /// that listens. Returns once the subscription is in place, so that
    /// no invalidation of a read made afterwards can be missed.
    pub(super) fn start(client: &::redis::Client, connect: Duration, io: Duration) -> Result<Arc<Listener>, String> {
        let mut conn = client.get_connection_with_timeout(connect).map_err(|e| e.to_string())?;
        conn.set_read_timeout(Some(io)).map_err(|e| e.to_string())?;
        conn.set_write_timeout(Some(io)).map_err(|e| e.to_string())?;
        let id: i64 = ::redis::cmd("CLIENT").arg("ID").query(&mut conn).map_err(|e| e.to_string())?;
        let listener = Arc::new(Listener {
            id,
            listening: AtomicBool::new(true),
            slots: Mutex::default(),
            tickets: AtomicU64::new(0),
        });
        let (subscribed, answer) = mpsc::sync_channel(1);
        let shared = listener.clone();
        std::thread::Builder::new()
            .name("speccheck-redis-invalidations".into())
            .spawn(move || shared.listen(conn, subscribed))
            .map_err(|e| e.to_string())?;
        match answer.recv_timeout(io + connect) {
            Ok(Ok(())) => Ok(listener),
            Ok(Err(e)) => Err(e),
            Err(_) => {
                // Its thread ends at its next heartbeat, if it ever subscribes.
                listener.stop();
                Err("no answer to SUBSCRIBE".into())
            }
        }
    }

    /// The listening thread: every invalidation forgets its keys (all of
    /// them when the server says so, or sends what it should not); the
    /// connection ending forgets everything and stops the cache.
    fn listen(&self, mut conn: ::redis::Connection, subscribed: mpsc::SyncSender<Result<(), String>>) {
        let mut messages = conn.as_pubsub();
        let ready = messages.subscribe(INVALIDATE).and_then(|()| messages.set_read_timeout(Some(HEARTBEAT)));
        let failed = ready.is_err();
        let _ = subscribed.send(ready.map_err(|e| e.to_string()));
        if failed {
            return self.stop();
        }
        // Until the connection fails, or the store gave up on this listener.
        while self.listening() {
            match messages.get_message() {
                Ok(message) => match message.get_payload::<Option<Vec<Vec<u8>>>>() {
                    Ok(Some(keys)) => {
                        let mut slots = self.slots();
                        for key in keys {
                            slots.remove(String::from_utf8_lossy(&key).as_ref());
                        }
                    }
                    _ => self.slots().clear(),
                },
                // Nothing heard for a while: is the server still there?
                Err(e) if e.is_timeout() && messages.ping::<::redis::Value>().is_ok() => {}
                Err(_) => break,
            }
        }
        self.stop();
    }

    /// Stops the cache: nothing is held any more, and the thread ends.
    pub(super) fn stop(&self) {
        self.listening.store(false, Ordering::SeqCst);
        self.slots().clear();
    }

    /// Whether invalidations still arrive (else nothing cached is kept).
    pub(super) fn listening(&self) -> bool {
        self.listening.load(Ordering::SeqCst)
    }

    fn slots(&self) -> MutexGuard<'_, HashMap<String, Slot>> {
        self.slots.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The answer held for `key`, if it is still true.
    pub(super) fn held(&self, key: &str) -> Option<Entries> {
        match self.slots().get(key) {
            Some(Slot::Read(entries, at)) if self.listening() && at.elapsed() < HELD_AT_MOST => Some(entries.clone()),
            _ => None,
        }
    }

    /// Marks `key` as being read; the ticket goes to [`Listener::read`].
    pub(super) fn reading(&self, key: &str) -> u64 {
        let ticket = self.tickets.fetch_add(1, Ordering::Relaxed);
        self.slots().insert(key.to_string(), Slot::Reading(ticket));
        ticket
    }

    /// Keeps `entries` as `key`'s answer, unless the key was invalidated
    /// since [`Listener::reading`] gave `ticket`.
    pub(super) fn read(&self, key: &str, ticket: u64, entries: &Entries) {
        let mut slots = self.slots();
        if matches!(slots.get(key), Some(Slot::Reading(t)) if *t == ticket) && self.listening() {
            slots.insert(key.to_string(), Slot::Read(entries.clone(), Instant::now()));
        }
    }

    /// Forgets `key`'s answer (this process wrote it).
    pub(super) fn forget(&self, key: &str) {
        self.slots().remove(key);
    }

    /// Forgets every answer (the reads were made on another connection).
    pub(super) fn forget_all(&self) {
        self.slots().clear();
    }
}
