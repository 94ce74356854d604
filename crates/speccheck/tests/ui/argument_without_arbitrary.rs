use speccheck::prelude::*;

struct Handle(u8);

#[property]
fn opens(h: Handle) {
    let _ = h.0;
}

fn main() {}
