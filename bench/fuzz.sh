#!/usr/bin/env bash
# Fuzz mode against a plain libfuzzer-sys + arbitrary target (and, for the
# parser, a target that takes the raw bytes), on the fuzz example's two
# targets. speccheck's targets run from two builds: `cargo fuzz build` as
# is (every crate instrumented) and with `RUSTC_WRAPPER=speccheck-fuzz-rustc`
# (speccheck's own crates not instrumented). The baselines link no
# speccheck code, so they are the same in both builds: they run from the
# plain one. The random side is `bin/fuzz_random.rs`.
# Usage: bench/fuzz.sh BUDGET_SECONDS SEEDS...
#   FUZZ_TARGET_DIR:  CARGO_TARGET_DIR of `cargo fuzz build --sanitizer none` in examples/fuzz
#   FUZZ_WRAPPED_DIR: the same build with RUSTC_WRAPPER=speccheck-fuzz-rustc
#   FUZZ_FLAGS:       more libFuzzer flags, the same for every target (optional)
#   FUZZ_ONLY:        `parse` or `vault`: that target only (optional)
set -u
read -r -a FLAGS <<< "${FUZZ_FLAGS:-}"
for t in ${FUZZ_ONLY:-}; do
  case "$t" in parse|vault) ;; *) echo "FUZZ_ONLY: parse or vault, not $t" >&2; exit 2 ;; esac
done
BUDGET="$1"; shift
PLAIN="${FUZZ_TARGET_DIR:?}/x86_64-unknown-linux-gnu/release"
WRAPPED="${FUZZ_WRAPPED_DIR:?}/x86_64-unknown-linux-gnu/release"
SEEDS_DIR="$(dirname "$0")/../examples/fuzz/fuzz/seeds"
printf 'target\tmode\tbuild\tcorpus\tseed\tfound\ttime\texec/s\tcounters\tshrunk\n'
for target in ${FUZZ_ONLY:-parse vault}; do
  runs=("$target:$WRAPPED:speccheck-uninstrumented" "$target:$PLAIN:all-instrumented" "${target}_arbitrary:$PLAIN:all-instrumented")
  [ "$target" = parse ] && runs+=("parse_raw:$PLAIN:all-instrumented")
  for run in "${runs[@]}"; do
    IFS=: read -r mode dir build <<< "$run"
    for corpus in empty seeded; do
      [ "$corpus" = seeded ] && [ "$mode" != "$target" ] && continue
      for seed in "$@"; do
        w=$(mktemp -d); mkdir -p "$w/c" "$w/a"
        extra=(); [ "$corpus" = seeded ] && extra=("$SEEDS_DIR/$target")
        start=$(date +%s.%N)
        SPECCHECK_DATABASE=off timeout $((BUDGET + 30)) "$dir/$mode" -max_total_time="$BUDGET" -seed="$seed" "${FLAGS[@]}" \
          -artifact_prefix="$w/a/" "$w/c" "${extra[@]}" > "$w/log" 2>&1
        end=$(date +%s.%N)
        found=$(ls "$w/a" | grep -c '^crash-')
        execs=$(grep -o 'exec/s: [0-9]*' "$w/log" | tail -1 | grep -o '[0-9]*')
        counters=$(grep -m1 -o '([0-9]* inline 8-bit counters' "$w/log" | grep -o '[0-9]*' | head -1)
        shrunk=$(grep -m1 -A0 -E '^    (data|commands) = ' "$w/log" | sed 's/^ *//')
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%.1f\t%s\t%s\t%s\n' "$target" "$mode" "$build" "$corpus" "$seed" "$found" \
          "$(echo "$end - $start" | bc)" "${execs:-?}" "${counters:-?}" "$shrunk"
        rm -rf "$w"
      done
    done
  done
done
