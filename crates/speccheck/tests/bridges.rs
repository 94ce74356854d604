//! The optional bridges: regex strings (`regex` feature) and
//! `arbitrary::Arbitrary` types (`arbitrary` feature).

use std::collections::BTreeSet;

use speccheck::gens::{self, Fuzzed, Generator};
use speccheck::prelude::*;
use speccheck::{Config, Property, RunVerdict, TestCase};

fn quiet(name: &str) -> Config {
    Config { database: None, seed: Some(6), ..Config::named(name) }
}

#[test]
fn a_finite_pattern_gives_exactly_its_language() {
    let g = gens::string_matching("(ab|c)[x-z]?").expect("a valid pattern");
    let seen: BTreeSet<String> = (0..3000).map(|seed| g.generate(&mut TestCase::random(seed, 100))).collect();
    let language: BTreeSet<String> =
        ["ab", "c", "abx", "aby", "abz", "cx", "cy", "cz"].iter().map(|s| s.to_string()).collect();
    assert_eq!(seen, language);
}

#[test]
fn pattern_strings_match_and_shrink_to_the_shortest_earliest_match() {
    let ident = |s: &str| {
        let mut cs = s.chars();
        cs.next().is_some_and(|c| c.is_ascii_lowercase())
            && cs.clone().count() <= 7
            && cs.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    };
    let g = gens::string_matching("[a-z][a-z0-9_]{0,7}").expect("a valid pattern");
    for seed in 0..2000 {
        let s = g.generate(&mut TestCase::random(seed, 100));
        assert!(ident(&s), "{s:?}");
    }
    let unicode = gens::string_matching(r"\p{Greek}{2,4}|\d+").expect("a valid pattern");
    for seed in 0..500 {
        let s = unicode.generate(&mut TestCase::random(seed, 100));
        let n = s.chars().count();
        assert!(n >= 1 && (s.chars().all(char::is_numeric) || (2..=4).contains(&n)), "{s:?}");
    }
    let r = Property::new(gens::string_matching("[b-d]+x?").unwrap())
        .config(quiet("regex_shrink"))
        .run(|s: String| s.len() < 4);
    assert_eq!(r.counterexample_value::<String>().as_deref(), Some("bbbb"), "{r}");
}

#[test]
fn a_pattern_that_cannot_be_generated_is_an_error_naming_it() {
    let e = gens::string_matching("a{2,1}").unwrap_err().to_string();
    assert!(e.contains("a{2,1}"), "{e}");
    let e = gens::string_matching(r"(?-u)[\x80-\xff]").unwrap_err().to_string();
    assert!(e.contains("UTF-8"), "{e}");
    assert!(gens::string_matching("(").is_err());
    // A word boundary is refused, not ignored; anchors are fine.
    let e = gens::string_matching(r"a\bb").unwrap_err().to_string();
    assert!(e.contains("word boundary"), "{e}");
    let anchored = gens::string_matching("^ab$").expect("anchors at the ends");
    assert_eq!(anchored.generate(&mut TestCase::random(1, 10)), "ab");
}

#[test]
fn an_arbitrary_type_is_a_property_argument_and_shrinks_through_its_bytes() {
    let r = Property::new(any::<Fuzzed<Vec<u32>>>())
        .config(quiet("fuzzed"))
        .run(|v: Fuzzed<Vec<u32>>| v.iter().all(|&x| x <= 1000));
    let v = r.counterexample_value::<Fuzzed<Vec<u32>>>().expect("a failure");
    assert_eq!(v.len(), 1, "{r}");
    assert!(v[0] > 1000);
    // It prints as the value it holds.
    assert_eq!(format!("{v:?}"), format!("{:?}", v.0));
}

/// A type whose `arbitrary` refuses most inputs: the cases are invalid,
/// never failures, and a run that can build none says so.
#[derive(Debug)]
struct Picky;

impl<'a> arbitrary::Arbitrary<'a> for Picky {
    fn arbitrary(_: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        Err(arbitrary::Error::IncorrectFormat)
    }
}

#[test]
fn an_input_arbitrary_refuses_is_invalid_not_a_failure() {
    let r = Property::new(gens::from_arbitrary::<Picky>()).config(quiet("picky")).run(|_: Picky| false);
    assert!(!r.passed(), "{r}");
    assert!(!matches!(r.verdict, RunVerdict::Failed(_)), "refused inputs must not fail the property: {r}");
}
