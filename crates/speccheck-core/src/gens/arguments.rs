//! A property's argument list: a tuple that is not itself a value.

use super::Generator;
use crate::encode::{EncodeError, Encoder};
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
