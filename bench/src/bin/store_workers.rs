//! n worker processes sharing one failure store (issue 42, "workers share
//! what they find"): a Debian `redis-server` on 127.0.0.1, started here.
//!
//! 1. **Sharing**: worker process A runs a failing property with the
//!    directory + Redis store; process B, with its own (empty) directory,
//!    runs the same property and must replay A's failure before generating
//!    anything (`found_after == 0`).
//! 2. **Cost**: for n = 1, 2, 4 processes, each running a simple property
//!    (`Vec<u64>`, 100 cases a run, default settings) run after run for
//!    `--seconds`, cases per second summed over the processes, with the
//!    store off, a directory only, and a directory + Redis; modes
//!    interleaved over `--rounds`, their order rotated from round to round
//!    (A B C, B C A, C A B: each mode runs first, second and third equally
//!    often, so that a drift within a round favours none), ratios to "off"
//!    paired per round (mean, sd, p95).
//!
//! `cargo run --release -p speccheck-bench --bin store_workers -- --rounds 9 --seconds 2`

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use clap::Parser;
use speccheck::{Config, Property, RunVerdict, any};

#[derive(Parser)]
struct Args {
    /// Rounds of every mode (paired ratios), rounded up to a multiple of
    /// the number of modes so that each runs first, second and third
    /// equally often.
    #[arg(long, default_value_t = 9)]
    rounds: usize,
    /// Seconds each worker runs per measurement.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Worker counts.
    #[arg(long, value_delimiter = ',', default_value = "1,2,4")]
    workers: Vec<usize>,
    /// Internal: run as one worker (`MODE DIR URL SECONDS`).
    #[arg(long, num_args = 4, hide = true)]
    worker: Option<Vec<String>>,
    /// Internal: run the sharing check's side (`find` or `replay`, `DIR URL`).
    #[arg(long, num_args = 3, hide = true)]
    share: Option<Vec<String>>,
}

/// The store settings compared, in their order in a round's rotation.
const MODES: [&str; 3] = ["off", "directory", "redis"];

/// A `redis-server` child, killed on drop.
struct Redis(Child, u16);

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start_redis() -> Redis {
    let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
    let child = Command::new("redis-server")
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start redis-server ({e}): apt-get install -y redis-server"));
    let deadline = Instant::now() + Duration::from_secs(10);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "redis-server did not listen on {port}");
        std::thread::sleep(Duration::from_millis(20));
    }
    Redis(child, port)
}

fn config(name: &str, mode: &str, dir: &Path, url: &str) -> Config {
    let base = Config { seed: None, ..Config::named(name) };
    match mode {
        "off" => Config { database: None, ..base },
        "directory" => Config { database: Some(dir.to_path_buf()), ..base },
        "redis" => Config {
            database: Some(dir.to_path_buf()),
            database_url: Some(url.to_string()),
            database_writes: true,
            ..base
        },
        other => panic!("unknown mode {other}"),
    }
}

/// One worker: runs the property run after run for `seconds`, prints the
/// cases it checked.
fn worker(mode: &str, dir: &Path, url: &str, seconds: f64) {
    let config = config("bench::workers::p", mode, dir, url);
    let (started, budget) = (Instant::now(), Duration::from_secs_f64(seconds));
    let mut cases = 0u64;
    while started.elapsed() < budget {
        let r = Property::new(any::<Vec<u64>>()).config(config.clone()).run(|v: Vec<u64>| v.len() < 100_000);
        assert!(r.passed() && r.warnings.is_empty(), "{r}");
        cases += r.stats.passed;
    }
    println!("{cases} {}", started.elapsed().as_secs_f64());
}

/// The sharing check's two sides.
fn share(side: &str, dir: &Path, url: &str) {
    let config = config("bench::workers::shared", "redis", dir, url);
    let r = Property::new(any::<u64>()).config(config).run(|x: u64| x < 1_000_000);
    match (&r.verdict, side) {
        (RunVerdict::Failed(c), _) => println!("{} {}", c.found_after, r.warnings.len()),
        _ => panic!("{side}: expected a failure\n{r}"),
    }
}

fn spawn(args: &[String]) -> Child {
    Command::new(std::env::current_exe().expect("this program"))
        .args(args)
        .env_remove("SPECCHECK_DATABASE")
        .stdout(Stdio::piped())
        .spawn()
        .expect("a worker")
}

fn output(child: Child) -> String {
    let out = child.wait_with_output().expect("the worker's output");
    assert!(out.status.success(), "a worker failed");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("speccheck-store-workers-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a temporary directory");
    d
}

fn stats(xs: &[f64]) -> (f64, f64, f64) {
    let mean = xs.iter().sum::<f64>() / xs.len() as f64;
    let sd = (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / xs.len() as f64).sqrt();
    let mut s = xs.to_vec();
    s.sort_by(f64::total_cmp);
    let p95 = s[((0.95 * s.len() as f64).ceil() as usize).clamp(1, s.len()) - 1];
    (mean, sd, p95)
}

fn main() {
    let mut args = Args::parse();
    args.rounds = args.rounds.div_ceil(MODES.len()).max(1) * MODES.len();
    if let Some(w) = &args.worker {
        return worker(&w[0], Path::new(&w[1]), &w[2], w[3].parse().expect("seconds"));
    }
    if let Some(s) = &args.share {
        return share(&s[0], Path::new(&s[1]), &s[2]);
    }
    let redis = start_redis();
    let url = format!("redis://127.0.0.1:{}/0", redis.1);

    // Sharing, across processes.
    let (a, b) = (temp("a"), temp("b"));
    let found = output(spawn(&["--share".into(), "find".into(), a.display().to_string(), url.clone()]));
    let replayed = output(spawn(&["--share".into(), "replay".into(), b.display().to_string(), url.clone()]));
    let after = |s: &str| s.split_whitespace().next().unwrap_or("?").to_string();
    println!("# Workers sharing one Redis store\n");
    println!(
        "Command: `cargo run --release -p speccheck-bench --bin store_workers -- --rounds {} --seconds {}`\n",
        args.rounds, args.seconds
    );
    println!(
        "Sharing: process A found the failure after {} inputs and saved it; process B (another directory) \
         replayed it after {} generated inputs ({}).\n",
        after(&found),
        after(&replayed),
        if after(&replayed) == "0" { "replayed first" } else { "NOT replayed first" }
    );

    // Cost.
    let modes = MODES;
    println!(
        "Cost: each worker process runs `Property::new(any::<Vec<u64>>())` (100 cases a run, default \
         settings) run after run for {} s; cases per second summed over the processes; {} rounds, modes \
         interleaved in an order rotated from round to round (each mode first, second and third equally often); \
         ratios = mode / off and mode / directory (the cost of the shared store over the local \
         default), paired by round.\n",
        args.seconds, args.rounds
    );
    println!(
        "| workers | mode | cases/s (mean) | ratio to off: mean | sd | p95 | ratio to directory: mean | sd | p95 |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for &n in &args.workers {
        let mut rates: Vec<Vec<f64>> = vec![Vec::new(); modes.len()];
        for round in 0..args.rounds {
            for k in 0..modes.len() {
                let m = (round + k) % modes.len();
                let mode = modes[m];
                let dirs: Vec<PathBuf> = (0..n).map(|i| temp(&format!("w{n}-{round}-{m}-{i}"))).collect();
                let children: Vec<Child> = dirs
                    .iter()
                    .map(|d| {
                        spawn(&[
                            "--worker".into(),
                            mode.to_string(),
                            d.display().to_string(),
                            url.clone(),
                            args.seconds.to_string(),
                        ])
                    })
                    .collect();
                let total: f64 = children
                    .into_iter()
                    .map(|c| {
                        let out = output(c);
                        let mut it = out.split_whitespace().map(|x| x.parse::<f64>().expect("a number"));
                        let (cases, secs) = (it.next().unwrap_or(0.0), it.next().unwrap_or(1.0));
                        cases / secs
                    })
                    .sum();
                rates[m].push(total);
                for d in dirs {
                    let _ = std::fs::remove_dir_all(d);
                }
            }
        }
        for (m, mode) in modes.iter().enumerate() {
            let ratio = |base: usize| {
                let ratios: Vec<f64> = rates[m].iter().zip(&rates[base]).map(|(x, b)| x / b).collect();
                let (mean, sd, p95) = stats(&ratios);
                format!("{mean:.3} | {sd:.3} | {p95:.3}")
            };
            let rate = rates[m].iter().sum::<f64>() / rates[m].len() as f64;
            let to_directory = if m == 0 { " | | ".to_string() } else { ratio(1) };
            println!("| {n} | {mode} | {rate:.0} | {} | {to_directory} |", ratio(0));
        }
    }
    let _ = (std::fs::remove_dir_all(a), std::fs::remove_dir_all(b));
}
