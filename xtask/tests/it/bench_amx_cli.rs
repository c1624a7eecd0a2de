//! `cargo xtask bench` measures AMX `vecfp`: with `--only amx`, every chip profile's FMA per lane
//! width (four on M1, six on M2 and M4) and the mixed stream, on both models, in the JSON; `--arch`
//! (SFPU chips) leaves AMX out. Figures are not asserted (only that they were measured):
//! performance is for the benchmark, not for tests.

use std::process::Command;

use serde_json::Value;

use crate::common::XTASK;

fn bench(args: &[&str]) -> Value {
    let o = Command::new(XTASK)
        .args(["bench", "--in-process", "--quiet", "--json", "--time", "0.01"])
        .args(args)
        .output()
        .expect("run xtask");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("JSON")
}

#[test]
fn amx_is_measured_per_chip_and_class() {
    let v = bench(&["--only", "amx"]);
    let amx = v["amx"].as_array().unwrap();
    for (chip, classes) in [("M1", 5), ("M2", 7), ("M4", 7)] {
        let of: Vec<&Value> = amx.iter().filter(|r| r["chip"] == chip).collect();
        assert_eq!(of.len(), classes, "{chip}: {of:?}");
        assert!(of.iter().any(|r| r["class"] == "mixed") && of.iter().any(|r| r["class"] == "fma/f64"));
        for r in of {
            for k in ["reference_operands_per_s", "fast_operands_per_s"] {
                assert!(r[k].as_f64().is_some_and(|x| x > 0.0), "{r}");
            }
        }
    }
    assert!(v["chips"].as_array().unwrap().iter().all(|c| c["classes"].as_array().unwrap().is_empty()));
    let sfpu_only = bench(&["--only", "integer", "--arch", "blackhole"]);
    assert!(sfpu_only["amx"].as_array().unwrap().is_empty());
}
