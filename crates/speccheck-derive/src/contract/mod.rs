//! `#[contract(...)]` on a function or, inside a `#[contracts]` impl block,
//! on a method: its spec, written once in the spec language, used three
//! ways (LPtest / Ciao):
//!
//! * the function is wrapped in run-time checks (`speccheck::contracts`:
//!   on in tests and debug builds): `requires` on entry; `ensures`,
//!   `cost`, `pure` and `terminates_within` on exit; `no_panic` when it
//!   panics ([`wrap`]);
//! * each `example(args => check)` becomes a `#[test]` calling it;
//! * a generated `#[property]` test, `<fn>_contract`, calls it on the valid
//!   inputs (the `requires` clauses become refinements of its arguments,
//!   so every strategy applies) with every check on, and checks
//!   `deterministic` by calling twice; `<fn>_contract_static` classifies
//!   each part with the solver and fails on a vacuous precondition
//!   ([`tests`]).

mod body;
mod params;
mod parts;
mod tests;
mod wrap;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Attribute, ImplItem, ItemFn, ItemImpl, Signature};

use params::{By, Owner, Param};
use parts::{Clause, Parts};
use speccheck_spec::Sort;

/// A contracted function, read and checked.
struct Contracted<'a> {
    parts: Parts,
    params: Vec<Param>,
    sig: &'a Signature,
    owner: Option<&'a Owner>,
    /// The conjuncts of the `requires` clauses.
    conjuncts: Vec<Clause>,
    /// For each parameter, the conjuncts that refine it (a conjunct
    /// refines the last argument it mentions).
    refine: Vec<Vec<usize>>,
    /// What the static classifier may read of the body, or why nothing.
    body: Result<body::Summary, &'static str>,
}

impl Contracted<'_> {
    /// The function as reports name it: `qsort`, `Counter::incr`,
    /// `<Counter as Iterator>::next`.
    fn display_name(&self) -> String {
        match self.owner {
            Some(o) => format!("{}::{}", o.display(), self.sig.ident),
            None => self.sig.ident.to_string(),
        }
    }

    /// The parameters some part mentions (read on entry).
    fn mentioned(&self) -> impl Iterator<Item = &Param> {
        self.params.iter().filter(|p| self.clauses().any(|c| c.vars.contains(&p.name)))
    }

    /// The `&mut` parameters a postcondition or the cost reads after the
    /// call.
    fn read_after(&self) -> impl Iterator<Item = &Param> {
        self.params.iter().filter(|p| {
            p.by == By::RefMut && self.parts.ensures.iter().chain(&self.parts.cost).any(|c| c.vars.contains(&p.name))
        })
    }

    fn clauses(&self) -> impl Iterator<Item = &Clause> {
        self.parts.requires.iter().chain(&self.parts.ensures).chain(&self.parts.cost)
    }

    /// The expression that builds the contract (the wrapper and the tests
    /// build it the same way).
    fn new_contract(&self) -> TokenStream {
        let c = quote!(::speccheck::__private::contract);
        let name = self.display_name();
        let pairs = |cs: &[Clause]| {
            let items = cs.iter().map(|c| {
                let (w, s) = (&c.written, &c.source);
                quote!((#w, #s))
            });
            quote!(&[#(#items),*])
        };
        let (req, ens) = (pairs(&self.parts.requires), pairs(&self.parts.ensures));
        let cost = match &self.parts.cost {
            Some(c) => {
                let (w, s) = (&c.written, &c.source);
                quote!(::core::option::Option::Some((#w, #s)))
            }
            None => quote!(::core::option::Option::None),
        };
        let within = match &self.parts.within {
            Some(ms) => quote!(::core::option::Option::Some(#ms)),
            None => quote!(::core::option::Option::None),
        };
        let no_panic = self.parts.no_panic;
        let mutated = self.params.iter().filter(|p| p.by == By::RefMut).map(|p| &p.name);
        let pure = self.parts.pure.is_some().then(|| quote!(.pure()));
        let params = self.params.iter().map(|p| &p.name);
        let scalar = match &self.sig.output {
            syn::ReturnType::Type(_, t) if matches!(Sort::of_type(t), Sort::Int | Sort::Bool) => {
                Some(quote!(.scalar_result()))
            }
            _ => None,
        };
        quote! {
            #c::Contract::new(#name, #req, #ens, #cost, #no_panic, #within)
                .map(|__sc_c| __sc_c.mutated(&[#(#mutated),*]).params(&[#(#params),*]) #scalar #pure)
                .unwrap_or_else(|e| ::core::panic!("contract of `{}`: {e}", #name))
        }
    }

    /// The contract with what the classifier may read of the body. Only
    /// debug builds read it: there arithmetic that overflows panics, so a
    /// call that returns computed what the spec's integers compute.
    fn classified_contract(&self) -> TokenStream {
        let new_contract = self.new_contract();
        let with_body = match &self.body {
            Ok(s) => {
                let lets = s.lets.iter().map(|(n, v)| quote!((#n, #v)));
                let tail = match &s.tail {
                    Some(t) => quote!(::core::option::Option::Some(#t)),
                    None => quote!(::core::option::Option::None),
                };
                let callees = &s.callees;
                quote! {
                    if ::core::cfg!(debug_assertions) {
                        __sc_c.body(::core::module_path!(), &[#(#lets),*], #tail, &[#(#callees),*])
                    } else {
                        __sc_c.body_unread("a release build: its arithmetic may wrap")
                    }
                }
            }
            Err(why) => quote!(__sc_c.body_unread(#why)),
        };
        quote!({
            let __sc_c = #new_contract;
            #with_body
        })
    }

    /// Registers the contract under the function's path, so callers'
    /// classifications can assume it ([`crate`]'s `callees`).
    /// The items making a call in any clause to anything but a built-in, a
    /// measure or a predicate in scope a compile error at the call.
    fn calls_in_scope(&self) -> TokenStream {
        let p = &self.parts;
        p.requires.iter().chain(&p.ensures).chain(&p.cost).map(|c| crate::spec::calls_in_scope(&c.tokens)).collect()
    }

    fn registration(&self) -> TokenStream {
        let c = quote!(::speccheck::__private::contract);
        let spec = quote!(::speccheck::__private::spec);
        let ident = &self.sig.ident;
        let path = match self.owner {
            Some(o) => {
                let q = o.qualified();
                quote!(#q::#ident)
            }
            None => quote!(#ident),
        };
        let new_contract = self.new_contract();
        quote! {
            #spec::inventory::submit! {
                #c::callees::Registered {
                    path: || ::core::any::type_name_of_val(&#path),
                    contract: || #new_contract,
                }
            }
        }
    }
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

/// Reads and checks a contract on `sig`.
fn read<'a>(
    args: TokenStream,
    sig: &'a Signature,
    block: &syn::Block,
    owner: Option<&'a Owner>,
) -> syn::Result<Contracted<'a>> {
    let parts = parts::parse(args)?;
    if !sig.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(&sig.generics, "a contract needs a function without generics"));
    }
    if let Some(a) = &sig.asyncness {
        return Err(syn::Error::new_spanned(a, "contracts on async functions are not supported"));
    }
    if let Some(c) = &sig.constness {
        return Err(syn::Error::new_spanned(c, "contracts are checked at run time: not on a `const fn`"));
    }
    let params = sig.inputs.iter().map(|i| params::param(i, owner)).collect::<syn::Result<Vec<_>>>()?;
    let names: Vec<String> = params.iter().map(|p| p.name.clone()).collect();
    if names.iter().any(|n| n == "result" || n == "steps") {
        return Err(syn::Error::new_spanned(
            &sig.inputs,
            "`result` and `steps` name the function's result and its cost in a contract: rename the argument",
        ));
    }
    if let Some(span) = parts.pure
        && !params.first().is_some_and(|p| p.receiver && p.by != By::Value)
    {
        return Err(syn::Error::new(
            span,
            "`pure` says a method leaves its receiver unchanged: it needs `&self` or `&mut self`",
        ));
    }
    // Sorts: a definite mistake (`x && 3`, `len(n)` of an integer) is a
    // compile error at it, not a broken contract at run time.
    let mut sorts: Vec<(String, Sort)> = params.iter().map(|p| (p.name.clone(), Sort::of_type(&p.owned))).collect();
    if let syn::ReturnType::Type(_, t) = &sig.output {
        sorts.push(("result".into(), Sort::of_type(t)));
    }
    sorts.push(("steps".into(), Sort::Int));
    for c in parts.requires.iter().chain(&parts.ensures).chain(&parts.cost) {
        speccheck_spec::check_sorts(c.tokens.clone(), &sorts).map_err(crate::spec::spec_error)?;
    }
    // Each conjunct of a `requires` clause refines the last argument it
    // mentions, so a generated argument is filtered as soon as it is made
    // (`valid(xs) && valid(ys)` filters `xs`, then `ys`).
    let conjuncts: Vec<Clause> = parts.requires.iter().flat_map(parts::conjuncts).collect::<syn::Result<_>>()?;
    let mut refine = vec![Vec::new(); params.len()];
    for (k, c) in conjuncts.iter().enumerate() {
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
        slot.push(k);
    }
    for c in &parts.ensures {
        only_mentions(c, "ensures", &names, &["result"])?;
    }
    if let Some(c) = &parts.cost {
        only_mentions(c, "cost", &names, &["result", "steps"])?;
    }
    for ex in &parts.examples {
        for (id, _) in &ex.args {
            if !names.contains(&id.to_string()) {
                return Err(syn::Error::new_spanned(id, format!("`{id}` is not an argument")));
            }
        }
        if let Some(missing) = names.iter().find(|n| !ex.args.iter().any(|(id, _)| id == *n)) {
            return Err(syn::Error::new_spanned(&ex.tokens, format!("the example does not give `{missing}`")));
        }
    }
    let body = body::summarize(sig, block, &params, owner);
    Ok(Contracted { parts, params, sig, owner, refine, conjuncts, body })
}

/// `#[contract(...)]` on a free function.
pub fn expand(args: TokenStream, item: ItemFn) -> syn::Result<TokenStream> {
    let contracted = read(args, &item.sig, &item.block, None)?;
    let wrapped = wrap::wrapper(&contracted, &item.attrs, &item.vis, &item.block);
    let tests = tests::tests(&contracted);
    let registration = contracted.registration();
    let calls = contracted.calls_in_scope();
    Ok(quote!(#wrapped #registration #tests #calls))
}

/// Whether an attribute is `#[contract(..)]` (or `#[speccheck::contract(..)]`).
fn is_contract(a: &Attribute) -> bool {
    a.path().segments.last().is_some_and(|s| s.ident == "contract")
}

/// `#[contracts]` on an impl block, inherent or of a trait: each method
/// marked `#[contract(...)]` is wrapped in place (its body moves to a
/// hidden method the wrapper calls, or in a trait impl to a closure, so the
/// receiver can be read after the call), and its tests are emitted after
/// the block.
pub fn expand_impl(args: TokenStream, mut item: ItemImpl) -> syn::Result<TokenStream> {
    if !args.is_empty() {
        return Err(syn::Error::new_spanned(
            args,
            "`#[contracts]` takes no arguments: the contracts are on the methods",
        ));
    }
    if !item.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(&item.generics, "contracts need an impl block without generics"));
    }
    let owner = Owner::new(&item.self_ty, item.trait_.as_ref().map(|(_, path, _)| path))?;
    let mut items = Vec::new();
    let mut tests = Vec::new();
    for it in std::mem::take(&mut item.items) {
        let ImplItem::Fn(mut f) = it else {
            items.push(it);
            continue;
        };
        let (contract, attrs): (Vec<Attribute>, Vec<Attribute>) = f.attrs.drain(..).partition(is_contract);
        f.attrs = attrs;
        let Some(attr) = contract.first() else {
            items.push(ImplItem::Fn(f));
            continue;
        };
        if let Some(second) = contract.get(1) {
            return Err(syn::Error::new_spanned(second, "one `#[contract(...)]` per method"));
        }
        let args = match &attr.meta {
            syn::Meta::Path(_) => TokenStream::new(),
            meta => meta.require_list()?.tokens.clone(),
        };
        let contracted = read(args, &f.sig, &f.block, Some(&owner))?;
        // A trait impl cannot hold the hidden method: there the wrapper
        // runs the body as a closure ([`wrap`]).
        if owner.trait_.is_none() {
            let hidden = hidden_name(&f.sig.ident);
            let mut hidden_sig = f.sig.clone();
            hidden_sig.ident = hidden.clone();
            let block = &f.block;
            items.push(ImplItem::Verbatim(quote! {
                #[doc(hidden)]
                #[inline]
                #[allow(clippy::too_many_arguments)]
                #hidden_sig #block
            }));
        }
        items.push(ImplItem::Verbatim(wrap::wrapper(&contracted, &f.attrs, &f.vis, &f.block)));
        tests.push(tests::tests(&contracted));
        tests.push(contracted.registration());
        tests.push(contracted.calls_in_scope());
    }
    item.items = items;
    Ok(quote!(#item #(#tests)*))
}

/// The hidden method a contracted method's body moves to.
fn hidden_name(method: &syn::Ident) -> syn::Ident {
    format_ident!("__speccheck_unchecked_{}", method)
}
