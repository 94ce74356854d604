//! Macros for speccheck.
//!
//! * `#[derive(Arbitrary)]` — one derive that gives a type everything the
//!   engines need: generation from choices (sized, depth-bounded for
//!   recursive types), encoding back into choices, the tree view
//!   (SmartCheck's `SubTypes`: constructor, constructors, children,
//!   replace a child, size, opaque leaves) and printing as Rust syntax.
//!   Exhaustive enumeration comes for free from the choices
//!   (`speccheck::enumerate`).
//! * `#[property]` — turns a function with typed arguments into a `#[test]`.
//! * `fuzz_target!(path)` — the same property as a libFuzzer target.

mod attrs;
#[cfg(feature = "spec")]
mod contract;
mod derive;
mod fuzz;
#[cfg(feature = "interface")]
mod interface;
#[cfg(feature = "spec")]
mod predicate;
mod property;
#[cfg(feature = "spec")]
mod spec;
#[cfg(feature = "spec")]
mod targetable;

use proc_macro::TokenStream;

/// The error for a spec attribute or macro used without the feature that
/// parses specs: names what to turn on, at the user's tokens.
#[cfg_attr(feature = "spec", allow(dead_code))]
pub(crate) fn needs_spec(at: impl quote::ToTokens, what: &str) -> syn::Error {
    syn::Error::new_spanned(
        at,
        format!(
            "{what} needs speccheck's spec language: turn on the `target` feature (refinements, strategies, \
             measures, predicates, `Targetable`) or the `contracts` feature (`#[contract]`) of `speccheck`"
        ),
    )
}

/// `$body` with the `spec` feature, else the error [`needs_spec`] gives at
/// `$at`.
macro_rules! with_spec {
    ($at:expr, $what:expr, $body:expr) => {{
        #[cfg(feature = "spec")]
        let out = $body;
        #[cfg(not(feature = "spec"))]
        let out = Err::<proc_macro2::TokenStream, _>(needs_spec($at, $what));
        out
    }};
}

/// Derives `Arbitrary` and `TreeView`.
///
/// Type attributes: `#[speccheck(opaque)]` (a leaf for reduction),
/// `#[speccheck(crate = "path")]`.
/// Variant attributes: `#[speccheck(weight = n)]`, `#[speccheck(recursive)]`
/// (for mutual recursion the macro cannot see), `#[speccheck(leaf)]`.
/// Field attributes: `#[speccheck(with = expr)]` (a generator),
/// `#[speccheck(range = a..b)]`, `#[speccheck(opaque)]`,
/// `#[speccheck(default)]` (not generated: `Default::default()`).
#[proc_macro_derive(Arbitrary, attributes(speccheck))]
pub fn derive_arbitrary(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    derive::expand(input).unwrap_or_else(syn::Error::into_compile_error).into()
}

/// Derives `Targetable`: the type described to the spec language (its
/// constructors, fields and field refinements), with conversion of its
/// values both ways. `#[refine(spec)]` on a field states what every value
/// of the field satisfies; the spec may name the field and the fields
/// before it (tuple fields as `_0`, `_1`, …).
#[proc_macro_derive(Targetable, attributes(refine, speccheck))]
pub fn derive_targetable(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    with_spec!(&input.ident, "`#[derive(Targetable)]`", targetable::expand(input))
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Marks a function as a *measure*: specs may call it and the solver
/// unfolds it. Its body is one `match` on its first parameter (an arm per
/// constructor, recursing on fields) or one spec expression (Rust syntax:
/// write `!a || b` for an implication there). `#[measure(path::to::speccheck)]`
/// names the crate if renamed.
#[proc_macro_attribute]
#[cfg_attr(not(feature = "spec"), allow(unused_variables))]
pub fn measure(args: TokenStream, item: TokenStream) -> TokenStream {
    let item = proc_macro2::TokenStream::from(item);
    with_spec!(&item, "`#[measure]`", targetable::measure(args.into(), item))
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Marks a Rust function returning `bool` as a *predicate*: specs
/// (refinements, contracts) may call it by name. It runs on complete
/// values, so it checks and filters (a contract's `requires(valid(x))` is
/// its run-time check and the filter of its generated test) but does not
/// guide a search: write a `#[measure]` for that. Its parameters' types
/// (or what `&T`, `&[T]` and `&str` borrow) must be `Targetable`.
/// `#[predicate(path::to::speccheck)]` names the crate if renamed.
#[proc_macro_attribute]
#[cfg_attr(not(feature = "spec"), allow(unused_variables))]
pub fn predicate(args: TokenStream, item: TokenStream) -> TokenStream {
    let item = syn::parse_macro_input!(item as syn::ItemFn);
    with_spec!(&item.sig, "`#[predicate]`", predicate::expand(args.into(), item))
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Turns `fn name(args…) -> impl Verdict` into a `#[test]` that checks it
/// on generated arguments.
///
/// Settings: `cases`, `seed`, `max_size`, `max_depth`, `timeout_ms`,
/// `time_budget_ms`, `shrink`, `shrink_steps`, `shrink_time_ms`,
/// `threads`, `explain = "off" | "reduce" | "generalize"`, `exhaustive =
/// depth` (every input up to the depth instead of random ones),
/// `config = expr`; with the spec language, `strategy = random |
/// exhaustive | lazy | smt | auto | sample`, `depth = d` and, for the
/// enumerating strategies, `min_height = h` (only inputs at least `h`
/// recursive steps tall).
/// Arguments take `#[from(generator)]` to use a custom generator; an
/// argument of type `&mut TestCase` receives the test case (to draw more
/// values as the test goes). Composes with `#[tokio::test]` (and other
/// `…::test` attributes) on `async fn`s.
#[proc_macro_attribute]
pub fn property(args: TokenStream, item: TokenStream) -> TokenStream {
    let item = syn::parse_macro_input!(item as syn::ItemFn);
    property::expand(args.into(), item).unwrap_or_else(syn::Error::into_compile_error).into()
}

/// A `#[property]` as a libFuzzer fuzz target (`cargo fuzz`), through
/// the facade's `fuzz` feature: `speccheck::fuzz_target!(my_crate::p);` in
/// `fuzz/fuzz_targets/p.rs` (a `#![no_main]` file of a crate that depends
/// on `libfuzzer-sys` and on `speccheck` with `fuzz`). The property must
/// be reachable from there (`#[property] pub fn p(…)` in a library). Each
/// fuzzer input is read as the property's choices; a failure is shrunk,
/// explained, reported and saved as its `#[test]` would, then aborts so
/// libFuzzer records the crash.
#[proc_macro]
pub fn fuzz_target(input: TokenStream) -> TokenStream {
    fuzz::expand(input.into()).unwrap_or_else(syn::Error::into_compile_error).into()
}

/// A function's contract in the spec language, and a test of it:
/// `#[contract(requires(spec), ensures(spec), test(settings))]`.
/// `requires` clauses (over the arguments) select the valid inputs;
/// `ensures` clauses (over the arguments, `result`, and for `&mut`
/// arguments their values after the call, with `old(x)` for before) must
/// hold on what the function returns, as must the result type's
/// refinements. The attribute keeps the function as written and adds
/// a `#[property]` test named `<function>_contract` that calls it on valid
/// inputs; `test(...)` takes the property's settings (`strategy = smt`,
/// `depth = 6`, `cases = …`), and `should_panic = "text"` marks a known
/// failure.
#[proc_macro_attribute]
#[cfg_attr(not(feature = "spec"), allow(unused_variables))]
pub fn contract(args: TokenStream, item: TokenStream) -> TokenStream {
    let item = syn::parse_macro_input!(item as syn::ItemFn);
    with_spec!(&item.sig, "`#[contract]`", contract::expand(args.into(), item))
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Contracts on methods: put `#[contracts]` on an inherent impl block and
/// `#[contract(...)]` on its methods. A method's contract may name `self`
/// (the receiver; after the call for `&mut self`, with `old(self)` for
/// before) and say `pure` (the receiver is left unchanged: checked by
/// comparing a clone, so `Self: Clone + PartialEq + Debug`). The generated
/// tests, `<type>_<method>_contract` and the others, are emitted after the
/// block; they generate the receiver like any other argument.
#[proc_macro_attribute]
#[cfg_attr(not(feature = "spec"), allow(unused_variables))]
pub fn contracts(args: TokenStream, item: TokenStream) -> TokenStream {
    let item = syn::parse_macro_input!(item as syn::ItemImpl);
    with_spec!(&item.self_ty, "`#[contracts]`", contract::expand_impl(args.into(), item))
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Describes an API for interface fuzzing (speccheck-interface, after
/// ArtiCheck and Monolith) and evaluates to
/// `Result<speccheck_interface::Api, speccheck_interface::DescribeError>`.
///
/// Items, separated by `;` (see `speccheck_interface` for examples):
/// `name = "…"`, `crate = path` (default `::speccheck_interface`),
/// `abstract Type;`, `ground Type [= generator];` (primitives default to
/// their `Arbitrary` generator), `fresh Type = initial, per_round;`,
/// `pool Type = bound;` (this type's pool bound, overriding the run's),
/// `enum E { A, B(T), C { x: T } }` and `struct S { x: T }` (data types,
/// destructed and built like `Option` and tuples),
/// `impl Type { fn f(&self, x: T) -> R; … }` (methods and associated
/// functions, called as `Type::f`), `fn f(x: T) -> R = path_or_closure;`,
/// `law name(x: &T, y: U) [requires expr] => expr;`, and for reference
/// mode `compare Candidate with Reference by Trait { fn …; }`.
/// Functions take `#[panics]` (a panic is allowed) and, in reference
/// mode, `#[nondeterministic(validator)]`.
#[proc_macro]
pub fn interface(input: TokenStream) -> TokenStream {
    #[cfg(feature = "interface")]
    let out = interface::expand(input.into()).unwrap_or_else(syn::Error::into_compile_error);
    #[cfg(not(feature = "interface"))]
    let out = syn::Error::new_spanned(
        proc_macro2::TokenStream::from(input),
        "`interface!` needs the `interface` feature of `speccheck`",
    )
    .into_compile_error();
    out.into()
}
