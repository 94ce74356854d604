//! The API's functions as the description declares them (the *negative*
//! types of ArtiCheck §3.1: computations from arguments to a result): how
//! each argument is passed, how a call is written in a client program,
//! and the closure that makes the call.

use std::sync::Arc;

use super::args::Args;
use super::pos::{Pos, unit};
use super::value::Dyn;

/// How a function receives an argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// By value: the function gets a clone of the instance.
    Owned,
    /// By shared reference: the function borrows the instance in the pool.
    Ref,
    /// By `&mut`: the function gets a clone, and the clone after the call
    /// becomes a new instance (the instance in the pool never changes).
    Mut,
}

/// One argument of a function or law.
#[derive(Clone, Debug)]
pub struct Param {
    /// Its name in the signature (`self`, `x`).
    pub name: String,
    /// How it is passed.
    pub mode: Mode,
    /// Its type.
    pub pos: Pos,
}

impl Param {
    /// An argument.
    pub fn new(name: impl Into<String>, mode: Mode, pos: Pos) -> Self {
        Param { name: name.into(), mode, pos }
    }
}

/// How a call is written in a client program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallStyle {
    /// A path applied to the arguments: `Set::empty()`, `set::union(&a, &b)`.
    Path(String),
    /// A method of the first argument: `s.insert(3)`.
    Method(String),
}

/// Why a call produced no instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallError {
    /// The call was rightly refused (both the candidate and the reference
    /// panicked): nothing is produced, nothing is wrong.
    Refused,
    /// The candidate and the reference disagree (reference-model mode), or
    /// a nondeterministic result was not accepted by the reference.
    Mismatch(String),
}

/// What a function's closure does: read its arguments, call, box the result.
pub type CallFn = Arc<dyn Fn(&mut Args<'_>) -> Result<Dyn, CallError> + Send + Sync>;

/// One function (or method) of the API.
#[derive(Clone)]
pub struct Function {
    pub(crate) name: String,
    pub(crate) style: CallStyle,
    pub(crate) params: Vec<Param>,
    pub(crate) ret: Pos,
    pub(crate) call: Option<CallFn>,
    pub(crate) panics_allowed: bool,
    pub(crate) nondeterministic: bool,
    pub(crate) weight: u32,
}

impl Function {
    /// A function named `name`, written as `style` in programs, returning
    /// `()` until [`returns`](Self::returns) says otherwise.
    pub fn new(name: impl Into<String>, style: CallStyle) -> Self {
        Function {
            name: name.into(),
            style,
            params: Vec::new(),
            ret: unit(),
            call: None,
            panics_allowed: false,
            nondeterministic: false,
            weight: 1,
        }
    }

    /// Adds an argument (the receiver first, for a method).
    pub fn param(mut self, name: impl Into<String>, mode: Mode, pos: Pos) -> Self {
        self.params.push(Param::new(name, mode, pos));
        self
    }

    /// Sets the result type.
    pub fn returns(mut self, pos: Pos) -> Self {
        self.ret = pos;
        self
    }

    /// Sets the body: reads the arguments from [`Args`] and returns the
    /// boxed result, or why there is none.
    pub fn call(mut self, f: impl Fn(&mut Args<'_>) -> Result<Dyn, CallError> + Send + Sync + 'static) -> Self {
        self.call = Some(Arc::new(f));
        self
    }

    /// Sets a body that always returns a value.
    pub fn body<R: 'static>(self, f: impl Fn(&mut Args<'_>) -> R + Send + Sync + 'static) -> Self {
        self.call(move |a| Ok(Box::new(f(a)) as Dyn))
    }

    /// A panic of this function is not a bug: the call just produces
    /// nothing (a documented precondition, such as `pop` on an empty stack).
    pub fn panics_allowed(mut self, allowed: bool) -> Self {
        self.panics_allowed = allowed;
        self
    }

    /// How often deep search picks this function among those it can call
    /// on an instance, relative to the others (1 by default; at least 1).
    /// Breadth-first rounds call every function alike.
    pub fn weight(mut self, weight: u32) -> Self {
        self.weight = weight.max(1);
        self
    }

    /// The function may legitimately return different results (reference
    /// mode compares it through a validator instead of by equality).
    pub fn nondeterministic(mut self, yes: bool) -> Self {
        self.nondeterministic = yes;
        self
    }

    /// The function's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}
