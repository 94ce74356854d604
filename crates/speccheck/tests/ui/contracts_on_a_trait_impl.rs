use speccheck::contracts;

#[derive(Clone, Debug, PartialEq)]
struct Meters(i64);

#[contracts]
impl std::ops::Neg for Meters {
    type Output = Meters;
    #[speccheck::contract(ensures(result.0 == -self.0))]
    fn neg(self) -> Meters {
        Meters(-self.0)
    }
}

fn main() {}
