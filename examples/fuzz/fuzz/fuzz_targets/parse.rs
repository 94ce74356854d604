//! `speccheck_fuzz_example::parse_never_panics` as a libFuzzer target.
#![no_main]

speccheck::fuzz_target!(speccheck_fuzz_example::parse_never_panics);
