//! Numbers, `bool` and `()`.

use std::any::Any;

use super::Arbitrary;
use crate::draw::float::FloatSpec;
use crate::draw::int::Integer;
use crate::encode::{EncodeError, Encoder};
use crate::span::TypeInfo;
use crate::term::Term;
use crate::test_case::TestCase;
use crate::tree::TreeView;

/// Tree views of opaque leaves printed with `Debug`, several at once.
macro_rules! opaque_leaf {
    ($($t:ty),*) => {$(
        $crate::arbitrary::opaque_debug!($t);
    )*};
}
pub(crate) use opaque_leaf;

macro_rules! int_arbitrary {
    ($($t:ty),*) => {$(
        impl Arbitrary for $t {
            fn type_info() -> TypeInfo { TypeInfo::primitive::<$t>() }
            #[inline]
            fn draw(tc: &mut TestCase) -> Self { tc.draw_int(<$t as Integer>::MIN, <$t as Integer>::MAX) }
            #[inline(always)]
            fn generate(tc: &mut TestCase) -> Self {
                if tc.spans_unobserved() {
                    // No one sees spans now (random generation, or a
                    // fuzzer's bytes), and a leaf has nothing nested.
                    return Self::draw(tc);
                }
                tc.start_value(Self::type_info);
                let v = Self::draw(tc);
                tc.stop_value();
                v
            }
            #[inline(always)]
            fn generate_into(tc: &mut TestCase, n: usize, out: &mut impl Extend<Self>) {
                if !crate::draw::int::sample_batch(tc, <$t as Integer>::MIN, <$t as Integer>::MAX, n, out) {
                    crate::draw::one_by_one(tc, n, out, Self::generate);
                }
            }
            fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
                enc.write_int(*self, <$t as Integer>::MIN, <$t as Integer>::MAX)
            }
        }
        opaque_leaf!($t);
    )*};
}
int_arbitrary!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

impl Arbitrary for f64 {
    fn type_info() -> TypeInfo {
        TypeInfo::primitive::<f64>()
    }
    fn draw(tc: &mut TestCase) -> Self {
        tc.draw_float(&FloatSpec::ANY)
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        enc.write_float(*self, &FloatSpec::ANY)
    }
}

const F32_SPEC: FloatSpec = FloatSpec { single: true, ..FloatSpec::ANY };

impl Arbitrary for f32 {
    fn type_info() -> TypeInfo {
        TypeInfo::primitive::<f32>()
    }
    fn draw(tc: &mut TestCase) -> Self {
        tc.draw_float(&F32_SPEC) as f32
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        enc.write_float(f64::from(*self), &F32_SPEC)
    }
}

macro_rules! float_leaf {
    ($($t:ident),*) => {$(
        impl TreeView for $t {
            fn constructor(&self) -> &'static str { "" }
            fn constructors(&self) -> &'static [&'static str] { &[] }
            fn is_opaque(&self) -> bool { true }
            fn children(&self) -> Vec<&dyn TreeView> { Vec::new() }
            fn replace_child(&mut self, _: usize, v: Box<dyn Any>) -> Result<(), Box<dyn Any>> { Err(v) }
            fn to_term(&self) -> Term {
                Term::Atom(if self.is_nan() {
                    concat!(stringify!($t), "::NAN").to_string()
                } else if self.is_infinite() {
                    if *self > 0.0 { concat!(stringify!($t), "::INFINITY").to_string() } else { concat!(stringify!($t), "::NEG_INFINITY").to_string() }
                } else {
                    format!("{self:?}")
                })
            }
            fn as_any(&self) -> &dyn Any { self }
        }
    )*};
}
float_leaf!(f32, f64);

impl Arbitrary for bool {
    fn type_info() -> TypeInfo {
        TypeInfo::primitive::<bool>()
    }
    #[inline]
    fn draw(tc: &mut TestCase) -> Self {
        tc.draw_bool(0.5)
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        enc.write_bool(*self, 0.5)
    }
}

impl Arbitrary for () {
    fn type_info() -> TypeInfo {
        TypeInfo::primitive::<()>()
    }
    fn draw(_: &mut TestCase) -> Self {}
    fn encode(&self, _: &mut Encoder) -> Result<(), EncodeError> {
        Ok(())
    }
}

opaque_leaf!(bool, ());
