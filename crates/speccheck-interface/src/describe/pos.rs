//! Positive types (ArtiCheck §3.1): what a function takes and returns.
//!
//! The paper splits type descriptors in two GADTs: *negative* ones for
//! computations (functions, see [`Function`](super::Function)) and
//! *positive* ones for data: atoms (a type with a pool of instances),
//! products, sums, and bijections that map a host-language type onto those.
//! Rust has no GADTs, so a [`Pos`] carries type-erased operations instead,
//! built by the generic constructors below (`tuple2::<A, B>`, `option`,
//! `vec`, [`data`] for user enums and structs); the values they operate on
//! are `Box<dyn Any>` holding exactly the Rust type the constructor was
//! instantiated with.
//!
//! * [`atom`] — a type with a pool: an abstract type of the API, or a
//!   ground type (primitives; fresh values come from a
//!   [`Generator`](speccheck_core::Generator)). Which one is decided by the
//!   declarations in the [`Builder`](crate::Builder).
//! * [`data`] — a sum of products: `Option`, `Result`, tuples, user enums
//!   and structs. Returned values are *destructed* (every field feeds the
//!   pool of its type); arguments are *produced* by choosing a variant and
//!   producing its fields.
//! * [`list`] — a container seen as a sequence (the paper's bijection to a
//!   recursive sum): `Vec`, `VecDeque`, `BTreeSet`, `HashSet`, maps.

use std::any::{Any, TypeId};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::fmt::Debug;
use std::hash::Hash;
use std::marker::PhantomData;
use std::sync::Arc;

use super::pooled::{TypeDesc, ValueOps};
pub use super::value::{Dyn, short};

/// A positive type: the shape of an argument or a result.
#[derive(Clone)]
pub struct Pos(pub(crate) PosNode);

#[derive(Clone)]
pub(crate) enum PosNode {
    Atom(AtomRef),
    Data(Arc<DataDesc>),
    List(Arc<ListDesc>),
}

impl std::fmt::Debug for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

impl Pos {
    /// The type's name as written (`MySet`, `Option<MySet>`).
    pub fn name(&self) -> String {
        match &self.0 {
            PosNode::Atom(a) => a.name.clone(),
            PosNode::Data(d) => d.name.clone(),
            PosNode::List(l) => l.name.clone(),
        }
    }

    /// The Rust type this shape describes.
    pub fn type_id(&self) -> TypeId {
        match &self.0 {
            PosNode::Atom(a) => a.type_id,
            PosNode::Data(d) => d.type_id,
            PosNode::List(l) => l.type_id,
        }
    }
}

/// Declares a ground type the description did not declare (primitives
/// used without a `ground` line get their `Arbitrary` generator).
pub(crate) type DefaultGround = Arc<dyn Fn() -> TypeDesc + Send + Sync>;

/// A reference to a pooled type, resolved against the declarations when
/// the API is built.
#[derive(Clone)]
pub(crate) struct AtomRef {
    pub(crate) type_id: TypeId,
    pub(crate) name: String,
    pub(crate) default: Option<DefaultGround>,
}

/// How a constructor is written in Rust.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Style {
    /// `None`, `Direction::Left`.
    Unit,
    /// `Some(x)`, `Node(l, v, r)`; a tuple has style `Tuple` and an empty path.
    Tuple,
    /// `Point { x, y }`, with the field names.
    Struct(Vec<&'static str>),
}

/// One variant of a sum (a product is a sum with one variant).
#[derive(Clone)]
pub struct Variant {
    /// Path printed for the constructor (`Some`, `Shape::Circle`; empty
    /// for a tuple).
    pub path: String,
    /// How its fields are written.
    pub style: Style,
    /// The fields' types.
    pub fields: Vec<Pos>,
}

impl Variant {
    /// A variant without fields.
    pub fn unit(path: impl Into<String>) -> Self {
        Variant { path: path.into(), style: Style::Unit, fields: Vec::new() }
    }

    /// A variant with positional fields.
    pub fn tuple(path: impl Into<String>, fields: Vec<Pos>) -> Self {
        Variant { path: path.into(), style: Style::Tuple, fields }
    }

    /// A variant with named fields.
    pub fn record(path: impl Into<String>, names: Vec<&'static str>, fields: Vec<Pos>) -> Self {
        assert_eq!(names.len(), fields.len(), "one name per field");
        Variant { path: path.into(), style: Style::Struct(names), fields }
    }

    /// Writes the variant applied to already-written fields (as an
    /// expression or a pattern: the syntax is the same).
    pub fn write(&self, parts: &[String]) -> String {
        match &self.style {
            Style::Unit => self.path.clone(),
            Style::Tuple if self.path.is_empty() && parts.len() == 1 => format!("({},)", parts[0]),
            Style::Tuple => format!("{}({})", self.path, parts.join(", ")),
            Style::Struct(names) => {
                let fields: Vec<String> = names
                    .iter()
                    .zip(parts)
                    .filter(|(_, p)| p.as_str() != "_")
                    .map(|(n, p)| if n == p { n.to_string() } else { format!("{n}: {p}") })
                    .collect();
                let rest = if fields.len() < names.len() { if fields.is_empty() { ".." } else { ", .." } } else { "" };
                format!("{} {{ {}{} }}", self.path, fields.join(", "), rest)
            }
        }
    }
}

/// Type-erased operations of a sum of products.
pub trait DataOps: Send + Sync {
    /// Which variant `value` is, and clones of its fields.
    fn split(&self, value: &dyn Any) -> (usize, Vec<Dyn>);
    /// Builds variant `variant` from its fields.
    fn build(&self, variant: usize, fields: Vec<Dyn>) -> Dyn;
}

pub(crate) struct DataDesc {
    pub(crate) name: String,
    pub(crate) type_id: TypeId,
    pub(crate) variants: Vec<Variant>,
    pub(crate) ops: Box<dyn DataOps>,
}

/// Type-erased operations of a container seen as a sequence.
pub trait ListOps: Send + Sync {
    /// Clones of the elements.
    fn split(&self, value: &dyn Any) -> Vec<Dyn>;
    /// The container holding `items`.
    fn build(&self, items: Vec<Dyn>) -> Dyn;
}

pub(crate) struct ListDesc {
    pub(crate) name: String,
    pub(crate) type_id: TypeId,
    pub(crate) elem: Pos,
    /// Longest container produced as an argument (`None`: the run's
    /// default).
    pub(crate) max_len: Option<usize>,
    /// How a literal is written: `vec![` … `]`.
    pub(crate) open: String,
    pub(crate) close: String,
    /// Whether `x[i]` works (otherwise elements are read with `iter().nth`).
    pub(crate) indexable: bool,
    pub(crate) ops: Box<dyn ListOps>,
}

fn downcast<T: 'static>(v: &dyn Any) -> &T {
    v.downcast_ref::<T>().unwrap_or_else(|| panic!("speccheck-interface: a value is not a {}", short::<T>()))
}

fn unbox<T: 'static>(v: Dyn) -> T {
    *v.downcast::<T>().unwrap_or_else(|_| panic!("speccheck-interface: a value is not a {}", short::<T>()))
}

/// A type with a pool of instances, named `name` in reports. Whether it is
/// abstract or ground is up to the declarations.
pub fn atom<T: 'static>(name: impl Into<String>) -> Pos {
    Pos(PosNode::Atom(AtomRef { type_id: TypeId::of::<T>(), name: name.into(), default: None }))
}

/// A ground type drawn by its [`Arbitrary`](speccheck_core::Arbitrary)
/// generator unless the description declares another one.
pub fn ground<T>(name: impl Into<String>) -> Pos
where
    T: speccheck_core::Arbitrary + Clone + Debug + Hash + Eq,
{
    let name = name.into();
    let n = name.clone();
    let default: DefaultGround =
        Arc::new(move || TypeDesc::new_ground(&n, speccheck_core::any::<T>(), ValueOps::of::<T>()));
    Pos(PosNode::Atom(AtomRef { type_id: TypeId::of::<T>(), name, default: Some(default) }))
}

/// A ground type without `Hash`/`Eq` (floats), compared by its `Debug`
/// form, drawn by its `Arbitrary` generator unless declared otherwise.
pub fn ground_by_debug<T>(name: impl Into<String>) -> Pos
where
    T: speccheck_core::Arbitrary + Clone + Debug,
{
    let name = name.into();
    let n = name.clone();
    let default: DefaultGround =
        Arc::new(move || TypeDesc::new_ground(&n, speccheck_core::any::<T>(), ValueOps::by_debug::<T>()));
    Pos(PosNode::Atom(AtomRef { type_id: TypeId::of::<T>(), name, default: Some(default) }))
}

/// A sum of products over `T` with type-erased operations (what the
/// `interface!` macro emits for user enums and structs).
pub fn data<T: 'static>(name: impl Into<String>, variants: Vec<Variant>, ops: impl DataOps + 'static) -> Pos {
    Pos(PosNode::Data(Arc::new(DataDesc {
        name: name.into(),
        type_id: TypeId::of::<T>(),
        variants,
        ops: Box::new(ops),
    })))
}

/// [`DataOps`] from two functions over `T`.
pub struct FnData<T> {
    split: fn(&T) -> (usize, Vec<Dyn>),
    build: fn(usize, Vec<Dyn>) -> T,
}

impl<T> FnData<T> {
    /// Operations from a splitting and a building function.
    pub fn new(split: fn(&T) -> (usize, Vec<Dyn>), build: fn(usize, Vec<Dyn>) -> T) -> Self {
        FnData { split, build }
    }
}

impl<T: 'static> DataOps for FnData<T> {
    fn split(&self, value: &dyn Any) -> (usize, Vec<Dyn>) {
        (self.split)(downcast::<T>(value))
    }
    fn build(&self, variant: usize, fields: Vec<Dyn>) -> Dyn {
        Box::new((self.build)(variant, fields))
    }
}

/// Takes field `i` of a built variant (for [`FnData`] build functions).
pub fn field<T: 'static>(fields: &mut [Option<Dyn>], i: usize) -> T {
    unbox(fields[i].take().expect("each field is taken once"))
}

/// The unit type: results of type `()` give nothing to destruct.
pub fn unit() -> Pos {
    struct UnitOps;
    impl DataOps for UnitOps {
        fn split(&self, _: &dyn Any) -> (usize, Vec<Dyn>) {
            (0, Vec::new())
        }
        fn build(&self, _: usize, _: Vec<Dyn>) -> Dyn {
            Box::new(())
        }
    }
    data::<()>("()", vec![Variant::tuple("", Vec::new())], UnitOps)
}

macro_rules! tuple_pos {
    ($fn_name:ident, $ops:ident; $($t:ident $p:ident $i:tt),+) => {
        struct $ops<$($t),+>(PhantomData<fn() -> ($($t,)+)>);
        impl<$($t: Clone + 'static),+> DataOps for $ops<$($t),+> {
            fn split(&self, value: &dyn Any) -> (usize, Vec<Dyn>) {
                let v = downcast::<($($t,)+)>(value);
                (0, vec![$(Box::new(v.$i.clone()) as Dyn),+])
            }
            fn build(&self, _: usize, fields: Vec<Dyn>) -> Dyn {
                let mut it = fields.into_iter();
                Box::new(($(unbox::<$t>(it.next().expect("a field")),)+))
            }
        }
        /// A tuple of the given positive types.
        pub fn $fn_name<$($t: Clone + 'static),+>($($p: Pos),+) -> Pos {
            let names: Vec<String> = vec![$($p.name()),+];
            let name = if names.len() == 1 { format!("({},)", names[0]) } else { format!("({})", names.join(", ")) };
            data::<($($t,)+)>(name, vec![Variant::tuple("", vec![$($p),+])], $ops::<$($t),+>(PhantomData))
        }
    };
}

tuple_pos!(tuple1, Tuple1; A a 0);
tuple_pos!(tuple2, Tuple2; A a 0, B b 1);
tuple_pos!(tuple3, Tuple3; A a 0, B b 1, C c 2);
tuple_pos!(tuple4, Tuple4; A a 0, B b 1, C c 2, D d 3);
tuple_pos!(tuple5, Tuple5; A a 0, B b 1, C c 2, D d 3, E e 4);
tuple_pos!(tuple6, Tuple6; A a 0, B b 1, C c 2, D d 3, E e 4, F f 5);

/// `Option<T>`: `None` or `Some(T)`.
pub fn option<T: Clone + 'static>(inner: Pos) -> Pos {
    let name = format!("Option<{}>", inner.name());
    data::<Option<T>>(
        name,
        vec![Variant::unit("None"), Variant::tuple("Some", vec![inner])],
        FnData::<Option<T>>::new(
            |v| match v {
                None => (0, Vec::new()),
                Some(x) => (1, vec![Box::new(x.clone()) as Dyn]),
            },
            |k, fields| if k == 0 { None } else { Some(unbox::<T>(fields.into_iter().next().expect("a field"))) },
        ),
    )
}

/// `Result<T, E>`: `Ok(T)` or `Err(E)`.
pub fn result<T: Clone + 'static, E: Clone + 'static>(ok: Pos, err: Pos) -> Pos {
    let name = format!("Result<{}, {}>", ok.name(), err.name());
    data::<Result<T, E>>(
        name,
        vec![Variant::tuple("Ok", vec![ok]), Variant::tuple("Err", vec![err])],
        FnData::<Result<T, E>>::new(
            |v| match v {
                Ok(x) => (0, vec![Box::new(x.clone()) as Dyn]),
                Err(e) => (1, vec![Box::new(e.clone()) as Dyn]),
            },
            |k, fields| {
                let f = fields.into_iter().next().expect("a field");
                if k == 0 { Ok(unbox::<T>(f)) } else { Err(unbox::<E>(f)) }
            },
        ),
    )
}

/// `Box<T>`, seen through (a product of one field written `Box::new(x)`).
pub fn boxed<T: Clone + 'static>(inner: Pos) -> Pos {
    let name = format!("Box<{}>", inner.name());
    data::<Box<T>>(
        name,
        vec![Variant::tuple("Box::new", vec![inner])],
        FnData::<Box<T>>::new(
            |v| (0, vec![Box::new((**v).clone()) as Dyn]),
            |_, fields| Box::new(unbox::<T>(fields.into_iter().next().expect("a field"))),
        ),
    )
}

struct SeqOps<C, E>(PhantomData<fn() -> (C, E)>);

impl<C, E> ListOps for SeqOps<C, E>
where
    C: Clone + 'static + FromIterator<E>,
    for<'a> &'a C: IntoIterator<Item = &'a E>,
    E: Clone + 'static,
{
    fn split(&self, value: &dyn Any) -> Vec<Dyn> {
        downcast::<C>(value).into_iter().map(|e| Box::new(e.clone()) as Dyn).collect()
    }
    fn build(&self, items: Vec<Dyn>) -> Dyn {
        Box::new(items.into_iter().map(unbox::<E>).collect::<C>())
    }
}

/// A container `C` of `E` seen as a sequence: destructed into its
/// elements, produced from sequences of up to `max_len` elements (the
/// run's default when `None`).
pub fn list<C, E>(
    name: impl Into<String>,
    elem: Pos,
    open: &str,
    close: &str,
    indexable: bool,
    max_len: Option<usize>,
) -> Pos
where
    C: Clone + 'static + FromIterator<E>,
    for<'a> &'a C: IntoIterator<Item = &'a E>,
    E: Clone + 'static,
{
    Pos(PosNode::List(Arc::new(ListDesc {
        name: name.into(),
        type_id: TypeId::of::<C>(),
        elem,
        max_len,
        open: open.to_string(),
        close: close.to_string(),
        indexable,
        ops: Box::new(SeqOps::<C, E>(PhantomData)),
    })))
}

/// `Vec<T>`.
pub fn vec<T: Clone + 'static>(elem: Pos) -> Pos {
    let name = format!("Vec<{}>", elem.name());
    list::<Vec<T>, T>(name, elem, "vec![", "]", true, None)
}

/// `VecDeque<T>`.
pub fn vec_deque<T: Clone + 'static>(elem: Pos) -> Pos {
    let name = format!("VecDeque<{}>", elem.name());
    list::<VecDeque<T>, T>(name, elem, "VecDeque::from([", "])", true, None)
}

/// `BTreeSet<T>`.
pub fn btree_set<T: Clone + Ord + 'static>(elem: Pos) -> Pos {
    let name = format!("BTreeSet<{}>", elem.name());
    list::<BTreeSet<T>, T>(name, elem, "BTreeSet::from([", "])", false, None)
}

/// `HashSet<T>`.
pub fn hash_set<T: Clone + Hash + Eq + 'static>(elem: Pos) -> Pos {
    let name = format!("HashSet<{}>", elem.name());
    list::<HashSet<T>, T>(name, elem, "HashSet::from([", "])", false, None)
}

/// Marks the types a map's operations are for.
type MapTypes<M, K, V> = PhantomData<fn() -> (M, K, V)>;

struct MapOps<M, K, V>(MapTypes<M, K, V>);

impl<M, K, V> ListOps for MapOps<M, K, V>
where
    M: Clone + 'static + FromIterator<(K, V)>,
    for<'a> &'a M: IntoIterator<Item = (&'a K, &'a V)>,
    K: Clone + 'static,
    V: Clone + 'static,
{
    fn split(&self, value: &dyn Any) -> Vec<Dyn> {
        downcast::<M>(value).into_iter().map(|(k, v)| Box::new((k.clone(), v.clone())) as Dyn).collect()
    }
    fn build(&self, items: Vec<Dyn>) -> Dyn {
        Box::new(items.into_iter().map(unbox::<(K, V)>).collect::<M>())
    }
}

fn map_pos<M, K, V>(name: String, key: Pos, value: Pos, open: &str) -> Pos
where
    M: Clone + 'static + FromIterator<(K, V)>,
    for<'a> &'a M: IntoIterator<Item = (&'a K, &'a V)>,
    K: Clone + 'static,
    V: Clone + 'static,
{
    Pos(PosNode::List(Arc::new(ListDesc {
        name,
        type_id: TypeId::of::<M>(),
        elem: tuple2::<K, V>(key, value),
        max_len: None,
        open: open.to_string(),
        close: "])".to_string(),
        indexable: false,
        ops: Box::new(MapOps::<M, K, V>(PhantomData)),
    })))
}

/// `BTreeMap<K, V>`, as a sequence of pairs.
pub fn btree_map<K: Clone + Ord + 'static, V: Clone + 'static>(key: Pos, value: Pos) -> Pos {
    let name = format!("BTreeMap<{}, {}>", key.name(), value.name());
    map_pos::<BTreeMap<K, V>, K, V>(name, key, value, "BTreeMap::from([")
}

/// `HashMap<K, V>`, as a sequence of pairs.
pub fn hash_map<K: Clone + Hash + Eq + 'static, V: Clone + 'static>(key: Pos, value: Pos) -> Pos {
    let name = format!("HashMap<{}, {}>", key.name(), value.name());
    map_pos::<HashMap<K, V>, K, V>(name, key, value, "HashMap::from([")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuples_and_options_split_and_build() {
        let p = tuple2::<i32, bool>(atom::<i32>("i32"), atom::<bool>("bool"));
        let PosNode::Data(d) = &p.0 else { panic!() };
        let (k, parts) = d.ops.split(&(3i32, true));
        assert_eq!(k, 0);
        assert_eq!(*parts[0].downcast_ref::<i32>().unwrap(), 3);
        let back = d.ops.build(0, parts);
        assert_eq!(*back.downcast_ref::<(i32, bool)>().unwrap(), (3, true));
        assert_eq!(p.name(), "(i32, bool)");

        let o = option::<i32>(atom::<i32>("i32"));
        let PosNode::Data(d) = &o.0 else { panic!() };
        assert_eq!(d.ops.split(&None::<i32>).0, 0);
        let (k, parts) = d.ops.split(&Some(5i32));
        assert_eq!(k, 1);
        assert_eq!(*d.ops.build(k, parts).downcast_ref::<Option<i32>>().unwrap(), Some(5));
    }

    #[test]
    fn containers_are_sequences() {
        let p = btree_set::<i32>(atom::<i32>("i32"));
        let PosNode::List(l) = &p.0 else { panic!() };
        let items = l.ops.split(&BTreeSet::from([3, 1, 2]));
        assert_eq!(items.len(), 3);
        let back = l.ops.build(items);
        assert_eq!(*back.downcast_ref::<BTreeSet<i32>>().unwrap(), BTreeSet::from([1, 2, 3]));
        let m = btree_map::<i32, bool>(atom::<i32>("i32"), atom::<bool>("bool"));
        let PosNode::List(l) = &m.0 else { panic!() };
        let items = l.ops.split(&BTreeMap::from([(1, true)]));
        assert_eq!(*items[0].downcast_ref::<(i32, bool)>().unwrap(), (1, true));
    }

    #[test]
    fn variants_write_rust_syntax() {
        let v = Variant::record("Point", vec!["x", "y"], vec![atom::<i32>("i32"), atom::<i32>("i32")]);
        assert_eq!(v.write(&["a".into(), "_".into()]), "Point { x: a, .. }");
        assert_eq!(v.write(&["x".into(), "b".into()]), "Point { x, y: b }");
        assert_eq!(Variant::tuple("", vec![]).write(&["a".into(), "b".into()]), "(a, b)");
        assert_eq!(Variant::tuple("Some", vec![]).write(&["a".into()]), "Some(a)");
        assert_eq!(short::<Vec<Option<i32>>>(), "Vec<Option<i32>>");
    }
}
