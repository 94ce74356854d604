//! Parser: a pretty-printer and parser for a toy imperative language
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

use speccheck::CharClass;
use speccheck::gens::{self, StringOf};

static VAR: LazyLock<StringOf> =
    LazyLock::new(|| gens::string_of(CharClass::from_ranges([('a', 'z'), ('0', '9')]), 1..=6));

/// A variable name: non-empty, alphanumeric, opaque to reduction.
#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
#[speccheck(opaque)]
pub struct Var(#[speccheck(with = &*VAR)] pub String);

/// A program: modules, then functions.
#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub struct Lang {
    /// Module declarations.
    pub modules: Vec<Mod>,
    /// Function definitions.
    pub funcs: Vec<Func>,
}

/// A module's imports and exports.
#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub struct Mod {
    /// Imported names.
    pub imports: Vec<Var>,
    /// Exported names.
    pub exports: Vec<Var>,
}

/// A function: name, arguments, body.
#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub struct Func {
    /// Its name.
    pub name: Var,
    /// Its arguments.
    pub args: Vec<Exp>,
    /// Its body.
    pub stmts: Vec<Stmt>,
}

/// A statement.
#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub enum Stmt {
    /// `v = e`.
    Assign(Var, Exp),
    /// `v = alloc e`.
    Alloc(Var, Exp),
    /// `return e`.
    Return(Exp),
}

/// An expression.
#[derive(speccheck::Arbitrary, Debug, Clone, PartialEq)]
pub enum Exp {
    /// An integer literal.
    Int(i32),
    /// A boolean literal.
    Bool(bool),
    /// Sum.
    Add(Box<Exp>, Box<Exp>),
    /// Difference.
    Sub(Box<Exp>, Box<Exp>),
    /// Product.
    Mul(Box<Exp>, Box<Exp>),
    /// Quotient.
    Div(Box<Exp>, Box<Exp>),
    /// Negation.
    Not(Box<Exp>),
    /// Conjunction.
    And(Box<Exp>, Box<Exp>),
    /// Disjunction.
    Or(Box<Exp>, Box<Exp>),
}

// ----- printer ---------------------------------------------------------------

fn parens(s: &str) -> String {
    format!("({s})")
}

fn show_list<T>(sep: char, xs: &[T], show: fn(&T) -> String) -> String {
    parens(&xs.iter().map(show).collect::<Vec<_>>().join(&sep.to_string()))
}

/// Prints a program.
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

impl Bugs {
    /// The correct parser.
    pub const NONE: Bugs = Bugs { swap_or: false, mul_as_div: false };
    /// The benchmark's parser: disjunction swapped.
    pub const SWAP_OR: Bugs = Bugs { swap_or: true, mul_as_div: false };
    /// Two independent bugs, for the multi-bug search (SmartCheck §5.3).
    pub const BOTH: Bugs = Bugs { swap_or: true, mul_as_div: true };
}

/// A parse result; the error says what could not be parsed.
pub type Parse<T> = Result<T, String>;

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

/// Parses a printed program, with `bugs`.
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

/// The property: parsing the printed program gives it back.
pub fn round_trips(l: &Lang, bugs: Bugs) -> bool {
    read_lang(&show_lang(l), bugs).is_ok_and(|back| back == *l)
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

/// The benchmark's size (see the module documentation).
pub fn size(l: &Lang) -> usize {
    let m: usize = l.modules.iter().map(|m| m.imports.len() + m.exports.len()).sum();
    let f: usize = l
        .funcs
        .iter()
        .map(|f| f.args.iter().map(size_exp).sum::<usize>() + f.stmts.iter().map(size_stmt).sum::<usize>())
        .sum();
    m + f
}
