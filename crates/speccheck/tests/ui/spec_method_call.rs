use speccheck::contract;

// `is_none` is a Rust method, not a built-in, a measure or a predicate of
// the spec language.
#[contract(ensures(result.is_none() || x > 0))]
fn check(x: i64) -> Option<i64> {
    (x > 0).then_some(x)
}

fn main() {}
