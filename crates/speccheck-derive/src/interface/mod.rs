//! `interface! { … }`: describes an API for speccheck-interface (ArtiCheck's
//! signature descriptions, Monolith's candidate/reference pairs) and
//! expands into calls of its `Builder`.
//!
//! The macro reads Rust signatures and turns each argument and result type
//! into a *positive type* descriptor by its syntax: tuples, `Option`,
//! `Result`, `Box` and the std containers become products, sums and
//! sequences; primitives become ground types; every other type is an atom
//! whose kind (abstract, ground, data) comes from the declarations, checked
//! when the API is built. References `&T` / `&mut T` set how the argument is
//! passed. In reference mode it also writes, from the result type, the code
//! that compares the candidate's and the reference's results.
//!
//! The input is parsed ([`parse`]) into the description's types
//! ([`types`]); each item then becomes statements on the builder `__b`
//! ([`expand`](mod@expand), and [`compare`] for reference mode), with the
//! help of what [`rust_type`] reads off Rust types.

mod compare;
mod expand;
mod parse;
mod rust_type;
mod types;

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::Path;

use types::{Input, Item, ReferenceModel};

/// The expansion of `interface! { input }`: a block evaluating to
/// `Result<Api, DescribeError>`.
pub fn expand(input: TokenStream) -> syn::Result<TokenStream> {
    let input: Input = syn::parse2(input)?;
    let mut krate: Path = syn::parse_quote!(::speccheck_interface);
    let mut name = "api".to_string();
    for it in &input.items {
        match it {
            Item::Crate(p) => krate = p.clone(),
            Item::Name(n) => name = n.value(),
            _ => {}
        }
    }
    let rt = quote!(#krate);
    let compares = input.items.iter().filter(|i| matches!(i, Item::Compare { .. })).count();
    if compares > 1 {
        return Err(syn::Error::new(Span::call_site(), "one `compare` block per interface"));
    }
    // In reference mode, laws over the candidate type see its candidate side.
    let model = input.items.iter().find_map(|i| match i {
        Item::Compare { candidate, reference, .. } => Some(ReferenceModel {
            candidate: candidate.clone(),
            reference: reference.clone(),
            model: syn::parse_quote!(#rt::Model<#candidate, #reference>),
        }),
        _ => None,
    });
    let mut stmts = Vec::new();
    for it in &input.items {
        stmts.push(statements(it, model.as_ref(), &rt)?);
    }
    Ok(quote! {{
        #[allow(unused_mut, unused_variables, clippy::redundant_closure_call, clippy::clone_on_copy)]
        let __api = {
            let mut __b = #rt::Builder::new(#name);
            // Where this is compiled, for the replay line's `cargo test`.
            __b.compiled_in(
                ::core::env!("CARGO_PKG_NAME"),
                #rt::__rt::speccheck_core::rerun::test_target(
                    ::core::option_env!("CARGO_CRATE_NAME"),
                    ::core::option_env!("CARGO_BIN_NAME"),
                    ::core::option_env!("CARGO_TARGET_TMPDIR").is_some(),
                ),
            );
            #(#stmts)*
            __b.build()
        };
        __api
    }})
}

/// What one item declares to the builder `__b`.
fn statements(item: &Item, model: Option<&ReferenceModel>, rt: &TokenStream) -> syn::Result<TokenStream> {
    match item {
        Item::Name(_) | Item::Crate(_) => Ok(TokenStream::new()),
        Item::Abstract(ty, name) => Ok(expand::abstract_type(ty, name.as_ref())),
        Item::Ground(ty, generator) => Ok(expand::ground(ty, generator.as_ref(), rt)),
        Item::Fresh(ty, initial, per_round) => Ok(expand::fresh_values(ty, initial, per_round)),
        Item::Pool(ty, bound) => Ok(expand::pool_bound(ty, bound)),
        Item::Data(d) => expand::data(d, rt),
        Item::Impl(ty, fns) => fns.iter().map(|f| expand::plain_fn(f, Some(ty), rt)).collect(),
        Item::Fn(f) => expand::plain_fn(f, None, rt),
        Item::Law(l) => expand::law(l, model, rt),
        Item::Compare { by, fns, .. } => compare::block(fns, by, model.expect("a compare block"), rt),
    }
}
