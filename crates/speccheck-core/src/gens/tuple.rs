//! Tuples of generators generate tuples (up to 12 components).

use super::Generator;
use crate::encode::{EncodeError, Encoder};
use crate::span::{SpanKind, TypeInfo};
use crate::test_case::TestCase;

/// The one constructor name of a tuple.
pub const TUPLE_CTORS: &[&str] = &["(..)"];

macro_rules! tuple_gen {
    ($($g:ident $v:ident $i:tt),+) => {
        impl<$($g: Generator),+> Generator for ($($g,)+)
        where $($g::Value: 'static),+
        {
            type Value = ($($g::Value,)+);
            fn generate(&self, tc: &mut TestCase) -> Self::Value {
                fn info<T: 'static>() -> TypeInfo { TypeInfo::of::<T>(TUPLE_CTORS, false) }
                tc.start_span(SpanKind::Value, info::<Self::Value>, "");
                let v = ($(self.$i.generate(tc),)+);
                tc.stop_span(SpanKind::Value);
                v
            }
            fn encode(&self, value: &Self::Value, enc: &mut Encoder) -> Result<(), EncodeError> {
                $(self.$i.encode(&value.$i, enc)?;)+
                Ok(())
            }
        }
    };
}

tuple_gen!(A a 0);
tuple_gen!(A a 0, B b 1);
tuple_gen!(A a 0, B b 1, C c 2);
tuple_gen!(A a 0, B b 1, C c 2, D d 3);
tuple_gen!(A a 0, B b 1, C c 2, D d 3, E e 4);
tuple_gen!(A a 0, B b 1, C c 2, D d 3, E e 4, F f 5);
tuple_gen!(A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6);
tuple_gen!(A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6, H h 7);
tuple_gen!(A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6, H h 7, I i 8);
tuple_gen!(A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6, H h 7, I i 8, J j 9);
tuple_gen!(A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6, H h 7, I i 8, J j 9, K k 10);
tuple_gen!(A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6, H h 7, I i 8, J j 9, K k 10, L l 11);
