//! How large a case's input grew: its longest collection and its deepest
//! nesting of values. The generation phase compares the inputs that were
//! checked with every input that was drawn, so that a run whose filters or
//! preconditions kept only small inputs says so (see
//! `runner::health::size_warning`).

/// How far an input (or a run's inputs) reached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    /// Elements in the longest collection (a `Vec`, a `String`, a map…).
    pub longest: u32,
    /// The deepest nesting of values (a struct in a struct is 2; a
    /// recursive type's depth).
    pub deepest: u32,
}

impl Reach {
    /// The larger of the two on each count.
    #[inline]
    pub fn max(self, other: Reach) -> Reach {
        Reach { longest: self.longest.max(other.longest), deepest: self.deepest.max(other.deepest) }
    }
}

/// A case's reach, split into what its input kept and what was drawn and
/// thrown away inside the case (a filter's rejected candidates).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CaseReach {
    /// The values drawn since the case began, or since the last value a
    /// filter rejected was set aside.
    pub(crate) kept: Reach,
    /// Values drawn and rejected by a filter within the case.
    pub(crate) dropped: Reach,
}

impl CaseReach {
    #[inline(always)]
    pub(crate) fn length(&mut self, n: usize) {
        let n = u32::try_from(n).unwrap_or(u32::MAX);
        if n > self.kept.longest {
            self.kept.longest = n;
        }
    }

    #[inline(always)]
    pub(crate) fn depth(&mut self, d: u32) {
        if d > self.kept.deepest {
            self.kept.deepest = d;
        }
    }

    /// A filter rejected the value drawn since `before` was taken: what it
    /// reached counts as dropped, and the kept reach goes back.
    pub(crate) fn drop_since(&mut self, before: Reach) {
        self.dropped = self.dropped.max(self.kept);
        self.kept = before;
    }

    /// Everything the case drew, kept or not.
    pub(crate) fn drawn(&self) -> Reach {
        self.kept.max(self.dropped)
    }
}
