//! The baseline of the benchmark (`bench/fuzz.sh`): the parser under a
//! plain libFuzzer target whose input is decoded by `arbitrary`, with no
//! speccheck in the loop.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: Vec<u8>| {
    let _ = speccheck_fuzz_example::frame::parse(&data);
});
