//! What a test case records, whatever its choices' source: the choices
//! themselves, the spans that group them, and (on a final replay) the
//! notes and shown inputs for the report. Each part is recorded only when
//! asked: the generation phase records nothing.

use crate::choice::Choice;
use crate::span::{Span, SpanKind, SpanTree, TypeInfo};
use crate::term::Term;

/// The recording of one test case.
#[derive(Debug, Default)]
pub(crate) struct Record {
    pub(crate) choices: Vec<Choice>,
    pub(crate) keep_choices: bool,
    pub(crate) spans: Vec<Span>,
    /// Ordinals of the spans open now, innermost last.
    pub(crate) open: Vec<u32>,
    pub(crate) keep_spans: bool,
    pub(crate) notes: Vec<String>,
    pub(crate) shown: Vec<(String, Term)>,
}

impl Record {
    pub(crate) fn new() -> Self {
        Record { keep_choices: true, ..Record::default() }
    }

    /// Empties the recording, keeping the buffers.
    pub(crate) fn clear(&mut self) {
        self.choices.clear();
        self.spans.clear();
        self.open.clear();
        self.notes.clear();
        self.shown.clear();
    }

    #[inline(always)]
    pub(crate) fn choice(&mut self, c: Choice) {
        if self.keep_choices {
            self.choices.push(c);
        }
    }

    /// Opens span number `self.spans.len()` (only when spans are kept).
    #[inline]
    pub(crate) fn open_span(&mut self, kind: SpanKind, info: fn() -> TypeInfo, name: &'static str) {
        let ordinal = self.spans.len();
        self.spans.push(Span {
            start: self.choices.len() as u32,
            end: u32::MAX,
            parent: self.open.last().copied(),
            depth: self.open.len() as u16,
            kind,
            ctor: 0,
            info,
            name,
        });
        self.open.push(ordinal as u32);
    }

    /// Records the constructor of the innermost open span.
    #[inline]
    pub(crate) fn set_constructor(&mut self, ctor: usize) {
        if let Some(&i) = self.open.last() {
            self.spans[i as usize].ctor = ctor as u16;
        }
    }

    /// Closes the innermost open span; returns its ordinal.
    #[inline]
    pub(crate) fn close_span(&mut self) -> Option<usize> {
        let i = self.open.pop()?;
        self.spans[i as usize].end = self.choices.len() as u32;
        Some(i as usize)
    }

    /// Closes and forgets the innermost open span (nothing was opened
    /// after it, so it is the last one).
    pub(crate) fn cancel_span(&mut self) {
        if let Some(i) = self.open.pop() {
            debug_assert_eq!(i as usize, self.spans.len() - 1);
            self.spans.truncate(i as usize);
        }
    }

    /// Constructors of span `i` (used by a splice's bound on its size).
    pub(crate) fn constructors_of(&mut self, i: usize) -> usize {
        let tree = SpanTree { spans: std::mem::take(&mut self.spans) };
        let n = tree.constructor_count(i);
        self.spans = tree.spans;
        n
    }

    /// The spans, any left open (by a panic mid-generation) closed.
    pub(crate) fn close_all(&mut self) {
        let end = self.choices.len() as u32;
        while let Some(i) = self.open.pop() {
            self.spans[i as usize].end = end;
        }
    }
}
