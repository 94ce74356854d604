//! Symbolic values: every value of a type up to a depth, as SMT variables
//! (Target's query, §4.2): a choice variable per constructor, fields under
//! the guard of their constructor, integers bounded by the depth.

use std::collections::HashSet;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

use speccheck_spec::{DataDef, DataRef, Ty, Value};
use z3::ast::{Ast, Bool, Dynamic, Int};
use z3::{AstKind, Model};

use crate::depth::{below, constructors, int_window, reenters};

/// A symbolic value.
#[derive(Clone)]
pub enum Sym {
    /// An integer with the range its depth allows.
    Int(Int, i128, i128),
    /// A boolean.
    Bool(Bool),
    /// A data value.
    Data(Rc<DataSym>),
    /// A sequence.
    Seq(Rc<SeqSym>),
}

/// A data value: the constructors its depth allows, one chosen.
pub struct DataSym {
    /// Unique per node (memoizes measure unfoldings).
    pub id: u32,
    /// The type.
    pub def: &'static DataDef,
    /// The constructors it may take.
    pub alts: Vec<Alt>,
}

/// One constructor a data value may take.
pub struct Alt {
    /// Index in `def.ctors`.
    pub ctor: usize,
    /// True when this constructor is chosen (`None`: the only one).
    pub sel: Option<Bool>,
    /// The fields.
    pub fields: Vec<Sym>,
}

impl Alt {
    /// The condition under which this constructor is chosen.
    pub fn chosen(&self) -> Bool {
        self.sel.clone().unwrap_or_else(|| Bool::from_bool(true))
    }
}

/// A sequence: a length and as many element slots as the depth allows.
pub struct SeqSym {
    /// The length.
    pub len: Int,
    /// Element slots (those at or past `len` are unused).
    pub elems: Vec<Sym>,
}

/// Makes symbolic values and collects the constraints on them.
///
/// Values are built up to a *height*: the number of recursive steps
/// (a field going back to a data type on the path above it, its own
/// included; an element of a sequence) from the argument down. A node at
/// the height limit takes no constructor with a recursive step (a sequence
/// there is empty), so one build holds the values
/// of height at most the limit; [`Builder::frontier`] says which nodes sit
/// exactly at it.
pub struct Builder {
    /// Unique per builder: two solvers never share a constant (z3 4.8.12
    /// answers wrongly when they do).
    build: u64,
    next: u32,
    height: u32,
    /// Guarded constraints on the values made so far.
    pub constraints: Vec<Bool>,
    /// The integers' ranges (guarded), apart: an integer no other formula
    /// mentions is free (see [`mentioned`]).
    pub ranges: Vec<Bool>,
    /// Field refinements, asserted once the measures are known.
    pub refinements: Vec<Refinement>,
    /// The guards of the nodes at the height limit: the value has exactly
    /// that height when one of them holds.
    pub frontier: Vec<Bool>,
    /// True when the height limit took away something the depth allowed
    /// (so taller values exist at this depth).
    pub cut: bool,
    /// The data types from the argument down to the value being made.
    path: Vec<DataRef>,
}

/// A field refinement of one symbolic constructor.
pub struct Refinement {
    /// When the constructor is part of the value.
    pub guard: Bool,
    /// Its fields up to the refined one, by name (`_0`, `_1`, … for tuple fields).
    pub scope: Vec<(String, Sym)>,
    /// The refinement.
    pub spec: speccheck_spec::Expr,
}

impl Builder {
    /// A builder with no values yet, for values at most `height` tall.
    pub fn new(height: u32) -> Self {
        static BUILDS: AtomicU64 = AtomicU64::new(0);
        Builder {
            build: BUILDS.fetch_add(1, Ordering::Relaxed),
            next: 0,
            height,
            constraints: Vec::new(),
            ranges: Vec::new(),
            refinements: Vec::new(),
            frontier: Vec::new(),
            cut: false,
            path: Vec::new(),
        }
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}!{}!{}", self.build, self.next)
    }

    /// Where the constraints, refinements and frontier stand, to drop
    /// what a subtree without values added.
    fn mark(&self) -> (usize, usize, usize, usize) {
        (self.constraints.len(), self.ranges.len(), self.refinements.len(), self.frontier.len())
    }

    fn rollback(&mut self, (c, g, r, f): (usize, usize, usize, usize)) {
        self.constraints.truncate(c);
        self.ranges.truncate(g);
        self.refinements.truncate(r);
        self.frontier.truncate(f);
    }

    /// Every value of `ty` up to depth `d` (and the builder's height, from
    /// `level`), constrained under `guard`; `None` when no value fits there
    /// (every way down meets a type above it at depth 0, or the height).
    pub fn make(&mut self, ty: &Ty, d: u32, level: u32, guard: &Bool, name: &str) -> Result<Option<Sym>, String> {
        Ok(Some(match ty {
            Ty::Int { lo, hi } => {
                let (lo, hi) = int_window(*lo, *hi, d);
                let x = Int::new_const(self.fresh(name));
                let range = Bool::and(&[x.ge(Int::from_i128(lo)), x.le(Int::from_i128(hi))]);
                self.ranges.push(guard.implies(&range));
                Sym::Int(x, lo, hi)
            }
            Ty::Bool => Sym::Bool(Bool::new_const(self.fresh(name))),
            Ty::Data(r) => {
                self.path.push(r.clone());
                let made = self.make_data(r.get(), d, level, guard, name);
                self.path.pop();
                return made;
            }
            Ty::Seq(elem) => {
                let len = Int::new_const(self.fresh(&format!("{name}.len")));
                let at_limit = level >= self.height;
                if at_limit && level > 0 {
                    self.frontier.push(guard.clone());
                }
                // A sequence is as tall as it is long (element `k` sits
                // `k + 1` steps down, as in a list), so shorter sequences
                // come from earlier heights: small first.
                let room = self.height.saturating_sub(level);
                if room < d {
                    self.cut = true;
                }
                let mut max = i64::from(d.min(room));
                if max > 0 && level + d.min(room) == self.height {
                    // Its last element reaches the height, whatever its type.
                    self.frontier.push(Bool::and(&[guard.clone(), len.ge(Int::from_i64(max))]));
                }
                let mut elems = Vec::new();
                for k in 0..max {
                    let inner = Bool::and(&[guard.clone(), len.gt(Int::from_i64(k))]);
                    let at = level + 1 + k as u32;
                    let mark = self.mark();
                    match self.make(elem, below(d), at, &inner, &format!("{name}[{k}]"))? {
                        Some(e) => elems.push(e),
                        None => {
                            // No element fits here, nor further down.
                            self.rollback(mark);
                            max = k;
                            break;
                        }
                    }
                }
                self.constraints
                    .push(guard.implies(Bool::and(&[len.ge(Int::from_i64(0)), len.le(Int::from_i64(max))])));
                Sym::Seq(Rc::new(SeqSym { len, elems }))
            }
            Ty::Set(_) => return Err(format!("a set-typed input (`{}`)", ty.name())),
        }))
    }

    /// A data value of `def` (the last type on the path).
    fn make_data(
        &mut self,
        def: &'static DataDef,
        d: u32,
        level: u32,
        guard: &Bool,
        name: &str,
    ) -> Result<Option<Sym>, String> {
        let at_limit = level >= self.height;
        if at_limit && level > 0 {
            self.frontier.push(guard.clone());
        }
        let (ctors, cut) = constructors(def, &self.path, d, at_limit);
        self.cut |= cut;
        let single = ctors.len() == 1;
        let mut alts = Vec::new();
        let mut sels = Vec::new();
        'ctors: for c in ctors {
            let sel = (!single).then(|| Bool::new_const(self.fresh(&format!("{name}.{}?", def.ctors[c].name))));
            let inner = match &sel {
                Some(s) => Bool::and(&[guard.clone(), s.clone()]),
                None => guard.clone(),
            };
            let mark = self.mark();
            let mut fields = Vec::new();
            let mut scope = Vec::new();
            for f in &def.ctors[c].fields {
                // A recursive step goes one level down.
                let at = level + u32::from(reenters(&f.ty, &self.path));
                let Some(s) = self.make(&f.ty, below(d), at, &inner, &format!("{name}.{}", f.name))? else {
                    // This constructor has no value here.
                    self.rollback(mark);
                    continue 'ctors;
                };
                scope.push((speccheck_spec::refined::field_binding(&f.name), s.clone()));
                if let Some(r) = &f.refine {
                    self.refinements.push(Refinement { guard: inner.clone(), scope: scope.clone(), spec: r.clone() });
                }
                fields.push(s);
            }
            if let Some(s) = &sel {
                sels.push(s.clone());
            }
            alts.push(Alt { ctor: c, sel, fields });
        }
        if alts.is_empty() {
            return Ok(None);
        }
        if !single {
            // Exactly one constructor (unguarded: it constrains nothing else).
            let pairs: Vec<(&Bool, i32)> = sels.iter().map(|s| (s, 1)).collect();
            self.constraints.push(Bool::pb_eq(&pairs, 1));
        }
        self.next += 1;
        Ok(Some(Sym::Data(Rc::new(DataSym { id: self.next, def, alts }))))
    }
}

/// The constants `formulas` mention; `None` when they hold a binder (a
/// quantifier), whose body this walk does not read: then every integer
/// counts as mentioned.
pub fn mentioned(formulas: &[Bool]) -> Option<HashSet<Dynamic>> {
    let mut seen = HashSet::new();
    let mut consts = HashSet::new();
    let mut stack: Vec<Dynamic> = formulas.iter().map(Dynamic::from).collect();
    while let Some(a) = stack.pop() {
        if !seen.insert(a.clone()) {
            continue;
        }
        if !matches!(a.kind(), AstKind::App | AstKind::Numeral) {
            return None;
        }
        match a.num_children() {
            0 => {
                consts.insert(a);
            }
            _ => stack.extend(a.children()),
        }
    }
    Some(consts)
}

/// A decoded value whose free integers are still open: each stands for
/// every value of its range (see [`Shape::fill`]).
#[derive(Clone)]
pub enum Shape {
    /// A value with no free integer inside.
    Known(Value),
    /// Free integer number `k` of the input.
    Free(usize),
    /// A constructor with at least one free integer inside.
    Data(&'static DataDef, usize, Vec<Shape>),
    /// A sequence with at least one free integer inside.
    Seq(Vec<Shape>),
}

impl Shape {
    /// The value with free integer `k` set to `ints[k]`.
    pub fn fill(&self, ints: &[i128]) -> Value {
        match self {
            Shape::Known(v) => v.clone(),
            Shape::Free(k) => Value::Int(ints[*k]),
            Shape::Data(def, ctor, fields) => {
                Value::Data { def, ctor: *ctor, fields: fields.iter().map(|f| f.fill(ints)).collect() }
            }
            Shape::Seq(items) => Value::Seq(items.iter().map(|f| f.fill(ints)).collect()),
        }
    }

    fn known(&self) -> Option<&Value> {
        match self {
            Shape::Known(v) => Some(v),
            _ => None,
        }
    }
}

/// How decoding treats integers: those in `free` are left open (their
/// ranges go to `slots`), the others are read from the model.
pub struct Decoding<'a> {
    /// The integers no formula but their range mentions.
    pub free: &'a HashSet<Dynamic>,
    /// The ranges of the open integers, in the order of their numbers.
    pub slots: Vec<(i128, i128)>,
}

/// Reads the value a model gives `sym`, noting the literals it depended
/// on (Target's decode-relevant variables, §4.5); a free integer is left
/// open and noted nowhere, so the block covers all of its values at once.
pub fn decode(sym: &Sym, model: &Model, relevant: &mut Vec<Bool>, how: &mut Decoding) -> Shape {
    match sym {
        Sym::Int(x, lo, hi) => {
            if how.free.contains(&Dynamic::from(x)) {
                how.slots.push((*lo, *hi));
                return Shape::Free(how.slots.len() - 1);
            }
            let v = model.eval(x, true).and_then(|v| v.as_i128()).unwrap_or(*lo);
            relevant.push(x.eq(Int::from_i128(v)));
            Shape::Known(Value::Int(v))
        }
        Sym::Bool(b) => {
            let v = model.eval(b, true).and_then(|v| v.as_bool()).unwrap_or(false);
            relevant.push(if v { b.clone() } else { b.not() });
            Shape::Known(Value::Bool(v))
        }
        Sym::Data(node) => {
            let alt = node
                .alts
                .iter()
                .find(|a| a.sel.as_ref().is_none_or(|s| model.eval(s, true).and_then(|v| v.as_bool()) == Some(true)))
                .unwrap_or(&node.alts[0]);
            if let Some(s) = &alt.sel {
                relevant.push(s.clone());
            }
            let fields: Vec<Shape> = alt.fields.iter().map(|f| decode(f, model, relevant, how)).collect();
            match fields.iter().map(Shape::known).collect::<Option<Vec<_>>>() {
                Some(known) => Shape::Known(Value::Data {
                    def: node.def,
                    ctor: alt.ctor,
                    fields: known.into_iter().cloned().collect(),
                }),
                None => Shape::Data(node.def, alt.ctor, fields),
            }
        }
        Sym::Seq(seq) => {
            let n = model.eval(&seq.len, true).and_then(|v| v.as_i64()).unwrap_or(0).max(0) as usize;
            relevant.push(seq.len.eq(Int::from_i64(n as i64)));
            let items: Vec<Shape> = seq.elems.iter().take(n).map(|e| decode(e, model, relevant, how)).collect();
            match items.iter().map(Shape::known).collect::<Option<Vec<_>>>() {
                Some(known) => Shape::Known(Value::Seq(known.into_iter().cloned().collect())),
                None => Shape::Seq(items),
            }
        }
    }
}
