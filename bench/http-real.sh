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
python3 - "$OUT" $SEEDS <<'EOF'
import json, sys, collections
out, seeds = sys.argv[1], sys.argv[2:]
for server in ["nginx", "apache"]:
    rules = collections.OrderedDict()
    findings = collections.OrderedDict()
    lines = []
    for seed in seeds:
        r = json.load(open(f"{out}/{server}-{seed}.json"))
        lines.append(f"| {seed} | {r['verdict']} | {r['executions']} | {r['inconclusive']} | {r['budget_hits']} | "
                     f"{1 + len(r['other_failures']) if r['failure'] else 0} | {len(r['findings'])} |")
        fails = ([r['failure']] if r['failure'] else []) + [o['failure'] for o in r['other_failures'] if o['failure']]
        for f in fails:
            trace = " / ".join(
                (f"{m['message'].get('method')} {m['message'].get('path')}"
                 + "".join(f" {k}={v}" for k, v in m['message'].items() if k not in ('method', 'path', 'body')))
                if m['sent'] else str(m['message'].get('status'))
                for m in f['trace'] if not m['closed'])
            rules.setdefault(f['identity'], []).append((seed, trace))
        for f in r['findings']:
            findings.setdefault(f['identity'], []).append((seed, f['seen']))
    print(f"## {server}\n")
    print("| seed | verdict | executions | inconclusive | cut by budget | distinct failures | findings |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(lines))
    print("\nFailures (MUST), by rule, with the shortest trace seen:\n")
    print("| rule | seeds | shortest trace |")
    print("|---|---|---|")
    for rule, seen in rules.items():
        shortest = min(seen, key=lambda s: len(s[1]))[1].replace("|", "\\|")
        print(f"| {rule.removeprefix('rejected: ')} | {', '.join(sorted({s for s, _ in seen}))} | `{shortest}` |")
    print("\nFindings (SHOULD; never a failure):\n")
    print("| rule | seeds (executions that showed it) |")
    print("|---|---|")
    for rule, seen in findings.items():
        print(f"| {rule} | {', '.join(f'{s} ({n})' for s, n in seen)} |")
    print()
EOF
echo "raw reports: $OUT" >&2
