//! The run-time checks around a contracted function. The body runs as
//! written, as its own function (a nested one for a free function, a hidden
//! method for a method, a closure for a trait impl's method), so `return` and `?` keep their meaning and the
//! arguments changed in place can be read again after the call. Only the
//! arguments the contract mentions are read, on entry, before the body can
//! move them; the checking never changes what the function does.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Attribute, Block, Visibility};

use super::Contracted;
use super::params::{By, reflect_result};

/// The function, wrapped in its contract's checks.
pub fn wrapper(k: &Contracted<'_>, attrs: &[Attribute], vis: &Visibility, block: &Block) -> TokenStream {
    let c = quote!(::speccheck::__private::contract);
    let spec = quote!(::speccheck::__private::spec);
    // The closure of a trait impl's body uses the arguments' own bindings,
    // `mut` and all.
    let closure_style = k.owner.is_some_and(|o| o.trait_.is_some());
    let sig = if closure_style { k.sig.clone() } else { outer_signature(k.sig) };
    let sig = &sig;
    let new_contract = k.new_contract();

    let entry = k.mentioned().map(|p| {
        let (name, r) = (&p.name, &p.reflect);
        quote!((#name, #spec::Targetable::reflect(#r)))
    });
    let after = k.read_after().map(|p| {
        let (name, r) = (&p.name, &p.reflect);
        quote!((#name, #spec::Targetable::reflect(#r)))
    });
    let mentions_result = k.parts.ensures.iter().chain(&k.parts.cost).any(|c| c.vars.iter().any(|v| v == "result"));
    let exit_value = match &sig.output {
        syn::ReturnType::Type(_, t) if mentions_result => {
            let r = reflect_result(t);
            quote!(::core::option::Option::Some(#spec::Targetable::reflect(#r)))
        }
        _ => quote!(::core::option::Option::None),
    };

    // The body, and how the wrapper calls it: arguments changed in place
    // are reborrowed, so they can be read after the call.
    let args = k.params.iter().map(|p| {
        let id = &p.ident;
        if p.by == By::RefMut { quote!(&mut *#id) } else { quote!(#id) }
    });
    let (body, closure, call) = match k.owner {
        Some(o) if o.trait_.is_none() => {
            let hidden = super::hidden_name(&sig.ident);
            (quote!(), quote!(), quote!(Self::#hidden(#(#args),*)))
        }
        // A trait impl holds only the trait's methods: the body runs as a
        // closure made after the entry checks (it borrows what it uses),
        // returning the method's type (so `?` and `return` keep their
        // meaning) and consumed by the call (so the receiver and the
        // arguments changed in place are free again for the exit checks).
        Some(_) => {
            let ret = match &k.sig.output {
                syn::ReturnType::Default => quote!(()),
                // `impl Trait` cannot be named in the body: inferred there.
                syn::ReturnType::Type(_, t) if mentions_impl_trait(t) => quote!(_),
                syn::ReturnType::Type(_, t) => quote!(#t),
            };
            (quote!(), quote!(let __sc_body = #c::check::body::<#ret, _>(|| #block);), quote!(__sc_body()))
        }
        None => {
            let mut inner = k.sig.clone();
            inner.ident = format_ident!("__speccheck_unchecked");
            (
                quote!(#[inline] #[allow(clippy::too_many_arguments)] #inner #block),
                quote!(),
                quote!(__speccheck_unchecked(#(#args),*)),
            )
        }
    };
    let call = if sig.unsafety.is_some() { quote!(#[allow(unused_unsafe)] unsafe { #call }) } else { call };

    // `pure`: the receiver, compared before and after.
    let (before, compare) = if k.parts.pure.is_some() {
        (
            quote! {
                let __sc_before = __sc_call.as_ref().map(|_| ::core::clone::Clone::clone(&*self));
            },
            quote! {
                if let (::core::option::Option::Some((__sc_c, __sc_e)), ::core::option::Option::Some(__sc_b)) =
                    (&__sc_call, &__sc_before)
                    && *self != *__sc_b
                {
                    ::core::panic!(
                        "{}",
                        __sc_c.impure(__sc_e, &::std::format!("{:?}", __sc_b), &::std::format!("{:?}", &*self))
                    );
                }
            },
        )
    } else {
        (quote!(), quote!())
    };

    quote! {
        #(#attrs)*
        #vis #sig {
            #body
            static __SC_CONTRACT: ::std::sync::OnceLock<#c::Contract> = ::std::sync::OnceLock::new();
            static __SC_CALLS: ::std::sync::atomic::AtomicU64 = ::std::sync::atomic::AtomicU64::new(0);
            let __sc_call = if #c::switch::active(::core::cfg!(debug_assertions), &__SC_CALLS) {
                let __sc_c = __SC_CONTRACT.get_or_init(|| #new_contract);
                match __sc_c.enter(::std::vec![#(#entry),*]) {
                    ::core::result::Result::Ok(__sc_e) => ::core::option::Option::Some((__sc_c, __sc_e)),
                    ::core::result::Result::Err(__sc_v) => ::core::panic!("{}", __sc_v),
                }
            } else {
                ::core::option::Option::None
            };
            #before
            #closure
            let __sc_result = match &__sc_call {
                ::core::option::Option::Some((__sc_c, __sc_e)) if __sc_c.no_panic() => {
                    match ::std::panic::catch_unwind(::std::panic::AssertUnwindSafe(|| #call)) {
                        ::core::result::Result::Ok(__sc_r) => __sc_r,
                        ::core::result::Result::Err(__sc_p) => {
                            let __sc_m = #c::check::panic_message(&*__sc_p);
                            if #c::check::is_contract_report(&__sc_m) {
                                ::std::panic::resume_unwind(__sc_p)
                            }
                            ::core::panic!("{}", __sc_c.panicked(__sc_e, &__sc_m))
                        }
                    }
                }
                _ => #call,
            };
            #compare
            if let ::core::option::Option::Some((__sc_c, __sc_e)) = &__sc_call
                && let ::core::result::Result::Err(__sc_v) =
                    __sc_c.exit(__sc_e, #exit_value, ::std::vec![#(#after),*])
            {
                ::core::panic!("{}", __sc_v);
            }
            __sc_result
        }
    }
}

/// The wrapper's signature: the function's, without `mut` on arguments
/// (the wrapper only passes them on; the body keeps its `mut`).
fn outer_signature(sig: &syn::Signature) -> syn::Signature {
    let mut sig = sig.clone();
    for input in &mut sig.inputs {
        match input {
            syn::FnArg::Typed(pt) => {
                if let syn::Pat::Ident(p) = &mut *pt.pat {
                    p.mutability = None;
                }
            }
            syn::FnArg::Receiver(r) if r.reference.is_none() => r.mutability = None,
            syn::FnArg::Receiver(_) => {}
        }
    }
    sig
}

/// Whether a type has an `impl Trait` in it (a return-position one cannot
/// be written inside the function).
fn mentions_impl_trait(t: &syn::Type) -> bool {
    fn any(ts: proc_macro2::TokenStream) -> bool {
        ts.into_iter().any(|tt| match tt {
            proc_macro2::TokenTree::Ident(i) => i == "impl",
            proc_macro2::TokenTree::Group(g) => any(g.stream()),
            _ => false,
        })
    }
    any(quote!(#t))
}
