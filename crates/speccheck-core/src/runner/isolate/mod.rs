//! Isolated runs: cases in a child process, so that a case that kills its
//! process (a stack overflow, an abort, a segmentation fault in `unsafe` or
//! FFI code, an allocation failure, `process::exit`) is a failure of its
//! own kind — a *crash* — found, shrunk and reported like any other, while
//! the other tests of the binary go on; and a hang is killed and shrunk.
//!
//! The child is the test binary itself, started again and filtered to the
//! property's test (as rusty-fork does), serving cases over a local socket
//! until told to stop: one start per crash or hang, not per case. The
//! parent sends each case as data ([`CaseSpec`](crate::test_case::spec::CaseSpec)),
//! and rebuilds spans itself by replaying the input's choices through the
//! generator (which does not crash: the case got past it in the child).

pub(crate) mod child;
pub(crate) mod parent;
pub(crate) mod wire;
