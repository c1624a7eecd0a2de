//! The golden-vector corpus: it passes on the reference model and on the fast model, it is what
//! the generator makes today, it covers every mode of every instruction, and every file validates
//! against the published schema.
//!
//! `SFPU_VECTORS=SFPMAD,-SFPMAD/mod1=NEGATE_VA` filters the corpus run.

use std::path::{Path, PathBuf};

use sfpu_conformance::generate::{DEFAULT_SEED, REGENERATE, modes, render_all};
use sfpu_conformance::vectors::{Filter, Status, Strictness, load_corpus, run_corpus};
use sfpu_conformance::{FastModel, Reference};
use sfpu_reference::isa::{Arch, Opcode};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors/blackhole")
}

fn load() -> sfpu_conformance::vectors::Corpus {
    match load_corpus(&corpus_dir(), Arch::Blackhole) {
        Ok(c) => c,
        Err(errors) => panic!(
            "the corpus does not load:\n{}",
            errors.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n")
        ),
    }
}

/// Every vector passes on the reference model, state and outcome, comparing even the
/// non-contractual parts (the reference models current silicon where the pages describe it).
#[test]
fn reference_passes_every_vector() {
    let corpus = load();
    let results = run_corpus(&Reference, &corpus, &Filter::from_env(), Strictness::Silicon);
    assert!(!results.is_empty(), "no vector selected");
    let failures: Vec<String> = results
        .iter()
        .filter_map(|r| match &r.status {
            Status::Pass => None,
            Status::Fail(f) => Some(f.report.clone()),
            Status::Unsupported(why) | Status::Error(why) => Some(format!("vector {}: {why}", r.id)),
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} vectors fail on the reference model:\n{}",
        failures.len(),
        results.len(),
        failures.iter().take(20).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// Every vector passes on the fast model (`sfpu-fastpath`), state and outcome, with the same
/// strictness as the reference: the golden vectors are the reference's results, so this is the
/// whole corpus as a differential test of the optimised model.
#[test]
fn fast_model_passes_every_vector() {
    let corpus = load();
    let results = run_corpus(&FastModel, &corpus, &Filter::from_env(), Strictness::Silicon);
    assert!(!results.is_empty(), "no vector selected");
    let failures: Vec<String> = results
        .iter()
        .filter_map(|r| match &r.status {
            Status::Pass => None,
            Status::Fail(f) => Some(f.report.clone()),
            Status::Unsupported(why) | Status::Error(why) => Some(format!("vector {}: {why}", r.id)),
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} vectors fail on the fast model:\n{}",
        failures.len(),
        results.len(),
        failures.iter().take(20).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// The checked-in files are exactly what the generator produces (like rust-analyzer's
/// `ensure_file_contents`): a stale corpus fails with a diff and the command that fixes it.
#[test]
fn corpus_is_current() {
    let mut stale = Vec::new();
    for (name, text) in render_all(Arch::Blackhole, DEFAULT_SEED) {
        let path = corpus_dir().join(&name);
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        if on_disk != text {
            let diff = similar::TextDiff::from_lines(&on_disk, &text);
            let shown: Vec<String> = diff
                .unified_diff()
                .context_radius(1)
                .to_string()
                .lines()
                .take(30)
                .map(String::from)
                .collect();
            stale.push(format!("{name}:\n{}", shown.join("\n")));
        }
    }
    assert!(
        stale.is_empty(),
        "{} vector file(s) are stale; run `{REGENERATE}` and commit the result:\n{}",
        stale.len(),
        stale.join("\n")
    );
}

/// Every (instruction, mode value) has at least one vector; the failure lists what is missing.
#[test]
fn every_mode_of_every_instruction_has_vectors() {
    let corpus = load();
    let mut missing = Vec::new();
    for &op in Opcode::ALL {
        for (mode, _) in modes(op) {
            let covered = corpus
                .vectors()
                .any(|(f, v)| f.file == op.name() && v.mode.as_deref() == Some(mode.as_str()));
            if !covered {
                missing.push(format!("{} {mode}", op.name()));
            }
        }
    }
    assert!(missing.is_empty(), "no vectors for:\n{}", missing.join("\n"));
}

/// Every checked-in file validates against `vectors/schema.json`, the schema importers use.
#[test]
fn schema_validates_every_file() {
    let schema_text =
        std::fs::read_to_string(corpus_dir().join("../schema.json")).expect("vectors/schema.json");
    let schema: serde_json::Value = serde_json::from_str(&schema_text).expect("schema.json is JSON");
    let validator = jsonschema::validator_for(&schema).expect("schema.json is a valid JSON Schema");
    let mut errors = Vec::new();
    let mut paths: Vec<PathBuf> =
        std::fs::read_dir(corpus_dir()).unwrap().filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths.iter().filter(|p| p.extension().is_some_and(|x| x == "yaml")) {
        let text = std::fs::read_to_string(path).unwrap();
        let value: serde_json::Value = serde_yaml::from_str(&text).unwrap();
        for e in validator.iter_errors(&value).take(5) {
            errors.push(format!("{}: {} at {}", path.display(), e, e.instance_path));
        }
    }
    assert!(errors.is_empty(), "schema violations:\n{}", errors.join("\n"));
}
