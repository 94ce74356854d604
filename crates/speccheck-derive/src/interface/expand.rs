//! Code generation for a description: each item becomes calls of the
//! `Builder` `__b` (`abstract_type`, `ground`, `data_type`, `function`,
//! `law`, …), each function's and law's types become positive-type
//! descriptors (`describe::pos`), and each function's body reads its
//! arguments out of `Args`, calls, and puts `&mut` arguments back.
//! Reference mode's `compare` block is `compare`'s; the pieces every
//! function's description is made of (types, head, arguments, attributes)
//! are at the end of this file, for both.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Attribute, Expr, Ident, LitStr, Path, Type};

use super::rust_type::{generic_args, mentions, path_text, subst_self, type_text};
use super::types::{DataItem, DataKind, FnItem, LawItem, Mode, Param, ReferenceModel, View};

// ----- types --------------------------------------------------------------------------

/// `abstract Type [as "name"];`
pub fn abstract_type(ty: &Type, name: Option<&LitStr>) -> TokenStream {
    let n = name.map_or_else(|| type_text(ty), LitStr::value);
    quote!(__b.abstract_type::<#ty>(#n);)
}

/// `ground Type [= generator];`: floats are compared by their `Debug`
/// form; without a generator, the type's `Arbitrary` one.
pub fn ground(ty: &Type, generator: Option<&Expr>, rt: &TokenStream) -> TokenStream {
    let n = type_text(ty);
    let is_float = matches!(n.as_str(), "f32" | "f64");
    let g = match generator {
        Some(g) => quote!(#g),
        None => quote!(#rt::__rt::speccheck_core::any::<#ty>()),
    };
    if is_float { quote!(__b.ground_by_debug::<#ty, _>(#n, #g);) } else { quote!(__b.ground::<#ty, _>(#n, #g);) }
}

/// `fresh Type = initial, per_round;`
pub fn fresh_values(ty: &Type, initial: &Expr, per_round: &Expr) -> TokenStream {
    quote!(__b.fresh_values::<#ty>(#initial, #per_round);)
}

/// `pool Type = bound;`
pub fn pool_bound(ty: &Type, bound: &Expr) -> TokenStream {
    quote!(__b.pool_bound::<#ty>(#bound);)
}

/// `__b.data_type(…)`: a user enum or struct as a sum of products, with
/// the functions that split a value into its fields and build it back.
pub fn data(d: &DataItem, rt: &TokenStream) -> syn::Result<TokenStream> {
    let path = &d.path;
    let path_str = {
        let p = &d.path;
        quote!(#p).to_string().replace(" :: ", "::").replace(":: ", "::")
    };
    let pos = quote!(#rt::describe::pos);
    let variants: Vec<(Option<Ident>, &syn::Fields)> = match &d.kind {
        DataKind::Enum(vs) => vs.iter().map(|(i, f)| (Some(i.clone()), f)).collect(),
        DataKind::Struct(f) => vec![(None, f)],
    };
    let mut descs = Vec::new();
    let mut split_arms = Vec::new();
    let mut build_arms = Vec::new();
    for (k, (v, fields)) in variants.iter().enumerate() {
        let (desc, split_arm, build_arm) = constructor(k, v.as_ref(), fields, path, &path_str, rt)?;
        descs.push(desc);
        split_arms.push(split_arm);
        build_arms.push(build_arm);
    }
    Ok(quote! {
        __b.data_type(#pos::data::<#path>(
            #path_str,
            ::std::vec![#(#descs),*],
            #pos::FnData::<#path>::new(
                |__v: &#path| match __v { #(#split_arms)* },
                |__k: usize, __fields: ::std::vec::Vec<#pos::Dyn>| {
                    let mut __fs: ::std::vec::Vec<::std::option::Option<#pos::Dyn>> =
                        __fields.into_iter().map(::std::option::Option::Some).collect();
                    match __k { #(#build_arms)* _ => ::std::unreachable!() }
                },
            ),
        ));
    })
}

/// Constructor `k` of a data type (variant `v` of an enum, or the struct
/// itself): its `Variant` description, and its arms in the functions that
/// split a value and build one.
fn constructor(
    k: usize,
    v: Option<&Ident>,
    fields: &syn::Fields,
    path: &Path,
    path_str: &str,
    rt: &TokenStream,
) -> syn::Result<(TokenStream, TokenStream, TokenStream)> {
    let pos = quote!(#rt::describe::pos);
    let ctor = match v {
        Some(v) => quote!(#path::#v),
        None => quote!(#path),
    };
    let ctor_str = match v {
        Some(v) => format!("{path_str}::{v}"),
        None => path_str.to_string(),
    };
    let tys: Vec<&Type> = fields.iter().map(|f| &f.ty).collect();
    let ps = tys.iter().map(|t| pos_of(t, rt)).collect::<syn::Result<Vec<_>>>()?;
    let locals: Vec<Ident> = (0..tys.len()).map(|i| format_ident!("__f{}", i)).collect();
    let idx: Vec<usize> = (0..tys.len()).collect();
    Ok(match fields {
        syn::Fields::Unit => (
            quote!(#pos::Variant::unit(#ctor_str)),
            quote!(#ctor => (#k, ::std::vec::Vec::new()),),
            quote!(#k => #ctor,),
        ),
        syn::Fields::Unnamed(_) => (
            quote!(#pos::Variant::tuple(#ctor_str, ::std::vec![#(#ps),*])),
            quote!(#ctor(#(#locals),*) => (#k, ::std::vec![#(::std::boxed::Box::new(::std::clone::Clone::clone(#locals)) as #pos::Dyn),*]),),
            quote!(#k => #ctor(#(#pos::field::<#tys>(&mut __fs, #idx)),*),),
        ),
        syn::Fields::Named(_) => {
            let names: Vec<&Ident> = fields.iter().map(|f| f.ident.as_ref().expect("named")).collect();
            let name_strs: Vec<String> = names.iter().map(|n| n.to_string()).collect();
            (
                quote!(#pos::Variant::record(#ctor_str, ::std::vec![#(#name_strs),*], ::std::vec![#(#ps),*])),
                quote!(#ctor { #(#names: #locals),* } => (#k, ::std::vec![#(::std::boxed::Box::new(::std::clone::Clone::clone(#locals)) as #pos::Dyn),*]),),
                quote!(#k => #ctor { #(#names: #pos::field::<#tys>(&mut __fs, #idx)),* },),
            )
        }
    })
}

// ----- functions and laws ---------------------------------------------------------------

/// `__b.function(…)`: a method or associated function of an `impl` block
/// (`self_ty`), or a free function with its body.
pub fn plain_fn(f: &FnItem, self_ty: Option<&Type>, rt: &TokenStream) -> syn::Result<TokenStream> {
    check_attrs(&f.attrs, false)?;
    let name = &f.name;
    let name_str = name.to_string();
    let style = match (self_ty, f.receiver, &f.body) {
        (_, true, _) => quote!(#rt::CallStyle::Method(::std::string::String::from(#name_str))),
        (Some(t), false, _) => {
            let p = format!("{}::{}", path_text(t), name_str);
            quote!(#rt::CallStyle::Path(::std::string::String::from(#p)))
        }
        (None, false, Some(Expr::Path(p))) => {
            let s = quote!(#p).to_string().replace(" :: ", "::").replace(":: ", "::");
            quote!(#rt::CallStyle::Path(::std::string::String::from(#s)))
        }
        (None, false, _) => quote!(#rt::CallStyle::Path(::std::string::String::from(#name_str))),
    };
    let head = fn_head(f, style, rt)?;
    let (reads, locals, puts) = read_args(&f.params, rt);
    let passed: Vec<TokenStream> = f.params.iter().zip(&locals).map(|(p, l)| pass(p, l)).collect();
    let call = match (self_ty, &f.body) {
        (Some(t), _) => quote!(<#t>::#name(#(#passed),*)),
        (None, Some(e)) => quote!((#e)(#(#passed),*)),
        (None, None) => unreachable!("free functions have a body"),
    };
    Ok(quote! {
        __b.function(#head.body(move |__a: &mut #rt::Args<'_>| {
            #(#reads)*
            let __out = #call;
            #(#puts)*
            __out
        }));
    })
}

/// `__b.law(…)`: a law with its variables, read out of `Args` (the ones
/// given first, then the ones lent), its check (`P ⇒ T` when it has a
/// precondition) and its source text.
pub fn law(l: &LawItem, model: Option<&ReferenceModel>, rt: &TokenStream) -> syn::Result<TokenStream> {
    let name = l.name.to_string();
    let mut params = Vec::new();
    let mut reads = Vec::new();
    let mut takes = Vec::new();
    for (i, p) in l.params.iter().enumerate() {
        let (param, read) = law_param(i, p, model, rt)?;
        params.push(param);
        if p.mode == Mode::Ref {
            reads.push(read);
        } else {
            takes.push(read);
        }
    }
    let (body, body_text) = &l.body;
    let check = match &l.requires {
        Some((pre, _)) => quote!(#rt::LawVerdict::implies(#pre, || #body)),
        None => quote!(#rt::LawVerdict::from(#body)),
    };
    let pre_text = match &l.requires {
        Some((_, t)) => quote!(::std::option::Option::Some(#t)),
        None => quote!(::std::option::Option::None),
    };
    Ok(quote! {
        __b.law(#rt::Law::new(#name) #(#params)*
            .check(move |__a: &mut #rt::Args<'_>| {
                #(#takes)*
                #(#reads)*
                #check
            })
            .source(#pre_text, #body_text));
    })
}

/// Variable `i` of a law: its `.param(…)`, and the statement that reads
/// it out of `Args`. In reference mode a variable of the candidate type
/// sees the candidate side of each instance.
fn law_param(
    i: usize,
    p: &Param,
    model: Option<&ReferenceModel>,
    rt: &TokenStream,
) -> syn::Result<(TokenStream, TokenStream)> {
    let me: Type = syn::parse_quote!(Self);
    let ident = p.ident.clone().expect("law parameters are named");
    let p = &Param {
        name: p.name.clone(),
        ident: p.ident.clone(),
        mode: p.mode,
        ty: match model {
            Some(m) => subst_self(&p.ty, &m.candidate),
            None => p.ty.clone(),
        },
        view: p.view,
    };
    if model.is_none() && mentions(&p.ty, &me) {
        return Err(syn::Error::new_spanned(&p.ty, "`Self` in a law means nothing outside reference mode"));
    }
    let pn = &p.name;
    let mode = mode_tokens(p.mode, rt);
    let candidate_side = model.is_some_and(|m| type_text(&p.ty) == type_text(&m.candidate));
    let (pty, ps) = match (candidate_side, model) {
        (true, Some(m)) => (m.model.clone(), pos_of(&m.model, rt)?),
        _ => (p.ty.clone(), pos_of(&p.ty, rt)?),
    };
    if let Some(m) = model
        && !candidate_side
        && mentions(&p.ty, &m.candidate)
    {
        return Err(syn::Error::new_spanned(&p.ty, "in reference mode, a law takes the candidate type directly"));
    }
    let param = quote!(.param(#pn, #mode, #ps));
    let ty = &p.ty;
    let read = match (p.mode, candidate_side) {
        (Mode::Ref, false) => quote!(let #ident: &#ty = __a.get::<#pty>(#i);),
        (Mode::Ref, true) => quote!(let #ident: &#ty = &__a.get::<#pty>(#i).candidate;),
        (_, false) => quote!(let #ident: #ty = __a.take::<#pty>(#i);),
        (_, true) => quote!(let #ident: #ty = __a.take::<#pty>(#i).candidate;),
    };
    if p.view != View::Plain {
        return Err(syn::Error::new_spanned(&p.ty, "laws take `&String` / `&Vec<T>` rather than `&str` / `&[T]`"));
    }
    Ok((param, read))
}

// ----- the pieces of a function's description (here and in `compare`) ----------------

/// The types described as ground by default (drawn by their `Arbitrary`
/// generator unless declared otherwise).
const PRIMITIVES: &[&str] =
    &["bool", "char", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize", "String"];

/// The positive-type descriptor of `ty`.
pub fn pos_of(ty: &Type, rt: &TokenStream) -> syn::Result<TokenStream> {
    let pos = quote!(#rt::describe::pos);
    match ty {
        Type::Paren(p) => pos_of(&p.elem, rt),
        Type::Group(g) => pos_of(&g.elem, rt),
        Type::Tuple(t) if t.elems.is_empty() => Ok(quote!(#pos::unit())),
        Type::Tuple(t) => {
            if t.elems.len() > 6 {
                return Err(syn::Error::new_spanned(t, "tuples of more than 6 elements are not supported"));
            }
            let f = format_ident!("tuple{}", t.elems.len());
            let tys: Vec<&Type> = t.elems.iter().collect();
            let ps = tys.iter().map(|t| pos_of(t, rt)).collect::<syn::Result<Vec<_>>>()?;
            Ok(quote!(#pos::#f::<#(#tys),*>(#(#ps),*)))
        }
        Type::Path(p) if p.qself.is_none() => {
            let seg = p.path.segments.last().expect("a path has a segment");
            let name = seg.ident.to_string();
            let args = generic_args(seg);
            let text = type_text(ty);
            let one = |f: &str| -> syn::Result<TokenStream> {
                let f = format_ident!("{}", f);
                let t = &args[0];
                let p0 = pos_of(t, rt)?;
                Ok(quote!(#pos::#f::<#t>(#p0)))
            };
            match (name.as_str(), args.len()) {
                ("Option", 1) => one("option"),
                ("Box", 1) => one("boxed"),
                ("Vec", 1) => one("vec"),
                ("VecDeque", 1) => one("vec_deque"),
                ("BTreeSet", 1) => one("btree_set"),
                ("HashSet", 1) => one("hash_set"),
                ("Result", 2) | ("BTreeMap", 2) | ("HashMap", 2) => {
                    let f = format_ident!(
                        "{}",
                        match name.as_str() {
                            "Result" => "result",
                            "BTreeMap" => "btree_map",
                            _ => "hash_map",
                        }
                    );
                    let (a, b) = (&args[0], &args[1]);
                    let (pa, pb) = (pos_of(a, rt)?, pos_of(b, rt)?);
                    Ok(quote!(#pos::#f::<#a, #b>(#pa, #pb)))
                }
                ("f32" | "f64", 0) => Ok(quote!(#pos::ground_by_debug::<#ty>(#text))),
                (n, 0) if PRIMITIVES.contains(&n) => Ok(quote!(#pos::ground::<#ty>(#text))),
                _ => Ok(quote!(#pos::atom::<#ty>(#text))),
            }
        }
        Type::Reference(_) => Err(syn::Error::new_spanned(ty, "`&` is only allowed on a whole argument")),
        other => Err(syn::Error::new_spanned(other, "this type cannot be described (use a named type)")),
    }
}

/// `Mode::Owned`, `Mode::Ref` or `Mode::Mut` of the crate.
pub fn mode_tokens(m: Mode, rt: &TokenStream) -> TokenStream {
    match m {
        Mode::Owned => quote!(#rt::Mode::Owned),
        Mode::Ref => quote!(#rt::Mode::Ref),
        Mode::Mut => quote!(#rt::Mode::Mut),
    }
}

/// `Function::new(name, style)` with its parameters, result, `#[panics]`
/// and `#[weight(n)]`.
pub fn fn_head(f: &FnItem, style: TokenStream, rt: &TokenStream) -> syn::Result<TokenStream> {
    let name = f.name.to_string();
    let mut params = Vec::new();
    for p in &f.params {
        let pn = &p.name;
        let m = mode_tokens(p.mode, rt);
        let ps = pos_of(&p.ty, rt)?;
        params.push(quote!(.param(#pn, #m, #ps)));
    }
    let ret = match &f.ret {
        Some(t) => {
            let p = pos_of(t, rt)?;
            quote!(.returns(#p))
        }
        None => quote!(),
    };
    let panics = has_attr(&f.attrs, "panics");
    let weight = weight(&f.attrs)?;
    Ok(quote!(#rt::Function::new(#name, #style) #(#params)* #ret .panics_allowed(#panics) .weight(#weight)))
}

/// Reads the arguments out of `Args` into locals: values given (by value
/// or `&mut`) first, then the ones lent.
pub fn read_args(params: &[Param], rt: &TokenStream) -> (Vec<TokenStream>, Vec<Ident>, Vec<TokenStream>) {
    let mut takes = Vec::new();
    let mut gets = Vec::new();
    let mut locals = Vec::new();
    let mut puts = Vec::new();
    for (i, p) in params.iter().enumerate() {
        let local = format_ident!("__v{}", i);
        let ty = &p.ty;
        match p.mode {
            Mode::Owned => takes.push(quote!(let #local: #ty = __a.take::<#ty>(#i);)),
            Mode::Mut => {
                takes.push(quote!(let mut #local: #ty = __a.take::<#ty>(#i);));
                puts.push(quote!(__a.put::<#ty>(#i, #local);));
            }
            Mode::Ref => gets.push(quote!(let #local: &#ty = __a.get::<#ty>(#i);)),
        }
        locals.push(local);
    }
    let _ = rt;
    takes.extend(gets);
    (takes, locals, puts)
}

/// An argument passed to the function, from its local.
pub fn pass(p: &Param, local: &Ident) -> TokenStream {
    match (p.mode, p.view) {
        (Mode::Owned, _) => quote!(#local),
        (Mode::Mut, _) => quote!(&mut #local),
        (Mode::Ref, View::Str) => quote!(#local.as_str()),
        (Mode::Ref, View::Slice) => quote!(#local.as_slice()),
        (Mode::Ref, View::Plain) => quote!(#local),
    }
}

/// Whether the function carries `#[name]`.
pub fn has_attr(attrs: &[Attribute], name: &str) -> bool {
    attrs.iter().any(|a| a.path().is_ident(name))
}

/// Refuses attributes other than `#[panics]`, `#[weight(n)]` and, in
/// reference mode, `#[nondeterministic(validator)]`, and a bad weight.
pub fn check_attrs(attrs: &[Attribute], reference_mode: bool) -> syn::Result<()> {
    for a in attrs {
        let ok = a.path().is_ident("panics")
            || a.path().is_ident("weight")
            || (reference_mode && a.path().is_ident("nondeterministic"));
        if !ok {
            return Err(syn::Error::new_spanned(
                a,
                if reference_mode {
                    "expected `#[panics]`, `#[weight(n)]` or `#[nondeterministic(validator)]`"
                } else {
                    "expected `#[panics]` or `#[weight(n)]` (`#[nondeterministic]` is for reference mode)"
                },
            ));
        }
    }
    weight(attrs)?;
    Ok(())
}

/// `#[weight(n)]`: how often deep search picks the function, relative to
/// the others (1 when absent).
fn weight(attrs: &[Attribute]) -> syn::Result<u32> {
    for a in attrs {
        if a.path().is_ident("weight") {
            let lit: syn::LitInt = a.parse_args().map_err(|_| {
                syn::Error::new_spanned(a, "expected `#[weight(n)]` with a whole number n ≥ 1 (1 when absent)")
            })?;
            let n: u32 = lit.base10_parse()?;
            if n == 0 {
                return Err(syn::Error::new_spanned(
                    lit,
                    "a weight must be at least 1 (leave the function out of the description to never call it)",
                ));
            }
            return Ok(n);
        }
    }
    Ok(1)
}
