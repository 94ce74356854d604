//! Counterexamples as client programs (ArtiCheck §2: the tester is a
//! client of the API, so what it found is a client program).
//!
//! A `Program` is a straight-line sequence of calls whose arguments are
//! earlier results (or parts of them: destructed tuples, variants and
//! container elements), literals of ground types and values built from
//! those; it ends with the law that fails on what it built, or with the
//! call that fails. Slicing (`Program::slice_call`, `Program::slice_law`) extracts the smallest such program
//! from an instance's provenance; `Program::render` writes it as Rust:
//!
//! ```text
//! let s0 = Set::empty();
//! let s1 = s0.insert(3);
//! let (s2, _) = s1.split(1);
//! assert!(s.is_balanced()); // law `balanced`
//! ```

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use crate::describe::pos::Variant;
use crate::describe::{Api, CallStyle, Mode, Shape};
use crate::provenance::{ArgProv, CallNode, Literal, Origin, Step};

/// A reference to a value an earlier statement produced.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum VarRef {
    /// The part at `path` of statement `stmt`'s result.
    Part { stmt: usize, path: Vec<Step> },
    /// Argument `arg` of statement `stmt` (passed by `&mut`) after the call.
    Mutated { stmt: usize, arg: usize },
}

/// An argument of a statement.
#[derive(Clone, Debug)]
pub(crate) enum ArgExpr {
    Var(VarRef),
    Literal(Arc<Literal>),
    Data { variant: usize, fields: Vec<ArgExpr> },
    List(Vec<ArgExpr>),
}

impl ArgExpr {
    fn vars<'a>(&'a self, out: &mut Vec<&'a VarRef>) {
        match self {
            ArgExpr::Var(v) => out.push(v),
            ArgExpr::Literal(_) => {}
            ArgExpr::Data { fields, .. } => fields.iter().for_each(|f| f.vars(out)),
            ArgExpr::List(items) => items.iter().for_each(|f| f.vars(out)),
        }
    }
}

/// One call.
#[derive(Clone, Debug)]
pub(crate) struct Stmt {
    pub(crate) fun: usize,
    pub(crate) args: Vec<ArgExpr>,
}

/// How a program ends.
#[derive(Clone, Debug)]
pub(crate) enum Ending {
    /// Checks a law on what was built.
    Law { law: usize, args: Vec<ArgExpr> },
    /// The last statement is the one that fails.
    Call,
}

/// A client program of the API under test.
#[derive(Clone, Debug)]
pub struct Program {
    pub(crate) statements: Vec<Stmt>,
    pub(crate) ending: Ending,
}

impl Program {
    /// Number of calls.
    pub fn len(&self) -> usize {
        self.statements.len()
    }

    /// True when there is no call (a law failing on literals alone).
    pub fn is_empty(&self) -> bool {
        self.statements.is_empty()
    }

    /// How many arguments name each value the program makes (its
    /// statements' and its law's): what running it must keep, and for how
    /// long.
    pub(crate) fn uses(&self) -> HashMap<VarRef, u32> {
        let mut uses: HashMap<VarRef, u32> = HashMap::new();
        let mut vs = Vec::new();
        let law = match &self.ending {
            Ending::Law { args, .. } => Some(args),
            Ending::Call => None,
        };
        for args in self.statements.iter().map(|s| &s.args).chain(law) {
            args.iter().for_each(|a| a.vars(&mut vs));
            for v in vs.drain(..) {
                *uses.entry(v.clone()).or_default() += 1;
            }
        }
        uses
    }

    /// The program without the calls nothing depends on: the failing
    /// call (or the law) and, transitively, the calls whose results they
    /// use. Statement numbers in references are renumbered.
    pub(crate) fn live(&self) -> Program {
        let n = self.statements.len();
        let mut live = vec![false; n];
        let mark = |args: &[ArgExpr], live: &mut Vec<bool>| {
            let mut vs = Vec::new();
            args.iter().for_each(|a| a.vars(&mut vs));
            for v in vs {
                match v {
                    VarRef::Part { stmt, .. } | VarRef::Mutated { stmt, .. } => live[*stmt] = true,
                }
            }
        };
        match &self.ending {
            Ending::Law { args, .. } => mark(args, &mut live),
            Ending::Call => {
                if n > 0 {
                    live[n - 1] = true;
                }
            }
        }
        for s in (0..n).rev() {
            if live[s] {
                mark(&self.statements[s].args, &mut live);
            }
        }
        let mut index = vec![usize::MAX; n];
        let mut next = 0;
        for s in 0..n {
            if live[s] {
                index[s] = next;
                next += 1;
            }
        }
        fn renumber(a: &ArgExpr, index: &[usize]) -> ArgExpr {
            match a {
                ArgExpr::Var(VarRef::Part { stmt, path }) => {
                    ArgExpr::Var(VarRef::Part { stmt: index[*stmt], path: path.clone() })
                }
                ArgExpr::Var(VarRef::Mutated { stmt, arg }) => {
                    ArgExpr::Var(VarRef::Mutated { stmt: index[*stmt], arg: *arg })
                }
                ArgExpr::Literal(l) => ArgExpr::Literal(l.clone()),
                ArgExpr::Data { variant, fields } => {
                    ArgExpr::Data { variant: *variant, fields: fields.iter().map(|f| renumber(f, index)).collect() }
                }
                ArgExpr::List(items) => ArgExpr::List(items.iter().map(|f| renumber(f, index)).collect()),
            }
        }
        let statements = (0..n)
            .filter(|&s| live[s])
            .map(|s| {
                let st = &self.statements[s];
                Stmt { fun: st.fun, args: st.args.iter().map(|a| renumber(a, &index)).collect() }
            })
            .collect();
        let ending = match &self.ending {
            Ending::Law { law, args } => {
                Ending::Law { law: *law, args: args.iter().map(|a| renumber(a, &index)).collect() }
            }
            Ending::Call => Ending::Call,
        };
        Program { statements, ending }
    }

    /// The program that makes the call `failing` (its last statement).
    pub(crate) fn slice_call(failing: &Arc<CallNode>) -> Program {
        let calls = dependencies(failing.args.iter());
        let mut index: HashMap<*const CallNode, usize> = HashMap::new();
        let mut statements = Vec::with_capacity(calls.len() + 1);
        for c in calls.iter().chain(std::iter::once(failing)) {
            let args = c.args.iter().map(|a| arg_expr(a, &index)).collect();
            index.insert(Arc::as_ptr(c), statements.len());
            statements.push(Stmt { fun: c.fun, args });
        }
        Program { statements, ending: Ending::Call }
    }

    /// The program that builds `args` and checks law `law` on them.
    pub(crate) fn slice_law(law: usize, args: &[ArgProv]) -> Program {
        let calls = dependencies(args.iter());
        let mut index: HashMap<*const CallNode, usize> = HashMap::new();
        let mut statements = Vec::with_capacity(calls.len());
        for c in &calls {
            let a = c.args.iter().map(|a| arg_expr(a, &index)).collect();
            index.insert(Arc::as_ptr(c), statements.len());
            statements.push(Stmt { fun: c.fun, args: a });
        }
        let args = args.iter().map(|a| arg_expr(a, &index)).collect();
        Program { statements, ending: Ending::Law { law, args } }
    }

    /// The program as Rust source, one statement per line; `note` is
    /// appended as a comment to the failing line.
    pub fn render(&self, api: &Api, note: Option<&str>) -> String {
        Renderer::new(api, self).run(note).join("\n")
    }
}

/// Every call that `roots` depend on, oldest first.
fn dependencies<'a>(roots: impl Iterator<Item = &'a ArgProv>) -> Vec<Arc<CallNode>> {
    let mut seen: HashSet<*const CallNode> = HashSet::new();
    let mut out = Vec::new();
    let mut stack: Vec<Arc<CallNode>> = Vec::new();
    let push_origins = |a: &ArgProv, stack: &mut Vec<Arc<CallNode>>| {
        let mut os = Vec::new();
        a.origins(&mut os);
        for o in os {
            if let Some(c) = o.call() {
                stack.push(c.clone());
            }
        }
    };
    for r in roots {
        push_origins(r, &mut stack);
    }
    while let Some(c) = stack.pop() {
        if !seen.insert(Arc::as_ptr(&c)) {
            continue;
        }
        for a in &c.args {
            push_origins(a, &mut stack);
        }
        out.push(c);
    }
    out.sort_by_key(|c| c.serial);
    out
}

fn arg_expr(a: &ArgProv, index: &HashMap<*const CallNode, usize>) -> ArgExpr {
    match a {
        ArgProv::Atom(Origin::Literal(l)) => ArgExpr::Literal(l.clone()),
        ArgProv::Atom(Origin::Part { call, path }) => {
            ArgExpr::Var(VarRef::Part { stmt: index[&Arc::as_ptr(call)], path: path.clone() })
        }
        ArgProv::Atom(Origin::Mutated { call, arg }) => {
            ArgExpr::Var(VarRef::Mutated { stmt: index[&Arc::as_ptr(call)], arg: *arg as usize })
        }
        ArgProv::Data { variant, fields } => {
            ArgExpr::Data { variant: *variant as usize, fields: fields.iter().map(|f| arg_expr(f, index)).collect() }
        }
        ArgProv::List(items) => ArgExpr::List(items.iter().map(|f| arg_expr(f, index)).collect()),
    }
}

/// The type a path leads to inside a shape.
pub(crate) fn shape_at<'a>(shape: &'a Shape, path: &[Step]) -> &'a Shape {
    let mut s = shape;
    for step in path {
        s = match (s, step) {
            (Shape::Data(_, vs), Step::Field(v, i)) => &vs[*v as usize][*i as usize],
            (Shape::List(_, e), Step::Elem(_)) => e,
            _ => return s,
        };
    }
    s
}

struct Renderer<'a> {
    api: &'a Api,
    program: &'a Program,
    names: HashMap<VarRef, String>,
    counters: HashMap<String, usize>,
    /// Uses of each variable not rendered yet (to clone all but the last).
    uses_left: HashMap<VarRef, usize>,
    /// The statement being rendered (`None`: the law), whose arguments a
    /// constructed argument is looked up in: looking through the whole
    /// program for each made rendering quadratic (minutes for a lineage of
    /// tens of thousands of calls with a container argument).
    scope: Option<usize>,
}

impl<'a> Renderer<'a> {
    fn new(api: &'a Api, program: &'a Program) -> Self {
        let mut uses_left: HashMap<VarRef, usize> = HashMap::new();
        let mut count = |args: &[ArgExpr]| {
            let mut vs = Vec::new();
            args.iter().for_each(|a| a.vars(&mut vs));
            for v in vs {
                *uses_left.entry(v.clone()).or_default() += 1;
            }
        };
        for s in &program.statements {
            count(&s.args);
        }
        if let Ending::Law { args, .. } = &program.ending {
            count(args);
        }
        Renderer { api, program, names: HashMap::new(), counters: HashMap::new(), uses_left, scope: None }
    }

    fn fresh(&mut self, prefix: &str) -> String {
        let n = self.counters.entry(prefix.to_string()).or_default();
        let name = format!("{prefix}{n}");
        *n += 1;
        name
    }

    fn prefix_of_shape(&self, s: &Shape) -> String {
        match s {
            Shape::Atom(k) => self.api.types[*k].prefix.clone(),
            Shape::Data(d, _) => name_prefix(&d.name),
            Shape::List(l, _) => name_prefix(&l.name),
        }
    }

    fn var(&self, v: &VarRef) -> String {
        self.names.get(v).cloned().unwrap_or_else(|| "_".to_string())
    }

    /// `a` as an expression producing an owned value.
    fn owned(&mut self, a: &ArgExpr) -> String {
        match a {
            ArgExpr::Var(v) => {
                let name = self.var(v);
                let left = self.uses_left.get_mut(v).map(|n| {
                    *n = n.saturating_sub(1);
                    *n
                });
                if left.unwrap_or(0) > 0 { format!("{name}.clone()") } else { name }
            }
            ArgExpr::Literal(l) => l.term.to_line(),
            ArgExpr::Data { fields, .. } => {
                let parts: Vec<String> = fields.iter().map(|f| self.owned(f)).collect();
                self.variant_of(a).map_or_else(|| parts.join(", "), |v| v.write(&parts))
            }
            ArgExpr::List(items) => {
                let parts: Vec<String> = items.iter().map(|f| self.owned(f)).collect();
                let (open, close) = self.list_delims(a);
                format!("{open}{}{close}", parts.join(", "))
            }
        }
    }

    /// `a` lent by shared reference.
    fn borrowed(&mut self, a: &ArgExpr) -> String {
        match a {
            ArgExpr::Var(v) => {
                if let Some(n) = self.uses_left.get_mut(v) {
                    *n = n.saturating_sub(1);
                }
                self.var(v)
            }
            _ => self.owned(a),
        }
    }

    // The shapes of constructed arguments are looked up from the
    // statement being rendered.
    fn variant_of(&self, a: &ArgExpr) -> Option<Variant> {
        let ArgExpr::Data { variant, .. } = a else { return None };
        let shape = self.current_shape(a)?;
        match shape {
            Shape::Data(d, _) => d.variants.get(*variant).cloned(),
            _ => None,
        }
    }

    fn list_delims(&self, a: &ArgExpr) -> (String, String) {
        match self.current_shape(a) {
            Some(Shape::List(l, _)) => (l.open.clone(), l.close.clone()),
            _ => ("vec![".to_string(), "]".to_string()),
        }
    }

    /// Finds the shape of a constructed argument by identity within the
    /// argument trees of the statement being rendered (or the law's).
    fn current_shape(&self, target: &ArgExpr) -> Option<Shape> {
        fn find(a: &ArgExpr, s: &Shape, target: *const ArgExpr) -> Option<Shape> {
            if std::ptr::eq(a, target) {
                return Some(s.clone());
            }
            match (a, s) {
                (ArgExpr::Data { variant, fields }, Shape::Data(_, vs)) => {
                    let fs = vs.get(*variant)?;
                    fields.iter().zip(fs.iter()).find_map(|(f, fs)| find(f, fs, target))
                }
                (ArgExpr::List(items), Shape::List(_, e)) => items.iter().find_map(|f| find(f, e, target)),
                _ => None,
            }
        }
        let t = target as *const ArgExpr;
        match (self.scope, &self.program.ending) {
            (Some(si), _) => {
                let st = self.program.statements.get(si)?;
                let spec = &self.api.functions[st.fun];
                st.args.iter().zip(spec.args.iter()).find_map(|(a, s)| find(a, s, t))
            }
            (None, Ending::Law { law, args }) => {
                let spec = &self.api.laws[*law];
                args.iter().zip(spec.args.iter()).find_map(|(a, s)| find(a, s, t))
            }
            (None, Ending::Call) => None,
        }
    }

    fn run(mut self, note: Option<&str>) -> Vec<String> {
        // Which parts of each statement's result are used, and which
        // mutated arguments.
        let mut used: HashMap<usize, BTreeSet<Vec<Step>>> = HashMap::new();
        for v in self.uses_left.keys() {
            if let VarRef::Part { stmt, path } = v {
                used.entry(*stmt).or_default().insert(path.clone());
            }
        }
        let (api, program) = (self.api, self.program);
        let mut lines = Vec::new();
        let last = program.statements.len().saturating_sub(1);
        for (si, st) in program.statements.iter().enumerate() {
            self.scope = Some(si);
            let spec = &api.functions[st.fun];
            let mut pre = Vec::new();
            // Arguments passed by `&mut` get a mutable binding first.
            let mut mut_names: HashMap<usize, String> = HashMap::new();
            for (i, (a, p)) in st.args.iter().zip(&spec.f.params).enumerate() {
                if p.mode == Mode::Mut {
                    let shape = &spec.args[i];
                    let name = self.fresh(&self.prefix_of_shape(shape));
                    let value = self.owned(a);
                    pre.push(format!("let mut {name} = {value};"));
                    self.names.insert(VarRef::Mutated { stmt: si, arg: i }, name.clone());
                    mut_names.insert(i, name);
                }
            }
            let arg_text = |r: &mut Self, i: usize, a: &ArgExpr| -> String {
                match spec.f.params[i].mode {
                    Mode::Mut => format!("&mut {}", mut_names[&i]),
                    Mode::Ref => match a {
                        ArgExpr::Var(_) => format!("&{}", r.borrowed(a)),
                        _ => format!("&{}", r.owned(a)),
                    },
                    Mode::Owned => r.owned(a),
                }
            };
            let call = match &spec.f.style {
                CallStyle::Path(p) => {
                    let args: Vec<String> =
                        st.args.iter().enumerate().map(|(i, a)| arg_text(&mut self, i, a)).collect();
                    format!("{p}({})", args.join(", "))
                }
                CallStyle::Method(m) => {
                    let recv = match (spec.f.params.first().map(|p| p.mode), st.args.first()) {
                        (Some(Mode::Mut), _) => mut_names[&0].clone(),
                        (Some(Mode::Ref), Some(a @ ArgExpr::Var(_))) => self.borrowed(a),
                        (Some(_), Some(a @ ArgExpr::Var(_))) => self.owned(a),
                        (Some(_), Some(a @ ArgExpr::Literal(_))) => self.owned(a),
                        (Some(_), Some(a)) => format!("({})", self.owned(a)),
                        _ => "()".to_string(),
                    };
                    let args: Vec<String> =
                        st.args.iter().enumerate().skip(1).map(|(i, a)| arg_text(&mut self, i, a)).collect();
                    format!("{recv}.{m}({})", args.join(", "))
                }
            };
            let paths = used.remove(&si).unwrap_or_default();
            let mut after = Vec::new();
            let (pat, refutable) = self.pattern(&spec.ret, &[], si, &paths, &mut after);
            let comment = match (note, si == last, &program.ending) {
                (Some(n), true, Ending::Call) => format!(" // {n}"),
                _ => String::new(),
            };
            lines.extend(pre);
            if pat == "_" {
                lines.push(format!("{call};{comment}"));
            } else if refutable {
                lines.push(format!("let {pat} = {call} else {{ unreachable!() }};{comment}"));
            } else {
                lines.push(format!("let {pat} = {call};{comment}"));
            }
            lines.extend(after);
        }
        if let Ending::Law { law, args } = &program.ending {
            self.scope = None;
            let spec = &api.laws[*law];
            let values: Vec<String> = args
                .iter()
                .zip(&spec.law.params)
                .map(|(a, p)| match p.mode {
                    Mode::Ref => format!("&{}", self.borrowed(a)),
                    _ => self.owned(a),
                })
                .collect();
            let comment = match (&spec.law.requires, note) {
                (Some(r), Some(n)) => format!(" // law `{}` (requires {r}): {n}", spec.law.name),
                (Some(r), None) => format!(" // law `{}` (requires {r})", spec.law.name),
                (None, Some(n)) => format!(" // law `{}`: {n}", spec.law.name),
                (None, None) => format!(" // law `{}`", spec.law.name),
            };
            match &spec.law.body {
                Some(body) => {
                    let names: Vec<&str> = spec.law.params.iter().map(|p| p.name.as_str()).collect();
                    match names.len() {
                        0 => {}
                        1 => lines.push(format!("let {} = {};", names[0], values[0])),
                        _ => lines.push(format!("let ({}) = ({});", names.join(", "), values.join(", "))),
                    }
                    lines.push(format!("assert!({body});{comment}"));
                }
                None => lines.push(format!("assert!({}({}));{comment}", spec.law.name, values.join(", "))),
            }
        }
        lines
    }

    /// The pattern binding the used parts of a value of `shape` found at
    /// `prefix` in statement `stmt`'s result; lines reading container
    /// elements go to `after`. Returns the pattern and whether it is
    /// refutable.
    fn pattern(
        &mut self,
        shape: &Shape,
        prefix: &[Step],
        stmt: usize,
        used: &BTreeSet<Vec<Step>>,
        after: &mut Vec<String>,
    ) -> (String, bool) {
        let under: Vec<&Vec<Step>> = used.iter().filter(|p| p.starts_with(prefix)).collect();
        if under.is_empty() {
            return ("_".to_string(), false);
        }
        if under.iter().any(|p| p.len() == prefix.len()) {
            let name = self.fresh(&self.prefix_of_shape(shape_at(shape, &[])));
            self.names.insert(VarRef::Part { stmt, path: prefix.to_vec() }, name.clone());
            return (name, false);
        }
        match shape {
            Shape::Atom(_) => ("_".to_string(), false),
            Shape::Data(d, vs) => {
                let Some(Step::Field(v, _)) = under.iter().find_map(|p| p.get(prefix.len())) else {
                    return ("_".to_string(), false);
                };
                let v = *v as usize;
                let mut refutable = vs.len() > 1;
                let mut parts = Vec::new();
                for (i, fs) in vs[v].iter().enumerate() {
                    let mut p = prefix.to_vec();
                    p.push(Step::Field(v as u32, i as u32));
                    let (sub, r) = self.pattern(fs, &p, stmt, used, after);
                    refutable |= r;
                    parts.push(sub);
                }
                (d.variants[v].write(&parts), refutable)
            }
            Shape::List(l, e) => {
                let name = self.fresh(&name_prefix(&l.name));
                let mut elems: Vec<u32> = under
                    .iter()
                    .filter_map(|p| match p.get(prefix.len()) {
                        Some(Step::Elem(k)) => Some(*k),
                        _ => None,
                    })
                    .collect();
                elems.dedup();
                for k in elems {
                    let mut p = prefix.to_vec();
                    p.push(Step::Elem(k));
                    let mut nested = Vec::new();
                    let (sub, r) = self.pattern(e, &p, stmt, used, &mut nested);
                    let read = if l.indexable {
                        format!("{name}[{k}].clone()")
                    } else {
                        format!("{name}.iter().nth({k}).unwrap().clone()")
                    };
                    if r {
                        after.push(format!("let {sub} = {read} else {{ unreachable!() }};"));
                    } else {
                        after.push(format!("let {sub} = {read};"));
                    }
                    after.extend(nested);
                }
                (name, false)
            }
        }
    }
}

fn name_prefix(name: &str) -> String {
    let base = name.split('<').next().unwrap_or(name);
    let base = base.rsplit("::").next().unwrap_or(base);
    match base.chars().find(|c| c.is_alphabetic()) {
        Some(c) => c.to_lowercase().collect(),
        None => "v".to_string(),
    }
}
