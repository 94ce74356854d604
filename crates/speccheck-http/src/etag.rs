//! Entity tags (RFC 7232 §2.3; thesis §4.2.1): the validators a server
//! chooses for its representations, compared strongly or weakly — for the
//! model, where a tag the server has not revealed is unknown, and on
//! concrete header values.
//!
//! A tag whose parts may be unknown is an [`EntityTag`]: a boolean (weak?)
//! and a string (the opaque tag), so that every comparison reduces to
//! boolean and string equalities, which speccheck-dual's solver decides
//! exactly. A tag held whole in one string term (`W/"x"`) compares with a
//! concrete tag through [`strong_match`] and [`weak_match`], which reduce
//! to equalities too.

use std::fmt;

use speccheck_dual::sym::{Expr, Syms, Value};

/// An HTTP entity tag whose parts may be unknown (RFC 7232 §2.3): whether
/// it is weak (a boolean) and its opaque part (a string, quotes included).
/// A server chooses its tags, so a model names a new one with fresh
/// variables; comparisons between two tags — either or both unknown —
/// reduce to boolean and string equalities the solver decides exactly.
///
/// ```
/// # use speccheck_http::etag::EntityTag;
/// let seen = EntityTag::parse("W/\"7\"").unwrap();
/// assert_eq!(seen.weak_eq(&EntityTag::parse("\"7\"").unwrap()).eval_ground(), Some(true.into()));
/// assert_eq!(seen.strong_eq(&seen).eval_ground(), Some(false.into()), "weak tags never match strongly");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EntityTag {
    /// Whether the tag is weak (`W/` prefix), a boolean expression.
    pub weak: Expr,
    /// The opaque tag with its quotes (`"xyz"`), a string expression.
    pub opaque: Expr,
}

impl EntityTag {
    /// A tag from its parts.
    pub fn new(weak: impl Into<Expr>, opaque: impl Into<Expr>) -> Self {
        EntityTag { weak: weak.into(), opaque: opaque.into() }
    }

    /// A concrete tag as written in a header (`"x"`, `W/"x"`); `None`
    /// when it is not an entity tag (RFC 7232 §2.3: a quoted string of
    /// visible characters other than `"`, optionally prefixed by `W/`).
    pub fn parse(s: &str) -> Option<Self> {
        let (weak, opaque) = match s.strip_prefix("W/") {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        let inner = opaque.strip_prefix('"')?.strip_suffix('"')?;
        let ok = inner.bytes().all(|b| b == 0x21 || (0x23..=0x7e).contains(&b) || b >= 0x80);
        ok.then(|| EntityTag::new(weak, opaque.to_string()))
    }

    /// Strong comparison (RFC 7232 §2.3.2): both strong, same opaque tag.
    pub fn strong_eq(&self, other: &EntityTag) -> Expr {
        Expr::and([!self.weak.clone(), !other.weak.clone(), self.opaque.equals(&other.opaque)])
    }

    /// Weak comparison (RFC 7232 §2.3.2): same opaque tag.
    pub fn weak_eq(&self, other: &EntityTag) -> Expr {
        self.opaque.equals(&other.opaque)
    }

    /// The constraint that this tag is the one written `observed` in a
    /// header (false when `observed` is not an entity tag).
    pub fn is(&self, observed: &str) -> Expr {
        match EntityTag::parse(observed) {
            Some(t) => Expr::and([self.weak.equals(t.weak), self.opaque.equals(t.opaque)]),
            None => Expr::bool(false),
        }
    }

    /// Whether some tag of `list` matches this one (strongly, or weakly
    /// with `weak`): a disjunction, false for an empty list.
    pub fn any_of(&self, list: &[EntityTag], weak: bool) -> Expr {
        Expr::or(list.iter().map(|t| if weak { self.weak_eq(t) } else { self.strong_eq(t) }))
    }
}

impl fmt::Display for EntityTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.weak, &self.opaque) {
            (Expr::Const(Value::Bool(true)), Expr::Const(Value::Str(o))) => write!(f, "W/{o}"),
            (Expr::Const(Value::Bool(false)), Expr::Const(Value::Str(o))) => f.write_str(o),
            (w, o) => write!(f, "etag(weak: {w}, opaque: {o})"),
        }
    }
}

impl Syms for EntityTag {
    fn visit_exprs(&mut self, f: &mut dyn FnMut(&mut Expr)) {
        f(&mut self.weak);
        f(&mut self.opaque);
    }
}

/// Strong comparison (RFC 7232 §2.3.2) of a tag held whole in a string
/// term (`"x"` or `W/"x"`) with the concrete tag `against`: a weak tag
/// never matches strongly, so this is the equality `tag == against`, or
/// false when `against` is weak.
pub fn strong_match(tag: &Expr, against: &str) -> Expr {
    if against.starts_with("W/") { Expr::bool(false) } else { tag.equals(Expr::str(against)) }
}

/// Weak comparison (RFC 7232 §2.3.2) of a tag held whole in a string term
/// (`"x"` or `W/"x"`) with the concrete tag `against`: the opaque parts
/// are the same, so the term is `"o"` or `W/"o"` where `o` is `against`'s.
pub fn weak_match(tag: &Expr, against: &str) -> Expr {
    let o = opaque_tag(against);
    Expr::or([tag.equals(Expr::str(o)), tag.equals(Expr::str(format!("W/{o}")))])
}

/// Entity-tag comparison on concrete tags (RFC 7232 §2.3.2).
pub fn etag_match(a: &str, b: &str, weak: bool) -> bool {
    if weak { opaque_tag(a) == opaque_tag(b) } else { !a.starts_with("W/") && !b.starts_with("W/") && a == b }
}

/// The opaque part of an entity tag (without the weakness indicator).
pub fn opaque_tag(t: &str) -> &str {
    t.strip_prefix("W/").unwrap_or(t)
}

#[cfg(test)]
mod tests {
    use speccheck_dual::solver::{Native, Solver};
    use speccheck_dual::sym::{Sort, Var};

    use super::*;

    /// The unknowns of a tag the server has not revealed yet.
    const WEAK: Var = Var { id: 0, sort: Sort::Bool, hint: "weak" };
    const OPAQUE: Var = Var { id: 1, sort: Sort::Str, hint: "etag" };

    #[test]
    fn etag_comparison_follows_rfc_7232() {
        // The table of RFC 7232 §2.3.2.
        assert!(!etag_match("W/\"1\"", "W/\"1\"", false));
        assert!(etag_match("W/\"1\"", "W/\"1\"", true));
        assert!(!etag_match("W/\"1\"", "W/\"2\"", false));
        assert!(!etag_match("W/\"1\"", "W/\"2\"", true));
        assert!(!etag_match("W/\"1\"", "\"1\"", false));
        assert!(etag_match("W/\"1\"", "\"1\"", true));
        assert!(etag_match("\"1\"", "\"1\"", false));
        assert!(etag_match("\"1\"", "\"1\"", true));
    }

    #[test]
    fn entity_tags_compare_as_rfc_7232_says_whatever_is_unknown() {
        // The table of RFC 7232 §2.3.2, through symbolic tags.
        let t = |s: &str| EntityTag::parse(s).unwrap();
        let g = |e: Expr| e.eval_ground().and_then(|v| v.as_bool()).unwrap();
        for (a, b, strong, weak) in [
            ("W/\"1\"", "W/\"1\"", false, true),
            ("W/\"1\"", "W/\"2\"", false, false),
            ("W/\"1\"", "\"1\"", false, true),
            ("\"1\"", "\"1\"", true, true),
        ] {
            assert_eq!(g(t(a).strong_eq(&t(b))), strong, "{a} {b}");
            assert_eq!(g(t(a).weak_eq(&t(b))), weak, "{a} {b}");
            assert_eq!(etag_match(a, b, false), strong);
            assert_eq!(etag_match(a, b, true), weak);
        }
        assert!(EntityTag::parse("abc").is_none() && EntityTag::parse("\"a\"b\"").is_none());
        // Two unknown tags: the comparison is a constraint on both.
        let u = EntityTag::new(Expr::Var(WEAK), Expr::Var(OPAQUE));
        let lookup = |v: Var| match v.id {
            0 => Some(Value::Bool(false)),
            _ => Some(Value::Str("\"1\"".into())),
        };
        assert_eq!(u.strong_eq(&t("\"1\"")).eval(&lookup), Some(Value::Bool(true)));
        assert_eq!(u.any_of(&[t("\"2\""), t("W/\"1\"")], false).eval(&lookup), Some(Value::Bool(false)));
        assert_eq!(u.any_of(&[t("\"2\""), t("W/\"1\"")], true).eval(&lookup), Some(Value::Bool(true)));
        assert_eq!(u.is("\"1\"").eval(&lookup), Some(Value::Bool(true)));
        assert_eq!(u.is("garbage"), Expr::bool(false));
    }

    #[test]
    fn a_tag_held_whole_matches_as_rfc_7232_says() {
        // The comparisons of a string term against a concrete tag agree
        // with the table on concrete tags, and evaluate under an assignment.
        let tags = ["W/\"1\"", "W/\"2\"", "\"1\"", "\"2\""];
        for a in tags {
            for b in tags {
                let g = |e: Expr| e.eval_ground().and_then(|v| v.as_bool()).unwrap();
                assert_eq!(g(strong_match(&Expr::str(a), b)), etag_match(a, b, false), "{a} {b}");
                assert_eq!(g(weak_match(&Expr::str(a), b)), etag_match(a, b, true), "{a} {b}");
            }
        }
        let t = OPAQUE;
        let lookup = |_: Var| Some(Value::Str("W/\"a\"".into()));
        assert_eq!(weak_match(&Expr::Var(t), "\"a\"").eval(&lookup), Some(Value::Bool(true)));
    }

    #[test]
    fn a_strong_match_with_the_tag_a_store_bound_holds() {
        let mut s = Native::empty();
        let t = Expr::Var(s.fresh(Sort::Str, "etag"));
        assert!(s.assert(t.equals("\"v1\"")));
        assert!(s.assert(strong_match(&t, "\"v1\"")));
        assert!(!s.assert(strong_match(&t, "W/\"v1\"")), "a weak tag never matches strongly");
    }
}
