//! Health checks: a run that cannot test what it claims fails loudly at
//! the default settings, with the figures.

use std::time::Duration;

use speccheck::{Generator as _, Property, RunVerdict, gens};

/// A generator that takes 150 ms an input.
fn slow() -> impl speccheck::Generator<Value = u8> {
    gens::from_fn(|tc: &mut speccheck::TestCase| {
        std::thread::sleep(Duration::from_millis(150));
        tc.draw(&gens::ints(0..=9u8))
    })
}

#[test]
fn a_generator_too_slow_to_test_with_is_an_error_with_the_figures() {
    let report = Property::new(slow()).configure(|c| c.database = None).run(|_: u8| true);
    let RunVerdict::Error(e) = &report.verdict else { panic!("a slow generator passed quietly:\n{report}") };
    assert!(e.contains("too slow") && e.contains("the first 10 took"), "{e}");
    assert!(e.contains("SPECCHECK_HEALTH_CHECKS=0"), "{e}");
}

#[test]
fn the_check_can_be_turned_off() {
    let report = Property::new(slow())
        .configure(|c| {
            c.database = None;
            c.cases = 12;
            c.health_checks = false;
        })
        .run(|_: u8| true);
    assert!(report.passed(), "{report}");
}

fn sorted(v: &[u32]) -> bool {
    v.windows(2).all(|w| w[0] <= w[1])
}

fn size_warning(report: &speccheck::RunReport) -> Option<&String> {
    report.warnings.iter().find(|w| w.contains("the inputs checked stayed small"))
}

#[test]
fn a_pass_on_only_the_small_inputs_a_precondition_let_through_says_so_with_the_figures() {
    // The classic trap (QuickCheck's ordered lists): random lists are
    // rarely sorted unless they are short, so "sorted" keeps tiny ones.
    // (The run would give up at the default rejection limit; a user who
    // raised it to get a pass gets this warning instead.)
    let report = Property::new(speccheck::any::<Vec<u32>>())
        .configure(|c| {
            c.database = None;
            c.max_discard_ratio = 100;
        })
        .run(|v: Vec<u32>| {
            speccheck::assume(sorted(&v));
            true
        });
    assert!(report.passed(), "{report}");
    let w = size_warning(&report).unwrap_or_else(|| panic!("no size warning:\n{report}"));
    let s = report.stats.sizes;
    assert!(s.checked.longest * 4 <= s.drawn.longest, "{s:?}");
    assert!(w.contains(&format!("had {} element", s.checked.longest)), "{w}");
    assert!(w.contains(&format!("(generated inputs reached {} elements)", s.drawn.longest)), "{w}");
    eprintln!("{report}");
    assert!(report.to_string().contains("warning: health check: the inputs checked stayed small"), "{report}");
}

#[test]
fn a_filter_that_keeps_only_small_values_is_seen_through_within_a_case() {
    // The filter retries inside one case: the case passes, but the long
    // candidates it threw away are not its input.
    let short = gens::vec(gens::ints(0..=255u8), 0..200).filter("short", |v| v.len() < 4);
    let report = Property::new(short).configure(|c| c.database = None).run(|_: Vec<u8>| true);
    assert!(report.passed(), "{report}");
    assert!(size_warning(&report).is_some(), "no size warning:\n{report}");
    assert!(report.stats.sizes.checked.longest < 4, "{:?}", report.stats.sizes);
}

#[test]
fn inputs_that_grew_or_a_generator_bounded_small_pass_without_a_size_warning() {
    let plain = Property::new(speccheck::any::<Vec<u32>>()).configure(|c| c.database = None).run(|_: Vec<u32>| true);
    assert!(plain.passed() && size_warning(&plain).is_none(), "{plain}");
    assert!(plain.stats.sizes.checked.longest >= 16, "{:?}", plain.stats.sizes);
    // A precondition that rejects half the inputs whatever their size.
    let halved = Property::new(speccheck::any::<Vec<u32>>()).configure(|c| c.database = None).run(|v: Vec<u32>| {
        speccheck::assume(v.first().is_none_or(|x| x % 2 == 0));
        true
    });
    assert!(halved.passed() && size_warning(&halved).is_none(), "{halved}");
    // Small by the generator's own bounds: nothing larger was drawn.
    let bounded =
        Property::new(gens::vec(gens::ints(0..=9u8), 0..4)).configure(|c| c.database = None).run(|v: Vec<u8>| {
            speccheck::assume(v.len() < 2);
            true
        });
    assert!(bounded.passed() && size_warning(&bounded).is_none(), "{bounded}");
}

#[test]
fn the_size_check_is_turned_off_with_the_others() {
    let report = Property::new(speccheck::any::<Vec<u32>>())
        .configure(|c| {
            c.database = None;
            c.max_discard_ratio = 100;
            c.health_checks = false;
        })
        .run(|v: Vec<u32>| {
            speccheck::assume(sorted(&v));
            true
        });
    assert!(report.passed() && size_warning(&report).is_none(), "{report}");
}

#[derive(Clone, Debug, speccheck::Arbitrary)]
enum Tree {
    Leaf,
    Node(Box<Tree>, u8, Box<Tree>),
}

impl Tree {
    /// Keys in order, if they are strictly increasing (a search tree).
    fn in_order(&self, out: &mut Vec<u8>) -> bool {
        match self {
            Tree::Leaf => true,
            Tree::Node(l, k, r) => {
                l.in_order(out) && out.last().is_none_or(|last| last < k) && {
                    out.push(*k);
                    r.in_order(out)
                }
            }
        }
    }
}

#[test]
fn a_pass_on_only_the_shallow_values_a_precondition_let_through_says_so() {
    // Random trees are rarely search trees unless they are small.
    let report = Property::new(speccheck::any::<Tree>())
        .configure(|c| {
            c.database = None;
            c.max_discard_ratio = 100;
        })
        .run(|t: Tree| {
            speccheck::assume(t.in_order(&mut Vec::new()));
            true
        });
    eprintln!("{report}");
    assert!(report.passed(), "{report}");
    let w = size_warning(&report).unwrap_or_else(|| panic!("no size warning:\n{report}"));
    let s = report.stats.sizes;
    assert!(
        w.contains(&format!("nested {} deep at most (generated ones {} deep)", s.checked.deepest, s.drawn.deepest))
    );
}
