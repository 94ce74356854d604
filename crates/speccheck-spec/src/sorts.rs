//! Sort checking a spec before it runs: given the sorts of its variables
//! (from the Rust types of the arguments and the result), an integer where
//! a boolean is needed, `len` of an integer or `x < true` is an error at
//! the subexpression, at compile time, instead of a broken contract at run
//! time. What is not known (user types, their fields, measures) checks
//! nothing, so only definite mistakes are reported.

use proc_macro2::TokenStream;

use crate::parse::{IMPLIES, Located, desugar_implies};

/// What a spec value is, as far as the Rust types tell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sort {
    /// Any integer type.
    Int,
    /// `bool`.
    Bool,
    /// A sequence (`Vec<T>`, `&[T]`, `[T; N]`) of elements of a sort.
    Seq(Box<Sort>),
    /// A set (`BTreeSet`, `HashSet`).
    Set,
    /// Not known (a user type, a field, a measure's result).
    Unknown,
}

impl std::fmt::Display for Sort {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Sort::Int => "an integer",
            Sort::Bool => "a boolean",
            Sort::Seq(_) => "a sequence",
            Sort::Set => "a set",
            Sort::Unknown => "a value",
        })
    }
}

impl Sort {
    /// The sort of a Rust type, read from how it is written.
    pub fn of_type(ty: &syn::Type) -> Sort {
        match ty {
            syn::Type::Reference(r) => Sort::of_type(&r.elem),
            syn::Type::Paren(p) => Sort::of_type(&p.elem),
            syn::Type::Group(g) => Sort::of_type(&g.elem),
            syn::Type::Slice(s) => Sort::Seq(Box::new(Sort::of_type(&s.elem))),
            syn::Type::Array(a) => Sort::Seq(Box::new(Sort::of_type(&a.elem))),
            syn::Type::Path(p) if p.qself.is_none() => {
                let Some(last) = p.path.segments.last() else { return Sort::Unknown };
                let first_arg = || match &last.arguments {
                    syn::PathArguments::AngleBracketed(a) => a.args.iter().find_map(|g| match g {
                        syn::GenericArgument::Type(t) => Some(Sort::of_type(t)),
                        _ => None,
                    }),
                    _ => None,
                };
                match last.ident.to_string().as_str() {
                    "i8" | "i16" | "i32" | "i64" | "i128" | "isize" | "u8" | "u16" | "u32" | "u64" | "u128"
                    | "usize" => Sort::Int,
                    "bool" => Sort::Bool,
                    "Vec" | "VecDeque" => Sort::Seq(Box::new(first_arg().unwrap_or(Sort::Unknown))),
                    "BTreeSet" | "HashSet" => Sort::Set,
                    _ => Sort::Unknown,
                }
            }
            _ => Sort::Unknown,
        }
    }

    fn known(&self) -> bool {
        *self != Sort::Unknown
    }

    /// Whether values of the two sorts can be compared with `==`.
    fn compatible(&self, other: &Sort) -> bool {
        match (self, other) {
            (Sort::Unknown, _) | (_, Sort::Unknown) => true,
            (Sort::Seq(a), Sort::Seq(b)) => a.compatible(b),
            (a, b) => a == b,
        }
    }
}

/// Checks the sorts in a condition written as tokens, with `vars` the
/// sorts of its free variables (others are unknown): the condition must
/// be a boolean.
pub fn check_sorts(tokens: TokenStream, vars: &[(String, Sort)]) -> Result<(), Located> {
    let e: syn::Expr = match syn::parse2(desugar_implies(tokens)) {
        Ok(e) => e,
        // Not parsed: the parser reports it.
        Err(_) => return Ok(()),
    };
    let mut scope: Vec<(String, Sort)> = vars.to_vec();
    let whole = sort(&e, &mut scope)?;
    expect(&e, whole, Sort::Bool).map(|_| ())
}

/// `e` without the parentheses around it (the `==>` rewrite adds some).
fn bare(e: &syn::Expr) -> &syn::Expr {
    match e {
        syn::Expr::Paren(p) => bare(&p.expr),
        syn::Expr::Group(g) => bare(&g.expr),
        other => other,
    }
}

fn expect(e: &syn::Expr, got: Sort, want: Sort) -> Result<Sort, Located> {
    let e = bare(e);
    if got.known() && !got.compatible(&want) {
        return Err(Located::at(e, format!("{got} where {want} is expected")));
    }
    Ok(want)
}

fn sort(e: &syn::Expr, scope: &mut Vec<(String, Sort)>) -> Result<Sort, Located> {
    use syn::Expr as S;
    Ok(match e {
        S::Lit(l) => match &l.lit {
            syn::Lit::Int(_) => Sort::Int,
            syn::Lit::Bool(_) => Sort::Bool,
            _ => Sort::Unknown,
        },
        S::Path(p) => match p.path.get_ident() {
            Some(id) => {
                let name = id.to_string();
                scope.iter().rev().find(|(n, _)| *n == name).map_or(Sort::Unknown, |(_, s)| s.clone())
            }
            None => Sort::Unknown,
        },
        S::Paren(p) => sort(&p.expr, scope)?,
        S::Group(g) => sort(&g.expr, scope)?,
        S::Reference(r) => sort(&r.expr, scope)?,
        S::Cast(c) => {
            sort(&c.expr, scope)?;
            Sort::of_type(&c.ty)
        }
        S::Block(b) => match b.block.stmts.as_slice() {
            [syn::Stmt::Expr(inner, None)] => sort(inner, scope)?,
            _ => Sort::Unknown,
        },
        S::Field(f) => {
            sort(&f.base, scope)?;
            Sort::Unknown
        }
        S::Index(i) => {
            let base = sort(&i.expr, scope)?;
            let index = sort(&i.index, scope)?;
            expect(&i.index, index, Sort::Int)?;
            match base {
                Sort::Seq(elem) => *elem,
                Sort::Unknown => Sort::Unknown,
                other => {
                    return Err(Located::at(&*i.expr, format!("{other} is indexed (only a sequence can be)")));
                }
            }
        }
        S::Unary(u) => {
            let inner = sort(&u.expr, scope)?;
            match u.op {
                syn::UnOp::Not(_) => expect(&u.expr, inner, Sort::Bool)?,
                syn::UnOp::Neg(_) => expect(&u.expr, inner, Sort::Int)?,
                _ => inner,
            }
        }
        S::Binary(b) => {
            let (l, r) = (sort(&b.left, scope)?, sort(&b.right, scope)?);
            use syn::BinOp as B;
            match b.op {
                B::Add(_) | B::Sub(_) | B::Mul(_) | B::Div(_) | B::Rem(_) => {
                    expect(&b.left, l, Sort::Int)?;
                    expect(&b.right, r, Sort::Int)?
                }
                B::Lt(_) | B::Le(_) | B::Gt(_) | B::Ge(_) => {
                    expect(&b.left, l, Sort::Int)?;
                    expect(&b.right, r, Sort::Int)?;
                    Sort::Bool
                }
                B::Eq(_) | B::Ne(_) => {
                    if !l.compatible(&r) {
                        return Err(Located::at(e, format!("a comparison of {l} with {r}")));
                    }
                    Sort::Bool
                }
                B::And(_) | B::Or(_) => {
                    expect(&b.left, l, Sort::Bool)?;
                    expect(&b.right, r, Sort::Bool)?
                }
                _ => Sort::Unknown,
            }
        }
        S::If(i) => {
            let c = sort(&i.cond, scope)?;
            expect(&i.cond, c, Sort::Bool)?;
            let then = match i.then_branch.stmts.as_slice() {
                [syn::Stmt::Expr(inner, None)] => sort(inner, scope)?,
                _ => Sort::Unknown,
            };
            let other = match &i.else_branch {
                Some((_, other)) => sort(other, scope)?,
                None => Sort::Unknown,
            };
            if !then.compatible(&other) {
                return Err(Located::at(e, format!("an `if` whose branches are {then} and {other}")));
            }
            if then.known() { then } else { other }
        }
        S::Call(c) => {
            let name = match &*c.func {
                S::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default(),
                _ => String::new(),
            };
            let args: Vec<&syn::Expr> = c.args.iter().collect();
            call(&name, &args, scope)?
        }
        S::MethodCall(m) => {
            let name = m.method.to_string();
            let mut args: Vec<&syn::Expr> = vec![&m.receiver];
            args.extend(m.args.iter());
            if m.args.is_empty() && matches!(name.as_str(), "clone" | "into" | "to_owned" | "as_ref" | "borrow") {
                return sort(&m.receiver, scope);
            }
            call(&name, &args, scope)?
        }
        S::Macro(m) => {
            // `forall!(x in domain, body)`: the body is a boolean, with `x`
            // an integer over a range or an element of a sequence.
            if let Ok(q) = m.mac.parse_body::<crate::parse::QuantArgs>() {
                let var_sort = match &q.domain {
                    S::Range(_) => Sort::Int,
                    other => match sort(other, scope)? {
                        Sort::Seq(elem) => *elem,
                        _ => Sort::Unknown,
                    },
                };
                scope.push((q.var.to_string(), var_sort));
                let body = sort(&q.body, scope);
                scope.pop();
                expect(&q.body, body?, Sort::Bool)?;
            }
            Sort::Bool
        }
        _ => Sort::Unknown,
    })
}

/// The sort of a call to a built-in (checking its arguments), or unknown
/// for a measure.
fn call(name: &str, args: &[&syn::Expr], scope: &mut Vec<(String, Sort)>) -> Result<Sort, Located> {
    let sorts = args.iter().map(|a| sort(a, scope)).collect::<Result<Vec<_>, _>>()?;
    let collection = |i: usize| -> Result<(), Located> {
        match (args.get(i), sorts.get(i)) {
            (Some(a), Some(s)) if matches!(s, Sort::Int | Sort::Bool) => {
                Err(Located::at(*a, format!("{s}, but `{name}` takes a sequence or a set")))
            }
            _ => Ok(()),
        }
    };
    let int = |i: usize| match (args.get(i), sorts.get(i)) {
        (Some(a), Some(s)) => expect(a, s.clone(), Sort::Int).map(|_| ()),
        _ => Ok(()),
    };
    Ok(match (name, sorts.len()) {
        (n, 2) if n == IMPLIES => {
            expect(args[0], sorts[0].clone(), Sort::Bool)?;
            expect(args[1], sorts[1].clone(), Sort::Bool)?
        }
        ("old", 1) => sorts[0].clone(),
        ("len", 1) => {
            collection(0)?;
            Sort::Int
        }
        ("is_empty", 1) => {
            collection(0)?;
            Sort::Bool
        }
        ("elems", 1) => {
            collection(0)?;
            Sort::Set
        }
        ("union" | "inter" | "intersection" | "diff" | "difference", 2) => {
            collection(0)?;
            collection(1)?;
            Sort::Set
        }
        ("subset" | "is_subset", 2) => {
            collection(0)?;
            collection(1)?;
            Sort::Bool
        }
        ("member", 2) => {
            collection(1)?;
            Sort::Bool
        }
        ("contains", 2) => {
            collection(0)?;
            Sort::Bool
        }
        ("count", 2) => {
            collection(0)?;
            Sort::Int
        }
        ("abs", 1) => {
            int(0)?;
            Sort::Int
        }
        ("min" | "max", 2) => {
            int(0)?;
            int(1)?;
            Sort::Int
        }
        ("empty" | "singleton", _) => Sort::Set,
        _ => Sort::Unknown,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(spec: &str, vars: &[(&str, &str)]) -> Result<(), String> {
        let vars: Vec<(String, Sort)> = vars
            .iter()
            .map(|(n, t)| (n.to_string(), Sort::of_type(&syn::parse_str::<syn::Type>(t).unwrap())))
            .collect();
        check_sorts(spec.parse().unwrap(), &vars).map_err(|l| format!("{}: `{}`", l.error.message, l.error.construct))
    }

    #[test]
    fn well_sorted_specs_pass() {
        let v = [("xs", "&[i64]"), ("n", "usize"), ("b", "bool"), ("t", "Tree")];
        for spec in [
            "len(xs) == n && b",
            "n > 0 ==> xs[0] <= xs[n - 1]",
            "forall!(i in 0..len(xs), xs[i] >= 0)",
            "forall!(x in xs, x + 1 > x)",
            "size(t) >= 0 && t.left == t.right",
            "count(xs, 3) == old(n)",
            "if b { n } else { 0 } >= 0",
        ] {
            assert_eq!(check(spec, &v), Ok(()), "{spec}");
        }
    }

    #[test]
    fn definite_mistakes_are_errors_at_the_subexpression() {
        let v = [("xs", "Vec<i64>"), ("n", "i64"), ("b", "bool")];
        for (spec, at) in [
            ("n > 0 && n", "an integer where a boolean is expected: `n`"),
            ("len(n) > 0", "an integer, but `len` takes a sequence or a set: `n`"),
            ("n[0] == 1", "an integer is indexed (only a sequence can be): `n`"),
            ("b == 1", "a comparison of a boolean with an integer: `b == 1`"),
            ("n + 1", "an integer where a boolean is expected: `n + 1`"),
            ("forall!(x in xs, x)", "an integer where a boolean is expected: `x`"),
            ("n > 0 ==> n", "an integer where a boolean is expected: `n`"),
        ] {
            assert_eq!(check(spec, &v), Err(at.to_string()), "{spec}");
        }
    }
}
