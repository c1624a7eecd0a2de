//! `cargo xtask conform` is the `sfpu-conformance conform` command (whose own tests are the
//! command's): the same run, with replay lines that start with `cargo xtask conform`, which
//! reproduce the failure they come with. The product's other commands (`run`, `kernel`,
//! `reference-dut`) are the installed command's alone.

use std::process::Command;

use serde_json::Value;

use crate::common::{XTASK, root, scratch_path, text, xtask};

/// A DUT that answers SFPIADD's random cases wrongly (examples/dut-python): each failure's replay
/// line is `cargo xtask conform` with the instruction set, the chip, the seed, the DUT and the
/// case, and reproduces it.
#[test]
fn replay_lines_name_cargo_xtask_conform() {
    let dir = scratch_path("conform", "dut-wrong");
    let dut = "python3 examples/dut-python/dut.py --wrong-on SFPIADD";
    let o = xtask(&[
        "conform",
        "--chip",
        "blackhole",
        "--dut",
        dut,
        "--only",
        "SFPIADD",
        "--cases",
        "1",
        "--no-fastpath",
        "--json",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let r: Value = serde_json::from_slice(&o.stdout).expect("--json prints the report");
    let on_disk: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(r["chips"], on_disk["chips"], "--out has the report printed");
    let section = &r["chips"][0];
    assert_eq!(section["arch"], "blackhole");
    let seed = section["campaign"]["seed"].as_str().expect("the seed");
    let failures = section["failures"].as_array().unwrap();
    let random: Vec<&Value> = failures.iter().filter(|f| f["kind"] == "random").collect();
    assert!(!random.is_empty(), "{failures:?}");
    for f in &random {
        let id = f["id"].as_str().unwrap();
        assert_eq!(
            f["replay"],
            format!(
                "cargo xtask conform --isa sfpu --chip blackhole --seed {seed} --dut '{dut}' --replay {id}"
            ),
            "{f}"
        );
    }
    let replay = random[0]["replay"].as_str().unwrap();
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!("'{XTASK}' {}", replay.strip_prefix("cargo xtask ").unwrap()))
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("dut: FAIL"), "{}", text(&o));
}

/// `run`, `kernel` and `reference-dut` moved to `sfpu-conformance`: xtask does not know them.
#[test]
fn the_product_commands_are_not_xtask_chores() {
    for command in ["run", "kernel", "reference-dut"] {
        let o = xtask(&[command, "--help"]);
        assert_eq!(o.status.code(), Some(2), "{command}: {}", text(&o));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("unrecognized subcommand"),
            "{command}: {}",
            text(&o)
        );
    }
}
