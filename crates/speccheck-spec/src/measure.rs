//! Measures: functions over data that specs may call and the solver may
//! unfold (Liquid Haskell's and Target's `measure`).
//!
//! A measure is an ordinary Rust function marked `#[measure]`: its first
//! parameter is the data it measures and its body is either one `match`
//! on that parameter, an arm per constructor, whose arm bodies are spec
//! expressions over the constructor's fields (recursion on the fields is
//! what makes it structural), or a single spec expression. Further
//! parameters are allowed (Target allowed only one). The macro keeps the
//! function as written and records its source; [`Measures`] reads it back.

use crate::intern::{intern, interned};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::{Arc, OnceLock};

use crate::ast::{Callee, Expr};
use crate::parse::{Located, ParseError, convert};
use crate::ty::DataDef;

/// A measure's source, registered by `#[measure]`.
#[derive(Debug)]
pub struct MeasureSource {
    /// The function's name.
    pub name: &'static str,
    /// `module_path!()` where it is defined.
    pub module: &'static str,
    /// The function's source text.
    pub source: &'static str,
}

inventory::collect!(MeasureSource);

/// A constructor pattern in a measure's `match`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pat {
    /// `_` or a binding: every constructor.
    Wild,
    /// `Ctor`, `Ctor(a, _)`, `Ctor { f, g: x, .. }`.
    Ctor {
        /// The constructor's name (the path's last segment).
        name: String,
        /// Positional bindings (`None` for `_`).
        positional: Vec<Option<String>>,
        /// Named bindings: field and variable.
        named: Vec<(String, String)>,
    },
    /// `A | B`.
    Or(Vec<Pat>),
}

impl Pat {
    /// Whether the pattern matches constructor `ctor`.
    pub fn matches(&self, ctor: &str) -> bool {
        match self {
            Pat::Wild => true,
            Pat::Ctor { name, .. } => name == ctor,
            Pat::Or(ps) => ps.iter().any(|p| p.matches(ctor)),
        }
    }

    /// The variables bound to the fields of constructor `ctor` of `def`:
    /// (variable, field index).
    pub fn bindings(&self, def: &DataDef, ctor: usize) -> Vec<(String, usize)> {
        match self {
            Pat::Ctor { positional, named, .. } => {
                let c = &def.ctors[ctor];
                let mut out: Vec<(String, usize)> =
                    positional.iter().enumerate().filter_map(|(i, v)| Some((v.clone()?, i))).collect();
                for (field, var) in named {
                    if let Some(i) = c.fields.iter().position(|f| &f.name == field) {
                        out.push((var.clone(), i));
                    }
                }
                out
            }
            Pat::Wild | Pat::Or(_) => Vec::new(),
        }
    }
}

/// One arm of a measure's `match`.
#[derive(Clone, Debug)]
pub struct Arm {
    /// The pattern.
    pub pat: Pat,
    /// The arm's value.
    pub body: Expr,
}

/// A measure's body.
#[derive(Clone, Debug)]
pub enum Body {
    /// `match first_param { arms }`.
    Match(Vec<Arm>),
    /// One expression (a measure defined from others).
    Expr(Expr),
}

/// A parsed measure.
#[derive(Clone, Debug)]
pub struct Measure {
    /// Its name.
    pub name: String,
    /// Parameter names, the measured data first.
    pub params: Vec<String>,
    /// Parameter types, as written.
    pub param_types: Vec<String>,
    /// The result type, as written.
    pub result_type: String,
    /// The body.
    pub body: Body,
    /// The names it binds, kept once for the process (see [`Names`]).
    names: Names,
}

/// A measure's parameter and pattern variable names as the evaluator binds
/// them: kept for the process's life (see [`crate::intern`]), so that a
/// call neither allocates a name nor counts references to one.
#[derive(Clone, Debug, Default)]
pub(crate) struct Names {
    pub(crate) params: Vec<&'static str>,
    /// Which parameters an expression body reads (see [`ArmNames::uses`]).
    pub(crate) uses: Box<[bool]>,
    /// Per arm (of a `match` body): positional variables, then named
    /// fields with their variables.
    pub(crate) arms: Vec<ArmNames>,
    /// The arm each constructor takes, for the type first matched on (by
    /// its address): found once, not by comparing constructor names on
    /// every call.
    arm_of: OnceLock<(usize, Box<[Option<usize>]>)>,
}

/// The variables one arm binds.
#[derive(Clone, Debug, Default)]
pub(crate) struct ArmNames {
    /// Which parameters the arm reads: only those are bound (the data
    /// matched on is rarely read again, and a name in scope is one more
    /// entry every lookup passes).
    pub(crate) uses: Box<[bool]>,
    /// The variables the arm reads (one it does not read is not bound).
    pub(crate) positional: Vec<Option<&'static str>>,
    pub(crate) named: Vec<(String, &'static str)>,
    /// Where each named field is in the constructor first matched (by the
    /// type's address and the constructor): found once, not by name on
    /// every call.
    first_indices: OnceLock<FieldIndices>,
}

/// A type's address, a constructor, and the index there of each named
/// field of an arm.
type FieldIndices = (usize, usize, Box<[Option<usize>]>);

impl ArmNames {
    /// The index of each named field in constructor `ctor` of `def`
    /// (`None` for a name it does not have).
    pub(crate) fn field_indices(&self, def: &'static DataDef, ctor: usize) -> std::borrow::Cow<'_, [Option<usize>]> {
        let find = || -> Box<[Option<usize>]> {
            let c = &def.ctors[ctor];
            self.named.iter().map(|(field, _)| c.fields.iter().position(|f| &f.name == field)).collect()
        };
        let id = std::ptr::from_ref(def) as usize;
        let (d, k, at) = self.first_indices.get_or_init(|| (id, ctor, find()));
        if (*d, *k) == (id, ctor) { std::borrow::Cow::Borrowed(at) } else { std::borrow::Cow::Owned(find().into()) }
    }
}

impl Names {
    fn of(params: &[String], body: &Body) -> Names {
        let uses = |e: &Expr| -> (Vec<String>, Box<[bool]>) {
            let free = e.free_vars();
            let used = params.iter().map(|p| free.contains(p)).collect();
            (free, used)
        };
        let (arms, body_uses) = match body {
            Body::Match(arms) => {
                let arms = arms
                    .iter()
                    .map(|a| {
                        let (free, used) = uses(&a.body);
                        let read = |v: &String| free.contains(v);
                        match &a.pat {
                            Pat::Ctor { positional, named, .. } => ArmNames {
                                uses: used,
                                positional: positional
                                    .iter()
                                    .map(|v| v.as_ref().filter(|v| read(v)).map(|v| intern(v)))
                                    .collect(),
                                named: named
                                    .iter()
                                    .filter(|(_, v)| read(v))
                                    .map(|(f, v)| (f.clone(), intern(v)))
                                    .collect(),
                                first_indices: OnceLock::new(),
                            },
                            Pat::Wild | Pat::Or(_) => ArmNames { uses: used, ..ArmNames::default() },
                        }
                    })
                    .collect();
                (arms, Box::default())
            }
            Body::Expr(e) => (Vec::new(), uses(e).1),
        };
        Names { params: params.iter().map(|p| intern(p)).collect(), uses: body_uses, arms, arm_of: OnceLock::new() }
    }
}

impl Measure {
    /// Parses a measure from its function's source.
    pub fn parse(source: &str) -> Result<Measure, ParseError> {
        let bad = |e: String| ParseError { message: format!("not a function ({e})"), construct: source.to_string() };
        let tokens: proc_macro2::TokenStream = source.parse().map_err(|e: proc_macro2::LexError| bad(e.to_string()))?;
        let item: syn::ItemFn = syn::parse2(crate::parse::desugar_implies(tokens)).map_err(|e| bad(e.to_string()))?;
        Ok(Measure::from_item(&item)?)
    }

    /// Reads a measure from a parsed function (what `#[measure]` does).
    pub fn from_item(item: &syn::ItemFn) -> Result<Measure, Located> {
        use quote::ToTokens;
        let name = item.sig.ident.to_string();
        let mut params = Vec::new();
        let mut param_types = Vec::new();
        for input in &item.sig.inputs {
            let syn::FnArg::Typed(t) = input else {
                return Err(at(input, "a measure is a free function, not a method"));
            };
            let syn::Pat::Ident(id) = &*t.pat else {
                return Err(at(&t.pat, "a measure's parameters must be plain names"));
            };
            params.push(id.ident.to_string());
            let ty = match &*t.ty {
                syn::Type::Reference(r) => r.elem.to_token_stream().to_string(),
                other => other.to_token_stream().to_string(),
            };
            param_types.push(ty.replace(' ', ""));
        }
        if params.is_empty() {
            return Err(at(&item.sig, "a measure takes the data it measures as its first parameter"));
        }
        let result_type = match &item.sig.output {
            syn::ReturnType::Type(_, t) => t.to_token_stream().to_string().replace(' ', ""),
            syn::ReturnType::Default => return Err(at(&item.sig, "a measure returns a value")),
        };
        let expr = match item.block.stmts.as_slice() {
            [syn::Stmt::Expr(e, None)] => e,
            _ => return Err(at(&item.block, "a measure's body is one expression (a `match` or a spec)")),
        };
        let body = match expr {
            syn::Expr::Match(m) => {
                let scrutinee = crate::parse::convert(strip_refs(&m.expr))?;
                if scrutinee != Expr::Var(params[0].clone()) {
                    return Err(at(&m.expr, "a measure matches on its first parameter"));
                }
                if let Some(arm) = m.arms.iter().find(|a| a.guard.is_some()) {
                    return Err(at(arm, "match guards are not allowed in measures"));
                }
                if m.arms.iter().any(|a| nests(&a.pat)) {
                    Body::Match(flatten(&m.arms, &params[0])?)
                } else {
                    let mut arms = Vec::new();
                    for arm in &m.arms {
                        arms.push(Arm { pat: pattern(&arm.pat)?, body: convert(&arm.body)? });
                    }
                    Body::Match(arms)
                }
            }
            other => Body::Expr(convert(other)?),
        };
        let names = Names::of(&params, &body);
        Ok(Measure { name, params, param_types, result_type, body, names })
    }

    /// The names the evaluator binds.
    pub(crate) fn names(&self) -> &Names {
        &self.names
    }

    /// The index of the arm of a `match` body taken for constructor `ctor`.
    pub(crate) fn arm_index(&self, def: &'static DataDef, ctor: usize) -> Option<usize> {
        let Body::Match(arms) = &self.body else { return None };
        let find = |c: usize| arms.iter().position(|a| a.pat.matches(&def.ctors[c].name));
        let id = std::ptr::from_ref(def) as usize;
        let (d, at) = self.names.arm_of.get_or_init(|| (id, (0..def.ctors.len()).map(find).collect()));
        if *d == id { at.get(ctor).copied().flatten() } else { find(ctor) }
    }

    /// The arm for constructor `ctor` of `def`, with its bindings.
    pub fn arm(&self, def: &DataDef, ctor: usize) -> Option<(&Expr, Vec<(String, usize)>)> {
        match &self.body {
            Body::Match(arms) => {
                let name = &def.ctors[ctor].name;
                let arm = arms.iter().find(|a| a.pat.matches(name))?;
                Some((&arm.body, arm.pat.bindings(def, ctor)))
            }
            Body::Expr(_) => None,
        }
    }
}

fn strip_refs(e: &syn::Expr) -> &syn::Expr {
    match e {
        syn::Expr::Reference(r) => strip_refs(&r.expr),
        syn::Expr::Unary(syn::ExprUnary { op: syn::UnOp::Deref(_), expr, .. }) => strip_refs(expr),
        syn::Expr::Paren(p) => strip_refs(&p.expr),
        other => other,
    }
}

fn at(node: &impl quote::ToTokens, message: &str) -> Located {
    Located::at(node, message)
}

/// Whether a pattern matches a field against more than a name or `_` (a
/// constructor, a literal): a nested pattern.
fn nests(p: &syn::Pat) -> bool {
    use syn::Pat as P;
    match p {
        P::TupleStruct(ts) => !ts.elems.iter().all(flat_field),
        P::Struct(s) => !s.fields.iter().all(|f| flat_field(&f.pat)),
        P::Or(o) => o.cases.iter().any(nests),
        P::Reference(r) => nests(&r.pat),
        P::Paren(p) => nests(&p.pat),
        P::Ident(id) => id.subpat.is_some(),
        _ => false,
    }
}

/// Whether a field's pattern only binds or ignores it (`x`, `_`, `..`,
/// `&x`).
fn flat_field(f: &syn::Pat) -> bool {
    use syn::Pat as P;
    match f {
        P::Wild(_) | P::Rest(_) => true,
        P::Ident(id) => id.subpat.is_none() && !crate::pattern::names_ctor(id),
        P::Reference(r) => flat_field(&r.pat),
        _ => false,
    }
}

/// What a top-level alternative of an arm matches: any constructor (`_`, a
/// name binding the whole value) or one.
enum Top {
    Any,
    Ctor(String),
}

fn top(p: &syn::Pat) -> Result<Top, Located> {
    use syn::Pat as P;
    Ok(match p {
        P::Wild(_) => Top::Any,
        P::Ident(id) if !crate::pattern::names_ctor(id) && id.subpat.is_none() => Top::Any,
        P::Ident(id) if crate::pattern::names_ctor(id) => Top::Ctor(id.ident.to_string()),
        P::Path(path) => Top::Ctor(crate::pattern::last(&path.path)),
        P::TupleStruct(ts) => Top::Ctor(crate::pattern::last(&ts.path)),
        P::Struct(s) => Top::Ctor(crate::pattern::last(&s.path)),
        P::Reference(r) => top(&r.pat)?,
        P::Paren(p) => top(&p.pat)?,
        other => return Err(at(other, "not a constructor pattern")),
    })
}

/// Arms with nested patterns as flat ones: one arm per constructor named
/// at the top (and one for the rest, if an arm takes any), whose body
/// tries the arms that can match that constructor in order —
/// `if tests₁ { body₁ } else if tests₂ { body₂ } … else bodyₙ` — where
/// the tests read the nested parts through field accesses on the measure's
/// parameter, and each bound name stands for its field path. The last arm
/// that can match is taken without its tests: rustc checked the `match`
/// exhaustive, so it matches when none before it did.
fn flatten(arms: &[syn::Arm], param: &str) -> Result<Vec<Arm>, Located> {
    // Each arm: its alternatives, each with what it matches at the top and
    // the tests below the top and the names it binds.
    let mut read = Vec::new();
    let mut ctors: Vec<String> = Vec::new();
    for arm in arms {
        let cases: Vec<&syn::Pat> = match &arm.pat {
            syn::Pat::Or(o) => o.cases.iter().collect(),
            p => vec![p],
        };
        let mut alts = Vec::new();
        for case in cases {
            let t = top(case)?;
            let mut m = crate::pattern::matching(case, Expr::Var(param.to_string()))?;
            if let Top::Ctor(name) = &t {
                // The constructor test comes first: the flat arm makes it.
                m.tests.remove(0);
                if !ctors.contains(name) {
                    ctors.push(name.clone());
                }
            }
            if !m.binds.is_empty() && matches!(&arm.pat, syn::Pat::Or(_)) {
                return Err(at(case, "an alternative (`|`) that binds a name is not in the spec language"));
            }
            alts.push((t, m));
        }
        read.push((alts, convert(&arm.body)?));
    }
    // The arm body for a constructor (`None`: any other one).
    let chain = |ctor: Option<&str>| -> Option<Expr> {
        let mut tries: Vec<(Expr, Expr)> = Vec::new();
        for (alts, body) in &read {
            let fitting: Vec<&crate::pattern::Match> = alts
                .iter()
                .filter(|(t, _)| match (t, ctor) {
                    (Top::Any, _) => true,
                    (Top::Ctor(c), Some(k)) => c == k,
                    (Top::Ctor(_), None) => false,
                })
                .map(|(_, m)| m)
                .collect();
            let Some(first) = fitting.first() else { continue };
            let test = fitting.iter().map(|m| m.test()).reduce(|a, b| Expr::bin(crate::ast::BinOp::Or, a, b));
            // All names at once (a bound name may be the parameter's own:
            // `Cons(h, l)` in a measure of `l`), through placeholders no
            // spec can write.
            let hold = |i: usize| Expr::Var(format!("#{i}"));
            let body = first.binds.iter().enumerate().fold(body.clone(), |b, (i, (name, _))| b.subst(name, &hold(i)));
            let body = first.binds.iter().enumerate().fold(body, |b, (i, (_, with))| b.subst(&format!("#{i}"), with));
            let test = test.unwrap_or(Expr::Bool(true));
            let certain = test == Expr::Bool(true);
            tries.push((test, body));
            if certain {
                break;
            }
        }
        let (_, last) = tries.pop()?;
        Some(
            tries
                .into_iter()
                .rev()
                .fold(last, |rest, (test, body)| Expr::If(Box::new(test), Box::new(body), Box::new(rest))),
        )
    };
    let mut out = Vec::new();
    for c in &ctors {
        if let Some(body) = chain(Some(c)) {
            out.push(Arm { pat: Pat::Ctor { name: c.clone(), positional: Vec::new(), named: Vec::new() }, body });
        }
    }
    if let Some(body) = chain(None) {
        out.push(Arm { pat: Pat::Wild, body });
    }
    Ok(out)
}

fn binder(p: &syn::Pat) -> Result<Option<String>, Located> {
    match p {
        syn::Pat::Ident(id) if id.subpat.is_none() => Ok(Some(id.ident.to_string())),
        syn::Pat::Wild(_) => Ok(None),
        syn::Pat::Reference(r) => binder(&r.pat),
        _ => Err(at(p, "a field pattern in a measure must be a name or `_` (nested patterns are not supported)")),
    }
}

fn pattern(p: &syn::Pat) -> Result<Pat, Located> {
    use crate::pattern::last;
    Ok(match p {
        syn::Pat::Wild(_) => Pat::Wild,
        syn::Pat::Ident(id) if id.subpat.is_none() && id.ident.to_string().starts_with(char::is_lowercase) => Pat::Wild,
        syn::Pat::Ident(id) => Pat::Ctor { name: id.ident.to_string(), positional: vec![], named: vec![] },
        syn::Pat::Path(path) => Pat::Ctor { name: last(&path.path), positional: vec![], named: vec![] },
        syn::Pat::TupleStruct(ts) => Pat::Ctor {
            name: last(&ts.path),
            positional: ts.elems.iter().map(binder).collect::<Result<_, _>>()?,
            named: vec![],
        },
        syn::Pat::Struct(s) => {
            let mut named = Vec::new();
            for f in &s.fields {
                let field = match &f.member {
                    syn::Member::Named(n) => n.to_string(),
                    syn::Member::Unnamed(i) => i.index.to_string(),
                };
                if let Some(var) = binder(&f.pat)? {
                    named.push((field, var));
                }
            }
            Pat::Ctor { name: last(&s.path), positional: vec![], named }
        }
        syn::Pat::Or(o) => Pat::Or(o.cases.iter().map(pattern).collect::<Result<_, _>>()?),
        syn::Pat::Reference(r) => pattern(&r.pat)?,
        _ => return Err(at(p, "not a constructor pattern")),
    })
}

/// The measures a spec can call, by name.
#[derive(Clone, Debug, Default)]
pub struct Measures {
    /// Looked up at every measure call: by the address of the name, kept
    /// once per process (see [`Callee`]).
    by_name: HashMap<NameKey, Result<Arc<Measure>, ParseError>, BuildHasherDefault<crate::eval::IdHasher>>,
}

/// A name kept once per process, hashed and compared by its address.
#[derive(Clone, Copy)]
struct NameKey(&'static str);

impl std::fmt::Debug for NameKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.0, f)
    }
}

impl NameKey {
    fn of(name: &str) -> Self {
        NameKey(intern(name))
    }
}

impl PartialEq for NameKey {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for NameKey {}

impl std::hash::Hash for NameKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_usize(self.0.as_ptr() as usize);
    }
}

impl Measures {
    /// No measures.
    pub fn new() -> Self {
        Measures::default()
    }

    /// Every measure registered with `#[measure]` in the program.
    pub fn global() -> &'static Measures {
        static GLOBAL: OnceLock<Measures> = OnceLock::new();
        GLOBAL.get_or_init(|| {
            let mut m = Measures::new();
            let mut modules: HashMap<&str, &str> = HashMap::new();
            for src in inventory::iter::<MeasureSource> {
                let parsed = match modules.insert(src.name, src.module) {
                    // Two measures of one name: a spec naming it must not
                    // silently get either.
                    Some(other) => Err(ParseError {
                        message: format!("two measures are named `{}` (in `{other}` and `{}`)", src.name, src.module),
                        construct: src.name.to_string(),
                    }),
                    None => Measure::parse(src.source).map(Arc::new),
                };
                m.by_name.insert(NameKey::of(src.name), parsed);
            }
            m
        })
    }

    /// Adds a measure from its source (tests and programmatic specs).
    pub fn with(mut self, source: &str) -> Result<Self, ParseError> {
        let m = Measure::parse(source)?;
        self.by_name.insert(NameKey::of(&m.name), Ok(Arc::new(m)));
        Ok(self)
    }

    /// The measure called `name`: `None` when there is none; an error
    /// when its source did not parse.
    pub fn get(&self, name: &str) -> Option<Result<Arc<Measure>, ParseError>> {
        // Every measure's name is kept (the registered ones once the
        // table of them is built): a name that is not names none.
        Measures::global();
        self.find_kept(interned(name)?).cloned()
    }

    /// [`Measures::get`] without a copy, for a callee (the evaluator looks
    /// a measure up at every call).
    pub(crate) fn find(&self, f: Callee) -> Option<&Result<Arc<Measure>, ParseError>> {
        self.find_kept(f.as_str())
    }

    /// The measure of a name as kept (see [`NameKey`]).
    fn find_kept(&self, name: &'static str) -> Option<&Result<Arc<Measure>, ParseError>> {
        let key = NameKey(name);
        self.by_name.get(&key).or_else(|| {
            // Programmatic tables also see the registered measures.
            let g = Measures::global();
            if std::ptr::eq(self, g) { None } else { g.by_name.get(&key) }
        })
    }
}
