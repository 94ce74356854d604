//! `Arbitrary`: types with a default generator (and its inverse).
//!
//! Built-in implementations are laid out like std's module tree. Every
//! implementation opens a value span labelled with its [`TypeInfo`], so the
//! span tree of a generated value mirrors the value (the tree view).

mod array;
mod collections;
mod leaf;
pub(crate) use leaf::opaque_debug;
mod net;
mod num;
mod ops;
mod option;
mod path;
mod pointer;
mod text;
mod time;
mod tuple;
mod wrapper;

use crate::encode::{EncodeError, Encoder};
use crate::span::TypeInfo;
use crate::test_case::CaseControl as _;
use crate::test_case::TestCase;

/// A type with a default way to be generated from choices and to be
/// encoded back into them.
#[diagnostic::on_unimplemented(
    message = "speccheck cannot generate `{Self}`: it does not implement `Arbitrary`",
    label = "no generator for `{Self}`",
    note = "derive it (`#[derive(Arbitrary)]`), implement `speccheck::Arbitrary` by hand, or give this value a generator (`#[from(generator)]` on a property argument, `#[speccheck(with = generator)]` on a field)"
)]
pub trait Arbitrary: Sized + 'static {
    /// Static facts about the type (name, constructors, opacity).
    fn type_info() -> TypeInfo;

    /// Draws the value's contents; [`generate`](Self::generate) wraps this
    /// in the value's span.
    fn draw(tc: &mut TestCase) -> Self;

    /// Writes the choices that make [`generate`](Self::generate) rebuild
    /// this value.
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError>;

    /// Draws a value inside its own value span.
    #[inline]
    fn generate(tc: &mut TestCase) -> Self {
        tc.start_value(Self::type_info);
        let v = Self::draw(tc);
        tc.stop_value();
        v
    }

    /// Draws `n` values into `out` as `n` calls to
    /// [`generate`](Self::generate) would (see
    /// [`Generator::generate_into`](crate::Generator::generate_into)).
    #[inline]
    fn generate_into(tc: &mut TestCase, n: usize, out: &mut impl Extend<Self>) {
        crate::draw::one_by_one(tc, n, out, Self::generate);
    }
}

/// Encodes a value of an [`Arbitrary`] type into a choice sequence.
pub fn encode_value<T: Arbitrary>(value: &T) -> Result<crate::ChoiceSequence, EncodeError> {
    let mut enc = Encoder::new();
    value.encode(&mut enc)?;
    Ok(enc.finish())
}

/// Rebuilds a value of an [`Arbitrary`] type from choices (replay without
/// a tail: `None` if the choices do not suffice or do not fit).
pub fn decode_value<T: Arbitrary>(choices: &crate::ChoiceSequence) -> Option<T> {
    let mut tc = TestCase::replay(choices.0.clone(), crate::test_case::Tail::Stop);
    let v = crate::test_case::catch_invalid(&mut tc, |tc| T::generate(tc)).ok()?;
    (tc.misaligned() == 0 && !tc.prefix_unused()).then_some(v)
}
