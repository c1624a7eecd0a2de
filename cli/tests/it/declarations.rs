//! DUT declarations, end to end: what a DUT declares decides what it is sent, the baseline
//! alone covers every (instruction, mode value), and a bug in one feature fails the vectors that
//! require that feature and no other.
//!
//! The DUT is `sfpu-conformance reference-dut` (the reference model behind the `sfpu-dut/1`
//! protocol), declaring what each test says, and for the planted bugs running as if one part of
//! the state were at its baseline value, as an implementation without that feature would. A
//! forwarding DUT is used, rather than the partial Python template, because it has no bug of its
//! own: whatever the reports say about it comes from the corpus and the harness alone (the Python
//! template implements ten instructions; its own declaration is tested in conform_cli.rs).

use std::process::Output;
use std::time::Duration;

use harness_sfpu::dut::ExternalModel;
use harness_sfpu::features::Feature;
use harness_sfpu::generate::modes;
use harness_sfpu::vectors::{Filter, Status, Strictness, load_corpus, run_corpus};
use serde_json::Value;
use sfpu_reference::isa::{Arch, Opcode};

use crate::common::{BIN, Scratch, cli, python, reference_dut, repo, scratch_path, text};

/// Part 4's criterion: a DUT declaring only the baseline features runs (and passes) at least one
/// vector of every (instruction, mode value), SFPLOADMACRO's included; the report.json says so,
/// with everything else not applicable, counted by feature.
#[test]
fn a_baseline_only_dut_runs_every_instruction_and_mode() {
    let dir = scratch_path("decl", "baseline");
    let o = cli(&[
        "conform",
        "--chip",
        "blackhole",
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
    let whole: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    let r = &whole["chips"][0];
    assert_eq!(r["arch"], "blackhole");
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
    // Every feature Blackhole has (the SFPSHFT2 latch is Wormhole's).
    for f in Feature::ALL.iter().filter(|&&f| f != Feature::Sfpshft2Latch) {
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
    let mut problems = Vec::new();
    // Every Blackhole feature on the Blackhole corpus, and Wormhole's own (the SFPSHFT2 latch) on
    // the Wormhole corpus.
    let runs = Feature::ALL.iter().map(|&f| match f {
        Feature::Sfpshft2Latch => (Arch::Wormhole, f),
        _ => (Arch::Blackhole, f),
    });
    for (arch, feature) in runs {
        let corpus =
            load_corpus(&repo().join("vectors").join(arch.to_string()), arch).expect("the corpus loads");
        let argv: Vec<String> =
            vec![BIN.into(), "reference-dut".into(), "--ignore".into(), feature.id().into()];
        let dut = ExternalModel::spawn_argv(&argv, arch, Duration::from_secs(30)).expect("the DUT starts");
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

/// The hello names the chip. The reference DUT answers for both chips and passes each; started with
/// `--arch blackhole` it refuses a Wormhole hello and is reported unsupported there (which fails
/// a run of that chip: it compared nothing), and is still checked (and passes) on Blackhole. The Python template's hello names its one chip (`archs`), so
/// it is refused on the other.
#[test]
fn a_dut_may_refuse_one_chip_and_be_checked_on_the_other() {
    // Each run's output directory is returned with its results, to live until the test ends.
    let run = |name: &str, arch: &str, dut: &str| -> (Scratch, Output, Value) {
        let dir = scratch_path("decl", name);
        let o = cli(&[
            "conform",
            "--chip",
            arch,
            "--dut",
            dut,
            "--only",
            "SFPIADD",
            "--cases",
            "1",
            "--no-fastpath",
            "--quiet",
            "--out",
            dir.to_str().unwrap(),
        ]);
        let json = std::fs::read_to_string(dir.join("report.json")).unwrap_or_default();
        let whole: Value = serde_json::from_str(&json).unwrap_or(Value::Null);
        // --chip narrows the report to that chip's section.
        (dir, o, whole["chips"][0].clone())
    };
    for arch in ["blackhole", "wormhole"] {
        let (_dir, o, r) = run(&format!("both-{arch}"), arch, &reference_dut(""));
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        let t = &r["totals"]["dut"];
        assert!(t["passed"].as_u64().unwrap() > 0, "{arch}: {t}");
        assert_eq!(t["unsupported"].as_u64(), Some(0), "{arch}: {t}");
        assert_eq!(t["random_failures"].as_u64(), Some(0), "{arch}: {t}");
    }
    let one_chip = reference_dut("--arch blackhole");
    let (_bh_on_bh, o, r) = run("bh-only-on-bh", "blackhole", &one_chip);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(r["totals"]["dut"]["passed"].as_u64().unwrap() > 0, "{}", r["totals"]);
    // Refused, it compares nothing on the one chip checked: that fails the run
    // (--accept-unchecked would accept it).
    let (_bh_on_wh, o, r) = run("bh-only-on-wh", "wormhole", &one_chip);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let t = &r["totals"]["dut"];
    assert_eq!(t["passed"].as_u64(), Some(0), "{t}");
    assert!(t["unsupported"].as_u64().unwrap() > 0, "{t}");
    let description = r["models"][1]["description"].as_str().unwrap();
    assert!(
        description.contains("refused the hello") && description.contains("blackhole only"),
        "{description}"
    );
    // The Python template claims one chip in its hello: Blackhole by default.
    let template = format!("{} examples/dut-python/dut.py", python());
    let (_python_on_wh, o, r) = run("python-on-wh", "wormhole", &template);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let description = r["models"][1]["description"].as_str().unwrap();
    assert!(description.contains("refused the hello"), "{description}");
}
