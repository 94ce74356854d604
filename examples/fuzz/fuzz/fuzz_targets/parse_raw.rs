//! A second baseline of the benchmark (`bench/fuzz.sh`): the parser under
//! a plain libFuzzer target that hands it the fuzzer's bytes as they are
//! (no decoding at all), the fastest a target can be.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = speccheck_fuzz_example::frame::parse(data);
});
