//! Counterexample generalization (SmartCheck §5): from one reduced
//! counterexample to a class of them.
//!
//! * [`universal`] (§5.1): positions where *any* value fails (`∀`);
//! * [`existential`] (§5.2): positions where *every constructor* of the
//!   type has a failing value (`∃`).
//!
//! Both walk the positions breadth first and skip positions below one
//! already generalized; both re-draw a position with
//! [`CaseControl::splice`](speccheck_core::test_case::CaseControl::splice), so they work for
//! every generator that marks spans.

pub mod existential;
pub mod universal;

use speccheck_core::runner::CaseResult;

use crate::config::ReduceConfig;
use crate::oracle::{Oracle, Origin};
use crate::view::{Position, View};

pub use existential::Exists;
pub use universal::Forall;

/// The generalized positions of one counterexample.
#[derive(Clone, Debug, Default)]
pub struct Generalization {
    /// Positions where any value fails.
    pub forall: Vec<Forall>,
    /// Positions where every constructor has a failing value.
    pub exists: Vec<Exists>,
    /// Test runs spent.
    pub tests: u64,
}

impl Generalization {
    /// Span ordinals of every generalized position.
    pub fn holes(&self) -> Vec<usize> {
        self.forall.iter().map(|f| f.ordinal).chain(self.exists.iter().map(|e| e.ordinal)).collect()
    }

    /// Span ordinals of the `∀` positions.
    pub fn forall_holes(&self) -> Vec<usize> {
        self.forall.iter().map(|f| f.ordinal).collect()
    }

    /// True when nothing generalized.
    pub fn is_empty(&self) -> bool {
        self.forall.is_empty() && self.exists.is_empty()
    }
}

/// The positions generalization considers: every non-opaque sub-value of
/// the inputs, breadth first; an input itself only when there are several
/// (one input that fails whatever it is would make the property false for
/// every input).
pub fn generalization_positions(view: &View<'_>, max_depth: Option<usize>) -> Vec<Position> {
    let several = view.subjects().len() > 1;
    view.positions(max_depth)
        .into_iter()
        .filter(|p| p.level > 0 || several)
        .filter(|p| !view.span(p.ordinal).is_empty())
        .collect()
}

/// Runs universal, then existential generalization on `case`.
pub fn generalize(
    oracle: &mut Oracle<'_, '_>,
    case: &CaseResult,
    origin: &Origin,
    config: &ReduceConfig,
) -> Generalization {
    let before = oracle.tests();
    let view = View::new(&case.spans);
    let positions = generalization_positions(&view, config.max_depth);
    let forall =
        if config.forall { universal::universal(oracle, case, origin, &positions, config) } else { Vec::new() };
    let skip: Vec<usize> = forall.iter().map(|f| f.ordinal).collect();
    let exists = if config.exists {
        existential::existential(oracle, case, origin, &positions, &skip, config)
    } else {
        Vec::new()
    };
    Generalization { forall, exists, tests: oracle.tests() - before }
}
