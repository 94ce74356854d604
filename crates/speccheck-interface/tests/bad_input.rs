//! What the framework does with descriptions and APIs that misbehave.

use std::time::{Duration, Instant};

use speccheck_core::FailureKind;
use speccheck_interface::{Config, ContainerKind, DescribeError, Verdict, interface};

/// A stack whose operations misbehave on demand.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Stack(Vec<i32>);

/// Something no function of the stack API builds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Token(u8);

/// A type nobody declares.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Widget;

impl Default for Stack {
    fn default() -> Self {
        Stack::new()
    }
}

impl Stack {
    pub fn new() -> Self {
        Stack(Vec::new())
    }
    pub fn push(&self, x: i32) -> Self {
        let mut v = self.0.clone();
        v.push(x);
        Stack(v)
    }
    pub fn with_token(&self, _t: &Token) -> Self {
        self.clone()
    }
    pub fn from_widget(_w: Widget) -> Self {
        Stack::new()
    }
    /// Panics on a stack of exactly three elements.
    pub fn peek(&self) -> Option<i32> {
        assert!(self.0.len() != 3, "peek breaks on three elements");
        self.0.last().copied()
    }
    /// Never returns on a stack holding 7.
    pub fn sum(&self) -> i64 {
        while self.0.contains(&7) {
            std::thread::sleep(Duration::from_millis(20));
        }
        self.0.iter().map(|&x| i64::from(x)).sum()
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// Mutates in place; the bug: pushes twice when `x` is 5.
    pub fn push_mut(&mut self, x: i32) {
        self.0.push(x);
        if x == 5 {
            self.0.push(x);
        }
    }
    pub fn pop(&mut self) -> Option<i32> {
        self.0.pop()
    }
}

#[test]
fn a_type_no_function_constructs_is_a_clear_error() {
    let e = interface! {
        name = "stack";
        abstract Stack;
        abstract Token;
        impl Stack {
            fn new() -> Self;
            fn with_token(&self, t: &Token) -> Self;
        }
    }
    .unwrap_err();
    match &e {
        DescribeError::Unconstructible { types, .. } => assert_eq!(types, &["Token".to_string()]),
        other => panic!("{other}"),
    }
    let msg = e.to_string();
    assert!(msg.contains("`Token`") && msg.contains("no function returns a `Token`"), "{msg}");
}

#[test]
fn an_undeclared_type_is_a_clear_error() {
    let e = interface! {
        abstract Stack;
        impl Stack {
            fn new() -> Self;
            fn from_widget(w: Widget) -> Self;
        }
    }
    .unwrap_err();
    assert_eq!(e, DescribeError::Undeclared { type_name: "Widget".into(), used_by: "from_widget".into() });
    assert!(e.to_string().contains("`from_widget` uses the type `Widget`"), "{e}");
}

#[test]
fn a_function_that_panics_is_a_counterexample_program_unless_allowed() {
    let api = interface! {
        abstract Stack;
        ground i32 = speccheck_core::gens::ints(0..=3);
        impl Stack {
            fn new() -> Self;
            fn push(&self, x: i32) -> Self;
            fn peek(&self) -> Option<i32>;
        }
    }
    .unwrap();
    let r = api.check(Config::seeded(1));
    let cx = r.assert_failed();
    assert_eq!(cx.kind, FailureKind::Panic);
    assert_eq!(cx.message, "peek breaks on three elements");
    assert!(cx.location.as_deref().unwrap().contains("bad_input.rs"), "{r}");
    assert_eq!(cx.calls, 5, "new, three pushes, peek\n{r}");
    assert!(cx.program.lines().last().unwrap().contains(".peek(); // panics: peek breaks on three elements"), "{r}");
    // The replay line carries the command that reruns this test, as a
    // property's does.
    let expected = "cargo test -p speccheck-interface --test bad_input -- \
                    a_function_that_panics_is_a_counterexample_program_unless_allowed --exact";
    assert_eq!(cx.rerun_command.as_deref(), Some(expected), "{r}");
    assert!(r.to_string().lines().any(|l| l.contains("replay: SPECCHECK_REPLAY=") && l.ends_with(expected)), "{r}");

    let allowed = interface! {
        abstract Stack;
        ground i32 = speccheck_core::gens::ints(0..=3);
        impl Stack {
            fn new() -> Self;
            fn push(&self, x: i32) -> Self;
            #[panics]
            fn peek(&self) -> Option<i32>;
        }
    }
    .unwrap();
    let r = allowed.check(Config { required: 2_000, ..Config::seeded(1) });
    r.assert_passed();
    assert!(r.stats.functions.iter().any(|f| f.name == "peek" && f.panics_allowed > 0), "{r}");
}

#[test]
fn a_function_that_hangs_is_reported_as_a_timeout() {
    let api = interface! {
        abstract Stack;
        ground i32 = speccheck_core::gens::ints(0..=9);
        impl Stack {
            fn new() -> Self;
            fn push(&self, x: i32) -> Self;
            fn sum(&self) -> i64;
        }
    }
    .unwrap();
    let started = Instant::now();
    let r = api.check(Config { call_timeout: Some(Duration::from_millis(300)), ..Config::seeded(2) });
    assert!(started.elapsed() < Duration::from_secs(10), "the run itself did not hang");
    let cx = r.assert_failed();
    assert_eq!(cx.kind, FailureKind::Timeout, "{r}");
    assert_eq!(cx.what, "`sum` does not return", "{r}");
    assert_eq!(r.stats.stop, speccheck_interface::StopReason::Hang);
    let last = cx.program.lines().last().unwrap();
    assert!(last.contains(".sum(); // does not return within 300.0 ms"), "{r}");
    assert!(cx.program.contains(".push(7)"), "{r}");
}

#[test]
fn pools_never_grow_past_their_bounds() {
    let api = interface! {
        abstract Stack;
        ground i32 = speccheck_core::gens::ints(-1000..=1000);
        fresh i32 = 50, 20;
        impl Stack {
            fn new() -> Self;
            fn push(&self, x: i32) -> Self;
            fn len(&self) -> usize;
        }
        law bounded(s: &Stack) => s.len() < 10_000;
    }
    .unwrap();
    for container in [ContainerKind::Buckets { bucket_size: 4 }, ContainerKind::Reservoir, ContainerKind::PlainSet] {
        // Rounds only: a walk would soon build a stack of 10,000.
        let r = api.check(Config { container, pool_bound: 100, required: 3_000, depth: 0, ..Config::seeded(3) });
        assert!(r.passed(), "{r}");
        for t in &r.stats.types {
            assert!(t.max_held <= 100 && t.held <= 100, "{container:?}: {} held {} of {}", t.name, t.max_held, t.bound);
        }
        let stack = &r.stats.types[0];
        match container {
            ContainerKind::PlainSet => assert!(stack.dropped > 0 && stack.evicted == 0, "{r}"),
            _ => assert!(stack.built >= 3_000 && stack.evicted > 0, "{r}"),
        }
    }
}

#[test]
fn a_type_with_its_own_pool_bound_keeps_to_it() {
    let api = interface! {
        abstract Stack;
        ground i32 = speccheck_core::gens::ints(-100_000..=100_000);
        fresh i32 = 50, 50;
        pool i32 = 400;
        impl Stack {
            fn new() -> Self;
            fn push(&self, x: i32) -> Self;
            fn len(&self) -> usize;
        }
        law bounded(s: &Stack) => s.len() < 10_000;
    }
    .unwrap();
    let r = api.check(Config { pool_bound: 100, required: 3_000, depth: 0, ..Config::seeded(3) });
    assert!(r.passed(), "{r}");
    let (stack, ints) = (&r.stats.types[0], &r.stats.types[1]);
    // (Buckets round a bound down to whole buckets.)
    assert!(stack.bound <= 100 && ints.bound == 400, "{r}");
    assert!(stack.max_held <= 100, "{r}");
    assert!(ints.max_held > 100 && ints.max_held <= 400, "the keys' own bound is used: {r}");

    let undeclared = interface! {
        abstract Stack;
        pool String = 10;
        impl Stack {
            fn new() -> Self;
        }
    };
    assert!(undeclared.unwrap_err().to_string().contains("`pool_bound` names a type that is not declared"));
    let zero = interface! {
        abstract Stack;
        pool Stack = 0;
        impl Stack {
            fn new() -> Self;
        }
    };
    assert!(zero.unwrap_err().to_string().contains("at least 1"));
}

#[test]
fn mutating_methods_work_on_clones_and_print_as_let_mut() {
    let api = interface! {
        abstract Stack;
        ground i32 = speccheck_core::gens::ints(0..=6);
        impl Stack {
            fn new() -> Self;
            fn push_mut(&mut self, x: i32);
            fn pop(&mut self) -> Option<i32>;
            fn len(&self) -> usize;
        }
        law at_most_one_five(s: &Stack) => s.0.iter().filter(|&&x| x == 5).count() <= 1;
    }
    .unwrap();
    let r = api.check(Config::seeded(4));
    let cx = r.assert_failed();
    assert_eq!(cx.calls, 2, "{r}");
    assert!(cx.program.contains("let mut s1 = s0;"), "{r}");
    assert!(cx.program.contains("s1.push_mut(5);"), "{r}");
}

#[test]
fn aborted_tests_are_counted_apart_and_a_law_never_checked_is_flagged() {
    let api = interface! {
        abstract Stack;
        ground i32 = speccheck_core::gens::ints(0..=6);
        impl Stack {
            fn new() -> Self;
            fn push(&self, x: i32) -> Self;
        }
        law never(s: &Stack) requires s.len() > 1_000 => false;
        law half(s: &Stack, x: i32) requires x % 2 == 0 => s.push(x).len() == s.len() + 1;
    }
    .unwrap();
    // Rounds only: a walk would build a stack past 1,000, where `never` fails.
    let r = api.check(Config { required: 1_000, depth: 0, ..Config::seeded(5) });
    assert!(r.passed(), "{r}");
    let never = &r.stats.laws[0];
    assert_eq!(never.checked, 0);
    assert!(never.aborted >= 1_000);
    let half = &r.stats.laws[1];
    assert!(half.checked > 0 && half.aborted > 0, "{r}");
    assert!(r.to_string().contains("warning: law `never` was never checked"), "{r}");
}

/// A point, described as a data type (a product with named fields).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Point {
    pub x: i32,
    pub y: i32,
}

/// A shape (a sum of products).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    Dot(Point),
    Segment(Point, Point),
    Nothing,
}

/// A drawing: the abstract type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Drawing(Vec<Shape>);

impl Drawing {
    pub fn blank() -> Self {
        Drawing(Vec::new())
    }
    pub fn draw(&self, s: Shape) -> Self {
        let mut v = self.0.clone();
        v.push(s);
        Drawing(v)
    }
    pub fn last(&self) -> Option<Shape> {
        self.0.last().cloned()
    }
    /// Bug: a segment from a point to itself is dropped.
    pub fn segments(&self) -> usize {
        self.0.iter().filter(|s| matches!(s, Shape::Segment(a, b) if a != b)).count()
    }
    pub fn count_segments(&self) -> usize {
        self.0.iter().filter(|s| matches!(s, Shape::Segment(..))).count()
    }
}

#[test]
fn user_enums_and_structs_are_built_and_destructed() {
    let api = interface! {
        abstract Drawing;
        ground i32 = speccheck_core::gens::ints(0..=2);
        struct Point { x: i32, y: i32 }
        enum Shape { Dot(Point), Segment(Point, Point), Nothing }
        impl Drawing {
            fn blank() -> Self;
            fn draw(&self, s: Shape) -> Self;
            fn last(&self) -> Option<Shape>;
        }
        law segments(d: &Drawing) => d.segments() == d.count_segments();
    }
    .unwrap();
    let r = api.check(Config::seeded(6));
    let cx = r.assert_failed();
    assert_eq!(cx.calls, 2, "{r}");
    assert!(cx.program.contains("Shape::Segment(Point { x: 0, y: 0 }, Point { x: 0, y: 0 })"), "{r}");
}

/// A set whose `any` may return an element that is not there.
pub trait Bag: Sized {
    fn empty() -> Self;
    fn add(&self, x: i32) -> Self;
    fn any(&self) -> Option<i32>;
    fn take(&self) -> Self;
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct VecBag(Vec<i32>);

impl Bag for VecBag {
    fn empty() -> Self {
        VecBag(Vec::new())
    }
    fn add(&self, x: i32) -> Self {
        let mut v = self.0.clone();
        if !v.contains(&x) {
            v.push(x);
        }
        VecBag(v)
    }
    /// Bug: off by one when the bag has three elements.
    fn any(&self) -> Option<i32> {
        if self.0.len() == 3 { Some(self.0[2] + 100) } else { self.0.first().copied() }
    }
    /// Removes the smallest element; panics on an empty bag (the
    /// reference panics too).
    fn take(&self) -> Self {
        let min = *self.0.iter().min().expect("empty");
        VecBag(self.0.iter().copied().filter(|&x| x != min).collect())
    }
}

impl Bag for std::collections::BTreeSet<i32> {
    fn empty() -> Self {
        Default::default()
    }
    fn add(&self, x: i32) -> Self {
        let mut s = self.clone();
        s.insert(x);
        s
    }
    fn any(&self) -> Option<i32> {
        self.first().copied()
    }
    fn take(&self) -> Self {
        assert!(!self.is_empty(), "empty");
        self.iter().skip(1).copied().collect()
    }
}

#[test]
fn reference_mode_validates_nondeterministic_results_and_matches_panics() {
    use std::collections::BTreeSet;
    let api = interface! {
        ground i32 = speccheck_core::gens::ints(0..=9);
        compare VecBag with BTreeSet<i32> by Bag {
            fn empty() -> Self;
            fn add(&self, x: i32) -> Self;
            #[nondeterministic(|s: &BTreeSet<i32>, r: &Option<i32>| r.map_or(s.is_empty(), |x| s.contains(&x)))]
            fn any(&self) -> Option<i32>;
        }
    }
    .unwrap();
    let r = api.check(Config::seeded(7));
    let cx = r.assert_failed();
    assert_eq!(cx.what, "`any` disagrees with BTreeSet<i32>", "{r}");
    assert!(cx.message.contains("which BTreeSet<i32> does not allow"), "{r}");
    assert_eq!(cx.calls, 5, "{r}");

    // `take` on an empty bag panics on both sides: refused, not a bug.
    let api = interface! {
        ground i32 = speccheck_core::gens::ints(0..=9);
        compare VecBag with BTreeSet<i32> by Bag {
            fn empty() -> Self;
            fn add(&self, x: i32) -> Self;
            fn take(&self) -> Self;
        }
    }
    .unwrap();
    let r = api.check(Config { required: 2_000, ..Config::seeded(8) });
    assert!(r.passed(), "{r}");
    assert!(r.stats.functions.iter().any(|f| f.name == "take" && f.refused > 0), "{r}");
    assert!(r.summary().contains("agreeing with BTreeSet<i32>"), "{r}");
}

#[test]
fn replaying_a_program_given_by_its_replay_string() {
    let api = interface! {
        abstract Stack;
        ground i32 = speccheck_core::gens::ints(0..=3);
        impl Stack {
            fn new() -> Self;
            fn push(&self, x: i32) -> Self;
            fn peek(&self) -> Option<i32>;
        }
    }
    .unwrap();
    let first = api.check(Config::seeded(9));
    let replay = first.assert_failed().replay.clone().unwrap();
    let again = api.check(Config { replay: Some(replay), ..Config::seeded(10) });
    assert_eq!(again.stats.stop, speccheck_interface::StopReason::Replay);
    assert_eq!(again.assert_failed().program, first.assert_failed().program);
    assert!(matches!(again.verdict, Verdict::Failed(_)));
}

/// A bag built from containers and read back as a map.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Counts(std::collections::BTreeMap<i32, usize>);

impl Counts {
    /// Bug: a slice of exactly three elements loses its last one.
    pub fn from_slice(xs: &[i32]) -> Self {
        let xs = if xs.len() == 3 { &xs[..2] } else { xs };
        let mut m = std::collections::BTreeMap::new();
        for &x in xs {
            *m.entry(x).or_insert(0) += 1;
        }
        Counts(m)
    }
    pub fn add_all(&self, xs: Vec<i32>) -> Self {
        let mut m = self.0.clone();
        for x in xs {
            *m.entry(x).or_insert(0) += 1;
        }
        Counts(m)
    }
    pub fn to_map(&self) -> std::collections::BTreeMap<i32, usize> {
        self.0.clone()
    }
    pub fn total(&self) -> usize {
        self.0.values().sum()
    }
}

#[test]
fn containers_are_produced_as_arguments_and_destructed_as_results() {
    let api = interface! {
        abstract Counts;
        ground i32 = speccheck_core::gens::ints(0..=3);
        impl Counts {
            fn from_slice(xs: &[i32]) -> Self;
            fn add_all(&self, xs: Vec<i32>) -> Self;
            fn to_map(&self) -> std::collections::BTreeMap<i32, usize>;
        }
        law added(c: &Counts, xs: Vec<i32>) => c.add_all(xs.clone()).total() == c.total() + xs.len();
        law built(xs: Vec<i32>) => Counts::from_slice(&xs).total() == xs.len();
    }
    .unwrap();
    assert!(api.type_names().contains(&"usize"), "map values feed the usize pool: {:?}", api.type_names());
    let r = api.check(Config::seeded(11));
    let cx = r.assert_failed();
    assert_eq!(cx.what, "law `built` fails", "{r}");
    assert_eq!(cx.calls, 0, "{r}");
    assert!(cx.program.contains("let xs = vec![0, 0, 0];"), "{r}");
}
