//! Deep search: states that need thousands of calls on one instance are
//! reached by default, reported, and their long programs cut down.

use std::collections::BTreeMap;

use speccheck_core::FailureKind;
use speccheck_interface::{Config, interface};

/// A buffer with a fixed capacity its `push` forgets to check: the bug
/// needs one instance holding 1,000 values.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Buffer(Vec<u16>);

const CAPACITY: usize = 1_000;

impl Buffer {
    pub fn new() -> Self {
        Buffer(Vec::new())
    }
    pub fn push(&mut self, x: u16) {
        assert!(self.0.len() < CAPACITY, "buffer overflow");
        self.0.push(x);
    }
    pub fn pop(&mut self) -> Option<u16> {
        self.0.pop()
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

fn buffer_api() -> speccheck_interface::Api {
    interface! {
        name = "buffer";
        abstract Buffer;
        ground u16 = speccheck_core::gens::ints(0..=1000u16);
        impl Buffer {
            fn new() -> Self;
            fn push(&mut self, x: u16);
            fn pop(&mut self) -> Option<u16>;
            fn len(&self) -> usize;
        }
    }
    .unwrap()
}

#[test]
fn the_defaults_reach_a_state_thousands_of_calls_deep() {
    let api = buffer_api();
    for seed in 1..=3 {
        // The reduction's own time limit (10 s) is what this test must not
        // measure: an unoptimized build on a loaded machine runs a
        // 3,000-call program a few hundred times a second.
        let r = api.check(Config { shrink_time: std::time::Duration::from_secs(120), ..Config::seeded(seed) });
        let cx = r.assert_failed();
        assert_eq!(cx.kind, FailureKind::Panic, "{r}");
        assert!(cx.message.contains("buffer overflow"), "{r}");
        assert!(r.stats.deepest >= CAPACITY as u64, "{r}");
        // The found lineage is cut down to (about) the pushes it needs.
        assert!(cx.calls <= CAPACITY + 50, "{} calls\n{r}", cx.calls);
        assert!(cx.calls > CAPACITY, "{r}");
    }
}

#[test]
fn rounds_alone_do_not_get_there_and_the_report_says_how_deep_it_went() {
    let api = buffer_api();
    let r = api.check(Config { depth: 0, ..Config::seeded(1) });
    assert!(r.passed(), "{r}");
    assert!(r.stats.deepest < CAPACITY as u64, "{r}");
    assert_eq!(r.stats.walks, 0);
    let shown = r.to_string();
    assert!(shown.contains("distinct drawn"), "{shown}");
}

#[test]
fn a_search_cut_short_of_its_depth_says_so() {
    let api = buffer_api();
    let r = api.check(Config { max_calls: 3_000, ..Config::seeded(2) });
    assert!(r.passed(), "{r}");
    assert!(r.stats.deepest < 10_000, "{r}");
    let shown = r.to_string();
    assert!(shown.contains("short of the depth target of 10,000"), "{shown}");
    assert!(shown.contains("depth: deepest instance built by"), "{shown}");
}

/// A stack with no bug: deep search only stops at its target or its budget.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Stack(Vec<u16>);

impl Stack {
    pub fn new() -> Self {
        Stack(Vec::new())
    }
    pub fn push(&mut self, x: u16) {
        self.0.push(x);
    }
    pub fn pop(&mut self) -> Option<u16> {
        self.0.pop()
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[test]
fn a_search_deep_enough_but_short_of_its_walk_calls_says_so() {
    let api = interface! {
        name = "stack";
        abstract Stack;
        ground u16 = speccheck_core::gens::ints(0..=1000u16);
        impl Stack {
            fn new() -> Self;
            fn push(&mut self, x: u16);
            fn pop(&mut self) -> Option<u16>;
            fn len(&self) -> usize;
        }
    }
    .unwrap();
    // The target: a lineage of 1,000 calls and 8,000 walk calls; 6,000
    // calls in all cannot give the second.
    let mut deep_enough = 0;
    for seed in 1..=4 {
        let r = api.check(Config { depth: 1_000, max_calls: 6_000, ..Config::seeded(seed) });
        assert!(r.passed(), "{r}");
        assert!(r.stats.walk_calls < 8_000, "{r}");
        let shown = r.to_string();
        assert!(shown.contains("short of the depth target of 1,000"), "{shown}");
        if r.stats.deepest >= 1_000 {
            deep_enough += 1;
            assert!(shown.contains("calls of the 8,000 the target asks for"), "{shown}");
        }
    }
    // The case this test is for: the lineage got there, the walks did not.
    assert!(deep_enough > 0, "no seed built a lineage of 1,000 calls within 6,000");
}

/// A map that loses a key once a second key lands in a chunk that is
/// already full: a sorted vector cut into chunks of 32, whose split
/// forgets the last entry when more than 64 chunks exist.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ChunkMap {
    chunks: Vec<Vec<(u16, u16)>>,
}

const CHUNK: usize = 32;

impl ChunkMap {
    pub fn new() -> Self {
        ChunkMap { chunks: Vec::new() }
    }
    fn chunk_of(&self, k: u16) -> usize {
        let i = self.chunks.partition_point(|c| c.last().is_some_and(|&(last, _)| last < k));
        i.min(self.chunks.len().saturating_sub(1))
    }
    pub fn insert(&mut self, k: u16, v: u16) -> Option<u16> {
        if self.chunks.is_empty() {
            self.chunks.push(vec![(k, v)]);
            return None;
        }
        let c = self.chunk_of(k);
        let chunk = &mut self.chunks[c];
        match chunk.binary_search_by_key(&k, |&(key, _)| key) {
            Ok(i) => Some(std::mem::replace(&mut chunk[i].1, v)),
            Err(i) => {
                chunk.insert(i, (k, v));
                if chunk.len() > CHUNK {
                    let mut right = chunk.split_off(CHUNK / 2);
                    if self.chunks.len() > 64 {
                        right.pop(); // the bug
                    }
                    self.chunks.insert(c + 1, right);
                }
                None
            }
        }
    }
    pub fn remove(&mut self, k: u16) -> Option<u16> {
        if self.chunks.is_empty() {
            return None;
        }
        let c = self.chunk_of(k);
        let chunk = &mut self.chunks[c];
        let i = chunk.binary_search_by_key(&k, |&(key, _)| key).ok()?;
        let (_, v) = chunk.remove(i);
        if chunk.is_empty() {
            self.chunks.remove(c);
        }
        Some(v)
    }
    pub fn get(&self, k: u16) -> Option<u16> {
        let chunk = self.chunks.get(self.chunk_of(k))?;
        chunk.binary_search_by_key(&k, |&(key, _)| key).ok().map(|i| chunk[i].1)
    }
    pub fn len(&self) -> usize {
        self.chunks.iter().map(Vec::len).sum()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The API both maps share.
#[allow(clippy::len_without_is_empty)]
pub trait Map {
    fn new() -> Self;
    fn insert(&mut self, k: u16, v: u16) -> Option<u16>;
    fn remove(&mut self, k: u16) -> Option<u16>;
    fn get(&self, k: u16) -> Option<u16>;
    fn len(&self) -> usize;
}

impl Map for ChunkMap {
    fn new() -> Self {
        ChunkMap::new()
    }
    fn insert(&mut self, k: u16, v: u16) -> Option<u16> {
        ChunkMap::insert(self, k, v)
    }
    fn remove(&mut self, k: u16) -> Option<u16> {
        ChunkMap::remove(self, k)
    }
    fn get(&self, k: u16) -> Option<u16> {
        ChunkMap::get(self, k)
    }
    fn len(&self) -> usize {
        ChunkMap::len(self)
    }
}

impl Map for BTreeMap<u16, u16> {
    fn new() -> Self {
        BTreeMap::new()
    }
    fn insert(&mut self, k: u16, v: u16) -> Option<u16> {
        BTreeMap::insert(self, k, v)
    }
    fn remove(&mut self, k: u16) -> Option<u16> {
        BTreeMap::remove(self, &k)
    }
    fn get(&self, k: u16) -> Option<u16> {
        BTreeMap::get(self, &k).copied()
    }
    fn len(&self) -> usize {
        BTreeMap::len(self)
    }
}

#[test]
fn a_map_bug_that_needs_thousands_of_entries_is_found_by_default_and_reduced() {
    let api = interface! {
        name = "chunk map vs BTreeMap";
        ground u16 = speccheck_core::gens::ints(0..20_000u16);
        compare ChunkMap with BTreeMap<u16, u16> by Map {
            fn new() -> Self;
            fn insert(&mut self, k: u16, v: u16) -> Option<u16>;
            fn remove(&mut self, k: u16) -> Option<u16>;
            fn get(&self, k: u16) -> Option<u16>;
            fn len(&self) -> usize;
        }
    }
    .unwrap();
    let dir = std::env::temp_dir().join(format!("speccheck-deep-{}", std::process::id()));
    for seed in 1..=3 {
        let r = api.check(Config { output_dir: Some(dir.clone()), ..Config::seeded(seed) });
        let cx = r.assert_failed();
        assert!(cx.what.contains("disagrees with"), "{r}");
        assert!(cx.calls < cx.original_calls, "{r}");
        // Long programs and replays go to files, named in the report.
        let shown = r.to_string();
        assert!(shown.lines().count() < 120, "{shown}");
        if cx.calls > 60 {
            let file = cx.program_file.as_ref().expect("a program file");
            let text = std::fs::read_to_string(file).unwrap();
            assert!(text.contains("fn counterexample()"), "{text}");
            assert_eq!(text.lines().filter(|l| l.contains(".insert(")).count(), cx.program.matches(".insert(").count());
            assert!(shown.contains(&file.display().to_string()), "{shown}");
        }
        if let Some(replay) = &cx.replay_file {
            assert!(shown.contains(&format!("SPECCHECK_REPLAY=@{}", replay.display())), "{shown}");
            assert_eq!(std::fs::read_to_string(replay).unwrap().trim(), cx.replay.as_deref().unwrap());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_replay_too_long_for_a_variable_is_read_from_its_file() {
    let api = buffer_api();
    let dir = std::env::temp_dir().join(format!("speccheck-replay-{}", std::process::id()));
    let found = api.check(Config { output_dir: Some(dir.clone()), ..Config::seeded(1) });
    let cx = found.assert_failed();
    let file = cx.replay_file.clone().expect("a replay of a thousand calls is saved to a file");
    let again = api.check(Config { replay: Some(format!("@{}", file.display())), ..Config::seeded(9) });
    let replayed = again.assert_failed();
    assert_eq!(replayed.calls, cx.calls, "{again}");
    assert!(replayed.message.contains("buffer overflow"), "{again}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A text whose contents can be appended to it: fed back as an argument,
/// a returned value doubles the instance each time.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Text(String);

static LONGEST_TEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl Text {
    pub fn new() -> Self {
        Text(String::new())
    }
    pub fn append(&mut self, s: String) {
        self.0.push_str(&s);
        LONGEST_TEXT.fetch_max(self.0.len(), std::sync::atomic::Ordering::Relaxed);
    }
    pub fn contents(&self) -> String {
        self.0.clone()
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[test]
fn returned_values_far_larger_than_the_drawn_ones_are_not_fed_back() {
    let api = interface! {
        name = "text";
        abstract Text;
        ground String = speccheck_core::gens::string_of(speccheck_core::CharClass::from_chars("ab\n"), 0..=8);
        impl Text {
            fn new() -> Self;
            fn append(&mut self, s: String);
            fn contents(&self) -> String;
            fn len(&self) -> usize;
        }
    }
    .unwrap();
    let r = api.check(Config::seeded(1));
    assert!(r.passed(), "{r}");
    let strings = r.stats.types.iter().find(|t| t.name == "String").unwrap();
    assert!(strings.oversized > 0, "{r}");
    assert!(r.to_string().contains("returned values not reused"), "{r}");
    // An append adds at most what may be reused: 16 times the longest
    // drawn `Debug` form (8 characters, escaped: 18), so texts grow at most
    // linearly with their lineage (fed back, they double: gigabytes).
    let longest = LONGEST_TEXT.load(std::sync::atomic::Ordering::Relaxed);
    assert!(longest <= 16 * 18 * r.stats.deepest as usize, "{longest}\n{r}");
}
