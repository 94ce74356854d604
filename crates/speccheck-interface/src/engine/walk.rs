//! Deep search: lineages extended call by call.
//!
//! Breadth-first rounds (ArtiCheck §3.3) make many shallow instances: a
//! state that needs thousands of calls on *one* instance (a map holding
//! thousands of entries, a tree several levels high) is out of their
//! reach. A *walk* takes one instance and keeps calling the API on it,
//! each call continuing from what the previous one left (a `&mut` receiver
//! as the call left it, or the new instance a call returned), as a client
//! program does: the lineage grows one call at a time, and the instance is
//! moved from call to call, never copied.
//!
//! * Walks run after each round and get a third of the calls: the rest
//!   go to the rounds, whose small instances most bugs need.
//! * Walks start from the deepest instance built so far half of the time
//!   (so lineages keep growing across walks), from a random pool instance
//!   otherwise; their lengths double from walk to walk up to the depth
//!   target (or, on a time budget, to what a tenth of the budget can
//!   build), then are drawn between 64 and that length.
//! * Each walk calls a random subset of the functions that take the
//!   instance (swarm testing: Groce et al., ISSTA 2012; a walk of inserts
//!   only grows, one with removals churns), each picked by its
//!   `#[weight(n)]`.
//! * Ground arguments are fresh half of the time (so a walk can reach far
//!   more distinct values than a pool holds), one of the values this walk
//!   already passed a quarter of the time (so removals and lookups hit
//!   what is there: Hypothesis's bundles), a pool value otherwise; the
//!   draw's size grows with the walk's length.
//! * An argument of an abstract type is, half of the time when there is
//!   one, a snapshot of the walk's own instance taken a few or many calls
//!   before (one call in eight, the latest eight kept, when a function
//!   takes two instances), so `a == b`, `union(a, b)` meet an instance and
//!   one of its ancestors, sharing structure: the case persistent
//!   structures get wrong; a pool instance otherwise. A call that extends
//!   the walk (`union`, `merge`) takes one only twice a walk: merging with
//!   an ancestor can double the instance.
//! * The instance is offered to its pool at doubling checkpoints and at
//!   the end, where the laws over it are checked and later rounds combine
//!   it with others. In reference mode every call is compared, as in the
//!   rounds.
//!
//! A call that fails is a counterexample with its whole lineage as the
//! program, which the reducer then cuts down.

use rand::Rng;

use super::*;
use crate::config::MIN_WALK;
use crate::describe::Dyn;

/// Snapshots of its own instance a walk keeps for calls that take two.
const SNAPSHOTS: usize = 8;

/// Calls extending a walk's instance that may take a snapshot of it, per
/// walk (an instance merged with its ancestor can double; twice is at most
/// four times the size).
const EXTENDING_SNAPSHOTS: u32 = 2;

/// How a call on the walk's instance lets the walk go on.
#[derive(Clone, Debug)]
enum Next {
    /// Passed by `&mut`: it continues as the call left it.
    Mutated,
    /// The call returns an instance of the type at this path of its
    /// result: the walk continues with it (when the result has it).
    Returned(Vec<Step>),
    /// The call only looks at it.
    Observed,
}

/// One function a walk can call on its instance.
#[derive(Clone, Debug)]
struct Move {
    f: usize,
    /// The parameter that takes the instance.
    at: usize,
    next: Next,
}

impl Move {
    fn extends(&self) -> bool {
        !matches!(self.next, Next::Observed)
    }
}

/// The moves on one abstract type.
#[derive(Debug)]
struct Plan {
    ty: usize,
    moves: Vec<Move>,
}

/// The state of deep search over a run.
pub(crate) struct Lineages {
    plans: Vec<Plan>,
    /// Length of the next walk while lengths still double.
    next_len: u64,
    /// Per plan, the deepest instance built (kept out of the pools' reach:
    /// a pool may evict it).
    deepest: Vec<Option<Rc<Inst>>>,
    /// Walks run.
    pub(crate) walks: u64,
    /// Calls made by walks.
    pub(crate) calls: u64,
    /// The longest walk run.
    pub(crate) longest: u64,
    /// Time spent walking.
    time: Duration,
}

impl Lineages {
    /// The moves of every abstract type that some function extends.
    pub(crate) fn new(api: &Api) -> Self {
        let mut plans = Vec::new();
        for (ty, t) in api.types.iter().enumerate() {
            if !t.is_abstract() {
                continue;
            }
            let mut moves = Vec::new();
            for (f, spec) in api.functions.iter().enumerate() {
                let Some(at) = spec.args.iter().position(|s| matches!(s, Shape::Atom(k) if *k == ty)) else {
                    continue;
                };
                let next = if spec.f.params[at].mode == Mode::Mut {
                    Next::Mutated
                } else {
                    match path_to(&spec.ret, ty) {
                        Some(path) => Next::Returned(path),
                        None => Next::Observed,
                    }
                };
                moves.push(Move { f, at, next });
            }
            if moves.iter().any(Move::extends) {
                plans.push(Plan { ty, moves });
            }
        }
        let n = plans.len();
        Lineages {
            plans,
            next_len: MIN_WALK,
            deepest: vec![None; n],
            walks: 0,
            calls: 0,
            longest: 0,
            time: Duration::ZERO,
        }
    }

    /// True when some type can be walked.
    pub(crate) fn enabled(&self) -> bool {
        !self.plans.is_empty()
    }

    /// The longest lineage among the walked types' instances, and the
    /// shortest of those maxima (what the depth target is checked on).
    pub(crate) fn depths(&self) -> (u64, u64) {
        let d: Vec<u64> = self.deepest.iter().map(|i| i.as_ref().map_or(0, |i| i.origin.depth())).collect();
        (d.iter().copied().max().unwrap_or(0), d.iter().copied().min().unwrap_or(0))
    }
}

/// The path to the first instance of `ty` in a result, through products
/// and sums (not containers).
fn path_to(shape: &Shape, ty: usize) -> Option<Vec<Step>> {
    match shape {
        Shape::Atom(k) => (*k == ty).then(Vec::new),
        Shape::Data(_, vs) => {
            for (v, fields) in vs.iter().enumerate() {
                for (i, f) in fields.iter().enumerate() {
                    if let Some(mut rest) = path_to(f, ty) {
                        rest.insert(0, Step::Field(v as u32, i as u32));
                        return Some(rest);
                    }
                }
            }
            None
        }
        Shape::List(..) => None,
    }
}

/// Where a walk's ground argument comes from.
enum Source {
    Fresh,
    ThisWalk,
    Pool,
}

impl Engine<'_> {
    /// Runs walks after a round while walks have made fewer than half as
    /// many calls as the rounds: depth gets a third of the budget. The
    /// rounds build the small instances that most bugs need (and that
    /// reduce to short programs); measured on the planted-bug and
    /// real-crate benchmarks, an even share delayed the rounds' finds by a
    /// third while a third's share still reaches the deep states
    /// (`bench/results/articheck.md`, `interface_real.md`). Once the rounds
    /// are at their target, walks run until the depth target: more rounds
    /// would only combine ever larger instances.
    pub(super) fn walk_phase(&mut self) -> Result<(), Halt> {
        if !self.lineages.enabled() || self.cfg.depth == 0 || self.pending.is_some() {
            return Ok(());
        }
        let rounds_done = self.rounds_at_target();
        let mut idle = 0;
        while (rounds_done && !self.deep_enough()) || self.lineages.calls * 2 < self.serial - self.lineages.calls {
            if let Some(r) = self.out_of_budget() {
                return Err(Halt::Stop(r));
            }
            let plan = self.rng.random_range(0..self.lineages.plans.len());
            let len = self.walk_len();
            let started = Instant::now();
            self.in_walk = true;
            let before = self.serial;
            let r = self.walk(plan, len);
            self.in_walk = false;
            self.lineages.time += started.elapsed();
            r?;
            // A walk that made no call had nothing to start from (an empty
            // pool): after a few, the rounds must build something first.
            idle = if self.serial == before { idle + 1 } else { 0 };
            if idle > 4 * self.lineages.plans.len() {
                break;
            }
        }
        Ok(())
    }

    /// The next walk's length: doubling up to the cap, then drawn
    /// log-uniformly below it.
    fn walk_len(&mut self) -> u64 {
        let cap = self.walk_cap();
        let l = &mut self.lineages;
        if l.next_len <= cap {
            let len = l.next_len;
            l.next_len = l.next_len.saturating_mul(2);
            return len;
        }
        let (lo, hi) = ((MIN_WALK as f64).ln(), (cap.max(MIN_WALK) as f64).ln());
        self.rng.random_range(lo..=hi).exp() as u64
    }

    /// The longest walk: the depth target, or (searching to a time
    /// budget) as many calls as a tenth of the budget makes at the rate
    /// walks have run so far.
    fn walk_cap(&self) -> u64 {
        let l = &self.lineages;
        let by_time = match self.cfg.time_budget {
            Some(b) if l.calls > 0 && l.time > Duration::ZERO => {
                let rate = l.calls as f64 / l.time.as_secs_f64();
                (rate * b.as_secs_f64() / 10.0) as u64
            }
            _ => 0,
        };
        let cap = if self.cfg.depth == u64::MAX { by_time } else { self.cfg.depth.min(by_time.max(self.cfg.depth)) };
        cap.max(MIN_WALK)
    }

    /// One walk of `len` calls on an instance of plan `p`'s type.
    fn walk(&mut self, p: usize, len: u64) -> Result<(), Halt> {
        let ty = self.lineages.plans[p].ty;
        let start = match (&self.lineages.deepest[p], self.rng.random_bool(0.5)) {
            (Some(d), true) => Some(d.clone()),
            _ => self.pools[ty].container.sample(&mut self.rng).cloned(),
        };
        let Some(start) = start else { return Ok(()) };
        // Swarm: a random half of the moves (at least one that extends).
        let all = &self.lineages.plans[p].moves;
        let mut moves: Vec<Move> = all.iter().filter(|_| self.rng.random_bool(0.5)).cloned().collect();
        if !moves.iter().any(Move::extends) {
            let ext: Vec<&Move> = all.iter().filter(|m| m.extends()).collect();
            moves.push(ext[self.rng.random_range(0..ext.len())].clone());
        }
        let weights: Vec<u64> = moves.iter().map(|m| u64::from(self.api.functions[m.f].f.weight)).collect();
        let total: u64 = weights.iter().sum();
        let size = walk_size(self.cfg.ground_size, len);
        let mut used: Vec<Vec<Rc<Inst>>> = vec![Vec::new(); self.api.types.len()];
        let mut value: Dyn = (self.api.types[ty].ops.clone)(&*start.value);
        let mut origin = start.origin.clone();
        drop(start);
        self.lineages.walks += 1;
        self.lineages.longest = self.lineages.longest.max(len);
        let mut checkpoint = 1u64;
        let mut made = 0u64;
        // Whether some function takes two instances of the walk's type.
        let binary = self
            .api
            .functions
            .iter()
            .any(|f| f.args.iter().filter(|a| matches!(a, Shape::Atom(k) if *k == ty)).count() >= 2);
        let mut extending_snapshots = EXTENDING_SNAPSHOTS;
        while made < len {
            made += 1;
            let mut pick = self.rng.random_range(0..total);
            let mv = moves
                .iter()
                .zip(&weights)
                .find(|(_, w)| {
                    let hit = pick < **w;
                    pick = pick.saturating_sub(**w);
                    hit
                })
                .map(|(m, _)| m.clone())
                .expect("a move is picked");
            // A call that extends the walk takes a snapshot only a few
            // times a walk: merging an instance with an ancestor can double
            // it (a list's concatenation), and doing so call after call
            // grows it exponentially. Calls that only look take them freely.
            let hidden = (mv.extends() && extending_snapshots == 0).then(|| std::mem::take(&mut used[ty]));
            self.took_snapshot = false;
            let next = self.walk_call(&mv, value, origin, &mut used, size)?;
            if let Some(h) = hidden {
                used[ty] = h;
            }
            if mv.extends() && self.took_snapshot {
                extending_snapshots -= 1;
            }
            match next {
                Some((v, o)) => (value, origin) = (v, o),
                // The instance went with a call that refused (a panic
                // allowed, or both sides panicking): the walk ends here.
                None => return Ok(()),
            }
            if made == checkpoint && made < len {
                checkpoint = checkpoint.saturating_mul(2);
                let copy = (self.api.types[ty].ops.clone)(&*value);
                self.keep(p, ty, copy, origin.clone())?;
            }
            // Snapshots of the instance for the walk's later calls that take
            // two instances: now and then, so that the two differ by a few
            // calls as often as by many; the latest few kept.
            if binary && self.rng.random_ratio(1, 8) {
                let snapshot = (self.api.types[ty].ops.clone)(&*value);
                if used[ty].len() == SNAPSHOTS {
                    used[ty].remove(0);
                }
                used[ty].push(self.inst(ty, snapshot, origin.clone()));
            }
            if self.serial.is_multiple_of(256)
                && let Some(r) = self.out_of_budget()
            {
                self.keep(p, ty, value, origin)?;
                return Err(Halt::Stop(r));
            }
        }
        self.keep(p, ty, value, origin)
    }

    /// Checks the laws on a walk's instance; remembers it if it is the
    /// deepest yet.
    ///
    /// Walk instances stay out of the pools: the rounds build the smallest
    /// instances first (so what they find is short), and would combine
    /// deep instances with binary functions (`merge`, `union`) round after
    /// round, doubling their size each time. Walks still apply every
    /// function to their instance (with pooled instances as the other
    /// arguments), and every law is checked on it here.
    fn keep(&mut self, p: usize, ty: usize, value: Dyn, origin: Origin) -> Result<(), Halt> {
        let depth = origin.depth();
        let inst = self.inst(ty, value, origin);
        if self.lineages.deepest[p].as_ref().is_none_or(|d| d.origin.depth() < depth) {
            self.lineages.deepest[p] = Some(inst.clone());
        }
        self.check_laws_on(ty, &inst)
    }

    /// An instance of type `ty` made by this round's walk.
    fn inst(&self, ty: usize, value: Dyn, origin: Origin) -> Rc<Inst> {
        let t = &self.api.types[ty];
        let key = (t.ops.hash)(&*value);
        Rc::new(Inst { value, origin, key, ty, round: self.round, eq: t.ops.eq })
    }

    /// Checks once every law that takes an instance of type `ty`, with
    /// `inst` as that argument and the others drawn as for a walk's call.
    fn check_laws_on(&mut self, ty: usize, inst: &Rc<Inst>) -> Result<(), Halt> {
        let api = self.api;
        let size = self.cfg.ground_size;
        let mut used: Vec<Vec<Rc<Inst>>> = vec![Vec::new(); api.types.len()];
        for l in 0..api.laws.len() {
            let shapes = &api.laws[l].args;
            let Some(at) = shapes.iter().position(|s| matches!(s, Shape::Atom(k) if *k == ty)) else { continue };
            let mut trees = Vec::with_capacity(shapes.len());
            for (i, shape) in shapes.iter().enumerate() {
                if i == at {
                    trees.push(Tree::Atom(inst.clone()));
                } else {
                    match self.walk_arg(shape, &mut used, size, 0)? {
                        Some(t) => trees.push(t),
                        None => break,
                    }
                }
            }
            if trees.len() == shapes.len() {
                self.test_law(l, &trees)?;
            }
        }
        Ok(())
    }

    /// Calls `mv` on the walk's instance; returns the instance the walk
    /// goes on with, or `None` when the call took it and made none.
    fn walk_call(
        &mut self,
        mv: &Move,
        value: Dyn,
        origin: Origin,
        used: &mut [Vec<Rc<Inst>>],
        size: usize,
    ) -> Result<Option<(Dyn, Origin)>, Halt> {
        if let Some(r) = self.over_memory() {
            return Err(Halt::Stop(r));
        }
        let api = self.api;
        let spec = &api.functions[mv.f];
        let mut others: Vec<Option<Tree<'_>>> = Vec::with_capacity(spec.args.len());
        for (i, shape) in spec.args.iter().enumerate() {
            if i == mv.at {
                others.push(None);
                continue;
            }
            match self.walk_arg(shape, used, size, 0)? {
                Some(t) => others.push(Some(t)),
                // No value for an argument (an empty pool): call nothing.
                None => return Ok(Some((value, origin))),
            }
        }
        self.serial += 1;
        self.lineages.calls += 1;
        self.functions[mv.f].calls += 1;
        let provs =
            others.iter().map(|t| t.as_ref().map_or_else(|| ArgProv::Atom(origin.clone()), Tree::prov)).collect();
        let node = Arc::new(CallNode::new(mv.f, provs, self.serial, &self.ledger));
        let mode = spec.f.params[mv.at].mode;
        // A copy to go on with when the call may take the instance and
        // give none back: a function seen refusing, or one taking it by
        // value that may not return one.
        let seen_refusing = self.functions[mv.f].refused + self.functions[mv.f].panics_allowed > 0;
        let backup = (mode != Mode::Ref
            && (seen_refusing || (mode == Mode::Owned && !matches!(&mv.next, Next::Returned(p) if p.is_empty()))))
        .then(|| (api.types[self.type_of(mv)].ops.clone)(&*value));
        // Lent (and still the walk's after the call), or given.
        let (slot, mut given) = if mode == Mode::Ref { (Some(value), None) } else { (None, Some(value)) };
        let mut args = Args::with_capacity(spec.args.len());
        for (i, (t, prm)) in others.iter().zip(&spec.f.params).enumerate() {
            if i == mv.at {
                match (&slot, given.take()) {
                    (Some(lent), _) => args.push_borrowed(&**lent),
                    (None, Some(v)) => args.push_owned(v),
                    (None, None) => unreachable!("the walk's instance is lent or given"),
                }
                continue;
            }
            match (prm.mode, t.as_ref().expect("an argument")) {
                (Mode::Ref, Tree::Atom(inst)) => args.push_borrowed(&*inst.value),
                (_, t) => args.push_owned(t.build(api)),
            }
        }
        let r = self.watched(&node, || (spec.call)(&mut args));
        let refused = |slot: Option<Dyn>, backup: Option<Dyn>, origin: Origin| Ok(slot.or(backup).map(|v| (v, origin)));
        match r {
            Err(caught) => {
                drop(args);
                if spec.f.panics_allowed {
                    self.functions[mv.f].panics_allowed += 1;
                    refused(slot, backup, origin)
                } else {
                    let (failure, what) = call_panicked(api, mv.f, caught);
                    Err(self.found(Found::Call { call: node }, failure, what))
                }
            }
            Ok(Err(CallError::Refused)) => {
                drop(args);
                self.functions[mv.f].refused += 1;
                refused(slot, backup, origin)
            }
            Ok(Err(CallError::Mismatch(m))) => {
                let (failure, what) = mismatch(api, mv.f, m);
                Err(self.found(Found::Call { call: node }, failure, what))
            }
            Ok(Ok(result)) => {
                let mut mutated = Vec::new();
                for (i, prm) in spec.f.params.iter().enumerate() {
                    if prm.mode == Mode::Mut
                        && let Some(v) = args.take_dyn(i)
                    {
                        mutated.push((i, v));
                    }
                }
                drop(args);
                let mut walked: Option<(Dyn, Origin)> = None;
                for (i, v) in mutated {
                    if i == mv.at {
                        walked = Some((v, Origin::Mutated { call: node.clone(), arg: i as u32 }));
                    } else if let Shape::Atom(k) = &spec.args[i] {
                        self.offer(*k, v, Origin::Mutated { call: node.clone(), arg: i as u32 })?;
                    }
                }
                match &mv.next {
                    Next::Returned(path) => {
                        let part = self.continue_with(&spec.ret, result, path, &node, &mut Vec::new())?;
                        if let Some(v) = part {
                            walked = Some((v, Origin::Part { call: node.clone(), path: path.clone() }));
                        }
                    }
                    _ => self.destruct(&spec.ret, result, &node, &mut Vec::new())?,
                }
                Ok(walked.or_else(|| slot.or(backup).map(|v| (v, origin))))
            }
        }
    }

    /// The abstract type a move walks.
    fn type_of(&self, mv: &Move) -> usize {
        match &self.api.functions[mv.f].args[mv.at] {
            Shape::Atom(k) => *k,
            _ => unreachable!("a move takes an atom"),
        }
    }

    /// Destructs a result into the pools, except the part at `path`, which
    /// is returned (when the result has it: `None` for another variant).
    fn continue_with(
        &mut self,
        shape: &Shape,
        value: Dyn,
        path: &[Step],
        call: &Arc<CallNode>,
        at: &mut Vec<Step>,
    ) -> Result<Option<Dyn>, Halt> {
        match (shape, path.split_first()) {
            (Shape::Atom(_), None) => Ok(Some(value)),
            (Shape::Data(d, vs), Some((Step::Field(pv, pi), rest))) => {
                let (v, fields) = d.ops.split(&*value);
                let mut out = None;
                for (i, field) in fields.into_iter().enumerate() {
                    at.push(Step::Field(v as u32, i as u32));
                    if v == *pv as usize && i == *pi as usize {
                        out = self.continue_with(&vs[v][i], field, rest, call, at)?;
                    } else {
                        self.destruct(&vs[v][i], field, call, at)?;
                    }
                    at.pop();
                }
                Ok(out)
            }
            _ => {
                self.destruct(shape, value, call, at)?;
                Ok(None)
            }
        }
    }

    /// An argument for a walk's call, other than the walk's instance.
    fn walk_arg<'s>(
        &mut self,
        shape: &'s Shape,
        used: &mut [Vec<Rc<Inst>>],
        size: usize,
        depth: u32,
    ) -> Result<Option<Tree<'s>>, Halt> {
        match shape {
            Shape::Atom(k) => {
                let k = *k;
                if self.api.types[k].ground().is_none() {
                    // Half of the time, when the walk has one, an earlier
                    // snapshot of its own instance: a binary function
                    // (equality, union, difference) then meets two related
                    // instances, one grown from the other and sharing its
                    // structure, which two pool instances almost never are.
                    if !used[k].is_empty() && self.rng.random_bool(0.5) {
                        self.took_snapshot = true;
                        return Ok(Some(Tree::Atom(used[k][self.rng.random_range(0..used[k].len())].clone())));
                    }
                    return Ok(self.pools[k].container.sample(&mut self.rng).cloned().map(Tree::Atom));
                }
                let from = match self.rng.random_range(0..4) {
                    0 | 1 => Source::Fresh,
                    2 if !used[k].is_empty() => Source::ThisWalk,
                    _ => Source::Pool,
                };
                let inst = match from {
                    Source::ThisWalk => Some(used[k][self.rng.random_range(0..used[k].len())].clone()),
                    Source::Pool => self.pools[k].container.sample(&mut self.rng).cloned(),
                    Source::Fresh => None,
                };
                let inst = match inst {
                    Some(i) => i,
                    None => match self.fresh_inst(k, size)? {
                        Some(i) => i,
                        None => return Ok(None),
                    },
                };
                if used[k].len() < 4096 {
                    used[k].push(inst.clone());
                } else {
                    let j = self.rng.random_range(0..used[k].len());
                    used[k][j] = inst.clone();
                }
                Ok(Some(Tree::Atom(inst)))
            }
            Shape::Data(_, vs) => {
                // Deep in a recursive type, only variants without data
                // fields, so that building an argument ends.
                let ok: Vec<usize> = (0..vs.len())
                    .filter(|&v| depth < 4 || vs[v].iter().all(|f| !matches!(f, Shape::Data(..))))
                    .collect();
                if ok.is_empty() {
                    return Ok(None);
                }
                let v = ok[self.rng.random_range(0..ok.len())];
                let mut fields = Vec::with_capacity(vs[v].len());
                for f in &vs[v] {
                    match self.walk_arg(f, used, size, depth + 1)? {
                        Some(t) => fields.push(t),
                        None => return Ok(None),
                    }
                }
                Ok(Some(Tree::Data { shape, variant: v, fields }))
            }
            Shape::List(l, e) => {
                let max = l.max_len.unwrap_or(self.cfg.list_max_len);
                let n = self.rng.random_range(0..=max);
                let mut items = Vec::with_capacity(n);
                for _ in 0..n {
                    match self.walk_arg(e, used, size, depth + 1)? {
                        Some(t) => items.push(t),
                        None => break,
                    }
                }
                Ok(Some(Tree::List { shape, items }))
            }
        }
    }
}

/// The size ground values are drawn at in a walk of `len` calls: the
/// rounds' size, growing with the logarithm of the length, so a longer
/// walk draws from a wider range (more distinct keys for a map to hold).
fn walk_size(base: usize, len: u64) -> usize {
    let doublings = (len / MIN_WALK).max(1).ilog2() as usize;
    (base * (1 + doublings)).min(1000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walk_sizes_grow_with_the_length_and_stay_bounded() {
        assert_eq!(walk_size(30, 64), 30);
        assert!(walk_size(30, 16_384) > walk_size(30, 1024));
        assert_eq!(walk_size(30, u64::MAX), 1000);
    }
}
