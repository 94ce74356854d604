//! `speccheck::fuzz_target!(path::to::property)`: a `#[property]` as a
//! libFuzzer entry point.

use proc_macro2::TokenStream;
use quote::quote;

/// Expands to the fuzz target's statics and `libfuzzer_sys::fuzz_target!`
/// (the fuzz crate depends on `libfuzzer-sys` itself, as `cargo fuzz init`
/// makes it: libFuzzer's macro names its crate by that path).
pub fn expand(input: TokenStream) -> syn::Result<TokenStream> {
    let mut path: syn::Path = syn::parse2(input).map_err(|e| {
        syn::Error::new(
            e.span(),
            "expected the path of a `#[property]` function: `fuzz_target!(my_crate::my_property)`",
        )
    })?;
    let Some(last) = path.segments.last_mut() else {
        return Err(syn::Error::new_spanned(&path, "expected the path of a `#[property]` function"));
    };
    if !last.arguments.is_none() {
        return Err(syn::Error::new_spanned(&last.arguments, "a property's path takes no generic arguments"));
    }
    last.ident = crate::property::build_fn_name(&last.ident);
    Ok(quote! {
        /// The property as a fuzz target, built once per process (its
        /// generator, settings and body, as its `#[test]` builds them).
        fn __speccheck_fuzz_target() -> &'static ::speccheck::fuzz::FuzzTarget {
            static TARGET: ::std::sync::OnceLock<::speccheck::fuzz::FuzzTarget> = ::std::sync::OnceLock::new();
            TARGET.get_or_init(|| #path(::speccheck::fuzz::AsFuzzTarget))
        }

        ::libfuzzer_sys::fuzz_target!(
            init: ::speccheck::fuzz::init(__speccheck_fuzz_target()),
            |bytes: &[u8]| -> ::libfuzzer_sys::Corpus { ::speccheck::fuzz::run(__speccheck_fuzz_target(), bytes) }
        );
    })
}
