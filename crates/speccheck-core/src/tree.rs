//! The tree view of a value (SmartCheck's `SubTypes` class).
//!
//! The derive gives every type a [`TreeView`]: its constructor, all the
//! constructors of its type, its children, a way to replace a child, its
//! size in constructors, whether it is opaque, and its [`Term`]. The span
//! tree ([`crate::SpanTree`]) gives the same view of *any* generated value;
//! this one works on values directly, wherever they came from.

use std::any::Any;

use crate::term::Term;

/// A value seen as a tree of sub-values.
#[diagnostic::on_unimplemented(
    message = "speccheck cannot show `{Self}` as a tree of sub-values: it does not implement `TreeView`",
    label = "no tree view for `{Self}`",
    note = "`#[derive(Arbitrary)]` gives a type both `Arbitrary` and `TreeView`; a field that should stay a leaf is marked `#[speccheck(opaque)]`"
)]
pub trait TreeView: Any {
    /// The constructor that built this value (`""` for opaque values).
    fn constructor(&self) -> &'static str;

    /// Every constructor of the value's type.
    fn constructors(&self) -> &'static [&'static str];

    /// Opaque values are leaves: reduction and generalization do not look
    /// inside them (primitives by default).
    fn is_opaque(&self) -> bool {
        false
    }

    /// The direct sub-values, in order.
    fn children(&self) -> Vec<&dyn TreeView>;

    /// Replaces child `index` by `value`, which must have the child's type;
    /// gives the value back when it does not fit.
    fn replace_child(&mut self, index: usize, value: Box<dyn Any>) -> Result<(), Box<dyn Any>>;

    /// The value as syntax.
    fn to_term(&self) -> Term;

    /// The value as `Any` (to downcast a child).
    fn as_any(&self) -> &dyn Any;

    /// The value as a tree view (for code that holds it by its type).
    fn as_tree(&self) -> &dyn TreeView
    where
        Self: Sized,
    {
        self
    }

    /// Size in constructors: opaque values count 0, others 1 plus their
    /// children's sizes.
    fn size(&self) -> usize {
        if self.is_opaque() { 0 } else { 1 + self.children().iter().map(|c| c.size()).sum::<usize>() }
    }
}

/// Sub-values of `root` in breadth-first order (SmartCheck's indices):
/// index 0 is the root itself.
pub fn breadth_first(root: &dyn TreeView) -> Vec<&dyn TreeView> {
    let mut out = vec![root];
    let mut k = 0;
    while k < out.len() {
        let kids = out[k].children();
        out.extend(kids);
        k += 1;
    }
    out
}
