//! `#[derive(Targetable)]` (a type described to the spec language, with
//! `#[refine(...)]` on fields) and `#[measure]` (a function specs may call
//! and the solver may unfold).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Data, DeriveInput, Fields, parse_quote};

use crate::attrs;
use crate::derive::mentions;

/// The refinement on a field, checked against the spec language: it may
/// name the field and the fields before it (`scope`, as bound), and call
/// built-ins and the measures and predicates in scope (`checks` gets the
/// items that make any other call a compile error).
fn refinement(field: &syn::Field, scope: &[String], checks: &mut Vec<TokenStream>) -> syn::Result<Option<String>> {
    let Some(attr) = field.attrs.iter().find(|a| a.path().is_ident("refine")) else { return Ok(None) };
    let tokens = &attr.meta.require_list()?.tokens;
    let spec = crate::spec::spec_tokens(tokens)?;
    let own = scope.last().cloned().unwrap_or_default();
    if let Some(v) = spec.expr.free_vars().into_iter().find(|v| !scope.contains(v)) {
        return Err(syn::Error::new_spanned(
            tokens,
            format!(
                "the refinement of field `{own}` names `{v}`, which is not this field or a field before it (in \
                 scope: {})",
                scope.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
            ),
        ));
    }
    checks.push(crate::spec::calls_in_scope(tokens));
    // Stored desugared: the run-time reader needs no token spacing.
    Ok(Some(spec.source))
}

pub fn expand(input: DeriveInput) -> syn::Result<TokenStream> {
    let tattrs = attrs::type_attrs(&input.attrs)?;
    let krate: syn::Path = tattrs.krate.clone().unwrap_or_else(|| parse_quote!(::speccheck));
    let spec = quote!(#krate::__private::spec);
    let name = &input.ident;
    let name_str = name.to_string();
    let mut generics = input.generics.clone();
    for p in generics.type_params_mut() {
        p.bounds.push(parse_quote!(#spec::Targetable));
    }
    let (impl_g, ty_g, where_g) = generics.split_for_impl();

    // (constructor path, name, fields, recursive)
    let ctors: Vec<(TokenStream, String, Fields, bool)> = match &input.data {
        Data::Struct(s) => vec![(quote!(#name), name_str.clone(), s.fields.clone(), false)],
        Data::Enum(e) => {
            let mut out = Vec::new();
            for v in &e.variants {
                let va = attrs::variant_attrs(&v.attrs)?;
                let recursive = va.recursive.unwrap_or_else(|| v.fields.iter().any(|f| mentions(&f.ty, name)));
                let ident = &v.ident;
                out.push((quote!(#name::#ident), ident.to_string(), v.fields.clone(), recursive));
            }
            out
        }
        Data::Union(u) => return Err(syn::Error::new_spanned(u.union_token, "cannot derive Targetable for a union")),
    };

    let mut defs = Vec::new();
    let mut checks = Vec::new();
    let mut reflects = Vec::new();
    let mut reifies = Vec::new();
    for (index, (path, cname, fields, recursive)) in ctors.iter().enumerate() {
        let mut fdefs = Vec::new();
        let mut binds = Vec::new();
        let mut builds = Vec::new();
        let mut scope = Vec::new();
        for (i, f) in fields.iter().enumerate() {
            let ty = &f.ty;
            let fname = f.ident.as_ref().map_or_else(|| i.to_string(), ToString::to_string);
            scope.push(speccheck_spec::refined::field_binding(&fname));
            let refine = match refinement(f, &scope, &mut checks)? {
                Some(src) => quote!(::core::option::Option::Some(
                    #spec::parse_str(#src).expect("checked when the type was compiled")
                )),
                None => quote!(::core::option::Option::None),
            };
            fdefs.push(quote!(#spec::FieldDef {
                name: ::std::string::String::from(#fname),
                ty: <#ty as #spec::Targetable>::ty(),
                refine: #refine,
            }));
            let local = format_ident!("__f{}", i);
            binds.push(local.clone());
            builds.push(quote!(<#ty as #spec::Targetable>::reify(__fields.get(#i)?)?));
        }
        defs.push(quote!(#spec::CtorDef {
            name: ::std::string::String::from(#cname),
            fields: ::std::vec![#(#fdefs),*],
            recursive: #recursive,
        }));
        let (pattern, build) = match fields {
            Fields::Named(n) => {
                let idents: Vec<_> = n.named.iter().map(|f| f.ident.clone().expect("named")).collect();
                (quote!(#path { #(#idents: #binds),* }), quote!(#path { #(#idents: #builds),* }))
            }
            Fields::Unnamed(_) => (quote!(#path(#(#binds),*)), quote!(#path(#(#builds),*))),
            Fields::Unit => (quote!(#path), quote!(#path)),
        };
        reflects.push(quote!(#pattern => (#index, ::std::vec![#(#spec::Targetable::reflect(#binds)),*])));
        reifies.push(quote!(#index => ::core::option::Option::Some(#build)));
    }

    Ok(quote! {
        #(#checks)*
        impl #impl_g #spec::Targetable for #name #ty_g #where_g {
            fn ty() -> #spec::Ty {
                #spec::Ty::Data(#spec::DataRef::new::<Self>(#name_str, || #spec::DataDef {
                    name: ::std::string::String::from(#name_str),
                    ctors: ::std::vec![#(#defs),*],
                }))
            }
            #[allow(unused_variables)]
            fn reflect(&self) -> #spec::Value {
                let #spec::Ty::Data(__d) = <Self as #spec::Targetable>::ty() else {
                    ::core::unreachable!("a derived type is data")
                };
                let (__ctor, __fields) = match self { #(#reflects),* };
                #spec::Value::Data { def: __d.get(), ctor: __ctor, fields: __fields.into() }
            }
            #[allow(unused_variables)]
            fn reify(__v: &#spec::Value) -> ::core::option::Option<Self> {
                let #spec::Value::Data { ctor, fields: __fields, .. } = __v else {
                    return ::core::option::Option::None;
                };
                match *ctor {
                    #(#reifies,)*
                    _ => ::core::option::Option::None,
                }
            }
        }
    })
}

/// `#[measure]`: the function as written plus its source, registered for
/// specs to find by name. (Its body is Rust, which rustc parses before the
/// macro runs, so `==>` is for specs, not for measure bodies.)
pub fn measure(args: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let krate: syn::Path = if args.is_empty() { parse_quote!(::speccheck) } else { syn::parse2(args)? };
    let spec = quote!(#krate::__private::spec);
    let parsed: syn::ItemFn = syn::parse2(item)?;
    speccheck_spec::Measure::from_item(&parsed).map_err(crate::spec::spec_error)?;
    let name = parsed.sig.ident.to_string();
    let source = quote!(#parsed).to_string();
    Ok(quote! {
        // Specs call it by name: a measure only they use is not dead.
        #[allow(dead_code)]
        #parsed
        #spec::inventory::submit! {
            #spec::MeasureSource { name: #name, module: ::core::module_path!(), source: #source }
        }
    })
}
