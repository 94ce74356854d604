//! README.md's fuzzing sample (the property a `cargo fuzz` target runs),
//! and what fuzz mode promises: a short input is the simplest one, the
//! byte -> choice mapping is pinned, a corpus entry and a replay string
//! convert both ways, and one made for another property is refused by
//! name. (`examples/fuzz/tests/oss_fuzz_build.rs` runs real fuzz targets.)

use std::path::Path;

use speccheck::runner::{AsFuzzTarget, FuzzOutcome, FuzzTarget};
use speccheck::{Config, Property};

use speccheck::prelude::*;

/// Splits `key=value`.
pub fn parse_pair(line: &str) -> Option<(&str, &str)> {
    line.split_once('=')
}

#[property]
pub fn pairs_round_trip(key: String, value: String) {
    assume(!key.contains('='));
    let line = format!("{key}={value}");
    assert_eq!(parse_pair(&line), Some((key.as_str(), value.as_str())));
}

/// The fuzz target `speccheck::fuzz_target!(…::pairs_round_trip)` builds.
fn readme_target() -> FuzzTarget {
    __speccheck_build_pairs_round_trip(AsFuzzTarget)
}

/// A property over `(u16, Vec<u8>)` failing when the number is 0x1234
/// and the bytes start with 7, saving nothing.
fn planted(name: &str) -> FuzzTarget {
    Property::new(any::<(u16, Vec<u8>)>())
        .config(Config { database: None, ..Config::default() })
        .named(name)
        .fuzz_target(|(n, bytes)| assert!(!(n == 0x1234 && bytes.first() == Some(&7)), "planted"))
}

#[test]
fn the_readme_property_is_a_fuzz_target_of_the_same_name() {
    let target = readme_target();
    assert_eq!(target.name(), "readme_fuzz::pairs_round_trip");
    for bytes in [&b""[..], b"a=b", &[0xff; 64]] {
        assert!(matches!(target.check(bytes), FuzzOutcome::Passed | FuzzOutcome::Rejected));
    }
}

#[test]
fn a_short_input_is_the_simplest_and_no_error() {
    let target = planted("short");
    // No bytes: every choice the simplest, (0, []), which passes.
    assert!(matches!(target.check(&[]), FuzzOutcome::Passed));
    let choices = target.choices(&[]).unwrap();
    assert!(choices.values().all(|v| v == 0), "{choices:?}");
    // One byte: the number's low byte, the rest simplest.
    let v: Vec<u64> = target.choices(&[0x34]).unwrap().values().collect();
    assert_eq!(v[0], 0x34);
    assert!(v[1..].iter().all(|&x| x == 0));
}

#[test]
fn the_byte_to_choice_mapping_is_pinned() {
    // Format 1: the u16 from the front (little-endian), the byte 7 next;
    // "one more?" bytes from the back (5: yes, then the ends meet).
    let target = planted("pinned");
    let bytes = [0x34, 0x12, 7, 5];
    let v: Vec<u64> = target.choices(&bytes).unwrap().values().collect();
    assert_eq!(v, vec![0x1234, 1, 7, 0]);
    let FuzzOutcome::Failed(report) = target.check(&bytes) else { panic!("the planted bug is missed") };
    let c = report.counterexample().expect("a counterexample");
    assert_eq!(c.value::<(u16, Vec<u8>)>(), Some((0x1234, vec![7])));
    assert!(report.to_string().contains("failed (panic)"), "{report}");
    assert!(report.to_string().contains("planted"), "{report}");
}

#[test]
fn a_failure_fuzzing_found_is_saved_and_the_next_run_replays_it_first() {
    // The fuzz target and `cargo test` share the property's failure store:
    // what libFuzzer found, the next run of the property replays before
    // it generates anything.
    let dir = tempfile::tempdir().unwrap();
    let config = || Config { database: Some(dir.path().to_path_buf()), database_writes: true, ..Config::default() };
    let body = |(n, bytes): (u16, Vec<u8>)| assert!(!(n == 0x1234 && bytes.first() == Some(&7)), "planted");
    let target = Property::new(any::<(u16, Vec<u8>)>()).config(config()).named("saved").fuzz_target(body);
    let FuzzOutcome::Failed(report) = target.check(&[0x34, 0x12, 7, 5]) else { panic!("the planted bug is missed") };
    let found = report.counterexample().expect("a counterexample");
    assert!(found.saved_to.is_some(), "{report}");
    let next =
        Property::new(any::<(u16, Vec<u8>)>()).config(Config { seed: Some(1), ..config() }).named("saved").run(body);
    let again = next.counterexample().expect("replayed from the store");
    assert_eq!(again.found_after, 0, "{next}");
    assert!(again.source.as_deref().unwrap_or("").contains("saved"), "{:?}", again.source);
    assert_eq!(again.value::<(u16, Vec<u8>)>(), Some((0x1234, vec![7])));
}

#[test]
fn a_corpus_entry_and_a_replay_string_convert_both_ways() {
    let target = planted("round-trip");
    let bytes = [0x99, 0x88, 1, 2, 3, 9, 9, 9, 0];
    let replay = target.replay_string(&bytes).unwrap();
    let entry = target.corpus_entry(&replay).unwrap();
    assert_eq!(target.choices(&entry).unwrap(), target.choices(&bytes).unwrap());
    assert_eq!(target.replay_string(&entry).unwrap(), replay);
    // The entry is as short as the choices need (the input's tail was not used).
    assert!(entry.len() < bytes.len());
}

#[test]
fn a_replay_string_or_entry_of_another_property_is_refused_by_name() {
    let ours = planted("ours");
    let theirs = planted("theirs");
    let replay = theirs.replay_string(&[1, 2, 3]).unwrap();
    let e = ours.corpus_entry(&replay).unwrap_err();
    assert!(e.0.contains("another property") && e.0.contains("`ours`"), "{e}");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("fuzz/corpus/theirs/entry");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, [1, 2, 3]).unwrap();
    let e = ours.replay_string_of_file(&file, "ours").unwrap_err();
    assert!(e.0.contains("fuzz target `theirs`, not of `ours`"), "{e}");
    assert!(ours.replay_string_of_file(Path::new(&file), "theirs").is_ok());
}

/// A value of many shapes: recursion through `Box` and `Vec`, sets and
/// maps (duplicates rejected), strings, floats, wide integers.
#[derive(Clone, Debug, speccheck::Arbitrary)]
enum Tree {
    Leaf(u8),
    Node(Box<Tree>, Vec<Tree>),
}

#[derive(Clone, Debug, speccheck::Arbitrary)]
struct Mixed {
    tree: Tree,
    text: String,
    set: std::collections::BTreeSet<u8>,
    map: std::collections::BTreeMap<u8, char>,
    float: f64,
    maybe: Option<i64>,
    pair: (bool, u128),
}

#[test]
fn the_fuzzing_hot_path_reads_the_input_the_recording_decode_reads() {
    use std::sync::{Arc, Mutex};
    // A fuzzer's input is run recording nothing; a failing one is read
    // again, recording its choices, and must be the same input.
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let body_seen = Arc::clone(&seen);
    // Bounded integers (a target inside the range, below it, above it)
    // take the hot path's own integer decode.
    let bounded =
        (speccheck::gens::ints(-7i32..=300), speccheck::gens::ints(5u8..=9), speccheck::gens::ints(-90i64..=-3));
    let target = Property::new((any::<Mixed>(), speccheck::gens::vec(any::<u16>(), 2..5), bounded))
        .config(Config { database: None, ..Config::default() })
        .named("hot-path")
        .fuzz_target(move |v| body_seen.lock().unwrap().push(format!("{v:?}")));
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut byte = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state as u8
    };
    for len in (0..600).map(|i| i % 200) {
        // Few zero bytes: collections and recursion run long.
        let bytes: Vec<u8> = (0..len).map(|_| byte() | u8::from(len % 3 == 0)).collect();
        assert!(matches!(target.check(&bytes), FuzzOutcome::Passed));
        target.choices(&bytes).unwrap();
        let seen = std::mem::take(&mut *seen.lock().unwrap());
        assert_eq!(seen.len(), 2);
        assert_eq!(seen[0], seen[1], "input {bytes:?}");
    }
}
