use speccheck::prelude::*;

#[derive(Debug, Clone, Arbitrary)]
enum Tree {
    Node(Box<Tree>, u8, Box<Tree>),
    Pair(Box<Tree>, Box<Tree>),
}

#[derive(Debug, Clone, Arbitrary)]
struct Chain {
    value: u8,
    next: Box<Chain>,
}

fn main() {}
