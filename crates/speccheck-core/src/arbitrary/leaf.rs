//! Tree views of std types that reduction treats as one opaque value,
//! printed with `Debug` (a `Duration`, an address, a path).

/// Implements [`TreeView`](crate::tree::TreeView) as an opaque leaf printed
/// with `Debug`; generic parameters go in braces first:
/// `opaque_debug!({T: Debug + 'static} Wrapping<T>)`.
macro_rules! opaque_debug {
    ($({$($g:tt)*})? $t:ty) => {
        impl$(<$($g)*>)? $crate::tree::TreeView for $t {
            fn constructor(&self) -> &'static str { "" }
            fn constructors(&self) -> &'static [&'static str] { &[] }
            fn is_opaque(&self) -> bool { true }
            fn children(&self) -> Vec<&dyn $crate::tree::TreeView> { Vec::new() }
            fn replace_child(&mut self, _: usize, v: Box<dyn std::any::Any>) -> Result<(), Box<dyn std::any::Any>> { Err(v) }
            fn to_term(&self) -> $crate::term::Term { $crate::term::Term::debug(self) }
            fn as_any(&self) -> &dyn std::any::Any { self }
        }
    };
}
pub(crate) use opaque_debug;
