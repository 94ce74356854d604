use speccheck::property;
use speccheck::target::Fun;

// A generated function's refinement may name only its input and `result`.
#[property]
fn padded(#[refine(|s| s <= result && result <= cap)] f: Fun<i64, i64>, cap: i64) -> bool {
    f.call(0) <= cap
}

fn main() {}
