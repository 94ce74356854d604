//! Shared helpers for the benchmark programs in `src/bin/`: statistics in
//! the papers' format (mean, standard deviation, 95th percentile) and a
//! markdown table writer.

use std::time::Duration;

pub mod hegel_peer;

/// Mean, standard deviation and 95th percentile of a sample.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    /// Number of observations.
    pub n: usize,
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation.
    pub sd: f64,
    /// 95th percentile (nearest rank).
    pub p95: f64,
}

impl Summary {
    /// Summarizes `xs` (an empty sample gives zeros).
    pub fn of(xs: &[f64]) -> Summary {
        let n = xs.len();
        if n == 0 {
            return Summary::default();
        }
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = if n > 1 { xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64 } else { 0.0 };
        let mut sorted = xs.to_vec();
        sorted.sort_by(f64::total_cmp);
        let rank = ((0.95 * n as f64).ceil() as usize).clamp(1, n);
        Summary { n, mean, sd: var.sqrt(), p95: sorted[rank - 1] }
    }

    /// Summarizes durations in seconds.
    pub fn of_durations(ds: &[Duration]) -> Summary {
        Summary::of(&ds.iter().map(Duration::as_secs_f64).collect::<Vec<_>>())
    }
}

/// A markdown table built row by row.
#[derive(Clone, Debug, Default)]
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column headings.
    pub fn new(header: &[&str]) -> Self {
        Table { header: header.iter().map(|s| s.to_string()).collect(), rows: Vec::new() }
    }

    /// Appends a row.
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// The table as GitHub markdown.
    pub fn to_markdown(&self) -> String {
        let mut out = format!("| {} |\n|{}|\n", self.header.join(" | "), vec!["---"; self.header.len()].join("|"));
        for r in &self.rows {
            out.push_str(&format!("| {} |\n", r.join(" | ")));
        }
        out
    }
}

/// A short description of the machine for results files.
pub fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!("{cpu}, {cores} cores visible, {} {}", std::env::consts::OS, std::env::consts::ARCH)
}

/// The median of `xs` (the upper one of an even count; 0 when empty).
pub fn median(xs: &[f64]) -> f64 {
    let mut s = xs.to_vec();
    s.sort_by(f64::total_cmp);
    if s.is_empty() { 0.0 } else { s[s.len() / 2] }
}

/// Seconds for a table: milliseconds below one second.
pub fn fmt_seconds(x: f64) -> String {
    if x < 1.0 { format!("{:.0} ms", x * 1e3) } else { format!("{x:.2} s") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_of_a_known_sample() {
        let s = Summary::of(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]);
        assert_eq!(s.mean, 5.5);
        assert!((s.sd - 3.0277).abs() < 1e-3);
        assert_eq!(s.p95, 10.0);
    }
}
