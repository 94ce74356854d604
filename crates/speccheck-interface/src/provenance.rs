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
use std::sync::atomic::{AtomicU64, Ordering};

use speccheck_core::{Choice, Term};

/// Counts the calls a search has recorded and still holds (its live
/// [`CallNode`]s: the lineages of the pools' instances and of the walks),
/// against [`Config::recorded_calls_budget`](crate::Config::recorded_calls_budget).
/// A count, not the resident memory: the same seed stops at the same call
/// on every machine, and what the search itself keeps is what it can bound.
#[derive(Clone, Debug, Default)]
pub(crate) struct Ledger(Arc<LedgerCounts>);

#[derive(Debug, Default)]
pub(crate) struct LedgerCounts {
    alive: AtomicU64,
    peak: AtomicU64,
}

impl Ledger {
    /// Recorded calls alive now.
    pub(crate) fn alive(&self) -> u64 {
        self.0.alive.load(Ordering::Relaxed)
    }

    /// Most recorded calls alive at once.
    pub(crate) fn peak(&self) -> u64 {
        self.0.peak.load(Ordering::Relaxed)
    }

    fn add(&self) {
        let now = self.0.alive.fetch_add(1, Ordering::Relaxed) + 1;
        self.0.peak.fetch_max(now, Ordering::Relaxed);
    }

    fn remove(&self) {
        self.0.alive.fetch_sub(1, Ordering::Relaxed);
    }
}

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
    /// The length of its lineage: 1 + the longest lineage among its
    /// arguments (a literal's is 0).
    pub(crate) depth: u64,
    /// Where it is counted while it lives.
    ledger: Ledger,
}

impl CallNode {
    /// A call of `fun` on arguments from `args`, counted in `ledger`.
    pub(crate) fn new(fun: usize, args: Vec<ArgProv>, serial: u64, ledger: &Ledger) -> Self {
        let depth = 1 + args.iter().map(ArgProv::depth).max().unwrap_or(0);
        ledger.add();
        CallNode { fun, args, serial, depth, ledger: ledger.clone() }
    }
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
    /// The longest lineage of an instance inside.
    pub(crate) fn depth(&self) -> u64 {
        match self {
            ArgProv::Atom(o) => o.depth(),
            ArgProv::Data { fields: items, .. } | ArgProv::List(items) => {
                items.iter().map(ArgProv::depth).max().unwrap_or(0)
            }
        }
    }

    /// Every origin inside, in order.
    pub(crate) fn origins<'a>(&'a self, out: &mut Vec<&'a Origin>) {
        match self {
            ArgProv::Atom(o) => out.push(o),
            ArgProv::Data { fields, .. } => fields.iter().for_each(|f| f.origins(out)),
            ArgProv::List(items) => items.iter().for_each(|f| f.origins(out)),
        }
    }
}

/// Dropped with an explicit stack: a lineage of a million calls (each
/// built from the one before) would otherwise drop recursively, one frame
/// per call, and overflow the thread's stack at the end of a long run.
impl Drop for CallNode {
    fn drop(&mut self) {
        self.ledger.remove();
        let mut pending: Vec<ArgProv> = std::mem::take(&mut self.args);
        while let Some(arg) = pending.pop() {
            match arg {
                ArgProv::Atom(origin) => {
                    // Only the last owner takes the node apart; it then
                    // drops with no arguments left, so without recursing.
                    if let Some(mut node) = origin.into_call().and_then(Arc::into_inner) {
                        pending.append(&mut node.args);
                    }
                }
                ArgProv::Data { fields, .. } => pending.extend(fields),
                ArgProv::List(items) => pending.extend(items),
            }
        }
    }
}

impl Origin {
    /// The call this instance came out of, if any, by value.
    fn into_call(self) -> Option<Arc<CallNode>> {
        match self {
            Origin::Literal(_) => None,
            Origin::Part { call, .. } | Origin::Mutated { call, .. } => Some(call),
        }
    }

    /// How many calls its lineage has (0 for a fresh value).
    pub(crate) fn depth(&self) -> u64 {
        self.call().map_or(0, |c| c.depth)
    }

    /// The call this instance came out of, if any.
    pub(crate) fn call(&self) -> Option<&Arc<CallNode>> {
        match self {
            Origin::Literal(_) => None,
            Origin::Part { call, .. } | Origin::Mutated { call, .. } => Some(call),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lineage of a million calls, each taking the previous result, drops
    /// on a test thread's default stack.
    #[test]
    fn a_million_call_lineage_drops_without_overflowing_the_stack() {
        let handle = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(|| {
                let ledger = Ledger::default();
                let mut last: Option<Arc<CallNode>> = None;
                for serial in 0..1_000_000 {
                    let args = last
                        .take()
                        .map(|call| {
                            vec![ArgProv::Data {
                                variant: 0,
                                fields: vec![ArgProv::Atom(Origin::Part { call, path: vec![] })],
                            }]
                        })
                        .unwrap_or_default();
                    last = Some(Arc::new(CallNode::new(0, args, serial, &ledger)));
                }
                // Every call of the lineage is counted while it lives.
                assert_eq!((ledger.alive(), ledger.peak()), (1_000_000, 1_000_000));
                drop(last);
                assert_eq!((ledger.alive(), ledger.peak()), (0, 1_000_000));
            })
            .expect("spawn");
        handle.join().expect("dropped without overflowing");
    }
}
