//! The isolated run's wire format: one line per message, text fields
//! escaped onto it (spaces, commas, bars, line breaks, backslashes).
//!
//! Parent to child: `case <spec>` (a [`CaseSpec`] line) or `quit`.
//! Child to parent, per case: `generated <choices>` once the inputs are
//! drawn (so a crash in the body still knows its input), then
//! `result <outcome> …`.

use crate::case::{FailureInfo, FailureKind, Outcome};
use crate::choice::ChoiceSequence;
use crate::runner::tally::CaseCount;
use crate::test_case::spec::CaseSpec;
use crate::test_case::{Invalid, Reach};

/// What the child ran a case to.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ChildResult {
    pub(crate) outcome: Outcome,
    pub(crate) choices: ChoiceSequence,
    pub(crate) misaligned: usize,
    pub(crate) prefix_unused: bool,
    pub(crate) labels: Vec<String>,
    pub(crate) notes: Vec<String>,
}

/// One token of text: spaces, line breaks and backslashes escaped.
pub(crate) fn escape(s: &str) -> String {
    if s.is_empty() {
        return "\\0".to_string();
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            ' ' => out.push_str("\\s"),
            ',' => out.push_str("\\c"),
            '|' => out.push_str("\\p"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out
}

/// Reads [`escape`]'s output.
pub(crate) fn unescape(s: &str) -> String {
    if s == "\\0" {
        return String::new();
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('s') => out.push(' '),
            Some('c') => out.push(','),
            Some('p') => out.push('|'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

fn choices_token(c: &ChoiceSequence) -> String {
    if c.is_empty() { "-".to_string() } else { c.to_replay_string() }
}

fn choices_from(token: &str) -> Result<ChoiceSequence, String> {
    if token == "-" {
        Ok(ChoiceSequence::default())
    } else {
        ChoiceSequence::from_replay_string(token).map_err(|e| e.to_string())
    }
}

fn list_token(items: &[String]) -> String {
    if items.is_empty() { "-".to_string() } else { items.iter().map(|s| escape(s)).collect::<Vec<_>>().join(",") }
}

fn list_from(token: &str) -> Vec<String> {
    if token == "-" { Vec::new() } else { token.split(',').map(unescape).collect() }
}

/// A run of generated cases in one request: cases `start..` of the run
/// `seed`, one size each, until one fails (the generation phase's hot loop,
/// one round trip per batch instead of per case).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Batch {
    pub(crate) seed: u64,
    pub(crate) start: u64,
    /// Case `k` of the batch is case `start + k * stride` of the run (a
    /// shard runs every `stride`-th case).
    pub(crate) stride: u64,
    pub(crate) max_depth: u32,
    pub(crate) max_choices: usize,
    /// Each case takes its integer mix from its seed.
    pub(crate) vary_mix: bool,
    pub(crate) sizes: Vec<usize>,
}

/// `batch …`.
pub(crate) fn batch_line(b: &Batch) -> String {
    let sizes: Vec<String> = b.sizes.iter().map(usize::to_string).collect();
    format!(
        "batch seed={} start={} stride={} depth={} choices={} mix={} sizes={}\n",
        b.seed,
        b.start,
        b.stride,
        b.max_depth,
        b.max_choices,
        u8::from(b.vary_mix),
        sizes.join(",")
    )
}

/// Reads a `batch` line (without its keyword).
pub(crate) fn parse_batch(rest: &str) -> Result<Batch, String> {
    let kv: std::collections::HashMap<&str, &str> = rest.split_whitespace().filter_map(|t| t.split_once('=')).collect();
    let num = |k: &str| -> Result<u64, String> {
        kv.get(k).ok_or(format!("missing {k}"))?.parse().map_err(|e| format!("{k}: {e}"))
    };
    let sizes = kv
        .get("sizes")
        .ok_or("missing sizes")?
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().map_err(|e| format!("sizes: {e}")))
        .collect::<Result<_, _>>()?;
    Ok(Batch {
        seed: num("seed")?,
        start: num("start")?,
        stride: num("stride")?,
        max_depth: num("depth")? as u32,
        max_choices: num("choices")? as usize,
        vary_mix: num("mix")? == 1,
        sizes,
    })
}

/// One case of a batch, as the parent tallies it: how far its input and
/// its draws reached (for the size health check), its labels, its outcome.
pub(crate) fn outcome_token(o: &Outcome, labels: &[String], (kept, drawn): (Reach, Reach)) -> String {
    format!(
        "{}.{}.{}.{}|{}|{}",
        kept.longest,
        kept.deepest,
        drawn.longest,
        drawn.deepest,
        list_token(labels),
        outcome_tokens(o).replace(' ', "|")
    )
}

/// Reads [`outcome_token`]'s output.
pub(crate) fn parse_outcome_token(t: &str) -> Result<CaseCount, String> {
    let bad = || format!("bad case token {t:?}");
    let (reach, rest) = t.split_once('|').ok_or_else(bad)?;
    let n: Vec<u32> = reach.split('.').map(str::parse).collect::<Result<_, _>>().map_err(|_| bad())?;
    let [kl, kd, dl, dd] = n[..] else { return Err(bad()) };
    let reach = (Reach { longest: kl, deepest: kd }, Reach { longest: dl, deepest: dd });
    let (labels, rest) = rest.split_once('|').ok_or_else(bad)?;
    // The outcome parses as a result line's tail after its five fields.
    let line = format!("0 0 - - - {}", rest.replace('|', " "));
    Ok((parse_result(&line)?.outcome, list_from(labels), reach))
}

/// `batched <token> <token> …`: the cases run, in order; the batch stops
/// after the first that failed.
pub(crate) fn batched_line(tokens: &[String]) -> String {
    format!("batched {}\n", if tokens.is_empty() { "-".to_string() } else { tokens.join(" ") })
}

/// `case <spec>`.
pub(crate) fn case_line(spec: &CaseSpec) -> String {
    format!("case {}\n", spec.to_line())
}

/// `generated <choices>`.
pub(crate) fn generated_line(choices: &ChoiceSequence) -> String {
    format!("generated {}\n", choices_token(choices))
}

/// Reads a `generated` line's choices.
pub(crate) fn parse_generated(rest: &str) -> Result<ChoiceSequence, String> {
    choices_from(rest.trim())
}

fn kind_code(k: FailureKind) -> &'static str {
    match k {
        FailureKind::Panic => "panic",
        FailureKind::Returned => "returned",
        FailureKind::Timeout => "timeout",
        FailureKind::Crash => "crash",
    }
}

fn kind_from(s: &str) -> Result<FailureKind, String> {
    Ok(match s {
        "panic" => FailureKind::Panic,
        "returned" => FailureKind::Returned,
        "timeout" => FailureKind::Timeout,
        "crash" => FailureKind::Crash,
        other => return Err(format!("unknown failure kind {other:?}")),
    })
}

fn outcome_tokens(o: &Outcome) -> String {
    match o {
        Outcome::Pass => "pass".to_string(),
        Outcome::Discard { reason } => format!("discard {}", escape(reason)),
        Outcome::Fail(f) => format!(
            "fail {} {} {} {}",
            kind_code(f.kind),
            u8::from(f.in_generator),
            f.location.as_deref().map_or("-".to_string(), escape),
            escape(&f.message)
        ),
        Outcome::Invalid(why) => match why {
            Invalid::Overrun => "invalid overrun".to_string(),
            Invalid::FilterExhausted { name, tries } => format!("invalid filter {} {tries}", escape(name)),
            Invalid::NotSmaller => "invalid notsmaller".to_string(),
            Invalid::Duplicate => "invalid duplicate".to_string(),
            Invalid::Other(s) => format!("invalid other {}", escape(s)),
        },
    }
}

/// `result <misaligned> <prefix unused> <choices> <labels> <notes> <outcome…>`.
pub(crate) fn result_line(r: &ChildResult) -> String {
    format!(
        "result {} {} {} {} {} {}\n",
        r.misaligned,
        u8::from(r.prefix_unused),
        choices_token(&r.choices),
        list_token(&r.labels),
        list_token(&r.notes),
        outcome_tokens(&r.outcome)
    )
}

/// Reads a `result` line (without its keyword).
pub(crate) fn parse_result(rest: &str) -> Result<ChildResult, String> {
    let t: Vec<&str> = rest.split_whitespace().collect();
    if t.len() < 6 {
        return Err(format!("short result line {rest:?}"));
    }
    let misaligned = t[0].parse().map_err(|e| format!("misaligned: {e}"))?;
    let prefix_unused = t[1] == "1";
    let choices = choices_from(t[2])?;
    let (labels, notes) = (list_from(t[3]), list_from(t[4]));
    let arg = |k: usize| t.get(k).copied().ok_or_else(|| format!("missing field {k} in {rest:?}"));
    let outcome = match t[5] {
        "pass" => Outcome::Pass,
        "discard" => Outcome::Discard { reason: unescape(arg(6)?) },
        "fail" => Outcome::Fail(FailureInfo {
            kind: kind_from(arg(6)?)?,
            in_generator: arg(7)? == "1",
            location: match arg(8)? {
                "-" => None,
                l => Some(unescape(l)),
            },
            message: unescape(arg(9)?),
        }),
        "invalid" => Outcome::Invalid(match arg(6)? {
            "overrun" => Invalid::Overrun,
            "filter" => Invalid::FilterExhausted {
                name: unescape(arg(7)?),
                tries: arg(8)?.parse().map_err(|e| format!("tries: {e}"))?,
            },
            "notsmaller" => Invalid::NotSmaller,
            "duplicate" => Invalid::Duplicate,
            "other" => Invalid::Other(unescape(arg(7)?)),
            other => return Err(format!("unknown invalid kind {other:?}")),
        }),
        other => return Err(format!("unknown outcome {other:?}")),
    };
    Ok(ChildResult { outcome, choices, misaligned, prefix_unused, labels, notes })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::choice::{Choice, ChoiceKind};

    #[test]
    fn results_survive_the_wire() {
        let choices = ChoiceSequence(vec![Choice::new(3, 9, ChoiceKind::Integer)]);
        let outcomes = [
            Outcome::Pass,
            Outcome::Discard { reason: "assume!(x > 1) at a b".into() },
            Outcome::Fail(FailureInfo {
                kind: FailureKind::Panic,
                message: "left: 1\nright: 2 \\ done".into(),
                location: Some("src/lib.rs:3:5".into()),
                in_generator: false,
            }),
            Outcome::Fail(FailureInfo::returned("")),
            Outcome::Invalid(Invalid::FilterExhausted { name: "even numbers".into(), tries: 7 }),
            Outcome::Invalid(Invalid::Overrun),
        ];
        for outcome in outcomes {
            let r = ChildResult {
                outcome,
                choices: choices.clone(),
                misaligned: 2,
                prefix_unused: true,
                labels: vec!["a, b".into(), "c".into()],
                notes: Vec::new(),
            };
            let line = result_line(&r);
            assert_eq!(line.matches('\n').count(), 1, "{line:?}");
            let rest = line.trim_end().strip_prefix("result ").unwrap();
            assert_eq!(parse_result(rest).unwrap(), r);
        }
    }
}
