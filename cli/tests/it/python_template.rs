//! The template Python DUT (`examples/dut-python/dut.py`), declaring only the baseline features, is
//! sent at least one vector of every Blackhole instruction x mode value but SFPLOADMACRO's (whose
//! vectors all need the LoadMacroConfig feature), asserted from report.json. It implements ten
//! instructions and answers `unsupported` to the rest; those it implements pass.
//! (`--refuse-nothing` keeps it from refusing the other instructions up front.)

use serde_json::Value;

use crate::common::{cli, python, scratch_path, text};

#[test]
fn the_python_template_with_the_baseline_declaration_gets_every_cell() {
    let dut = format!("{} examples/dut-python/dut.py --features '' --refuse-nothing", python());
    let dir = scratch_path("python_template", "baseline");
    let o = cli(&[
        "conform",
        "--chip",
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
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let whole: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    // --chip narrows the report to the Blackhole section.
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
