//! `speccheck_fuzz_example::vault_never_overdraws` as a libFuzzer target.
#![no_main]

speccheck::fuzz_target!(speccheck_fuzz_example::vault_never_overdraws);
