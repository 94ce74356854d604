#!/usr/bin/env bash
# The HTTP tester against Debian's nginx and Apache at default settings (no
# per-server flags): every distinct failure (by the RFC 9110 rule it breaks)
# and every finding (a SHOULD not followed), per server and seed, as the
# markdown tables of bench/results/http-real.md.
#
#   bench/http-real.sh [SEEDS] [EXECUTIONS]      (defaults: "1 2 3", 500)
#
# Needs nginx and apache2 (servers/*.sh install them); servers listen on
# 127.0.0.1 only and are stopped at the end. Each run is bounded by
# --executions and --time.
set -euo pipefail
cd "$(dirname "$0")/.."
SEEDS=${1:-"1 2 3"}
EXECUTIONS=${2:-500}
OUT=$(mktemp -d)
cargo build -q --release -p speccheck-cli
BIN=target/release/speccheck
for server in nginx apache; do
  dir=/tmp/sc-bench-$server
  port=$(bash servers/$server.sh start "$dir")
  for seed in $SEEDS; do
    "$BIN" http --target "127.0.0.1:$port" --seed "$seed" --executions "$EXECUTIONS" --failures 8 --time 600 \
      --json "$OUT/$server-$seed.json" > "$OUT/$server-$seed.txt" 2>&1 || true
  done
  bash servers/$server.sh stop "$dir"
done
python3 bench/http_table.py "$OUT" nginx,apache $SEEDS
echo "raw reports: $OUT" >&2
