use speccheck::contract;

#[contract(requires(old(xs) == xs))]
fn clear(xs: &mut Vec<i64>) {
    xs.clear();
}

fn main() {}
