use speccheck::{Config, Property, TestResult, gens};
use std::time::Instant;

#[test]
#[ignore]
fn probe() {
    for round in 0..3 {
        let mut ttf = Vec::new();
        let mut whole = Vec::new();
        for seed in 0..200u64 {
            let config = Config { cases: 100_000, seed: Some(seed), database: None, ..Config::named("probe") };
            let t0 = Instant::now();
            let r = Property::new(gens::vec(gens::ints(0..=255u8), 0..20))
                .config(config)
                .run(|v: Vec<u8>| if v.len() > 1 { TestResult::Fail("x".into()) } else { TestResult::Pass });
            whole.push(t0.elapsed().as_secs_f64() * 1e6);
            ttf.push(r.stats.time_to_failure.unwrap().as_secs_f64() * 1e6);
        }
        ttf.sort_by(|a, b| a.partial_cmp(b).unwrap());
        whole.sort_by(|a, b| a.partial_cmp(b).unwrap());
        eprintln!(
            "round {round}: ttf median {:.1} µs, p10 {:.1}; whole run median {:.1} µs",
            ttf[100], ttf[20], whole[100]
        );
    }
}
