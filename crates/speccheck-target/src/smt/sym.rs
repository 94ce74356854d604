//! Symbolic values: every value of a type up to a depth, as SMT variables
//! (Target's query, §4.2): a choice variable per constructor, fields under
//! the guard of their constructor, integers bounded by the depth.

use std::rc::Rc;
use std::sync::Arc;

use speccheck_spec::{DataDef, Ty, Value};
use z3::Model;
use z3::ast::{Bool, Int};

use crate::depth::{below, int_window};

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
    pub def: Arc<DataDef>,
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
pub struct Builder {
    next: u32,
    /// Guarded constraints on the values made so far.
    pub constraints: Vec<Bool>,
    /// Field refinements, asserted once the measures are known.
    pub refinements: Vec<Refinement>,
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
    /// A builder with no values yet.
    pub fn new() -> Self {
        Builder { next: 0, constraints: Vec::new(), refinements: Vec::new() }
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}!{}", self.next)
    }

    /// Every value of `ty` up to depth `d`, constrained under `guard`.
    pub fn make(&mut self, ty: &Ty, d: u32, guard: &Bool, name: &str) -> Result<Sym, String> {
        Ok(match ty {
            Ty::Int { lo, hi } => {
                let (lo, hi) = int_window(*lo, *hi, d);
                let x = Int::new_const(self.fresh(name));
                let range = Bool::and(&[x.ge(Int::from_i128(lo)), x.le(Int::from_i128(hi))]);
                self.constraints.push(guard.implies(&range));
                Sym::Int(x, lo, hi)
            }
            Ty::Bool => Sym::Bool(Bool::new_const(self.fresh(name))),
            Ty::Data(r) => {
                let def = r.get();
                let mut ctors: Vec<usize> = if d == 0 {
                    (0..def.ctors.len()).filter(|&c| !def.ctors[c].recursive).collect()
                } else {
                    (0..def.ctors.len()).collect()
                };
                if ctors.is_empty() {
                    ctors.push(0);
                }
                let single = ctors.len() == 1;
                let mut alts = Vec::new();
                let mut sels = Vec::new();
                for c in ctors {
                    let sel = (!single).then(|| Bool::new_const(self.fresh(&format!("{name}.{}?", def.ctors[c].name))));
                    let inner = match &sel {
                        Some(s) => Bool::and(&[guard.clone(), s.clone()]),
                        None => guard.clone(),
                    };
                    let mut fields = Vec::new();
                    let mut scope = Vec::new();
                    for f in &def.ctors[c].fields {
                        let s = self.make(&f.ty, below(d), &inner, &format!("{name}.{}", f.name))?;
                        scope.push((speccheck_spec::refined::field_binding(&f.name), s.clone()));
                        if let Some(r) = &f.refine {
                            self.refinements.push(Refinement {
                                guard: inner.clone(),
                                scope: scope.clone(),
                                spec: r.clone(),
                            });
                        }
                        fields.push(s);
                    }
                    if let Some(s) = &sel {
                        sels.push(s.clone());
                    }
                    alts.push(Alt { ctor: c, sel, fields });
                }
                if !single {
                    // Exactly one constructor (unguarded: it constrains nothing else).
                    let pairs: Vec<(&Bool, i32)> = sels.iter().map(|s| (s, 1)).collect();
                    self.constraints.push(Bool::pb_eq(&pairs, 1));
                }
                self.next += 1;
                Sym::Data(Rc::new(DataSym { id: self.next, def, alts }))
            }
            Ty::Seq(elem) => {
                let len = Int::new_const(self.fresh(&format!("{name}.len")));
                let max = i64::from(d);
                self.constraints
                    .push(guard.implies(Bool::and(&[len.ge(Int::from_i64(0)), len.le(Int::from_i64(max))])));
                let mut elems = Vec::new();
                for k in 0..max {
                    let inner = Bool::and(&[guard.clone(), len.gt(Int::from_i64(k))]);
                    elems.push(self.make(elem, below(d), &inner, &format!("{name}[{k}]"))?);
                }
                Sym::Seq(Rc::new(SeqSym { len, elems }))
            }
            Ty::Set(_) => return Err(format!("a set-typed input (`{}`)", ty.name())),
        })
    }
}

impl Default for Builder {
    fn default() -> Self {
        Builder::new()
    }
}

/// Reads the value a model gives `sym`, noting the literals it depended
/// on (Target's decode-relevant variables, §4.5).
pub fn decode(sym: &Sym, model: &Model, relevant: &mut Vec<Bool>) -> Value {
    match sym {
        Sym::Int(x, lo, _) => {
            let v = model.eval(x, true).and_then(|v| v.as_i128()).unwrap_or(*lo);
            relevant.push(x.eq(Int::from_i128(v)));
            Value::Int(v)
        }
        Sym::Bool(b) => {
            let v = model.eval(b, true).and_then(|v| v.as_bool()).unwrap_or(false);
            relevant.push(if v { b.clone() } else { b.not() });
            Value::Bool(v)
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
            let fields = alt.fields.iter().map(|f| decode(f, model, relevant)).collect();
            Value::Data { def: node.def.clone(), ctor: alt.ctor, fields }
        }
        Sym::Seq(seq) => {
            let n = model.eval(&seq.len, true).and_then(|v| v.as_i64()).unwrap_or(0).max(0) as usize;
            relevant.push(seq.len.eq(Int::from_i64(n as i64)));
            Value::Seq(seq.elems.iter().take(n).map(|e| decode(e, model, relevant)).collect())
        }
    }
}
