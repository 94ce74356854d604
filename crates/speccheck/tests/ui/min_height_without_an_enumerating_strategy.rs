use speccheck::prelude::*;

#[property(min_height = 3)]
fn p(xs: Vec<i64>) {
    let _ = xs;
}

fn main() {}
