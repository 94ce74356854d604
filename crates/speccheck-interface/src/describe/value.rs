//! Values as the engine moves them: of any type ([`Dyn`]), named in
//! messages by their type's short name, hashed alike in every process.

use std::any::Any;
use std::hash::{Hash, Hasher};

/// A value of any type, as the engine moves it around.
pub type Dyn = Box<dyn Any>;

/// The short name of a type (`Vec<i32>`).
pub fn short<T: ?Sized>() -> String {
    speccheck_core::span::short_type_name(std::any::type_name::<T>()).to_string()
}

/// A deterministic hash (SipHash with fixed keys): runs do not depend on
/// the process.
pub(crate) fn hash_one<T: Hash + ?Sized>(v: &T) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    v.hash(&mut h);
    h.finish()
}
