//! Collections: `vec`, `vec_deque`, `btree_map`, `btree_set`, `hash_map`,
//! `hash_set`. Every element sits in its own slot span (its "more?" choice
//! plus its own choices), so shrinking deletes elements cleanly.

use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::fmt;
use std::hash::Hash;
use std::marker::PhantomData;
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
    /// The lengths of `r`; an empty range gives `min > max`, which the
    /// generator that takes it refuses (see [`checked`](Self::checked)).
    pub(crate) fn from_bounds<R: RangeBounds<usize>>(r: &R) -> Self {
        let min = match r.start_bound() {
            Bound::Included(&v) => v,
            Bound::Excluded(&v) => v.saturating_add(1),
            Bound::Unbounded => 0,
        };
        let (min, max) = match r.end_bound() {
            Bound::Included(&v) => (min, v),
            Bound::Excluded(&0) => (min.max(1), 0),
            Bound::Excluded(&v) => (min, v - 1),
            Bound::Unbounded => (min, usize::MAX),
        };
        SizeRange { min, max }
    }

    /// The range, or a panic at the caller's `what` naming it when it
    /// holds no length.
    #[track_caller]
    pub(crate) fn checked(self, what: &str) -> Self {
        if self.min > self.max {
            panic!(
                "{what}: the length range is empty (at least {} and at most {} elements); one length is written \
                 `n..=n` or `n`",
                self.min, self.max
            );
        }
        self
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
pub(crate) trait Sink<T>: Extend<T> {
    /// Every element drawn is kept (no duplicates to refuse): the length is
    /// known up front in plain mode, and elements may be drawn in a batch.
    const KEEPS_ALL: bool = false;
    /// Room for `n` more elements (a hint).
    fn reserve(&mut self, n: usize) {
        let _ = n;
    }
    /// Adds `v`; false when it was a duplicate and was not kept.
    fn keep(&mut self, v: T) -> bool;
}

impl<T> Sink<T> for Vec<T> {
    const KEEPS_ALL: bool = true;
    fn reserve(&mut self, n: usize) {
        Vec::reserve(self, n);
    }
    fn keep(&mut self, v: T) -> bool {
        self.push(v);
        true
    }
}

impl<T> Sink<T> for VecDeque<T> {
    const KEEPS_ALL: bool = true;
    fn reserve(&mut self, n: usize) {
        VecDeque::reserve(self, n);
    }
    fn keep(&mut self, v: T) -> bool {
        self.push_back(v);
        true
    }
}

impl<T> Sink<T> for LinkedList<T> {
    const KEEPS_ALL: bool = true;
    fn keep(&mut self, v: T) -> bool {
        self.push_back(v);
        true
    }
}

impl<T: Ord> Sink<T> for BinaryHeap<T> {
    const KEEPS_ALL: bool = true;
    fn reserve(&mut self, n: usize) {
        BinaryHeap::reserve(self, n);
    }
    fn keep(&mut self, v: T) -> bool {
        self.push(v);
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

/// Elements a collection read from a fuzzer's bytes makes room for at its
/// first element (see [`draw_elements`]).
const FIRST_ROOM: usize = 64;

/// Draws the elements of one collection into `sink`: one by one with
/// `elem`, or, in plain mode when the sink keeps every element, all `n` at
/// once with `batch(tc, n, sink)` (see [`Generator::generate_into`]).
#[inline(always)]
pub(crate) fn draw_elements<T, S: Sink<T>>(
    tc: &mut TestCase,
    range: SizeRange,
    bias: LengthBias,
    elem_info: fn() -> TypeInfo,
    mut elem: impl FnMut(&mut TestCase) -> T,
    batch: impl FnOnce(&mut TestCase, usize, &mut S),
    sink: &mut S,
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
    let plain = tc.is_plain();
    if plain || tc.is_plain_bytes() {
        // Nothing observes spans or choices: skip the per-element slots.
        // At random the answers to "more?" are known from the target; from
        // a fuzzer's input they are the same choices as below, read one by
        // one.
        if plain && S::KEEPS_ALL {
            let n = many.plain_all(tc);
            batch(tc, n, sink);
            return;
        }
        // From bytes the length is not known up front: at the first
        // element, room for as many as the bytes left could make (each
        // reads at least one), within the collection's bounds, `FIRST_ROOM`
        // and four kilobytes (a nested collection reserves too; past that
        // the buffer doubles as usual). Growing it from empty cost more than the
        // elements' draws. At random the target is reserved above.
        let mut sized = plain;
        while if plain { many.more_plain(tc) } else { many.more_bytes(tc) } {
            if !sized {
                sized = true;
                let fits = 4096 / std::mem::size_of::<T>().max(1);
                let room = range.min.saturating_add(tc.bytes_left()).min(many.max()).min(FIRST_ROOM).min(fits);
                sink.reserve(room);
            }
            let v = elem(tc);
            if !sink.keep(v) && !many.reject() {
                // Stopped growing (duplicates): its length is what it kept.
                tc.note_length(many.count());
                break;
            }
        }
        return;
    }
    // A replay does not know the length up front (only "more?" answers
    // are recorded), so the buffer would grow element by element: at the
    // first element, room for as many as the recorded choices left could
    // hold, within the bounds and a kilobyte (an empty collection
    // allocates nothing).
    let mut first = many.target() == range.min;
    loop {
        tc.start_span(SpanKind::Slot, elem_info, "");
        if !many.more(tc) {
            tc.cancel_span(SpanKind::Slot);
            break;
        }
        if std::mem::take(&mut first) {
            let fits = 1024 / std::mem::size_of::<T>().max(1);
            sink.reserve(tc.recorded_left().min(range.max).min(fits));
        }
        let v = elem(tc);
        tc.stop_span(SpanKind::Slot);
        if !sink.keep(v) && !many.reject() {
            tc.note_length(many.count());
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

pub(crate) fn elem_info<T: 'static>() -> TypeInfo {
    TypeInfo::of::<T>(&[], false)
}

/// Sequences and sets of `elem` values: `Vec`, `VecDeque`, `BTreeSet`,
/// `HashSet` (see [`vec()`], [`vec_deque`], [`btree_set`], [`hash_set`]).
pub struct SeqGen<G, C> {
    elem: G,
    len: SizeRange,
    collection: PhantomData<fn() -> C>,
}

impl<G: Clone, C> Clone for SeqGen<G, C> {
    fn clone(&self) -> Self {
        SeqGen { elem: self.elem.clone(), len: self.len, collection: PhantomData }
    }
}

impl<G: fmt::Debug, C> fmt::Debug for SeqGen<G, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(std::any::type_name::<C>()).field("elem", &self.elem).field("len", &self.len).finish()
    }
}

/// `Vec`s; see [`vec()`].
pub type VecGen<G> = SeqGen<G, Vec<<G as Generator>::Value>>;
/// `VecDeque`s; see [`vec_deque`].
pub type VecDequeGen<G> = SeqGen<G, VecDeque<<G as Generator>::Value>>;
/// `BTreeSet`s; see [`btree_set`].
pub type BTreeSetGen<G> = SeqGen<G, BTreeSet<<G as Generator>::Value>>;
/// `HashSet`s; see [`hash_set`].
pub type HashSetGen<G> = SeqGen<G, HashSet<<G as Generator>::Value>>;

#[track_caller]
fn seq<G: Generator, C>(elem: G, len: impl Into<SizeRange>, what: &str) -> SeqGen<G, C> {
    SeqGen { elem, len: len.into().checked(what), collection: PhantomData }
}

/// `Vec`s with a length in `len` (uniform), elements from `elem`.
#[track_caller]
pub fn vec<G: Generator>(elem: G, len: impl Into<SizeRange>) -> VecGen<G> {
    seq(elem, len, "gens::vec")
}

/// `VecDeque`s with a length in `len`, elements from `elem`.
#[track_caller]
pub fn vec_deque<G: Generator>(elem: G, len: impl Into<SizeRange>) -> VecDequeGen<G> {
    seq(elem, len, "gens::vec_deque")
}

/// `BTreeSet`s with a size in `len` (duplicates are redrawn, within a
/// bound), elements from `elem`.
#[track_caller]
pub fn btree_set<G: Generator>(elem: G, len: impl Into<SizeRange>) -> BTreeSetGen<G>
where
    G::Value: Ord,
{
    seq(elem, len, "gens::btree_set")
}

/// `HashSet`s with a size in `len`, elements from `elem`.
#[track_caller]
pub fn hash_set<G: Generator>(elem: G, len: impl Into<SizeRange>) -> HashSetGen<G>
where
    G::Value: Eq + Hash,
{
    seq(elem, len, "gens::hash_set")
}

impl<G, C> Generator for SeqGen<G, C>
where
    G: Generator,
    G::Value: 'static,
    C: Sink<G::Value> + Default + 'static,
    for<'a> &'a C: IntoIterator<Item = &'a G::Value>,
    for<'a> <&'a C as IntoIterator>::IntoIter: ExactSizeIterator,
{
    type Value = C;
    fn generate(&self, tc: &mut TestCase) -> C {
        tc.start_span(SpanKind::Value, info::<C>, "");
        let mut out = C::default();
        draw_elements(
            tc,
            self.len,
            LengthBias::Uniform,
            elem_info::<G::Value>,
            |tc| self.elem.generate(tc),
            |tc, n, out| self.elem.generate_into(tc, n, out),
            &mut out,
        );
        tc.stop_span(SpanKind::Value);
        out
    }
    fn encode(&self, value: &C, enc: &mut Encoder) -> Result<(), EncodeError> {
        write_elements(enc, self.len, value.into_iter(), |v, enc| self.elem.encode(v, enc))
    }
}

/// Maps from `key` to `value` values: `BTreeMap`, `HashMap` (see
/// [`btree_map`], [`hash_map`]).
pub struct MapGen<K, V, C> {
    key: K,
    value: V,
    len: SizeRange,
    collection: PhantomData<fn() -> C>,
}

impl<K: Clone, V: Clone, C> Clone for MapGen<K, V, C> {
    fn clone(&self) -> Self {
        MapGen { key: self.key.clone(), value: self.value.clone(), len: self.len, collection: PhantomData }
    }
}

impl<K: fmt::Debug, V: fmt::Debug, C> fmt::Debug for MapGen<K, V, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(std::any::type_name::<C>())
            .field("key", &self.key)
            .field("value", &self.value)
            .field("len", &self.len)
            .finish()
    }
}

/// `BTreeMap`s; see [`btree_map`].
pub type BTreeMapGen<K, V> = MapGen<K, V, BTreeMap<<K as Generator>::Value, <V as Generator>::Value>>;
/// `HashMap`s; see [`hash_map`].
pub type HashMapGen<K, V> = MapGen<K, V, HashMap<<K as Generator>::Value, <V as Generator>::Value>>;

/// `BTreeMap`s with a size in `len`, keys from `key`, values from `value`.
#[track_caller]
pub fn btree_map<K: Generator, V: Generator>(key: K, value: V, len: impl Into<SizeRange>) -> BTreeMapGen<K, V>
where
    K::Value: Ord,
{
    MapGen { key, value, len: len.into().checked("gens::btree_map"), collection: PhantomData }
}

/// `HashMap`s with a size in `len`, keys from `key`, values from `value`.
#[track_caller]
pub fn hash_map<K: Generator, V: Generator>(key: K, value: V, len: impl Into<SizeRange>) -> HashMapGen<K, V>
where
    K::Value: Eq + Hash,
{
    MapGen { key, value, len: len.into().checked("gens::hash_map"), collection: PhantomData }
}

impl<K, V, C> Generator for MapGen<K, V, C>
where
    K: Generator,
    V: Generator,
    K::Value: 'static,
    V::Value: 'static,
    C: Sink<(K::Value, V::Value)> + Default + 'static,
    for<'a> &'a C: IntoIterator<Item = (&'a K::Value, &'a V::Value)>,
    for<'a> <&'a C as IntoIterator>::IntoIter: ExactSizeIterator,
{
    type Value = C;
    fn generate(&self, tc: &mut TestCase) -> C {
        tc.start_span(SpanKind::Value, info::<C>, "");
        let mut out = C::default();
        draw_elements(
            tc,
            self.len,
            LengthBias::Uniform,
            elem_info::<(K::Value, V::Value)>,
            |tc| (self.key.generate(tc), self.value.generate(tc)),
            |tc, n, out| crate::draw::one_by_one(tc, n, out, |tc| (self.key.generate(tc), self.value.generate(tc))),
            &mut out,
        );
        tc.stop_span(SpanKind::Value);
        out
    }
    fn encode(&self, value: &C, enc: &mut Encoder) -> Result<(), EncodeError> {
        let pairs: Vec<(&K::Value, &V::Value)> = value.into_iter().collect();
        write_elements(enc, self.len, pairs.iter(), |(k, v), enc| {
            self.key.encode(k, enc)?;
            self.value.encode(v, enc)
        })
    }
}
