//! Generators: values built from a test case's choices.
//!
//! A [`Generator`] draws a value from a [`TestCase`]; combinators build new
//! generators from old ones, one per module (as proptest's `strategy`
//! modules do). Because every generator only ever *draws choices*, replay,
//! shrinking, persistence and exhaustive enumeration work for all of them,
//! including dependent generation (`flat_map`), with no per-type shrinker.
//!
//! A generator may also [`encode`](Generator::encode) a value back into the
//! choices that rebuild it, so that values from elsewhere (an SMT model, an
//! enumeration, an API call sequence) can be shrunk and replayed too.

mod arguments;
mod array;
pub(crate) mod collections;
mod filter;
mod flat_map;
#[cfg(feature = "arbitrary")]
mod fuzzed;
mod map;
mod num;
mod one_of;
pub(crate) mod option;
mod recursive;
#[cfg(feature = "regex")]
mod regex;
mod represent;
mod sample;
mod sized;
mod text;
pub(crate) mod tuple;

use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

pub use arguments::{Argument, Arguments, argument, argument_from, arguments};
pub use array::{Array, array};
pub use collections::{
    BTreeMapGen, BTreeSetGen, HashMapGen, HashSetGen, MapGen, SeqGen, SizeRange, VecDequeGen, VecGen, btree_map,
    btree_set, hash_map, hash_set, vec, vec_deque,
};
pub use filter::Filter;
pub use flat_map::FlatMap;
#[cfg(feature = "arbitrary")]
pub use fuzzed::{FromArbitrary, Fuzzed, from_arbitrary};
pub use map::{Map, MapInv};
pub use num::{Floats, Ints, RangeGenerator, Uniform, floats, floats_f32, ints, range, uniform};
pub use one_of::{OneOf, frequency, one_of};
pub use option::{OptionGen, ResultGen, option, result};
pub use recursive::{Recursive, recursive};
#[cfg(feature = "regex")]
pub use regex::{Matching, RegexError, string_matching};
pub use represent::{Represent, represent};
pub use sample::{Index, Select, Shuffle, Subsequence, index, sampled_from, select, shuffle, subsequence};
pub use sized::{Resize, SizedGen, resize, sized};
pub use text::{CharsIn, StringOf, chars_in, string_of};

use crate::arbitrary::Arbitrary;
use crate::encode::{EncodeError, Encoder};
use crate::span::{SpanKind, TypeInfo};
use crate::test_case::TestCase;

/// Something that draws values of one type from a [`TestCase`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a speccheck generator",
    label = "expected a generator here",
    note = "a range is not a generator: write `gens::ints(a..b)`, `gens::range(a..b)` (integers, floats, chars) or `any::<T>()`",
    note = "a closure drawing from the test case becomes one with `gens::from_fn(|tc| ...)`"
)]
pub trait Generator: Send + Sync {
    /// The type of value produced.
    type Value;

    /// Draws a value.
    fn generate(&self, tc: &mut TestCase) -> Self::Value;

    /// Draws `n` values into `out`, in order, as `n` calls to
    /// [`generate`](Self::generate) would. Collections call it in plain
    /// mode ([`TestCase::is_plain`]); leaf generators override it with a
    /// batch loop over [`TestCase::plain_batch`].
    #[inline]
    fn generate_into(&self, tc: &mut TestCase, n: usize, out: &mut impl Extend<Self::Value>)
    where
        Self: Sized,
    {
        crate::draw::one_by_one(tc, n, out, |tc| self.generate(tc));
    }

    /// Writes the choices that make [`generate`](Self::generate) rebuild
    /// `value`. Generators without an inverse say so.
    fn encode(&self, value: &Self::Value, enc: &mut Encoder) -> Result<(), EncodeError> {
        let _ = (value, enc);
        Err(EncodeError::Unsupported(std::any::type_name::<Self>()))
    }

    /// Applies `f` to every value (no inverse: values cannot be encoded;
    /// see [`map_inv`](Self::map_inv)).
    fn map<U, F>(self, f: F) -> Map<Self, F>
    where
        Self: Sized,
        F: Fn(Self::Value) -> U + Send + Sync,
    {
        Map::new(self, f)
    }

    /// Applies `f`, with `inv` turning a result back into the input, so
    /// that mapped values can still be encoded.
    fn map_inv<U, F, I>(self, f: F, inv: I) -> MapInv<Self, F, I>
    where
        Self: Sized,
        F: Fn(Self::Value) -> U + Send + Sync,
        I: Fn(&U) -> Option<Self::Value> + Send + Sync,
    {
        MapInv::new(self, f, inv)
    }

    /// Keeps only values satisfying `pred`, redrawing up to a limit; `name`
    /// names the filter in the error when it never succeeds.
    fn filter<F>(self, name: &'static str, pred: F) -> Filter<Self, F>
    where
        Self: Sized,
        F: Fn(&Self::Value) -> bool + Send + Sync,
    {
        Filter::new(self, name, pred)
    }

    /// Draws a value, then draws from the generator `f` makes of it
    /// (dependent generation; shrinks through both stages).
    fn flat_map<G, F>(self, f: F) -> FlatMap<Self, F>
    where
        Self: Sized,
        G: Generator,
        F: Fn(Self::Value) -> G + Send + Sync,
    {
        FlatMap::new(self, f)
    }

    /// Type-erases the generator (cheap to clone).
    fn boxed(self) -> BoxedGenerator<Self::Value>
    where
        Self: Sized + 'static,
    {
        BoxedGenerator(Arc::new(self))
    }
}

impl<G: Generator + ?Sized> Generator for &G {
    type Value = G::Value;
    fn generate(&self, tc: &mut TestCase) -> G::Value {
        (**self).generate(tc)
    }
    fn encode(&self, value: &G::Value, enc: &mut Encoder) -> Result<(), EncodeError> {
        (**self).encode(value, enc)
    }
}

impl<G: Generator + ?Sized> Generator for Box<G> {
    type Value = G::Value;
    fn generate(&self, tc: &mut TestCase) -> G::Value {
        (**self).generate(tc)
    }
    fn encode(&self, value: &G::Value, enc: &mut Encoder) -> Result<(), EncodeError> {
        (**self).encode(value, enc)
    }
}

impl<G: Generator + ?Sized> Generator for Arc<G> {
    type Value = G::Value;
    fn generate(&self, tc: &mut TestCase) -> G::Value {
        (**self).generate(tc)
    }
    fn encode(&self, value: &G::Value, enc: &mut Encoder) -> Result<(), EncodeError> {
        (**self).encode(value, enc)
    }
}

/// A type-erased, shareable generator.
pub struct BoxedGenerator<T>(Arc<dyn Generator<Value = T>>);

impl<T> Clone for BoxedGenerator<T> {
    fn clone(&self) -> Self {
        BoxedGenerator(self.0.clone())
    }
}

impl<T> fmt::Debug for BoxedGenerator<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BoxedGenerator")
    }
}

impl<T> Generator for BoxedGenerator<T> {
    type Value = T;
    fn generate(&self, tc: &mut TestCase) -> T {
        self.0.generate(tc)
    }
    fn encode(&self, value: &T, enc: &mut Encoder) -> Result<(), EncodeError> {
        self.0.encode(value, enc)
    }
}

impl TestCase {
    /// Draws a value from `g` (for properties that draw as they go).
    pub fn draw<G: Generator>(&mut self, g: &G) -> G::Value {
        g.generate(self)
    }
}

/// The default generator of an [`Arbitrary`] type.
pub struct Any<T>(PhantomData<fn() -> T>);

impl<T> Clone for Any<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Any<T> {}

impl<T> fmt::Debug for Any<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "any::<{}>()", std::any::type_name::<T>())
    }
}

/// Every value of `T`, drawn by its [`Arbitrary`] implementation.
pub fn any<T: Arbitrary>() -> Any<T> {
    Any(PhantomData)
}

impl<T: Arbitrary> Generator for Any<T> {
    type Value = T;
    #[inline(always)]
    fn generate(&self, tc: &mut TestCase) -> T {
        T::generate(tc)
    }
    #[inline(always)]
    fn generate_into(&self, tc: &mut TestCase, n: usize, out: &mut impl Extend<T>) {
        T::generate_into(tc, n, out)
    }
    fn encode(&self, value: &T, enc: &mut Encoder) -> Result<(), EncodeError> {
        value.encode(enc)
    }
}

/// Always the same value.
#[derive(Clone, Debug)]
pub struct Just<T>(pub T);

/// Always `value` (makes no choice; encoding writes nothing, and only
/// accepts `value` itself).
pub fn just<T: Clone + PartialEq + Send + Sync>(value: T) -> Just<T> {
    Just(value)
}

impl<T: Clone + PartialEq + Send + Sync> Generator for Just<T> {
    type Value = T;
    fn generate(&self, _: &mut TestCase) -> T {
        self.0.clone()
    }
    fn encode(&self, value: &T, _: &mut Encoder) -> Result<(), EncodeError> {
        if *value == self.0 { Ok(()) } else { Err(EncodeError::Other("`just` only produces its own value".into())) }
    }
}

/// A generator written as a function of the test case.
#[derive(Clone)]
pub struct FromFn<F>(F);

impl<F> fmt::Debug for FromFn<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("from_fn(..)")
    }
}

/// A generator from a function drawing from the test case: the way to
/// write a custom generator by hand.
///
/// ```
/// use speccheck_core::gens::{self, Generator};
/// let pair = gens::from_fn(|tc| {
///     let n = tc.draw(&gens::ints(1..=10usize));
///     (n, tc.draw(&gens::vec(gens::ints(0..=9u8), n..=n)))
/// });
/// # let _ = pair;
/// ```
pub fn from_fn<T, F: Fn(&mut TestCase) -> T + Send + Sync>(f: F) -> FromFn<F> {
    FromFn(f)
}

impl<T, F: Fn(&mut TestCase) -> T + Send + Sync> Generator for FromFn<F> {
    type Value = T;
    fn generate(&self, tc: &mut TestCase) -> T {
        (self.0)(tc)
    }
}

/// Wraps a generator's draws in a span of the given kind and name, so the
/// tree view sees its value as one node (used for named arguments and
/// custom-generated fields).
#[derive(Clone, Debug)]
pub struct Spanned<G> {
    inner: G,
    kind: SpanKind,
    info: fn() -> TypeInfo,
    name: &'static str,
}

/// Marks `g`'s draws as one slot named `name` holding a `T`. The slot is
/// transparent to the tree view: reduction and generalization look inside
/// it (an opaque field is marked with [`crate::span::opaque_type_info`]).
pub fn slot<T: 'static, G: Generator<Value = T>>(g: G, name: &'static str) -> Spanned<G> {
    Spanned { inner: g, kind: SpanKind::Slot, info: crate::span::slot_type_info::<T>, name }
}

impl<G: Generator> Generator for Spanned<G> {
    type Value = G::Value;
    fn generate(&self, tc: &mut TestCase) -> G::Value {
        tc.start_span(self.kind, self.info, self.name);
        let v = self.inner.generate(tc);
        tc.stop_span(self.kind);
        v
    }
    fn encode(&self, value: &G::Value, enc: &mut Encoder) -> Result<(), EncodeError> {
        self.inner.encode(value, enc)
    }
}
