//! Spans: which choices built which sub-value.
//!
//! A generator marks the choices that built one sub-value as a *span*,
//! labelled with the sub-value's type and constructor. The spans of a test
//! case form a tree, and that tree is SmartCheck's tree of sub-values
//! (its `SubTypes` class): every reduction and generalization pass works on
//! it, so they work for every generator that marks spans, derived or
//! hand-written.

use std::any::TypeId;
use std::ops::Range;

/// Static facts about a type, as the tree view needs them.
#[derive(Clone, Copy, Debug)]
pub struct TypeInfo {
    /// Identity of the type (for "same type" tests).
    pub type_id: TypeId,
    /// The full type name (`alloc::vec::Vec<i32>`); see
    /// [`name`](Self::name) for the readable one.
    pub full_name: &'static str,
    /// Every constructor name of the type, in declaration order; empty for
    /// primitives.
    pub constructors: &'static [&'static str],
    /// Opaque types are leaves for reduction (SmartCheck §4.2.2): primitives
    /// by default, or declared so by the user.
    pub opaque: bool,
}

impl TypeInfo {
    /// Info for a type with the given constructors.
    pub fn of<T: 'static>(constructors: &'static [&'static str], opaque: bool) -> Self {
        TypeInfo { type_id: TypeId::of::<T>(), full_name: std::any::type_name::<T>(), constructors, opaque }
    }

    /// Short, readable name (`Expr`, `Vec<i32>`). Computed on demand:
    /// type infos are built on hot paths, names only for printing.
    pub fn name(&self) -> &'static str {
        short_type_name(self.full_name)
    }

    /// Info for an opaque primitive type.
    pub fn primitive<T: 'static>() -> Self {
        Self::of::<T>(&[], true)
    }
}

/// Turns `alloc::vec::Vec<core::option::Option<i32>>` into
/// `Vec<Option<i32>>`, leaking only when paths had to be stripped (once per
/// type, through a small cache).
pub fn short_type_name(full: &'static str) -> &'static str {
    if !full.contains("::") {
        return full;
    }
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<HashMap<&'static str, &'static str>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = cache.get(full) {
        return s;
    }
    let mut out = String::with_capacity(full.len());
    let mut ident = String::new();
    for ch in full.chars() {
        if ch.is_alphanumeric() || ch == '_' || ch == ':' {
            ident.push(ch);
        } else {
            out.push_str(ident.rsplit("::").next().unwrap_or(""));
            ident.clear();
            out.push(ch);
        }
    }
    out.push_str(ident.rsplit("::").next().unwrap_or(""));
    let leaked: &'static str = Box::leak(out.into_boxed_str());
    cache.insert(full, leaked);
    leaked
}

/// What a span stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpanKind {
    /// A whole value of a type: a node of the tree view.
    Value,
    /// A position holding one value (a collection element together with the
    /// choice that said "one more", a named argument, a field drawn by a
    /// custom generator). Deleting a slot deletes the element cleanly.
    Slot,
    /// Any other grouping a generator wanted to mark.
    Group,
}

/// One marked range of choices.
#[derive(Clone, Copy, Debug)]
pub struct Span {
    /// First choice of the span.
    pub start: u32,
    /// One past the last choice.
    pub end: u32,
    /// Index of the enclosing span in [`SpanTree::spans`], if any.
    pub parent: Option<u32>,
    /// Nesting depth (0 for top-level spans).
    pub depth: u16,
    /// What the span stands for.
    pub kind: SpanKind,
    /// The constructor that was chosen, as an index into
    /// `info().constructors` (0 when the type has none).
    pub ctor: u16,
    /// The type of the value (for `Value` spans), or of the slot's content.
    pub info: fn() -> TypeInfo,
    /// Field, argument or group name, when there is one.
    pub name: &'static str,
}

impl Span {
    /// The choices this span covers.
    pub fn range(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// Number of choices covered.
    pub fn len(&self) -> usize {
        (self.end - self.start) as usize
    }

    /// True when the span covers no choice.
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }

    /// Static facts about the span's type.
    pub fn type_info(&self) -> TypeInfo {
        (self.info)()
    }

    /// The chosen constructor's name, if the type has constructors.
    pub fn constructor(&self) -> Option<&'static str> {
        self.type_info().constructors.get(self.ctor as usize).copied()
    }

    /// True for one element of a collection: the unnamed slot holding the
    /// element and its "more" choice.
    pub fn is_element(&self) -> bool {
        self.kind == SpanKind::Slot && self.name.is_empty() && !self.type_info().opaque
    }

    /// True for a leaf of the tree view: an opaque value (a primitive, a
    /// type declared opaque) or an opaque slot (a field declared
    /// `#[speccheck(opaque)]`). Reduction and generalization do not look
    /// inside it.
    pub fn is_opaque_leaf(&self) -> bool {
        matches!(self.kind, SpanKind::Value | SpanKind::Slot) && self.type_info().opaque
    }
}

/// [`SpanTree::own_constructors`] of span `i` of `spans` (which need only
/// hold `i` and its ancestors: a span being recorded can be counted as it
/// opens).
pub(crate) fn own_constructors(spans: &[Span], i: usize) -> usize {
    let s = &spans[i];
    match s.kind {
        SpanKind::Value if s.name == RECURSIVE_SPAN => 0,
        SpanKind::Value => {
            let mapped = s.parent.is_some_and(|p| {
                let p = &spans[p as usize];
                p.kind == SpanKind::Group && p.name == MAP_SPAN
            });
            usize::from(!mapped)
        }
        SpanKind::Group => usize::from(s.name == MAP_SPAN),
        SpanKind::Slot => usize::from(s.is_element()),
    }
}

/// Name of the value span `gens::recursive` opens at each level: it marks
/// where a value of the recursive type starts (so shrinking can promote a
/// sub-value into its parent's place), but is not a constructor itself —
/// the value inside it is.
pub const RECURSIVE_SPAN: &str = "recursive";

/// Name of the group span `map` opens: it stands for the one constructor
/// of the mapped value (`(a, b).map(Pair)` is one `Pair`), and the value it
/// maps (the tuple) is not counted.
pub const MAP_SPAN: &str = "map";

/// Constructors of the recursive levels `gens::recursive` marks: a leaf or
/// one more expansion.
pub const RECURSIVE_CONSTRUCTORS: &[&str] = &["leaf", "expand"];

/// No type: for group spans.
pub fn no_type() -> TypeInfo {
    TypeInfo::of::<()>(&[], true)
}

/// All spans of one test case, in the order they were opened (pre-order).
#[derive(Clone, Debug, Default)]
pub struct SpanTree {
    /// The spans, parents before children.
    pub spans: Vec<Span>,
}

impl SpanTree {
    /// Number of spans.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// True when nothing was marked.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Direct children of span `i` (or the top-level spans for `None`).
    pub fn children(&self, i: Option<usize>) -> impl Iterator<Item = usize> + '_ {
        let parent = i.map(|p| p as u32);
        let from = i.map_or(0, |p| p + 1);
        self.spans[from..]
            .iter()
            .enumerate()
            .take_while(move |(_, s)| match i {
                // Descendants of `p` are contiguous after it.
                Some(p) => {
                    s.start >= self.spans[p].start && s.end <= self.spans[p].end && s.depth > self.spans[p].depth
                }
                None => true,
            })
            .filter(move |(_, s)| s.parent == parent)
            .map(move |(k, _)| from + k)
    }

    /// The tree-view children of span `i`: the nearest `Value` spans below
    /// it, looking through slots and groups.
    pub fn value_children(&self, i: Option<usize>) -> Vec<usize> {
        let mut out = Vec::new();
        for c in self.children(i) {
            if self.spans[c].kind == SpanKind::Value {
                out.push(c);
            } else {
                out.extend(self.value_children(Some(c)));
            }
        }
        out
    }

    /// Top-level value spans (the roots of the tree view).
    pub fn roots(&self) -> Vec<usize> {
        self.value_children(None)
    }

    /// True when span `d` lies inside span `a` (or is `a`).
    pub fn is_within(&self, d: usize, a: usize) -> bool {
        let mut cur = Some(d as u32);
        while let Some(c) = cur {
            if c as usize == a {
                return true;
            }
            cur = self.spans[c as usize].parent;
        }
        false
    }

    /// Size of span `i` in constructors, as SmartCheck counts size: the
    /// non-opaque value spans within it (itself included) plus one per
    /// collection element (a list's cons cells: `vec![a, b]` is three
    /// constructors, like `a : b : []`). Opaque values and opaque slots are
    /// leaves: nothing inside them counts (SmartCheck §4.2.2).
    pub fn constructor_count(&self, i: usize) -> usize {
        if self.spans[i].is_opaque_leaf() {
            return 0;
        }
        let end = self.subtree_end(i);
        let mut count = 0;
        let mut k = i;
        while k < end {
            let s = &self.spans[k];
            if k != i && s.is_opaque_leaf() {
                k = self.subtree_end(k);
                continue;
            }
            count += self.own_constructors(k);
            k += 1;
        }
        count
    }

    /// The constructors span `i` stands for by itself: 1 for a value or a
    /// collection element, 0 for other spans, with hand-written
    /// generators' markers: a `map` stands for its value's one constructor
    /// and the value it maps counts nothing; a `recursive` level counts
    /// nothing (its value does).
    fn own_constructors(&self, i: usize) -> usize {
        own_constructors(&self.spans, i)
    }

    /// [`constructor_count`](Self::constructor_count) of every span, in one
    /// pass (children follow their parents in pre-order, so counting from
    /// the last span up adds each one to its parent once it is complete).
    pub fn constructor_counts(&self) -> Vec<usize> {
        let mut counts = vec![0; self.spans.len()];
        for (i, s) in self.spans.iter().enumerate().rev() {
            if s.is_opaque_leaf() {
                counts[i] = 0;
            } else {
                counts[i] += self.own_constructors(i);
            }
            if let Some(p) = s.parent {
                counts[p as usize] += counts[i];
            }
        }
        counts
    }

    /// Size of the whole test case in constructors: the sum of
    /// [`constructor_count`](Self::constructor_count) over the top-level
    /// spans.
    pub fn total_constructors(&self) -> usize {
        let mut total = 0;
        let mut k = 0;
        while k < self.spans.len() {
            total += self.constructor_count(k);
            k = self.subtree_end(k);
        }
        total
    }

    /// One past the last descendant of span `i` (descendants are contiguous
    /// after it, in pre-order).
    pub fn subtree_end(&self, i: usize) -> usize {
        let root = &self.spans[i];
        i + 1
            + self.spans[i + 1..]
                .iter()
                .take_while(|s| s.start >= root.start && s.end <= root.end && s.depth > root.depth)
                .count()
    }

    /// Breadth-first order of the value spans (SmartCheck's indices).
    pub fn breadth_first(&self) -> Vec<usize> {
        let mut out = self.roots();
        let mut k = 0;
        while k < out.len() {
            let kids = self.value_children(Some(out[k]));
            out.extend(kids);
            k += 1;
        }
        out
    }
}

/// Info for a slot holding a `T` (a field drawn by a custom generator).
pub fn slot_type_info<T: 'static>() -> TypeInfo {
    TypeInfo::of::<T>(&[], false)
}

/// Info for a slot holding a `T` declared opaque (a leaf for reduction).
pub fn opaque_type_info<T: 'static>() -> TypeInfo {
    TypeInfo::of::<T>(&[], true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(start: u32, end: u32, parent: Option<u32>, depth: u16, kind: SpanKind, info: fn() -> TypeInfo) -> Span {
        Span { start, end, parent, depth, kind, ctor: 0, info, name: "" }
    }

    fn vec_info() -> TypeInfo {
        TypeInfo::of::<Vec<i16>>(&[], false)
    }

    fn elem_info() -> TypeInfo {
        TypeInfo::of::<i16>(&[], false)
    }

    #[test]
    fn constructors_count_list_cells_and_skip_opaque_leaves() {
        // vec![a, b] followed by an opaque slot holding a vector.
        let spans = vec![
            span(0, 5, None, 0, SpanKind::Value, vec_info),
            span(0, 2, Some(0), 1, SpanKind::Slot, elem_info),
            span(1, 2, Some(1), 2, SpanKind::Value, TypeInfo::primitive::<i16>),
            span(2, 4, Some(0), 1, SpanKind::Slot, elem_info),
            span(3, 4, Some(3), 2, SpanKind::Value, TypeInfo::primitive::<i16>),
            span(5, 8, None, 0, SpanKind::Slot, opaque_type_info::<Vec<i16>>),
            span(5, 8, Some(5), 1, SpanKind::Value, vec_info),
            span(5, 7, Some(6), 2, SpanKind::Slot, elem_info),
        ];
        let tree = SpanTree { spans };
        assert_eq!(tree.constructor_count(0), 3);
        assert_eq!(tree.constructor_count(2), 0);
        assert_eq!(tree.constructor_count(5), 0, "nothing inside an opaque slot counts");
        assert_eq!(tree.constructor_count(6), 2);
        assert_eq!(tree.subtree_end(0), 5);
        assert_eq!(tree.subtree_end(5), 8);
        assert_eq!(tree.total_constructors(), 3);
        let each: Vec<usize> = (0..tree.len()).map(|i| tree.constructor_count(i)).collect();
        assert_eq!(tree.constructor_counts(), each);
    }

    #[test]
    fn short_names_strip_paths() {
        assert_eq!(short_type_name("alloc::vec::Vec<core::option::Option<i32>>"), "Vec<Option<i32>>");
        assert_eq!(short_type_name("u8"), "u8");
        assert_eq!(short_type_name("(i32, alloc::string::String)"), "(i32, String)");
    }
}
