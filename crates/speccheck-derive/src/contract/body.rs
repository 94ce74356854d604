//! What the static classifier may read of a contracted function's body: a
//! summary in the spec language, so a postcondition can be proved from
//! the precondition, the body and the contracts of the functions it calls
//! (Ciao's CiaoPP uses the callees' *success* assertions the same way).
//!
//! The summary is the body's `let` bindings in order and its tail
//! expression. Integer and boolean arithmetic, comparisons, fields and
//! `if`/`else` translate; anything else (a method call, a division, a
//! `match`, a constant) becomes an *opaque* value the solver knows nothing
//! about. A call `g(..)`, `Self::g(..)` or `self.g(..)` becomes a *call
//! site* `__sc_call_k(args)`: at classification time, if `g` carries a
//! contract, its result is an unknown constrained by that contract.
//!
//! A body the summary could misread gets none: one that can leave early
//! (`return`, `?`, `break`, `continue`), changes a value in place (`mut`
//! anywhere, `&mut` arguments), expands a macro, or holds `unsafe` code or
//! items. Interior mutability (`Cell`) is not seen: a body that changes an
//! argument through it is misread.

use proc_macro2::{TokenStream, TokenTree};
use speccheck_spec::{BinOp, Expr, UnOp};
use syn::{Block, Pat, Stmt};

use super::params::{By, Owner, Param};

/// Prefix of a call site's name in a summary (`__sc_call_0(x)`).
const CALL: &str = "__sc_call_";
/// Prefix of an opaque value's name in a summary.
const OPAQUE: &str = "__sc_opaque_";

/// A body, as the classifier reads it.
pub struct Summary {
    /// `let` bindings, in order: the name and the value, as spec text.
    pub lets: Vec<(String, String)>,
    /// The value returned, as spec text, when the body ends in one.
    pub tail: Option<String>,
    /// The path each call site `__sc_call_k` calls, as written, relative
    /// to the function's module (`g`, `Counter::g`, `super::g`).
    pub callees: Vec<String>,
}

/// The body's summary, or why it is not read (it could be misread).
pub fn summarize(
    sig: &syn::Signature,
    block: &Block,
    params: &[Param],
    owner: Option<&Owner>,
) -> Result<Summary, &'static str> {
    if params.iter().any(|p| p.by == By::RefMut) || has_mut_pattern(sig) {
        return Err("it changes an argument in place");
    }
    // The solver's integers are not floats (NaN is not equal to itself).
    if mentions_floats(&quote::quote!(#sig)) || mentions_floats(&quote::quote!(#block)) {
        return Err("it computes with floating-point numbers");
    }
    plain(&quote::quote!(#block))?;
    let mut t = Translator {
        scope: params.iter().map(|p| (p.ident.to_string(), p.name.clone())).collect(),
        owner: owner.map(|o| o.name.clone()),
        opaque: 0,
        callees: Vec::new(),
    };
    let mut lets = Vec::new();
    let mut tail = None;
    let n = block.stmts.len();
    for (i, stmt) in block.stmts.iter().enumerate() {
        match stmt {
            Stmt::Local(local) => {
                let init = local.init.as_ref().ok_or("a `let` without a value")?;
                if init.diverge.is_some() {
                    return Err("a `let … else`");
                }
                let name = bound_name(&local.pat).ok_or("a `let` that is not `let name = value`")?;
                let value = t.expr(&init.expr);
                lets.push((name.clone(), value.to_string()));
                t.scope.push((name.clone(), name));
            }
            // A statement evaluated for its calls (`check(x);`).
            Stmt::Expr(e, Some(_)) => {
                let value = t.expr(e);
                lets.push((format!("__sc_stmt_{i}"), value.to_string()));
            }
            Stmt::Expr(e, None) if i + 1 == n => tail = Some(t.expr(e).to_string()),
            _ => return Err("a statement other than `let name = value;` or `expression;`"),
        }
    }
    Ok(Summary { lets, tail, callees: t.callees })
}

/// Whether the tokens name a float type or hold a float literal.
fn mentions_floats(tokens: &TokenStream) -> bool {
    tokens.clone().into_iter().any(|t| match t {
        TokenTree::Ident(id) => id == "f32" || id == "f64",
        TokenTree::Literal(l) => matches!(syn::Lit::new(l), syn::Lit::Float(_)),
        TokenTree::Group(g) => mentions_floats(&g.stream()),
        TokenTree::Punct(_) => false,
    })
}

/// Whether a parameter is declared `mut` (the body may reassign it).
fn has_mut_pattern(sig: &syn::Signature) -> bool {
    sig.inputs.iter().any(|i| match i {
        syn::FnArg::Receiver(r) => r.mutability.is_some(),
        syn::FnArg::Typed(pt) => matches!(&*pt.pat, Pat::Ident(p) if p.mutability.is_some()),
    })
}

/// The name a `let` binds: `let y = ..` or `let y: T = ..`.
fn bound_name(pat: &Pat) -> Option<String> {
    match pat {
        Pat::Ident(p) if p.by_ref.is_none() && p.mutability.is_none() && p.subpat.is_none() => {
            Some(p.ident.to_string())
        }
        Pat::Type(t) => bound_name(&t.pat),
        _ => None,
    }
}

/// Checks that the tokens hold nothing that can leave early, change a
/// value in place or hide code: no `return`, `?`, `break`, `continue`,
/// `mut`, `unsafe`, nested items, or macro invocation.
fn plain(tokens: &TokenStream) -> Result<(), &'static str> {
    const BANNED: &[(&str, &str)] = &[
        ("return", "it may return early"),
        ("break", "it breaks out of a block"),
        ("continue", "it continues a loop"),
        ("mut", "it changes a value in place"),
        ("unsafe", "it holds unsafe code"),
        ("async", "it awaits"),
        ("await", "it awaits"),
        ("yield", "it yields"),
    ];
    const ITEMS: &[&str] = &["fn", "use", "impl", "struct", "enum", "mod", "static", "const", "trait", "macro_rules"];
    const NOT_MACROS: &[&str] = &["if", "match", "while", "in", "let", "else"];
    let tokens: Vec<TokenTree> = tokens.clone().into_iter().collect();
    for (i, t) in tokens.iter().enumerate() {
        match t {
            // A lifetime (`'static`) is not a keyword.
            TokenTree::Ident(_) if matches!(i.checked_sub(1).and_then(|j| tokens.get(j)), Some(TokenTree::Punct(p)) if p.as_char() == '\'') =>
                {}
            TokenTree::Ident(id) => {
                let s = id.to_string();
                if let Some((_, why)) = BANNED.iter().find(|(b, _)| *b == s) {
                    return Err(why);
                }
                if ITEMS.contains(&s.as_str()) {
                    return Err("it declares items");
                }
                // `name!(..)`: a macro, whatever it expands to.
                if let (Some(TokenTree::Punct(p)), Some(TokenTree::Group(_))) = (tokens.get(i + 1), tokens.get(i + 2))
                    && p.as_char() == '!'
                    && !NOT_MACROS.contains(&s.as_str())
                {
                    return Err("it expands a macro");
                }
            }
            TokenTree::Punct(p) if p.as_char() == '?' => return Err("it may return early"),
            TokenTree::Group(g) => plain(&g.stream())?,
            _ => {}
        }
    }
    Ok(())
}

struct Translator {
    /// Names in scope, innermost last: as written in Rust, and as the
    /// spec names them (`self` stays `self`).
    scope: Vec<(String, String)>,
    owner: Option<String>,
    opaque: usize,
    callees: Vec<String>,
}

impl Translator {
    fn opaque(&mut self) -> Expr {
        self.opaque += 1;
        Expr::Var(format!("{OPAQUE}{}", self.opaque - 1))
    }

    fn var(&self, name: &str) -> Option<Expr> {
        self.scope.iter().rev().find(|(rust, _)| rust == name).map(|(_, spec)| Expr::Var(spec.clone()))
    }

    fn call(&mut self, path: String, args: Vec<Expr>) -> Expr {
        self.callees.push(path);
        Expr::Call(format!("{CALL}{}", self.callees.len() - 1).into(), args)
    }

    /// The spec term for `e`; what does not translate is opaque.
    fn expr(&mut self, e: &syn::Expr) -> Expr {
        use syn::Expr as S;
        match e {
            S::Lit(l) => match &l.lit {
                syn::Lit::Int(i) => i.base10_parse::<i128>().map(Expr::Int).unwrap_or_else(|_| self.opaque()),
                syn::Lit::Bool(b) => Expr::Bool(b.value),
                _ => self.opaque(),
            },
            S::Path(p) if p.qself.is_none() => match p.path.get_ident() {
                Some(id) => self.var(&id.to_string()).unwrap_or_else(|| self.opaque()),
                None => self.opaque(),
            },
            S::Paren(p) => self.expr(&p.expr),
            S::Group(g) => self.expr(&g.expr),
            S::Reference(r) => self.expr(&r.expr),
            S::Field(f) => {
                let base = self.expr(&f.base);
                let name = match &f.member {
                    syn::Member::Named(n) => n.to_string(),
                    syn::Member::Unnamed(i) => i.index.to_string(),
                };
                Expr::Field(Box::new(base), name)
            }
            S::Unary(u) => match u.op {
                syn::UnOp::Not(_) => Expr::Unary(UnOp::Not, Box::new(self.expr(&u.expr))),
                syn::UnOp::Neg(_) => match self.expr(&u.expr) {
                    Expr::Int(i) => Expr::Int(-i),
                    inner => Expr::Unary(UnOp::Neg, Box::new(inner)),
                },
                syn::UnOp::Deref(_) => self.expr(&u.expr),
                _ => self.opaque(),
            },
            S::Binary(b) => {
                // Division truncates, bit operations and shifts are not the
                // spec's arithmetic: their value is unknown.
                let op = match speccheck_spec::binary_op(&b.op) {
                    Some(BinOp::Div | BinOp::Rem) | None => return self.opaque(),
                    Some(op) => op,
                };
                let (l, r) = (self.expr(&b.left), self.expr(&b.right));
                Expr::bin(op, l, r)
            }
            S::If(i) => {
                let Some((_, other)) = &i.else_branch else { return self.opaque() };
                let cond = self.expr(&i.cond);
                let then = self.block(&i.then_branch);
                let other = self.expr(other);
                Expr::If(Box::new(cond), Box::new(then), Box::new(other))
            }
            S::Block(b) if b.label.is_none() => self.block(&b.block),
            S::Call(c) => {
                let S::Path(p) = &*c.func else { return self.opaque() };
                let Some(path) = self.callee_path(p) else { return self.opaque() };
                let args = c.args.iter().map(|a| self.expr(a)).collect();
                self.call(path, args)
            }
            // `self.g(args)`: a method of this impl, called on the receiver.
            S::MethodCall(m) if m.turbofish.is_none() && is_self(&m.receiver) && self.owner.is_some() => {
                let path = format!("{}::{}", self.owner.as_deref().unwrap_or_default(), m.method);
                let mut args = vec![Expr::Var("self".into())];
                args.extend(m.args.iter().map(|a| self.expr(a)));
                self.call(path, args)
            }
            _ => self.opaque(),
        }
    }

    /// A block that is only a value (`{ e }`); others are opaque.
    fn block(&mut self, b: &Block) -> Expr {
        match b.stmts.as_slice() {
            [Stmt::Expr(e, None)] => self.expr(e),
            _ => self.opaque(),
        }
    }

    /// The callee's path as written (`Self` named), or `None` when it is a
    /// local name (a closure, a function-pointer argument) or generic.
    fn callee_path(&self, p: &syn::ExprPath) -> Option<String> {
        if p.qself.is_some() || p.path.segments.iter().any(|s| !s.arguments.is_none()) {
            return None;
        }
        if let Some(id) = p.path.get_ident()
            && self.var(&id.to_string()).is_some()
        {
            return None;
        }
        let mut segments: Vec<String> = p.path.segments.iter().map(|s| s.ident.to_string()).collect();
        if segments[0] == "Self" {
            segments[0] = self.owner.clone()?;
        }
        let lead = if p.path.leading_colon.is_some() { "::" } else { "" };
        Some(format!("{lead}{}", segments.join("::")))
    }
}

fn is_self(e: &syn::Expr) -> bool {
    matches!(e, syn::Expr::Path(p) if p.path.is_ident("self"))
}
