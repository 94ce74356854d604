//! Terms: values as printable syntax trees.
//!
//! A [`Term`] is how a value looks in a report: Rust syntax on one line
//! when it fits, indented like rustfmt when it does not, or SmartCheck's
//! tree format. Generalized counterexamples are terms with [`Term::Hole`]s.

use std::fmt::{self, Write as _};

/// A value as syntax.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// A literal or anything printed as-is (`42`, `'a'`, `"hi"`, a `Debug`
    /// rendering of a type without a tree view).
    Atom(String),
    /// A constructor applied to fields: `None`, `Some(1)`, `Point { x: 1 }`.
    Ctor {
        /// Path of the constructor (`Expr::Add`, `Some`, `Box::new`).
        name: String,
        /// Its fields.
        fields: Fields,
    },
    /// A sequence: `vec![1, 2]`, `[1, 2]`, `BTreeSet::from([1, 2])`.
    Seq {
        /// Text before the items (`vec![`).
        open: String,
        /// Text after the items (`]`).
        close: String,
        /// The items.
        items: Vec<Term>,
    },
    /// A tuple.
    Tuple(Vec<Term>),
    /// A generalized position (`x0`).
    Hole(String),
}

/// The fields of a constructor.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fields {
    /// No fields (`None`, `Unit`).
    Unit,
    /// Positional fields (`Some(1)`, `Pair(1, 2)`).
    Positional(Vec<Term>),
    /// Named fields (`Point { x: 1, y: 2 }`).
    Named(Vec<(String, Term)>),
}

impl Term {
    /// An atom from anything printable with `Debug`.
    pub fn debug<T: fmt::Debug + ?Sized>(v: &T) -> Term {
        Term::Atom(format!("{v:?}"))
    }

    /// A constructor with positional fields.
    pub fn call(name: impl Into<String>, args: Vec<Term>) -> Term {
        Term::Ctor { name: name.into(), fields: if args.is_empty() { Fields::Unit } else { Fields::Positional(args) } }
    }

    /// A constructor with no fields.
    pub fn unit(name: impl Into<String>) -> Term {
        Term::Ctor { name: name.into(), fields: Fields::Unit }
    }

    /// A constructor with named fields.
    pub fn record(name: impl Into<String>, fields: Vec<(String, Term)>) -> Term {
        Term::Ctor { name: name.into(), fields: Fields::Named(fields) }
    }

    /// A sequence.
    pub fn seq(open: impl Into<String>, close: impl Into<String>, items: Vec<Term>) -> Term {
        Term::Seq { open: open.into(), close: close.into(), items }
    }

    /// The sub-terms, in order.
    pub fn children(&self) -> Vec<&Term> {
        match self {
            Term::Atom(_) | Term::Hole(_) => Vec::new(),
            Term::Ctor { fields, .. } => match fields {
                Fields::Unit => Vec::new(),
                Fields::Positional(v) => v.iter().collect(),
                Fields::Named(v) => v.iter().map(|(_, t)| t).collect(),
            },
            Term::Seq { items, .. } | Term::Tuple(items) => items.iter().collect(),
        }
    }

    /// The sub-terms, mutably.
    pub fn children_mut(&mut self) -> Vec<&mut Term> {
        match self {
            Term::Atom(_) | Term::Hole(_) => Vec::new(),
            Term::Ctor { fields, .. } => match fields {
                Fields::Unit => Vec::new(),
                Fields::Positional(v) => v.iter_mut().collect(),
                Fields::Named(v) => v.iter_mut().map(|(_, t)| t).collect(),
            },
            Term::Seq { items, .. } | Term::Tuple(items) => items.iter_mut().collect(),
        }
    }

    /// The sub-term at `path` (child indices from the root).
    pub fn at_path_mut(&mut self, path: &[usize]) -> Option<&mut Term> {
        let mut cur = self;
        for &i in path {
            cur = cur.children_mut().into_iter().nth(i)?;
        }
        Some(cur)
    }

    /// Number of constructors (ctors and sequences count 1, atoms 0).
    pub fn size(&self) -> usize {
        let own = usize::from(matches!(self, Term::Ctor { .. } | Term::Seq { .. } | Term::Tuple(_)));
        own + self.children().iter().map(|c| c.size()).sum::<usize>()
    }

    /// The term on one line.
    pub fn to_line(&self) -> String {
        let mut out = String::new();
        self.write_line(&mut out);
        out
    }

    fn write_line(&self, out: &mut String) {
        match self {
            Term::Atom(s) | Term::Hole(s) => out.push_str(s),
            Term::Ctor { name, fields } => {
                out.push_str(name);
                match fields {
                    Fields::Unit => {}
                    Fields::Positional(args) => {
                        out.push('(');
                        join_line(out, args.iter(), |out, t| t.write_line(out));
                        out.push(')');
                    }
                    Fields::Named(fs) => {
                        if fs.is_empty() {
                            out.push_str(" {}");
                        } else {
                            out.push_str(" { ");
                            join_line(out, fs.iter(), |out, (n, t)| {
                                out.push_str(n);
                                out.push_str(": ");
                                t.write_line(out);
                            });
                            out.push_str(" }");
                        }
                    }
                }
            }
            Term::Seq { open, close, items } => {
                out.push_str(open);
                join_line(out, items.iter(), |out, t| t.write_line(out));
                out.push_str(close);
            }
            Term::Tuple(items) => {
                out.push('(');
                join_line(out, items.iter(), |out, t| t.write_line(out));
                if items.len() == 1 {
                    out.push(',');
                }
                out.push(')');
            }
        }
    }

    /// Rust syntax, broken over lines (rustfmt style) where a line would
    /// exceed `width` columns.
    pub fn to_pretty(&self, width: usize) -> String {
        let mut out = String::new();
        self.write_pretty(&mut out, 0, width);
        out
    }

    fn write_pretty(&self, out: &mut String, indent: usize, width: usize) {
        let line = self.to_line();
        if indent + line.len() <= width || self.children().is_empty() {
            out.push_str(&line);
            return;
        }
        let pad = " ".repeat(indent + 4);
        let close_pad = " ".repeat(indent);
        let items = |out: &mut String, terms: Vec<(Option<&str>, &Term)>| {
            for (name, t) in terms {
                out.push('\n');
                out.push_str(&pad);
                if let Some(n) = name {
                    out.push_str(n);
                    out.push_str(": ");
                }
                t.write_pretty(out, indent + 4, width);
                out.push(',');
            }
            out.push('\n');
            out.push_str(&close_pad);
        };
        match self {
            Term::Atom(_) | Term::Hole(_) => out.push_str(&line),
            Term::Ctor { name, fields } => {
                out.push_str(name);
                match fields {
                    Fields::Unit => {}
                    Fields::Positional(args) => {
                        out.push('(');
                        items(out, args.iter().map(|t| (None, t)).collect());
                        out.push(')');
                    }
                    Fields::Named(fs) => {
                        out.push_str(" {");
                        items(out, fs.iter().map(|(n, t)| (Some(n.as_str()), t)).collect());
                        out.push('}');
                    }
                }
            }
            Term::Seq { open, close, items: xs } => {
                out.push_str(open);
                items(out, xs.iter().map(|t| (None, t)).collect());
                out.push_str(close);
            }
            Term::Tuple(xs) => {
                out.push('(');
                items(out, xs.iter().map(|t| (None, t)).collect());
                out.push(')');
            }
        }
    }

    /// SmartCheck's tree format: one node per line, children indented
    /// under `+-` and `` `- ``; small sub-terms stay on one line.
    pub fn to_tree(&self) -> String {
        let mut out = String::new();
        self.write_tree(&mut out, "", None);
        out
    }

    fn head(&self) -> String {
        match self {
            Term::Atom(s) | Term::Hole(s) => s.clone(),
            Term::Ctor { name, .. } => name.clone(),
            Term::Seq { open, close, .. } => format!("{}{}", open.trim_end_matches('['), close.trim_start_matches(']')),
            Term::Tuple(_) => "(..)".to_string(),
        }
    }

    fn write_tree(&self, out: &mut String, prefix: &str, label: Option<&str>) {
        if let Some(l) = label {
            out.push_str(l);
            out.push_str(": ");
        }
        let kids: Vec<(Option<&str>, &Term)> = match self {
            Term::Ctor { fields: Fields::Named(fs), .. } => fs.iter().map(|(n, t)| (Some(n.as_str()), t)).collect(),
            _ => self.children().into_iter().map(|t| (None, t)).collect(),
        };
        let line = self.to_line();
        if line.len() <= 60 && (line.len() <= 24 || kids.iter().all(|(_, t)| t.children().is_empty())) {
            out.push_str(&line);
            return;
        }
        out.push_str(&self.head());
        for (i, (name, t)) in kids.iter().enumerate() {
            let last = i + 1 == kids.len();
            let _ = write!(out, "\n{prefix}{}", if last { "`- " } else { "+- " });
            let next = format!("{prefix}{}", if last { "   " } else { "|  " });
            t.write_tree(out, &next, *name);
        }
    }
}

fn join_line<I: Iterator>(out: &mut String, items: I, mut f: impl FnMut(&mut String, I::Item)) {
    for (i, x) in items.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        f(out, x);
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_pretty(f.width().unwrap_or(100)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(n: i32) -> Term {
        Term::call("C", vec![Term::Atom(n.to_string())])
    }

    #[test]
    fn one_line_rust_syntax() {
        let t = Term::call("Div", vec![c(1), Term::call("Add", vec![c(0), c(2)])]);
        assert_eq!(t.to_line(), "Div(C(1), Add(C(0), C(2)))");
        let r =
            Term::record("Point", vec![("x".into(), Term::Atom("1".into())), ("y".into(), Term::Hole("x0".into()))]);
        assert_eq!(r.to_line(), "Point { x: 1, y: x0 }");
        assert_eq!(Term::seq("vec![", "]", vec![c(1)]).to_line(), "vec![C(1)]");
        assert_eq!(Term::Tuple(vec![c(1)]).to_line(), "(C(1),)");
    }

    #[test]
    fn pretty_breaks_long_lines() {
        let items: Vec<Term> = (0..30).map(c).collect();
        let t = Term::seq("vec![", "]", items);
        let p = t.to_pretty(40);
        assert!(p.lines().all(|l| l.len() <= 40), "{p}");
        assert!(p.starts_with("vec![\n    C(0),\n"));
        assert!(p.ends_with(",\n]"));
    }

    #[test]
    fn tree_format_as_smartcheck() {
        let t = Term::call(
            "Div",
            vec![
                Term::call("Add", vec![Term::call("Add", vec![c(1), c(2)]), c(3)]),
                Term::call("Add", vec![c(0), c(2)]),
            ],
        );
        assert_eq!(t.to_tree(), "Div\n+- Add\n|  +- Add(C(1), C(2))\n|  `- C(3)\n`- Add(C(0), C(2))");
        assert_eq!(t.size(), 9);
    }
}
