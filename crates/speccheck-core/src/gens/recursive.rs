//! `recursive`: generators for recursive structures written by hand. The
//! structure is unrolled to a fixed depth: each level chooses between a
//! leaf (index 0, so shrinking moves toward leaves) and one more expansion.

use super::{BoxedGenerator, Generator};
use crate::encode::{EncodeError, Encoder};
use crate::span::{RECURSIVE_CONSTRUCTORS, RECURSIVE_SPAN, SpanKind, TypeInfo};
use crate::test_case::TestCase;

/// See [`recursive`].
#[derive(Clone, Debug)]
pub struct Recursive<T> {
    top: BoxedGenerator<T>,
}

/// Values built from `leaf` by at most `depth` applications of `expand`,
/// which receives the generator for the next level down.
///
/// ```
/// use speccheck_core::gens::{self, Generator};
/// #[derive(Debug, Clone)]
/// enum Tree { Leaf(u8), Node(Box<Tree>, Box<Tree>) }
/// let trees = gens::recursive(gens::ints(0..=9u8).map(Tree::Leaf), 4, |sub| {
///     (sub.clone(), sub).map(|(l, r)| Tree::Node(Box::new(l), Box::new(r))).boxed()
/// });
/// # let _ = trees;
/// ```
pub fn recursive<T: 'static, L, F>(leaf: L, depth: u32, expand: F) -> Recursive<T>
where
    L: Generator<Value = T> + 'static,
    F: Fn(BoxedGenerator<T>) -> BoxedGenerator<T>,
{
    let leaf = leaf.boxed();
    // The bottom level too is a level (its branch is the leaf again), so
    // that every value of `T` starts the same way, and one can take
    // another's place (sub-value promotion).
    let mut level = Level { leaf: leaf.clone(), branch: leaf.clone() }.boxed();
    for _ in 0..depth {
        level = Level { leaf: leaf.clone(), branch: expand(level) }.boxed();
    }
    Recursive { top: level }
}

struct Level<T> {
    leaf: BoxedGenerator<T>,
    branch: BoxedGenerator<T>,
}

fn level_info<T: 'static>() -> TypeInfo {
    TypeInfo::of::<T>(RECURSIVE_CONSTRUCTORS, false)
}

impl<T: 'static> Generator for Level<T> {
    type Value = T;
    fn generate(&self, tc: &mut TestCase) -> T {
        // A value span of `T` around the choice and the value: shrinking
        // and reduction see the recursion (a level can be replaced by a
        // level below it), which `map`s alone would hide.
        tc.start_span(SpanKind::Value, level_info::<T>, RECURSIVE_SPAN);
        let expand = tc.draw_index(2);
        tc.set_constructor(expand);
        let v = if expand == 0 { self.leaf.generate(tc) } else { self.branch.generate(tc) };
        tc.stop_span(SpanKind::Value);
        v
    }
    fn encode(&self, value: &T, enc: &mut Encoder) -> Result<(), EncodeError> {
        let mut sub = Encoder::new();
        if self.leaf.encode(value, &mut sub).is_ok() {
            enc.write_index(0, 2)?;
        } else {
            sub = Encoder::new();
            self.branch.encode(value, &mut sub)?;
            enc.write_index(1, 2)?;
        }
        for c in sub.choices() {
            enc.write_raw(c.value, c.max, c.kind);
        }
        Ok(())
    }
}

impl<T: 'static> Generator for Recursive<T> {
    type Value = T;
    fn generate(&self, tc: &mut TestCase) -> T {
        self.top.generate(tc)
    }
    fn encode(&self, value: &T, enc: &mut Encoder) -> Result<(), EncodeError> {
        self.top.encode(value, enc)
    }
}
