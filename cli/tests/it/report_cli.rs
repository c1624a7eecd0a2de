//! `sfpu-conformance conform --shard K/N` and `report merge`, `report render`, end to end: the
//! shards of a run, merged, are the report of the whole run (apart from the timings, which add
//! up), in every form; a saved report renders again to itself; shards of different runs are
//! refused.
//!
//! The expected report is the unsharded run's, made by the same binary: what is checked is that
//! cutting and merging lose, duplicate or reorder nothing, an identity no part of the code under
//! test computes.

use std::path::Path;

use serde_json::Value;

use crate::common::{Scratch, cli, scratch_path, text, whole};

fn out_dir(name: &str) -> Scratch {
    scratch_path("report", name)
}

/// `v` without its timings (the only part of a merged report that differs from the whole run's).
fn without_timings(mut v: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                map.remove("timings_ms");
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

/// Panics with the first differing line of the two reports, if they differ.
fn assert_same(whole: &Value, merged: &Value, what: &str) {
    if whole != merged {
        let (a, b) =
            (serde_json::to_string_pretty(whole).unwrap(), serde_json::to_string_pretty(merged).unwrap());
        let first = a.lines().zip(b.lines()).position(|(x, y)| x != y).unwrap_or(0);
        panic!(
            "{what}: the reports differ from line {first}:\n{}\n---\n{}",
            a.lines().nth(first).unwrap_or(""),
            b.lines().nth(first).unwrap_or("")
        );
    }
}

/// Runs `conform args` whole and in 3 shards, merges the shards, and checks the merged report is
/// the whole run's in report.json (apart from the timings) and report.md (apart from the timings'
/// section).
fn shards_merge_to_the_whole_run(name: &str, args: &[&str]) {
    let whole_dir = out_dir(&format!("{name}-whole"));
    let o = cli(&[&["conform"][..], args, &["--quiet", "--out", whole_dir.to_str().unwrap()]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let shards: Vec<Scratch> = (1..=3).map(|k| out_dir(&format!("{name}-shard{k}"))).collect();
    for (k, dir) in shards.iter().enumerate() {
        let shard = format!("{}/3", k + 1);
        let o =
            cli(&[&["conform"][..], args, &["--shard", &shard, "--quiet", "--out", dir.to_str().unwrap()]]
                .concat());
        assert_eq!(o.status.code(), Some(0), "shard {shard}: {}", text(&o));
    }
    // The shards as directories or as their report.json.
    let merged = out_dir(&format!("{name}-merged"));
    let shard1 = shards[0].join("report.json");
    let o = cli(&[
        "report",
        "merge",
        shard1.to_str().unwrap(),
        shards[1].to_str().unwrap(),
        shards[2].to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.starts_with("overall: PASS on every chip checked"), "{out}");
    let (a, b) = (whole(&whole_dir), whole(&merged));
    assert!(b["incomplete"].is_null(), "{}", b["incomplete"]);
    // Each shard checked a part: the whole run's vectors and cases, not each shard's all.
    for (c, section) in a["chips"].as_array().unwrap().iter().enumerate() {
        let parts: u64 =
            shards.iter().map(|d| whole(d)["chips"][c]["corpus"]["vectors"].as_u64().unwrap()).sum();
        assert_eq!(section["corpus"]["vectors"].as_u64(), Some(parts), "{name}: {}", section["arch"]);
        let first = whole(&shards[0])["chips"][c]["corpus"]["vectors"].as_u64().unwrap();
        assert!(first < parts, "{name}: shard 1 has {first} of {parts} vectors");
    }
    assert_same(&without_timings(a), &without_timings(b), name);
    for f in ["report.md", "report.html", "junit.xml"] {
        assert!(merged.join(f).is_file(), "{name}: {f} not written");
    }
    // report.md, but for the rows of the timings' tables (the shards' timings add up).
    let md = |dir: &Path| -> Vec<String> {
        let text = std::fs::read_to_string(dir.join("report.md")).unwrap();
        text.lines()
            .filter(|l| !(l.starts_with('|') && (l.ends_with(" ms |") || l.ends_with(" s |"))))
            .map(String::from)
            .collect()
    };
    let (a, b) = (md(&whole_dir), md(&merged));
    if let Some(i) = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i)) {
        panic!("{name}: report.md differs at line {}:\n{:?}\n---\n{:?}", i + 1, a.get(i), b.get(i));
    }
}

/// An SFPU chip with its extensions (the IEEE 754 characterisation, the kernel accuracy: on the
/// first shard, not cut), and an AMX chip profile.
#[test]
fn the_shards_merged_are_the_whole_run() {
    shards_merge_to_the_whole_run("wormhole", &["--chip", "wormhole", "--cases", "1"]);
    shards_merge_to_the_whole_run("m1", &["--isa", "amx", "--chip", "m1", "--cases", "2"]);
}

/// `report render` of a saved report writes it again, the same in every form.
#[test]
fn a_rendered_report_is_the_saved_one() {
    let dir = out_dir("render-source");
    let o = cli(&["conform", "--only", "SFPIADD", "--cases", "1", "--quiet", "--out", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let again = out_dir("render-again");
    let o = cli(&["report", "render", dir.to_str().unwrap(), "--out", again.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_same(&whole(&dir), &whole(&again), "render");
    for f in ["report.md", "report.html", "junit.xml"] {
        let (a, b) =
            (std::fs::read_to_string(dir.join(f)).unwrap(), std::fs::read_to_string(again.join(f)).unwrap());
        assert_eq!(a, b, "{f}");
    }
}

/// Shards of different runs (other chips, other settings), a shard that is no report, and a
/// K/N that is not one, are errors (exit status 2) that say so.
#[test]
fn shards_of_different_runs_are_refused() {
    let run = |name: &str, args: &[&str]| -> Scratch {
        let dir = out_dir(name);
        let o = cli(&[&["conform"][..], args, &["--quiet", "--out", dir.to_str().unwrap()]].concat());
        assert_eq!(o.status.code(), Some(0), "{name}: {}", text(&o));
        dir
    };
    let bh = run("refuse-bh", &["--chip", "blackhole", "--only", "SFPNOT", "--cases", "1", "--shard", "1/2"]);
    let wh = run("refuse-wh", &["--chip", "wormhole", "--only", "SFPNOT", "--cases", "1", "--shard", "2/2"]);
    let seed = run(
        "refuse-seed",
        &["--chip", "blackhole", "--only", "SFPNOT", "--cases", "1", "--seed", "7", "--shard", "2/2"],
    );
    let missing = out_dir("refuse-missing");
    let merged = out_dir("refuse-merged");
    for (shards, says) in [
        ([&bh, &wh], "shard 2 checked other chips than shard 1: not shards of one run"),
        (
            [&bh, &seed],
            "sfpu blackhole: shard 2 differs from shard 1 in its models or settings: not shards of one run",
        ),
        ([&bh, &missing], "cannot read"),
    ] {
        let o = cli(&[
            "report",
            "merge",
            shards[0].to_str().unwrap(),
            shards[1].to_str().unwrap(),
            "--out",
            merged.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{says}: {}", text(&o));
        assert!(String::from_utf8_lossy(&o.stderr).contains(says), "{says}: {}", text(&o));
    }
    for bad in ["0/2", "3/2", "1", "a/b"] {
        let o = cli(&[
            "conform",
            "--only",
            "SFPNOT",
            "--shard",
            bad,
            "--quiet",
            "--out",
            merged.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "--shard {bad}: {}", text(&o));
        assert!(String::from_utf8_lossy(&o.stderr).contains("is not K/N with 1 <= K <= N"), "{}", text(&o));
    }
    // A time budget is not cut.
    let o = cli(&[
        "conform",
        "--only",
        "SFPNOT",
        "--budget",
        "10",
        "--shard",
        "1/2",
        "--quiet",
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--shard cuts a counted campaign"), "{}", text(&o));
}
