//! Testing over real TCP connections on the loopback interface.
//!
//! [`Tcp::connect`] tests a server that is already listening (nginx, a
//! bundled reference server); [`Tcp::spawn`] starts a fresh in-process
//! [`Service`] behind a real listener on `127.0.0.1` for each execution.
//! Reads are non-blocking; every loop is bounded in time.

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::inproc::Service;
use super::{SetupError, Target, Transport, TransportError};
use crate::model::Conn;

/// Longest a spawned server lives (a safety net for abandoned runs).
const SERVER_LIFETIME: Duration = Duration::from_secs(300);
/// Time allowed to connect.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
/// Time allowed to push one request into the socket.
const WRITE_TIMEOUT: Duration = Duration::from_secs(2);

type Factory = Arc<dyn Fn(u64) -> Box<dyn Service> + Send + Sync>;
type Reset = Arc<dyn Fn() -> Result<(), String> + Send + Sync>;

#[derive(Clone)]
enum Mode {
    Connect { addr: SocketAddr, reset: Option<Reset> },
    Spawn { factory: Factory, name: String },
}

/// A system under test reached over TCP.
#[derive(Clone)]
pub struct Tcp {
    mode: Mode,
}

impl Tcp {
    /// A server already listening at `addr`. `reset` (if any) runs before
    /// each execution and must bring the server back to its initial state,
    /// which the model assumes.
    pub fn connect(addr: SocketAddr, reset: Option<Arc<dyn Fn() -> Result<(), String> + Send + Sync>>) -> Self {
        Tcp { mode: Mode::Connect { addr, reset } }
    }

    /// A fresh service from `factory` (given the execution's seed) behind a
    /// real listener on `127.0.0.1`, for each execution.
    pub fn spawn(name: impl Into<String>, factory: impl Fn(u64) -> Box<dyn Service> + Send + Sync + 'static) -> Self {
        Tcp { mode: Mode::Spawn { factory: Arc::new(factory), name: name.into() } }
    }
}

impl Target for Tcp {
    fn start(&self, seed: u64) -> Result<Box<dyn Transport>, SetupError> {
        match &self.mode {
            Mode::Connect { addr, reset } => {
                if let Some(reset) = reset {
                    reset().map_err(SetupError::Reset)?;
                }
                Ok(Box::new(TcpTransport::new(*addr, None)))
            }
            Mode::Spawn { factory, .. } => {
                let server = SpawnedServer::start(factory(seed))?;
                Ok(Box::new(TcpTransport::new(server.addr, Some(server))))
            }
        }
    }

    fn describe(&self) -> String {
        match &self.mode {
            Mode::Connect { addr, .. } => format!("TCP server at {addr}"),
            Mode::Spawn { name, .. } => format!("{name} (spawned on 127.0.0.1 over TCP)"),
        }
    }
}

struct TcpTransport {
    addr: SocketAddr,
    streams: Vec<Option<TcpStream>>,
    started: Instant,
    _server: Option<SpawnedServer>,
}

impl TcpTransport {
    fn new(addr: SocketAddr, server: Option<SpawnedServer>) -> Self {
        TcpTransport { addr, streams: Vec::new(), started: Instant::now(), _server: server }
    }

    fn stream(&mut self, conn: Conn) -> Result<&mut TcpStream, TransportError> {
        self.streams.get_mut(conn).and_then(Option::as_mut).ok_or(TransportError::Closed { conn })
    }
}

fn lost(conn: Conn, e: std::io::Error) -> TransportError {
    match e.kind() {
        ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted | ErrorKind::BrokenPipe => {
            TransportError::Reset { conn, detail: e.to_string() }
        }
        _ => TransportError::Io { conn, detail: e.to_string() },
    }
}

impl Transport for TcpTransport {
    fn connect(&mut self, conn: Conn) -> Result<(), TransportError> {
        let s = TcpStream::connect_timeout(&self.addr, CONNECT_TIMEOUT).map_err(|e| {
            if e.kind() == ErrorKind::ConnectionRefused {
                TransportError::Refused { addr: self.addr.to_string(), detail: e.to_string() }
            } else {
                TransportError::Io { conn, detail: format!("connecting to {}: {e}", self.addr) }
            }
        })?;
        s.set_nodelay(true).map_err(|e| lost(conn, e))?;
        s.set_nonblocking(true).map_err(|e| lost(conn, e))?;
        if self.streams.len() <= conn {
            self.streams.resize_with(conn + 1, || None);
        }
        self.streams[conn] = Some(s);
        Ok(())
    }

    fn send(&mut self, conn: Conn, bytes: &[u8]) -> Result<(), TransportError> {
        let s = self.stream(conn)?;
        let deadline = Instant::now() + WRITE_TIMEOUT;
        let mut rest = bytes;
        while !rest.is_empty() {
            match s.write(rest) {
                Ok(0) => return Err(TransportError::Closed { conn }),
                Ok(n) => rest = &rest[n..],
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    if Instant::now() > deadline {
                        return Err(TransportError::Io {
                            conn,
                            detail: "the server does not read (write timed out)".into(),
                        });
                    }
                    std::thread::sleep(Duration::from_micros(100));
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(lost(conn, e)),
            }
        }
        Ok(())
    }

    fn recv(&mut self, conn: Conn, buf: &mut Vec<u8>) -> Result<usize, TransportError> {
        let s = self.stream(conn)?;
        let mut chunk = [0u8; 4096];
        let mut total = 0;
        loop {
            match s.read(&mut chunk) {
                Ok(0) => {
                    if total > 0 {
                        return Ok(total);
                    }
                    self.streams[conn] = None;
                    return Err(TransportError::Closed { conn });
                }
                Ok(n) => {
                    buf.extend_from_slice(&chunk[..n]);
                    total += n;
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => return Ok(total),
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(lost(conn, e)),
            }
        }
    }

    fn idle(&mut self) {
        std::thread::sleep(Duration::from_micros(50));
    }

    fn clock(&self) -> Duration {
        self.started.elapsed()
    }
}

/// A service behind a listener on 127.0.0.1, on its own thread.
struct SpawnedServer {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl SpawnedServer {
    fn start(service: Box<dyn Service>) -> Result<Self, SetupError> {
        let listener =
            TcpListener::bind("127.0.0.1:0").map_err(|e| SetupError::Io(format!("binding 127.0.0.1:0: {e}")))?;
        listener.set_nonblocking(true).map_err(|e| SetupError::Io(e.to_string()))?;
        let addr = listener.local_addr().map_err(|e| SetupError::Io(e.to_string()))?;
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let handle = std::thread::Builder::new()
            .name("speccheck-dual:server".into())
            .spawn(move || serve(listener, service, flag))
            .map_err(|e| SetupError::Io(format!("starting the server thread: {e}")))?;
        Ok(SpawnedServer { addr, stop, handle: Some(handle) })
    }
}

impl Drop for SpawnedServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

fn serve(listener: TcpListener, mut service: Box<dyn Service>, stop: Arc<AtomicBool>) {
    let born = Instant::now();
    let mut conns: Vec<Option<TcpStream>> = Vec::new();
    let mut out = Vec::new();
    let mut chunk = [0u8; 4096];
    while !stop.load(Ordering::Acquire) && born.elapsed() < SERVER_LIFETIME {
        let mut busy = false;
        while let Ok((s, _)) = listener.accept() {
            let _ = s.set_nodelay(true);
            if s.set_nonblocking(true).is_ok() {
                conns.push(Some(s));
                busy = true;
            }
        }
        for (c, slot) in conns.iter_mut().enumerate() {
            let Some(s) = slot else { continue };
            loop {
                match s.read(&mut chunk) {
                    Ok(0) => {
                        *slot = None;
                        break;
                    }
                    Ok(n) => {
                        service.receive(c, &chunk[..n]);
                        busy = true;
                    }
                    Err(e) if e.kind() == ErrorKind::Interrupted => {}
                    Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                    Err(_) => {
                        *slot = None;
                        break;
                    }
                }
            }
        }
        service.poll(&mut out);
        let mut closing = Vec::new();
        service.closing(&mut closing);
        for (c, bytes) in out.drain(..) {
            busy = true;
            if let Some(Some(s)) = conns.get_mut(c) {
                let deadline = Instant::now() + WRITE_TIMEOUT;
                let mut rest: &[u8] = &bytes;
                while !rest.is_empty() && Instant::now() < deadline {
                    match s.write(rest) {
                        Ok(n) => rest = &rest[n..],
                        Err(e) if e.kind() == ErrorKind::WouldBlock || e.kind() == ErrorKind::Interrupted => {
                            std::thread::sleep(Duration::from_micros(50));
                        }
                        Err(_) => break,
                    }
                }
            }
        }
        for c in closing {
            // Dropping the stream closes it (a reset if requests are unread).
            if let Some(slot) = conns.get_mut(c) {
                *slot = None;
                busy = true;
            }
        }
        if !busy {
            std::thread::sleep(Duration::from_micros(50));
        }
    }
}
