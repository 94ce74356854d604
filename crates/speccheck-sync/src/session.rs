//! The system under test, driven locally: a sandbox per execution (two
//! replicas, the synchronizer's state directory), the tester's file
//! operations applied to the real file system, and the synchronizer run as
//! a foreground command with a time limit, as its [`Profile`] says (its
//! command, its set-up run, its environment).
//!
//! Sandbox layout (a fresh temporary directory, removed when the
//! execution ends, also on a panic):
//!
//! ```text
//! <tmp>/replicas/a   replica A ({a} in the command)
//! <tmp>/replicas/b   replica B ({b})
//! <tmp>/state        the synchronizer's own state ({state}; its working directory)
//! <tmp>/output       what the commands printed
//! ```
//!
//! Commands run under `sh -c` with umask 022, the profile's environment
//! (`{a}`, `{b}`, `{state}` expanded: Unison's profile points `$UNISON`
//! and `$HOME` at the state directory), in their own process group. The
//! set-up run, if the profile has one, is made just before the first
//! synchronization, and again after a safety abort; a set-up run that
//! fails is that synchronization's exit code (the synchronizer itself is
//! then not run).
//!
//! Anything else that appears in `<tmp>` or `<tmp>/replicas` after a
//! synchronization was written outside the replicas and is reported.

use std::fs;
use std::io;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use speccheck_dual::exec::SetupError;
use speccheck_dual::exec::local::{CallError, Local, Session};
use speccheck_dual::{Execution, Tester};

use crate::coverage::Coverage;
use crate::model::{self, error};
use crate::profile::Profile;
use crate::{Replica, Sync, SyncReq, SyncResp, Synced, request_from_ir, response_to_ir, tree};

/// How to run a synchronizer: its profile, and the run's time limits.
#[derive(Clone, Debug)]
pub struct Synchronizer {
    /// The command, set-up, environment, exit codes and freedoms.
    pub profile: Profile,
    /// Longest one run may take before it is stopped (a hang).
    pub timeout: Duration,
    /// What a delay step waits (the file system's timestamp granularity).
    pub delay: Duration,
}

/// What a run exercised, added up over its executions as they end.
#[derive(Clone, Debug, Default)]
pub struct Tally(Arc<Mutex<Coverage>>);

impl Tally {
    /// Adds one execution's figures.
    pub fn record(&self, execution: &Execution) {
        let one = Coverage::of(execution);
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) += one;
    }

    /// The figures so far.
    pub fn get(&self) -> Coverage {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

impl Synchronizer {
    /// A synchronizer run as `command`, held to the strict model (10 s
    /// limit, 20 ms delay step).
    pub fn new(command: impl Into<String>) -> Self {
        let command = command.into();
        Synchronizer::from_profile(Profile::strict(format!("`{command}`"), command))
    }

    /// A synchronizer as its profile says (10 s limit, 20 ms delay step).
    pub fn from_profile(profile: Profile) -> Self {
        Synchronizer { profile, timeout: Duration::from_secs(10), delay: Duration::from_millis(20) }
    }

    /// A tester of this synchronizer, its model the profile's (one
    /// connection: the synchronizer runs in the foreground), and the tally
    /// of what its executions exercise.
    pub fn tester(&self) -> Result<(Tester<Sync>, Tally), SetupError> {
        self.tester_observed(|_| {})
    }

    /// [`tester`](Self::tester), also calling `also` after each execution
    /// (progress).
    pub fn tester_observed(
        &self,
        also: impl Fn(&Execution) + Send + std::marker::Sync + 'static,
    ) -> Result<(Tester<Sync>, Tally), SetupError> {
        let target = self.target()?;
        let tally = Tally::default();
        let seen = tally.clone();
        let tester = Tester::new(Sync::for_profile(&self.profile), target).with_settings(|s| s.conns = 1).on_execution(
            move |e| {
                seen.record(e);
                also(e);
            },
        );
        Ok((tester, tally))
    }

    /// The program the command runs, checked to exist: a setup error
    /// naming it (and how to install it, if the profile says) otherwise.
    pub fn check(&self) -> Result<(), SetupError> {
        let command = &self.profile.command;
        let program = command.split_whitespace().next().unwrap_or("");
        let program = program.trim_matches(|c| c == '\'' || c == '"');
        if program.is_empty() {
            return Err(SetupError::Io("the synchronizer command is empty".into()));
        }
        // As the shell that runs it finds it (builtins included).
        let found = Command::new("sh")
            .arg("-c")
            .arg(r#"command -v "$1" >/dev/null"#)
            .arg("sh")
            .arg(program)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if found {
            Ok(())
        } else {
            Err(SetupError::Io(format!(
                "synchronizer command not found: `{program}` (from `{command}`){}",
                self.profile.install.as_ref().map(|i| format!("; install it with `{i}`")).unwrap_or_default()
            )))
        }
    }

    /// The target: a fresh sandbox per execution. The profile is checked
    /// first ([`Profile::validate`]).
    pub fn target(&self) -> Result<Local, SetupError> {
        self.profile.validate().map_err(|e| SetupError::Io(e.to_string()))?;
        self.check()?;
        let me = self.clone();
        let enforce = permissions_enforced();
        Ok(Local::new(me.profile.name.clone(), move |_| {
            Ok(Box::new(Sandbox::new(me.clone(), enforce)?) as Box<dyn Session>)
        }))
    }
}

/// Whether permission bits bind this process (they do not bind the
/// superuser): tried once, in a temporary directory.
pub fn permissions_enforced() -> bool {
    let Ok(dir) = tempfile::tempdir() else { return true };
    let locked = dir.path().join("locked");
    let enforced = fs::create_dir(&locked).is_ok()
        && fs::set_permissions(&locked, fs::Permissions::from_mode(0o500)).is_ok()
        && fs::write(locked.join("probe"), b"").is_err();
    let _ = fs::set_permissions(&locked, fs::Permissions::from_mode(0o700));
    enforced
}

/// One execution's replicas, state and synchronizer.
pub struct Sandbox {
    dir: Option<tempfile::TempDir>,
    root: PathBuf,
    sync: Synchronizer,
    enforce: bool,
    /// The profile's set-up run comes before the next synchronization.
    setup_due: bool,
}

impl Sandbox {
    /// Makes the sandbox: both replicas empty (mode 755), no state.
    pub fn new(sync: Synchronizer, enforce: bool) -> Result<Self, SetupError> {
        let io = |e: io::Error| SetupError::Io(format!("could not make the sandbox: {e}"));
        let dir = tempfile::Builder::new().prefix("speccheck-sync-").tempdir().map_err(io)?;
        let root = dir.path().to_path_buf();
        for d in ["replicas", "replicas/a", "replicas/b", "state"] {
            fs::create_dir(root.join(d)).map_err(io)?;
            fs::set_permissions(root.join(d), fs::Permissions::from_mode(0o755)).map_err(io)?;
        }
        let setup_due = sync.profile.setup.is_some();
        Ok(Sandbox { dir: Some(dir), root, sync, enforce, setup_due })
    }

    /// The sandbox's directory.
    pub fn path(&self) -> &Path {
        &self.root
    }

    fn replica(&self, at: Replica) -> PathBuf {
        self.root.join("replicas").join(at.name())
    }

    fn resolve(&self, at: Replica, path: &str) -> PathBuf {
        let base = self.replica(at);
        if path.is_empty() { base } else { base.join(path) }
    }

    /// Applies one file operation.
    fn operate(&self, req: &SyncReq) -> SyncResp {
        let result = match req {
            SyncReq::Read { at, path } => {
                fs::read(self.resolve(*at, path)).map(|b| SyncResp::Contents(tree::content_key(&b)))
            }
            SyncReq::List { at, path } => list(&self.resolve(*at, path)),
            SyncReq::Write { at, path, content } => write(&self.resolve(*at, path), &content.bytes()),
            SyncReq::Symlink { at, path, target } => {
                std::os::unix::fs::symlink(target, self.resolve(*at, path)).map(|()| SyncResp::Done)
            }
            SyncReq::Rename { at, path, to } => self.rename(*at, path, to),
            SyncReq::Mkdir { at, path } => {
                let p = self.resolve(*at, path);
                fs::create_dir(&p)
                    .and_then(|()| fs::set_permissions(&p, fs::Permissions::from_mode(0o755)))
                    .map(|()| SyncResp::Done)
            }
            SyncReq::Remove { at, path } => self.remove(*at, path),
            SyncReq::Chmod { at, path, mode } => {
                fs::set_permissions(self.resolve(*at, path), fs::Permissions::from_mode(*mode)).map(|()| SyncResp::Done)
            }
            SyncReq::Sync | SyncReq::Delay => unreachable!("not file operations"),
        };
        result.unwrap_or_else(|e| SyncResp::Failed(errno(&e)))
    }

    /// A recursive removal that never stops halfway: when permissions
    /// forbid part of it, nothing is removed (as the model says).
    fn remove(&self, at: Replica, path: &str) -> io::Result<SyncResp> {
        let p = self.resolve(at, path);
        let meta = fs::symlink_metadata(&p)?;
        if self.enforce {
            let seen = tree::observe(&self.replica(at))?.unwrap_or_default();
            if !model::removal_allowed(&seen, path, true) {
                return Ok(SyncResp::Failed(error::DENIED.into()));
            }
        }
        if meta.is_dir() {
            fs::remove_dir_all(&p)?
        } else {
            fs::remove_file(&p)?
        }
        Ok(SyncResp::Done)
    }

    /// A rename within a directory that never replaces an entry (checked
    /// first: the tester's own operations run one at a time).
    fn rename(&self, at: Replica, from: &str, to: &str) -> io::Result<SyncResp> {
        let (from, to) = (self.resolve(at, from), self.resolve(at, to));
        fs::symlink_metadata(&from)?;
        if fs::symlink_metadata(&to).is_ok() {
            return Ok(SyncResp::Failed(error::EXISTS.into()));
        }
        fs::rename(&from, &to)?;
        Ok(SyncResp::Done)
    }

    /// `template` with the sandbox's paths, quoted for the shell or not.
    fn expand(&self, template: &str, quoted: bool) -> String {
        let quote = |p: PathBuf| {
            let p = p.display().to_string();
            if quoted { format!("'{}'", p.replace('\'', r"'\''")) } else { p }
        };
        template
            .replace("{a}", &quote(self.replica(Replica::A)))
            .replace("{b}", &quote(self.replica(Replica::B)))
            .replace("{state}", &quote(self.root.join("state")))
    }

    /// Runs the synchronizer (its set-up run first when due) and observes
    /// what it did.
    fn synchronize(&mut self) -> Result<SyncResp, CallError> {
        let harness = |e: io::Error| CallError::Harness(format!("running the synchronizer: {e}"));
        let output = fs::File::create(self.root.join("output")).map_err(harness)?;
        let mut code = 0;
        if self.setup_due
            && let Some(setup) = &self.sync.profile.setup
        {
            code = self.run(&setup.command, &output)?;
            self.setup_due = code != 0;
        }
        if code == 0 {
            code = self.run(&self.sync.profile.command.clone(), &output)?;
            self.setup_due = self.sync.profile.exit.abort.contains(&code);
        }
        let observe = |at| tree::observe(&self.replica(at)).map_err(harness);
        Ok(SyncResp::Synced(Synced {
            code,
            a: observe(Replica::A)?,
            b: observe(Replica::B)?,
            outside: self.outside().map_err(harness)?,
        }))
    }

    /// Runs one of the profile's commands to its end (or its time limit):
    /// its exit code (128 + n when killed by signal n).
    fn run(&self, template: &str, output: &fs::File) -> Result<i64, CallError> {
        let harness = |e: io::Error| CallError::Harness(format!("running the synchronizer: {e}"));
        let line = format!("umask 022; {}", self.expand(template, true));
        let env: Vec<(String, String)> =
            self.sync.profile.env.iter().map(|(k, v)| (k.clone(), self.expand(v, false))).collect();
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(&line)
            .envs(env)
            .current_dir(self.root.join("state"))
            .stdin(Stdio::null())
            .stdout(output.try_clone().map_err(harness)?)
            .stderr(output.try_clone().map_err(harness)?)
            .process_group(0)
            .spawn()
            .map_err(harness)?;
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().map_err(harness)? {
                break status;
            }
            if started.elapsed() > self.sync.timeout {
                // The whole process group (the shell's children too), and
                // only it: its id is the child's, never 0 or 1.
                if let Ok(group) = libc::pid_t::try_from(child.id())
                    && group > 1
                {
                    // SAFETY: kill(2) with a negative pid signals that
                    // process group; no memory is involved.
                    unsafe {
                        libc::kill(-group, libc::SIGKILL);
                    }
                }
                let _ = child.kill();
                let _ = child.wait();
                return Err(CallError::Stalled(format!(
                    "the synchronizer ran past its {} s limit and was stopped: `{line}`",
                    self.sync.timeout.as_secs_f64()
                )));
            }
            std::thread::sleep(Duration::from_micros(500));
        };
        Ok(status.code().map_or_else(|| 128 + i64::from(status.signal().unwrap_or(0)), i64::from))
    }

    /// Entries written beside the replicas and the state.
    fn outside(&self) -> io::Result<Vec<String>> {
        let mut out = Vec::new();
        for (dir, expected) in [("", &["replicas", "state", "output"][..]), ("replicas", &["a", "b"][..])] {
            for entry in fs::read_dir(self.root.join(dir))? {
                let name = entry?.file_name().to_string_lossy().into_owned();
                if !expected.contains(&name.as_str()) {
                    out.push(tree::join(dir, &name));
                }
            }
        }
        out.sort();
        Ok(out)
    }
}

impl Session for Sandbox {
    fn call(&mut self, request: &[u8]) -> Result<Vec<u8>, CallError> {
        let req = serde_json::from_slice(request.trim_ascii_end())
            .ok()
            .and_then(|ir| request_from_ir(&ir))
            .ok_or_else(|| CallError::Harness(format!("not a request: {}", String::from_utf8_lossy(request))))?;
        let resp = match req {
            SyncReq::Sync => self.synchronize()?,
            SyncReq::Delay => {
                std::thread::sleep(self.sync.delay);
                SyncResp::Done
            }
            other => self.operate(&other),
        };
        let mut line = response_to_ir(&resp).to_string();
        line.push('\n');
        Ok(line.into_bytes())
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        // Directories the synchronizer or the tester made read-only would
        // stop the removal of the sandbox (for anyone but the superuser).
        let _ = unlock(&self.root);
        if let Some(dir) = self.dir.take() {
            let _ = dir.close();
        }
    }
}

fn unlock(dir: &Path) -> io::Result<()> {
    fs::set_permissions(dir, fs::Permissions::from_mode(0o700))?;
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            unlock(&entry.path())?;
        }
    }
    Ok(())
}

fn list(p: &Path) -> io::Result<SyncResp> {
    let mut names = Vec::new();
    for entry in fs::read_dir(p)? {
        names.push(entry?.file_name().to_string_lossy().into_owned());
    }
    names.sort();
    Ok(SyncResp::Names(names))
}

fn write(p: &Path, bytes: &[u8]) -> io::Result<SyncResp> {
    let new = fs::symlink_metadata(p).is_err();
    // Never through a symbolic link (ELOOP): the tester's links dangle,
    // and following one would create its target.
    let mut f = fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o644)
        .custom_flags(libc::O_NOFOLLOW)
        .open(p)?;
    io::Write::write_all(&mut f, bytes)?;
    if new {
        // Whatever the umask: new files are 644, as the model says.
        f.set_permissions(fs::Permissions::from_mode(0o644))?;
    }
    Ok(SyncResp::Done)
}

/// An I/O error as the model names it.
fn errno(e: &io::Error) -> String {
    if e.raw_os_error() == Some(libc::ELOOP) {
        return error::LINK.into();
    }
    match e.kind() {
        io::ErrorKind::NotFound => error::NOT_FOUND.into(),
        io::ErrorKind::NotADirectory => error::NOT_DIR.into(),
        io::ErrorKind::IsADirectory => error::IS_DIR.into(),
        io::ErrorKind::AlreadyExists => error::EXISTS.into(),
        io::ErrorKind::PermissionDenied => error::DENIED.into(),
        _ => format!("other: {e}"),
    }
}
