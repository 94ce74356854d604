//! `#[speccheck(...)]` attributes.

use syn::{Attribute, Expr, LitInt, LitStr, Path, Token};

/// Type-level options.
#[derive(Default)]
pub struct TypeAttrs {
    pub opaque: bool,
    pub krate: Option<Path>,
}

/// Variant-level options.
#[derive(Default)]
pub struct VariantAttrs {
    pub weight: Option<u32>,
    pub recursive: Option<bool>,
}

/// Field-level options.
#[derive(Default)]
pub struct FieldAttrs {
    pub with: Option<Expr>,
    pub opaque: bool,
    pub default: bool,
}

fn speccheck_attrs(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|a| a.path().is_ident("speccheck"))
}

pub fn type_attrs(attrs: &[Attribute]) -> syn::Result<TypeAttrs> {
    let mut out = TypeAttrs::default();
    for attr in speccheck_attrs(attrs) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("opaque") {
                out.opaque = true;
            } else if meta.path.is_ident("crate") {
                let s: LitStr = meta.value()?.parse()?;
                out.krate = Some(s.parse()?);
            } else {
                return Err(meta.error("unknown speccheck type option (expected `opaque` or `crate = \"path\"`)"));
            }
            Ok(())
        })?;
    }
    Ok(out)
}

pub fn variant_attrs(attrs: &[Attribute]) -> syn::Result<VariantAttrs> {
    let mut out = VariantAttrs::default();
    for attr in speccheck_attrs(attrs) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("weight") {
                let n: LitInt = meta.value()?.parse()?;
                out.weight = Some(n.base10_parse()?);
            } else if meta.path.is_ident("recursive") {
                out.recursive = Some(true);
            } else if meta.path.is_ident("leaf") {
                out.recursive = Some(false);
            } else {
                return Err(
                    meta.error("unknown speccheck variant option (expected `weight = n`, `recursive` or `leaf`)")
                );
            }
            Ok(())
        })?;
    }
    Ok(out)
}

pub fn field_attrs(attrs: &[Attribute]) -> syn::Result<FieldAttrs> {
    let mut out = FieldAttrs::default();
    for attr in speccheck_attrs(attrs) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("with") {
                out.with = Some(meta.value()?.parse()?);
            } else if meta.path.is_ident("range") {
                // A range of integers, floats or characters.
                let range: Expr = meta.value()?.parse()?;
                out.with = Some(syn::parse_quote!(::speccheck::gens::range(#range)));
            } else if meta.path.is_ident("opaque") {
                out.opaque = true;
            } else if meta.path.is_ident("default") {
                out.default = true;
            } else {
                return Err(meta.error(
                    "unknown speccheck field option (expected `with = generator`, `range = a..b`, `opaque` or `default`)",
                ));
            }
            Ok(())
        })?;
    }
    Ok(out)
}

/// Settings of `#[property(...)]`.
pub struct PropertyArg {
    pub name: syn::Ident,
    pub value: Expr,
}

impl syn::parse::Parse for PropertyArg {
    fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
        let name: syn::Ident = input.parse()?;
        let _: Token![=] = input.parse()?;
        let value: Expr = input.parse()?;
        Ok(PropertyArg { name, value })
    }
}
