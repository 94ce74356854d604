use speccheck::contract;

struct Stack(Vec<i64>);

impl Stack {
    #[contract(ensures(result >= 0))]
    fn size(&self) -> usize {
        self.0.len()
    }
}

fn main() {}
