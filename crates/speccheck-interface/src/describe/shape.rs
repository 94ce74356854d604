//! Positive types resolved against the declarations: a [`Shape`] is a
//! [`Pos`](super::Pos) whose atoms are pools (indices into the API's
//! types) and whose data types are seen through, as the engine produces
//! arguments and destructs results.

use std::sync::Arc;

use super::pooled::TypeDesc;
use super::pos::{DataDesc, ListDesc};
use super::value::Dyn;
use crate::provenance::Step;

/// A positive type with its atoms resolved to pools.
#[derive(Clone)]
pub(crate) enum Shape {
    Atom(usize),
    Data(Arc<DataDesc>, Arc<Vec<Vec<Shape>>>),
    List(Arc<ListDesc>, Arc<Shape>),
}

/// What [`Shape::parts`] calls on each atom: its pool, the value, the path.
pub(crate) type PartFn<'a, E> = dyn FnMut(usize, Dyn, &[Step]) -> Result<(), E> + 'a;

impl Shape {
    /// Takes a value of this shape apart: `f` gets every atom inside (its
    /// pool, the value, the path to it from `path`), in order.
    pub(crate) fn parts<E>(&self, value: Dyn, path: &mut Vec<Step>, f: &mut PartFn<'_, E>) -> Result<(), E> {
        match self {
            Shape::Atom(k) => f(*k, value, path),
            Shape::Data(d, vs) => {
                let (v, fields) = d.ops.split(&*value);
                for (i, field) in fields.into_iter().enumerate() {
                    path.push(Step::Field(v as u32, i as u32));
                    vs[v][i].parts(field, path, f)?;
                    path.pop();
                }
                Ok(())
            }
            Shape::List(l, e) => {
                for (i, item) in l.ops.split(&*value).into_iter().enumerate() {
                    path.push(Step::Elem(i as u32));
                    e.parts(item, path, f)?;
                    path.pop();
                }
                Ok(())
            }
        }
    }

    /// Every pool this shape can yield instances of when destructed.
    pub(crate) fn atoms(&self, out: &mut Vec<usize>) {
        match self {
            Shape::Atom(k) => out.push(*k),
            Shape::Data(_, vs) => vs.iter().flatten().for_each(|s| s.atoms(out)),
            Shape::List(_, e) => e.atoms(out),
        }
    }

    /// Whether a value of this shape can be produced from the pools that
    /// are `inhabited`.
    pub(crate) fn producible(&self, inhabited: &[bool]) -> bool {
        match self {
            Shape::Atom(k) => inhabited[*k],
            Shape::Data(_, vs) => vs.iter().any(|fields| fields.iter().all(|f| f.producible(inhabited))),
            Shape::List(..) => true,
        }
    }

    /// The type's name as written, its atoms named after `types`.
    pub(crate) fn name(&self, types: &[TypeDesc]) -> String {
        match self {
            Shape::Atom(k) => types[*k].name.clone(),
            Shape::Data(d, _) => d.name.clone(),
            Shape::List(l, _) => l.name.clone(),
        }
    }
}
