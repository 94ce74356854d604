//! Fixed-size arrays.

use std::any::Any;

use super::Arbitrary;
use crate::encode::{EncodeError, Encoder};
use crate::span::TypeInfo;
use crate::term::Term;
use crate::test_case::TestCase;
use crate::tree::TreeView;

impl<T: Arbitrary, const N: usize> Arbitrary for [T; N] {
    fn type_info() -> TypeInfo {
        TypeInfo::of::<Self>(&[], false)
    }
    fn draw(tc: &mut TestCase) -> Self {
        std::array::from_fn(|_| T::generate(tc))
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        self.iter().try_for_each(|x| x.encode(enc))
    }
}

impl<T: TreeView, const N: usize> TreeView for [T; N] {
    fn constructor(&self) -> &'static str {
        "[..]"
    }
    fn constructors(&self) -> &'static [&'static str] {
        &["[..]"]
    }
    fn children(&self) -> Vec<&dyn TreeView> {
        self.iter().map(|x| x as &dyn TreeView).collect()
    }
    fn replace_child(&mut self, index: usize, value: Box<dyn Any>) -> Result<(), Box<dyn Any>> {
        match self.get_mut(index) {
            Some(slot) => {
                *slot = *value.downcast::<T>()?;
                Ok(())
            }
            None => Err(value),
        }
    }
    fn to_term(&self) -> Term {
        Term::seq("[", "]", self.iter().map(TreeView::to_term).collect())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
