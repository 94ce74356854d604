//! A brute-force enumerator of a model's behaviours: the independent
//! reference the derived validator is tested against.
//!
//! It shares nothing with [`crate::dual`] but the model itself. It runs the
//! model *concretely* — every internal choice takes each value of a finite
//! candidate domain, every symbolic condition is evaluated, every `or` is
//! taken both ways — and it interleaves the server with the network
//! *eagerly*: before each observation the server may take any number of
//! steps, receiving in-flight requests of any connection in any order
//! (per-connection order kept). An observation is explained when some
//! resulting configuration matches it exactly. No solver, no lazy
//! scheduling, no symbolic guards.
//!
//! It is exact for bounded traces when the candidate domain is
//! sufficient: every constant an internal choice is compared with is in
//! [`Domain`] (integers also get their neighbours, which covers order
//! comparisons with constants); fresh strings are named canonically (the
//! *k*-th distinct unseen string is `fresh-k`), which covers equalities
//! among the server's choices.

use std::collections::{HashSet, VecDeque};
use std::hash::Hash;

use crate::dual::Observation;
use crate::model::{Answer, Conn, Event, Model, Symbolic, Thread};
use crate::sym::{Sort, Value};

/// Candidate values for internal choices.
#[derive(Clone, Debug, Default)]
pub struct Domain {
    /// Integers compared with (their neighbours are added).
    pub ints: Vec<i64>,
    /// Strings compared with (e.g. every tag in the trace).
    pub strs: Vec<String>,
}

impl Domain {
    fn int_candidates(&self) -> Vec<i64> {
        let mut out: Vec<i64> = Vec::new();
        for &c in self.ints.iter().chain(&[0]) {
            for d in [-1i64, 0, 1] {
                if let Some(v) = c.checked_add(d) {
                    out.push(v);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// Limits of the enumeration.
#[derive(Clone, Copy, Debug)]
pub struct BruteLimits {
    /// Most configurations kept between two observations.
    pub max_configs: usize,
    /// Most server steps in a row.
    pub max_depth: usize,
}

impl Default for BruteLimits {
    fn default() -> Self {
        BruteLimits { max_configs: 50_000, max_depth: 64 }
    }
}

/// The enumerator's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Brute {
    /// Some behaviour of the model produces the trace.
    Valid,
    /// None does; the index of the first observation no configuration
    /// explains.
    Invalid(usize),
    /// The bounds were reached before an answer.
    Inconclusive(String),
}

struct Config<M: Model> {
    server: Thread<M>,
    to_server: Vec<VecDeque<M::Req>>,
    to_client: Vec<VecDeque<M::Resp>>,
    fresh_names: usize,
}

impl<M: Model> Clone for Config<M> {
    fn clone(&self) -> Self {
        Config {
            server: self.server.clone(),
            to_server: self.to_server.clone(),
            to_client: self.to_client.clone(),
            fresh_names: self.fresh_names,
        }
    }
}
impl<M: Model> PartialEq for Config<M> {
    fn eq(&self, o: &Self) -> bool {
        self.server == o.server
            && self.to_server == o.to_server
            && self.to_client == o.to_client
            && self.fresh_names == o.fresh_names
    }
}
impl<M: Model> Eq for Config<M> {}
impl<M: Model> Hash for Config<M> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.server.hash(h);
        self.to_server.hash(h);
        self.to_client.hash(h);
        self.fresh_names.hash(h);
    }
}

/// Decides by enumeration whether the model can produce `trace`.
pub fn explains<M: Model>(
    model: &M,
    trace: &[Observation<M::Req, <M::Resp as Symbolic>::Concrete>],
    domain: &Domain,
    limits: BruteLimits,
) -> Brute {
    let conns = 1 + trace
        .iter()
        .map(|o| match o {
            Observation::Sent(c, _) | Observation::Received(c, _) => *c,
        })
        .max()
        .unwrap_or(0);
    let server = match Thread::start(model) {
        Ok(t) => t,
        Err(e) => return Brute::Inconclusive(format!("model error: {e}")),
    };
    let ints = domain.int_candidates();
    let start = Config::<M> {
        server,
        to_server: vec![VecDeque::new(); conns],
        to_client: vec![VecDeque::new(); conns],
        fresh_names: 0,
    };
    let mut configs = vec![start];
    for (i, o) in trace.iter().enumerate() {
        let closed = match closure(model, configs, &ints, domain, limits) {
            Ok(c) => c,
            Err(why) => return Brute::Inconclusive(why),
        };
        let mut next = Vec::new();
        let mut seen = HashSet::new();
        for mut cfg in closed {
            let keep = match o {
                Observation::Sent(c, q) => {
                    cfg.to_server[*c].push_back(q.clone());
                    true
                }
                Observation::Received(c, a) => match cfg.to_client[*c].pop_front() {
                    Some(r) => r.matches(a).eval_ground() == Some(Value::Bool(true)),
                    None => false,
                },
            };
            if keep && seen.insert(cfg.clone()) {
                next.push(cfg);
            }
        }
        if next.is_empty() {
            return Brute::Invalid(i);
        }
        configs = next;
    }
    Brute::Valid
}

/// Every configuration reachable by server steps alone.
fn closure<M: Model>(
    model: &M,
    start: Vec<Config<M>>,
    ints: &[i64],
    domain: &Domain,
    limits: BruteLimits,
) -> Result<Vec<Config<M>>, String> {
    let mut seen: HashSet<Config<M>> = HashSet::new();
    let mut out = Vec::new();
    let mut work: Vec<(Config<M>, usize)> = start.into_iter().map(|c| (c, 0)).collect();
    while let Some((cfg, depth)) = work.pop() {
        if !seen.insert(cfg.clone()) {
            continue;
        }
        if seen.len() > limits.max_configs {
            return Err(format!("more than {} configurations", limits.max_configs));
        }
        // Internal steps commute with observations: only configurations
        // about to receive or send are observation points.
        if matches!(cfg.server.pending(), Event::Recv | Event::Send(..)) {
            out.push(cfg.clone());
        }
        if depth >= limits.max_depth {
            return Err(format!("more than {} server steps in a row", limits.max_depth));
        }
        let mut succ = |mut c: Config<M>, a: Answer<M::Req>| -> Result<(), String> {
            c.server.answer(model, a).map_err(|e| format!("model error: {e}"))?;
            work.push((c, depth + 1));
            Ok(())
        };
        match cfg.server.pending().clone() {
            Event::Recv => {
                for c in 0..cfg.to_server.len() {
                    if let Some(q) = cfg.to_server[c].front().cloned() {
                        let mut next = cfg.clone();
                        next.to_server[c].pop_front();
                        let others =
                            next.to_server.iter().enumerate().filter(|(o, _)| *o != c).map(|(_, q)| q.len()).sum();
                        succ(next, Answer::Recv(c as Conn, q, others))?;
                    }
                }
            }
            Event::Send(c, r) => {
                if r.concretize().is_none() {
                    return Err(format!(
                        "the model sent a response with unknowns under concrete interpretation: {r:?}"
                    ));
                }
                let mut next = cfg.clone();
                if c >= next.to_client.len() {
                    // A response on a connection the trace never uses: it is
                    // never observed, but the model may still send it.
                    next.to_client.resize(c + 1, VecDeque::new());
                    next.to_server.resize(c + 1, VecDeque::new());
                }
                next.to_client[c].push_back(r);
                succ(next, Answer::Done)?;
            }
            Event::Fresh(sort, _) => {
                let candidates: Vec<(Value, usize)> = match sort {
                    Sort::Bool => vec![(Value::Bool(false), 0), (Value::Bool(true), 0)],
                    Sort::Int => ints.iter().map(|&i| (Value::Int(i), 0)).collect(),
                    Sort::Str => {
                        let mut v: Vec<(Value, usize)> =
                            domain.strs.iter().map(|s| (Value::Str(s.clone()), 0)).collect();
                        // Fresh names used before, then one new name.
                        v.extend((0..cfg.fresh_names).map(|k| (Value::Str(format!("fresh-{k}")), 0)));
                        v.push((Value::Str(format!("fresh-{}", cfg.fresh_names)), 1));
                        v
                    }
                };
                for (val, new_names) in candidates {
                    let mut next = cfg.clone();
                    next.fresh_names += new_names;
                    succ(next, Answer::Fresh(crate::sym::Expr::Const(val)))?;
                }
            }
            Event::Branch(cond) => match cond.eval_ground() {
                Some(Value::Bool(b)) => succ(cfg.clone(), Answer::Branch(b))?,
                _ => return Err(format!("a branch condition with unknowns under concrete interpretation: {cond}")),
            },
            Event::Require(cond) => match cond.eval_ground() {
                Some(Value::Bool(true)) => succ(cfg.clone(), Answer::Done)?,
                Some(Value::Bool(false)) => {}
                _ => return Err(format!("a requirement with unknowns under concrete interpretation: {cond}")),
            },
            Event::Choose(n) => {
                for i in 0..n {
                    succ(cfg.clone(), Answer::Choose(i))?;
                }
            }
        }
    }
    Ok(out)
}
