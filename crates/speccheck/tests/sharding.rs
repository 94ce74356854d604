//! `SPECCHECK_SHARD=i/n`: the shards of a run together run exactly its
//! cases, none twice.

use std::sync::{Arc, Mutex};

use speccheck::{Config, Property, any};

/// The inputs one run (or shard) of a property sees.
fn inputs(shard: Option<(u32, u32)>) -> (Vec<u64>, String) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let report = Property::new(any::<u64>())
        .configure(|c| {
            c.cases = 61;
            c.seed = Some(42);
            c.database = None;
            c.shard = shard;
        })
        .run(move |x: u64| log.lock().unwrap().push(x));
    assert!(report.passed(), "{report}");
    let mut v = seen.lock().unwrap().clone();
    v.sort_unstable();
    (v, report.summary())
}

#[test]
fn the_shards_union_is_exactly_the_unsharded_run() {
    let (whole, _) = inputs(None);
    assert_eq!(whole.len(), 61);
    for n in [2u32, 3, 7] {
        let mut union = Vec::new();
        for i in 1..=n {
            let (mine, summary) = inputs(Some((i, n)));
            assert!(summary.contains(&format!("(shard {i} of {n})")), "{summary}");
            union.extend(mine);
        }
        union.sort_unstable();
        assert_eq!(union, whole, "shards of {n}");
    }
}

#[test]
fn a_shard_spec_that_names_no_shard_is_a_clear_error() {
    for bad in ["3/2", "0/0", "0/4", "2", "a/b", "1/0"] {
        let e = Config::default().apply_vars(|k| (k == "SPECCHECK_SHARD").then(|| bad.to_string())).expect_err(bad);
        assert!(e.to_string().contains("SPECCHECK_SHARD") && e.to_string().contains("i/n"), "{bad}: {e}");
    }
    let ok = Config::default().apply_vars(|k| (k == "SPECCHECK_SHARD").then(|| "2/4".to_string())).unwrap();
    assert_eq!(ok.shard, Some((2, 4)));
}
