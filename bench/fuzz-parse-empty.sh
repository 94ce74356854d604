#!/usr/bin/env bash
# speccheck's parser target (the build that leaves speccheck uninstrumented,
# see bench/fuzz.sh) from an empty corpus with the README's two flags for
# bugs behind computed comparisons, one run per libFuzzer seed: found or
# not, the run's wall time (to the crash report when found: startup and
# speccheck's shrinking included, as in bench/fuzz.sh), executions a
# second, and the first line of the shrunk input. (bench/fuzz.sh with
# FUZZ_ONLY=parse and the flags runs the same, for every kind of target.)
# Usage: bench/fuzz-parse-empty.sh BUDGET_SECONDS SEEDS...   (FUZZ_WRAPPED_DIR)
set -u
if [ $# -lt 2 ]; then
  echo "usage: $0 BUDGET_SECONDS SEEDS...  (FUZZ_WRAPPED_DIR: the speccheck-fuzz-rustc build)" >&2
  exit 2
fi
BUDGET="$1"; shift
w=""
trap 'rm -rf "$w"' EXIT
WRAPPED="${FUZZ_WRAPPED_DIR:?}/x86_64-unknown-linux-gnu/release"
printf 'seed\tfound\ttime\texec/s\tshrunk\n'
for seed in "$@"; do
  w=$(mktemp -d); mkdir -p "$w/c" "$w/a"
  start=$(date +%s.%N)
  SPECCHECK_DATABASE=off timeout $((BUDGET + 30)) "$WRAPPED/parse" -max_total_time="$BUDGET" -seed="$seed" \
    -use_value_profile=1 -len_control=0 -artifact_prefix="$w/a/" "$w/c" > "$w/log" 2>&1
  end=$(date +%s.%N)
  found=$(ls "$w/a" | grep -c '^crash-')
  execs=$(grep -o 'exec/s: [0-9]*' "$w/log" | tail -1 | grep -o '[0-9]*')
  shrunk=$(grep -m1 -E '^    data = ' "$w/log" | sed 's/^ *//')
  printf '%s\t%s\t%.1f\t%s\t%s\n' "$seed" "$found" "$(echo "$end - $start" | bc)" "${execs:-?}" "$shrunk"
  rm -rf "$w"
done
