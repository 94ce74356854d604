//! Encoding a value back into the choices that rebuild it.
//!
//! Values that did not come from random choices — decoded from an SMT
//! model, enumerated, built by calling an API, read from a file — still get
//! the same printing, shrinking, replay and persistence: their type writes
//! the choices its generator would have made, and from then on they are an
//! ordinary test case. Every typed draw on [`TestCase`](crate::TestCase)
//! has a `write_*` twin here.

use crate::choice::{Choice, ChoiceKind, ChoiceSequence};

/// Why a value could not be encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeError {
    /// The generator has no inverse (a `map` without one, a custom closure).
    Unsupported(&'static str),
    /// The value lies outside what the generator can produce.
    OutOfRange {
        /// The value, printed.
        value: String,
        /// The generator's range, printed.
        range: String,
    },
    /// Anything else.
    Other(String),
}

impl std::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EncodeError::Unsupported(what) => write!(f, "`{what}` cannot turn a value back into choices"),
            EncodeError::OutOfRange { value, range } => {
                write!(f, "value {value} is outside the generator's range {range}")
            }
            EncodeError::Other(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for EncodeError {}

/// Collects the choices that rebuild a value.
#[derive(Clone, Debug, Default)]
pub struct Encoder {
    choices: Vec<Choice>,
}

impl Encoder {
    /// An empty encoder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Writes one raw choice (the twin of
    /// [`TestCase::draw_raw`](crate::TestCase::draw_raw)).
    pub fn write_raw(&mut self, value: u64, max: u64, kind: ChoiceKind) {
        debug_assert!(value <= max);
        self.choices.push(Choice { value, max, kind });
    }

    /// The choices written so far.
    pub fn choices(&self) -> &[Choice] {
        &self.choices
    }

    /// The finished sequence.
    pub fn finish(self) -> ChoiceSequence {
        ChoiceSequence(self.choices)
    }
}
