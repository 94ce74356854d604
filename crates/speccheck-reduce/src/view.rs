//! SmartCheck's tree of sub-values (§3, the `SubTypes` class), read off a
//! test case's span tree.
//!
//! A node is a value span, or an opaque slot (a field declared opaque).
//! Transparent slots (collection elements, named arguments, custom
//! fields) and groups are looked through. Opaque nodes are leaves: nothing
//! below them is visited (§4.2.2). The *subjects* are the values being
//! explained: the property's arguments when the root is the argument tuple
//! `#[property]` builds, the root value otherwise.

use speccheck_core::{Span, SpanKind, SpanTree};

/// Constructors of the inputs of a case, as its report shows them (see
/// [`View::inputs_size`]).
pub fn inputs_size(tree: &SpanTree) -> usize {
    View::new(tree).inputs_size()
}

/// The one constructor name tuples carry.
const TUPLE: &[&str] = &["(..)"];

/// One position of the tree, in breadth-first order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// Pre-order index of the span (its ordinal for a splice).
    pub ordinal: usize,
    /// Index into [`View::subjects`] of the input it belongs to.
    pub subject: usize,
    /// Levels below the subject (0: the subject itself).
    pub level: usize,
}

/// The tree view of one test case. Its shape (each node's children, size
/// and least size) is worked out once, when the view is made: reduction
/// and generalization ask for it again and again.
#[derive(Clone, Debug)]
pub struct View<'a> {
    tree: &'a SpanTree,
    subjects: Vec<usize>,
    /// Tree-view children of span `i`: `kids[kid_start[i]..kid_start[i + 1]]`;
    /// the top-level nodes are `kids[kid_start[n]..]`.
    kid_start: Vec<usize>,
    kids: Vec<usize>,
    /// [`size_of`](Self::size_of) per span.
    sizes: Vec<usize>,
    /// [`min_size_of`](Self::min_size_of) per span.
    least: Vec<usize>,
}

impl<'a> View<'a> {
    /// The view of `tree`.
    pub fn new(tree: &'a SpanTree) -> Self {
        let n = tree.spans.len();
        let (kid_start, kids) = children_index(tree);
        let sizes = tree.constructor_counts();
        let mut v = View { tree, subjects: Vec::new(), kid_start, kids, sizes, least: vec![0; n] };
        for i in (0..n).rev() {
            v.least[i] = v.least_size(i);
        }
        v.subjects = v.find_subjects();
        v
    }

    /// The span tree.
    pub fn tree(&self) -> &'a SpanTree {
        self.tree
    }

    /// The span at `ordinal`.
    pub fn span(&self, ordinal: usize) -> &'a Span {
        &self.tree.spans[ordinal]
    }

    /// Tree-view children of node `i` (a value span or an opaque leaf; the
    /// top-level nodes for `None`): the nearest value spans and opaque
    /// slots below it, looking through slots and groups. A span that is
    /// not a node has none.
    pub fn children(&self, i: Option<usize>) -> &[usize] {
        let k = i.unwrap_or(self.tree.spans.len());
        &self.kids[self.kid_start[k]..self.kid_start[k + 1]]
    }

    /// True for a leaf that reduction and generalization leave alone.
    pub fn is_opaque(&self, i: usize) -> bool {
        self.tree.spans[i].is_opaque_leaf()
    }

    /// The inputs being explained.
    pub fn subjects(&self) -> &[usize] {
        &self.subjects
    }

    fn find_subjects(&self) -> Vec<usize> {
        let mut out = Vec::new();
        for &r in self.children(None) {
            if self.is_argument_tuple(r) {
                out.extend_from_slice(self.children(Some(r)));
            } else {
                out.push(r);
            }
        }
        out
    }

    /// True for the tuple of named argument slots that `#[property]` builds.
    pub fn is_argument_tuple(&self, i: usize) -> bool {
        let s = &self.tree.spans[i];
        if s.kind != SpanKind::Value || s.type_info().constructors != TUPLE {
            return false;
        }
        let mut kids = self.tree.children(Some(i)).peekable();
        kids.peek().is_some()
            && kids.all(|c| {
                let k = &self.tree.spans[c];
                k.kind == SpanKind::Slot && !k.name.is_empty()
            })
    }

    /// Constructors of the inputs being explained (what a report shows:
    /// the argument tuple `#[property]` builds is not counted).
    pub fn inputs_size(&self) -> usize {
        self.subjects.iter().map(|&s| self.sizes[s]).sum()
    }

    /// Constructors of the whole case (SmartCheck's size).
    pub fn size(&self) -> usize {
        self.tree.spans.iter().zip(&self.sizes).filter(|(s, _)| s.parent.is_none()).map(|(_, &c)| c).sum()
    }

    /// Constructors of the sub-value at `i` (see
    /// [`SpanTree::constructor_count`]).
    pub fn size_of(&self, i: usize) -> usize {
        self.sizes[i]
    }

    /// A lower bound on the constructors of any value that can stand at
    /// `i`. A type with one constructor (a derived struct, a tuple) always
    /// has the same fields, so its bound is one plus theirs — provided
    /// every choice of the value was made inside one of them: a choice made
    /// outside (a `one_of` index, a recursion's leaf-or-branch draw) could
    /// make a field something else. A type with several constructors, or
    /// with none known (a collection, a value from a hand-written
    /// generator), may be a single constructor; an opaque leaf counts
    /// nothing. Reduction spends no random tries where nothing smaller can
    /// exist (a `Stack { focus, up: [], down: [] }` is as small as a
    /// `Stack` gets).
    pub fn min_size_of(&self, i: usize) -> usize {
        self.least[i]
    }

    /// The one field of the sub-value at `i` that is larger than its type
    /// requires, when `i` has a single constructor, every choice of it was
    /// made inside its fields, and every other field is as small as its
    /// type allows: then every smaller value at `i` is that field made
    /// smaller (a `Screen` whose workspace holds `Some(stack)`, its other
    /// fields opaque, is smaller only with a smaller workspace). `None`
    /// otherwise.
    pub fn sole_reducible_field(&self, i: usize) -> Option<usize> {
        if !self.fields_make_it(i) {
            return None;
        }
        let mut larger = self.children(Some(i)).iter().filter(|&&c| self.sizes[c] > self.least[c]);
        let only = *larger.next()?;
        larger.next().is_none().then_some(only)
    }

    /// True when the sub-value at `i` has a single constructor and every
    /// choice it made was made inside one of its fields: its size is then
    /// one plus theirs, whatever they are.
    fn fields_make_it(&self, i: usize) -> bool {
        let s = &self.tree.spans[i];
        if s.is_opaque_leaf() || s.kind != SpanKind::Value || s.type_info().constructors.len() != 1 {
            return false;
        }
        let inside: usize = self.children(Some(i)).iter().map(|&c| self.tree.spans[c].len()).sum();
        inside == s.len()
    }

    /// [`min_size_of`](Self::min_size_of) from the children's (already
    /// worked out).
    fn least_size(&self, i: usize) -> usize {
        if self.tree.spans[i].is_opaque_leaf() {
            0
        } else if self.fields_make_it(i) {
            1 + self.children(Some(i)).iter().map(|&c| self.least[c]).sum::<usize>()
        } else {
            1
        }
    }

    /// Every non-opaque node of every subject, breadth first (SmartCheck's
    /// indices), down to `max_depth` levels below the subjects.
    pub fn positions(&self, max_depth: Option<usize>) -> Vec<Position> {
        let mut out: Vec<Position> = self
            .subjects
            .iter()
            .enumerate()
            .filter(|(_, s)| !self.is_opaque(**s))
            .map(|(k, &s)| Position { ordinal: s, subject: k, level: 0 })
            .collect();
        let mut k = 0;
        while k < out.len() {
            let p = out[k];
            if max_depth.is_none_or(|d| p.level < d) {
                for &c in self.children(Some(p.ordinal)) {
                    if !self.is_opaque(c) {
                        out.push(Position { ordinal: c, subject: p.subject, level: p.level + 1 });
                    }
                }
            }
            k += 1;
        }
        out
    }

    /// Number of constructors of the type of the value at `i`.
    pub fn constructor_names(&self, i: usize) -> &'static [&'static str] {
        self.tree.spans[i].type_info().constructors
    }

    /// True when `d` lies inside `a` (or is `a`).
    pub fn is_within(&self, d: usize, a: usize) -> bool {
        self.tree.is_within(d, a)
    }

    /// The tree-view path from subject `subject` down to `i`: the child
    /// indices taken at each step. `None` when `i` is not below it.
    pub fn path(&self, subject: usize, i: usize) -> Option<Vec<usize>> {
        let root = self.subjects[subject];
        let mut path = Vec::new();
        let mut cur = root;
        while cur != i {
            let kids = self.children(Some(cur));
            let k = kids.iter().position(|&c| self.is_within(i, c))?;
            path.push(k);
            cur = kids[k];
        }
        Some(path)
    }

    /// A readable name for the position of `i`: its input (named by
    /// `inputs` when given, one name per subject), then each step down (a
    /// field or argument name, `[k]` for a collection element, `.k` for the
    /// k-th field), then its type.
    pub fn label(&self, i: usize, inputs: Option<&[String]>) -> String {
        let Some(subject) = self.subjects.iter().position(|&s| self.is_within(i, s)) else {
            return self.tree.spans[i].type_info().name().to_string();
        };
        let root = self.subjects[subject];
        let given = inputs.filter(|n| n.len() == self.subjects.len()).map(|n| n[subject].clone());
        let mut out = given.or_else(|| self.step_name(root, None)).unwrap_or_else(|| format!("input{subject}"));
        let mut cur = root;
        for k in self.path(subject, i).unwrap_or_default() {
            let child = self.children(Some(cur))[k];
            match self.step_name(child, Some(cur)) {
                Some(name) => {
                    out.push('.');
                    out.push_str(&name);
                }
                None => out.push_str(&self.element_or_field(child, cur, k)),
            }
            cur = child;
        }
        format!("{out}: {}", self.tree.spans[i].type_info().name())
    }

    /// The name of the named slot holding `node` (below `above`), if any.
    fn step_name(&self, node: usize, above: Option<usize>) -> Option<String> {
        let mut cur = Some(node as u32);
        while let Some(c) = cur {
            if Some(c as usize) == above {
                return None;
            }
            let s = &self.tree.spans[c as usize];
            if s.kind == SpanKind::Slot && !s.name.is_empty() {
                return Some(s.name.to_string());
            }
            if c as usize != node && s.kind == SpanKind::Value {
                return None;
            }
            cur = s.parent;
        }
        None
    }

    fn element_or_field(&self, child: usize, parent: usize, k: usize) -> String {
        let slot = self.tree.spans[child].parent.map(|p| &self.tree.spans[p as usize]);
        match slot {
            Some(s) if s.is_element() && self.tree.spans[parent].type_info().constructors.is_empty() => {
                format!("[{k}]")
            }
            _ => format!(".{k}"),
        }
    }
}

/// The tree-view children of every span, as one list per parent laid out
/// one after another: node `i`'s are `kids[kid_start[i]..kid_start[i + 1]]`,
/// the top level's (parent `n`, the number of spans) come last. A node is a
/// value span or an opaque leaf; its parent in the view is the nearest node
/// above it, looking through slots and groups.
fn children_index(tree: &SpanTree) -> (Vec<usize>, Vec<usize>) {
    let n = tree.spans.len();
    let opaque: Vec<bool> = tree.spans.iter().map(Span::is_opaque_leaf).collect();
    let is_node = |i: usize| tree.spans[i].kind == SpanKind::Value || opaque[i];
    let view_parent = |i: usize| {
        let mut cur = tree.spans[i].parent;
        while let Some(c) = cur.map(|c| c as usize) {
            if is_node(c) {
                return c;
            }
            cur = tree.spans[c].parent;
        }
        n
    };
    let parents: Vec<Option<usize>> = (0..n).map(|i| is_node(i).then(|| view_parent(i))).collect();
    let mut kid_start = vec![0; n + 2];
    for &p in parents.iter().flatten() {
        kid_start[p + 1] += 1;
    }
    for i in 1..kid_start.len() {
        kid_start[i] += kid_start[i - 1];
    }
    let mut fill = kid_start.clone();
    let mut kids = vec![0; kid_start[n + 1]];
    for (i, p) in parents.iter().enumerate() {
        if let Some(p) = *p {
            kids[fill[p]] = i;
            fill[p] += 1;
        }
    }
    (kid_start, kids)
}
