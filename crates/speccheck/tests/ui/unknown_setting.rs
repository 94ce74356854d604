use speccheck::prelude::*;

#[property(case = 10)]
fn p(x: u8) {
    let _ = x;
}

fn main() {}
