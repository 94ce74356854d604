//! The types that have pools (the atoms of positive types): abstract
//! types, built only by the API, and ground types, drawn fresh. A
//! [`TypeDesc`] holds what the engine does with their values without
//! knowing their Rust type: clone, hash and compare them (by `Eq`, or by
//! their `Debug` form), and draw, print and size fresh ones.

use std::any::Any;
use std::fmt::{self, Debug};
use std::hash::Hash;
use std::sync::Arc;

use speccheck_core::{Term, TestCase};

use super::value::{Dyn, hash_one};

/// What an abstract type of `interface!` needs: the pools clone its
/// instances, reports show them, and equal instances are pooled once.
/// Implemented for every type that has these traits; a type that lacks
/// one gets this error at the macro, naming the trait.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an abstract type of `interface!`: it needs `Clone`, `Debug`, `Hash` and `Eq`",
    label = "add `#[derive(Clone, Debug, Hash, PartialEq, Eq)]` to `{Self}` (or implement the missing trait)",
    note = "the pools clone instances, reports show them, and equal instances are pooled once"
)]
pub trait AbstractType: Clone + Debug + Hash + Eq + 'static {}

impl<T: Clone + Debug + Hash + Eq + 'static> AbstractType for T {}

/// What a ground type of `interface!` needs (as an [`AbstractType`]; a
/// float, compared by its `Debug` form, needs only `Clone` and `Debug`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a ground type of `interface!`: it needs `Clone`, `Debug`, `Hash` and `Eq`",
    label = "add `#[derive(Clone, Debug, Hash, PartialEq, Eq)]` to `{Self}` (or implement the missing trait)",
    note = "fresh values are pooled: cloned, shown in programs, and kept once when equal"
)]
pub trait GroundType: Clone + Debug + Hash + Eq + 'static {}

impl<T: Clone + Debug + Hash + Eq + 'static> GroundType for T {}

/// Operations every pooled type needs.
#[derive(Clone, Copy)]
pub(crate) struct ValueOps {
    pub(crate) clone: fn(&dyn Any) -> Dyn,
    pub(crate) hash: fn(&dyn Any) -> u64,
    pub(crate) eq: fn(&dyn Any, &dyn Any) -> bool,
}

impl ValueOps {
    /// Through the type's own `Clone`, `Hash` and `Eq`.
    pub(crate) fn of<T: Clone + Hash + Eq + 'static>() -> Self {
        ValueOps { clone: clone_of::<T>, hash: hash_of::<T>, eq: eq_of::<T> }
    }

    /// Through `Clone`, hashing and comparing the `Debug` form (a type
    /// without `Hash`/`Eq`, such as floats).
    pub(crate) fn by_debug<T: Clone + Debug + 'static>() -> Self {
        ValueOps { clone: clone_of::<T>, hash: hash_by_debug::<T>, eq: eq_by_debug::<T> }
    }
}

fn cast<T: 'static>(v: &dyn Any) -> &T {
    v.downcast_ref::<T>().expect("speccheck-interface: an instance has the wrong type")
}

fn clone_of<T: Clone + 'static>(v: &dyn Any) -> Dyn {
    Box::new(cast::<T>(v).clone())
}

fn hash_of<T: Hash + 'static>(v: &dyn Any) -> u64 {
    hash_one(cast::<T>(v))
}

fn eq_of<T: Eq + 'static>(a: &dyn Any, b: &dyn Any) -> bool {
    cast::<T>(a) == cast::<T>(b)
}

fn hash_by_debug<T: Debug + 'static>(v: &dyn Any) -> u64 {
    hash_one(&format!("{:?}", cast::<T>(v)))
}

fn eq_by_debug<T: Debug + 'static>(a: &dyn Any, b: &dyn Any) -> bool {
    format!("{:?}", cast::<T>(a)) == format!("{:?}", cast::<T>(b))
}

pub(crate) type DrawFn = Arc<dyn Fn(&mut TestCase) -> Dyn + Send + Sync>;

/// How fresh values of a ground type are made.
#[derive(Clone)]
pub(crate) struct Ground {
    pub(crate) draw: DrawFn,
    pub(crate) term: fn(&dyn Any) -> Term,
    /// The length of a value's `Debug` form, counted up to a limit (a
    /// size to compare values a call returned with the ones drawn).
    pub(crate) size: fn(&dyn Any, usize) -> usize,
    pub(crate) initial: Option<usize>,
    pub(crate) per_round: Option<usize>,
}

/// Abstract or ground.
#[derive(Clone)]
pub(crate) enum Kind {
    Abstract,
    Ground(Ground),
}

/// A pooled type.
#[derive(Clone)]
pub(crate) struct TypeDesc {
    pub(crate) name: String,
    pub(crate) prefix: String,
    /// The crate that defines it (abstract types: the crate under test;
    /// see [`crate_of`]).
    pub(crate) krate: Option<String>,
    pub(crate) kind: Kind,
    pub(crate) ops: ValueOps,
    /// How many instances its pool holds, when not the run's `pool_bound`.
    pub(crate) bound: Option<usize>,
}

impl TypeDesc {
    /// An abstract type named `name`: its instances are only ever built by
    /// calling the API.
    pub(crate) fn new_abstract<T: Clone + Debug + Hash + Eq + 'static>(name: &str) -> Self {
        TypeDesc {
            name: name.to_string(),
            prefix: prefix_of(name),
            krate: crate_of(std::any::type_name::<T>()),
            kind: Kind::Abstract,
            ops: ValueOps::of::<T>(),
            bound: None,
        }
    }

    /// A ground type named `name` whose fresh values come from `generator`
    /// (replayable and encodable: they are choices of a test case).
    pub(crate) fn new_ground<T, G>(name: &str, generator: G, ops: ValueOps) -> Self
    where
        T: Clone + Debug + 'static,
        G: speccheck_core::Generator<Value = T> + 'static,
    {
        let draw: DrawFn =
            Arc::new(move |tc: &mut TestCase| Box::new(speccheck_core::Generator::generate(&generator, tc)) as Dyn);
        fn term<T: Debug + 'static>(v: &dyn Any) -> Term {
            Term::debug(cast::<T>(v))
        }
        fn size<T: Debug + 'static>(v: &dyn Any, limit: usize) -> usize {
            debug_len(cast::<T>(v), limit)
        }
        let ground = Ground { draw, term: term::<T>, size: size::<T>, initial: None, per_round: None };
        TypeDesc {
            name: name.to_string(),
            prefix: prefix_of(name),
            krate: None,
            kind: Kind::Ground(ground),
            ops,
            bound: None,
        }
    }

    pub(crate) fn is_abstract(&self) -> bool {
        matches!(self.kind, Kind::Abstract)
    }

    pub(crate) fn ground(&self) -> Option<&Ground> {
        match &self.kind {
            Kind::Ground(g) => Some(g),
            Kind::Abstract => None,
        }
    }
}

/// The length of `v`'s `Debug` form, or a number past `limit` once it is
/// longer (formatting stops there: a huge value costs no more than `limit`).
fn debug_len<T: Debug + ?Sized>(v: &T, limit: usize) -> usize {
    struct Count {
        n: usize,
        limit: usize,
    }
    impl fmt::Write for Count {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            self.n += s.len();
            if self.n > self.limit { Err(fmt::Error) } else { Ok(()) }
        }
    }
    let mut c = Count { n: 0, limit };
    let _ = fmt::write(&mut c, format_args!("{v:?}"));
    c.n
}

/// The first crate named in a type's path that is not speccheck's or the
/// standard library's: `im` in `Model<im::OrdMap<u16, u16>, BTreeMap<…>>`.
fn crate_of(type_name: &str) -> Option<String> {
    const SKIP: [&str; 6] = ["speccheck_interface", "speccheck", "speccheck_core", "std", "core", "alloc"];
    type_name
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .filter_map(|path| path.split_once("::").map(|(krate, _)| krate))
        .find(|krate| !krate.is_empty() && !SKIP.contains(krate))
        .map(str::to_string)
}

/// The prefix of the variables holding a type's instances in programs
/// (`s0`, `s1`, … for `Set`; `v` when the name has no letter).
fn prefix_of(name: &str) -> String {
    let base = name.rsplit("::").next().unwrap_or(name);
    match base.chars().find(|c| c.is_alphabetic()) {
        Some(c) => c.to_lowercase().collect(),
        None => "v".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crate_under_test_is_read_from_the_type_path() {
        let m = "speccheck_interface::reference::Model<im::ord::map::OrdMap<u16, u16>, alloc::collections::btree::map::BTreeMap<u16, u16>>";
        assert_eq!(crate_of(m).as_deref(), Some("im"));
        assert_eq!(crate_of("deep::ChunkMap").as_deref(), Some("deep"));
        assert_eq!(crate_of("alloc::vec::Vec<i32>"), None);
    }
}
