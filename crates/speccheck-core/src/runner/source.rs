//! Inputs from outside the property's generator: an SMT solver's models,
//! a pruning enumerator. Each input arrives as a value, is written back
//! into the generator's choices ([`Generator::encode`](crate::Generator::encode)),
//! and from then on is an ordinary case: it runs, shrinks, is explained,
//! replays and persists like any generated one.
//!
//! A source says at the end whether it produced *every* input its settings
//! cover (then the run says "all N valid inputs up to depth d tested") or
//! stopped short (then the run is incomplete, never a pass).

use crate::choice::ChoiceSequence;

/// What an input source does next.
#[derive(Clone, Debug)]
pub enum SourceStep<T> {
    /// One more input.
    Input(T),
    /// Every input the source covers was produced.
    Complete {
        /// What "every input" means, as in "all 12 *valid inputs up to
        /// depth 4* tested".
        what: String,
        /// The depth covered, when the source enumerates by depth.
        depth: Option<u32>,
    },
    /// The source stopped before covering everything (a solver timeout,
    /// a budget): the run is incomplete.
    Stopped {
        /// Why, for the report.
        reason: String,
    },
    /// The source cannot work at all (a missing solver, a spec it cannot
    /// read): the run is an error.
    Error(String),
    /// No input yet (a source working on another thread): the run checks
    /// its time budget and whether it was abandoned, and asks again. A
    /// source that may take long between inputs says this every few
    /// milliseconds instead of blocking, so that the run ends on time.
    Waiting,
}

/// A producer of inputs for a property (see the module docs).
pub trait InputSource<T>: Send {
    /// Names the source in reports ("the SMT solver (z3)").
    fn describe(&self) -> String;

    /// The next step.
    fn next_input(&mut self) -> SourceStep<T>;

    /// Called before each input of a *sampling* source
    /// ([`Property::sampled_inputs`](crate::Property::sampled_inputs)):
    /// the case's seed (from the run's, so a seed replays the run) and its
    /// size on the run's size ramp (`max_size`, `size_ramp`), which the
    /// source makes its input no larger than. Enumerating sources ignore it.
    fn prepare(&mut self, seed: u64, size: usize) {
        let _ = (seed, size);
    }

    /// Warnings to attach to the report (e.g. a fallback the source took).
    fn warnings(&self) -> Vec<String> {
        Vec::new()
    }

    /// How large the inputs it produced so far were ("sizes in
    /// constructors: 1 ×11, 4 ×89"), said when they top up random
    /// generation: an enumeration's inputs are its smallest ones.
    fn sizes(&self) -> Option<String> {
        None
    }

    /// True when every input it gives already satisfies the refinements
    /// of the types inside it, checked by the source itself: the
    /// generator then does not check them again as it rebuilds the input
    /// from its choices (see [`TestCase::refinements_prechecked`]). A
    /// rebuild that does not use exactly the input's choices is still an
    /// error of the run; one that uses them and yet makes another value
    /// (a generator whose `encode` and draw disagree) is caught only by a
    /// comparison with the checked input, which `#[property]`'s prologue
    /// for a refined argument makes (`ArgSpec::admit`). A source used
    /// without that prologue should say `false`.
    ///
    /// [`TestCase::refinements_prechecked`]: crate::TestCase::refinements_prechecked
    fn prechecked(&self) -> bool {
        false
    }
}

/// An input source whose values are already choices (what the engine runs).
pub(crate) type CaseSource = Box<dyn InputSource<ChoiceSequence>>;

/// Where a run's inputs come from besides the generator.
pub(crate) enum Sourced {
    /// Every input, instead of the generator.
    Instead(CaseSource),
    /// The inputs random generation did not supply because a filter
    /// rejected most of its values: made only when that happens.
    Fallback(Box<dyn FnOnce() -> CaseSource + Send>),
    /// Random inputs instead of the generator's, one per case, sized and
    /// seeded by the run: no coverage is claimed.
    Sampled(CaseSource),
}

/// Wraps a typed source so that it yields the generator's choices.
pub(crate) struct Encoded<G: crate::gens::Generator, S> {
    pub(crate) generator: std::sync::Arc<G>,
    pub(crate) source: S,
}

impl<G, S> InputSource<ChoiceSequence> for Encoded<G, S>
where
    G: crate::gens::Generator + Send + Sync,
    S: InputSource<G::Value>,
{
    fn describe(&self) -> String {
        self.source.describe()
    }

    fn next_input(&mut self) -> SourceStep<ChoiceSequence> {
        match self.source.next_input() {
            SourceStep::Input(v) => {
                let mut enc = crate::encode::Encoder::new();
                match self.generator.encode(&v, &mut enc) {
                    Ok(()) => SourceStep::Input(enc.finish()),
                    Err(e) => SourceStep::Error(format!(
                        "{} produced an input (a `{}`) that the property's generator cannot rebuild: {e}",
                        self.source.describe(),
                        std::any::type_name::<G::Value>()
                    )),
                }
            }
            SourceStep::Complete { what, depth } => SourceStep::Complete { what, depth },
            SourceStep::Stopped { reason } => SourceStep::Stopped { reason },
            SourceStep::Error(e) => SourceStep::Error(e),
            SourceStep::Waiting => SourceStep::Waiting,
        }
    }

    fn prepare(&mut self, seed: u64, size: usize) {
        self.source.prepare(seed, size);
    }

    fn warnings(&self) -> Vec<String> {
        self.source.warnings()
    }

    fn prechecked(&self) -> bool {
        self.source.prechecked()
    }

    fn sizes(&self) -> Option<String> {
        self.source.sizes()
    }
}
