use speccheck::contract;

#[contract(pure, ensures(result >= 0))]
fn square(n: i64) -> i64 {
    n * n
}

fn main() {}
