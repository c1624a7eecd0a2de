//! `sfpu-conformance run --isa amx` end to end, through the built binary.
//!
//! Expected values by hand: `examples/amx/fma-f32.amx` on `fma-f32.state.yaml` is two f32 FMAs
//! (LW 4): z[0][0] = 0.25 + 1.5 × 2 = 3.25 (0x40500000) and z[1][0] = 0 + 1.5 × 2 = 3.0
//! (0x40400000); the other lanes are 0 + 0 × 0 = +0. Operand 0 is f16 on M1 and bf16 on M2+
//! (amx-vecfp.md §1.2): with x = 0x3c00 and y = 0x4000, f16 gives 1 × 2 = 2 (0x4000) and bf16 gives
//! 2^-7 × 2 = 2^-6 (0x3c80).

use serde_json::Value;

use crate::common::{Scratch, cli, repo};

fn example(name: &str) -> String {
    repo().join("examples/amx").join(name).display().to_string()
}

fn scratch(name: &str, text: &str) -> Scratch {
    crate::common::scratch_file("run_amx", name, text)
}

/// Lane 0 (4 bytes, little-endian) of a register's hex text in memory order.
fn lane0_u32(hex: &str) -> u32 {
    let bytes: Vec<u8> =
        (0..4).map(|i| u8::from_str_radix(&hex.replace(' ', "")[2 * i..2 * i + 2], 16).unwrap()).collect();
    u32::from_le_bytes(bytes.try_into().unwrap())
}

#[test]
fn the_f32_example_by_hand() {
    let o = cli(&["run", &example("fma-f32.amx"), "--state", &example("fma-f32.state.yaml"), "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["isa"], "amx");
    assert_eq!(v["chip"], "M2");
    assert_eq!(lane0_u32(v["changed"]["Z"]["0"].as_str().unwrap()), 0x4050_0000);
    assert_eq!(lane0_u32(v["changed"]["Z"]["1"].as_str().unwrap()), 0x4040_0000);
    assert_eq!(v["changed"]["Z"].as_object().unwrap().len(), 2, "only rows 0 and 1 change");
    assert!(v["changed"].get("X").is_none() && v["changed"].get("Y").is_none(), "vecfp never writes X or Y");
    assert_eq!(v["steps"][1]["operand"], "0x0000100000100000");
    assert_eq!(v["steps"][1]["text"], "vecfp LW=4 ZROW=1");
    // The text form shows the same.
    let o = cli(&["run", &example("fma-f32.amx"), "--state", &example("fma-f32.state.yaml"), "--trace"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("fma-f32.amx:4: vecfp LW=4 ZROW=1 (0x0000100000100000)"), "{text}");
    assert!(text.contains("0: 00005040 00000000"), "{text}");
}

#[test]
fn operand_zero_differs_between_m1_and_m2() {
    let program = scratch("zero.amx", "vecfp\n");
    let state = scratch(
        "zero.yaml",
        &format!("X:\n  0: \"003c{}\"\nY:\n  0: \"0040{}\"\n", "0".repeat(124), "0".repeat(124)),
    );
    for (chip, want) in [("M1", 0x4000), ("M2", 0x3c80), ("m3", 0x3c80), ("M4", 0x3c80)] {
        let o = cli(&[
            "run",
            program.to_str().unwrap(),
            "--isa",
            "amx",
            "--chip",
            chip,
            "--state",
            state.to_str().unwrap(),
            "--json",
        ]);
        assert!(o.status.success(), "{chip}: {}", String::from_utf8_lossy(&o.stderr));
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(lane0_u32(v["changed"]["Z"]["0"].as_str().unwrap()) & 0xffff, want, "{chip}");
    }
}

#[test]
fn bad_amx_input_says_where() {
    let bad = scratch("bad.amx", "vecfp LW=4\n\nvecfp LW=99\n");
    let empty = scratch("empty.amx", "# nothing\n");
    let state = scratch("bad.yaml", "Z:\n  64: \"00\"\n");
    let program = example("fma-f32.amx");
    let saxpy = example("../saxpy.sfpu");
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            vec!["run", bad.to_str().unwrap()],
            format!("{}:3: LW is 4 bits wide; 0x63 does not fit", bad.display()),
        ),
        (vec!["run", empty.to_str().unwrap()], "no operand".to_string()),
        (vec!["run", &program, "--state", state.to_str().unwrap()], "invalid AMX state".to_string()),
        // --arch is --chip's other name: an SFPU chip is no AMX chip profile.
        (
            vec!["run", &program, "--arch", "wormhole"],
            "--chip: `wormhole` is not an AMX chip profile (m1, m2, m3, m4)".to_string(),
        ),
        (vec!["run", &program, "--chip", "M9"], "`M9` is not an AMX chip profile".to_string()),
        // A `.sfpu` program runs on the SFPU, whose chips --chip names too.
        (
            vec!["run", &saxpy, "--chip", "M2"],
            "--chip: unknown architecture `M2` (expected `blackhole` or `wormhole`)".to_string(),
        ),
    ];
    for (args, want) in cases {
        let o = cli(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(&want), "{args:?}: {err} should say {want:?}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
