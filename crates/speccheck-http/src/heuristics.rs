//! What the HTTP tester sends next (thesis §5.2): generic to HTTP, the
//! same for every server. State-based: mostly resources that exist in
//! some branch of the model. Trace-based: entity tags the server revealed
//! for the same resource, by reference (so a shrunk or replayed script
//! refers to the tags of *its* server), strong or in weak form, alone, in
//! lists or as `*`. Pipelined bursts and concurrent writers come from the
//! executor's scheduling (several requests in flight on several
//! connections).

use rand::Rng;
use rand::rngs::SmallRng;
use serde_json::{Value as Json, json};
use speccheck_dual::harness::jexp::{JExp, JFn, JPath};
use speccheck_dual::protocol::View;

use crate::{Http, Method};

/// Functions references may apply (index + 1 in a reference).
pub const FUNCS: [JFn; 2] = [
    JFn { name: "weak", apply: |v| Some(json!(format!("W/{}", v.as_str()?.trim_start_matches("W/")))) },
    JFn { name: "strong", apply: |v| Some(json!(v.as_str()?.trim_start_matches("W/"))) },
];
const WEAK: u32 = 1;

/// A tag no server issued (servers must cope with any tag).
const STRANGER: &str = "\"speccheck-unknown\"";

impl Http {
    pub(super) fn propose_request(&self, view: &View<'_, Self>, rng: &mut SmallRng) -> JExp {
        let path = self.pick_path(view, rng);
        let method = match rng.random_range(0..100) {
            0..=29 => "GET",
            30..=59 => "PUT",
            60..=69 => "HEAD",
            70..=85 => "DELETE",
            86..=92 => "POST",
            _ => self.vocabulary.other_methods[rng.random_range(0..self.vocabulary.other_methods.len())].as_str(),
        };
        let mut fields = vec![("method", JExp::lit(method)), ("path", JExp::lit(path.clone()))];
        if matches!(method, "PUT" | "POST") {
            let bodies = &self.vocabulary.bodies;
            fields.push(("body", JExp::lit(bodies[rng.random_range(0..bodies.len())].clone())));
        }
        let conditional = Method::parse(method).is_some_and(|m| self.vocabulary.conditional.contains(&m));
        if conditional && rng.random_bool(0.5) {
            match rng.random_range(0..10) {
                0..=4 => fields.push(("if_match", self.condition(view, &path, rng))),
                5..=8 => fields.push(("if_none_match", self.condition(view, &path, rng))),
                _ => {
                    fields.push(("if_match", self.condition(view, &path, rng)));
                    fields.push(("if_none_match", self.condition(view, &path, rng)));
                }
            }
        }
        JExp::object(fields)
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
        let tagged = tagged_responses(view, path);
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

/// Labels of responses that carried an `ETag`, for requests on `path`,
/// newest first.
fn tagged_responses(view: &View<'_, Http>, path: &str) -> Vec<u32> {
    let path_of = |label: u32| -> Option<&Json> {
        view.trace.iter().find(|e| e.sent && e.label.wrapping_add(1) == label).and_then(|e| e.ir.get("path"))
    };
    view.responses()
        .filter(|e| e.ir.get("etag").is_some() && path_of(e.label).and_then(Json::as_str) == Some(path))
        .map(|e| e.label)
        .collect()
}
