#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script for speccheck's fuzz example: the
# example crate's properties (src/lib.rs) as libFuzzer targets (fuzz/).
#
# OSS-Fuzz runs it with the repository checked out at $SRC/speccheck and
# collects the fuzzers from $OUT; $SANITIZER is set there (address, …,
# built on the nightly toolchain it ships). Run locally, on the stable
# toolchain, with SANITIZER=none:
#
#   SRC=/path/to/parent-of-checkout OUT=/tmp/out SANITIZER=none bash examples/fuzz/build.sh
#
# (examples/fuzz/tests/oss_fuzz_build.rs does exactly that, then runs each
# fuzzer and checks that it finds its bug and prints speccheck's report.)

cd "$SRC/speccheck/examples/fuzz"

TARGETS="parse vault"
SANITIZER="${SANITIZER:-address}"
# speccheck's own crates are left out of libFuzzer's coverage
# instrumentation (crates/speccheck-fuzz-rustc says why): built first, as a
# plain program (OSS-Fuzz's RUSTFLAGS would instrument it too).
WRAPPER_DIR="${WORK:-${TMPDIR:-/tmp}}/speccheck-fuzz-rustc"
RUSTFLAGS="" CARGO_TARGET_DIR="$WRAPPER_DIR" cargo build --release --quiet \
    --manifest-path ../../crates/speccheck-fuzz-rustc/Cargo.toml
# `cargo fuzz build -O`: release, with libFuzzer's instrumentation.
RUSTC_WRAPPER="$WRAPPER_DIR/release/speccheck-fuzz-rustc" cargo fuzz build -O --sanitizer "$SANITIZER"

BUILT="${CARGO_TARGET_DIR:-fuzz/target}/x86_64-unknown-linux-gnu/release"
for target in $TARGETS; do
    cp "$BUILT/$target" "$OUT/$target"
    # The seed corpus OSS-Fuzz starts each fuzzer from: valid inputs,
    # written in speccheck's byte -> choice format.
    rm -f "$OUT/${target}_seed_corpus.zip"
    if command -v zip >/dev/null; then
        zip -q -j "$OUT/${target}_seed_corpus.zip" fuzz/seeds/"$target"/*
    else
        python3 -m zipfile -c "$OUT/${target}_seed_corpus.zip" fuzz/seeds/"$target"/*
    fi
done
