//! The tests a contract generates: one per `example`, the static
//! classification, and the property that calls the function on valid
//! inputs with every check on.

use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::{format_ident, quote};

use super::Contracted;

/// `self` in an example's check means the test's receiver after the call.
fn receiver_to_local(tokens: TokenStream) -> TokenStream {
    tokens
        .into_iter()
        .map(|t| match t {
            TokenTree::Ident(i) if i == "self" => TokenTree::Ident(Ident::new("__sc_self", i.span())),
            TokenTree::Group(g) => {
                let mut ng = proc_macro2::Group::new(g.delimiter(), receiver_to_local(g.stream()));
                ng.set_span(g.span());
                TokenTree::Group(ng)
            }
            other => other,
        })
        .collect()
}

/// The call of the function on the test's locals named by `local`.
fn call(k: &Contracted<'_>, local: impl Fn(&Ident) -> Ident) -> TokenStream {
    let f = &k.sig.ident;
    let rest = k.params.iter().filter(|p| !p.receiver).map(|p| p.pass(&local(&p.local)));
    match (k.owner, k.params.first().filter(|p| p.receiver)) {
        (Some(o), Some(recv)) if o.trait_.is_none() => {
            let r = local(&recv.local);
            quote!(#r.#f(#(#rest),*))
        }
        // A trait's method by its qualified path: the trait need not be in
        // scope where the tests are.
        (Some(o), Some(recv)) => {
            let (q, r) = (o.qualified(), recv.pass(&local(&recv.local)));
            quote!(#q::#f(#r, #(#rest),*))
        }
        (Some(o), None) => {
            let q = o.qualified();
            quote!(#q::#f(#(#rest),*))
        }
        (None, _) => quote!(#f(#(#rest),*)),
    }
}

/// The generated tests of a contracted function.
pub fn tests(k: &Contracted<'_>) -> TokenStream {
    let c = quote!(::speccheck::__private::contract);
    let spec = quote!(::speccheck::__private::spec);
    let prefix = k.owner.map(|o| o.test_prefix()).unwrap_or_default();
    let fn_name = &k.sig.ident;
    let display = k.display_name();
    let new_contract = k.new_contract();
    let classified = k.classified_contract();
    let same = |i: &Ident| i.clone();
    let the_call = call(k, same);

    // The property's arguments: the `requires` clauses refine them.
    let test_params = k.params.iter().zip(&k.refine).map(|(p, cs)| {
        let (local, owned) = (&p.local, &p.owned);
        let named = p.receiver.then(|| quote!(#[__speccheck_name("self")]));
        let refine = match cs.as_slice() {
            [] => quote!(),
            [one] => {
                let t = &k.conjuncts[*one].tokens;
                quote!(#[refine(#t)])
            }
            many => {
                let parts = many.iter().map(|i| {
                    let t = &k.conjuncts[*i].tokens;
                    quote!((#t))
                });
                quote!(#[refine(#(#parts)&&*)])
            }
        };
        quote!(#named #refine mut #local: #owned)
    });
    let shown = k.params.iter().map(|p| {
        let (local, amp) = (&p.local, p.amp());
        quote!(::std::format!("{}{}", #amp, (&&::speccheck::__private::Show(&#local)).term()))
    });

    let (clone_inputs, check_twice) = if k.parts.deterministic {
        let again = |i: &Ident| format_ident!("__sc_again_{}", i);
        let locals: Vec<&Ident> = k.params.iter().map(|p| &p.local).collect();
        let agains: Vec<Ident> = locals.iter().map(|i| again(i)).collect();
        let again_call = call(k, again);
        let reflects = k.mentioned().map(|p| {
            let (name, l) = (&p.name, &p.local);
            quote!((#name, #spec::Targetable::reflect(&#l)))
        });
        (
            quote! {
                #(#[allow(unused_mut)] let mut #agains = ::core::clone::Clone::clone(&#locals);)*
                let __sc_args = ::std::vec![#(#reflects),*];
            },
            quote! {
                let __sc_second = #c::switch::forced(|| #again_call);
                if __sc_second != __sc_first {
                    let __sc_c = #new_contract;
                    return ::speccheck::TestResult::Fail(__sc_c.nondeterministic(
                        &__sc_args,
                        &::std::format!("{:?}", __sc_first),
                        &::std::format!("{:?}", __sc_second),
                    ).to_string());
                }
            },
        )
    } else {
        (quote!(), quote!())
    };

    let mut settings = k.parts.settings.clone();
    // A precondition that calls a measure or a Rust predicate is rarely
    // met by random values: unless told otherwise, the valid inputs come
    // from the solver where it takes the precondition (measures are
    // unfolded; speccheck built with z3), else from the lazy enumeration
    // (a measure prunes partial inputs; a predicate checks each complete
    // one). Other preconditions keep random inputs, filtered: they reach
    // far-off values that small enumerations do not.
    let calls_functions =
        k.conjuncts.iter().flat_map(|c| &c.calls).any(|f| !speccheck_spec::eval::BUILTINS.contains(&f.as_str()));
    if calls_functions && !settings.iter().any(|s| s.to_string().starts_with("strategy")) {
        settings.push(quote!(strategy = auto));
    }
    if let Some(ms) = &k.parts.within
        && !k.parts.has_timeout
    {
        // A call that hangs is stopped and reported; the run goes on.
        settings.push(quote!(timeout_ms = (#ms as u64) * 4 + 1000));
    }
    let should_panic = k.parts.should_panic.as_ref().map(|v| quote!(#[should_panic(expected = #v)]));
    let assert_no_false = if k.parts.should_panic.is_none() {
        quote! {
            let __sc_false: ::std::vec::Vec<::std::string::String> = __sc_class
                .parts
                .iter()
                .filter(|(_, s)| *s == #c::Status::False)
                .map(|(w, _)| ::std::format!("`{w}`"))
                .chain(
                    __sc_class
                        .calls
                        .iter()
                        .filter(|(_, s)| *s == #c::Status::False)
                        .map(|(w, _)| ::std::format!("the call `{w}` (it breaks its callee's precondition)")),
                )
                .collect();
            ::core::assert!(
                __sc_false.is_empty(),
                "{}\nfalse on every call that returns and meets the precondition: {}",
                __sc_class,
                __sc_false.join(", ")
            );
        }
    } else {
        quote!()
    };

    let example_tests = k.parts.examples.iter().enumerate().map(|(i, ex)| {
        let name = format_ident!("{}{}_example_{}", prefix, fn_name, i + 1);
        let lets = k.params.iter().map(|p| {
            let (local, owned) = (&p.local, &p.owned);
            let value = &ex.args.iter().find(|(id, _)| *id == p.name).expect("checked when read").1;
            quote!(#[allow(unused_mut)] let mut #local: #owned = #value;)
        });
        let check = ex.check.as_ref().map(|check| {
            let written = quote!(#check).to_string();
            let check = receiver_to_local(quote!(#check));
            quote! {
                ::core::assert!(
                    #check,
                    "example {} of `{}`: `{}` is false: result = {}",
                    #i + 1,
                    #display,
                    #written,
                    (&&::speccheck::__private::Show(&result)).term()
                );
            }
        });
        quote! {
            #[cfg(test)]
            #[test]
            #[allow(non_snake_case)]
            fn #name() {
                #[allow(unused_imports)]
                use ::speccheck::__private::{ViaDebug as _, ViaName as _, ViaTree as _};
                #(#lets)*
                #[allow(unused_variables)]
                let result = #c::switch::forced(|| #the_call);
                #check
            }
        }
    });

    let static_name = format_ident!("{}{}_contract_static", prefix, fn_name);
    let test_name = format_ident!("{}{}_contract", prefix, fn_name);
    quote! {
        #(#example_tests)*

        #[cfg(test)]
        #[test]
        #[allow(non_snake_case)]
        fn #static_name() {
            let __sc_class = #c::classify(&#classified);
            ::std::println!("{}", __sc_class);
            ::core::assert!(
                __sc_class.vacuous != ::core::option::Option::Some(true),
                "{}\nthe precondition of `{}` is vacuous: no input satisfies it, so no tests run",
                __sc_class,
                #display
            );
            #assert_no_false
        }

        #[cfg(test)]
        #[::speccheck::property(#(#settings),*)]
        #should_panic
        #[allow(non_snake_case, unused_mut)]
        fn #test_name(#(#test_params),*) -> ::speccheck::TestResult {
            #[allow(unused_imports)]
            use ::speccheck::__private::{ViaDebug as _, ViaName as _, ViaTree as _};
            static __SC_CLASS: ::std::sync::OnceLock<::std::string::String> = ::std::sync::OnceLock::new();
            let __sc_class = || __SC_CLASS.get_or_init(|| #c::classify(&#classified).to_string()).clone();
            // The function's report: its static statuses here, then the
            // run's line (cases, depth covered) or the counterexample.
            static __SC_SHOWN: ::std::sync::Once = ::std::sync::Once::new();
            __SC_SHOWN.call_once(|| ::std::println!("{}", __sc_class()));
            ::speccheck::note(__sc_class);
            ::speccheck::note(|| ::std::format!("call: {}({})", #display, [#(#shown),*].join(", ")));
            #clone_inputs
            #[allow(unused_variables)]
            let __sc_first = #c::switch::forced(|| #the_call);
            if let ::core::option::Option::Some(__sc_met) = #c::check::last_call_met_a_condition() {
                // `p ==> q` holds trivially when `p` is false.
                ::speccheck::cover(50.0, __sc_met, "calls meeting the condition p of a postcondition p ==> q");
            }
            #check_twice
            ::speccheck::TestResult::Pass
        }
    }
}
