#!/usr/bin/env bash
# The HTTP tester at default settings against WebDAV servers it was never
# developed or tuned against (nginx and Apache are bench/http-real.sh's):
# rclone's `serve webdav` (Go, golang.org/x/net/webdav), lighttpd's
# mod_webdav and WsgiDAV (Python, from PyPI). Every distinct failure and
# finding per server and seed, as the tables of bench/results/http-heldout.md.
#
#   bench/http-heldout.sh [SEEDS] [EXECUTIONS]      (defaults: "1 2 3", 300)
#
# Installs what is missing (apt-get: rclone, lighttpd, lighttpd-mod-webdav,
# python3-venv; pip into a venv under the work directory: wsgidav, cheroot).
# Every server listens on 127.0.0.1 only, on a fresh empty root, and is
# stopped at the end; each run is bounded by --executions and --time.
set -euo pipefail
cd "$(dirname "$0")/.."
SEEDS=${1:-"1 2 3"}
EXECUTIONS=${2:-300}
WORK=$(mktemp -d)
OUT=$WORK/reports
mkdir -p "$OUT"
need=()
command -v rclone >/dev/null || need+=(rclone)
command -v lighttpd >/dev/null || need+=(lighttpd)
[ -e /usr/lib/lighttpd/mod_webdav.so ] || need+=(lighttpd-mod-webdav)
python3 -c 'import venv, ensurepip' 2>/dev/null || need+=(python3-venv)
if [ ${#need[@]} -gt 0 ]; then apt-get install -y "${need[@]}" >/dev/null; fi
python3 -m venv "$WORK/venv" && "$WORK/venv/bin/pip" install -q wsgidav cheroot
cargo build -q --release -p speccheck-cli
BIN=target/release/speccheck
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true' EXIT

# Starts server $1 on port $2 with an empty root; prints nothing.
start() {
  local root=$WORK/$1-root
  mkdir -p "$root" "$WORK/$1-tmp"
  case $1 in
    rclone) rclone serve webdav "$root" --addr "127.0.0.1:$2" >"$WORK/$1.log" 2>&1 & ;;
    lighttpd)
      cat >"$WORK/lighttpd.conf" <<CONF
server.modules = ( "mod_webdav" )
server.document-root = "$root"
server.bind = "127.0.0.1"
server.port = $2
server.upload-dirs = ( "$WORK/$1-tmp" )
server.errorlog = "$WORK/$1.log"
webdav.activate = "enable"
webdav.is-readonly = "disable"
CONF
      lighttpd -D -f "$WORK/lighttpd.conf" & ;;
    wsgidav) "$WORK/venv/bin/wsgidav" --host 127.0.0.1 --port "$2" --root "$root" --auth anonymous -q \
      >"$WORK/$1.log" 2>&1 & ;;
  esac
  PIDS+=($!)
  for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$2/" && return 0; sleep 0.2; done
  echo "$1 did not start on 127.0.0.1:$2 (log: $WORK/$1.log)" >&2
  return 1
}

port=18190
for server in rclone lighttpd wsgidav; do
  port=$((port + 1))
  start $server $port
  for seed in $SEEDS; do
    "$BIN" http --target "127.0.0.1:$port" --seed "$seed" --executions "$EXECUTIONS" --time 300 \
      --json "$OUT/$server-$seed.json" > "$OUT/$server-$seed.txt" 2>&1 || true
  done
  kill "${PIDS[-1]}" 2>/dev/null || true
done
python3 bench/http_table.py "$OUT" rclone,lighttpd,wsgidav $SEEDS
echo "raw reports: $OUT" >&2
