//! `cargo xtask bench` end to end, through the built binary: the JSON names every instruction
//! class with figures for both models, both native baselines, and the three targets. Only the
//! shape and positivity of the figures are checked, never their size (no timing assertions).
//!
//! `--in-process` measures the test build as it is, so the test does not build a release xtask.

use std::process::Command;

use serde_json::Value;

const CLASSES: [&str; 8] =
    ["integer", "fp_field", "fma", "conversion", "cross_lane", "predication", "loadmacro", "mixed"];

fn positive(v: &Value, what: &str) -> f64 {
    let x = v.as_f64().unwrap_or_else(|| panic!("{what} is not a number: {v}"));
    assert!(x.is_finite() && x > 0.0, "{what} is not a positive figure: {x}");
    x
}

fn figures(v: &Value, what: &str) {
    let ips = positive(&v["instructions_per_s"], &format!("{what}.instructions_per_s"));
    let lanes = positive(&v["lane_ops_per_s"], &format!("{what}.lane_ops_per_s"));
    // 32 lanes per instruction, by definition.
    assert!((lanes / ips - 32.0).abs() < 1e-9, "{what}: lane-ops/s is not 32 x instructions/s");
}

#[test]
fn bench_json_has_every_class_model_and_target() {
    let o = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["bench", "--quiet", "--json", "--time", "0.05", "--in-process"])
        .output()
        .expect("run the xtask binary");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "status {:?}\nstdout:\n{stdout}\nstderr:\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    let json: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{stdout}"));
    let classes = json["classes"].as_array().expect("classes is an array");
    for key in CLASSES {
        let c = classes
            .iter()
            .find(|c| c["class"] == key)
            .unwrap_or_else(|| panic!("class {key} missing from {}", json["classes"]));
        figures(&c["reference"], &format!("{key}.reference"));
        figures(&c["fast"], &format!("{key}.fast"));
        positive(&c["speedup"], &format!("{key}.speedup"));
    }
    assert_eq!(classes.len(), CLASSES.len());
    figures(&json["native"]["f32_mul_add"], "native.f32_mul_add");
    figures(&json["native"]["u32_wrapping_add"], "native.u32_wrapping_add");
    let targets = json["targets"].as_array().expect("targets is an array");
    let names: Vec<&str> = targets.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(names, ["mixed_speedup", "fma_vs_native", "integer_vs_native"]);
    for t in targets {
        positive(&t["ratio"], "target ratio");
        assert!(t["met"].is_boolean(), "target {t} has no met flag");
    }
}

#[test]
fn bench_rejects_a_bad_time() {
    let o = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["bench", "--quiet", "--time", "0", "--in-process"])
        .output()
        .expect("run the xtask binary");
    assert_eq!(o.status.code(), Some(2), "stderr:\n{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--time"));
}

/// Issue 13: `--only fma` printed `NaNx ... MISSED` and `infx ... MISSED` for the targets it did
/// not measure, and the JSON said `"met": false`. Unmeasured targets are "not measured".
#[test]
fn targets_left_out_by_only_are_not_measured() {
    let run = |json: bool| {
        let mut args = vec!["bench", "--quiet", "--time", "0.02", "--in-process", "--only", "fma"];
        if json {
            args.push("--json");
        }
        let o = Command::new(env!("CARGO_BIN_EXE_xtask")).args(&args).output().expect("run the xtask binary");
        assert!(o.status.success(), "stderr:\n{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let json: Value = serde_json::from_str(&run(true)).expect("JSON");
    let targets = json["targets"].as_array().expect("targets");
    for t in targets {
        let measured = t["name"] == "fma_vs_native";
        assert_eq!(t["measured"], measured, "{t}");
        if measured {
            positive(&t["ratio"], "fma_vs_native ratio");
            assert!(t["met"].is_boolean(), "{t}");
        } else {
            assert!(t["ratio"].is_null() && t["met"].is_null(), "an unmeasured target has no figure: {t}");
        }
    }
    let text = run(false);
    assert!(!text.contains("NaN") && !text.contains("inf"), "{text}");
    assert_eq!(text.matches("not measured").count(), 2, "{text}");
}
