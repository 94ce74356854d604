//! `represent`: values drawn one way, recorded another.
//!
//! Some values are best *generated* by a process (a heap built by a
//! program of inserts and merges, a state reached by calling an API) but
//! best *explained* as data (the heap's own tree). `represent(source,
//! structural)` samples from `source` and records the value as the choices
//! `structural` would make for it (through its encoder), so the shrinker
//! and the SmartCheck reducer work on the structure — and may reach values
//! `source` never makes, as SmartCheck's reduction of a heap may break the
//! heap order. Replay, persistence and printing are `structural`'s.

use crate::test_case::CaseControl as _;
use rand::RngCore;
use std::sync::{Arc, Mutex};

use super::Generator;
use crate::choice::Choice;
use crate::encode::{EncodeError, Encoder};
use crate::test_case::{TestCase, catch_invalid};

/// See [`represent`].
#[derive(Clone, Debug)]
pub struct Represent<S, G> {
    source: S,
    structural: G,
    /// The last value sampled, as choices: the runner draws a failing
    /// case twice from the same seed (the search, then the re-run that
    /// records it), and sampling is this generator's main cost. Shared by
    /// clones.
    last: Arc<Mutex<Option<Sampled>>>,
}

/// Choices of a value sampled from a seed at a size and depth.
#[derive(Debug)]
struct Sampled {
    key: (u64, usize, u32),
    choices: Vec<Choice>,
}

/// Values from `source`, recorded as the choices of `structural` (which
/// must be able to [`encode`](Generator::encode) them). When the test case
/// replays choices instead of sampling, `structural` reads them: a value
/// that was shrunk or spliced comes back as the structure it now is.
pub fn represent<S, G>(source: S, structural: G) -> Represent<S, G>
where
    G: Generator,
    S: Generator<Value = G::Value>,
{
    Represent { source, structural, last: Arc::default() }
}

impl<S, G> Generator for Represent<S, G>
where
    G: Generator,
    S: Generator<Value = G::Value>,
{
    type Value = G::Value;

    fn generate(&self, tc: &mut TestCase) -> G::Value {
        // One draw from the case's random source seeds the side case that
        // runs `source`, so a recorded re-run samples the same value.
        let Some(seed) = tc.pre_sample(|rng, _| rng.next_u64()) else {
            return self.structural.generate(tc);
        };
        let key = (seed, tc.size(), tc.max_depth());
        // Taken out, not borrowed: the structural generator may hold this
        // same generator (or another thread may sample meanwhile).
        let last = self.last.lock().ok().and_then(|mut l| l.take());
        let choices = match last {
            Some(s) if s.key == key => s.choices,
            _ => {
                let mut side = TestCase::random(seed, key.1).record_choices(false).with_max_depth(key.2);
                let value = match catch_invalid(&mut side, |side| self.source.generate(side)) {
                    Ok(v) => v,
                    Err(why) => tc.mark_invalid(why),
                };
                let mut enc = Encoder::new();
                if let Err(e) = self.structural.encode(&value, &mut enc) {
                    panic!("represent: the structural generator cannot record a value of its source: {e}");
                }
                enc.finish().0
            }
        };
        let value = tc.with_forced(&choices, |tc| self.structural.generate(tc));
        if let Ok(mut l) = self.last.lock() {
            *l = Some(Sampled { key, choices });
        }
        value
    }

    fn encode(&self, value: &G::Value, enc: &mut Encoder) -> Result<(), EncodeError> {
        self.structural.encode(value, enc)
    }
}
