//! (e) Parser (§7.3): the model (types, buggy function, property, size) is
//! [`speccheck_examples::smartcheck::parser`], shared with the tour and the
//! example; here are the peers' generators and shrinkers for it.

use proptest::prelude::{Strategy, any};
use proptest::prop_oneof;
use quickcheck::{Arbitrary as QcArbitrary, Gen};

use super::common::{self, Check, Sample, Tool};

pub use speccheck_examples::smartcheck::parser::{Bugs, Exp, Func, Lang, Mod, Stmt, Var, round_trips, size};

pub fn check_with(l: &Lang, bugs: Bugs) -> Check {
    if round_trips(l, bugs) { Check::Pass } else { Check::Fail }
}

/// The benchmark: one bug (disjunction swapped).
pub fn check(l: &Lang) -> Check {
    check_with(l, Bugs::SWAP_OR)
}

/// Two independent bugs (for the multi-bug search).
pub fn check_two_bugs(l: &Lang) -> Check {
    check_with(l, Bugs::BOTH)
}

/// The correct parser (a sanity check: nothing fails).
pub fn check_fixed(l: &Lang) -> Check {
    check_with(l, Bugs::NONE)
}

// ----- proptest ----------------------------------------------------------------

fn pt_var() -> impl Strategy<Value = Var> {
    "[a-z][a-z0-9]{0,5}".prop_map(Var)
}

fn pt_exp() -> impl Strategy<Value = Exp> {
    let leaf = prop_oneof![any::<i32>().prop_map(Exp::Int), any::<bool>().prop_map(Exp::Bool)];
    leaf.prop_recursive(4, 24, 2, |inner| {
        let b = |e: Exp| Box::new(e);
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| Exp::Add(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| Exp::Sub(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| Exp::Mul(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| Exp::Div(b(x), b(y))),
            inner.clone().prop_map(move |x| Exp::Not(b(x))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| Exp::And(b(x), b(y))),
            (inner.clone(), inner).prop_map(move |(x, y)| Exp::Or(b(x), b(y))),
        ]
    })
}

/// The common distribution (proptest's strategies).
pub fn pt_lang() -> impl Strategy<Value = Lang> + 'static {
    use proptest::collection::vec;
    let stmt = prop_oneof![
        (pt_var(), pt_exp()).prop_map(|(v, e)| Stmt::Assign(v, e)),
        (pt_var(), pt_exp()).prop_map(|(v, e)| Stmt::Alloc(v, e)),
        pt_exp().prop_map(Stmt::Return),
    ];
    let module = (vec(pt_var(), 0..4), vec(pt_var(), 0..4)).prop_map(|(imports, exports)| Mod { imports, exports });
    let func =
        (pt_var(), vec(pt_exp(), 0..4), vec(stmt, 0..4)).prop_map(|(name, args, stmts)| Func { name, args, stmts });
    (vec(module, 0..4), vec(func, 0..4)).prop_map(|(modules, funcs)| Lang { modules, funcs })
}

// ----- quickcheck --------------------------------------------------------------

/// quickcheck: programs from the common strategy; shrinkers as the
/// benchmark writes them (variables never shrunk; products shrunk as
/// tuples; expressions by `genericShrink`: sub-terms, then each field). The
/// parts' `arbitrary` (quickcheck's own generators, which the trait asks
/// for) are not used.
#[derive(Clone, Debug)]
pub struct QcLang(pub Lang);

#[derive(Clone, Debug)]
struct QcVar(Var);

impl QcArbitrary for QcVar {
    fn arbitrary(g: &mut Gen) -> Self {
        let alphabet: Vec<char> = ('a'..='z').chain('0'..='9').collect();
        let n = 1 + common::qc_below(g, 6);
        QcVar(Var((0..n).map(|_| *g.choose(&alphabet).unwrap_or(&'a')).collect()))
    }
}

#[derive(Clone, Debug)]
struct QcExp(Exp);

fn qc_exp(g: &mut Gen, depth: usize) -> Exp {
    let b = |e: Exp| Box::new(e);
    let pick = if depth == 0 { common::qc_below(g, 2) } else { common::qc_below(g, 9) };
    let sub = |g: &mut Gen| {
        let d = common::qc_below(g, depth);
        b(qc_exp(g, d))
    };
    match pick {
        0 => Exp::Int(i32::arbitrary(g)),
        1 => Exp::Bool(bool::arbitrary(g)),
        2 => Exp::Add(sub(g), sub(g)),
        3 => Exp::Sub(sub(g), sub(g)),
        4 => Exp::Mul(sub(g), sub(g)),
        5 => Exp::Div(sub(g), sub(g)),
        6 => Exp::Not(sub(g)),
        7 => Exp::And(sub(g), sub(g)),
        _ => Exp::Or(sub(g), sub(g)),
    }
}

fn qc_shrink_exp(e: &Exp) -> Vec<Exp> {
    let b = |e: Exp| Box::new(e);
    let two = |x: &Exp, y: &Exp, mk: fn(Box<Exp>, Box<Exp>) -> Exp| {
        let mut out = vec![x.clone(), y.clone()];
        out.extend(qc_shrink_exp(x).into_iter().map(|x2| mk(b(x2), b(y.clone()))));
        out.extend(qc_shrink_exp(y).into_iter().map(|y2| mk(b(x.clone()), b(y2))));
        out
    };
    match e {
        Exp::Int(i) => i.shrink().map(Exp::Int).collect(),
        Exp::Bool(v) => v.shrink().map(Exp::Bool).collect(),
        Exp::Add(x, y) => two(x, y, Exp::Add),
        Exp::Sub(x, y) => two(x, y, Exp::Sub),
        Exp::Mul(x, y) => two(x, y, Exp::Mul),
        Exp::Div(x, y) => two(x, y, Exp::Div),
        Exp::And(x, y) => two(x, y, Exp::And),
        Exp::Or(x, y) => two(x, y, Exp::Or),
        Exp::Not(x) => {
            let mut out = vec![(**x).clone()];
            out.extend(qc_shrink_exp(x).into_iter().map(|x2| Exp::Not(b(x2))));
            out
        }
    }
}

impl QcArbitrary for QcExp {
    fn arbitrary(g: &mut Gen) -> Self {
        let d = common::qc_below(g, 11);
        QcExp(qc_exp(g, d))
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        Box::new(qc_shrink_exp(&self.0).into_iter().map(QcExp))
    }
}

#[derive(Clone, Debug)]
struct QcStmt(Stmt);

impl QcArbitrary for QcStmt {
    fn arbitrary(g: &mut Gen) -> Self {
        let v = QcVar::arbitrary(g).0;
        let e = QcExp::arbitrary(g).0;
        QcStmt(match common::qc_below(g, 3) {
            0 => Stmt::Assign(v, e),
            1 => Stmt::Alloc(v, e),
            _ => Stmt::Return(e),
        })
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let out: Vec<Stmt> = match &self.0 {
            Stmt::Assign(v, e) => qc_shrink_exp(e).into_iter().map(|e| Stmt::Assign(v.clone(), e)).collect(),
            Stmt::Alloc(v, e) => qc_shrink_exp(e).into_iter().map(|e| Stmt::Alloc(v.clone(), e)).collect(),
            Stmt::Return(e) => qc_shrink_exp(e).into_iter().map(Stmt::Return).collect(),
        };
        Box::new(out.into_iter().map(QcStmt))
    }
}

fn qc_list<T: QcArbitrary>(g: &mut Gen) -> Vec<T> {
    let n = common::qc_below(g, g.size() / 10 + 2);
    (0..n).map(|_| T::arbitrary(g)).collect()
}

impl QcArbitrary for QcLang {
    fn arbitrary(g: &mut Gen) -> Self {
        QcLang(common::sample_from(pt_lang, common::qc_seed(g)))
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let m: Vec<QcModule> = self.0.modules.iter().cloned().map(QcModule).collect();
        let f: Vec<QcFunc> = self.0.funcs.iter().cloned().map(QcFunc).collect();
        Box::new((m, f).shrink().map(|(m, f)| {
            QcLang(Lang { modules: m.into_iter().map(|x| x.0).collect(), funcs: f.into_iter().map(|x| x.0).collect() })
        }))
    }
}

#[derive(Clone, Debug)]
struct QcModule(Mod);

impl QcArbitrary for QcModule {
    fn arbitrary(g: &mut Gen) -> Self {
        let imports = qc_list::<QcVar>(g).into_iter().map(|v| v.0).collect();
        let exports = qc_list::<QcVar>(g).into_iter().map(|v| v.0).collect();
        QcModule(Mod { imports, exports })
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let i: Vec<QcVar> = self.0.imports.iter().cloned().map(QcVar).collect();
        let e: Vec<QcVar> = self.0.exports.iter().cloned().map(QcVar).collect();
        Box::new((i, e).shrink().map(|(i, e)| {
            QcModule(Mod {
                imports: i.into_iter().map(|v| v.0).collect(),
                exports: e.into_iter().map(|v| v.0).collect(),
            })
        }))
    }
}

#[derive(Clone, Debug)]
struct QcFunc(Func);

impl QcArbitrary for QcFunc {
    fn arbitrary(g: &mut Gen) -> Self {
        let name = QcVar::arbitrary(g).0;
        let args = qc_list::<QcExp>(g).into_iter().map(|e| e.0).collect();
        let stmts = qc_list::<QcStmt>(g).into_iter().map(|s| s.0).collect();
        QcFunc(Func { name, args, stmts })
    }
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let name = self.0.name.clone();
        let a: Vec<QcExp> = self.0.args.iter().cloned().map(QcExp).collect();
        let s: Vec<QcStmt> = self.0.stmts.iter().cloned().map(QcStmt).collect();
        Box::new((a, s).shrink().map(move |(a, s)| {
            QcFunc(Func {
                name: name.clone(),
                args: a.into_iter().map(|e| e.0).collect(),
                stmts: s.into_iter().map(|s| s.0).collect(),
            })
        }))
    }
}

impl common::QcSubject for QcLang {
    fn check(&self) -> Check {
        check(&self.0)
    }
}

// ----- hegeltest ----------------------------------------------------------------

/// The strategy's shape as a composite of hegeltest's draws: variables of
/// `[a-z][a-z0-9]{0,5}` drawn a character at a time, expressions of depth
/// at most 4 (a leaf or one of the seven operators, by one draw),
/// vectors of a length uniform in their range, its integers (Hypothesis's).
fn hg_lang(tc: &speccheck_bench::hegel_peer::TestCase) -> Lang {
    use speccheck_bench::hegel_peer::{TestCase, gs};
    const ALNUM: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    fn var(tc: &TestCase) -> Var {
        let mut v = String::new();
        v.push(char::from(b'a' + common::hg_below(tc, 26) as u8));
        for _ in 0..common::hg_below(tc, 6) {
            v.push(char::from(ALNUM[common::hg_below(tc, ALNUM.len())]));
        }
        Var(v)
    }
    fn exp(tc: &TestCase, depth: usize) -> Exp {
        let b = |e: Exp| Box::new(e);
        let two = || (b(exp(tc, depth - 1)), b(exp(tc, depth - 1)));
        match common::hg_below(tc, if depth == 0 { 2 } else { 9 }) {
            0 => Exp::Int(tc.draw(gs::integers::<i32>())),
            1 => Exp::Bool(tc.draw(gs::booleans())),
            2 => Exp::Not(b(exp(tc, depth - 1))),
            3 => {
                let (x, y) = two();
                Exp::Add(x, y)
            }
            4 => {
                let (x, y) = two();
                Exp::Sub(x, y)
            }
            5 => {
                let (x, y) = two();
                Exp::Mul(x, y)
            }
            6 => {
                let (x, y) = two();
                Exp::Div(x, y)
            }
            7 => {
                let (x, y) = two();
                Exp::And(x, y)
            }
            _ => {
                let (x, y) = two();
                Exp::Or(x, y)
            }
        }
    }
    fn list<T>(tc: &TestCase, n: usize, one: impl Fn(&TestCase) -> T) -> Vec<T> {
        (0..common::hg_below(tc, n)).map(|_| one(tc)).collect()
    }
    let stmt = |tc: &TestCase| match common::hg_below(tc, 3) {
        0 => Stmt::Assign(var(tc), exp(tc, 4)),
        1 => Stmt::Alloc(var(tc), exp(tc, 4)),
        _ => Stmt::Return(exp(tc, 4)),
    };
    let module = |tc: &TestCase| Mod { imports: list(tc, 4, var), exports: list(tc, 4, var) };
    let func = |tc: &TestCase| Func { name: var(tc), args: list(tc, 4, |tc| exp(tc, 4)), stmts: list(tc, 4, stmt) };
    Lang { modules: list(tc, 4, module), funcs: list(tc, 4, func) }
}

pub fn run(tool: Tool, seed: u64) -> Option<Sample> {
    common::timed(|| match tool {
        _ if tool.is_speccheck() => {
            common::speccheck(common::sampled(pt_lang), common::speccheck_config(tool, seed, None), check)
                .map(|l| size(&l))
        }
        Tool::Proptest => common::proptest(pt_lang(), seed, check).map(|l| size(&l)),
        Tool::Quickcheck => common::quickcheck::<QcLang>(seed, true).map(|l| size(&l.0)),
        Tool::Hegeltest => common::hegel(seed, hg_lang, check).map(|l| size(&l)),
        _ => common::quickcheck::<QcLang>(seed, false).map(|l| size(&l.0)),
    })
}
