use speccheck::prelude::*;

#[property]
fn small(#[from(0..10u8)] x: u8) {
    assert!(x < 10);
}

fn main() {}
