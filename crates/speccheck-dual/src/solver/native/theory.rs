//! Difference logic: integer order and offsets as `x - y <= k` edges,
//! solved by Bellman–Ford over the `i64` range, within one case of the
//! search (the bindings and literals it has gathered).

use std::collections::BTreeMap;

use super::norm::{int_key, resolve_term};
use super::uf::Uf;
use crate::sym::{Expr, Var};

/// One case of the search: bindings plus the literals that are not.
#[derive(Clone, Debug)]
pub(super) struct Theory<'a> {
    pub(super) uf: Uf,
    pub(super) vars: &'a [Var],
    /// `a - b <= w` over integer terms.
    pub(super) edges: Vec<(Expr, Expr, i128)>,
    /// String (and other non-integer) disequalities.
    pub(super) str_ne: Vec<(Expr, Expr)>,
    /// Integer disequalities.
    pub(super) int_ne: Vec<(Expr, Expr)>,
}

impl Theory<'_> {
    /// The difference-logic solution of the integer constraints (root
    /// variable → value), `None` when they are unsatisfiable.
    pub(super) fn int_solution(&self) -> Option<BTreeMap<u32, i64>> {
        let mut nodes: BTreeMap<Option<u32>, usize> = BTreeMap::new();
        nodes.insert(None, 0);
        let mut edges: Vec<(usize, usize, i128)> = Vec::new();
        let node = |nodes: &mut BTreeMap<Option<u32>, usize>, n: Option<u32>| {
            let len = nodes.len();
            *nodes.entry(n).or_insert(len)
        };
        for (a, b, w) in &self.edges {
            let (ta, tb) = (resolve_term(a, &self.uf, self.vars), resolve_term(b, &self.uf, self.vars));
            let ((na, oa), (nb, ob)) = (int_key(&ta)?, int_key(&tb)?);
            // (na + oa) - (nb + ob) <= w  ⇒  na - nb <= w - oa + ob: edge nb → na.
            let (ia, ib) = (node(&mut nodes, na), node(&mut nodes, nb));
            edges.push((ib, ia, w - oa + ob));
        }
        for (a, b) in &self.int_ne {
            for t in [a, b] {
                if let Some((n, _)) = int_key(&resolve_term(t, &self.uf, self.vars)) {
                    node(&mut nodes, n);
                }
            }
        }
        // Every integer variable lies in the i64 range.
        for (&n, &i) in &nodes {
            if n.is_some() {
                edges.push((0, i, i128::from(i64::MAX)));
                edges.push((i, 0, -i128::from(i64::MIN)));
            }
        }
        let n = nodes.len();
        let mut dist = vec![0i128; n];
        for round in 0..=n {
            let mut changed = false;
            for &(from, to, w) in &edges {
                if dist[from] + w < dist[to] {
                    dist[to] = dist[from] + w;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
            if round == n {
                return None; // negative cycle
            }
        }
        let zero = dist[0];
        let mut out = BTreeMap::new();
        for (&key, &i) in &nodes {
            if let Some(root) = key {
                out.insert(root, i64::try_from(dist[i] - zero).ok()?);
            }
        }
        Some(out)
    }

    pub(super) fn int_value(&self, t: &Expr, sol: &BTreeMap<u32, i64>) -> Option<i128> {
        let (n, o) = int_key(&resolve_term(t, &self.uf, self.vars))?;
        Some(o + n.map_or(0, |r| i128::from(*sol.get(&r).unwrap_or(&0))))
    }
}
