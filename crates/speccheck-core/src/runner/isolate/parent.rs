//! The parent side of an isolated run: a child process (this test binary,
//! filtered to the property's test) that runs cases one by one over a
//! local socket. A child that dies mid-case is a crash of that case; one
//! that does not answer within the per-case limit is killed, and the case
//! hung. Either way the next case starts a fresh child.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::child::{PROPERTY_VAR, SOCKET_VAR};
use super::wire::{self, ChildResult};
use crate::choice::ChoiceSequence;
use crate::test_case::TestCase;

/// How long a child may take to start and connect.
const START_LIMIT: Duration = Duration::from_secs(30);
/// The end of the child's standard error kept for crash reports.
const STDERR_TAIL: usize = 16 * 1024;

/// How a case went in the child.
#[derive(Debug)]
pub(crate) enum ChildOutcome {
    /// It finished (pass, fail, discard, invalid).
    Done(ChildResult),
    /// The child died: `reason` says how (a signal, an exit code, what the
    /// runtime printed). `generated` is the input, when it was drawn.
    Died { generated: Option<ChoiceSequence>, reason: String },
    /// No answer within the limit: the child was killed.
    Hung { generated: Option<ChoiceSequence>, after: Duration },
}

/// How a batch of generated cases went in the child.
#[derive(Debug)]
pub(crate) enum BatchOutcome {
    /// The cases it ran, in order (it stops after the first failure).
    Ran(Vec<crate::runner::tally::CaseCount>),
    /// The child died during the batch's case `at` (the cases before it did
    /// not fail).
    Died { at: u64, reason: String },
    /// No answer within the limit during case `at`: the child was killed.
    Hung { at: u64, after: Duration },
}

/// Runs cases of one property in child processes.
pub(crate) struct Isolated {
    exe: PathBuf,
    test_path: String,
    name: String,
    child: Option<Proc>,
    /// Children started so far (each crash or hang costs one).
    pub(crate) starts: u32,
}

#[cfg(unix)]
type Stream = std::os::unix::net::UnixStream;

#[cfg(unix)]
struct Proc {
    child: Child,
    reader: BufReader<Stream>,
    writer: Stream,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// Where the child writes which batch case it runs.
    progress: PathBuf,
}

#[cfg(not(unix))]
struct Proc;

impl Isolated {
    /// Isolation for the property `name`, whose test `test_path` (the path
    /// libtest knows it by) runs in children of this very binary.
    pub(crate) fn new(name: &str, test_path: &str) -> Result<Self, String> {
        if cfg!(not(unix)) {
            return Err("isolated runs need a Unix platform".into());
        }
        let exe = std::env::current_exe().map_err(|e| format!("cannot find this test binary: {e}"))?;
        Ok(Isolated { exe, test_path: test_path.to_string(), name: name.to_string(), child: None, starts: 0 })
    }

    /// Runs a batch of generated cases in the child, waiting at most
    /// `limit` per case on average.
    #[cfg(unix)]
    pub(crate) fn run_batch(&mut self, batch: &wire::Batch, limit: Option<Duration>) -> Result<BatchOutcome, String> {
        if self.child.is_none() {
            self.child = Some(self.start()?);
            self.starts += 1;
        }
        let started = Instant::now();
        let limit = limit.map(|l| l.saturating_mul(batch.sizes.len().max(1) as u32));
        let proc = self.child.as_mut().expect("a child");
        let _ = std::fs::write(&proc.progress, 0u64.to_le_bytes());
        if proc.writer.write_all(wire::batch_line(batch).as_bytes()).is_err() {
            let reason = self.bury();
            return Ok(BatchOutcome::Died { at: 0, reason });
        }
        let proc = self.child.as_mut().expect("a child");
        let _ = proc.reader.get_ref().set_read_timeout(limit);
        let mut reply = String::new();
        match proc.reader.read_line(&mut reply) {
            Ok(n) if n > 0 => {
                let rest = reply.trim_end().strip_prefix("batched ").ok_or(format!("unexpected answer {reply:?}"))?;
                if rest == "-" {
                    return Ok(BatchOutcome::Ran(Vec::new()));
                }
                rest.split(' ').map(wire::parse_outcome_token).collect::<Result<_, _>>().map(BatchOutcome::Ran)
            }
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                let at = self.progress_at();
                self.kill();
                Ok(BatchOutcome::Hung { at, after: started.elapsed() })
            }
            _ => {
                let at = self.progress_at();
                let reason = self.bury();
                Ok(BatchOutcome::Died { at, reason })
            }
        }
    }

    /// The batch case the child last said it runs.
    #[cfg(unix)]
    fn progress_at(&self) -> u64 {
        let Some(proc) = &self.child else { return 0 };
        std::fs::read(&proc.progress)
            .ok()
            .and_then(|b| b.get(..8).map(|b| u64::from_le_bytes(b.try_into().unwrap_or([0; 8]))))
            .unwrap_or(0)
    }

    /// Runs `tc` (a case that has not started) in the child, waiting at
    /// most `limit` for it.
    pub(crate) fn run(&mut self, tc: &TestCase, limit: Option<Duration>) -> Result<ChildOutcome, String> {
        let spec = tc.spec().ok_or("this case cannot be rebuilt in another process")?;
        self.run_spec(&wire::case_line(&spec), limit)
    }

    #[cfg(not(unix))]
    fn run_spec(&mut self, _line: &str, _limit: Option<Duration>) -> Result<ChildOutcome, String> {
        Err("isolated runs need a Unix platform".into())
    }

    #[cfg(unix)]
    fn run_spec(&mut self, line: &str, limit: Option<Duration>) -> Result<ChildOutcome, String> {
        if self.child.is_none() {
            self.child = Some(self.start()?);
            self.starts += 1;
        }
        let started = Instant::now();
        let proc = self.child.as_mut().expect("a child");
        if proc.writer.write_all(line.as_bytes()).is_err() {
            // It died between cases (after answering the last one).
            let reason = self.bury();
            return Ok(ChildOutcome::Died { generated: None, reason });
        }
        let mut generated = None;
        loop {
            let proc = self.child.as_mut().expect("a child");
            let remaining = limit.map(|l| l.saturating_sub(started.elapsed()).max(Duration::from_millis(1)));
            let _ = proc.reader.get_ref().set_read_timeout(remaining);
            let mut reply = String::new();
            match proc.reader.read_line(&mut reply) {
                Ok(0) => {
                    let reason = self.bury();
                    return Ok(ChildOutcome::Died { generated, reason });
                }
                Ok(_) => {}
                Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                    self.kill();
                    return Ok(ChildOutcome::Hung { generated, after: started.elapsed() });
                }
                Err(_) => {
                    let reason = self.bury();
                    return Ok(ChildOutcome::Died { generated, reason });
                }
            }
            let reply = reply.trim_end();
            if let Some(rest) = reply.strip_prefix("generated ") {
                generated = Some(wire::parse_generated(rest)?);
            } else if let Some(rest) = reply.strip_prefix("result ") {
                return wire::parse_result(rest).map(ChildOutcome::Done);
            } else {
                return Err(format!("unexpected answer from the isolated child: {reply:?}"));
            }
        }
    }

    /// Starts a child and waits for it to connect.
    #[cfg(unix)]
    fn start(&self) -> Result<Proc, String> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let socket = std::env::temp_dir().join(format!(
            "speccheck-{}-{}.sock",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_file(&socket);
        let progress = socket.with_extension("progress");
        std::fs::write(&progress, 0u64.to_le_bytes())
            .map_err(|e| format!("cannot write {}: {e}", progress.display()))?;
        let listener = std::os::unix::net::UnixListener::bind(&socket)
            .map_err(|e| format!("cannot open a socket at {}: {e}", socket.display()))?;
        listener.set_nonblocking(true).map_err(|e| e.to_string())?;
        let mut child = Command::new(&self.exe)
            .args([self.test_path.as_str(), "--exact", "--include-ignored", "--test-threads", "1"])
            .env(SOCKET_VAR, &socket)
            .env(PROPERTY_VAR, &self.name)
            .env(super::child::PROGRESS_VAR, &progress)
            .env_remove("SPECCHECK_REPLAY")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", self.exe.display()))?;
        let stderr = Arc::new(Mutex::new(Vec::new()));
        if let Some(mut pipe) = child.stderr.take() {
            let tail = stderr.clone();
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n) = pipe.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                    t.extend_from_slice(&buf[..n]);
                    let excess = t.len().saturating_sub(STDERR_TAIL);
                    t.drain(..excess);
                }
            });
        }
        let begun = Instant::now();
        let stream = loop {
            match listener.accept() {
                Ok((stream, _)) => break stream,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(format!("the isolated child could not connect: {e}")),
            }
            if let Ok(Some(status)) = child.try_wait() {
                let _ = std::fs::remove_file(&socket);
                let said = String::from_utf8_lossy(&stderr.lock().unwrap_or_else(|e| e.into_inner())).into_owned();
                return Err(format!(
                    "the isolated child ({} {} --exact) exited ({status}) before serving: is `{}` the test's path \
                     as libtest names it?{}",
                    self.exe.display(),
                    self.test_path,
                    self.test_path,
                    if said.trim().is_empty() { String::new() } else { format!("\n{}", said.trim()) }
                ));
            }
            if begun.elapsed() > START_LIMIT {
                let _ = child.kill();
                let _ = child.wait();
                let _ = std::fs::remove_file(&socket);
                return Err(format!("the isolated child did not start within {}s", START_LIMIT.as_secs()));
            }
            std::thread::sleep(Duration::from_millis(1));
        };
        let _ = std::fs::remove_file(&socket);
        stream.set_nonblocking(false).map_err(|e| e.to_string())?;
        let reader = BufReader::new(stream.try_clone().map_err(|e| e.to_string())?);
        Ok(Proc { child, reader, writer: stream, stderr, progress })
    }

    /// Waits for a dead child and says how it died.
    #[cfg(unix)]
    fn bury(&mut self) -> String {
        let Some(mut proc) = self.child.take() else { return "the child was gone".into() };
        let status = wait_a_little(&mut proc.child);
        // Let the stderr reader drain what the dying child printed.
        std::thread::sleep(Duration::from_millis(2));
        let said = String::from_utf8_lossy(&proc.stderr.lock().unwrap_or_else(|e| e.into_inner())).into_owned();
        let _ = std::fs::remove_file(&proc.progress);
        crash_reason(status, &said)
    }

    #[cfg(unix)]
    fn kill(&mut self) {
        if let Some(mut proc) = self.child.take() {
            let _ = proc.child.kill();
            let _ = proc.child.wait();
            let _ = std::fs::remove_file(&proc.progress);
        }
    }
}

impl Drop for Isolated {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Some(mut proc) = self.child.take() {
            let _ = proc.writer.write_all(b"quit\n");
            if wait_a_little(&mut proc.child).is_none() {
                let _ = proc.child.kill();
                let _ = proc.child.wait();
            }
            let _ = std::fs::remove_file(&proc.progress);
        }
    }
}

/// The child's exit status, waiting up to a second for it.
fn wait_a_little(child: &mut Child) -> Option<std::process::ExitStatus> {
    let begun = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if begun.elapsed() < Duration::from_secs(1) => std::thread::sleep(Duration::from_millis(1)),
            _ => {
                let _ = child.kill();
                return child.wait().ok();
            }
        }
    }
}

/// How a child died, in words: what the runtime said (a stack overflow,
/// an allocation failure), then the signal or exit code.
pub(crate) fn crash_reason(status: Option<std::process::ExitStatus>, stderr: &str) -> String {
    let mut what = Vec::new();
    if stderr.contains("has overflowed its stack") {
        what.push("stack overflow".to_string());
    }
    if let Some(line) = stderr.lines().find(|l| l.contains("memory allocation of")) {
        what.push(format!("allocation failure ({})", line.trim()));
    }
    let status = match status {
        None => "the process could not be waited for".to_string(),
        Some(s) => {
            #[cfg(unix)]
            {
                use std::os::unix::process::ExitStatusExt;
                match s.signal() {
                    Some(sig) => format!("killed by signal {sig} ({})", signal_name(sig)),
                    None => format!("exited with {s}"),
                }
            }
            #[cfg(not(unix))]
            {
                format!("exited with {s}")
            }
        }
    };
    what.push(status);
    let last = stderr.lines().rev().find(|l| !l.trim().is_empty()).map(str::trim).unwrap_or("");
    let mut reason = what.join(", ");
    if !last.is_empty() && !reason.contains(last) {
        reason.push_str(&format!("; it printed: {last}"));
    }
    reason
}

fn signal_name(sig: i32) -> &'static str {
    match sig {
        4 => "SIGILL",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        15 => "SIGTERM",
        _ => "signal",
    }
}
