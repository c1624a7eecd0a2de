//! Issue 14, parts 2 and 4, end to end: what a DUT declares decides what it is sent, the baseline
//! alone covers every (instruction, mode value), and a bug in one feature fails the vectors that
//! require that feature and no other.
//!
//! The DUT is `cargo xtask reference-dut` (the reference model behind the `sfpu-dut/1` protocol),
//! declaring what each test says, and for the planted bugs running as if one part of the state
//! were at its baseline value, as an implementation without that feature would. A forwarding DUT
//! is used, rather than the partial Python template, because it has no bug of its own: whatever
//! the reports say about it comes from the corpus and the harness alone (the Python template
//! implements ten instructions; its own declaration is tested in conform_cli.rs).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use serde_json::Value;
use sfpu_conformance::dut::ExternalModel;
use sfpu_conformance::generate::modes;
use sfpu_conformance::sfpu::features::Feature;
use sfpu_conformance::vectors::{Filter, Status, Strictness, load_corpus, run_corpus};
use sfpu_reference::isa::{Arch, Opcode};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask")).args(args).current_dir(repo()).output().expect("run xtask")
}

fn text(o: &Output) -> String {
    format!(
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The reference DUT's command line, with `args`.
fn reference_dut(args: &str) -> String {
    format!("{} reference-dut {args}", env!("CARGO_BIN_EXE_xtask"))
}

/// Part 4's criterion: a DUT declaring only the baseline features runs (and passes) at least one
/// vector of every (instruction, mode value), SFPLOADMACRO's included; the report.json says so,
/// with everything else not applicable, counted by feature.
#[test]
fn a_baseline_only_dut_runs_every_instruction_and_mode() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("decl_{}_baseline", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let o = xtask(&[
        "conform",
        "--dut",
        &reference_dut("--features ''"),
        "--cases",
        "1",
        "--no-fastpath",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let r: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    let mut missing = Vec::new();
    for &op in Opcode::ALL {
        for (mode, _) in modes(op) {
            let row = r["matrix"]
                .as_array()
                .unwrap()
                .iter()
                .find(|row| row["instruction"] == op.name() && row["mode"] == mode.as_str())
                .unwrap_or_else(|| panic!("no matrix row for {} {mode}", op.name()));
            let c = &row["per_model"]["dut"];
            if c["passed"].as_u64().unwrap_or(0) == 0 {
                missing.push(format!("{} {mode}: {c}", op.name()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "cells where the baseline-only DUT passed no vector:\n{}",
        missing.join("\n")
    );
    let cov = r["coverage"].as_array().unwrap().iter().find(|c| c["model"] == "dut").unwrap();
    assert_eq!(cov["unsupported"].as_u64(), Some(0), "{cov}");
    assert_eq!(cov["compared"], cov["applicable"], "{cov}");
    assert!(cov["not_applicable"].as_u64().unwrap() > 0, "{cov}");
    let by = cov["not_applicable_by_feature"].as_object().unwrap();
    for f in Feature::ALL {
        assert!(
            by.get(f.id()).and_then(Value::as_u64).unwrap_or(0) > 0,
            "no vector not applicable for {f}: {cov}"
        );
    }
    assert_eq!(r["models"][1]["declaration"], "models the baseline only");
}

/// Part 2's criterion: for every feature, a DUT with a bug in exactly that feature fails at least
/// one vector, and every vector it fails requires that feature. The DUT declares everything, so
/// the whole corpus is sent to it.
#[test]
fn a_bug_in_one_feature_fails_only_the_vectors_that_require_it() {
    let corpus = load_corpus(&repo().join("vectors/blackhole"), Arch::Blackhole).expect("the corpus loads");
    let mut problems = Vec::new();
    for &feature in Feature::ALL {
        let argv: Vec<String> = vec![
            env!("CARGO_BIN_EXE_xtask").into(),
            "reference-dut".into(),
            "--ignore".into(),
            feature.id().into(),
        ];
        let dut = ExternalModel::spawn_argv(&argv, Arch::Blackhole, Duration::from_secs(30))
            .expect("the DUT starts");
        let results = run_corpus(&dut, &corpus, &Filter::default(), Strictness::Silicon);
        let requires: std::collections::HashMap<&str, bool> =
            corpus.vectors().map(|(_, v)| (v.id.as_str(), v.required().contains(feature))).collect();
        let mut failed = 0;
        for r in &results {
            match &r.status {
                Status::Pass => {}
                Status::Fail(_) => {
                    failed += 1;
                    if !requires[r.id.as_str()] {
                        problems
                            .push(format!("ignoring {feature} fails {}, which does not require it", r.id));
                    }
                }
                other => problems.push(format!("ignoring {feature}: {} is {other:?}", r.id)),
            }
        }
        if failed == 0 {
            problems.push(format!("ignoring {feature} fails no vector"));
        }
    }
    assert!(problems.is_empty(), "{}", problems[..problems.len().min(30)].join("\n"));
}
