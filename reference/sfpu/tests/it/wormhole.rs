//! Wormhole B0 against Blackhole A0: every difference of
//! `docs/spec/sfpu-wormhole.md#differences-from-blackhole` as the same program and state run on
//! both chips, with both expected results written out by hand from the pages (or from the notes'
//! measurements of the upstream FMA models, `Miscellaneous/FMA/fma.c`), never from the code under
//! test; and the no-panic property on both chips.

use crate::common::*;
use proptest::prelude::*;
use sfpu_reference::isa::{Arch, decode, decode_ignoring_undrawn};
use sfpu_reference::state::{DstDecodeFP32, DstEncodeFP32, FlagStack, FlagStackEntry, LANES};
use sfpu_reference::{Clause, Instr, Machine, Outcome, ResetValues, State, step};

const BH: Arch = Arch::Blackhole;
const WH: Arch = Arch::Wormhole;

/// Runs `program` (tt-llk text, one instruction per entry, parsed for each chip) on a fresh state
/// of each chip prepared by `prepare`, and returns both final states and merged outcomes.
fn both(program: &[&str], prepare: impl Fn(&mut State)) -> [(State, Outcome); 2] {
    [BH, WH].map(|arch| {
        let mut s = reset_of(arch);
        prepare(&mut s);
        let mut out = Outcome::defined();
        for text in program {
            out.merge(&run_on(&mut s, text));
        }
        (s, out)
    })
}

/// Executes a raw word on each chip as the hardware reads it (undrawn bits ignored, as for an
/// SFPLOADMACRO template), returning both final states and outcomes.
fn both_word(word: u32, prepare: impl Fn(&mut State)) -> [(State, Outcome); 2] {
    [BH, WH].map(|arch| {
        let mut s = reset_of(arch);
        prepare(&mut s);
        let (instr, _) = decode_ignoring_undrawn(arch, word).expect("an SFPU word on both chips");
        let out = step(&mut s, &instr);
        (s, out)
    })
}

// FMA numerics.

#[test]
fn fma_product_overflow_plus_opposite_infinity() {
    // `docs/spec/sfpu-wormhole.md#fma-examples-on-wormhole`: a = b = 0x7149f2ca (about 1e30), c =
    // 0xff800000 (-Inf): Wormhole 7f800001 (NaN), Blackhole ff800000 (c).
    let [(bh, _), (wh, _)] = both(&["TTI_SFPMAD(0, 1, 2, 3, 0)"], |s| {
        fill(s, 0, 0x7149_F2CA);
        fill(s, 1, 0x7149_F2CA);
        fill(s, 2, 0xFF80_0000);
    });
    assert_eq!(wh.LReg[3][0], 0x7F80_0001);
    assert_eq!(bh.LReg[3][0], 0xFF80_0000);
}

#[test]
fn fma_normalisation_sticky_bit() {
    // `docs/spec/sfpu-wormhole.md#fma-examples-on-wormhole`: a = 37f79eee, b = b97c1302, c =
    // afc60601: Wormhole b200199a, Blackhole b200199b (Wormhole drops a sticky bit, one ulp low).
    let [(bh, _), (wh, _)] = both(&["TTI_SFPMAD(0, 1, 2, 3, 0)"], |s| {
        fill(s, 0, 0x37F7_9EEE);
        fill(s, 1, 0xB97C_1302);
        fill(s, 2, 0xAFC6_0601);
    });
    assert_eq!(wh.LReg[3][0], 0xB200_199A);
    assert_eq!(bh.LReg[3][0], 0xB200_199B);
}

#[test]
fn fma_zero_sign_and_nan_form() {
    // -0 * 1.0 + -0: an exact zero. Blackhole (IEEE): c.sign & p.sign = -0; Wormhole: every zero
    // is +0 (SFPMAD.md: "If the output ... is denormal or negative zero, it'll be flushed to
    // positive zero").
    let [(bh, _), (wh, _)] = both(&["TTI_SFPMAD(0, 10, 1, 3, 0)"], |s| {
        fill(s, 0, 0x8000_0000);
        fill(s, 1, 0x8000_0000);
    });
    assert_eq!(bh.LReg[3][0], 0x8000_0000);
    assert_eq!(wh.LReg[3][0], 0x0000_0000);
    // Inf * 0 + 0: invalid. Blackhole: canonical 0x7fc00000. Wormhole: "the least significant bit
    // of the mantissa is guaranteed to be set" (0x7f800001 at least; here the product's sign, +).
    let [(bh, _), (wh, _)] = both(&["TTI_SFPMAD(0, 9, 9, 3, 0)"], |s| fill(s, 0, 0x7F80_0000));
    assert_eq!(bh.LReg[3][0], 0x7FC0_0000);
    assert_eq!(wh.LReg[3][0] & 0x7F80_0001, 0x7F80_0001);
}

// Mod bits ignored on Wormhole but active on Blackhole.

#[test]
fn mad_mod1_negations_are_blackhole_only() {
    // SFPMAD Mod1 = 1 (Blackhole NEGATE_VA): 2.0 * 3.0 + 1.0. Blackhole -6 + 1 = -5 (c0a00000);
    // Wormhole ignores the bit (unnamed on its page): 7 (40e00000), reported.
    let prep = |s: &mut State| {
        fill(s, 0, 0x4000_0000);
        fill(s, 1, 0x4040_0000);
        fill(s, 2, 0x3F80_0000);
    };
    let [(bh, bo), (wh, wo)] = both(&["TTI_SFPMAD(0, 1, 2, 3, 1)"], prep);
    assert_eq!(bh.LReg[3][0], 0xC0A0_0000);
    assert_eq!(wh.LReg[3][0], 0x40E0_0000);
    assert_eq!(bo.lanes(Clause::WormholeMadUnnamedMod1), 0);
    assert_eq!(wo.lanes(Clause::WormholeMadUnnamedMod1), ALL);
    // Mod1 = 2 (Blackhole NEGATE_VC): Blackhole 6 - 1 = 5 (40a00000), Wormhole 7.
    let [(bh, _), (wh, _)] = both(&["TTI_SFPMAD(0, 1, 2, 3, 2)"], prep);
    assert_eq!(bh.LReg[3][0], 0x40A0_0000);
    assert_eq!(wh.LReg[3][0], 0x40E0_0000);
    // SFPADDI Mod1 = 2: Imm16 1.0 + VD. VD = 2.0. Blackhole 1 - 2 = -1 (bf800000), Wormhole 3.
    let [(bh, _), (wh, wo)] = both(&["TTI_SFPADDI(0x3f80, 4, 2)"], |s| fill(s, 4, 0x4000_0000));
    assert_eq!(bh.LReg[4][0], 0xBF80_0000);
    assert_eq!(wh.LReg[4][0], 0x4040_0000);
    assert_eq!(wo.lanes(Clause::WormholeMadUnnamedMod1), ALL);
    // SFPMULI Mod1 = 2: 2.0 * VD(3.0): Blackhole -6 (c0c00000), Wormhole 6 (40c00000).
    let [(bh, _), (wh, _)] = both(&["TTI_SFPMULI(0x4000, 4, 2)"], |s| fill(s, 4, 0x4040_0000));
    assert_eq!(bh.LReg[4][0], 0xC0C0_0000);
    assert_eq!(wh.LReg[4][0], 0x40C0_0000);
}

#[test]
fn and_or_use_vb_is_blackhole_only() {
    // SFPAND VB=3 VC=1 VD=2 Mod1=USE_VB (0x7e003121). Blackhole: L2 = L3 & L1. Wormhole's
    // encoding has neither VB nor Mod1: the assembler refuses the word, and the hardware reading
    // it (a template) computes L2 = L2 & L1, with the undrawn bits reported.
    assert!(decode(WH, 0x7E00_3121).is_err());
    let prep = |s: &mut State| {
        fill(s, 1, 0x0000_FFFF);
        fill(s, 2, 0x1234_5678);
        fill(s, 3, 0xABCD_EF01);
    };
    let [(bh, _), (wh, _)] = both_word(0x7E00_3121, prep);
    assert_eq!(bh.LReg[2][0], 0x0000_EF01);
    assert_eq!(wh.LReg[2][0], 0x0000_5678);
    // SFPOR likewise (0x7f003121): Blackhole L3 | L1, Wormhole L2 | L1.
    let [(bh, _), (wh, _)] = both_word(0x7F00_3121, prep);
    assert_eq!(bh.LReg[2][0], 0xABCD_FFFF);
    assert_eq!(wh.LReg[2][0], 0x1234_FFFF);
}

#[test]
fn shft_arithmetic_and_use_vc_are_blackhole_only() {
    // SFPSHFT VC=1 VD=2 Mod1=2 (Blackhole ARITHMETIC), L1 = -4, L2 = 0x80000000. Blackhole:
    // arithmetic right shift by 4 = 0xf8000000. Wormhole: Mod1 > 1 is NonContractual, Mod1 & 1 = 0,
    // logical right shift = 0x08000000.
    let prep = |s: &mut State| {
        fill(s, 1, (-4i32) as u32);
        fill(s, 2, 0x8000_0000);
    };
    let [(bh, bo), (wh, wo)] = both(&["TTI_SFPSHFT(0, 1, 2, 2)"], prep);
    assert_eq!(bh.LReg[2][0], 0xF800_0000);
    assert_eq!(wh.LReg[2][0], 0x0800_0000);
    assert_eq!(bo.lanes(Clause::SfpshftReservedMod1), 0);
    assert_eq!(wo.lanes(Clause::SfpshftReservedMod1), ALL);
    // Mod1 = 5 (ARG_IMM | ARG_IMM_USE_VC), Imm12 = 1, L1 = 0x10, L2 = 0x100. Blackhole shifts VC:
    // 0x20. Wormhole: Mod1 & 1 = ARG_IMM, shifts VD: 0x200.
    let [(bh, _), (wh, _)] = both(&["TTI_SFPSHFT(1, 1, 2, 5)"], |s| {
        fill(s, 1, 0x10);
        fill(s, 2, 0x100);
    });
    assert_eq!(bh.LReg[2][0], 0x20);
    assert_eq!(wh.LReg[2][0], 0x200);
}

#[test]
fn pushc_mod1_is_blackhole_only() {
    // SFPPUSHC Mod1 = 3: Blackhole mutates the top; Wormhole's encoding fixes bits [3:0] to 0.
    assert!(decode(BH, 0x8700_0003).is_ok());
    assert!(decode(WH, 0x8700_0003).is_err());
    assert!(decode(WH, 0x8700_0000).is_ok());
}

#[test]
fn cast_mod1_2_and_3_change_meaning() {
    // L1 = sign-magnitude -5 (0x80000005).
    let prep = |s: &mut State| fill(s, 1, 0x8000_0005);
    // Mod1 = 2: Blackhole INT32_ABS (two's complement |0x80000005| = 0x7ffffffb); Wormhole reserved,
    // Mod1 & 1 = 0: SM32 -> FP32 round to nearest: -5.0 = 0xc0a00000.
    let [(bh, _), (wh, wo)] = both(&["TTI_SFPCAST(1, 2, 2)"], prep);
    assert_eq!(bh.LReg[2][0], 0x7FFF_FFFB);
    assert_eq!(wh.LReg[2][0], 0xC0A0_0000);
    assert_eq!(wo.lanes(Clause::SfpcastReservedMod1), ALL);
    // Mod1 = 3: Blackhole SM32 <-> INT32: sign | -c = 0xfffffffb; Wormhole stochastic SM32 -> FP32,
    // exact for 5: 0xc0a00000.
    let [(bh, _), (wh, _)] = both(&["TTI_SFPCAST(1, 2, 3)"], prep);
    assert_eq!(bh.LReg[2][0], 0xFFFF_FFFB);
    assert_eq!(wh.LReg[2][0], 0xC0A0_0000);
}

#[test]
fn stochrnd_rounding_mode_bit_22_is_blackhole_only() {
    // SFPSTOCHRND RoundingMode = 2 (Blackhole RND_ZERO), FP32 -> FP16B (Mod1 = 1) of 1.00390625
    // (0x3f808000, discarded bits 0x8000). Blackhole: PRNGBits 0x7fffff, 0x8000 >= 0xffff is false:
    // 0x3f800000. Wormhole: bit 22 is not drawn; the hardware reading the word sees
    // StochasticRounding (bit 21) = 0, round to nearest: 0x8000 >= 0x8000: 0x3f810000.
    let word = 0x8E40_0121; // RoundingMode 2, VC = 1, VD = 2, Mod1 = 1
    assert!(decode(WH, word).is_err());
    let [(bh, _), (wh, _)] = both_word(word, |s| fill(s, 1, 0x3F80_8000));
    assert_eq!(bh.LReg[2][0], 0x3F80_0000);
    assert_eq!(wh.LReg[2][0], 0x3F81_0000);
}

// SFPLOAD / SFPSTORE conversions and addressing.

#[test]
fn load_int8_magnitude_is_7_bits_on_wormhole() {
    // Dst16b[0][0] = Sign 0, magnitude 200 in bits [12:5] (0x1900). Blackhole SignMag9ToSignMag32:
    // 200; Wormhole SignMag8ToSignMag32 keeps 7 bits: 200 & 0x7f = 72.
    let [(bh, _), (wh, _)] = both(&["TTI_SFPLOAD(1, 5, 0, 0)"], |s| {
        s.Dst16b_write(0, 0, 0x1900);
    });
    assert_eq!(bh.LReg[1][0], 200);
    assert_eq!(wh.LReg[1][0], 72);
}

#[test]
fn load_and_store_int32_sm_and_int8_comp_convert_on_wormhole() {
    // SFPLOAD MOD0_FMT_INT32_SM (12) of Dst32b holding sign-magnitude -5: Blackhole raw 0x80000005,
    // Wormhole two's complement 0xfffffffb.
    let [(bh, _), (wh, _)] = both(&["TTI_SFPLOAD(1, 12, 0, 0)"], |s| {
        s.Dst32b_write(0, 0, DstEncodeFP32(0x8000_0005));
    });
    assert_eq!(bh.LReg[1][0], 0x8000_0005);
    assert_eq!(wh.LReg[1][0], 0xFFFF_FFFB);
    // SFPLOAD MOD0_FMT_INT8_COMP (13) of Dst16b "integer 8" -5 (sign 1, magnitude 5 << 5 =
    // 0x80a0): Blackhole sign-magnitude 0x80000005, Wormhole 0xfffffffb.
    let [(bh, _), (wh, _)] = both(&["TTI_SFPLOAD(1, 13, 0, 0)"], |s| {
        s.Dst16b_write(0, 0, 0x80A0);
    });
    assert_eq!(bh.LReg[1][0], 0x8000_0005);
    assert_eq!(wh.LReg[1][0], 0xFFFF_FFFB);
    // SFPSTORE MOD0_FMT_INT32_SM of two's complement -5: Blackhole stores 0xfffffffb raw, Wormhole
    // converts to sign-magnitude 0x80000005.
    let [(bh, _), (wh, _)] = both(&["TTI_SFPSTORE(1, 12, 0, 0)"], |s| fill(s, 1, 0xFFFF_FFFB));
    assert_eq!(DstDecodeFP32(bh.Dst32b_read(0, 0).value), 0xFFFF_FFFB);
    assert_eq!(DstDecodeFP32(wh.Dst32b_read(0, 0).value), 0x8000_0005);
}

#[test]
fn store_fp32_of_a_denormal() {
    // SFPSTORE MOD0_FMT_FP32 (3) of the denormal 0x00000001: Blackhole flushes to +0, Wormhole
    // stores the raw bits (as MOD0_FMT_INT32).
    let [(bh, _), (wh, _)] = both(&["TTI_SFPSTORE(1, 3, 0, 0)"], |s| fill(s, 1, 0x0000_0001));
    assert_eq!(DstDecodeFP32(bh.Dst32b_read(0, 0).value), 0);
    assert_eq!(DstDecodeFP32(wh.Dst32b_read(0, 0).value), 1);
    // SRCB in FP32 mode resolves to FP32, so the same difference.
    let [(bh, _), (wh, _)] = both(&["TTI_SFPSTORE(1, 0, 0, 0)"], |s| {
        fill(s, 1, 0x8000_0001);
        s.Addressing.ALU_ACC_CTRL_SFPU_Fp32_enabled = true;
    });
    assert_eq!(DstDecodeFP32(bh.Dst32b_read(0, 0).value), 0x8000_0000);
    assert_eq!(DstDecodeFP32(wh.Dst32b_read(0, 0).value), 0x8000_0001);
}

#[test]
fn the_sp_rwc_moves_only_blackhole_loads() {
    // With Sp = 2, Blackhole adds (Sp + DEST_SP_BASE) & 3 = 2 to Addr: odd columns, so lane 0
    // reads Dst16b[0][1]. Wormhole has no Sp term (the location is Blackhole's; set here directly
    // on the Rust state, which the Wormhole model never reads): lane 0 reads Dst16b[0][0].
    let [(bh, _), (wh, _)] = both(&["TTI_SFPLOAD(1, 6, 0, 0)"], |s| {
        s.Addressing.RWC.Sp = 2;
        s.Dst16b_write(0, 0, 0x1111);
        s.Dst16b_write(0, 1, 0x2222);
    });
    assert_eq!(bh.LReg[1][0], 0x2222);
    assert_eq!(wh.LReg[1][0], 0x1111);
}

#[test]
fn wormhole_addrmod_slot_uses_the_upper_bank() {
    // Wormhole RWCs.md: slot = AddrMod + 4 when ADDR_MOD_SET_Base. AddrMod 1 with the base set
    // applies slot 5 (DestIncr 8): RWC.Dst 0 -> 8, and nothing is reported.
    let mut s = reset_of(WH);
    s.Addressing.ADDR_MOD_SET_Base = true;
    s.Addressing.ADDR_MOD[5].DestIncr = 8;
    s.Addressing.ADDR_MOD[1].DestIncr = 1;
    let out = run_on(&mut s, "TTI_SFPLOAD(1, 6, 1, 0)");
    assert_eq!(s.Addressing.RWC.Dst, 8);
    assert!(out.is_defined(), "{out}");
}

// Hardware bugs fixed on Blackhole.

#[test]
fn shflshr1_stale_lane() {
    // L1 lane i = 0x100 + i, L3 lane i = 0x300 + i. SFPSHFT2 SUBVEC_SHFLROR1 (3) VC=1 VD=2 latches
    // vc0 = L1 on Wormhole; then SUBVEC_SHFLSHR1 (4) VC=3 VD=4 shifts L3 right one lane within each
    // group of 8. Lane 1 gets L3[0] = 0x300 on both. Lane 0 of each group: Blackhole 0; Wormhole
    // vc0[Lane + 7] = L1[7], L1[15], ... (NonContractual, reported for lanes 0, 8, 16, 24).
    let program = ["TTI_SFPSHFT2(0, 1, 2, 3)", "TTI_SFPNOP", "TTI_SFPSHFT2(0, 3, 4, 4)"];
    let [(bh, bo), (wh, wo)] = both(&program, |s| {
        s.LReg[1] = std::array::from_fn(|l| 0x100 + l as u32);
        s.LReg[3] = std::array::from_fn(|l| 0x300 + l as u32);
    });
    assert_eq!((bh.LReg[4][1], wh.LReg[4][1]), (0x300, 0x300));
    for g in 0..4 {
        assert_eq!(bh.LReg[4][8 * g], 0);
        assert_eq!(wh.LReg[4][8 * g], 0x100 + 8 * g as u32 + 7);
    }
    assert_eq!(bo.lanes(Clause::Sfpshft2Shflshr1StaleLane), 0);
    assert_eq!(wo.lanes(Clause::Sfpshft2Shflshr1StaleLane), 0x0101_0101);
    assert_eq!(wh.wormhole().unwrap().SFPSHFT2_vc0, std::array::from_fn(|l| 0x100 + l as u32));
}

#[test]
fn shflshr1_reads_the_latch_a_vector_sets() {
    // The latch is state a vector can set: a Wormhole document with SFPSHFT2_vc0.
    let mut s = State::from_yaml("arch: wormhole\nSFPSHFT2_vc0: 0xabc\nLReg: {3: 0x5}\n").unwrap();
    run_on(&mut s, "TTI_SFPSHFT2(0, 3, 4, 4)");
    assert_eq!(s.LReg[4][0], 0xABC);
    assert_eq!(s.LReg[4][1], 0x5);
    // SHFLROR1 with VD = VC = 9 zeroes the latch (SFPSHFT2.md).
    run_on(&mut s, "TTI_SFPSHFT2(0, 9, 9, 3)");
    assert_eq!(s.wormhole().unwrap().SFPSHFT2_vc0, [0; LANES]);
}

#[test]
fn popc_at_depth_8_clobbers_the_bottom_on_wormhole() {
    // Every lane's stack holds 8 entries: bottom {LaneFlags false, Use false}, the others
    // {true, true}. SFPPOPC Mod1 = 1 (LaneFlags = Top.LaneFlags) at depth 8: Wormhole also does
    // Bottom() = Top; Blackhole leaves the stack alone. Both report the warned-against case.
    let prep = |s: &mut State| {
        let mut entries = vec![FlagStackEntry { LaneFlags: true, UseLaneFlagsForLaneEnable: true }; 8];
        entries[0] = FlagStackEntry::default();
        s.FlagStack = [FlagStack::from_entries(&entries).unwrap(); LANES];
    };
    let [(bh, bo), (wh, wo)] = both(&["TTI_SFPPOPC(0, 0, 0, 1)"], prep);
    let top = FlagStackEntry { LaneFlags: true, UseLaneFlagsForLaneEnable: true };
    assert_eq!(bh.FlagStack[0].entries()[0], FlagStackEntry::default());
    assert_eq!(wh.FlagStack[0].entries()[0], top);
    assert_eq!((bh.FlagStack[0].len(), wh.FlagStack[0].len()), (8, 8));
    assert!(bh.LaneFlags[0] && wh.LaneFlags[0]);
    assert_eq!(bo.lanes(Clause::SfppopcFullStackComplex), ALL);
    assert_eq!(wo.lanes(Clause::SfppopcFullStackComplex), ALL);
}

#[test]
fn blackhole_only_opcodes_are_not_wormhole_instructions() {
    // 0x96..=0x99 decode on Blackhole only; an Instr built for Blackhole executed on a Wormhole
    // state does nothing and is reported.
    let gt = decode(BH, 0x9700_0121).unwrap();
    let mut s = reset_of(WH);
    fill(&mut s, 1, 5);
    let before = s.clone();
    let out = step(&mut s, &gt);
    assert_eq!(s, before);
    assert_eq!(out.lanes(Clause::NotOnChip), ALL);
    // So does an SFPAND with USE_VB.
    let and_vb = decode(BH, 0x7E00_3121).unwrap();
    assert_eq!(step(&mut s, &and_vb).lanes(Clause::NotOnChip), ALL);
}

#[test]
fn shft2_reserved_mod1_is_undefined_on_both_chips() {
    // WormholeB0 SFPSHFT2.md @ a052bcc9 and BlackholeA0 SFPSHFT2.md @ 41d2c717 both end the
    // switch with `default: UndefinedBehavior();`.
    let [(_, bo), (_, wo)] = both(&["TTI_SFPSHFT2(0, 1, 2, 7)"], |_| {});
    assert_eq!(bo.lanes(Clause::Sfpshft2UndefinedMod1), ALL);
    assert_eq!(bo.worst(), Some(sfpu_reference::outcome::Kind::Undefined));
    assert_eq!(wo.lanes(Clause::Sfpshft2UndefinedMod1), ALL);
}

#[test]
fn shared_pages_agree_on_both_chips() {
    // A shared transcription gives the same bits on both chips: SFPSWAP min/max, SFPIADD, SFPLUT
    // with an exact product (0.5 * 1.5 + 0.25 on both FMA models: 1.0).
    let [(bh, _), (wh, _)] =
        both(&["TTI_SFPSWAP(0, 1, 2, 1)", "TTI_SFPNOP", "TTI_SFPIADD(5, 2, 4, 5)"], |s| {
            fill(s, 1, 0x3F80_0000);
            fill(s, 2, 0xBF80_0000);
        });
    assert_eq!((bh.LReg[1][0], bh.LReg[2][0], bh.LReg[4][0]), (0x3F80_0000, 0xBF80_0000, 0xBF80_0005));
    assert_eq!((wh.LReg[1][0], wh.LReg[2][0], wh.LReg[4][0]), (0x3F80_0000, 0xBF80_0000, 0xBF80_0005));
}

#[test]
fn reset_values_are_the_same_documented_ones() {
    // LReg.md is shared: constants 8, 9, 10, 15; Dst rows valid; empty stacks, flags false.
    for arch in [BH, WH] {
        let s = State::reset(arch, &ResetValues::ZEROS);
        assert_eq!(s.arch(), arch);
        assert_eq!(
            (s.LReg[8][3], s.LReg[9][3], s.LReg[10][3], s.LReg[15][3]),
            (0x3F56_594B, 0, 0x3F80_0000, 6)
        );
        assert!(s.Dst.DstRowValid.iter().all(|&v| v));
    }
    let rv = ResetValues { sfpshft2_vc0: 0x77, ..ResetValues::ZEROS };
    assert_eq!(State::reset(WH, &rv).wormhole().unwrap().SFPSHFT2_vc0, [0x77; LANES]);
    assert!(State::reset(BH, &rv).wormhole().is_none());
}

fn arch() -> impl Strategy<Value = Arch> {
    proptest::sample::select(Arch::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3_000))]

    /// No word and no state makes either chip panic: every SFPU word, read as the hardware reads
    /// it, executes on a state with random LRegs, flags, stacks, configuration and latch.
    #[test]
    fn no_word_and_state_panics(
        arch in arch(),
        words in proptest::collection::vec(any::<u32>(), 1..6),
        lregs in proptest::collection::vec(any::<u32>(), 8),
        bits in any::<u32>(),
        lane_config in 0u32..0x40000,
        templates in proptest::array::uniform4(any::<u32>()),
        sequences in proptest::array::uniform4(any::<u32>()),
    ) {
        let mut s = reset_of(arch);
        for (r, v) in lregs.iter().enumerate() {
            fill(&mut s, r, *v);
        }
        s.LaneFlags = std::array::from_fn(|l| (bits >> l) & 1 != 0);
        s.UseLaneFlagsForLaneEnable = std::array::from_fn(|l| (bits >> ((l + 7) & 31)) & 1 != 0);
        for l in 0..LANES {
            s.LaneConfig[l] = sfpu_reference::state::LaneConfig::truncating(lane_config ^ l as u32);
            s.LoadMacroConfig[l].InstructionTemplate = templates;
            s.LoadMacroConfig[l].Sequence = sequences;
            let depth = (bits as usize >> (l % 4)) % 9;
            s.FlagStack[l] = FlagStack::from_entries(&vec![FlagStackEntry::default(); depth]).unwrap();
        }
        if let Some(wh) = s.wormhole_mut() {
            wh.SFPSHFT2_vc0 = [bits; LANES];
        }
        let mut m = Machine::new();
        for w in words {
            // Fold any opcode byte onto the chip's SFPU opcodes.
            let ops = arch.opcodes();
            let op = ops[(w >> 24) as usize % ops.len()];
            let word = ((op.number() as u32) << 24) | (w & 0x00FF_FFFF);
            let (instr, _) = decode_ignoring_undrawn(arch, word).unwrap();
            let _ = m.issue(&mut s, &instr);
            // Also a Blackhole instruction on whatever chip the state is for.
            if let Ok(bh) = decode(BH, word) {
                let _ = step(&mut s.clone(), &bh);
            }
        }
        let _ = m.drain(&mut s);
        prop_assert!(s.constants_intact());
        prop_assert_eq!(s.arch(), arch);
        // And the state's serde form is lossless.
        prop_assert_eq!(State::from_yaml(&s.to_yaml()).unwrap(), s);
    }
}

/// Any instruction of either chip round-trips through its own chip's words, and an instruction
/// executed on the wrong chip is reported rather than executed (a sanity check of the typed
/// encoder against `step`).
#[test]
fn every_wormhole_opcode_executes() {
    for &op in Arch::Wormhole.opcodes() {
        let word = (op.number() as u32) << 24;
        let instr: Instr = decode(WH, word).unwrap();
        let mut s = reset_of(WH);
        let out = step(&mut s, &instr);
        assert_eq!(out.lanes(Clause::NotOnChip), 0, "{op:?}");
    }
}

/// The rows of Dst whose contents differ between `a` and `b`, ascending.
fn rows_changed(a: &State, b: &State) -> Vec<usize> {
    (0..1024).filter(|&r| a.Dst.DstBits[r] != b.Dst.DstBits[r]).collect()
}

/// WormholeB0 `Dst.md` (@ 093af914): `Dst16b[Row]` is `DstBits[Row]` and
/// `Adj32(Row) = ((Row & 0x1f8) << 1) | (Row & 0x207)`; Blackhole's `DEST_ACCESS_CFG_remap_addrs`
/// (`Adj16`) and `swizzle_32b` do not exist there, so a Wormhole state with them set (only
/// possible from Rust; the serde form rejects it) stores to the page's rows. Blackhole with both
/// set: 16-bit row 16 -> Adj16 8, 32-bit row 16 -> Adj16 8 -> swizzle 4 -> Adj32 4 (BlackholeA0
/// `Dst.md`, the hand values of `load_store_shuffle.rs`).
#[test]
fn wormhole_dst_rows_are_not_remapped() {
    for (text, bh_rows, wh_rows) in [
        ("TTI_SFPSTORE(1, 4, 0, 16)", vec![4, 5, 6, 7, 12, 13, 14, 15], vec![32, 33, 34, 35, 40, 41, 42, 43]),
        (
            "TTI_SFPSTORE(1, 4, 0, 8)",
            vec![64, 65, 66, 67, 72, 73, 74, 75],
            vec![16, 17, 18, 19, 24, 25, 26, 27],
        ),
        ("TTI_SFPSTORE(1, 1, 0, 16)", vec![8, 9, 10, 11], vec![16, 17, 18, 19]),
        ("TTI_SFPSTORE(1, 1, 0, 8)", vec![32, 33, 34, 35], vec![8, 9, 10, 11]),
    ] {
        let prepare = |s: &mut State| {
            s.Addressing.DEST_ACCESS_CFG_remap_addrs = true;
            s.Addressing.DEST_ACCESS_CFG_swizzle_32b = text.ends_with(" 16)");
            fill(s, 1, 0x3F80_0777);
        };
        let [(bh, _), (wh, _)] = both(&[text], prepare);
        let (bh0, wh0) = (reset_of(BH), reset_of(WH));
        assert_eq!(rows_changed(&bh0, &bh), bh_rows, "Blackhole {text}");
        assert_eq!(rows_changed(&wh0, &wh), wh_rows, "Wormhole {text}");
    }
    // Loads read the same rows: a value placed in DstBits[17] is what the 8 lanes of a 16-bit
    // (MOD0 6) load of row 16 that read row 17 see, whatever remap_addrs says.
    let mut s = reset_of(WH);
    s.Addressing.DEST_ACCESS_CFG_remap_addrs = true;
    s.Dst.DstBits[17] = [0x1234; 16];
    run_on(&mut s, "TTI_SFPLOAD(2, 6, 0, 16)");
    assert_eq!(s.LReg[2].iter().filter(|&&x| x == 0x1234).count(), 8, "{:x?}", s.LReg[2]);
}

/// WormholeB0 `SFPLOADMACRO.md` (@ a981f403): `AddrMod` is two bits there, so an SFPLOADMACRO
/// with AddrMod 4..7 (a Blackhole `Instr`) is not a Wormhole instruction: issued to a Wormhole
/// machine it is reported `not-on-chip`, loads nothing, schedules nothing and moves no RWC.
#[test]
fn wormhole_loadmacro_addrmod_4_to_7_is_not_on_chip() {
    // MacroIndex 0, VDLo 1, Mod0 0, AddrMod 5, Imm9 4 (Blackhole layout: AddrMod is [15:13]).
    let lm = decode(BH, 0x9310_A008).unwrap();
    assert!(lm.encode(WH).is_err());
    let mut s = reset_of(WH);
    for l in 0..LANES {
        // Sequence 0 schedules an SFPSTORE (selector 3) on the store sub-unit, delay 0.
        s.LoadMacroConfig[l].Sequence[0] = 3 << 24;
    }
    fill(&mut s, 1, 0x1111_1111);
    let before = s.clone();
    let mut m = Machine::new();
    let out = m.issue(&mut s, &lm);
    assert_eq!(out.lanes(Clause::NotOnChip), ALL);
    let _ = m.drain(&mut s);
    assert!(s == before, "the state changed");
    // The same macro with AddrMod 1 is a Wormhole instruction: its SFPLOAD part loads Dst (zero
    // after reset) into LReg[1] (control).
    let ok = decode(BH, 0x9310_2008).unwrap();
    let mut s2 = before.clone();
    let mut m = Machine::new();
    assert_eq!(m.issue(&mut s2, &ok).lanes(Clause::NotOnChip), 0);
    let _ = m.drain(&mut s2);
    assert_eq!(s2.LReg[1], [0; LANES]);
}
