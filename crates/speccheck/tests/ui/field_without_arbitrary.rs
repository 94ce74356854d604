use speccheck::prelude::*;

#[derive(Debug)]
struct Handle(u8);

#[derive(Arbitrary, Debug)]
struct Session {
    id: u32,
    handle: Handle,
}

fn main() {}
