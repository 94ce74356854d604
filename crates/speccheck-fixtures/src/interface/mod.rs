//! Example APIs for interface fuzzing
//! ([`speccheck::interface`](mod@speccheck::interface)), from the
//! ArtiCheck paper (§2, §5) and its repository, each with a planted bug
//! and a correct variant: what the tour, the interface crate's tests and
//! the benchmark (`speccheck-bench --bin articheck`) all run.
//!
//! | module | paper | planted bug |
//! |---|---|---|
//! | [`sorted_list`] | §2 `SIList` | `add` of a new maximum puts it first |
//! | [`avl`] | §5.3 AVL trees | `remove` rebalances a balanced left child with a double rotation |
//! | [`rbt_zipper`] | §5.1 red-black trees with zippers | the pointer is published as `(tree, zipper)` and can be paired with the wrong tree |
//! | [`ocaml_set`] | `setbug.ml`, OCaml's `Set` | `join` rebalances only the root: `union` breaks the height-balance invariant (heights differ by at most 2) |
//! | [`bdd`] | §5.2 BDDs with hash-consing | `restrict` bypasses the unique table: results are not reduced |
//! | [`reference_set`] | Monolith | `remove` of an absent element removes its successor |

pub mod avl;
pub mod bdd;
pub mod ocaml_set;
pub mod rbt_zipper;
pub mod reference_set;
pub mod sorted_list;

use speccheck::interface::{Api, Config};

/// One bundled example.
#[derive(Clone, Copy, Debug)]
pub struct Example {
    /// Short name.
    pub name: &'static str,
    /// What it is and where it comes from.
    pub title: &'static str,
    /// The planted bug.
    pub bug: &'static str,
    /// The API with the bug.
    pub buggy: fn() -> Api,
    /// The correct API (must pass).
    pub correct: fn() -> Api,
    /// Settings for both.
    pub config: fn() -> Config,
}

/// Every bundled example.
pub fn catalogue() -> Vec<Example> {
    vec![
        Example {
            name: "sorted-list",
            title: "sorted integer lists (ArtiCheck §2)",
            bug: "`add` of a new maximum puts it first",
            buggy: sorted_list::buggy::api,
            correct: sorted_list::correct::api,
            config: sorted_list::config,
        },
        Example {
            name: "avl",
            title: "AVL trees (ArtiCheck §5.3)",
            bug: "`remove` rebalances a balanced left child with a double rotation",
            buggy: avl::buggy::api,
            correct: avl::correct::api,
            config: avl::config,
        },
        Example {
            name: "rbt-zipper",
            title: "red-black trees with a zipper (ArtiCheck §5.1)",
            bug: "pointers are published as (tree, zipper) pairs: a zipper can be closed on the wrong tree",
            buggy: rbt_zipper::exposed::api,
            correct: rbt_zipper::correct::api,
            config: rbt_zipper::config,
        },
        Example {
            name: "ocaml-set",
            title: "OCaml's Set: union by split and join (ArtiCheck's setbug)",
            bug: "`join` only rebalances the root: |hl − hr| ≤ 2 breaks through empty/add/union",
            buggy: ocaml_set::buggy::api,
            correct: ocaml_set::correct::api,
            config: ocaml_set::config,
        },
        Example {
            name: "bdd",
            title: "BDDs with hash-consing (ArtiCheck §5.2)",
            bug: "`restrict` builds nodes outside the unique table: results are not reduced",
            buggy: bdd::buggy::api,
            correct: bdd::correct::api,
            config: bdd::config,
        },
        Example {
            name: "reference-set",
            title: "a sorted-vector set against BTreeSet (Monolith's reference mode)",
            bug: "`remove` of an absent element removes its successor",
            buggy: reference_set::buggy::api,
            correct: reference_set::correct::api,
            config: reference_set::config,
        },
    ]
}
