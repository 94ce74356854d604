//! A property's arguments: the list (a tuple that is not itself a value)
//! and each argument drawn by its type.

use super::Generator;
use crate::arbitrary::Arbitrary;
use crate::encode::{EncodeError, Encoder};
use crate::span::SpanKind;
use crate::test_case::TestCase;

/// The generator of a property's arguments; see [`arguments`].
#[derive(Clone, Debug)]
pub struct Arguments<G>(G);

/// The arguments of a property, drawn by `tuple` (one generator per
/// argument). Unlike a tuple *value*, an argument list costs no depth: each
/// argument gets the whole depth of an exhaustive run and the whole
/// recursion depth of a random one, so `#[property(exhaustive = d)] fn p(x:
/// T)` tests exactly what `enumerate(&any::<T>(), d)` yields (SmallCheck's
/// depth, where a property's arguments are not a constructor).
pub fn arguments<G: Generator>(tuple: G) -> Arguments<G> {
    Arguments(tuple)
}

impl<G: Generator> Generator for Arguments<G> {
    type Value = G::Value;

    fn generate(&self, tc: &mut TestCase) -> G::Value {
        tc.free_level(|tc| self.0.generate(tc))
    }

    fn encode(&self, value: &G::Value, enc: &mut Encoder) -> Result<(), EncodeError> {
        self.0.encode(value, enc)
    }
}

/// One argument of a property, drawn by its type's [`Arbitrary`]
/// implementation in a slot named after it; see [`argument`].
pub struct Argument<T> {
    name: &'static str,
    draw: fn(&mut TestCase) -> T,
    encode: fn(&T, &mut Encoder) -> Result<(), EncodeError>,
}

impl<T> Clone for Argument<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Argument<T> {}

impl<T> std::fmt::Debug for Argument<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "argument `{}`: {}", self.name, std::any::type_name::<T>())
    }
}

/// The argument `name` of type `T`: `any::<T>()` in a slot named `name`
/// (what `#[property]` draws an argument without `#[from]` with). Only
/// this constructor asks for `T: Arbitrary`, so a type that has none gets
/// one error, at the argument.
pub fn argument<T: Arbitrary>(name: &'static str) -> Argument<T> {
    Argument { name, draw: T::generate, encode: T::encode }
}

impl<T: 'static> Generator for Argument<T> {
    type Value = T;

    #[inline]
    fn generate(&self, tc: &mut TestCase) -> T {
        tc.start_span(SpanKind::Slot, crate::span::slot_type_info::<T>, self.name);
        let v = (self.draw)(tc);
        tc.stop_span(SpanKind::Slot);
        v
    }

    fn encode(&self, value: &T, enc: &mut Encoder) -> Result<(), EncodeError> {
        (self.encode)(value, enc)
    }
}

/// The argument `name` drawn by `generator` (what `#[property]` makes of
/// `#[from(generator)]`): `generator` in a slot named `name`, type-erased, so
/// that something that is not a generator is one error, at the `#[from]`.
pub fn argument_from<T, G>(generator: G, name: &'static str) -> super::BoxedGenerator<T>
where
    T: 'static,
    G: Generator<Value = T> + 'static,
{
    super::slot(generator, name).boxed()
}
