//! `Option` and `Result` generators.

use super::Generator;
use crate::choice::ChoiceKind;
use crate::encode::{EncodeError, Encoder};
use crate::span::{SpanKind, TypeInfo};
use crate::test_case::TestCase;

/// Constructor names of `Option`.
pub const OPTION_CTORS: &[&str] = &["None", "Some"];
/// Constructor names of `Result`.
pub const RESULT_CTORS: &[&str] = &["Ok", "Err"];

/// Draws `None` (index 0, the simplest) a quarter of the time, and always
/// past the test case's depth limit. The caller has opened the value span.
pub(crate) fn draw_option<T>(tc: &mut TestCase, inner: impl FnOnce(&mut TestCase) -> T) -> Option<T> {
    // Past the depth limit only `None`, as collections draw their least
    // length there: an option is a recursive type's way out
    // (`Option<Box<T>>`), and two of them a level would otherwise branch
    // without end and overflow the stack.
    let deep = tc.depth() > tc.max_depth();
    let draw =
        move |rng: &mut rand::rngs::SmallRng, _| if deep { 0 } else { u64::from(!rand::Rng::random_ratio(rng, 1, 4)) };
    let some = tc.draw_raw(1, ChoiceKind::Index, draw, |_| 2) == 1;
    tc.set_constructor(usize::from(some));
    if some { Some(inner(tc)) } else { None }
}

pub(crate) fn write_option<T>(
    v: &Option<T>,
    enc: &mut Encoder,
    inner: impl FnOnce(&T, &mut Encoder) -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    match v {
        None => {
            enc.write_raw(0, 1, ChoiceKind::Index);
            Ok(())
        }
        Some(x) => {
            enc.write_raw(1, 1, ChoiceKind::Index);
            inner(x, enc)
        }
    }
}

/// Draws `Ok` (index 0) three quarters of the time. The caller has opened
/// the value span.
pub(crate) fn draw_result<T, E>(
    tc: &mut TestCase,
    ok: impl FnOnce(&mut TestCase) -> T,
    err: impl FnOnce(&mut TestCase) -> E,
) -> Result<T, E> {
    let is_err = tc.draw_raw(1, ChoiceKind::Index, |rng, _| u64::from(rand::Rng::random_ratio(rng, 1, 4)), |_| 2) == 1;
    tc.set_constructor(usize::from(is_err));
    if is_err { Err(err(tc)) } else { Ok(ok(tc)) }
}

pub(crate) fn write_result<T, E>(
    v: &Result<T, E>,
    enc: &mut Encoder,
    ok: impl FnOnce(&T, &mut Encoder) -> Result<(), EncodeError>,
    err: impl FnOnce(&E, &mut Encoder) -> Result<(), EncodeError>,
) -> Result<(), EncodeError> {
    match v {
        Ok(x) => {
            enc.write_raw(0, 1, ChoiceKind::Index);
            ok(x, enc)
        }
        Err(e) => {
            enc.write_raw(1, 1, ChoiceKind::Index);
            err(e, enc)
        }
    }
}

fn option_info<T: 'static>() -> TypeInfo {
    TypeInfo::of::<Option<T>>(OPTION_CTORS, false)
}

fn result_info<T: 'static, E: 'static>() -> TypeInfo {
    TypeInfo::of::<Result<T, E>>(RESULT_CTORS, false)
}

/// `Option`s of `inner`'s values; see [`option`].
#[derive(Clone, Debug)]
pub struct OptionGen<G>(G);

/// `None` or `Some` of a value from `inner`.
pub fn option<G: Generator>(inner: G) -> OptionGen<G> {
    OptionGen(inner)
}

impl<G: Generator> Generator for OptionGen<G>
where
    G::Value: 'static,
{
    type Value = Option<G::Value>;
    fn generate(&self, tc: &mut TestCase) -> Self::Value {
        tc.start_span(SpanKind::Value, option_info::<G::Value>, "");
        let v = draw_option(tc, |tc| self.0.generate(tc));
        tc.stop_span(SpanKind::Value);
        v
    }
    fn encode(&self, value: &Self::Value, enc: &mut Encoder) -> Result<(), EncodeError> {
        write_option(value, enc, |x, enc| self.0.encode(x, enc))
    }
}

/// `Result`s; see [`result`].
#[derive(Clone, Debug)]
pub struct ResultGen<G, H>(G, H);

/// `Ok` of a value from `ok` or `Err` of a value from `err`.
pub fn result<G: Generator, H: Generator>(ok: G, err: H) -> ResultGen<G, H> {
    ResultGen(ok, err)
}

impl<G: Generator, H: Generator> Generator for ResultGen<G, H>
where
    G::Value: 'static,
    H::Value: 'static,
{
    type Value = Result<G::Value, H::Value>;
    fn generate(&self, tc: &mut TestCase) -> Self::Value {
        tc.start_span(SpanKind::Value, result_info::<G::Value, H::Value>, "");
        let v = draw_result(tc, |tc| self.0.generate(tc), |tc| self.1.generate(tc));
        tc.stop_span(SpanKind::Value);
        v
    }
    fn encode(&self, value: &Self::Value, enc: &mut Encoder) -> Result<(), EncodeError> {
        write_result(value, enc, |x, enc| self.0.encode(x, enc), |e, enc| self.1.encode(e, enc))
    }
}
