use speccheck::prelude::*;

#[property]
#[example(1, "two")]
fn pairs(a: u8, b: u8) {
    let _ = (a, b);
}

fn main() {}
