use speccheck::prelude::*;

#[property]
fn parses(s: &str) {
    let _ = s.len();
}

fn main() {}
