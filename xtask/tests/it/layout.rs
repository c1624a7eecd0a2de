//! The layout is the architecture, checked: the ISA-neutral core depends on no instruction set's
//! crate (directly or through another workspace crate: the compiler keeps the seam), no crate has
//! an import circle between its files (`.ci/import_cycles.py`), and every integration test of a
//! crate is one binary (`tests/it/`), beside the few that must run alone.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use serde_json::Value;

use crate::common::{root, text};

/// The instruction sets' crates: models and the harness crates built on them.
const ISA_CRATES: [&str; 5] = ["sfpu-reference", "sfpu-fastpath", "amx-reference", "amx-fastpath", "sfpi"];

/// `cargo metadata` of the workspace's own packages (offline: no network, no sources needed).
fn metadata() -> Value {
    let o = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .current_dir(root())
        .output()
        .expect("cargo metadata");
    assert!(o.status.success(), "{}", text(&o));
    serde_json::from_slice(&o.stdout).expect("cargo metadata's JSON")
}

#[test]
fn the_core_depends_on_no_instruction_set() {
    let m = metadata();
    // Every workspace package's normal dependencies, by name.
    let mut deps: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for p in m["packages"].as_array().unwrap() {
        let names = p["dependencies"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["kind"].is_null())
            .map(|d| d["name"].as_str().unwrap().to_string())
            .collect();
        deps.insert(p["name"].as_str().unwrap().to_string(), names);
    }
    // Everything harness-core reaches through its normal dependencies.
    let mut seen = BTreeSet::new();
    let mut stack = vec!["harness-core".to_string()];
    while let Some(name) = stack.pop() {
        for d in deps.get(&name).into_iter().flatten() {
            if seen.insert(d.clone()) {
                stack.push(d.clone());
            }
        }
    }
    for isa in ISA_CRATES.iter().chain(&["harness-sfpu", "harness-amx"]) {
        assert!(!seen.contains(*isa), "harness-core reaches {isa}: {seen:?}");
    }
    // The check can fail: the command reaches them all.
    assert!(
        deps.contains_key("harness-core") && deps["sfpu-conformance"].contains(&"harness-sfpu".to_string())
    );
}

#[test]
fn no_crate_has_an_import_circle() {
    let mut crates: Vec<String> = Vec::new();
    for group in ["reference", "fastpath", "harness", "examples"] {
        for entry in std::fs::read_dir(root().join(group)).unwrap().flatten() {
            if entry.path().join("Cargo.toml").is_file() {
                crates.push(format!("{group}/{}", entry.file_name().to_string_lossy()));
            }
        }
    }
    crates.extend(["cli", "xtask", "sfpi"].map(String::from));
    crates.sort();
    assert!(crates.len() >= 11, "{crates:?}");
    let o = Command::new("python3")
        .arg(".ci/import_cycles.py")
        .args(&crates)
        .current_dir(root())
        .output()
        .expect("python3 .ci/import_cycles.py");
    assert!(o.status.success(), "import circles:\n{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(out.matches(" 0 cycle(s)").count(), crates.len(), "{out}");
}

/// Each crate's integration tests are one binary (`tests/it/main.rs` where there were several),
/// but for those that must run alone, each saying why in its crate's Cargo.toml: the browser test
/// (its own harness) and the fast model's SIMD levels (a process-wide setting).
#[test]
fn one_integration_test_binary_per_crate() {
    let m = metadata();
    let mut extra = Vec::new();
    for p in m["packages"].as_array().unwrap() {
        let tests: Vec<&str> = p["targets"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["kind"].as_array().unwrap().iter().any(|k| k == "test"))
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        if tests.len() > 1 {
            for t in tests.iter().filter(|t| **t != "it") {
                extra.push(format!("{}: {t}", p["name"].as_str().unwrap()));
            }
        }
    }
    extra.sort();
    assert_eq!(extra, ["harness-sfpu: report_browser", "sfpu-fastpath: simd_levels"]);
}
