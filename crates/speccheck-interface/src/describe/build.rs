//! Declarations in, a described API out: a [`Builder`] collects the
//! declarations (types, data types, functions, laws), and
//! [`Builder::build`] resolves every atom against them and checks that
//! each abstract type can be built by combining the API's functions,
//! starting from ground values; what cannot be is a [`DescribeError`]
//! naming it.

use std::any::TypeId;
use std::collections::{HashMap, HashSet};
use std::fmt::{self, Debug};
use std::sync::Arc;

use super::api::{Api, FnSpec, LawSpec};
use super::function::{Function, Param};
use super::law::Law;
use super::pooled::{AbstractType, GroundType, Kind, TypeDesc, ValueOps};
use super::pos::{AtomRef, DefaultGround, Pos, PosNode};
use super::shape::Shape;

enum Decl {
    Type(TypeId, TypeDesc),
    Fresh(TypeId, usize, usize),
    Bound(TypeId, usize),
}

/// Collects the declarations of an API.
pub struct Builder {
    name: String,
    decls: Vec<Decl>,
    data: HashMap<TypeId, Pos>,
    functions: Vec<Function>,
    laws: Vec<Law>,
    reference: Option<String>,
    compiled_in: Option<(String, Option<String>)>,
}

impl Debug for Builder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Builder").field("name", &self.name).finish_non_exhaustive()
    }
}

impl Builder {
    /// An empty description of the API named `name`.
    pub fn new(name: impl Into<String>) -> Self {
        Builder {
            name: name.into(),
            decls: Vec::new(),
            data: HashMap::new(),
            functions: Vec::new(),
            laws: Vec::new(),
            reference: None,
            compiled_in: None,
        }
    }

    fn declare(&mut self, id: TypeId, desc: TypeDesc) -> &mut Self {
        self.decls.push(Decl::Type(id, desc));
        self
    }

    /// Declares an abstract type: its instances are only ever built by
    /// calling the API.
    pub fn abstract_type<T: AbstractType>(&mut self, name: &str) -> &mut Self {
        self.declare(TypeId::of::<T>(), TypeDesc::new_abstract::<T>(name))
    }

    /// Declares a ground type whose fresh values come from `generator`
    /// (replayable and encodable: they are choices of a test case).
    pub fn ground<T, G>(&mut self, name: &str, generator: G) -> &mut Self
    where
        T: GroundType,
        G: speccheck_core::Generator<Value = T> + 'static,
    {
        self.declare(TypeId::of::<T>(), TypeDesc::new_ground(name, generator, ValueOps::of::<T>()))
    }

    /// Like [`ground`](Self::ground) for a type without `Hash`/`Eq`
    /// (floats): values are compared by their `Debug` form.
    pub fn ground_by_debug<T, G>(&mut self, name: &str, generator: G) -> &mut Self
    where
        T: Clone + Debug + 'static,
        G: speccheck_core::Generator<Value = T> + 'static,
    {
        self.declare(TypeId::of::<T>(), TypeDesc::new_ground(name, generator, ValueOps::by_debug::<T>()))
    }

    /// How many fresh values of the ground type `T` to draw before the
    /// first round and at each round (overriding the run's defaults).
    pub fn fresh_values<T: 'static>(&mut self, initial: usize, per_round: usize) -> &mut Self {
        self.decls.push(Decl::Fresh(TypeId::of::<T>(), initial, per_round));
        self
    }

    /// How many instances the pool of `T` (abstract or ground) holds,
    /// overriding the run's [`Config::pool_bound`](crate::Config) for this
    /// type only: a larger key pool than instance pool, say, so that
    /// instances can hold many distinct keys.
    pub fn pool_bound<T: 'static>(&mut self, bound: usize) -> &mut Self {
        self.decls.push(Decl::Bound(TypeId::of::<T>(), bound));
        self
    }

    /// Declares a data type (a user enum or struct described by
    /// [`pos::data`](crate::pos::data)): produced and destructed like
    /// `Option` and tuples.
    pub fn data_type(&mut self, pos: Pos) -> &mut Self {
        self.data.insert(pos.type_id(), pos);
        self
    }

    /// Adds a function.
    pub fn function(&mut self, f: Function) -> &mut Self {
        self.functions.push(f);
        self
    }

    /// Adds a law.
    pub fn law(&mut self, law: Law) -> &mut Self {
        self.laws.push(law);
        self
    }

    /// Names the reference implementation (reference-model mode, where
    /// every function runs on both and compares).
    pub fn reference(&mut self, name: &str) -> &mut Self {
        self.reference = Some(name.to_string());
        self
    }

    /// Where the description is compiled: the package and the test
    /// target's flag (see `speccheck_core::rerun::test_target`), so a
    /// report's replay line carries the `cargo test` command that reruns
    /// it. `interface!` sets it.
    pub fn compiled_in(&mut self, package: &str, target: Option<String>) -> &mut Self {
        self.compiled_in = Some((package.to_string(), target));
        self
    }

    /// Resolves the description and checks that every abstract type can
    /// be constructed.
    pub fn build(mut self) -> Result<Api, DescribeError> {
        if self.functions.is_empty() {
            return Err(DescribeError::NoFunctions);
        }
        self.declare_defaults();
        let (types, index) = self.pooled_types()?;
        let resolver = Resolver { index: &index, data: &self.data };
        let mut names = HashSet::new();
        let mut functions = Vec::new();
        for f in self.functions {
            functions.push(resolver.function(f, &mut names)?);
        }
        let mut laws = Vec::new();
        for l in self.laws {
            laws.push(resolver.law(l, &mut names)?);
        }
        let api =
            Api { name: self.name, types, functions, laws, reference: self.reference, compiled_in: self.compiled_in };
        check_constructible(&api)?;
        Ok(api)
    }

    /// Declares the primitives used but not declared, with their default
    /// generator.
    fn declare_defaults(&mut self) {
        let mut declared: HashSet<TypeId> = self
            .decls
            .iter()
            .filter_map(|d| match d {
                Decl::Type(id, _) => Some(*id),
                Decl::Fresh(..) | Decl::Bound(..) => None,
            })
            .collect();
        let mut defaults = Vec::new();
        {
            let mut seen = HashSet::new();
            let mut visit = |p: &Pos| collect_defaults(p, &self.data, &declared, &mut seen, &mut defaults);
            for f in &self.functions {
                f.params.iter().for_each(|p| visit(&p.pos));
                visit(&f.ret);
            }
            for l in &self.laws {
                l.params.iter().for_each(|p| visit(&p.pos));
            }
        }
        for (id, make) in defaults {
            if declared.insert(id) {
                self.declare(id, make());
            }
        }
    }

    /// The pooled types in the order declared, with the pool bounds and
    /// fresh-value counts declared for them, and each type's index.
    fn pooled_types(&mut self) -> Result<(Vec<TypeDesc>, HashMap<TypeId, usize>), DescribeError> {
        let mut types: Vec<TypeDesc> = Vec::new();
        let mut index: HashMap<TypeId, usize> = HashMap::new();
        let mut fresh = Vec::new();
        let mut bounds = Vec::new();
        for d in std::mem::take(&mut self.decls) {
            match d {
                Decl::Type(id, desc) => {
                    if index.contains_key(&id) || types.iter().any(|t| t.name == desc.name) {
                        return Err(DescribeError::Duplicate(desc.name));
                    }
                    index.insert(id, types.len());
                    types.push(desc);
                }
                Decl::Fresh(id, initial, per_round) => fresh.push((id, initial, per_round)),
                Decl::Bound(id, bound) => bounds.push((id, bound)),
            }
        }
        for (id, bound) in bounds {
            match index.get(&id) {
                Some(&k) if bound > 0 => types[k].bound = Some(bound),
                Some(_) => return Err(DescribeError::Incomplete("`pool_bound` must be at least 1".to_string())),
                None => {
                    return Err(DescribeError::Incomplete(
                        "`pool_bound` names a type that is not declared".to_string(),
                    ));
                }
            }
        }
        for (id, initial, per_round) in fresh {
            match index.get(&id).map(|&k| &mut types[k].kind) {
                Some(Kind::Ground(g)) => {
                    g.initial = Some(initial);
                    g.per_round = Some(per_round);
                }
                _ => {
                    return Err(DescribeError::Incomplete(
                        "`fresh_values` names a type that is not declared ground".to_string(),
                    ));
                }
            }
        }
        Ok((types, index))
    }
}

fn collect_defaults(
    p: &Pos,
    data: &HashMap<TypeId, Pos>,
    declared: &HashSet<TypeId>,
    seen: &mut HashSet<TypeId>,
    out: &mut Vec<(TypeId, DefaultGround)>,
) {
    match &p.0 {
        PosNode::Atom(a) => {
            if let Some(d) = data.get(&a.type_id) {
                if seen.insert(a.type_id) {
                    collect_defaults(d, data, declared, seen, out);
                }
            } else if let Some(reg) = &a.default
                && !declared.contains(&a.type_id)
                && seen.insert(a.type_id)
            {
                out.push((a.type_id, reg.clone()));
            }
        }
        PosNode::Data(d) => {
            for v in &d.variants {
                v.fields.iter().for_each(|f| collect_defaults(f, data, declared, seen, out));
            }
        }
        PosNode::List(l) => collect_defaults(&l.elem, data, declared, seen, out),
    }
}

struct Resolver<'a> {
    index: &'a HashMap<TypeId, usize>,
    data: &'a HashMap<TypeId, Pos>,
}

impl Resolver<'_> {
    /// A function with its shapes resolved (its name must be new).
    fn function(&self, f: Function, names: &mut HashSet<String>) -> Result<FnSpec, DescribeError> {
        claim(names, &f.name)?;
        let call =
            f.call.clone().ok_or_else(|| DescribeError::Incomplete(format!("function `{}` has no body", f.name)))?;
        let args = self.params(&f.params, &f.name)?;
        let ret = self.shape(&f.ret, &f.name, &mut Vec::new())?;
        Ok(FnSpec { f, call, args, ret })
    }

    /// A law with its shapes resolved (its name must be new).
    fn law(&self, l: Law, names: &mut HashSet<String>) -> Result<LawSpec, DescribeError> {
        claim(names, &l.name)?;
        let check =
            l.check.clone().ok_or_else(|| DescribeError::Incomplete(format!("law `{}` has no check", l.name)))?;
        let args = self.params(&l.params, &l.name)?;
        Ok(LawSpec { law: l, check, args })
    }

    /// The shapes of the parameters of the function or law `used_by`.
    fn params(&self, params: &[Param], used_by: &str) -> Result<Vec<Shape>, DescribeError> {
        params.iter().map(|p| self.shape(&p.pos, used_by, &mut Vec::new())).collect()
    }

    fn shape(&self, p: &Pos, used_by: &str, stack: &mut Vec<TypeId>) -> Result<Shape, DescribeError> {
        match &p.0 {
            PosNode::Atom(AtomRef { type_id, name, .. }) => {
                if let Some(&k) = self.index.get(type_id) {
                    return Ok(Shape::Atom(k));
                }
                if let Some(d) = self.data.get(type_id) {
                    return self.shape(d, used_by, stack);
                }
                Err(DescribeError::Undeclared { type_name: name.clone(), used_by: used_by.to_string() })
            }
            PosNode::Data(d) => {
                if stack.contains(&d.type_id) {
                    return Err(DescribeError::Recursive(d.name.clone()));
                }
                stack.push(d.type_id);
                let variants = d
                    .variants
                    .iter()
                    .map(|v| v.fields.iter().map(|f| self.shape(f, used_by, stack)).collect::<Result<Vec<_>, _>>())
                    .collect::<Result<Vec<_>, _>>();
                stack.pop();
                Ok(Shape::Data(d.clone(), Arc::new(variants?)))
            }
            PosNode::List(l) => Ok(Shape::List(l.clone(), Arc::new(self.shape(&l.elem, used_by, stack)?))),
        }
    }
}

/// Takes `name` for a function or law: no two may share one.
fn claim(names: &mut HashSet<String>, name: &str) -> Result<(), DescribeError> {
    if names.insert(name.to_string()) { Ok(()) } else { Err(DescribeError::Duplicate(name.to_string())) }
}

/// The fixpoint of "which pools can ever hold an instance": ground pools
/// start inhabited; a function whose arguments can all be produced
/// inhabits every pool its result destructs into.
fn inhabited(api: &Api) -> Vec<bool> {
    let mut inhabited: Vec<bool> = api.types.iter().map(|t| !t.is_abstract()).collect();
    loop {
        let mut changed = false;
        for f in &api.functions {
            if f.args.iter().all(|a| a.producible(&inhabited)) {
                let mut out = Vec::new();
                f.ret.atoms(&mut out);
                for k in out {
                    if !inhabited[k] {
                        inhabited[k] = true;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            return inhabited;
        }
    }
}

fn check_constructible(api: &Api) -> Result<(), DescribeError> {
    let inhabited = inhabited(api);
    let missing: Vec<usize> = (0..api.types.len()).filter(|&k| !inhabited[k]).collect();
    if missing.is_empty() {
        return Ok(());
    }
    let mut explanation = String::new();
    for &k in &missing {
        let name = &api.types[k].name;
        let producers: Vec<&FnSpec> = api
            .functions
            .iter()
            .filter(|f| {
                let mut out = Vec::new();
                f.ret.atoms(&mut out);
                out.contains(&k)
            })
            .collect();
        if producers.is_empty() {
            explanation.push_str(&format!("  - no function returns a `{name}`\n"));
        } else {
            for f in producers {
                let needs: Vec<String> = f
                    .args
                    .iter()
                    .filter(|a| !a.producible(&inhabited))
                    .map(|a| format!("`{}`", a.name(&api.types)))
                    .collect();
                explanation.push_str(&format!(
                    "  - `{}` returns a `{name}` but needs {} first, which nothing else builds\n",
                    f.f.name,
                    needs.join(" and ")
                ));
            }
        }
    }
    Err(DescribeError::Unconstructible {
        types: missing.iter().map(|&k| api.types[k].name.clone()).collect(),
        explanation: explanation.trim_end().to_string(),
    })
}

/// Why a description cannot be tested.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DescribeError {
    /// Some abstract types cannot be built by any combination of the API's
    /// functions.
    Unconstructible {
        /// The types, by name.
        types: Vec<String>,
        /// Why, type by type.
        explanation: String,
    },
    /// A type used by a function or law was never declared.
    Undeclared {
        /// The type.
        type_name: String,
        /// The function or law that uses it.
        used_by: String,
    },
    /// A function has no body, or a law no check.
    Incomplete(String),
    /// Two declarations have the same name.
    Duplicate(String),
    /// A data type contains itself (recursive data must be an abstract type).
    Recursive(String),
    /// There is nothing to call.
    NoFunctions,
}

impl fmt::Display for DescribeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DescribeError::Unconstructible { types, explanation } => {
                let list: Vec<String> = types.iter().map(|t| format!("`{t}`")).collect();
                write!(
                    f,
                    "no combination of the API's functions can construct {} {}:\n{explanation}",
                    if types.len() == 1 { "the type" } else { "the types" },
                    list.join(", ")
                )
            }
            DescribeError::Undeclared { type_name, used_by } => write!(
                f,
                "`{used_by}` uses the type `{type_name}`, which the description does not declare: declare it \
                 abstract (built by the API), ground (with a generator of fresh values), or as a data type"
            ),
            DescribeError::Incomplete(what) => write!(f, "{what}"),
            DescribeError::Duplicate(name) => write!(f, "`{name}` is declared twice"),
            DescribeError::Recursive(name) => write!(
                f,
                "the data type `{name}` contains itself: declare it as an abstract type instead (built by the API)"
            ),
            DescribeError::NoFunctions => write!(f, "the description has no functions to call"),
        }
    }
}

impl std::error::Error for DescribeError {}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::describe::function::{CallStyle, Mode};
    use crate::describe::pos;

    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    struct Stack(Vec<i32>);

    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    struct Orphan;

    fn push() -> Function {
        Function::new("push", CallStyle::Method("push".into()))
            .param("self", Mode::Ref, pos::atom::<Stack>("Stack"))
            .param("x", Mode::Owned, pos::ground::<i32>("i32"))
            .returns(pos::atom::<Stack>("Stack"))
            .body(|a| {
                let mut s = a.get::<Stack>(0).clone();
                s.0.push(a.take::<i32>(1));
                s
            })
    }

    #[test]
    fn a_type_no_function_constructs_is_named() {
        let mut b = Builder::new("stack");
        b.abstract_type::<Stack>("Stack").function(push());
        let e = b.build().unwrap_err();
        let DescribeError::Unconstructible { types, .. } = &e else { panic!("{e}") };
        assert_eq!(types, &["Stack".to_string()]);
        assert!(e.to_string().contains("`push` returns a `Stack` but needs `Stack` first"), "{e}");

        let mut b = Builder::new("stack");
        b.abstract_type::<Stack>("Stack").abstract_type::<Orphan>("Orphan");
        b.function(
            Function::new("new", CallStyle::Path("Stack::new".into()))
                .returns(pos::atom::<Stack>("Stack"))
                .body(|_| Stack(Vec::new())),
        );
        b.function(
            Function::new("eat", CallStyle::Path("eat".into()))
                .param("o", Mode::Ref, pos::atom::<Orphan>("Orphan"))
                .body(|_| ()),
        );
        let e = b.build().unwrap_err();
        assert!(e.to_string().contains("no function returns a `Orphan`"), "{e}");
    }

    #[test]
    fn undeclared_types_are_errors_and_primitives_default_to_ground() {
        let mut b = Builder::new("stack");
        b.function(push());
        let e = b.build().unwrap_err();
        assert_eq!(e, DescribeError::Undeclared { type_name: "Stack".into(), used_by: "push".into() });

        let mut b = Builder::new("stack");
        b.abstract_type::<Stack>("Stack").function(push());
        b.function(
            Function::new("new", CallStyle::Path("Stack::new".into()))
                .returns(pos::atom::<Stack>("Stack"))
                .body(|_| Stack(Vec::new())),
        );
        let api = b.build().unwrap();
        assert_eq!(api.type_names(), vec!["Stack", "i32"]);
        assert_eq!(api.abstract_types(), vec!["Stack"]);
    }

    #[test]
    fn options_of_unbuildable_types_are_still_producible() {
        // `Option<Orphan>` can always be `None`, so a function taking one
        // can run.
        let mut b = Builder::new("opt");
        b.abstract_type::<Stack>("Stack").abstract_type::<Orphan>("Orphan");
        b.function(
            Function::new("from", CallStyle::Path("from".into()))
                .param("o", Mode::Owned, pos::option::<Orphan>(pos::atom::<Orphan>("Orphan")))
                .returns(pos::atom::<Stack>("Stack"))
                .body(|_| Stack(Vec::new())),
        );
        let e = b.build().unwrap_err();
        let DescribeError::Unconstructible { types, .. } = e else { panic!() };
        assert_eq!(types, vec!["Orphan".to_string()]);
    }
}
