//! Reference mode (Monolith): `compare Candidate with Reference by Trait
//! { fn …; }`. The one abstract type is `Model<Candidate, Reference>`, an
//! instance of each side; every function is called on both through the
//! trait and their results compared: paired back into the model where they
//! hold `Self` (`zip`), compared by equality where they do not, and for a
//! `#[nondeterministic(validator)]` function the candidate's result checked
//! by the validator against the reference. A panic on one side only is a
//! mismatch; on both, with `#[panics]`, the call is refused.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use syn::{Attribute, Expr, Path, Type};

use super::expand::{check_attrs, fn_head, has_attr, pass, read_args};
use super::rust_type::{generic_args, mentions, path_text, subst_self, type_text};
use super::types::{FnItem, Mode, Param, ReferenceModel};

/// The `compare` block: the model declared as the abstract type, the
/// reference named, and each function.
pub fn block(fns: &[FnItem], by: &Path, m: &ReferenceModel, rt: &TokenStream) -> syn::Result<TokenStream> {
    let model = &m.model;
    let cname = type_text(&m.candidate);
    let rname = type_text(&m.reference);
    let mut out = quote!(__b.abstract_type::<#model>(#cname); __b.reference(#rname););
    for f in fns {
        out.extend(compare_fn(f, by, m, &rname, rt)?);
    }
    Ok(out)
}

/// `__b.function(…)` for one function of the block: its description
/// over the model, and a body that calls both sides and compares them,
/// putting `&mut` arguments back only when they agree.
fn compare_fn(f: &FnItem, by: &Path, m: &ReferenceModel, rname: &str, rt: &TokenStream) -> syn::Result<TokenStream> {
    check_attrs(&f.attrs, true)?;
    let style = call_style(f, &m.candidate, rt);
    let described = over_model(f, &m.model);
    check_arguments(f)?;
    let head = fn_head(&described, style, rt)?;
    let (reads, locals, puts) = read_args(&described.params, rt);
    let (cargs, rargs) = both_sides(f, &locals);
    let compare = comparison(f, by, m, rname, &cargs, &rargs, rt)?;
    Ok(quote! {
        __b.function(#head.call(move |__a: &mut #rt::Args<'_>| {
            #(#reads)*
            let __res: ::std::result::Result<#rt::describe::Dyn, #rt::CallError> = { #compare };
            if __res.is_ok() {
                #(#puts)*
            }
            __res
        }));
    })
}

/// How a call is written in programs: a method, or an associated function
/// of the candidate.
fn call_style(f: &FnItem, candidate: &Type, rt: &TokenStream) -> TokenStream {
    let name_str = f.name.to_string();
    if f.receiver {
        quote!(#rt::CallStyle::Method(::std::string::String::from(#name_str)))
    } else {
        let p = format!("{}::{}", path_text(candidate), name_str);
        quote!(#rt::CallStyle::Path(::std::string::String::from(#p)))
    }
}

/// The function as the description sees it: the model in place of `Self`.
fn over_model(f: &FnItem, model: &Type) -> FnItem {
    FnItem {
        attrs: f.attrs.clone(),
        name: f.name.clone(),
        receiver: f.receiver,
        params: f
            .params
            .iter()
            .map(|p| Param {
                name: p.name.clone(),
                ident: p.ident.clone(),
                mode: p.mode,
                ty: subst_self(&p.ty, model),
                view: p.view,
            })
            .collect(),
        ret: f.ret.as_ref().map(|t| subst_self(t, model)),
        body: None,
    }
}

fn is_self(ty: &Type) -> bool {
    matches!(ty, Type::Path(tp) if tp.qself.is_none() && tp.path.is_ident("Self"))
}

/// Refuses an argument that holds `Self` other than as the whole type.
fn check_arguments(f: &FnItem) -> syn::Result<()> {
    let me: Type = syn::parse_quote!(Self);
    for p in &f.params {
        if !is_self(&p.ty) && mentions(&p.ty, &me) {
            return Err(syn::Error::new_spanned(
                &p.ty,
                "in reference mode, arguments are `Self`, `&Self`, `&mut Self` or values without `Self`",
            ));
        }
    }
    Ok(())
}

/// The arguments of the candidate's call and of the reference's, from
/// the locals read out of `Args`: each side of a `Self`, a clone of any
/// other value for the candidate (the reference gets the value itself).
fn both_sides(f: &FnItem, locals: &[Ident]) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let mut cargs = Vec::new();
    let mut rargs = Vec::new();
    for (p, l) in f.params.iter().zip(locals) {
        let (c, r) = match (p.mode, is_self(&p.ty)) {
            (Mode::Owned, true) => (quote!(#l.candidate), quote!(#l.reference)),
            (Mode::Ref, true) => (quote!(&#l.candidate), quote!(&#l.reference)),
            (Mode::Mut, true) => (quote!(&mut #l.candidate), quote!(&mut #l.reference)),
            (Mode::Owned, false) => (quote!(::std::clone::Clone::clone(&#l)), quote!(#l)),
            (Mode::Mut, false) => (quote!(&mut ::std::clone::Clone::clone(&#l)), quote!(&mut #l)),
            (Mode::Ref, false) => {
                let v = pass(p, l);
                (v.clone(), v)
            }
        };
        cargs.push(c);
        rargs.push(r);
    }
    (cargs, rargs)
}

/// The expression calling both sides and giving the call's result (the
/// paired value, boxed) or why there is none.
fn comparison(
    f: &FnItem,
    by: &Path,
    m: &ReferenceModel,
    rname: &str,
    cargs: &[TokenStream],
    rargs: &[TokenStream],
    rt: &TokenStream,
) -> syn::Result<TokenStream> {
    let me: Type = syn::parse_quote!(Self);
    let name = &f.name;
    let (candidate, reference, model) = (&m.candidate, &m.reference, &m.model);
    let rtx = quote!(#rt::__rt);
    let panics = has_attr(&f.attrs, "panics");
    let cty = f.ret.as_ref().map_or_else(|| syn::parse_quote!(()), |t| subst_self(t, candidate));
    let rty: Type = f.ret.as_ref().map_or_else(|| syn::parse_quote!(()), |t| subst_self(t, reference));
    let zty: Type = f.ret.as_ref().map_or_else(|| syn::parse_quote!(()), |t| subst_self(t, model));
    Ok(match nondet_validator(&f.attrs)? {
        Some(validator) => {
            if f.ret.as_ref().is_some_and(|t| mentions(t, &me)) {
                return Err(syn::Error::new_spanned(
                    &f.name,
                    "a nondeterministic operation must return values without `Self` (the reference validates them)",
                ));
            }
            quote! {
                let __c = #rtx::side(|| <#candidate as #by>::#name(#(#cargs),*));
                match __c {
                    ::std::result::Result::Err(_) if #panics => ::std::result::Result::Err(#rt::CallError::Refused),
                    ::std::result::Result::Err(__p) => ::std::result::Result::Err(#rt::CallError::Mismatch(::std::format!("{}", __p))),
                    ::std::result::Result::Ok(__c) => {
                        let __ok: bool = (#validator)(#(#rargs,)* &__c);
                        #rtx::validate(__c, __ok, #rname)
                            .map(|__v| ::std::boxed::Box::new(__v) as #rt::describe::Dyn)
                            .map_err(#rt::CallError::Mismatch)
                    }
                }
            }
        }
        None => {
            let ret_ty: Type = f.ret.clone().unwrap_or_else(|| syn::parse_quote!(()));
            let zipped = zip(&ret_ty, quote!(__c), quote!(__r), model, rname, rt)?;
            quote! {
                let __c = #rtx::side(|| <#candidate as #by>::#name(#(#cargs),*));
                let __r = #rtx::side(|| <#reference as #by>::#name(#(#rargs),*));
                #rtx::settle(__c, __r, #panics, #rname, |__c: #cty, __r: #rty| -> ::std::result::Result<#zty, ::std::string::String> { #zipped })
            }
        }
    })
}

/// Code comparing a candidate result `c` and a reference result `r` of
/// type `ty` (with `Self` for the abstract type), producing the paired
/// value or a mismatch.
fn zip(
    ty: &Type,
    c: TokenStream,
    r: TokenStream,
    model: &Type,
    rname: &str,
    rt: &TokenStream,
) -> syn::Result<TokenStream> {
    let me: Type = syn::parse_quote!(Self);
    let rtx = quote!(#rt::__rt);
    if !mentions(ty, &me) {
        return Ok(quote!(#rtx::same(#c, #r, #rname)));
    }
    match ty {
        Type::Paren(p) => zip(&p.elem, c, r, model, rname, rt),
        Type::Path(p) if p.qself.is_none() && p.path.is_ident("Self") => {
            Ok(quote!(::std::result::Result::Ok(<#model>::new(#c, #r))))
        }
        Type::Tuple(t) => {
            let cs: Vec<Ident> = (0..t.elems.len()).map(|i| format_ident!("__c{}", i)).collect();
            let rs: Vec<Ident> = (0..t.elems.len()).map(|i| format_ident!("__r{}", i)).collect();
            let parts = t
                .elems
                .iter()
                .zip(cs.iter().zip(&rs))
                .map(|(e, (ci, ri))| zip(e, quote!(#ci), quote!(#ri), model, rname, rt))
                .collect::<syn::Result<Vec<_>>>()?;
            Ok(quote!({ let (#(#cs,)*) = #c; let (#(#rs,)*) = #r; ::std::result::Result::Ok((#((#parts)?,)*)) }))
        }
        Type::Path(p) if p.qself.is_none() => {
            let seg = p.path.segments.last().expect("a segment");
            let args = generic_args(seg);
            match (seg.ident.to_string().as_str(), args.len()) {
                ("Option", 1) => {
                    let inner = zip(&args[0], quote!(__c), quote!(__r), model, rname, rt)?;
                    Ok(quote!(match (#c, #r) {
                        (::std::option::Option::Some(__c), ::std::option::Option::Some(__r)) => ::std::result::Result::Ok(::std::option::Option::Some((#inner)?)),
                        (::std::option::Option::None, ::std::option::Option::None) => ::std::result::Result::Ok(::std::option::Option::None),
                        (__c, __r) => { #rtx::same_variant(&__c, &__r, false, #rname)?; ::std::unreachable!() }
                    }))
                }
                ("Result", 2) => {
                    let ok = zip(&args[0], quote!(__c), quote!(__r), model, rname, rt)?;
                    let err = zip(&args[1], quote!(__c), quote!(__r), model, rname, rt)?;
                    Ok(quote!(match (#c, #r) {
                        (::std::result::Result::Ok(__c), ::std::result::Result::Ok(__r)) => ::std::result::Result::Ok(::std::result::Result::Ok((#ok)?)),
                        (::std::result::Result::Err(__c), ::std::result::Result::Err(__r)) => ::std::result::Result::Ok(::std::result::Result::Err((#err)?)),
                        (__c, __r) => { #rtx::same_variant(&__c, &__r, false, #rname)?; ::std::unreachable!() }
                    }))
                }
                ("Vec", 1) => {
                    let inner = zip(&args[0], quote!(__c), quote!(__r), model, rname, rt)?;
                    Ok(quote!({
                        let (__cv, __rv) = (#c, #r);
                        #rtx::same_len(&__cv, &__rv, #rname)?;
                        __cv.into_iter().zip(__rv).map(|(__c, __r)| #inner).collect::<::std::result::Result<::std::vec::Vec<_>, _>>()
                    }))
                }
                _ => Err(syn::Error::new_spanned(
                    ty,
                    "in reference mode, `Self` may appear in results only directly or inside tuples, `Option`, `Result` and `Vec`",
                )),
            }
        }
        other => Err(syn::Error::new_spanned(other, "unsupported result type in reference mode")),
    }
}

/// The validator of `#[nondeterministic(validator)]`, if the function has one.
fn nondet_validator(attrs: &[Attribute]) -> syn::Result<Option<Expr>> {
    for a in attrs {
        if a.path().is_ident("nondeterministic") {
            return Ok(Some(a.parse_args()?));
        }
    }
    Ok(None)
}
