//! Rust patterns read as spec expressions: `matches!(x, Node { left: Leaf,
//! .. })` in a spec, and nested patterns in a measure's arms, become a
//! test — constructor tests ([`Expr::is_ctor`]) and equalities on the
//! value's fields, tested outside in — and the variables the pattern binds,
//! each as the field path it names. No engine sees a pattern: the
//! evaluator, the lazy enumeration and the solver each need only the
//! constructor test.

use crate::ast::{BinOp, Expr};
use crate::parse::{Located, convert};

/// What matching a pattern against a value says.
#[derive(Clone, Debug, Default)]
pub struct Match {
    /// The conditions under which the value matches, outside in (the
    /// constructor test of a node before any test of its fields, so that a
    /// field is read only on the constructor that has it).
    pub tests: Vec<Expr>,
    /// The variables bound, each with the expression it stands for.
    pub binds: Vec<(String, Expr)>,
}

impl Match {
    /// The conjunction of the tests (`true` when there is none).
    pub fn test(&self) -> Expr {
        Expr::all(self.tests.iter().cloned())
    }
}

/// Matches `pat` against the value `at` stands for.
pub fn matching(pat: &syn::Pat, at: Expr) -> Result<Match, Located> {
    let mut m = Match::default();
    walk(pat, at, &mut m)?;
    Ok(m)
}

/// The last segment of a constructor's path (`List::Cons` is `Cons`).
pub(crate) fn last(path: &syn::Path) -> String {
    path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default()
}

/// Whether an identifier pattern names a constructor (`Nil`) rather than
/// binding a variable (`tail`): Rust's convention, as rustc's lint has it.
pub(crate) fn names_ctor(id: &syn::PatIdent) -> bool {
    id.subpat.is_none() && id.ident.to_string().starts_with(char::is_uppercase)
}

fn walk(pat: &syn::Pat, at: Expr, m: &mut Match) -> Result<(), Located> {
    use syn::Pat as P;
    match pat {
        P::Wild(_) | P::Rest(_) => {}
        P::Ident(id) if names_ctor(id) => m.tests.push(Expr::is_ctor(at, &id.ident.to_string())),
        P::Ident(id) => {
            if let Some((_, sub)) = &id.subpat {
                walk(sub, at.clone(), m)?;
            }
            m.binds.push((id.ident.to_string(), at));
        }
        P::Path(p) => m.tests.push(Expr::is_ctor(at, &last(&p.path))),
        P::TupleStruct(ts) => {
            m.tests.push(Expr::is_ctor(at.clone(), &last(&ts.path)));
            for (i, sub) in ts.elems.iter().enumerate() {
                if matches!(sub, P::Rest(_)) {
                    // `Ctor(a, ..)`: the fields after it are not matched.
                    break;
                }
                walk(sub, Expr::Field(Box::new(at.clone()), i.to_string()), m)?;
            }
        }
        P::Struct(s) => {
            m.tests.push(Expr::is_ctor(at.clone(), &last(&s.path)));
            for f in &s.fields {
                let field = match &f.member {
                    syn::Member::Named(n) => n.to_string(),
                    syn::Member::Unnamed(i) => i.index.to_string(),
                };
                walk(&f.pat, Expr::Field(Box::new(at.clone()), field), m)?;
            }
        }
        P::Tuple(t) => {
            for (i, sub) in t.elems.iter().enumerate() {
                walk(sub, Expr::Field(Box::new(at.clone()), i.to_string()), m)?;
            }
        }
        P::Lit(l) => {
            let lit = convert(&syn::Expr::Lit(l.clone()))?;
            m.tests.push(Expr::bin(BinOp::Eq, at, lit));
        }
        P::Reference(r) => walk(&r.pat, at, m)?,
        P::Paren(p) => walk(&p.pat, at, m)?,
        P::Or(o) => {
            // Each alternative's test; the bindings are the first's (Rust
            // makes every alternative bind the same names), which is only
            // right when the alternatives bind nothing or bind alike, so
            // alternatives that bind are refused.
            let mut alternatives = Vec::new();
            for case in &o.cases {
                let sub = matching(case, at.clone())?;
                if !sub.binds.is_empty() {
                    return Err(Located::at(
                        case,
                        "an alternative (`|`) that binds a name is not in the spec language",
                    ));
                }
                alternatives.push(sub.test());
            }
            let any = alternatives.into_iter().reduce(|a, b| Expr::bin(BinOp::Or, a, b));
            m.tests.push(any.unwrap_or(Expr::Bool(false)));
        }
        other => return Err(Located::at(other, "this pattern is not in the spec language")),
    }
    Ok(())
}

/// Reads `matches!(expr, pattern)`.
pub(crate) fn matches_macro(mac: &syn::Macro) -> Result<Expr, Located> {
    struct Args(syn::Expr, syn::Pat);
    impl syn::parse::Parse for Args {
        fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
            let e = input.parse()?;
            input.parse::<syn::Token![,]>()?;
            let p = syn::Pat::parse_multi(input)?;
            if input.peek(syn::Token![if]) {
                return Err(input.error("a guard (`if`) in `matches!` is not in the spec language"));
            }
            let _ = input.parse::<Option<syn::Token![,]>>()?;
            Ok(Args(e, p))
        }
    }
    let Args(e, p) =
        mac.parse_body().map_err(|err| Located::at(mac, format!("expected `matches!(value, pattern)` ({err})")))?;
    Ok(matching(&p, convert(&e)?)?.test())
}
