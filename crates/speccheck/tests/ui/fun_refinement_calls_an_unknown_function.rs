use speccheck::property;
use speccheck::target::Fun;

// `is_none` is neither a built-in nor a measure or predicate in scope.
#[property]
fn defined(#[refine(|s| is_none(result))] f: Fun<i64, Option<i64>>) -> bool {
    f.call(0).is_none()
}

fn main() {}
