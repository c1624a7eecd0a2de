//! SFPLOAD and SFPSTORE (Dst data conversions, the 16-bit and 32-bit Dst views, address
//! computation, RWC updates), SFPSHFT2, SFPSWAP and SFPTRANSP.
//!
//! Sources: BlackholeA0 `SFPLOAD.md`, `SFPSTORE.md`, `Dst.md`, `SFPSHFT2.md`, `SFPSWAP.md`;
//! WormholeB0 `SFPTRANSP.md` and `RWCs.md`. Every expected value is computed by hand next to its
//! assertion (or by Rust's own `f32` arithmetic / `f32::total_cmp` where that is an exact oracle).

use crate::common::*;

use sfpu_reference::state::addressing::data_format as fmt;
use sfpu_reference::state::{AddrModSlot, LANES, LaneConfig, Rwc};
use sfpu_reference::{Clause, Kind, State};

/// A value no conversion produces, for "this lane was not written".
const SENT: u32 = 0xDEAD_BEEF;
/// Background of every Dst cell in the tests that check which cells were written.
const NOISE: u16 = 0x5A5A;

// LaneConfig bits (SFPCONFIG.md "LaneConfig" table).
const FP16A_INF: u32 = 1 << 0;
const DBL: u32 = 1 << 1;
const DEST_INDEX: u32 = 1 << 2;
const CAPTURE: u32 = 1 << 3;
const BLOCK_WR: u32 = 1 << 4;
const BLOCK_RD: u32 = 1 << 5;
const RD_XCHG: u32 = 1 << 6;
const WR_XCHG: u32 = 1 << 7;
const XCHG_BC: u32 = 1 << 8;
const fn row_mask(m: u32) -> u32 {
    m << 12
}

// MOD0_FMT_* values (SFPLOAD.md / SFPSTORE.md supporting definitions).
const FP16: u32 = 1;
const BF16: u32 = 2;
const FP32: u32 = 3;
const INT32: u32 = 4;
const INT8: u32 = 5;
const UINT16: u32 = 6;
const HI16: u32 = 7;
const INT16: u32 = 8;
const LO16: u32 = 9;
const INT32_ALL: u32 = 10;
const ZERO: u32 = 11;
const INT32_SM: u32 = 12;
const INT8_COMP: u32 = 13;
const LO16_ONLY: u32 = 14;
const HI16_ONLY: u32 = 15;

// ------------------------------------------------------------------------------------------------
// Helpers
// ------------------------------------------------------------------------------------------------

/// `v` repeated over the 32 lanes.
fn spread(v: &[u32]) -> [u32; LANES] {
    std::array::from_fn(|l| v[l % v.len()])
}

/// A per-lane array from a function of the lane.
fn lanes(f: impl Fn(usize) -> u32) -> [u32; LANES] {
    std::array::from_fn(f)
}

fn lc_lane(s: &mut State, lane: usize, bits: u32) {
    s.LaneConfig[lane] = LaneConfig::new(bits).unwrap();
}

/// Sets the LaneConfig of every lane of column `col` (lanes col, col+8, col+16, col+24), as
/// SFPCONFIG's 8-lane broadcast would.
fn lc_col(s: &mut State, col: usize, bits: u32) {
    for l in (col..LANES).step_by(8) {
        lc_lane(s, l, bits);
    }
}

fn lc_all(s: &mut State, bits: u32) {
    for l in 0..LANES {
        lc_lane(s, l, bits);
    }
}

/// The logical (row, column) lane `lane` accesses at `Addr` (SFPLOAD.md / SFPSTORE.md:
/// `Row = (Addr & ~3) + (Lane / 8)`, `Column = (Lane & 7) * 2 (+1 if Addr & 2)`).
fn cell(addr: u32, lane: usize) -> (usize, usize) {
    ((addr & !3) as usize + lane / 8, 2 * (lane & 7) + ((addr >> 1) & 1) as usize)
}

/// `Adj32(r)` of Dst.md with remap_addrs and swizzle_32b both off: `((r & 0x1f8) << 1) | (r & 0x207)`.
fn adj32_plain(r: usize) -> usize {
    ((r & 0x1F8) << 1) | (r & 0x207)
}

/// Writes `Dst16b` at the cells the lanes access at `addr` (no remap).
fn put16(s: &mut State, addr: u32, v: &[u32; LANES]) {
    for (l, &x) in v.iter().enumerate() {
        let (r, c) = cell(addr, l);
        s.Dst.DstBits[r][c] = x as u16;
    }
}

fn get16(s: &State, addr: u32) -> [u32; LANES] {
    lanes(|l| {
        let (r, c) = cell(addr, l);
        s.Dst.DstBits[r][c] as u32
    })
}

/// Writes `Dst32b` (high half at `Adj32(row)`, low half 8 rows further) at the lanes' cells.
fn put32(s: &mut State, addr: u32, v: &[u32; LANES]) {
    for (l, &x) in v.iter().enumerate() {
        let (r, c) = cell(addr, l);
        let p = adj32_plain(r);
        s.Dst.DstBits[p][c] = (x >> 16) as u16;
        s.Dst.DstBits[p + 8][c] = x as u16;
    }
}

fn get32(s: &State, addr: u32) -> [u32; LANES] {
    lanes(|l| {
        let (r, c) = cell(addr, l);
        let p = adj32_plain(r);
        ((s.Dst.DstBits[p][c] as u32) << 16) | s.Dst.DstBits[p + 8][c] as u32
    })
}

/// A reset state whose every Dst cell holds [`NOISE`].
fn noisy() -> State {
    let mut s = reset();
    *s.Dst.DstBits = [[NOISE; 16]; 1024];
    s
}

/// Every Dst cell that no longer holds [`NOISE`].
fn changed_cells(s: &State) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    for r in 0..1024 {
        for c in 0..16 {
            if s.Dst.DstBits[r][c] != NOISE {
                v.push((r, c));
            }
        }
    }
    v
}

/// The physical cells a store at `Addr` 0 touches for the lanes in `m` (16-bit view: one row,
/// 32-bit view: the row and the row 8 further on).
fn cells_at0(m: u32, wide: bool) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    for l in 0..LANES {
        if (m >> l) & 1 != 0 {
            let (r, c) = cell(0, l);
            v.push((r, c));
            if wide {
                v.push((r + 8, c));
            }
        }
    }
    v.sort();
    v
}

/// The predication mask used to check disabled lanes.
const SOME: u32 = 0x3C3C_0F0F;

/// Loads with `TTI_SFPLOAD(1, mod0, 0, 0)` from Dst cells (16-bit view, or 32-bit when `wide`)
/// holding `cases[i].0`, LReg[1] holding `old`, and checks LReg[1] against `cases[i].1`; then
/// again with only the lanes of [`SOME`] enabled (disabled lanes keep `old`, except in
/// INT32_ALL, which ignores LaneEnabled).
#[track_caller]
fn check_load(mod0: u32, wide: bool, old: u32, cases: &[(u32, u32)]) {
    let dst: Vec<u32> = cases.iter().map(|c| c.0).collect();
    let want: Vec<u32> = cases.iter().map(|c| c.1).collect();
    for enabled in [ALL, SOME] {
        let mut s = noisy();
        if wide {
            put32(&mut s, 0, &spread(&dst));
        } else {
            put16(&mut s, 0, &spread(&dst));
        }
        fill(&mut s, 1, old);
        if enabled != ALL {
            predicate(&mut s, enabled);
        }
        let out = run(&mut s, &format!("TTI_SFPLOAD(1, {mod0}, 0, 0)"));
        assert_defined(&out);
        let all = spread(&want);
        let expect = lanes(|l| if (enabled >> l) & 1 != 0 || mod0 == INT32_ALL { all[l] } else { old });
        assert_lanes(&s.LReg[1], &expect, &format!("SFPLOAD Mod0={mod0} enabled={enabled:#x}"));
        assert!(s.constants_intact());
    }
}

/// Stores LReg[1] holding `cases[i].0` with `TTI_SFPSTORE(1, mod0, 0, 0)` and checks the
/// Dst cells (16-bit view, or 32-bit when `wide`) against `cases[i].1` and that no other cell
/// changed; then again with only the lanes of [`SOME`] enabled.
#[track_caller]
fn check_store(mod0: u32, wide: bool, cases: &[(u32, u32)]) {
    let src: Vec<u32> = cases.iter().map(|c| c.0).collect();
    let want: Vec<u32> = cases.iter().map(|c| c.1).collect();
    for enabled in [ALL, SOME] {
        let mut s = noisy();
        set(&mut s, 1, spread(&src));
        if enabled != ALL {
            predicate(&mut s, enabled);
        }
        let out = run(&mut s, &format!("TTI_SFPSTORE(1, {mod0}, 0, 0)"));
        assert_defined(&out);
        let written = if mod0 == INT32_ALL { ALL } else { enabled };
        let all = spread(&want);
        let noise = if wide { ((NOISE as u32) << 16) | NOISE as u32 } else { NOISE as u32 };
        let expect = lanes(|l| if (written >> l) & 1 != 0 { all[l] } else { noise });
        let got = if wide { get32(&s, 0) } else { get16(&s, 0) };
        assert_lanes(&got, &expect, &format!("SFPSTORE Mod0={mod0} enabled={enabled:#x}"));
        let mut changed = changed_cells(&s);
        changed.retain(|&(r, c)| {
            // a written value may coincide with NOISE; only cells outside the lanes' cells matter
            !cells_at0(written, wide).contains(&(r, c))
        });
        assert!(changed.is_empty(), "SFPSTORE Mod0={mod0} touched other cells: {changed:?}");
    }
}

// ------------------------------------------------------------------------------------------------
// SFPLOAD: data conversions, one test per Mod0 (SFPLOAD.md functional model)
// ------------------------------------------------------------------------------------------------

#[test]
fn sfpload_fp16_rebiases_and_shuffles() {
    // Dst FP16 layout: [15] sign, [14:5] mantissa, [4:0] exponent.
    // Result: Sign<<31 | (Exp+112)<<23 | Man<<13 for Exp != 0; Exp == 0 is not rebiased.
    check_load(
        FP16,
        false,
        SENT,
        &[
            (0x000F, 0x3F80_0000), // 1.0: e=15 -> 127
            (0xC00F, 0xBFC0_0000), // -1.5: s=1, m=0x200 (0x200<<5 = 0x4000), e=15
            (0x0000, 0x0000_0000),
            (0x8000, 0x8000_0000),
            (0x7FE0, 0x007F_E000), // e=0, m=0x3FF: FP32 denormal 0x3FF<<13
            (0x8020, 0x8000_2000), // e=0, m=1, negative
            (0x7FFF, 0x47FF_E000), // e=31, m=0x3FF, no FP16A_INF: 143<<23 = 0x47800000 | 0x7FE000
            (0xFFDF, 0xC7FF_C000), // s=1, m=0x3FE, e=31
            (0x0001, 0x3880_0000), // e=1: 113<<23 = 2^-14
            (0x001E, f(32768.0)),  // e=30, m=0: 2^15
            // FP16 0x5A3C (e=22, m=0x23C) -> Dst (0x23C<<5)|22 = 0x4796; (1+572/1024)*2^7 = 199.5
            (0x4796, f((1.0 + 572.0 / 1024.0) * 128.0)),
        ],
    );
    assert_eq!(f(199.5), 0x4347_8000); // 134<<23 | 0x23C<<13
}

#[test]
fn sfpload_fp16_enable_fp16a_inf_maps_only_the_largest_pattern_to_inf() {
    let cases = [
        (0x7FFF, 0x7F80_0000), // e=31, m=0x3FF -> +Inf
        (0xFFFF, 0xFF80_0000), // -Inf
        (0xFFDF, 0xC7FF_C000), // m=0x3FE: normal rebias
        (0x7C1F, 0x47FC_0000), // m=0x3E0 (0x3E0<<5 = 0x7C00), e=31: 0x47800000 | 0x3E0<<13
        (0x000F, 0x3F80_0000),
        (0x7FE0, 0x007F_E000), // e=0 stays a denormal pattern
    ];
    for enabled in [ALL, SOME] {
        let mut s = noisy();
        lc_all(&mut s, FP16A_INF);
        put16(&mut s, 0, &spread(&cases.map(|c| c.0)));
        fill(&mut s, 2, SENT);
        if enabled != ALL {
            predicate(&mut s, enabled);
        }
        assert_defined(&run(&mut s, "TTI_SFPLOAD(2, MOD0_FMT_FP16, 0, 0)"));
        let all = spread(&cases.map(|c| c.1));
        assert_lanes(
            &s.LReg[2],
            &lanes(|l| if (enabled >> l) & 1 != 0 { all[l] } else { SENT }),
            "FP16A_INF",
        );
    }
    // Per lane: only the lanes whose LaneConfig has the bit (column 4 here).
    let mut s = reset();
    lc_col(&mut s, 4, FP16A_INF);
    put16(&mut s, 0, &[0x7FFF; LANES]);
    run(&mut s, "TTI_SFPLOAD(2, MOD0_FMT_FP16, 0, 0)");
    let expect = lanes(|l| if l & 7 == 4 { 0x7F80_0000 } else { 0x47FF_E000 });
    assert_lanes(&s.LReg[2], &expect, "FP16A_INF per lane");
}

#[test]
fn sfpload_bf16_shuffles_without_flushing() {
    // Dst BF16 layout: [15] sign, [14:8] mantissa, [7:0] exponent. Result = IEEE BF16 << 16.
    check_load(
        BF16,
        false,
        SENT,
        &[
            (0x007F, 0x3F80_0000), // 1.0
            (0xA080, 0xC020_0000), // -2.5 = BF16 0xC020: s=1, e=0x80, m=0x20
            (0x0100, 0x0001_0000), // e=0, m=1: denormal kept
            (0x00FF, 0x7F80_0000), // +Inf
            (0x40FF, 0x7FC0_0000), // m=0x40, e=0xFF: NaN
            (0x8000, 0x8000_0000),
            (0xC980, 0xC049_0000), // s=1, m=0x49, e=0x80: -pi truncated
            (0x7FFF, 0x7FFF_0000), // m=0x7F, e=0xFF
            (0x0000, 0x0000_0000),
        ],
    );
}

/// Dst32b (high half << 16 | low half) cases shared by the four 32-bit load modes.
const DST32_LOAD_CASES: [(u32, u32); 8] = [
    (0x4980_0FDB, 0x4049_0FDB), // pi: high 0x4980 = m 0x49, e 0x80 -> 0x4049
    (0x8000_0005, 0x8000_0005), // sign-magnitude -5
    (0x0000_0001, 0x0000_0001), // FP32 denormal: no flush on load
    (0x7FFF_FFFF, 0x7FFF_FFFF), // m=0x7F, e=0xFF
    (0x007F_1234, 0x3F80_1234), // e=0x7F
    (0x40FF_0001, 0x7FC0_0001), // NaN
    (0x3424_5678, 0x1234_5678), // m=0x34, e=0x24 -> 0x24<<7 | 0x34 = 0x1234
    (0xFF00_FFFF, 0x807F_FFFF), // s=1, m=0x7F, e=0 -> negative denormal kept
];

#[test]
fn sfpload_fp32_int32_int32_sm_int32_all_are_the_same_shuffle() {
    // INT32_SM is deprecated on Blackhole (no sign-magnitude conversion). INT32_ALL: with Sp = 0
    // and every base 0 its address is Imm10 (Sp is not pre-decremented); it ignores LaneEnabled.
    for mode in [FP32, INT32, INT32_SM, INT32_ALL] {
        check_load(mode, true, SENT, &DST32_LOAD_CASES);
    }
}

/// Dst16b integer cases: (dst, INT8 result, INT8_COMP result).
const INT8_CASES: [(u32, u32, u32); 8] = [
    (0x0C90, 0x64, 0x64),               // +100: (100<<5)|16
    (0x9FF0, 0x8000_00FF, 0x8000_00FF), // -255: 0x8000 | 255<<5 | 16
    (0x7FF0, 0xFF, 0x3FF),              // magnitude 0x3FF: INT8 keeps 8 bits
    (0x2010, 0x00, 0x100),              // magnitude 256
    (0x0C9F, 0x64, 0x64),               // low five bits ignored
    (0x8000, 0x8000_0000, 0x8000_0000), // -0 (exponent field 0)
    (0xE010, 0x8000_0000, 0x8000_0300), // (0x6010>>5) = 0x300
    (0x4A70, 0x53, 0x253),              // 0x4A70>>5 = 0x253; bits [14:13] ignored by INT8
];

#[test]
fn sfpload_int8_takes_eight_bits_of_magnitude() {
    check_load(INT8, false, SENT, &INT8_CASES.map(|c| (c.0, c.1)));
}

#[test]
fn sfpload_int8_comp_takes_ten_bits_of_magnitude() {
    check_load(INT8_COMP, false, SENT, &INT8_CASES.map(|c| (c.0, c.2)));
}

#[test]
fn sfpload_sixteen_bit_integer_modes() {
    // INT16: sign<<31 | low 15 bits. UINT16 and LO16: zero-extend. HI16: << 16.
    // LO16_ONLY / HI16_ONLY keep the other half of the old value 0x12345678. ZERO: 0.
    let dst = [0x8005, 0x7FFF, 0xFFFF, 0x0000, 0x1234, 0x8000];
    let table: [(u32, [u32; 6]); 7] = [
        (INT16, [0x8000_0005, 0x7FFF, 0x8000_7FFF, 0, 0x1234, 0x8000_0000]),
        (UINT16, [0x8005, 0x7FFF, 0xFFFF, 0, 0x1234, 0x8000]),
        (LO16, [0x8005, 0x7FFF, 0xFFFF, 0, 0x1234, 0x8000]),
        (HI16, [0x8005_0000, 0x7FFF_0000, 0xFFFF_0000, 0, 0x1234_0000, 0x8000_0000]),
        (LO16_ONLY, [0x1234_8005, 0x1234_7FFF, 0x1234_FFFF, 0x1234_0000, 0x1234_1234, 0x1234_8000]),
        (HI16_ONLY, [0x8005_5678, 0x7FFF_5678, 0xFFFF_5678, 0x0000_5678, 0x1234_5678, 0x8000_5678]),
        (ZERO, [0; 6]),
    ];
    for (mode, want) in table {
        let cases: Vec<(u32, u32)> = dst.iter().copied().zip(want).collect();
        check_load(mode, false, 0x1234_5678, &cases);
    }
}

/// The configuration MOD0_FMT_SRCB resolution reads: (ALU_ACC_CTRL_SFPU_Fp32_enabled,
/// ALU_FORMAT_SPEC_REG_SrcB_override, ALU_FORMAT_SPEC_REG_SrcB_val, ALU_FORMAT_SPEC_REG1_SrcB,
/// SFPU_DEST_FMT_Enable, SFPU_DEST_FMT_Base).
type Srcb = (bool, bool, u16, u16, bool, u16);

fn set_srcb(s: &mut State, c: Srcb) {
    let a = &mut s.Addressing;
    a.ALU_ACC_CTRL_SFPU_Fp32_enabled = c.0;
    a.ALU_FORMAT_SPEC_REG_SrcB_override = c.1;
    a.ALU_FORMAT_SPEC_REG_SrcB_val = c.2;
    a.ALU_FORMAT_SPEC_REG1_SrcB = c.3;
    a.SFPU_DEST_FMT_Enable = c.4;
    a.SFPU_DEST_FMT_Base = c.5;
}

/// Configurations and what MOD0_FMT_SRCB resolves to under them.
const SRCB_CASES: [(Srcb, u32); 9] = [
    ((true, false, 0, fmt::FP16, false, 0), FP32),
    ((true, false, 0, 0, true, fmt::FP16), FP32), // Fp32_enabled wins over SFPU_DEST_FMT
    ((false, false, 0, fmt::FP16, false, 0), FP16), // REG1_SrcB
    ((false, false, 0, fmt::BF16, false, 0), BF16),
    ((false, false, fmt::FP16, fmt::BF16, false, 0), BF16), // SrcB_val ignored without override
    ((false, true, fmt::FP16, fmt::BF16, false, 0), FP16),  // override
    ((false, false, 0, fmt::FP16, true, fmt::TF32), BF16),  // Blackhole: SFPU_DEST_FMT_Base wins
    ((false, true, fmt::BF16, 0, true, fmt::INT8), FP16),
    ((false, false, 0, fmt::FP16, false, fmt::BF16), FP16), // Base ignored when not enabled
];

#[test]
fn sfpload_srcb_resolution() {
    // Dst32b[0..3][even] = 0x007F_1234: as FP32 -> 0x3F801234; the high half 0x007F read as
    // BF16 -> 0x3F800000; read as FP16: m = (0x7F>>5)&0x3FF = 3, e = 0x7F & 0x1F = 31 ->
    // 143<<23 | 3<<13 = 0x47806000.
    let value = |mode| match mode {
        FP32 => 0x3F80_1234,
        BF16 => 0x3F80_0000,
        _ => 0x4780_6000,
    };
    let load = |c: Srcb| {
        let mut s = reset();
        put32(&mut s, 0, &[0x007F_1234; LANES]);
        set_srcb(&mut s, c);
        assert_defined(&run(&mut s, "TTI_SFPLOAD(3, MOD0_FMT_SRCB, 0, 0)"));
        let v = s.LReg[3][0];
        assert!(s.LReg[3].iter().all(|&x| x == v));
        v
    };
    for (c, mode) in SRCB_CASES {
        assert_eq!(load(c), value(mode), "{c:?}");
    }
    // Every format code: {FP32, TF32, BF16, BFP8, BFP4, BFP2, INT32, INT16} -> BF16, others FP16.
    let bf16_set = [fmt::FP32, fmt::TF32, fmt::BF16, fmt::BFP8, fmt::BFP4, fmt::BFP2, fmt::INT32, fmt::INT16];
    assert_eq!(bf16_set, [0, 4, 5, 6, 7, 15, 8, 9]);
    for code in 0..16u16 {
        let want = value(if bf16_set.contains(&code) { BF16 } else { FP16 });
        assert_eq!(load((false, false, 0, code, false, 0)), want, "REG1_SrcB = {code}");
        // With the override, REG1_SrcB (of the other class) is ignored.
        let other = if bf16_set.contains(&code) { fmt::FP16 } else { fmt::BF16 };
        assert_eq!(load((false, true, code, other, false, 0)), want, "SrcB_val = {code}");
        assert_eq!(load((false, false, 0, 0, true, code)), want, "SFPU_DEST_FMT_Base = {code}");
    }
}

// ------------------------------------------------------------------------------------------------
// SFPSTORE: data conversions, one test per Mod0 (SFPSTORE.md functional model)
// ------------------------------------------------------------------------------------------------

#[test]
fn sfpstore_fp16_truncates_flushes_and_saturates() {
    // ToFP16: Exp = e8 - 112; Exp <= 0 -> 0 (signed); Exp > 31 -> e=31, m=0x3FF; m >>= 13.
    // Then DstEncodeFP16: sign<<15 | m<<5 | e.
    check_store(
        FP16,
        false,
        &[
            (0x3F80_0000, 0x000F), // 1.0: e=15
            (0xBFC0_0000, 0xC00F), // -1.5: m=0x200
            (0x0000_0000, 0x0000),
            (0x8000_0000, 0x8000),
            (0x3800_0000, 0x0000), // 2^-15: e8=112 -> Exp=0 -> flush
            (0xB87F_FFFF, 0x8000), // e8=112, negative -> -0
            (0x3880_0000, 0x0001), // 2^-14: e8=113 -> e=1
            (0x38FF_FFFF, 0x7FE1), // e=1, m=0x7FFFFF>>13=0x3FF: 0x3FF<<5|1
            (0x4780_0000, 0x001F), // 65536: e8=143 -> e=31 (not > 31), m=0
            (0x47C0_0000, 0x401F), // 98304: e=31, m=0x400000>>13=0x200 -> 0x4000|31
            (0x4800_0000, 0x7FFF), // 131072: e8=144 -> saturate e=31, m=0x3FF
            (0xFF80_0000, 0xFFFF), // -Inf saturates
            (0x7FC0_0000, 0x7FFF), // NaN saturates
            (0x7F7F_FFFF, 0x7FFF), // FP32 max
            (0x0000_0001, 0x0000), // denormal -> 0
            (0x8040_0000, 0x8000), // negative denormal -> -0
            (0x3F80_3000, 0x002F), // 1+2^-10+2^-11: m>>13 = 1 (truncated): 1<<5|15
            (0x3F80_1FFF, 0x000F), // below one FP16 ulp: truncated away
            (0x4347_8000, 0x4796), // 199.5: e=22, m=0x23C
        ],
    );
}

#[test]
fn sfpstore_bf16_truncates_and_flushes_denormals_keeping_sign() {
    // ToBF16: exponent 0 -> mantissa cleared; >> 16. DstEncodeBF16: sign | m<<8 | e.
    check_store(
        BF16,
        false,
        &[
            (0x3F80_0000, 0x007F),
            (0x3F80_FFFF, 0x007F), // truncation
            (0xC020_0000, 0xA080), // -2.5
            (0x007F_FFFF, 0x0000), // denormal -> +0
            (0x807F_FFFF, 0x8000), // denormal -> -0
            (0x7F80_0000, 0x00FF), // +Inf
            (0xFF80_0000, 0x80FF), // -Inf
            (0x7F80_0001, 0x00FF), // NaN with only low bits becomes Inf
            (0x7FC0_0000, 0x40FF), // canonical NaN survives
            (0x7FFF_FFFF, 0x7FFF),
            (0xC049_0FDB, 0xC980), // -pi: BF16 0xC049 -> e=0x80, m=0x49
            (0x0080_0000, 0x0001), // min normal: e=1
            (0x8000_0000, 0x8000),
        ],
    );
}

#[test]
fn sfpstore_fp32_flushes_denormals_keeping_sign() {
    // ToFP32 then DstEncodeFP32: high half BF16-shuffled, low half as is.
    check_store(
        FP32,
        true,
        &[
            (0x4049_0FDB, 0x4980_0FDB),
            (0xC049_0FDB, 0xC980_0FDB),
            (0x0040_0000, 0x0000_0000), // denormal -> +0
            (0x8000_0001, 0x8000_0000), // denormal -> -0
            (0x807F_FFFF, 0x8000_0000),
            (0x7F80_0000, 0x00FF_0000),
            (0x7FC0_0001, 0x40FF_0001), // NaN kept (exponent non-zero)
            (0x3F80_0000, 0x007F_0000),
            (0x3F56_594B, 0x567E_594B), // 0x3F56: e=0x7E, m=0x56
            (0x0080_0001, 0x0001_0001), // min normal + 1 ulp
        ],
    );
}

/// LReg -> Dst32b cases shared by INT32, INT32_ALL and INT32_SM stores (raw shuffle).
const INT32_STORE_CASES: [(u32, u32); 7] = [
    (0x0000_0001, 0x0000_0001), // not flushed
    (0x8000_0005, 0x8000_0005),
    (0xFFFF_FFFF, 0xFFFF_FFFF), // s=1, m=0x7F (0x7F00), e=0xFF
    (0x1234_5678, 0x3424_5678), // 0x1234: e=0x24, m=0x34
    (0x0040_0000, 0x4000_0000), // 0x0040: e=0, m=0x40 -> 0x4000
    (0x4049_0FDB, 0x4980_0FDB),
    (0x807F_FFFF, 0xFF00_FFFF), // 0x807F: s=1, m=0x7F, e=0 (FP32 mode would flush this)
];

#[test]
fn sfpstore_int32_int32_sm_int32_all_are_a_raw_shuffle() {
    for mode in [INT32, INT32_SM, INT32_ALL] {
        check_store(mode, true, &INT32_STORE_CASES);
    }
}

#[test]
fn sfpstore_int8_has_ten_bit_magnitude_and_exponent_16() {
    // SignMag11ToFP16: sign<<15 | 16<<10 | (x & 0x3FF); DstEncodeFP16 -> sign | mag<<5 | 16.
    let cases = [
        (100, 0x0C90),
        (0, 0x0010), // exponent 16 even for zero
        (0x8000_0000, 0x8010),
        (0x8000_03FF, 0xFFF0),
        (0x400, 0x0010),       // 1024 & 0x3FF = 0
        (0x1_2345, 0x68B0),    // 0x345<<5 = 0x68A0
        (0x8000_00FF, 0x9FF0), // -255
        (0x7FFF_FFFF, 0x7FF0),
    ];
    check_store(INT8, false, &cases);
    check_store(INT8_COMP, false, &cases);
}

#[test]
fn sfpstore_sixteen_bit_integer_modes() {
    // INT16: sign<<15 | low 15 bits (magnitude mod 2^15). UINT16, LO16_ONLY: low half.
    // HI16_ONLY: high half. ZERO: a 16-bit 0 (the rows 8 further on, the low halves of Dst32b,
    // keep NOISE: check_store's "no other cell" rule).
    let src = [0x8000_0005, 0x0001_2345, 0xFFFF_FFFF, 0x0000_8000, 0x1234_5678, 0x8000_0000];
    let table: [(u32, [u32; 6]); 5] = [
        (INT16, [0x8005, 0x2345, 0xFFFF, 0x0000, 0x5678, 0x8000]),
        (UINT16, [0x0005, 0x2345, 0xFFFF, 0x8000, 0x5678, 0x0000]),
        (LO16_ONLY, [0x0005, 0x2345, 0xFFFF, 0x8000, 0x5678, 0x0000]),
        (HI16_ONLY, [0x8000, 0x0001, 0xFFFF, 0x0000, 0x1234, 0x8000]),
        (ZERO, [0; 6]),
    ];
    for (mode, want) in table {
        let cases: Vec<(u32, u32)> = src.iter().copied().zip(want).collect();
        check_store(mode, false, &cases);
    }
    // LO16 and HI16 write Dst32b without any shuffle: LO16 rotates by 16, HI16 is raw (FP32
    // mode would give 0x3424_5678 for 0x1234_5678).
    let (lo, hi): (Vec<_>, Vec<_>) = src.iter().map(|&d| ((d, d.rotate_left(16)), (d, d))).unzip();
    assert_eq!(lo[4], (0x1234_5678, 0x5678_1234));
    check_store(LO16, true, &lo);
    check_store(HI16, true, &hi);
}

#[test]
fn sfpstore_srcb_resolution() {
    // Lane 0 holds 1.0 + 2^-23 (0x3F800001), lane 1 the denormal 0x00000001.
    // FP16: 1.0 -> Dst16b 0x000F, denormal -> 0. BF16: 0x007F, 0. FP32: Dst32b 0x007F_0001 and
    // 0 (flushed, where INT32 would give 0x0000_0001).
    for (c, mode) in SRCB_CASES {
        let mut s = noisy();
        s.LReg[1][0] = 0x3F80_0001;
        s.LReg[1][1] = 0x0000_0001;
        set_srcb(&mut s, c);
        assert_defined(&run(&mut s, "TTI_SFPSTORE(1, MOD0_FMT_SRCB, 0, 0)"));
        let got = match mode {
            FP32 => (get32(&s, 0)[0], get32(&s, 0)[1]),
            _ => (get16(&s, 0)[0], get16(&s, 0)[1]),
        };
        let want = match mode {
            FP32 => (0x007F_0001, 0),
            BF16 => (0x007F, 0),
            _ => (0x000F, 0),
        };
        assert_eq!(got, want, "{c:?}");
        if mode != FP32 {
            assert_eq!(s.Dst.DstBits[8][0], NOISE, "16-bit store leaves the low-half row alone");
        }
    }
}

#[test]
fn lo16_hi16_store_uses_dst32b_but_load_uses_dst16b() {
    // Store LO16 of 0x0000ABCD: Dst32b = 0xABCD0000 -> DstBits[Adj32(row)] = 0xABCD and
    // DstBits[Adj32(row)+8] = 0. Load LO16 reads Dst16b[row] = DstBits[Adj16(row)] = 0xABCD.
    // At Imm10 = 8 the views differ: rows 8..11 -> Adj16 = 8..11, Adj32 = 16..19 (+8: 24..27).
    let mut s = noisy();
    fill(&mut s, 1, 0x0000_ABCD);
    assert_defined(&run(&mut s, "TTI_SFPSTORE(1, MOD0_FMT_LO16, 0, 8)"));
    for l in 0..LANES {
        let c = 2 * (l & 7);
        assert_eq!(s.Dst.DstBits[16 + l / 8][c], 0xABCD, "lane {l} high half");
        assert_eq!(s.Dst.DstBits[24 + l / 8][c], 0x0000, "lane {l} low half");
        assert_eq!(s.Dst.DstBits[8 + l / 8][c], NOISE, "lane {l} 16-bit row untouched");
    }
    // Loading LO16 at Imm10 = 8 reads physical rows 8..11 (the 16-bit view): NOISE.
    assert_defined(&run(&mut s, "TTI_SFPLOAD(2, MOD0_FMT_LO16, 0, 8)"));
    assert_lanes(&s.LReg[2], &[NOISE as u32; LANES], "LO16 load at 8 reads the 16-bit view");
    // At Imm10 = 0 the high half of Dst32b row r is physical row r = Adj16(r): round trip.
    fill(&mut s, 1, 0x0000_1234);
    run(&mut s, "TTI_SFPSTORE(1, MOD0_FMT_LO16, 0, 0)");
    run(&mut s, "TTI_SFPLOAD(2, MOD0_FMT_LO16, 0, 0)");
    assert_lanes(&s.LReg[2], &[0x1234; LANES], "LO16 round trip");
    fill(&mut s, 1, 0x5678_0000);
    run(&mut s, "TTI_SFPSTORE(1, MOD0_FMT_HI16, 0, 0)");
    assert_eq!(s.Dst.DstBits[0][0], 0x5678);
    assert_eq!(s.Dst.DstBits[8][0], 0x0000);
    run(&mut s, "TTI_SFPLOAD(2, MOD0_FMT_HI16, 0, 0)");
    assert_lanes(&s.LReg[2], &[0x5678_0000; LANES], "HI16 round trip");
}

#[test]
fn sixteen_and_thirty_two_bit_views_at_row_8() {
    // FP16 store at Imm10 = 8 writes DstBits[8..11]; FP32 store writes [16..19] and [24..27].
    let mut s = noisy();
    fill(&mut s, 1, 0x3F80_0000);
    run(&mut s, "TTI_SFPSTORE(1, MOD0_FMT_FP16, 0, 8)");
    let mut want: Vec<(usize, usize)> = (0..LANES).map(|l| (8 + l / 8, 2 * (l & 7))).collect();
    want.sort();
    assert_eq!(changed_cells(&s), want);
    assert!(want.iter().all(|&(r, c)| s.Dst.DstBits[r][c] == 0x000F));
    let mut s = noisy();
    fill(&mut s, 1, 0x3F80_0000);
    run(&mut s, "TTI_SFPSTORE(1, MOD0_FMT_FP32, 0, 8)");
    let mut want: Vec<(usize, usize)> =
        (0..LANES).flat_map(|l| [(16 + l / 8, 2 * (l & 7)), (24 + l / 8, 2 * (l & 7))]).collect();
    want.sort();
    assert_eq!(changed_cells(&s), want);
    assert_eq!(s.Dst.DstBits[19][14], 0x007F);
    assert_eq!(s.Dst.DstBits[27][14], 0x0000);
}

// ------------------------------------------------------------------------------------------------
// Round trips: store then load for each lossless pair
// ------------------------------------------------------------------------------------------------

#[track_caller]
fn round_trip(store: u32, load: u32, vals: &[u32], preset: impl Fn(u32) -> u32) {
    let mut s = noisy();
    let v = spread(vals);
    set(&mut s, 1, v);
    set(&mut s, 2, lanes(|l| preset(v[l])));
    assert_defined(&run(&mut s, &format!("TTI_SFPSTORE(1, {store}, 0, 6)")));
    assert_defined(&run(&mut s, &format!("TTI_SFPLOAD(2, {load}, 0, 6)")));
    assert_lanes(&s.LReg[2], &v, &format!("store {store} then load {load}"));
}

#[test]
fn round_trips_are_lossless_in_their_domains() {
    let garbage = |_| SENT;
    // FP32: anything with a non-zero exponent, and zeros.
    let fp32 = [
        0x4049_0FDB,
        0xC049_0FDB,
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0001,
        0,
        0x8000_0000,
        0x0080_0000,
        0x7F7F_FFFF,
        0x3F80_0001,
    ];
    round_trip(FP32, FP32, &fp32, garbage);
    // INT32 family: every bit pattern, denormals included.
    let raw = [0x0000_0001, 0x807F_FFFF, 0xFFFF_FFFF, 0x1234_5678, 0, 0x8000_0000, 0x0040_0000];
    for (st, ld) in
        [(INT32, INT32), (INT32_SM, INT32_SM), (INT32_ALL, INT32_ALL), (INT32, FP32), (INT32, INT32_SM)]
    {
        round_trip(st, ld, &raw, garbage);
    }
    // BF16: low 16 bits zero and exponent non-zero (or ±0).
    let bf16 = [
        0x3F80_0000,
        0xC020_0000,
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0000,
        0x0080_0000,
        0x8000_0000,
        0,
        0x7F7F_0000,
        0x4348_0000,
    ];
    round_trip(BF16, BF16, &bf16, garbage);
    // FP16: exponent 113..143 and the low 13 mantissa bits zero, or ±0.
    let fp16 = [
        0x3F80_0000, // 1.0
        0xBFC0_0000, // -1.5
        0x3880_0000, // 2^-14
        0x47FF_E000, // e=31, m=0x3FF (stored as 0x7FFF, read back finite without FP16A_INF)
        0x4347_8000, // 199.5
        0,
        0x8000_0000,
        0xC780_0000, // -65536: e=31, m=0
    ];
    round_trip(FP16, FP16, &fp16, garbage);
    // Integer formats.
    round_trip(INT8, INT8, &[0, 1, 100, 255, 0x8000_00FF, 0x8000_0001, 0x8000_0000], garbage);
    round_trip(INT8_COMP, INT8_COMP, &[0x3FF, 0x8000_03FF, 0x100, 0x8000_0200, 0, 0x8000_0000], garbage);
    round_trip(INT16, INT16, &[0x7FFF, 0x8000_7FFF, 0x1234, 0, 0x8000_0000], garbage);
    round_trip(UINT16, UINT16, &[0xFFFF, 0x8000, 0x1234, 0], garbage);
    round_trip(LO16, LO16, &[0xFFFF, 0x8000, 0x1234, 0], garbage);
    round_trip(LO16, UINT16, &[0xFFFF, 0x8000, 0x1234, 0], garbage);
    round_trip(HI16, HI16, &[0xFFFF_0000, 0x8000_0000, 0x1234_0000, 0], garbage);
    // *_ONLY: the destination register already holds the other half.
    let any = [0x1234_5678, 0xFFFF_0000, 0x0000_FFFF, 0x8000_0001];
    round_trip(LO16_ONLY, LO16_ONLY, &any, |v| (v & 0xFFFF_0000) | 0xBEEF);
    round_trip(HI16_ONLY, HI16_ONLY, &any, |v| 0xBEEF_0000 | (v & 0xFFFF));
}

// ------------------------------------------------------------------------------------------------
// Addressing (SFPLOAD.md / SFPSTORE.md "Apply various Dst address adjustments")
// ------------------------------------------------------------------------------------------------

#[test]
fn imm10_selects_the_row_group_and_bit1_the_odd_columns() {
    // (Imm10, lane, physical row, column)
    let probes = [
        (0u32, 0usize, 0usize, 0usize),
        (0, 31, 3, 14),
        (1, 9, 1, 2), // bit 0 unused
        (2, 0, 0, 1), // bit 1 -> odd columns
        (3, 31, 3, 15),
        (5, 0, 4, 0), // 5 & ~3 = 4, bit 1 clear
        (6, 9, 5, 3), // 4 + 9/8, 2*1+1
        (6, 31, 7, 15),
        (0x3FE, 0, 1020, 1),
        (0x3FE, 31, 1023, 15),
    ];
    for (imm, lane, row, col) in probes {
        let mut s = noisy();
        set(&mut s, 1, lanes(|l| 0x100 + l as u32));
        assert_defined(&run(&mut s, &format!("TTI_SFPSTORE(1, MOD0_FMT_UINT16, 0, {imm})")));
        assert_eq!(s.Dst.DstBits[row][col], 0x100 + lane as u16, "store Imm10={imm} lane {lane}");
        assert_eq!(changed_cells(&s).len(), 32);
        // And the load reads the same cell.
        s.Dst.DstBits[row][col] = 0x7777;
        assert_defined(&run(&mut s, &format!("TTI_SFPLOAD(2, MOD0_FMT_UINT16, 0, {imm})")));
        assert_eq!(s.LReg[2][lane], 0x7777, "load Imm10={imm} lane {lane}");
    }
}

#[test]
fn address_sums_imm10_offsets_rwc_and_low_bits_of_sp() {
    // Addr = Imm10 + MATH_Offset + (RWC.Dst + REGW_BASE) + ((Sp + SP_BASE) & 3)
    //      = 0x10 + 0x20 + (0x4 + 0x100) + ((1 + 5) & 3 = 2) = 0x136: rows 0x134.., odd columns.
    let mut s = noisy();
    let a = &mut s.Addressing;
    a.DEST_TARGET_REG_CFG_MATH_Offset = 0x20;
    a.RWC.Dst = 0x4;
    a.DEST_REGW_BASE_Base = 0x100;
    a.RWC.Sp = 1;
    a.DEST_SP_BASE_Base = 5;
    set(&mut s, 1, lanes(|l| 0x100 + l as u32));
    assert_defined(&run(&mut s, "TTI_SFPSTORE(1, MOD0_FMT_UINT16, 0, 0x10)"));
    assert_eq!(s.Dst.DstBits[0x134][1], 0x100);
    assert_eq!(s.Dst.DstBits[0x137][15], 0x11F);
    assert_eq!(changed_cells(&s).len(), 32);
    assert_eq!((s.Addressing.RWC.Sp, s.Addressing.RWC.Dst), (1, 4), "normal modes leave the counters");
    // Only the low two bits of Sp + SP_BASE count: 0x40 + 3 -> 3.
    let mut s = noisy();
    s.Addressing.RWC.Sp = 0x40;
    s.Addressing.DEST_SP_BASE_Base = 3;
    fill(&mut s, 1, 0xAAAA);
    run(&mut s, "TTI_SFPSTORE(1, MOD0_FMT_UINT16, 0, 0)"); // Addr 3: rows 0..3, odd
    assert_eq!(s.Dst.DstBits[0][1], 0xAAAA);
    assert_eq!(s.Dst.DstBits[3][15], 0xAAAA);
    assert_eq!(changed_cells(&s).len(), 32);
}

#[test]
fn address_wraps_at_ten_bits() {
    // Imm10 0x3F0 + MATH_Offset 0x10 = 0x400 -> 0; DstOffset = 0x3FC + 8 = 0x404 -> 4: Addr 4.
    let mut s = noisy();
    s.Addressing.DEST_TARGET_REG_CFG_MATH_Offset = 0x10;
    s.Addressing.DEST_REGW_BASE_Base = 0x3FC;
    s.Addressing.RWC.Dst = 8;
    fill(&mut s, 1, 0xAAAA);
    assert_defined(&run(&mut s, "TTI_SFPSTORE(1, MOD0_FMT_UINT16, 0, 0x3F0)"));
    assert_eq!(s.Dst.DstBits[4][0], 0xAAAA);
    assert_eq!(s.Dst.DstBits[7][14], 0xAAAA);
    assert_eq!(changed_cells(&s).len(), 32);
    // Top of Dst in the 32-bit view: Addr 0x3FC, rows 1020..1023 -> Adj32 = 0x3F0 | (r & 0x207)
    // = 0x3F4..0x3F7, low halves 0x3FC..0x3FF.
    let mut s = noisy();
    fill(&mut s, 1, 0x0000_1234);
    assert_defined(&run(&mut s, "TTI_SFPSTORE(1, MOD0_FMT_INT32, 0, 0x3FC)"));
    assert_eq!(s.Dst.DstBits[0x3F4][0], 0);
    assert_eq!(s.Dst.DstBits[0x3FC][0], 0x1234);
    assert_eq!(s.Dst.DstBits[0x3F7][14], 0);
    assert_eq!(s.Dst.DstBits[0x3FF][14], 0x1234);
    assert_eq!(changed_cells(&s).len(), 64);
}

#[test]
fn int32_all_uses_the_sp_stack_and_ignores_lane_enable() {
    let mut s = noisy();
    let a = &mut s.Addressing;
    a.RWC.Sp = 8;
    a.DEST_SP_BASE_Base = 4;
    a.SFPU_STACK_Incr = 4;
    a.RWC.Dst = 0x41;
    a.DEST_REGW_BASE_Base = 0x100; // DstOffset = 0x141, & 3 = 1
    // Every lane disabled, by predication and by ROW_MASK.
    predicate(&mut s, 0);
    lc_col(&mut s, 0, row_mask(0xF));
    set(&mut s, 1, lanes(|l| 0x100 + l as u32)); // high half 0 -> Dst high half 0
    // Store: Addr = 0 + (Sp 8 + SP_BASE 4) + 1 = 13: rows 12..15, bit 1 of 13 clear -> even.
    // Adj32(12) = (8 << 1) | 4 = 20, so rows 20..23 (high) and 28..31 (low). Then Sp += 4.
    assert_defined(&run(&mut s, "TTI_SFPSTORE(1, MOD0_FMT_INT32_ALL, 0, 0)"));
    for l in 0..LANES {
        assert_eq!(s.Dst.DstBits[20 + l / 8][2 * (l & 7)], 0, "lane {l} high");
        assert_eq!(s.Dst.DstBits[28 + l / 8][2 * (l & 7)], 0x100 + l as u16, "lane {l} low");
    }
    assert_eq!(changed_cells(&s).len(), 64);
    assert_eq!(s.Addressing.RWC.Sp, 12);
    // Load: Sp != 0 -> Sp -= 4 (8) first; same Addr 13; all lanes written despite EN.
    fill(&mut s, 2, SENT);
    assert_defined(&run(&mut s, "TTI_SFPLOAD(2, MOD0_FMT_INT32_ALL, 0, 0)"));
    assert_eq!(s.Addressing.RWC.Sp, 8);
    assert_lanes(&s.LReg[2], &lanes(|l| 0x100 + l as u32), "INT32_ALL load");
    // A normal-mode load with the same counters: Addr = 0x141 + ((8 + 4) & 3 = 0) = 0x141 ->
    // rows 0x140..; lanes are all disabled, so nothing is written and Sp is untouched.
    fill(&mut s, 3, SENT);
    run(&mut s, "TTI_SFPLOAD(3, MOD0_FMT_INT32, 0, 0)");
    assert_lanes(&s.LReg[3], &[SENT; LANES], "normal mode respects EN");
    assert_eq!(s.Addressing.RWC.Sp, 8);
    // Sp == 0: no pre-decrement; Addr = (0 + 4) + 1 = 5 -> rows 4..7, even columns.
    s.Addressing.RWC.Sp = 0;
    put32(&mut s, 4, &lanes(|l| 0x0000_0200 + l as u32));
    assert_defined(&run(&mut s, "TTI_SFPLOAD(2, MOD0_FMT_INT32_ALL, 0, 0)"));
    assert_eq!(s.Addressing.RWC.Sp, 0);
    assert_lanes(&s.LReg[2], &lanes(|l| 0x200 + l as u32), "INT32_ALL load at Sp 0");
}

#[test]
fn int32_all_still_respects_block_bits() {
    let mut s = noisy();
    predicate(&mut s, 0);
    lc_lane(&mut s, 5, BLOCK_WR);
    lc_lane(&mut s, 6, BLOCK_RD);
    fill(&mut s, 1, 0x0000_0777);
    run(&mut s, "TTI_SFPSTORE(1, MOD0_FMT_INT32_ALL, 0, 0)");
    assert_eq!(s.Dst.DstBits[8][10], NOISE, "lane 5 (row 0, column 10) blocked");
    assert_eq!(s.Dst.DstBits[8][12], 0x0777, "lane 6 written");
    fill(&mut s, 2, SENT);
    run(&mut s, "TTI_SFPLOAD(2, MOD0_FMT_INT32_ALL, 0, 0)");
    assert_eq!(s.LReg[2][6], SENT, "lane 6 read blocked");
    assert_eq!(s.LReg[2][7], 0x0777);
    // lane 5 reads the untouched NOISE cells: 0x5A5A high half -> m=0x5A, e=0x5A -> 0x2D5A.
    assert_eq!(s.LReg[2][5], 0x2D5A_5A5A);
}

#[test]
fn col_exchange_bits_force_odd_columns_per_column_of_lanes() {
    // DstBits[r][c] = 0x100*r + c.
    let mut s = reset();
    for r in 0..4 {
        for c in 0..16 {
            s.Dst.DstBits[r][c] = (0x100 * r + c) as u16;
        }
    }
    // DEST_RD_COL_EXCHANGE is looked up as LaneConfig[Lane & 7]: setting it in LaneConfig[3]
    // moves lanes 3, 11, 19, 27; setting it in LaneConfig[13] (lane 13's own entry) does
    // nothing, since lane 13 consults LaneConfig[5].
    lc_lane(&mut s, 3, RD_XCHG);
    lc_lane(&mut s, 13, RD_XCHG);
    assert_defined(&run(&mut s, "TTI_SFPLOAD(1, MOD0_FMT_UINT16, 0, 0)"));
    let expect = lanes(|l| (0x100 * (l / 8) + 2 * (l & 7) + (l & 7 == 3) as usize) as u32);
    assert_lanes(&s.LReg[1], &expect, "DEST_RD_COL_EXCHANGE");
    // With Addr & 2 set every lane is odd already; the exchange keeps lane 3 odd.
    assert_defined(&run(&mut s, "TTI_SFPLOAD(1, MOD0_FMT_UINT16, 0, 2)"));
    assert_lanes(&s.LReg[1], &lanes(|l| (0x100 * (l / 8) + 2 * (l & 7) + 1) as u32), "odd + exchange");

    // DEST_WR_COL_EXCHANGE likewise for stores.
    let mut s = noisy();
    lc_lane(&mut s, 5, WR_XCHG);
    lc_lane(&mut s, 14, WR_XCHG); // lane 14 consults LaneConfig[6]: no effect
    set(&mut s, 1, lanes(|l| 0x100 + l as u32));
    assert_defined(&run(&mut s, "TTI_SFPSTORE(1, MOD0_FMT_UINT16, 0, 0)"));
    for l in 0..LANES {
        let col = 2 * (l & 7) + (l & 7 == 5) as usize;
        assert_eq!(s.Dst.DstBits[l / 8][col], 0x100 + l as u16, "lane {l}");
    }
    assert_eq!(s.Dst.DstBits[1][10], NOISE, "lane 13's even column untouched");
    assert_eq!(changed_cells(&s).len(), 32);
}

#[test]
fn block_bits_skip_single_lanes() {
    // BLOCK_SFPU_RD_FROM_DEST is LaneConfig[Lane]: only lanes 9 and 17.
    let mut s = reset();
    put16(&mut s, 0, &lanes(|l| 0x300 + l as u32));
    lc_all(&mut s, DEST_INDEX | CAPTURE);
    lc_lane(&mut s, 9, DEST_INDEX | CAPTURE | BLOCK_RD);
    lc_lane(&mut s, 17, DEST_INDEX | CAPTURE | BLOCK_RD);
    fill(&mut s, 1, SENT);
    fill(&mut s, 5, SENT);
    assert_defined(&run(&mut s, "TTI_SFPLOAD(1, MOD0_FMT_UINT16, 0, 0)"));
    let blocked = |l: usize| l == 9 || l == 17;
    assert_lanes(&s.LReg[1], &lanes(|l| if blocked(l) { SENT } else { 0x300 + l as u32 }), "BLOCK_RD value");
    // Index capture: (row << 4) | col with row = l/8, col = 2*(l&7).
    let idx = lanes(|l| if blocked(l) { SENT } else { (((l / 8) << 4) | (2 * (l & 7))) as u32 });
    assert_lanes(&s.LReg[5], &idx, "BLOCK_RD index");
    // BLOCK_DEST_WR_FROM_SFPU: LaneConfig[Lane].
    let mut s = noisy();
    lc_lane(&mut s, 2, BLOCK_WR);
    lc_lane(&mut s, 30, BLOCK_WR);
    fill(&mut s, 1, 0x1111);
    assert_defined(&run(&mut s, "TTI_SFPSTORE(1, MOD0_FMT_UINT16, 0, 0)"));
    assert_eq!(s.Dst.DstBits[0][4], NOISE);
    assert_eq!(s.Dst.DstBits[3][12], NOISE);
    assert_eq!(s.Dst.DstBits[1][4], 0x1111, "lane 10 not blocked");
    assert_eq!(changed_cells(&s).len(), 30);
}

#[test]
fn dest_index_capture_writes_row_and_column() {
    let mut s = reset();
    lc_all(&mut s, DEST_INDEX | CAPTURE);
    fill(&mut s, 6, SENT);
    // Imm10 = 6: row = 4 + l/8, col = 2*(l&7) + 1 -> LReg[2+4][l] = (row << 4) | col.
    assert_defined(&run(&mut s, "TTI_SFPLOAD(2, MOD0_FMT_FP32, 0, 6)"));
    assert_eq!(s.LReg[6][0], 0x41);
    assert_eq!(s.LReg[6][31], 0x7F);
    assert_lanes(&s.LReg[6], &lanes(|l| (((4 + l / 8) << 4) | (2 * (l & 7) + 1)) as u32), "capture at 6");
    // Top of Dst: Imm10 = 0x3FE, lane 31: row 1023 -> 0x3FF0 | 15.
    run(&mut s, "TTI_SFPLOAD(3, MOD0_FMT_ZERO, 0, 0x3FE)");
    assert_eq!(s.LReg[7][31], 0x3FFF);
    assert_eq!(s.LReg[7][0], 0x3FC1);
    // Disabled lanes: no capture.
    fill(&mut s, 4, SENT);
    predicate(&mut s, 0xFFFF_0000);
    run(&mut s, "TTI_SFPLOAD(0, MOD0_FMT_FP32, 0, 0)");
    assert_lanes(
        &s.LReg[4],
        &lanes(|l| if l >= 16 { (((l / 8) << 4) | (2 * (l & 7))) as u32 } else { SENT }),
        "EN",
    );
    // VD >= 4: no capture (VD = 4 would write LReg[8], a constant; VD = 5 would write LReg[9]).
    let mut s = reset();
    lc_all(&mut s, DEST_INDEX | CAPTURE);
    run(&mut s, "TTI_SFPLOAD(4, MOD0_FMT_FP32, 0, 6)");
    run(&mut s, "TTI_SFPLOAD(5, MOD0_FMT_FP32, 0, 6)");
    assert!(s.constants_intact());
    // Either bit alone: no capture.
    for bits in [DEST_INDEX, CAPTURE] {
        let mut s = reset();
        lc_all(&mut s, bits);
        fill(&mut s, 5, SENT);
        run(&mut s, "TTI_SFPLOAD(1, MOD0_FMT_FP32, 0, 6)");
        assert_lanes(&s.LReg[5], &[SENT; LANES], "one bit alone");
    }
    // The captured Row is the logical row (before Adj16/Adj32) and the column includes the
    // read column exchange: remap on, Imm10 = 8, lane 3 exchanged -> (8 << 4) | 7 = 0x87.
    let mut s = reset();
    s.Addressing.DEST_ACCESS_CFG_remap_addrs = true;
    lc_all(&mut s, DEST_INDEX | CAPTURE);
    lc_lane(&mut s, 3, DEST_INDEX | CAPTURE | RD_XCHG);
    run(&mut s, "TTI_SFPLOAD(1, MOD0_FMT_FP16, 0, 8)");
    assert_eq!(s.LReg[5][0], 0x80);
    assert_eq!(s.LReg[5][3], 0x87);
    assert_eq!(s.LReg[5][8], 0x90);
}

#[test]
fn row_mask_and_predication_leave_lanes_untouched() {
    let mut s = noisy();
    lc_col(&mut s, 2, row_mask(0b0010)); // lane 10 (row 1 of column 2) disabled
    predicate(&mut s, !(1 << 20)); // lane 20 disabled by its flag
    fill(&mut s, 1, 0x4444);
    run(&mut s, "TTI_SFPSTORE(1, MOD0_FMT_UINT16, 0, 0)");
    assert_eq!(s.Dst.DstBits[1][4], NOISE, "lane 10");
    assert_eq!(s.Dst.DstBits[2][8], NOISE, "lane 20");
    assert_eq!(changed_cells(&s).len(), 30);
    fill(&mut s, 2, SENT);
    run(&mut s, "TTI_SFPLOAD(2, MOD0_FMT_UINT16, 0, 0)");
    assert_lanes(&s.LReg[2], &lanes(|l| if l == 10 || l == 20 { SENT } else { 0x4444 }), "load");
}

#[test]
fn remap_addrs_and_swizzle_32b() {
    // remap_addrs: Adj16(r) = (r & 0x3C7) ^ ((r & 0x30) >> 1) ^ ((r & 8) << 2): 8 -> 32, 9 -> 33,
    // 16 -> 8, 17 -> 9. Adj32(8) = ((32 & 0x1F8) << 1) | (32 & 0x207) = 64.
    let store = |remap: bool, swz: bool, mode: u32, imm: u32| {
        let mut s = noisy();
        s.Addressing.DEST_ACCESS_CFG_remap_addrs = remap;
        s.Addressing.DEST_ACCESS_CFG_swizzle_32b = swz;
        fill(&mut s, 1, 0x0000_0777);
        assert_defined(&run(&mut s, &format!("TTI_SFPSTORE(1, {mode}, 0, {imm})")));
        let mut rows: Vec<usize> = changed_cells(&s).into_iter().map(|(r, _)| r).collect();
        rows.dedup();
        (s, rows)
    };
    // 16-bit, remap: rows 8..11 -> 32..35.
    let (s, rows) = store(true, false, UINT16, 8);
    assert_eq!(rows, vec![32, 33, 34, 35]);
    assert_eq!(s.Dst.DstBits[33][2], 0x0777);
    // 32-bit, remap: rows 8..11 -> 64..67, low halves 72..75.
    let (s, rows) = store(true, false, INT32, 8);
    assert_eq!(rows, vec![64, 65, 66, 67, 72, 73, 74, 75]);
    assert_eq!(s.Dst.DstBits[75][14], 0x0777);
    // swizzle only: Adj16 identity; swizzle r' = (r & 0x3F3) ^ ((r & 0x18) >> 1) ^ ((r & 4) << 1):
    // 8 -> 4, 9 -> 5, 10 -> 6, 11 -> 7, then ((r & 0x1F8) << 1) | (r & 0x207) = same.
    let (_, rows) = store(false, true, INT32, 8);
    assert_eq!(rows, vec![4, 5, 6, 7, 12, 13, 14, 15]);
    // swizzle only: 4 -> 8 -> Adj32 16; 5 -> 9 -> 17.
    let (_, rows) = store(false, true, INT32, 4);
    assert_eq!(rows, vec![16, 17, 18, 19, 24, 25, 26, 27]);
    // swizzle does not affect the 16-bit view.
    let (_, rows) = store(false, true, UINT16, 8);
    assert_eq!(rows, vec![8, 9, 10, 11]);
    // Both: 16 -> Adj16 8 -> swizzle 4 -> 4.
    let (s, rows) = store(true, true, INT32, 16);
    assert_eq!(rows, vec![4, 5, 6, 7, 12, 13, 14, 15]);
    assert_eq!((s.Dst.DstBits[4][0], s.Dst.DstBits[12][0]), (0, 0x0777));
    let (_, rows) = store(true, true, UINT16, 16);
    assert_eq!(rows, vec![8, 9, 10, 11]);
    // Loads use the same mapping.
    let mut s = reset();
    s.Addressing.DEST_ACCESS_CFG_remap_addrs = true;
    s.Dst.DstBits[33][2] = 0x0123; // lane 9 of a 16-bit load at Imm10 = 8
    s.Dst.DstBits[65][2] = 0x0000; // lane 9 of a 32-bit load at Imm10 = 8: high half
    s.Dst.DstBits[73][2] = 0x0456; // low half
    run(&mut s, "TTI_SFPLOAD(1, MOD0_FMT_UINT16, 0, 8)");
    run(&mut s, "TTI_SFPLOAD(2, MOD0_FMT_INT32, 0, 8)");
    assert_eq!((s.LReg[1][9], s.LReg[2][9]), (0x0123, 0x0456));
}

#[test]
fn undefined_dst_rows() {
    // Reading an invalid row: lanes 8..15 read logical row 9 at Imm10 = 8 (no remap).
    let mut s = reset();
    s.Dst.DstRowValid[9] = false;
    let out = run(&mut s, "TTI_SFPLOAD(1, MOD0_FMT_FP16, 0, 8)");
    assert_eq!(out.lanes(Clause::DstUndefinedRowRead), 0x0000_FF00);
    assert_eq!(Clause::DstUndefinedRowRead.kind(), Kind::Undefined);
    // Dst32b consults only DstRowValid[Adj32(Row)]: at Addr 0 row 9 is the low half of row 1.
    assert_defined(&run(&mut s, "TTI_SFPLOAD(1, MOD0_FMT_FP32, 0, 0)"));
    // At Imm10 = 8 the 32-bit view reads physical rows 16..19 (valid).
    assert_defined(&run(&mut s, "TTI_SFPLOAD(1, MOD0_FMT_INT32, 0, 8)"));
    // Disabled lanes do not read.
    predicate(&mut s, 0xFFFF_0FFF);
    let out = run(&mut s, "TTI_SFPLOAD(1, MOD0_FMT_UINT16, 0, 8)");
    assert_eq!(out.lanes(Clause::DstUndefinedRowRead), 0x0000_0F00);
    // MOD0_FMT_ZERO does not read Dst.
    let mut s = reset();
    s.Dst.DstRowValid[9] = false;
    assert_defined(&run(&mut s, "TTI_SFPLOAD(1, MOD0_FMT_ZERO, 0, 8)"));
    // 32-bit view: invalid high-half row 17 = Adj32(9), read by lanes 8..15 at Imm10 = 8.
    s.Dst.DstRowValid[17] = false;
    let out = run(&mut s, "TTI_SFPLOAD(1, MOD0_FMT_FP32, 0, 8)");
    assert_eq!(out.lanes(Clause::DstUndefinedRowRead), 0x0000_FF00);
    // With remap, logical row 9 is physical 33.
    let mut s = reset();
    s.Addressing.DEST_ACCESS_CFG_remap_addrs = true;
    s.Dst.DstRowValid[33] = false;
    let out = run(&mut s, "TTI_SFPLOAD(1, MOD0_FMT_BF16, 0, 8)");
    assert_eq!(out.lanes(Clause::DstUndefinedRowRead), 0x0000_FF00);
    assert_defined(&run(&mut s, "TTI_SFPLOAD(1, MOD0_FMT_BF16, 0, 0)"));

    // Storing into an invalid row writes only 8 of its 16 columns.
    let mut s = reset();
    s.Dst.DstRowValid[2] = false;
    let out = run(&mut s, "TTI_SFPSTORE(1, MOD0_FMT_UINT16, 0, 0)");
    assert_eq!(out.lanes(Clause::DstUndefinedRowPartialWrite), 0x00FF_0000);
    assert_eq!(Clause::DstUndefinedRowPartialWrite.kind(), Kind::Undefined);
    predicate(&mut s, 0xFF0F_FFFF);
    let out = run(&mut s, "TTI_SFPSTORE(1, MOD0_FMT_FP16, 0, 0)");
    assert_eq!(out.lanes(Clause::DstUndefinedRowPartialWrite), 0x000F_0000); // lanes 16..19
    // 32-bit store at Imm10 = 8: rows 16..19 and 24..27 -> consults 16..19 only.
    let mut s = reset();
    s.Dst.DstRowValid[24] = false;
    assert_defined(&run(&mut s, "TTI_SFPSTORE(1, MOD0_FMT_FP32, 0, 8)"));
    s.Dst.DstRowValid[19] = false;
    let out = run(&mut s, "TTI_SFPSTORE(1, MOD0_FMT_LO16, 0, 8)");
    assert_eq!(out.lanes(Clause::DstUndefinedRowPartialWrite), 0xFF00_0000);
}

// ------------------------------------------------------------------------------------------------
// ApplyPartialAddrMod (WormholeB0 RWCs.md; Blackhole reading: slot = AddrMod,
// `docs/spec/sfpu-blackhole.md#blackhole-addrmod`)
// ------------------------------------------------------------------------------------------------

/// Runs `text` with address-modifier slot `index` = `slot` (every other slot increments
/// everything by a distinctive amount) from counters `rwc`, returning the new counters.
fn addr_mod(text: &str, index: usize, slot: AddrModSlot, rwc: Rwc) -> (Rwc, sfpu_reference::Outcome) {
    let mut s = reset();
    let other = AddrModSlot { DestIncr: 100, SrcAIncr: 7, SrcBIncr: 7, BiasIncr: 1, ..Default::default() };
    s.Addressing.ADDR_MOD = [other; 8];
    s.Addressing.ADDR_MOD[index] = slot;
    s.Addressing.RWC = rwc;
    let out = run(&mut s, text);
    (s.Addressing.RWC, out)
}

#[test]
fn apply_partial_addr_mod_increments_and_never_touches_fidelity() {
    let base = Rwc {
        Dst: 8,
        Dst_Cr: 100,
        SrcA: 62,
        SrcA_Cr: 9,
        SrcB: 1,
        SrcB_Cr: 9,
        FidelityPhase: 2,
        ..Default::default()
    };
    let slot = AddrModSlot { DestIncr: 4, SrcAIncr: 3, SrcBIncr: 5, FidelityIncr: 1, ..Default::default() };
    for text in ["TTI_SFPLOAD(1, MOD0_FMT_FP32, 3, 0)", "TTI_SFPSTORE(1, MOD0_FMT_FP32, 3, 0)"] {
        let (r, out) = addr_mod(text, 3, slot, base);
        assert_defined(&out);
        // Dst 8+4; SrcA (62+3) mod 64 = 1; SrcB 1+5; carry registers and FidelityPhase unchanged.
        assert_eq!(
            r,
            Rwc { Dst: 12, Dst_Cr: 100, SrcA: 1, SrcA_Cr: 9, SrcB: 6, SrcB_Cr: 9, FidelityPhase: 2, ..base },
            "{text}"
        );
    }
    // FidelityClear is not applied either.
    let (r, _) = addr_mod(
        "TTI_SFPLOAD(1, MOD0_FMT_FP32, 0, 0)",
        0,
        AddrModSlot { FidelityClear: true, ..Default::default() },
        Rwc { FidelityPhase: 3, ..Default::default() },
    );
    assert_eq!(r.FidelityPhase, 3);
    // Dst wraps at 10 bits: 1022 + 4 = 2.
    let (r, _) = addr_mod(
        "TTI_SFPSTORE(1, MOD0_FMT_FP32, 7, 0)",
        7,
        AddrModSlot { DestIncr: 4, ..Default::default() },
        Rwc { Dst: 1022, ..Default::default() },
    );
    assert_eq!(r.Dst, 2);
}

#[test]
fn apply_partial_addr_mod_clear_cr_and_ctocr() {
    let start = Rwc { Dst: 3, Dst_Cr: 16, SrcA: 1, SrcA_Cr: 10, SrcB: 2, SrcB_Cr: 60, ..Default::default() };
    let load = "TTI_SFPLOAD(1, MOD0_FMT_FP16, 6, 0)";
    // DestCR: Dst_Cr += 2 -> 18, Dst = 18. SrcACR: SrcA_Cr 10+3 = 13 = SrcA.
    // SrcBCR: (60+5) mod 64 = 1 = SrcB.
    let cr = AddrModSlot {
        DestCR: true,
        DestIncr: 2,
        SrcACR: true,
        SrcAIncr: 3,
        SrcBCR: true,
        SrcBIncr: 5,
        ..Default::default()
    };
    let (r, _) = addr_mod(load, 6, cr, start);
    assert_eq!((r.Dst, r.Dst_Cr, r.SrcA, r.SrcA_Cr, r.SrcB, r.SrcB_Cr), (18, 18, 13, 13, 1, 1));
    // DestCToCR (wins over DestCR): Dst 3+2 = 5, Dst_Cr = 5.
    let ctocr = AddrModSlot { DestCToCR: true, DestCR: true, DestIncr: 2, ..Default::default() };
    let (r, _) = addr_mod(load, 6, ctocr, start);
    assert_eq!((r.Dst, r.Dst_Cr), (5, 5));
    // Clears win over everything.
    let clear = AddrModSlot {
        DestClear: true,
        DestCToCR: true,
        DestCR: true,
        DestIncr: 2,
        SrcAClear: true,
        SrcACR: true,
        SrcAIncr: 3,
        SrcBClear: true,
        SrcBIncr: 5,
        ..Default::default()
    };
    let (r, _) = addr_mod(load, 6, clear, start);
    assert_eq!((r.Dst, r.Dst_Cr, r.SrcA, r.SrcA_Cr, r.SrcB, r.SrcB_Cr), (0, 0, 0, 0, 0, 0));
}

#[test]
fn apply_partial_addr_mod_bias_bit() {
    let load = "TTI_SFPLOAD(1, MOD0_FMT_FP32, 2, 0)";
    // BiasIncr & 3 != 0 flips the 1-bit ExtraAddrModBit: 0 -> 1.
    let (r, out) = addr_mod(load, 2, AddrModSlot { BiasIncr: 1, ..Default::default() }, Rwc::default());
    assert_eq!(r.ExtraAddrModBit, 1);
    assert_defined(&out); // the bit was clear when the slot was chosen
    // BiasIncr = 4: & 3 == 0, no change.
    let (r, _) = addr_mod(load, 2, AddrModSlot { BiasIncr: 4, ..Default::default() }, Rwc::default());
    assert_eq!(r.ExtraAddrModBit, 0);
    // From 1: +1 wraps to 0 (reported, the bit was set at selection).
    let one = Rwc { ExtraAddrModBit: 1, ..Default::default() };
    let (r, out) = addr_mod(load, 2, AddrModSlot { BiasIncr: 3, ..Default::default() }, one);
    assert_eq!(r.ExtraAddrModBit, 0);
    assert_eq!(out.lanes(Clause::BlackholeAddrMod), ALL);
    // BiasClear.
    let (r, _) = addr_mod(load, 2, AddrModSlot { BiasClear: true, BiasIncr: 1, ..Default::default() }, one);
    assert_eq!(r.ExtraAddrModBit, 0);
}

#[test]
fn blackhole_addr_mod_indexes_the_slot_directly_and_reports_when_wh_would_differ() {
    // Slot k increments Dst by k + 1, so the chosen slot is visible.
    for text in ["TTI_SFPLOAD(1, MOD0_FMT_FP32, 1, 0)", "TTI_SFPSTORE(1, MOD0_FMT_FP32, 1, 0)"] {
        for (extra, set_base) in [(0u16, false), (1, false), (0, true), (1, true)] {
            let mut s = reset();
            for k in 0..8 {
                s.Addressing.ADDR_MOD[k].DestIncr = k as u16 + 1;
            }
            s.Addressing.RWC.ExtraAddrModBit = extra;
            s.Addressing.ADDR_MOD_SET_Base = set_base;
            let out = run(&mut s, text);
            assert_eq!(s.Addressing.RWC.Dst, 2, "{text}: slot 1, not 5");
            let want = if extra != 0 || set_base { ALL } else { 0 };
            assert_eq!(out.lanes(Clause::BlackholeAddrMod), want, "{text} extra={extra} set_base={set_base}");
            assert_eq!(Clause::BlackholeAddrMod.kind(), Kind::Unspecified);
        }
    }
}

#[test]
fn address_is_computed_before_the_addr_mod_update() {
    // Slot 1: Dst += 4. Two loads with AddrMod 1 walk row groups 0, 4.
    let mut s = reset();
    s.Addressing.ADDR_MOD[1].DestIncr = 4;
    put16(&mut s, 0, &[0x0A; LANES]);
    put16(&mut s, 4, &[0x0B; LANES]);
    run(&mut s, "TTI_SFPLOAD(1, MOD0_FMT_UINT16, 1, 0)");
    run(&mut s, "TTI_SFPLOAD(2, MOD0_FMT_UINT16, 1, 0)");
    assert_eq!((s.LReg[1][31], s.LReg[2][31], s.Addressing.RWC.Dst), (0x0A, 0x0B, 8));
}

#[test]
fn sfpload_vd_8_and_up_writes_nothing_but_updates_counters() {
    for vd in 8..16 {
        let mut s = reset();
        // DBL: VD 12..15 would otherwise be a backdoor load; capture on to show it is skipped too.
        lc_all(&mut s, DBL | DEST_INDEX | CAPTURE);
        s.Addressing.ADDR_MOD[2].DestIncr = 4;
        s.Addressing.RWC.Sp = 8;
        s.Addressing.SFPU_STACK_Incr = 2;
        put32(&mut s, 0, &[0x1234_5678; LANES]);
        let before = s.LReg;
        assert_defined(&run(&mut s, &format!("TTI_SFPLOAD({vd}, MOD0_FMT_INT32_ALL, 2, 0)")));
        assert_eq!(s.LReg, before, "VD={vd}");
        assert_eq!((s.Addressing.RWC.Dst, s.Addressing.RWC.Sp), (4, 6), "VD={vd}: Dst += 4, Sp -= 2");
    }
}

#[test]
fn sfpload_vd_12_and_up_with_backdoor_enabled_writes_nothing() {
    // SFPLOAD's page has no `VD < 12 || DISABLE_BACKDOOR_LOAD` guard (only VD < 8), so no template
    // is written; the case is still reported as unspecified
    // (`docs/spec/sfpu-blackhole.md#backdoor-load`).
    let mut s = reset();
    let before = s.clone();
    let out = run(&mut s, "TTI_SFPLOAD(13, MOD0_FMT_FP32, 0, 0)");
    assert_eq!(s.LReg, before.LReg);
    assert_eq!(s.LoadMacroConfig, before.LoadMacroConfig);
    assert_eq!(out.lanes(Clause::BackdoorLoad), ALL);
}

#[test]
fn sfpstore_from_constant_registers() {
    let mut s = noisy();
    run(&mut s, "TTI_SFPSTORE(8, MOD0_FMT_FP32, 0, 0)");
    // 0x3F56594B: high 0x3F56 -> e = 0x7E, m = 0x56 -> 0x567E; low 0x594B.
    assert_lanes(&get32(&s, 0), &[0x567E_594B; LANES], "LReg[8]");
    run(&mut s, "TTI_SFPSTORE(9, MOD0_FMT_INT32, 0, 0)");
    assert_lanes(&get32(&s, 0), &[0; LANES], "LReg[9]");
    run(&mut s, "TTI_SFPSTORE(10, MOD0_FMT_FP16, 0, 0)");
    assert_lanes(&get16(&s, 0), &[0x000F; LANES], "LReg[10] = 1.0");
    s.LReg[11] = [0xBF80_0000; LANES]; // -1.0, as SFPCONFIG would set it
    run(&mut s, "TTI_SFPSTORE(11, MOD0_FMT_BF16, 0, 0)");
    assert_lanes(&get16(&s, 0), &[0x807F; LANES], "LReg[11] = -1.0");
    // VD 15 with DISABLE_BACKDOOR_LOAD set: lane l holds 2*l.
    lc_all(&mut s, DBL);
    assert_defined(&run(&mut s, "TTI_SFPSTORE(15, MOD0_FMT_UINT16, 0, 0)"));
    assert_lanes(&get16(&s, 0), &lanes(|l| 2 * l as u32), "LReg[15]");
}

#[test]
fn sfpstore_vd_12_and_up_is_a_backdoor_load() {
    let mut s = noisy();
    let out = run(&mut s, "TTI_SFPSTORE(15, MOD0_FMT_UINT16, 0, 0)");
    assert!(changed_cells(&s).is_empty(), "nothing stored");
    // Word: 0x72 << 24 | VD 15 << 20 | Mod0 6 << 16 = 0x72F60000.
    assert!(s.LoadMacroConfig.iter().all(|c| c.InstructionTemplate[3] == 0x72F6_0000));
    assert_eq!(out.lanes(Clause::BackdoorLoad), ALL);
    // Per lane: only lanes whose DISABLE_BACKDOOR_LOAD is clear.
    let mut s = noisy();
    lc_col(&mut s, 1, DBL);
    let out = run(&mut s, "TTI_SFPSTORE(12, MOD0_FMT_UINT16, 0, 0)");
    assert_eq!(out.lanes(Clause::BackdoorLoad), !0x0202_0202);
    for l in 0..LANES {
        let stored = s.Dst.DstBits[l / 8][2 * (l & 7)] != NOISE;
        assert_eq!(stored, l & 7 == 1, "lane {l}");
        let t = s.LoadMacroConfig[l].InstructionTemplate[0];
        assert_eq!(t == 0x72C6_0000, l & 7 != 1, "lane {l} template {t:#x}");
    }
}

// ------------------------------------------------------------------------------------------------
// SFPSHFT2 (BlackholeA0 SFPSHFT2.md)
// ------------------------------------------------------------------------------------------------

/// LReg[r][l] = (r + 1) << 24 | 0x5A00 | l for r in 0..8 (distinct everywhere).
fn shft2_state() -> State {
    let mut s = reset();
    for r in 0..8 {
        set(&mut s, r, lanes(|l| ((r as u32 + 1) << 24) | 0x5A00 | l as u32));
    }
    s
}

/// `Lane & 7 ? Lane - 1 : Lane + 7` (rotate right by one within each group of 8).
fn rot(l: usize) -> usize {
    if l & 7 != 0 { l - 1 } else { l + 7 }
}

/// Checks every LReg 0..16 against `want(reg, lane)` for enabled lanes and `old` otherwise.
#[track_caller]
fn check_regs(s: &State, old: &State, en: u32, want: impl Fn(usize, usize) -> Option<u32>, what: &str) {
    for r in 0..17 {
        let expect = lanes(|l| match want(r, l) {
            Some(v) if (en >> l) & 1 != 0 => v,
            _ => old.LReg[r][l],
        });
        assert_lanes(&s.LReg[r], &expect, &format!("{what}: LReg[{r}]"));
    }
}

#[test]
fn sfpshft2_copy4() {
    for en in [ALL, SOME] {
        let mut s = shft2_state();
        predicate(&mut s, en);
        let old = s.clone();
        // VD only feeds the guard; 9 < 12.
        assert_defined(&run(&mut s, "TTI_SFPSHFT2(0, 0, 9, SFPSHFT2_MOD1_COPY4)"));
        let o = &old.LReg;
        check_regs(&s, &old, en, |r, l| (r < 4).then(|| if r == 3 { 0 } else { o[r + 1][l] }), "COPY4");
    }
}

#[test]
fn sfpshft2_subvec_chained_copy4() {
    for en in [ALL, SOME] {
        let mut s = shft2_state();
        predicate(&mut s, en);
        let old = s.clone();
        assert_defined(&run(&mut s, "TTI_SFPSHFT2(0, 0, 0, SFPSHFT2_MOD1_SUBVEC_CHAINED_COPY4)"));
        let o = &old.LReg;
        // L3[l] = l < 24 ? original L0[l + 8] : 0 (the original, even where lane l+8 is disabled).
        let want = |r: usize, l: usize| match r {
            0..=2 => Some(o[r + 1][l]),
            3 => Some(if l < 24 { o[0][l + 8] } else { 0 }),
            _ => None,
        };
        check_regs(&s, &old, en, want, "CHAINED_COPY4");
    }
}

#[test]
fn sfpshft2_subvec_shflror1_and_copy4() {
    for (vc, en) in [(3usize, ALL), (3, SOME), (6, SOME), (15, ALL)] {
        let mut s = shft2_state();
        predicate(&mut s, en);
        let old = s.clone();
        assert_defined(&run(
            &mut s,
            &format!("TTI_SFPSHFT2(0, {vc}, 0, SFPSHFT2_MOD1_SUBVEC_SHFLROR1_AND_COPY4)"),
        ));
        let o = &old.LReg;
        // L3 = the original VC rotated right by one lane within each group of eight.
        let want = |r: usize, l: usize| match r {
            0..=2 => Some(o[r + 1][l]),
            3 => Some(o[vc][rot(l)]),
            _ => None,
        };
        check_regs(&s, &old, en, want, &format!("SHFLROR1_AND_COPY4 VC={vc}"));
    }
    // With VC = 15: L3[l] = 2 * rot(l): lane 0 <- lane 7 (14), lane 9 <- lane 8 (16).
    let mut s = shft2_state();
    run(&mut s, "TTI_SFPSHFT2(0, 15, 0, 2)");
    assert_eq!((s.LReg[3][0], s.LReg[3][9], s.LReg[3][24]), (14, 16, 62));
}

#[test]
fn sfpshft2_subvec_shflror1() {
    for (vc, vd, en) in [(1usize, 1usize, ALL), (1, 1, SOME), (5, 2, SOME), (15, 0, ALL)] {
        let mut s = shft2_state();
        predicate(&mut s, en);
        let old = s.clone();
        assert_defined(&run(&mut s, &format!("TTI_SFPSHFT2(0, {vc}, {vd}, SFPSHFT2_MOD1_SUBVEC_SHFLROR1)")));
        let o = &old.LReg;
        check_regs(&s, &old, en, |r, l| (r == vd).then(|| o[vc][rot(l)]), &format!("SHFLROR1 {vc}->{vd}"));
    }
    // VD 8..11: nothing written; VD 12..15 with DISABLE_BACKDOOR_LOAD set: not < 8, nothing.
    for vd in 8..16 {
        let mut s = shft2_state();
        lc_all(&mut s, DBL);
        let old = s.clone();
        assert_defined(&run(&mut s, &format!("TTI_SFPSHFT2(0, 1, {vd}, 3)")));
        assert_eq!(s.LReg, old.LReg, "VD={vd}");
    }
}

#[test]
fn sfpshft2_subvec_shflshr1_writes_zero_into_the_first_lane_of_each_group() {
    for (vc, vd, en) in [(2usize, 2usize, ALL), (2, 2, SOME), (4, 7, SOME), (15, 0, ALL)] {
        let mut s = shft2_state();
        predicate(&mut s, en);
        let old = s.clone();
        assert_defined(&run(&mut s, &format!("TTI_SFPSHFT2(0, {vc}, {vd}, SFPSHFT2_MOD1_SUBVEC_SHFLSHR1)")));
        let o = &old.LReg;
        let want = |r: usize, l: usize| (r == vd).then(|| if l & 7 != 0 { o[vc][l - 1] } else { 0 });
        check_regs(&s, &old, en, want, &format!("SHFLSHR1 {vc}->{vd}"));
    }
    // VC = 15: lane l gets 2(l-1), lanes 0, 8, 16, 24 get 0.
    let mut s = shft2_state();
    run(&mut s, "TTI_SFPSHFT2(0, 15, 1, 4)");
    assert_eq!((s.LReg[1][0], s.LReg[1][1], s.LReg[1][8], s.LReg[1][31]), (0, 0, 0, 60));
    assert_eq!(s.LReg[1][2], 2);
    // VD >= 8: nothing.
    for vd in 8..12 {
        let mut s = shft2_state();
        let old = s.clone();
        run(&mut s, &format!("TTI_SFPSHFT2(0, 1, {vd}, 4)"));
        assert_eq!(s.LReg, old.LReg);
    }
}

#[test]
fn sfpshft2_shft_lreg_shifts_by_signed_vc() {
    // (L[VB], L[VC] shift amount, expected)
    let cases: [(u32, u32, u32); 14] = [
        (0x0000_0001, 0, 0x0000_0001),
        (0x0000_0001, 1, 0x0000_0002),
        (0x0000_0001, 31, 0x8000_0000),
        (0x0000_0001, 32, 0x0000_0001),          // 32 & 31 = 0
        (0x0000_0003, 33, 0x0000_0006),          // 33 & 31 = 1
        (0x8000_0000, 0xFFFF_FFFF, 0x4000_0000), // -1: logical right shift
        (0xF000_0000, (-4i32) as u32, 0x0F00_0000),
        (0xFFFF_FFFF, (-31i32) as u32, 0x0000_0001),
        (0xFFFF_FFFF, (-32i32) as u32, 0xFFFF_FFFF), // 32 & 31 = 0
        (0x1234_5678, 8, 0x3456_7800),
        (0x1234_5678, (-8i32) as u32, 0x0012_3456),
        (0x1234_5678, 0x8000_0000, 0x1234_5678), // -(-2^31) = 2^31, & 31 = 0
        (0x1234_5679, 0x7FFF_FFFF, 0x8000_0000), // & 31 = 31
        (0x1234_5678, (-33i32) as u32, 0x091A_2B3C), // 33 & 31 = 1: >> 1
    ];
    for en in [ALL, SOME] {
        let mut s = shft2_state();
        set(&mut s, 2, spread(&cases.map(|c| c.0)));
        set(&mut s, 3, spread(&cases.map(|c| c.1)));
        predicate(&mut s, en);
        let old = s.clone();
        // imm12 = 2 -> VB = 2; VC = 3; VD = 4.
        assert_defined(&run(&mut s, "TTI_SFPSHFT2(2, 3, 4, SFPSHFT2_MOD1_SHFT_LREG)"));
        let want = spread(&cases.map(|c| c.2));
        check_regs(&s, &old, en, |r, l| (r == 4).then_some(want[l]), "SHFT_LREG");
    }
    // VD = VB and VD >= 8.
    let mut s = shft2_state();
    fill(&mut s, 3, 4);
    run(&mut s, "TTI_SFPSHFT2(1, 3, 1, 5)");
    assert_eq!(s.LReg[1][5], 0x0200_5A05 << 4);
    let before = s.LReg;
    run(&mut s, "TTI_SFPSHFT2(1, 3, 10, 5)");
    assert_eq!(s.LReg, before);
}

#[test]
fn sfpshft2_shft_imm_uses_signed_imm12_and_its_low_bits_as_vb() {
    // (Imm12, VB = Imm12 & 15, left shift or right shift amount)
    let cases: [(u32, usize, i32); 7] = [
        (0x003, 3, 3),
        (0x014, 4, 20),
        (0xFFF, 15, -1), // -1: L15 >> 1 = lane
        (0xFE5, 5, -27), // -27
        (0x800, 0, 0),   // -2048: 2048 & 31 = 0
        (0x7E1, 1, 1),   // 2017 & 31 = 1
        (0x8E2, 2, -30), // -1822: 1822 & 31 = 30
    ];
    for (imm, vb, sh) in cases {
        for en in [ALL, SOME] {
            let mut s = shft2_state();
            predicate(&mut s, en);
            let old = s.clone();
            let out = run(&mut s, &format!("TTI_SFPSHFT2({imm:#x}, 0, 6, SFPSHFT2_MOD1_SHFT_IMM)"));
            assert_defined(&out); // upper Imm12 bits are drawn in this mode
            let src = old.LReg[vb];
            let want = lanes(|l| if sh >= 0 { src[l] << sh } else { src[l] >> -sh });
            check_regs(&s, &old, en, |r, l| (r == 6).then_some(want[l]), &format!("SHFT_IMM {imm:#x}"));
        }
    }
    let mut s = shft2_state();
    run(&mut s, "TTI_SFPSHFT2(0xFFF, 0, 6, 6)");
    assert_lanes(&s.LReg[6], &lanes(|l| l as u32), "2*lane >> 1");
    let before = s.LReg;
    run(&mut s, "TTI_SFPSHFT2(0x001, 0, 8, 6)");
    assert_eq!(s.LReg, before, "VD 8 not written");
}

/// BlackholeA0 `SFPSHFT2.md` @ 41d2c717: `default: UndefinedBehavior();` for Mod1 7..15. The
/// model writes nothing and reports the instruction undefined.
#[test]
fn sfpshft2_mod1_7_to_15_is_undefined() {
    for mod1 in 7..16 {
        for imm in [0u32, 0x3] {
            let mut s = shft2_state();
            let old = s.clone();
            let out = run(&mut s, &format!("TTI_SFPSHFT2({imm}, 1, 2, {mod1})"));
            assert_eq!(s, old, "Mod1={mod1}");
            assert_eq!(out.lanes(Clause::Sfpshft2UndefinedMod1), ALL, "Mod1={mod1}");
            assert_eq!(out.worst(), Some(Kind::Undefined), "Mod1={mod1}");
            assert_eq!(out.lanes(Clause::UndrawnBits), 0);
        }
    }
}

#[test]
fn sfpshft2_upper_imm12_bits_outside_shft_imm_are_undrawn() {
    for mod1 in 0..6 {
        // 0x123: VB = 3, bits [23:16] of the word = 0x12.
        let mut s = shft2_state();
        let out = run(&mut s, &format!("TTI_SFPSHFT2(0x123, 1, 2, {mod1})"));
        assert_eq!(out.lanes(Clause::UndrawnBits), ALL, "Mod1={mod1}");
        assert_eq!(Clause::UndrawnBits.kind(), Kind::Unspecified);
        let mut t = shft2_state();
        assert_defined(&run(&mut t, &format!("TTI_SFPSHFT2(0x3, 1, 2, {mod1})")));
        assert_eq!(s.LReg, t.LReg, "Mod1={mod1}: same effect as with the bits clear");
    }
}

#[test]
fn sfpshft2_vd_12_backdoor_load_in_modes_0_to_3() {
    for mod1 in 0..4u32 {
        let mut s = shft2_state();
        let old = s.clone();
        let out = run(&mut s, &format!("TTI_SFPSHFT2(0, 1, 12, {mod1})"));
        assert_eq!(s.LReg, old.LReg, "Mod1={mod1}: not executed");
        // Word: 0x94 << 24 | VC 1 << 8 | VD 12 << 4 | Mod1.
        let word = 0x9400_01C0 | mod1;
        assert!(s.LoadMacroConfig.iter().all(|c| c.InstructionTemplate[0] == word), "Mod1={mod1}");
        assert_eq!(out.lanes(Clause::BackdoorLoad), ALL);
    }
    // With DISABLE_BACKDOOR_LOAD set, COPY4 / CHAINED / SHFLROR1_AND_COPY4 execute with VD = 12.
    let mut s = shft2_state();
    lc_all(&mut s, DBL);
    let old = s.clone();
    assert_defined(&run(&mut s, "TTI_SFPSHFT2(0, 1, 12, 0)"));
    assert_eq!((s.LReg[0], s.LReg[3]), (old.LReg[1], [0; LANES]));
    let mut s = shft2_state();
    lc_all(&mut s, DBL);
    assert_defined(&run(&mut s, "TTI_SFPSHFT2(0, 1, 12, 2)"));
    assert_eq!(s.LReg[3][0], old.LReg[1][7]);
}

// ------------------------------------------------------------------------------------------------
// SFPSWAP (BlackholeA0 SFPSWAP.md)
// ------------------------------------------------------------------------------------------------

/// (VC value, VD value) pairs: ordering per lane covers both orders, equality, -0/+0, NaNs,
/// infinities, sign-magnitude integers and denormals.
const SWAP_PAIRS: [(u32, u32); 12] = [
    (0x3F80_0000, 0x4000_0000), // 1 < 2
    (0x4000_0000, 0x3F80_0000), // 2 > 1
    (0x8000_0000, 0x0000_0000), // -0 < +0
    (0x0000_0000, 0x8000_0000), // +0 > -0
    (0xBF80_0000, 0xFF80_0000), // -1 > -Inf
    (0x7FC0_0000, 0x3F80_0000), // +NaN > 1
    (0x4040_0000, 0x4040_0000), // equal
    (0x8000_0005, 0x0000_0003), // sign-magnitude -5 < 3
    (0x0000_0003, 0x8000_0005),
    (0xFFC0_0000, 0xFF80_0000), // -NaN < -Inf
    (0x7F80_0000, 0x7F7F_FFFF), // +Inf > max
    (0x0000_0001, 0x8000_0001), // +denormal > -denormal
];

/// `SignMagIsSmaller(c, d)` via Rust's `f32::total_cmp`, whose order (-NaN < -Inf < ... < -0 <
/// +0 < ... < +Inf < +NaN, on raw bits) is the one the page states.
fn smaller(c: u32, d: u32) -> bool {
    f32::from_bits(c).total_cmp(&f32::from_bits(d)).is_lt()
}

#[test]
fn total_cmp_oracle_agrees_with_the_documented_order() {
    assert!(smaller(0x8000_0000, 0));
    assert!(smaller(0xFFC0_0000, 0xFF80_0000));
    assert!(smaller(0x7F80_0000, 0x7FC0_0000));
    assert!(smaller(0x8000_0005, 0x8000_0004)); // -5 < -4 as sign-magnitude
    assert!(!smaller(0x4040_0000, 0x4040_0000));
}

/// Expected (VC, VD) after SFPSWAP for one lane.
fn swap_expect(mod1: u32, vd_gets_min: bool, exchange: bool, c: u32, d: u32) -> ((u32, u32), bool) {
    let mut swap = if mod1 == 0 {
        true
    } else if vd_gets_min {
        smaller(c, d)
    } else {
        !smaller(c, d)
    };
    if exchange && mod1 != 0 {
        swap = !swap;
    }
    (if swap { (d, c) } else { (c, d) }, swap)
}

/// VDGetsMin per Mod1 (SFPSWAP.md): 1..8 named, 9 all-max, 10..15 as 9 (NonContractual).
const VD_GETS_MIN: [u32; 16] =
    [0, !0, 0xFFFF, 0xFF00FF, 0xFF0000FF, 0xFF, 0xFF00, 0xFF0000, 0xFF000000, 0, 0, 0, 0, 0, 0, 0];

#[test]
fn sfpswap_every_mod1() {
    for mod1 in 0..16u32 {
        for (exchange, en) in [(false, ALL), (false, SOME), (true, ALL)] {
            let mut s = reset();
            if exchange {
                lc_all(&mut s, XCHG_BC);
            }
            set(&mut s, 1, spread(&SWAP_PAIRS.map(|p| p.0)));
            set(&mut s, 2, spread(&SWAP_PAIRS.map(|p| p.1)));
            predicate(&mut s, en);
            let old = s.clone();
            let out = run(&mut s, &format!("TTI_SFPSWAP(0, 1, 2, {mod1})"));
            let what = format!("Mod1={mod1} exchange={exchange} en={en:#x}");
            if mod1 >= 10 {
                assert_eq!(out.lanes(Clause::SfpswapReservedMod1), ALL, "{what}");
                assert_eq!(Clause::SfpswapReservedMod1.kind(), Kind::NonContractual);
            } else {
                assert_defined(&out);
            }
            let exp: Vec<(u32, u32)> = (0..LANES)
                .map(|l| {
                    let (c, d) = (old.LReg[1][l], old.LReg[2][l]);
                    swap_expect(mod1, (VD_GETS_MIN[mod1 as usize] >> l) & 1 != 0, exchange, c, d).0
                })
                .collect();
            check_regs(
                &s,
                &old,
                en,
                |r, l| match r {
                    1 => Some(exp[l].0),
                    2 => Some(exp[l].1),
                    _ => None,
                },
                &what,
            );
        }
    }
    // Hand checks of the oracle-based expectations: VEC_MIN_MAX lane 2 (-0 vs +0): VD = -0;
    // Mod1 9 lane 2: VD = +0 (max). Lane 0 (VC 1.0, VD 2.0): Mod1 1 swaps (VC smaller) so VD = 1.0;
    // Mod1 9 does not (VC not smaller) so VD stays 2.0. Lane 3 (VC +0, VD -0): Mod1 1 keeps
    // VD = -0; Mod1 9 swaps, VD = +0.
    let mut s = reset();
    set(&mut s, 1, spread(&SWAP_PAIRS.map(|p| p.0)));
    set(&mut s, 2, spread(&SWAP_PAIRS.map(|p| p.1)));
    let mut t = s.clone();
    run(&mut s, "TTI_SFPSWAP(0, 1, 2, SFPSWAP_MOD1_VEC_MIN_MAX)");
    run(&mut t, "TTI_SFPSWAP(0, 1, 2, 9)");
    assert_eq!((s.LReg[2][2], s.LReg[1][2], t.LReg[2][2], t.LReg[1][2]), (0x8000_0000, 0, 0, 0x8000_0000));
    assert_eq!((s.LReg[2][0], t.LReg[2][0]), (0x3F80_0000, 0x4000_0000));
    assert_eq!((s.LReg[2][3], t.LReg[2][3]), (0x8000_0000, 0));
}

#[test]
fn sfpswap_does_not_write_registers_8_and_up() {
    // Without ENABLE_DEST_INDEX the writes are guarded by < 8.
    let mut s = reset();
    fill(&mut s, 1, 0x1111);
    run(&mut s, "TTI_SFPSWAP(0, 10, 1, SFPSWAP_MOD1_SWAP)");
    assert_lanes(&s.LReg[1], &[0x3F80_0000; LANES], "L1 gets 1.0");
    fill(&mut s, 1, 0x1111);
    run(&mut s, "TTI_SFPSWAP(0, 1, 9, 0)");
    assert!(s.constants_intact());
    // With DISABLE_BACKDOOR_LOAD, VD = 12: L12 is read but not written.
    lc_all(&mut s, DBL);
    fill(&mut s, 1, 0x1111);
    s.LReg[12] = [0x2222; LANES];
    assert_defined(&run(&mut s, "TTI_SFPSWAP(0, 1, 12, 0)"));
    assert_eq!((s.LReg[1][0], s.LReg[12][0]), (0x2222, 0x2222));
}

#[test]
fn sfpswap_vd_12_backdoor_load() {
    let mut s = reset();
    fill(&mut s, 1, 0x1111);
    let old = s.clone();
    let out = run(&mut s, "TTI_SFPSWAP(0, 1, 12, 0)");
    assert_eq!(s.LReg, old.LReg);
    // Word: 0x92 << 24 | VC 1 << 8 | VD 12 << 4 = 0x920001C0.
    assert!(s.LoadMacroConfig.iter().all(|c| c.InstructionTemplate[0] == 0x9200_01C0));
    assert_eq!(out.lanes(Clause::BackdoorLoad), ALL);
}

#[test]
fn sfpswap_argmin_argmax_swaps_the_index_registers() {
    for mod1 in [0u32, 1, 2, 9] {
        let mut s = reset();
        lc_all(&mut s, DEST_INDEX);
        set(&mut s, 0, spread(&SWAP_PAIRS.map(|p| p.0)));
        set(&mut s, 1, spread(&SWAP_PAIRS.map(|p| p.1)));
        set(&mut s, 4, lanes(|l| 0x400 + l as u32));
        set(&mut s, 5, lanes(|l| 0x500 + l as u32));
        let old = s.clone();
        assert_defined(&run(&mut s, &format!("TTI_SFPSWAP(0, 0, 1, {mod1})")));
        let sw: Vec<bool> = (0..LANES)
            .map(|l| {
                swap_expect(
                    mod1,
                    (VD_GETS_MIN[mod1 as usize] >> l) & 1 != 0,
                    false,
                    old.LReg[0][l],
                    old.LReg[1][l],
                )
                .1
            })
            .collect();
        let o = &old.LReg;
        check_regs(
            &s,
            &old,
            ALL,
            |r, l| match (r, sw[l]) {
                (0, true) => Some(o[1][l]),
                (1, true) => Some(o[0][l]),
                (4, true) => Some(o[5][l]),
                (5, true) => Some(o[4][l]),
                _ => None,
            },
            &format!("argmin Mod1={mod1}"),
        );
    }
    // Equal values: VD-gets-max lanes swap (index registers change), VD-gets-min lanes do not.
    let mut s = reset();
    lc_all(&mut s, DEST_INDEX);
    fill(&mut s, 0, 0x4040_0000);
    fill(&mut s, 1, 0x4040_0000);
    set(&mut s, 4, lanes(|l| 0x400 + l as u32));
    set(&mut s, 5, lanes(|l| 0x500 + l as u32));
    run(&mut s, "TTI_SFPSWAP(0, 0, 1, SFPSWAP_MOD1_SUBVEC_MIN01_MAX23)");
    assert_lanes(&s.LReg[4], &lanes(|l| (if l < 16 { 0x400 } else { 0x500 }) + l as u32), "equal: L4");
    assert_lanes(&s.LReg[5], &lanes(|l| (if l < 16 { 0x500 } else { 0x400 }) + l as u32), "equal: L5");
}

#[test]
fn sfpswap_argmin_writes_only_registers_below_4() {
    // VC = 2, VD = 7, unconditional: L2 = old L7 (VD value); L7 not written as VD (>= 4); then
    // index registers 4 + (2 & 3) = 6 and 4 + (7 & 3) = 7 swap: L6 = old L7, L7 = old L6.
    let mut s = reset();
    lc_all(&mut s, DEST_INDEX);
    for r in 0..8 {
        fill(&mut s, r, 0x100 * r as u32);
    }
    assert_defined(&run(&mut s, "TTI_SFPSWAP(0, 2, 7, 0)"));
    let got: Vec<u32> = (0..8).map(|r| s.LReg[r][0]).collect();
    assert_eq!(got, vec![0, 0x100, 0x700, 0x300, 0x400, 0x500, 0x700, 0x600]);
    // VC = 5, VD = 1: L1 = old L5; L5 not written as VC (>= 4); index registers 4 + (5&3) = 5 and
    // 4 + (1&3) = 5 are the same register: unchanged.
    let mut s = reset();
    lc_all(&mut s, DEST_INDEX);
    for r in 0..8 {
        fill(&mut s, r, 0x100 * r as u32);
    }
    run(&mut s, "TTI_SFPSWAP(0, 5, 1, 0)");
    let got: Vec<u32> = (0..8).map(|r| s.LReg[r][0]).collect();
    assert_eq!(got, vec![0, 0x500, 0x200, 0x300, 0x400, 0x500, 0x600, 0x700]);
    // VC = 8 (constant): L0 = 0.8373; index registers 4 + 0 and 4 + 0: unchanged.
    let mut s = reset();
    lc_all(&mut s, DEST_INDEX);
    fill(&mut s, 4, 0x444);
    run(&mut s, "TTI_SFPSWAP(0, 8, 0, 0)");
    assert_eq!((s.LReg[0][3], s.LReg[4][3]), (0x3F56_594B, 0x444));
    assert!(s.constants_intact());
    // Disabled lanes: nothing, index registers included.
    let mut s = reset();
    lc_all(&mut s, DEST_INDEX);
    set(&mut s, 0, lanes(|l| l as u32));
    set(&mut s, 1, lanes(|l| 0x100 + l as u32));
    set(&mut s, 4, [4; LANES]);
    set(&mut s, 5, [5; LANES]);
    predicate(&mut s, 0x0000_FFFF);
    run(&mut s, "TTI_SFPSWAP(0, 0, 1, 0)");
    assert_lanes(&s.LReg[4], &lanes(|l| if l < 16 { 5 } else { 4 }), "EN");
    assert_lanes(&s.LReg[1], &lanes(|l| if l < 16 { l as u32 } else { 0x100 + l as u32 }), "EN");
}

#[test]
fn sfpswap_exchange_srcb_srcc_inverts_conditional_modes_only() {
    // 1.0 vs 2.0 in every lane; VEC_MIN_MAX normally leaves VD = min = 1.0 (VD holds 1.0
    // already: no swap); inverted, it swaps. SWAP always swaps.
    for (mod1, want_vd) in [(1u32, 0x4000_0000u32), (0, 0x4000_0000)] {
        let mut s = reset();
        lc_all(&mut s, XCHG_BC);
        fill(&mut s, 1, 0x4000_0000);
        fill(&mut s, 2, 0x3F80_0000);
        run(&mut s, &format!("TTI_SFPSWAP(0, 1, 2, {mod1})"));
        assert_eq!((s.LReg[2][0], s.LReg[1][0]), (want_vd, 0x3F80_0000), "Mod1={mod1}");
    }
}

// ------------------------------------------------------------------------------------------------
// SFPTRANSP (WormholeB0 SFPTRANSP.md)
// ------------------------------------------------------------------------------------------------

/// LReg[r][l] = r << 8 | l for r in 0..8.
fn transp_state() -> State {
    let mut s = reset();
    for r in 0..8 {
        set(&mut s, r, lanes(|l| ((r as u32) << 8) | l as u32));
    }
    s
}

/// The transposed value of LReg[base + i][8 j + col]: old LReg[base + j][8 i + col].
fn transposed(old: &State, r: usize, l: usize) -> Option<u32> {
    if r >= 8 {
        return None;
    }
    let (base, i, j, col) = (r & 4, r & 3, l / 8, l & 7);
    Some(old.LReg[base + j][8 * i + col])
}

#[test]
fn sfptransp_transposes_within_each_column() {
    let mut s = transp_state();
    let old = s.clone();
    assert_defined(&run(&mut s, "TTI_SFPTRANSP(0, 0, 0, 0)"));
    check_regs(&s, &old, ALL, |r, l| transposed(&old, r, l), "SFPTRANSP");
    // Hand checks: L0 lane 9 (i=0, j=1, col 1) <- L1 lane 1 = 0x101; L3 lane 2 (i=3, j=0)
    // <- L0 lane 26 = 0x01A; L6 lane 31 (i=2, j=3, col 7) <- L7 lane 23 = 0x717; the diagonal
    // L2 lane 21 stays 0x215.
    assert_eq!((s.LReg[0][9], s.LReg[3][2], s.LReg[6][31], s.LReg[2][21]), (0x101, 0x01A, 0x717, 0x215));
    assert!(s.constants_intact());
}

#[test]
fn sfptransp_writes_only_enabled_destination_lanes() {
    for how in ["predicate", "row_mask"] {
        let mut s = transp_state();
        let en = if how == "predicate" {
            predicate(&mut s, SOME);
            SOME
        } else {
            // Column 1 rows 0 and 2 (lanes 1, 17), column 6 row 3 (lane 30).
            lc_col(&mut s, 1, row_mask(0b0101));
            lc_col(&mut s, 6, row_mask(0b1000));
            !((1 << 1) | (1 << 17) | (1 << 30))
        };
        let old = s.clone();
        assert_defined(&run(&mut s, "TTI_SFPTRANSP(0, 0, 5, 0)"));
        check_regs(&s, &old, en, |r, l| transposed(&old, r, l), how);
    }
}

#[test]
fn sfptransp_vd_12_backdoor_load() {
    let mut s = transp_state();
    let old = s.clone();
    let out = run(&mut s, "TTI_SFPTRANSP(0, 0, 12, 0)");
    assert_eq!(s.LReg, old.LReg);
    // Word: 0x8C << 24 | VD 12 << 4.
    assert!(s.LoadMacroConfig.iter().all(|c| c.InstructionTemplate[0] == 0x8C00_00C0));
    assert_eq!(out.lanes(Clause::BackdoorLoad), ALL);
    // With DISABLE_BACKDOOR_LOAD set in every lane, VD 12 transposes.
    let mut s = transp_state();
    lc_all(&mut s, DBL);
    assert_defined(&run(&mut s, "TTI_SFPTRANSP(0, 0, 12, 0)"));
    check_regs(&s, &old, ALL, |r, l| transposed(&old, r, l), "DBL");
}
