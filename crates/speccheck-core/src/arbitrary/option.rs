//! `Option` and `Result`.

use std::any::Any;

use super::Arbitrary;
use crate::encode::{EncodeError, Encoder};
use crate::gens::option::{OPTION_CTORS, RESULT_CTORS, draw_option, draw_result, write_option, write_result};
use crate::span::TypeInfo;
use crate::term::Term;
use crate::test_case::TestCase;
use crate::tree::TreeView;

fn option_info<T: 'static>() -> TypeInfo {
    TypeInfo::of::<Option<T>>(OPTION_CTORS, false)
}

impl<T: Arbitrary> Arbitrary for Option<T> {
    fn type_info() -> TypeInfo {
        option_info::<T>()
    }
    fn draw(tc: &mut TestCase) -> Self {
        draw_option(tc, T::generate)
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        write_option(self, enc, |x, enc| x.encode(enc))
    }
}

impl<T: TreeView> TreeView for Option<T> {
    fn constructor(&self) -> &'static str {
        OPTION_CTORS[usize::from(self.is_some())]
    }
    fn constructors(&self) -> &'static [&'static str] {
        OPTION_CTORS
    }
    fn children(&self) -> Vec<&dyn TreeView> {
        self.iter().map(|x| x as &dyn TreeView).collect()
    }
    fn replace_child(&mut self, index: usize, value: Box<dyn Any>) -> Result<(), Box<dyn Any>> {
        match (self, index) {
            (Some(x), 0) => {
                *x = *value.downcast::<T>()?;
                Ok(())
            }
            _ => Err(value),
        }
    }
    fn to_term(&self) -> Term {
        match self {
            None => Term::unit("None"),
            Some(x) => Term::call("Some", vec![x.to_term()]),
        }
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn result_info<T: 'static, E: 'static>() -> TypeInfo {
    TypeInfo::of::<Result<T, E>>(RESULT_CTORS, false)
}

impl<T: Arbitrary, E: Arbitrary> Arbitrary for Result<T, E> {
    fn type_info() -> TypeInfo {
        result_info::<T, E>()
    }
    fn draw(tc: &mut TestCase) -> Self {
        draw_result(tc, T::generate, E::generate)
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        write_result(self, enc, |x, enc| x.encode(enc), |e, enc| e.encode(enc))
    }
}

impl<T: TreeView, E: TreeView> TreeView for Result<T, E> {
    fn constructor(&self) -> &'static str {
        RESULT_CTORS[usize::from(self.is_err())]
    }
    fn constructors(&self) -> &'static [&'static str] {
        RESULT_CTORS
    }
    fn children(&self) -> Vec<&dyn TreeView> {
        match self {
            Ok(x) => vec![x as &dyn TreeView],
            Err(e) => vec![e as &dyn TreeView],
        }
    }
    fn replace_child(&mut self, index: usize, value: Box<dyn Any>) -> Result<(), Box<dyn Any>> {
        match (self, index) {
            (Ok(x), 0) => {
                *x = *value.downcast::<T>()?;
                Ok(())
            }
            (Err(e), 0) => {
                *e = *value.downcast::<E>()?;
                Ok(())
            }
            _ => Err(value),
        }
    }
    fn to_term(&self) -> Term {
        match self {
            Ok(x) => Term::call("Ok", vec![x.to_term()]),
            Err(e) => Term::call("Err", vec![e.to_term()]),
        }
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
