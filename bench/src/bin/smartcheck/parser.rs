//! (e) Parser: a pretty-printer and parser for a toy imperative language
//! (SmartCheck's `Parser` benchmark), whose parser swaps the arguments of
//! disjunction. Property: parsing the printed program gives it back.
//! Size: the benchmark's measure — expressions' constructors, one per
//! statement, one per module import/export (variables are opaque).
//!
//! The repository's generator forces non-empty lists, but QuickCheck's
//! tuple shrink empties them anyway; here every tool's generator may
//! produce empty lists, so every tool can reach the same minimum.
//!
//! A second planted bug (the parser reads `Mul` as `Div`) is off in the
//! benchmark and on in the multi-bug demonstration.

use std::sync::LazyLock;

use proptest::prelude::{Strategy, any};
use proptest::prop_oneof;
use quickcheck::{Arbitrary as QcArbitrary, Gen};
use speccheck::CharClass;
use speccheck::gens::{self, StringOf};

use super::common::{self, Check, Sample, Tool};

static VAR: LazyLock<StringOf> =
    LazyLock::new(|| gens::string_of(CharClass::from_ranges([('a', 'z'), ('0', '9')]), 1..=6));

/// A variable name: non-empty, alphanumeric, opaque to reduction.
#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
#[speccheck(opaque)]
pub struct Var(#[speccheck(with = &*VAR)] pub String);

#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub struct Lang {
    pub modules: Vec<Mod>,
    pub funcs: Vec<Func>,
}

#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub struct Mod {
    pub imports: Vec<Var>,
    pub exports: Vec<Var>,
}

#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub struct Func {
    pub name: Var,
    pub args: Vec<Exp>,
    pub stmts: Vec<Stmt>,
}

#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub enum Stmt {
    Assign(Var, Exp),
    Alloc(Var, Exp),
    Return(Exp),
}

#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub enum Exp {
    Int(i32),
    Bool(bool),
    Add(Box<Exp>, Box<Exp>),
    Sub(Box<Exp>, Box<Exp>),
    Mul(Box<Exp>, Box<Exp>),
    Div(Box<Exp>, Box<Exp>),
    Not(Box<Exp>),
    And(Box<Exp>, Box<Exp>),
    Or(Box<Exp>, Box<Exp>),
}

// ----- printer ---------------------------------------------------------------

fn parens(s: &str) -> String {
    format!("({s})")
}

fn show_list<T>(sep: char, xs: &[T], show: fn(&T) -> String) -> String {
    parens(&xs.iter().map(show).collect::<Vec<_>>().join(&sep.to_string()))
}

pub fn show_lang(l: &Lang) -> String {
    format!("Lang {} {}", show_list(';', &l.modules, show_mod), show_list(';', &l.funcs, show_func))
}

fn show_var(v: &Var) -> String {
    v.0.clone()
}

fn show_mod(m: &Mod) -> String {
    format!("Mod {} {}", show_list(':', &m.imports, show_var), show_list(':', &m.exports, show_var))
}

fn show_func(f: &Func) -> String {
    format!("Func {} {} {}", f.name.0, show_list(',', &f.args, show_exp), show_list(',', &f.stmts, show_stmt))
}

fn show_stmt(s: &Stmt) -> String {
    match s {
        Stmt::Assign(v, e) => format!("Assign {} {}", v.0, parens(&show_exp(e))),
        Stmt::Alloc(v, e) => format!("Alloc {} {}", v.0, parens(&show_exp(e))),
        Stmt::Return(e) => format!("Return {}", parens(&show_exp(e))),
    }
}

fn show_exp(e: &Exp) -> String {
    let bin = |op: &str, a: &Exp, b: &Exp| format!("{op} {} {}", parens(&show_exp(a)), parens(&show_exp(b)));
    match e {
        Exp::Int(i) => format!("Int {i}"),
        Exp::Bool(b) => format!("Bool {}", if *b { "True" } else { "False" }),
        Exp::Add(a, b) => bin("Add", a, b),
        Exp::Sub(a, b) => bin("Sub", a, b),
        Exp::Mul(a, b) => bin("Mul", a, b),
        Exp::Div(a, b) => bin("Div", a, b),
        Exp::Not(a) => format!("Not {}", parens(&show_exp(a))),
        Exp::And(a, b) => bin("And", a, b),
        Exp::Or(a, b) => bin("Or", a, b),
    }
}

// ----- parser ----------------------------------------------------------------

/// Which bugs the parser has.
#[derive(Clone, Copy, Debug)]
pub struct Bugs {
    /// `Or(a, b)` is read back as `Or(b, a)`.
    pub swap_or: bool,
    /// `Mul` is read back as `Div`.
    pub mul_as_div: bool,
}

type Parse<T> = Result<T, String>;

/// Strips `pre` and one following space.
fn strip<'s>(pre: &str, s: &'s str) -> Parse<&'s str> {
    let rest = s.strip_prefix(pre).ok_or_else(|| format!("couldn't strip {pre} from {s}"))?;
    Ok(rest.strip_prefix(' ').unwrap_or(rest))
}

/// The text inside the leading parentheses, and what follows them.
fn unparens(s: &str) -> Parse<(&str, &str)> {
    let body = s.strip_prefix('(').ok_or_else(|| format!("unparens couldn't parse {s}"))?;
    let mut depth = 1;
    for (i, c) in body.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    let rest = &body[i + 1..];
                    return Ok((&body[..i], rest.strip_prefix(' ').unwrap_or(rest)));
                }
            }
            _ => {}
        }
    }
    Err("end of string reached in unparens".into())
}

fn word(s: &str) -> Parse<(&str, &str)> {
    let s = s.trim_start();
    let end = s.find(' ').unwrap_or(s.len());
    if end == 0 {
        return Err("expected a word".into());
    }
    Ok((&s[..end], s[end..].trim_start()))
}

fn from_seps(sep: char, s: &str) -> Vec<&str> {
    if s.is_empty() { Vec::new() } else { s.split(sep).collect() }
}

pub fn read_lang(s: &str, bugs: Bugs) -> Parse<Lang> {
    let s = strip("Lang", s)?;
    let (m, rest) = unparens(s)?;
    let (f, _) = unparens(rest)?;
    let modules = from_seps(';', m).into_iter().map(read_mod).collect::<Parse<_>>()?;
    let funcs = from_seps(';', f).into_iter().map(|f| read_func(f, bugs)).collect::<Parse<_>>()?;
    Ok(Lang { modules, funcs })
}

fn read_mod(s: &str) -> Parse<Mod> {
    let s = strip("Mod", s)?;
    let (i, rest) = unparens(s)?;
    let (e, _) = unparens(rest)?;
    let vars = |t: &str| from_seps(':', t).into_iter().map(|v| Var(v.to_string())).collect();
    Ok(Mod { imports: vars(i), exports: vars(e) })
}

fn read_func(s: &str, bugs: Bugs) -> Parse<Func> {
    let s = strip("Func", s)?;
    let (name, rest) = word(s)?;
    let (a, rest) = unparens(rest)?;
    let (st, _) = unparens(rest)?;
    let args = from_seps(',', a).into_iter().map(|e| read_exp(e, bugs)).collect::<Parse<_>>()?;
    let stmts = from_seps(',', st).into_iter().map(|x| read_stmt(x, bugs)).collect::<Parse<_>>()?;
    Ok(Func { name: Var(name.to_string()), args, stmts })
}

fn read_stmt(s: &str, bugs: Bugs) -> Parse<Stmt> {
    if s.starts_with("Assign") || s.starts_with("Alloc") {
        let assign = s.starts_with("Assign");
        let s = strip(if assign { "Assign" } else { "Alloc" }, s)?;
        let (v, rest) = word(s)?;
        let (e, _) = unparens(rest)?;
        let (v, e) = (Var(v.to_string()), read_exp(e, bugs)?);
        Ok(if assign { Stmt::Assign(v, e) } else { Stmt::Alloc(v, e) })
    } else if s.starts_with("Return") {
        let (e, _) = unparens(strip("Return", s)?)?;
        Ok(Stmt::Return(read_exp(e, bugs)?))
    } else {
        Err(format!("couldn't match stmt {s}"))
    }
}

fn read_exp(s: &str, bugs: Bugs) -> Parse<Exp> {
    let two = |op: &str| -> Parse<(Box<Exp>, Box<Exp>)> {
        let (a, rest) = unparens(strip(op, s)?)?;
        let (b, _) = unparens(rest)?;
        Ok((Box::new(read_exp(a, bugs)?), Box::new(read_exp(b, bugs)?)))
    };
    if s.starts_with("Int") {
        strip("Int", s)?.parse().map(Exp::Int).map_err(|e| format!("{e}"))
    } else if s.starts_with("Bool") {
        match strip("Bool", s)? {
            "True" => Ok(Exp::Bool(true)),
            "False" => Ok(Exp::Bool(false)),
            other => Err(format!("not a Bool: {other}")),
        }
    } else if s.starts_with("Add") {
        two("Add").map(|(a, b)| Exp::Add(a, b))
    } else if s.starts_with("Sub") {
        two("Sub").map(|(a, b)| Exp::Sub(a, b))
    } else if s.starts_with("Mul") {
        two("Mul").map(|(a, b)| if bugs.mul_as_div { Exp::Div(a, b) } else { Exp::Mul(a, b) })
    } else if s.starts_with("Div") {
        two("Div").map(|(a, b)| Exp::Div(a, b))
    } else if s.starts_with("Not") {
        let (a, _) = unparens(strip("Not", s)?)?;
        Ok(Exp::Not(Box::new(read_exp(a, bugs)?)))
    } else if s.starts_with("And") {
        two("And").map(|(a, b)| Exp::And(a, b))
    } else if s.starts_with("Or") {
        // The planted bug: the arguments of disjunction come back swapped.
        two("Or").map(|(a, b)| if bugs.swap_or { Exp::Or(b, a) } else { Exp::Or(a, b) })
    } else {
        Err(format!("couldn't match exp {s}"))
    }
}

pub fn check_with(l: &Lang, bugs: Bugs) -> Check {
    match read_lang(&show_lang(l), bugs) {
        Ok(back) if back == *l => Check::Pass,
        _ => Check::Fail,
    }
}

/// The benchmark: one bug (disjunction swapped).
pub fn check(l: &Lang) -> Check {
    check_with(l, Bugs { swap_or: true, mul_as_div: false })
}

/// Two independent bugs (for the multi-bug search).
pub fn check_two_bugs(l: &Lang) -> Check {
    check_with(l, Bugs { swap_or: true, mul_as_div: true })
}

/// The correct parser (a sanity check: nothing fails).
pub fn check_fixed(l: &Lang) -> Check {
    check_with(l, Bugs { swap_or: false, mul_as_div: false })
}

fn size_exp(e: &Exp) -> usize {
    match e {
        Exp::Int(_) | Exp::Bool(_) => 1,
        Exp::Not(a) => 1 + size_exp(a),
        Exp::Add(a, b) | Exp::Sub(a, b) | Exp::Mul(a, b) | Exp::Div(a, b) | Exp::And(a, b) | Exp::Or(a, b) => {
            1 + size_exp(a) + size_exp(b)
        }
    }
}

fn size_stmt(s: &Stmt) -> usize {
    match s {
        Stmt::Assign(_, e) | Stmt::Alloc(_, e) | Stmt::Return(e) => 1 + size_exp(e),
    }
}

pub fn size(l: &Lang) -> usize {
    let m: usize = l.modules.iter().map(|m| m.imports.len() + m.exports.len()).sum();
    let f: usize = l
        .funcs
        .iter()
        .map(|f| f.args.iter().map(size_exp).sum::<usize>() + f.stmts.iter().map(size_stmt).sum::<usize>())
        .sum();
    m + f
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

fn pt_lang() -> impl Strategy<Value = Lang> {
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

/// quickcheck: generators and shrinkers as the benchmark writes them
/// (variables never shrunk; products shrunk as tuples; expressions by
/// `genericShrink`: sub-terms, then each field).
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
        let modules = qc_list::<QcModule>(g).into_iter().map(|m| m.0).collect();
        let funcs = qc_list::<QcFunc>(g).into_iter().map(|f| f.0).collect();
        QcLang(Lang { modules, funcs })
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

fn qc_check(l: &QcLang) -> Check {
    check(&l.0)
}

pub fn run(tool: Tool, seed: u64) -> Option<Sample> {
    common::timed(|| match tool {
        _ if tool.is_speccheck() => {
            common::speccheck(speccheck::any::<Lang>(), common::speccheck_config(tool, seed, None), check)
                .map(|l| size(&l))
        }
        Tool::Proptest => common::proptest(pt_lang(), seed, check).map(|l| size(&l)),
        Tool::Quickcheck => common::quickcheck::<QcLang>(seed, true, qc_check).map(|l| size(&l.0)),
        _ => common::quickcheck::<QcLang>(seed, false, qc_check).map(|l| size(&l.0)),
    })
}
