//! `conform --isa toy` end to end through the command: the report's section, the template DUT,
//! a planted bug found with replay lines that fail again when run as printed, and shards whose
//! merged report is the unsharded one.

use std::process::ExitCode;

use harness_core::dut::process::split_command_line;
use serde_json::Value;

use crate::{command, dut, report, tmp};

/// The report without what differs between runs: the timings, at every level.
fn without_timings(mut v: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                m.remove("timings_ms");
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

#[test]
fn the_toy_has_a_section_and_its_models_agree() {
    let out = tmp("conform");
    let code = command(&["conform", "--isa", "toy", "--quiet", "--out", out.to_str().unwrap()]);
    assert_eq!(code, ExitCode::SUCCESS);
    let r = report(&out);
    let chip = &r["chips"][0];
    assert_eq!((chip["isa"].as_str(), chip["arch"].as_str()), (Some("toy"), Some("t4")));
    assert_eq!(r["chips"].as_array().unwrap().len(), 1, "only the toy");
    // 13 rows of single instructions (12 operations and the reserved codes), 64 cases each by
    // default, and 16 times 64 streams, all on the fast model.
    assert_eq!(chip["campaign"]["cases"], 13 * 64);
    assert_eq!(chip["campaign"]["streams"], 16 * 64);
    let fast = &chip["totals"]["fastpath"];
    assert_eq!(fast["passed"], chip["corpus"]["vectors"]);
    assert_eq!(fast["random_cases"], 13 * 64 + 16 * 64);
    assert_eq!(fast["failed"], 0);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("## TOY chip `t4`"), "{md}");
}

#[test]
fn the_template_dut_passes() {
    let out = tmp("dut");
    let d = dut("");
    let code = command(&[
        "conform",
        "--isa",
        "toy",
        "--cases",
        "4",
        "--dut",
        &d,
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, ExitCode::SUCCESS);
    let r = report(&out);
    let dut = &r["chips"][0]["totals"]["dut"];
    assert_eq!(dut["passed"], r["chips"][0]["corpus"]["vectors"], "{dut}");
    assert_eq!(dut["random_cases"], 13 * 4 + 16 * 4);
    assert_eq!(r["chips"][0]["models"][2]["description"], "toy-dut-python 0.1.0");
}

/// The DUT with MIN compared as signed integers fails exactly MIN's vectors and cases (and
/// programs and streams that use MIN on such operands); each failure's replay line, run as
/// printed, fails again.
#[test]
fn a_planted_bug_is_found_and_each_replay_line_fails_again() {
    let out = tmp("bug");
    let d = dut("--bug");
    let code = command(&[
        "conform",
        "--isa",
        "toy",
        "--cases",
        "8",
        "--dut",
        &d,
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, ExitCode::from(1));
    let r = report(&out);
    let failures = r["chips"][0]["failures"].as_array().unwrap().clone();
    assert!(
        failures.iter().any(|f| f["instruction"] == "MIN" && f["kind"] == "vector"),
        "a MIN vector fails"
    );
    assert!(
        failures.iter().any(|f| f["instruction"] == "MIN" && f["kind"] == "random"),
        "a random MIN case fails"
    );
    for f in &failures {
        assert_eq!(f["model"], "dut");
        assert!(["MIN", "programs", "streams"].contains(&f["instruction"].as_str().unwrap()), "{f}");
        let line = f["replay"].as_str().unwrap();
        assert!(line.starts_with("toy-conform conform --isa toy --chip t4 "), "{line}");
        assert!(line.contains("--dut "), "the replay names the DUT: {line}");
        let words = split_command_line(line).expect("a replay line splits like a shell's");
        let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
        assert_eq!(command(&args), ExitCode::from(1), "{line} passed when run again");
    }
    // Without the DUT, the same replays pass: the failure is the DUT's.
    let id = failures[0]["id"].as_str().unwrap();
    assert_eq!(command(&["conform", "--isa", "toy", "--cases", "8", "--replay", id]), ExitCode::SUCCESS);
}

/// Four shards of a run with the buggy DUT, merged, are the unsharded run's report (apart from
/// the timings).
#[test]
fn merged_shards_are_the_whole_run() {
    let d = dut("--bug");
    let whole = tmp("whole");
    let run = |out: &std::path::Path, shard: Option<&str>| {
        let mut args = vec!["conform", "--isa", "toy", "--cases", "8", "--dut", &d, "--quiet", "--out"];
        args.push(out.to_str().unwrap());
        if let Some(s) = shard {
            args.extend(["--shard", s]);
        }
        command(&args)
    };
    assert_eq!(run(&whole, None), ExitCode::from(1));
    let mut shards = Vec::new();
    for k in 1..=4 {
        let dir = tmp(&format!("shard-{k}"));
        run(&dir, Some(&format!("{k}/4")));
        shards.push(dir);
    }
    let merged = tmp("merged");
    let mut args = vec!["report", "merge", "--out", merged.to_str().unwrap()];
    let names: Vec<String> = shards.iter().map(|s| s.display().to_string()).collect();
    args.extend(names.iter().map(String::as_str));
    assert_eq!(command(&args), ExitCode::from(1), "the merged report fails as the whole run does");
    assert_eq!(without_timings(report(&merged)), without_timings(report(&whole)));
    // Each shard ran a part: fewer vectors than the whole.
    let whole_vectors = report(&whole)["chips"][0]["corpus"]["vectors"].as_u64().unwrap();
    let first = report(&shards[0])["chips"][0]["corpus"]["vectors"].as_u64().unwrap();
    assert!(first > 0 && first < whole_vectors);
}
