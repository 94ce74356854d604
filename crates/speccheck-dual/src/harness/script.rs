//! Test inputs as choices: a script of [`Step`]s, each a J-expression to
//! send (or a pause), drawn from a speccheck [`TestCase`].
//!
//! Generation is adaptive — the heuristics look at the model's state and
//! the trace so far — but the *recording* is context-free: every step is
//! written into the test case's choices through a fixed grammar
//! ([`Grammar`]), whatever produced it. So:
//!
//! * in the generation phase the heuristic's step is encoded and *forced*
//!   into the choice sequence (and the step actually sent is the one the
//!   choices decode to, so recording is exact);
//! * in replay (shrinking, the failure database, `SPECCHECK_REPLAY`) the
//!   steps are decoded from the choices alone, without heuristics, and
//!   instantiated against the new execution's trace.
//!
//! Each step is one *slot* (a "more?" choice and the step's choices), so
//! the core shrinker deletes steps by deleting slots and simplifies
//! J-expressions by minimizing their choices — each candidate re-run
//! against a fresh execution (thesis §5.3).

use rand::rngs::SmallRng;
use serde_json::{Number, Value};
use speccheck_core::draw::many::{Many, ManyWriter};
use speccheck_core::test_case::{CaseControl as _, catch_invalid};
use speccheck_core::{Choice, ChoiceKind, EncodeError, Encoder, SpanKind, Tail, TestCase, TypeInfo};

use super::jexp::{JExp, JPath, PathStep};
use crate::model::Conn;

/// Longest string the grammar draws.
const MAX_STR: usize = 64;
/// Most elements of a drawn array or object.
const MAX_ITEMS: usize = 16;

/// One step of a test input.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Send the request that `body` evaluates to, on `conn`, labelled
    /// `label`.
    Send {
        /// The request's label (its response gets `label + 1`).
        label: u32,
        /// The connection.
        conn: Conn,
        /// The request, as a J-expression.
        body: JExp,
    },
    /// Let the system catch up: wait until a response arrives (or a short
    /// while passes) before the next step.
    Wait,
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Step::Send { label, conn, body } => write!(f, "[{label}] conn {conn} <- {body}"),
            Step::Wait => f.write_str("wait"),
        }
    }
}

fn json_info() -> TypeInfo {
    TypeInfo::of::<Value>(&["Null", "Bool", "Int", "Float", "Str", "Array", "Object"], false)
}
fn jexp_info() -> TypeInfo {
    TypeInfo::of::<JExp>(&["Lit", "Ref", "Array", "Object"], false)
}
fn step_info() -> TypeInfo {
    TypeInfo::of::<Step>(&["Send", "Wait"], false)
}
fn path_info() -> TypeInfo {
    TypeInfo::of::<PathStep>(&["Field", "Index"], false)
}
fn slot_info() -> TypeInfo {
    TypeInfo::of::<Step>(&[], false)
}

/// The context-free grammar of steps: how a step becomes choices and back.
#[derive(Clone, Copy, Debug)]
pub struct Grammar {
    /// Number of connections (a step's connection is an index below it).
    pub conns: usize,
    /// Number of protocol functions references may apply.
    pub funcs: usize,
}

fn draw_many<T>(tc: &mut TestCase, max: usize, mut f: impl FnMut(&mut TestCase) -> T) -> Vec<T> {
    let mut m = Many::new(tc, 0, max);
    let mut out = Vec::new();
    loop {
        tc.start_span(SpanKind::Slot, slot_info, "");
        if !m.more(tc) {
            tc.cancel_span(SpanKind::Slot);
            return out;
        }
        out.push(f(tc));
        tc.stop_span(SpanKind::Slot);
    }
}

fn write_many<T>(
    enc: &mut Encoder,
    items: &[T],
    max: usize,
    mut f: impl FnMut(&T, &mut Encoder) -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    let mut w = ManyWriter::new(items.len(), 0, max)?;
    for x in items {
        w.element(enc);
        f(x, enc)?;
    }
    w.finish(enc);
    Ok(())
}

fn draw_string(tc: &mut TestCase) -> String {
    draw_many(tc, MAX_STR, |tc| tc.draw_char()).into_iter().collect()
}

fn write_string(s: &str, enc: &mut Encoder) -> Result<(), EncodeError> {
    let chars: Vec<char> = s.chars().collect();
    write_many(enc, &chars, MAX_STR, |c, enc| {
        enc.write_char(*c);
        Ok(())
    })
}

impl Grammar {
    /// Draws a JSON value.
    pub fn draw_json(&self, tc: &mut TestCase) -> Value {
        tc.start_value(json_info);
        let ctor = tc.draw_constructor(7, 5);
        tc.set_constructor(ctor);
        let v = match ctor {
            0 => Value::Null,
            1 => Value::Bool(tc.draw_bool(0.5)),
            2 => Value::from(tc.draw_int::<i64>(i64::MIN, i64::MAX)),
            3 => Number::from_f64(f64::from_bits(tc.draw_int::<u64>(0, u64::MAX))).map_or(Value::Null, Value::Number),
            4 => Value::String(draw_string(tc)),
            5 => Value::Array(draw_many(tc, MAX_ITEMS, |tc| self.draw_json(tc))),
            _ => {
                let fields = draw_many(tc, MAX_ITEMS, |tc| (draw_string(tc), self.draw_json(tc)));
                Value::Object(fields.into_iter().collect())
            }
        };
        tc.stop_value();
        v
    }

    /// Writes the choices of [`draw_json`](Self::draw_json).
    pub fn write_json(&self, v: &Value, enc: &mut Encoder) -> Result<(), EncodeError> {
        match v {
            Value::Null => enc.write_constructor(0, 7),
            Value::Bool(b) => {
                enc.write_constructor(1, 7)?;
                enc.write_bool(*b, 0.5)
            }
            Value::Number(n) => match n.as_i64() {
                Some(i) => {
                    enc.write_constructor(2, 7)?;
                    enc.write_int(i, i64::MIN, i64::MAX)
                }
                None => {
                    enc.write_constructor(3, 7)?;
                    let f = n.as_f64().unwrap_or(0.0);
                    enc.write_int(f.to_bits(), 0, u64::MAX)
                }
            },
            Value::String(s) => {
                enc.write_constructor(4, 7)?;
                write_string(s, enc)
            }
            Value::Array(xs) => {
                enc.write_constructor(5, 7)?;
                write_many(enc, xs, MAX_ITEMS, |x, enc| self.write_json(x, enc))
            }
            Value::Object(m) => {
                enc.write_constructor(6, 7)?;
                let fields: Vec<(&String, &Value)> = m.iter().collect();
                write_many(enc, &fields, MAX_ITEMS, |(k, x), enc| {
                    write_string(k, enc)?;
                    self.write_json(x, enc)
                })
            }
        }
    }

    fn draw_path_step(&self, tc: &mut TestCase) -> PathStep {
        tc.start_value(path_info);
        let ctor = tc.draw_constructor(2, 2);
        tc.set_constructor(ctor);
        let s = match ctor {
            0 => PathStep::Field(draw_string(tc)),
            _ => PathStep::Index(tc.draw_int::<u32>(0, u32::MAX)),
        };
        tc.stop_value();
        s
    }

    fn write_path_step(&self, s: &PathStep, enc: &mut Encoder) -> Result<(), EncodeError> {
        match s {
            PathStep::Field(k) => {
                enc.write_constructor(0, 2)?;
                write_string(k, enc)
            }
            PathStep::Index(i) => {
                enc.write_constructor(1, 2)?;
                enc.write_int(*i, 0, u32::MAX)
            }
        }
    }

    /// Draws a J-expression.
    pub fn draw_jexp(&self, tc: &mut TestCase) -> JExp {
        tc.start_value(jexp_info);
        let ctor = tc.draw_constructor(4, 2);
        tc.set_constructor(ctor);
        let j = match ctor {
            0 => JExp::Lit(self.draw_json(tc)),
            1 => {
                let label = tc.draw_int::<u32>(0, u32::MAX);
                let path = JPath(draw_many(tc, MAX_ITEMS, |tc| self.draw_path_step(tc)));
                let func = tc.draw_index(self.funcs + 1) as u32;
                let default = self.draw_json(tc);
                JExp::Ref { label, path, func, default }
            }
            2 => JExp::Array(draw_many(tc, MAX_ITEMS, |tc| self.draw_jexp(tc))),
            _ => JExp::Object(draw_many(tc, MAX_ITEMS, |tc| (draw_string(tc), self.draw_jexp(tc)))),
        };
        tc.stop_value();
        j
    }

    /// Writes the choices of [`draw_jexp`](Self::draw_jexp).
    pub fn write_jexp(&self, j: &JExp, enc: &mut Encoder) -> Result<(), EncodeError> {
        match j {
            JExp::Lit(v) => {
                enc.write_constructor(0, 4)?;
                self.write_json(v, enc)
            }
            JExp::Ref { label, path, func, default } => {
                enc.write_constructor(1, 4)?;
                enc.write_int(*label, 0, u32::MAX)?;
                write_many(enc, &path.0, MAX_ITEMS, |s, enc| self.write_path_step(s, enc))?;
                enc.write_index(*func as usize, self.funcs + 1)?;
                self.write_json(default, enc)
            }
            JExp::Array(xs) => {
                enc.write_constructor(2, 4)?;
                write_many(enc, xs, MAX_ITEMS, |x, enc| self.write_jexp(x, enc))
            }
            JExp::Object(fields) => {
                enc.write_constructor(3, 4)?;
                write_many(enc, fields, MAX_ITEMS, |(k, x), enc| {
                    write_string(k, enc)?;
                    self.write_jexp(x, enc)
                })
            }
        }
    }

    /// Draws a step.
    pub fn draw_step(&self, tc: &mut TestCase) -> Step {
        tc.start_value(step_info);
        let ctor = tc.draw_constructor(2, 2);
        tc.set_constructor(ctor);
        let s = match ctor {
            0 => {
                let label = tc.draw_int::<u32>(0, u32::MAX);
                let conn = tc.draw_index(self.conns.max(1));
                Step::Send { label, conn, body: self.draw_jexp(tc) }
            }
            _ => Step::Wait,
        };
        tc.stop_value();
        s
    }

    /// Writes the choices of [`draw_step`](Self::draw_step).
    pub fn write_step(&self, s: &Step, enc: &mut Encoder) -> Result<(), EncodeError> {
        match s {
            Step::Send { label, conn, body } => {
                enc.write_constructor(0, 2)?;
                enc.write_int(*label, 0, u32::MAX)?;
                enc.write_index(*conn, self.conns.max(1))?;
                self.write_jexp(body, enc)
            }
            Step::Wait => enc.write_constructor(1, 2),
        }
    }

    /// The step the choices of `s` decode to (exactly `s` unless it holds
    /// something the grammar cannot represent, such as a connection out of
    /// range).
    pub fn round_trip(&self, s: &Step) -> Result<(Step, Vec<Choice>), EncodeError> {
        let mut enc = Encoder::new();
        self.write_step(s, &mut enc)?;
        let choices = enc.finish().0;
        let mut tc = TestCase::replay(choices.clone(), Tail::Stop);
        let decoded = catch_invalid(&mut tc, |tc| self.draw_step(tc))
            .map_err(|e| EncodeError::Other(format!("a recorded step does not decode: {e:?}")))?;
        Ok((decoded, choices))
    }
}

/// Draws a script step by step, recording heuristic steps as choices (see
/// the [module docs](self)).
#[derive(Debug)]
pub struct ScriptDrawer {
    grammar: Grammar,
    max: usize,
    target: usize,
    count: usize,
}

impl ScriptDrawer {
    /// Starts a script of at most `max` steps. When generating, its length
    /// is uniform in `1..=min(max, size)` (`size`: the test case's size).
    pub fn new(tc: &mut TestCase, grammar: Grammar, max: usize) -> Self {
        use rand::Rng;
        let target = tc.pre_sample(|rng, size| rng.random_range(1..=max.min(size.max(1)).max(1))).unwrap_or(0);
        ScriptDrawer { grammar, max, target, count: 0 }
    }

    /// Starts a script that will repeat `steps` when generating (the
    /// confirmation run of a failure found adaptively).
    pub fn repeating(grammar: Grammar, max: usize, steps: usize) -> Self {
        ScriptDrawer { grammar, max, target: steps.min(max), count: 0 }
    }

    /// Steps drawn so far.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The next step: `propose`d by the heuristics when generating, decoded
    /// from the choices when replaying; `None` at the end of the script.
    pub fn next(&mut self, tc: &mut TestCase, propose: impl FnOnce(&mut SmallRng) -> Step) -> Option<Step> {
        if self.count >= self.max {
            return None;
        }
        if !tc.is_sampling() && !tc.prefix_unused() {
            // A replayed script ends where its recording ended. A recording
            // stops drawing at the failure it ends with; a replay that
            // notices the same failure a poll later must not draw past it
            // (the end of a script is its simplest continuation anyway).
            return None;
        }
        tc.start_span(SpanKind::Slot, slot_info, "step");
        let more = if tc.is_sampling() {
            let go = self.count < self.target;
            tc.draw_raw(1, ChoiceKind::More, |_, _| u64::from(go), |_| 2) == 1
        } else {
            tc.draw_raw(1, ChoiceKind::More, |_, _| 0, |_| 2) == 1
        };
        if !more {
            tc.cancel_span(SpanKind::Slot);
            return None;
        }
        self.count += 1;
        let step = match tc.pre_sample(|rng, _| propose(rng)) {
            Some(proposed) => match self.grammar.round_trip(&proposed) {
                Ok((decoded, choices)) => {
                    force(tc, &choices);
                    decoded
                }
                Err(e) => panic!("a heuristic proposed a step the script grammar cannot record: {e} ({proposed})"),
            },
            None => self.grammar.draw_step(tc),
        };
        tc.stop_span(SpanKind::Slot);
        Some(step)
    }
}

/// Draws exactly `choices` (when the test case is sampling).
fn force(tc: &mut TestCase, choices: &[Choice]) {
    for c in choices {
        let v = tc.draw_raw(c.max, c.kind, |_, _| c.value, |_| c.max.saturating_add(1));
        debug_assert_eq!(v, c.value, "forced choices are drawn while sampling");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn grammar() -> Grammar {
        Grammar { conns: 3, funcs: 2 }
    }

    #[test]
    fn steps_round_trip_through_choices() {
        let s = Step::Send {
            label: 7,
            conn: 2,
            body: JExp::object([
                ("op", JExp::lit("put")),
                (
                    "tag",
                    JExp::Ref { label: 4, path: JPath::this().field("tag").index(1), func: 2, default: json!(null) },
                ),
                ("n", JExp::Array(vec![JExp::lit(-3), JExp::lit(2.5), JExp::lit(true)])),
            ]),
        };
        let (decoded, _) = grammar().round_trip(&s).unwrap();
        assert_eq!(decoded, s);
        assert_eq!(grammar().round_trip(&Step::Wait).unwrap().0, Step::Wait);
    }

    #[test]
    fn a_recorded_script_replays_from_its_choices_alone() {
        let proposals = [
            Step::Send { label: 1, conn: 0, body: JExp::lit(json!({"k": "a"})) },
            Step::Wait,
            Step::Send { label: 3, conn: 1, body: JExp::reference(2, JPath::this().field("tag"), "x") },
        ];
        let mut tc = TestCase::random(9, 50);
        let mut d = ScriptDrawer::repeating(grammar(), 10, proposals.len());
        let mut got = Vec::new();
        let mut i = 0;
        while let Some(s) = d.next(&mut tc, |_| proposals[i].clone()) {
            got.push(s);
            i += 1;
        }
        assert_eq!(got, proposals);
        let (choices, _) = tc.finish();
        // Replay: no heuristic is consulted.
        let mut tc = TestCase::replay(choices.0, Tail::Stop);
        let mut d = ScriptDrawer::new(&mut tc, grammar(), 10);
        let mut again = Vec::new();
        while let Some(s) = d.next(&mut tc, |_| unreachable!("replay decodes")) {
            again.push(s);
        }
        assert_eq!(again, proposals);
        assert!(!tc.prefix_unused());
    }

    #[test]
    fn a_recording_cut_short_by_a_failure_replays_to_its_end_not_past_it() {
        // The execution failed after two steps, before drawing the end of
        // the script; a replay that notices the failure later asks for a
        // third step: the script has ended, and the case is still valid.
        let mut tc = TestCase::random(3, 50);
        let mut d = ScriptDrawer::repeating(grammar(), 10, 5);
        for _ in 0..2 {
            d.next(&mut tc, |_| Step::Wait).expect("a step");
        }
        let (choices, _) = tc.finish();
        let mut tc = TestCase::replay(choices.0, Tail::Stop);
        let mut d = ScriptDrawer::new(&mut tc, grammar(), 10);
        assert_eq!(d.next(&mut tc, |_| unreachable!()), Some(Step::Wait));
        assert_eq!(d.next(&mut tc, |_| unreachable!()), Some(Step::Wait));
        assert_eq!(d.next(&mut tc, |_| unreachable!()), None);
        assert!(tc.invalid().is_none(), "{:?}", tc.invalid());
    }
}
