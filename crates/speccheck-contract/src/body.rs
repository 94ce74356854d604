//! A function's body as the static classifier reads it (built by
//! `#[contract]`): its `let` bindings and returned value in the spec
//! language, with each call site named and resolved to the path of the
//! function it calls (see [`crate::callees`] for what a call stands for).

use speccheck_spec::Expr;

/// Resolves a path written in `module` (`g`, `super::g`, `crate::a::g`,
/// `Counter::g`) to the path rustc prints for it.
pub fn resolve(module: &str, path: &str) -> String {
    if let Some(abs) = path.strip_prefix("::") {
        return abs.to_string();
    }
    let mut base: Vec<&str> = module.split("::").collect();
    let mut rest: Vec<&str> = path.split("::").collect();
    match rest.first() {
        Some(&"crate") => {
            base.truncate(1);
            rest.remove(0);
        }
        Some(&"self") => {
            rest.remove(0);
        }
        _ => {}
    }
    while rest.first() == Some(&"super") && base.len() > 1 {
        base.pop();
        rest.remove(0);
    }
    base.extend(rest);
    base.join("::")
}

/// What the classifier may read of a function's body (built by
/// `#[contract]`; see [`Contract::body`](crate::Contract::body)).
#[derive(Clone, Debug)]
pub struct Body {
    /// `let` bindings in order: the name and its value. Calls are
    /// `__sc_call_k(args)`; unknown values are variables `__sc_opaque_k`.
    pub lets: Vec<(String, Expr)>,
    /// The value returned, when the body ends in one.
    pub tail: Option<Expr>,
    /// The resolved path each call site `__sc_call_k` calls.
    pub callees: Vec<String>,
}

/// The prefix of a call site's name in a body summary.
pub const CALL: &str = "__sc_call_";

/// The prefix of an unknown value's name in a body summary.
pub const OPAQUE: &str = "__sc_opaque_";

impl Body {
    /// Parses a summary the derive wrote: `lets` and `tail` as spec text,
    /// `callees` as paths written in `module`.
    pub fn parse(module: &str, lets: &[(&str, &str)], tail: Option<&str>, callees: &[&str]) -> Result<Body, String> {
        let parse = |s: &str| speccheck_spec::parse_str(s).map_err(|e| format!("`{s}`: {}", e.message));
        Ok(Body {
            lets: lets.iter().map(|(n, v)| Ok((n.to_string(), parse(v)?))).collect::<Result<_, String>>()?,
            tail: tail.map(parse).transpose()?,
            callees: callees.iter().map(|p| resolve(module, p)).collect(),
        })
    }

    /// The callee of call site `name` (`__sc_call_3`), if it is one.
    pub fn callee(&self, name: &str) -> Option<&str> {
        let k: usize = name.strip_prefix(CALL)?.parse().ok()?;
        self.callees.get(k).map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_resolve_from_the_callers_module() {
        assert_eq!(resolve("k::a::b", "g"), "k::a::b::g");
        assert_eq!(resolve("k::a::b", "Counter::g"), "k::a::b::Counter::g");
        assert_eq!(resolve("k::a::b", "self::g"), "k::a::b::g");
        assert_eq!(resolve("k::a::b", "super::g"), "k::a::g");
        assert_eq!(resolve("k::a::b", "super::super::g"), "k::g");
        assert_eq!(resolve("k::a::b", "crate::x::g"), "k::x::g");
        assert_eq!(resolve("k::a::b", "::other::g"), "other::g");
    }

    #[test]
    fn call_sites_name_their_callee() {
        let b = Body::parse("k", &[("y", "__sc_call_0(x) + 1")], Some("y"), &["g"]).unwrap();
        assert_eq!(b.callee("__sc_call_0"), Some("k::g"));
        assert_eq!(b.callee("__sc_call_1"), None);
        assert_eq!(b.callee("g"), None);
    }
}
