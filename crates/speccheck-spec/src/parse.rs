//! Reading specs: Rust expression syntax, with `==>` for implication and
//! `forall!` / `exists!` for bounded quantifiers.
//!
//! The same reader serves the macros (at compile time, to reject what is
//! not in the language with an error at the construct) and the engines
//! (at run time, from the source text the macros record).

use proc_macro2::{Delimiter, Group, Ident, Punct, Spacing, Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::parse::{Parse, ParseStream};

use crate::ast::{BinOp, Domain, Expr, UnOp};

/// A construct that is not in the spec language, or text that is not an
/// expression.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}: `{construct}`")]
pub struct ParseError {
    /// What is wrong.
    pub message: String,
    /// The construct, as written.
    pub construct: String,
}

/// A [`ParseError`] with where it is (for the macros' compile errors).
#[derive(Clone, Debug)]
pub struct Located {
    /// The error.
    pub error: ParseError,
    /// The construct's span.
    pub span: Span,
}

impl Located {
    pub(crate) fn at(node: &impl ToTokens, message: impl Into<String>) -> Self {
        let construct = node.to_token_stream().to_string();
        let span = node.to_token_stream().into_iter().next().map_or_else(Span::call_site, |t| t.span());
        Located { error: ParseError { message: message.into(), construct }, span }
    }
}

impl From<Located> for ParseError {
    fn from(l: Located) -> Self {
        l.error
    }
}

/// The name `==>` is rewritten to before `syn` reads the expression.
pub(crate) const IMPLIES: &str = "__speccheck_implies";

/// Parses a spec from its source text.
pub fn parse_str(src: &str) -> Result<Expr, ParseError> {
    let tokens: TokenStream = src.parse().map_err(|e: proc_macro2::LexError| ParseError {
        message: format!("not a spec expression ({e})"),
        construct: src.to_string(),
    })?;
    Ok(parse_tokens(tokens)?)
}

/// Parses a spec from tokens (what an attribute holds).
pub fn parse_tokens(tokens: TokenStream) -> Result<Expr, Located> {
    let rewritten = desugar_implies(tokens.clone());
    let e: syn::Expr = syn::parse2(rewritten).map_err(|e| Located {
        error: ParseError { message: format!("not a spec expression ({e})"), construct: tokens.to_string() },
        span: e.span(),
    })?;
    convert(&e)
}

/// Rewrites `a ==> b` into `__speccheck_implies(a, b)` in every token
/// sequence (each comma-separated part on its own), right-associative and
/// binding loosest, so `syn` can read the rest as Rust.
pub fn desugar_implies(tokens: TokenStream) -> TokenStream {
    rewrite_implies(tokens, Target::Spec)
}

/// Rewrites `a ==> b` into the Rust `(!(a) || (b))` (what the macros emit
/// where the spec runs as Rust code: measure bodies, run-time checks).
pub fn implies_to_rust(tokens: TokenStream) -> TokenStream {
    rewrite_implies(tokens, Target::Rust)
}

#[derive(Clone, Copy)]
enum Target {
    Spec,
    Rust,
}

fn rewrite_implies(tokens: TokenStream, target: Target) -> TokenStream {
    let trees: Vec<TokenTree> = tokens
        .into_iter()
        .map(|t| match t {
            TokenTree::Group(g) => {
                let mut ng = Group::new(g.delimiter(), rewrite_implies(g.stream(), target));
                ng.set_span(g.span());
                TokenTree::Group(ng)
            }
            other => other,
        })
        .collect();
    let mut out = TokenStream::new();
    let mut segment = Vec::new();
    for t in trees {
        if matches!(&t, TokenTree::Punct(p) if p.as_char() == ',') {
            out.extend(implications(std::mem::take(&mut segment), target));
            out.extend([t]);
        } else {
            segment.push(t);
        }
    }
    out.extend(implications(segment, target));
    out
}

/// Splits one comma-free segment at its `==>`s.
fn implications(segment: Vec<TokenTree>, target: Target) -> TokenStream {
    // A match arm's `pattern =>` is not part of the implication.
    let mut start = 0;
    for k in 0..segment.len().saturating_sub(1) {
        let arm = punct(&segment[k], '=', Some(Spacing::Joint))
            && punct(&segment[k + 1], '>', None)
            && (k == 0 || !punct(&segment[k - 1], '=', Some(Spacing::Joint)));
        if arm {
            start = k + 2;
        }
    }
    let mut out: TokenStream = segment[..start].iter().cloned().collect();
    out.extend(implication_chain(segment[start..].to_vec(), target));
    out
}

/// `a ==> b ==> c` as one term.
fn implication_chain(segment: Vec<TokenTree>, target: Target) -> TokenStream {
    let mut parts: Vec<Vec<TokenTree>> = vec![Vec::new()];
    let mut i = 0;
    while i < segment.len() {
        let is_arrow = i + 2 < segment.len()
            && punct(&segment[i], '=', Some(Spacing::Joint))
            && punct(&segment[i + 1], '=', Some(Spacing::Joint))
            && punct(&segment[i + 2], '>', None);
        if is_arrow {
            parts.push(Vec::new());
            i += 3;
        } else {
            parts.last_mut().expect("one part").push(segment[i].clone());
            i += 1;
        }
    }
    let mut parts = parts.into_iter().rev();
    let mut acc: TokenStream = parts.next().expect("one part").into_iter().collect();
    for lhs in parts {
        if let Target::Rust = target {
            let lhs: TokenStream = lhs.into_iter().collect();
            acc = quote::quote!((!(#lhs) || (#acc)));
            continue;
        }
        let mut args = TokenStream::new();
        args.extend([TokenTree::Group(Group::new(Delimiter::Parenthesis, lhs.into_iter().collect()))]);
        args.extend([TokenTree::Punct(Punct::new(',', Spacing::Alone))]);
        args.extend([TokenTree::Group(Group::new(Delimiter::Parenthesis, acc))]);
        let mut call = TokenStream::new();
        call.extend([TokenTree::Ident(Ident::new(IMPLIES, Span::call_site()))]);
        call.extend([TokenTree::Group(Group::new(Delimiter::Parenthesis, args))]);
        acc = call;
    }
    acc
}

fn punct(t: &TokenTree, c: char, spacing: Option<Spacing>) -> bool {
    matches!(t, TokenTree::Punct(p) if p.as_char() == c && spacing.is_none_or(|s| p.spacing() == s))
}

/// `x in domain, body` inside `forall!` / `exists!`.
pub(crate) struct QuantArgs {
    pub(crate) var: Ident,
    pub(crate) domain: syn::Expr,
    pub(crate) body: syn::Expr,
}

impl Parse for QuantArgs {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let var: Ident = input.parse()?;
        input.parse::<syn::Token![in]>()?;
        let domain = syn::Expr::parse_without_eager_brace(input)?;
        input.parse::<syn::Token![,]>()?;
        let body: syn::Expr = input.parse()?;
        let _ = input.parse::<Option<syn::Token![,]>>()?;
        Ok(QuantArgs { var, domain, body })
    }
}

/// The spec language's operator for a Rust binary operator (`None` for
/// bitwise, shift and assignment operators).
pub fn binary_op(op: &syn::BinOp) -> Option<BinOp> {
    Some(match op {
        syn::BinOp::Add(_) => BinOp::Add,
        syn::BinOp::Sub(_) => BinOp::Sub,
        syn::BinOp::Mul(_) => BinOp::Mul,
        syn::BinOp::Div(_) => BinOp::Div,
        syn::BinOp::Rem(_) => BinOp::Rem,
        syn::BinOp::Eq(_) => BinOp::Eq,
        syn::BinOp::Ne(_) => BinOp::Ne,
        syn::BinOp::Lt(_) => BinOp::Lt,
        syn::BinOp::Le(_) => BinOp::Le,
        syn::BinOp::Gt(_) => BinOp::Gt,
        syn::BinOp::Ge(_) => BinOp::Ge,
        syn::BinOp::And(_) => BinOp::And,
        syn::BinOp::Or(_) => BinOp::Or,
        _ => return None,
    })
}

/// Converts `syn`'s expression into the spec language.
pub fn convert(e: &syn::Expr) -> Result<Expr, Located> {
    use syn::Expr as S;
    let b = |e: &syn::Expr| convert(e).map(Box::new);
    Ok(match e {
        S::Lit(l) => match &l.lit {
            syn::Lit::Int(i) => {
                Expr::Int(i.base10_parse::<i128>().map_err(|_| Located::at(e, "integer literal out of range"))?)
            }
            syn::Lit::Bool(v) => Expr::Bool(v.value),
            _ => return Err(Located::at(e, "only integer and boolean literals are in the spec language")),
        },
        S::Path(p) => match p.path.get_ident() {
            Some(id) => Expr::Var(id.to_string()),
            None => {
                return Err(Located::at(e, "a path is not a spec variable (name an argument, `result` or a field)"));
            }
        },
        S::Paren(p) => convert(&p.expr)?,
        S::Group(g) => convert(&g.expr)?,
        S::Reference(r) => convert(&r.expr)?,
        S::Cast(c) => convert(&c.expr)?,
        S::Block(blk) => block_expr(&blk.block, e)?,
        S::Field(f) => {
            let name = match &f.member {
                syn::Member::Named(n) => n.to_string(),
                syn::Member::Unnamed(i) => i.index.to_string(),
            };
            Expr::Field(b(&f.base)?, name)
        }
        S::Index(i) => Expr::Index(b(&i.expr)?, b(&i.index)?),
        S::Unary(u) => match u.op {
            syn::UnOp::Not(_) => Expr::Unary(UnOp::Not, b(&u.expr)?),
            syn::UnOp::Neg(_) => match convert(&u.expr)? {
                Expr::Int(i) => Expr::Int(-i),
                inner => Expr::Unary(UnOp::Neg, Box::new(inner)),
            },
            syn::UnOp::Deref(_) => convert(&u.expr)?,
            _ => return Err(Located::at(e, "unsupported unary operator")),
        },
        S::Binary(bin) => {
            let op = binary_op(&bin.op).ok_or_else(|| {
                Located::at(e, "bitwise, shift and assignment operators are not in the spec language")
            })?;
            Expr::Binary(op, b(&bin.left)?, b(&bin.right)?)
        }
        S::If(i) => {
            let cond = b(&i.cond)?;
            let then = Box::new(block_expr(&i.then_branch, e)?);
            let Some((_, other)) = &i.else_branch else {
                return Err(Located::at(e, "an `if` in a spec needs an `else`"));
            };
            Expr::If(cond, then, b(other)?)
        }
        S::Call(c) => {
            let name = match &*c.func {
                S::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
                _ => None,
            }
            .ok_or_else(|| Located::at(&c.func, "only named functions (measures, built-ins) can be called"))?;
            let args = c.args.iter().map(convert).collect::<Result<Vec<_>, _>>()?;
            if name == IMPLIES {
                let [a, b] = <[Expr; 2]>::try_from(args).expect("the rewrite makes two arguments");
                Expr::bin(BinOp::Implies, a, b)
            } else {
                Expr::Call(name.into(), args)
            }
        }
        S::MethodCall(m) => {
            let receiver = convert(&m.receiver)?;
            let name = m.method.to_string();
            // Conversions that do not change the value.
            if m.args.is_empty() && matches!(name.as_str(), "clone" | "into" | "to_owned" | "as_ref" | "borrow") {
                return Ok(receiver);
            }
            let mut args = vec![receiver];
            for a in &m.args {
                args.push(convert(a)?);
            }
            Expr::Call(name.into(), args)
        }
        S::Macro(m) => {
            let name = m.mac.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
            let forall = match name.as_str() {
                "forall" => true,
                "exists" => false,
                "matches" => return crate::pattern::matches_macro(&m.mac),
                _ => return Err(Located::at(e, "the only macros in a spec are `forall!`, `exists!` and `matches!`")),
            };
            let q: QuantArgs = m.mac.parse_body().map_err(|err| {
                Located::at(e, format!("expected `{name}!(x in lo..hi, body)` or `{name}!(x in set, body)` ({err})"))
            })?;
            let domain = match &q.domain {
                S::Range(r) => {
                    let (Some(lo), Some(hi)) = (&r.start, &r.end) else {
                        return Err(Located::at(&q.domain, "a quantifier's range needs both bounds"));
                    };
                    match r.limits {
                        syn::RangeLimits::HalfOpen(_) => Domain::Range(b(lo)?, b(hi)?),
                        syn::RangeLimits::Closed(_) => Domain::RangeInclusive(b(lo)?, b(hi)?),
                    }
                }
                other => Domain::Elements(b(other)?),
            };
            Expr::Quant { forall, var: q.var.to_string(), domain, body: b(&q.body)? }
        }
        S::Match(_) => return Err(Located::at(e, "`match` is allowed in measure bodies, not in specs")),
        _ => return Err(Located::at(e, "not in the spec language")),
    })
}

/// The expression of a block that holds only one.
fn block_expr(block: &syn::Block, whole: &syn::Expr) -> Result<Expr, Located> {
    match block.stmts.as_slice() {
        [syn::Stmt::Expr(e, None)] => convert(e),
        _ => Err(Located::at(whole, "a block in a spec must hold exactly one expression")),
    }
}
