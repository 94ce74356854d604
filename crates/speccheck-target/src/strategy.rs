//! The four ways to get inputs for a refined function, and the glue that
//! hands them to the core runner: `random` (generate and filter,
//! QuickCheck), `exhaustive` (enumerate by depth and filter, SmallCheck),
//! `lazy` (enumerate partial inputs, Lazy SmallCheck, [`crate::lazy`]) and
//! `smt` (solver models, Target, `crate::smt`), with `auto` choosing
//! between the last two. All test the same inputs: those satisfying the
//! argument spec ([`ArgSpec`]).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use speccheck_core::{InputSource, Property, SourceStep};
use speccheck_spec::{EvalError, Expr, Measures, Memo, Ty, Value, Violation};

use crate::producer::{self, Msg};
use crate::sample::Sampler;

/// How a refined property gets its inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Strategy {
    /// Random inputs, those failing the spec discarded.
    #[default]
    Random,
    /// Every input up to the depth, those failing the spec discarded.
    Exhaustive,
    /// Every valid input up to the depth, partial inputs refuted early.
    Lazy,
    /// Every valid input up to the depth, from an SMT solver's models.
    Smt,
    /// The faster of the solver and the lazy enumeration on this spec (the
    /// same inputs either way): each makes inputs for a short trial
    /// ([`AUTO_TRIAL`]) and the faster goes on from where it was, so no
    /// input is lost or repeated; the report says which and why. A short
    /// trial flatters the solver (its cost per model grows as it goes, the
    /// enumeration's falls), so the solver goes on only where the
    /// enumeration made next to nothing (a hundredth of the solver's rate):
    /// a spec whose partial inputs cannot be refuted. The lazy enumeration alone when the spec is outside
    /// the solver's fragment or speccheck is built without z3, with no
    /// warning.
    Auto,
    /// Random valid inputs, sized by the run's size ramp (up to
    /// `max_size` recursive steps or elements), built hole by hole with
    /// refuted partial inputs undone ([`crate::sample`]): what a refined
    /// argument gets with no strategy ([`apply_default`]).
    Sample,
}

impl std::str::FromStr for Strategy {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "random" => Strategy::Random,
            "exhaustive" => Strategy::Exhaustive,
            "lazy" => Strategy::Lazy,
            "smt" => Strategy::Smt,
            "auto" => Strategy::Auto,
            "sample" => Strategy::Sample,
            other => {
                return Err(format!(
                    "unknown strategy `{other}` (expected random, exhaustive, lazy, smt, auto or sample)"
                ));
            }
        })
    }
}

impl std::fmt::Display for Strategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Strategy::Random => "random",
            Strategy::Exhaustive => "exhaustive",
            Strategy::Lazy => "lazy",
            Strategy::Smt => "smt",
            Strategy::Auto => "auto",
            Strategy::Sample => "sample",
        })
    }
}

/// What a valid input is: the arguments' names and types (whose
/// refinements apply) and the `requires` clauses over them.
#[derive(Clone, Debug)]
pub struct ArgSpec {
    /// The arguments, in order.
    pub params: Vec<(String, Ty)>,
    /// Each clause as written, and parsed.
    pub requires: Vec<(String, Expr)>,
    /// The measures the clauses call.
    pub measures: &'static Measures,
    /// The arguments that are generated functions ([`crate::Fun`]):
    /// enumerated as variants, not as every function.
    pub functions: Vec<String>,
    /// The enumerating strategies make only inputs at least this tall
    /// (see [`ArgSpec::from_height`]).
    pub min_height: u32,
    /// The last input a strategy handed out after the evaluator re-checked
    /// it, shared by the clones of this spec: the property's own check of
    /// that same input ([`ArgSpec::admit`]) then compares instead of
    /// evaluating the spec again (equal values, equal verdicts).
    checked: Arc<Mutex<Option<Vec<Value>>>>,
}

impl ArgSpec {
    /// A spec over `params` with the clauses `requires` (as written, and
    /// as the spec parser reads them), calling the registered measures.
    pub fn new(params: Vec<(String, Ty)>, requires: &[(&str, &str)]) -> Result<ArgSpec, String> {
        for (_, ty) in &params {
            speccheck_spec::refined::check_scopes(ty)?;
            // No strategy could enumerate it, nor random generation end.
            if let Some(why) = ty.unbounded() {
                return Err(why);
            }
        }
        Ok(ArgSpec {
            params,
            requires: parse_clauses("spec", requires)?,
            measures: Measures::global(),
            functions: Vec::new(),
            min_height: 0,
            checked: Arc::default(),
        })
    }

    /// With the arguments flagged `true` (by name) taken as generated
    /// functions ([`Targetable::FUNCTION`](speccheck_spec::Targetable::FUNCTION)).
    pub fn with_functions(mut self, flags: &[(&str, bool)]) -> Self {
        self.functions = flags.iter().filter(|(_, f)| *f).map(|(n, _)| n.to_string()).collect();
        self
    }

    /// What enumerating to `depth` leaves out: a generated function is
    /// enumerated as its variants (an integer: `2d + 1` of them at depth
    /// `d`), not as every function of its type.
    pub fn coverage_caveat(&self, depth: u32) -> Option<String> {
        let mut left_out = Vec::new();
        if self.min_height > 0 {
            left_out.push(format!("only those of height at least {} (the lower bound asked for)", self.min_height));
        }
        if !self.functions.is_empty() {
            let names = self.functions.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
            let (lo, hi) = crate::depth::int_window(0, i128::from(u8::MAX), depth);
            let (s, each) = if self.functions.len() == 1 { ("", "its") } else { ("s", "each its") };
            left_out.push(format!(
                "the generated function{s} {names} only as {each} {} variants {lo}..={hi} (at depth {depth}), not \
                 as every function",
                hi - lo + 1
            ));
        }
        (!left_out.is_empty()).then(|| left_out.join("; "))
    }

    /// The enumerating strategies (`lazy`, `smt`, `auto`) make only the
    /// valid inputs at least `height` recursive steps tall
    /// ([`crate::depth::input_height`]; a sequence is as tall as it is long):
    /// the solver starts at that height (the shorter inputs are never
    /// asked for), the lazy enumeration skips the shorter ones it meets.
    /// When no valid input up to the depth is that tall the run gives up
    /// saying so, never passes.
    pub fn from_height(mut self, height: u32) -> Self {
        self.min_height = height;
        self
    }

    /// With these measures instead of the registered ones.
    pub fn with_measures(mut self, measures: &'static Measures) -> Self {
        self.measures = measures;
        self
    }

    /// The spec violated by `args` (in parameter order), if any.
    pub fn violation(&self, args: &[Value]) -> Result<Option<Violation>, EvalError> {
        let named: Vec<(&str, Value)> = self.params.iter().map(|(n, _)| n.as_str()).zip(args.iter().cloned()).collect();
        speccheck_spec::admits(&named, &self.requires, self.measures)
    }

    /// `args`, re-checked by the evaluator, for a strategy (`by`) that
    /// builds valid inputs: an input the spec rejects, or cannot be
    /// evaluated on, is an error naming the spec and the input — never an
    /// input the property runs on.
    pub fn recheck(&self, by: &str, args: Vec<Value>) -> Result<Vec<Value>, String> {
        self.recheck_remembering(by, args, &RefCell::default())
    }

    /// [`ArgSpec::recheck`], remembering in `memo` what the evaluator found
    /// of the parts checked (a strategy's consecutive inputs share most of
    /// theirs, and each shared part is checked once: see
    /// [`speccheck_spec::admits_remembering`]).
    pub fn recheck_remembering(&self, by: &str, args: Vec<Value>, memo: &RefCell<Memo>) -> Result<Vec<Value>, String> {
        let shown = || args.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
        let named: Vec<(&str, Value)> = self.params.iter().map(|(n, _)| n.as_str()).zip(args.iter().cloned()).collect();
        match speccheck_spec::admits_remembering(&named, &self.requires, self.measures, memo) {
            Ok(None) => {
                *self.checked.lock().unwrap_or_else(|e| e.into_inner()) = Some(args.clone());
                Ok(args)
            }
            Ok(Some(bad)) => Err(format!(
                "{by} produced the input ({}), which the spec {bad} rejects: the strategy and the evaluator \
                 disagree. A spec that is not a function of its input (a predicate reading state, the time or \
                 randomness) does this; otherwise it is a bug in speccheck (please report it with this message)",
                shown()
            )),
            Err(e) => Err(format!("{by} produced the input ({}), on which the spec cannot be evaluated: {e}", shown())),
        }
    }

    /// Discards the case unless `args` is a valid input (the random and
    /// exhaustive strategies filter with this; the others build it in). A
    /// spec that cannot be evaluated on the input fails the case, naming
    /// why (a measure that does not terminate, a type error). The input a
    /// strategy last handed out, re-checked, is compared, not evaluated
    /// again (the property's prologue checks every input it runs on).
    pub fn admit(&self, args: &[Value]) {
        let checked = self.checked.lock().unwrap_or_else(|e| e.into_inner()).take();
        let verdict = match checked {
            Some(c) if c == args => Ok(None),
            _ => self.violation(args),
        };
        match verdict {
            Ok(None) => {}
            Ok(Some(v)) => speccheck_core::reject(format!("the spec {v} is false")),
            Err(e) => panic!("the spec could not be evaluated on this input: {e}"),
        }
        // The height bound is part of what a valid input is: an input from
        // elsewhere (a failure saved before the bound was set) shorter than
        // it is not one.
        if self.min_height > 0 {
            let types: Vec<Ty> = self.params.iter().map(|(_, ty)| ty.clone()).collect();
            let height = crate::depth::input_height(args, &types);
            if height < self.min_height {
                speccheck_core::reject(format!(
                    "the input is {height} recursive steps tall, below the lower bound {}",
                    self.min_height
                ));
            }
        }
    }

    pub(crate) fn exprs(&self) -> Vec<Expr> {
        self.requires.iter().map(|(_, e)| e.clone()).collect()
    }

    fn written(&self) -> String {
        if self.requires.is_empty() {
            "the refinements of the argument types".into()
        } else {
            self.requires.iter().map(|(w, _)| format!("`{w}`")).collect::<Vec<_>>().join(" && ")
        }
    }
}

/// Parses clauses given as written and as the spec parser reads them; an
/// error names the `kind` of clause and the one that does not parse.
pub(crate) fn parse_clauses(kind: &str, clauses: &[(&str, &str)]) -> Result<Vec<(String, Expr)>, String> {
    clauses
        .iter()
        .map(|(written, src)| {
            speccheck_spec::parse_str(src)
                .map(|e| (written.to_string(), e))
                .map_err(|e| format!("{kind} `{written}`: {} (`{}`)", e.message, e.construct))
        })
        .collect()
}

/// How long one solver query may take before the run stops as incomplete.
pub const QUERY_LIMIT: Duration = Duration::from_secs(10);

/// How long [`Strategy::Auto`] lets each way make inputs before it picks
/// the faster one (a solver query under way finishes first).
pub const AUTO_TRIAL: Duration = Duration::from_millis(200);

/// Sets `property` up to test the inputs `spec` admits the way `strategy`
/// says, at `depth` (the enumerating strategies). `reify` rebuilds the
/// property's input from the spec's values.
pub fn apply<G>(
    property: Property<G>,
    spec: &ArgSpec,
    strategy: Strategy,
    depth: u32,
    reify: fn(&[Value]) -> Option<G::Value>,
) -> Property<G>
where
    G: speccheck_core::Generator + Send + Sync + 'static,
    G::Value: Send + 'static,
{
    let caveat = spec.coverage_caveat(depth);
    let property = property.configure(|c| c.coverage_caveat = caveat);
    match strategy {
        Strategy::Random => property,
        Strategy::Sample => property.sampled_inputs(SampleInputs::new(spec, reify)),
        Strategy::Exhaustive => property.configure(|c| c.exhaustive = Some(depth)),
        Strategy::Lazy | Strategy::Smt | Strategy::Auto => {
            property.inputs_from(SpecInputs::start(spec, strategy, depth, reify))
        }
    }
}

/// The default for arguments with specs: random valid inputs from the
/// sampler ([`Strategy::Sample`]), one per case, growing with the run's
/// size ramp. Filtering random values leaves mostly the smallest valid
/// inputs of any invariant worth stating (a random tree is rarely a
/// red-black tree), and enumerating reaches large ones only after every
/// smaller one. For a spec the sampler cannot take (a set-typed input):
/// random values filtered by the specs, as [`apply_topped_up`] tops them
/// up (a set-typed input, which neither the solver nor the lazy
/// enumeration builds, is not topped up: the run gives up when the filter
/// rejects most values, and says why). `depth` is for that fallback.
pub fn apply_default<G>(
    property: Property<G>,
    spec: &ArgSpec,
    depth: u32,
    reify: fn(&[Value]) -> Option<G::Value>,
) -> Property<G>
where
    G: speccheck_core::Generator + Send + Sync + 'static,
    G::Value: Send + 'static,
{
    let sampler = SampleInputs::new(spec, reify);
    if sampler.sampler.is_ok() {
        return property.sampled_inputs(sampler);
    }
    apply_topped_up(property, spec, depth, reify)
}

/// Random values, filtered by the specs (far-off values small
/// enumerations do not reach); and if the filter rejects most of them, the
/// rest of the inputs from the solver or the lazy enumeration (as
/// [`Strategy::Auto`], the smallest valid inputs up to `depth`), which
/// meet the specs by construction. The report says when that happened, and
/// how large the added inputs were. Neither builds a set-typed input: with
/// one, a run short of its cases gives up, saying so. [`apply_default`]
/// does this for specs the sampler cannot take.
pub fn apply_topped_up<G>(
    property: Property<G>,
    spec: &ArgSpec,
    depth: u32,
    reify: fn(&[Value]) -> Option<G::Value>,
) -> Property<G>
where
    G: speccheck_core::Generator + Send + Sync + 'static,
    G::Value: Send + 'static,
{
    let caveat = spec.coverage_caveat(depth);
    let property = property.configure(|c| c.coverage_caveat = caveat);
    // Neither the lazy enumeration nor the solver builds a set: the run
    // then gives up when the filter rejects most values, and says so once.
    if let Some((name, _)) = spec.params.iter().find(|(_, ty)| crate::sample::has_set(ty)) {
        let why = format!("neither builds a set-typed input (argument `{name}` holds a set)");
        return property.fallback_inputs(move || NoTopUp { why });
    }
    let spec = spec.clone();
    property.fallback_inputs(move || SpecInputs::start(&spec, Strategy::Auto, depth, reify))
}

/// The top-up of a spec no enumeration can build inputs for: it stops at
/// its first step, saying why, and the run, short of its cases, gives up.
struct NoTopUp {
    why: String,
}

impl<T> InputSource<T> for NoTopUp {
    fn describe(&self) -> String {
        "the lazy enumeration or the solver".to_string()
    }

    fn next_input(&mut self) -> SourceStep<T> {
        SourceStep::Stopped { reason: self.why.clone() }
    }
}

/// The inputs of the lazy or SMT strategy (or the faster, for `auto`),
/// produced on a thread of their own (the solver's handles stay there) a
/// batch ahead of the run, each re-checked by the evaluator there, and
/// rebuilt into the property's input type here.
pub struct SpecInputs<T> {
    rx: Receiver<Msg>,
    /// Set when the run is over, so that the producer stops at once, not
    /// at its next input (which may be far off).
    stop: Arc<AtomicBool>,
    reify: fn(&[Value]) -> Option<T>,
    what: String,
    depth: u32,
    by: String,
    warnings: Vec<String>,
    /// How many inputs of each size (in constructors) were handed out.
    sizes: BTreeMap<usize, u64>,
    /// The inputs received (re-checked by the producer) and not handed out
    /// yet.
    batch: std::vec::IntoIter<Vec<Value>>,
}

/// A value's size in constructors, as the core counts them: each data
/// constructor and each sequence element (a list cell) is one; integers and
/// booleans are none.
pub fn constructors(v: &Value) -> usize {
    match v {
        Value::Int(_) | Value::Bool(_) | Value::Hole(_) => 0,
        Value::Data { fields, .. } => 1 + fields.iter().map(constructors).sum::<usize>(),
        Value::Seq(xs) => xs.len() + xs.iter().map(constructors).sum::<usize>(),
        Value::Set(xs) => xs.len() + xs.iter().map(constructors).sum::<usize>(),
    }
}

impl<T> SpecInputs<T> {
    /// Starts producing the inputs `spec` admits at `depth`.
    pub fn start(spec: &ArgSpec, strategy: Strategy, depth: u32, reify: fn(&[Value]) -> Option<T>) -> Self {
        let (tx, rx) = sync_channel(1);
        let spec2 = spec.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let stop2 = stop.clone();
        let by = match strategy {
            Strategy::Smt => "the SMT solver (z3)".to_string(),
            Strategy::Auto if cfg!(feature = "z3") => {
                "the faster of the lazy enumeration and the SMT solver".to_string()
            }
            _ => "the lazy enumeration".to_string(),
        };
        let spawned = std::thread::Builder::new()
            .name("speccheck-inputs".into())
            .spawn(move || producer::produce(&spec2, strategy, depth, &tx, stop2));
        // A thread that could not start is the source's first (and last) word.
        let rx = match spawned {
            Ok(_) => rx,
            Err(e) => {
                let (tx, rx) = sync_channel(1);
                let _ = tx.send(Msg::Error(format!("could not start the input thread: {e}")));
                rx
            }
        };
        SpecInputs {
            rx,
            stop,
            reify,
            what: match spec.min_height {
                0 => format!("valid inputs up to depth {depth} (satisfying {})", spec.written()),
                h => format!("valid inputs of height at least {h} up to depth {depth} (satisfying {})", spec.written()),
            },
            depth,
            by,
            warnings: Vec::new(),
            sizes: BTreeMap::new(),
            batch: Vec::new().into_iter(),
        }
    }
}

impl<T: Send> InputSource<T> for SpecInputs<T> {
    fn describe(&self) -> String {
        self.by.clone()
    }

    fn next_input(&mut self) -> SourceStep<T> {
        loop {
            if let Some(v) = self.batch.next() {
                return rebuilt(&self.by, self.reify, &mut self.sizes, v);
            }
            let msg = match self.rx.recv_timeout(WAIT) {
                Ok(msg) => msg,
                Err(RecvTimeoutError::Timeout) => return SourceStep::Waiting,
                Err(RecvTimeoutError::Disconnected) => {
                    return SourceStep::Error(format!("{} stopped without a word (its thread panicked)", self.by));
                }
            };
            return match msg {
                Msg::Inputs(vs) => {
                    self.batch = vs.into_iter();
                    continue;
                }
                Msg::By(by) => {
                    self.by = by;
                    continue;
                }
                Msg::Warning(w) => {
                    self.warnings.push(w);
                    continue;
                }
                Msg::Complete => SourceStep::Complete { what: self.what.clone(), depth: Some(self.depth) },
                Msg::Stopped(reason) => SourceStep::Stopped { reason },
                Msg::Error(e) => SourceStep::Error(e),
            };
        }
    }

    fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }

    fn sizes(&self) -> Option<String> {
        sizes_note(&self.sizes, "the smallest valid inputs, not a random sample")
    }

    /// Every input was re-checked by the evaluator on the producer's
    /// thread, its types' refinements included.
    fn prechecked(&self) -> bool {
        true
    }
}

impl<T> Drop for SpecInputs<T> {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// How long [`SpecInputs`] waits for the producer before it lets the run
/// check its budget ([`SourceStep::Waiting`]).
const WAIT: Duration = Duration::from_millis(20);

/// An input a strategy built, re-checked by the evaluator ([`ArgSpec::recheck`])
/// and rebuilt into the property's type, its size counted.
fn hand_out<T>(
    spec: &ArgSpec,
    by: &str,
    reify: fn(&[Value]) -> Option<T>,
    sizes: &mut BTreeMap<usize, u64>,
    memo: &RefCell<Memo>,
    v: Vec<Value>,
) -> SourceStep<T> {
    match spec.recheck_remembering(by, v, memo) {
        Err(e) => SourceStep::Error(e),
        Ok(v) => rebuilt(by, reify, sizes, v),
    }
}

/// A re-checked input rebuilt into the property's type, its size counted.
fn rebuilt<T>(
    by: &str,
    reify: fn(&[Value]) -> Option<T>,
    sizes: &mut BTreeMap<usize, u64>,
    v: Vec<Value>,
) -> SourceStep<T> {
    match reify(&v) {
        Some(t) => {
            *sizes.entry(v.iter().map(constructors).sum()).or_default() += 1;
            SourceStep::Input(t)
        }
        None => SourceStep::Error(format!(
            "{by} produced an input that does not fit the arguments' Rust types: ({})",
            v.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
        )),
    }
}

/// "their sizes in constructors: 1 ×11, 4 ×89 (mean 3.7; `what`)".
fn sizes_note(sizes: &BTreeMap<usize, u64>, what: &str) -> Option<String> {
    let total: u64 = sizes.values().sum();
    if total == 0 {
        return None;
    }
    let weighted: u64 = sizes.iter().map(|(&s, &n)| s as u64 * n).sum();
    let each = sizes.iter().map(|(s, n)| format!("{s} ×{n}")).collect::<Vec<_>>().join(", ");
    Some(format!("their sizes in constructors: {each} (mean {:.1}; {what})", weighted as f64 / total as f64))
}

/// The sampler's inputs ([`Strategy::Sample`]), one per case, no larger
/// than the case's size (unless no input that small is valid), from the
/// case's seed; each re-checked by the
/// evaluator and rebuilt into the property's input type.
pub struct SampleInputs<T> {
    sampler: Result<Sampler<'static>, String>,
    spec: ArgSpec,
    reify: fn(&[Value]) -> Option<T>,
    /// The next case's seed and size.
    case: (u64, usize),
    sizes: BTreeMap<usize, u64>,
    /// What the re-checks found of the parts the inputs share.
    memo: RefCell<Memo>,
}

impl<T> SampleInputs<T> {
    /// The sampler of the inputs `spec` admits (an error, said at the first
    /// input, when it cannot take the spec).
    pub fn new(spec: &ArgSpec, reify: fn(&[Value]) -> Option<T>) -> Self {
        let sampler = Sampler::new(&spec.params, &spec.exprs(), spec.measures).map_err(|e| e.to_string());
        SampleInputs {
            sampler,
            spec: spec.clone(),
            reify,
            case: (0, 100),
            sizes: BTreeMap::new(),
            memo: RefCell::new(Memo::with_limit(crate::sample::JUDGE_MEMO_LIMIT)),
        }
    }
}

const SAMPLER: &str = "the sampler (random valid inputs)";

impl<T: Send> InputSource<T> for SampleInputs<T> {
    fn describe(&self) -> String {
        SAMPLER.into()
    }

    fn prepare(&mut self, seed: u64, size: usize) {
        self.case = (seed, size);
    }

    fn next_input(&mut self) -> SourceStep<T> {
        let sampler = match &mut self.sampler {
            Ok(s) => s,
            Err(e) => return SourceStep::Error(format!("the sampler cannot take this spec: {e}")),
        };
        let (seed, size) = self.case;
        // Without `prepare` (not a sampling run), each input its own seed.
        self.case.0 = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let restarts = sampler.restarts;
        match sampler.sample(seed, u32::try_from(size).unwrap_or(u32::MAX)) {
            Ok(Some(v)) => hand_out(&self.spec, SAMPLER, self.reify, &mut self.sizes, &self.memo, v),
            Ok(None) => SourceStep::Stopped {
                reason: format!(
                    "it found no input satisfying {} of any size up to {} ({} attempts): the spec may be \
                     unsatisfiable, or met only by inputs it rarely reaches (`strategy = \"lazy\"` decides which, \
                     by enumeration)",
                    self.spec.written(),
                    sampler.largest_tried,
                    sampler.restarts - restarts
                ),
            },
            Err(e) => SourceStep::Error(format!("the sampler stopped: {e}")),
        }
    }

    fn sizes(&self) -> Option<String> {
        let spliced = self.sampler.as_ref().map_or(0, |s| s.spliced);
        if spliced == 0 {
            return sizes_note(&self.sizes, "random valid inputs, sized by the run's size ramp");
        }
        // Said, so that a long run's inputs are not taken for independent
        // draws: most past the first hundred share parts with earlier ones.
        let what = format!(
            "random valid inputs, sized by the run's size ramp; {spliced} of them, after the first 100, spliced from \
             parts of earlier ones"
        );
        sizes_note(&self.sizes, &what)
    }

    /// Every input was re-checked by the evaluator as it was handed out
    /// ([`ArgSpec::recheck_remembering`]), its types' refinements included.
    fn prechecked(&self) -> bool {
        true
    }
}
