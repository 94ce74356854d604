//! What the replays run so far already tell: a prefix tree of their
//! choices (Hypothesis's `DataTree`, reduced to what the shrinker asks).
//!
//! A replay is a function of its choices: run on the same values, the
//! generators make the same draws (each with the same bound and kind) and
//! the case ends after the same number of them. So once a replay has
//! produced the choices `c₁…cₙ`, any candidate that would feed those same
//! values to those draws — after replay's own rules: a value above the
//! draw's bound becomes 0, past the candidate's end every draw takes 0 —
//! produces `c₁…cₙ` again, with the same outcome. Walking the tree answers
//! "would this candidate only repeat a case already run?" without
//! generating anything; for a shrinker that is most of its candidates once
//! the counterexample is nearly minimal.
//!
//! The same holds for a splice whose fresh span takes given choices and then
//! the simplest ones (the shrinker's "simplest sub-value" and "lower
//! constructor" candidates): up to the span it replays the base, inside it
//! draws the given values then zeros, after it replays the base's suffix.
//! Where the span ends is what the tree must know for that: each draw node
//! also records how many spans stay open across the gap before the draw, so
//! a walk can tell the draw that comes after the span closed.
//!
//! A property that is not a function of its choices (flaky) would make the
//! tree disagree with itself: the first disagreement turns prediction off.

use std::ops::ControlFlow;

use crate::choice::{Choice, ChoiceKind};
use crate::span::Span;
use crate::test_case::pool::{self, Pool};

/// What is known about the point reached after some prefix of draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    /// Nothing: no replay got here, or one got here by another path.
    Unknown,
    /// The next draw has this bound and kind; `open` spans stay open from
    /// the previous draw (or the start) to this one.
    Draw { max: u64, kind: ChoiceKind, open: u32 },
    /// A case ended here (made no further draw).
    End,
}

/// No node (the end of a list of siblings).
const NONE: u32 = u32::MAX;

/// A node with its place in the tree: the value drawn to get here, its
/// first child, and its next sibling. A node has few children (a shrinker
/// tries a few values per draw), so a list beats a hash table.
#[derive(Clone, Copy, Debug)]
struct Entry {
    node: Node,
    value: u64,
    first_child: u32,
    next_sibling: u32,
}

/// The replays run so far, as a prefix tree of their choices.
#[derive(Debug)]
pub(crate) struct KnownReplays {
    nodes: Vec<Entry>,
    /// False once two replays disagreed (the property is not a function of
    /// its choices): nothing is predicted after that.
    consistent: bool,
    /// Reused for [`open_across_gaps`].
    scratch: Vec<i32>,
    /// The path of the last replay recorded: its choices, the open-span
    /// counts of its draws, and the node reached after each prefix
    /// (`nodes_after[k]`: after `k` draws). Candidates and results are
    /// mostly edits of one case and share long prefixes with it: walking
    /// the tree node by node is a chain of cache misses, while comparing
    /// with this path is a scan of two arrays.
    last: Vec<Choice>,
    last_open: Vec<i32>,
    nodes_after: Vec<u32>,
}

impl Default for KnownReplays {
    fn default() -> Self {
        let root = Entry { node: Node::Unknown, value: 0, first_child: NONE, next_sibling: NONE };
        // Room for a typical shrink's replays without growing, in an
        // earlier tree's buffer: allocating tens of kilobytes per shrink
        // cost a short one (SmartCheck's Reverse) 1.3% of its run.
        let mut nodes = pool::take(&NODES, 1024);
        nodes.push(root);
        KnownReplays {
            nodes,
            consistent: true,
            scratch: Vec::new(),
            last: Vec::new(),
            last_open: Vec::new(),
            nodes_after: vec![0],
        }
    }
}

thread_local! {
    /// Node buffers of the trees dropped on this thread.
    static NODES: Pool<Vec<Entry>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Drop for KnownReplays {
    fn drop(&mut self) {
        pool::give(&NODES, std::mem::take(&mut self.nodes));
    }
}

impl KnownReplays {
    /// Records that a replay made exactly `choices`, marking `spans`, and
    /// then ended.
    pub(crate) fn insert(&mut self, choices: &[Choice], spans: &[Span]) {
        if !self.consistent {
            return;
        }
        let mut open = std::mem::take(&mut self.scratch);
        open_across_gaps(choices.len(), spans, &mut open);
        self.insert_path(choices, &open);
        // The new path becomes the last one (`open` has a count past the
        // end, which is not a draw's).
        open.truncate(choices.len());
        std::mem::swap(&mut self.last_open, &mut open);
        self.scratch = open;
        self.last.clear();
        self.last.extend_from_slice(choices);
    }

    fn insert_path(&mut self, choices: &[Choice], open: &[i32]) {
        // The draws this path shares with the last one, bounds and open
        // spans included, went through nodes already checked.
        let shared = choices
            .iter()
            .zip(&self.last)
            .zip(open.iter().zip(&self.last_open))
            .take_while(|((a, b), (o, p))| a == b && o == p)
            .count();
        let mut node = self.nodes_after[shared];
        self.nodes_after.truncate(shared + 1);
        for (c, &open) in choices[shared..].iter().zip(&open[shared..]) {
            let here = Node::Draw { max: c.max, kind: c.kind, open: open as u32 };
            match self.nodes[node as usize].node {
                Node::Unknown => self.nodes[node as usize].node = here,
                n if n == here => {}
                _ => {
                    self.consistent = false;
                    return;
                }
            }
            node = match self.child(node, c.value) {
                Some(child) => child,
                None => {
                    let new = self.nodes.len() as u32;
                    let parent = &mut self.nodes[node as usize];
                    let next_sibling = std::mem::replace(&mut parent.first_child, new);
                    self.nodes.push(Entry { node: Node::Unknown, value: c.value, first_child: NONE, next_sibling });
                    new
                }
            };
            self.nodes_after.push(node);
        }
        let end = &mut self.nodes[node as usize].node;
        match *end {
            Node::Unknown => *end = Node::End,
            Node::End => {}
            Node::Draw { .. } => self.consistent = false,
        }
    }

    /// The child of `node` reached by drawing `value`.
    fn child(&self, node: u32, value: u64) -> Option<u32> {
        let mut c = self.nodes[node as usize].first_child;
        while c != NONE {
            let e = &self.nodes[c as usize];
            if e.value == value {
                return Some(c);
            }
            c = e.next_sibling;
        }
        None
    }

    /// False once two replays disagreed: nothing is predicted any more.
    pub(crate) fn is_consistent(&self) -> bool {
        self.consistent
    }

    /// True when replaying `candidate` (simplest choices past its end)
    /// would make the same choices as a replay already recorded.
    pub(crate) fn repeats(&self, candidate: &[Choice]) -> bool {
        if !self.consistent {
            return false;
        }
        let (node, from) = self.jump(candidate);
        let mut walk = Walk { known: self, node };
        walk.replay(candidate, from..)
    }

    /// Where a walk feeding `choices` gets through the prefix it shares
    /// with the last path (same values: the same nodes, whose bounds those
    /// values fit): the node, and how many choices that took.
    fn jump(&self, choices: &[Choice]) -> (u32, usize) {
        let shared = choices.iter().zip(&self.last).take_while(|(a, b)| a.value == b.value).count();
        (self.nodes_after[shared], shared)
    }

    /// True when splicing `base` — replaying it, but drawing the span that
    /// starts at choice `start` at nesting `depth` from `fresh` then the
    /// simplest choices, and resuming `base` at `resume` once the span
    /// closed — would make the same choices as a case already recorded.
    pub(crate) fn repeats_splice(
        &self,
        base: &[Choice],
        start: usize,
        depth: u16,
        fresh: &[Choice],
        resume: usize,
    ) -> bool {
        if !self.consistent {
            return false;
        }
        let (node, from) = self.jump(&base[..start.min(base.len())]);
        let mut walk = Walk { known: self, node };
        if let ControlFlow::Break(answer) = (from..start).try_for_each(|k| walk.step(base.get(k))) {
            return answer;
        }
        // The draw at `start` is the span's first, as in the base; after
        // it, the span is still open while more spans than its ancestors
        // stay open across a gap.
        let inside = u32::from(depth) + 1;
        for j in 0.. {
            if j > 0 && matches!(self.nodes[walk.node as usize].node, Node::Draw { open, .. } if open < inside) {
                break;
            }
            if let ControlFlow::Break(answer) = walk.step(fresh.get(j)) {
                return answer;
            }
        }
        walk.replay(base, resume..)
    }
}

/// A walk down the tree, one draw at a time.
struct Walk<'a> {
    known: &'a KnownReplays,
    node: u32,
}

impl Walk<'_> {
    /// Feeds `choice` (`None`: past the end) to the next draw; breaks with
    /// the answer once it is known (true: the case ended, as recorded;
    /// false: no recorded case went this way).
    fn step(&mut self, choice: Option<&Choice>) -> ControlFlow<bool> {
        match self.known.nodes[self.node as usize].node {
            Node::End => ControlFlow::Break(true),
            Node::Unknown => ControlFlow::Break(false),
            Node::Draw { max, .. } => {
                // Replay's rules (see `test_case::replayed`): out of bounds
                // becomes the simplest option, and so does every draw past
                // the end.
                let value = choice.map_or(0, |c| if c.value > max { 0 } else { c.value });
                match self.known.child(self.node, value) {
                    Some(child) => {
                        self.node = child;
                        ControlFlow::Continue(())
                    }
                    None => ControlFlow::Break(false),
                }
            }
        }
    }

    /// Feeds `choices[from..]` and then simplest choices until the answer
    /// is known (the tree is finite, so it always is).
    fn replay(&mut self, choices: &[Choice], from: std::ops::RangeFrom<usize>) -> bool {
        match from.into_iter().try_for_each(|k| self.step(choices.get(k))) {
            ControlFlow::Break(answer) => answer,
            ControlFlow::Continue(()) => unreachable!("an endless range only ends by a break"),
        }
    }
}

/// Fills `out[k]`, for each draw `k < n`, with how many spans stay open
/// from draw `k - 1` to draw `k` (those with `start < k < end`: a span that
/// closes or opens in between is not counted).
fn open_across_gaps(n: usize, spans: &[Span], out: &mut Vec<i32>) {
    out.clear();
    out.resize(n + 1, 0);
    for s in spans {
        let (start, end) = (s.start as usize + 1, (s.end as usize).min(n));
        if start < end {
            out[start] += 1;
            out[end] -= 1;
        }
    }
    let mut open = 0;
    for d in out.iter_mut() {
        open += *d;
        *d = open;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_case::CaseControl as _;
    use crate::test_case::{Fresh, Tail, TestCase};

    fn int(value: u64, max: u64) -> Choice {
        Choice::new(value, max, ChoiceKind::Integer)
    }

    #[test]
    fn a_recorded_replay_is_recognized_through_replay_rules() {
        let mut known = KnownReplays::default();
        known.insert(&[int(2, 5), int(0, 3), int(1, 1)], &[]);
        assert!(known.repeats(&[int(2, 5), int(0, 3), int(1, 1)]));
        // Extra choices past the end are never drawn.
        assert!(known.repeats(&[int(2, 5), int(0, 3), int(1, 1), int(7, 9)]));
        // A value above a draw's bound is replayed as 0.
        assert!(known.repeats(&[int(2, 5), int(9, 9), int(1, 1)]));
        // Another value, or a missing non-zero one, is unknown.
        assert!(!known.repeats(&[int(2, 5), int(1, 3), int(1, 1)]));
        assert!(!known.repeats(&[int(2, 5)]));
    }

    #[test]
    fn a_missing_tail_is_zeros() {
        let mut known = KnownReplays::default();
        known.insert(&[int(3, 5), int(0, 3), int(0, 1)], &[]);
        assert!(known.repeats(&[int(3, 5)]));
        assert!(!known.repeats(&[]));
    }

    #[test]
    fn disagreeing_replays_turn_prediction_off() {
        let mut known = KnownReplays::default();
        known.insert(&[int(1, 5), int(0, 3)], &[]);
        // The same first draw followed by a draw of another bound: the
        // property is not a function of its choices.
        known.insert(&[int(1, 5), int(0, 4)], &[]);
        assert!(!known.repeats(&[int(1, 5), int(0, 3)]));
    }

    #[test]
    fn a_prefix_that_ended_and_went_on_is_a_disagreement() {
        let mut known = KnownReplays::default();
        known.insert(&[int(1, 5)], &[]);
        known.insert(&[int(1, 5), int(2, 3)], &[]);
        assert!(!known.repeats(&[int(1, 5)]));
    }

    /// Runs a generator of nested values (collections, options, tuples:
    /// empty and cancelled spans included) on `tc`.
    fn run(tc: TestCase) -> (Vec<Choice>, Vec<Span>) {
        type V = Vec<(Option<u8>, Vec<bool>, u16)>;
        let mut tc = tc.with_spans(true);
        let _ = crate::test_case::catch_invalid(&mut tc, <V as crate::Arbitrary>::generate);
        let (choices, mut spans) = tc.finish();
        (choices.0, std::mem::take(&mut spans.spans))
    }

    #[test]
    fn predictions_agree_with_running_the_candidates() {
        let (mut replays, mut splices) = (0, 0);
        for seed in 0..60 {
            let (base, spans) = run(TestCase::random(seed, 6));
            // Known: the replays of `base` with one choice zeroed.
            let mut known = KnownReplays::default();
            let mut results = Vec::new();
            for k in 0..base.len() {
                let mut c = base.clone();
                c[k].value = 0;
                let (r, s) = run(TestCase::replay(c, Tail::Simplest));
                known.insert(&r, &s);
                results.push(r);
            }
            // A deletion predicted to repeat a known replay does.
            for k in 0..base.len() {
                let mut c = base.clone();
                c.remove(k);
                if known.repeats(&c) {
                    replays += 1;
                    let (r, _) = run(TestCase::replay(c, Tail::Simplest));
                    assert!(results.contains(&r), "seed {seed}: deleting choice {k} gave {r:?}");
                }
            }
            // So does a simplest sub-value predicted to repeat one.
            for (i, sp) in spans.iter().enumerate().filter(|(_, sp)| !sp.is_empty()) {
                if known.repeats_splice(&base, sp.start as usize, sp.depth, &[], sp.end as usize) {
                    splices += 1;
                    let tc = TestCase::splice(base.clone(), i, sp, Fresh::simplest(), None);
                    let (r, _) = run(tc);
                    assert!(
                        results.contains(&r),
                        "seed {seed}: the simplest span {i} gave {:?}\nbase {:?}\nspans {:?}",
                        r.iter().map(|c| c.value).collect::<Vec<_>>(),
                        base.iter().map(|c| c.value).collect::<Vec<_>>(),
                        spans.iter().map(|s| (s.start, s.end, s.depth, s.kind)).collect::<Vec<_>>()
                    );
                }
            }
        }
        // The check is not vacuous: both kinds of candidates get predicted.
        assert!(replays > 20 && splices > 20, "{replays} replays and {splices} splices predicted");
    }
}
