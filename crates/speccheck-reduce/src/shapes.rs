//! Shapes of counterexamples and matching (SmartCheck §5.3, Figure 7,
//! `matchesShape`): two values have the same shape when their trees have
//! the same constructor at every node, ignoring opaque values; a
//! generalized position (`∀` or `∃`) matches anything below it. A
//! collection's shape includes its length (a list's spine is made of
//! constructors).
//!
//! A shape pins a failure to its *context*: the same bug reached through
//! another field or list position has another shape. A [`Kernel`] is the
//! context-free part of a class, where there is one: the single
//! constructor the formula keeps whose fields are all generalized (e.g.
//! `Mul(∀, ∀)` in `Lang { funcs: [Func { stmts: [Assign(_, Mul(∀, ∀))] }] }`).
//! The multi-bug search uses it to recognize the same bug in another
//! context once a new failure has been reduced.

use speccheck_core::SpanTree;
use speccheck_core::runner::CaseResult;

use crate::origin::Origin;
use crate::view::{Position, View};

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

    /// True when `case` fails the same way and holds an *instance* of this
    /// shape: some sub-value of each input (of the input's type) that has
    /// the shape once elements of its collections are dropped (a known
    /// failure with irrelevant extra elements, or in another context, is
    /// the same bug). Used with every generalized position as a hole.
    pub fn occurs_in(&self, case: &CaseResult) -> bool {
        if Origin::of_case(case).as_ref() != Some(&self.origin) {
            return false;
        }
        let (a, b) = (View::new(&case.spans), View::new(&self.tree));
        let positions = a.positions(None);
        a.subjects().len() == b.subjects().len()
            && a.subjects().iter().zip(b.subjects()).enumerate().all(|(k, (&x, &y))| {
                std::iter::once(x)
                    .chain(positions.iter().filter(|p| p.subject == k).map(|p| p.ordinal))
                    .any(|x| self.embeds(&a, x, &b, y))
            })
    }

    /// [`node`](Self::node), except that a collection (a value with no
    /// constructor names) matches when the shape's elements match a
    /// subsequence of its elements, in order.
    fn embeds(&self, a: &View<'_>, x: usize, b: &View<'_>, y: usize) -> bool {
        self.matches_at(a, x, b, y, true)
    }

    fn node(&self, a: &View<'_>, x: usize, b: &View<'_>, y: usize) -> bool {
        self.matches_at(a, x, b, y, false)
    }

    /// Does the value at `x` of `a` have the shape at `y` of `b`? Holes
    /// and opaque values match anything; otherwise same type, same
    /// constructor, and children matching one for one — or, with
    /// `subsequence`, a collection's elements may hold the shape's among
    /// others.
    fn matches_at(&self, a: &View<'_>, x: usize, b: &View<'_>, y: usize, subsequence: bool) -> bool {
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
        let child = |i: usize, j: usize| self.matches_at(a, i, b, j, subsequence);
        if subsequence && sb.type_info().constructors.is_empty() {
            // Greedy leftmost matching decides whether a subsequence fits.
            let mut rest = ka.iter();
            return kb.iter().all(|&j| rest.any(|&i| child(i, j)));
        }
        ka.len() == kb.len() && ka.iter().zip(kb).all(|(&i, &j)| child(i, j))
    }
}

/// The context-free core of a failure class (see the module docs): one
/// node of its reduced counterexample, with every field a generalized
/// position (`∀`, or `∃`: every constructor fails there) or opaque, at
/// least one generalized, and of a type with
/// several constructors (so the constructor is what the bug needs); and
/// every node above it is only context — of a one-constructor type, or
/// with nothing but opaque values beside the path down (in
/// `Or(Add(∀, ∀), ∀)` the `Or` matters, so `Add` is no kernel). A class
/// has a kernel only when exactly one node qualifies.
#[derive(Clone, Debug)]
pub struct Kernel {
    shape: Shape,
    at: usize,
}

impl Kernel {
    /// The kernel of `case` (failing with `origin`) with generalized
    /// positions `forall` (every hole: `∀` and `∃`), if it has one.
    pub fn of(case: &CaseResult, forall: &[usize], origin: Origin) -> Option<Kernel> {
        let view = View::new(&case.spans);
        let qualifies = |p: &Position| {
            let y = p.ordinal;
            let kids = view.children(Some(y));
            !forall.contains(&y)
                && view.constructor_names(y).len() >= 2
                && kids.iter().any(|k| forall.contains(k))
                && kids.iter().all(|&k| forall.contains(&k) || view.is_opaque(k))
                && only_context_above(&view, p)
        };
        let mut found = view.positions(None).into_iter().filter(qualifies).map(|p| p.ordinal);
        let at = found.next()?;
        if found.next().is_some() {
            return None;
        }
        Some(Kernel { shape: Shape::from_tree(case.spans.clone(), forall.to_vec(), origin), at })
    }

    /// True when `case` fails the same way and some sub-value of it has the
    /// kernel's shape.
    pub fn occurs_in(&self, case: &CaseResult) -> bool {
        if Origin::of_case(case).as_ref() != Some(&self.shape.origin) {
            return false;
        }
        let (a, b) = (View::new(&case.spans), View::new(&self.shape.tree));
        a.positions(None).iter().any(|p| self.shape.node(&a, p.ordinal, &b, self.at))
    }
}

/// True when every node above `p` is context for it: of a type with one
/// constructor, or with only opaque values beside the path to `p`.
fn only_context_above(view: &View<'_>, p: &Position) -> bool {
    let mut cur = view.subjects()[p.subject];
    for step in view.path(p.subject, p.ordinal).unwrap_or_default() {
        let kids = view.children(Some(cur));
        let beside_opaque = kids.iter().enumerate().all(|(k, &c)| k == step || view.is_opaque(c));
        if view.constructor_names(cur).len() >= 2 && !beside_opaque {
            return false;
        }
        cur = kids[step];
    }
    true
}
