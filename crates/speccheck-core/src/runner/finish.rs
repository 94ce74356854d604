//! How a `#[property]` ends: as a test (run, and panic with the report on
//! failure) or as a fuzz target (built once, then run on each fuzzer
//! input). The attribute expands to one function that builds the
//! property and hands it, with its body, to a [`Finish`]; the `#[test]`
//! passes [`AsTest`], `speccheck::fuzz_target!` passes [`AsFuzzTarget`].
//! Both get the same generator, settings and body.

use super::fuzz::FuzzTarget;
use super::property::Property;
use crate::case::Verdict;
use crate::gens::Generator;
use crate::test_case::TestCase;

/// What is done with a built property and its body.
pub trait Finish {
    /// What finishing returns.
    type Output;

    /// Finishes a property whose body takes its inputs.
    #[track_caller]
    fn finish<G, V>(self, property: Property<G>, body: impl Fn(G::Value) -> V + Send + Sync + 'static) -> Self::Output
    where
        G: Generator + 'static,
        G::Value: 'static,
        V: Verdict;

    /// Finishes a property whose body also takes the test case.
    #[track_caller]
    fn finish_with_case<G, V>(
        self,
        property: Property<G>,
        body: impl Fn(&mut TestCase, G::Value) -> V + Send + Sync + 'static,
    ) -> Self::Output
    where
        G: Generator + 'static,
        G::Value: 'static,
        V: Verdict;
}

/// Runs the property as a test ([`Property::check`]).
#[derive(Clone, Copy, Debug)]
pub struct AsTest;

impl Finish for AsTest {
    type Output = ();

    #[track_caller]
    fn finish<G, V>(self, property: Property<G>, body: impl Fn(G::Value) -> V + Send + Sync + 'static)
    where
        G: Generator + 'static,
        G::Value: 'static,
        V: Verdict,
    {
        property.check(body)
    }

    #[track_caller]
    fn finish_with_case<G, V>(
        self,
        property: Property<G>,
        body: impl Fn(&mut TestCase, G::Value) -> V + Send + Sync + 'static,
    ) where
        G: Generator + 'static,
        G::Value: 'static,
        V: Verdict,
    {
        property.check_with_case(body)
    }
}

/// Builds the property's fuzz target ([`Property::fuzz_target`]).
#[derive(Clone, Copy, Debug)]
pub struct AsFuzzTarget;

impl Finish for AsFuzzTarget {
    type Output = FuzzTarget;

    fn finish<G, V>(self, property: Property<G>, body: impl Fn(G::Value) -> V + Send + Sync + 'static) -> FuzzTarget
    where
        G: Generator + 'static,
        G::Value: 'static,
        V: Verdict,
    {
        property.fuzz_target(body)
    }

    fn finish_with_case<G, V>(
        self,
        property: Property<G>,
        body: impl Fn(&mut TestCase, G::Value) -> V + Send + Sync + 'static,
    ) -> FuzzTarget
    where
        G: Generator + 'static,
        G::Value: 'static,
        V: Verdict,
    {
        property.fuzz_target_with_case(body)
    }
}
