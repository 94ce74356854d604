//! Checking one call against its contract: the precondition on entry, the
//! postconditions, the cost bound and the time bound on exit, `no_panic`
//! when the call panics. A part that cannot be evaluated (a measure that
//! does not terminate, a type error, a panic inside the spec) is a broken
//! contract, reported as such, never as a violation by the function.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use speccheck_spec::{Env, Expr, Measures, Value};

/// What a part of a contract says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartKind {
    /// `requires(p)`: what a caller must pass (Ciao's *calls*).
    Requires,
    /// `ensures(p)`: what a call that returns gives (Ciao's *success*).
    Ensures,
    /// `cost(steps <= bound)`: the steps one call ticks.
    Cost,
    /// `no_panic`: the call returns (Ciao's `not_fails`).
    NoPanic,
    /// `deterministic`: equal inputs give equal results (Ciao's `is_det`).
    Deterministic,
    /// `terminates_within(ms)`: the call returns in time.
    TerminatesWithin,
    /// `pure`: a method leaves its receiver as it found it.
    Pure,
}

/// One part of a contract, as written.
#[derive(Clone, Debug)]
pub struct Part {
    /// What it says.
    pub kind: PartKind,
    /// As written (`sorted(result)`, `no_panic`, `terminates_within(50)`).
    pub written: String,
    /// The spec, for the parts that are one.
    pub expr: Option<Expr>,
}

impl Part {
    /// How the part is named in reports: "the postcondition `sorted(result)`".
    pub fn describe(&self) -> String {
        match self.kind {
            PartKind::Requires => format!("the precondition `{}`", self.written),
            PartKind::Ensures if self.expr.is_none() => self.written.clone(),
            PartKind::Ensures => format!("the postcondition `{}`", self.written),
            PartKind::Cost => format!("the cost bound `{}`", self.written),
            PartKind::NoPanic | PartKind::Deterministic | PartKind::TerminatesWithin | PartKind::Pure => {
                format!("`{}`", self.written)
            }
        }
    }
}

/// A contract that does not hold on a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ContractError {
    /// The call breaks a part: the function's fault (or, for a
    /// precondition, its caller's).
    Violated {
        /// The function.
        function: String,
        /// The part, described.
        part: String,
        /// True for a precondition: the caller is at fault.
        by_caller: bool,
        /// The inputs, `name = value`.
        inputs: String,
        /// The result, if the call returned.
        result: Option<String>,
        /// What was measured (steps, time, the panic's message).
        detail: Option<String>,
    },
    /// A part could not be evaluated: the contract is at fault.
    Broken {
        /// The function.
        function: String,
        /// The part, described.
        part: String,
        /// The inputs, `name = value`.
        inputs: String,
        /// Why.
        why: String,
    },
}

impl std::fmt::Display for ContractError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ContractError::Violated { function, part, by_caller, inputs, result, detail } => {
                let whose =
                    if *by_caller { format!("violated by a caller of `{function}`") } else { "violated".into() };
                write!(f, "contract of `{function}` {whose}: {part} is false\n  inputs: {inputs}")?;
                if let Some(r) = result {
                    write!(f, "\n  result: {r}")?;
                }
                if let Some(d) = detail {
                    write!(f, "\n  {d}")?;
                }
                Ok(())
            }
            ContractError::Broken { function, part, inputs, why } => write!(
                f,
                "contract of `{function}` is broken (this is not a violation by `{function}`): {part} could not be \
                 evaluated on {inputs}: {why}"
            ),
        }
    }
}

impl std::error::Error for ContractError {}

/// A function's contract, parsed once, checked call by call.
#[derive(Debug)]
pub struct Contract {
    function: String,
    parts: Vec<Part>,
    within: Option<Duration>,
    measures: &'static Measures,
    /// The expressions under `old(..)` in the postconditions, evaluated on
    /// entry; the postconditions read them as the variables `old#k`.
    olds: Vec<Expr>,
    /// Arguments changed in place (`&mut`): the postconditions see their
    /// values after the call, and `old(x)` for before.
    mutated: Vec<String>,
    /// The parameters' names, in order (`self` first for a method).
    params: Vec<String>,
    /// What the static classifier may read of the body, or why it could
    /// not read the summary.
    body: Option<Result<crate::body::Body, String>>,
    /// Whether the function returns an integer or a `bool` (a caller's
    /// classification computes with the result only then).
    scalar_result: bool,
}

/// A call in progress: the arguments as they were on entry, what `old(..)`
/// stood for then, and the step counter and clock.
pub struct Entered {
    args: Vec<(&'static str, Value)>,
    olds: Vec<(String, Value)>,
    steps: u64,
    /// When the call began, for `terminates_within` only (reading the
    /// clock costs more than the rest of a cheap call's checks).
    started: Option<Instant>,
}

fn parse(kind: PartKind, written: &str, source: &str) -> Result<Part, String> {
    let expr =
        speccheck_spec::parse_str(source).map_err(|e| format!("`{written}`: {} (`{}`)", e.message, e.construct))?;
    Ok(Part { kind, written: written.to_string(), expr: Some(expr) })
}

/// The name a postcondition reads `old(..)` number `k` by.
fn old_var(k: usize) -> String {
    format!("old#{k}")
}

/// Replaces each `old(e)` in `expr` by a variable, collecting the `e`s.
fn take_olds(expr: &Expr, olds: &mut Vec<Expr>, written: &str) -> Result<Expr, String> {
    let mut bad = None;
    let out = expr.rewrite(&mut |e| match e {
        Expr::Call(f, args) if f == "old" => {
            if args.len() != 1 || args[0].calls().iter().any(|c| c == "old") {
                bad = Some(format!("`{written}`: `old` takes one expression, not itself an `old`"));
                return Some(e.clone());
            }
            olds.push(args[0].clone());
            Some(Expr::Var(old_var(olds.len() - 1)))
        }
        _ => None,
    });
    bad.map_or(Ok(out), Err)
}

impl Contract {
    /// The contract of `function`: clauses as written and as the spec
    /// parser reads them, the cost bound over `steps`, and the flags.
    pub fn new(
        function: &str,
        requires: &[(&str, &str)],
        ensures: &[(&str, &str)],
        cost: Option<(&str, &str)>,
        no_panic: bool,
        within_ms: Option<u64>,
    ) -> Result<Contract, String> {
        let mut parts = Vec::new();
        let mut olds = Vec::new();
        for (w, s) in requires {
            let p = parse(PartKind::Requires, w, s)?;
            if p.expr.as_ref().is_some_and(|e| e.calls().iter().any(|c| c == "old")) {
                return Err(format!("`{w}`: `old(..)` means a value before the call: it belongs in `ensures`"));
            }
            parts.push(p);
        }
        let after = ensures.iter().map(|c| (PartKind::Ensures, *c)).chain(cost.map(|c| (PartKind::Cost, c)));
        for (kind, (w, s)) in after {
            let mut p = parse(kind, w, s)?;
            p.expr = p.expr.map(|e| take_olds(&e, &mut olds, w)).transpose()?;
            parts.push(p);
        }
        if no_panic {
            parts.push(Part { kind: PartKind::NoPanic, written: "no_panic".into(), expr: None });
        }
        if let Some(ms) = within_ms {
            parts.push(Part {
                kind: PartKind::TerminatesWithin,
                written: format!("terminates_within({ms})"),
                expr: None,
            });
        }
        Ok(Contract {
            function: function.to_string(),
            parts,
            within: within_ms.map(Duration::from_millis),
            measures: Measures::global(),
            olds,
            mutated: Vec::new(),
            params: Vec::new(),
            body: None,
            scalar_result: false,
        })
    }

    /// Names the parameters, in order (`self` first for a method): a
    /// caller's classification substitutes its arguments for them.
    pub fn params(mut self, names: &[&str]) -> Self {
        self.params = names.iter().map(|n| n.to_string()).collect();
        self
    }

    /// Says the function returns an integer or a `bool`.
    pub fn scalar_result(mut self) -> Self {
        self.scalar_result = true;
        self
    }

    /// Whether the function returns an integer or a `bool`.
    pub fn returns_scalar(&self) -> bool {
        self.scalar_result
    }

    /// The parameters' names, in order.
    pub fn param_names(&self) -> &[String] {
        &self.params
    }

    /// The arguments the function changes in place.
    pub fn mutated_names(&self) -> &[String] {
        &self.mutated
    }

    /// Lets the static classifier read the body's summary (`let` bindings
    /// and tail as spec text, call sites' paths as written in `module`;
    /// see [`crate::callees`]).
    pub fn body(mut self, module: &str, lets: &[(&str, &str)], tail: Option<&str>, callees: &[&str]) -> Self {
        self.body = Some(crate::body::Body::parse(module, lets, tail, callees));
        self
    }

    /// Says why the body is not read (the classifier then assumes
    /// nothing about what the function returns).
    pub fn body_unread(mut self, why: &str) -> Self {
        self.body = Some(Err(why.to_string()));
        self
    }

    /// The body's summary, if one was given (or why it could not be read).
    pub fn body_summary(&self) -> Option<&Result<crate::body::Body, String>> {
        self.body.as_ref()
    }

    /// Names the arguments the function changes in place (`&mut self`,
    /// `xs: &mut Vec<T>`): the postconditions read their values after the
    /// call, and `old(xs)` for their values before it.
    pub fn mutated(mut self, names: &[&str]) -> Self {
        self.mutated = names.iter().map(|n| n.to_string()).collect();
        self
    }

    /// Adds `pure`: a method leaves its receiver as it found it (checked
    /// by the caller of [`Contract::impure`], which can compare receivers).
    pub fn pure(mut self) -> Self {
        self.parts.push(Part { kind: PartKind::Pure, written: "pure".into(), expr: None });
        self
    }

    /// Whether the contract says the method leaves its receiver unchanged.
    pub fn is_pure(&self) -> bool {
        self.parts.iter().any(|p| p.kind == PartKind::Pure)
    }

    /// A part as the static classifier should read it: after-values of
    /// the mutated arguments renamed `x'` (unknown, like the result), and
    /// `old(e)` read as `e` over the arguments on entry.
    pub fn before_after_view(&self, p: &Part) -> Option<Expr> {
        let mut e = p.expr.clone()?;
        for m in &self.mutated {
            e = e.subst(m, &Expr::Var(format!("{m}'")));
        }
        for (k, old) in self.olds.iter().enumerate() {
            e = e.subst(&old_var(k), old);
        }
        Some(e)
    }

    /// With these measures instead of the registered ones.
    pub fn with_measures(mut self, measures: &'static Measures) -> Self {
        self.measures = measures;
        self
    }

    /// The function's name.
    pub fn function(&self) -> &str {
        &self.function
    }

    /// The parts, in the order written (requires, ensures, cost, flags).
    pub fn parts(&self) -> &[Part] {
        &self.parts
    }

    /// Whether the contract says the function never panics.
    pub fn no_panic(&self) -> bool {
        self.parts.iter().any(|p| p.kind == PartKind::NoPanic)
    }

    /// Checks the precondition on the arguments of a call.
    pub fn enter(&self, args: Vec<(&'static str, Value)>) -> Result<Entered, ContractError> {
        let mut env = self.env(&args, &[], &[], None, 0);
        for p in self.parts.iter().filter(|p| p.kind == PartKind::Requires) {
            if !self.holds(p, p.expr.as_ref(), &mut env, &args)? {
                let call = Entered { args, olds: Vec::new(), steps: 0, started: None };
                return Err(self.violated(p, true, &call, &[], None, None));
            }
        }
        let mut olds = Vec::with_capacity(self.olds.len());
        for (k, e) in self.olds.iter().enumerate() {
            let part = Part { kind: PartKind::Ensures, written: format!("old({e})"), expr: Some(e.clone()) };
            olds.push((old_var(k), self.value(&part, Some(e), &mut env, &args)?));
        }
        let started = self.within.map(|_| Instant::now());
        Ok(Entered { args, olds, steps: crate::steps::steps(), started })
    }

    /// Checks the postconditions, the cost and the time of a call that
    /// returned `result` (`None` when no part mentions it); `after` holds
    /// the values of the [mutated](Contract::mutated) arguments after the
    /// call.
    pub fn exit(
        &self,
        call: &Entered,
        result: Option<Value>,
        after: Vec<(&'static str, Value)>,
    ) -> Result<(), ContractError> {
        let result = result.as_ref();
        let violated = |p: &Part, detail: Option<String>| self.violated(p, false, call, &after, result, detail);
        if let Some(r) = result {
            // The result type's own refinements are part of every contract.
            let part = Part { kind: PartKind::Ensures, written: "the result type's refinements".into(), expr: None };
            match speccheck_spec::violation(r, self.measures) {
                Ok(None) => {}
                Ok(Some(v)) => return Err(violated(&part, Some(format!("the refinement {v} is false")))),
                Err(e) => {
                    return Err(ContractError::Broken {
                        function: self.function.clone(),
                        part: format!("the result's refinements (result = {r})"),
                        inputs: show(&call.args),
                        why: e.to_string(),
                    });
                }
            }
        }
        let elapsed = call.started.map_or(Duration::ZERO, |t| t.elapsed());
        let steps = crate::steps::steps().wrapping_sub(call.steps);
        let mut env = self.env(&call.args, &after, &call.olds, result, steps);
        // Whether this call took a path some conditional postcondition is
        // about (its condition held): the generated test warns when most
        // calls did not, since `p ==> q` holds trivially when `p` is false.
        let mut conditions = None;
        for p in &self.parts {
            let mut holds = |e: &Expr| self.holds(p, Some(e), &mut env, &call.args);
            match (p.kind, &p.expr) {
                (PartKind::Ensures, Some(Expr::Binary(speccheck_spec::BinOp::Implies, cond, then))) => {
                    let met = holds(cond)?;
                    conditions = Some(conditions.unwrap_or(false) || met);
                    if met && !holds(then)? {
                        return Err(violated(p, None));
                    }
                }
                (PartKind::Ensures, Some(e)) if !holds(e)? => {
                    return Err(violated(p, None));
                }
                (PartKind::Cost, Some(e)) if !holds(e)? => {
                    return Err(violated(p, Some(format!("steps: {steps}"))));
                }
                (PartKind::TerminatesWithin, _) if self.within.is_some_and(|w| elapsed > w) => {
                    return Err(violated(p, Some(format!("took {} ms", elapsed.as_millis()))));
                }
                _ => {}
            }
        }
        LAST_CONDITIONS.with(|c| c.set(conditions));
        Ok(())
    }

    /// The `no_panic` violation of a call that panicked with `message`.
    pub fn panicked(&self, call: &Entered, message: &str) -> ContractError {
        let part = Part { kind: PartKind::NoPanic, written: "no_panic".into(), expr: None };
        self.violated(&part, false, call, &[], None, Some(format!("panicked: {message}")))
    }

    /// The `pure` violation of a method call that changed its receiver
    /// from `before` to `after`.
    pub fn impure(&self, call: &Entered, before: &str, after: &str) -> ContractError {
        let part = Part { kind: PartKind::Pure, written: "pure".into(), expr: None };
        let detail = format!("the receiver changed:\n    before: {before}\n    after:  {after}");
        self.violated(&part, false, call, &[], None, Some(detail))
    }

    /// The `deterministic` violation of two calls on equal inputs.
    pub fn nondeterministic(&self, args: &[(&'static str, Value)], first: &str, second: &str) -> ContractError {
        let part = Part { kind: PartKind::Deterministic, written: "deterministic".into(), expr: None };
        ContractError::Violated {
            function: self.function.clone(),
            part: part.describe(),
            by_caller: false,
            inputs: show(args),
            result: Some(first.to_string()),
            detail: Some(format!("a second call on equal inputs returned {second}")),
        }
    }

    fn violated(
        &self,
        p: &Part,
        by_caller: bool,
        call: &Entered,
        after: &[(&'static str, Value)],
        result: Option<&Value>,
        detail: Option<String>,
    ) -> ContractError {
        let changed = (!after.is_empty()).then(|| format!("after the call: {}", show(after)));
        let detail = match (changed, detail) {
            (Some(c), Some(d)) => Some(format!("{c}\n  {d}")),
            (c, d) => c.or(d),
        };
        ContractError::Violated {
            function: self.function.clone(),
            part: p.describe(),
            by_caller,
            inputs: show(&call.args),
            result: result.map(ToString::to_string),
            detail,
        }
    }

    /// The scope a call's parts are evaluated in: the arguments on entry,
    /// then the values after the call and the `old` values, the result and
    /// the steps. Built once per phase of a call, not per part.
    fn env(
        &self,
        args: &[(&'static str, Value)],
        after: &[(&'static str, Value)],
        olds: &[(String, Value)],
        result: Option<&Value>,
        steps: u64,
    ) -> Env<'static> {
        let mut env = Env::new(self.measures);
        for (n, v) in args.iter().chain(after) {
            env.bind(*n, v.clone());
        }
        for (n, v) in olds {
            env.bind(n.clone(), v.clone());
        }
        if let Some(r) = result {
            env.bind("result", r.clone());
        }
        env.bind("steps", Value::Int(i128::from(steps)));
        env
    }

    /// Evaluates `expr`, a part or a piece of one, to a boolean (see
    /// [`Contract::value`]).
    fn holds(
        &self,
        p: &Part,
        expr: Option<&Expr>,
        env: &mut Env<'static>,
        args: &[(&'static str, Value)],
    ) -> Result<bool, ContractError> {
        match self.value(p, expr, env, args)? {
            Value::Bool(b) => Ok(b),
            other => Err(ContractError::Broken {
                function: self.function.clone(),
                part: p.describe(),
                inputs: show(args),
                why: format!("it is {other}, not a boolean"),
            }),
        }
    }

    /// Evaluates a part in `env` (see [`Contract::env`]; `args` are for the
    /// report); a part that cannot be evaluated, or panics while it is,
    /// breaks the contract.
    fn value(
        &self,
        p: &Part,
        expr: Option<&Expr>,
        env: &mut Env<'static>,
        args: &[(&'static str, Value)],
    ) -> Result<Value, ContractError> {
        let Some(expr) = expr else { return Ok(Value::Bool(true)) };
        let evaluated = catch_unwind(AssertUnwindSafe(|| env.eval(expr)));
        let broken = |why: String| ContractError::Broken {
            function: self.function.clone(),
            part: p.describe(),
            inputs: show(args),
            why,
        };
        match evaluated {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => Err(broken(e.to_string())),
            Err(payload) => Err(broken(format!("it panicked: {}", panic_message(&*payload)))),
        }
    }
}

thread_local! {
    static LAST_CONDITIONS: std::cell::Cell<Option<bool>> = const { std::cell::Cell::new(None) };
}

/// Whether the last call checked on this thread met the condition of one
/// of its conditional postconditions (`ensures(p ==> q)` with `p` true);
/// `None` when its contract has none. The generated test asks for most of
/// its calls to, since the others check those parts only trivially.
pub fn last_call_met_a_condition() -> Option<bool> {
    LAST_CONDITIONS.with(|c| c.get())
}

/// True when a panic's message is a contract's report (a nested call's
/// violation passes through an outer `no_panic` unchanged: the part
/// broken is the inner one).
pub fn is_contract_report(message: &str) -> bool {
    message.starts_with("contract of `")
}

/// The body of a trait impl's contracted method, as the closure the
/// wrapper calls: naming its result type `R` lets the closure's `?` and
/// `return` read as the method's.
#[doc(hidden)]
#[inline(always)]
pub fn body<R, F: FnOnce() -> R>(f: F) -> F {
    f
}

/// `name = value, …`.
pub fn show(args: &[(&'static str, Value)]) -> String {
    if args.is_empty() {
        return "(none)".into();
    }
    args.iter().map(|(n, v)| format!("{n} = {v}")).collect::<Vec<_>>().join(", ")
}

/// The message of a panic payload.
pub use speccheck_core::case::payload_message as panic_message;
