//! README.md's interface-fuzzing sample, as a user copies it
//! (tests/readme_samples.rs checks the README shows exactly this).

use speccheck::interface::Config;

/// A list kept sorted by its functions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SortedList(Vec<i32>);

impl SortedList {
    pub fn empty() -> Self {
        SortedList(Vec::new())
    }

    pub fn add(&self, x: i32) -> Self {
        let mut items = self.0.clone();
        let at = items.iter().position(|&y| y >= x).unwrap_or(items.len());
        items.insert(at, x);
        SortedList(items)
    }

    pub fn is_sorted(&self) -> bool {
        self.0.windows(2).all(|w| w[0] <= w[1])
    }
}

#[test]
fn sorted_lists_stay_sorted() {
    let api = speccheck::interface! {
        abstract SortedList;
        ground i32 = speccheck::gens::ints(-20..=20);
        impl SortedList {
            fn empty() -> Self;
            fn add(&self, x: i32) -> Self;
        }
        law sorted(l: &SortedList) => l.is_sorted();
    }
    .unwrap();
    let report = api.check(Config::default());
    assert!(report.passed(), "{report}");
}
