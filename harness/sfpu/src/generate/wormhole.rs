//! The named cases of Wormhole B0's own behaviour, appended to the Wormhole opcode files: each pins
//! one place where the chip departs from Blackhole
//! (`docs/spec/sfpu-wormhole.md#differences-from-blackhole`), with operands chosen so that the
//! result can be worked out by hand from the WormholeB0 pages and the upstream FMA model
//! (`Miscellaneous/FMA/fma.c`, `fma_model_wh`). `harness/sfpu/tests/it/wormhole_vectors.rs` checks
//! every one against hand-computed bits.
//!
//! Ids are `{OPCODE}/{mode}/wh-{name}`; every case is tagged `wormhole-specific`.

use sfpu_reference::isa::{Arch, Opcode};
use sfpu_reference::state::{FlagStack, FlagStackEntry, LANES, State};

use super::case::{Case, build_for};
use super::modes::mode_table_for;

/// The state every named case starts from: Wormhole's reset state.
fn reset() -> State {
    State::reset(Arch::Wormhole, &sfpu_reference::ResetValues::ZEROS)
}

/// Lane `l` takes `values[l % values.len()]`.
pub fn lanes_of(values: &[u32]) -> [u32; LANES] {
    std::array::from_fn(|l| values[l % values.len()])
}

/// One lane's SFPMAD operands `(VA, VB, VC)`.
pub type Triple = (u32, u32, u32);

/// The SFPMAD triples `(VA, VB, VC)` of the FMA cases, by case name, with lane `l` taking triple
/// `l % n`.
pub const FMA_CASES: &[(&str, &[Triple])] = &[
    // Every zero result is +0: -1.0 * 0 + -0 (Blackhole: -0).
    ("wh-zero-is-plus", &[(0xBF80_0000, 0x0000_0000, 0x8000_0000)]),
    // NaN results are sign|0x7f800001, the sign from the product (invalid) or from a NaN c, and
    // mantissa bits of the ongoing sum can OR in: Inf * 0 + 0, -Inf * 0 + 0, Inf * 0 + 1.5,
    // 1 * 1 + -qNaN (Blackhole: 0x7fc00000 in every lane).
    (
        "wh-nan-forms",
        &[
            (0x7F80_0000, 0x0000_0000, 0x0000_0000),
            (0xFF80_0000, 0x0000_0000, 0x0000_0000),
            (0x7F80_0000, 0x0000_0000, 0x3FC0_0000),
            (0x3F80_0000, 0x3F80_0000, 0xFFC0_0000),
        ],
    ),
    // A finite product that overflows, plus an infinity of the opposite sign: NaN (Blackhole:
    // the infinity). An example of `docs/spec/sfpu-wormhole.md#fma-examples-on-wormhole`.
    ("wh-product-overflow-opposite-inf", &[(0x7149_F2CA, 0x7149_F2CA, 0xFF80_0000)]),
    // The normalisation sticky-bit bug: 1 ulp low. An example of
    // `docs/spec/sfpu-wormhole.md#fma-examples-on-wormhole`.
    ("wh-normalisation-sticky", &[(0x37F7_9EEE, 0xB97C_1302, 0xAFC6_0601)]),
    // The denormal edge: (1 - 2^-24) * 2^-126 + 0 flushes to +0 before it can round up to
    // 2^-126 (Blackhole, and IEEE: 0x00800000).
    ("wh-denormal-edge-flush", &[(0x3F7F_FFFF, 0x0080_0000, 0x0000_0000)]),
];

/// A Dst round-trip case: `(name, opcode, Mod0, program, L0 per lane)`.
pub type DstCase = (&'static str, Opcode, u32, &'static str, &'static [u32]);

/// The values of the Dst round-trip cases, by case name: `(program, L0 per lane)`. Each program
/// stores `L0` to Dst row group 0 and loads it back into `L1`.
pub const DST_CASES: &[DstCase] = &[
    // SFPLOAD MOD0_FMT_INT8 reads a 7-bit magnitude: 0x1fe0 has magnitude bits 0xff, read as 127.
    (
        "wh-int8-magnitude-127",
        Opcode::SFPLOAD,
        5,
        "TTI_SFPSTORE(0, 6, 0, 0)\nTTI_SFPLOAD(1, 5, 0, 0)",
        &[0x1FE0, 0x9FE0, 0x00A0, 0x80A0],
    ),
    // SFPLOAD MOD0_FMT_INT8_COMP: sign and 10-bit magnitude to two's complement.
    (
        "wh-int8-comp-load",
        Opcode::SFPLOAD,
        13,
        "TTI_SFPSTORE(0, 6, 0, 0)\nTTI_SFPLOAD(1, 13, 0, 0)",
        &[0x00A0, 0x80A0, 0x7FE0, 0xFFE0],
    ),
    // SFPLOAD MOD0_FMT_INT32_SM: sign-magnitude to two's complement.
    (
        "wh-int32-sm-load",
        Opcode::SFPLOAD,
        12,
        "TTI_SFPSTORE(0, 4, 0, 0)\nTTI_SFPLOAD(1, 12, 0, 0)",
        &[0x8000_0005, 0x0000_0005, 0x8000_0000, 0xFFFF_FFFF],
    ),
    // SFPSTORE MOD0_FMT_INT32_SM: two's complement to sign-magnitude.
    (
        "wh-int32-sm-store",
        Opcode::SFPSTORE,
        12,
        "TTI_SFPSTORE(0, 12, 0, 0)\nTTI_SFPLOAD(1, 4, 0, 0)",
        &[0xFFFF_FFFB, 0x0000_0005, 0xFFFF_FFFF, 0x7FFF_FFFF],
    ),
    // SFPSTORE MOD0_FMT_INT8_COMP: two's complement to sign-magnitude, then the int8 encoding
    // (sign, 10-bit magnitude, exponent 16).
    (
        "wh-int8-comp-store",
        Opcode::SFPSTORE,
        13,
        "TTI_SFPSTORE(0, 13, 0, 0)\nTTI_SFPLOAD(1, 6, 0, 0)",
        &[0xFFFF_FFFB, 0x0000_0005, 0xFFFF_FF81, 0x0000_0064],
    ),
    // SFPSTORE MOD0_FMT_FP32 is a raw copy: denormals keep their bits (Blackhole flushes them to
    // a signed zero).
    (
        "wh-fp32-store-raw",
        Opcode::SFPSTORE,
        3,
        "TTI_SFPSTORE(0, 3, 0, 0)\nTTI_SFPLOAD(1, 4, 0, 0)",
        &[0x0000_0001, 0x807F_FFFF, 0x3F80_0000, 0x8000_0001],
    ),
];

/// The SFPSHFT2 `vc0` latch and `LReg[1]` of the SHFLSHR1 case, lane `l`.
pub fn shflshr1_inputs(l: usize) -> (u32, u32) {
    (0xA000_0000 + l as u32, 0xB000_0000 + l as u32)
}

/// The flag stack of the SFPPOPC case, bottom first: depth 8 in every lane, the bottom entry
/// `{LaneFlags: false, Use: false}`, the top `{true, true}`, the ones between `{false, true}`.
pub fn popc_stack() -> Vec<FlagStackEntry> {
    (0..8)
        .map(|level| match level {
            0 => FlagStackEntry { LaneFlags: false, UseLaneFlagsForLaneEnable: false },
            7 => FlagStackEntry { LaneFlags: true, UseLaneFlagsForLaneEnable: true },
            _ => FlagStackEntry { LaneFlags: false, UseLaneFlagsForLaneEnable: true },
        })
        .collect()
}

fn named(op: Opcode, mode: &str, name: &str, program: Vec<sfpu_reference::isa::Instr>, pre: State) -> Case {
    let label = mode_table_for(Arch::Wormhole, op)
        .iter()
        .find(|(m, _)| m == mode)
        .map_or_else(|| mode.to_string(), |(_, l)| l.clone());
    Case {
        name: name.to_string(),
        mode: Some(mode.to_string()),
        mode_label: Some(label),
        tags: vec!["wormhole-specific".to_string(), mode.to_string()],
        program,
        pre,
    }
}

/// The named Wormhole cases of `op` (module documentation), in a fixed order.
pub fn named_cases(op: Opcode) -> Vec<Case> {
    let mut out = Vec::new();
    match op {
        Opcode::SFPMAD => {
            for (name, triples) in FMA_CASES {
                let mut s = reset();
                s.LReg[0] = std::array::from_fn(|l| triples[l % triples.len()].0);
                s.LReg[1] = std::array::from_fn(|l| triples[l % triples.len()].1);
                s.LReg[2] = std::array::from_fn(|l| triples[l % triples.len()].2);
                let mad = build_for(Arch::Wormhole, op, &[("VA", 0), ("VB", 1), ("VC", 2), ("VD", 3)]);
                out.push(named(op, "mod1=0", name, vec![mad], s));
            }
        }
        Opcode::SFPSHFT2 => {
            let mut s = reset();
            for l in 0..LANES {
                let (vc0, vc) = shflshr1_inputs(l);
                if let Some(wh) = s.wormhole_mut() {
                    wh.SFPSHFT2_vc0[l] = vc0;
                }
                s.LReg[1][l] = vc;
            }
            let shft2 = build_for(Arch::Wormhole, op, &[("Imm12", 0), ("VC", 1), ("VD", 2), ("Mod1", 4)]);
            out.push(named(op, "mod1=4", "wh-shflshr1-stale-lane", vec![shft2], s));
        }
        Opcode::SFPPOPC => {
            let mut s = reset();
            let entries = popc_stack();
            for l in 0..LANES {
                s.FlagStack[l] = FlagStack::from_entries(&entries).unwrap_or_default();
            }
            let popc = build_for(Arch::Wormhole, op, &[("VD", 0), ("Mod1", 1)]);
            out.push(named(op, "mod1=1", "wh-full-stack-bottom-clobber", vec![popc], s));
        }
        Opcode::SFPLOAD | Opcode::SFPSTORE => {
            for &(name, case_op, mod0, text, values) in DST_CASES {
                if case_op != op {
                    continue;
                }
                let mut s = reset();
                s.LReg[0] = lanes_of(values);
                let program = sfpu_reference::isa::parse_program(Arch::Wormhole, text)
                    .map(|p| p.into_iter().map(|l| l.instr).collect())
                    .unwrap_or_default();
                out.push(named(op, &format!("mod0={mod0}"), name, program, s));
            }
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_case_has_a_program_the_chip_can_encode() {
        let mut names = 0;
        for &op in Arch::Wormhole.opcodes() {
            for c in named_cases(op) {
                assert!(!c.program.is_empty(), "{}", c.name);
                for i in &c.program {
                    assert!(i.encode(Arch::Wormhole).is_ok(), "{}: {i:?}", c.name);
                }
                assert_eq!(c.pre.arch(), Arch::Wormhole);
                names += 1;
            }
        }
        assert_eq!(names, FMA_CASES.len() + DST_CASES.len() + 2);
    }
}
