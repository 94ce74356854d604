//! The abstract syntax of specifications.
//!
//! A spec is a Rust expression over the function's arguments (and
//! `result`), integers as mathematical integers, with measures, finite
//! sets and bounded quantifiers. The tree is small on purpose: every node
//! has a concrete meaning ([`crate::eval`]) and, where it is in the
//! solvable fragment, a logical one (the SMT encoder).

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

/// A unary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `!b`
    Not,
    /// `-x`
    Neg,
}

/// A binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (truncating, as Rust's)
    Div,
    /// `%` (Rust's remainder)
    Rem,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `&&`
    And,
    /// `||`
    Or,
    /// `==>` (implication; binds loosest, associates to the right)
    Implies,
}

impl BinOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
            BinOp::Implies => "==>",
        }
    }
}

/// What a bounded quantifier ranges over.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Domain {
    /// `lo..hi` (integers, `hi` excluded).
    Range(Box<Expr>, Box<Expr>),
    /// `lo..=hi`.
    RangeInclusive(Box<Expr>, Box<Expr>),
    /// The elements of a set or a sequence.
    Elements(Box<Expr>),
}

/// A specification expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// An integer literal.
    Int(i128),
    /// `true` / `false`.
    Bool(bool),
    /// An argument, `result`, a bound variable or a field in scope.
    Var(String),
    /// `x.field` or `x.0`.
    Field(Box<Expr>, String),
    /// `xs[i]`.
    Index(Box<Expr>, Box<Expr>),
    /// `!e`, `-e`.
    Unary(UnOp, Box<Expr>),
    /// `a op b`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `if c { a } else { b }`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// A measure or a built-in (`len`, `union`, `member`, …), or a method
    /// call written `x.f(args)` (the receiver comes first).
    Call(Callee, Vec<Expr>),
    /// `forall!(x in domain, body)` / `exists!(x in domain, body)`.
    Quant {
        /// `forall` (true) or `exists` (false).
        forall: bool,
        /// The bound variable.
        var: String,
        /// What it ranges over.
        domain: Domain,
        /// The body.
        body: Box<Expr>,
    },
}

/// The name a call is of: a measure's, a built-in's or a Rust
/// predicate's. It is kept once per process, so two callees are equal
/// exactly when they are the same string, and whether it names a built-in
/// is known from the start: the evaluator looks a callee up at every call
/// (a call per node of the data a measure walks), by its address.
#[derive(Clone, Copy)]
pub struct Callee {
    name: &'static str,
    builtin: bool,
}

impl Callee {
    /// The callee named `name` (the name is kept for the process's life,
    /// as the identifiers of specs are).
    pub fn new(name: &str) -> Self {
        let name = crate::intern::intern(name);
        Callee { name, builtin: crate::eval::is_builtin(name) }
    }

    /// Its name.
    pub fn as_str(&self) -> &'static str {
        self.name
    }

    /// True when it names one of the evaluator's built-ins (`len`,
    /// `union`, a constructor test, …); a measure of the same name is
    /// called when the arguments fit no built-in.
    pub(crate) fn is_builtin(&self) -> bool {
        self.builtin
    }
}

impl Deref for Callee {
    type Target = str;
    fn deref(&self) -> &str {
        self.name
    }
}

impl PartialEq for Callee {
    fn eq(&self, other: &Self) -> bool {
        // Kept once per process: the same name is the same address.
        std::ptr::eq(self.name, other.name)
    }
}

impl Eq for Callee {}

impl PartialEq<str> for Callee {
    fn eq(&self, other: &str) -> bool {
        self.name == other
    }
}

impl PartialEq<&str> for Callee {
    fn eq(&self, other: &&str) -> bool {
        self.name == *other
    }
}

impl Hash for Callee {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // By content, as the name's own hash: the same in every run.
        self.name.hash(state);
    }
}

impl fmt::Debug for Callee {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.name, f)
    }
}

impl fmt::Display for Callee {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl From<&str> for Callee {
    fn from(name: &str) -> Self {
        Callee::new(name)
    }
}

impl From<String> for Callee {
    fn from(name: String) -> Self {
        Callee::new(&name)
    }
}

/// The name a constructor test is a call of, before the constructor's:
/// `matches!(x, Node { .. })` is `Call("matches!Node", [x])` (no measure's
/// name has a `!`).
pub const MATCHES: &str = "matches!";

impl Expr {
    /// True when `e` is a value built by constructor `ctor` (a constructor
    /// test: what `matches!` and nested patterns in measures read as).
    pub fn is_ctor(e: Expr, ctor: &str) -> Expr {
        Expr::Call(format!("{MATCHES}{ctor}").into(), vec![e])
    }

    /// The constructor a call tests for and the value it tests, when it is
    /// a constructor test.
    pub fn ctor_test<'a>(f: &'a str, args: &'a [Expr]) -> Option<(&'a str, &'a Expr)> {
        match args {
            [e] => Some((f.strip_prefix(MATCHES)?, e)),
            _ => None,
        }
    }

    /// `a op b`.
    pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
        Expr::Binary(op, Box::new(a), Box::new(b))
    }

    /// The conjunction of `parts` (`true` when empty).
    pub fn all(parts: impl IntoIterator<Item = Expr>) -> Expr {
        parts.into_iter().reduce(|a, b| Expr::bin(BinOp::And, a, b)).unwrap_or(Expr::Bool(true))
    }

    /// The free variables, in order of first occurrence.
    pub fn free_vars(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.collect_free(&mut Vec::new(), &mut out);
        out
    }

    fn collect_free(&self, bound: &mut Vec<String>, out: &mut Vec<String>) {
        match self {
            Expr::Int(_) | Expr::Bool(_) => {}
            Expr::Var(v) => {
                if !bound.contains(v) && !out.contains(v) {
                    out.push(v.clone());
                }
            }
            Expr::Field(e, _) | Expr::Unary(_, e) => e.collect_free(bound, out),
            Expr::Index(a, b) | Expr::Binary(_, a, b) => {
                a.collect_free(bound, out);
                b.collect_free(bound, out);
            }
            Expr::If(c, a, b) => {
                c.collect_free(bound, out);
                a.collect_free(bound, out);
                b.collect_free(bound, out);
            }
            Expr::Call(_, args) => args.iter().for_each(|a| a.collect_free(bound, out)),
            Expr::Quant { var, domain, body, .. } => {
                match domain {
                    Domain::Range(lo, hi) | Domain::RangeInclusive(lo, hi) => {
                        lo.collect_free(bound, out);
                        hi.collect_free(bound, out);
                    }
                    Domain::Elements(s) => s.collect_free(bound, out),
                }
                bound.push(var.clone());
                body.collect_free(bound, out);
                bound.pop();
            }
        }
    }

    /// The names of the functions it calls (measures and built-ins).
    pub fn calls(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        self.visit(&mut |e| {
            if let Expr::Call(f, _) = e
                && !out.iter().any(|o| **f == **o)
            {
                out.push(f.to_string());
            }
        });
        out
    }

    /// Calls `f` on every node, parents first.
    pub fn visit(&self, f: &mut impl FnMut(&Expr)) {
        f(self);
        match self {
            Expr::Int(_) | Expr::Bool(_) | Expr::Var(_) => {}
            Expr::Field(e, _) | Expr::Unary(_, e) => e.visit(f),
            Expr::Index(a, b) | Expr::Binary(_, a, b) => {
                a.visit(f);
                b.visit(f);
            }
            Expr::If(c, a, b) => {
                c.visit(f);
                a.visit(f);
                b.visit(f);
            }
            Expr::Call(_, args) => args.iter().for_each(|a| a.visit(f)),
            Expr::Quant { domain, body, .. } => {
                match domain {
                    Domain::Range(lo, hi) | Domain::RangeInclusive(lo, hi) => {
                        lo.visit(f);
                        hi.visit(f);
                    }
                    Domain::Elements(s) => s.visit(f),
                }
                body.visit(f);
            }
        }
    }

    /// Rebuilds the expression top-down: where `f` gives a replacement for
    /// a node, the replacement is used as is; elsewhere the children are
    /// rewritten.
    pub fn rewrite(&self, f: &mut impl FnMut(&Expr) -> Option<Expr>) -> Expr {
        if let Some(e) = f(self) {
            return e;
        }
        let mut r = |e: &Expr| Box::new(e.rewrite(f));
        match self {
            Expr::Int(_) | Expr::Bool(_) | Expr::Var(_) => self.clone(),
            Expr::Field(e, n) => Expr::Field(r(e), n.clone()),
            Expr::Unary(op, e) => Expr::Unary(*op, r(e)),
            Expr::Index(a, b) => Expr::Index(r(a), r(b)),
            Expr::Binary(op, a, b) => Expr::Binary(*op, r(a), r(b)),
            Expr::If(c, a, b) => Expr::If(r(c), r(a), r(b)),
            Expr::Call(name, args) => Expr::Call(*name, args.iter().map(|a| *r(a)).collect()),
            Expr::Quant { forall, var, domain, body } => {
                let domain = match domain {
                    Domain::Range(lo, hi) => Domain::Range(r(lo), r(hi)),
                    Domain::RangeInclusive(lo, hi) => Domain::RangeInclusive(r(lo), r(hi)),
                    Domain::Elements(e) => Domain::Elements(r(e)),
                };
                Expr::Quant { forall: *forall, var: var.clone(), domain, body: r(body) }
            }
        }
    }

    /// Replaces the free occurrences of `name` by `with`.
    pub fn subst(&self, name: &str, with: &Expr) -> Expr {
        let s = |e: &Expr| Box::new(e.subst(name, with));
        match self {
            Expr::Var(v) if v == name => with.clone(),
            Expr::Int(_) | Expr::Bool(_) | Expr::Var(_) => self.clone(),
            Expr::Field(e, f) => Expr::Field(s(e), f.clone()),
            Expr::Unary(op, e) => Expr::Unary(*op, s(e)),
            Expr::Index(a, b) => Expr::Index(s(a), s(b)),
            Expr::Binary(op, a, b) => Expr::Binary(*op, s(a), s(b)),
            Expr::If(c, a, b) => Expr::If(s(c), s(a), s(b)),
            Expr::Call(f, args) => Expr::Call(*f, args.iter().map(|a| a.subst(name, with)).collect()),
            Expr::Quant { forall, var, domain, body } => {
                let domain = match domain {
                    Domain::Range(lo, hi) => Domain::Range(s(lo), s(hi)),
                    Domain::RangeInclusive(lo, hi) => Domain::RangeInclusive(s(lo), s(hi)),
                    Domain::Elements(e) => Domain::Elements(s(e)),
                };
                let body = if var == name { body.clone() } else { s(body) };
                Expr::Quant { forall: *forall, var: var.clone(), domain, body }
            }
        }
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Int(i) => write!(f, "{i}"),
            Expr::Bool(b) => write!(f, "{b}"),
            Expr::Var(v) => write!(f, "{v}"),
            Expr::Field(e, n) => write!(f, "{}.{n}", Paren(e)),
            Expr::Index(a, b) => write!(f, "{}[{b}]", Paren(a)),
            Expr::Unary(UnOp::Not, e) => write!(f, "!{}", Paren(e)),
            Expr::Unary(UnOp::Neg, e) => write!(f, "-{}", Paren(e)),
            Expr::Binary(op, a, b) => write!(f, "{} {} {}", Paren(a), op.symbol(), Paren(b)),
            Expr::If(c, a, b) => write!(f, "if {c} {{ {a} }} else {{ {b} }}"),
            Expr::Call(name, args) if Expr::ctor_test(name, args).is_some() => {
                let (ctor, e) = Expr::ctor_test(name, args).expect("checked by the guard");
                write!(f, "matches!({e}, {ctor} {{ .. }})")
            }
            Expr::Call(name, args) => {
                write!(f, "{name}(")?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{a}")?;
                }
                write!(f, ")")
            }
            Expr::Quant { forall, var, domain, body } => {
                let q = if *forall { "forall" } else { "exists" };
                match domain {
                    Domain::Range(lo, hi) => write!(f, "{q}!({var} in {lo}..{hi}, {body})"),
                    Domain::RangeInclusive(lo, hi) => write!(f, "{q}!({var} in {lo}..={hi}, {body})"),
                    Domain::Elements(s) => write!(f, "{q}!({var} in {s}, {body})"),
                }
            }
        }
    }
}

/// Parenthesizes compound subexpressions when printing.
struct Paren<'a>(&'a Expr);

impl fmt::Display for Paren<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Expr::Binary(..) | Expr::If(..) | Expr::Unary(..) => write!(f, "({})", self.0),
            e => write!(f, "{e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::hash::{BuildHasher, RandomState};

    use super::Callee;
    use crate::Measures;

    #[test]
    fn a_callee_is_its_name_kept_once() {
        let a = Callee::new("speccheck_callee_test");
        let b = Callee::from(String::from("speccheck_callee_test"));
        assert_eq!(a, b);
        assert!(std::ptr::eq(a.as_str(), b.as_str()));
        assert_ne!(a, Callee::new("speccheck_callee_other"));
        let h = RandomState::new();
        assert_eq!(h.hash_one(a), h.hash_one("speccheck_callee_test"));
        assert!(Callee::new("len").is_builtin() && Callee::new("matches!Node").is_builtin());
        assert!(!a.is_builtin());
    }

    inventory::submit! {
        crate::MeasureSource {
            name: "speccheck_callee_registered",
            module: module_path!(),
            source: "fn speccheck_callee_registered(xs: &[i64]) -> i64 { len(xs) }",
        }
    }

    #[test]
    fn a_programmatic_table_finds_a_registered_measure_by_its_name() {
        // No spec names it: its name is kept only when the registered
        // measures' table is built.
        let found = Measures::new().get("speccheck_callee_registered").expect("registered");
        assert_eq!(found.expect("parsed").name, "speccheck_callee_registered");
    }

    #[test]
    fn measures_are_found_by_callee_and_by_any_string() {
        let m = Measures::new().with("fn speccheck_callee_size(xs: &[i64]) -> i64 { len(xs) }").expect("parses");
        let by_callee = m.find(Callee::new("speccheck_callee_size")).expect("found");
        assert_eq!(by_callee.as_ref().expect("parsed").name, "speccheck_callee_size");
        assert!(m.get(&String::from("speccheck_callee_size")).is_some());
        // A name no spec or measure has is not kept by looking it up.
        assert!(m.get("speccheck_callee_no_such_measure").is_none());
        assert_eq!(crate::intern::interned("speccheck_callee_no_such_measure"), None);
    }
}
