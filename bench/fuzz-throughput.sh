#!/usr/bin/env bash
# Executions a second of fuzz targets whose property holds (so a run never
# stops early): speccheck's `vault_pays` from both builds (see bench/fuzz.sh)
# and its plain `arbitrary` twin, from an empty corpus, interleaved by seed.
# Usage: bench/fuzz-throughput.sh BUDGET_SECONDS SEEDS...   (FUZZ_TARGET_DIR,
# FUZZ_WRAPPED_DIR as for bench/fuzz.sh)
set -u
BUDGET="$1"; shift
PLAIN="${FUZZ_TARGET_DIR:?}/x86_64-unknown-linux-gnu/release"
WRAPPED="${FUZZ_WRAPPED_DIR:?}/x86_64-unknown-linux-gnu/release"
printf 'target\tbuild\tseed\tfound\texec/s\truns\tcounters\n'
for seed in "$@"; do
  for run in "vault_pays:$WRAPPED:speccheck-uninstrumented" "vault_pays:$PLAIN:all-instrumented" \
             "vault_pays_arbitrary:$PLAIN:all-instrumented"; do
    IFS=: read -r target dir build <<< "$run"
    w=$(mktemp -d); mkdir -p "$w/c" "$w/a"
    SPECCHECK_DATABASE=off timeout $((BUDGET + 30)) "$dir/$target" -max_total_time="$BUDGET" -seed="$seed" \
      -artifact_prefix="$w/a/" "$w/c" > "$w/log" 2>&1
    found=$(ls "$w/a" | grep -c '^crash-')
    execs=$(grep -o 'exec/s: [0-9]*' "$w/log" | tail -1 | grep -o '[0-9]*')
    runs=$(grep -o '^Done [0-9]* runs' "$w/log" | grep -o '[0-9]*')
    counters=$(grep -m1 -o '([0-9]* inline 8-bit counters' "$w/log" | grep -o '[0-9]*' | head -1)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$target" "$build" "$seed" "$found" "${execs:-?}" "${runs:-?}" "${counters:-?}"
    rm -rf "$w"
  done
done
