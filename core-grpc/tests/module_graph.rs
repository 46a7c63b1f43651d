//! Every crate's modules import downwards only: the graph of `crate::module`
//! references between its top-level modules has no circle, and a crate's
//! composition root (the core's `server`, the binary's `commands`) is
//! imported by nobody. A circle makes
//! the request path hard to follow and the layers impossible to split; this
//! test names the first one it finds.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a test or benchmark: a failed step is the run failing, and says where"
)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Top-level module → the top-level modules it refers to.
/// The core's graph.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    graph_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

/// Every crate of the workspace, by its folder, and its composition root
/// (the module nobody may import), where it has one.
const CRATES: [(&str, Option<&str>); 9] = [
    (".", None),
    ("engine", None),
    ("entities", None),
    ("migration", None),
    ("core-grpc", Some("server")),
    ("receipt-reader", None),
    ("rest-gateway", None),
    ("cli", Some("commands")),
    ("test-support", None),
];

/// The graph of the top-level modules of the crate whose sources are `src`.
fn graph_of(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    graph_in(src, "")
}

/// The graph of the modules of one folder of a crate (`folder` is its path
/// under `src`, `::`-separated; empty for the crate's top level): which of
/// them refer to which, by `crate::<folder>::<module>`.
fn graph_in(crate_src: &Path, folder: &str) -> BTreeMap<String, BTreeSet<String>> {
    let src =
        folder.split("::").filter(|part| !part.is_empty()).fold(crate_src.to_path_buf(), |at, part| at.join(part));
    let prefix = if folder.is_empty() { "crate::".to_string() } else { format!("crate::{folder}::") };
    let mut files = Vec::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    let module_of = |path: &Path| {
        let relative = path.strip_prefix(&src).unwrap();
        let first = relative.components().next().unwrap().as_os_str().to_string_lossy().to_string();
        first.trim_end_matches(".rs").to_string()
    };
    let modules: BTreeSet<String> =
        files.iter().map(|f| module_of(f)).filter(|m| m != "lib" && m != "main" && m != "mod").collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let from = module_of(file);
        if from == "lib" || from == "mod" {
            continue;
        }
        let text = fs::read_to_string(file).unwrap();
        // Tests may reach anywhere; only the code that ships counts.
        let text = text.split("#[cfg(test)]").next().unwrap_or("");
        let mut refs = BTreeSet::new();
        for (at, _) in text.match_indices(prefix.as_str()) {
            let rest = &text[at + prefix.len()..];
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                refs.insert(name);
            }
            // `use crate::{a, b::c}` names several modules at once.
            if rest.starts_with('{') {
                let group = &rest[1..rest.find('}').unwrap_or(rest.len())];
                for item in group.split(',') {
                    let name: String = item.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                    refs.insert(name);
                }
            }
        }
        let edges = graph.entry(from.clone()).or_default();
        for name in refs {
            if name != from && modules.contains(&name) {
                edges.insert(name);
            }
        }
    }
    graph
}

fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        if let Some(cycle) = visit(node, graph, &mut Vec::new(), &mut done) {
            return Some(cycle);
        }
    }
    None
}

#[test]
fn the_core_has_no_import_circle() {
    let graph = graph();
    assert!(graph.len() > 10, "the scan found the modules: {graph:?}");
    if let Some(cycle) = find_cycle(&graph) {
        panic!("import circle: {}", cycle.join(" -> "));
    }
}

/// The core's layers are folders; inside each, its modules import
/// downwards too.
#[test]
fn no_folder_of_the_core_has_an_import_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut folders = Vec::new();
    let mut stack = vec![String::new()];
    while let Some(folder) = stack.pop() {
        let dir = folder.split("::").filter(|p| !p.is_empty()).fold(src.clone(), |at, part| at.join(part));
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                let name = path.file_name().unwrap().to_string_lossy().to_string();
                let inner = if folder.is_empty() { name } else { format!("{folder}::{name}") };
                stack.push(inner.clone());
                folders.push(inner);
            }
        }
    }
    for layer in ["platform", "services", "background", "layers", "grpc"] {
        assert!(folders.iter().any(|f| f == layer), "the core has a {layer} folder: {folders:?}");
    }
    for folder in &folders {
        let graph = graph_in(&src, folder);
        if let Some(cycle) = find_cycle(&graph) {
            panic!("import circle in core-grpc/src/{folder}: {}", cycle.join(" -> "));
        }
    }
    let services = graph_in(&src, "services");
    assert!(services["hosted_sessions"].contains("providers"), "the scan sees imports inside a folder: {services:?}");
}

#[test]
fn no_crate_of_the_workspace_has_an_import_circle() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut modules = 0;
    for (folder, root) in CRATES {
        let graph = graph_of(&workspace.join(folder).join("src"));
        modules += graph.len();
        if let Some(cycle) = find_cycle(&graph) {
            panic!("import circle in {folder}: {}", cycle.join(" -> "));
        }
        if let Some(root) = root {
            for (module, imports) in &graph {
                assert!(!imports.contains(root), "{folder}: {module} imports the composition root {root}");
            }
        }
    }
    assert!(modules > 40, "the scan found the modules of every crate ({modules})");
}

#[test]
fn the_circle_finder_names_a_planted_circle() {
    let edge = |from: &str, to: &[&str]| (from.to_string(), to.iter().map(|t| t.to_string()).collect());
    let graph: BTreeMap<String, BTreeSet<String>> = [
        edge("settings", &["encryption", "logging"]),
        edge("encryption", &["database"]),
        edge("database", &["settings"]),
        edge("logging", &[]),
    ]
    .into_iter()
    .collect();
    let cycle = find_cycle(&graph).expect("the planted circle");
    for module in ["settings", "encryption", "database"] {
        assert!(cycle.iter().any(|m| m == module), "{cycle:?}");
    }
}

#[test]
fn the_server_is_imported_by_nobody() {
    for (module, imports) in graph() {
        assert!(!imports.contains("server"), "{module} imports the composition root");
    }
}
