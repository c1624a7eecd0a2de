//! The default `conform` report is the report the harness wrote before it was restructured into
//! an ISA-neutral core and a crate per instruction set: the same vectors, cases, counts, cells,
//! failures and verdicts. The test compares a digest of the report with `conform-digest.txt`,
//! that of the report of commit 325f320 (the last before the restructuring) with the SFPU
//! corpora's `format` and `generator` at the current vector format and generator version.
//!
//! The digest is the SHA-256 of the report's JSON made canonical (keys sorted, no spaces) after
//! removing what depends on the run rather than on the harness: every `timings_ms`; `format` and
//! `tool`; each section's `corpus.path` and the location of the specification notes
//! (`spec.notes`, `spec.notes_sha256`); what format 4 added since, derived from the same results
//! (each section's `cases`, `failures_total` and `failure_cap`, each reason's `pattern`); then
//! every empty array or object (format 3 wrote the SFPU's section fields, empty, in every AMX
//! section; format 4 leaves them out).
//!
//! A change that is meant to change the default report (new vectors, another generator version, a
//! fixed model) updates `conform-digest.txt` in the same commit and says so in CHANGELOG.md.

use std::path::Path;

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::common::{default_run, text};

/// `report` without what depends on the run, then without empty containers, keys sorted.
pub fn normalise(report: &mut Value) {
    fn walk(v: &mut Value, depth: usize) {
        match v {
            Value::Object(map) => {
                map.remove("timings_ms");
                if depth == 0 {
                    map.remove("format");
                    map.remove("tool");
                }
                if let Some(Value::Object(corpus)) = map.get_mut("corpus") {
                    corpus.remove("path");
                }
                if let Some(Value::Object(spec)) = map.get_mut("spec") {
                    spec.remove("notes");
                    spec.remove("notes_sha256");
                }
                if map.contains_key("matrix") {
                    for added in ["cases", "failures_total", "failure_cap"] {
                        map.remove(added);
                    }
                }
                if map.contains_key("examples") {
                    map.remove("pattern");
                }
                for child in map.values_mut() {
                    walk(child, depth + 1);
                }
                map.retain(|_, c| {
                    !matches!(c, Value::Object(m) if m.is_empty())
                        && !matches!(c, Value::Array(a) if a.is_empty())
                });
                map.sort_keys();
            }
            Value::Array(items) => items.iter_mut().for_each(|c| walk(c, depth + 1)),
            _ => {}
        }
    }
    walk(report, 0);
}

/// The digest of the report.json in `dir`.
pub fn digest(dir: &Path) -> String {
    let text = std::fs::read_to_string(dir.join("report.json")).expect("report.json");
    let mut report: Value = serde_json::from_str(&text).expect("report.json is JSON");
    normalise(&mut report);
    let canonical = serde_json::to_string(&report).expect("JSON");
    format!("{:x}", Sha256::digest(canonical.as_bytes()))
}

/// The recorded digest.
pub fn recorded() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/conform-digest.txt");
    let text = std::fs::read_to_string(&path).expect("conform-digest.txt");
    text.lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .expect("a digest line")
        .trim()
        .to_string()
}

#[test]
fn the_default_report_is_the_one_before_the_restructuring() {
    let (o, out) = default_run();
    assert!(o.status.success(), "{}", text(o));
    assert_eq!(
        digest(out),
        recorded(),
        "the default report changed (its normalised digest); if that is meant, record the new \
         digest in cli/tests/it/conform-digest.txt and say why in CHANGELOG.md"
    );
}

/// The normalisation keeps what matters: two reports that differ in a count, a vector or a
/// verdict have different digests; in timings, tool or paths alone, the same.
#[test]
fn the_digest_sees_counts_and_ignores_timings() {
    let base = serde_json::json!({
        "format": "conform-report/4", "tool": {"name": "a", "version": "1"}, "timings_ms": {"total": 5},
        "chips": [{"isa": "amx", "arch": "m2", "corpus": {"path": "/x", "vectors": 3}, "ieee": [],
                   "spec": {"notes": "n", "notes_sha256": "", "upstream": "u"},
                   "totals": {"fastpath": {"passed": 3}}, "timings_ms": {"vectors/reference": 2}}]
    });
    let canonical = |mut v: Value| {
        normalise(&mut v);
        serde_json::to_string(&v).unwrap()
    };
    let mut moved = base.clone();
    moved["timings_ms"]["total"] = 99.into();
    moved["tool"]["version"] = "2".into();
    moved["chips"][0]["corpus"]["path"] = "/elsewhere".into();
    moved["chips"][0]["spec"]["notes"] = "other".into();
    moved["chips"][0].as_object_mut().unwrap().remove("ieee");
    assert_eq!(canonical(moved), canonical(base.clone()));
    let mut counted = base.clone();
    counted["chips"][0]["totals"]["fastpath"]["passed"] = 2.into();
    assert_ne!(canonical(counted), canonical(base.clone()));
    let mut upstream = base.clone();
    upstream["chips"][0]["spec"]["upstream"] = "v".into();
    assert_ne!(canonical(upstream), canonical(base));
}
