//! `#[contract(...)]` on a function: its spec, written once in the spec
//! language, used three ways (LPtest / Ciao):
//!
//! * the function is wrapped in run-time checks (`speccheck::contracts`:
//!   on in tests and debug builds): `requires` on entry; `ensures`,
//!   `cost` and `terminates_within` on exit; `no_panic` when it panics;
//! * each `example(args => check)` becomes a `#[test]` calling it;
//! * a generated `#[property]` test, `<fn>_contract`, calls it on the valid
//!   inputs (the `requires` clauses become refinements of its arguments,
//!   so every strategy applies) with every check on, and checks
//!   `deterministic` by calling twice; `<fn>_contract_static` classifies
//!   each part with the solver and fails on a vacuous precondition.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::punctuated::Punctuated;
use syn::{FnArg, ItemFn, Meta, Pat, Token, Type};

/// One clause: as written, and as the spec parser reads it, with the
/// variables it mentions.
struct Clause {
    written: String,
    source: String,
    vars: Vec<String>,
    tokens: TokenStream,
}

fn clause(tokens: TokenStream) -> syn::Result<Clause> {
    let spec = crate::attrs::spec_tokens(&tokens)?;
    Ok(Clause { written: spec.written, source: spec.source, vars: spec.expr.free_vars(), tokens })
}

/// A parameter: its name, the owned type the test generates, how the
/// function is called with it, and how the wrapper reads its value.
struct Param {
    ident: syn::Ident,
    owned: Type,
    borrow: TokenStream,
    mutable: bool,
    /// A reference to a `Targetable` value of it (inside the function).
    reflect: TokenStream,
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

fn param(input: &FnArg) -> syn::Result<Param> {
    let FnArg::Typed(pt) = input else {
        return Err(syn::Error::new_spanned(
            input,
            "a contract test calls free functions: `self` is not supported yet",
        ));
    };
    let Pat::Ident(p) = &*pt.pat else {
        return Err(syn::Error::new_spanned(&pt.pat, "a contract names each argument: use `name: Type`"));
    };
    let ident = p.ident.clone();
    Ok(match &*pt.ty {
        Type::Reference(r) => {
            let owned: Type = match &*r.elem {
                Type::Path(tp) if tp.path.is_ident("str") => syn::parse_quote!(::std::string::String),
                Type::Slice(sl) => {
                    let e = &sl.elem;
                    syn::parse_quote!(::std::vec::Vec<#e>)
                }
                other => other.clone(),
            };
            let mutable = r.mutability.is_some();
            let borrow = if mutable { quote!(&mut #ident) } else { quote!(&#ident) };
            let reflect = reflectable(&quote!(#ident), &pt.ty);
            Param { ident, owned, borrow, mutable, reflect }
        }
        ty => {
            let reflect = reflectable(&quote!(#ident), ty);
            Param { ident: ident.clone(), owned: ty.clone(), borrow: quote!(#ident), mutable: false, reflect }
        }
    })
}

/// `example(x = e, … => check)`: the arguments by name, and what the result
/// must satisfy (Rust, naming `result`).
struct Example {
    args: Vec<(syn::Ident, syn::Expr)>,
    check: Option<syn::Expr>,
    tokens: TokenStream,
}

fn example(tokens: TokenStream) -> syn::Result<Example> {
    use proc_macro2::{Spacing, TokenTree};
    let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
    let arrow = trees.windows(2).position(|w| {
        matches!((&w[0], &w[1]), (TokenTree::Punct(a), TokenTree::Punct(b))
            if a.as_char() == '=' && a.spacing() == Spacing::Joint && b.as_char() == '>')
    });
    let (left, check): (TokenStream, _) = match arrow {
        Some(i) => {
            let right: TokenStream = trees[i + 2..].iter().cloned().collect();
            (trees[..i].iter().cloned().collect(), Some(syn::parse2::<syn::Expr>(right)?))
        }
        None => (tokens.clone(), None),
    };
    let assigns: Punctuated<syn::Expr, Token![,]> = syn::parse::Parser::parse2(Punctuated::parse_terminated, left)?;
    let mut args = Vec::new();
    for a in assigns {
        match a {
            syn::Expr::Assign(syn::ExprAssign { left, right, .. }) if matches!(&*left, syn::Expr::Path(p) if p.path.get_ident().is_some()) =>
            {
                let syn::Expr::Path(p) = *left else { unreachable!() };
                args.push((p.path.get_ident().cloned().expect("checked"), *right));
            }
            other => {
                return Err(syn::Error::new_spanned(
                    other,
                    "an example names each argument: `example(xs = vec![3, 1], k = 1 => result == vec![3])`",
                ));
            }
        }
    }
    Ok(Example { args, check, tokens })
}

/// Checks that a clause mentions only `allowed` names.
fn only_mentions(c: &Clause, kind: &str, names: &[String], extra: &[&str]) -> syn::Result<()> {
    if let Some(v) = c.vars.iter().find(|v| !extra.contains(&v.as_str()) && !names.contains(v)) {
        let also = extra.iter().map(|e| format!("`{e}`")).collect::<Vec<_>>().join(" or ");
        return Err(syn::Error::new_spanned(
            &c.tokens,
            format!("`{kind}` mentions `{v}`, which is neither an argument nor {also}"),
        ));
    }
    Ok(())
}

/// A return type a closure can be annotated with (no elided lifetimes, no
/// `impl Trait`).
fn annotatable(ty: &Type) -> bool {
    let s = quote!(#ty).to_string();
    !s.contains('&') && !s.contains("impl") && !s.contains('\'')
}

pub fn expand(args: TokenStream, item: ItemFn) -> syn::Result<TokenStream> {
    let metas: Punctuated<Meta, Token![,]> = syn::parse::Parser::parse2(Punctuated::parse_terminated, args)?;
    let mut requires = Vec::new();
    let mut ensures = Vec::new();
    let mut cost = None;
    let mut no_panic = false;
    let mut deterministic = false;
    let mut within: Option<syn::LitInt> = None;
    let mut examples = Vec::new();
    let mut settings = Vec::new();
    let mut has_timeout = false;
    let mut should_panic = None;
    for m in metas {
        let name = m.path().get_ident().map(ToString::to_string).unwrap_or_default();
        match (name.as_str(), &m) {
            ("requires", Meta::List(l)) => requires.push(clause(l.tokens.clone())?),
            ("ensures", Meta::List(l)) => ensures.push(clause(l.tokens.clone())?),
            ("cost", Meta::List(l)) => {
                if cost.is_some() {
                    return Err(syn::Error::new_spanned(&m, "one `cost(steps <= bound)` per contract"));
                }
                cost = Some(clause(l.tokens.clone())?);
            }
            ("no_panic", Meta::Path(_)) => no_panic = true,
            ("deterministic", Meta::Path(_)) => deterministic = true,
            ("pure", _) => {
                return Err(syn::Error::new_spanned(
                    &m,
                    "`pure` is for `&self` methods, and contracts cover free functions only so far",
                ));
            }
            ("terminates_within", Meta::List(l)) => within = Some(l.parse_args()?),
            ("example", Meta::List(l)) => examples.push(example(l.tokens.clone())?),
            ("test", Meta::Path(_)) => {}
            ("test", Meta::List(l)) => {
                let items: Punctuated<crate::attrs::PropertyArg, Token![,]> =
                    l.parse_args_with(Punctuated::parse_terminated)?;
                for a in items {
                    if a.name == "should_panic" {
                        should_panic = Some(a.value);
                    } else {
                        has_timeout |= a.name == "timeout_ms";
                        let (n, v) = (&a.name, &a.value);
                        settings.push(quote!(#n = #v));
                    }
                }
            }
            _ => {
                return Err(syn::Error::new_spanned(
                    &m,
                    "expected `requires(spec)`, `ensures(spec)`, `cost(steps <= bound)`, `no_panic`, `deterministic`, \
                     `terminates_within(ms)`, `example(arg = value, … => check)` or `test(property settings)`",
                ));
            }
        }
    }
    if !item.sig.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(&item.sig.generics, "a contract needs a function without generics"));
    }
    if let Some(a) = &item.sig.asyncness {
        return Err(syn::Error::new_spanned(a, "contracts on async functions are not supported"));
    }
    let params = item.sig.inputs.iter().map(param).collect::<syn::Result<Vec<_>>>()?;
    let names: Vec<String> = params.iter().map(|p| p.ident.to_string()).collect();
    if names.iter().any(|n| n == "result" || n == "steps") {
        return Err(syn::Error::new_spanned(
            &item.sig.inputs,
            "`result` and `steps` name the function's result and its cost in a contract: rename the argument",
        ));
    }

    // Each `requires` clause refines the last argument it mentions (a
    // refinement may mention earlier arguments).
    let mut refine: Vec<Vec<&Clause>> = vec![Vec::new(); params.len()];
    for c in &requires {
        let mut last = 0;
        for v in &c.vars {
            match names.iter().position(|n| n == v) {
                Some(i) => last = last.max(i),
                None => {
                    return Err(syn::Error::new_spanned(
                        &c.tokens,
                        format!("`requires` mentions `{v}`, which is not an argument"),
                    ));
                }
            }
        }
        let Some(slot) = refine.get_mut(last) else {
            return Err(syn::Error::new_spanned(&c.tokens, "`requires` on a function without arguments"));
        };
        slot.push(c);
    }
    for c in &ensures {
        only_mentions(c, "ensures", &names, &["result"])?;
    }
    if let Some(c) = &cost {
        only_mentions(c, "cost", &names, &["result", "steps"])?;
    }
    for ex in &examples {
        for (id, _) in &ex.args {
            if !names.contains(&id.to_string()) {
                return Err(syn::Error::new_spanned(id, format!("`{id}` is not an argument")));
            }
        }
        if let Some(missing) = names.iter().find(|n| !ex.args.iter().any(|(id, _)| id == *n)) {
            return Err(syn::Error::new_spanned(&ex.tokens, format!("the example does not give `{missing}`")));
        }
    }

    let fn_name = &item.sig.ident;
    let fn_str = fn_name.to_string();
    let c = quote!(::speccheck::__private::contract);
    let spec = quote!(::speccheck::__private::spec);

    // The contract, built the same way by the wrapper and the tests.
    let pairs = |cs: &[Clause]| {
        let items = cs.iter().map(|c| {
            let (w, s) = (&c.written, &c.source);
            quote!((#w, #s))
        });
        quote!(&[#(#items),*])
    };
    let (req, ens) = (pairs(&requires), pairs(&ensures));
    let cost_arg = match &cost {
        Some(c) => {
            let (w, s) = (&c.written, &c.source);
            quote!(::core::option::Option::Some((#w, #s)))
        }
        None => quote!(::core::option::Option::None),
    };
    let within_arg = match &within {
        Some(ms) => quote!(::core::option::Option::Some(#ms)),
        None => quote!(::core::option::Option::None),
    };
    let new_contract = quote! {
        #c::Contract::new(#fn_str, #req, #ens, #cost_arg, #no_panic, #within_arg)
            .unwrap_or_else(|e| ::core::panic!("contract of `{}`: {e}", #fn_str))
    };

    // The wrapper: the arguments the contract mentions are read on entry
    // (before the body may move or change them), the body runs as written
    // in a closure (so `return` and `?` keep their meaning), and the result
    // is read on exit.
    let mentioned: Vec<&Param> = params
        .iter()
        .filter(|p| {
            let n = p.ident.to_string();
            requires.iter().chain(&ensures).chain(&cost).any(|c| c.vars.contains(&n))
        })
        .collect();
    let entry = mentioned.iter().map(|p| {
        let (name, r) = (p.ident.to_string(), &p.reflect);
        quote!((#name, #spec::Targetable::reflect(#r)))
    });
    let mentions_result = ensures.iter().chain(&cost).any(|c| c.vars.iter().any(|v| v == "result"));
    let ret_ty = match &item.sig.output {
        syn::ReturnType::Default => None,
        syn::ReturnType::Type(_, t) => Some((**t).clone()),
    };
    let exit_value = match (&ret_ty, mentions_result) {
        (Some(t), true) => {
            let r = reflectable(&quote!(__sc_result), t);
            quote!(::core::option::Option::Some(#spec::Targetable::reflect(#r)))
        }
        _ => quote!(::core::option::Option::None),
    };
    let annotation = match &ret_ty {
        Some(t) if annotatable(t) => quote!(-> #t),
        _ => quote!(),
    };
    let block = &item.block;
    let (attrs, vis, sig) = (&item.attrs, &item.vis, &item.sig);
    let wrapped = quote! {
        #(#attrs)*
        #vis #sig {
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
            #[allow(unused_mut)]
            let mut __sc_body = move || #annotation #block;
            let __sc_result = match &__sc_call {
                ::core::option::Option::Some((__sc_c, __sc_e)) if __sc_c.no_panic() => {
                    match ::std::panic::catch_unwind(::std::panic::AssertUnwindSafe(__sc_body)) {
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
                _ => __sc_body(),
            };
            if let ::core::option::Option::Some((__sc_c, __sc_e)) = &__sc_call
                && let ::core::result::Result::Err(__sc_v) = __sc_c.exit(__sc_e, #exit_value)
            {
                ::core::panic!("{}", __sc_v);
            }
            __sc_result
        }
    };

    // The generated test: valid inputs by any strategy, every check on.
    let test_name = format_ident!("{}_contract", fn_name);
    let test_params = params.iter().zip(&refine).map(|(p, cs)| {
        let (ident, owned) = (&p.ident, &p.owned);
        let mutable = p.mutable.then(|| quote!(mut));
        if cs.is_empty() {
            quote!(#mutable #ident: #owned)
        } else if let [c] = cs.as_slice() {
            let t = &c.tokens;
            quote!(#[refine(#t)] #mutable #ident: #owned)
        } else {
            let parts = cs.iter().map(|c| {
                let t = &c.tokens;
                quote!((#t))
            });
            quote!(#[refine(#(#parts)&&*)] #mutable #ident: #owned)
        }
    });
    let calls: Vec<&TokenStream> = params.iter().map(|p| &p.borrow).collect();
    let shown = params.iter().map(|p| {
        let ident = &p.ident;
        let amp = match (&p.borrow.to_string(), p.mutable) {
            (_, true) => "&mut ",
            (b, false) if b.starts_with('&') => "&",
            _ => "",
        };
        quote!(::std::format!("{}{}", #amp, (&&::speccheck::__private::Show(&#ident)).term()))
    });
    let twice = if deterministic {
        let idents: Vec<&syn::Ident> = params.iter().map(|p| &p.ident).collect();
        let again: Vec<syn::Ident> = idents.iter().map(|i| format_ident!("__sc_again_{}", i)).collect();
        let again_calls = params.iter().zip(&again).map(|(p, a)| {
            if p.mutable {
                quote!(&mut #a)
            } else if p.borrow.to_string().starts_with('&') {
                quote!(&#a)
            } else {
                quote!(#a)
            }
        });
        let reflects = mentioned.iter().map(|p| {
            let (name, i) = (p.ident.to_string(), &p.ident);
            quote!((#name, #spec::Targetable::reflect(&#i)))
        });
        (
            quote! {
                #(#[allow(unused_mut)] let mut #again = ::core::clone::Clone::clone(&#idents);)*
                let __sc_args = ::std::vec![#(#reflects),*];
            },
            quote! {
                let __sc_second = #c::switch::forced(|| #fn_name(#(#again_calls),*));
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
    let (clone_inputs, check_twice) = twice;
    if let Some(ms) = &within
        && !has_timeout
    {
        // A call that hangs is stopped and reported; the run goes on.
        settings.push(quote!(timeout_ms = (#ms as u64) * 4 + 1000));
    }
    let should_panic_attr = should_panic.as_ref().map(|v| quote!(#[should_panic(expected = #v)]));
    let static_name = format_ident!("{}_contract_static", fn_name);
    let assert_no_false = if should_panic.is_none() {
        quote! {
            let __sc_false: ::std::vec::Vec<&str> = __sc_class
                .parts
                .iter()
                .filter(|(_, s)| *s == #c::Status::False)
                .map(|(w, _)| w.as_str())
                .collect();
            ::core::assert!(
                __sc_false.is_empty(),
                "{}\nthese parts contradict the precondition: no call that returns can meet them: {:?}",
                __sc_class,
                __sc_false
            );
        }
    } else {
        quote!()
    };
    let example_tests = examples.iter().enumerate().map(|(i, ex)| {
        let name = format_ident!("{}_example_{}", fn_name, i + 1);
        let lets = params.iter().map(|p| {
            let (ident, owned) = (&p.ident, &p.owned);
            let value = &ex.args.iter().find(|(id, _)| id == ident).expect("checked above").1;
            quote!(#[allow(unused_mut)] let mut #ident: #owned = #value;)
        });
        let check = ex.check.as_ref().map(|check| {
            let written = quote!(#check).to_string();
            quote! {
                ::core::assert!(
                    #check,
                    "example {} of `{}`: `{}` is false: result = {}",
                    #i + 1,
                    #fn_str,
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
                let result = #c::switch::forced(|| #fn_name(#(#calls),*));
                #check
            }
        }
    });

    Ok(quote! {
        #wrapped

        #(#example_tests)*

        #[cfg(test)]
        #[test]
        #[allow(non_snake_case)]
        fn #static_name() {
            let __sc_class = #c::classify(&#new_contract);
            ::std::println!("{}", __sc_class);
            ::core::assert!(
                __sc_class.vacuous != ::core::option::Option::Some(true),
                "{}\nthe precondition of `{}` is vacuous: no input satisfies it, so no tests run",
                __sc_class,
                #fn_str
            );
            #assert_no_false
        }

        #[cfg(test)]
        #[::speccheck::property(#(#settings),*)]
        #should_panic_attr
        #[allow(non_snake_case, unused_mut)]
        fn #test_name(#(#test_params),*) -> ::speccheck::TestResult {
            #[allow(unused_imports)]
            use ::speccheck::__private::{ViaDebug as _, ViaName as _, ViaTree as _};
            static __SC_CLASS: ::std::sync::OnceLock<::std::string::String> = ::std::sync::OnceLock::new();
            ::speccheck::note(|| {
                __SC_CLASS.get_or_init(|| #c::classify(&#new_contract).to_string()).clone()
            });
            ::speccheck::note(|| ::std::format!("call: {}({})", #fn_str, [#(#shown),*].join(", ")));
            #clone_inputs
            #[allow(unused_variables)]
            let __sc_first = #c::switch::forced(|| #fn_name(#(#calls),*));
            #check_twice
            ::speccheck::TestResult::Pass
        }
    })
}
