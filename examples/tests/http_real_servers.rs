//! The HTTP/1.1 tester against real servers: Debian's nginx and Apache
//! httpd, each started on 127.0.0.1 with a throw-away document root by the
//! scripts in `servers/` (`./run test` installs the packages).
//!
//! Both servers deviate from MUSTs of RFC 9110 in ways the tester finds
//! (see `servers/FINDINGS.md` and `bench/results/http-real.md`): nginx
//! ignores preconditions on PUT and DELETE, answers 405 without `Allow`,
//! and keeps a strong ETag across a same-size change within a second;
//! Apache compares If-None-Match strongly on writes, answers 201 to two
//! concurrent creations, and sends 206 to a HEAD with a Range. These tests
//! check soundness on everything else — with conditional headers on reads
//! only, no ranges, bodies of distinct lengths, for nginx only the methods
//! it serves, and for Apache one connection — and that a default run
//! reports each failure it finds by the MUST it breaks, with a trace.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::Command;

use speccheck::Config;
use speccheck::dual::exec::Verdict;
use speccheck::dual::exec::tcp::Tcp;
use speccheck::dual::rule::Level;
use speccheck::dual::tester::{DualReport, Tester};
use speccheck::http::{Http, Method, Vocabulary};
use speccheck::runner::report::RunVerdict;

/// A server started by `servers/<script> start`, stopped when dropped.
struct Server {
    script: PathBuf,
    dir: PathBuf,
    addr: SocketAddr,
}

impl Server {
    fn start(script: &str) -> Server {
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../servers").join(script);
        let dir = std::env::temp_dir().join(format!(
            "speccheck-{script}-{}",
            std::process::id(),
            script = { script.file_stem().and_then(|s| s.to_str()).unwrap_or("server").to_string() }
        ));
        let out = Command::new("bash").arg(&script).arg("start").arg(&dir).output().expect("bash runs");
        assert!(
            out.status.success(),
            "{} start failed (`./run test` installs nginx and apache2):\n{}{}",
            script.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let port: u16 = String::from_utf8_lossy(&out.stdout).trim().parse().expect("the script prints the port");
        Server { script, dir, addr: SocketAddr::from(([127, 0, 0, 1], port)) }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = Command::new("bash").arg(&self.script).arg("stop").arg(&self.dir).output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn config(executions: u32) -> Config {
    Config { cases: executions, seed: Some(0x5e), database: None, ..Config::named("http-real") }
}

/// Settings that stay clear of the servers' known deviations: conditions on
/// reads only, no ranges, and `methods` (empty: every method).
fn clear_of_known_deviations(addr: SocketAddr, methods: Vec<Method>) -> Http {
    Http::new().host(addr.to_string()).vocabulary(Vocabulary {
        bodies: ["", "x", "hello", "0123456789abcdef"].iter().map(|s| s.to_string()).collect(),
        conditional: vec![Method::Get, Method::Head],
        methods,
        ranges: false,
        ..Vocabulary::default()
    })
}

fn check_sound(script: &str, conns: usize, methods: Vec<Method>) {
    let server = Server::start(script);
    let r: DualReport = Tester::new(clear_of_known_deviations(server.addr, methods), Tcp::connect(server.addr, None))
        .with_settings(|s| s.conns = conns)
        .config(config(150))
        .run();
    assert!(r.passed(), "{script}: a rejection outside the known deviations is a server bug or a tester bug:\n{r}");
    assert!(r.interactions > 1000, "{r}");
    // The default settings reach a verdict; each failure is a MUST, named by
    // its clause, with a trace.
    let r = Tester::new(Http::new().host(server.addr.to_string()), Tcp::connect(server.addr, None))
        .distinct_failures(3)
        .config(config(150))
        .run();
    let failures = std::iter::once(&r.final_execution).chain(r.other_failures.iter().map(|o| &o.final_execution));
    match &r.run.verdict {
        RunVerdict::Passed => {}
        // A deviation that needs the server's timing (Apache's weak tags
        // last about a second) may not reproduce: reported as flaky.
        RunVerdict::Failed(_) | RunVerdict::Flaky(_) => {
            for exec in failures.flatten() {
                assert!(!exec.trace.is_empty(), "{r}");
                if let Verdict::Rejected(rej) = &exec.verdict {
                    assert_eq!(rej.level(), Level::Must, "{r}");
                    assert!(rej.identity().contains("RFC 9110 §"), "{r}");
                }
                eprintln!("{script} (default settings):\n{}", Http::new().render(exec));
            }
            eprintln!("{r}");
        }
        other => panic!("{script}: no verdict: {other:?}\n{r}"),
    }
}

#[test]
fn nginx_is_sound_outside_its_known_deviations() {
    check_sound("nginx.sh", 2, vec![Method::Get, Method::Head, Method::Put, Method::Delete]);
}

#[test]
fn apache_is_sound_outside_its_known_deviations() {
    check_sound("apache.sh", 1, Vec::new());
}
