//! What a user sees for a mistake: one error, at their code, saying what to
//! do (compile errors checked with trybuild against `tests/ui/*.stderr`;
//! `TRYBUILD=overwrite` regenerates them after a deliberate change).

#[test]
fn mistakes_get_errors_at_the_users_code() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}

#[test]
fn an_empty_range_panics_at_the_caller_naming_it() {
    let caught = std::panic::catch_unwind(|| speccheck::gens::ints(5..5u32));
    let payload = caught.expect_err("an empty range is refused");
    let message = payload.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(message.contains("gens::ints(5..5)") && message.contains("empty"), "{message}");
    let (lo, hi) = (3usize, 1usize);
    let caught = std::panic::catch_unwind(|| speccheck::gens::vec(speccheck::any::<u8>(), lo..hi));
    let message = caught.err().and_then(|p| p.downcast_ref::<String>().cloned()).unwrap_or_default();
    assert!(message.contains("gens::vec") && message.contains("at least 3 and at most 0"), "{message}");
}
