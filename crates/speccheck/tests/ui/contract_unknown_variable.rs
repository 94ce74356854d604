use speccheck::contract;

#[contract(requires(n >= 0), ensures(result >= m))]
fn double(n: i64) -> i64 {
    2 * n
}

fn main() {}
