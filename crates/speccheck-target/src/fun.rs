//! Generated functions with refined outputs (Target §4.6): to generate a
//! function it suffices to generate its outputs. A [`Fun<A, B>`] answers
//! each call by searching for an output that satisfies its refinement for
//! that input, and remembers the answer, so it behaves as a function.
//!
//! The refinement is written as a closure over the input, with `result`
//! for the output: `|s| 0 <= s && s < 100 ==> s <= result && result < 100`.
//! The left side of a top-level `==>` is the function's *precondition*:
//! code that calls it with an input outside it is at fault, and the call
//! fails the test (Target reports such a call as a counterexample).
//!
//! Which valid output: the outputs are searched the way the lazy strategy
//! searches inputs ([`crate::lazy`]), depth by depth until some output is
//! valid. A function's *variant* (drawn with the test case, so shrinking
//! takes it to 0) picks among them: variant 0 answers every call with the
//! simplest valid output, variant `k` with one of the valid outputs up to
//! `k` depths further, chosen by a hash of `k` and the input. The variant is
//! an input like any other: the random strategy draws it, the enumerating
//! strategies enumerate it by depth.

use std::borrow::Borrow;
use std::collections::{BTreeMap, HashMap};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::marker::PhantomData;
use std::sync::{Arc, Mutex, OnceLock};

use speccheck_core::{Arbitrary, EncodeError, Encoder, TestCase, TypeInfo};
use speccheck_spec::{BinOp, Env, Expr, Measures, Targetable, Ty, Value};

use crate::lazy::{Lazy, LazyError};

/// The deepest output search: integers up to this magnitude, data up to
/// this depth (a data output stops far earlier, at the evaluation budget).
pub const MAX_OUTPUT_DEPTH: u32 = 1 << 12;

/// Partial outputs one answer may evaluate before the search gives up.
pub const OUTPUT_BUDGET: u64 = 200_000;

/// Valid outputs a variant chooses among.
const CHOICES: usize = 256;

/// A generated function's refinement: the input's name, the precondition
/// (if any) and what the output must satisfy.
#[derive(Debug)]
pub struct FunSpec {
    name: String,
    param: String,
    pre: Option<Expr>,
    post: Expr,
    /// Identifies the spec in the answer cache.
    key: String,
}

impl FunSpec {
    /// The refinement `|param| source` of the generated function `name`
    /// (`source` as the spec parser reads it; its top-level `==>` splits
    /// the precondition from the output's refinement).
    pub fn new(name: &str, param: &str, source: &str) -> Result<FunSpec, String> {
        let expr = speccheck_spec::parse_str(source)
            .map_err(|e| format!("the refinement of `{name}`: {} (`{}`)", e.message, e.construct))?;
        let (pre, post) = match expr {
            Expr::Binary(BinOp::Implies, a, b) => (Some(*a), *b),
            e => (None, e),
        };
        for v in pre.iter().chain([&post]).flat_map(Expr::free_vars) {
            if v != param && v != "result" {
                return Err(format!(
                    "the refinement of `{name}` mentions `{v}`: a generated function's refinement may name only its \
                     input (`{param}`) and `result`"
                ));
            }
        }
        let key = format!("{param}|{pre:?}|{post:?}");
        Ok(FunSpec { name: name.into(), param: param.into(), pre, post, key })
    }

    /// Any output is valid: the spec of a function nobody refined.
    fn anything() -> Arc<FunSpec> {
        static ANY: OnceLock<Arc<FunSpec>> = OnceLock::new();
        ANY.get_or_init(|| {
            Arc::new(FunSpec {
                name: "the generated function".into(),
                param: "x".into(),
                pre: None,
                post: Expr::Bool(true),
                key: "any".into(),
            })
        })
        .clone()
    }

    /// The output for `input`, or why there is none.
    fn answer(&self, variant: u8, input: &Value, out: &Ty, measures: &Measures) -> Result<Value, String> {
        if let Some(pre) = &self.pre {
            let mut env = Env::new(measures);
            env.bind(self.param.clone(), input.clone());
            match env.bool(pre) {
                Ok(true) => {}
                Ok(false) => {
                    return Err(format!(
                        "`{}` was called with {} = {input}, outside its precondition `{pre}`",
                        self.name, self.param
                    ));
                }
                Err(e) => {
                    return Err(format!(
                        "the precondition of `{}` could not be evaluated on {} = {input}: {e}",
                        self.name, self.param
                    ));
                }
            }
        }
        let mut budget = OUTPUT_BUDGET;
        let mut depth = 0;
        let first = loop {
            if !self.outputs(input, out, depth, 1, &mut budget, measures)?.is_empty() {
                break depth;
            }
            if depth >= MAX_OUTPUT_DEPTH {
                return Err(format!(
                    "`{}` has no valid output for {} = {input} up to depth {MAX_OUTPUT_DEPTH} (`{}`)",
                    self.name, self.param, self.post
                ));
            }
            depth = (depth * 2).max(1);
        };
        let depth = first + u32::from(variant);
        let mut valid = match self.outputs(input, out, depth, CHOICES, &mut budget, measures) {
            Ok(v) if !v.is_empty() => v,
            // Out of budget further down: the first depth's outputs do.
            _ => self.outputs(input, out, first, CHOICES, &mut { OUTPUT_BUDGET }, measures)?,
        };
        valid.sort_by_key(simplicity);
        let pick = if variant == 0 {
            0
        } else {
            let mut h = DefaultHasher::new();
            (variant, input).hash(&mut h);
            (h.finish() % valid.len() as u64) as usize
        };
        Ok(valid.swap_remove(pick))
    }

    /// Up to `cap` valid outputs for `input` at `depth`.
    fn outputs(
        &self,
        input: &Value,
        out: &Ty,
        depth: u32,
        cap: usize,
        budget: &mut u64,
        measures: &Measures,
    ) -> Result<Vec<Value>, String> {
        let params = [("result".to_string(), out.clone())];
        let mut lazy = Lazy::new(&params, std::slice::from_ref(&self.post), measures, depth)
            .given(self.param.clone(), input.clone())
            .limit(*budget);
        let mut found = Vec::new();
        while found.len() < cap {
            match lazy.next() {
                None => break,
                Some(Ok(mut v)) => found.push(v.swap_remove(0)),
                Some(Err(LazyError::Budget(_))) if !found.is_empty() => break,
                Some(Err(LazyError::Budget(n))) => {
                    return Err(format!(
                        "`{}` found no valid output for {} = {input} within {n} partial outputs (depth {depth}, `{}`)",
                        self.name, self.param, self.post
                    ));
                }
                Some(Err(e)) => return Err(format!("the refinement of `{}`: {e}", self.name)),
            }
        }
        *budget = budget.saturating_sub(lazy.evaluated);
        Ok(found)
    }
}

/// Smaller is simpler: fewer nodes, then smaller magnitudes, positive first.
fn simplicity(v: &Value) -> (u64, u128, bool) {
    fn walk(v: &Value, nodes: &mut u64, magnitude: &mut u128, negative: &mut bool) {
        *nodes += 1;
        match v {
            Value::Int(i) => {
                *magnitude += i.unsigned_abs();
                *negative |= *i < 0;
            }
            Value::Bool(b) => *magnitude += u128::from(*b),
            Value::Data { ctor, fields, .. } => {
                *magnitude += *ctor as u128;
                fields.iter().for_each(|f| walk(f, nodes, magnitude, negative));
            }
            Value::Seq(xs) => xs.iter().for_each(|x| walk(x, nodes, magnitude, negative)),
            Value::Set(xs) => xs.iter().for_each(|x| walk(x, nodes, magnitude, negative)),
            Value::Hole(_) => {}
        }
    }
    let (mut nodes, mut magnitude, mut negative) = (0, 0, false);
    walk(v, &mut nodes, &mut magnitude, &mut negative);
    (nodes, magnitude, negative)
}

/// Answers found so far, by spec, output type, variant and input: each
/// answer is a deterministic search, so it is found once per run.
type Answers = HashMap<(String, &'static str, u8, Value), Result<Value, String>>;

fn answers() -> &'static Mutex<Answers> {
    static ANSWERS: OnceLock<Mutex<Answers>> = OnceLock::new();
    ANSWERS.get_or_init(Default::default)
}

/// A generated function from `A` to `B` whose outputs satisfy a refinement
/// (see the [module](self)). In a `#[property]`, refine it with a closure:
///
/// ```ignore
/// #[property(strategy = smt, depth = 3)]
/// fn padding_keeps_scores(
///     #[refine(|s| 0 <= s && s < 100 ==> s <= result && result < 100)] f: Fun<i64, i64>,
///     #[refine(0 <= s && s < 100)] s: i64,
/// ) -> bool {
///     let padded = f.call(s);
///     s <= padded && padded < 100
/// }
/// ```
///
/// An unrefined `Fun` answers with any value of `B`. Its answers appear in
/// a counterexample's report (`f(3) = 4`).
pub struct Fun<A, B> {
    variant: u8,
    spec: Arc<FunSpec>,
    /// This function's answers so far (shared by its clones).
    memo: Arc<Mutex<BTreeMap<Value, Value>>>,
    types: PhantomData<fn(A) -> B>,
}

impl<A: Targetable, B: Targetable> Fun<A, B> {
    /// The function of this variant with any output valid.
    pub fn with_variant(variant: u8) -> Self {
        Fun { variant, spec: FunSpec::anything(), memo: Arc::default(), types: PhantomData }
    }

    /// The same variant, answering by `spec`.
    pub fn refined(self, spec: &Arc<FunSpec>) -> Self {
        Fun { variant: self.variant, spec: spec.clone(), memo: Arc::default(), types: PhantomData }
    }

    /// The variant (0: the simplest valid output for every input).
    pub fn variant(&self) -> u8 {
        self.variant
    }

    /// The function's output for `input`. Panics (failing the test case)
    /// when `input` is outside the function's precondition, or when no
    /// valid output exists for it within the search's bounds (the panic is
    /// located at the call).
    #[track_caller]
    pub fn call(&self, input: impl Borrow<A>) -> B {
        let input = input.borrow().reflect();
        let known = self.memo.lock().unwrap_or_else(|p| p.into_inner()).get(&input).cloned();
        let output = match known {
            Some(v) => v,
            None => {
                let key = (self.spec.key.clone(), std::any::type_name::<B>(), self.variant, input.clone());
                let cached = answers().lock().unwrap_or_else(|p| p.into_inner()).get(&key).cloned();
                let answer = cached.unwrap_or_else(|| {
                    let a = self.spec.answer(self.variant, &input, &B::ty(), Measures::global());
                    let mut all = answers().lock().unwrap_or_else(|p| p.into_inner());
                    if all.len() >= 1 << 16 {
                        all.clear();
                    }
                    all.insert(key, a.clone());
                    a
                });
                let v = match answer {
                    Ok(v) => v,
                    Err(e) => panic!("{e}"),
                };
                speccheck_core::note(|| format!("{}({input}) = {v}", self.spec.name));
                self.memo.lock().unwrap_or_else(|p| p.into_inner()).insert(input.clone(), v.clone());
                v
            }
        };
        match B::reify(&output) {
            Some(b) => b,
            None => panic!(
                "`{}` found the output {output} for {input}, which does not fit `{}`",
                self.spec.name,
                std::any::type_name::<B>()
            ),
        }
    }
}

impl<A, B> Clone for Fun<A, B> {
    fn clone(&self) -> Self {
        Fun { variant: self.variant, spec: self.spec.clone(), memo: self.memo.clone(), types: PhantomData }
    }
}

impl<A, B> std::fmt::Debug for Fun<A, B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.variant == 0 {
            write!(f, "<fn: the simplest valid output>")
        } else {
            write!(f, "<fn: valid outputs, variant {}>", self.variant)
        }
    }
}

impl<A: Targetable, B: Targetable> Arbitrary for Fun<A, B> {
    fn type_info() -> TypeInfo {
        TypeInfo::primitive::<Fun<A, B>>()
    }

    fn draw(tc: &mut TestCase) -> Self {
        Fun::with_variant(tc.draw_int(0u8, u8::MAX))
    }

    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        enc.write_int(self.variant, 0u8, u8::MAX)
    }
}

/// A function is enumerated by its variant (an integer, so every strategy
/// enumerates the same functions at the same depth).
impl<A: Targetable, B: Targetable> Targetable for Fun<A, B> {
    const FUNCTION: bool = true;

    fn ty() -> Ty {
        u8::ty()
    }

    fn reflect(&self) -> Value {
        Value::Int(i128::from(self.variant))
    }

    fn reify(v: &Value) -> Option<Self> {
        Some(Fun::with_variant(u8::try_from(v.as_int()?).ok()?))
    }
}
