//! `Vec`, `VecDeque`, `BTreeMap`, `BTreeSet`, `HashMap`, `HashSet`: lengths
//! grow with the size parameter and shrink with nesting depth, so recursive
//! types built through collections terminate.

use std::any::Any;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::hash::Hash;

use super::Arbitrary;
use crate::encode::{EncodeError, Encoder};
use crate::gens::collections::{LengthBias, SizeRange, draw_elements, write_elements};
use crate::span::TypeInfo;
use crate::term::Term;
use crate::test_case::TestCase;
use crate::tree::TreeView;

const ANY_LEN: SizeRange = SizeRange { min: 0, max: usize::MAX };

fn elem_info<T: Arbitrary>() -> TypeInfo {
    T::type_info()
}

impl<T: Arbitrary> Arbitrary for Vec<T> {
    fn type_info() -> TypeInfo {
        TypeInfo::of::<Self>(&[], false)
    }
    fn draw(tc: &mut TestCase) -> Self {
        let mut out = Vec::new();
        draw_elements(tc, ANY_LEN, LengthBias::Sized, elem_info::<T>, T::generate, &mut out);
        out
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        write_elements(enc, ANY_LEN, self.iter(), |v, enc| v.encode(enc))
    }
}

impl<T: Arbitrary> Arbitrary for VecDeque<T> {
    fn type_info() -> TypeInfo {
        TypeInfo::of::<Self>(&[], false)
    }
    fn draw(tc: &mut TestCase) -> Self {
        let mut out = VecDeque::new();
        draw_elements(tc, ANY_LEN, LengthBias::Sized, elem_info::<T>, T::generate, &mut out);
        out
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        write_elements(enc, ANY_LEN, self.iter(), |v, enc| v.encode(enc))
    }
}

impl<T: Arbitrary + Ord> Arbitrary for BTreeSet<T> {
    fn type_info() -> TypeInfo {
        TypeInfo::of::<Self>(&[], false)
    }
    fn draw(tc: &mut TestCase) -> Self {
        let mut out = BTreeSet::new();
        draw_elements(tc, ANY_LEN, LengthBias::Sized, elem_info::<T>, T::generate, &mut out);
        out
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        write_elements(enc, ANY_LEN, self.iter(), |v, enc| v.encode(enc))
    }
}

impl<T: Arbitrary + Eq + Hash> Arbitrary for HashSet<T> {
    fn type_info() -> TypeInfo {
        TypeInfo::of::<Self>(&[], false)
    }
    fn draw(tc: &mut TestCase) -> Self {
        let mut out = HashSet::new();
        draw_elements(tc, ANY_LEN, LengthBias::Sized, elem_info::<T>, T::generate, &mut out);
        out
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        write_elements(enc, ANY_LEN, self.iter(), |v, enc| v.encode(enc))
    }
}

impl<K: Arbitrary + Ord, V: Arbitrary> Arbitrary for BTreeMap<K, V> {
    fn type_info() -> TypeInfo {
        TypeInfo::of::<Self>(&[], false)
    }
    fn draw(tc: &mut TestCase) -> Self {
        let mut out = BTreeMap::new();
        draw_elements(
            tc,
            ANY_LEN,
            LengthBias::Sized,
            elem_info::<(K, V)>,
            |tc| (K::generate(tc), V::generate(tc)),
            &mut out,
        );
        out
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        let pairs: Vec<(&K, &V)> = self.iter().collect();
        write_elements(enc, ANY_LEN, pairs.iter(), |(k, v), enc| {
            k.encode(enc)?;
            v.encode(enc)
        })
    }
}

impl<K: Arbitrary + Eq + Hash, V: Arbitrary> Arbitrary for HashMap<K, V> {
    fn type_info() -> TypeInfo {
        TypeInfo::of::<Self>(&[], false)
    }
    fn draw(tc: &mut TestCase) -> Self {
        let mut out = HashMap::new();
        draw_elements(
            tc,
            ANY_LEN,
            LengthBias::Sized,
            elem_info::<(K, V)>,
            |tc| (K::generate(tc), V::generate(tc)),
            &mut out,
        );
        out
    }
    fn encode(&self, enc: &mut Encoder) -> Result<(), EncodeError> {
        let pairs: Vec<(&K, &V)> = self.iter().collect();
        write_elements(enc, ANY_LEN, pairs.iter(), |(k, v), enc| {
            k.encode(enc)?;
            v.encode(enc)
        })
    }
}

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
