use speccheck::{Arbitrary, Targetable};

// A field's refinement may name the field and the fields before it: `lo`
// is neither (a mistyped `_0`).
#[derive(Arbitrary, Targetable, Clone, Debug)]
struct Range(i64, #[refine(_1 >= lo)] i64);

fn main() {}
