//! Shapes of counterexamples and matching (SmartCheck §5.3, Figure 7,
//! `matchesShape`): two values have the same shape when their trees have
//! the same constructor at every node, ignoring opaque values; a
//! generalized position (`∀` or `∃`) matches anything below it. A
//! collection's shape includes its length (a list's spine is made of
//! constructors).

use speccheck_core::SpanTree;
use speccheck_core::runner::CaseResult;

use crate::oracle::Origin;
use crate::view::View;

/// The shape of one failure class: its reduced counterexample, the
/// positions generalized in it, and where it fails.
#[derive(Clone, Debug)]
pub struct Shape {
    tree: SpanTree,
    holes: Vec<usize>,
    origin: Origin,
}

impl Shape {
    /// The shape of `case` (which fails with `origin`) with `holes`
    /// (span ordinals) generalized.
    pub fn new(case: &CaseResult, holes: Vec<usize>, origin: Origin) -> Self {
        Self::from_tree(case.spans.clone(), holes, origin)
    }

    /// The shape of the value whose span tree is `tree`.
    pub fn from_tree(tree: SpanTree, holes: Vec<usize>, origin: Origin) -> Self {
        Shape { tree, holes, origin }
    }

    /// True when `case` fails the same way and has this shape.
    pub fn matches(&self, case: &CaseResult) -> bool {
        Origin::of_case(case).as_ref() == Some(&self.origin) && self.matches_tree(&case.spans)
    }

    /// True when the value of `tree` has this shape (whatever its outcome).
    pub fn matches_tree(&self, tree: &SpanTree) -> bool {
        let (a, b) = (View::new(tree), View::new(&self.tree));
        a.subjects().len() == b.subjects().len()
            && a.subjects().iter().zip(b.subjects()).all(|(&x, &y)| self.node(&a, x, &b, y))
    }

    fn node(&self, a: &View<'_>, x: usize, b: &View<'_>, y: usize) -> bool {
        if self.holes.contains(&y) {
            return true;
        }
        let (sa, sb) = (a.span(x), b.span(y));
        if sa.type_info().type_id != sb.type_info().type_id {
            return false;
        }
        if a.is_opaque(x) || b.is_opaque(y) {
            return true;
        }
        if sa.ctor != sb.ctor {
            return false;
        }
        let (ka, kb) = (a.children(Some(x)), b.children(Some(y)));
        ka.len() == kb.len() && ka.iter().zip(&kb).all(|(&i, &j)| self.node(a, i, b, j))
    }
}
