use speccheck::prelude::*;

#[property]
fn thirteen(a: u8, b: u8, c: u8, d: u8, e: u8, f: u8, g: u8, h: u8, i: u8, j: u8, k: u8, l: u8, m: u8) {
    let _ = (a, b, c, d, e, f, g, h, i, j, k, l, m);
}

fn main() {}
