//! `#[property]`: a function with typed arguments becomes a `#[test]`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned as _;
use syn::{Attribute, Expr, FnArg, ItemFn, Pat, Token, Type, parse_quote};

use crate::attrs::PropertyArg;

/// The most generated arguments a property takes (the largest tuple the
/// core's generator is implemented for).
const MAX_ARGS: usize = 12;

struct Arg {
    /// The name specs and reports use (the identifier, or what a
    /// `#[__speccheck_name("self")]` from `#[contract]` says).
    name: String,
    ty: Type,
    from: Option<Expr>,
    /// `#[refine(spec)]`: as written, and as the spec parser reads it.
    refine: Option<(String, String)>,
    /// `#[refine(|x| spec)]` on a generated function: the input's name and
    /// the spec as the parser reads it.
    fun: Option<(String, String)>,
}

/// Reads `|x| spec`, the refinement of a generated function
/// (`speccheck::target::Fun`): `None` if the tokens are not a closure.
#[cfg(not(feature = "spec"))]
fn fun_refinement(tokens: &TokenStream, _ident: &syn::Ident) -> syn::Result<Option<(String, String)>> {
    Err(crate::needs_spec(tokens, "`#[refine]`"))
}

/// Reads `|x| spec`, the refinement of a generated function
/// (`speccheck::target::Fun`): `None` if the tokens are not a closure.
#[cfg(feature = "spec")]
fn fun_refinement(tokens: &TokenStream, ident: &syn::Ident) -> syn::Result<Option<(String, String)>> {
    use proc_macro2::TokenTree;
    let trees: Vec<TokenTree> = tokens.clone().into_iter().collect();
    let bar = |t: Option<&TokenTree>| matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == '|');
    if !bar(trees.first()) {
        return Ok(None);
    }
    let (Some(TokenTree::Ident(param)), true) = (trees.get(1), bar(trees.get(2))) else {
        return Err(syn::Error::new_spanned(
            tokens,
            format!(
                "a generated function's refinement is a closure over its one input, with `result` for its output: \
                 `#[refine(|x| x <= result)] {ident}: Fun<A, B>`"
            ),
        ));
    };
    let body: TokenStream = trees[3..].iter().cloned().collect();
    let spec = crate::spec::spec_tokens(&body)?;
    for v in spec.expr.free_vars() {
        if *param != v && v != "result" {
            return Err(syn::Error::new_spanned(
                &body,
                format!(
                    "the refinement of `{ident}` mentions `{v}`: a generated function's refinement may name only its \
                     input (`{param}`) and `result`"
                ),
            ));
        }
    }
    Ok(Some((param.to_string(), spec.source)))
}

/// A strategy name given as `strategy = smt` or `strategy = "smt"`.
fn strategy_name(v: &Expr) -> syn::Result<String> {
    let name = match v {
        Expr::Path(p) if p.path.get_ident().is_some() => {
            p.path.get_ident().map(ToString::to_string).unwrap_or_default()
        }
        Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => s.value(),
        _ => String::new(),
    };
    match name.as_str() {
        "random" | "exhaustive" | "lazy" | "smt" | "auto" | "sample" => Ok(name),
        _ => Err(syn::Error::new_spanned(v, "expected a strategy: random, exhaustive, lazy, smt, auto or sample")),
    }
}

/// Reads `#[refine(spec)]` on argument `ident`: without the spec
/// language, an error saying how to turn it on.
#[cfg(not(feature = "spec"))]
fn refinement(attr: &Attribute, _ident: &str, _earlier: &[String]) -> syn::Result<(String, String)> {
    Err(crate::needs_spec(attr, "`#[refine]`"))
}

/// Reads `#[refine(spec)]` on argument `ident`, checking that the spec is
/// in the language and mentions only this argument and earlier ones.
#[cfg(feature = "spec")]
fn refinement(attr: &Attribute, ident: &str, earlier: &[String]) -> syn::Result<(String, String)> {
    let tokens = attr.meta.require_list()?.tokens.clone();
    let spec = crate::spec::spec_tokens(&tokens)?;
    for v in spec.expr.free_vars() {
        if ident != v && !earlier.contains(&v) {
            return Err(syn::Error::new_spanned(
                &tokens,
                format!("the refinement of `{ident}` mentions `{v}`, which is not `{ident}` or an argument before it"),
            ));
        }
    }
    Ok((spec.written, spec.source))
}

/// The items that make a call in `#[refine(spec)]` to anything but a
/// built-in, a measure or a predicate in scope a compile error there.
#[cfg(feature = "spec")]
fn calls_in_scope(attr: &Attribute) -> TokenStream {
    match attr.meta.require_list() {
        Ok(list) => crate::spec::calls_in_scope(&list.tokens),
        Err(_) => TokenStream::new(),
    }
}

#[cfg(not(feature = "spec"))]
fn calls_in_scope(_: &Attribute) -> TokenStream {
    TokenStream::new()
}

fn is_test_case(ty: &Type) -> bool {
    if let Type::Reference(r) = ty
        && r.mutability.is_some()
        && let Type::Path(p) = &*r.elem
    {
        return p.path.segments.last().is_some_and(|s| s.ident == "TestCase");
    }
    false
}

/// `tokio::test` → `tokio::main` (with the current-thread flavor tests use
/// by default), for running the async body once per case.
fn runtime_attribute(attr: &Attribute) -> Option<Attribute> {
    let path = attr.path();
    let last = path.segments.last()?;
    if last.ident != "test" || path.segments.len() < 2 {
        return None;
    }
    let mut main_path = path.clone();
    main_path.segments.last_mut()?.ident = format_ident!("main");
    let is_tokio = path.segments.first().is_some_and(|s| s.ident == "tokio");
    let args: TokenStream = match &attr.meta {
        syn::Meta::List(l) => l.tokens.clone(),
        _ => TokenStream::new(),
    };
    let has_flavor = args.to_string().contains("flavor");
    let args = if is_tokio && !has_flavor {
        if args.is_empty() { quote!(flavor = "current_thread") } else { quote!(flavor = "current_thread", #args) }
    } else {
        args
    };
    Some(if args.is_empty() { parse_quote!(#[#main_path]) } else { parse_quote!(#[#main_path(#args)]) })
}

pub fn expand(args: TokenStream, mut item: ItemFn) -> syn::Result<TokenStream> {
    let settings: Punctuated<PropertyArg, Token![,]> = syn::parse::Parser::parse2(Punctuated::parse_terminated, args)?;
    let mut config = Vec::new();
    let mut strategy = None;
    let mut depth = None;
    let mut min_height = None;
    let mut min_height_value = None;
    for s in settings {
        let v = &s.value;
        let field = s.name.to_string();
        config.push(match field.as_str() {
            "strategy" => {
                if cfg!(not(feature = "spec")) {
                    return Err(crate::needs_spec(v, "`strategy =`"));
                }
                strategy = Some(strategy_name(v)?);
                continue;
            }
            "depth" => {
                depth = Some(v.clone());
                continue;
            }
            "min_height" => {
                min_height = Some(s.name.clone());
                min_height_value = Some(v.clone());
                continue;
            }
            "cases" | "max_size" | "size_ramp" | "max_depth" | "shrink_steps" | "threads" | "max_discard_ratio" | "max_enumerated"
            | "allow_partial" => {
                let f = &s.name;
                quote!(__c.#f = #v;)
            }
            "seed" => quote!(__c.seed = ::core::option::Option::Some(#v);),
            "exhaustive" => quote!(__c.exhaustive = ::core::option::Option::Some(#v);),
            "shrink" => quote!(__c.shrink = #v;),
            "isolate" => quote!(__c.isolate = #v;),
            "timeout_ms" => quote!(__c.timeout = if (#v) == 0 { None } else { Some(::std::time::Duration::from_millis(#v)) };),
            "time_budget_ms" => quote!(__c.time_budget = Some(::std::time::Duration::from_millis(#v));),
            "shrink_time_ms" => quote!(__c.shrink_time = ::std::time::Duration::from_millis(#v);),
            "explain" => quote!(__c.explain = ::speccheck::__private::explain_mode(#v);),
            "phases" => {
                check_phases(v)?;
                quote!(__c.set_phases(#v).expect("checked by #[property]");)
            }
            "config" => quote!(*__c = { let mut __n: ::speccheck::Config = #v; __n.name = ::core::mem::take(&mut __c.name); __n.database = __c.database.take(); __n };),
            other => {
                return Err(syn::Error::new_spanned(
                    &s.name,
                    format!(
                        "unknown property setting `{other}` (expected cases, seed, max_size, max_depth, timeout_ms, \
                         time_budget_ms, shrink, shrink_steps, shrink_time_ms, threads, max_discard_ratio, explain, exhaustive, size_ramp, \
                         max_enumerated, allow_partial, isolate, phases, strategy, depth, min_height or config)"
                    ),
                ));
            }
        });
    }

    // A lower bound on the inputs' height is the enumerating strategies':
    // the others draw inputs and would ignore it.
    if let Some(setting) = &min_height
        && !matches!(strategy.as_deref(), Some("lazy" | "smt" | "auto"))
    {
        return Err(syn::Error::new_spanned(
            setting,
            "`min_height` bounds the inputs of an enumerating strategy: add `strategy = lazy`, `smt` or `auto` \
             (the sampler and random generation grow their inputs with the case size: set `max_size` instead)",
        ));
    }

    let name = item.sig.ident.clone();
    let name_str = name.to_string();
    let is_async = item.sig.asyncness.is_some();

    // Split attributes: a runtime `…::test` drives an async body; the rest
    // stay on the generated test.
    let mut outer_attrs = Vec::new();
    let mut examples = Vec::new();
    let mut runtime = None;
    for attr in std::mem::take(&mut item.attrs) {
        if is_async && let Some(rt) = runtime_attribute(&attr) {
            runtime = Some(rt);
            continue;
        }
        if attr.path().is_ident("test") {
            continue;
        }
        if attr.path().is_ident("example") {
            examples.push(attr);
            continue;
        }
        outer_attrs.push(attr);
    }
    if is_async && runtime.is_none() {
        return Err(syn::Error::new_spanned(
            item.sig.asyncness,
            "an async property needs a runtime: add e.g. `#[tokio::test]` below `#[property]`",
        ));
    }

    // A property expected to fail (`#[should_panic]`) fails on every run by
    // design: its failure is not saved to the database (it would be
    // replayed forever), nor searched further for other failure classes.
    let expected_failure = if outer_attrs.iter().any(|a| a.path().is_ident("should_panic")) {
        quote!(__c.expected_failure = true;)
    } else {
        quote!()
    };

    let mut gen_args = Vec::new();
    let mut call_checks = Vec::new();
    let mut tc_position = None;
    let mut call_args = Vec::new();
    for (i, input) in item.sig.inputs.iter_mut().enumerate() {
        let FnArg::Typed(pt) = input else {
            return Err(syn::Error::new_spanned(input, "a property cannot take `self`"));
        };
        let ident = match &*pt.pat {
            Pat::Ident(p) => p.ident.clone(),
            _ => format_ident!("arg{}", i),
        };
        let mut from = None;
        let mut refine = None;
        let mut fun = None;
        let mut kept = Vec::new();
        let earlier: Vec<String> = gen_args.iter().map(|a: &Arg| a.name.clone()).collect();
        let mut name = ident.to_string();
        let mut refine_attr = None;
        for attr in std::mem::take(&mut pt.attrs) {
            if attr.path().is_ident("__speccheck_name") {
                name = attr.parse_args::<syn::LitStr>()?.value();
            } else if attr.path().is_ident("from") {
                from = Some(attr.parse_args::<Expr>()?);
            } else if attr.path().is_ident("refine") {
                match fun_refinement(&attr.meta.require_list()?.tokens, &ident)? {
                    Some(f) => {
                        fun = Some(f);
                        // Its calls too: a name neither a built-in nor a
                        // measure or predicate in scope fails to compile.
                        call_checks.push(calls_in_scope(&attr));
                    }
                    None => refine_attr = Some(attr),
                }
            } else {
                kept.push(attr);
            }
        }
        pt.attrs = kept;
        if let Some(attr) = &refine_attr {
            refine = Some(refinement(attr, &name, &earlier)?);
            call_checks.push(calls_in_scope(attr));
        }
        if is_test_case(&pt.ty) {
            if tc_position.is_some() {
                return Err(syn::Error::new_spanned(&pt.ty, "only one `&mut TestCase` argument"));
            }
            tc_position = Some(i);
            call_args.push(quote!(__tc));
            continue;
        }
        if from.is_none()
            && let Type::Reference(r) = &*pt.ty
        {
            let owned = match &*r.elem {
                Type::Path(p) if p.path.is_ident("str") => "String".to_string(),
                Type::Slice(sl) => {
                    let e = &sl.elem;
                    format!("Vec<{}>", quote!(#e))
                }
                other => quote!(#other).to_string(),
            };
            return Err(syn::Error::new_spanned(
                &pt.ty,
                format!(
                    "a property's arguments are generated values, so they are owned: take `{ident}: {owned}` and \
                     borrow it in the body (`&{ident}`)"
                ),
            ));
        }
        let local = format_ident!("__a{}", gen_args.len());
        call_args.push(quote!(#local));
        gen_args.push(Arg { name, ty: (*pt.ty).clone(), from, refine, fun });
    }

    // Inputs are drawn as one tuple, and tuples implement the generator
    // (and the spec's traits) up to twelve elements, as std's traits do.
    if let Some(extra) = gen_args.get(MAX_ARGS) {
        return Err(syn::Error::new_spanned(
            &extra.ty,
            format!(
                "a property takes at most {MAX_ARGS} generated arguments (this one has {}): group some in a tuple \
                 or a struct that derives `Arbitrary`",
                gen_args.len()
            ),
        ));
    }
    let gens = gen_args.iter().map(|a| {
        let ty = &a.ty;
        let name = a.name.clone();
        match &a.from {
            Some(g) => quote_spanned!(g.span()=> ::speccheck::gens::argument_from(#g, #name)),
            // Spanned at the type: a type with no generator is one error there.
            None => quote_spanned!(ty.span()=> ::speccheck::gens::argument::<#ty>(#name)),
        }
    });
    let locals: Vec<_> = (0..gen_args.len()).map(|i| format_ident!("__a{}", i)).collect();
    let renders = gen_args.iter().enumerate().map(|(i, a)| {
        let name = a.name.clone();
        let idx = syn::Index::from(i);
        quote!((::std::string::String::from(#name), (&&::speccheck::__private::Show(&__v.#idx)).term()))
    });

    // The user's function, renamed, stays as written (an async one gets the
    // runtime attribute so each case runs to completion).
    let body_ident = format_ident!("__speccheck_{}", name);

    // Without a `&mut TestCase` argument the inputs are complete before the
    // body runs (so shrinking may skip inputs it already tried).
    // Refined arguments or a strategy: the inputs are those the argument
    // spec admits (see `speccheck::target`): filtered for the random and
    // exhaustive strategies, built by the lazy and SMT ones.
    let targeted = strategy.is_some() || gen_args.iter().any(|a| a.refine.is_some());
    let (setup, admit, apply) = if targeted {
        if gen_args.iter().any(|a| a.from.is_some()) {
            return Err(syn::Error::new_spanned(
                &item.sig,
                "refined arguments and strategies build inputs from the arguments' types: drop `#[from]`",
            ));
        }
        let target = quote!(::speccheck::__private::target);
        let spec = quote!(::speccheck::__private::spec);
        let params = gen_args.iter().map(|a| {
            let (n, ty) = (a.name.clone(), &a.ty);
            quote_spanned!(ty.span()=> (::std::string::String::from(#n), <#ty as #spec::Targetable>::ty()))
        });
        let clauses = gen_args.iter().filter_map(|a| a.refine.as_ref()).map(|(w, src)| quote!((#w, #src)));
        let functions = gen_args.iter().map(|a| {
            let (n, ty) = (a.name.clone(), &a.ty);
            quote!((#n, <#ty as #spec::Targetable>::FUNCTION))
        });
        let reflects = locals.iter().map(|l| quote!(#spec::Targetable::reflect(&#l)));
        let reifies = gen_args.iter().enumerate().map(|(i, a)| {
            let ty = &a.ty;
            quote!(<#ty as #spec::Targetable>::reify(__vals.get(#i)?)?)
        });
        let depth = depth.unwrap_or_else(|| parse_quote!(5));
        let reify = quote!(|__vals: &[#spec::Value]| ::core::option::Option::Some((#(#reifies,)*)));
        // Without a strategy: the sampler's random valid inputs.
        let from_height = min_height_value.map(|h| quote!(.from_height(#h)));
        let apply = match strategy {
            Some(strategy) => quote! {
                #target::apply(__p, &__spec, #strategy.parse().expect("checked by #[property]"), #depth, #reify)
            },
            None => quote!(#target::apply_default(__p, &__spec, #depth, #reify)),
        };
        (
            quote! {
                let __spec = ::std::sync::Arc::new(
                    #target::ArgSpec::new(::std::vec![#(#params),*], &[#(#clauses),*])
                        .unwrap_or_else(|e| ::core::panic!("{e}"))
                        .with_functions(&[#(#functions),*])
                        #from_height,
                );
                let __admit = __spec.clone();
            },
            quote!(__admit.admit(&[#(#reflects),*]);),
            quote! {
                let __p = #apply;
            },
        )
    } else {
        (quote!(), quote!(), quote!())
    };
    // A generated function gets its refinement (parsed once per run) before
    // the body sees it.
    let mut fun_setup = Vec::new();
    let mut fun_attach = Vec::new();
    for (i, a) in gen_args.iter().enumerate() {
        if let Some((param, src)) = &a.fun {
            let (spec, local, name, ty) = (format_ident!("__fun{}", i), &locals[i], a.name.clone(), &a.ty);
            fun_setup.push(quote! {
                let #spec = ::std::sync::Arc::new(
                    ::speccheck::__private::target::FunSpec::new(#name, #param, #src)
                        .unwrap_or_else(|e| ::core::panic!("{e}")),
                );
            });
            fun_attach.push(quote_spanned!(ty.span()=> let #local: #ty = #local.refined(&#spec);));
        }
    }
    let examples = examples.iter().map(|a| example(a, &gen_args)).collect::<syn::Result<Vec<_>>>()?;
    let finish = if tc_position.is_some() {
        quote!(__finish.finish_with_case(__p, move |__tc: &mut ::speccheck::TestCase, (#(#locals,)*)| { #(#fun_attach)* #admit #body_ident(#(#call_args),*) }))
    } else {
        quote!(__finish.finish(__p, move |(#(#locals,)*)| { #(#fun_attach)* #admit #body_ident(#(#call_args),*) }))
    };

    // The inputs' generator is built by a function beside the test, not in
    // it: it is type-checked in every build (a `#[test]` function is only
    // compiled under `--test`), and its signature checks each `#[from]`
    // generator's values against the argument's type.
    let inputs_fn = format_ident!("__speccheck_inputs_{}", name);
    let arg_types = gen_args.iter().map(|a| &a.ty);
    let cfgs = outer_attrs.iter().filter(|a| a.path().is_ident("cfg") || a.path().is_ident("cfg_attr"));
    let cfgs: Vec<_> = cfgs.collect();
    let arg_types: Vec<_> = arg_types.collect();
    // The explicit examples, built outside the test function so that their
    // types are checked in every build, not only under `cargo test`.
    let examples_fn = format_ident!("__speccheck_examples_{}", name);
    let inputs_item = quote! {
        #(#cfgs)*
        #[doc(hidden)]
        #[allow(dead_code, non_snake_case)]
        fn #inputs_fn() -> impl ::speccheck::Generator<Value = (#(#arg_types,)*)> + 'static {
            ::speccheck::gens::arguments((#(#gens,)*))
        }

        #(#cfgs)*
        #[doc(hidden)]
        #[allow(dead_code, non_snake_case, clippy::unnecessary_cast)]
        fn #examples_fn() -> ::std::vec::Vec<(#(#arg_types,)*)> {
            ::std::vec![#(#examples),*]
        }
    };

    item.sig.ident = body_ident.clone();
    if let Some(rt) = &runtime {
        item.attrs.push(rt.clone());
    }
    item.attrs.push(parse_quote!(#[allow(clippy::needless_pass_by_value)]));

    // The property is built by one function, with the user's visibility,
    // that hands it and its body to a `Finish`: the `#[test]` runs it
    // (`AsTest`), `speccheck::fuzz_target!` makes it a fuzz target
    // (`AsFuzzTarget`) from the same generator, settings and body.
    let build_fn = build_fn_name(&name);
    let vis = &item.vis;
    let finish_trait = quote!(::speccheck::__private::core::runner::Finish);
    Ok(quote! {
        #inputs_item
        #(#call_checks)*

        #(#cfgs)*
        #[doc(hidden)]
        #[allow(dead_code, non_snake_case)]
        #[track_caller]
        #vis fn #build_fn<__F: #finish_trait>(__finish: __F) -> <__F as #finish_trait>::Output {
            #item
            #[allow(unused_imports)]
            use ::speccheck::__private::{ViaDebug as _, ViaName as _, ViaTree as _};
            let __gen = #inputs_fn();
            #setup
            #(#fun_setup)*
            let __p = ::speccheck::Property::with_render(__gen, |__v| ::std::vec![#(#renders),*])
                .configure(|__c| {
                    __c.name = ::std::string::String::from(::core::concat!(::core::module_path!(), "::", #name_str));
                    __c.database = ::core::option::Option::Some(::speccheck::__private::database_dir(::core::env!("CARGO_MANIFEST_DIR")));
                    __c.test_path = ::core::option::Option::Some(::speccheck::__private::test_path(::core::module_path!(), #name_str));
                    __c.rerun_command = ::core::option::Option::Some(::speccheck::__private::rerun_command(
                        ::core::env!("CARGO_PKG_NAME"),
                        ::speccheck::__private::test_target(
                            ::core::option_env!("CARGO_CRATE_NAME"),
                            ::core::option_env!("CARGO_BIN_NAME"),
                            ::core::option_env!("CARGO_TARGET_TMPDIR").is_some(),
                        ).as_deref(),
                        ::core::module_path!(),
                        #name_str,
                    ));
                    #expected_failure
                    #(#config)*
                })
                .explainer(::speccheck::__private::default_explainer());
            #apply
            let __p = #examples_fn().into_iter().fold(__p, |__p, __e| __p.example(__e));
            #finish
        }

        #(#outer_attrs)*
        #[test]
        fn #name() {
            #build_fn(::speccheck::__private::core::runner::AsTest)
        }
    })
}

/// The hidden function `#[property] fn name` expands to that builds the
/// property (see `expand`); `speccheck::fuzz_target!(path::name)` calls it.
pub fn build_fn_name(name: &syn::Ident) -> syn::Ident {
    format_ident!("__speccheck_build_{}", name)
}

/// `#[example(v1, v2, …)]` or `#[example(a = v1, b = v2, …)]`: one value
/// per generated argument, as the tuple the property's generator makes.
/// Each value is checked against its argument's type where it is written.
fn example(attr: &Attribute, args: &[Arg]) -> syn::Result<TokenStream> {
    let values: Punctuated<Expr, Token![,]> = attr.parse_args_with(Punctuated::parse_terminated)?;
    let named = values.iter().all(|e| matches!(e, Expr::Assign(_))) && !values.is_empty();
    let exprs: Vec<Expr> = if named {
        let mut by_name: Vec<Option<Expr>> = vec![None; args.len()];
        for v in &values {
            let Expr::Assign(a) = v else { unreachable!("checked above") };
            let name = match &*a.left {
                Expr::Path(p) => p.path.get_ident().map(ToString::to_string),
                _ => None,
            };
            let Some(i) = name.as_ref().and_then(|n| args.iter().position(|g| &g.name == n)) else {
                let known: Vec<&str> = args.iter().map(|g| g.name.as_str()).collect();
                return Err(syn::Error::new_spanned(
                    &a.left,
                    format!("not a generated argument of this property (they are: {})", known.join(", ")),
                ));
            };
            if by_name[i].replace((*a.right).clone()).is_some() {
                return Err(syn::Error::new_spanned(&a.left, "this argument is given twice"));
            }
        }
        let missing: Vec<&str> =
            args.iter().zip(&by_name).filter(|(_, v)| v.is_none()).map(|(g, _)| g.name.as_str()).collect();
        if !missing.is_empty() {
            return Err(syn::Error::new_spanned(
                attr,
                format!("an example gives every generated argument a value: missing {}", missing.join(", ")),
            ));
        }
        by_name.into_iter().flatten().collect()
    } else {
        if values.iter().any(|e| matches!(e, Expr::Assign(_))) {
            return Err(syn::Error::new_spanned(attr, "an example is all positional (`1, 2`) or all named (`a = 1`)"));
        }
        if values.len() != args.len() {
            return Err(syn::Error::new_spanned(
                attr,
                format!(
                    "an example gives one value per generated argument: {} expected ({}), {} given",
                    args.len(),
                    args.iter().map(|g| g.name.as_str()).collect::<Vec<_>>().join(", "),
                    values.len()
                ),
            ));
        }
        values.into_iter().collect()
    };
    let locals: Vec<_> = (0..args.len()).map(|i| format_ident!("__e{}", i)).collect();
    let lets = exprs.iter().zip(args).zip(&locals).map(|((e, a), l)| {
        let ty = &a.ty;
        quote_spanned!(e.span()=> let #l: #ty = #e;)
    });
    Ok(quote!({ #(#lets)* (#(#locals,)*) }))
}

/// `phases = "explicit,generate,…"`: every name a phase of a run.
fn check_phases(v: &Expr) -> syn::Result<()> {
    const PHASES: [&str; 6] = ["explicit", "reuse", "generate", "target", "shrink", "explain"];
    let Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(list), .. }) = v else {
        return Err(syn::Error::new_spanned(v, "`phases` takes a string: a comma-separated list of phases"));
    };
    for name in list.value().split(',').map(str::trim).filter(|n| !n.is_empty()) {
        if !PHASES.iter().any(|p| p.eq_ignore_ascii_case(name)) {
            return Err(syn::Error::new_spanned(
                v,
                format!("`{name}` is not a phase (the phases are: {})", PHASES.join(", ")),
            ));
        }
    }
    Ok(())
}
