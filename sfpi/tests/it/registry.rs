//! The registry the golden-vector and report steps use: every kernel named, on both chips, with
//! consistent tiles, in-range special values, deterministic whole-tile cases whose Dst holds the
//! inputs.

use std::collections::HashSet;

use sfpi::Arch;
use sfpi::kernels::{TILE_ROWS, find, registry};
use sfpi::run::Engine;
use sfpi::tile::{lane_value, read_tile};

#[test]
fn the_corpus_the_issue_asks_for() {
    let names: HashSet<&str> = registry().iter().map(|k| k.name).collect();
    assert_eq!(names.len(), registry().len(), "names are unique");
    for n in [
        "exp",
        "log",
        "reciprocal",
        "sqrt",
        "rsqrt",
        "sigmoid_lut",
        "sigmoid",
        "tanh",
        "gelu_tanh",
        "gelu_erf",
        "relu",
        "leaky_relu",
        "elu",
        "abs",
        "sign",
        "clamp",
        "square",
        "power3",
        "power5",
        "power7",
        "int32_to_float",
        "float_to_int32",
        "float_to_fp16a",
        "float_to_fp16b",
        "float_to_int8",
        "float_to_uint8",
        "float_to_int16",
        "float_to_uint16",
        "min_max",
        "sort4",
        "seed/silly",
        "seed/silly_abs",
        "seed/pick",
        "seed/narrowing",
        "seed/fp16_zero",
        "seed/lreg",
        "seed/prgm_const",
        "seed/nested3",
    ] {
        assert!(names.contains(n), "{n} is missing");
    }
}

#[test]
fn tiles_and_ranges_are_consistent() {
    for k in registry() {
        assert_eq!(k.chips, Arch::ALL.to_vec(), "{}", k.name);
        assert!(!k.inputs.is_empty() && !k.outputs.is_empty(), "{}", k.name);
        let wide = k.inputs[0].format.is_32bit();
        for t in &k.inputs {
            assert_eq!(t.format.is_32bit(), wide, "{}: one Dst mode per kernel", k.name);
            for &s in &t.specials {
                assert!(t.range.contains(s), "{}: special {s} outside {:?}", k.name, t.range);
            }
        }
        for t in &k.outputs {
            assert_eq!(t.format.is_32bit(), wide, "{}", k.name);
        }
        if let Some(n) = &k.numeric {
            assert!(n.max_ulp >= n.mean_ulp && n.mean_ulp >= 0.0 && !n.why.is_empty(), "{}", k.name);
        }
    }
}

#[test]
fn whole_tile_cases_are_deterministic_and_hold_the_inputs() {
    for k in registry() {
        for arch in Arch::ALL {
            let a = k.build(arch, 42).unwrap();
            let b = k.build(arch, 42).unwrap();
            let c = k.build(arch, 43).unwrap();
            assert_eq!(a.program, b.program, "{}", k.name);
            assert_eq!(a.state, b.state, "{}", k.name);
            assert_ne!(a.state, c.state, "{}", k.name);
            assert_eq!(a.state.arch(), arch);
            assert_eq!(a.rows, TILE_ROWS);
            for (t, values) in k.inputs.iter().zip(&a.inputs) {
                let got = read_tile(&a.state, t.base, t.format);
                let want: Vec<u32> = values.iter().map(|&v| lane_value(t.format, v)).collect();
                assert_eq!(got, want, "{} on {arch}: input tile at {}", k.name, t.base);
            }
        }
    }
}

#[test]
fn sort4_sorts_every_lane() {
    let k = find("sort4").unwrap();
    for arch in Arch::ALL {
        let case = k.build(arch, 1).unwrap();
        let run = case.run(Engine::Reference).unwrap();
        let tiles: Vec<Vec<f32>> = k
            .outputs
            .iter()
            .map(|o| read_tile(&run.state, o.base, o.format).into_iter().map(f32::from_bits).collect())
            .collect();
        for lane in 0..1024 {
            let col: Vec<f32> = tiles.iter().map(|t| t[lane]).collect();
            let mut sorted = col.clone();
            sorted.sort_by(f32::total_cmp);
            assert_eq!(col, sorted, "{arch} lane {lane}");
            // The same multiset as the inputs.
            let mut ins: Vec<f32> = case.inputs.iter().map(|t| f32::from_bits(t[lane])).collect();
            ins.sort_by(f32::total_cmp);
            assert_eq!(sorted, ins, "{arch} lane {lane}");
        }
    }
}

#[test]
fn registry_entries_serialise() {
    for k in registry() {
        let info = k.info();
        let json = serde_json::to_string(&info).unwrap();
        let back: sfpi::kernels::KernelInfo = serde_json::from_str(&json).unwrap();
        // serde_json's default float parsing may differ in the last bit; compare as JSON values.
        let again: serde_json::Value = serde_json::to_value(&back).unwrap();
        assert_eq!(again, serde_json::from_str::<serde_json::Value>(&json).unwrap(), "{}", k.name);
        assert_eq!(back.name, info.name);
        assert_eq!(info.accuracy_bound.is_some(), k.numeric.is_some());
    }
    let json = serde_json::to_string(&find("exp").unwrap().info()).unwrap();
    assert!(json.contains("\"chips\":[\"blackhole\",\"wormhole\"]"), "{json}");
    assert!(json.contains("\"format\":\"fp32\""), "{json}");
}
