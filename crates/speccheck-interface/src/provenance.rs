//! Provenance: every instance remembers how it was built.
//!
//! An instance's `Origin` is a fresh ground value (a `Literal`, with the
//! choices that drew it), a part of a call's result (the call and the path
//! to the part, for results that were destructed), or an argument passed
//! by `&mut` as it was after a call. A `CallNode` records the function
//! and the provenance of each argument, so following origins from any
//! instance gives the client program that built it
//! (`crate::program::Program::slice`).
//!
//! Nodes are reference-counted: when an instance leaves its pool, its
//! provenance lives on only as long as some surviving instance was built
//! from it, so memory stays bounded with the pools.

use std::sync::Arc;

use speccheck_core::{Choice, Term};

/// A fresh value of a ground type.
#[derive(Debug)]
pub(crate) struct Literal {
    /// How it is written.
    pub(crate) term: Term,
    /// The choices its generator made (to replay and shrink it).
    pub(crate) choices: Vec<Choice>,
}

/// One call of an API function.
#[derive(Debug)]
pub(crate) struct CallNode {
    /// The function, by index.
    pub(crate) fun: usize,
    /// Where each argument came from.
    pub(crate) args: Vec<ArgProv>,
    /// Calls are numbered in the order they were made: a call's arguments
    /// always come from earlier calls.
    pub(crate) serial: u64,
}

/// One step from a value to a part of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Step {
    /// Field `field` of variant `variant` of a sum of products.
    Field(u32, u32),
    /// Element `i` of a container.
    Elem(u32),
}

/// Where an instance came from.
#[derive(Clone, Debug)]
pub(crate) enum Origin {
    /// A fresh ground value.
    Literal(Arc<Literal>),
    /// The part at `path` of what `call` returned (the whole result for an
    /// empty path).
    Part { call: Arc<CallNode>, path: Vec<Step> },
    /// Argument `arg` of `call`, passed by `&mut`, as the call left it.
    Mutated { call: Arc<CallNode>, arg: u32 },
}

/// Where one argument came from, mirroring its shape.
#[derive(Clone, Debug)]
pub(crate) enum ArgProv {
    /// An instance from a pool.
    Atom(Origin),
    /// A constructed variant with its fields.
    Data { variant: u32, fields: Vec<ArgProv> },
    /// A constructed container with its elements.
    List(Vec<ArgProv>),
}

impl ArgProv {
    /// Every origin inside, in order.
    pub(crate) fn origins<'a>(&'a self, out: &mut Vec<&'a Origin>) {
        match self {
            ArgProv::Atom(o) => out.push(o),
            ArgProv::Data { fields, .. } => fields.iter().for_each(|f| f.origins(out)),
            ArgProv::List(items) => items.iter().for_each(|f| f.origins(out)),
        }
    }
}

impl Origin {
    /// The call this instance came out of, if any.
    pub(crate) fn call(&self) -> Option<&Arc<CallNode>> {
        match self {
            Origin::Literal(_) => None,
            Origin::Part { call, .. } | Origin::Mutated { call, .. } => Some(call),
        }
    }
}
