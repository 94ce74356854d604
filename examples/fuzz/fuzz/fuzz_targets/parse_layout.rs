//! A third baseline of the benchmark (`bench/results/fuzz.md`): the parser under a
//! plain libFuzzer target that decodes its `Vec<u8>` from the fuzzer's
//! bytes by hand, the way speccheck's byte → choice mapping does (format 1:
//! the elements from the front, each "one more?" from the back, yes unless
//! the byte is 0 or the input is used up), with no speccheck code. Set
//! beside the raw-bytes target, it separates what the layout costs the
//! fuzzer's search from what speccheck's own code costs.
#![no_main]

libfuzzer_sys::fuzz_target!(|input: &[u8]| {
    let (mut front, mut back) = (0, input.len());
    let mut data = Vec::new();
    loop {
        let more = front < back && {
            back -= 1;
            input[back] != 0
        };
        if !more {
            break;
        }
        let byte = if front < back {
            front += 1;
            input[front - 1]
        } else {
            0
        };
        data.push(byte);
    }
    let _ = speccheck_fuzz_example::frame::parse(&data);
});
