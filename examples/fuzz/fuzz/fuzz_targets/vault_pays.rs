//! `speccheck_fuzz_example::vault_pays_what_is_asked` as a libFuzzer
//! target: a property that holds, for the benchmark's throughput runs.
#![no_main]

speccheck::fuzz_target!(speccheck_fuzz_example::vault_pays_what_is_asked);
