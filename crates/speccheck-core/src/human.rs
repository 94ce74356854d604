//! Numbers for people, as every report prints them (the runner's, and the
//! engines' own).

use std::time::Duration;

/// A count for people: `1234`, `3.4e14`.
pub fn approx(n: f64) -> String {
    if n < 1e6 { format!("{}", n.round() as u64) } else { format!("{n:.1e}") }
}

/// A duration for people: `1.23 s`, `45.6 ms`, `789 µs`.
pub fn duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{:.0} µs", s * 1e6)
    }
}
