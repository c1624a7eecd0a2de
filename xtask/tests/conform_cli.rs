//! `cargo xtask conform` end to end, through the built binary: the report files, the exit
//! statuses, `--replay`, and an external implementation (`examples/dut-python`) through `--dut`,
//! with a crash, a hang and a garbage answer injected.
//!
//! Expected counts come from the golden-vector corpus itself (loaded here with the library's
//! loader), and from what the example DUT documents it implements: SFPIADD, SFPNOT, SFPXOR and
//! SFPNOP fully, SFPMAD not at all.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;
use sfpu_conformance::vectors::{Filter, load_corpus};
use sfpu_reference::isa::Arch;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .current_dir(repo())
        .output()
        .expect("run the xtask binary")
}

/// A fresh output directory for one test.
fn out_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("conform_{}_{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn text(o: &Output) -> String {
    format!(
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn report(dir: &Path) -> Value {
    let json = std::fs::read_to_string(dir.join("report.json")).expect("report.json written");
    serde_json::from_str(&json).expect("report.json is JSON")
}

/// How many golden vectors `--only NAME` selects.
fn vectors_of(name: &str) -> u64 {
    let corpus = load_corpus(&repo().join("vectors/blackhole"), Arch::Blackhole).expect("the corpus loads");
    let filter = Filter::parse(name);
    corpus.vectors().filter(|(_, v)| filter.selects(v)).count() as u64
}

/// The counts of `model` summed over the matrix rows of `instruction`.
fn cell_sum(r: &Value, instruction: &str, model: &str, field: &str) -> u64 {
    r["matrix"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|row| row["instruction"] == instruction)
        .map(|row| row["per_model"][model][field].as_u64().unwrap_or(0))
        .sum()
}

fn python() -> &'static str {
    if Command::new("python3").arg("--version").output().is_ok_and(|o| o.status.success()) {
        "python3"
    } else {
        panic!("python3 is needed to run the example DUT (examples/dut-python)")
    }
}

#[test]
fn both_models_on_a_subset_write_all_four_files() {
    let dir = out_dir("subset");
    let o = xtask(&[
        "conform",
        "--only",
        "SFPIADD,SFPAND",
        "--cases",
        "150",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    for f in ["report.json", "report.md", "report.html", "junit.xml"] {
        assert!(dir.join(f).is_file(), "{f} not written");
    }
    let r = report(&dir);
    assert_eq!(r["format"], "sfpu-conform-report/1");
    assert_eq!(r["arch"], "blackhole");
    let models: Vec<&str> =
        r["models"].as_array().unwrap().iter().map(|m| m["name"].as_str().unwrap()).collect();
    assert_eq!(models, ["reference", "fastpath"]);
    let expected = vectors_of("SFPIADD") + vectors_of("SFPAND");
    assert!(expected > 0);
    for model in ["reference", "fastpath"] {
        let t = &r["totals"][model];
        assert_eq!(t["vectors_run"].as_u64(), Some(expected), "{model}: {t}");
        assert_eq!(t["passed"].as_u64(), Some(expected), "{model}: {t}");
        assert_eq!(t["failed"].as_u64(), Some(0), "{model}: {t}");
    }
    // --cases makes the campaign exact: 150 per instruction, on the fast model only.
    assert_eq!(r["totals"]["fastpath"]["random_cases"].as_u64(), Some(300));
    assert_eq!(cell_sum(&r, "SFPIADD", "fastpath", "random_cases"), 150);
    assert_eq!(r["failures"].as_array().unwrap().len(), 0);
    // --quiet prints nothing on success.
    assert!(o.stdout.is_empty(), "{}", text(&o));

    // The same run again gives the same matrix (the campaign is seeded and counted).
    let dir2 = out_dir("subset-again");
    let o = xtask(&[
        "conform",
        "--only",
        "SFPIADD,SFPAND",
        "--cases",
        "150",
        "--quiet",
        "--out",
        dir2.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(report(&dir2)["matrix"], r["matrix"]);
}

#[test]
fn json_summary_and_usage_errors() {
    let dir = out_dir("json");
    let o =
        xtask(&["conform", "--only", "SFPNOT", "--budget", "0", "--json", "--out", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let printed: Value = serde_json::from_slice(&o.stdout).expect("--json prints the report");
    assert_eq!(printed["totals"], report(&dir)["totals"]);

    for bad in [
        &["conform", "--only", "SFPNOPE"][..],
        &["conform", "--seed", "0xZZ"],
        &["conform", "--no-such-flag"],
        &["conform", "--dut", "/nonexistent/dut-program", "--only", "SFPNOT"],
        &["conform", "--vectors", "/nonexistent/vectors"],
        &["conform", "--replay", "SFPNOT/no-such-vector"],
    ] {
        let o = xtask(bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", text(&o));
        assert!(!o.stderr.is_empty(), "{bad:?} explains itself");
    }
}

#[test]
fn replay_runs_one_vector_and_prints_a_snippet() {
    let corpus = load_corpus(&repo().join("vectors/blackhole"), Arch::Blackhole).unwrap();
    let v = corpus.vectors().map(|(_, v)| v).find(|v| v.id.starts_with("SFPIADD/")).unwrap();
    let (id, word) = (v.id.clone(), v.program[0].word.0);
    let o = xtask(&["conform", "--replay", &id]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("reference: pass") && out.contains("fastpath: pass"), "{out}");
    assert!(out.contains("TTI_SFPIADD("), "the program in tt-llk form: {out}");
    let snippet = out.split("regressions.yaml):").nth(1).expect("a regression snippet follows");
    assert!(snippet.trim_start().starts_with("- id: regressions/replay/"), "a snippet: {out}");
    assert!(snippet.contains(&format!("{word:#010x}")), "the snippet has the program: {out}");

    // A random case is replayed from its id and the seed.
    let o = xtask(&["conform", "--seed", "7", "--replay", "random/SFPMAD/3"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("TTI_SFPMAD("), "{}", text(&o));
}

/// The example DUT through `--dut`, with faults injected: every vector of the crashing, hanging
/// and garbage-answering instructions is an error of its own (the DUT restarted each time), the
/// instructions it implements still pass, SFPMAD is unsupported, and the run exits 1.
#[test]
fn python_dut_with_a_crash_a_hang_and_garbage() {
    let dir = out_dir("dut-faults");
    let dut = format!(
        "{} examples/dut-python/dut.py --crash-on SFPNOT --hang-on SFPNOP --garbage-on SFPXOR",
        python()
    );
    let o = xtask(&[
        "conform",
        "--dut",
        &dut,
        "--timeout",
        "1",
        "--only",
        "SFPNOT,SFPNOP,SFPXOR,SFPIADD,SFPMAD",
        "--budget",
        "0",
        "--no-fastpath",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let r = report(&dir);
    let models: Vec<&str> =
        r["models"].as_array().unwrap().iter().map(|m| m["name"].as_str().unwrap()).collect();
    assert_eq!(models, ["reference", "dut"]);
    assert_eq!(r["models"][1]["description"], "dut-python 0.1.0");
    for faulty in ["SFPNOT", "SFPNOP", "SFPXOR"] {
        let n = vectors_of(faulty);
        assert!(n > 0);
        assert_eq!(cell_sum(&r, faulty, "dut", "errors"), n, "{faulty}");
        assert_eq!(cell_sum(&r, faulty, "reference", "passed"), n, "{faulty}");
    }
    let iadd = vectors_of("SFPIADD");
    assert_eq!(cell_sum(&r, "SFPIADD", "dut", "passed"), iadd, "the DUT recovers after every fault");
    assert_eq!(cell_sum(&r, "SFPMAD", "dut", "unsupported"), vectors_of("SFPMAD"));
    assert_eq!(cell_sum(&r, "SFPMAD", "dut", "errors"), 0);

    // Each fault is described, and its replay command names the DUT.
    let failures = r["failures"].as_array().unwrap();
    let details_of = |instruction: &str| -> String {
        let f = failures
            .iter()
            .find(|f| f["instruction"] == instruction)
            .unwrap_or_else(|| panic!("{instruction}"));
        assert!(f["replay"].as_str().unwrap().contains("--dut"), "{f}");
        f["details"].as_str().unwrap().to_string()
    };
    let crash = details_of("SFPNOT");
    assert!(crash.contains("exit") || crash.contains("crash"), "{crash}");
    let hang = details_of("SFPNOP");
    assert!(hang.contains("1s") || hang.contains("timeout") || hang.contains("within"), "{hang}");
    let garbage = details_of("SFPXOR");
    assert!(garbage.contains("malformed") || garbage.contains("JSON"), "{garbage}");

    // The JUnit file has the failures too.
    let junit = std::fs::read_to_string(dir.join("junit.xml")).unwrap();
    assert!(junit.contains("<failure") || junit.contains("<error"), "{junit}");
}

/// A seeded random campaign runs through the DUT too.
#[test]
fn python_dut_random_campaign() {
    let dir = out_dir("dut-random");
    let dut = format!("{} examples/dut-python/dut.py", python());
    let o = xtask(&[
        "conform",
        "--dut",
        &dut,
        "--only",
        "SFPIADD,SFPXOR",
        "--cases",
        "40",
        "--no-fastpath",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let r = report(&dir);
    assert_eq!(r["totals"]["dut"]["random_cases"].as_u64(), Some(80));
    assert_eq!(r["totals"]["dut"]["random_failures"].as_u64(), Some(0));
    assert_eq!(r["totals"]["dut"]["errors"].as_u64(), Some(0));
}

/// Several `--dut` flags: each implementation gets its own column, named in command-line order.
#[test]
fn two_duts_side_by_side() {
    let dir = out_dir("two-duts");
    let good = format!("{} examples/dut-python/dut.py", python());
    let crashing = format!("{} examples/dut-python/dut.py --crash-on SFPNOP", python());
    let o = xtask(&[
        "conform",
        "--dut",
        &good,
        "--dut",
        &crashing,
        "--only",
        "SFPIADD,SFPNOP",
        "--budget",
        "0",
        "--no-fastpath",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let r = report(&dir);
    let models: Vec<(&str, &str)> = r["models"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["name"].as_str().unwrap(), m["command"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(models, [("reference", ""), ("dut1", good.as_str()), ("dut2", crashing.as_str())]);
    let (iadd, nop) = (vectors_of("SFPIADD"), vectors_of("SFPNOP"));
    assert_eq!(r["totals"]["dut1"]["passed"].as_u64(), Some(iadd + nop));
    assert_eq!(r["totals"]["dut2"]["passed"].as_u64(), Some(iadd));
    assert_eq!(r["totals"]["dut2"]["errors"].as_u64(), Some(nop));
}
