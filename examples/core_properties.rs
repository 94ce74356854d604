//! The core engine as a user meets it: derive a type, state properties,
//! read the reports. Run with
//! `cargo run -p speccheck-examples --example core_properties`.
//!
//! (In a test file you would write `#[property] fn name(args…)` instead of
//! building `Property` values by hand; see `crates/speccheck/tests/`.)

use speccheck::prelude::*;
use speccheck::{Config, Property};

/// A half-open interval of the integers.
#[derive(Arbitrary, Debug, Clone, Copy, PartialEq)]
struct Interval {
    #[speccheck(range = -50..50i32)]
    start: i32,
    #[speccheck(range = 0..20i32)]
    len: i32,
}

impl Interval {
    fn end(self) -> i32 {
        self.start + self.len
    }
}

/// Merges overlapping intervals. Planted bug: a merge keeps the smaller of
/// the two ends instead of the larger.
fn merge(mut xs: Vec<Interval>) -> Vec<Interval> {
    xs.sort_by_key(|i| i.start);
    let mut out: Vec<Interval> = Vec::new();
    for x in xs.into_iter().filter(|x| x.len > 0) {
        match out.last_mut() {
            Some(last) if x.start < last.end() => {
                // Bug: should be `max(last.end(), x.end())`.
                last.len = last.end().min(x.end()) - last.start;
            }
            _ => out.push(x),
        }
    }
    out
}

fn covered(xs: &[Interval]) -> Vec<i32> {
    let mut points: Vec<i32> = xs.iter().flat_map(|i| i.start..i.end()).collect();
    points.sort_unstable();
    points.dedup();
    points
}

fn main() {
    let config = || Config { database: None, seed: Some(2024), ..Config::named("example") };

    println!("== merging intervals keeps every covered point ==");
    let report = Property::new(any::<Vec<Interval>>())
        .config(config())
        .named("merge_preserves_coverage")
        .run(|xs: Vec<Interval>| covered(&merge(xs.clone())) == covered(&xs));
    println!("{report}");

    println!("== merged intervals are disjoint and sorted ==");
    let report =
        Property::new(any::<Vec<Interval>>()).config(config()).named("merge_is_normalized").run(|xs: Vec<Interval>| {
            let m = merge(xs);
            label(if m.len() > 1 { "several" } else { "at most one" });
            m.windows(2).all(|w| w[0].end() <= w[1].start)
        });
    println!("{report}");

    println!("== exhaustively: every list of up to 2 intervals with small bounds ==");
    let small = gens::vec((gens::ints(0..4i32), gens::ints(1..3i32)), 0..=2)
        .map(|v| v.into_iter().map(|(start, len)| Interval { start, len }).collect::<Vec<_>>());
    let report = Property::new(small)
        .config(Config { exhaustive: Some(4), ..config() })
        .named("merge_exhaustive")
        .run(|xs: Vec<Interval>| covered(&merge(xs.clone())) == covered(&xs));
    println!("{report}");
}
