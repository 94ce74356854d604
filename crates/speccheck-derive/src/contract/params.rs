//! The contracted function's parameters, and where it lives: how the
//! wrapper reads each argument, and how a generated test makes and passes
//! it.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{FnArg, Pat, Type};

/// How an argument is passed.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum By {
    Value,
    Ref,
    RefMut,
}

/// The impl block a contracted method is in.
pub struct Owner {
    /// The `Self` type.
    pub ty: Type,
    /// Its name, as written (`Counter`).
    pub name: String,
    /// The trait, for a trait impl (`Iterator`, `fmt::Display`).
    pub trait_: Option<syn::Path>,
}

impl Owner {
    pub fn new(ty: &Type, trait_: Option<&syn::Path>) -> syn::Result<Owner> {
        let name = match ty {
            Type::Path(p) if p.qself.is_none() => p.path.segments.last().map(|s| s.ident.to_string()),
            _ => None,
        };
        let Some(name) = name else {
            return Err(syn::Error::new_spanned(ty, "contracts are checked on methods of a named type"));
        };
        Ok(Owner { ty: ty.clone(), name, trait_: trait_.cloned() })
    }

    /// The type as a path's qualified self: `<Counter>`, or `<Counter as
    /// Iterator>` in a trait impl (code outside the impl names its methods
    /// this way, whatever traits are in scope there).
    pub fn qualified(&self) -> TokenStream {
        let ty = &self.ty;
        match &self.trait_ {
            Some(t) => quote!(<#ty as #t>),
            None => quote!(<#ty>),
        }
    }

    /// The type as reports name it: `Counter`, `<Counter as Iterator>`.
    pub fn display(&self) -> String {
        match self.trait_.as_ref().and_then(|t| t.segments.last()) {
            Some(t) => format!("<{} as {}>", self.name, t.ident),
            None => self.name.clone(),
        }
    }

    /// `ty` with `Self` spelled out, for code outside the impl block (the
    /// generated tests): `Self` is the type, `Self::Item` the trait's
    /// associated type of it.
    pub fn outside(&self, ty: &Type) -> Type {
        struct Replace<'a>(&'a Owner);
        impl syn::visit_mut::VisitMut for Replace<'_> {
            fn visit_type_mut(&mut self, t: &mut Type) {
                if let Type::Path(tp) = t
                    && tp.qself.is_none()
                    && tp.path.segments.first().is_some_and(|s| s.ident == "Self")
                {
                    let rest: Vec<_> = tp.path.segments.iter().skip(1).collect();
                    *t = if rest.is_empty() {
                        self.0.ty.clone()
                    } else {
                        let q = self.0.qualified();
                        syn::parse_quote!(#q::#(#rest)::*)
                    };
                    return;
                }
                syn::visit_mut::visit_type_mut(self, t);
            }
        }
        let mut ty = ty.clone();
        syn::visit_mut::VisitMut::visit_type_mut(&mut Replace(self), &mut ty);
        ty
    }

    /// The prefix of the generated tests' names: `counter_` for
    /// `Counter`, `counter_iterator_` for its `Iterator` impl.
    pub fn test_prefix(&self) -> String {
        let snake = |name: &str| {
            let mut out = String::new();
            for (i, c) in name.chars().enumerate() {
                if c.is_uppercase() {
                    if i > 0 {
                        out.push('_');
                    }
                    out.extend(c.to_lowercase());
                } else {
                    out.push(c);
                }
            }
            out + "_"
        };
        match self.trait_.as_ref().and_then(|t| t.segments.last()) {
            Some(t) => snake(&self.name) + &snake(&t.ident.to_string()),
            None => snake(&self.name),
        }
    }
}

/// A parameter of the contracted function.
pub struct Param {
    /// Its name inside the function (`self` for the receiver).
    pub ident: syn::Ident,
    /// Its name in the contract's specs.
    pub name: String,
    /// Its name in the generated tests.
    pub local: syn::Ident,
    /// The owned type a test makes.
    pub owned: Type,
    pub by: By,
    pub receiver: bool,
    /// A reference to a `Targetable` value of it, inside the function.
    pub reflect: TokenStream,
}

impl Param {
    /// How a test passes its local (the receiver goes by method-call syntax).
    pub fn pass(&self, local: &syn::Ident) -> TokenStream {
        match self.by {
            By::Value => quote!(#local),
            By::Ref => quote!(&#local),
            By::RefMut => quote!(&mut #local),
        }
    }

    /// How a call expression shows it: `&`, `&mut ` or nothing before the
    /// value.
    pub fn amp(&self) -> &'static str {
        match self.by {
            By::Value => "",
            By::Ref => "&",
            By::RefMut => "&mut ",
        }
    }
}

/// A reference to a `Targetable` value of `x: ty` (`&[T]` and `&str` are
/// read as owned copies).
fn reflectable(x: &TokenStream, ty: &Type) -> TokenStream {
    match ty {
        Type::Reference(r) => match &*r.elem {
            Type::Slice(_) => quote!(&(#x).to_vec()),
            Type::Path(tp) if tp.path.is_ident("str") => quote!(&(#x).to_string()),
            _ => quote!(&*#x),
        },
        _ => quote!(&#x),
    }
}

/// A reference to a `Targetable` value of the result.
pub fn reflect_result(ty: &Type) -> TokenStream {
    reflectable(&quote!(__sc_result), ty)
}

/// Reads one parameter; `owner` is the impl block of a method.
pub fn param(input: &FnArg, owner: Option<&Owner>) -> syn::Result<Param> {
    let pt = match input {
        FnArg::Receiver(r) => {
            let Some(owner) = owner else {
                return Err(syn::Error::new_spanned(
                    input,
                    "a contract on a method needs `#[speccheck::contracts]` on its impl block (the generated tests \
                     live outside it)",
                ));
            };
            if r.colon_token.is_some() {
                return Err(syn::Error::new_spanned(
                    input,
                    "contracts take `self`, `&self` or `&mut self` receivers, not a typed `self`",
                ));
            }
            let by = match (&r.reference, &r.mutability) {
                (None, _) => By::Value,
                (Some(_), None) => By::Ref,
                (Some(_), Some(_)) => By::RefMut,
            };
            let reflect = if by == By::Value { quote!(&self) } else { quote!(&*self) };
            return Ok(Param {
                ident: format_ident!("self"),
                name: "self".into(),
                local: format_ident!("__sc_self"),
                owned: owner.ty.clone(),
                by,
                receiver: true,
                reflect,
            });
        }
        FnArg::Typed(pt) => pt,
    };
    let Pat::Ident(p) = &*pt.pat else {
        return Err(syn::Error::new_spanned(&pt.pat, "a contract names each argument: use `name: Type`"));
    };
    let ident = p.ident.clone();
    let reflect = reflectable(&quote!(#ident), &pt.ty);
    let (owned, by) = match &*pt.ty {
        Type::Reference(r) => {
            let owned: Type = match &*r.elem {
                Type::Path(tp) if tp.path.is_ident("str") => syn::parse_quote!(::std::string::String),
                Type::Slice(sl) => {
                    let e = &sl.elem;
                    syn::parse_quote!(::std::vec::Vec<#e>)
                }
                other => other.clone(),
            };
            (owned, if r.mutability.is_some() { By::RefMut } else { By::Ref })
        }
        ty => (ty.clone(), By::Value),
    };
    let owned = owner.map_or(owned.clone(), |o| o.outside(&owned));
    Ok(Param { name: ident.to_string(), local: ident.clone(), ident, owned, by, receiver: false, reflect })
}
