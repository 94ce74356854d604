//! The model language (thesis §4.1–4.2.1): reference implementations of
//! interactive systems, written like servers.
//!
//! A model is a [`Model`]: an initial state and a loop body, [`Model::serve`],
//! run once per iteration. The body talks to the world only through its
//! [`Cx`], whose operations are the events of the thesis's interaction
//! trees:
//!
//! | thesis (ITree event)          | here                              |
//! |-------------------------------|-----------------------------------|
//! | `Recv` (qaE)                  | [`Cx::recv`] → `(connection, request)` |
//! | `Send` of a symbolic packet   | [`Cx::send`]                      |
//! | `Choice` (choiceE)            | [`Cx::fresh`] → a fresh symbolic variable |
//! | `IFX` / `Decide` (branchE)    | [`Cx::branch`] on a symbolic condition |
//! | `or` (nondetE)                | [`Cx::or`], [`Cx::choose`]        |
//! | (guard in the model)          | [`Cx::require`]                   |
//!
//! Each operation returns a [`Step`]`<T>`; the body uses `?` on it as a
//! server uses `?` on I/O. Requests are concrete (the tester made them);
//! responses may hold symbolic values ([`Symbolic`]).
//!
//! **Forking.** Interpreters explore many branches of one model, so a
//! running model must be copyable at any event. A [`Thread`] is the state
//! at the start of the current iteration plus the answers its events got
//! so far in this iteration; resuming re-runs the body from that state,
//! answering the first events from the log, until it reaches a new event —
//! the *pending* one — and suspends (the operation returns
//! `Err(Suspend)`, which `?` carries out). Threads are plain values
//! (`Clone + Eq + Hash`), so forking is cloning, and equal branches can be
//! merged. The body must therefore be a deterministic function of its state
//! and the answers (no clocks, no randomness, no global state); a body that
//! is not is reported as [`ModelError::Nondeterministic`].
//!
//! The same model runs under two interpretations: symbolically in the
//! validator ([`crate::dual`]), where `fresh` yields variables and `branch`
//! forks with constraints, and concretely in the brute-force enumerator
//! ([`crate::brute`]), where `fresh` yields constants and `branch`
//! evaluates its condition.

use std::fmt::{self, Debug};
use std::hash::Hash;

use crate::rule::{Check, Rule};
use crate::sym::{Expr, Sort, SymJson, Syms, Value};

/// A client connection, numbered from 0.
pub type Conn = usize;

/// What a model operation returns: the value, or `Err(Suspend)` when the
/// model must stop here until its interpreter supplies an answer.
pub type Step<T = ()> = Result<T, Suspend>;

/// The model suspended at a new event (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Suspend;

/// A symbolic response and how to recognize its concrete counterpart.
pub trait Symbolic: Clone + Debug + Eq + Hash + Syms + Send + Sync + 'static {
    /// The concrete response the tester observes.
    type Concrete: Clone + Debug + PartialEq + Send + Sync + 'static;

    /// The constraint that `obs` is an instance of this symbolic response
    /// (the thesis's *guard*): `false` when the shapes differ, a
    /// conjunction of equalities otherwise.
    fn matches(&self, obs: &Self::Concrete) -> Expr;

    /// The expectations `obs` must meet, each under the rule that demands
    /// it (see [`crate::rule`]); their conjunction should be
    /// [`matches`](Self::matches). By default one expectation, `matches`,
    /// under [`Rule::MODEL`] (a MUST).
    fn checks(&self, obs: &Self::Concrete) -> Vec<Check> {
        vec![Check::new(Rule::MODEL, self.matches(obs))]
    }

    /// What this response answers, for reports and for telling failures
    /// apart (e.g. the request's method); `None` by default.
    fn answering(&self) -> Option<String> {
        None
    }

    /// The concrete response, when this one has no unknowns (interpreting a
    /// model concretely: the brute-force enumerator, the model as a server).
    fn concretize(&self) -> Option<Self::Concrete>;

    /// How an observed response is printed in reports.
    fn show(obs: &Self::Concrete) -> String {
        format!("{obs:?}")
    }
}

impl Symbolic for Expr {
    type Concrete = Value;
    fn matches(&self, obs: &Value) -> Expr {
        match self.sort() {
            Some(s) if s == obs.sort() => self.equals(Expr::Const(obs.clone())),
            _ => Expr::bool(false),
        }
    }
    fn concretize(&self) -> Option<Value> {
        self.eval_ground()
    }
}

impl Symbolic for SymJson {
    type Concrete = serde_json::Value;
    fn matches(&self, obs: &serde_json::Value) -> Expr {
        SymJson::matches(self, obs)
    }
    fn show(obs: &serde_json::Value) -> String {
        obs.to_string()
    }
    fn concretize(&self) -> Option<serde_json::Value> {
        Some(match self {
            SymJson::Null => serde_json::Value::Null,
            SymJson::Leaf(e) => e.eval_ground()?.to_json(),
            SymJson::Array(xs) => serde_json::Value::Array(xs.iter().map(|x| x.concretize()).collect::<Option<_>>()?),
            SymJson::Object(xs) => serde_json::Value::Object(
                xs.iter().map(|(k, x)| Some((k.clone(), x.concretize()?))).collect::<Option<_>>()?,
            ),
        })
    }
}

/// A reference implementation of a server (see the [module docs](self)).
pub trait Model: Send + Sync + 'static {
    /// The server's state between iterations.
    type State: Clone + Debug + Eq + Hash + Syms + Send + Sync + 'static;
    /// Requests (concrete).
    type Req: Clone + Debug + Eq + Hash + Send + Sync + 'static;
    /// Responses (symbolic).
    type Resp: Symbolic;

    /// Whether the server may close a client connection between
    /// responses, at any time (a protocol says so: HTTP/1.1's persistent
    /// connections, for one). When false, a closed connection fails the
    /// execution; when true, the tester reconnects and the validator
    /// forgets what the server no longer owes ([`is_safe`](Self::is_safe)).
    const CLOSES: bool = false;

    /// Whether handling `req` changes nothing in the server's state (a
    /// *safe* request). When the server closes a connection, its
    /// unanswered safe requests are forgotten: whether the server handled
    /// them before closing makes no difference to anything observed later.
    /// Unsafe ones stay: the server may have acted on them. Only asked when
    /// [`CLOSES`](Self::CLOSES) is true; by default no request is safe.
    fn is_safe(&self, req: &Self::Req) -> bool {
        let _ = req;
        false
    }

    /// The state of a freshly started server.
    fn init(&self) -> Self::State;

    /// One iteration of the server loop: typically receive a request,
    /// update the state, send the response.
    fn serve(&self, state: &mut Self::State, cx: &mut Cx<'_, Self>) -> Step;
}

/// An event a model is suspended at.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Event<R> {
    /// Wants the next request, from any connection.
    Recv,
    /// Sends a response on a connection.
    Send(Conn, R),
    /// Makes an internal choice of the given sort: a fresh unknown.
    Fresh(Sort, &'static str),
    /// Branches on a symbolic condition.
    Branch(Expr),
    /// Requires a condition; behaviours where it fails do not exist.
    Require(Expr),
    /// Branches nondeterministically among `n` alternatives.
    Choose(usize),
}

impl<R: Debug> Debug for Event<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Recv => f.write_str("recv"),
            Event::Send(c, r) => write!(f, "send(conn {c}, {r:?})"),
            Event::Fresh(s, h) => write!(f, "fresh {h}: {s:?}"),
            Event::Branch(e) => write!(f, "branch on {e}"),
            Event::Require(e) => write!(f, "require {e}"),
            Event::Choose(n) => write!(f, "choose one of {n}"),
        }
    }
}

/// The answer an interpreter gives to an event.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Answer<Q> {
    /// To [`Event::Recv`]: the request, its connection, and how many
    /// requests were then in flight on other connections (the server is
    /// handling this one concurrently with them, see [`Cx::concurrent`]).
    Recv(Conn, Q, usize),
    /// To [`Event::Send`] and [`Event::Require`]: go on.
    Done,
    /// To [`Event::Fresh`]: the value (a variable, or a constant when
    /// interpreting concretely).
    Fresh(Expr),
    /// To [`Event::Branch`]: which way.
    Branch(bool),
    /// To [`Event::Choose`]: which alternative.
    Choose(usize),
}

/// What went wrong with a model (a bug in the model, not in the system
/// under test).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// Re-running the body with the same answers reached a different event.
    #[error("the model is not deterministic: event {index} of an iteration was `{expected}` before and `{got}` now")]
    Nondeterministic {
        /// Position in the iteration.
        index: usize,
        /// The event answered before.
        expected: String,
        /// The event reached now.
        got: String,
    },
    /// The body returned without any event many times in a row.
    #[error("the model makes no progress: {0} iterations in a row performed no event")]
    NoProgress(usize),
}

/// Iterations without any event before a model counts as stuck.
const MAX_EMPTY_ITERATIONS: usize = 64;

/// The model's handle on the world during one iteration.
pub struct Cx<'a, M: Model + ?Sized> {
    log: &'a [Answer<M::Req>],
    pos: usize,
    suspended: Option<Event<M::Resp>>,
    error: Option<ModelError>,
    concurrent: usize,
}

impl<M: Model + ?Sized> Cx<'_, M> {
    fn event(&mut self, ev: Event<M::Resp>) -> Step<Answer<M::Req>> {
        if self.suspended.is_some() || self.error.is_some() {
            // The body ignored a Suspend (did not use `?`): stay suspended.
            return Err(Suspend);
        }
        match self.log.get(self.pos) {
            Some(answer) => {
                self.pos += 1;
                Ok(answer.clone())
            }
            None => {
                self.suspended = Some(ev);
                Err(Suspend)
            }
        }
    }

    fn mismatch(&mut self, ev: &str, answer: &Answer<M::Req>) -> Suspend {
        self.error.get_or_insert(ModelError::Nondeterministic {
            index: self.pos - 1,
            expected: format!("{answer:?}"),
            got: ev.to_string(),
        });
        Suspend
    }

    /// Receives the next request, from whichever connection delivers one.
    pub fn recv(&mut self) -> Step<(Conn, M::Req)> {
        match self.event(Event::Recv)? {
            Answer::Recv(c, q, others) => {
                self.concurrent = others;
                Ok((c, q))
            }
            other => Err(self.mismatch("recv", &other)),
        }
    }

    /// How many requests were in flight on other connections when the
    /// last request was received: when more than zero, the server handles
    /// it concurrently with them (a protocol may permit failures then that
    /// it does not permit otherwise, such as a lock held by another
    /// client).
    pub fn concurrent(&self) -> usize {
        self.concurrent
    }

    /// Sends `resp` on connection `conn`.
    pub fn send(&mut self, conn: Conn, resp: M::Resp) -> Step {
        match self.event(Event::Send(conn, resp))? {
            Answer::Done => Ok(()),
            other => Err(self.mismatch("send", &other)),
        }
    }

    /// An internal choice: a fresh unknown of `sort`, named `hint` in
    /// reports (an ETag the server generates, a number it picks).
    pub fn fresh(&mut self, sort: Sort, hint: &'static str) -> Step<Expr> {
        match self.event(Event::Fresh(sort, hint))? {
            Answer::Fresh(e) => Ok(e),
            other => Err(self.mismatch("fresh", &other)),
        }
    }

    /// A fresh integer.
    pub fn fresh_int(&mut self, hint: &'static str) -> Step<Expr> {
        self.fresh(Sort::Int, hint)
    }

    /// A fresh string.
    pub fn fresh_str(&mut self, hint: &'static str) -> Step<Expr> {
        self.fresh(Sort::Str, hint)
    }

    /// A fresh boolean.
    pub fn fresh_bool(&mut self, hint: &'static str) -> Step<Expr> {
        self.fresh(Sort::Bool, hint)
    }

    /// Branches on a symbolic condition (`IFX`): the tester considers both
    /// ways, each constrained accordingly.
    pub fn branch(&mut self, cond: Expr) -> Step<bool> {
        if let Some(b) = cond.eval_ground().and_then(|v| v.as_bool()) {
            return Ok(b); // no unknowns: an ordinary `if`
        }
        match self.event(Event::Branch(cond))? {
            Answer::Branch(b) => Ok(b),
            other => Err(self.mismatch("branch", &other)),
        }
    }

    /// Requires `cond`: executions where it does not hold are not
    /// behaviours of the model (e.g. "the new tag differs from the old").
    pub fn require(&mut self, cond: Expr) -> Step {
        match self.event(Event::Require(cond))? {
            Answer::Done => Ok(()),
            other => Err(self.mismatch("require", &other)),
        }
    }

    /// Nondeterministic choice between two behaviours (`or`).
    pub fn or(&mut self) -> Step<bool> {
        Ok(self.choose(2)? == 1)
    }

    /// Nondeterministic choice among `n` behaviours; `n` must be at least 1.
    pub fn choose(&mut self, n: usize) -> Step<usize> {
        assert!(n > 0, "choose(0): no behaviour to choose");
        if n == 1 {
            return Ok(0);
        }
        match self.event(Event::Choose(n))? {
            Answer::Choose(i) if i < n => Ok(i),
            other => Err(self.mismatch("choose", &other)),
        }
    }
}

/// A running model, suspended at an event; a plain value, so forking is
/// cloning (see the [module docs](self)).
pub struct Thread<M: Model> {
    state: M::State,
    log: Vec<Answer<M::Req>>,
    pending: Event<M::Resp>,
    iterations: u64,
}

impl<M: Model> Clone for Thread<M> {
    fn clone(&self) -> Self {
        Thread {
            state: self.state.clone(),
            log: self.log.clone(),
            pending: self.pending.clone(),
            iterations: self.iterations,
        }
    }
}

impl<M: Model> PartialEq for Thread<M> {
    fn eq(&self, other: &Self) -> bool {
        self.state == other.state && self.log == other.log && self.pending == other.pending
    }
}
impl<M: Model> Eq for Thread<M> {}

impl<M: Model> Hash for Thread<M> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.state.hash(h);
        self.log.hash(h);
        self.pending.hash(h);
    }
}

impl<M: Model> Debug for Thread<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Thread").field("state", &self.state).field("pending", &self.pending).finish()
    }
}

impl<M: Model> Thread<M> {
    /// The model's initial state, run to its first event.
    pub fn start(model: &M) -> Result<Self, ModelError> {
        Self::at(model, model.init())
    }

    /// A thread starting an iteration from `state`.
    pub fn at(model: &M, state: M::State) -> Result<Self, ModelError> {
        let mut t = Thread { state, log: Vec::new(), pending: Event::Recv, iterations: 0 };
        t.advance(model)?;
        Ok(t)
    }

    /// The event the model waits at.
    pub fn pending(&self) -> &Event<M::Resp> {
        &self.pending
    }

    /// The state at the start of the current iteration.
    pub fn state(&self) -> &M::State {
        &self.state
    }

    /// Completed iterations.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// Visits every expression of the thread (state, answers, pending
    /// event); the thread must stay consistent (substitutions and
    /// renamings applied to all of them alike).
    pub fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        self.state.visit_exprs(f);
        for a in &mut self.log {
            if let Answer::Fresh(e) = a {
                f(e);
            }
        }
        match &mut self.pending {
            Event::Send(_, r) => r.visit_exprs(f),
            Event::Branch(e) | Event::Require(e) => f(e),
            Event::Recv | Event::Fresh(..) | Event::Choose(_) => {}
        }
    }

    /// Answers the pending event and runs to the next one.
    pub fn answer(&mut self, model: &M, answer: Answer<M::Req>) -> Result<(), ModelError> {
        self.log.push(answer);
        self.advance(model)
    }

    /// Re-runs the current iteration with the logged answers until it
    /// suspends; completed iterations commit their state.
    fn advance(&mut self, model: &M) -> Result<(), ModelError> {
        let mut empty = 0;
        loop {
            let mut state = self.state.clone();
            let mut cx = Cx::<M> { log: &self.log, pos: 0, suspended: None, error: None, concurrent: 0 };
            let result = model.serve(&mut state, &mut cx);
            if let Some(e) = cx.error {
                return Err(e);
            }
            match (result, cx.suspended) {
                (Err(Suspend), Some(ev)) => {
                    if cx.pos < self.log.len() {
                        return Err(ModelError::Nondeterministic {
                            index: cx.pos,
                            expected: format!("{:?}", self.log[cx.pos]),
                            got: format!("{ev:?}"),
                        });
                    }
                    self.pending = ev;
                    return Ok(());
                }
                (Err(Suspend), None) => {
                    // A model may return its own Suspend only via an operation.
                    return Err(ModelError::Nondeterministic {
                        index: cx.pos,
                        expected: "an event".into(),
                        got: "Err(Suspend) without one".into(),
                    });
                }
                (Ok(()), _) => {
                    if cx.pos < self.log.len() {
                        return Err(ModelError::Nondeterministic {
                            index: cx.pos,
                            expected: format!("{:?}", self.log[cx.pos]),
                            got: "the end of the iteration".into(),
                        });
                    }
                    if self.log.is_empty() {
                        empty += 1;
                        if empty >= MAX_EMPTY_ITERATIONS {
                            return Err(ModelError::NoProgress(empty));
                        }
                    }
                    self.state = state;
                    self.log.clear();
                    self.iterations += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CMP-RST (thesis §2.2.1): reset to any number when the request is
    /// above the stored one.
    struct CmpRst;

    impl Model for CmpRst {
        type State = Expr;
        type Req = i64;
        type Resp = Expr;
        fn init(&self) -> Expr {
            Expr::int(0)
        }
        fn serve(&self, n: &mut Expr, cx: &mut Cx<'_, Self>) -> Step {
            let (conn, q) = cx.recv()?;
            if cx.branch(Expr::int(q).le(n.clone()))? {
                cx.send(conn, Expr::int(0))
            } else {
                *n = cx.fresh_int("n")?;
                cx.send(conn, Expr::int(1))
            }
        }
    }

    #[test]
    fn threads_suspend_fork_and_resume() {
        let m = CmpRst;
        let mut t = Thread::start(&m).unwrap();
        assert_eq!(t.pending(), &Event::Recv);
        // A request of 5 > 0: the ground condition needs no answer.
        t.answer(&m, Answer::Recv(0, 5, 0)).unwrap();
        assert_eq!(t.pending(), &Event::Fresh(Sort::Int, "n"));
        let x = Expr::Var(crate::sym::Var { id: 0, sort: Sort::Int, hint: "n" });
        t.answer(&m, Answer::Fresh(x.clone())).unwrap();
        assert_eq!(t.pending(), &Event::Send(0, Expr::int(1)));
        t.answer(&m, Answer::Done).unwrap();
        assert_eq!(t.state(), &x);
        assert_eq!(t.iterations(), 1);
        // Now the condition is symbolic: fork.
        t.answer(&m, Answer::Recv(1, 3, 0)).unwrap();
        assert_eq!(t.pending(), &Event::Branch(Expr::int(3).le(x.clone())));
        let mut other = t.clone();
        t.answer(&m, Answer::Branch(true)).unwrap();
        other.answer(&m, Answer::Branch(false)).unwrap();
        assert_eq!(t.pending(), &Event::Send(1, Expr::int(0)));
        assert_eq!(other.pending(), &Event::Fresh(Sort::Int, "n"));
    }

    #[test]
    fn mismatched_answers_are_reported() {
        let m = CmpRst;
        let mut t = Thread::start(&m).unwrap();
        let err = t.answer(&m, Answer::Branch(true)).unwrap_err();
        assert!(matches!(err, ModelError::Nondeterministic { index: 0, .. }), "{err}");
    }

    struct Idle;
    impl Model for Idle {
        type State = ();
        type Req = ();
        type Resp = Expr;
        fn init(&self) {}
        fn serve(&self, _: &mut (), _: &mut Cx<'_, Self>) -> Step {
            Ok(())
        }
    }

    #[test]
    fn a_model_without_events_is_reported_not_looped_on() {
        assert_eq!(Thread::start(&Idle).unwrap_err(), ModelError::NoProgress(MAX_EMPTY_ITERATIONS));
    }
}
