//! `#[predicate]`: a Rust function returning `bool` that specs may call.
//! The function stays as written; a registration converts spec values to
//! its parameters' types (`Targetable::reify`) and calls it.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{FnArg, ItemFn, Type, parse_quote};

pub fn expand(args: TokenStream, item: ItemFn) -> syn::Result<TokenStream> {
    let krate: syn::Path = if args.is_empty() { parse_quote!(::speccheck) } else { syn::parse2(args)? };
    let spec = quote!(#krate::__private::spec);
    let sig = &item.sig;
    let returns_bool =
        matches!(&sig.output, syn::ReturnType::Type(_, t) if matches!(&**t, Type::Path(p) if p.path.is_ident("bool")));
    if !returns_bool {
        return Err(syn::Error::new_spanned(&sig.output, "a predicate returns `bool`"));
    }
    if !sig.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(&sig.generics, "a predicate takes values of concrete types: no generics"));
    }
    let mut lets = Vec::new();
    let mut passes = Vec::new();
    for (i, input) in sig.inputs.iter().enumerate() {
        let FnArg::Typed(pt) = input else {
            return Err(syn::Error::new_spanned(input, "a predicate is a free function"));
        };
        let local = format_ident!("__a{}", i);
        // Borrowed parameters are made as owned values and lent.
        let (owned, pass): (Type, TokenStream) = match &*pt.ty {
            Type::Reference(r) if r.mutability.is_none() => match &*r.elem {
                Type::Path(p) if p.path.is_ident("str") => (parse_quote!(::std::string::String), quote!(&#local)),
                Type::Slice(s) => {
                    let e = &s.elem;
                    (parse_quote!(::std::vec::Vec<#e>), quote!(&#local))
                }
                other => (other.clone(), quote!(&#local)),
            },
            Type::Reference(r) => return Err(syn::Error::new_spanned(r, "a predicate only reads its arguments")),
            other => (other.clone(), quote!(#local)),
        };
        lets.push(quote!(let #local: #owned = <#owned as #spec::Targetable>::reify(__values.get(#i)?)?;));
        passes.push(pass);
    }
    let name = &sig.ident;
    let name_str = name.to_string();
    let arity = sig.inputs.len();
    Ok(quote! {
        // Specs call it by name: a predicate only they use is not dead.
        #[allow(dead_code)]
        #item
        #spec::inventory::submit! {
            #spec::NativePredicate {
                name: #name_str,
                module: ::core::module_path!(),
                arity: #arity,
                call: {
                    fn __speccheck_call(__values: &[#spec::Value]) -> ::core::option::Option<bool> {
                        #(#lets)*
                        ::core::option::Option::Some(#name(#(#passes),*))
                    }
                    __speccheck_call
                },
            }
        }
    })
}
