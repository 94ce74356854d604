//! The meaning of "depth", shared with the core's exhaustive enumeration
//! ([`speccheck_core::enumerate`]), so that the SMT, exhaustive and lazy
//! strategies enumerate the same inputs at the same depth:
//!
//! * each argument of a function gets the whole depth `d`;
//! * an integer at depth `d` ranges over `-d..=d` (signed types) or
//!   `0..=2d` (unsigned), clipped to its type;
//! * a data value at depth `d` takes any constructor; at depth 0 only those
//!   not declared recursive ([`CtorDef::recursive`]) and holding no field of
//!   a data type open above it or its own (the value's *path*): so
//!   recursion found anywhere in the type graph — a type naming itself,
//!   `struct N { next: Option<Box<N>> }`, mutually recursive types — ends at
//!   the depth (the core cuts off the same values: a value span whose type
//!   is open above it, where its parent's budget is spent). Its fields get
//!   depth `d - 1`;
//! * a `Vec` at depth `d` has at most `d` elements, each at depth `d - 1`.
//!
//! A constructor may then have no value at a place (every way down meets a
//! type on its path at depth 0): it is left out there. A type with no
//! finite value at all is an error before any search ([`Ty::unbounded`]).

use speccheck_spec::{CtorDef, DataDef, DataRef, Ty, Value};

/// The integers an integer of type range `lo..=hi` takes at depth `d`.
pub fn int_window(lo: i128, hi: i128, d: u32) -> (i128, i128) {
    let d = i128::from(d);
    if lo < 0 { ((-d).max(lo), d.min(hi)) } else { (lo, (lo + 2 * d).min(hi)) }
}

/// The depth of a data value's fields (and of a sequence's elements).
pub fn below(d: u32) -> u32 {
    d.saturating_sub(1)
}

/// Whether a field of type `field` goes back to a data type on `path` (the
/// data types from the argument down to the field's node, that node's own
/// last): a recursive step.
pub fn reenters(field: &Ty, path: &[DataRef]) -> bool {
    matches!(field, Ty::Data(r) if path.contains(r))
}

/// Whether constructor `c` has a field going back to a type on `path`.
pub fn recursive_step(c: &CtorDef, path: &[DataRef]) -> bool {
    c.fields.iter().any(|f| reenters(&f.ty, path))
}

/// The constructors of `def` a value at depth `d` on `path` (its own type
/// last) may take; with `flat`, also none with a recursive step (the SMT
/// strategy's height limit). The second result is true when `flat` took
/// away a constructor the depth allowed.
pub fn constructors(def: &DataDef, path: &[DataRef], d: u32, flat: bool) -> (Vec<usize>, bool) {
    let mut cut = false;
    let allowed = (0..def.ctors.len())
        .filter(|&i| {
            let c = &def.ctors[i];
            if d == 0 {
                return !c.recursive && !recursive_step(c, path);
            }
            let stepped = flat && recursive_step(c, path);
            cut |= stepped;
            !stepped
        })
        .collect();
    (allowed, cut)
}

/// An input's height, as the solver's heights count it
/// ([`crate::smt::Search`] makes the inputs height by height): the most
/// recursive steps ([`reenters`]) on a way down from an argument to a data
/// value, element `k` of a sequence sitting `k + 1` steps below it.
pub fn input_height(args: &[Value], types: &[Ty]) -> u32 {
    args.iter().zip(types).map(|(v, ty)| height(v, ty, &mut Vec::new(), &|_| 0)).max().unwrap_or(0)
}

/// The greatest height a completion of the partial input `args` can have:
/// its height with each hole counted as the most `reach(hole)` says the
/// hole's value can add ([`reach`] of the hole's type and depth).
pub(crate) fn partial_height(args: &[Value], types: &[Ty], reach: &dyn Fn(u32) -> u32) -> u32 {
    args.iter().zip(types).map(|(v, ty)| height(v, ty, &mut Vec::new(), reach)).max().unwrap_or(0)
}

fn height(v: &Value, ty: &Ty, path: &mut Vec<DataRef>, hole: &dyn Fn(u32) -> u32) -> u32 {
    match (v, ty) {
        (Value::Hole(id), _) => hole(*id),
        (Value::Data { ctor, fields, .. }, Ty::Data(r)) => {
            path.push(r.clone());
            let def = r.get();
            let h = fields
                .iter()
                .zip(&def.ctors[*ctor].fields)
                .map(|(f, fd)| u32::from(reenters(&fd.ty, path)) + height(f, &fd.ty, path, hole))
                .max()
                .unwrap_or(0);
            path.pop();
            h
        }
        (Value::Seq(xs), Ty::Seq(elem)) => {
            xs.iter().enumerate().map(|(k, x)| k as u32 + 1 + height(x, elem, path, hole)).max().unwrap_or(0)
        }
        _ => 0,
    }
}

/// At most how much height a value of `ty` at depth `d` adds below where
/// it sits: a data field may be a recursive step (one each), a sequence
/// at depth `d` has at most `d` elements, and nothing at depth 0 steps
/// back into a type above it (see the module docs). An upper bound, so
/// that a partial input it rules out has no completion tall enough;
/// `memo` keeps what was worked out for data types, by depth (each call
/// goes one depth down, so none waits on itself).
pub(crate) fn reach(ty: &Ty, d: u32, memo: &mut std::collections::HashMap<(DataRef, u32), u32>) -> u32 {
    if d == 0 {
        return 0;
    }
    match ty {
        Ty::Int { .. } | Ty::Bool | Ty::Set(_) => 0,
        Ty::Seq(elem) => d + reach(elem, d - 1, memo),
        Ty::Data(r) => {
            if let Some(&h) = memo.get(&(r.clone(), d)) {
                return h;
            }
            let def = r.get();
            let h = def
                .ctors
                .iter()
                .flat_map(|c| &c.fields)
                .map(|f| u32::from(matches!(f.ty, Ty::Data(_))) + reach(&f.ty, d - 1, memo))
                .max()
                .unwrap_or(0);
            memo.insert((r.clone(), d), h);
            h
        }
    }
}
