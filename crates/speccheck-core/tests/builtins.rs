//! Every built-in generator and `Arbitrary` type: values replay from their
//! choices, drawing without recording gives the same values, and encoding a value gives back exactly the choices that built
//! it (so values from elsewhere shrink and persist like generated ones).

use speccheck_core::test_case::CaseControl as _;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::fmt::Debug;
use std::rc::Rc;
use std::sync::Arc;

use speccheck_core::gens::{self, Generator};
use speccheck_core::{CharClass, Config, Encoder, Property, Tail, TestCase, any};

/// Generates (recording choices), encodes, compares the choices, and
/// replays, for any generator that can encode.
fn round_trip<G>(name: &str, g: G, same: fn(&G::Value, &G::Value) -> bool)
where
    G: Generator + 'static,
    G::Value: Debug + 'static,
{
    check_round_trip(name, g, same, true);
}

/// For sets and maps: encoding follows iteration order, not drawing order,
/// so only the rebuilt value must match.
fn round_trip_unordered<G>(name: &str, g: G)
where
    G: Generator + 'static,
    G::Value: Debug + PartialEq + 'static,
{
    check_round_trip(name, g, |a, b| a == b, false);
}

fn check_round_trip<G>(name: &str, g: G, same: fn(&G::Value, &G::Value) -> bool, exact: bool)
where
    G: Generator + 'static,
    G::Value: Debug + 'static,
{
    let config = Config { cases: 200, seed: Some(5), database: None, ..Config::named(name) };
    let r =
        Property::new((any::<u64>(), gens::ints(0..100usize))).config(config).run(move |(seed, size): (u64, usize)| {
            let mut tc = TestCase::random(seed, size);
            let v = g.generate(&mut tc);
            // The generation phase draws without recording (batch paths
            // included); a failing case is re-run recorded from its seed,
            // so both must build the same value.
            let plain = g.generate(&mut TestCase::random(seed, size).record_choices(false));
            assert!(same(&plain, &v), "plain {plain:?} != recorded {v:?}");
            let drawn: Vec<u64> = tc.choices().iter().map(|c| c.value).collect();
            let mut enc = Encoder::new();
            g.encode(&v, &mut enc).expect("encodable");
            let written: Vec<u64> = enc.choices().iter().map(|c| c.value).collect();
            let replayed = g.generate(&mut TestCase::replay(enc.finish().0, Tail::Stop));
            assert!(same(&replayed, &v), "{replayed:?} != {v:?}");
            if exact {
                assert_eq!(written, drawn, "encoding of {v:?}");
            }
        });
    assert!(r.passed(), "{r}");
}

fn eq<T: PartialEq>(a: &T, b: &T) -> bool {
    a == b
}

macro_rules! arbitrary_round_trips {
    ($($t:ty),* $(,)?) => {$(
        round_trip(stringify!($t), any::<$t>(), eq::<$t>);
    )*};
}

#[test]
fn arbitrary_types_round_trip() {
    arbitrary_round_trips!(
        u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, bool, char, (), String,
        Vec<i32>, VecDeque<u8>,
        Option<u8>, Result<u8, String>, Box<i64>, Rc<u16>, Arc<Vec<u8>>, [u8; 4], (u8, i8), (bool, char, String),
        (u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8), Vec<Vec<Option<u8>>>,
    );
    round_trip_unordered("BTreeSet", any::<BTreeSet<i16>>());
    round_trip_unordered("BTreeMap", any::<BTreeMap<u8, String>>());
    round_trip_unordered("HashSet", any::<HashSet<u32>>());
    round_trip_unordered("HashMap", any::<HashMap<i8, bool>>());
    std_types_round_trip();
    round_trip("f64", any::<f64>(), |a, b| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()));
    round_trip("f32", any::<f32>(), |a, b| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()));
}

/// The std types people test with (the list proptest and `arbitrary`
/// cover).
fn std_types_round_trip() {
    use std::borrow::Cow;
    use std::cell::{Cell, RefCell};
    use std::cmp::{Ordering, Reverse};
    use std::collections::{BinaryHeap, LinkedList};
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
    use std::num::{NonZero, Saturating, Wrapping};
    use std::ops::{Bound, Range, RangeInclusive};
    use std::time::Duration;
    arbitrary_round_trips!(
        Duration,
        NonZero<u8>,
        NonZero<i8>,
        NonZero<u64>,
        NonZero<i32>,
        NonZero<usize>,
        NonZero<i128>,
        Wrapping<i16>,
        Saturating<u32>,
        Reverse<u8>,
        Cell<i32>,
        RefCell<Vec<u8>>,
        Cow<'static, str>,
        Cow<'static, [u8]>,
        Ipv4Addr,
        Ipv6Addr,
        IpAddr,
        SocketAddrV4,
        SocketAddrV6,
        SocketAddr,
        Ordering,
        Bound<u16>,
        LinkedList<i8>,
        std::ffi::OsString,
    );
    // Ranges are drawn as two values put in order; a path's components may
    // hold `/`: only the rebuilt value must match.
    round_trip_unordered("Range", any::<Range<i32>>());
    round_trip_unordered("RangeInclusive", any::<RangeInclusive<u8>>());
    round_trip_unordered("PathBuf", any::<std::path::PathBuf>());
    // A heap encodes in its own order, not the order it was drawn in.
    let sorted = |a: &BinaryHeap<u8>, b: &BinaryHeap<u8>| a.clone().into_sorted_vec() == b.clone().into_sorted_vec();
    check_round_trip("BinaryHeap", any::<BinaryHeap<u8>>(), sorted, false);
    let config = Config { cases: 300, seed: Some(2), database: None, ..Config::named("std_invariants") };
    let r = Property::new((any::<Range<i64>>(), any::<NonZero<i16>>(), any::<Duration>())).config(config).run(
        |(r, n, d): (Range<i64>, NonZero<i16>, Duration)| {
            r.start <= r.end && n.get() != 0 && d.subsec_nanos() < 1_000_000_000
        },
    );
    assert!(r.passed(), "{r}");
}

#[test]
fn generators_round_trip() {
    let pool = vec!["a", "b", "c", "d", "e", "f"];
    round_trip("select", gens::select(pool.clone()), eq);
    round_trip("index", gens::index(7), eq);
    round_trip("subsequence", gens::subsequence(pool.clone(), 2..=4), eq);
    round_trip_unordered("shuffle", gens::shuffle(gens::vec(gens::ints(0..5u8), 0..6)));
    round_trip("ints", gens::ints(-50..=1000i64), eq);
    round_trip("towards", gens::ints(0..=1000u32).towards(500), eq);
    round_trip("uniform", gens::uniform(-50..=1000i64), eq);
    round_trip("uniform u128", gens::uniform(0..=u128::MAX - 3), eq);
    round_trip("range", gens::range(10u8..20), eq);
    round_trip("floats", gens::floats(-1.0..1.0), |a, b| a.to_bits() == b.to_bits());
    round_trip("float range", gens::range(0.5..=2.5f64), |a, b| a.to_bits() == b.to_bits());
    round_trip("chars", gens::chars_in(CharClass::alphanumeric()), eq);
    round_trip("char range", gens::range('a'..='f'), eq);
    round_trip("strings", gens::string_of(CharClass::from_chars("xyz"), 2..8), eq);
    round_trip("vec", gens::vec(gens::ints(0..9u8), 3..=7), eq);
    round_trip("vec_deque", gens::vec_deque(any::<bool>(), 0..5), eq);
    round_trip_unordered("btree_set", gens::btree_set(gens::ints(0..100u8), 0..10));
    round_trip_unordered("btree_map", gens::btree_map(gens::ints(0..30u8), any::<u16>(), 0..10));
    round_trip_unordered("hash_set", gens::hash_set(gens::ints(0..100u8), 0..10));
    round_trip_unordered("hash_map", gens::hash_map(gens::ints(0..30u8), any::<u16>(), 0..10));
    round_trip("option", gens::option(gens::ints(0..5u8)), eq);
    round_trip("result", gens::result(any::<u8>(), any::<bool>()), eq);
    round_trip("array", gens::array::<_, 3>(gens::ints(0..4u8)), eq);
    round_trip("tuple", (gens::ints(0..4u8), any::<bool>()), eq);
    // Rejected attempts are part of the drawn choices, not of the canonical
    // encoding: only the value must come back.
    round_trip_unordered("filter", any::<u16>().filter("even", |x| x % 2 == 0));
    round_trip("map_inv", any::<u8>().map_inv(|x| u32::from(x) * 2, |y| u8::try_from(y / 2).ok()), eq);
    round_trip("one_of", gens::one_of(vec![gens::ints(0..10u8).boxed(), gens::ints(100..110u8).boxed()]), eq);
    round_trip("frequency", gens::frequency(vec![(3, gens::just(7u8).boxed()), (1, gens::ints(0..5u8).boxed())]), eq);
    round_trip("resize", gens::resize(any::<Vec<u8>>(), 3), eq);
    round_trip(
        "represent",
        gens::represent(
            any::<Vec<u8>>().map(|mut v| {
                v.sort_unstable();
                v
            }),
            any::<Vec<u8>>(),
        ),
        eq,
    );
}

#[test]
fn collections_respect_their_bounds() {
    let config = Config { cases: 300, seed: Some(8), database: None, ..Config::named("bounds") };
    let r = Property::new((
        gens::vec(any::<u8>(), 3..=5),
        gens::btree_set(gens::ints(0..4u8), 0..=3),
        gens::string_of(CharClass::digits(), 2..4),
    ))
    .config(config)
    .run(|(v, s, t): (Vec<u8>, BTreeSet<u8>, String)| {
        (3..=5).contains(&v.len())
            && s.len() <= 3
            && (2..4).contains(&t.chars().count())
            && t.chars().all(|c| c.is_ascii_digit())
    });
    assert!(r.passed(), "{r}");
}

#[test]
fn recursive_generators_terminate() {
    #[derive(Debug, Clone)]
    enum Tree {
        Leaf(u8),
        Node(Box<Tree>, Box<Tree>),
    }
    fn depth(t: &Tree) -> usize {
        match t {
            Tree::Leaf(n) => usize::from(*n > 9),
            Tree::Node(a, b) => 1 + depth(a).max(depth(b)),
        }
    }
    let trees = gens::recursive(gens::ints(0..=9u8).map(Tree::Leaf), 5, |sub| {
        (sub.clone(), sub).map(|(l, r)| Tree::Node(Box::new(l), Box::new(r))).boxed()
    });
    let config = Config { cases: 300, seed: Some(3), database: None, ..Config::named("rec") };
    let r = Property::new(trees).config(config).run(|t: Tree| depth(&t) <= 5);
    assert!(r.passed(), "{r}");
}

#[test]
fn uniform_integers_spread_where_ints_cluster_and_both_shrink_to_zero() {
    let near = |g: &dyn Fn(&mut TestCase) -> i32| {
        (0..4000u64).filter(|&seed| g(&mut TestCase::random(seed, 100).record_choices(false)).abs() <= 100).count()
    };
    let uniform = gens::uniform(-1_000_000..=1_000_000i32);
    let biased = gens::ints(-1_000_000..=1_000_000i32);
    // Uniform: about 201 values in 2,000,001 near 0; biased: about half.
    assert!(near(&|tc| uniform.generate(tc)) < 40, "uniform draws cluster");
    assert!(near(&|tc| biased.generate(tc)) > 1000, "ints lost their bias");
    let r = speccheck_core::Property::new(gens::uniform(-1_000_000..=1_000_000i32))
        .config(speccheck_core::Config { seed: Some(1), database: None, ..speccheck_core::Config::named("uniform") })
        .run(|x: i32| x.abs() < 500);
    let c = r.counterexample().expect("fails");
    assert!(["500", "-500"].contains(&c.inputs[0].1.to_line().as_str()), "{r}");
}
