//! A test case as data: where its choices come from and its settings, so
//! that the same case can be built in another process (isolated runs, see
//! `runner::isolate`) — one line of text each way.

use super::source::{Enumerate, Replay, Source, Splice, SpliceState};
use super::{CaseControl as _, Fresh, Tail, TestCase};
use crate::choice::{Choice, ChoiceSequence};

/// A test case as it is before its first draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseSpec {
    /// Where the choices come from.
    pub source: SourceSpec,
    /// Seed of the case's random source (random cases, random tails).
    pub seed: u64,
    /// The size parameter.
    pub size: usize,
    /// Nesting depth after which recursive types take leaves.
    pub max_depth: u32,
    /// Bound on the number of choices.
    pub max_choices: usize,
    /// A final replay (notes are kept).
    pub final_run: bool,
    /// Random draws take the integer mix the seed picks
    /// (`IntegerMix::PerCase`), not the fixed one.
    pub varied_mix: bool,
}

/// Where a case's choices come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SourceSpec {
    /// At random from the seed.
    Random,
    /// Replaying `prefix`, then `tail`; with one span drawn afresh.
    Replay {
        /// The recorded choices.
        prefix: Vec<Choice>,
        /// After them.
        tail: Tail,
        /// A span drawn afresh, if any.
        splice: Option<SpliceSpec>,
    },
    /// Exhaustive enumeration from an odometer prefix within a depth.
    Enumerate {
        /// The odometer's prefix.
        prefix: Vec<u64>,
        /// The depth budget.
        budget: u32,
    },
}

/// A span drawn afresh during a replay (see `CaseControl::splice`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpliceSpec {
    /// The span's pre-order index.
    pub ordinal: usize,
    /// Its nesting depth.
    pub depth: u16,
    /// Where the replay resumes.
    pub resume_at: usize,
    /// The fresh choices, then the fresh tail.
    pub prefix: Vec<Choice>,
    /// What follows the fresh choices.
    pub tail: Tail,
    /// Seed of the fresh random tail.
    pub seed: u64,
    /// Size inside the span.
    pub size: usize,
    /// Bound on the new sub-value's constructors.
    pub max_constructors: Option<usize>,
}

impl TestCase {
    /// This case as data, or `None` once it has drawn (or is forced, or
    /// has a splice under way): only a case that has not started can be
    /// rebuilt elsewhere. A case reading a fuzzer's input is never sent.
    pub fn spec(&self) -> Option<CaseSpec> {
        if !self.record.choices.is_empty() || !self.forced.is_empty() || self.nesting != 0 {
            return None;
        }
        let source = match &self.source {
            Source::Random => SourceSpec::Random,
            Source::Replay(r) => {
                if r.pos != 0 {
                    return None;
                }
                let splice = match &r.splice {
                    None => None,
                    Some(s) if s.state == SpliceState::Waiting => Some(SpliceSpec {
                        ordinal: s.ordinal,
                        depth: s.depth,
                        resume_at: s.resume_at,
                        prefix: s.fresh.prefix.clone(),
                        tail: s.fresh.tail,
                        seed: s.fresh.seed,
                        size: s.fresh.size,
                        max_constructors: s.max_constructors,
                    }),
                    Some(_) => return None,
                };
                SourceSpec::Replay { prefix: r.prefix.clone(), tail: r.tail, splice }
            }
            Source::Enumerate(e) => {
                if e.probe.is_some() || e.pos != 0 {
                    return None;
                }
                SourceSpec::Enumerate { prefix: e.prefix.clone(), budget: e.budget }
            }
            // A fuzzer's input is run where the fuzzer runs it.
            Source::Bytes(_) => return None,
        };
        Some(CaseSpec {
            source,
            seed: self.rng_seed,
            size: self.size,
            max_depth: self.max_depth,
            max_choices: self.max_choices,
            final_run: self.final_run,
            varied_mix: self.vary_mix,
        })
    }

    /// The case `spec` describes (recording its choices, not its spans).
    pub fn from_spec(spec: &CaseSpec) -> TestCase {
        let source = match &spec.source {
            SourceSpec::Random => Source::Random,
            SourceSpec::Replay { prefix, tail, splice } => {
                let mut r = Replay::new(prefix.clone(), *tail);
                r.splice = splice.as_ref().map(|s| {
                    Box::new(Splice {
                        ordinal: s.ordinal,
                        depth: s.depth,
                        resume_at: s.resume_at,
                        fresh: Fresh { prefix: s.prefix.clone(), tail: s.tail, seed: s.seed, size: s.size },
                        fresh_pos: 0,
                        max_constructors: s.max_constructors,
                        state: SpliceState::Waiting,
                        fresh_constructors: 0,
                        opaque_at: None,
                    })
                });
                Source::Replay(r)
            }
            SourceSpec::Enumerate { prefix, budget } => {
                Source::Enumerate(Box::new(Enumerate::odometer(prefix.clone(), *budget)))
            }
        };
        let splice = matches!(&spec.source, SourceSpec::Replay { splice: Some(_), .. });
        let mut tc = TestCase::blank(source, spec.seed, spec.size);
        tc.max_depth = spec.max_depth;
        tc.max_choices = spec.max_choices;
        tc.remaining = spec.max_choices;
        tc.final_run = spec.final_run;
        if spec.varied_mix {
            tc = tc.with_varied_mix(true);
        }
        // A splice finds its span by the spans it counts.
        tc.record.keep_spans = splice;
        tc.refresh();
        tc
    }
}

impl CaseSpec {
    /// The spec as one line of text.
    pub fn to_line(&self) -> String {
        let mut out = format!(
            "seed={} size={} depth={} choices={} final={} mix={}",
            self.seed,
            self.size,
            self.max_depth,
            self.max_choices,
            u8::from(self.final_run),
            u8::from(self.varied_mix)
        );
        match &self.source {
            SourceSpec::Random => out.push_str(" random"),
            SourceSpec::Replay { prefix, tail, splice } => {
                out.push_str(&format!(" replay tail={} prefix={}", tail_code(*tail), choices(prefix)));
                if let Some(s) = splice {
                    out.push_str(&format!(
                        " splice ordinal={} sdepth={} resume={} ftail={} fseed={} fsize={} fmax={} fprefix={}",
                        s.ordinal,
                        s.depth,
                        s.resume_at,
                        tail_code(s.tail),
                        s.seed,
                        s.size,
                        s.max_constructors.map_or(-1, |m| m as i64),
                        choices(&s.prefix)
                    ));
                }
            }
            SourceSpec::Enumerate { prefix, budget } => {
                let values: Vec<String> = prefix.iter().map(u64::to_string).collect();
                out.push_str(&format!(" enumerate budget={budget} prefix={}", values.join(",")));
            }
        }
        out
    }

    /// Reads [`to_line`](Self::to_line)'s output.
    pub fn parse(line: &str) -> Result<CaseSpec, String> {
        let mut kv = std::collections::HashMap::new();
        let mut kind = None;
        let mut spliced = false;
        for token in line.split_whitespace() {
            match token.split_once('=') {
                Some((k, v)) => {
                    kv.insert(k, v);
                }
                None if token == "splice" => spliced = true,
                None => kind = Some(token),
            }
        }
        let num = |k: &str| -> Result<u64, String> {
            kv.get(k).ok_or(format!("missing {k}"))?.parse::<u64>().map_err(|e| format!("{k}: {e}"))
        };
        let seq = |k: &str| -> Result<Vec<Choice>, String> {
            let v = kv.get(k).ok_or(format!("missing {k}"))?;
            if *v == "-" {
                return Ok(Vec::new());
            }
            ChoiceSequence::from_replay_string(v).map(|s| s.0).map_err(|e| e.to_string())
        };
        let tail = |k: &str| -> Result<Tail, String> { tail_from(kv.get(k).copied().unwrap_or("")) };
        let source = match kind {
            Some("random") => SourceSpec::Random,
            Some("replay") => {
                let splice = if spliced {
                    let max = kv.get("fmax").ok_or("missing fmax")?.parse::<i64>().map_err(|e| e.to_string())?;
                    Some(SpliceSpec {
                        ordinal: num("ordinal")? as usize,
                        depth: num("sdepth")? as u16,
                        resume_at: num("resume")? as usize,
                        prefix: seq("fprefix")?,
                        tail: tail("ftail")?,
                        seed: num("fseed")?,
                        size: num("fsize")? as usize,
                        max_constructors: (max >= 0).then_some(max as usize),
                    })
                } else {
                    None
                };
                SourceSpec::Replay { prefix: seq("prefix")?, tail: tail("tail")?, splice }
            }
            Some("enumerate") => {
                let text = kv.get("prefix").copied().unwrap_or("");
                let prefix = if text.is_empty() {
                    Vec::new()
                } else {
                    text.split(',').map(|v| v.parse::<u64>().map_err(|e| e.to_string())).collect::<Result<_, _>>()?
                };
                SourceSpec::Enumerate { prefix, budget: num("budget")? as u32 }
            }
            other => return Err(format!("unknown case source {other:?}")),
        };
        Ok(CaseSpec {
            source,
            seed: num("seed")?,
            size: num("size")? as usize,
            max_depth: num("depth")? as u32,
            max_choices: num("choices")? as usize,
            final_run: num("final")? == 1,
            // Absent from lines written before mixes varied: the fixed mix.
            varied_mix: kv.get("mix").is_some_and(|v| *v == "1"),
        })
    }
}

fn choices(cs: &[Choice]) -> String {
    if cs.is_empty() { "-".to_string() } else { ChoiceSequence(cs.to_vec()).to_replay_string() }
}

fn tail_code(t: Tail) -> &'static str {
    match t {
        Tail::Simplest => "simplest",
        Tail::Random => "random",
        Tail::Stop => "stop",
    }
}

fn tail_from(s: &str) -> Result<Tail, String> {
    match s {
        "simplest" => Ok(Tail::Simplest),
        "random" => Ok(Tail::Random),
        "stop" => Ok(Tail::Stop),
        other => Err(format!("unknown tail {other:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gens::{self, Generator};

    fn value(tc: &mut TestCase) -> (Vec<u16>, Option<bool>) {
        gens::any::<(Vec<u16>, Option<bool>)>().generate(tc)
    }

    #[test]
    fn a_case_rebuilt_from_its_spec_draws_the_same_value() {
        for seed in 0..50u64 {
            // Every other case with the mix its seed picks.
            let random = TestCase::random(seed, 30).with_max_depth(7).with_varied_mix(seed % 2 == 1);
            let spec = random.spec().expect("a fresh case has a spec");
            let back = CaseSpec::parse(&spec.to_line()).expect("parses");
            assert_eq!(back, spec);
            let (mut a, mut b) = (random, TestCase::from_spec(&back));
            assert_eq!(value(&mut a), value(&mut b), "seed {seed}");
        }
        // A splice of a recorded case.
        let mut tc = TestCase::random(9, 30).with_spans(true);
        let _ = value(&mut tc);
        let (choices, spans) = tc.finish();
        let span = spans.spans[2];
        let splice = TestCase::splice(choices.0.clone(), 2, &span, Fresh::random(4, 10), None);
        let spec = splice.spec().expect("a waiting splice has a spec");
        let back = CaseSpec::parse(&spec.to_line()).expect("parses");
        assert_eq!(back, spec);
        let mut again = TestCase::splice(choices.0, 2, &span, Fresh::random(4, 10), None);
        assert_eq!(value(&mut again), value(&mut TestCase::from_spec(&back)));
    }
}
