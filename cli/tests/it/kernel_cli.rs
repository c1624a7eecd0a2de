//! `sfpu-conformance kernel` end to end, through the built binary.
//!
//! Expected values come from hand calculation and from independent paths, not from the command's
//! own code: the listing is parsed back with the reference's text parser and linted by
//! `sfpu-conformance run --lint`; `abs` is exact (|x| only clears the sign bit, SFPABS.md), so its
//! error is zero everywhere; the SFPI lowering of `dst_reg[0] = abs(dst_reg[0])` is SFPLOAD,
//! SFPABS, SFPSTORE per row, 32 rows.

use sfpu_reference::isa::{Arch, parse_program};

use crate::common::{cli, scratch_path, stderr, stdout};

#[test]
fn lists_the_corpus() {
    let o = cli(&["kernel"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for name in ["exp", "reciprocal", "seed/nested3", "sort4", "gelu_erf"] {
        assert!(out.lines().any(|l| l.split_whitespace().next() == Some(name)), "{name} in\n{out}");
    }
    let o = cli(&["kernel", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert!(v.as_array().is_some_and(|a| a.len() >= 40), "{v}");
}

#[test]
fn listing_of_abs_parses_back_and_lints_clean_on_both_chips() {
    for (arch, flag) in [(Arch::Blackhole, "blackhole"), (Arch::Wormhole, "wormhole")] {
        let o = cli(&["kernel", "abs", "--arch", flag, "--listing", "--json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
        let listing = v["chips"][0]["listing"].as_str().expect("listing").to_string();
        let program = parse_program(arch, &listing).unwrap_or_else(|e| panic!("{arch}: {e}\n{listing}"));
        let names: Vec<String> = program
            .iter()
            .map(|p| p.instr.display(arch).to_string().split('(').next().unwrap_or("").to_string())
            .collect();
        // 32 rows of load, abs, store (no SFPNOP needed: SFPABS is not a MAD-unit instruction).
        assert_eq!(names.len(), 96, "{arch}: {names:?}");
        for row in names.chunks(3) {
            assert_eq!(row, ["TTI_SFPLOAD", "TTI_SFPABS", "TTI_SFPSTORE"], "{arch}");
        }
        assert_eq!(v["chips"][0]["lint"], serde_json::json!([]), "{arch}");

        // The same listing through `sfpu-conformance run --lint`: clean (exit 0).
        let path = scratch_path("kernel_cli", &format!("{flag}.sfpu"));
        std::fs::write(&path, &listing).unwrap();
        let o = cli(&["run", path.to_str().unwrap(), "--arch", flag, "--lint"]);
        assert!(o.status.success(), "{arch}: {}{}", stdout(&o), stderr(&o));
    }
}

#[test]
fn accuracy_of_abs_is_exact_and_chips_agree() {
    let o = cli(&["kernel", "abs", "--accuracy", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let chips = v["chips"].as_array().expect("chips");
    assert_eq!(chips.len(), 2);
    for c in chips {
        assert_eq!(c["accuracy"]["max_ulp"], 0.0, "{c}");
        assert_eq!(c["accuracy"]["within_bound"], true);
        assert!(c.get("listing").is_none(), "--accuracy alone prints no listing");
    }
    assert_eq!(v["chip_difference"]["differing"], 0);
}

#[test]
fn text_form_has_bounds_histogram_and_worst_inputs() {
    let o = cli(&["kernel", "reciprocal", "--arch", "wh", "--accuracy"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for want in ["## wormhole: accuracy over 5120 inputs", "bound", "histogram", "worst inputs:", "ULP"] {
        assert!(out.contains(want), "{want} in\n{out}");
    }
    assert!(!out.contains("Blackhole vs Wormhole"), "one chip only:\n{out}");
}

#[test]
fn errors_are_clear_and_exit_2() {
    for (args, want) in [
        (&["kernel", "no_such_kernel"][..], "no kernel `no_such_kernel`"),
        (&["kernel", "seed/silly", "--accuracy"][..], "not numerical"),
        (&["kernel", "--listing"][..], "need a kernel name"),
        (&["kernel", "abs", "--arch", "grayskull"][..], "grayskull"),
    ] {
        let o = cli(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
        // A message that names a command names one that exists (`kernel` is no xtask chore).
        assert!(!stderr(&o).contains("cargo xtask kernel"), "{args:?}: {}", stderr(&o));
    }
}

/// The report's kernel accuracy section says which command prints one kernel's numbers: this
/// command's `kernel`, not the `cargo xtask kernel` of before (which no longer exists).
#[test]
fn the_report_names_the_kernel_command_that_exists() {
    let dir = scratch_path("kernel_cli", "report");
    let o =
        cli(&["conform", "--chip", "wormhole", "--cases", "0", "--quiet", "--out", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let r = crate::common::whole(&dir);
    assert!(r["extensions"]["kernel_accuracy"].is_object(), "a kernel accuracy section: {}", r["extensions"]);
    for f in ["report.md", "report.html"] {
        let text = std::fs::read_to_string(dir.join(f)).unwrap();
        assert!(text.contains("sfpu-conformance kernel NAME --accuracy"), "{f} names the command");
        assert!(!text.contains("cargo xtask kernel"), "{f} names a command that no longer exists");
    }
}
