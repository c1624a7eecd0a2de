//! `cargo xtask bench` end to end, through the built binary: the JSON names every
//! chip and class with figures for both models, both native baselines (with the features they were
//! compiled for), and the targets with their verdicts. Only the
//! shape and positivity of the figures are checked, never their size (no timing assertions).
//!
//! `--in-process` measures the test build as it is, so the test does not build a release xtask.

use std::process::Command;

use serde_json::Value;

use crate::common::{XTASK, xtask};

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

/// `range` is `[lo, hi]` of positive figures with `lo <= value <= hi`: the median of the samples
/// (or a ratio of two medians) lies within the slowest and fastest sample (or the ratio's extremes).
fn within_range(value: &Value, range: &Value, what: &str) {
    let v = positive(value, what);
    let lo = positive(&range[0], &format!("{what}: range lo"));
    let hi = positive(&range[1], &format!("{what}: range hi"));
    assert!(lo <= v * (1.0 + 1e-12) && v <= hi * (1.0 + 1e-12), "{what}: {v} outside [{lo}, {hi}]");
}

const CHIPS: [&str; 2] = ["blackhole", "wormhole"];

/// The SFPI kernels the bench measures without `--kernels`, in the registry's order.
const SFPI_DEFAULT: [&str; 6] = ["exp", "log", "reciprocal", "sigmoid", "gelu_tanh", "relu"];

/// The speed targets, per chip, then the fuzzing one. (The FMA family's is a ratio to the native
/// FMA of the same run, not a rate; the mixed stream's speed-up over the reference is no target.)
fn target_names() -> Vec<String> {
    let mut names = Vec::new();
    for chip in CHIPS {
        for t in ["fma_vs_native", "integer_vs_native", "fp_field_vs_native", "mixed_rate"] {
            names.push(format!("{t}/{chip}"));
        }
    }
    names.push("diff_stream_libfuzzer".to_string());
    names
}

#[test]
fn bench_json_has_every_chip_class_model_and_target() {
    let o = Command::new(XTASK)
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
    let chips = json["chips"].as_array().expect("chips is an array");
    let arches: Vec<&str> = chips.iter().filter_map(|c| c["arch"].as_str()).collect();
    assert_eq!(arches, CHIPS, "both chips by default");
    for chip in chips {
        let classes = chip["classes"].as_array().expect("classes is an array");
        for key in CLASSES {
            let c = classes
                .iter()
                .find(|c| c["class"] == key)
                .unwrap_or_else(|| panic!("class {key} missing from {}", chip["classes"]));
            figures(&c["reference"], &format!("{}.{key}.reference", chip["arch"]));
            figures(&c["fast"], &format!("{}.{key}.fast", chip["arch"]));
            within_range(&c["fast"]["instructions_per_s"], &c["fast_samples_range"], &format!("{key}.fast"));
            positive(&c["speedup"], &format!("{key}.speedup"));
        }
        assert_eq!(classes.len(), CLASSES.len());
        // The FMA kernel alone, the floor of the FMA family's ratio to native: its ratios are
        // the quotients of this run's figures.
        let k = &chip["fma_kernel_alone"];
        figures(&k["fast"], &format!("{}.fma_kernel_alone.fast", chip["arch"]));
        let kernel = k["fast"]["instructions_per_s"].as_f64().unwrap_or(0.0);
        let native = positive(&json["native"]["f32_mul_add"]["instructions_per_s"], "native FMA");
        let fma = classes.iter().find(|c| c["class"] == "fma").map(|c| &c["fast"]["instructions_per_s"]);
        let fma = positive(fma.unwrap_or(&Value::Null), "fast FMA family");
        let close = |a: f64, b: f64| (a / b - 1.0).abs() < 1e-9;
        assert!(close(positive(&k["native_f32_fma_over_kernel"], "native / kernel"), native / kernel), "{k}");
        assert!(close(positive(&k["fma_family_over_kernel"], "family / kernel"), fma / kernel), "{k}");
        // And again with every addend +0.
        let z = &k["zero_addend"];
        figures(&z["fast"], &format!("{}.fma_kernel_alone.zero_addend.fast", chip["arch"]));
        let zero = z["fast"]["instructions_per_s"].as_f64().unwrap_or(0.0);
        assert!(
            close(positive(&z["native_f32_fma_over_kernel"], "native / kernel, c = +0"), native / zero),
            "{z}"
        );
    }
    // The SFPI kernels: the default six on each chip, chip by chip, each a whole tile's program
    // whose figures agree with each other.
    let kernels = json["sfpi_kernels"].as_array().expect("sfpi_kernels is an array");
    let expected: Vec<(&str, &str)> =
        CHIPS.iter().flat_map(|&c| SFPI_DEFAULT.iter().map(move |&k| (c, k))).collect();
    assert_eq!(field_pairs(&json["sfpi_kernels"], "arch", "kernel"), expected);
    let levels = chips[0]["classes"][0]["fast_at_lower_simd_levels"].as_array().map(Vec::len);
    for k in kernels {
        let len = positive(&k["instructions_per_tile"], "instructions_per_tile");
        assert_eq!(len.fract(), 0.0, "{k}");
        let fma = k["fma_family_per_tile"].as_u64().expect("fma_family_per_tile") as f64;
        let nop = k["sfpnop_per_tile"].as_u64().expect("sfpnop_per_tile") as f64;
        assert!(fma + nop <= len, "{k}");
        for model in ["reference", "fast"] {
            let ips = positive(&k[model]["instructions_per_s"], &format!("{k}: {model}"));
            let tiles = positive(&k[model]["tiles_per_s"], &format!("{k}: {model} tiles"));
            assert!((tiles * len / ips - 1.0).abs() < 1e-9, "{k}: {model}");
        }
        within_range(&k["fast"]["instructions_per_s"], &k["fast_samples_range"], &format!("{k}"));
        positive(&k["speedup"], "speedup");
        assert_eq!(k["fast_at_lower_simd_levels"].as_array().map(Vec::len), levels, "{k}");
    }
    figures(&json["native"]["f32_mul_add"], "native.f32_mul_add");
    figures(&json["native"]["u32_wrapping_add"], "native.u32_wrapping_add");
    for key in ["f32_mul_add", "u32_wrapping_add"] {
        let n = &json["native"];
        within_range(&n[key]["instructions_per_s"], &n[format!("{key}_samples_range")], key);
    }
    // The baselines say which instructions they were compiled for.
    let level = json["native"]["level"].as_str().expect("native.level");
    assert!(["Avx512", "Avx2Fma", "Portable"].contains(&level), "{level}");
    assert!(json["native"]["features"].as_str().is_some_and(|f| !f.is_empty()));
    let targets = json["targets"].as_array().expect("targets is an array");
    let names: Vec<&str> = targets.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(names, target_names());
    for t in targets {
        if t["name"] == "diff_stream_libfuzzer" {
            // Measured by `cargo xtask fuzz`, not here: said so, with no figure.
            assert_eq!(t["measured"], false, "{t}");
            assert!(t["met"].is_null() && t["value"].is_null(), "{t}");
            assert!(
                t["not_measured_because"].as_str().is_some_and(|r| r.contains("cargo xtask fuzz")),
                "{t}"
            );
            continue;
        }
        positive(&t["value"], "target value");
        within_range(&t["value"], &t["samples_range"], &format!("target {}", t["name"]));
        if t["name"].as_str().is_some_and(|n| n.starts_with("fma_vs_native")) {
            assert_eq!((t["unit"].as_str(), t["limit"].as_f64()), (Some("ratio"), Some(25.0)), "{t}");
        }
        assert!(t["met"].is_boolean(), "target {t} has no met flag");
        assert_eq!(t["measured"], true, "{t}");
    }
}

#[test]
fn bench_text_names_the_native_features_and_every_verdict() {
    let o = Command::new(XTASK)
        .args([
            "bench",
            "--quiet",
            "--time",
            "0.02",
            "--in-process",
            "--arch",
            "wormhole",
            "--only",
            "integer",
        ])
        .output()
        .expect("run the xtask binary");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "stderr:\n{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("native baselines, compiled for "), "{text}");
    assert!(text.contains("wormhole") && !text.contains("blackhole"), "{text}");
    // No FMA family measured, so no FMA kernel alone either.
    assert!(!text.contains("  (kernel alone)") && !text.contains("FMA kernel alone, "), "{text}");
    assert!(!text.contains("  (kernel, c=+0)") && !text.contains("FMA kernel with c = +0, "), "{text}");
    let targets: Vec<&str> = text.lines().filter(|l| l.contains("(target ")).collect();
    // Four per chip (one chip) and the fuzzing one.
    assert_eq!(targets.len(), 5, "{text}");
    for line in targets {
        assert!(
            line.ends_with("met") || line.ends_with("MISSED") || line.contains("not measured ("),
            "a target line without a verdict: {line}"
        );
    }
}

#[test]
fn bench_rejects_a_bad_time() {
    let o = Command::new(XTASK)
        .args(["bench", "--quiet", "--time", "0", "--in-process"])
        .output()
        .expect("run the xtask binary");
    assert_eq!(o.status.code(), Some(2), "stderr:\n{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--time"));
}

/// Targets `--only` leaves unmeasured are "not measured" (JSON `"met": null`), not `NaNx ...
/// MISSED` or `infx ... MISSED` with `"met": false`.
#[test]
fn targets_left_out_by_only_are_not_measured() {
    let run = |json: bool| {
        let mut args = vec!["bench", "--quiet", "--time", "0.02", "--in-process", "--only", "fma"];
        if json {
            args.push("--json");
        }
        let o = Command::new(XTASK).args(&args).output().expect("run the xtask binary");
        assert!(o.status.success(), "stderr:\n{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let json: Value = serde_json::from_str(&run(true)).expect("JSON");
    let targets = json["targets"].as_array().expect("targets");
    for t in targets {
        let measured = t["name"].as_str().is_some_and(|n| n.starts_with("fma_"));
        assert_eq!(t["measured"], measured, "{t}");
        if measured {
            positive(&t["value"], "fma target value");
            assert!(t["met"].is_boolean(), "{t}");
        } else {
            assert!(t["value"].is_null() && t["met"].is_null(), "an unmeasured target has no figure: {t}");
        }
    }
    let text = run(false);
    assert!(!text.contains("NaN") && !text.contains("inf"), "{text}");
    // Per chip: integer, FP field and mixed rate; and the fuzzing target.
    assert_eq!(text.matches("not measured").count(), 7, "{text}");
    // The FMA family is measured, so is its kernel alone: a row of each chip's table and the
    // floor of its ratio to native.
    assert_eq!(text.matches("  (kernel alone)").count(), 2, "{text}");
    assert_eq!(text.matches("native f32 FMA / FMA kernel alone, ").count(), 2, "{text}");
    assert_eq!(text.matches("  (kernel, c=+0)").count(), 2, "{text}");
    assert_eq!(text.matches("native f32 FMA / FMA kernel with c = +0, ").count(), 2, "{text}");
}

/// The string fields `a` and `b` of each element of the JSON array `v`.
fn field_pairs<'v>(v: &'v Value, a: &str, b: &str) -> Vec<(&'v str, &'v str)> {
    let items = v.as_array().unwrap_or_else(|| panic!("not an array: {v}"));
    items.iter().map(|e| (e[a].as_str().unwrap_or(""), e[b].as_str().unwrap_or(""))).collect()
}

/// `--fast-only`: the fast model's rate of each selected class on each selected chip, in that
/// order, each within its samples' range, and nothing else measured.
#[test]
fn fast_only_reports_each_selected_class() {
    let o = xtask(&[
        "bench",
        "--quiet",
        "--json",
        "--time",
        "0.02",
        "--in-process",
        "--fast-only",
        "--only",
        "fma,integer",
    ]);
    assert!(o.status.success(), "stderr:\n{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["fast_only"], true);
    assert!(v.get("native").is_none() && v.get("targets").is_none(), "{v}");
    let rows = v["results"].as_array().expect("results");
    let keys: Vec<(&str, &str)> =
        rows.iter().map(|r| (r["arch"].as_str().unwrap(), r["class"].as_str().unwrap())).collect();
    // Class order is the bench's (integer before fma), whatever the order of --only.
    assert_eq!(
        keys,
        [("blackhole", "integer"), ("blackhole", "fma"), ("wormhole", "integer"), ("wormhole", "fma")]
    );
    for r in rows {
        within_range(&r["instructions_per_s"], &r["samples_range"], &format!("{r}"));
    }
    assert!(v["indirect_index"].is_null(), "{v}");
}

/// `--indirect-index R` (every lane's `LReg[7]` names register R): said in the output of
/// `--fast-only` and `--ab`, and refused where the targets would be judged on that state.
#[test]
fn indirect_index_is_said_and_kept_from_the_targets() {
    let fast = [
        "bench",
        "--quiet",
        "--time",
        "0.02",
        "--in-process",
        "--only",
        "fma",
        "--arch",
        "wormhole",
        "--indirect-index",
        "5",
    ];
    let o = xtask(&[&fast[..], &["--fast-only", "--json"]].concat());
    assert!(o.status.success(), "stderr:\n{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["indirect_index"], 5, "{v}");
    assert_eq!(v["results"].as_array().map(Vec::len), Some(1), "{v}");
    let o = xtask(&[&fast[..], &["--fast-only"]].concat());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("every lane's LReg[7] names LReg[5]"), "{text}");
    let o = xtask(&[&fast[..], &["--ab", XTASK, "--rounds", "1", "--json"]].concat());
    assert!(o.status.success(), "stderr:\n{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["indirect_index"], 5, "{v}");
    let o = xtask(&fast);
    assert_eq!(o.status.code(), Some(2), "stderr:\n{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("use it with --fast-only or --ab"));
    let o = xtask(&[&fast[..10], &["--indirect-index", "16", "--fast-only"]].concat());
    assert_eq!(o.status.code(), Some(2), "stderr:\n{}", String::from_utf8_lossy(&o.stderr));
}

/// `--kernels` chooses the SFPI kernels (in the registry's order, on the chips `--arch` names);
/// `--only sfpi` measures them alone (no class table), `--fast-only` and `--ab` give each a row
/// `sfpi/<name>` when `--only` names sfpi; a `--kernels` that would measure nothing, or names an
/// unknown kernel, is a usage error.
#[test]
fn sfpi_kernels_are_chosen_by_name() {
    let base = ["bench", "--quiet", "--time", "0.02", "--in-process", "--arch", "wormhole"];
    let only = ["--only", "sfpi", "--kernels", "relu,exp"];
    let o = xtask(&[&base[..], &only, &["--json"]].concat());
    assert!(o.status.success(), "stderr:\n{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(
        field_pairs(&v["sfpi_kernels"], "arch", "kernel"),
        [("wormhole", "exp"), ("wormhole", "relu")]
    );
    assert!(v["chips"].as_array().is_some_and(|c| c.iter().all(|c| c["classes"] == Value::Array(vec![]))));
    let o = xtask(&[&base[..], &only].concat());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "stderr:\n{}", String::from_utf8_lossy(&o.stderr));
    assert!(text.contains("SFPI kernels, 32x32 tile"), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("wormhole exp ") || l.starts_with("wormhole relu ")).count(),
        2
    );
    assert!(!text.contains("reference Mi/s"), "a class table with no class measured:\n{text}");

    let fast = [&base[..], &only, &["--fast-only", "--json"]].concat();
    let o = xtask(&fast);
    assert!(o.status.success(), "stderr:\n{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(
        field_pairs(&v["results"], "class", "title"),
        [("sfpi/exp", "SFPI exp"), ("sfpi/relu", "SFPI relu")]
    );
    let me = XTASK;
    let o = xtask(
        &[&base[..], &["--only", "sfpi", "--kernels", "relu", "--ab", me, "--rounds", "1", "--json"]]
            .concat(),
    );
    assert!(o.status.success(), "stderr:\n{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let rows = v["results"].as_array().expect("results");
    assert_eq!(rows.len(), 1, "{v}");
    assert_eq!(rows[0]["class"], "sfpi/relu", "{v}");
    within_range(&rows[0]["ratio_this_over_baseline"], &rows[0]["ratio_range"], "sfpi/relu");

    for (args, says) in [
        (vec!["--only", "fma", "--kernels", "exp"], "add sfpi to --only"),
        (vec!["--fast-only", "--kernels", "exp"], "when --only names sfpi"),
        (vec!["--only", "sfpi", "--kernels", "exp,nope"], "unknown kernel `nope`"),
    ] {
        let o = xtask(&[&base[..], &args].concat());
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// `--ab` with this binary as its own baseline: one row per class, both builds' rates within
/// their ranges, the ratio within its range; the text names both builds.
#[test]
fn ab_compares_two_builds_round_by_round() {
    let me = XTASK;
    let args = [
        "bench",
        "--quiet",
        "--time",
        "0.02",
        "--in-process",
        "--ab",
        me,
        "--rounds",
        "2",
        "--arch",
        "wormhole",
    ];
    let o = xtask(&[&args[..], &["--json", "--only", "integer,cross_lane"]].concat());
    assert!(o.status.success(), "stderr:\n{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["ab"], true);
    assert_eq!(v["rounds"], 2);
    assert_eq!(v["baseline"], me);
    let rows = v["results"].as_array().expect("results");
    let classes: Vec<&str> = rows.iter().map(|r| r["class"].as_str().unwrap()).collect();
    assert_eq!(classes, ["integer", "cross_lane"]);
    for r in rows {
        assert_eq!(r["arch"], "wormhole");
        within_range(&r["baseline_instructions_per_s"], &r["baseline_range"], &format!("{r}"));
        within_range(&r["this_instructions_per_s"], &r["this_range"], &format!("{r}"));
        within_range(&r["ratio_this_over_baseline"], &r["ratio_range"], &format!("{r}"));
    }
    let o = xtask(&[&args[..], &["--only", "integer"]].concat());
    assert!(o.status.success(), "stderr:\n{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains(&format!("against the baseline ({me})")), "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("wormhole ")).count(), 1, "{text}");
}

/// Bad `--ab` input is a usage error (exit 2) that says what is wrong: a missing baseline, no
/// rounds, `--rounds` without `--ab`, and a baseline that fails or prints something else.
#[test]
fn ab_rejects_bad_input() {
    let check = |args: &[&str], says: &str| {
        let mut all = vec!["bench", "--quiet", "--time", "0.02", "--in-process", "--only", "integer"];
        all.extend_from_slice(args);
        let o = Command::new(XTASK)
            .args(&all)
            .env("SFPU_BENCH_AB_TIMEOUT", "3")
            .output()
            .expect("run the xtask binary");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: stderr:\n{err}");
        assert!(err.contains(says), "{args:?}: stderr does not say {says:?}:\n{err}");
    };
    check(&["--ab", "/nonexistent/xtask-base"], "is not a file");
    check(&["--ab", XTASK, "--rounds", "0"], "--rounds must be 1 to");
    check(&["--rounds", "3"], "--ab");
    check(&["--fast-only", "--ab", XTASK], "cannot be used with");
    check(&["--fast-only", "--only", "amx"], "--fast-only and --ab measure the SFPU fast model only");

    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("xtask-ab-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let script = |name: &str, body: &str| {
            let p = dir.join(name);
            std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
            p.to_string_lossy().into_owned()
        };
        let babbling = script("babbling", "echo 'not JSON at all'");
        check(&["--ab", &babbling], "its output is not JSON");
        let failing = script("failing", "echo 'the baseline broke' >&2; exit 3");
        check(&["--ab", &failing], "the baseline broke");
        // The error names the baseline given, not the run's copy of it.
        check(&["--ab", &failing], &format!("{failing} bench --fast-only"));
        let other = script("other", r#"echo '{"chips": []}'"#);
        check(&["--ab", &other], "not that of `bench --fast-only --json`");
        // 5 MB of output, of which the first megabyte is read: not JSON.
        let flood = script("flood", "yes | head -c 5000000");
        check(&["--ab", &flood], "its output is not JSON");
        // Builds from before the SFPI kernels' rows refuse `--kernels` or `--only sfpi`: said so.
        let old = script("old", r#"echo "error: unexpected argument '--kernels' found" >&2; exit 2"#);
        check(&["--ab", &old, "--only", "sfpi", "--kernels", "exp"], "does not know the SFPI kernels' rows");
        let older =
            script("older", "echo 'Error: --only: unknown class `sfpi` (one of integer)' >&2; exit 2");
        check(&["--ab", &older, "--only", "sfpi"], "does not know the SFPI kernels' rows");
        let hanging = script("hanging", "exec sleep 600");
        check(&["--ab", &hanging], "did not finish in 3 s");
        std::fs::remove_dir_all(&dir).ok();
    }
}

/// `--ab` runs each build from a fresh copy in its own directory under the temporary directory
/// (`TMPDIR`) and removes it at the end, after a complete comparison as after one that Ctrl-C
/// (SIGINT) stopped, which is an error (exit 2) that says so.
#[cfg(unix)]
#[test]
fn ab_runs_copies_and_removes_them() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = std::env::temp_dir().join(format!("xtask-ab-copies-{}", std::process::id()));
    let listing = |dir: &std::path::Path| -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    };
    std::fs::create_dir_all(&tmp).unwrap();
    let base =
        ["bench", "--quiet", "--time", "0.02", "--in-process", "--only", "integer", "--arch", "wormhole"];
    let o = Command::new(XTASK)
        .args(base)
        .args(["--ab", XTASK, "--rounds", "1"])
        .env("TMPDIR", &tmp)
        .output()
        .expect("run the xtask binary");
    assert!(o.status.success(), "stderr:\n{}", String::from_utf8_lossy(&o.stderr));
    assert!(listing(&tmp).is_empty(), "left behind: {:?}", listing(&tmp));

    let hanging = tmp.join("hanging");
    std::fs::write(&hanging, "#!/bin/sh\nexec sleep 600\n").unwrap();
    std::fs::set_permissions(&hanging, std::fs::Permissions::from_mode(0o755)).unwrap();
    let child = Command::new(XTASK)
        .args(base)
        .arg("--ab")
        .arg(&hanging)
        .env("TMPDIR", &tmp)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run the xtask binary");
    // Until the run's copy of the baseline exists (the comparison has started), then Ctrl-C.
    let copy = tmp.join(format!("sfpu-bench-ab-{}", child.id())).join("baseline").join("xtask");
    let start = std::time::Instant::now();
    while !copy.exists() && start.elapsed() < std::time::Duration::from_secs(60) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(copy.exists(), "no copy at {}", copy.display());
    std::thread::sleep(std::time::Duration::from_millis(200));
    let killed = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill");
    assert!(killed.success());
    let o = child.wait_with_output().expect("wait for xtask");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "stderr:\n{err}");
    assert!(err.contains("stopped by SIGINT"), "{err}");
    assert_eq!(listing(&tmp), ["hanging"], "left behind");
    std::fs::remove_dir_all(&tmp).ok();
}
