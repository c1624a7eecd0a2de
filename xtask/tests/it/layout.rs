//! The layout is the architecture, checked: the ISA-neutral core depends on no instruction set's
//! crate (directly or through another workspace crate: the compiler keeps the seam), no crate has
//! an import circle between its files (`.ci/import_cycles.py`), every integration test of a crate
//! is one binary (`tests/it/`) beside the two with their own harness, the performance figures name their
//! command, commit and host, and the command's build and the test build share their dependencies'
//! features (so the second reuses the first).

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
/// beside two with their own harness, so that a test whose tool is missing is reported ignored,
/// not passed: harness-sfpu's browser test (Chromium) and xtask's fuzzing tests (cargo-fuzz).
/// Tests that need a process of their own start their binary again for it.
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
    assert_eq!(extra, ["harness-sfpu: report_browser", "xtask: fuzz"]);
}

/// The project's performance figures live in one generated file, `docs/performance.md`: written by
/// `cargo xtask bench --write-performance`, naming the command, a commit of this history and the
/// host. (Its figures cannot be regenerated to compare: they are measurements.)
#[test]
fn the_performance_figures_name_their_command_commit_and_host() {
    let page = std::fs::read_to_string(root().join("docs/performance.md")).expect("docs/performance.md");
    assert!(
        page.starts_with("<!-- Generated by `cargo xtask bench --write-performance`: do not edit"),
        "{}",
        &page[..200.min(page.len())]
    );
    let field = |name: &str| {
        page.lines()
            .find_map(|l| l.strip_prefix(&format!("| {name} | ")))
            .unwrap_or_else(|| panic!("no {name} row"))
            .trim_end_matches(" |")
            .to_string()
    };
    assert!(field("Command").starts_with("`cargo xtask bench"), "{}", field("Command"));
    assert!(!field("Host").is_empty());
    let commit = field("Commit");
    let commit = commit.trim_matches('`').split('`').next().unwrap().to_string();
    assert_eq!(commit.len(), 40, "{commit}");
    // The measured commit is in this history (not a commit of another clone); a shallow clone may
    // not hold it, and then only its form is checked.
    let git = |args: &[&str]| Command::new("git").args(args).current_dir(root()).output().expect("git");
    let shallow =
        String::from_utf8_lossy(&git(&["rev-parse", "--is-shallow-repository"]).stdout).trim() == "true";
    if shallow && !git(&["cat-file", "-e", &format!("{commit}^{{commit}}")]).status.success() {
        eprintln!("{commit}: not in this shallow clone; its ancestry is not checked");
        return;
    }
    let o = Command::new("git")
        .args(["merge-base", "--is-ancestor", &commit, "HEAD"])
        .current_dir(root())
        .output()
        .expect("git");
    assert!(o.status.success(), "{commit} is not an ancestor of HEAD: {}", text(&o));
    assert!(page.contains("(target <= 25.00x)"), "the FMA family's target is a ratio");
}

/// The features `cargo tree` resolves for each package reached from `args`, as
/// `name version` -> the distinct feature lists it is built with (a package built for the host
/// and for the target can have two).
fn resolved_features(args: &[&str]) -> BTreeMap<String, BTreeSet<String>> {
    let o = Command::new(env!("CARGO"))
        .args(["tree", "--offline", "--prefix", "none", "--format", "{p}|{f}"])
        .args(args)
        .current_dir(root())
        .output()
        .expect("cargo tree");
    assert!(o.status.success(), "{}", text(&o));
    let mut features: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in String::from_utf8_lossy(&o.stdout).lines() {
        let line = line.trim_end_matches(" (*)");
        let Some((package, list)) = line.split_once('|') else { continue };
        // `name vX.Y.Z (path)` for workspace packages: the name and version identify it.
        let id: String = package.split(' ').take(2).collect::<Vec<_>>().join(" ");
        features.entry(id).or_default().insert(list.to_string());
    }
    features
}

/// The packages two builds share but resolve with different features: each would be compiled
/// twice, and everything above it.
fn feature_splits(a: &[&str], b: &[&str]) -> Vec<String> {
    let (left, right) = (resolved_features(a), resolved_features(b));
    assert!(left.len() > 20 && right.len() > 20, "cargo tree listed too little: {left:?} {right:?}");
    left.iter()
        .filter_map(|(id, f)| {
            let g = right.get(id)?;
            (f != g).then(|| {
                format!("{id}: {f:?} in `cargo tree {}`, {g:?} in `cargo tree {}`", a.join(" "), b.join(" "))
            })
        })
        .collect()
}

/// `cargo xtask conform` builds the command's graph, `cargo test --workspace` adds the
/// dev-dependencies; `.ci/aarch64` builds the fast models' tests and then the command. Every
/// dependency they share resolves to one feature set in both (patches/workspace-hack), so the
/// second build reuses the first instead of compiling serde and everything above it again.
#[test]
fn the_command_and_the_tests_build_dependencies_with_the_same_features() {
    let mut splits =
        feature_splits(&["-p", "xtask", "-e", "normal,build"], &["--workspace", "-e", "normal,build,dev"]);
    splits.extend(feature_splits(
        &["-p", "sfpu-conformance", "-e", "normal,build"],
        &["-p", "sfpu-fastpath", "-p", "amx-fastpath", "-e", "normal,build,dev"],
    ));
    assert!(
        splits.is_empty(),
        "dependencies resolved with two feature sets (add the missing features to patches/workspace-hack/Cargo.toml):\n{}",
        splits.join("\n")
    );
}
