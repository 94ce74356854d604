//! The dependency rules of ARCHITECTURE.md, checked from the manifests
//! (`cargo metadata`): the core knows no engine, engines do not depend on
//! each other, protocols stand on the dualization engine alone, and no
//! library depends on planted-bug fixtures, examples, benches or the CLI.
//! Dev-dependencies are free (tests may reach anything).

use std::collections::BTreeMap;
use std::process::Command;

/// What a workspace crate is, by its layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layer {
    /// The engine every technique stands on, and the spec language.
    Foundation,
    /// The macros.
    Macros,
    /// One technique each.
    Engine,
    /// A protocol for the dualization engine.
    Protocol,
    /// The crate users depend on.
    Facade,
    /// Programs and planted bugs: the CLI, examples, benches, fixtures.
    Application,
    /// A build tool: a program that knows no workspace crate.
    Tool,
}

fn layer(name: &str) -> Option<Layer> {
    Some(match name {
        "speccheck-core" | "speccheck-spec" => Layer::Foundation,
        "speccheck-derive" => Layer::Macros,
        "speccheck-reduce" | "speccheck-interface" | "speccheck-dual" | "speccheck-target" | "speccheck-contract" => {
            Layer::Engine
        }
        "speccheck-http" | "speccheck-sync" => Layer::Protocol,
        "speccheck" => Layer::Facade,
        "speccheck-cli"
        | "speccheck-examples"
        | "speccheck-fuzz-example"
        | "speccheck-bench"
        | "speccheck-fixtures" => Layer::Application,
        "speccheck-fuzz-rustc" => Layer::Tool,
        _ => return None,
    })
}

/// May a crate of layer `from` (named `name`) depend on `to` (of layer `layer`)?
fn allowed(name: &str, from: Layer, to: &str, layer: Layer) -> bool {
    match from {
        Layer::Foundation | Layer::Tool => false,
        Layer::Macros => to == "speccheck-spec",
        Layer::Engine => matches!(layer, Layer::Foundation | Layer::Macros),
        Layer::Protocol => matches!(layer, Layer::Foundation | Layer::Macros) || to == "speccheck-dual",
        Layer::Facade => matches!(layer, Layer::Foundation | Layer::Macros | Layer::Engine | Layer::Protocol),
        Layer::Application => name != to,
    }
}

/// Each workspace crate and the workspace crates it depends on (normal
/// and build dependencies).
fn workspace_dependencies() -> BTreeMap<String, Vec<String>> {
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "cargo metadata failed: {}", String::from_utf8_lossy(&out.stderr));
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON");
    let packages = meta["packages"].as_array().expect("packages");
    let names: Vec<String> = packages.iter().filter_map(|p| p["name"].as_str().map(str::to_string)).collect();
    packages
        .iter()
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|d| d["kind"].as_str() != Some("dev"))
                .filter_map(|d| d["name"].as_str())
                .filter(|d| names.iter().any(|n| n == d))
                .map(str::to_string)
                .collect();
            (p["name"].as_str().unwrap_or_default().to_string(), deps)
        })
        .collect()
}

#[test]
fn every_crate_has_a_layer() {
    for name in workspace_dependencies().keys() {
        assert!(layer(name).is_some(), "`{name}` has no layer: say in ARCHITECTURE.md and here what it is");
    }
}

#[test]
fn dependencies_point_one_way() {
    let mut broken = Vec::new();
    for (name, deps) in workspace_dependencies() {
        let Some(from) = layer(&name) else { continue };
        for to in deps {
            let Some(to_layer) = layer(&to) else { continue };
            if !allowed(&name, from, &to, to_layer) {
                broken.push(format!("{name} ({from:?}) depends on {to} ({to_layer:?})"));
            }
        }
    }
    assert!(broken.is_empty(), "dependencies against ARCHITECTURE.md's rules:\n{}", broken.join("\n"));
}

#[test]
fn the_rules_reject_what_they_forbid() {
    // The check itself can fail: the arrows the rules exist to stop.
    let core = Layer::Foundation;
    assert!(!allowed("speccheck-core", core, "speccheck-reduce", Layer::Engine));
    assert!(!allowed("speccheck-reduce", Layer::Engine, "speccheck-interface", Layer::Engine));
    assert!(!allowed("speccheck-dual", Layer::Engine, "speccheck-fixtures", Layer::Application));
    assert!(!allowed("speccheck-http", Layer::Protocol, "speccheck-sync", Layer::Protocol));
    assert!(!allowed("speccheck", Layer::Facade, "speccheck-examples", Layer::Application));
    assert!(allowed("speccheck-target", Layer::Engine, "speccheck-spec", Layer::Foundation));
    assert!(allowed("speccheck-http", Layer::Protocol, "speccheck-dual", Layer::Engine));
}
