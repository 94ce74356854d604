use speccheck::prelude::*;

#[property]
#[example(1)]
fn counted(a: u8, b: u8) {
    let _ = (a, b);
}

#[property]
#[example(a = 1, c = 2)]
fn named(a: u8, b: u8) {
    let _ = (a, b);
}

fn main() {}
