# Shared helpers for servers/nginx.sh and servers/apache.sh (sourced, not run).
#
# Every server started here is a throw-away one: it listens on 127.0.0.1 only,
# and its config, pid file, logs, temp files and lock DB all live in one
# directory DIR given by the caller. Nothing under /etc is written.

# die MSG...: print MSG on stderr and exit non-zero.
die() {
    printf '%s: %s\n' "${PROG:-server}" "$*" >&2
    exit 1
}

# procs NAME...: pids of processes named exactly NAME (one a line).
procs() {
    local n
    for n in "$@"; do pgrep -x "$n" || true; done
}

# pkg_install PKG PROC...: apt-get install PKG when it is not installed yet.
# Silent when it is. The package's postinst may start the system service
# (where invoke-rc.d/policy-rc.d allow it); any PROC process that was not
# running before the install is stopped again, by its pid.
pkg_install() {
    local pkg=$1; shift
    if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
        return 0
    fi
    local before log pid
    before=$(procs "$@")
    log=$(mktemp)
    export DEBIAN_FRONTEND=noninteractive
    # Try without refreshing the package lists first; refresh once on failure.
    if ! apt-get install -y -q --no-install-recommends "$pkg" >"$log" 2>&1; then
        if ! { apt-get update -q && apt-get install -y -q --no-install-recommends "$pkg"; } >>"$log" 2>&1; then
            tail -n 20 "$log" >&2
            rm -f "$log"
            die "apt-get install $pkg failed"
        fi
    fi
    rm -f "$log"
    # Stop whatever the install started (only processes that are new).
    for pid in $(procs "$@"); do
        if ! grep -qx "$pid" <<<"$before"; then
            kill -TERM "$pid" 2>/dev/null || true
        fi
    done
    local i
    for ((i = 0; i < 50; i++)); do
        local left=0
        for pid in $(procs "$@"); do
            grep -qx "$pid" <<<"$before" || left=1
        done
        [ "$left" = 0 ] && break
        sleep 0.1
    done
    return 0
}

# free_port: print a TCP port on 127.0.0.1 that was free a moment ago.
free_port() {
    python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()'
}

# abs_dir DIR: create DIR and print its absolute path.
abs_dir() {
    mkdir -p "$1"
    (cd "$1" && pwd -P)
}

# running PID: true while process PID exists and is not a zombie (a
# daemonized server's parent is PID 1, which may reap it only later).
running() {
    local state
    kill -0 "$1" 2>/dev/null || return 1
    state=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
    [ -n "$state" ] && [ "$state" != Z ]
}

# pid_alive PIDFILE: print the pid in PIDFILE when that process is alive.
pid_alive() {
    local pid
    [ -s "$1" ] || return 1
    pid=$(tr -dc '0-9' <"$1")
    [ -n "$pid" ] && running "$pid" || return 1
    echo "$pid"
}

# wait_http PORT PIDFILE: wait (at most 5 s) until something answers HTTP on
# 127.0.0.1:PORT while the process in PIDFILE is alive.
wait_http() {
    local port=$1 pidfile=$2 i code
    for ((i = 0; i < 50; i++)); do
        if [ -s "$pidfile" ] && ! pid_alive "$pidfile" >/dev/null; then
            return 1   # it wrote a pid file and died
        fi
        code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 \
            "http://127.0.0.1:$port/" 2>/dev/null || true)
        if [ -n "$code" ] && [ "$code" != 000 ] && pid_alive "$pidfile" >/dev/null; then
            return 0
        fi
        sleep 0.1
    done
    return 1
}

# stop_pidfile PIDFILE NAME: stop the server whose master pid is in PIDFILE,
# if it is alive and is a NAME process. TERM, wait at most 5 s, then KILL it
# and the children it had. Idempotent.
stop_pidfile() {
    local pidfile=$1 name=$2 pid kids i
    pid=$(pid_alive "$pidfile") || { rm -f "$pidfile"; return 0; }
    if ! tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "$name"; then
        die "pid $pid in $pidfile is not a $name process; not stopping it"
    fi
    kids=$(pgrep -P "$pid" || true)
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 50; i++)); do
        running "$pid" || break
        sleep 0.1
    done
    if running "$pid"; then
        kill -KILL "$pid" 2>/dev/null || true
        for k in $kids; do kill -KILL "$k" 2>/dev/null || true; done
        sleep 0.2
    fi
    # Children exit on their own once the master is gone; give them 2 s.
    for ((i = 0; i < 20; i++)); do
        local alive=0
        for k in $kids; do running "$k" && alive=1; done
        [ "$alive" = 0 ] && break
        sleep 0.1
    done
    rm -f "$pidfile"
}

# fail_start DIR ERRLOG STDERRFILE MSG: report a failed start and exit 1.
fail_start() {
    local dir=$1 errlog=$2 errout=$3 msg=$4
    {
        echo "${PROG}: $msg"
        if [ -s "$errout" ]; then echo "--- stderr:"; tail -n 20 "$errout"; fi
        if [ -s "$errlog" ]; then echo "--- tail of $errlog:"; tail -n 20 "$errlog"; fi
    } >&2
    exit 1
}

# web_user: the user the serving processes run as when we are root.
# www-data is what Debian's own packaged configs use, and Apache refuses to
# run its children as root. The document root must be reachable by it.
WEB_USER=www-data
WEB_GROUP=www-data

# check_reachable DIR: when root, make sure WEB_USER can traverse to DIR.
check_reachable() {
    [ "$(id -u)" = 0 ] || return 0
    if ! runuser -u "$WEB_USER" -- test -x "$1"; then
        die "$WEB_USER cannot reach $1 (a parent directory is not searchable by others); use a DIR under /tmp"
    fi
}
