//! J-expressions (thesis §5.3.2): test inputs as computations over the
//! trace.
//!
//! The intermediate representation (IR) of every message is JSON. A
//! [`JExp`] is JSON that may contain *references* into the trace: "the
//! value at path `p` of the message labelled `l`, passed through function
//! `f`" — the thesis's `l.(p).f`. A generator that wants to reuse an ETag
//! the server sent earlier writes a reference instead of copying the
//! ETag's text, so when the test runs again (after shrinking, against a
//! server that chose different ETags) the reference picks up the new
//! value: the heuristic survives inter-execution nondeterminism.
//!
//! Evaluation is *loose*: when the labelled message is not in the trace
//! (delayed, or removed by shrinking) or the path does not fit it, other
//! messages are tried, the nearest labels first; when an array index is
//! out of range or its element does not fit the rest of the path, the
//! other elements are tried; when nothing fits, the reference's default
//! is used.

use std::fmt;

use serde_json::Value;

/// One step of a path into a JSON value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PathStep {
    /// A field of an object (`@"name"`).
    Field(String),
    /// An element of an array (`#n`).
    Index(u32),
}

/// A path into a JSON value (the thesis's `Jpath`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct JPath(pub Vec<PathStep>);

impl JPath {
    /// The whole value (`this`).
    pub fn this() -> Self {
        JPath(Vec::new())
    }

    /// The path extended by a field.
    pub fn field(mut self, name: impl Into<String>) -> Self {
        self.0.push(PathStep::Field(name.into()));
        self
    }

    /// The path extended by an array index.
    pub fn index(mut self, i: u32) -> Self {
        self.0.push(PathStep::Index(i));
        self
    }

    /// Evaluates the path on `v`, loosely for array indices.
    pub fn get(&self, v: &Value) -> Option<Value> {
        get_loose(&self.0, v)
    }
}

fn get_loose(path: &[PathStep], v: &Value) -> Option<Value> {
    let Some((first, rest)) = path.split_first() else { return Some(v.clone()) };
    match first {
        PathStep::Field(k) => get_loose(rest, v.as_object()?.get(k)?),
        PathStep::Index(n) => {
            let items = v.as_array()?;
            let n = *n as usize;
            if let Some(found) = items.get(n).and_then(|x| get_loose(rest, x)) {
                return Some(found);
            }
            items.iter().enumerate().filter(|(i, _)| *i != n).find_map(|(_, x)| get_loose(rest, x))
        }
    }
}

impl fmt::Display for JPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("this")?;
        for s in &self.0 {
            match s {
                PathStep::Field(k) => write!(f, "@{k:?}")?,
                PathStep::Index(i) => write!(f, "#{i}")?,
            }
        }
        Ok(())
    }
}

/// A named function a reference may apply (the thesis's `jexp_to_IR`).
/// Protocols list theirs in [`crate::protocol::Protocol::functions`];
/// function number 0 is always the identity.
#[derive(Clone, Copy)]
pub struct JFn {
    /// Name, for printing.
    pub name: &'static str,
    /// The function; `None` when it does not apply to its argument (the
    /// reference then falls back to its default).
    pub apply: fn(&Value) -> Option<Value>,
}

impl fmt::Debug for JFn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// A J-expression: JSON with references into the trace.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum JExp {
    /// A literal JSON value.
    Lit(Value),
    /// An array of J-expressions.
    Array(Vec<JExp>),
    /// An object of J-expressions (fields in order).
    Object(Vec<(String, JExp)>),
    /// `label.(path).func`, or `default` when nothing in the trace fits.
    Ref {
        /// The label of the message to read (requests are odd, their
        /// responses the next even number).
        label: u32,
        /// Where in the message.
        path: JPath,
        /// Function number (0: identity; `k`: the protocol's `k-1`-th).
        func: u32,
        /// The value when the reference cannot be evaluated.
        default: Value,
    },
}

impl JExp {
    /// A literal.
    pub fn lit(v: impl Into<Value>) -> Self {
        JExp::Lit(v.into())
    }

    /// A reference with the identity function.
    pub fn reference(label: u32, path: JPath, default: impl Into<Value>) -> Self {
        JExp::Ref { label, path, func: 0, default: default.into() }
    }

    /// An object from fields.
    pub fn object(fields: impl IntoIterator<Item = (&'static str, JExp)>) -> Self {
        JExp::Object(fields.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }

    /// Does the expression refer to the trace?
    pub fn has_refs(&self) -> bool {
        match self {
            JExp::Lit(_) => false,
            JExp::Ref { .. } => true,
            JExp::Array(xs) => xs.iter().any(JExp::has_refs),
            JExp::Object(xs) => xs.iter().any(|(_, x)| x.has_refs()),
        }
    }

    /// The labels of the messages the expression refers to.
    pub fn referenced_labels(&self) -> Vec<u32> {
        fn walk(e: &JExp, out: &mut Vec<u32>) {
            match e {
                JExp::Lit(_) => {}
                JExp::Ref { label, .. } => out.push(*label),
                JExp::Array(xs) => xs.iter().for_each(|x| walk(x, out)),
                JExp::Object(xs) => xs.iter().for_each(|(_, x)| walk(x, out)),
            }
        }
        let mut out = Vec::new();
        walk(self, &mut out);
        out
    }

    /// Instantiates the expression against a trace of labelled IR messages
    /// (oldest first), loosely (see the [module docs](self)).
    pub fn instantiate(&self, trace: &[(u32, &Value)], funcs: &[JFn]) -> Value {
        match self {
            JExp::Lit(v) => v.clone(),
            JExp::Array(xs) => Value::Array(xs.iter().map(|x| x.instantiate(trace, funcs)).collect()),
            JExp::Object(xs) => {
                let mut m = serde_json::Map::new();
                for (k, x) in xs {
                    m.insert(k.clone(), x.instantiate(trace, funcs));
                }
                Value::Object(m)
            }
            JExp::Ref { label, path, func, default } => {
                let f: Option<&JFn> = match *func {
                    0 => None,
                    k => match funcs.get(k as usize - 1) {
                        Some(f) => Some(f),
                        None => return default.clone(),
                    },
                };
                let apply = |v: Value| match f {
                    None => Some(v),
                    Some(f) => (f.apply)(&v),
                };
                // The labelled message first, then the others by distance
                // of label, older first among equals.
                let mut order: Vec<usize> = (0..trace.len()).collect();
                order.sort_by_key(|&i| (trace[i].0 != *label, trace[i].0.abs_diff(*label), i));
                order.into_iter().find_map(|i| path.get(trace[i].1).and_then(apply)).unwrap_or_else(|| default.clone())
            }
        }
    }
}

impl fmt::Display for JExp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JExp::Lit(v) => write!(f, "{v}"),
            JExp::Array(xs) => crate::sym::write_json_array(f, xs),
            JExp::Object(xs) => crate::sym::write_json_object(f, xs.iter().map(|(k, x)| (k, x))),
            JExp::Ref { label, path, func, default } => {
                write!(f, "{label}.({path})")?;
                if *func != 0 {
                    write!(f, ".f{func}")?;
                }
                write!(f, " or {default}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_fall_back_to_other_elements() {
        // The thesis's example: (this@3#"bar") on arrays lacking a fitting third element.
        let p = JPath::this().index(2).field("bar");
        let j2 = json!([{"bar": 21}, {"bar": 22}]);
        assert_eq!(p.get(&j2), Some(json!(21)));
        let j3 = json!([{"foo": 1}, {"bar": 32}, {"baz": 3}]);
        assert_eq!(p.get(&j3), Some(json!(32)));
        assert_eq!(JPath::this().field("x").get(&json!({"y": 1})), None);
    }

    #[test]
    fn references_fall_back_to_other_messages_then_the_default() {
        let q1 = json!({"op": "get"});
        let a2 = json!({"tag": "v1"});
        let a4 = json!({"tag": "v2"});
        let r = JExp::object([("tag", JExp::reference(4, JPath::this().field("tag"), "none"))]);
        // Label 4 present: its tag.
        assert_eq!(r.instantiate(&[(1, &q1), (2, &a2), (4, &a4)], &[]), json!({"tag": "v2"}));
        // Label 4 missing (delayed, or shrunk away): the nearest other that fits.
        assert_eq!(r.instantiate(&[(1, &q1), (2, &a2)], &[]), json!({"tag": "v1"}));
        // Nothing fits: the default.
        assert_eq!(r.instantiate(&[(1, &q1)], &[]), json!({"tag": "none"}));
    }

    #[test]
    fn functions_apply_to_the_referenced_value() {
        let f = JFn { name: "succ", apply: |v| Some(json!(v.as_i64()? + 1)) };
        let a = json!({"n": 41});
        let r = JExp::Ref { label: 2, path: JPath::this().field("n"), func: 1, default: json!(0) };
        assert_eq!(r.instantiate(&[(2, &a)], &[f]), json!(42));
        assert_eq!(r.to_string(), "2.(this@\"n\").f1 or 0");
    }
}
