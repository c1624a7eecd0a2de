//! `sfpu-conformance run` end to end, through the built binary.
//!
//! Expected values: `examples/saxpy.sfpu` computes `LReg[3] = 2.0 * (2 * lane) + 1.0 = 4 * lane + 1`
//! in FP32 (exact for these small integers, so Rust's `f32` is an exact oracle), and its SFPSTORE
//! of LReg[3] directly after the SFPMAD that writes it stalls one cycle (BlackholeA0 `SFPMAD.md`
//! "Instruction scheduling"): 9 instructions, 10 cycles.

use std::path::PathBuf;

use crate::common::{Scratch, cli, repo, stderr, stdout};

fn saxpy() -> PathBuf {
    repo().join("examples/saxpy.sfpu")
}

/// Writes `text` to a file of its own in the test scratch directory (removed when the test passes).
fn scratch(name: &str, text: &str) -> Scratch {
    crate::common::scratch_file("run_cli", name, text)
}

/// `4 * lane + 1` as FP32 bits, e.g. lane 0: 1.0 = 0x3f800000, lane 1: 5.0 = 0x40a00000,
/// lane 31: 125.0 = 0x42fa0000.
fn saxpy_lane(lane: u32) -> u32 {
    ((4 * lane + 1) as f32).to_bits()
}

#[test]
fn saxpy_lane_values_by_hand() {
    // 5.0 = 1.25 * 2^2: exponent 129 = 0x81, mantissa 0x200000 => 0x40a00000.
    assert_eq!(saxpy_lane(1), 0x40A0_0000);
    // 125.0 = 1.953125 * 2^6: exponent 133, mantissa 0.953125 * 2^23 = 0x7a0000 => 0x42fa0000.
    assert_eq!(saxpy_lane(31), 0x42FA_0000);
    assert_eq!(saxpy_lane(0), 0x3F80_0000);
}

#[test]
fn run_saxpy_prints_lreg3() {
    let o = cli(&["run", saxpy().to_str().unwrap()]);
    let out = stdout(&o);
    assert!(o.status.success(), "status {:?}\nstdout:\n{out}\nstderr:\n{}", o.status, stderr(&o));
    // LReg[3] differs between lanes, so it is printed as 4 rows of 8 lanes of 8 hex digits.
    let lines: Vec<&str> = out.lines().collect();
    let start =
        lines.iter().position(|l| l.starts_with("LReg[3]")).unwrap_or_else(|| panic!("no LReg[3]:\n{out}"));
    let words: Vec<u32> = lines[start..start + 4]
        .iter()
        .flat_map(|l| l.split_whitespace())
        .filter(|t| t.len() == 8 && t.chars().all(|c| c.is_ascii_hexdigit()))
        .map(|t| u32::from_str_radix(t, 16).unwrap())
        .collect();
    let want: Vec<u32> = (0..32).map(saxpy_lane).collect();
    assert_eq!(words, want, "stdout:\n{out}");
}

#[test]
fn run_saxpy_json_has_the_state() {
    let o = cli(&["run", saxpy().to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("stdout is JSON");
    let state = doc.get("state").and_then(|v| v.as_object()).expect("a `state` object");
    let l3: Vec<String> = state["LReg"]["3"]
        .as_array()
        .expect("LReg[3] as 32 values")
        .iter()
        .map(|v| v.as_str().unwrap().to_ascii_lowercase())
        .collect();
    let want: Vec<String> = (0..32).map(|l| format!("0x{:08x}", saxpy_lane(l))).collect();
    assert_eq!(l3, want);
    assert_eq!(doc["cycles"], 10, "9 instructions + 1 stall after the SFPMAD");
}

#[test]
fn run_bad_program_exits_2_naming_file_and_line() {
    let path = scratch("bad.sfpu", "TTI_SFPNOP\nTTI_SFPMAD(1)\n");
    let o = cli(&["run", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "stdout:\n{}\nstderr:\n{}", stdout(&o), stderr(&o));
    let where_ = format!("{}:2", path.display());
    assert!(stderr(&o).contains(&where_), "stderr should name {where_}:\n{}", stderr(&o));
}

#[test]
fn run_lint_reports_a_documented_hazard_with_its_line() {
    // Line 3's SFPIADD reads VD = 5 one cycle after the SFPMAD that writes it, which the stall
    // logic does not notice (SFPMAD.md: "SFPIADD: the stalling logic does not realise that
    // SFPIADD reads from VD").
    let path =
        scratch("hazard.sfpu", "# hazard\nTTI_SFPMAD(2, 3, 4, 5, 0)\nTTI_SFPIADD(0, 6, 5, 4)\nTTI_SFPNOP\n");
    let o = cli(&["run", path.to_str().unwrap(), "--lint"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "stdout:\n{out}\nstderr:\n{}", stderr(&o));
    let where_ = format!("{}:3:", path.display());
    assert!(
        out.lines().any(|l| l.starts_with(&where_) && l.contains("lint")),
        "stdout should name {where_}:\n{out}"
    );
    assert!(!out.contains(&format!("{}:2:", path.display())), "only line 3:\n{out}");

    // The same program with an SFPNOP gap is clean: exit 0.
    let path = scratch("clean.sfpu", "TTI_SFPMAD(2, 3, 4, 5, 0)\nTTI_SFPNOP\nTTI_SFPIADD(0, 6, 5, 4)\n");
    let o = cli(&["run", path.to_str().unwrap(), "--lint"]);
    assert_eq!(o.status.code(), Some(0), "stdout:\n{}", stdout(&o));
}

/// `--arch wormhole`: the saxpy kernel's SFPSTORE reads the SFPMAD result on the next cycle.
/// Blackhole stalls it (10 cycles, no finding); Wormhole does not stall (9 cycles), and the linter
/// flags the missing SFPNOP on the SFPSTORE's line (WormholeB0 `SFPMAD.md` "Instruction
/// scheduling"). The values are the same: 4 * lane + 1 is exact on both FMA models.
#[test]
fn run_arch_wormhole_lints_the_missing_sfpnop() {
    let o = cli(&["run", saxpy().to_str().unwrap(), "--arch", "wormhole", "--lint", "--json"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "the lint finding makes the exit status 1\n{out}\n{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(doc["arch"], "wormhole");
    assert_eq!(doc["state"]["arch"], "wormhole");
    assert_eq!(doc["cycles"], 9);
    let lint = doc["lint"].as_array().unwrap();
    assert_eq!(lint.len(), 1, "{lint:?}");
    assert_eq!(lint[0]["clause"], "wormhole-mad-result-read");
    let text = std::fs::read_to_string(saxpy()).unwrap();
    // The SFPSTORE right after the SFPMAD (1-based line numbers).
    let store_line = text.lines().position(|l| l.trim_start().starts_with("TTI_SFPMAD")).unwrap() + 2;
    assert_eq!(lint[0]["line"], store_line as u64);

    let bh = cli(&["run", saxpy().to_str().unwrap(), "--lint", "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&bh)).expect("JSON");
    assert!(bh.status.success());
    assert_eq!(doc["arch"], "blackhole");
    assert_eq!(doc["cycles"], 10);
}

/// A state document for Wormhole chooses the chip; one that sets a Blackhole-only location is
/// refused, as is an `--arch` that disagrees with the document.
#[test]
fn run_takes_the_chip_from_the_state_document() {
    let prog = scratch("wh_prog.sfpu", "TTI_SFPSHFT2(0, 3, 4, 4)\n");
    let state = scratch("wh_state.yaml", "arch: wormhole\nSFPSHFT2_vc0: 0x77\nLReg: {3: 0x5}\n");
    let o = cli(&["run", prog.to_str().unwrap(), "--state", state.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    // Lane 0 of each group of 8 gets vc0[Lane + 7] = 0x77 (the SHFLSHR1 bug), the others L3[lane - 1].
    assert_eq!(doc["state"]["LReg"]["4"][0], "0x00000077");
    assert_eq!(doc["state"]["LReg"]["4"][1], "0x00000005");
    let bad = scratch("wh_bad.yaml", "arch: wormhole\nAddressing: {DEST_SP_BASE_Base: 4}\n");
    let o = cli(&["run", prog.to_str().unwrap(), "--state", bad.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("only blackhole has this location"), "{}", stderr(&o));
    let o = cli(&["run", prog.to_str().unwrap(), "--state", state.to_str().unwrap(), "--arch", "blackhole"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("is for wormhole"), "{}", stderr(&o));
}
