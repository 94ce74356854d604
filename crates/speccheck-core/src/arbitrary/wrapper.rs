//! Wrappers around one value: `NonZero*`, `Wrapping`, `Saturating`,
//! `cmp::Reverse`, `Cell`, `RefCell` and `Cow`. Each draws what it wraps,
//! so it shrinks as that value does.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::cmp::Reverse;
use std::fmt::Debug;
use std::num::{NonZero, Saturating, Wrapping};

use super::Arbitrary;
use super::leaf::opaque_debug;
use crate::encode::{EncodeError, Encoder};
use crate::span::TypeInfo;
use crate::test_case::TestCase;

/// Non-zero unsigned integers: `1..=MAX`, shrinking toward 1.
macro_rules! nonzero_unsigned {
    ($($t:ty),*) => {$(
        impl Arbitrary for NonZero<$t> {
            fn type_info() -> TypeInfo { TypeInfo::primitive::<Self>() }
            fn draw(tc: &mut TestCase) -> Self {
                NonZero::new(tc.draw_int(1, <$t>::MAX)).expect("drawn from 1..=MAX")
            }
            fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
                enc.write_int(self.get(), 1, <$t>::MAX)
            }
        }
        opaque_debug!(NonZero<$t>);
    )*};
}

/// Non-zero signed integers: `MIN..=MAX - 1` with the non-negative half
/// moved up by one, so 0 becomes 1 and shrinking heads for ±1.
macro_rules! nonzero_signed {
    ($($t:ty),*) => {$(
        impl Arbitrary for NonZero<$t> {
            fn type_info() -> TypeInfo { TypeInfo::primitive::<Self>() }
            fn draw(tc: &mut TestCase) -> Self {
                let v: $t = tc.draw_int(<$t>::MIN, <$t>::MAX - 1);
                NonZero::new(if v >= 0 { v + 1 } else { v }).expect("0 moved to 1")
            }
            fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
                let v = self.get();
                enc.write_int(if v > 0 { v - 1 } else { v }, <$t>::MIN, <$t>::MAX - 1)
            }
        }
        opaque_debug!(NonZero<$t>);
    )*};
}

nonzero_unsigned!(u8, u16, u32, u64, u128, usize);
nonzero_signed!(i8, i16, i32, i64, i128, isize);

/// A wrapper drawn as the value it wraps, with `$get` reading it back.
macro_rules! wraps {
    ([$($bounds:tt)*] $w:ident, $new:expr, $get:expr) => {
        impl<T: Arbitrary + $($bounds)*> Arbitrary for $w<T> {
            fn type_info() -> TypeInfo {
                TypeInfo::primitive::<Self>()
            }
            fn draw(tc: &mut TestCase) -> Self {
                let new: fn(T) -> Self = $new;
                new(T::generate(tc))
            }
            fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
                let get: fn(&Self) -> &T = $get;
                get(self).encode(enc)
            }
        }
        opaque_debug!({T: Debug + 'static} $w<T>);
    };
}

wraps!([] Wrapping, Wrapping, |w| &w.0);
wraps!([] Saturating, Saturating, |w| &w.0);
wraps!([] Reverse, Reverse, |w| &w.0);

impl<T: Arbitrary + Copy> Arbitrary for Cell<T> {
    fn type_info() -> TypeInfo {
        TypeInfo::primitive::<Self>()
    }
    fn draw(tc: &mut TestCase) -> Self {
        Cell::new(T::generate(tc))
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        self.get().encode(enc)
    }
}
opaque_debug!({T: Debug + Copy + 'static} Cell<T>);

impl<T: Arbitrary> Arbitrary for RefCell<T> {
    fn type_info() -> TypeInfo {
        TypeInfo::primitive::<Self>()
    }
    fn draw(tc: &mut TestCase) -> Self {
        RefCell::new(T::generate(tc))
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        match self.try_borrow() {
            Ok(v) => v.encode(enc),
            Err(_) => Err(EncodeError::Other("the RefCell is mutably borrowed".into())),
        }
    }
}
opaque_debug!({T: Debug + 'static} RefCell<T>);

/// Always owned: a generated value borrows from nothing.
impl<B> Arbitrary for Cow<'static, B>
where
    B: ToOwned + ?Sized + 'static,
    B::Owned: Arbitrary,
{
    fn type_info() -> TypeInfo {
        TypeInfo::primitive::<Self>()
    }
    fn draw(tc: &mut TestCase) -> Self {
        Cow::Owned(B::Owned::generate(tc))
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        match self {
            Cow::Owned(v) => v.encode(enc),
            Cow::Borrowed(b) => (*b).to_owned().encode(enc),
        }
    }
}
opaque_debug!({B: ToOwned<Owned: Debug> + Debug + ?Sized + 'static} Cow<'static, B>);
