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
