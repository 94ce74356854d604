use speccheck::prelude::*;

// `sorted` is neither a built-in nor a measure or predicate in scope.
#[property]
fn p(#[refine(sorted(xs))] xs: Vec<i64>) {
    assert!(xs.windows(2).all(|w| w[0] <= w[1]));
}

fn main() {}
