#!/usr/bin/env bash
# Fuzz mode against a plain libfuzzer-sys + arbitrary target (and, for the
# parser, a target that takes the raw bytes), on the fuzz example's two
# targets. The random side is `bin/fuzz_random.rs`.
# Usage: bench/fuzz.sh BUDGET_SECONDS SEEDS...   (after `cargo fuzz build
# --sanitizer none` in examples/fuzz with CARGO_TARGET_DIR=$FUZZ_TARGET_DIR)
set -u
BUDGET="$1"; shift
B="${FUZZ_TARGET_DIR:?}/x86_64-unknown-linux-gnu/release"
SEEDS_DIR="$(dirname "$0")/../examples/fuzz/fuzz/seeds"
for target in parse vault; do
  modes=("$target" "${target}_arbitrary"); [ "$target" = parse ] && modes+=(parse_raw)
  for mode in "${modes[@]}"; do
    for corpus in empty seeded; do
      for seed in "$@"; do
        w=$(mktemp -d); mkdir -p "$w/c" "$w/a"
        extra=(); [ "$corpus" = seeded ] && [ "$mode" = "$target" ] && extra=("$SEEDS_DIR/$target")
        [ "$corpus" = seeded ] && [ "$mode" != "$target" ] && { rm -rf "$w"; continue; }
        start=$(date +%s.%N)
        SPECCHECK_DATABASE=off timeout $((BUDGET + 30)) "$B/$mode" -max_total_time="$BUDGET" -seed="$seed" \
          -artifact_prefix="$w/a/" "$w/c" "${extra[@]}" > "$w/log" 2>&1
        end=$(date +%s.%N)
        found=$(ls "$w/a" | grep -c '^crash-')
        execs=$(grep -o 'exec/s: [0-9]*' "$w/log" | tail -1 | grep -o '[0-9]*')
        shrunk=$(grep -m1 -A0 -E '^    (data|commands) = ' "$w/log" | sed 's/^ *//')
        printf '%s\t%s\t%s\t%s\t%s\t%.1f\t%s\t%s\n' "$target" "$mode" "$corpus" "$seed" "$found" \
          "$(echo "$end - $start" | bc)" "${execs:-?}" "$shrunk"
        rm -rf "$w"
      done
    done
  done
done
