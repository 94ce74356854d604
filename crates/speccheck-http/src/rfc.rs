//! The requirements of RFC 9110 (HTTP Semantics) the model checks, each
//! with its clause and its strength. A default run rejects a server only
//! for a MUST; a SHOULD it does not follow is a finding (see
//! [`speccheck_dual::rule`]).
//!
//! Where the RFC gives a server a choice, the model allows every option
//! (200 or 204 for an overwrite; 404 or 410 for a missing resource); where
//! it only recommends one, the others are allowed at MUST level and the
//! recommendation is a SHOULD. A write that other requests are in flight
//! with may fail without effect (403, 409, 423, 500, 503: a lock, a conflict,
//! a race the server lost; no MUST obliges it to succeed): the model allows
//! it under the write's own rule.

use speccheck_dual::rule::Rule;

/// GET of a resource that has a representation transfers it.
pub const GET_TRANSFERS: Rule =
    Rule::must("RFC 9110 §9.3.1", "GET of an existing resource answers 200 with its current representation");
/// A missing resource is not found.
pub const NOT_FOUND: Rule =
    Rule::must("RFC 9110 §15.5.5", "a request on a resource with no representation is not found (404 or 410)");
/// DELETE of a missing resource is not found (the RFC does not oblige it:
/// a server may treat the deletion as done).
pub const DELETE_NOT_FOUND: Rule =
    Rule::should("RFC 9110 §15.5.5", "DELETE of a resource with no representation answers 404 or 410");
/// HEAD has no content.
pub const HEAD_NO_CONTENT: Rule = Rule::must("RFC 9110 §9.3.2", "a response to HEAD has no content");
/// HEAD's header fields are GET's.
pub const HEAD_LIKE_GET: Rule =
    Rule::should("RFC 9110 §9.3.2", "a response to HEAD sends the header fields GET would (its ETag)");
/// Content-Length of a response to HEAD.
pub const HEAD_LENGTH: Rule =
    Rule::must("RFC 9110 §8.6", "Content-Length in a response to HEAD is the length GET would send");
/// PUT that creates.
pub const PUT_CREATES: Rule = Rule::must("RFC 9110 §9.3.4", "a PUT that creates a representation answers 201");
/// PUT that replaces.
pub const PUT_REPLACES: Rule = Rule::must("RFC 9110 §9.3.4", "a PUT that replaces a representation answers 200 or 204");
/// DELETE that succeeds.
pub const DELETE_DONE: Rule = Rule::must("RFC 9110 §9.3.5", "a DELETE carried out answers 2xx");
/// DELETE's status.
pub const DELETE_STATUS: Rule = Rule::should("RFC 9110 §9.3.5", "a DELETE carried out answers 200, 202 or 204");
/// POST on a document store.
pub const POST_SEMANTICS: Rule = Rule::must(
    "RFC 9110 §9.3.3",
    "POST has the resource's own semantics: refused (405, 501), not found (404), or answered 200 or 204",
);
/// A method the server does not implement is refused.
pub const UNKNOWN_METHOD: Rule =
    Rule::must("RFC 9110 §9.1", "a method the server does not implement is refused (400, 404, 405 or 501)");
/// ... with 501, or 405 when known but not allowed.
pub const UNKNOWN_METHOD_501: Rule = Rule::should(
    "RFC 9110 §9.1, §15.6.2",
    "an unrecognized method answers 501 (405 when the method is known but not allowed)",
);
/// An ETag names the current representation.
pub const ETAG_CURRENT: Rule =
    Rule::must("RFC 9110 §8.8.3", "an ETag names the selected representation's current entity tag");
/// An ETag is sent with a representation whose changes the server can tell.
pub const ETAG_SENT: Rule = Rule::should(
    "RFC 9110 §8.8.3",
    "a response with a representation sends its entity tag (when the server issues one for it)",
);
/// A false If-Match.
pub const IF_MATCH_FALSE: Rule = Rule::must("RFC 9110 §13.1.1", "a false If-Match: the method is not performed, 412");
/// A true If-None-Match on a write.
pub const IF_NONE_MATCH_WRITE: Rule =
    Rule::must("RFC 9110 §13.1.2", "a true If-None-Match on a method other than GET or HEAD: 412");
/// A true If-None-Match on GET or HEAD.
pub const IF_NONE_MATCH_READ: Rule =
    Rule::must("RFC 9110 §13.1.2", "a true If-None-Match on GET or HEAD: the method is not performed (304 or 412)");
/// ... with 304.
pub const NOT_MODIFIED: Rule = Rule::should("RFC 9110 §13.1.2", "a true If-None-Match on GET or HEAD answers 304");
/// A 304 has no content.
pub const NOT_MODIFIED_EMPTY: Rule = Rule::must("RFC 9110 §15.4.5", "a 304 response has no content");
/// Preconditions hold: the method is performed.
pub const PRECONDITIONS_HOLD: Rule =
    Rule::must("RFC 9110 §13.2.2", "when every precondition holds, the method is performed as without them");
/// A 405 names the allowed methods.
pub const ALLOW_ON_405: Rule = Rule::must("RFC 9110 §15.5.6", "a 405 response carries an Allow header field");
/// OPTIONS.
pub const OPTIONS_ANSWERED: Rule =
    Rule::must("RFC 9110 §9.3.7", "OPTIONS is answered (200, 204) or, as an optional method, refused (404, 405, 501)");
/// Last-Modified names the representation's date.
pub const LAST_MODIFIED_CURRENT: Rule =
    Rule::must("RFC 9110 §8.8.2", "Last-Modified is the selected representation's modification date");
/// Last-Modified is sent.
pub const LAST_MODIFIED_SENT: Rule = Rule::should(
    "RFC 9110 §8.8.2.1",
    "a response with a representation sends its Last-Modified (when the server has a date for it)",
);
/// Last-Modified is not in the future.
pub const LAST_MODIFIED_PAST: Rule =
    Rule::must("RFC 9110 §8.8.2.1", "Last-Modified is not later than the response's Date");
/// A false If-Unmodified-Since.
pub const IF_UNMODIFIED_SINCE_FALSE: Rule = Rule::must(
    "RFC 9110 §13.1.4",
    "a representation modified after If-Unmodified-Since: the method is not performed, 412",
);
/// A false If-Modified-Since.
pub const IF_MODIFIED_SINCE: Rule = Rule::must(
    "RFC 9110 §13.1.3",
    "a representation not modified since If-Modified-Since: 304, or the method performed (200)",
);
/// ... with 304.
pub const NOT_MODIFIED_SINCE: Rule =
    Rule::should("RFC 9110 §13.1.3", "a representation not modified since If-Modified-Since: 304");
/// A false If-Range.
pub const IF_RANGE_FALSE: Rule =
    Rule::must("RFC 9110 §13.1.5", "a false If-Range: the Range is ignored, 200 with the whole representation");
/// The status of a ranged GET.
pub const RANGE_STATUS: Rule = Rule::must(
    "RFC 9110 §14.2",
    "a GET with a Range answers 206 with the range, 200 with everything (Range ignored), or 416 if unsatisfiable",
);
/// The part sent.
pub const RANGE_PART: Rule = Rule::must(
    "RFC 9110 §14.4, §15.3.7",
    "a 206 carries Content-Range: bytes first-last/length and exactly those bytes",
);
/// An unsatisfiable range.
pub const RANGE_UNSATISFIABLE: Rule = Rule::must(
    "RFC 9110 §14.2, §15.5.17",
    "a Range no byte of the representation satisfies is answered 416 or ignored (200), never 206",
);
