//! `chrono` 0.4.44, `std` only (ETNA: `alpaylan/chrono-etna`):
//! `NaiveDate::from_num_days_from_ce_opt` neither panics nor wraps near the
//! ends of `i32`, parsing a `DateTime<FixedOffset>` never panics on
//! multi-byte input after the time, `duration_round` to a zero span is an
//! error rather than a division by zero, and `%A` parses every full
//! weekday name.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::str::FromStr;

use ::chrono::format::{Item, Parsed, StrftimeItems};
use ::chrono::{DateTime, DurationRound, FixedOffset, NaiveDate, RoundingError, TimeDelta, Weekday};
use proptest::prelude as pt;
use speccheck::gens;

use super::Workload;
use crate::harness::{self, Bug, EtnaProperty, Outcome, PropertyResult, RunSpec, Tool, hg};

pub fn workload() -> Workload {
    Workload {
        name: "chrono",
        properties: vec![
            EtnaProperty { name: "FromNumDaysFromCeNoPanic", run: from_num_days_from_ce_no_panic },
            EtnaProperty { name: "ParseRfc3339NoPanic", run: parse_rfc3339_no_panic },
            EtnaProperty { name: "DurationRoundZeroNoPanic", run: duration_round_zero_no_panic },
            EtnaProperty { name: "LongWeekdayParsesFullName", run: long_weekday_parses_full_name },
        ],
        bugs: vec![
            Bug { patch: "from_num_days_from_ce_overflow_f659719_1", properties: &["FromNumDaysFromCeNoPanic"] },
            Bug { patch: "parse_rfc3339_utc_str_slicing_5a6b2b4_1", properties: &["ParseRfc3339NoPanic"] },
            Bug { patch: "duration_round_zero_panic_9a5f76c_1", properties: &["DurationRoundZeroNoPanic"] },
            Bug { patch: "weekday_long_sunday_33516cc_1", properties: &["LongWeekdayParsesFullName"] },
        ],
    }
}

/// `from_num_days_from_ce_opt(days)` does not panic, and a date it gives
/// has `num_days_from_ce() == days`.
fn property_from_num_days_from_ce_no_panic(days: i32) -> PropertyResult {
    use ::chrono::Datelike;
    match catch_unwind(|| NaiveDate::from_num_days_from_ce_opt(days)) {
        Err(_) => PropertyResult::Fail(format!("from_num_days_from_ce_opt({days}) panicked")),
        Ok(None) => PropertyResult::Pass,
        Ok(Some(d)) if d.num_days_from_ce() == days => PropertyResult::Pass,
        Ok(Some(d)) => PropertyResult::Fail(format!(
            "from_num_days_from_ce_opt({days}) = Some({d}); roundtrip = {}",
            d.num_days_from_ce()
        )),
    }
}

/// `DateTime::<FixedOffset>::from_str(input)` does not panic.
fn property_parse_rfc3339_no_panic(input: String) -> PropertyResult {
    match catch_unwind(|| <DateTime<FixedOffset> as FromStr>::from_str(&input).is_ok()) {
        Err(_) => PropertyResult::Fail(format!("DateTime::from_str({input:?}) panicked")),
        Ok(_) => PropertyResult::Pass,
    }
}

/// For `dt = from_timestamp(seed % 9e9, 0)`, `dt.duration_round(zero)` is
/// `Err(DurationExceedsLimit)` (or `dt` itself), never a panic.
fn property_duration_round_zero_no_panic(seed_secs: i64) -> PropertyResult {
    let Some(dt) = DateTime::from_timestamp(seed_secs % 9_000_000_000, 0) else {
        return PropertyResult::Discard;
    };
    match catch_unwind(|| dt.duration_round(TimeDelta::zero())) {
        Err(_) => PropertyResult::Fail(format!("duration_round(0) panicked for {dt:?}")),
        Ok(Err(RoundingError::DurationExceedsLimit)) => PropertyResult::Pass,
        Ok(Ok(d)) if d == dt => PropertyResult::Pass,
        Ok(Ok(d)) => PropertyResult::Fail(format!("duration_round(0) returned {d:?} != {dt:?}")),
        Ok(Err(other)) => {
            PropertyResult::Fail(format!("duration_round(0) = Err({other:?}), expected DurationExceedsLimit"))
        }
    }
}

const LONG_WEEKDAY_NAMES: [(&str, Weekday); 7] = [
    ("Monday", Weekday::Mon),
    ("Tuesday", Weekday::Tue),
    ("Wednesday", Weekday::Wed),
    ("Thursday", Weekday::Thu),
    ("Friday", Weekday::Fri),
    ("Saturday", Weekday::Sat),
    ("Sunday", Weekday::Sun),
];

/// Parsing weekday name `idx % 7` with `%A` consumes it and gives that
/// weekday.
fn property_long_weekday_parses_full_name(idx: u8) -> PropertyResult {
    let (name, expected) = LONG_WEEKDAY_NAMES[(idx % 7) as usize];
    let mut parsed = Parsed::new();
    let items: Vec<Item> = StrftimeItems::new("%A").collect();
    match catch_unwind(AssertUnwindSafe(|| ::chrono::format::parse(&mut parsed, name, items.iter().cloned()))) {
        Err(_) => PropertyResult::Fail(format!("parse(%A, {name:?}) panicked")),
        Ok(Err(e)) => PropertyResult::Fail(format!("parse(%A, {name:?}) = Err({e:?})")),
        Ok(Ok(())) => match parsed.weekday() {
            Some(w) if w == expected => PropertyResult::Pass,
            other => PropertyResult::Fail(format!("parse(%A, {name:?}) gave weekday={other:?}, expected {expected:?}")),
        },
    }
}

fn from_num_days_from_ce_no_panic(tool: Tool, spec: RunSpec) -> Outcome {
    let p = property_from_num_days_from_ce_no_panic;
    match tool {
        Tool::Speccheck => harness::speccheck(spec, gens::any::<i32>(), p),
        Tool::Hegeltest => harness::hegeltest(spec, hg::any::<i32>, p),
        Tool::Proptest | Tool::Quickcheck => harness::peer(tool, spec, pt::any::<i32>(), p),
    }
}

fn parse_rfc3339_no_panic(tool: Tool, spec: RunSpec) -> Outcome {
    let p = property_parse_rfc3339_no_panic;
    match tool {
        Tool::Speccheck => harness::speccheck(spec, gens::any::<String>(), p),
        Tool::Hegeltest => harness::hegeltest(spec, hg::text, p),
        Tool::Proptest | Tool::Quickcheck => harness::peer(tool, spec, pt::any::<String>(), p),
    }
}

fn duration_round_zero_no_panic(tool: Tool, spec: RunSpec) -> Outcome {
    let p = property_duration_round_zero_no_panic;
    match tool {
        Tool::Speccheck => harness::speccheck(spec, gens::any::<i64>(), p),
        Tool::Hegeltest => harness::hegeltest(spec, hg::any::<i64>, p),
        Tool::Proptest | Tool::Quickcheck => harness::peer(tool, spec, pt::any::<i64>(), p),
    }
}

fn long_weekday_parses_full_name(tool: Tool, spec: RunSpec) -> Outcome {
    let p = property_long_weekday_parses_full_name;
    match tool {
        Tool::Speccheck => harness::speccheck(spec, gens::any::<u8>(), p),
        Tool::Hegeltest => harness::hegeltest(spec, hg::any::<u8>, p),
        Tool::Proptest | Tool::Quickcheck => harness::peer(tool, spec, pt::any::<u8>(), p),
    }
}
