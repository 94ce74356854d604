//! The Redis failure store against a real `redis-server` (Debian's
//! package), started here on a free port of 127.0.0.1 and killed at the
//! end. Without `redis-server` on the PATH the tests say so and pass,
//! except under `CI` (which `./run test` and `.ci/run` set up with it).

use std::io::{Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use speccheck_core::database::StoredFailure;
use speccheck_core::store::FailureStore as _;
use speccheck_core::store::redis::RedisStore;
use speccheck_core::{Config, Property, RunReport, RunVerdict, any};

/// A `redis-server` child, killed on drop.
struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// A new server, or `None` (with a message) when there is no `redis-server`.
    fn start() -> Option<Server> {
        Server::start_with(&[])
    }

    /// A new server with more command-line options.
    fn start_with(options: &[&str]) -> Option<Server> {
        let port = free_port();
        let child = match Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .args(options)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
        {
            Ok(c) => c,
            Err(e) => {
                let why = format!("cannot start redis-server ({e}); install it: apt-get install -y redis-server");
                // CI installs it (`./run test`): there a skip would hide
                // that the shared store went untested.
                assert!(!under_ci(), "{why} (CI is set: this test must run)");
                eprintln!("SKIPPED: {why}");
                return None;
            }
        };
        let server = Server { child, port };
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "redis-server did not listen on port {port}");
            std::thread::sleep(Duration::from_millis(20));
        }
        Some(server)
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.port)
    }

    /// Sends one command, returns the raw answer (for planting garbage).
    fn command(&self, args: &[&str]) -> String {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        let mut out = format!("*{}\r\n", args.len());
        for a in args {
            out.push_str(&format!("${}\r\n{a}\r\n", a.len()));
        }
        s.write_all(out.as_bytes()).unwrap();
        let mut buf = [0u8; 512];
        let n = s.read(&mut buf).unwrap();
        let mut answer = buf[..n].to_vec();
        // A bulk answer (`$len\r\n…\r\n`) may come in several reads.
        if let Some(len) = std::str::from_utf8(&answer)
            .ok()
            .and_then(|a| a.strip_prefix('$')?.split("\r\n").next()?.parse::<usize>().ok())
        {
            let whole = len + format!("${len}\r\n\r\n").len();
            while answer.len() < whole {
                let n = s.read(&mut buf).unwrap();
                assert!(n > 0, "the server closed the connection mid-answer");
                answer.extend_from_slice(&buf[..n]);
            }
        }
        String::from_utf8_lossy(&answer).into_owned()
    }

    /// How many `HGETALL`s (reads of a property's failures) the server answered.
    fn reads(&self) -> u64 {
        self.info("commandstats", "cmdstat_hgetall:calls=")
    }

    /// How many connections the server accepted.
    fn connections(&self) -> u64 {
        self.info("stats", "total_connections_received:")
    }

    /// The number after `field` in `INFO section` (0 when absent).
    fn info(&self, section: &str, field: &str) -> u64 {
        let info = self.command(&["INFO", section]);
        let Some(at) = info.find(field) else { return 0 };
        let digits: String = info[at + field.len()..].chars().take_while(char::is_ascii_digit).collect();
        digits.parse().unwrap()
    }
}

type Loaded = (Vec<StoredFailure>, Vec<speccheck_core::database::DatabaseWarning>);

/// Loads `test` from `store` until `done` holds of the answer, for `wait` at most.
fn load_within(wait: Duration, store: &RedisStore, test: &str, done: impl Fn(&Loaded) -> bool) -> bool {
    let deadline = Instant::now() + wait;
    while Instant::now() < deadline {
        if done(&store.load(test)) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    false
}

/// A port nothing listens on (just now).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("speccheck-redis-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// A worker: its own local directory, the shared URL, a random seed.
fn worker(name: &str, dir: PathBuf, url: &str) -> Config {
    Config {
        database: Some(dir),
        database_url: Some(url.to_string()),
        database_writes: true,
        seed: None,
        timeout: Some(Duration::from_secs(5)),
        ..Config::named(name)
    }
}

fn failed(r: &RunReport) -> &speccheck_core::runner::Counterexample {
    match &r.verdict {
        RunVerdict::Failed(c) => c,
        other => panic!("expected a failure, got {other:?}\n{r}"),
    }
}

#[test]
fn a_failure_saved_by_one_worker_is_replayed_first_by_another() {
    let Some(server) = Server::start() else { return };
    let (a, b) = (temp_dir("worker-a"), temp_dir("worker-b"));
    let prop = |x: u64| x < 1_000_000;
    let first = Property::new(any::<u64>()).config(worker("shared::prop", a.clone(), &server.url())).run(prop);
    let c = failed(&first);
    assert!(first.warnings.is_empty(), "{:?}", first.warnings);
    let saved = c.saved_to.as_ref().expect("saved").display().to_string();
    assert!(saved.contains(&server.url()), "{saved}");
    // Another worker (another local directory) replays it before generating anything.
    let second = Property::new(any::<u64>()).config(worker("shared::prop", b.clone(), &server.url())).run(prop);
    let c2 = failed(&second);
    assert_eq!(c2.found_after, 0, "replayed from the store\n{second}");
    assert!(c2.source.as_deref().unwrap_or("").contains("saved"), "{:?}", c2.source);
    assert_eq!(c.choices, c2.choices);
    // A store opened afresh (no connection shared with the runs) sees it too.
    let fresh = RedisStore::open(&server.url()).unwrap();
    let (stored, warnings) = fresh.load("shared::prop");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(stored.iter().map(|f| &f.choices).collect::<Vec<_>>(), vec![&c.choices]);
    // Fixed: a passing run forgets it everywhere.
    let third = Property::new(any::<u64>()).config(worker("shared::prop", b.clone(), &server.url())).run(|_: u64| true);
    assert!(third.passed(), "{third}");
    assert!(fresh.load("shared::prop").0.is_empty());
    let _ = (std::fs::remove_dir_all(a), std::fs::remove_dir_all(b));
}

#[test]
fn read_only_runs_never_write_the_shared_store() {
    let Some(server) = Server::start() else { return };
    let dir = temp_dir("ro");
    let config = Config { database_writes: false, ..worker("shared::ro", dir.clone(), &server.url()) };
    let r = Property::new(any::<u64>()).config(config).run(|x: u64| x < 1000);
    assert!(failed(&r).saved_to.is_none());
    assert!(RedisStore::open(&server.url()).unwrap().load("shared::ro").0.is_empty());
    assert!(!dir.exists());
}

#[test]
fn garbage_in_the_store_is_a_warning_and_the_run_goes_on() {
    let Some(server) = Server::start() else { return };
    let dir = temp_dir("garbage");
    // A value of the wrong type at the property's key.
    server.command(&["SET", "speccheck:failures:shared::wrongtype", "hello"]);
    let r =
        Property::new(any::<u8>()).config(worker("shared::wrongtype", dir.clone(), &server.url())).run(|_: u8| true);
    assert!(r.passed(), "{r}");
    assert!(r.warnings.iter().any(|w| w.contains(&server.url()) && w.contains("unavailable")), "{:?}", r.warnings);
    // A foreign entry beside a good one: dropped with a warning, the good one replayed.
    let store = RedisStore::open(&server.url()).unwrap();
    let good = StoredFailure {
        choices: failed(
            &Property::new(any::<u8>()).config(Config { seed: Some(1), ..Config::named("x") }).run(|x: u8| x < 10),
        )
        .choices
        .clone(),
        message: "saved elsewhere".into(),
        crashed: false,
    };
    store.save("shared::foreign", good.clone()).unwrap();
    server.command(&["HSET", "speccheck:failures:shared::foreign", "not a replay", "v9 junk"]);
    let r =
        Property::new(any::<u8>()).config(worker("shared::foreign", dir.clone(), &server.url())).run(|x: u8| x < 10);
    assert_eq!(failed(&r).found_after, 0, "{r}");
    assert_eq!(failed(&r).choices, good.choices);
    assert!(r.warnings.iter().any(|w| w.contains("unreadable entry")), "{:?}", r.warnings);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_unreachable_store_is_a_warning_naming_it_and_runs_keep_their_verdicts() {
    // Nothing of this test's starts a server: the URL's port is closed.
    let url = format!("redis://127.0.0.1:{}/0", free_port());
    let dir = temp_dir("down");
    let passing = Property::new(any::<u64>()).config(worker("down::pass", dir.clone(), &url)).run(|_: u64| true);
    assert!(passing.passed(), "{passing}");
    assert!(passing.warnings.iter().any(|w| w.contains(&url)), "{:?}", passing.warnings);
    let failing = Property::new(any::<u64>()).config(worker("down::fail", dir.clone(), &url)).run(|x: u64| x < 1000);
    let c = failed(&failing);
    assert!(failing.warnings.iter().any(|w| w.contains(&url)), "{:?}", failing.warnings);
    // Saved locally all the same; the warning says where.
    assert!(
        failing.warnings.iter().any(|w| w.contains("could not save") && w.contains("done in")),
        "{:?}",
        failing.warnings
    );
    let again = Property::new(any::<u64>()).config(worker("down::fail", dir.clone(), &url)).run(|x: u64| x < 1000);
    assert_eq!(failed(&again).found_after, 0, "replayed from the local directory");
    assert_eq!(failed(&again).choices, c.choices);
    let _ = std::fs::remove_dir_all(dir);
}

/// Cost of the store: a simple property at default settings, store off,
/// directory only, and directory + Redis. Run by hand:
/// `cargo test -p speccheck-core --features redis --release --test redis_store -- --ignored --nocapture`.
#[test]
#[ignore]
fn measure_the_cost_of_the_store() {
    let Some(server) = Server::start() else { return };
    let dir = temp_dir("measure");
    let configs = [
        ("off", Config { database: None, ..Config::named("measure::p") }),
        ("directory", Config { database: Some(dir.clone()), ..Config::named("measure::p") }),
        ("directory + redis", worker("measure::p", dir.clone(), &server.url())),
    ];
    for round in 0..3 {
        for (what, config) in &configs {
            let (runs, started) = (3000, Instant::now());
            let mut cases = 0;
            for _ in 0..runs {
                let r = Property::new(any::<Vec<u64>>()).config(config.clone()).run(|v: Vec<u64>| v.len() < 100_000);
                assert!(r.passed());
                cases += r.stats.passed;
            }
            let s = started.elapsed().as_secs_f64();
            println!(
                "round {round} {what:>18}: {:>9.0} cases/s ({:.3} ms per run of {} cases)",
                cases as f64 / s,
                s * 1000.0 / runs as f64,
                cases / runs
            );
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// A worker that reads one property's failures again and again (a run
/// after run) asks the server once, until another worker changes them;
/// the change reaches it without any waiting of its own.
#[test]
fn repeated_reads_are_answered_from_the_cache_until_another_worker_writes() {
    let Some(server) = Server::start() else { return };
    let (worker, other) = (RedisStore::open(&server.url()).unwrap(), RedisStore::open(&server.url()).unwrap());
    let before = server.reads();
    for _ in 0..200 {
        let (failures, warnings) = worker.load("cache::p");
        assert!(failures.is_empty() && warnings.is_empty(), "{warnings:?}");
    }
    // The first read, and the first tracked one; then none.
    assert_eq!(server.reads() - before, 2);
    // Another worker saves a failure: the next loads see it.
    let failure = StoredFailure { choices: replay_of_a_failure(), message: "found elsewhere".into(), crashed: false };
    other.save("cache::p", failure.clone()).unwrap();
    // Told by the server: well within the second an answer is held at most.
    let within = Duration::from_millis(500);
    assert!(
        load_within(within, &worker, "cache::p", |(f, _)| f.len() == 1),
        "the saved failure did not reach the worker"
    );
    assert_eq!(worker.load("cache::p").0, vec![failure.clone()]);
    let seen = server.reads();
    for _ in 0..200 {
        assert_eq!(worker.load("cache::p").0.len(), 1);
    }
    assert!(server.reads() - seen <= 1, "{} reads", server.reads() - seen);
    // And its removal.
    other.remove("cache::p", &failure.choices).unwrap();
    assert!(load_within(within, &worker, "cache::p", |(f, _)| f.is_empty()), "the removal did not reach the worker");
    // The worker's own writes are seen at once.
    worker.save("cache::p", failure.clone()).unwrap();
    assert_eq!(worker.load("cache::p").0, vec![failure]);
    // An idle listener pings the server and goes on listening: after two
    // heartbeats, no new connection, and the cache still works.
    std::thread::sleep(Duration::from_millis(2500));
    let (reads, connections) = (server.reads(), server.connections());
    for _ in 0..200 {
        assert_eq!(worker.load("cache::p").0.len(), 1);
    }
    assert!(server.reads() - reads <= 2, "{} reads", server.reads() - reads);
    // Only this test's own two queries.
    assert_eq!(server.connections() - connections, 2);
}

/// What a cache held is not served once the server is gone: the loads
/// warn that the store is unavailable, as without a cache.
#[test]
fn a_cached_answer_is_not_served_after_the_server_goes_away() {
    let Some(mut server) = Server::start() else { return };
    let store = RedisStore::open(&server.url()).unwrap();
    let failure = StoredFailure { choices: replay_of_a_failure(), message: "kept".into(), crashed: false };
    store.save("cache::gone", failure).unwrap();
    for _ in 0..3 {
        assert_eq!(store.load("cache::gone").0.len(), 1);
    }
    let _ = server.child.kill();
    let _ = server.child.wait();
    // Well within the second an answer is held at most (which would also end it).
    let gone = |(f, w): &Loaded| f.is_empty() && w.iter().any(|w| w.to_string().contains(&server.url()));
    assert!(
        load_within(Duration::from_millis(500), &store, "cache::gone", gone),
        "a cached answer outlived the server"
    );
}

/// A server that refuses tracking is read every time, on one connection,
/// and stays right: here without the `CLIENT` command (no listener can
/// start), and with a user not allowed `CLIENT TRACKING` (a listener
/// starts, tracking is refused).
#[test]
fn without_tracking_every_read_goes_to_the_server() {
    let no_client = ["--rename-command", "CLIENT", ""];
    let no_tracking = ["--user", "default", "on", "nopass", "~*", "&*", "+@all", "-client|tracking"];
    for options in [&no_client[..], &no_tracking[..]] {
        let Some(server) = Server::start_with(options) else { return };
        let (worker, other) = (RedisStore::open(&server.url()).unwrap(), RedisStore::open(&server.url()).unwrap());
        let (reads, connections) = (server.reads(), server.connections());
        for _ in 0..20 {
            let (failures, warnings) = worker.load("untracked::p");
            assert!(failures.is_empty() && warnings.is_empty(), "{options:?}: {warnings:?}");
        }
        assert_eq!(server.reads() - reads, 20, "{options:?}");
        // The reading connection and at most one listener tried, beside
        // this test's own two queries (`reads` and `connections`).
        let made = server.connections() - connections;
        assert!(made <= 4, "{options:?}: {made} connections");
        let failure = StoredFailure { choices: replay_of_a_failure(), message: "m".into(), crashed: false };
        other.save("untracked::p", failure.clone()).unwrap();
        assert_eq!(worker.load("untracked::p").0, vec![failure], "{options:?}");
    }
}

/// The choices of some failing input (any valid replay will do).
fn replay_of_a_failure() -> speccheck_core::choice::ChoiceSequence {
    let r = Property::new(any::<u8>()).config(Config { seed: Some(1), ..Config::named("x") }).run(|x: u8| x < 10);
    failed(&r).choices.clone()
}

/// Whether `CI` says this is a CI run, as speccheck's own settings read it
/// (set, not empty, not `0` or `false`).
fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.trim().is_empty() && v != "0" && v != "false")
}
