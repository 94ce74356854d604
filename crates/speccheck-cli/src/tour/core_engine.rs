//! Tour stop: the core engine — derived generators, shrinking on choice
//! sequences, dependent generation, preconditions and statistics — on small
//! buggy functions.

use speccheck::prelude::*;
use speccheck::{Config, Property};

use super::{Expect, Finding, Stop, check};

pub fn stop() -> Stop {
    Stop { name: "core", title: "random testing, shrinking and reports (choice-sequence engine)", run }
}

fn config(name: &str, seed: u64) -> Config {
    Config { seed: Some(seed), database: None, ..Config::named(name) }
}

/// Arithmetic expressions, as a user would derive them.
#[derive(Arbitrary, Debug, Clone, PartialEq)]
pub enum Expr {
    Num(i8),
    Neg(Box<Expr>),
    Add(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
}

fn eval(e: &Expr) -> i64 {
    match e {
        Expr::Num(n) => i64::from(*n),
        Expr::Neg(a) => -eval(a),
        Expr::Add(a, b) => eval(a) + eval(b),
        Expr::Mul(a, b) => eval(a) * eval(b),
    }
}

/// Constant folding with a planted bug: `e * 0` becomes `e`.
fn optimize(e: &Expr, buggy: bool) -> Expr {
    match e {
        Expr::Mul(a, b) if **b == Expr::Num(0) => {
            if buggy {
                optimize(a, buggy)
            } else {
                Expr::Num(0)
            }
        }
        Expr::Neg(a) => Expr::Neg(Box::new(optimize(a, buggy))),
        Expr::Add(a, b) => Expr::Add(Box::new(optimize(a, buggy)), Box::new(optimize(b, buggy))),
        Expr::Mul(a, b) => Expr::Mul(Box::new(optimize(a, buggy)), Box::new(optimize(b, buggy))),
        other => other.clone(),
    }
}

/// Run-length encoding with a planted bug: a run that reaches 4 starts a
/// new run at 0 instead of 1, so runs of five or more lose a character.
fn rle(s: &[u8], buggy: bool) -> Vec<(u8, u8)> {
    let mut out: Vec<(u8, u8)> = Vec::new();
    for &b in s {
        match out.last_mut() {
            Some((c, n)) if *c == b && *n < u8::MAX && (!buggy || *n < 4) => *n += 1,
            Some((c, _)) if *c == b && buggy => out.push((b, 0)),
            _ => out.push((b, 1)),
        }
    }
    out
}

fn unrle(runs: &[(u8, u8)]) -> Vec<u8> {
    runs.iter().flat_map(|&(c, n)| std::iter::repeat_n(c, usize::from(n))).collect()
}

/// Binary search with a planted off-by-one on the upper bound.
fn search(xs: &[u32], x: u32, buggy: bool) -> Option<usize> {
    let (mut lo, mut hi) = (0usize, if buggy { xs.len().saturating_sub(1) } else { xs.len() });
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match xs[mid].cmp(&x) {
            std::cmp::Ordering::Less => lo = mid + 1,
            std::cmp::Ordering::Greater => hi = mid,
            std::cmp::Ordering::Equal => return Some(mid),
        }
    }
    None
}

fn run(seed: u64) -> anyhow::Result<Vec<Finding>> {
    let mut out = Vec::new();
    for (buggy, expect) in [(true, Expect::Bug), (false, Expect::Pass)] {
        out.push(check("optimizer preserves the value of derived expressions", expect, || {
            Property::new(any::<Expr>())
                .config(config("core::optimize", seed))
                .run(move |e: Expr| eval(&optimize(&e, buggy)) == eval(&e))
        }));
    }
    out.push(check("every expression up to depth 3, exhaustively (SmallCheck-style)", Expect::Bug, || {
        // SmallCheck-style: every expression up to depth 3, simplest first.
        let config = speccheck::Config { exhaustive: Some(3), ..config("core::optimize_exhaustive", seed) };
        Property::new(any::<Expr>()).config(config).run(move |e: Expr| eval(&optimize(&e, true)) == eval(&e))
    }));
    for (buggy, expect) in [(true, Expect::Bug), (false, Expect::Pass)] {
        out.push(check("run-length decoding inverts encoding", expect, || {
            Property::new(gens::vec(gens::ints(b'a'..=b'c'), 0..40))
                .config(config("core::rle", seed))
                .run(move |s: Vec<u8>| unrle(&rle(&s, buggy)) == s)
        }));
    }
    for (buggy, expect) in [(true, Expect::Bug), (false, Expect::Pass)] {
        out.push(check("binary search finds present keys (dependent generation)", expect, || {
            // A sorted vector, then a key drawn from it: flat_map shrinks both.
            let input = gens::vec(gens::ints(0..1000u32), 1..30).flat_map(|mut xs| {
                xs.sort_unstable();
                xs.dedup();
                let n = xs.len();
                gens::ints(0..n).map(move |i| (xs.clone(), i))
            });
            Property::new(input).config(config("core::search", seed)).run(move |(xs, i): (Vec<u32>, usize)| {
                label(if xs.len() < 5 { "short" } else { "long" });
                search(&xs, xs[i], buggy) == Some(i)
            })
        }));
    }
    out.push(check("an unsatisfiable precondition is an error naming it", Expect::GiveUp, || {
        Property::new(any::<u32>())
            .config(config("core::gave_up", seed))
            .run(|x: u32| speccheck::assume!(x.is_power_of_two() && x > 1 << 31))
    }));
    Ok(out)
}
