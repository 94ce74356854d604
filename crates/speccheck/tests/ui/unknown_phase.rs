use speccheck::prelude::*;

#[property(phases = "explicit,generat")]
fn p(x: u8) {
    let _ = x;
}

fn main() {}
