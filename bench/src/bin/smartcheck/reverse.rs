//! (b) Reverse: `xs == reverse(xs)`, false for any list that is not a
//! palindrome (from QuickCheck's documentation). Size: the list's length.

use proptest::prelude::any;

use super::common::{self, Check, Sample, Tool};

// The tools hand the property a `&Vec<i32>` (their value type).
#[allow(clippy::ptr_arg)]
pub fn check(xs: &Vec<i32>) -> Check {
    if xs.iter().eq(xs.iter().rev()) { Check::Pass } else { Check::Fail }
}

pub fn run(tool: Tool, seed: u64) -> Option<Sample> {
    common::timed(|| match tool {
        _ if tool.is_speccheck() => {
            common::speccheck(speccheck::any::<Vec<i32>>(), common::speccheck_config(tool, seed, None), check)
                .map(|xs| xs.len())
        }
        Tool::Proptest => {
            common::proptest(proptest::collection::vec(any::<i32>(), 0..100), seed, check).map(|xs| xs.len())
        }
        Tool::Quickcheck => common::quickcheck::<Vec<i32>>(seed, true, check).map(|xs| xs.len()),
        _ => common::quickcheck::<Vec<i32>>(seed, false, check).map(|xs| xs.len()),
    })
}
