#!/usr/bin/env bash
# Executions a second of the vault property that holds (`vault_pays`) and
# its plain `arbitrary` twin, started from one and the same corpus and
# stopped after the same number of executions, per libFuzzer seed.
#
# bench/fuzz-throughput.sh measures each target's own campaign from an
# empty corpus: each grows its own corpus, to lengths that differ from run
# to run, and the executions a second follow those lengths. Here both start
# from the union of two such corpora (one grown by each target), and keep
# all of it (`-keep_seed=1`: libFuzzer otherwise drops the inputs that add
# no coverage of its own target, and each target would then mutate another
# subset), so the inputs they mutate are the same but for what each adds.
# Usage: bench/fuzz-same-corpus.sh RUNS SEEDS...   (FUZZ_TARGET_DIR,
# FUZZ_WRAPPED_DIR as for bench/fuzz.sh; GROW_SECONDS, default 20: how long
# each target grows its half of the starting corpus, libFuzzer seed 1)
set -u
if [ $# -lt 2 ]; then
  echo "usage: $0 RUNS SEEDS...  (FUZZ_TARGET_DIR, FUZZ_WRAPPED_DIR as for bench/fuzz.sh)" >&2
  exit 2
fi
RUNS="$1"; shift
PLAIN="${FUZZ_TARGET_DIR:?}/x86_64-unknown-linux-gnu/release"
WRAPPED="${FUZZ_WRAPPED_DIR:?}/x86_64-unknown-linux-gnu/release"
GROW="${GROW_SECONDS:-20}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/start" "$work/a"
for t in "$WRAPPED/vault_pays" "$PLAIN/vault_pays_arbitrary"; do
  mkdir -p "$work/grow"
  SPECCHECK_DATABASE=off timeout $((GROW + 30)) "$t" -max_total_time="$GROW" -seed=1 \
    -artifact_prefix="$work/a/" "$work/grow" > /dev/null 2>&1
  cp "$work/grow"/* "$work/start/" 2>/dev/null
  rm -rf "$work/grow"
done
printf 'starting corpus: %s files, %s bytes\n' "$(ls "$work/start" | wc -l)" "$(cat "$work/start"/* | wc -c)"
printf 'target\tbuild\tseed\truns\tseconds\texec/s\tcorpus after\n'
for seed in "$@"; do
  for run in "vault_pays:$WRAPPED:speccheck-uninstrumented" "vault_pays_arbitrary:$PLAIN:all-instrumented"; do
    IFS=: read -r target dir build <<< "$run"
    rm -rf "$work/c" && cp -r "$work/start" "$work/c"
    start=$(date +%s.%N)
    # Bounded, as every run here: a hang ends at 10 minutes.
    SPECCHECK_DATABASE=off timeout 600 "$dir/$target" -runs="$RUNS" -seed="$seed" -keep_seed=1 \
      -artifact_prefix="$work/a/" "$work/c" > "$work/log" 2>&1
    end=$(date +%s.%N)
    secs=$(echo "$end - $start" | bc)
    corpus=$(grep -o 'corp: [0-9]*/[0-9a-zA-Z]*' "$work/log" | tail -1 | cut -d' ' -f2)
    printf '%s\t%s\t%s\t%s\t%.3f\t%.0f\t%s\n' "$target" "$build" "$seed" "$RUNS" "$secs" \
      "$(echo "$RUNS / $secs" | bc -l)" "$corpus"
  done
done
