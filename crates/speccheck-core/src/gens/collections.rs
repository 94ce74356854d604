//! Collections: `vec`, `vec_deque`, `btree_map`, `btree_set`, `hash_map`,
//! `hash_set`. Every element sits in its own slot span (its "more?" choice
//! plus its own choices), so shrinking deletes elements cleanly.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::hash::Hash;
use std::ops::{Bound, Range, RangeBounds, RangeFrom, RangeFull, RangeInclusive, RangeTo, RangeToInclusive};

use super::Generator;
use crate::draw::many::{Many, ManyWriter};
use crate::encode::{EncodeError, Encoder};
use crate::span::{SpanKind, TypeInfo};
use crate::test_case::TestCase;

/// Bounds on a collection's length (inclusive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeRange {
    /// Fewest elements.
    pub min: usize,
    /// Most elements.
    pub max: usize,
}

impl SizeRange {
    pub(crate) fn from_bounds<R: RangeBounds<usize>>(r: &R) -> Self {
        let min = match r.start_bound() {
            Bound::Included(&v) => v,
            Bound::Excluded(&v) => v + 1,
            Bound::Unbounded => 0,
        };
        let max = match r.end_bound() {
            Bound::Included(&v) => v,
            Bound::Excluded(&v) => v.checked_sub(1).expect("empty length range"),
            Bound::Unbounded => usize::MAX,
        };
        assert!(min <= max, "empty length range {min}..={max}");
        SizeRange { min, max }
    }
}

impl From<usize> for SizeRange {
    fn from(n: usize) -> Self {
        SizeRange { min: n, max: n }
    }
}

macro_rules! size_range_from {
    ($($t:ty),*) => {$(
        impl From<$t> for SizeRange {
            fn from(r: $t) -> Self { SizeRange::from_bounds(&r) }
        }
    )*};
}
size_range_from!(
    Range<usize>,
    RangeInclusive<usize>,
    RangeFrom<usize>,
    RangeTo<usize>,
    RangeToInclusive<usize>,
    RangeFull
);

/// How a collection picks its length when generating at random.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LengthBias {
    /// Uniform over the bounds (explicit ranges, as proptest reads them).
    Uniform,
    /// Grows with the size parameter and shrinks with nesting depth (the
    /// default for `Arbitrary` collections, so recursive types terminate).
    Sized,
}

/// Where drawn elements go: a collection that may refuse duplicates.
pub(crate) trait Sink<T> {
    /// Room for `n` more elements (a hint).
    fn reserve(&mut self, n: usize) {
        let _ = n;
    }
    /// Adds `v`; false when it was a duplicate and was not kept.
    fn keep(&mut self, v: T) -> bool;
}

impl<T> Sink<T> for Vec<T> {
    fn reserve(&mut self, n: usize) {
        Vec::reserve(self, n);
    }
    fn keep(&mut self, v: T) -> bool {
        self.push(v);
        true
    }
}

impl<T> Sink<T> for VecDeque<T> {
    fn reserve(&mut self, n: usize) {
        VecDeque::reserve(self, n);
    }
    fn keep(&mut self, v: T) -> bool {
        self.push_back(v);
        true
    }
}

impl<T: Ord> Sink<T> for BTreeSet<T> {
    fn keep(&mut self, v: T) -> bool {
        self.insert(v)
    }
}

impl<T: Eq + Hash> Sink<T> for HashSet<T> {
    fn reserve(&mut self, n: usize) {
        HashSet::reserve(self, n);
    }
    fn keep(&mut self, v: T) -> bool {
        self.insert(v)
    }
}

impl<K: Ord, V> Sink<(K, V)> for BTreeMap<K, V> {
    fn keep(&mut self, (k, v): (K, V)) -> bool {
        if self.contains_key(&k) {
            return false;
        }
        self.insert(k, v);
        true
    }
}

impl<K: Eq + Hash, V> Sink<(K, V)> for HashMap<K, V> {
    fn reserve(&mut self, n: usize) {
        HashMap::reserve(self, n);
    }
    fn keep(&mut self, (k, v): (K, V)) -> bool {
        if self.contains_key(&k) {
            return false;
        }
        self.insert(k, v);
        true
    }
}

/// Draws the elements of one collection into `sink`.
#[inline(always)]
pub(crate) fn draw_elements<T>(
    tc: &mut TestCase,
    range: SizeRange,
    bias: LengthBias,
    elem_info: fn() -> TypeInfo,
    mut elem: impl FnMut(&mut TestCase) -> T,
    sink: &mut impl Sink<T>,
) {
    let mut many = match bias {
        LengthBias::Uniform => Many::uniform(tc, range.min, range.max),
        LengthBias::Sized => {
            // Nested collections get smaller, so recursive types terminate.
            let shift = tc.depth().saturating_sub(1).min(16);
            let max = if tc.depth() > tc.max_depth() { range.min } else { range.max };
            let size = tc.size() >> shift;
            Many::with_size(tc, range.min, max, size)
        }
    };
    sink.reserve(many.target().min(1 << 16));
    if tc.is_plain() {
        // Nothing observes spans or choices: skip the per-element slots.
        while many.more_plain(tc) {
            let v = elem(tc);
            if !sink.keep(v) && !many.reject() {
                break;
            }
        }
        return;
    }
    loop {
        tc.start_span(SpanKind::Slot, elem_info, "");
        if !many.more(tc) {
            tc.cancel_span(SpanKind::Slot);
            break;
        }
        let v = elem(tc);
        tc.stop_span(SpanKind::Slot);
        if !sink.keep(v) && !many.reject() {
            break;
        }
    }
}

/// Writes the choices of a collection's elements.
pub(crate) fn write_elements<'a, T: 'a>(
    enc: &mut Encoder,
    range: SizeRange,
    items: impl ExactSizeIterator<Item = &'a T>,
    mut write: impl FnMut(&T, &mut Encoder) -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    let mut w = ManyWriter::new(items.len(), range.min, range.max)?;
    for item in items {
        w.element(enc);
        write(item, enc)?;
    }
    w.finish(enc);
    Ok(())
}

fn info<C: 'static>() -> TypeInfo {
    TypeInfo::of::<C>(&[], false)
}

fn elem_info<T: 'static>() -> TypeInfo {
    TypeInfo::of::<T>(&[], false)
}

/// `Vec`s of `elem` values; see [`vec`].
#[derive(Clone, Debug)]
pub struct VecGen<G> {
    elem: G,
    len: SizeRange,
}

/// `Vec`s with a length in `len` (uniform), elements from `elem`.
pub fn vec<G: Generator>(elem: G, len: impl Into<SizeRange>) -> VecGen<G> {
    VecGen { elem, len: len.into() }
}

impl<G: Generator> Generator for VecGen<G>
where
    G::Value: 'static,
{
    type Value = Vec<G::Value>;
    fn generate(&self, tc: &mut TestCase) -> Vec<G::Value> {
        tc.start_span(SpanKind::Value, info::<Vec<G::Value>>, "");
        let mut out = Vec::new();
        draw_elements(tc, self.len, LengthBias::Uniform, elem_info::<G::Value>, |tc| self.elem.generate(tc), &mut out);
        tc.stop_span(SpanKind::Value);
        out
    }
    fn encode(&self, value: &Vec<G::Value>, enc: &mut Encoder) -> Result<(), EncodeError> {
        write_elements(enc, self.len, value.iter(), |v, enc| self.elem.encode(v, enc))
    }
}

/// `VecDeque`s; see [`vec_deque`].
#[derive(Clone, Debug)]
pub struct VecDequeGen<G> {
    elem: G,
    len: SizeRange,
}

/// `VecDeque`s with a length in `len`, elements from `elem`.
pub fn vec_deque<G: Generator>(elem: G, len: impl Into<SizeRange>) -> VecDequeGen<G> {
    VecDequeGen { elem, len: len.into() }
}

impl<G: Generator> Generator for VecDequeGen<G>
where
    G::Value: 'static,
{
    type Value = VecDeque<G::Value>;
    fn generate(&self, tc: &mut TestCase) -> VecDeque<G::Value> {
        tc.start_span(SpanKind::Value, info::<VecDeque<G::Value>>, "");
        let mut out = VecDeque::new();
        draw_elements(tc, self.len, LengthBias::Uniform, elem_info::<G::Value>, |tc| self.elem.generate(tc), &mut out);
        tc.stop_span(SpanKind::Value);
        out
    }
    fn encode(&self, value: &VecDeque<G::Value>, enc: &mut Encoder) -> Result<(), EncodeError> {
        write_elements(enc, self.len, value.iter(), |v, enc| self.elem.encode(v, enc))
    }
}

/// `BTreeSet`s; see [`btree_set`].
#[derive(Clone, Debug)]
pub struct BTreeSetGen<G> {
    elem: G,
    len: SizeRange,
}

/// `BTreeSet`s with a size in `len` (duplicates are redrawn, within a
/// bound), elements from `elem`.
pub fn btree_set<G: Generator>(elem: G, len: impl Into<SizeRange>) -> BTreeSetGen<G> {
    BTreeSetGen { elem, len: len.into() }
}

impl<G: Generator> Generator for BTreeSetGen<G>
where
    G::Value: Ord + 'static,
{
    type Value = BTreeSet<G::Value>;
    fn generate(&self, tc: &mut TestCase) -> BTreeSet<G::Value> {
        tc.start_span(SpanKind::Value, info::<BTreeSet<G::Value>>, "");
        let mut out = BTreeSet::new();
        draw_elements(tc, self.len, LengthBias::Uniform, elem_info::<G::Value>, |tc| self.elem.generate(tc), &mut out);
        tc.stop_span(SpanKind::Value);
        out
    }
    fn encode(&self, value: &BTreeSet<G::Value>, enc: &mut Encoder) -> Result<(), EncodeError> {
        write_elements(enc, self.len, value.iter(), |v, enc| self.elem.encode(v, enc))
    }
}

/// `HashSet`s; see [`hash_set`].
#[derive(Clone, Debug)]
pub struct HashSetGen<G> {
    elem: G,
    len: SizeRange,
}

/// `HashSet`s with a size in `len`, elements from `elem`.
pub fn hash_set<G: Generator>(elem: G, len: impl Into<SizeRange>) -> HashSetGen<G> {
    HashSetGen { elem, len: len.into() }
}

impl<G: Generator> Generator for HashSetGen<G>
where
    G::Value: Eq + Hash + 'static,
{
    type Value = HashSet<G::Value>;
    fn generate(&self, tc: &mut TestCase) -> HashSet<G::Value> {
        tc.start_span(SpanKind::Value, info::<HashSet<G::Value>>, "");
        let mut out = HashSet::new();
        draw_elements(tc, self.len, LengthBias::Uniform, elem_info::<G::Value>, |tc| self.elem.generate(tc), &mut out);
        tc.stop_span(SpanKind::Value);
        out
    }
    fn encode(&self, value: &HashSet<G::Value>, enc: &mut Encoder) -> Result<(), EncodeError> {
        write_elements(enc, self.len, value.iter(), |v, enc| self.elem.encode(v, enc))
    }
}

/// `BTreeMap`s; see [`btree_map`].
#[derive(Clone, Debug)]
pub struct BTreeMapGen<K, V> {
    key: K,
    value: V,
    len: SizeRange,
}

/// `BTreeMap`s with a size in `len`, keys from `key`, values from `value`.
pub fn btree_map<K: Generator, V: Generator>(key: K, value: V, len: impl Into<SizeRange>) -> BTreeMapGen<K, V> {
    BTreeMapGen { key, value, len: len.into() }
}

impl<K: Generator, V: Generator> Generator for BTreeMapGen<K, V>
where
    K::Value: Ord + 'static,
    V::Value: 'static,
{
    type Value = BTreeMap<K::Value, V::Value>;
    fn generate(&self, tc: &mut TestCase) -> Self::Value {
        tc.start_span(SpanKind::Value, info::<Self::Value>, "");
        let mut out = BTreeMap::new();
        draw_elements(
            tc,
            self.len,
            LengthBias::Uniform,
            elem_info::<(K::Value, V::Value)>,
            |tc| (self.key.generate(tc), self.value.generate(tc)),
            &mut out,
        );
        tc.stop_span(SpanKind::Value);
        out
    }
    fn encode(&self, value: &Self::Value, enc: &mut Encoder) -> Result<(), EncodeError> {
        let pairs: Vec<(&K::Value, &V::Value)> = value.iter().collect();
        write_elements(enc, self.len, pairs.iter(), |(k, v), enc| {
            self.key.encode(k, enc)?;
            self.value.encode(v, enc)
        })
    }
}

/// `HashMap`s; see [`hash_map`].
#[derive(Clone, Debug)]
pub struct HashMapGen<K, V> {
    key: K,
    value: V,
    len: SizeRange,
}

/// `HashMap`s with a size in `len`, keys from `key`, values from `value`.
pub fn hash_map<K: Generator, V: Generator>(key: K, value: V, len: impl Into<SizeRange>) -> HashMapGen<K, V> {
    HashMapGen { key, value, len: len.into() }
}

impl<K: Generator, V: Generator> Generator for HashMapGen<K, V>
where
    K::Value: Eq + Hash + 'static,
    V::Value: 'static,
{
    type Value = HashMap<K::Value, V::Value>;
    fn generate(&self, tc: &mut TestCase) -> Self::Value {
        tc.start_span(SpanKind::Value, info::<Self::Value>, "");
        let mut out = HashMap::new();
        draw_elements(
            tc,
            self.len,
            LengthBias::Uniform,
            elem_info::<(K::Value, V::Value)>,
            |tc| (self.key.generate(tc), self.value.generate(tc)),
            &mut out,
        );
        tc.stop_span(SpanKind::Value);
        out
    }
    fn encode(&self, value: &Self::Value, enc: &mut Encoder) -> Result<(), EncodeError> {
        let pairs: Vec<(&K::Value, &V::Value)> = value.iter().collect();
        write_elements(enc, self.len, pairs.iter(), |(k, v), enc| {
            self.key.encode(k, enc)?;
            self.value.encode(v, enc)
        })
    }
}
