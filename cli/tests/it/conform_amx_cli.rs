//! `sfpu-conformance conform` on AMX `vecfp`, end to end through the built binary: `--isa amx
//! --chip` narrows the run, every report form has the AMX section, the options that once were the
//! SFPU's alone (`--only`, `--vectors`, `--budget`) apply to AMX too, unknown chips and names are
//! refused, and `--replay` runs an AMX vector, random class case or stream.

use serde_json::Value;

use crate::common::{Scratch, cli, repo, scratch_path, stderr, text};

fn out_dir(name: &str) -> Scratch {
    scratch_path("conform_amx", name)
}

/// The ids of the vectors of `vectors/amx/CHIP.yaml`, read as plain YAML.
fn amx_ids(chip: &str) -> Vec<String> {
    let path = repo().join("vectors/amx").join(format!("{chip}.yaml"));
    let doc: serde_yaml::Value = serde_yaml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["vectors"].as_sequence().unwrap().iter().map(|v| v["id"].as_str().unwrap().to_string()).collect()
}

#[test]
fn one_amx_chip_in_every_report_form() {
    let dir = out_dir("m3");
    let dir_s = dir.display().to_string();
    // `m3` is the M2 profile.
    let o = cli(&["conform", "--isa", "amx", "--chip", "m3", "--cases", "2", "--json", "--out", &dir_s]);
    assert!(o.status.success(), "{}", text(&o));
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["format"], "conform-report/4");
    let chips = r["chips"].as_array().unwrap();
    assert_eq!(chips.len(), 1, "only the chip asked for");
    assert_eq!(chips[0]["isa"], "amx");
    assert_eq!(chips[0]["arch"], "m2");
    assert_eq!(chips[0]["corpus"]["format"], "amx-vectors/1");
    assert_eq!(chips[0]["corpus"]["vectors"].as_u64(), Some(amx_ids("m2").len() as u64), "the whole corpus");
    assert!(chips[0]["failures"].as_array().unwrap().is_empty());
    // The SFPU's parts of a section are not in an AMX one (conform-report/4).
    for key in ["ieee", "spec_notes", "operand_coverage"] {
        assert!(chips[0].get(key).is_none(), "{key}: {}", chips[0][key]);
    }
    // Every class row has a vector run on each model.
    for row in chips[0]["matrix"].as_array().unwrap() {
        if row["instruction"] == "streams" {
            // 2 cases x 16 streams per case.
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
    for part in ["ieee", "spec-notes", "operand-coverage"] {
        assert!(!html.contains(&format!("id=\"m2-{part}\"")), "an SFPU part in an AMX section: m2-{part}");
    }
    let junit = std::fs::read_to_string(dir.join("junit.xml")).unwrap();
    assert!(junit.contains("m2/fastpath"), "a JUnit suite per chip and model");
}

/// `--only` (an AMX axis of classes), `--vectors` (the AMX directory, or the parent `vectors`
/// directory) and `--budget` apply to AMX as to the SFPU.
#[test]
fn only_vectors_and_budget_apply_to_amx() {
    let dir = out_dir("only-source");
    let o = cli(&[
        "conform",
        "--isa",
        "amx",
        "--chip",
        "m2",
        "--only",
        "source",
        "--cases",
        "2",
        "--vectors",
        "vectors/amx",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let r = crate::common::section(&crate::common::whole(&dir), "m2");
    assert!(r["corpus"]["path"].as_str().unwrap().ends_with("vectors/amx/m2.yaml"), "{}", r["corpus"]);
    // The vectors of the source axis (ids `m2/source/...`), and 2 random cases per source class.
    let source = amx_ids("m2").iter().filter(|id| id.starts_with("m2/source/")).count() as u64;
    assert!(source > 0);
    let t = &r["totals"]["fastpath"];
    assert_eq!(t["vectors_run"].as_u64(), Some(source), "{t}");
    assert_eq!(t["passed"].as_u64(), Some(source), "{t}");
    let rows = r["matrix"].as_array().unwrap();
    let source_rows = rows.iter().filter(|row| row["instruction"] == "source").count() as u64;
    assert_eq!(t["random_cases"].as_u64(), Some(2 * source_rows), "{t}");
    for row in rows.iter().filter(|row| row["instruction"] != "source") {
        let c = &row["per_model"]["fastpath"];
        assert_eq!(
            c["vectors_run"].as_u64().unwrap_or(0) + c["random_cases"].as_u64().unwrap_or(0),
            0,
            "{row}"
        );
    }

    // The parent directory: the chips whose vectors it holds (the SFPU's and AMX's); with --isa
    // amx, AMX's.
    let dir = out_dir("parent");
    let o = cli(&[
        "conform",
        "--isa",
        "amx",
        "--vectors",
        "vectors",
        "--budget",
        "0",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let all = crate::common::whole(&dir);
    let archs: Vec<&str> =
        all["chips"].as_array().unwrap().iter().map(|c| c["arch"].as_str().unwrap()).collect();
    assert_eq!(archs, ["m1", "m2", "m4"]);
    for c in all["chips"].as_array().unwrap() {
        let chip = c["arch"].as_str().unwrap();
        assert!(c["corpus"]["path"].as_str().unwrap().ends_with(&format!("vectors/amx/{chip}.yaml")), "{c}");
        assert_eq!(c["corpus"]["vectors"].as_u64(), Some(amx_ids(chip).len() as u64), "{chip}");
        // --budget 0: no campaign.
        assert_eq!(c["campaign"]["cases"], 0, "{chip}: {}", c["campaign"]);
        assert_eq!(c["totals"]["fastpath"]["random_cases"], 0, "{chip}");
    }
}

#[test]
fn unknown_chips_and_names_are_refused() {
    for (args, why) in [
        // An SFPU instruction is no AMX axis.
        (
            &["conform", "--isa", "amx", "--only", "SFPMAD"][..],
            "--only: `SFPMAD` is no instruction, campaign job or matrix row of amx m1, amx m2, amx m4",
        ),
        // --arch is --chip's other name.
        (&["conform", "--chip", "m2", "--arch", "blackhole"][..], "cannot be used multiple times"),
        (
            &["conform", "--chip", "m5"][..],
            "--chip: `m5` is no chip of this harness (sfpu blackhole, sfpu wormhole, amx m1, amx m2, amx m4)",
        ),
        (
            &["conform", "--isa", "sfpu", "--chip", "m2"][..],
            "`m2` is not a chip of sfpu (blackhole, wormhole)",
        ),
        (&["conform", "--isa", "amx", "--chip", "wormhole"][..], "`wormhole` is not a chip of amx (m1, m2"),
        (&["conform", "--isa", "x86"][..], "`x86` is not an instruction set of this harness (sfpu, amx)"),
        // A random case of no job: the message lists the jobs (the axes, then the streams).
        (
            &["conform", "--isa", "amx", "--chip", "m2", "--replay", "random/99999/0"][..],
            "`99999` is not a job of the amx m2 campaign (they are base, source,",
        ),
        // The ids of the random cases of before (`amx/<chip>/random/...`) are no vector either.
        (&["conform", "--isa", "amx", "--replay", "amx/m2/random/99999/0"][..], "no golden vector"),
        (
            &["conform", "--isa", "amx", "--replay", "m2/no/such/vector"][..],
            "no golden vector `m2/no/such/vector`",
        ),
        (
            &["conform", "--isa", "amx", "--chip", "m2", "--replay", "m2/no/such/vector"][..],
            "no amx m2 vector",
        ),
        (
            &["conform", "--isa", "amx", "--chip", "m9", "--replay", "random/streams/1"][..],
            "`m9` is no chip of amx",
        ),
    ] {
        let o = cli(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        let err = stderr(&o);
        assert!(err.contains(why), "{args:?}: {err}");
    }
}

#[test]
fn amx_cases_replay() {
    let path = repo().join("vectors/amx/m2.yaml");
    let doc: serde_yaml::Value = serde_yaml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let vector = doc["vectors"]
        .as_sequence()
        .unwrap()
        .iter()
        .find(|v| v["id"] == "m2/named/bf16-double-rounding")
        .expect("the vector is in vectors/amx/m2.yaml");
    let words = vector["program"].as_sequence().unwrap().len();
    let vector_line = format!("m2/named/bf16-double-rounding on amx m2 ({words} word(s))");
    // A golden vector (found in its chip's corpus without --isa or --chip), a random case of the
    // source axis on M4 (one class's operand), a random stream of 16 operands on M1.
    for (args, first) in [
        (&["--replay", "m2/named/bf16-double-rounding"][..], vector_line.as_str()),
        (
            &["--isa", "amx", "--chip", "m4", "--replay", "random/source/3"][..],
            "random/source/3 on amx m4 (1 word(s))",
        ),
        (
            &["--isa", "amx", "--chip", "m1", "--replay", "random/streams/17"][..],
            "random/streams/17 on amx m1 (16 word(s))",
        ),
    ] {
        let o = cli(&[&["conform"][..], args].concat());
        assert!(o.status.success(), "{args:?}: {}", text(&o));
        let text = crate::common::stdout(&o);
        assert!(text.starts_with(&format!("{first}\n")), "{args:?}: {text}");
        assert!(text.contains("reference: pass") && text.contains("fastpath: pass"), "{args:?}: {text}");
        assert!(text.contains("# regression vector (paste under `vectors:` in vectors/amx/"), "{text}");
        assert!(text.contains("  program:\n  - operand: '0x"), "{text}");
    }
}

/// The template AMX DUT (examples/amx/dut-python) through `--dut`, with a wrong answer injected
/// on its third case: the vectors go one at a time in corpus order (the DUT numbers them 1, 2,
/// ...), so the third `zrow` vector of vectors/amx/m2.yaml fails, and nothing else; its replay
/// line names AMX, the chip and the DUT (as one shell word; the default timeout left out).
#[test]
fn the_amx_template_dut_through_dut() {
    let dir = out_dir("dut");
    let dut = format!("{} examples/amx/dut-python/dut.py --wrong-on-case 3", crate::common::python());
    let o = cli(&[
        "conform",
        "--isa",
        "amx",
        "--chip",
        "m2",
        "--dut",
        &dut,
        "--only",
        "zrow",
        "--cases",
        "1",
        "--no-fastpath",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let r = crate::common::section(&crate::common::whole(&dir), "m2");
    let models: Vec<&str> =
        r["models"].as_array().unwrap().iter().map(|m| m["name"].as_str().unwrap()).collect();
    assert_eq!(models, ["reference", "dut"]);
    let zrow: Vec<String> = amx_ids("m2").into_iter().filter(|id| id.starts_with("m2/zrow/")).collect();
    let rows =
        r["matrix"].as_array().unwrap().iter().filter(|row| row["instruction"] == "zrow").count() as u64;
    let t = &r["totals"]["dut"];
    assert_eq!(t["vectors_run"].as_u64(), Some(zrow.len() as u64), "{t}");
    assert_eq!(t["passed"].as_u64(), Some(zrow.len() as u64 - 1), "{t}");
    assert_eq!(t["failed"].as_u64(), Some(1), "{t}");
    assert_eq!(t["random_cases"].as_u64(), Some(rows), "one per class: {t}");
    assert_eq!(t["random_failures"].as_u64(), Some(0), "{t}");
    let failures = r["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 1, "{failures:?}");
    let f = &failures[0];
    assert_eq!(f["id"], zrow[2].as_str(), "{f}");
    assert_eq!(f["model"], "dut", "{f}");
    assert_eq!(
        f["replay"],
        format!("sfpu-conformance conform --isa amx --chip m2 --dut '{dut}' --replay {}", zrow[2]),
        "{f}"
    );
}

/// An AMX DUT failure's replay line, run as printed, fails the same way: the template DUT
/// answering its first case wrongly fails the first `zrow` vector of M4, and the replay (one case,
/// the DUT's first again) fails it again, naming the DUT's column.
#[test]
fn an_amx_dut_failure_replays_as_printed() {
    let dir = out_dir("replay-dut");
    let dut = format!("{} examples/amx/dut-python/dut.py --wrong-on-case 1", crate::common::python());
    let o = cli(&[
        "conform",
        "--isa",
        "amx",
        "--chip",
        "m4",
        "--dut",
        &dut,
        "--only",
        "zrow",
        "--cases",
        "0",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let r = crate::common::section(&crate::common::whole(&dir), "m4");
    let failures = r["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 1, "{failures:?}");
    let replay = failures[0]["replay"].as_str().unwrap();
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "'{}' {}",
            crate::common::BIN,
            replay.strip_prefix("sfpu-conformance ").expect("the command")
        ))
        .current_dir(repo())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("dut: FAIL") && out.contains("reference: pass"), "{}", text(&o));
}
