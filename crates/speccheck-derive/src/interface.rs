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

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use quote::{format_ident, quote};
use syn::parse::{Parse, ParseStream};
use syn::visit_mut::VisitMut;
use syn::{
    Attribute, Expr, FnArg, GenericArgument, Ident, LitStr, Pat, Path, PathArguments, ReturnType, Token, TraitItemFn,
    Type, braced, parenthesized,
};

// ----- syntax ---------------------------------------------------------------------------

struct Param {
    name: String,
    ident: Option<Ident>,
    mode: Mode,
    /// The type with `&`/`&mut` removed (and `Self` substituted).
    ty: Type,
    /// `&str` and `&[T]` are lent from a `String` / `Vec<T>`.
    view: View,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Owned,
    Ref,
    Mut,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum View {
    Plain,
    Str,
    Slice,
}

struct FnItem {
    attrs: Vec<Attribute>,
    name: Ident,
    receiver: bool,
    params: Vec<Param>,
    ret: Option<Type>,
    /// `= expr` for free functions.
    body: Option<Expr>,
}

enum DataKind {
    Enum(Vec<(Ident, syn::Fields)>),
    Struct(syn::Fields),
}

struct DataItem {
    path: Path,
    kind: DataKind,
}

struct LawItem {
    name: Ident,
    params: Vec<Param>,
    requires: Option<(Expr, String)>,
    body: (Expr, String),
}

enum Item {
    Name(LitStr),
    Crate(Path),
    Abstract(Type, Option<LitStr>),
    Ground(Type, Option<Expr>),
    Fresh(Type, Expr, Expr),
    /// `pool Type = bound;`
    Pool(Type, Expr),
    Data(DataItem),
    Impl(Type, Vec<FnItem>),
    Fn(FnItem),
    Law(LawItem),
    Compare {
        candidate: Type,
        reference: Type,
        by: Path,
        fns: Vec<FnItem>,
    },
}

struct Input {
    items: Vec<Item>,
}

fn kw(input: ParseStream, word: &str) -> bool {
    input.peek(Ident) && input.fork().parse::<Ident>().is_ok_and(|i| i == word)
}

/// Tokens up to (not including) a top-level `;` or `=>`.
fn tokens_until(input: ParseStream, stop_arrow: bool) -> syn::Result<TokenStream> {
    input.step(|cursor| {
        let mut out = TokenStream::new();
        let mut rest = *cursor;
        while let Some((tt, next)) = rest.token_tree() {
            match &tt {
                TokenTree::Punct(p) if p.as_char() == ';' => return Ok((out, rest)),
                TokenTree::Punct(p)
                    if stop_arrow && p.as_char() == '=' && p.spacing() == proc_macro2::Spacing::Joint =>
                {
                    if let Some((TokenTree::Punct(q), _)) = next.token_tree()
                        && q.as_char() == '>'
                    {
                        return Ok((out, rest));
                    }
                }
                _ => {}
            }
            out.extend(std::iter::once(tt));
            rest = next;
        }
        Ok((out, rest))
    })
}

fn parse_params(input: ParseStream, self_ty: Option<&Type>) -> syn::Result<(bool, Vec<Param>)> {
    let content;
    parenthesized!(content in input);
    let args = content.parse_terminated(FnArg::parse, Token![,])?;
    params_of(args.iter(), self_ty)
}

fn params_of<'a>(args: impl Iterator<Item = &'a FnArg>, self_ty: Option<&Type>) -> syn::Result<(bool, Vec<Param>)> {
    let mut receiver = false;
    let mut out = Vec::new();
    for a in args {
        match a {
            FnArg::Receiver(r) => {
                let Some(st) = self_ty else {
                    return Err(syn::Error::new_spanned(r, "`self` outside an `impl` or `compare` block"));
                };
                receiver = true;
                let mode = if r.colon_token.is_some() {
                    match &*r.ty {
                        Type::Reference(rf) if rf.mutability.is_some() => Mode::Mut,
                        Type::Reference(_) => Mode::Ref,
                        _ => Mode::Owned,
                    }
                } else if r.reference.is_some() {
                    if r.mutability.is_some() { Mode::Mut } else { Mode::Ref }
                } else {
                    Mode::Owned
                };
                out.push(Param { name: "self".into(), ident: None, mode, ty: st.clone(), view: View::Plain });
            }
            FnArg::Typed(pt) => {
                let ident = match &*pt.pat {
                    Pat::Ident(pi) => pi.ident.clone(),
                    Pat::Wild(_) => format_ident!("__unnamed{}", out.len()),
                    other => return Err(syn::Error::new_spanned(other, "arguments must be plain names")),
                };
                let mut ty = (*pt.ty).clone();
                if let Some(st) = self_ty {
                    ty = subst_self(&ty, st);
                }
                let (mode, ty, view) = split_ref(&ty)?;
                out.push(Param { name: ident.to_string(), ident: Some(ident), mode, ty, view });
            }
        }
    }
    Ok((receiver, out))
}

fn split_ref(ty: &Type) -> syn::Result<(Mode, Type, View)> {
    match ty {
        Type::Reference(r) => {
            let mode = if r.mutability.is_some() { Mode::Mut } else { Mode::Ref };
            match &*r.elem {
                Type::Path(p) if mode == Mode::Ref && p.qself.is_none() && p.path.is_ident("str") => {
                    Ok((Mode::Ref, syn::parse_quote!(::std::string::String), View::Str))
                }
                Type::Slice(s) if mode == Mode::Ref => {
                    let e = &s.elem;
                    Ok((Mode::Ref, syn::parse_quote!(::std::vec::Vec<#e>), View::Slice))
                }
                Type::Reference(_) => Err(syn::Error::new_spanned(ty, "references to references are not supported")),
                elem => Ok((mode, elem.clone(), View::Plain)),
            }
        }
        Type::Paren(p) => split_ref(&p.elem),
        _ => Ok((Mode::Owned, ty.clone(), View::Plain)),
    }
}

fn parse_fn_sig(input: ParseStream, self_ty: Option<&Type>) -> syn::Result<FnItem> {
    let f: TraitItemFn = input.parse()?;
    if f.default.is_some() {
        return Err(syn::Error::new_spanned(&f.sig, "write the signature only, ending with `;`"));
    }
    let (receiver, params) = params_of(f.sig.inputs.iter(), self_ty)?;
    let ret = match &f.sig.output {
        ReturnType::Default => None,
        ReturnType::Type(_, t) => Some(match self_ty {
            Some(st) => subst_self(t, st),
            None => (**t).clone(),
        }),
    };
    Ok(FnItem { attrs: f.attrs, name: f.sig.ident, receiver, params, ret, body: None })
}

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut items = Vec::new();
        while !input.is_empty() {
            let attrs = input.call(Attribute::parse_outer)?;
            if kw(input, "name") {
                input.parse::<Ident>()?;
                input.parse::<Token![=]>()?;
                items.push(Item::Name(input.parse()?));
                input.parse::<Token![;]>()?;
            } else if input.peek(Token![crate]) {
                input.parse::<Token![crate]>()?;
                input.parse::<Token![=]>()?;
                items.push(Item::Crate(input.call(Path::parse_mod_style)?));
                input.parse::<Token![;]>()?;
            } else if input.peek(Token![abstract]) {
                input.parse::<Token![abstract]>()?;
                let ty: Type = input.parse()?;
                let name = if input.peek(Token![as]) {
                    input.parse::<Token![as]>()?;
                    Some(input.parse()?)
                } else {
                    None
                };
                items.push(Item::Abstract(ty, name));
                input.parse::<Token![;]>()?;
            } else if kw(input, "ground") {
                input.parse::<Ident>()?;
                let ty: Type = input.parse()?;
                let g = if input.peek(Token![=]) {
                    input.parse::<Token![=]>()?;
                    Some(input.parse()?)
                } else {
                    None
                };
                items.push(Item::Ground(ty, g));
                input.parse::<Token![;]>()?;
            } else if kw(input, "fresh") {
                input.parse::<Ident>()?;
                let ty: Type = input.parse()?;
                input.parse::<Token![=]>()?;
                let a: Expr = input.parse()?;
                input.parse::<Token![,]>()?;
                let b: Expr = input.parse()?;
                items.push(Item::Fresh(ty, a, b));
                input.parse::<Token![;]>()?;
            } else if kw(input, "pool") {
                input.parse::<Ident>()?;
                let ty: Type = input.parse()?;
                input.parse::<Token![=]>()?;
                let n: Expr = input.parse()?;
                items.push(Item::Pool(ty, n));
                input.parse::<Token![;]>()?;
            } else if input.peek(Token![enum]) {
                input.parse::<Token![enum]>()?;
                let path: Path = input.call(Path::parse_mod_style)?;
                let content;
                braced!(content in input);
                let variants = content.parse_terminated(syn::Variant::parse, Token![,])?;
                let vs = variants.into_iter().map(|v| (v.ident, v.fields)).collect();
                items.push(Item::Data(DataItem { path, kind: DataKind::Enum(vs) }));
                let _ = input.parse::<Option<Token![;]>>()?;
            } else if input.peek(Token![struct]) {
                input.parse::<Token![struct]>()?;
                let path: Path = input.call(Path::parse_mod_style)?;
                let fields = if input.peek(syn::token::Brace) {
                    syn::Fields::Named(input.parse()?)
                } else {
                    syn::Fields::Unnamed(input.parse()?)
                };
                items.push(Item::Data(DataItem { path, kind: DataKind::Struct(fields) }));
                let _ = input.parse::<Option<Token![;]>>()?;
            } else if input.peek(Token![impl]) {
                input.parse::<Token![impl]>()?;
                let ty: Type = input.parse()?;
                let content;
                braced!(content in input);
                let mut fns = Vec::new();
                while !content.is_empty() {
                    fns.push(parse_fn_sig(&content, Some(&ty))?);
                }
                items.push(Item::Impl(ty, fns));
            } else if input.peek(Token![fn]) {
                input.parse::<Token![fn]>()?;
                let name: Ident = input.parse()?;
                let (receiver, params) = parse_params(input, None)?;
                let ret = if input.peek(Token![->]) {
                    input.parse::<Token![->]>()?;
                    Some(input.parse()?)
                } else {
                    None
                };
                input.parse::<Token![=]>()?;
                let body: Expr = input.parse()?;
                input.parse::<Token![;]>()?;
                items.push(Item::Fn(FnItem { attrs, name, receiver, params, ret, body: Some(body) }));
                continue;
            } else if kw(input, "law") {
                input.parse::<Ident>()?;
                let name: Ident = input.parse()?;
                let (_, params) = parse_params(input, None)?;
                let requires = if kw(input, "requires") {
                    input.parse::<Ident>()?;
                    let toks = tokens_until(input, true)?;
                    let text = source_text(toks.clone());
                    Some((syn::parse2::<Expr>(toks)?, text))
                } else {
                    None
                };
                input.parse::<Token![=>]>()?;
                let toks = tokens_until(input, false)?;
                let text = source_text(toks.clone());
                let body = (syn::parse2::<Expr>(toks)?, text);
                input.parse::<Token![;]>()?;
                items.push(Item::Law(LawItem { name, params, requires, body }));
            } else if kw(input, "compare") {
                input.parse::<Ident>()?;
                let candidate: Type = input.parse()?;
                if !kw(input, "with") {
                    return Err(input.error("expected `with Reference`"));
                }
                input.parse::<Ident>()?;
                let reference: Type = input.parse()?;
                if !kw(input, "by") {
                    return Err(input.error("expected `by Trait`"));
                }
                input.parse::<Ident>()?;
                let by: Path = input.parse()?;
                let content;
                braced!(content in input);
                let self_ty: Type = syn::parse_quote!(Self);
                let mut fns = Vec::new();
                while !content.is_empty() {
                    fns.push(parse_fn_sig(&content, Some(&self_ty))?);
                }
                items.push(Item::Compare { candidate, reference, by, fns });
            } else {
                return Err(input.error(
                    "expected `name = …`, `crate = …`, `abstract`, `ground`, `fresh`, `pool`, `enum`, `struct`, `impl`, `fn`, \
                     `law` or `compare`",
                ));
            }
            if !attrs.is_empty() {
                return Err(syn::Error::new_spanned(&attrs[0], "attributes only go on functions"));
            }
        }
        Ok(Input { items })
    }
}

// ----- helpers --------------------------------------------------------------------------

struct SubstSelf<'a>(&'a Type);

impl VisitMut for SubstSelf<'_> {
    fn visit_type_mut(&mut self, t: &mut Type) {
        if let Type::Path(p) = t
            && p.qself.is_none()
            && p.path.is_ident("Self")
        {
            *t = self.0.clone();
            return;
        }
        syn::visit_mut::visit_type_mut(self, t);
    }
}

fn subst_self(ty: &Type, with: &Type) -> Type {
    let mut t = ty.clone();
    SubstSelf(with).visit_type_mut(&mut t);
    t
}

fn mentions(ty: &Type, what: &Type) -> bool {
    fn flat(ts: TokenStream, out: &mut Vec<String>) {
        for tt in ts {
            match tt {
                TokenTree::Group(g) => {
                    out.push(format!("{:?}", g.delimiter()));
                    flat(g.stream(), out);
                    out.push("end".to_string());
                }
                other => out.push(other.to_string()),
            }
        }
    }
    let (mut hay, mut needle) = (Vec::new(), Vec::new());
    flat(quote!(#ty), &mut hay);
    flat(quote!(#what), &mut needle);
    !needle.is_empty() && hay.windows(needle.len()).any(|w| w == needle.as_slice())
}

/// Readable text of a type (`Vec<i32>`, `(A, B)`).
fn type_text(ty: &Type) -> String {
    let s = quote!(#ty).to_string();
    s.replace(" :: ", "::")
        .replace(":: ", "::")
        .replace(" <", "<")
        .replace("< ", "<")
        .replace(" >", ">")
        .replace(" ,", ",")
        .replace("& ", "&")
        .replace("( ", "(")
        .replace(" )", ")")
        .replace("[ ", "[")
        .replace(" ]", "]")
        .replace(" ;", ";")
}

/// The path to print before `::f` for associated functions: generic
/// arguments get a turbofish (`Avl::<i32>`).
fn path_text(ty: &Type) -> String {
    let t = type_text(ty);
    match (ty, t.find('<')) {
        (Type::Path(_), Some(i)) if !t[..i].ends_with("::") => format!("{}::{}", &t[..i], &t[i..]),
        _ => t,
    }
}

/// The source text of tokens, with the user's spacing when the compiler
/// can tell where tokens are (inside a macro invocation), else a
/// token-by-token rendering.
fn source_text(tokens: TokenStream) -> String {
    if !proc_macro::is_available() {
        return tokens.to_string();
    }
    struct Piece {
        text: String,
        start: (usize, usize),
        end: (usize, usize),
    }
    fn pos(s: Span, end: bool) -> (usize, usize) {
        let s = s.unwrap();
        let p = if end { s.end() } else { s.start() };
        (p.line(), p.column())
    }
    fn flatten(ts: TokenStream, out: &mut Vec<Piece>) {
        for tt in ts {
            match tt {
                TokenTree::Group(g) => {
                    let (open, close) = match g.delimiter() {
                        Delimiter::Parenthesis => ("(", ")"),
                        Delimiter::Brace => ("{", "}"),
                        Delimiter::Bracket => ("[", "]"),
                        Delimiter::None => ("", ""),
                    };
                    if !open.is_empty() {
                        let s = g.span_open();
                        out.push(Piece { text: open.into(), start: pos(s, false), end: pos(s, true) });
                    }
                    flatten(g.stream(), out);
                    if !close.is_empty() {
                        let s = g.span_close();
                        out.push(Piece { text: close.into(), start: pos(s, false), end: pos(s, true) });
                    }
                }
                other => {
                    let s = other.span();
                    out.push(Piece { text: other.to_string(), start: pos(s, false), end: pos(s, true) });
                }
            }
        }
    }
    let mut pieces = Vec::new();
    flatten(tokens, &mut pieces);
    let mut out = String::new();
    let mut prev: Option<(usize, usize)> = None;
    for p in pieces {
        if let Some(end) = prev {
            if p.start.0 == end.0 && p.start.1 >= end.1 {
                out.push_str(&" ".repeat(p.start.1 - end.1));
            } else if p.start.0 != end.0 || p.start.1 < end.1 {
                out.push(' ');
            }
        }
        out.push_str(&p.text);
        prev = Some(p.end);
    }
    out
}

const PRIMITIVES: &[&str] =
    &["bool", "char", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize", "String"];

fn generic_args(seg: &syn::PathSegment) -> Vec<Type> {
    match &seg.arguments {
        PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|g| match g {
                GenericArgument::Type(t) => Some(t.clone()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The positive-type descriptor of `ty`.
fn pos_of(ty: &Type, rt: &TokenStream) -> syn::Result<TokenStream> {
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

fn mode_tokens(m: Mode, rt: &TokenStream) -> TokenStream {
    match m {
        Mode::Owned => quote!(#rt::Mode::Owned),
        Mode::Ref => quote!(#rt::Mode::Ref),
        Mode::Mut => quote!(#rt::Mode::Mut),
    }
}

fn has_attr(attrs: &[Attribute], name: &str) -> bool {
    attrs.iter().any(|a| a.path().is_ident(name))
}

fn nondet_validator(attrs: &[Attribute]) -> syn::Result<Option<Expr>> {
    for a in attrs {
        if a.path().is_ident("nondeterministic") {
            return Ok(Some(a.parse_args()?));
        }
    }
    Ok(None)
}

fn check_attrs(attrs: &[Attribute], reference_mode: bool) -> syn::Result<()> {
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

/// Reads the arguments out of `Args` into locals: values given (by value
/// or `&mut`) first, then the ones lent.
fn read_args(params: &[Param], rt: &TokenStream) -> (Vec<TokenStream>, Vec<Ident>, Vec<TokenStream>) {
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
fn pass(p: &Param, local: &Ident) -> TokenStream {
    match (p.mode, p.view) {
        (Mode::Owned, _) => quote!(#local),
        (Mode::Mut, _) => quote!(&mut #local),
        (Mode::Ref, View::Str) => quote!(#local.as_str()),
        (Mode::Ref, View::Slice) => quote!(#local.as_slice()),
        (Mode::Ref, View::Plain) => quote!(#local),
    }
}

// ----- expansion ------------------------------------------------------------------------

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
    let mut stmts = Vec::new();
    let compares = input.items.iter().filter(|i| matches!(i, Item::Compare { .. })).count();
    if compares > 1 {
        return Err(syn::Error::new(Span::call_site(), "one `compare` block per interface"));
    }
    // In reference mode, laws over the candidate type see its candidate side.
    let model: Option<(Type, Type, Type)> = input.items.iter().find_map(|i| match i {
        Item::Compare { candidate, reference, .. } => {
            let m: Type = syn::parse_quote!(#rt::Model<#candidate, #reference>);
            Some((candidate.clone(), reference.clone(), m))
        }
        _ => None,
    });
    for it in &input.items {
        match it {
            Item::Name(_) | Item::Crate(_) => {}
            Item::Abstract(ty, n) => {
                let n = n.as_ref().map_or_else(|| type_text(ty), LitStr::value);
                stmts.push(quote!(__b.abstract_type::<#ty>(#n);));
            }
            Item::Ground(ty, g) => {
                let n = type_text(ty);
                let is_float = matches!(n.as_str(), "f32" | "f64");
                let g = match g {
                    Some(g) => quote!(#g),
                    None => quote!(#rt::__rt::speccheck_core::any::<#ty>()),
                };
                if is_float {
                    stmts.push(quote!(__b.ground_by_debug::<#ty, _>(#n, #g);));
                } else {
                    stmts.push(quote!(__b.ground::<#ty, _>(#n, #g);));
                }
            }
            Item::Fresh(ty, a, b) => stmts.push(quote!(__b.fresh_values::<#ty>(#a, #b);)),
            Item::Pool(ty, n) => stmts.push(quote!(__b.pool_bound::<#ty>(#n);)),
            Item::Data(d) => stmts.push(expand_data(d, &rt)?),
            Item::Impl(ty, fns) => {
                for f in fns {
                    stmts.push(expand_plain_fn(f, Some(ty), &rt)?);
                }
            }
            Item::Fn(f) => stmts.push(expand_plain_fn(f, None, &rt)?),
            Item::Law(l) => stmts.push(expand_law(l, model.as_ref(), &rt)?),
            Item::Compare { candidate, reference, by, fns } => {
                let (_, _, m) = model.as_ref().expect("a compare block");
                let cname = type_text(candidate);
                let rname = type_text(reference);
                stmts.push(quote!(__b.abstract_type::<#m>(#cname); __b.reference(#rname);));
                for f in fns {
                    stmts.push(expand_compare_fn(f, candidate, reference, by, m, &rname, &rt)?);
                }
            }
        }
    }
    Ok(quote! {{
        #[allow(unused_mut, unused_variables, clippy::redundant_closure_call, clippy::clone_on_copy)]
        let __api = {
            let mut __b = #rt::Builder::new(#name);
            #(#stmts)*
            __b.build()
        };
        __api
    }})
}

fn expand_data(d: &DataItem, rt: &TokenStream) -> syn::Result<TokenStream> {
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
        let ctor = match v {
            Some(v) => quote!(#path::#v),
            None => quote!(#path),
        };
        let ctor_str = match v {
            Some(v) => format!("{path_str}::{v}"),
            None => path_str.clone(),
        };
        let tys: Vec<&Type> = fields.iter().map(|f| &f.ty).collect();
        let ps = tys.iter().map(|t| pos_of(t, rt)).collect::<syn::Result<Vec<_>>>()?;
        let locals: Vec<Ident> = (0..tys.len()).map(|i| format_ident!("__f{}", i)).collect();
        let idx: Vec<usize> = (0..tys.len()).collect();
        match fields {
            syn::Fields::Unit => {
                descs.push(quote!(#pos::Variant::unit(#ctor_str)));
                split_arms.push(quote!(#ctor => (#k, ::std::vec::Vec::new()),));
                build_arms.push(quote!(#k => #ctor,));
            }
            syn::Fields::Unnamed(_) => {
                descs.push(quote!(#pos::Variant::tuple(#ctor_str, ::std::vec![#(#ps),*])));
                split_arms.push(quote!(#ctor(#(#locals),*) => (#k, ::std::vec![#(::std::boxed::Box::new(::std::clone::Clone::clone(#locals)) as #pos::Dyn),*]),));
                build_arms.push(quote!(#k => #ctor(#(#pos::field::<#tys>(&mut __fs, #idx)),*),));
            }
            syn::Fields::Named(_) => {
                let names: Vec<&Ident> = fields.iter().map(|f| f.ident.as_ref().expect("named")).collect();
                let name_strs: Vec<String> = names.iter().map(|n| n.to_string()).collect();
                descs.push(
                    quote!(#pos::Variant::record(#ctor_str, ::std::vec![#(#name_strs),*], ::std::vec![#(#ps),*])),
                );
                split_arms.push(quote!(#ctor { #(#names: #locals),* } => (#k, ::std::vec![#(::std::boxed::Box::new(::std::clone::Clone::clone(#locals)) as #pos::Dyn),*]),));
                build_arms.push(quote!(#k => #ctor { #(#names: #pos::field::<#tys>(&mut __fs, #idx)),* },));
            }
        }
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

fn fn_head(f: &FnItem, style: TokenStream, rt: &TokenStream) -> syn::Result<TokenStream> {
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

fn expand_plain_fn(f: &FnItem, self_ty: Option<&Type>, rt: &TokenStream) -> syn::Result<TokenStream> {
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

fn expand_law(l: &LawItem, model: Option<&(Type, Type, Type)>, rt: &TokenStream) -> syn::Result<TokenStream> {
    let name = l.name.to_string();
    let mut params = Vec::new();
    let mut reads = Vec::new();
    let mut takes = Vec::new();
    let me: Type = syn::parse_quote!(Self);
    for (i, p) in l.params.iter().enumerate() {
        let ident = p.ident.clone().expect("law parameters are named");
        let p = &Param {
            name: p.name.clone(),
            ident: p.ident.clone(),
            mode: p.mode,
            ty: match model {
                Some((c, _, _)) => subst_self(&p.ty, c),
                None => p.ty.clone(),
            },
            view: p.view,
        };
        if model.is_none() && mentions(&p.ty, &me) {
            return Err(syn::Error::new_spanned(&p.ty, "`Self` in a law means nothing outside reference mode"));
        }
        let pn = &p.name;
        let m = mode_tokens(p.mode, rt);
        // In reference mode a law over the candidate type sees the
        // candidate side of each instance.
        let candidate_side = model.is_some_and(|(c, _, _)| type_text(&p.ty) == type_text(c));
        let (pty, ps) = match (candidate_side, model) {
            (true, Some((_, _, m))) => (m.clone(), pos_of(m, rt)?),
            _ => (p.ty.clone(), pos_of(&p.ty, rt)?),
        };
        if let Some((c, _, _)) = model
            && !candidate_side
            && mentions(&p.ty, c)
        {
            return Err(syn::Error::new_spanned(&p.ty, "in reference mode, a law takes the candidate type directly"));
        }
        params.push(quote!(.param(#pn, #m, #ps)));
        let ty = &p.ty;
        let read = match (p.mode, candidate_side) {
            (Mode::Ref, false) => quote!(let #ident: &#ty = __a.get::<#pty>(#i);),
            (Mode::Ref, true) => quote!(let #ident: &#ty = &__a.get::<#pty>(#i).candidate;),
            (_, false) => quote!(let #ident: #ty = __a.take::<#pty>(#i);),
            (_, true) => quote!(let #ident: #ty = __a.take::<#pty>(#i).candidate;),
        };
        if p.mode == Mode::Ref {
            reads.push(read);
        } else {
            takes.push(read);
        }
        if p.view != View::Plain {
            return Err(syn::Error::new_spanned(&p.ty, "laws take `&String` / `&Vec<T>` rather than `&str` / `&[T]`"));
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

#[allow(clippy::too_many_arguments)]
fn expand_compare_fn(
    f: &FnItem,
    candidate: &Type,
    reference: &Type,
    by: &Path,
    model: &Type,
    rname: &str,
    rt: &TokenStream,
) -> syn::Result<TokenStream> {
    check_attrs(&f.attrs, true)?;
    let me: Type = syn::parse_quote!(Self);
    let name = &f.name;
    let name_str = name.to_string();
    let style = if f.receiver {
        quote!(#rt::CallStyle::Method(::std::string::String::from(#name_str)))
    } else {
        let p = format!("{}::{}", path_text(candidate), name_str);
        quote!(#rt::CallStyle::Path(::std::string::String::from(#p)))
    };
    // The description's types use the model in place of `Self`.
    let described = FnItem {
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
    };
    for p in &f.params {
        let is_self = matches!(&p.ty, Type::Path(tp) if tp.qself.is_none() && tp.path.is_ident("Self"));
        if !is_self && mentions(&p.ty, &me) {
            return Err(syn::Error::new_spanned(
                &p.ty,
                "in reference mode, arguments are `Self`, `&Self`, `&mut Self` or values without `Self`",
            ));
        }
    }
    let head = fn_head(&described, style, rt)?;
    let (reads, locals, puts) = read_args(&described.params, rt);
    let mut cargs = Vec::new();
    let mut rargs = Vec::new();
    for (p, l) in f.params.iter().zip(&locals) {
        let is_self = matches!(&p.ty, Type::Path(tp) if tp.qself.is_none() && tp.path.is_ident("Self"));
        let (c, r) = match (p.mode, is_self) {
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
    let rtx = quote!(#rt::__rt);
    let panics = has_attr(&f.attrs, "panics");
    let cty = f.ret.as_ref().map_or_else(|| syn::parse_quote!(()), |t| subst_self(t, candidate));
    let rty: Type = f.ret.as_ref().map_or_else(|| syn::parse_quote!(()), |t| subst_self(t, reference));
    let zty: Type = f.ret.as_ref().map_or_else(|| syn::parse_quote!(()), |t| subst_self(t, model));
    let compare = match nondet_validator(&f.attrs)? {
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
    };
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
