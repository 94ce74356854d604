//! Printing counterexamples and formulas (SmartCheck §6: Rust syntax or the
//! indented tree format), with repeated sub-terms shown once as `where`
//! bindings — the sharing the paper leaves as future work (§9): instead of
//! `Add(Div(C(1), Add(C(-2), C(2))), Div(C(1), Add(C(-1), C(1))))` it
//! prints `Add(div(-2, 2), div(-1, 1)) where div(a, b) = Div(C(1), Add(C(a), C(b)))`.
//!
//! Holes are placed through the value's [`Term`]: the tree-view children
//! of a span correspond to the sub-terms of its term (`Box`, `Rc` and `Arc`
//! are transparent on both sides; collection elements sit in slots). Where
//! a span has no matching term position — a value printed with `Debug`, a
//! hand-written generator — the hole is named by its span label instead.

use std::collections::HashMap;

use speccheck_core::{Fields, SpanKind, Term};

use crate::config::{Format, ReduceConfig};
use crate::view::View;

/// Values whose one-line form is longer than this print as a tree
/// ([`Format::Auto`]).
const TREE_THRESHOLD: usize = 400;
/// Width for Rust syntax.
const WIDTH: usize = 96;
/// Most `where` bindings per formula.
const MAX_BINDINGS: usize = 4;

/// A generalized position, ready to print.
#[derive(Clone, Debug)]
pub struct Hole {
    /// Span ordinal.
    pub ordinal: usize,
    /// Its name in the formula (`x0` for `∀`, `c0` for `∃`; renumbered in
    /// reading order when printed).
    pub name: String,
    /// True for `∀`, false for `∃`.
    pub universal: bool,
    /// How it was tested.
    pub note: String,
}

/// The sub-term of `inputs` at the span `ordinal`, when the spans and the
/// terms line up: `(input index, child path)`. Every node on the way must
/// look like its term; the node itself may not, when it is the whole
/// content of a slot (a collection element, an argument, a field) whose
/// generator was `map`ped: the term there is the mapped value, and it
/// stands exactly where the span does.
pub fn term_position(view: &View<'_>, inputs: &[(String, Term)], ordinal: usize) -> Option<(usize, Vec<usize>)> {
    let subjects = view.subjects();
    if subjects.len() != inputs.len() {
        return None;
    }
    let k = subjects.iter().position(|&s| view.is_within(ordinal, s))?;
    let path = view.path(k, ordinal)?;
    let (mut node, mut term) = (subjects[k], &inputs[k].1);
    let fits = |node: usize, term: &Term, last: bool| {
        compatible(view, node, term) || (last && !matches!(term, Term::Hole(_)) && fills_a_slot(view, node))
    };
    if !fits(node, term, path.is_empty()) {
        return None;
    }
    for (depth, &step) in path.iter().enumerate() {
        let kids = view.children(Some(node));
        let terms = term.children();
        if kids.len() != terms.len() {
            return None;
        }
        node = kids[step];
        term = terms[step];
        if !fits(node, term, depth + 1 == path.len()) {
            return None;
        }
    }
    Some((k, path))
}

/// True when the value span `node` is all its enclosing slot holds (looking
/// through groups around it, such as a `map`'s).
fn fills_a_slot(view: &View<'_>, node: usize) -> bool {
    let span = view.span(node);
    if span.kind != SpanKind::Value {
        return false;
    }
    let mut up = span.parent;
    while let Some(p) = up.map(|p| view.span(p as usize)) {
        let around = p.start <= span.start && p.end >= span.end;
        match p.kind {
            SpanKind::Group if around && p.end - p.start == span.end - span.start => up = p.parent,
            SpanKind::Slot => return around && p.end - p.start <= span.end - span.start + 1,
            _ => return false,
        }
    }
    false
}

/// The sub-term at `ordinal` (see [`term_position`]).
pub fn subterm<'t>(view: &View<'_>, inputs: &'t [(String, Term)], ordinal: usize) -> Option<&'t Term> {
    let (k, path) = term_position(view, inputs, ordinal)?;
    let mut t = &inputs[k].1;
    for i in path {
        t = t.children()[i];
    }
    Some(t)
}

/// Does the term look like the value of this span?
fn compatible(view: &View<'_>, node: usize, term: &Term) -> bool {
    if view.is_opaque(node) {
        return !matches!(term, Term::Hole(_));
    }
    let span = view.span(node);
    let ctors = span.type_info().constructors;
    match term {
        Term::Tuple(_) => ctors == ["(..)"],
        Term::Seq { .. } => ctors.is_empty(),
        Term::Ctor { name, .. } => {
            span.constructor().is_some_and(|c| name == c || name.strip_suffix(c).is_some_and(|p| p.ends_with("::")))
        }
        Term::Atom(_) | Term::Hole(_) => false,
    }
}

/// Renders the inputs with `holes` marked: the generalized formula, then
/// one line per hole saying how it was tested. Every hole the formula
/// names stands where it is in the printed value; a hole with no term
/// position (a value printed with `Debug`, a hand-written generator) is not
/// named but described by its place, and a hole inside another is left
/// out (the outer one already says any value fails there).
pub fn formula(view: &View<'_>, inputs: &[(String, Term)], holes: &[Hole], config: &ReduceConfig) -> String {
    let mut placed: Vec<(Hole, (usize, Vec<usize>))> = Vec::new();
    let mut unplaced: Vec<Hole> = Vec::new();
    for h in holes {
        match term_position(view, inputs, h.ordinal) {
            Some(pos) => placed.push((h.clone(), pos)),
            None => unplaced.push(h.clone()),
        }
    }
    // Outer holes first, so that inner ones can be seen to be covered.
    placed.sort_by_key(|(_, (k, path))| (*k, path.len()));
    let mut terms: Vec<(String, Term)> = inputs.to_vec();
    let mut shown: Vec<(Hole, (usize, Vec<usize>))> = Vec::new();
    for (h, (k, path)) in placed {
        if shown.iter().any(|(_, (k2, p2))| *k2 == k && path.starts_with(p2)) {
            continue;
        }
        match terms[k].1.at_path_mut(&path) {
            Some(t) => *t = Term::Hole(String::new()),
            None => {
                unplaced.push(h);
                continue;
            }
        }
        shown.push((h, (k, path)));
    }
    // Named in reading order, `∀` holes first.
    shown.sort_by(|a, b| (!a.0.universal, &a.1).cmp(&(!b.0.universal, &b.1)));
    let (mut x, mut c) = (0, 0);
    for (h, (k, path)) in &mut shown {
        let counter = if h.universal { &mut x } else { &mut c };
        h.name = format!("{}{}", if h.universal { "x" } else { "c" }, *counter);
        *counter += 1;
        if let Some(t) = terms[*k].1.at_path_mut(path) {
            *t = Term::Hole(h.name.clone());
        }
    }
    let foralls: Vec<&str> = shown.iter().filter(|(h, _)| h.universal).map(|(h, _)| h.name.as_str()).collect();
    let exists: Vec<&str> = shown.iter().filter(|(h, _)| !h.universal).map(|(h, _)| h.name.as_str()).collect();
    let mut head = Vec::new();
    if !foralls.is_empty() {
        head.push(format!("forall {}", foralls.join(" ")));
    }
    if !exists.is_empty() {
        head.push(format!("for every constructor {}", exists.join(" ")));
    }
    let mut out = String::new();
    if !head.is_empty() {
        out.push_str(&head.join(", "));
        out.push(':');
    }
    out.push_str(&value(&terms, config, !head.is_empty()));
    for (h, _) in &shown {
        let ty = view.span(h.ordinal).type_info().name();
        out.push_str(&format!("\n  {}: {ty} — {}", h.name, h.note));
    }
    let names: Vec<String> = inputs.iter().map(|(n, _)| n.clone()).collect();
    for h in &unplaced {
        // No term position to mark: the hole is described by its place.
        let place = view.label(h.ordinal, Some(&names));
        let what = if h.universal { "any value" } else { "any constructor" };
        out.push_str(&format!("\n  and {what} at {place} — {}", h.note));
    }
    out
}

/// Renders named inputs (after a `forall` header when `after_head`), with
/// repeated sub-terms shared.
pub fn value(inputs: &[(String, Term)], config: &ReduceConfig, after_head: bool) -> String {
    let mut terms: Vec<Term> = inputs.iter().map(|(_, t)| t.clone()).collect();
    let bindings = if config.sharing { share(&mut terms, MAX_BINDINGS) } else { Vec::new() };
    let single = inputs.len() == 1;
    let mut lines = Vec::new();
    for ((name, _), term) in inputs.iter().zip(&terms) {
        let body = render(term, config.format);
        let text = if single { body } else { format!("{name} = {body}") };
        lines.push(text);
    }
    let mut out = String::new();
    let inline = after_head && single && !lines[0].contains('\n') && lines[0].len() <= WIDTH;
    for l in &lines {
        if inline {
            out.push(' ');
            out.push_str(l);
        } else {
            for (i, line) in l.lines().enumerate() {
                if after_head || i > 0 || !out.is_empty() {
                    out.push('\n');
                }
                if after_head {
                    out.push_str("    ");
                }
                out.push_str(line);
            }
        }
    }
    if !bindings.is_empty() {
        out.push_str("\n  where");
        for b in &bindings {
            let head =
                if b.params.is_empty() { b.name.clone() } else { format!("{}({})", b.name, b.params.join(", ")) };
            out.push_str(&format!("\n    {head} = {}", b.body.to_line()));
        }
    }
    out
}

fn render(term: &Term, format: Format) -> String {
    match format {
        Format::Tree => term.to_tree(),
        Format::Rust => term.to_pretty(WIDTH),
        Format::Auto => {
            if term.to_line().len() > TREE_THRESHOLD {
                term.to_tree()
            } else {
                term.to_pretty(WIDTH)
            }
        }
    }
}

/// A `where` binding: `name(params) = body`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    /// The name the term is shown under.
    pub name: String,
    /// Parameters: atoms that differ between the occurrences.
    pub params: Vec<String>,
    /// The shared term, with the parameters as atoms.
    pub body: Term,
}

/// Replaces repeated sub-terms of `terms` (same constructors, atoms
/// possibly differing) by calls of `where` bindings, the most saving
/// first. Terms with holes are never shared.
pub fn share(terms: &mut [Term], max_bindings: usize) -> Vec<Binding> {
    let mut bindings: Vec<Binding> = Vec::new();
    while bindings.len() < max_bindings {
        let Some((occurrences, skeleton_len)) = best_group(terms) else { break };
        let first = at(terms, &occurrences[0]).clone();
        let atom_lists: Vec<Vec<String>> = occurrences.iter().map(|o| atoms(at(terms, o))).collect();
        let varying: Vec<usize> =
            (0..atom_lists[0].len()).filter(|&i| atom_lists.iter().any(|l| l[i] != atom_lists[0][i])).collect();
        let params: Vec<String> = (0..varying.len()).map(param_name).collect();
        let mut body = first.clone();
        let mut counter = 0;
        replace_atoms(&mut body, &mut counter, &|i| varying.iter().position(|&v| v == i).map(|k| params[k].clone()));
        let name = binding_name(&first, &bindings);
        let call_len = name.len() + 2 + varying.len() * 4;
        if skeleton_len <= call_len + 4 {
            break;
        }
        for (o, list) in occurrences.iter().zip(&atom_lists) {
            let call = if varying.is_empty() {
                Term::Atom(name.clone())
            } else {
                Term::call(name.clone(), varying.iter().map(|&i| Term::Atom(list[i].clone())).collect())
            };
            if let Some(t) = terms[o.0].at_path_mut(&o.1) {
                *t = call;
            }
        }
        bindings.push(Binding { name, params, body });
    }
    bindings
}

type Occurrence = (usize, Vec<usize>);

fn at<'t>(terms: &'t [Term], o: &Occurrence) -> &'t Term {
    let mut t = &terms[o.0];
    for &i in &o.1 {
        t = t.children()[i];
    }
    t
}

/// The group of repeated sub-terms that saves the most, with the length
/// of one occurrence.
fn best_group(terms: &[Term]) -> Option<(Vec<Occurrence>, usize)> {
    let mut groups: HashMap<String, Vec<Occurrence>> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    for (k, t) in terms.iter().enumerate() {
        let mut path = Vec::new();
        collect(t, k, &mut path, &mut groups, &mut order);
    }
    let mut best: Option<(usize, Vec<Occurrence>, usize)> = None;
    for key in order {
        let all = &groups[&key];
        // Outermost occurrences only: none inside another.
        let mut chosen: Vec<Occurrence> = Vec::new();
        for o in all {
            if !chosen.iter().any(|c| c.0 == o.0 && o.1.starts_with(&c.1)) {
                chosen.push(o.clone());
            }
        }
        if chosen.len() < 2 {
            continue;
        }
        let len = at(terms, &chosen[0]).to_line().len();
        let score = (chosen.len() - 1) * len;
        if best.as_ref().is_none_or(|b| score > b.0) {
            best = Some((score, chosen, len));
        }
    }
    best.map(|(_, o, len)| (o, len))
}

fn collect(
    t: &Term,
    k: usize,
    path: &mut Vec<usize>,
    groups: &mut HashMap<String, Vec<Occurrence>>,
    order: &mut Vec<String>,
) {
    if t.size() >= 3 && !has_hole(t) && !matches!(t, Term::Atom(_)) {
        let key = skeleton(t);
        let entry = groups.entry(key.clone()).or_default();
        if entry.is_empty() {
            order.push(key);
        }
        entry.push((k, path.clone()));
    }
    for (i, c) in t.children().into_iter().enumerate() {
        path.push(i);
        collect(c, k, path, groups, order);
        path.pop();
    }
}

fn has_hole(t: &Term) -> bool {
    matches!(t, Term::Hole(_)) || t.children().into_iter().any(has_hole)
}

/// The term with every atom blanked out.
fn skeleton(t: &Term) -> String {
    let mut s = t.clone();
    let mut counter = 0;
    replace_atoms(&mut s, &mut counter, &|_| Some("_".to_string()));
    s.to_line()
}

fn atoms(t: &Term) -> Vec<String> {
    let mut out = Vec::new();
    fn walk(t: &Term, out: &mut Vec<String>) {
        if let Term::Atom(a) = t {
            out.push(a.clone());
        }
        for c in t.children() {
            walk(c, out);
        }
    }
    walk(t, &mut out);
    out
}

/// Replaces the atoms of `t` (numbered in pre-order) for which `with`
/// gives a replacement.
fn replace_atoms(t: &mut Term, counter: &mut usize, with: &dyn Fn(usize) -> Option<String>) {
    if let Term::Atom(a) = t {
        if let Some(r) = with(*counter) {
            *a = r;
        }
        *counter += 1;
        return;
    }
    for c in t.children_mut() {
        replace_atoms(c, counter, with);
    }
}

fn param_name(i: usize) -> String {
    let letters = "abcdefghijklmnopqrstuvwxyz";
    let c = letters.as_bytes()[i % 26] as char;
    if i < 26 { c.to_string() } else { format!("{c}{}", i / 26) }
}

fn binding_name(t: &Term, taken: &[Binding]) -> String {
    let base = match t {
        Term::Ctor { name, fields } => {
            let short = name.rsplit("::").next().unwrap_or(name);
            let mut s = String::new();
            for (i, ch) in short.chars().enumerate() {
                if ch.is_uppercase() && i > 0 {
                    s.push('_');
                }
                s.extend(ch.to_lowercase());
            }
            if s.is_empty() || matches!(fields, Fields::Unit) && s.len() < 2 { "t".to_string() } else { s }
        }
        Term::Seq { .. } => "items".to_string(),
        Term::Tuple(_) => "tuple".to_string(),
        _ => "t".to_string(),
    };
    let mut name = base.clone();
    let mut n = 1;
    while taken.iter().any(|b| b.name == name) || is_keyword(&name) {
        name = format!("{base}{n}");
        n += 1;
    }
    name
}

fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "as" | "break"
            | "const"
            | "continue"
            | "crate"
            | "else"
            | "enum"
            | "extern"
            | "false"
            | "fn"
            | "for"
            | "if"
            | "impl"
            | "in"
            | "let"
            | "loop"
            | "match"
            | "mod"
            | "move"
            | "mut"
            | "pub"
            | "ref"
            | "return"
            | "self"
            | "static"
            | "struct"
            | "super"
            | "trait"
            | "true"
            | "type"
            | "unsafe"
            | "use"
            | "where"
            | "while"
            | "gen"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(n: i32) -> Term {
        Term::call("C", vec![Term::Atom(n.to_string())])
    }

    fn bin(op: &str, a: Term, b: Term) -> Term {
        Term::call(op, vec![a, b])
    }

    #[test]
    fn the_papers_sharing_example() {
        // Add (Div (C 1) (Add (C (-2)) (C 2))) (Div (C 1) (Add (C (-1)) (C 1)))
        let t = bin("Add", bin("Div", c(1), bin("Add", c(-2), c(2))), bin("Div", c(1), bin("Add", c(-1), c(1))));
        let mut terms = vec![t];
        let b = share(&mut terms, 4);
        assert_eq!(terms[0].to_line(), "Add(div(-2, 2), div(-1, 1))");
        assert_eq!(b.len(), 1);
        assert_eq!(b[0].params, vec!["a", "b"]);
        assert_eq!(b[0].body.to_line(), "Div(C(1), Add(C(a), C(b)))");
    }

    #[test]
    fn identical_repeats_become_constants_and_small_ones_stay() {
        let big = bin("Div", c(7), bin("Add", c(-5), c(5)));
        let mut terms = vec![Term::seq("vec![", "]", vec![big.clone(), big.clone(), c(1)])];
        let b = share(&mut terms, 4);
        assert_eq!(terms[0].to_line(), "vec![div, div, C(1)]");
        assert_eq!(b[0].params, Vec::<String>::new());
        let mut small = vec![bin("Add", c(1), c(1))];
        assert!(share(&mut small, 4).is_empty(), "C(1) is too small to name");
        assert_eq!(small[0].to_line(), "Add(C(1), C(1))");
    }

    #[test]
    fn terms_with_holes_are_not_shared() {
        let h = bin("Div", Term::Hole("x0".into()), bin("Add", c(-5), c(5)));
        let mut terms = vec![bin("Add", h.clone(), h)];
        share(&mut terms, 4);
        assert!(terms[0].to_line().contains("x0"));
    }
}
