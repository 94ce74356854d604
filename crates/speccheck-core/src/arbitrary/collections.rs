//! `Vec`, `VecDeque`, `LinkedList`, `BinaryHeap`, `BTreeMap`, `BTreeSet`,
//! `HashMap`, `HashSet`: lengths
//! grow with the size parameter and shrink with nesting depth, so recursive
//! types built through collections terminate.

use std::any::Any;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::hash::Hash;

use super::Arbitrary;
use crate::encode::{EncodeError, Encoder};
use crate::gens::collections::{LengthBias, Sink, SizeRange, draw_elements, write_elements};
use crate::span::TypeInfo;
use crate::term::Term;
use crate::test_case::TestCase;
use crate::tree::TreeView;

const ANY_LEN: SizeRange = SizeRange { min: 0, max: usize::MAX };

fn collection_info<C: 'static>() -> TypeInfo {
    TypeInfo::of::<C>(&[], false)
}

/// The contents of any collection of `Arbitrary` items.
fn draw_collection<T: Arbitrary, C: Sink<T> + Default>(tc: &mut TestCase) -> C {
    let mut out = C::default();
    draw_elements(tc, ANY_LEN, LengthBias::Sized, T::type_info, T::generate, T::generate_into, &mut out);
    out
}

fn encode_collection<'a, T: Arbitrary>(
    items: impl ExactSizeIterator<Item = &'a T>,
    enc: &mut Encoder,
) -> Result<(), EncodeError> {
    write_elements(enc, ANY_LEN, items, |v, enc| v.encode(enc))
}

fn encode_map<'a, K: Arbitrary, V: Arbitrary>(
    pairs: impl Iterator<Item = (&'a K, &'a V)>,
    enc: &mut Encoder,
) -> Result<(), EncodeError> {
    let pairs: Vec<(&K, &V)> = pairs.collect();
    write_elements(enc, ANY_LEN, pairs.iter(), |(k, v), enc| {
        k.encode(enc)?;
        v.encode(enc)
    })
}

macro_rules! seq_arbitrary {
    ($coll:ident <$t:ident $(: $($b:path),+)?>) => {
        impl<$t: Arbitrary $($(+ $b)+)?> Arbitrary for $coll<$t> {
            fn type_info() -> TypeInfo {
                collection_info::<Self>()
            }
            fn draw(tc: &mut TestCase) -> Self {
                draw_collection::<$t, Self>(tc)
            }
            fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
                encode_collection(self.iter(), enc)
            }
        }
    };
}

seq_arbitrary!(Vec<T>);
seq_arbitrary!(VecDeque<T>);
seq_arbitrary!(LinkedList<T>);
seq_arbitrary!(BinaryHeap<T: Ord>);
seq_arbitrary!(BTreeSet<T: Ord>);
seq_arbitrary!(HashSet<T: Eq, Hash>);

macro_rules! map_arbitrary {
    ($coll:ident <K $(: $($b:path),+)?>) => {
        impl<K: Arbitrary $($(+ $b)+)?, V: Arbitrary> Arbitrary for $coll<K, V> {
            fn type_info() -> TypeInfo {
                collection_info::<Self>()
            }
            fn draw(tc: &mut TestCase) -> Self {
                draw_collection::<(K, V), Self>(tc)
            }
            fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
                encode_map(self.iter(), enc)
            }
        }
    };
}

map_arbitrary!(BTreeMap<K: Ord>);
map_arbitrary!(HashMap<K: Eq, Hash>);

macro_rules! seq_tree {
    ($coll:ident <$t:ident $(: $b:path)?>, $open:expr, $close:expr, $ctor:expr, $get:expr) => {
        impl<$t: TreeView $(+ $b)?> TreeView for $coll<$t> {
            fn constructor(&self) -> &'static str {
                $ctor
            }
            fn constructors(&self) -> &'static [&'static str] {
                &[$ctor]
            }
            fn children(&self) -> Vec<&dyn TreeView> {
                self.iter().map(|x| x as &dyn TreeView).collect()
            }
            fn replace_child(&mut self, index: usize, value: Box<dyn Any>) -> Result<(), Box<dyn Any>> {
                let get: fn(&mut Self, usize) -> Option<&mut $t> = $get;
                match get(self, index) {
                    Some(slot) => {
                        *slot = *value.downcast::<$t>()?;
                        Ok(())
                    }
                    None => Err(value),
                }
            }
            fn to_term(&self) -> Term {
                Term::seq($open, $close, self.iter().map(TreeView::to_term).collect())
            }
            fn as_any(&self) -> &dyn Any {
                self
            }
        }
    };
}

seq_tree!(Vec<T>, "vec![", "]", "vec![..]", |v, i| v.get_mut(i));
seq_tree!(VecDeque<T>, "VecDeque::from([", "])", "VecDeque", |v, i| v.get_mut(i));
seq_tree!(LinkedList<T>, "LinkedList::from([", "])", "LinkedList", |v, i| v.iter_mut().nth(i));
seq_tree!(BinaryHeap<T: Ord>, "BinaryHeap::from([", "])", "BinaryHeap", |_, _| None);
seq_tree!(BTreeSet<T: Ord>, "BTreeSet::from([", "])", "BTreeSet", |_, _| None);
seq_tree!(HashSet<T: Hash>, "HashSet::from([", "])", "HashSet", |_, _| None);

macro_rules! map_tree {
    ($coll:ident <K $(: $b:path)?>, $open:expr, $ctor:expr) => {
        impl<K: TreeView $(+ $b)?, V: TreeView> TreeView for $coll<K, V> {
            fn constructor(&self) -> &'static str {
                $ctor
            }
            fn constructors(&self) -> &'static [&'static str] {
                &[$ctor]
            }
            /// Keys and values, interleaved.
            fn children(&self) -> Vec<&dyn TreeView> {
                self.iter().flat_map(|(k, v)| [k as &dyn TreeView, v as &dyn TreeView]).collect()
            }
            /// Only values (odd indices) can be replaced in place.
            fn replace_child(&mut self, index: usize, value: Box<dyn Any>) -> Result<(), Box<dyn Any>> {
                if index % 2 == 0 {
                    return Err(value);
                }
                match self.values_mut().nth(index / 2) {
                    Some(slot) => {
                        *slot = *value.downcast::<V>()?;
                        Ok(())
                    }
                    None => Err(value),
                }
            }
            fn to_term(&self) -> Term {
                Term::seq($open, "])", self.iter().map(|(k, v)| Term::Tuple(vec![k.to_term(), v.to_term()])).collect())
            }
            fn as_any(&self) -> &dyn Any {
                self
            }
        }
    };
}

map_tree!(BTreeMap<K: Ord>, "BTreeMap::from([", "BTreeMap");
map_tree!(HashMap<K: Hash>, "HashMap::from([", "HashMap");
