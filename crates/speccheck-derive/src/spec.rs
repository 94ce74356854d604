//! Specs written in attributes, parsed and checked by the spec language at
//! compile time (the `spec` feature; see [`needs_spec`] for the error
//! without it).

/// A spec-language error, at the user's tokens.
pub fn spec_error(l: speccheck_spec::Located) -> syn::Error {
    syn::Error::new(l.span, format!("{}: `{}`", l.error.message, l.error.construct))
}

/// A spec written in an attribute: parsed (a parse error spanned at the
/// user's tokens), as written, and as the spec parser reads it at run time
/// (`==>` desugared).
pub struct SpecTokens {
    pub expr: speccheck_spec::Expr,
    pub written: String,
    pub source: String,
}

pub fn spec_tokens(tokens: &proc_macro2::TokenStream) -> syn::Result<SpecTokens> {
    let expr = speccheck_spec::parse_tokens(tokens.clone()).map_err(spec_error)?;
    Ok(SpecTokens {
        expr,
        written: tokens.to_string(),
        source: speccheck_spec::parse::desugar_implies(tokens.clone()).to_string(),
    })
}

/// Functions a spec may call without a Rust function of that name in
/// scope: the built-ins, `old` (a contract's value before the call), the
/// conversions the parser reads as the value itself, and `==>`.
fn is_builtin(name: &str) -> bool {
    speccheck_spec::eval::BUILTINS.contains(&name)
        || matches!(name, "old" | "clone" | "into" | "to_owned" | "as_ref" | "borrow")
        || name.starts_with("__speccheck")
}

/// Every other function a spec calls is a measure (`#[measure]`) or a Rust
/// predicate (`#[predicate]`), so a Rust function of that name is in scope
/// where the spec is written. The items returned `use` each one, spanned
/// at the call: a name that is neither (`result.is_none()`, a misspelt
/// measure) is a compile error at the spec, not an error at run time.
pub fn calls_in_scope(tokens: &proc_macro2::TokenStream) -> proc_macro2::TokenStream {
    use proc_macro2::{Delimiter, TokenTree};
    fn walk(ts: proc_macro2::TokenStream, out: &mut Vec<proc_macro2::Ident>) {
        let trees: Vec<TokenTree> = ts.into_iter().collect();
        // `matches!(x, Ctor(..))` holds patterns, not calls.
        let in_matches = |i: usize| {
            i >= 2
                && matches!(&trees[i - 1], TokenTree::Punct(p) if p.as_char() == '!')
                && matches!(&trees[i - 2], TokenTree::Ident(m) if m == "matches")
        };
        for (i, t) in trees.iter().enumerate() {
            match t {
                TokenTree::Group(_) if in_matches(i) => {}
                TokenTree::Group(g) => walk(g.stream(), out),
                TokenTree::Ident(id) => {
                    let called = matches!(trees.get(i + 1), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis);
                    // A path (`m::f(..)`) is resolved as written by the
                    // user's own code; only plain names are checked here.
                    let in_path = i > 0 && matches!(&trees[i - 1], TokenTree::Punct(p) if p.as_char() == ':');
                    if called && !in_path && !is_builtin(&id.to_string()) {
                        out.push(id.clone());
                    }
                }
                _ => {}
            }
        }
    }
    let mut names = Vec::new();
    walk(tokens.clone(), &mut names);
    if names.is_empty() {
        return proc_macro2::TokenStream::new();
    }
    // Spanned at the name, so the error points into the spec.
    let uses = names.iter().map(|id| quote::quote_spanned!(id.span()=> #[allow(unused_imports)] use #id as _;));
    quote::quote! {
        const _: () = { #(#uses)* };
    }
}
