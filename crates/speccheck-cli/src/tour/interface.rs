//! Tour stop: interface fuzzing (ArtiCheck; Monolith's reference mode). The
//! tester only calls each library's own API, builds values bottom-up,
//! checks the laws, and reports a failing law as a minimal client program.

use speccheck_fixtures::interface::catalogue;

use super::{Expect, Finding, Stop, check};

pub fn stop() -> Stop {
    Stop { name: "interface", title: "interface fuzzing: an API tested through its own functions (ArtiCheck)", run }
}

fn run(seed: u64) -> anyhow::Result<Vec<Finding>> {
    let mut out = Vec::new();
    for example in catalogue() {
        let config = || speccheck::interface::Config { seed: Some(seed), ..(example.config)() };
        println!("planted in {}: {}", example.name, example.bug);
        out.push(check(example.title, Expect::Bug, || (example.buggy)().check(config())));
        out.push(check(example.title, Expect::Pass, || (example.correct)().check(config())));
    }
    Ok(out)
}
