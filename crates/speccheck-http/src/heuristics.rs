//! What the HTTP tester sends next (thesis §5.2): generic to HTTP, the
//! same for every server. State-based: mostly resources that exist in
//! some branch of the model. Trace-based: entity tags the server revealed
//! for the same resource, by reference (so a shrunk or replayed script
//! refers to the tags of *its* server), strong or in weak form, alone, in
//! lists or as `*`; modification dates the server revealed, as they are or a
//! second either side, in `If-Modified-Since` / `If-Unmodified-Since` /
//! `If-Range`; byte ranges in and out of the representations' lengths.
//! Pipelined bursts and concurrent writers come from the executor's
//! scheduling (several requests in flight on several connections).

use rand::Rng;
use rand::rngs::SmallRng;
use serde_json::{Value as Json, json};
use speccheck_dual::harness::jexp::{JExp, JFn, JPath};
use speccheck_dual::protocol::View;

use crate::message::{format_date, parse_date};
use crate::{Http, Method};

/// Functions references may apply (index + 1 in a reference).
pub const FUNCS: [JFn; 4] = [
    JFn { name: "weak", apply: |v| Some(json!(format!("W/{}", v.as_str()?.trim_start_matches("W/")))) },
    JFn { name: "strong", apply: |v| Some(json!(v.as_str()?.trim_start_matches("W/"))) },
    JFn { name: "second before", apply: |v| Some(json!(format_date(parse_date(v.as_str()?)? - 1)?)) },
    JFn { name: "second after", apply: |v| Some(json!(format_date(parse_date(v.as_str()?)? + 1)?)) },
];
const WEAK: u32 = 1;
const SECOND_BEFORE: u32 = 3;
const SECOND_AFTER: u32 = 4;

/// A date before any server's clock (the example date of RFC 9110 §5.6.7).
const LONG_AGO: &str = "Sun, 06 Nov 1994 08:49:37 GMT";

/// A tag no server issued (servers must cope with any tag).
const STRANGER: &str = "\"speccheck-unknown\"";

impl Http {
    pub(super) fn propose_request(&self, view: &View<'_, Self>, rng: &mut SmallRng) -> JExp {
        let path = self.pick_path(view, rng);
        let methods = self.vocabulary.methods();
        let weights: Vec<u32> = methods.iter().map(weight).collect();
        let mut pick = rng.random_range(0..weights.iter().sum::<u32>().max(1));
        let chosen = methods.iter().zip(&weights).find(|(_, w)| {
            let hit = pick < **w;
            pick = pick.saturating_sub(**w);
            hit
        });
        let method = chosen.map_or("GET", |(m, _)| m.as_str());
        let mut fields = vec![("method", JExp::lit(method)), ("path", JExp::lit(path.clone()))];
        if matches!(method, "PUT" | "POST") {
            let bodies = &self.vocabulary.bodies;
            fields.push(("body", JExp::lit(bodies[rng.random_range(0..bodies.len())].clone())));
        }
        let conditional = Method::parse(method).is_some_and(|m| self.vocabulary.conditional.contains(&m));
        if conditional && rng.random_bool(0.5) {
            match rng.random_range(0..14) {
                0..=4 => fields.push(("if_match", self.condition(view, &path, rng))),
                5..=8 => fields.push(("if_none_match", self.condition(view, &path, rng))),
                9 => {
                    fields.push(("if_match", self.condition(view, &path, rng)));
                    fields.push(("if_none_match", self.condition(view, &path, rng)));
                }
                10 | 11 => fields.push(("if_unmodified_since", self.date(view, &path, rng))),
                _ => fields.push(("if_modified_since", self.date(view, &path, rng))),
            }
        }
        // Ranges on GET (and, rarely, on HEAD, which must ignore them).
        let ranges = self.vocabulary.ranges;
        if ranges && ((method == "GET" && rng.random_bool(0.25)) || (method == "HEAD" && rng.random_bool(0.05))) {
            let (a, b) = (rng.random_range(0..20u64), rng.random_range(0..20u64));
            let range = match rng.random_range(0..3) {
                0 => format!("bytes={}-{}", a.min(b), a.max(b)),
                1 => format!("bytes={a}-"),
                _ => format!("bytes=-{b}"),
            };
            fields.push(("range", JExp::lit(range)));
            if rng.random_bool(0.3) {
                let validator = if rng.random_bool(0.5) {
                    self.date(view, &path, rng)
                } else {
                    match self.condition(view, &path, rng) {
                        JExp::Array(mut tags) if !tags.is_empty() => tags.swap_remove(0),
                        _ => JExp::lit(STRANGER),
                    }
                };
                fields.push(("if_range", validator));
            }
        }
        JExp::object(fields)
    }

    /// A date for a date precondition: the resource's modification date as
    /// the server revealed it (by reference), or a second either side of
    /// it; else a date long ago.
    fn date(&self, view: &View<'_, Self>, path: &str, rng: &mut SmallRng) -> JExp {
        let dated = responses_with(view, path, "last_modified");
        if dated.is_empty() || rng.random_bool(0.1) {
            return JExp::lit(LONG_AGO);
        }
        let label = dated[rng.random_range(0..dated.len().min(3))];
        let func = match rng.random_range(0..3) {
            0 => 0,
            1 => SECOND_BEFORE,
            _ => SECOND_AFTER,
        };
        JExp::Ref { label, path: JPath::this().field("last_modified"), func, default: json!(LONG_AGO) }
    }

    /// A resource: mostly one that exists in some branch, or one the trace
    /// wrote recently; else any name of the vocabulary.
    fn pick_path(&self, view: &View<'_, Self>, rng: &mut SmallRng) -> String {
        let existing: Vec<&String> = view.states.iter().flat_map(|s| s.resources.keys()).collect();
        if !existing.is_empty() && rng.random_bool(0.6) {
            return existing[rng.random_range(0..existing.len())].clone();
        }
        let paths = &self.vocabulary.paths;
        paths[rng.random_range(0..paths.len())].clone()
    }

    /// An `If-Match` / `If-None-Match` value: `*`, or a list of tags the
    /// server revealed for this resource (by reference), possibly in weak
    /// form, possibly with a tag no server issued.
    fn condition(&self, view: &View<'_, Self>, path: &str, rng: &mut SmallRng) -> JExp {
        if rng.random_bool(0.15) {
            return JExp::lit("*");
        }
        let tagged = responses_with(view, path, "etag");
        let mut list = Vec::new();
        for _ in 0..if rng.random_bool(0.25) { 2 } else { 1 } {
            if tagged.is_empty() || rng.random_bool(0.15) {
                list.push(JExp::lit(STRANGER));
                continue;
            }
            // Recent tags are likelier to be current.
            let label = tagged[rng.random_range(0..tagged.len().min(3))];
            let func = if rng.random_bool(0.25) { WEAK } else { 0 };
            list.push(JExp::Ref { label, path: JPath::this().field("etag"), func, default: json!(STRANGER) });
        }
        JExp::Array(list)
    }
}

/// How often a method is sent, relative to the others: reads and writes
/// most, the methods a document store refuses least (the other methods
/// share one weight).
fn weight(m: &Method) -> u32 {
    match m {
        Method::Get => 30,
        Method::Put => 29,
        Method::Head => 10,
        Method::Delete => 16,
        Method::Post => 6,
        Method::Options => 3,
        Method::Other(_) => 3,
    }
}

/// Labels of responses that carried `field` (`etag`, `last_modified`), for
/// requests on `path`, newest first.
fn responses_with(view: &View<'_, Http>, path: &str, field: &str) -> Vec<u32> {
    let path_of = |label: u32| -> Option<&Json> {
        view.trace.iter().find(|e| e.sent && e.label.wrapping_add(1) == label).and_then(|e| e.ir.get("path"))
    };
    view.responses()
        .filter(|e| e.ir.get(field).is_some() && path_of(e.label).and_then(Json::as_str) == Some(path))
        .map(|e| e.label)
        .collect()
}
