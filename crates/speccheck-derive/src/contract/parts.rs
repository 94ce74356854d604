//! Reading `#[contract(...)]`: its parts, its examples and the settings of
//! its generated test.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::punctuated::Punctuated;
use syn::{Meta, Token};

/// One clause: as written, and as the spec parser reads it, with the
/// variables and functions it mentions.
#[derive(Clone)]
pub struct Clause {
    pub written: String,
    pub source: String,
    pub vars: Vec<String>,
    pub calls: Vec<String>,
    pub tokens: TokenStream,
}

fn clause(tokens: TokenStream) -> syn::Result<Clause> {
    let spec = crate::spec::spec_tokens(&tokens)?;
    Ok(Clause {
        written: spec.written,
        source: spec.source,
        vars: spec.expr.free_vars(),
        calls: spec.expr.calls(),
        tokens,
    })
}

/// The top-level conjuncts of a clause (`a && b && c`), each a clause; a
/// clause with a top-level `||` or `==>` is one conjunct.
pub fn conjuncts(c: &Clause) -> Vec<syn::Result<Clause>> {
    use proc_macro2::TokenTree;
    let trees: Vec<TokenTree> = c.tokens.clone().into_iter().collect();
    let punct = |i: usize, ch: char| matches!(trees.get(i), Some(TokenTree::Punct(p)) if p.as_char() == ch);
    let mut cuts = Vec::new();
    for i in 0..trees.len() {
        let pair = |a: char, b: char| punct(i, a) && punct(i + 1, b);
        if pair('|', '|') || (pair('=', '=') && punct(i + 2, '>')) {
            return vec![Ok(c.clone())];
        }
        if pair('&', '&') {
            cuts.push(i);
        }
    }
    if cuts.is_empty() {
        return vec![clause(c.tokens.clone())];
    }
    let mut out = Vec::new();
    let mut start = 0;
    for cut in cuts.into_iter().chain([trees.len()]) {
        out.push(clause(trees[start..cut].iter().cloned().collect()));
        start = cut + 2;
    }
    out
}

/// `example(x = e, … => check)`: the arguments by name, and what the result
/// must satisfy (Rust, naming `result`, and `self` after the call).
pub struct Example {
    pub args: Vec<(syn::Ident, syn::Expr)>,
    pub check: Option<syn::Expr>,
    pub tokens: TokenStream,
}

fn example(tokens: TokenStream) -> syn::Result<Example> {
    use proc_macro2::{Spacing, TokenTree};
    let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
    let arrow = trees.windows(2).position(|w| {
        matches!((&w[0], &w[1]), (TokenTree::Punct(a), TokenTree::Punct(b))
            if a.as_char() == '=' && a.spacing() == Spacing::Joint && b.as_char() == '>')
    });
    let (left, check): (TokenStream, _) = match arrow {
        Some(i) => {
            let right: TokenStream = trees[i + 2..].iter().cloned().collect();
            (trees[..i].iter().cloned().collect(), Some(syn::parse2::<syn::Expr>(right)?))
        }
        None => (tokens.clone(), None),
    };
    let assigns: Punctuated<syn::Expr, Token![,]> = syn::parse::Parser::parse2(Punctuated::parse_terminated, left)?;
    let mut args = Vec::new();
    for a in assigns {
        let named = match &a {
            syn::Expr::Assign(syn::ExprAssign { left, right, .. }) => match &**left {
                syn::Expr::Path(p) => p.path.get_ident().map(|id| (id.clone(), (**right).clone())),
                _ => None,
            },
            _ => None,
        };
        match named {
            Some(arg) => args.push(arg),
            None => {
                return Err(syn::Error::new_spanned(
                    a,
                    "an example names each argument: `example(xs = vec![3, 1], k = 1 => result == vec![3])`",
                ));
            }
        }
    }
    Ok(Example { args, check, tokens })
}

/// Everything `#[contract(...)]` says.
pub struct Parts {
    pub requires: Vec<Clause>,
    pub ensures: Vec<Clause>,
    pub cost: Option<Clause>,
    pub no_panic: bool,
    pub deterministic: bool,
    /// Where `pure` was written, if it was.
    pub pure: Option<Span>,
    pub within: Option<syn::LitInt>,
    pub examples: Vec<Example>,
    /// The generated test's `#[property]` settings.
    pub settings: Vec<TokenStream>,
    pub has_timeout: bool,
    pub should_panic: Option<syn::Expr>,
}

/// Reads the attribute's arguments.
pub fn parse(args: TokenStream) -> syn::Result<Parts> {
    let metas: Punctuated<Meta, Token![,]> = syn::parse::Parser::parse2(Punctuated::parse_terminated, args)?;
    let mut p = Parts {
        requires: Vec::new(),
        ensures: Vec::new(),
        cost: None,
        no_panic: false,
        deterministic: false,
        pure: None,
        within: None,
        examples: Vec::new(),
        settings: Vec::new(),
        has_timeout: false,
        should_panic: None,
    };
    for m in metas {
        let name = m.path().get_ident().map(ToString::to_string).unwrap_or_default();
        match (name.as_str(), &m) {
            ("requires", Meta::List(l)) => p.requires.push(clause(l.tokens.clone())?),
            ("ensures", Meta::List(l)) => p.ensures.push(clause(l.tokens.clone())?),
            ("cost", Meta::List(l)) => {
                if p.cost.is_some() {
                    return Err(syn::Error::new_spanned(&m, "one `cost(steps <= bound)` per contract"));
                }
                p.cost = Some(clause(l.tokens.clone())?);
            }
            ("no_panic", Meta::Path(_)) => p.no_panic = true,
            ("deterministic", Meta::Path(_)) => p.deterministic = true,
            ("pure", Meta::Path(path)) => p.pure = Some(syn::spanned::Spanned::span(path)),
            ("terminates_within", Meta::List(l)) => p.within = Some(l.parse_args()?),
            ("example", Meta::List(l)) => p.examples.push(example(l.tokens.clone())?),
            ("test", Meta::Path(_)) => {}
            ("test", Meta::List(l)) => {
                let items: Punctuated<crate::attrs::PropertyArg, Token![,]> =
                    l.parse_args_with(Punctuated::parse_terminated)?;
                for a in items {
                    if a.name == "should_panic" {
                        p.should_panic = Some(a.value);
                    } else {
                        p.has_timeout |= a.name == "timeout_ms";
                        let (n, v) = (&a.name, &a.value);
                        p.settings.push(quote!(#n = #v));
                    }
                }
            }
            _ => {
                return Err(syn::Error::new_spanned(
                    &m,
                    "expected `requires(spec)`, `ensures(spec)`, `cost(steps <= bound)`, `no_panic`, `deterministic`, \
                     `pure`, `terminates_within(ms)`, `example(arg = value, … => check)` or `test(property settings)`",
                ));
            }
        }
    }
    for c in &p.requires {
        if c.calls.iter().any(|f| f == "old") {
            return Err(syn::Error::new_spanned(
                &c.tokens,
                "`old(..)` is a value before the call: it belongs in `ensures`, not `requires`",
            ));
        }
    }
    Ok(p)
}
