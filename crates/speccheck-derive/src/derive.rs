//! `#[derive(Arbitrary)]`: generation, encoding and the tree view.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{Attribute, Data, DeriveInput, Fields, Ident, Type, parse_quote};

use crate::attrs::{self, FieldAttrs};

struct Field {
    /// `a` for named fields, `0` for positional ones.
    member: syn::Member,
    /// A local name for the field's value.
    local: Ident,
    ty: Type,
    attrs: FieldAttrs,
    /// `#[refine(...)]` on the field (read by `#[derive(Targetable)]`):
    /// every drawn value must satisfy it.
    refine: Option<Attribute>,
}

impl Field {
    /// Part of the tree view (opaque and defaulted fields are leaves the
    /// view does not look into).
    fn is_child(&self) -> bool {
        !self.attrs.opaque && !self.attrs.default
    }
}

fn fields_of(fields: &Fields) -> syn::Result<Vec<Field>> {
    fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let member = match &f.ident {
                Some(id) => syn::Member::Named(id.clone()),
                None => syn::Member::Unnamed(syn::Index { index: i as u32, span: Span::call_site() }),
            };
            let local = match &f.ident {
                Some(id) => format_ident!("__f_{}", id),
                None => format_ident!("__f{}", i),
            };
            let refine = f.attrs.iter().find(|a| a.path().is_ident("refine")).cloned();
            Ok(Field { member, local, ty: f.ty.clone(), attrs: attrs::field_attrs(&f.attrs)?, refine })
        })
        .collect()
}

pub(crate) fn mentions(ty: &Type, name: &Ident) -> bool {
    fn walk(ts: TokenStream, name: &Ident) -> bool {
        ts.into_iter().any(|tt| match tt {
            TokenTree::Ident(i) => i == *name || i == "Self",
            TokenTree::Group(g) => walk(g.stream(), name),
            _ => false,
        })
    }
    walk(quote!(#ty), name)
}

/// Whether every value of `ty` holds a value of the type `name` being
/// derived: the type itself (or `Self`), behind a pointer (`Box`, `Rc`,
/// `Arc`), in a tuple or in a non-empty array. A container that may be
/// empty (`Option`, `Vec`, a map) is a way out of the recursion.
fn always_holds(ty: &Type, name: &Ident) -> bool {
    match ty {
        Type::Path(p) if p.qself.is_none() => {
            let Some(last) = p.path.segments.last() else { return false };
            if p.path.segments.len() == 1 && (last.ident == *name || last.ident == "Self") {
                return true;
            }
            let pointer = matches!(last.ident.to_string().as_str(), "Box" | "Rc" | "Arc");
            match &last.arguments {
                syn::PathArguments::AngleBracketed(args) if pointer => args.args.iter().any(|a| match a {
                    syn::GenericArgument::Type(t) => always_holds(t, name),
                    _ => false,
                }),
                _ => false,
            }
        }
        Type::Tuple(t) => t.elems.iter().any(|e| always_holds(e, name)),
        Type::Array(a) => {
            let empty =
                matches!(&a.len, syn::Expr::Lit(l) if matches!(&l.lit, syn::Lit::Int(n) if n.base10_digits() == "0"));
            !empty && always_holds(&a.elem, name)
        }
        Type::Paren(p) => always_holds(&p.elem, name),
        Type::Group(g) => always_holds(&g.elem, name),
        _ => false,
    }
}

/// A type none of whose constructors can end the recursion has no finite
/// value: generating one could never stop, so it is refused here rather
/// than discovered as a run that rejects every input.
fn check_base_case(input: &DeriveInput) -> syn::Result<()> {
    let name = &input.ident;
    let advice = format!(
        "make the recursion optional (`Option<Box<{name}>>`, a `Vec<{name}>`) or add a variant that holds no `{name}`"
    );
    match &input.data {
        Data::Struct(s) => match s.fields.iter().find(|f| always_holds(&f.ty, name)) {
            Some(f) => Err(syn::Error::new_spanned(
                &f.ty,
                format!("`{name}` has no finite value: every `{name}` holds another `{name}` here; {advice}"),
            )),
            None => Ok(()),
        },
        Data::Enum(e) if !e.variants.is_empty() => {
            if e.variants.iter().all(|v| v.fields.iter().any(|f| always_holds(&f.ty, name))) {
                Err(syn::Error::new_spanned(
                    name,
                    format!(
                        "`{name}` has no finite value: every variant holds another `{name}`, so there is no base \
                         case to stop at; {advice}"
                    ),
                ))
            } else {
                Ok(())
            }
        }
        _ => Ok(()),
    }
}

pub fn expand(input: DeriveInput) -> syn::Result<TokenStream> {
    check_base_case(&input)?;
    let tattrs = attrs::type_attrs(&input.attrs)?;
    let krate: syn::Path = tattrs.krate.clone().unwrap_or_else(|| parse_quote!(::speccheck));
    let core = quote!(#krate::__private::core);
    let name = &input.ident;
    let name_str = name.to_string();
    let opaque = tattrs.opaque;

    let mut arb_generics = input.generics.clone();
    let mut tree_generics = input.generics.clone();
    for p in arb_generics.type_params_mut() {
        p.bounds.push(parse_quote!(#core::Arbitrary));
    }
    for p in tree_generics.type_params_mut() {
        p.bounds.push(parse_quote!(#core::TreeView));
        p.bounds.push(parse_quote!(::core::fmt::Debug));
        p.bounds.push(parse_quote!('static));
    }
    // Refined fields are checked as they are drawn, through the type's
    // own description (`#[derive(Targetable)]`).
    // A malformed refinement is `#[derive(Targetable)]`'s error to
    // report (one error, at the spec): the draws then check nothing.
    let refined = match &input.data {
        Data::Struct(s) => s.fields.iter().any(has_refinement),
        Data::Enum(e) => e.variants.iter().flat_map(|v| &v.fields).any(has_refinement),
        Data::Union(_) => false,
    } && refinements_well_formed(&input.data);
    if refined {
        arb_generics.make_where_clause().predicates.push(parse_quote!(Self: #krate::__private::spec::Targetable));
    }
    let (arb_impl, ty_generics, arb_where) = arb_generics.split_for_impl();
    let (tree_impl, _, tree_where) = tree_generics.split_for_impl();

    let (type_info, draw, encode, tree) = match &input.data {
        Data::Struct(s) => {
            let fields = fields_of(&s.fields)?;
            let ctors = quote!(&[#name_str]);
            let build = constructor(quote!(Self), &s.fields, &fields);
            let draws = draw_fields(&krate, &name_str, (0, &name_str), &fields, refined)?;
            let encodes = fields.iter().map(|f| encode_field(&core, f, quote!(&self.)));
            let draw = quote! {
                tc.set_constructor(0);
                #(#draws)*
                #build
            };
            let encode = quote! { #(#encodes)* ::core::result::Result::Ok(()) };
            let pattern = constructor(quote!(Self), &s.fields, &fields);
            let tree = tree_body(&core, vec![(quote!(#pattern), name_str.clone(), s.fields.clone(), fields)], opaque);
            (quote!(#core::TypeInfo::of::<Self>(#ctors, #opaque)), draw, encode, tree)
        }
        Data::Enum(e) => {
            if e.variants.is_empty() {
                return Err(syn::Error::new_spanned(name, "cannot derive Arbitrary for an enum without variants"));
            }
            struct Variant {
                decl: usize,
                ident: Ident,
                fields: Fields,
                parsed: Vec<Field>,
                weight: u32,
                recursive: bool,
            }
            let mut variants = Vec::new();
            for (decl, v) in e.variants.iter().enumerate() {
                let va = attrs::variant_attrs(&v.attrs)?;
                let parsed = fields_of(&v.fields)?;
                let recursive = va.recursive.unwrap_or_else(|| parsed.iter().any(|f| mentions(&f.ty, name)));
                variants.push(Variant {
                    decl,
                    ident: v.ident.clone(),
                    fields: v.fields.clone(),
                    parsed,
                    weight: va.weight.unwrap_or(1),
                    recursive,
                });
            }
            // Leaves first: the simplest constructor index is a leaf, so
            // shrinking moves toward leaves and depth limits can pick them.
            let mut order: Vec<usize> = (0..variants.len()).filter(|&i| !variants[i].recursive).collect();
            let leaves = order.len();
            order.extend((0..variants.len()).filter(|&i| variants[i].recursive));
            let n = variants.len();
            let names: Vec<String> = variants.iter().map(|v| v.ident.to_string()).collect();
            let weights: Vec<u32> = order.iter().map(|&i| variants[i].weight).collect();
            let arms = order.iter().enumerate().map(|(k, &i)| {
                let v = &variants[i];
                let decl = v.decl;
                let ident = &v.ident;
                let draws = draw_fields(&krate, &name_str, (decl, &v.ident.to_string()), &v.parsed, refined)
                    .unwrap_or_else(|e| vec![e.into_compile_error()]);
                let build = constructor(quote!(Self::#ident), &v.fields, &v.parsed);
                quote! { #k => { tc.set_constructor(#decl); #(#draws)* #build } }
            });
            let draw = quote! {
                match tc.draw_constructor_weighted(&[#(#weights),*], #leaves) {
                    #(#arms)*
                    _ => ::core::unreachable!("constructor index out of range"),
                }
            };
            let enc_arms = order.iter().enumerate().map(|(k, &i)| {
                let v = &variants[i];
                let ident = &v.ident;
                let pat = constructor(quote!(Self::#ident), &v.fields, &v.parsed);
                let encodes = v.parsed.iter().map(|f| encode_field(&core, f, quote!()));
                quote! { #pat => { enc.write_constructor(#k, #n)?; #(#encodes)* } }
            });
            let encode = quote! {
                match self { #(#enc_arms)* }
                ::core::result::Result::Ok(())
            };
            let tree = tree_body(
                &core,
                variants
                    .into_iter()
                    .map(|v| {
                        let ident = &v.ident;
                        let pat = constructor(quote!(Self::#ident), &v.fields, &v.parsed);
                        (pat, v.ident.to_string(), v.fields, v.parsed)
                    })
                    .collect(),
                opaque,
            );
            (quote!(#core::TypeInfo::of::<Self>(&[#(#names),*], #opaque)), draw, encode, tree)
        }
        Data::Union(u) => {
            return Err(syn::Error::new_spanned(u.union_token, "cannot derive Arbitrary for a union"));
        }
    };

    Ok(quote! {
        impl #arb_impl #core::Arbitrary for #name #ty_generics #arb_where {
            fn type_info() -> #core::TypeInfo {
                #type_info
            }
            #[allow(unused_variables, clippy::let_unit_value)]
            fn draw(tc: &mut #core::TestCase) -> Self {
                #draw
            }
            #[allow(unused_variables)]
            fn encode(&self, enc: &mut #core::Encoder) -> ::core::result::Result<(), #core::EncodeError> {
                #encode
            }
        }

        impl #tree_impl #core::TreeView for #name #ty_generics #tree_where {
            #tree
            fn as_any(&self) -> &dyn ::core::any::Any {
                self
            }
        }
    })
}

/// `Self { a: __f_a }`, `Self(__f0)` or `Self`: builds the value from its
/// fields' locals, and, as a pattern, binds them.
fn constructor(path: TokenStream, shape: &Fields, fields: &[Field]) -> TokenStream {
    let locals = fields.iter().map(|f| &f.local);
    match shape {
        Fields::Named(_) => {
            let members = fields.iter().map(|f| &f.member);
            quote!(#path { #(#members: #locals),* })
        }
        Fields::Unnamed(_) => quote!(#path(#(#locals),*)),
        Fields::Unit => path,
    }
}

fn field_name(f: &Field) -> String {
    match &f.member {
        syn::Member::Named(id) => id.to_string(),
        syn::Member::Unnamed(i) => i.index.to_string(),
    }
}

fn has_refinement(f: &syn::Field) -> bool {
    f.attrs.iter().any(|a| a.path().is_ident("refine"))
}

/// The draws of one constructor's fields (`ctor`: its index in declaration
/// order and its name). A field with `#[refine(...)]` is drawn again until
/// its value satisfies the refinement (see [`refined_draw`]).
fn draw_fields(
    krate: &syn::Path,
    type_name: &str,
    ctor: (usize, &str),
    fields: &[Field],
    refined: bool,
) -> syn::Result<Vec<TokenStream>> {
    let core = quote!(#krate::__private::core);
    let mut out = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        let draw = draw_field(&core, f);
        out.push(match &f.refine {
            Some(attr) if refined => refined_draw(krate, type_name, ctor, fields, i, attr, draw)?,
            _ => draw,
        });
    }
    Ok(out)
}

/// Whether every field refinement parses and names only its field and
/// the fields before it (what `#[derive(Targetable)]` checks).
#[cfg(feature = "spec")]
fn refinements_well_formed(data: &Data) -> bool {
    let ctors: Vec<&Fields> = match data {
        Data::Struct(s) => vec![&s.fields],
        Data::Enum(e) => e.variants.iter().map(|v| &v.fields).collect(),
        Data::Union(_) => Vec::new(),
    };
    ctors.into_iter().all(|fields| {
        let mut scope = Vec::new();
        fields.iter().enumerate().all(|(i, f)| {
            let name = f.ident.as_ref().map_or_else(|| i.to_string(), ToString::to_string);
            scope.push(speccheck_spec::refined::field_binding(&name));
            f.attrs.iter().filter(|a| a.path().is_ident("refine")).all(|a| {
                let Ok(list) = a.meta.require_list() else { return false };
                crate::spec::spec_tokens(&list.tokens)
                    .is_ok_and(|spec| spec.expr.free_vars().iter().all(|v| scope.contains(v)))
            })
        })
    })
}

/// Without the spec language, `#[derive(Targetable)]` reports the
/// refinement (naming the feature to turn on).
#[cfg(not(feature = "spec"))]
fn refinements_well_formed(_: &Data) -> bool {
    false
}

/// Without the spec language no refinement is well formed
/// ([`refinements_well_formed`]), so none is drawn this way.
#[cfg(not(feature = "spec"))]
fn refined_draw(
    _: &syn::Path,
    _: &str,
    _: (usize, &str),
    _: &[Field],
    _: usize,
    attr: &Attribute,
    _: TokenStream,
) -> syn::Result<TokenStream> {
    Err(crate::needs_spec(attr, "`#[refine]`"))
}

/// The draw of field `i`, refined by `attr`: drawn (each attempt a group
/// the shrinker can delete whole, as `gens::filter`'s) until the
/// refinement holds on it and the fields before it, at most
/// `FIELD_TRIES` times — once under exhaustive enumeration, which must
/// not reach one value twice; then the case is invalid, named after the
/// refinement, and the run counts it as a rejected input. So every value
/// `Arbitrary` makes satisfies the type's refinements, under every
/// strategy and the default. The one exception: while the runner rebuilds
/// an input its source checked already (`TestCase::refinements_prechecked`,
/// a Target strategy's), the draw takes the field as it comes.
#[cfg(feature = "spec")]
fn refined_draw(
    krate: &syn::Path,
    type_name: &str,
    (ctor, ctor_name): (usize, &str),
    fields: &[Field],
    i: usize,
    attr: &Attribute,
    draw: TokenStream,
) -> syn::Result<TokenStream> {
    let core = quote!(#krate::__private::core);
    let spec = quote!(#krate::__private::spec);
    let f = &fields[i];
    let (local, ty) = (&f.local, &f.ty);
    let earlier = fields[..i].iter().map(|g| &g.local);
    let written = crate::spec::spec_tokens(&attr.meta.require_list()?.tokens)?.written;
    let what = if type_name == ctor_name { format!("`{type_name}`") } else { format!("`{type_name}::{ctor_name}`") };
    let name = format!("the refinement `{written}` of field `{}` of {what}", field_name(f));
    Ok(quote! {
        let #local: #ty = {
            let __tries: u32 =
                if tc.enumeration_budget().is_some() { 1 } else { #spec::refined::FIELD_TRIES };
            let mut __left = __tries;
            loop {
                tc.start_span(#core::SpanKind::Group, #core::span::no_type, "refine");
                #draw
                tc.stop_span(#core::SpanKind::Group);
                if tc.refinements_prechecked() {
                    break #local;
                }
                let __fields = [#(#spec::Targetable::reflect(&#earlier),)* #spec::Targetable::reflect(&#local)];
                if #spec::refined::field_holds::<Self>(#ctor, #i, &__fields) {
                    break #local;
                }
                __left -= 1;
                if __left == 0 {
                    tc.mark_invalid(#core::Invalid::FilterExhausted {
                        name: ::std::string::String::from(#name),
                        tries: __tries,
                    });
                }
            }
        };
    })
}

fn draw_field(core: &TokenStream, f: &Field) -> TokenStream {
    let local = &f.local;
    let ty = &f.ty;
    let fname = field_name(f);
    let info = if f.attrs.opaque {
        quote!(#core::span::opaque_type_info::<#ty>)
    } else {
        quote!(#core::span::slot_type_info::<#ty>)
    };
    if f.attrs.default {
        return quote! { let #local: #ty = ::core::default::Default::default(); };
    }
    match (&f.attrs.with, f.attrs.opaque) {
        (Some(g), _) => quote! {
            tc.start_span(#core::SpanKind::Slot, #info, #fname);
            let #local: #ty = #core::Generator::generate(&(#g), tc);
            tc.stop_span(#core::SpanKind::Slot);
        },
        (None, true) => {
            let generate = quote_spanned!(ty.span()=> <#ty as #core::Arbitrary>::generate);
            quote! {
                tc.start_span(#core::SpanKind::Slot, #info, #fname);
                let #local: #ty = #generate(tc);
                tc.stop_span(#core::SpanKind::Slot);
            }
        }
        (None, false) => {
            let generate = quote_spanned!(ty.span()=> <#ty as #core::Arbitrary>::generate);
            quote! { let #local: #ty = #generate(tc); }
        }
    }
}

fn encode_field(core: &TokenStream, f: &Field, access: TokenStream) -> TokenStream {
    let value = if access.is_empty() {
        let local = &f.local;
        quote!(#local)
    } else {
        let m = &f.member;
        quote!(&self.#m)
    };
    let ty = &f.ty;
    if f.attrs.default {
        return quote! {};
    }
    match &f.attrs.with {
        Some(g) => quote! { #core::Generator::encode(&(#g), #value, enc)?; },
        None => {
            let encode = quote_spanned!(ty.span()=> <#ty as #core::Arbitrary>::encode);
            quote! { #encode(#value, enc)?; }
        }
    }
}

/// The `TreeView` methods but `as_any`, for one pattern per constructor.
fn tree_body(core: &TokenStream, cases: Vec<(TokenStream, String, Fields, Vec<Field>)>, opaque: bool) -> TokenStream {
    let names: Vec<&String> = cases.iter().map(|c| &c.1).collect();
    let ctor_arms = cases.iter().map(|(pat, name, _, _)| quote!(#[allow(unused_variables)] #pat => #name,));
    let child_arms = cases.iter().map(|(pat, _, _, fields)| {
        // Qualified calls spanned at the field's type: a type without a
        // tree view is one error, there.
        let kids = fields.iter().filter(|f| f.is_child()).map(|f| {
            let (l, ty) = (&f.local, &f.ty);
            let as_tree = quote_spanned!(ty.span()=> <#ty as #core::TreeView>::as_tree);
            quote!(#as_tree(#l))
        });
        quote!(#[allow(unused_variables)] #pat => ::std::vec![#(#kids),*],)
    });
    let replace_arms = cases.iter().map(|(pat, _, _, fields)| {
        let arms = fields.iter().filter(|f| f.is_child()).enumerate().map(|(k, f)| {
            let l = &f.local;
            let ty = &f.ty;
            quote!(#k => { *#l = *value.downcast::<#ty>()?; ::core::result::Result::Ok(()) })
        });
        quote!(#[allow(unused_variables)] #pat => match index { #(#arms)* _ => ::core::result::Result::Err(value) },)
    });
    let term_arms = cases.iter().map(|(pat, name, shape, fields)| {
        let terms = fields.iter().map(|f| {
            let (l, ty) = (&f.local, &f.ty);
            let to_term = quote_spanned!(ty.span()=> <#ty as #core::TreeView>::to_term);
            if f.is_child() { quote!(#to_term(#l)) } else { quote!(#core::Term::debug(#l)) }
        });
        let body = match shape {
            Fields::Named(_) => {
                let fnames = fields.iter().map(field_name);
                quote!(#core::Term::record(#name, ::std::vec![#((::std::string::String::from(#fnames), #terms)),*]))
            }
            Fields::Unnamed(_) => quote!(#core::Term::call(#name, ::std::vec![#(#terms),*])),
            Fields::Unit => quote!(#core::Term::unit(#name)),
        };
        quote!(#[allow(unused_variables)] #pat => #body,)
    });
    let children = if opaque { quote!(::std::vec::Vec::new()) } else { quote!(match self { #(#child_arms)* }) };
    let replace =
        if opaque { quote!(::core::result::Result::Err(value)) } else { quote!(match self { #(#replace_arms)* }) };
    quote! {
        fn constructor(&self) -> &'static str {
            match self { #(#ctor_arms)* }
        }
        fn constructors(&self) -> &'static [&'static str] {
            &[#(#names),*]
        }
        fn is_opaque(&self) -> bool {
            #opaque
        }
        fn children(&self) -> ::std::vec::Vec<&dyn #core::TreeView> {
            #children
        }
        #[allow(unused_variables, unreachable_code)]
        fn replace_child(
            &mut self,
            index: usize,
            value: ::std::boxed::Box<dyn ::core::any::Any>,
        ) -> ::core::result::Result<(), ::std::boxed::Box<dyn ::core::any::Any>> {
            #replace
        }
        fn to_term(&self) -> #core::Term {
            match self { #(#term_arms)* }
        }
    }
}
