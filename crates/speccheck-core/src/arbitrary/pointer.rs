//! `Box`, `Rc` and `Arc`: transparent. They open no span of their own and
//! print as their contents (as their `Debug` does), so `Box<Expr>` fields
//! read like the expression they hold.

use std::any::Any;
use std::rc::Rc;
use std::sync::Arc;

use super::Arbitrary;
use crate::encode::{EncodeError, Encoder};
use crate::span::TypeInfo;
use crate::term::Term;
use crate::test_case::TestCase;
use crate::tree::TreeView;

macro_rules! transparent {
    ($ptr:ident, $get_mut:expr) => {
        impl<T: Arbitrary> Arbitrary for $ptr<T> {
            fn type_info() -> TypeInfo {
                T::type_info()
            }
            fn draw(tc: &mut TestCase) -> Self {
                $ptr::new(T::draw(tc))
            }
            #[inline]
            fn generate(tc: &mut TestCase) -> Self {
                $ptr::new(T::generate(tc))
            }
            fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
                (**self).encode(enc)
            }
        }

        impl<T: TreeView> TreeView for $ptr<T> {
            fn constructor(&self) -> &'static str {
                (**self).constructor()
            }
            fn constructors(&self) -> &'static [&'static str] {
                (**self).constructors()
            }
            fn is_opaque(&self) -> bool {
                (**self).is_opaque()
            }
            fn children(&self) -> Vec<&dyn TreeView> {
                (**self).children()
            }
            fn replace_child(&mut self, index: usize, value: Box<dyn Any>) -> Result<(), Box<dyn Any>> {
                let get_mut: fn(&mut $ptr<T>) -> Option<&mut T> = $get_mut;
                match get_mut(self) {
                    Some(inner) => inner.replace_child(index, value),
                    None => Err(value),
                }
            }
            fn to_term(&self) -> Term {
                (**self).to_term()
            }
            fn as_any(&self) -> &dyn Any {
                self
            }
            fn size(&self) -> usize {
                (**self).size()
            }
        }
    };
}

transparent!(Box, |b| Some(&mut **b));
transparent!(Rc, Rc::get_mut);
transparent!(Arc, Arc::get_mut);
