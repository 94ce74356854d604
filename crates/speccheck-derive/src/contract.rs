//! `#[contract(requires(..), ensures(..), test(..))]` on a function: its
//! spec, written once in the spec language, and a generated `#[property]`
//! test that calls it on the valid inputs (the `requires` clauses become
//! refinements of its arguments, so every strategy applies: random,
//! exhaustive, lazy, smt) and checks the `ensures` clauses on the result.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::punctuated::Punctuated;
use syn::{FnArg, ItemFn, Meta, Pat, Token, Type};

/// One clause: as written, and as the spec parser reads it, with the
/// variables it mentions.
struct Clause {
    written: String,
    source: String,
    vars: Vec<String>,
    tokens: TokenStream,
}

fn clause(tokens: TokenStream) -> syn::Result<Clause> {
    let spec = crate::attrs::spec_tokens(&tokens)?;
    Ok(Clause { written: spec.written, source: spec.source, vars: spec.expr.free_vars(), tokens })
}

/// A parameter: its name, the owned type the test generates, and how the
/// function is called with it.
struct Param {
    ident: syn::Ident,
    owned: Type,
    borrow: TokenStream,
    mutable: bool,
}

fn param(input: &FnArg) -> syn::Result<Param> {
    let FnArg::Typed(pt) = input else {
        return Err(syn::Error::new_spanned(
            input,
            "a contract test calls free functions: `self` is not supported yet",
        ));
    };
    let Pat::Ident(p) = &*pt.pat else {
        return Err(syn::Error::new_spanned(&pt.pat, "a contract names each argument: use `name: Type`"));
    };
    let ident = p.ident.clone();
    Ok(match &*pt.ty {
        Type::Reference(r) => {
            let owned: Type = match &*r.elem {
                Type::Path(tp) if tp.path.is_ident("str") => syn::parse_quote!(::std::string::String),
                Type::Slice(sl) => {
                    let e = &sl.elem;
                    syn::parse_quote!(::std::vec::Vec<#e>)
                }
                other => other.clone(),
            };
            let mutable = r.mutability.is_some();
            let borrow = if mutable { quote!(&mut #ident) } else { quote!(&#ident) };
            Param { ident, owned, borrow, mutable }
        }
        ty => Param { ident: ident.clone(), owned: ty.clone(), borrow: quote!(#ident), mutable: false },
    })
}

pub fn expand(args: TokenStream, item: ItemFn) -> syn::Result<TokenStream> {
    let metas: Punctuated<Meta, Token![,]> = syn::parse::Parser::parse2(Punctuated::parse_terminated, args)?;
    let mut requires = Vec::new();
    let mut ensures = Vec::new();
    let mut settings = TokenStream::new();
    let mut should_panic = None;
    for m in metas {
        let name = m.path().get_ident().map(ToString::to_string).unwrap_or_default();
        match (name.as_str(), &m) {
            ("requires", Meta::List(l)) => requires.push(clause(l.tokens.clone())?),
            ("ensures", Meta::List(l)) => ensures.push(clause(l.tokens.clone())?),
            ("test", Meta::Path(_)) => {}
            ("test", Meta::List(l)) => {
                let items: Punctuated<crate::attrs::PropertyArg, Token![,]> =
                    l.parse_args_with(Punctuated::parse_terminated)?;
                let mut kept = Vec::new();
                for a in items {
                    if a.name == "should_panic" {
                        should_panic = Some(a.value);
                    } else {
                        let (n, v) = (&a.name, &a.value);
                        kept.push(quote!(#n = #v));
                    }
                }
                settings = quote!(#(#kept),*);
            }
            _ => {
                return Err(syn::Error::new_spanned(
                    &m,
                    "expected `requires(spec)`, `ensures(spec)` or `test(property settings)`",
                ));
            }
        }
    }
    if !item.sig.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(&item.sig.generics, "a contract test needs a function without generics"));
    }
    let params = item.sig.inputs.iter().map(param).collect::<syn::Result<Vec<_>>>()?;
    let names: Vec<String> = params.iter().map(|p| p.ident.to_string()).collect();
    if names.iter().any(|n| n == "result") {
        return Err(syn::Error::new_spanned(&item.sig.inputs, "`result` names the function's result in `ensures`"));
    }

    // Each `requires` clause refines the last argument it mentions (a
    // refinement may mention earlier arguments).
    let mut refine: Vec<Vec<&Clause>> = vec![Vec::new(); params.len()];
    for c in &requires {
        let mut last = 0;
        for v in &c.vars {
            match names.iter().position(|n| n == v) {
                Some(i) => last = last.max(i),
                None => {
                    return Err(syn::Error::new_spanned(
                        &c.tokens,
                        format!("`requires` mentions `{v}`, which is not an argument"),
                    ));
                }
            }
        }
        let Some(slot) = refine.get_mut(last) else {
            return Err(syn::Error::new_spanned(&c.tokens, "`requires` on a function without arguments"));
        };
        slot.push(c);
    }
    for c in &ensures {
        if let Some(v) = c.vars.iter().find(|v| *v != "result" && !names.contains(v)) {
            return Err(syn::Error::new_spanned(
                &c.tokens,
                format!("`ensures` mentions `{v}`, which is neither an argument nor `result`"),
            ));
        }
    }

    let fn_name = &item.sig.ident;
    let test_name = format_ident!("{}_contract", fn_name);
    let target = quote!(::speccheck::__private::target);
    let spec = quote!(::speccheck::__private::spec);
    let test_params = params.iter().zip(&refine).map(|(p, cs)| {
        let (ident, owned) = (&p.ident, &p.owned);
        let mutable = p.mutable.then(|| quote!(mut));
        if cs.is_empty() {
            quote!(#mutable #ident: #owned)
        } else if let [c] = cs.as_slice() {
            let t = &c.tokens;
            quote!(#[refine(#t)] #mutable #ident: #owned)
        } else {
            let parts = cs.iter().map(|c| {
                let t = &c.tokens;
                quote!((#t))
            });
            quote!(#[refine(#(#parts)&&*)] #mutable #ident: #owned)
        }
    });
    let calls = params.iter().map(|p| &p.borrow);
    let body = if ensures.is_empty() {
        quote! {
            let _ = #fn_name(#(#calls),*);
            ::speccheck::TestResult::Pass
        }
    } else {
        let clauses = ensures.iter().map(|c| {
            let (w, s) = (&c.written, &c.source);
            quote!((#w, #s))
        });
        let before = params.iter().map(|p| {
            let (ident, name) = (&p.ident, p.ident.to_string());
            quote!((#name, #spec::Targetable::reflect(&#ident)))
        });
        quote! {
            static __ENSURES: ::std::sync::OnceLock<#target::Ensures> = ::std::sync::OnceLock::new();
            let __ensures = __ENSURES
                .get_or_init(|| #target::Ensures::new(&[#(#clauses),*]).unwrap_or_else(|e| ::core::panic!("{e}")));
            let __before = [#(#before),*];
            let result = #fn_name(#(#calls),*);
            match __ensures.check(&__before, #spec::Targetable::reflect(&result)) {
                ::core::result::Result::Ok(()) => ::speccheck::TestResult::Pass,
                ::core::result::Result::Err(e) => ::speccheck::TestResult::Fail(e),
            }
        }
    };
    let should_panic = should_panic.map(|v| quote!(#[should_panic(expected = #v)]));
    Ok(quote! {
        #item

        #[cfg(test)]
        #[::speccheck::property(#settings)]
        #should_panic
        #[allow(non_snake_case, unused_mut)]
        fn #test_name(#(#test_params),*) -> ::speccheck::TestResult {
            #body
        }
    })
}
