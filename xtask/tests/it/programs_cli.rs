//! `cargo xtask vectors --programs DIR` end to end: the files it writes, and a program form run
//! with `sfpu-conformance run` (this build's) from reset leaves its signature in Dst (read from
//! the JSON form, with no help from the library).

use std::process::Command;

use serde_json::Value;

use crate::common::{root, scratch_path, sfpu_conformance, text, xtask};

#[test]
fn programs_are_written_as_text_and_words_with_an_index() {
    let dir = scratch_path("programs", "out");
    let o = xtask(&["vectors", "--programs", dir.to_str().unwrap(), "--only", "SFPIADD,SFPSTOCHRND"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let index: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("index.json")).unwrap()).unwrap();
    assert_eq!(index["format"], "sfpu-programs/1");
    let (vectors, programs) = (index["vectors"].as_u64().unwrap(), index["programs"].as_u64().unwrap());
    let without = index["without_program"].as_array().unwrap();
    assert_eq!(programs + without.len() as u64, vectors);
    // The summary says how much was written: a file per program form, one per vector file and the
    // index, and their size.
    let files = walk_files(&dir);
    let bytes: u64 = files.iter().map(|f| std::fs::metadata(f).unwrap().len()).sum();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("({} files, {:.1} MB)", files.len(), bytes as f64 / 1e6))
            && files.len() as u64 == programs + 2 + 1,
        "{} files, {bytes} bytes: {err}",
        files.len()
    );
    // Every vector without a program form says why; SFPSTOCHRND's stochastic rounding needs the
    // PRNG, which no instruction sets.
    assert!(without.iter().all(|w| !w["reason"].as_str().unwrap().is_empty()));
    assert!(
        without.iter().any(|w| w["id"].as_str().unwrap().starts_with("SFPSTOCHRND/rnd=STOCH")
            && w["reason"].as_str().unwrap().contains("PRNG")),
        "{without:?}"
    );
    let iadd: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("SFPIADD.json")).unwrap()).unwrap();
    let form = iadd["programs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "SFPIADD/mod1=ARG_IMM/mix-a")
        .unwrap();

    // The text form runs with `sfpu-conformance run` from reset (its configuration is the
    // default, as this vector's is); the final Dst holds the signature wherever it promises a
    // value.
    assert!(form["before_program"].is_null(), "{}", form["before_program"]);
    let sfpu = dir.join("SFPIADD/mod1=ARG_IMM/mix-a.sfpu");
    let o = Command::new(sfpu_conformance())
        .args(["run", sfpu.to_str().unwrap(), "--json"])
        .current_dir(root())
        .output()
        .expect("run sfpu-conformance");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out: Value = serde_json::from_slice(&o.stdout).expect("run --json prints JSON");
    let rows = &out["state"]["Dst"]["rows"];
    let mut checked = 0;
    for (row, cells) in form["signature"]["rows"].as_object().unwrap() {
        for (c, want) in cells.as_array().unwrap().iter().enumerate() {
            let Some(want) = want.as_str() else { continue };
            let got = rows[row][c].as_str().unwrap_or("0x0000");
            assert_eq!(
                u32::from_str_radix(&got[2..], 16).unwrap(),
                u32::from_str_radix(&want[2..], 16).unwrap(),
                "row {row} cell {c}"
            );
            checked += 1;
        }
    }
    // LReg[0..7], 32 lanes each, two cells per lane.
    assert!(checked >= 8 * 32 * 2, "{checked} cells checked");
}

/// Every file under `dir`, recursively.
fn walk_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk_files(&p));
        } else {
            out.push(p);
        }
    }
    out
}
