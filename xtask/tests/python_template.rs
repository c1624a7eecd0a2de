//! The template Python DUT (`examples/dut-python/dut.py`), declaring only the baseline features, is
//! sent at least one vector of every Blackhole instruction x mode value but SFPLOADMACRO's (whose
//! vectors all need the LoadMacroConfig feature), asserted from report.json. It implements ten
//! instructions and answers `unsupported` to the rest; those it implements pass.
//! (`--refuse-nothing` keeps it from refusing the other instructions up front.)

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

mod common;
use common::Scratch;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask")).current_dir(repo()).args(args).output().expect("run xtask")
}

#[test]
fn the_python_template_with_the_baseline_declaration_gets_every_cell() {
    let python = if Command::new("python3").arg("--version").output().is_ok() { "python3" } else { "python" };
    let dut = format!("{python} examples/dut-python/dut.py --features '' --refuse-nothing");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("python_template_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let dir = Scratch(dir);
    let o = xtask(&[
        "conform",
        "--arch",
        "blackhole",
        "--dut",
        &dut,
        "--cases",
        "0",
        "--no-fastpath",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    // Unsupported cases are not failures: the run passes.
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let whole: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    // --arch narrows the report (format 2) to the Blackhole section.
    let r = &whole["chips"][0];
    assert_eq!(r["arch"], "blackhole");
    let rows = r["matrix"].as_array().unwrap();
    let mut missing = Vec::new();
    let mut cells = 0;
    for row in rows {
        let op = row["instruction"].as_str().unwrap();
        if !op.starts_with("SFP") || op == "SFPLOADMACRO" {
            continue;
        }
        cells += 1;
        let c = &row["per_model"]["dut"];
        // `vectors_run` counts the vectors sent (passed, failed, unsupported, ...), not the ones
        // the declaration made not applicable.
        let sent = c["vectors_run"].as_u64().unwrap_or(0);
        if sent == 0 {
            missing.push(format!("{op} {}: {c}", row["mode"]));
        }
        let implemented =
            ["SFPLOADI", "SFPIADD", "SFPAND", "SFPOR", "SFPXOR", "SFPNOT", "SFPNOP", "SFPENCC", "SFPSETCC"];
        if implemented.contains(&op) {
            assert!(c["passed"].as_u64().unwrap_or(0) > 0, "{op} {}: {c}", row["mode"]);
            assert_eq!(c["failed"].as_u64(), Some(0), "{op} {}: {c}", row["mode"]);
        }
    }
    assert!(cells > 500, "{cells} instruction x mode cells");
    assert!(missing.is_empty(), "cells the baseline declaration sent no vector of:\n{}", missing.join("\n"));
}
