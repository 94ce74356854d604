//! The HTTP/1.1 tester against the bundled reference server and its
//! mutants, over TCP on 127.0.0.1: the reference server is never rejected,
//! every mutant that breaks a MUST is (by the rule it breaks, which the
//! shrunk failure keeps), a mutant that breaks only a SHOULD is a finding
//! (and rejected by a strict run), and a rejection shrinks to a short
//! interaction.

use speccheck::Config;
use speccheck::dual::exec::tcp::Tcp;
use speccheck::dual::exec::{Execution, Settings, Verdict};
use speccheck::dual::rule::Level;
use speccheck::dual::tester::{DualReport, FirstFailure, Tester};
use speccheck::http::Http;
use speccheck::runner::report::RunVerdict;
use speccheck_fixtures::http::{HttpBug, HttpServer};

/// The mutants that break only a SHOULD of RFC 9110.
fn should_only() -> impl Iterator<Item = HttpBug> {
    HttpBug::ALL.into_iter().filter(|b| b.breaks_only_a_should())
}

fn run(bug: Option<HttpBug>, seed: u64, executions: u32, shrink: bool) -> DualReport {
    run_with(bug.into_iter().collect(), seed, executions, shrink, Level::Must)
}

fn run_with(bugs: Vec<HttpBug>, seed: u64, executions: u32, shrink: bool, enforce: Level) -> DualReport {
    run_on(bugs, seed, executions, shrink, enforce, 1, conns())
}

/// The tester's default number of connections.
fn conns() -> usize {
    Settings::default().conns
}

/// A run over `conns` connections (one: the server answers in the order
/// the tester sends, so the run does not depend on the interleaving).
fn run_on(
    bugs: Vec<HttpBug>,
    seed: u64,
    executions: u32,
    shrink: bool,
    enforce: Level,
    distinct: usize,
    conns: usize,
) -> DualReport {
    let target = Tcp::spawn("bundled", move |s| Box::new(HttpServer::with_bugs(bugs.clone(), s)));
    Tester::new(Http::new(), target)
        .with_settings(|s| {
            s.enforce = enforce;
            s.conns = conns;
        })
        .distinct_failures(distinct)
        .config(Config { cases: executions, seed: Some(seed), database: None, shrink, ..Config::named("http") })
        .run()
}

/// The failure's identity, first found and as shrunk.
fn identities(r: &DualReport) -> (String, String) {
    let first = r.first_failure.as_ref().map(|f| f.identity.clone()).unwrap_or_default();
    let last = r.final_execution.as_ref().map(|e: &Execution| e.verdict.identity()).unwrap_or_default();
    (first, last)
}

/// Whether the shrunk failure still names the first one's rule: it is the
/// first one or a narrower form of it (fewer of the rules that depended on
/// the interleaving), or — the final run being one more execution, whose
/// interleaving of the connections is the system's — breaks that rule
/// among others.
fn kept(first: Option<&FirstFailure>, last: Option<&Execution>) -> bool {
    let (Some(f), Some(e)) = (first, last) else { return false };
    match (&e.verdict, &f.verdict) {
        (Verdict::Rejected(last), Verdict::Rejected(first)) => last.broken.iter().any(|b| first.all_broken.contains(b)),
        _ => e.verdict.is_within(&f.verdict),
    }
}

#[test]
fn the_reference_server_is_never_rejected() {
    for seed in [1, 2] {
        let r = run(None, seed, 150, true);
        assert!(r.passed(), "{r}");
        assert_eq!(r.inconclusive, 0, "{r}");
        assert!(r.interactions > 2000, "{r}");
    }
}

#[test]
fn every_mutant_that_breaks_a_must_is_rejected_by_that_rule() {
    let mut missed = Vec::new();
    for bug in HttpBug::ALL.into_iter().filter(|b| !b.breaks_only_a_should()) {
        let r = run(Some(bug), 1, 1000, true);
        match &r.run.verdict {
            RunVerdict::Failed(_) => {
                let (first, last) = identities(&r);
                if !kept(r.first_failure.as_ref(), r.final_execution.as_ref()) {
                    missed.push(format!("{}: shrinking changed the failure from {first:?} to {last:?}", bug.name()));
                }
                if let Some(Verdict::Rejected(rej)) = r.final_execution.as_ref().map(|e| &e.verdict)
                    && (rej.level() != Level::Must || !rej.identity().contains("RFC 9110 §"))
                {
                    missed.push(format!("{}: rejected for {:?}", bug.name(), rej.identity()));
                }
            }
            // A rejection whose confirmation needs the same interleaving of
            // the connections may not reproduce under load: still a rejection
            // observed (reported as flaky, with its trace). The bench counts
            // reproducible rejections only.
            RunVerdict::Flaky(_) => {}
            _ => missed.push(format!("{}: {}", bug.name(), r.run.summary())),
        }
    }
    assert!(missed.is_empty(), "mutants not rejected as they should be:\n{}", missed.join("\n"));
}

#[test]
fn a_mutant_that_breaks_only_a_should_is_a_finding_unless_the_run_is_strict() {
    // One connection: what is tested is the level of the rule broken, and
    // with two the strict run's failure can need the interleaving it was
    // found under (a GET answered after a PUT on the other connection) and
    // come back flaky, or show first as the MUST a SHOULD made inexplicable.
    // Concurrency is the other tests' subject.
    let one = |bug: HttpBug, enforce: Level, shrink: bool| run_on(vec![bug], 1, 300, shrink, enforce, 1, 1);
    for bug in should_only() {
        let r = one(bug, Level::Must, false);
        assert!(r.passed(), "{}: {r}", bug.name());
        let finding = r.findings.first().unwrap_or_else(|| panic!("{}: no finding\n{r}", bug.name()));
        assert_eq!(finding.rejection.level(), Level::Should, "{}: {r}", bug.name());
        assert!(finding.identity.contains("SHOULD") && finding.identity.contains("RFC 9110 §"), "{r}");
        assert!(!finding.execution.trace.is_empty());
        let strict = one(bug, Level::Should, true);
        assert!(matches!(strict.run.verdict, RunVerdict::Failed(_)), "{}: {strict}", bug.name());
        // Strictly, a SHOULD not followed can first show as a MUST it makes
        // inexplicable later (a tag on PUT, none on GET, then a PUT's tag):
        // the shrunk failure names the SHOULD's clause (for a missing tag,
        // on a GET, or on a HEAD, which should send what GET would).
        let (first, last) = identities(&strict);
        let clauses: &[&str] =
            if bug == HttpBug::GetNoEtag { &["RFC 9110 §8.8.3", "RFC 9110 §9.3.2"] } else { &["RFC 9110 §15.5.5"] };
        assert!(
            last.contains("SHOULD") && clauses.iter().any(|c| last.contains(c)),
            "{}: {first} / {last}\n{strict}",
            bug.name()
        );
    }
}

#[test]
fn shrinking_keeps_the_first_failure_on_a_server_with_two_deviations() {
    // A write that is never stored (a MUST) and a DELETE of nothing that
    // answers 204 (a SHOULD, and a two-message trace: the simpler one).
    let bugs = vec![HttpBug::PutSkipsWrite, HttpBug::DeleteMissing204];
    // Searching on after the failure covers enough executions to meet a
    // DELETE of nothing.
    let r = run_on(bugs.clone(), 4, 500, true, Level::Must, 4, conns());
    assert!(matches!(r.run.verdict, RunVerdict::Failed(_)), "{r}");
    let (first, last) = identities(&r);
    assert!(kept(r.first_failure.as_ref(), r.final_execution.as_ref()), "{first} / {last}\n{r}");
    assert!(last.contains("MUST") && !last.contains("SHOULD"), "{last}");
    assert!(r.findings.iter().any(|f| f.identity.contains("DELETE")), "the SHOULD is a finding:\n{r}");
    // Strict: whichever is found first is the one reported, and the search
    // goes on for the others (a bug may break several rules), each shrunk
    // on its own and keeping its identity.
    for seed in [1, 2, 3] {
        let strict = run_on(bugs.clone(), seed, 500, true, Level::Should, 8, conns());
        let mut all = vec![(strict.first_failure.as_ref(), strict.final_execution.as_ref())];
        for o in &strict.other_failures {
            all.push((o.first_failure.as_ref(), o.final_execution.as_ref()));
        }
        for (i, (first, last)) in all.iter().enumerate() {
            let ids = (first.map(|f| f.identity.clone()), last.map(|e| e.verdict.identity()));
            // A further failure's final run may meet a failure reported
            // before it first (its script reaches both, and the order is
            // the connections'): then it shows that one. Known limitation;
            // the shrink itself kept the further failure's rules.
            let earlier = all[..i].iter().any(|(f, _)| kept(*f, *last));
            assert!(kept(*first, *last) || earlier, "seed {seed}: {ids:?}\n{strict}");
        }
        let all: Vec<(String, String)> = all
            .into_iter()
            .map(|(f, e)| {
                (f.map(|f| f.identity.clone()).unwrap_or_default(), e.map(|e| e.verdict.identity()).unwrap_or_default())
            })
            .collect();
        let should = all.iter().filter(|(_, id)| id.contains("SHOULD") && id.starts_with("rejected: DELETE")).count();
        assert!(should >= 1, "seed {seed}: the SHOULD is reported:\n{strict}");
        assert!(all.iter().any(|(_, id)| !id.contains("SHOULD")), "seed {seed}: and the MUST:\n{strict}");
    }
}

#[test]
fn rejections_shrink_to_a_few_messages_shown_as_http() {
    let http = Http::new();
    for (bug, at_most) in [(HttpBug::Create200, 2), (HttpBug::GetEmptyBody, 4), (HttpBug::PerConnectionCache, 6)] {
        // A rejection that needs one interleaving of the connections
        // (the per-connection cache) depends on thread scheduling: under
        // load it may not reproduce (flaky, not shrunk), or a candidate may
        // lose the interleaving and the shrink stall. Such a run says
        // nothing about shrinking a reproducible rejection, so up to six
        // runs are made (three were all flaky once, under the whole
        // suite's load) and one must shrink to the bound.
        let mut last = None;
        for _ in 0..6 {
            let r = run(Some(bug), 3, 1000, true);
            let short = r.final_execution.as_ref().is_some_and(|e| e.trace.len() <= at_most);
            last = Some(r);
            if short {
                break;
            }
        }
        let r = last.expect("ran");
        let exec = r.final_execution.as_ref().unwrap_or_else(|| panic!("{}: no final execution\n{r}", bug.name()));
        assert!(exec.trace.len() <= at_most, "{} shrunk to {} messages:\n{r}", bug.name(), exec.trace.len());
        let shown = http.render(exec);
        assert!(shown.contains(" HTTP/1.1") && shown.contains("no behaviour of the model explains"), "{shown}");
    }
}
