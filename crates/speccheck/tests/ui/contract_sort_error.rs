use speccheck::contract;

#[contract(requires(n > 0 && n), ensures(result >= 0))]
fn halve(n: i64) -> i64 {
    n / 2
}

#[contract(ensures(len(result) == n + true))]
fn zeros(n: usize) -> Vec<u8> {
    vec![0; n]
}

#[contract(ensures(len(n) > 0))]
fn succ(n: u32) -> u32 {
    n + 1
}

#[contract(ensures(result + 1))]
fn pred(n: u32) -> u32 {
    n - 1
}

fn main() {}
