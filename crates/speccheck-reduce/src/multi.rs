//! Precondition strengthening and multi-bug discovery (SmartCheck §5.3).
//!
//! Once a failure class is found, reduced and generalized, testing goes
//! on with an extra precondition: *the input matches no known shape*
//! ([`Shape::matches`]). A failing input that passes it is reduced and
//! generalized under the same precondition — the choice-sequence shrinker
//! included, which discards candidates of a known shape — so its
//! reduction cannot slide into a class already reported (two bugs with
//! the same symptom would otherwise shrink into whichever is simpler).
//! So one run reports every distinct class of failure it finds, up to
//! `max_classes`, within `multi_cases` generated inputs.
//!
//! Shapes are the paper's, and they include context: the same bug in
//! another field or list position is a new shape, and a search that only
//! compared shapes would spend its classes on variants of the first bug.
//! So a reduced new failure that contains a known class's [`Kernel`] is
//! counted as a *variant* of that class, not reported; its shape joins
//! the strengthened precondition, so the same variant is not reduced
//! twice.

use speccheck_core::runner::{CaseResult, FailureInfo};
use speccheck_core::{ChoiceSequence, Outcome};

use crate::config::ReduceConfig;
use crate::generalize::{Generalization, generalize};
use crate::oracle::{Oracle, Origin};
use crate::reduce::Stop;
use crate::shapes::{Kernel, Shape};

/// One class of failures.
#[derive(Clone, Debug)]
pub struct Class {
    /// Its reduced counterexample.
    pub case: CaseResult,
    /// How it fails.
    pub failure: FailureInfo,
    /// Its generalized positions.
    pub generalization: Generalization,
    /// Its shape.
    pub shape: Shape,
    /// Its shape with every generalized position (`∀` and `∃`) a hole: a
    /// reduced failure that holds an instance of it is the same bug.
    pub instance: Shape,
    /// Its context-free core, if it has one.
    pub kernel: Option<Kernel>,
    /// Constructors of the counterexample before reduction.
    pub found_size: usize,
}

impl Class {
    /// A class from its reduced, generalized counterexample.
    pub fn new(case: CaseResult, generalization: Generalization, found_size: usize) -> Option<Self> {
        let Outcome::Fail(failure) = case.outcome.clone() else { return None };
        // Only `∀` positions match anything. The paper lets `∃` positions
        // match anything too, "at the risk of omitting some" classes; that
        // risk is real (a statement position where every constructor can
        // hold the first bug hides a second bug in statements), so here an
        // `∃` position matches only its own shape.
        let origin = Origin::of(&failure);
        let forall = generalization.forall_holes();
        let kernel = Kernel::of(&case, &generalization.holes(), origin.clone());
        let instance = Shape::new(&case, generalization.holes(), origin.clone());
        let shape = Shape::new(&case, forall, origin);
        Some(Class { case, failure, generalization, shape, instance, kernel, found_size })
    }

    /// The replay string of its counterexample, tagged with its property.
    pub fn replay(&self, tag: speccheck_core::ReplayTag) -> String {
        self.case.choices.to_tagged_replay_string(tag)
    }

    /// Its choices.
    pub fn choices(&self) -> &ChoiceSequence {
        &self.case.choices
    }
}

/// What the search did.
#[derive(Clone, Debug, Default)]
pub struct Search {
    /// The classes found after the first.
    pub classes: Vec<Class>,
    /// Inputs generated.
    pub generated: u64,
    /// Of those, inputs that failed.
    pub failed: u64,
    /// Failing inputs with a known shape (rejected by the strengthened
    /// precondition).
    pub matched: u64,
    /// Failing inputs that turned out flaky.
    pub flaky: u64,
    /// New shapes that, once reduced, held a known class (its kernel or an
    /// instance of its formula): the same bug in another context.
    pub variants: u64,
}

/// Looks for failure classes other than `known`.
pub fn search(oracle: &mut Oracle<'_, '_>, known: &[Class], config: &ReduceConfig) -> Search {
    let mut out = Search::default();
    // Shapes of variants of known classes: matched like the classes' own.
    let mut variant_shapes: Vec<Shape> = Vec::new();
    let mut i = 0;
    while i < config.multi_cases
        && known.len() + out.classes.len() < config.max_classes
        && out.variants < config.max_variants
        && !oracle.exhausted()
    {
        let r = oracle.generate(i);
        i += 1;
        out.generated += 1;
        let Some(origin) = Origin::of_case(&r) else { continue };
        out.failed += 1;
        let shapes: Vec<Shape> =
            known.iter().chain(&out.classes).map(|k| k.shape.clone()).chain(variant_shapes.iter().cloned()).collect();
        if shapes.iter().any(|s| s.matches(&r)) {
            out.matched += 1;
            continue;
        }
        // Reduce and generalize under the strengthened precondition, so the
        // reduction cannot wander into a known class.
        let found_size = crate::view::inputs_size(&r.spans);
        oracle.avoid(shapes);
        let reduced = crate::reduce::reduce_and_shrink(oracle, r, &origin, config, false);
        if reduced.stop == Stop::Flaky {
            out.flaky += 1;
            oracle.avoid(Vec::new());
            continue;
        }
        let g = generalize(oracle, &reduced.case, &origin, config);
        oracle.avoid(Vec::new());
        let Some(class) = Class::new(reduced.case, g, found_size) else { continue };
        // The same bug, when the reduced failure holds a known class (its
        // kernel, or an instance of its formula, perhaps among extra
        // elements the strengthened precondition kept it from dropping).
        let same_bug = known.iter().chain(&out.classes).any(|k| {
            k.kernel.as_ref().is_some_and(|kernel| kernel.occurs_in(&class.case)) || k.instance.occurs_in(&class.case)
        });
        // Or the other way round: a class found earlier holds this one's
        // kernel (the same bug, first reduced in a context that hid its
        // core). The one with the context-free core is the better report.
        let holds_new_kernel = |k: &Class| class.kernel.as_ref().is_some_and(|kernel| kernel.occurs_in(&k.case));
        if same_bug || known.iter().any(holds_new_kernel) {
            out.variants += 1;
            variant_shapes.push(class.shape);
        } else if let Some(earlier) = out.classes.iter().position(holds_new_kernel) {
            out.variants += 1;
            let replaced = std::mem::replace(&mut out.classes[earlier], class);
            variant_shapes.push(replaced.shape);
        } else {
            out.classes.push(class);
        }
    }
    out
}
