//! Tuples up to 12 components.

use std::any::Any;

use super::Arbitrary;
use crate::encode::{EncodeError, Encoder};
use crate::gens::tuple::TUPLE_CTORS;
use crate::span::TypeInfo;
use crate::term::Term;
use crate::test_case::TestCase;
use crate::tree::TreeView;

macro_rules! tuple_arbitrary {
    ($($t:ident $i:tt),+) => {
        impl<$($t: Arbitrary),+> Arbitrary for ($($t,)+) {
            fn type_info() -> TypeInfo { TypeInfo::of::<Self>(TUPLE_CTORS, false) }
            fn draw(tc: &mut TestCase) -> Self { ($($t::generate(tc),)+) }
            fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
                $(self.$i.encode(enc)?;)+
                Ok(())
            }
        }

        impl<$($t: TreeView),+> TreeView for ($($t,)+) {
            fn constructor(&self) -> &'static str { TUPLE_CTORS[0] }
            fn constructors(&self) -> &'static [&'static str] { TUPLE_CTORS }
            fn children(&self) -> Vec<&dyn TreeView> { vec![$(&self.$i as &dyn TreeView),+] }
            fn replace_child(&mut self, index: usize, value: Box<dyn Any>) -> Result<(), Box<dyn Any>> {
                match index {
                    $($i => { self.$i = *value.downcast::<$t>()?; Ok(()) })+
                    _ => Err(value),
                }
            }
            fn to_term(&self) -> Term { Term::Tuple(vec![$(self.$i.to_term()),+]) }
            fn as_any(&self) -> &dyn Any { self }
        }
    };
}

tuple_arbitrary!(A 0);
tuple_arbitrary!(A 0, B 1);
tuple_arbitrary!(A 0, B 1, C 2);
tuple_arbitrary!(A 0, B 1, C 2, D 3);
tuple_arbitrary!(A 0, B 1, C 2, D 3, E 4);
tuple_arbitrary!(A 0, B 1, C 2, D 3, E 4, F 5);
tuple_arbitrary!(A 0, B 1, C 2, D 3, E 4, F 5, G 6);
tuple_arbitrary!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);
tuple_arbitrary!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8);
tuple_arbitrary!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9);
tuple_arbitrary!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10);
tuple_arbitrary!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11);
