//! Observability: every test case of a run, and the run itself, as one JSON
//! line each in Hypothesis's observation schema (`type`, `property`,
//! `run_start`, `status`, `status_reason`, `representation`, `arguments`,
//! `how_generated`, `features`, `coverage`, `timing`, `metadata`; then an
//! `info` line with the run's summary), appended to the file
//! `SPECCHECK_OBSERVE` names, so the tools that read Hypothesis's
//! observations (Tyche) show speccheck runs.
//!
//! A case's input is rendered on the thread that ran it and travels with its
//! labels (under a mark the report never shows); the lines are written where
//! cases are counted, in case order. Each line is one `write` to a file
//! opened for appending, so processes and threads sharing the file never
//! interleave within a line.

use std::fmt::Write as _;
use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::path::Path;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

/// The mark of the label that carries a case's observation.
const MARK: &str = "\u{1}observe\u{1}";

/// Where a run's observations go.
#[derive(Debug)]
pub struct Observer {
    file: Mutex<File>,
    property: String,
    run_start: f64,
}

impl Observer {
    /// Appends the observations of a run of `property` to `path`.
    pub fn open(path: &Path, property: &str) -> std::io::Result<Self> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        let run_start = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs_f64()).unwrap_or(0.0);
        Ok(Observer { file: Mutex::new(file), property: property.to_string(), run_start })
    }

    /// Writes the observation of one case: its status (`passed`, `failed`,
    /// `gave_up`) and why, its labels (the input and timing they carry;
    /// the others become features) and `how` it was made.
    pub(crate) fn test_case(&self, status: &str, reason: &str, labels: &[String], how: &str) {
        let mut representation = String::new();
        let mut arguments = "{}".to_string();
        let mut seconds = None;
        let mut features = Vec::new();
        for l in labels {
            match l.strip_prefix(MARK) {
                Some(rest) => {
                    let mut parts = rest.splitn(3, MARK);
                    match (parts.next(), parts.next(), parts.next()) {
                        (Some("input"), Some(repr), Some(args)) => {
                            representation = repr.to_string();
                            arguments = args.to_string();
                        }
                        (Some("time"), Some(t), _) => seconds = t.parse::<f64>().ok(),
                        _ => {}
                    }
                }
                None => match crate::case::context::target_of(l) {
                    Some((label, score)) => features.push((format!("target:{label}"), number(score))),
                    // As Hypothesis writes an `event` with no payload.
                    None => features.push((l.clone(), string(""))),
                },
            }
        }
        let mut line = String::with_capacity(256);
        line.push('{');
        field(&mut line, "type", &string("test_case"));
        field(&mut line, "property", &string(&self.property));
        field(&mut line, "run_start", &number(self.run_start));
        field(&mut line, "status", &string(status));
        field(&mut line, "status_reason", &string(reason));
        field(&mut line, "representation", &string(&representation));
        field(&mut line, "arguments", &arguments);
        field(&mut line, "how_generated", &string(how));
        field(&mut line, "features", &object(&features));
        field(&mut line, "coverage", "null");
        let timing = seconds.map(|s| vec![("execute:test".to_string(), number(s))]).unwrap_or_default();
        field(&mut line, "timing", &object(&timing));
        field(&mut line, "metadata", "{}");
        line.pop();
        line.push_str("}\n");
        self.write(&line);
    }

    /// Writes an `info` line: the run's summary.
    pub(crate) fn info(&self, title: &str, content: &str) {
        let mut line = String::with_capacity(128);
        line.push('{');
        field(&mut line, "type", &string("info"));
        field(&mut line, "title", &string(title));
        field(&mut line, "content", &string(content));
        field(&mut line, "property", &string(&self.property));
        field(&mut line, "run_start", &number(self.run_start));
        line.pop();
        line.push_str("}\n");
        self.write(&line);
    }

    fn write(&self, line: &str) {
        let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
        // Observing must never fail a run: a full disk loses lines only.
        let _ = f.write_all(line.as_bytes());
    }
}

/// The label that carries a case's input: its representation (`name =
/// value, …`) and its arguments as a JSON object of strings.
pub(crate) fn input_label(inputs: &[(String, String)]) -> String {
    let representation = inputs.iter().map(|(n, v)| format!("{n} = {v}")).collect::<Vec<_>>().join(", ");
    let args: Vec<(String, String)> = inputs.iter().map(|(n, v)| (n.clone(), string(v))).collect();
    format!("{MARK}input{MARK}{representation}{MARK}{}", object(&args))
}

/// The label that carries how long the property's body took.
pub(crate) fn time_label(seconds: f64) -> String {
    format!("{MARK}time{MARK}{seconds}{MARK}")
}

/// Whether a label is an observation (never counted or shown as a label).
pub(crate) fn is_observation(label: &str) -> bool {
    label.starts_with(MARK)
}

fn field(out: &mut String, key: &str, value: &str) {
    let _ = write!(out, "{}:{value},", string(key));
}

fn object(fields: &[(String, String)]) -> String {
    let mut out = String::from("{");
    for (k, v) in fields {
        field(&mut out, k, v);
    }
    if out.len() > 1 {
        out.pop();
    }
    out.push('}');
    out
}

fn number(x: f64) -> String {
    if x.is_finite() { format!("{x}") } else { "null".to_string() }
}

/// A JSON string (RFC 8259 §7: quote, backslash and control characters
/// escaped).
pub(crate) fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
