//! Testing by dualization on a protocol of your own: a paste service whose server picks the ids.
//! The model says what any correct server may do; the tester is derived from it.
//! Run with `cargo run -p speccheck-examples --example dual_custom_protocol`.

use speccheck::dual::exec::inproc::{InProcess, Lines};
use speccheck::dual::lines::line_message;
use speccheck::dual::model::{Cx, Model, Step};
use speccheck::dual::rand::{Rng, rngs::SmallRng};
use speccheck::dual::serde_json::{self, Value as Json, json};
use speccheck::dual::{Answering, Decoded, Expr, JExp, JPath, Protocol, SymJson, Tester, View, Wire};

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Req(&'static str, String);
/// Requests are `PUT text` and `GET id`. The model: `PUT` answers a new id (the server's choice,
/// never reused); `GET` the text stored under the id, or `null`.
struct Paste;
impl Model for Paste {
    type State = Vec<(Expr, String)>;
    type Req = Req;
    type Resp = SymJson;
    fn init(&self) -> Self::State {
        vec![]
    }
    fn serve(&self, pastes: &mut Self::State, cx: &mut Cx<'_, Self>) -> Step {
        let (conn, Req(verb, word)) = cx.recv()?;
        if verb == "PUT" {
            let id = cx.fresh_str("id")?; // unknown to the tester until it sees it
            cx.require(Expr::and(pastes.iter().map(|(old, _)| id.not_equals(old))))?;
            pastes.push((id.clone(), word));
            return cx.send(conn, SymJson::object([("id", id.into())]));
        }
        for (id, text) in pastes.iter() {
            if cx.branch(id.equals(word.as_str()))? {
                return cx.send(conn, SymJson::object([("text", Expr::str(text.as_str()).into())]));
            }
        }
        cx.send(conn, SymJson::Null)
    }
}

/// Responses are JSON lines. Heuristic: mostly GET an id the server revealed, by reference (a J-expression).
struct PasteProtocol;
impl Protocol for PasteProtocol {
    type Model = Paste;
    fn name(&self) -> &str {
        "paste"
    }
    fn model(&self) -> std::sync::Arc<Paste> {
        std::sync::Arc::new(Paste)
    }
    fn encode_request(&self, r: &Req, _: &Wire) -> Vec<u8> {
        format!("{} {}\n", r.0, r.1).into_bytes()
    }
    fn decode_response(&self, bytes: &[u8], _: &Answering<'_, Req>) -> Decoded<Json> {
        line_message(bytes, |l| serde_json::from_str(l).map_err(|e| format!("not JSON: {e}")))
    }
    fn request_to_ir(&self, r: &Req) -> Json {
        json!({ "op": r.0, "arg": r.1 })
    }
    fn request_from_ir(&self, ir: &Json) -> Option<Req> {
        let op = ["PUT", "GET"].into_iter().find(|op| ir.get("op").and_then(Json::as_str) == Some(*op))?;
        let arg = ir.get("arg")?.as_str().filter(|s| !s.is_empty() && !s.contains(char::is_whitespace))?;
        Some(Req(op, arg.to_string()))
    }
    fn response_to_ir(&self, r: &Json) -> Json {
        r.clone()
    }
    fn propose(&self, view: &View<'_, Self>, rng: &mut SmallRng) -> JExp {
        let ids: Vec<u32> = view.responses().filter(|e| e.ir.get("id").is_some()).map(|e| e.label).collect();
        let (op, arg) = if !ids.is_empty() && rng.random_bool(0.6) {
            ("GET", JExp::reference(ids[rng.random_range(0..ids.len())], JPath::this().field("id"), "p0"))
        } else {
            ("PUT", JExp::lit(["cat", "dog", "owl"][rng.random_range(0..3)]))
        };
        JExp::object([("op", JExp::lit(op)), ("arg", arg)])
    }
}

/// The system under test; `buggy` makes ids wrap around after three pastes.
fn server(buggy: bool) -> impl FnMut(&str) -> String + Send {
    let mut ps: Vec<(String, String)> = Vec::new();
    move |line| match line.split_once(' ') {
        Some(("PUT", text)) => {
            let id = format!("p{}", if buggy { ps.len() % 3 } else { ps.len() });
            ps.push((id.clone(), text.to_string()));
            json!({ "id": id }).to_string()
        }
        Some(("GET", id)) => json!(ps.iter().rev().find(|p| p.0 == id).map(|p| json!({ "text": p.1 }))).to_string(),
        _ => "ERROR".to_string(),
    }
}

fn main() {
    for buggy in [true, false] {
        let target = InProcess::new("paste", move |_| Box::new(Lines::new(server(buggy))));
        let report = Tester::new(PasteProtocol, target).configure(|c| c.seed = Some(5)).run();
        println!("== {} server ==\n{report}", if buggy { "buggy" } else { "fixed" });
    }
}
