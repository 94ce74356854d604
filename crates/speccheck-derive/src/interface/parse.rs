//! The syntax of `interface! { … }`: items separated by `;`, each told by
//! its first word, read into the description's types (`types`). Rust
//! signatures are read as written; `&T`, `&mut T`, `&str` and `&[T]` on an
//! argument become how it is passed, and `Self` inside an `impl` block is
//! the block's type.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use quote::format_ident;
use syn::parse::{Parse, ParseStream};
use syn::{Attribute, Expr, FnArg, Ident, Pat, Path, ReturnType, Token, TraitItemFn, Type, braced, parenthesized};

use super::rust_type::subst_self;
use super::types::{DataItem, DataKind, FnItem, Input, Item, LawItem, Mode, Param, View};

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut items = Vec::new();
        while !input.is_empty() {
            let attrs = input.call(Attribute::parse_outer)?;
            if input.peek(Token![fn]) {
                items.push(Item::Fn(free_fn(input, attrs)?));
                continue;
            }
            items.push(item(input)?);
            if !attrs.is_empty() {
                return Err(syn::Error::new_spanned(&attrs[0], "attributes only go on functions"));
            }
        }
        Ok(Input { items })
    }
}

/// One item other than a free function, told by its first word.
fn item(input: ParseStream) -> syn::Result<Item> {
    if kw(input, "name") {
        name(input)
    } else if input.peek(Token![crate]) {
        crate_path(input)
    } else if input.peek(Token![abstract]) {
        abstract_type(input)
    } else if kw(input, "ground") {
        ground(input)
    } else if kw(input, "fresh") {
        fresh(input)
    } else if kw(input, "pool") {
        pool(input)
    } else if input.peek(Token![enum]) {
        enum_type(input)
    } else if input.peek(Token![struct]) {
        struct_type(input)
    } else if input.peek(Token![impl]) {
        impl_block(input)
    } else if kw(input, "law") {
        law(input)
    } else if kw(input, "compare") {
        compare(input)
    } else {
        Err(input.error(
            "expected `name = …`, `crate = …`, `abstract`, `ground`, `fresh`, `pool`, `enum`, `struct`, `impl`, `fn`, \
             `law` or `compare`",
        ))
    }
}

/// `name = "…";`
fn name(input: ParseStream) -> syn::Result<Item> {
    input.parse::<Ident>()?;
    input.parse::<Token![=]>()?;
    let item = Item::Name(input.parse()?);
    input.parse::<Token![;]>()?;
    Ok(item)
}

/// `crate = path;`
fn crate_path(input: ParseStream) -> syn::Result<Item> {
    input.parse::<Token![crate]>()?;
    input.parse::<Token![=]>()?;
    let item = Item::Crate(input.call(Path::parse_mod_style)?);
    input.parse::<Token![;]>()?;
    Ok(item)
}

/// `abstract Type [as "name"];`
fn abstract_type(input: ParseStream) -> syn::Result<Item> {
    input.parse::<Token![abstract]>()?;
    let ty: Type = input.parse()?;
    let name = if input.peek(Token![as]) {
        input.parse::<Token![as]>()?;
        Some(input.parse()?)
    } else {
        None
    };
    input.parse::<Token![;]>()?;
    Ok(Item::Abstract(ty, name))
}

/// `ground Type [= generator];`
fn ground(input: ParseStream) -> syn::Result<Item> {
    input.parse::<Ident>()?;
    let ty: Type = input.parse()?;
    let g = if input.peek(Token![=]) {
        input.parse::<Token![=]>()?;
        Some(input.parse()?)
    } else {
        None
    };
    input.parse::<Token![;]>()?;
    Ok(Item::Ground(ty, g))
}

/// `fresh Type = initial, per_round;`
fn fresh(input: ParseStream) -> syn::Result<Item> {
    input.parse::<Ident>()?;
    let ty: Type = input.parse()?;
    input.parse::<Token![=]>()?;
    let a: Expr = input.parse()?;
    input.parse::<Token![,]>()?;
    let b: Expr = input.parse()?;
    input.parse::<Token![;]>()?;
    Ok(Item::Fresh(ty, a, b))
}

/// `pool Type = bound;`
fn pool(input: ParseStream) -> syn::Result<Item> {
    input.parse::<Ident>()?;
    let ty: Type = input.parse()?;
    input.parse::<Token![=]>()?;
    let n: Expr = input.parse()?;
    input.parse::<Token![;]>()?;
    Ok(Item::Pool(ty, n))
}

/// `enum E { A, B(T), C { x: T } }`, the `;` after it optional.
fn enum_type(input: ParseStream) -> syn::Result<Item> {
    input.parse::<Token![enum]>()?;
    let path: Path = input.call(Path::parse_mod_style)?;
    let content;
    braced!(content in input);
    let variants = content.parse_terminated(syn::Variant::parse, Token![,])?;
    let vs = variants.into_iter().map(|v| (v.ident, v.fields)).collect();
    let _ = input.parse::<Option<Token![;]>>()?;
    Ok(Item::Data(DataItem { path, kind: DataKind::Enum(vs) }))
}

/// `struct S { x: T }` or `struct S(T);`, the `;` after it optional.
fn struct_type(input: ParseStream) -> syn::Result<Item> {
    input.parse::<Token![struct]>()?;
    let path: Path = input.call(Path::parse_mod_style)?;
    let fields = if input.peek(syn::token::Brace) {
        syn::Fields::Named(input.parse()?)
    } else {
        syn::Fields::Unnamed(input.parse()?)
    };
    let _ = input.parse::<Option<Token![;]>>()?;
    Ok(Item::Data(DataItem { path, kind: DataKind::Struct(fields) }))
}

/// `impl Type { fn f(&self, x: T) -> R; … }`
fn impl_block(input: ParseStream) -> syn::Result<Item> {
    input.parse::<Token![impl]>()?;
    let ty: Type = input.parse()?;
    let content;
    braced!(content in input);
    let mut fns = Vec::new();
    while !content.is_empty() {
        fns.push(parse_fn_sig(&content, Some(&ty))?);
    }
    Ok(Item::Impl(ty, fns))
}

/// `fn f(x: T) -> R = path_or_closure;`, with the attributes before it.
fn free_fn(input: ParseStream, attrs: Vec<Attribute>) -> syn::Result<FnItem> {
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
    Ok(FnItem { attrs, name, receiver, params, ret, body: Some(body) })
}

/// `law name(x: &T, y: U) [requires expr] => expr;`, keeping the source
/// text of both expressions.
fn law(input: ParseStream) -> syn::Result<Item> {
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
    Ok(Item::Law(LawItem { name, params, requires, body }))
}

/// `compare Candidate with Reference by Trait { fn …; }`, where `Self` in
/// the signatures stands for both sides.
fn compare(input: ParseStream) -> syn::Result<Item> {
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
    Ok(Item::Compare { candidate, reference, by, fns })
}

/// Whether the next token is the word `word`.
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

/// A parenthesized argument list; `self_ty` is what `self` and `Self`
/// stand for (none outside `impl` and `compare` blocks).
fn parse_params(input: ParseStream, self_ty: Option<&Type>) -> syn::Result<(bool, Vec<Param>)> {
    let content;
    parenthesized!(content in input);
    let args = content.parse_terminated(FnArg::parse, Token![,])?;
    params_of(args.iter(), self_ty)
}

/// The arguments of a signature, each with how it is passed, and whether
/// the first is a receiver.
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

/// How an argument of type `ty` is passed, and the type of the value
/// behind it (`&str` and `&[T]` are lent from a `String` and a `Vec<T>`).
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

/// A function signature ending with `;`, inside an `impl` or `compare`
/// block.
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
