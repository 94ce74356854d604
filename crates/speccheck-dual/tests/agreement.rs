//! The derived validator agrees with a brute-force enumerator of the
//! model's behaviours on every trace (the thesis proves its validators
//! rejection-sound and rejection-complete; here both directions are
//! checked by testing, with speccheck).
//!
//! Traces are bounded and come from simulating the model concretely —
//! random internal choices, a random schedule of the server and of the
//! network (so responses on different connections arrive out of order) —
//! and then, sometimes, corrupting them: a response replaced by another,
//! two responses of one connection swapped. Both sides must give the same
//! verdict on every one.

use std::collections::VecDeque;
use std::sync::Arc;

use speccheck::gens;
use speccheck::{Config, Property, TestCase};
use speccheck_dual::brute::{Brute, BruteLimits, Domain, explains};
use speccheck_dual::dual::{Invalid, Limits, Observation, validate};
use speccheck_dual::model::{Answer, Conn, Cx, Event, Model, Step, Symbolic, Thread};
use speccheck_dual::solver::Native;
use speccheck_dual::sym::{Expr, Sort, Value};
use speccheck_fixtures::cmp::{CmpRst, CmpSet};
use speccheck_fixtures::kv::{KvModel, KvReq, KvResp};

type Obs<M> = <<M as Model>::Resp as Symbolic>::Concrete;
type Trace<M> = Vec<Observation<<M as Model>::Req, Obs<M>>>;

/// How to make inputs, choices and corruptions for one model.
struct Sim<M: Model> {
    request: fn(&mut TestCase) -> M::Req,
    fresh: fn(&mut TestCase, Sort) -> Value,
    corrupt: fn(&mut TestCase, &Obs<M>) -> Obs<M>,
    domain: fn(&Trace<M>) -> Domain,
}

const MAX_EVENTS: usize = 12;
/// Most requests the simulated tester leaves unanswered (the real tester
/// bounds this too).
const MAX_IN_FLIGHT: usize = 3;

/// A trace of the model under a random schedule, perhaps corrupted.
fn simulate<M: Model>(tc: &mut TestCase, model: &M, sim: &Sim<M>) -> Trace<M> {
    let conns = tc.draw_index(3) + 1;
    let mut server = Thread::start(model).expect("the model starts");
    let mut stuck = false;
    let mut to_server: Vec<VecDeque<M::Req>> = vec![VecDeque::new(); conns];
    let mut to_client: Vec<VecDeque<M::Resp>> = vec![VecDeque::new(); conns];
    let mut trace = Vec::new();
    let mut steps = 0;
    let mut unanswered = 0;
    while trace.len() < MAX_EVENTS && steps < 200 {
        steps += 1;
        match tc.draw_index(3) {
            0 if unanswered < MAX_IN_FLIGHT => {
                unanswered += 1;
                let c = tc.draw_index(conns);
                let q = (sim.request)(tc);
                to_server[c].push_back(q.clone());
                trace.push(Observation::Sent(c, q));
            }
            0 => {}
            1 if !stuck => {
                let answer = match server.pending().clone() {
                    Event::Recv => {
                        let ready: Vec<Conn> = (0..conns).filter(|&c| !to_server[c].is_empty()).collect();
                        if ready.is_empty() {
                            continue;
                        }
                        let c = ready[tc.draw_index(ready.len())];
                        let q = to_server[c].pop_front().expect("ready");
                        let others = (0..conns).filter(|&o| o != c).map(|o| to_server[o].len()).sum();
                        Answer::Recv(c, q, others)
                    }
                    Event::Send(c, r) => {
                        to_client[c].push_back(r);
                        Answer::Done
                    }
                    Event::Fresh(sort, _) => Answer::Fresh(Expr::Const((sim.fresh)(tc, sort))),
                    Event::Branch(cond) => Answer::Branch(cond.eval_ground() == Some(Value::Bool(true))),
                    Event::Require(cond) => {
                        if cond.eval_ground() != Some(Value::Bool(true)) {
                            stuck = true; // not a behaviour: the server goes no further
                            continue;
                        }
                        Answer::Done
                    }
                    Event::Choose(n) => Answer::Choose(tc.draw_index(n)),
                };
                server.answer(model, answer).expect("the model runs");
            }
            _ => {
                let ready: Vec<Conn> = (0..conns).filter(|&c| !to_client[c].is_empty()).collect();
                if ready.is_empty() {
                    continue;
                }
                let c = ready[tc.draw_index(ready.len())];
                let r = to_client[c].pop_front().expect("ready").concretize().expect("ground");
                unanswered = unanswered.saturating_sub(1);
                let r = if tc.draw_bool(0.12) { (sim.corrupt)(tc, &r) } else { r };
                trace.push(Observation::Received(c, r));
            }
        }
    }
    // Sometimes swap two responses of one connection.
    if tc.draw_bool(0.1) {
        let recv: Vec<usize> =
            trace.iter().enumerate().filter(|(_, o)| matches!(o, Observation::Received(..))).map(|(i, _)| i).collect();
        if recv.len() >= 2 {
            let (i, j) = (recv[tc.draw_index(recv.len())], recv[tc.draw_index(recv.len())]);
            if let (Observation::Received(a, _), Observation::Received(b, _)) = (&trace[i], &trace[j])
                && a == b
            {
                let (x, y) = (trace[i].clone(), trace[j].clone());
                trace[i] = y;
                trace[j] = x;
            }
        }
    }
    trace
}

/// True when responses came back in another order than their requests
/// went out, across connections.
fn reordered<Q, A>(trace: &[Observation<Q, A>]) -> bool {
    let mut sent: Vec<(Conn, usize)> = Vec::new(); // (conn, global send index)
    let mut answered: Vec<usize> = Vec::new();
    let mut per_conn: Vec<VecDeque<usize>> = vec![VecDeque::new(); 4];
    for o in trace {
        match o {
            Observation::Sent(c, _) => {
                per_conn[*c].push_back(sent.len());
                sent.push((*c, sent.len()));
            }
            Observation::Received(c, _) => {
                if let Some(i) = per_conn[*c].pop_front() {
                    answered.push(i);
                }
            }
        }
    }
    answered.windows(2).any(|w| w[1] < w[0])
}

fn check<M: Model>(name: &str, model: M, sim: Sim<M>, cases: u32) {
    let model = Arc::new(model);
    let sim = Arc::new(sim);
    let (m, s) = (model.clone(), sim.clone());
    let traces = gens::from_fn(move |tc: &mut TestCase| simulate(tc, &*m, &s));
    Property::new(traces)
        .config(Config { cases, database: None, seed: Some(0xd0a1), max_discard_ratio: 2, ..Config::named(name) })
        .check(move |trace: Trace<M>| {
            let brute = explains(&*model, &trace, &(sim.domain)(&trace), BruteLimits::default());
            let derived = validate::<M, Native>(model.clone(), &trace, Limits::default());
            let agree = match (&brute, &derived) {
                (Brute::Inconclusive(why), _) => speccheck::reject(format!("enumeration bounds: {why}")),
                (_, Err(Invalid::TooManyBranches(_))) => speccheck::reject("validator bounds"),
                (_, Err(Invalid::Model(e))) => panic!("model error: {e}"),
                (Brute::Valid, Ok(_)) => {
                    speccheck::label("valid");
                    true
                }
                (Brute::Invalid(i), Err(Invalid::Rejected(r))) => {
                    speccheck::label("invalid");
                    // Both reject at the same observation.
                    *i == r.index
                }
                _ => false,
            };
            if reordered(&trace) {
                speccheck::label("responses reordered across connections");
            }
            assert!(agree, "brute force says {brute:?}, the derived validator says {derived:?}");
        });
}

fn small_int(tc: &mut TestCase) -> i64 {
    tc.draw_int(-3i64, 3)
}

fn flip(_: &mut TestCase, v: &Value) -> Value {
    match v {
        Value::Int(0) => Value::Int(1),
        _ => Value::Int(0),
    }
}

#[test]
fn cmp_set_validator_agrees_with_brute_force() {
    let sim = Sim::<CmpSet> {
        request: small_int,
        fresh: |_, _| unreachable!("CMP-SET makes no internal choice"),
        corrupt: flip,
        domain: |t| Domain {
            ints: t.iter().filter_map(|o| if let Observation::Sent(_, q) = o { Some(*q) } else { None }).collect(),
            strs: vec![],
        },
    };
    check("agreement::cmp_set", CmpSet, sim, 1000);
}

#[test]
fn cmp_rst_validator_agrees_with_brute_force() {
    let sim = Sim::<CmpRst> {
        request: small_int,
        fresh: |tc, _| Value::Int(small_int(tc)),
        corrupt: flip,
        domain: |t| Domain {
            ints: t.iter().filter_map(|o| if let Observation::Sent(_, q) = o { Some(*q) } else { None }).collect(),
            strs: vec![],
        },
    };
    check("agreement::cmp_rst", CmpRst, sim, 600);
}

const TAGS: [&str; 3] = ["t1", "t2", "t3"];

fn kv_request(tc: &mut TestCase) -> KvReq {
    let key = ["a", "b"][tc.draw_index(2)].to_string();
    match tc.draw_index(3) {
        0 => KvReq::Get(key),
        1 => KvReq::Put { key, value: ["x", "y"][tc.draw_index(2)].to_string(), if_match: None },
        _ => KvReq::Put {
            key,
            value: ["x", "y"][tc.draw_index(2)].to_string(),
            if_match: Some(TAGS[tc.draw_index(TAGS.len())].to_string()),
        },
    }
}

fn kv_corrupt(tc: &mut TestCase, r: &KvResp) -> KvResp {
    let tag = TAGS[tc.draw_index(TAGS.len())].to_string();
    match tc.draw_index(4) {
        0 => KvResp::NotFound,
        1 => KvResp::Mismatch,
        2 => KvResp::Ok { tag },
        _ => match r {
            KvResp::Value { value, .. } => KvResp::Value { value: value.clone(), tag },
            _ => KvResp::Value { value: "x".into(), tag },
        },
    }
}

#[test]
fn kv_validator_agrees_with_brute_force() {
    let sim = Sim::<KvModel> {
        request: kv_request,
        fresh: |tc, _| Value::Str(TAGS[tc.draw_index(TAGS.len())].to_string()),
        corrupt: kv_corrupt,
        domain: |t| {
            let mut strs = Vec::new();
            for o in t {
                match o {
                    Observation::Sent(_, KvReq::Put { if_match: Some(tag), .. }) => strs.push(tag.clone()),
                    Observation::Received(_, KvResp::Value { tag, .. } | KvResp::Ok { tag }) => strs.push(tag.clone()),
                    _ => {}
                }
            }
            strs.sort();
            strs.dedup();
            Domain { ints: Vec::new(), strs }
        },
    };
    check("agreement::kv", KvModel, sim, 1000);
}

/// A counter that may count one or two per increment (`or`): covers
/// nondeterministic choice, which the protocols above do not use.
struct Sloppy;

impl Model for Sloppy {
    type State = i64;
    type Req = bool; // true: increment, false: read
    type Resp = Expr;
    fn init(&self) -> i64 {
        0
    }
    fn serve(&self, n: &mut i64, cx: &mut Cx<'_, Self>) -> Step {
        let (conn, inc) = cx.recv()?;
        if inc {
            *n += if cx.or()? { 2 } else { 1 };
        }
        cx.send(conn, Expr::int(*n))
    }
}

#[test]
fn sloppy_counter_validator_agrees_with_brute_force() {
    let sim = Sim::<Sloppy> {
        request: |tc| tc.draw_bool(0.6),
        fresh: |_, _| unreachable!("no internal choice of values"),
        corrupt: |tc, v| Value::Int(v.as_int().unwrap_or(0) + [-1, 1][tc.draw_index(2)]),
        domain: |_| Domain::default(),
    };
    check("agreement::sloppy", Sloppy, sim, 1000);
}
