//! `cargo xtask conform` on AMX `vecfp`, end to end through the built binary: `--isa amx --chip`
//! narrows the run, every report form has the AMX section, options only the SFPU has are refused
//! with AMX, and `--replay` runs an AMX vector, random class case or stream.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

mod common;
use common::Scratch;

fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask")).args(args).output().expect("run the xtask binary")
}

fn out_dir(name: &str) -> Scratch {
    Scratch(Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("conform_amx_{}_{name}", std::process::id())))
}

#[test]
fn one_amx_chip_in_every_report_form() {
    let dir = out_dir("m3");
    let dir_s = dir.display().to_string();
    // `m3` is the M2 profile.
    let o = xtask(&["conform", "--isa", "amx", "--chip", "m3", "--cases", "2", "--json", "--out", &dir_s]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["format"], "conform-report/3");
    let chips = r["chips"].as_array().unwrap();
    assert_eq!(chips.len(), 1, "only the chip asked for");
    assert_eq!(chips[0]["isa"], "amx");
    assert_eq!(chips[0]["arch"], "m2");
    assert_eq!(chips[0]["corpus"]["format"], "amx-vectors/1");
    assert!(chips[0]["failures"].as_array().unwrap().is_empty());
    // Every class row has a vector run on each model.
    for row in chips[0]["matrix"].as_array().unwrap() {
        if row["instruction"] == "streams" {
            assert_eq!(row["per_model"]["fastpath"]["random_cases"], 32);
            continue;
        }
        assert!(row["per_model"]["fastpath"]["vectors_run"].as_u64().unwrap() >= 1, "{row}");
        assert_eq!(row["per_model"]["fastpath"]["random_cases"], 2, "{row}");
    }
    assert!(r.get("extensions").is_none(), "no SFPU chip: no kernel accuracy");
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(md.starts_with("# AMX conformance report: `m2`"), "{}", &md[..80.min(md.len())]);
    assert!(md.contains("## AMX chip `m2`"));
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains("<h2>AMX chip <code>m2</code></h2>"));
    let junit = std::fs::read_to_string(dir.join("junit.xml")).unwrap();
    assert!(junit.contains("m2/fastpath"), "a JUnit suite per chip and model");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sfpu_only_options_and_unknown_chips_are_refused() {
    for (args, why) in [
        (
            &["conform", "--isa", "amx", "--only", "SFPMAD"][..],
            "--only is an option of the SFPU's checks only",
        ),
        (&["conform", "--chip", "m2", "--arch", "blackhole"][..], "cannot be used with"),
        (&["conform", "--chip", "m5"][..], "neither an SFPU chip"),
        (&["conform", "--isa", "sfpu", "--chip", "m2"][..], "is an AMX chip profile"),
        (&["conform", "--isa", "amx", "--chip", "wormhole"][..], "is an SFPU chip"),
        (&["conform", "--isa", "amx", "--replay", "amx/m2/random/99999/0"][..], "classes, numbered 0 to"),
        (&["conform", "--isa", "amx", "--replay", "m2/no/such/vector"][..], "no AMX vector"),
        (&["conform", "--isa", "amx", "--replay", "amx/m9/random/1"][..], "not an AMX chip profile"),
    ] {
        let o = xtask(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(why), "{args:?}: {err}");
    }
}

#[test]
fn amx_cases_replay() {
    for id in ["m2/named/bf16-double-rounding", "amx/m4/random/5/3", "amx/m1/random/17"] {
        let o = xtask(&["conform", "--replay", id]);
        assert!(o.status.success(), "{id}: {}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(text.starts_with(id), "{id}: {text}");
        assert!(text.contains("reference: pass") && text.contains("fastpath: pass"), "{id}: {text}");
        assert!(text.contains("# regression vector (paste under `vectors:` in vectors/amx/"), "{text}");
        assert!(text.contains("  program:\n  - operand: '0x"), "{text}");
    }
}
