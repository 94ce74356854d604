use speccheck::interface;

/// A bag of floats: no `Hash`, no `Eq`.
#[derive(Clone, Debug, PartialEq)]
pub struct Bag(Vec<f64>);

impl Bag {
    pub fn empty() -> Self {
        Bag(Vec::new())
    }

    pub fn add(&self, x: i32) -> Self {
        let mut v = self.0.clone();
        v.push(f64::from(x));
        Bag(v)
    }
}

fn main() {
    let _ = interface! {
        abstract Bag;
        impl Bag {
            fn empty() -> Self;
            fn add(&self, x: i32) -> Self;
        }
    };
}
