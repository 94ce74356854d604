#!/usr/bin/env python3
"""Probe a WebDAV-ish HTTP/1.1 server (nginx or Apache started by
servers/nginx.sh / servers/apache.sh) and print what it does, as Markdown.

    python3 servers/probe.py 127.0.0.1:PORT [SECTION...]

SECTION is any of: basic cond etag pipeline keepalive concurrency (default:
all). Raw sockets, no dependencies. Every socket has a timeout and every loop
a fixed bound; it only talks to the HOST:PORT it is given, which must be a
loopback address. It writes and deletes files under /p-* paths of the
server's document root.
"""

import ipaddress
import socket
import sys
import threading
import time

TIMEOUT = 5.0


class Closed(Exception):
    pass


class Conn:
    """One TCP connection with a read buffer and an HTTP/1.1 response reader."""

    def __init__(self, addr):
        self.addr = addr
        self.sock = socket.create_connection(addr, timeout=TIMEOUT)
        self.buf = b""
        self.eof = None  # None, "FIN" or "RST" once seen

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    def send(self, data):
        self.sock.sendall(data)

    def _fill(self):
        if self.eof:
            raise Closed(self.eof)
        try:
            chunk = self.sock.recv(65536)
        except ConnectionResetError:
            self.eof = "RST"
            raise Closed("RST")
        if not chunk:
            self.eof = "FIN"
            raise Closed("FIN")
        self.buf += chunk

    def _line(self):
        while b"\r\n" not in self.buf:
            if len(self.buf) > 1 << 20:
                raise ValueError("line too long")
            self._fill()
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def _exact(self, n):
        while len(self.buf) < n:
            self._fill()
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def _until_close(self):
        for _ in range(100000):
            try:
                self._fill()
            except Closed:
                break
        out, self.buf = self.buf, b""
        return out

    def read_response(self, method):
        """Read one final response (skips 1xx). Returns a Resp."""
        for _ in range(10):
            status_line = self._line()
            parts = status_line.decode("latin-1").split(" ", 2)
            status = int(parts[1])
            headers = []
            for _ in range(200):
                line = self._line()
                if not line:
                    break
                name, _, value = line.decode("latin-1").partition(":")
                headers.append((name.strip(), value.strip()))
            if 100 <= status < 200:
                continue
            break
        r = Resp(status_line.decode("latin-1"), status, headers)
        te = r.get("Transfer-Encoding")
        cl = r.get("Content-Length")
        if method == "HEAD" or status in (204, 304):
            r.framing = "none"
        elif te and "chunked" in te.lower():
            r.framing = "chunked"
            body = b""
            for _ in range(100000):
                size = int(self._line().split(b";")[0], 16)
                if size == 0:
                    break
                body += self._exact(size)
                self._exact(2)
            for _ in range(200):  # trailers
                if not self._line():
                    break
            r.body = body
        elif cl is not None:
            r.framing = "length"
            r.body = self._exact(int(cl))
        else:
            r.framing = "close"
            r.body = self._until_close()
        return r

    def probe_close(self, wait=0.3):
        """After a response: does the server close (FIN/RST) within `wait` s?"""
        if self.buf:
            return "data"
        self.sock.settimeout(wait)
        try:
            chunk = self.sock.recv(65536)
            if not chunk:
                self.eof = "FIN"
                return "FIN"
            self.buf += chunk
            return "data"
        except socket.timeout:
            return "open"
        except ConnectionResetError:
            self.eof = "RST"
            return "RST"
        finally:
            self.sock.settimeout(TIMEOUT)


class Resp:
    def __init__(self, line, status, headers):
        self.line = line
        self.status = status
        self.headers = headers
        self.body = b""
        self.framing = None

    def get(self, name, default=None):
        for k, v in self.headers:
            if k.lower() == name.lower():
                return v
        return default


def build(method, path, headers=None, body=None, host="x"):
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}"]
    hdrs = dict(headers or {})
    if body is not None and not any(k.lower() in ("content-length", "transfer-encoding") for k in hdrs):
        hdrs["Content-Length"] = str(len(body))
    for k, v in hdrs.items():
        lines.append(f"{k}: {v}")
    raw = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
    if body is not None:
        raw += body
    return raw


ADDR = None


def req(method, path, headers=None, body=None):
    """One request on a fresh connection (no 'Connection: close' sent).
    Method "RAW" sends `GET path HTTP/1.1` without a Host header."""
    c = Conn(ADDR)
    try:
        if method == "RAW":
            c.send(f"GET {path} HTTP/1.1\r\n\r\n".encode())
            return c.read_response("GET")
        c.send(build(method, path, headers, body))
        return c.read_response(method)
    finally:
        c.close()


def put(path, body):
    return req("PUT", path, body=body)


def etag_of(path):
    return req("GET", path).get("ETag")


def md_table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in rows:
        out.append("| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |")
    print("\n".join(out))
    print()


def short(b, n=40):
    s = b.decode("latin-1", "replace").replace("\r", "\\r").replace("\n", "\\n")
    return repr(s) if len(s) <= n else repr(s[:n]) + f"…({len(b)}B)"


def hdr(r, name):
    v = r.get(name)
    return "—" if v is None else v


# ---------------------------------------------------------------- sections

def sec_basic():
    print("## Basic requests (one fresh connection each)\n")
    cols = ["#", "request", "status", "ETag", "Content-Length", "Content-Type",
            "Location", "Allow", "Connection", "Transfer-Encoding", "Last-Modified", "body"]
    rows = []

    def row(label, method, path, headers=None, body=None):
        r = req(method, path, headers, body)
        rows.append([len(rows) + 1, label, r.status, hdr(r, "ETag"), hdr(r, "Content-Length"),
                     hdr(r, "Content-Type"), hdr(r, "Location"), hdr(r, "Allow"),
                     hdr(r, "Connection"), hdr(r, "Transfer-Encoding"),
                     "yes" if r.get("Last-Modified") else "—", short(r.body)])
        return r

    req("DELETE", "/p-x")
    req("DELETE", "/p-x.txt")
    req("DELETE", "/p-missing")
    row("PUT /p-x 'abc' (new)", "PUT", "/p-x", body=b"abc")
    row("PUT /p-x 'abcd' (overwrite)", "PUT", "/p-x", body=b"abcd")
    g = row("GET /p-x", "GET", "/p-x")
    h = row("HEAD /p-x", "HEAD", "/p-x")
    row("PUT /p-x.txt 'hi' (new, .txt)", "PUT", "/p-x.txt", body=b"hi")
    row("GET /p-x.txt", "GET", "/p-x.txt")
    row("GET /p-missing", "GET", "/p-missing")
    row("HEAD /p-missing", "HEAD", "/p-missing")
    row("POST /p-x 'z' (existing)", "POST", "/p-x", body=b"z")
    row("POST /p-missing 'z'", "POST", "/p-missing", body=b"z")
    row("OPTIONS /p-x", "OPTIONS", "/p-x")
    row("OPTIONS /p-missing", "OPTIONS", "/p-missing")
    row("OPTIONS *", "OPTIONS", "*")
    row("PATCH /p-x 'z'", "PATCH", "/p-x", body=b"z")
    row("FOO /p-x", "FOO", "/p-x")
    row("PUT /p-nodir/x 'a' (parent missing)", "PUT", "/p-nodir/x", body=b"a")
    row("PUT /p-e '' (Content-Length: 0)", "PUT", "/p-e", body=b"")
    row("GET /p-e (empty file)", "GET", "/p-e")
    row("PUT /p-nobody (no CL, no TE)", "PUT", "/p-nobody")
    row("PUT /p-ch chunked 'hello'", "PUT", "/p-ch",
        headers={"Transfer-Encoding": "chunked"}, body=b"5\r\nhello\r\n0\r\n\r\n")
    row("GET /p-ch", "GET", "/p-ch")
    row("PUT /p-x/ (trailing slash on file)", "PUT", "/p-x/", body=b"q")
    row("GET /p-x/ (trailing slash on file)", "GET", "/p-x/")
    row("PUT / (the root collection)", "PUT", "/", body=b"q")
    row("DELETE /p-x", "DELETE", "/p-x")
    row("GET /p-x (after DELETE)", "GET", "/p-x")
    row("DELETE /p-x (again: missing)", "DELETE", "/p-x")
    row("DELETE /p-missing", "DELETE", "/p-missing")
    row("GET /p-x HTTP/1.1 without Host", "RAW", "/p-x")
    for p in ("/p-x.txt", "/p-e", "/p-nobody", "/p-ch"):
        req("DELETE", p)
    md_table(cols, rows)
    print(f"GET vs HEAD /p-x: GET Content-Length={g.get('Content-Length')}, "
          f"HEAD Content-Length={h.get('Content-Length')}, same ETag: {g.get('ETag') == h.get('ETag')}\n")

    # Headers of a 404, a 201 and a 204 in full.
    print("Full header lists:\n")
    req("DELETE", "/p-full")
    for label, m, p, b in [("PUT /p-full (new)", "PUT", "/p-full", b"abc"),
                           ("PUT /p-full (overwrite)", "PUT", "/p-full", b"abd"),
                           ("GET /p-full", "GET", "/p-full", None),
                           ("DELETE /p-full", "DELETE", "/p-full", None),
                           ("GET /p-full (missing)", "GET", "/p-full", None)]:
        r = req(m, p, body=b)
        print(f"- `{label}` → `{r.line}`; " + "; ".join(f"`{k}: {v}`" for k, v in r.headers))
    print()


COND_VARIANTS = [
    ("If-Match", lambda e: e),
    ("If-Match", lambda e: '"nomatch"'),
    ("If-Match", lambda e: "*"),
    ("If-Match", lambda e: weak(e)),
    ("If-Match", lambda e: f'"nomatch", {e}'),
    ("If-None-Match", lambda e: e),
    ("If-None-Match", lambda e: '"nomatch"'),
    ("If-None-Match", lambda e: "*"),
    ("If-None-Match", lambda e: weak(e)),
    ("If-None-Match", lambda e: f'"nomatch", {e}'),
]
COND_LABELS = ["E", '"nomatch"', "*", "W/E", '"nomatch", E'] * 2


def weak(e):
    return e if e.startswith("W/") else "W/" + e


def strong(e):
    return e[2:] if e.startswith("W/") else e


def sec_cond(aged=True):
    """Conditional requests. aged=True: resources are > 1 s old when probed."""
    title = "older than 1 s" if aged else "just written (same second)"
    print(f"## Conditional requests — resources {title}\n")
    print("Cell: status, then the effect seen by a GET afterwards "
          "(PUT: written / unchanged / created / not created; DELETE: deleted / kept). "
          "E = the resource's ETag from a GET just before (for a missing resource: "
          "the ETag of another, existing resource).\n")
    methods = ["GET", "HEAD", "PUT", "DELETE"]
    orig = b"orig"
    new = b"NEW!"  # same length as orig
    paths = {}
    for vi in range(len(COND_VARIANTS)):
        for m in methods:
            paths[(vi, m, "exists")] = f"/p-c{vi}-{m}-e"
            paths[(vi, m, "missing")] = f"/p-c{vi}-{m}-m"
    for p in paths.values():
        req("DELETE", p)
    req("DELETE", "/p-cref")
    put("/p-cref", orig)
    for (vi, m, st), p in paths.items():
        if st == "exists":
            put(p, orig)
    if aged:
        time.sleep(1.5)
    ref = etag_of("/p-cref")
    print(f"Example E: `{ref}`\n")
    rows = []
    weak_seen = {True: 0, False: 0}
    for state in ("exists", "missing"):
        for vi, (hname, fn) in enumerate(COND_VARIANTS):
            cells = []
            for m in methods:
                p = paths[(vi, m, state)]
                e = etag_of(p) if state == "exists" else ref
                if e is None:
                    e = '"no-etag"'
                weak_seen[e.startswith("W/")] += 1
                hv = fn(e)
                body = new if m == "PUT" else None
                r = req(m, p, {hname: hv}, body)
                after = req("GET", p)
                if m == "PUT":
                    if state == "exists":
                        eff = "written" if after.body == new else ("unchanged" if after.body == orig else f"?{short(after.body)}")
                    else:
                        eff = "created" if after.status == 200 else "not created"
                elif m == "DELETE":
                    if state == "exists":
                        eff = "deleted" if after.status == 404 else "kept"
                    else:
                        eff = "" if after.status == 404 else "?exists"
                else:
                    eff = ""
                extra = ""
                if r.status in (304, 412):
                    extra = " [ETag]" if r.get("ETag") else ""
                cells.append(f"{r.status} {eff}{extra}".strip())
            rows.append([f"{hname}: {COND_LABELS[vi]}", state] + cells)
    md_table(["header", "resource"] + methods, rows)
    print(f"E was weak (W/) in {weak_seen[True]} and strong in {weak_seen[False]} of the cells.\n")
    for p in list(paths.values()) + ["/p-cref"]:
        req("DELETE", p)

    # A few combinations worth knowing, each on its own resource.
    print("Combinations (existing resource, aged as above; E, LM = its ETag and "
          "Last-Modified, NOW = the Date of a response just before, OLD = 2000-01-01, "
          "FUTURE = 2100-01-01; a PUT writes the same 4 bytes):\n")
    old = "Sat, 01 Jan 2000 00:00:00 GMT"
    future = "Fri, 01 Jan 2100 00:00:00 GMT"
    combos = [
        ("GET", "If-None-Match: \"nomatch\"; If-Modified-Since: LM",
         lambda e, lm, now: {"If-None-Match": '"nomatch"', "If-Modified-Since": lm}),
        ("GET", "If-None-Match: E; If-Modified-Since: OLD",
         lambda e, lm, now: {"If-None-Match": e, "If-Modified-Since": old}),
        ("GET", "If-Modified-Since: LM", lambda e, lm, now: {"If-Modified-Since": lm}),
        ("GET", "If-Modified-Since: NOW (> LM)", lambda e, lm, now: {"If-Modified-Since": now}),
        ("GET", "If-Modified-Since: OLD", lambda e, lm, now: {"If-Modified-Since": old}),
        ("GET", "If-Modified-Since: FUTURE", lambda e, lm, now: {"If-Modified-Since": future}),
        ("GET", "If-Modified-Since: not a date", lambda e, lm, now: {"If-Modified-Since": "not a date"}),
        ("GET", "If-Unmodified-Since: OLD", lambda e, lm, now: {"If-Unmodified-Since": old}),
        ("GET", "If-Unmodified-Since: LM", lambda e, lm, now: {"If-Unmodified-Since": lm}),
        ("GET", "If-Unmodified-Since: NOW", lambda e, lm, now: {"If-Unmodified-Since": now}),
        ("GET", "If-Match: E; If-Unmodified-Since: OLD",
         lambda e, lm, now: {"If-Match": e, "If-Unmodified-Since": old}),
        ("GET", "If-Match: \"nomatch\"; If-Unmodified-Since: NOW",
         lambda e, lm, now: {"If-Match": '"nomatch"', "If-Unmodified-Since": now}),
        ("GET", "If-Match: E without quotes", lambda e, lm, now: {"If-Match": strong(e).strip('"')}),
        ("GET", "If-None-Match: E without quotes", lambda e, lm, now: {"If-None-Match": strong(e).strip('"')}),
        ("GET", "If-Match: E (strong form)", lambda e, lm, now: {"If-Match": strong(e)}),
        ("GET", "If-None-Match: E (strong form)", lambda e, lm, now: {"If-None-Match": strong(e)}),
        ("PUT", "If-Unmodified-Since: OLD", lambda e, lm, now: {"If-Unmodified-Since": old}),
        ("PUT", "If-Unmodified-Since: NOW", lambda e, lm, now: {"If-Unmodified-Since": now}),
        ("PUT", "If-Match: E; If-Unmodified-Since: OLD",
         lambda e, lm, now: {"If-Match": e, "If-Unmodified-Since": old}),
        ("PUT", "If-Match: E; If-None-Match: E", lambda e, lm, now: {"If-Match": e, "If-None-Match": e}),
        ("PUT", "If-Modified-Since: FUTURE", lambda e, lm, now: {"If-Modified-Since": future}),
        ("DELETE", "If-Unmodified-Since: OLD", lambda e, lm, now: {"If-Unmodified-Since": old}),
        ("DELETE", "If-Match: E (strong form)", lambda e, lm, now: {"If-Match": strong(e)}),
    ]
    for i in range(len(combos) + 1):
        req("DELETE", f"/p-cc{i}")
        put(f"/p-cc{i}", orig)
    if aged:
        time.sleep(1.5)
    crow = []
    for i, (m, label, fn) in enumerate(combos):
        g = req("GET", f"/p-cc{i}")
        h = fn(g.get("ETag") or '"none"', g.get("Last-Modified"), g.get("Date"))
        r = req(m, f"/p-cc{i}", h, new if m in ("PUT",) else None)
        after = req("GET", f"/p-cc{i}")
        eff = ""
        if m == "PUT":
            eff = "written" if after.body == new else "unchanged"
        elif m == "DELETE":
            eff = "deleted" if after.status == 404 else "kept"
        crow.append([m, label, f"{r.status} {eff}".strip()])
    md_table(["method", "headers", "status"], crow)
    e = etag_of(f"/p-cc{len(combos)}")
    print("Full headers of a 304 and a 412:\n")
    for m, h in [("GET", {"If-None-Match": e}), ("HEAD", {"If-None-Match": e}),
                 ("GET", {"If-Match": '"nomatch"'}), ("PUT", {"If-None-Match": "*"})]:
        r = req(m, f"/p-cc{len(combos)}", h, orig if m == "PUT" else None)
        print(f"- `{m}` with `{h}` → `{r.line}`; " + "; ".join(f"`{k}: {v}`" for k, v in r.headers)
              + f"; body {len(r.body)} bytes")
    print()
    for i in range(len(combos) + 1):
        req("DELETE", f"/p-cc{i}")


def sec_etag():
    print("## ETag changes on overwrite\n")
    rows = []
    req("DELETE", "/p-et")
    put("/p-et", b"aaaa")
    prev = etag_of("/p-et")
    bodies = [b"bbbb", b"cccc", b"dddd", b"eeee", b"ffff", b"gg", b"hhhhhh"]
    for b in bodies:
        t0 = time.time()
        r = put("/p-et", b)
        g = req("GET", "/p-et")
        e = g.get("ETag")
        rows.append([f"PUT {b.decode()!r} (len {len(b)})", r.status, hdr(r, "ETag"), e,
                     "changed" if e != prev else "SAME", f"{t0:.3f}", g.body == b])
        prev = e
    md_table(["overwrite with", "PUT status", "PUT ETag", "GET ETag after", "vs previous",
              "time", "GET body correct"], rows)
    # Spread over seconds: same length, one per ~0.4 s.
    rows = []
    prev = etag_of("/p-et")
    for i in range(5):
        time.sleep(0.4)
        b = bytes([ord("p") + i]) * 4
        put("/p-et", b)
        e = etag_of("/p-et")
        rows.append([b.decode(), e, "changed" if e != prev else "SAME", f"{time.time():.3f}"])
        prev = e
    print("Same length, 0.4 s apart:\n")
    md_table(["body", "ETag", "vs previous", "time"], rows)
    time.sleep(1.2)
    print(f"Same resource after >1 s idle: ETag `{etag_of('/p-et')}`\n")
    req("DELETE", "/p-et")


def sec_pipeline():
    print("## Pipelining\n")
    req("DELETE", "/p-pipe")
    c = Conn(ADDR)
    rows = []
    try:
        data = (build("PUT", "/p-pipe", body=b"piped") + build("GET", "/p-pipe")
                + build("GET", "/p-pipe"))
        c.send(data)
        for m in ("PUT", "GET", "GET"):
            try:
                r = c.read_response(m)
                rows.append([m, r.status, hdr(r, "Connection"), short(r.body)])
            except (Closed, OSError) as ex:
                rows.append([m, f"no response ({ex})", "", ""])
                break
        rows.append(["(after)", c.probe_close(), "", ""])
    finally:
        c.close()
    md_table(["request", "status", "Connection", "body"], rows)

    # Pipelined GET, POST (error), GET: is the connection kept after an error?
    rows = []
    c = Conn(ADDR)
    try:
        c.send(build("GET", "/p-pipe") + build("POST", "/p-pipe", body=b"zz") + build("GET", "/p-pipe")
               + build("GET", "/p-nonexistent") + build("GET", "/p-pipe"))
        for m in ("GET", "POST", "GET", "GET", "GET"):
            try:
                r = c.read_response(m)
                rows.append([m, r.status, hdr(r, "Connection"), short(r.body, 20)])
            except (Closed, OSError) as ex:
                rows.append([m, f"no response ({ex})", "", ""])
                break
        rows.append(["(after)", c.probe_close(), "", ""])
    finally:
        c.close()
    print("GET, POST, GET, GET missing, GET pipelined in one write:\n")
    md_table(["request", "status", "Connection", "body"], rows)
    req("DELETE", "/p-pipe")


def sec_keepalive():
    print("## Keep-alive\n")
    put("/p-ka", b"k")
    # Sequential requests on one connection until the server closes.
    c = Conn(ADDR)
    n = 0
    last = None
    closed = None
    try:
        for _ in range(2000):
            try:
                c.send(build("GET", "/p-ka"))
                last = c.read_response("GET")
            except (Closed, OSError) as ex:
                closed = f"send/recv failed after {n}: {ex!r}"
                break
            n += 1
            if last.get("Connection", "").lower() == "close":
                closed = c.probe_close(1.0)
                break
    finally:
        c.close()
    print(f"- Sequential GETs on one connection: {n} answered; last response "
          f"`Connection: {last.get('Connection') if last else None}`; after it: {closed}.")
    if last is not None:
        print(f"  Last response headers: " + "; ".join(f"`{k}: {v}`" for k, v in last.headers))

    # Do earlier responses carry Connection: keep-alive? (from a fresh conn)
    c = Conn(ADDR)
    try:
        c.send(build("GET", "/p-ka"))
        r1 = c.read_response("GET")
        c.send(build("GET", "/p-ka", {"Connection": "close"}))
        r2 = c.read_response("GET")
        after = c.probe_close(1.0)
    finally:
        c.close()
    print(f"- First response `Connection: {r1.get('Connection')}`, Keep-Alive: `{r1.get('Keep-Alive')}`; "
          f"request with `Connection: close` → response `Connection: {r2.get('Connection')}`, then {after}.")

    # HTTP/1.0 request without keep-alive
    c = Conn(ADDR)
    try:
        c.send(b"GET /p-ka HTTP/1.0\r\n\r\n")
        r = c.read_response("GET")
        after = c.probe_close(1.0)
    finally:
        c.close()
    print(f"- HTTP/1.0 GET (no Host, no keep-alive): `{r.line}`, `Connection: {r.get('Connection')}`, then {after}.")

    # Malformed request line.
    for label, raw in [("garbage request line `GARBAGE\\r\\n\\r\\n`", b"GARBAGE\r\n\r\n"),
                       ("bad version `GET / HTTP/9.9`", b"GET /p-ka HTTP/9.9\r\nHost: x\r\n\r\n"),
                       ("header without colon", b"GET /p-ka HTTP/1.1\r\nHost: x\r\nBadHeader\r\n\r\n"),
                       ("two Content-Length values", b"PUT /p-ka2 HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab"),
                       ("CL and TE both", b"PUT /p-ka2 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")]:
        c = Conn(ADDR)
        try:
            c.send(raw + build("GET", "/p-ka"))
            try:
                r = c.read_response("GET")
                desc = f"`{r.line}` `Connection: {r.get('Connection')}` TE: {r.get('Transfer-Encoding')}, CL: {r.get('Content-Length')}"
            except (Closed, OSError) as ex:
                desc = f"no response ({ex})"
                r = None
            try:
                r2 = c.read_response("GET")
                follow = f"pipelined GET after it answered {r2.status}"
                after = c.probe_close(1.0)
            except (Closed, OSError) as ex:
                follow = f"pipelined GET after it not answered ({ex})"
                after = c.eof
        finally:
            c.close()
        print(f"- {label}: {desc}; {follow}; connection then: {after}.")
    req("DELETE", "/p-ka2")

    # Pipelining past the limit.
    limit = n
    extra = 5
    c = Conn(ADDR)
    got = 0
    end = None
    last = None
    try:
        c.send(b"".join(build("GET", "/p-ka") for _ in range(limit + extra)))
        for _ in range(limit + extra):
            try:
                last = c.read_response("GET")
                got += 1
            except (Closed, OSError) as ex:
                end = repr(ex)
                break
        if end is None:
            end = c.probe_close(1.0)
    finally:
        c.close()
    print(f"- {limit + extra} GETs pipelined in one write (limit {limit}): {got} answered; "
          f"last answered `Connection: {last.get('Connection') if last else None}`; then: {end}.")
    # Same, but read slowly after a pause (to see RST vs FIN without racing)
    c = Conn(ADDR)
    got = 0
    end = None
    try:
        c.send(b"".join(build("GET", "/p-ka") for _ in range(limit + extra)))
        time.sleep(1.0)
        for _ in range(limit + extra):
            try:
                c.read_response("GET")
                got += 1
            except (Closed, OSError) as ex:
                end = repr(ex)
                break
        if end is None:
            end = c.probe_close(1.0)
    finally:
        c.close()
    print(f"- Same, reading only after 1 s: {got} answered; then: {end}.")

    # Writing to the connection after the server's FIN.
    c = Conn(ADDR)
    try:
        c.send(build("GET", "/p-ka", {"Connection": "close"}))
        c.read_response("GET")
        first = c.probe_close(1.0)
        try:
            c.send(build("GET", "/p-ka"))
            time.sleep(0.2)
            c.send(build("GET", "/p-ka"))
            second = "second write accepted"
        except OSError as ex:
            second = f"write failed: {ex!r}"
        try:
            c.sock.settimeout(1.0)
            data = c.sock.recv(65536)
            third = "recv → EOF" if not data else f"recv → {len(data)} bytes"
        except ConnectionResetError:
            third = "recv → RST (ECONNRESET)"
        except socket.timeout:
            third = "recv → timeout"
    finally:
        c.close()
    print(f"- After a `Connection: close` response: {first}; writing more: {second}; then {third}.")

    # Idle timeout (bounded: 7 s).
    c = Conn(ADDR)
    try:
        c.send(build("GET", "/p-ka"))
        c.read_response("GET")
        t0 = time.time()
        res = c.probe_close(7.0)
        dt = time.time() - t0
    finally:
        c.close()
    print(f"- Idle keep-alive connection after one response: {res} after {dt:.1f} s (waited at most 7 s).")
    print()
    req("DELETE", "/p-ka")


def sec_concurrency():
    print("## Concurrent PUTs to one path\n")
    results = {}
    rounds = 20
    size = 1 << 20
    for i in range(rounds):
        a = b"A" * size
        b = b"B" * size
        barrier = threading.Barrier(2, timeout=TIMEOUT)
        statuses = []

        def worker(body):
            c = Conn(ADDR)
            try:
                raw = build("PUT", "/p-conc", body=body)
                head, rest = raw[: len(raw) - len(body)], body
                c.send(head + rest[: size // 2])
                barrier.wait()
                c.send(rest[size // 2:])
                statuses.append(c.read_response("PUT").status)
            finally:
                c.close()

        ts = [threading.Thread(target=worker, args=(x,)) for x in (a, b)]
        for t in ts:
            t.start()
        for t in ts:
            t.join(TIMEOUT * 2)
        g = req("GET", "/p-conc")
        if g.body == a:
            kind = "all A"
        elif g.body == b:
            kind = "all B"
        else:
            kind = f"MIXED/other len={len(g.body)} A={g.body.count(b'A')} B={g.body.count(b'B')}"
        key = (tuple(sorted(statuses)), kind)
        results[key] = results.get(key, 0) + 1
    md_table(["PUT statuses", "GET result", "count"],
             [[", ".join(map(str, k[0])), k[1], v] for k, v in sorted(results.items())])

    # Concurrent creates: the path is deleted before each round.
    created = {}
    for i in range(20):
        req("DELETE", "/p-conc")
        barrier = threading.Barrier(2, timeout=TIMEOUT)
        statuses = []

        def creator(body):
            c = Conn(ADDR)
            try:
                raw = build("PUT", "/p-conc", body=body)
                c.send(raw[:-1])
                barrier.wait()
                c.send(raw[-1:])
                statuses.append(c.read_response("PUT").status)
            finally:
                c.close()

        ts = [threading.Thread(target=creator, args=(x,)) for x in (b"A" * 64, b"B" * 64)]
        for t in ts:
            t.start()
        for t in ts:
            t.join(TIMEOUT * 2)
        key = ", ".join(map(str, sorted(statuses)))
        created[key] = created.get(key, 0) + 1
    print("Two PUTs creating the same new path at once (20 rounds, 64-byte bodies, last byte "
          "sent together): statuses seen: "
          + "; ".join(f"{k} ×{v}" for k, v in sorted(created.items())) + ".\n")

    # A GET while a PUT's body is half sent: old body, new body or a mix?
    put("/p-conc", b"A" * size)
    c = Conn(ADDR)
    try:
        body = b"B" * size
        raw = build("PUT", "/p-conc", body=body)
        c.send(raw[: len(raw) - size // 2])
        time.sleep(0.3)
        mid = req("GET", "/p-conc")
        c.send(raw[len(raw) - size // 2:])
        st = c.read_response("PUT").status
    finally:
        c.close()
    end = req("GET", "/p-conc")

    def kind(b):
        if b == b"A" * size:
            return "old body (all A)"
        if b == b"B" * size:
            return "new body (all B)"
        return f"other: len={len(b)} A={b.count(b'A')} B={b.count(b'B')}"
    print(f"GET while a PUT of {size} bytes is half sent: {mid.status}, {kind(mid.body)}; "
          f"the PUT then → {st}; GET after → {kind(end.body)}.\n")
    req("DELETE", "/p-conc")


SECTIONS = {
    "basic": sec_basic,
    "cond": lambda: (sec_cond(True), sec_cond(False)),
    "etag": sec_etag,
    "pipeline": sec_pipeline,
    "keepalive": sec_keepalive,
    "concurrency": sec_concurrency,
}


def main():
    global ADDR
    if len(sys.argv) < 2 or ":" not in sys.argv[1]:
        sys.exit(__doc__)
    host, _, port = sys.argv[1].rpartition(":")
    if not ipaddress.ip_address(socket.gethostbyname(host)).is_loopback:
        sys.exit("probe.py: only loopback addresses are probed")
    ADDR = (host, int(port))
    names = sys.argv[2:] or list(SECTIONS)
    r = req("OPTIONS", "*")
    print(f"# Probe of {sys.argv[1]} — Server: `{r.get('Server')}`\n")
    for n in names:
        SECTIONS[n]()
        sys.stdout.flush()


if __name__ == "__main__":
    main()
