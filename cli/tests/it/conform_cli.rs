//! `sfpu-conformance conform` end to end, through the built binary: the report files, the exit
//! statuses, `--replay`, and an external implementation (`examples/dut-python`) through `--dut`,
//! with crashes, hangs, garbage and wrong answers injected, a DUT given up on, a DUT that declines
//! everything and one that refuses the hello.
//!
//! Expected counts come from the golden-vector files themselves (read here as plain YAML, not
//! with the library's loader or filter: `--only NAME` runs the vectors of `NAME.yaml`; the
//! built-in corpus is the same as `vectors/`), and from what the example DUT documents it
//! implements: SFPIADD, SFPNOT, SFPXOR and SFPNOP fully, SFPMAD not at all. The DUT receives the
//! vectors one at a time in corpus order (files by name), its cases numbered `1`, `2`, ...
//! (docs/dut-protocol.md), which the case-id faults rely on.

use std::process::Command;

use serde_json::Value;

use crate::common::{
    BIN, Scratch, blackhole as report, cell_sum, cli, default_run, ids_of, python, repo, section, text,
    vectors_of, whole,
};

/// A fresh output directory for one test.
fn out_dir(name: &str) -> Scratch {
    crate::common::scratch_path("conform", name)
}

/// The ids of the failures of `model` in the report.
fn failure_ids(r: &Value, model: &str) -> Vec<String> {
    r["failures"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["model"] == model)
        .map(|f| f["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn both_models_on_a_subset_write_all_four_files() {
    let dir = out_dir("subset");
    let o = cli(&[
        "conform",
        "--arch",
        "blackhole",
        "--only",
        "SFPIADD,SFPAND",
        "--cases",
        "10",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    for f in ["report.json", "report.md", "report.html", "junit.xml"] {
        assert!(dir.join(f).is_file(), "{f} not written");
    }
    let all = whole(&dir);
    assert_eq!(all["format"], "conform-report/4");
    assert_eq!(
        all["chips"].as_array().unwrap().len(),
        1,
        "--arch (--chip's alias) narrows the report to one section"
    );
    let r = report(&dir);
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
    // --cases makes the campaign exact: 10 per instruction and mode value (16 of each), on the
    // fast model only.
    assert_eq!(r["totals"]["fastpath"]["random_cases"].as_u64(), Some(320));
    assert_eq!(cell_sum(&r, "SFPIADD", "fastpath", "random_cases"), 160);
    assert!(
        r["matrix"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|row| row["instruction"] == "SFPAND")
            .all(|row| row["per_model"]["fastpath"]["random_cases"] == 10),
        "every mode value gets its 10"
    );
    assert_eq!(r["campaign"]["cases_per_mode"], 10);
    assert_eq!(r["campaign"]["budget_ms"], 0);
    assert_eq!(r["failures"].as_array().unwrap().len(), 0);
    // --quiet prints nothing on success.
    assert!(o.stdout.is_empty(), "{}", text(&o));

    // The same run again gives the same matrix (the campaign is seeded and counted).
    let dir2 = out_dir("subset-again");
    let o = cli(&[
        "conform",
        "--chip",
        "blackhole",
        "--only",
        "SFPIADD,SFPAND",
        "--cases",
        "10",
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
    let o = cli(&["conform", "--only", "SFPNOT", "--budget", "0", "--json", "--out", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let printed: Value = serde_json::from_slice(&o.stdout).expect("--json prints the report");
    // SFPNOT is on both chips: both are checked.
    for arch in ["blackhole", "wormhole"] {
        assert_eq!(section(&printed, arch)["totals"], section(&whole(&dir), arch)["totals"]);
    }

    for bad in [
        &["conform", "--only", "SFPNOPE"][..],
        &["conform", "--seed", "0xZZ"],
        &["conform", "--no-such-flag"],
        &["conform", "--dut", "/nonexistent/dut-program", "--only", "SFPNOT"],
        &["conform", "--vectors", "/nonexistent/vectors"],
        &["conform", "--replay", "SFPNOT/no-such-vector"],
        &["conform", "--timeout", "0", "--only", "SFPNOT"],
        &["conform", "--timeout", "-1", "--only", "SFPNOT"],
    ] {
        let o = cli(bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", text(&o));
        assert!(!o.stderr.is_empty(), "{bad:?} explains itself");
    }
}

#[test]
fn replay_runs_one_vector_and_prints_a_snippet() {
    let yaml = std::fs::read_to_string(repo().join("vectors/blackhole/SFPIADD.yaml")).unwrap();
    let doc: serde_yaml::Value = serde_yaml::from_str(&yaml).unwrap();
    let v = &doc["vectors"][0];
    let id = v["id"].as_str().unwrap().to_string();
    let word = match &v["program"][0]["word"] {
        serde_yaml::Value::Number(n) => n.as_u64().unwrap() as u32,
        serde_yaml::Value::String(s) => u32::from_str_radix(s.trim_start_matches("0x"), 16).unwrap(),
        other => panic!("{other:?}"),
    };
    let words = v["program"].as_sequence().expect("a program").len();
    // Without --isa and --chip: the first chip whose corpus has the vector, Blackhole's.
    let o = cli(&["conform", "--replay", &id]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.starts_with(&format!("{id} on sfpu blackhole ({words} word(s))\n")), "{out}");
    assert!(out.contains("reference: pass") && out.contains("fastpath: pass"), "{out}");
    assert!(out.contains("TTI_SFPIADD("), "the program in tt-llk form: {out}");
    let snippet = out.split("regressions.yaml):").nth(1).expect("a regression snippet follows");
    assert!(snippet.trim_start().starts_with("- id: regressions/replay/"), "a snippet: {out}");
    assert!(snippet.contains(&format!("{word:#010x}")), "the snippet has the program: {out}");

    // A random case is replayed from its id and the seed (on the first instruction set's first
    // chip when neither is named).
    let o = cli(&["conform", "--seed", "7", "--replay", "random/SFPMAD/3"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.starts_with("random/SFPMAD/3 on sfpu blackhole ("), "{out}");
    assert!(out.contains("TTI_SFPMAD("), "{out}");

    // On Wormhole (--arch, --chip's alias, names the chip): its corpus, and a snippet for its
    // regressions file. The first line names the instruction set and the chip.
    let yaml = std::fs::read_to_string(repo().join("vectors/wormhole/SFPIADD.yaml")).unwrap();
    let doc: serde_yaml::Value = serde_yaml::from_str(&yaml).unwrap();
    let id = doc["vectors"][0]["id"].as_str().unwrap().to_string();
    let words = doc["vectors"][0]["program"].as_sequence().expect("a program").len();
    let o = cli(&["conform", "--arch", "wormhole", "--replay", &id]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.starts_with(&format!("{id} on sfpu wormhole ({words} word(s))\n")), "{out}");
    assert!(out.contains("paste under `vectors:` in vectors/wormhole/regressions.yaml"), "{out}");
    let o = cli(&["conform", "--arch", "wormhole", "--seed", "7", "--replay", "random/SFPMAD/3"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).starts_with("random/SFPMAD/3 on sfpu wormhole ("),
        "{}",
        text(&o)
    );
}

/// The example DUT through `--dut`, with a crash, a hang and a garbage answer injected on
/// chosen cases: each is an error of its own case (the DUT restarted each time), and the case
/// right after each fault passes, as does every other case the DUT implements; SFPMAD, which its
/// hello refuses up front, is not applicable (never sent); the run exits 1.
#[test]
fn python_dut_recovers_after_each_fault() {
    let dir = out_dir("dut-faults");
    // The order the DUT receives the vectors in: files by name, vectors in file order; SFPMAD's
    // are not sent (the DUT refuses SFPMAD in its hello).
    let files = ["SFPIADD", "SFPMAD", "SFPNOT", "SFPXOR"];
    let order: Vec<String> = ["SFPIADD", "SFPNOT", "SFPXOR"].iter().flat_map(|f| ids_of(f)).collect();
    let first_not = vectors_of("SFPIADD") as usize; // 0-based
    // Case ids are 1-based: the crash and the hang among the SFPIADD vectors, the garbage on the
    // first SFPNOT vector.
    let (crash, hang, garbage) = (5usize, 60usize, first_not + 1);
    assert!(hang < first_not && order[garbage - 1].starts_with("SFPNOT/"), "{:?}", &order[..3]);
    let dut = format!(
        "{} examples/dut-python/dut.py --crash-on-case {crash} --hang-on-case {hang} --garbage-on-case {garbage}",
        python()
    );
    let o = cli(&[
        "conform",
        "--chip",
        "blackhole",
        "--dut",
        &dut,
        "--timeout",
        "1",
        "--only",
        &files.join(","),
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

    // Exactly the three faulty cases failed, each as an error.
    let mut failed = failure_ids(&r, "dut");
    failed.sort();
    let mut faulty = vec![order[crash - 1].clone(), order[hang - 1].clone(), order[garbage - 1].clone()];
    faulty.sort();
    assert_eq!(failed, faulty);
    let t = &r["totals"]["dut"];
    assert_eq!(t["errors"].as_u64(), Some(3), "{t}");
    assert_eq!(t["failed"].as_u64(), Some(0), "{t}");
    // Everything else the DUT implements passed, the case after each fault included.
    for after in [crash, hang, garbage] {
        let next = &order[after]; // the case numbered after + 1
        assert!(!failed.contains(next), "{next} after a fault");
    }
    let implemented = vectors_of("SFPIADD") + vectors_of("SFPNOT") + vectors_of("SFPXOR");
    assert_eq!(t["passed"].as_u64(), Some(implemented - 3), "{t}");
    assert_eq!(cell_sum(&r, "SFPNOT", "dut", "passed"), vectors_of("SFPNOT") - 1);
    assert_eq!(cell_sum(&r, "SFPMAD", "dut", "not_applicable"), vectors_of("SFPMAD"));
    assert_eq!(cell_sum(&r, "SFPMAD", "dut", "vectors_run"), 0);
    assert_eq!(cell_sum(&r, "SFPMAD", "dut", "errors"), 0);

    // Each fault is described, and its replay command names the DUT with its timeout (not the
    // default 10 s), and no seed (a vector is not a random case).
    let failures = r["failures"].as_array().unwrap();
    let details_of = |id: &str| -> String {
        let f = failures.iter().find(|f| f["id"] == id).unwrap_or_else(|| panic!("{id}"));
        assert_eq!(f["kind"], "error", "{f}");
        assert_eq!(
            f["replay"],
            format!(
                "sfpu-conformance conform --isa sfpu --chip blackhole --dut '{dut}' --timeout 1 --replay {id}"
            ),
            "{f}"
        );
        f["details"].as_str().unwrap().to_string()
    };
    let crashed = details_of(&order[crash - 1]);
    assert!(
        crashed.contains(&format!("crashed (exit status: 3) before answering case `{crash}`")),
        "{crashed}"
    );
    let hung = details_of(&order[hang - 1]);
    assert!(hung.contains(&format!("timeout after 1s waiting for case `{hang}`")), "{hung}");
    let garbled = details_of(&order[garbage - 1]);
    assert!(garbled.contains("malformed answer: not JSON"), "{garbled}");

    // The JUnit file has the errors too.
    let junit = std::fs::read_to_string(dir.join("junit.xml")).unwrap();
    assert!(junit.contains("<error"), "{junit}");
    assert!(!junit.contains("No failure was recorded"), "{junit}");
}

/// A DUT that hangs on every case of an instruction is given up on after three timeouts in a
/// row: the rest of that instruction's cases, and every later one, fail at once with the reason;
/// what passed before is kept, and the random campaign stops at once on each instruction.
#[test]
fn python_dut_given_up_after_consecutive_timeouts() {
    let dir = out_dir("dut-give-up");
    let dut = format!("{} examples/dut-python/dut.py --hang-on SFPNOP", python());
    let started = std::time::Instant::now();
    let o = cli(&[
        "conform",
        "--chip",
        "blackhole",
        "--dut",
        &dut,
        "--timeout",
        "1",
        "--only",
        "SFPIADD,SFPNOP,SFPNOT",
        "--budget",
        "200",
        "--no-fastpath",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(started.elapsed() < std::time::Duration::from_secs(60), "took {:?}", started.elapsed());
    let r = report(&dir);
    let (iadd, nop, not) = (vectors_of("SFPIADD"), vectors_of("SFPNOP"), vectors_of("SFPNOT"));
    assert!(nop > 3, "SFPNOP has {nop} vectors");
    assert_eq!(cell_sum(&r, "SFPIADD", "dut", "passed"), iadd, "computed before the hangs");
    assert_eq!(cell_sum(&r, "SFPNOP", "dut", "errors"), nop);
    assert_eq!(cell_sum(&r, "SFPNOT", "dut", "errors"), not);
    // One random case per instruction found the DUT given up on, then that instruction stopped.
    // Each is an error (the DUT did not run it), not a divergence.
    let t = &r["totals"]["dut"];
    assert_eq!(t["random_errors"].as_u64(), Some(3), "{t}");
    assert_eq!(t["random_failures"].as_u64(), Some(0), "{t}");
    assert_eq!(t["random_cases"].as_u64(), Some(3), "{t}");
    let failures = r["failures"].as_array().unwrap();
    let details: Vec<&str> = failures.iter().map(|f| f["details"].as_str().unwrap()).collect();
    let timeouts = details.iter().filter(|d| d.contains("timeout after 1s")).count();
    assert!(timeouts >= 3, "{details:#?}");
    let given_up: Vec<&&str> =
        details.iter().filter(|d| d.contains("given up on after 3 consecutive timeouts")).collect();
    assert!(!given_up.is_empty(), "{details:#?}");
    assert!(
        failures
            .iter()
            .any(|f| f["instruction"] == "SFPNOT" && f["details"].as_str().unwrap().contains("given up")),
        "later instructions fail with the reason: {details:#?}"
    );
}

/// A DUT that declares nothing and declines everything, with the default campaign: nothing counts
/// as passed, the declined random cases are counted apart, every cell is unsupported in all four
/// files, the reason is kept and aggregated in every form, and the run fails (exit status 1): a
/// DUT that compared nothing must not pass a CI run.
#[test]
fn python_dut_declining_everything_is_unsupported_not_passed() {
    let dir = out_dir("dut-declines");
    let dut = format!("{} examples/dut-python/dut.py --no-declaration", python());
    let o = cli(&[
        "conform",
        "--chip",
        "blackhole",
        "--dut",
        &dut,
        "--only",
        "SFPMAD",
        "--no-fastpath",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let r = report(&dir);
    assert_eq!(r["campaign"]["cases_per_mode"], 64, "the default count");
    assert_eq!(r["campaign"]["budget_ms"], 0, "not time-budgeted");
    let t = &r["totals"]["dut"];
    let mad = vectors_of("SFPMAD");
    assert_eq!(t["vectors_run"].as_u64(), Some(mad), "{t}");
    assert_eq!(t["unsupported"].as_u64(), Some(mad), "{t}");
    assert_eq!(t["passed"].as_u64(), Some(0), "{t}");
    assert_eq!(t["random_cases"].as_u64(), Some(0), "declined cases are not compared: {t}");
    assert!(t["random_unsupported"].as_u64().unwrap() > 0, "{t}");
    assert_eq!(
        r["campaign"]["cases"], t["random_unsupported"],
        "one model: the campaign's cases are its own"
    );

    // Every SFPMAD cell of the DUT is unsupported in the HTML matrix...
    let page = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let cells: Vec<&str> = page
        .split("<td class=\"cell ")
        .skip(1)
        .map(|c| &c[..c.find('>').unwrap()])
        .filter(|c| c.contains("data-instruction=\"SFPMAD\"") && c.contains("data-model=\"dut\""))
        .collect();
    assert!(!cells.is_empty());
    for c in &cells {
        assert!(c.starts_with("unsupported\""), "{}", &c[..c.len().min(200)]);
    }
    // ...skipped in JUnit (nothing passed in the DUT's suite)...
    let junit = std::fs::read_to_string(dir.join("junit.xml")).unwrap();
    let suite = junit.split("<testsuite name=\"blackhole/dut\" ").nth(1).expect("a dut suite");
    let attrs = &suite[..suite.find('>').unwrap()];
    let number = |name: &str| -> u64 {
        let at = attrs.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        attrs[at..at + attrs[at..].find('"').unwrap()].parse().unwrap()
    };
    assert_eq!(number("skipped"), number("tests"), "{attrs}");
    assert!(suite.contains("unsupported: the model declined every case"), "the reason is given");
    // The run's own suite fails it, so that a CI reading junit.xml sees red.
    assert!(
        junit.contains("<testcase classname=\"conform.blackhole\" name=\"dut compared something\">")
            && junit.contains("type=\"unchecked\""),
        "{junit}"
    );
    // ...and in the Markdown totals.
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(md.contains("| `dut` | 🚫 unsupported |"), "{md}");

    // The DUT's reason, aggregated over vectors and random cases, with example ids, in every form.
    let reason = "SFPMAD is not implemented by dut-python";
    let reasons = r["reasons"].as_array().unwrap();
    let entry =
        reasons.iter().find(|e| e["model"] == "dut" && e["reason"] == reason).expect("the reason is kept");
    assert_eq!(entry["kind"], "unsupported");
    assert_eq!(entry["count"].as_u64(), Some(mad + t["random_unsupported"].as_u64().unwrap()), "{entry}");
    assert_eq!(entry["examples"].as_array().unwrap().len(), 3);
    assert!(md.contains(reason) && page.contains(reason), "report.md and report.html give the reason");
    // Counted by pattern (the instruction's name replaced), the first reason as given beside it.
    assert_eq!(entry["pattern"], "<name> is not implemented by dut-python");
    assert!(
        junit.contains(&format!(
            "<skipped message=\"unsupported: <name> is not implemented by dut-python (e.g. {reason})"
        )) || junit.contains(&format!(
            "<skipped message=\"unsupported: &lt;name&gt; is not implemented by dut-python (e.g. {reason})"
        )),
        "junit.xml gives it as a skipped message"
    );
    assert!(
        md.contains("**Overall: ❌ FAIL: external implementation(s) that compared nothing, by chip"),
        "{md}"
    );
    // The verdict says on how little it rests.
    let verdict = md.lines().find(|l| l.contains("`dut`:")).unwrap_or_default();
    assert!(
        verdict.contains(&format!("0 of {mad} vectors compared (0.0 %), 0 passed; 0 of"))
            && verdict.contains(&format!("{mad} unsupported")),
        "{verdict}"
    );
}

/// The example DUT's own declaration: SFPMAD, which it refuses in its hello, is never sent; its
/// cells are not applicable (not unsupported, not passed) in every form, counted by refusal.
#[test]
fn python_dut_declaration_makes_cases_not_applicable() {
    let dir = out_dir("dut-declares");
    let dut = format!("{} examples/dut-python/dut.py", python());
    let o = cli(&[
        "conform",
        "--chip",
        "blackhole",
        "--dut",
        &dut,
        "--only",
        "SFPMAD,SFPNOT",
        "--cases",
        "2",
        "--no-fastpath",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let r = report(&dir);
    let (mad, not) = (vectors_of("SFPMAD"), vectors_of("SFPNOT"));
    let t = &r["totals"]["dut"];
    assert_eq!(t["not_applicable"].as_u64(), Some(mad), "{t}");
    assert_eq!(t["vectors_run"].as_u64(), Some(not), "{t}");
    assert_eq!(t["passed"].as_u64(), Some(not), "{t}");
    assert_eq!(t["random_not_applicable"].as_u64(), Some(2 * 16), "{t}");
    assert_eq!(t["random_cases"].as_u64(), Some(2), "SFPNOT has one mode value: {t}");
    let cov = r["coverage"].as_array().unwrap().iter().find(|c| c["model"] == "dut").unwrap();
    assert_eq!(cov["not_applicable_by_refusal"]["SFPMAD"].as_u64(), Some(mad), "{cov}");
    assert_eq!(cov["applicable"].as_u64(), Some(not), "{cov}");
    assert_eq!(cov["vectors"].as_u64(), Some(mad + not), "{cov}");
    let declared = r["models"][1]["declaration"].as_str().unwrap();
    assert!(declared.contains("refuses") && declared.contains("SFPMAD"), "{declared}");
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(md.contains(&format!("{not} of {} vectors", mad + not)), "{md}");
    assert!(md.contains("| refuses `SFPMAD` | "), "by refusal: {md}");
    let junit = std::fs::read_to_string(dir.join("junit.xml")).unwrap();
    assert!(
        junit.contains("<skipped message=\"not applicable: the model&apos;s declaration covers no case")
            || junit.contains("<skipped message=\"not applicable: the model's declaration covers no case"),
        "{junit}"
    );
}

/// A DUT that refuses the hello (it claims another architecture) is reported, every case
/// unsupported with its reason, and the run fails (exit status 1) unless `--accept-unchecked`
/// accepts a DUT that compared nothing (docs/dut-protocol.md).
#[test]
fn python_dut_refusing_the_hello_is_reported_unsupported() {
    let dir = out_dir("dut-refuses");
    let dut = format!("{} examples/dut-python/dut.py --arch wormhole", python());
    let run = |extra: &[&str]| {
        cli(&[
            &[
                "conform",
                "--chip",
                "blackhole",
                "--dut",
                &dut,
                "--only",
                "SFPIADD",
                "--no-fastpath",
                "--out",
                dir.to_str().unwrap(),
            ][..],
            extra,
        ]
        .concat())
    };
    let o = run(&[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    let overall = out.lines().find(|l| l.starts_with("overall: ")).unwrap_or_default();
    assert!(
        overall.starts_with(
            "overall: FAIL: external implementation(s) that compared nothing, by chip (--accept-unchecked \
             accepts that): blackhole: dut; dut: blackhole compared nothing ("
        ),
        "{out}"
    );
    let o = run(&["--accept-unchecked"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let r = report(&dir);
    let description = r["models"][1]["description"].as_str().unwrap();
    assert!(
        description.contains("refused the hello") && description.contains("wormhole only"),
        "{description}"
    );
    let t = &r["totals"]["dut"];
    assert_eq!(t["unsupported"].as_u64(), Some(vectors_of("SFPIADD")), "{t}");
    assert_eq!(t["passed"].as_u64(), Some(0), "{t}");
    assert_eq!(t["random_cases"].as_u64(), Some(0), "no campaign on a refused DUT: {t}");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("dut: ") && out.contains("refused the hello"), "the summary says so: {out}");
}

/// A DUT that declares one chip (the example DUT: Blackhole) in a default run, which checks both:
/// it is checked on Blackhole and refused on Wormhole, where every case is unsupported, never
/// failing; a refusal compares nothing, so the run fails (exit status 1) and the overall verdict
/// says so with the DUT's coverage per chip, and JUnit has the run's failing test case.
#[test]
fn python_dut_declaring_one_chip_is_checked_on_it_and_refused_on_the_other() {
    let dir = out_dir("dut-one-chip");
    let dut = format!("{} examples/dut-python/dut.py", python());
    let o = cli(&[
        "conform",
        "--dut",
        &dut,
        "--only",
        "SFPIADD",
        "--cases",
        "1",
        "--no-fastpath",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let all = whole(&dir);
    let bh = section(&all, "blackhole");
    let t = &bh["totals"]["dut"];
    assert_eq!(t["passed"].as_u64(), Some(vectors_of("SFPIADD")), "{t}");
    assert_eq!(t["failed"].as_u64(), Some(0), "{t}");
    let wh = section(&all, "wormhole");
    let description = wh["models"][1]["description"].as_str().unwrap();
    assert!(description.contains("refused the hello"), "{description}");
    let t = &wh["totals"]["dut"];
    assert!(t["unsupported"].as_u64().unwrap() > 0, "{t}");
    assert_eq!(t["unsupported"], t["vectors_run"], "{t}");
    assert_eq!(t["failed"].as_u64(), Some(0), "{t}");
    assert_eq!(t["errors"].as_u64(), Some(0), "{t}");
    for row in wh["matrix"].as_array().unwrap().iter().filter(|r| r["instruction"] == "SFPIADD") {
        let c = &row["per_model"]["dut"];
        assert_eq!(c["unsupported"], c["vectors_run"], "{row}");
    }
    let out = String::from_utf8_lossy(&o.stdout);
    let iadd = vectors_of("SFPIADD");
    // Wormhole's SFPIADD vectors, counted in the file: every one unsupported.
    let wh_iadd = yaml_vectors("wormhole/SFPIADD.yaml");
    assert_eq!(t["vectors_run"].as_u64(), Some(wh_iadd), "{t}");
    let expected = format!(
        "overall: FAIL: external implementation(s) that compared nothing, by chip (--accept-unchecked \
         accepts that): wormhole: dut; dut: blackhole {iadd} of {iadd} vectors compared ({iadd} passed), wormhole compared nothing \
         ({wh_iadd} unsupported)"
    );
    assert!(out.contains(&expected), "{expected}\n{out}");
    let junit = std::fs::read_to_string(dir.join("junit.xml")).unwrap();
    let wh_suite = &junit[junit.find("<testsuite name=\"wormhole/dut\"").expect("a wormhole/dut suite")..];
    let wh_suite = &wh_suite[..wh_suite.find("</testsuite>").unwrap()];
    assert!(wh_suite.contains(" failures=\"0\" errors=\"0\""), "{wh_suite}");
    let run_suite = &junit[junit.find("<testsuite name=\"conform\"").expect("the run's suite")..];
    assert!(run_suite.starts_with("<testsuite name=\"conform\" tests=\"1\" failures=\"1\""), "{run_suite}");
    assert!(
        run_suite.contains("classname=\"conform.wormhole\" name=\"dut compared something\""),
        "{run_suite}"
    );
}

/// A DUT that answers a random case wrongly: the failure is filed under the DUT's column, with a
/// replay command naming the DUT, in all four report files.
#[test]
fn python_dut_random_failure_in_every_report_file() {
    let dir = out_dir("dut-wrong");
    // A corpus without SFPIADD vectors, so that the cell's first failure is a random one.
    let vectors = out_dir("dut-wrong-vectors");
    std::fs::create_dir_all(&vectors).unwrap();
    std::fs::copy(repo().join("vectors/blackhole/SFPNOP.yaml"), vectors.join("SFPNOP.yaml")).unwrap();
    let dut = format!("{} examples/dut-python/dut.py --wrong-on SFPIADD", python());
    let o = cli(&[
        "conform",
        "--chip",
        "blackhole",
        "--dut",
        &dut,
        "--vectors",
        vectors.to_str().unwrap(),
        "--only",
        "SFPIADD",
        "--cases",
        "1",
        "--no-fastpath",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let r = report(&dir);
    let t = &r["totals"]["dut"];
    assert_eq!(t["random_cases"].as_u64(), Some(16), "one per mode value: {t}");
    assert!(t["random_failures"].as_u64().unwrap() > 0, "{t}");
    let failures = r["failures"].as_array().unwrap();
    assert!(!failures.is_empty());
    let seed = r["campaign"]["seed"].as_str().expect("the campaign's seed");
    for f in failures {
        assert_eq!(f["model"], "dut", "filed under the column, not the hello name: {f}");
        assert_eq!(f["kind"], "random", "{f}");
        let replay = f["replay"].as_str().unwrap();
        let id = f["id"].as_str().unwrap();
        assert!(id.starts_with("random/SFPIADD/"), "{f}");
        // The whole command: the installed command's name, the instruction set and the chip,
        // the seed (a random case), the corpus, the DUT as one shell word (it has spaces; the
        // default timeout is left out), the case.
        assert_eq!(
            replay,
            format!(
                "sfpu-conformance conform --isa sfpu --chip blackhole --seed {seed} --vectors {} --dut '{dut}' --replay {id}",
                vectors.display()
            ),
            "{f}"
        );
        assert!(f["snippet"].as_str().unwrap().starts_with("- id: regressions/"), "{f}");
    }
    let replay = failures[0]["replay"].as_str().unwrap();
    let id = failures[0]["id"].as_str().unwrap();
    let target = format!("--replay {id}");
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(md.contains(replay), "report.md has the replay command");
    let page = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(
        page.contains(&target) && page.contains("href=\"#blackhole-failure-1\""),
        "report.html links the failure"
    );
    let junit = std::fs::read_to_string(dir.join("junit.xml")).unwrap();
    assert!(junit.contains(&target), "junit.xml has the replay command");
    assert!(!junit.contains("No failure was recorded"), "{junit}");

    // The replay command reproduces it.
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!("'{BIN}' {}", replay.strip_prefix("sfpu-conformance ").expect("the command first")))
        .current_dir(repo())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("dut: FAIL"), "{}", text(&o));
}

/// A seeded random campaign runs through the DUT too.
#[test]
fn python_dut_random_campaign() {
    let dir = out_dir("dut-random");
    let dut = format!("{} examples/dut-python/dut.py", python());
    let o = cli(&[
        "conform",
        "--chip",
        "blackhole",
        "--dut",
        &dut,
        "--only",
        "SFPIADD,SFPXOR",
        "--cases",
        "5",
        "--no-fastpath",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let r = report(&dir);
    // 5 per mode value: SFPIADD's 16 and SFPXOR's one.
    assert_eq!(r["totals"]["dut"]["random_cases"].as_u64(), Some(85));
    assert_eq!(r["totals"]["dut"]["random_failures"].as_u64(), Some(0));
    assert_eq!(r["totals"]["dut"]["errors"].as_u64(), Some(0));
}

/// Several `--dut` flags: each implementation gets its own column, named in command-line order.
#[test]
fn two_duts_side_by_side() {
    let dir = out_dir("two-duts");
    let good = format!("{} examples/dut-python/dut.py", python());
    let crashing = format!("{} examples/dut-python/dut.py --crash-on SFPNOP", python());
    let o = cli(&[
        "conform",
        "--chip",
        "blackhole",
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
    // The failures name the column, so the two copies of one DUT are told apart.
    assert!(failure_ids(&r, "dut1").is_empty());
    assert_eq!(failure_ids(&r, "dut2").len() as u64, nop, "every error kept");
    assert!(r["failures"].as_array().unwrap().iter().all(|f| f["model"] == "dut2"));
}

/// The default run is deterministic. Two default `sfpu-conformance conform` runs (every vector, the
/// default counted campaign, the IEEE characterisation) write the same report.json apart from the
/// timings.
#[test]
fn two_default_runs_write_the_same_report() {
    // The shared default run, then another (quiet: the report does not depend on it).
    let again = out_dir("default-2");
    let o = cli(&["conform", "--quiet", "--out", again.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let mut reports = Vec::new();
    for dir in [&default_run().1, &again.0] {
        let mut r = whole(dir);
        assert!(r["timings_ms"]["total"].as_u64().is_some());
        r.as_object_mut().unwrap().remove("timings_ms");
        for chip in r["chips"].as_array_mut().unwrap() {
            chip.as_object_mut().unwrap().remove("timings_ms");
        }
        reports.push(r);
    }
    for arch in ["blackhole", "wormhole"] {
        let c = section(&reports[0], arch);
        assert!(c["campaign"]["cases"].as_u64().unwrap() > 40_000, "{arch}: {}", c["campaign"]);
    }
    if reports[0] != reports[1] {
        let (a, b) = (
            serde_json::to_string_pretty(&reports[0]).unwrap(),
            serde_json::to_string_pretty(&reports[1]).unwrap(),
        );
        let first = a.lines().zip(b.lines()).position(|(x, y)| x != y).unwrap_or(0);
        panic!(
            "the reports differ from line {first}:\n{}\n---\n{}",
            a.lines().nth(first).unwrap_or(""),
            b.lines().nth(first).unwrap_or("")
        );
    }
}

/// The untested cells of a report section: cells where a model ran neither a vector nor a random
/// case (the reference is not run on random streams).
fn untested_cells(r: &Value) -> Vec<String> {
    let mut untested = Vec::new();
    for row in r["matrix"].as_array().unwrap() {
        for model in ["reference", "fastpath"] {
            let c = &row["per_model"][model];
            let checked = c["vectors_run"].as_u64().unwrap_or(0) + c["random_cases"].as_u64().unwrap_or(0);
            if checked == 0 && !(model == "reference" && row["instruction"] == "streams") {
                untested.push(format!("{model} {} {}", row["instruction"], row["mode"]));
            }
        }
    }
    untested
}

/// How many vectors the YAML files at `vectors/PATH` hold (a chip's directory, or one file), read
/// as plain YAML.
fn yaml_vectors(path: &str) -> u64 {
    let path = repo().join("vectors").join(path);
    let files: Vec<std::path::PathBuf> = if path.is_dir() {
        std::fs::read_dir(&path)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
            .collect()
    } else {
        vec![path]
    };
    files
        .iter()
        .map(|f| {
            let doc: serde_yaml::Value = serde_yaml::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
            doc["vectors"].as_sequence().map_or(0, |v| v.len() as u64)
        })
        .sum()
}

/// `--arch wormhole` (`--chip`'s alias) narrows the run to Wormhole: one section, the Wormhole corpus and campaign,
/// every vector and random case passing on both models, no untested cell, and the kernel
/// accuracy of Wormhole alone.
#[test]
fn wormhole_conform_passes_with_no_untested_cell() {
    let dir = out_dir("wormhole");
    let o = cli(&["conform", "--arch", "wormhole", "--quiet", "--out", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let all = whole(&dir);
    assert_eq!(all["chips"].as_array().unwrap().len(), 1);
    let chips: Vec<&Value> = all["extensions"]["kernel_accuracy"]["chips"]
        .as_array()
        .expect("kernel accuracy chips")
        .iter()
        .collect();
    assert_eq!(chips, [&Value::from("wormhole")]);
    let r = section(&all, "wormhole");
    // The built-in corpus: generated in memory, the same as vectors/wormhole.
    let path = r["corpus"]["path"].as_str().unwrap();
    assert!(path.starts_with("built-in") && path.contains("vectors/wormhole"), "{}", r["corpus"]);
    assert_eq!(r["corpus"]["vectors"].as_u64(), Some(yaml_vectors("wormhole")), "{}", r["corpus"]);
    let rows = r["matrix"].as_array().unwrap();
    // Wormhole's instructions only: no SFPGT, SFPLE, SFPMUL24 or SFPARECIP rows.
    for absent in ["SFPGT", "SFPLE", "SFPMUL24", "SFPARECIP"] {
        assert!(rows.iter().all(|row| row["instruction"] != absent), "{absent} has a row");
    }
    let untested = untested_cells(&r);
    assert!(untested.is_empty(), "untested cells: {untested:?}");
    let t = &r["totals"]["fastpath"];
    assert_eq!(t["failed"].as_u64(), Some(0), "{t}");
    assert!(t["random_cases"].as_u64().unwrap() > 40_000, "{t}");
}

/// `sfpu-conformance conform` with no option checks both SFPU chips and the three AMX chip profiles in
/// one run and writes one report with a section per instruction set and chip: each chip's corpus
/// and campaign, no untested cell in any, Wormhole's IEEE 754 departures in its own section, the
/// kernel accuracy of both SFPU chips with their difference; every form of the report has every
/// section; the terminal summary prints a block per chip, then the overall verdict.
#[test]
fn default_run_checks_every_isa_and_chip_in_one_report() {
    let (o, dir) = default_run();
    assert_eq!(o.status.code(), Some(0), "{}", text(o));
    let all = whole(dir);
    assert_eq!(all["format"], "conform-report/4");
    let sections: Vec<(&str, &str)> = all["chips"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["isa"].as_str().unwrap(), c["arch"].as_str().unwrap()))
        .collect();
    assert_eq!(
        sections,
        [("sfpu", "blackhole"), ("sfpu", "wormhole"), ("amx", "m1"), ("amx", "m2"), ("amx", "m4")]
    );
    for (_, chip) in sections.iter().filter(|(isa, _)| *isa == "amx") {
        let r = section(&all, chip);
        let path = r["corpus"]["path"].as_str().unwrap();
        assert!(path.starts_with("built-in") && path.contains(&format!("vectors/amx/{chip}.yaml")), "{path}");
        assert_eq!(
            r["corpus"]["vectors"].as_u64(),
            Some(yaml_vectors(&format!("amx/{chip}.yaml"))),
            "{chip}"
        );
        // The SFPU's own parts of a section are not in an AMX one.
        for key in ["ieee", "spec_notes", "operand_coverage"] {
            assert!(r.get(key).is_none(), "{chip} has {key}");
        }
        let untested = untested_cells(&r);
        assert!(untested.is_empty(), "{chip}: untested cells: {untested:?}");
        assert!(r["failures"].as_array().unwrap().is_empty(), "{chip}");
        assert_eq!(r["campaign"]["cases_per_mode"], 64);
    }
    let archs: Vec<&str> = sections.iter().filter(|(isa, _)| *isa == "sfpu").map(|(_, a)| *a).collect();
    for arch in archs {
        let r = section(&all, arch);
        let path = r["corpus"]["path"].as_str().unwrap();
        assert!(path.starts_with("built-in") && path.contains(&format!("vectors/{arch}")), "{}", r["corpus"]);
        assert_eq!(r["corpus"]["vectors"].as_u64(), Some(yaml_vectors(arch)), "{arch}");
        for key in ["spec_notes", "operand_coverage"] {
            assert!(r[key].is_object() || r[key].is_array(), "{arch} has no {key}: {}", r[key]);
        }
        let untested = untested_cells(&r);
        assert!(untested.is_empty(), "{arch}: untested cells: {untested:?}");
        for model in ["reference", "fastpath"] {
            let t = &r["totals"][model];
            assert!(t["vectors_run"].as_u64().unwrap() > 1000, "{arch} {model}: {t}");
            assert_eq!(t["failed"].as_u64(), Some(0), "{arch} {model}: {t}");
        }
        let ieee = r["ieee"].as_array().unwrap();
        let has = |category: &str| ieee.iter().any(|c| c["operation"] == "fma" && c["category"] == category);
        // Each chip's own departures (crate::sfpu::ieee): Wormhole's +0 zeros and NaN form, Blackhole's
        // canonical NaN.
        assert_eq!(has("positive-zero"), arch == "wormhole", "{arch}");
        assert_eq!(has("nan-form"), arch == "wormhole", "{arch}");
        assert_eq!(has("nan-canonicalisation"), arch == "blackhole", "{arch}");
    }
    let k = &all["extensions"]["kernel_accuracy"];
    assert_eq!(k["chips"], serde_json::json!(["blackhole", "wormhole"]));
    assert!(
        k["kernels"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["chip_difference"]["samples"].as_u64().unwrap_or(0) > 0),
        "the chip difference is measured"
    );
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(md.contains("## SFPU chip `blackhole`") && md.contains("## SFPU chip `wormhole`"), "report.md");
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    for arch in ["blackhole", "wormhole", "m1", "m2", "m4"] {
        assert!(
            html.contains(&format!("<table class=\"matrix\" id=\"{arch}-matrix\"")),
            "report.html: {arch}"
        );
        // The SFPU's sections of a chip, by their ids; none of them on an AMX chip.
        for part in ["ieee", "spec-notes", "operand-coverage"] {
            let id = format!("id=\"{arch}-{part}\"");
            assert_eq!(html.contains(&id), ["blackhole", "wormhole"].contains(&arch), "report.html: {id}");
        }
    }
    let junit = std::fs::read_to_string(dir.join("junit.xml")).unwrap();
    assert!(
        junit.contains("<testsuite name=\"blackhole/fastpath\"")
            && junit.contains("<testsuite name=\"wormhole/fastpath\"")
    );
    let out = String::from_utf8_lossy(&o.stdout);
    let (bh, wh) = (
        out.find("== SFPU conformance, blackhole").expect("a Blackhole block"),
        out.find("== SFPU conformance, wormhole").expect("a Wormhole block"),
    );
    let m4 = out.find("== AMX conformance, m4").expect("an M4 block");
    let overall = out
        .find("overall: PASS on every chip checked (blackhole, wormhole, m1, m2, m4)")
        .expect("the overall verdict");
    assert!(bh < wh && wh < m4 && m4 < overall, "{out}");
    assert!(out.contains("where wormhole departs from IEEE 754"), "{out}");
}

/// Without `--out`, the installed command writes its report to `conform-report` in the current
/// directory.
#[test]
fn without_out_the_report_goes_to_conform_report() {
    let cwd = out_dir("default-out");
    std::fs::create_dir_all(&cwd).unwrap();
    let o = crate::common::command(["conform", "--only", "SFPNOT", "--cases", "1", "--quiet"])
        .current_dir(&cwd)
        .output()
        .expect("run the sfpu-conformance binary");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    for f in ["report.json", "report.md", "report.html", "junit.xml"] {
        assert!(cwd.join("conform-report").join(f).is_file(), "{f} not written");
    }
    let r = whole(&cwd.join("conform-report"));
    assert_eq!(r["chips"][0]["totals"]["fastpath"]["vectors_run"].as_u64(), Some(vectors_of("SFPNOT")));
}
