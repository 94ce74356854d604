//! What the macro reads off the Rust types a description mentions:
//! `Self` replaced or looked for, the text printed in client programs, and
//! the type arguments of a path.

use proc_macro2::{TokenStream, TokenTree};
use quote::quote;
use syn::visit_mut::VisitMut;
use syn::{GenericArgument, PathArguments, Type};

/// Replaces `Self` by the type it holds.
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

/// `ty` with every `Self` in it replaced by `with`.
pub fn subst_self(ty: &Type, with: &Type) -> Type {
    let mut t = ty.clone();
    SubstSelf(with).visit_type_mut(&mut t);
    t
}

/// Whether `what` appears anywhere inside `ty` (`Self` in `Vec<Self>`).
pub fn mentions(ty: &Type, what: &Type) -> bool {
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
pub fn type_text(ty: &Type) -> String {
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
pub fn path_text(ty: &Type) -> String {
    let t = type_text(ty);
    match (ty, t.find('<')) {
        (Type::Path(_), Some(i)) if !t[..i].ends_with("::") => format!("{}::{}", &t[..i], &t[i..]),
        _ => t,
    }
}

/// The type arguments of a path segment (`i32` in `Vec<i32>`).
pub fn generic_args(seg: &syn::PathSegment) -> Vec<Type> {
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
