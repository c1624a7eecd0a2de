//! Lane predication: `IsLaneEnabled`, SFPSETCC, SFPENCC, SFPPUSHC, SFPPOPC, SFPCOMPC, SFPGT and
//! SFPLE, and a full if / else-if / else block built from them.
//!
//! Sources: `BlackholeA0/VectorUnit.md` ("Lane Predication Masks"), `WormholeB0/SFPSETCC.md`,
//! `WormholeB0/SFPCOMPC.md`, `BlackholeA0/SFPENCC.md`, `SFPPUSHC.md`, `SFPPOPC.md`, `SFPGT.md`,
//! `SFPLE.md`, `VectorUnit.md`; the seed differences of
//! `docs/spec/sfpu-blackhole.md#where-the-model-follows-upstream-against-the-seed-summaries`.
//!
//! Every expected mask is written by hand (hex constants with the lane list next to them) or
//! comes from a hand-written truth table transcribed from the page; sign-magnitude comparisons
//! are cross-checked against Rust's `f32::total_cmp` (IEEE totalOrder, which is exactly the
//! documented order -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN on raw bits).

use crate::common::*;
use sfpu_reference::state::{FlagStack, FlagStackEntry, LANES, LaneConfig};
use sfpu_reference::{Clause, State};
use std::cmp::Ordering;

// ------------------------------------------------------------------------------------------------
// Helpers
// ------------------------------------------------------------------------------------------------

const T: bool = true;
const F: bool = false;

fn e(lane_flags: bool, use_flags: bool) -> FlagStackEntry {
    FlagStackEntry { LaneFlags: lane_flags, UseLaneFlagsForLaneEnable: use_flags }
}

fn bit(lane: usize, b: u32) -> bool {
    (lane >> b) & 1 != 0
}

fn use_mask(s: &State) -> u32 {
    mask(|l| s.UseLaneFlagsForLaneEnable[l])
}

fn set_flags(s: &mut State, m: u32) {
    for l in 0..LANES {
        s.LaneFlags[l] = (m >> l) & 1 != 0;
    }
}

fn set_use(s: &mut State, m: u32) {
    for l in 0..LANES {
        s.UseLaneFlagsForLaneEnable[l] = (m >> l) & 1 != 0;
    }
}

fn enabled(s: &State) -> u32 {
    mask(|l| s.IsLaneEnabled(l))
}

/// Sets `LaneConfig` of every lane in column `col` (lanes `col`, `col+8`, ...), as SFPCONFIG's
/// broadcast would.
fn set_column_config(s: &mut State, col: usize, bits: u32) {
    for l in (col..LANES).step_by(8) {
        s.LaneConfig[l] = LaneConfig::new(bits).unwrap();
    }
}

/// `ROW_MASK` (LaneConfig bits 15:12) value `rows` as a LaneConfig word.
fn row_mask(rows: u32) -> u32 {
    rows << 12
}

/// LaneConfig bit 1.
const DBL: u32 = 2;

fn set_stack(s: &mut State, lane: usize, entries: &[FlagStackEntry]) {
    s.FlagStack[lane] = FlagStack::from_entries(entries).unwrap();
}

fn top_flags(s: &State) -> u32 {
    mask(|l| s.FlagStack[l].top().is_some_and(|t| t.LaneFlags))
}

fn top_use(s: &State) -> u32 {
    mask(|l| s.FlagStack[l].top().is_some_and(|t| t.UseLaneFlagsForLaneEnable))
}

fn lens(s: &State) -> [usize; LANES] {
    std::array::from_fn(|l| s.FlagStack[l].len())
}

/// Lanes whose stack has exactly `n` entries.
fn depth_mask(s: &State, n: usize) -> u32 {
    mask(|l| s.FlagStack[l].len() == n)
}

#[track_caller]
fn assert_mask(actual: u32, expected: u32, what: &str) {
    let diff: Vec<usize> = (0..LANES).filter(|&l| ((actual ^ expected) >> l) & 1 != 0).collect();
    assert!(
        actual == expected,
        "{what}: got 0x{actual:08x}, want 0x{expected:08x}; differing lanes {diff:?}"
    );
}

/// `BooleanOp(Mod1, A, B)` from the "Supporting definitions" of `SFPPUSHC.md` / `SFPPOPC.md`,
/// tabulated by hand as `[f(A=0,B=0), f(A=0,B=1), f(A=1,B=0), f(A=1,B=1)]`.
const BOOL_OP: [[bool; 4]; 13] = [
    [F, F, F, F], // 0: not a BooleanOp case
    [F, T, F, T], // 1:        B
    [T, F, T, F], // 2:       !B
    [F, F, F, T], // 3:  A &&  B
    [F, T, T, T], // 4:  A ||  B
    [F, F, T, F], // 5:  A && !B
    [T, F, T, T], // 6:  A || !B
    [F, T, F, F], // 7: !A &&  B
    [T, T, F, T], // 8: !A ||  B
    [T, F, F, F], // 9: !A && !B
    [T, T, T, F], // 10: !A || !B
    [F, T, T, F], // 11:  A !=  B
    [T, F, F, T], // 12:  A ==  B
];

fn bool_op(k: u32, a: bool, b: bool) -> bool {
    BOOL_OP[k as usize][(a as usize) * 2 + b as usize]
}

/// The `(LaneFlags, Use, FlagStack, LReg column)` of one lane, to check lanes left untouched.
fn lane_state(s: &State, l: usize) -> (bool, bool, FlagStack, [u32; 17]) {
    (s.LaneFlags[l], s.UseLaneFlagsForLaneEnable[l], s.FlagStack[l], std::array::from_fn(|r| s.LReg[r][l]))
}

// ------------------------------------------------------------------------------------------------
// IsLaneEnabled (VectorUnit.md "Lane Predication Masks")
// ------------------------------------------------------------------------------------------------

#[test]
fn lane_enable_reset_state_enables_every_lane() {
    let s = reset();
    // LaneFlags and UseLaneFlagsForLaneEnable start false, stacks empty (VectorUnit.md).
    assert_mask(flags(&s), 0, "reset LaneFlags");
    assert_mask(use_mask(&s), 0, "reset Use");
    assert!(s.FlagStack.iter().all(|st| st.is_empty()));
    assert_mask(enabled(&s), ALL, "enabled at reset");
}

#[test]
fn lane_enable_row_mask_disables_row_of_column() {
    let mut s = reset();
    // ROW_MASK per column 0..7: 0x0, 0x1, 0x2, 0x4, 0x8, 0xF, 0x5, 0xA.
    let rm = [0x0, 0x1, 0x2, 0x4, 0x8, 0xF, 0x5, 0xA];
    for (col, &r) in rm.iter().enumerate() {
        set_column_config(&mut s, col, row_mask(r));
    }
    // Disabled lane = 8*row + col: col1 row0 -> 1; col2 row1 -> 10; col3 row2 -> 19; col4 row3 -> 28;
    // col5 all rows -> 5,13,21,29; col6 rows 0,2 -> 6,22; col7 rows 1,3 -> 15,31.
    // {1,5,6} = 0x62, {10,13,15} = 0xA400, {19,21,22} = 0x680000, {28,29,31} = 0xB0000000.
    const RM: u32 = 0xB068_A462;
    assert_mask(enabled(&s), !RM, "Use=false: only ROW_MASK disables");

    // LaneFlags are ignored while Use is false.
    set_flags(&mut s, 0x1234_5678);
    assert_mask(enabled(&s), !RM, "Use=false, LaneFlags ignored");

    // Use=true: LaneFlags decide, but ROW_MASK still wins (even with LaneFlags=true).
    predicate(&mut s, ALL);
    assert_mask(enabled(&s), !RM, "Use=true, LaneFlags all true");
    predicate(&mut s, 0x1234_5678);
    assert_mask(enabled(&s), 0x1234_5678 & !RM, "Use=true, LaneFlags pattern");

    // Use only in lanes 16..31: lanes 0..15 enabled unless row-masked.
    set_use(&mut s, 0xFFFF_0000);
    assert_mask(enabled(&s), (0x0000_FFFF | (0x1234_5678 & 0xFFFF_0000)) & !RM, "mixed Use");
}

#[test]
fn lane_enable_reads_lane_config_of_lane_and_7() {
    let mut s = reset();
    // LaneConfig[8..32] are never consulted: IsLaneEnabled reads LaneConfig[Lane & 7].
    for l in 8..LANES {
        s.LaneConfig[l] = LaneConfig::new(row_mask(0xF)).unwrap();
    }
    assert_mask(enabled(&s), ALL, "ROW_MASK in lanes 8..31 only");
    // LaneConfig[0] ROW_MASK bit 2 -> row 2 of column 0 -> lane 16, even with LaneConfig[16] = 0.
    s.LaneConfig[16] = LaneConfig::new(0).unwrap();
    s.LaneConfig[0] = LaneConfig::new(row_mask(0b0100)).unwrap();
    assert_mask(enabled(&s), !(1 << 16), "LaneConfig[0] row 2");
}

#[test]
fn lane_enable_ignores_other_lane_config_bits() {
    let mut s = reset();
    // Every bit except ROW_MASK (bits 15:12): 0x3_0FFF.
    for l in 0..LANES {
        s.LaneConfig[l] = LaneConfig::new(0x3_0FFF).unwrap();
    }
    assert_mask(enabled(&s), ALL, "non-ROW_MASK bits");
}

#[test]
fn lane_enable_governs_register_writes() {
    let mut s = reset();
    set_column_config(&mut s, 1, row_mask(0b0011)); // lanes 1, 9
    predicate(&mut s, 0x0000_FFFF);
    fill(&mut s, 2, 0xDEAD_BEEF);
    assert_defined(&run(&mut s, "TTI_SFPLOADI(2, 2, 0x1234)")); // USHORT: zero-extend
    let want: [u32; 32] =
        std::array::from_fn(|l| if l < 16 && l != 1 && l != 9 { 0x0000_1234 } else { 0xDEAD_BEEF });
    assert_lanes(&s.LReg[2], &want, "SFPLOADI under predication and ROW_MASK");
}

// ------------------------------------------------------------------------------------------------
// SFPSETCC (WormholeB0/SFPSETCC.md)
// ------------------------------------------------------------------------------------------------

/// VC operands for SFPSETCC, one per lane.
const SETCC_VC: [u32; 32] = [
    0x0000_0000, // 0  +0
    0x8000_0000, // 1  -0: i32 min, "< 0" and "!= 0"
    0x0000_0001, // 2  +denormal / int 1
    0xFFFF_FFFF, // 3  -1 / -NaN
    0x7FC0_0000, // 4  +qNaN
    0xFFC0_0000, // 5  -qNaN
    0x7F80_0000, // 6  +Inf
    0xFF80_0000, // 7  -Inf
    0x3F80_0000, // 8  1.0
    0xBF80_0000, // 9  -1.0
    0x007F_FFFF, // 10 +max denormal
    0x807F_FFFF, // 11 -max denormal
    0x7FFF_FFFF, // 12 i32 max / +NaN
    0x7F80_0001, // 13 +sNaN
    0xFF80_0001, // 14 -sNaN
    0x7F7F_FFFF, // 15 max normal
    0xFF7F_FFFF, // 16 -max normal
    0x4049_0FDB, // 17 pi
    0xC049_0FDB, // 18 -pi
    0x0000_0000, // 19 +0
    0x8000_0001, // 20 -denormal
    0x0001_0000, // 21
    0x1234_5678, // 22
    0x8765_4321, // 23
    0x0000_0000, // 24 +0
    0x8000_0000, // 25 -0
    0x7FFF_FFFE, // 26
    0xFFFF_FFFE, // 27 -2
    0x0080_0000, // 28 min normal
    0x8080_0000, // 29 -min normal
    0x3EAA_AAAB, // 30 1/3
    0x0000_0000, // 31 +0
];
/// Sign bit set (two's complement < 0): lanes 1,3,5,7,9,11,14,16,18,20,23,25,27,29.
/// {1,3,5,7} = 0xAA, {9,11,14} = 0x4A00, {16,18,20,23} = 0x950000, {25,27,29} = 0x2A000000.
const SETCC_LT0: u32 = 0x2A95_4AAA;
/// All-zero bits: lanes 0, 19, 24, 31.
const SETCC_EQ0: u32 = 0x8108_0001;

#[test]
fn sfpsetcc_operand_masks_match_i32_oracle() {
    assert_mask(mask(|l| (SETCC_VC[l] as i32) < 0), SETCC_LT0, "LT0 oracle");
    assert_mask(mask(|l| SETCC_VC[l] as i32 == 0), SETCC_EQ0, "EQ0 oracle");
}

#[test]
fn sfpsetcc_every_mod1_and_imm1() {
    // Row-masked lanes 2 (col 2 row 0) and 29 (col 5 row 3) must keep LaneFlags = true.
    const RM: u32 = (1 << 2) | (1 << 29);
    // Expected LaneFlags per Mod1 before applying RM, for Imm1 = 0 and Imm1 = 1 (page: CLEAR (8) is
    // checked before IMM_BIT0 (1), and IMM_BIT0 before the compare, so 1,3,5,7 -> Imm1 and
    // 8..15 -> false).
    let lt = SETCC_LT0;
    let ne = !SETCC_EQ0; // 0x7EF7FFFE
    let ge = !SETCC_LT0; // 0xD56AB555
    let eq = SETCC_EQ0;
    assert_eq!(ne, 0x7EF7_FFFE);
    assert_eq!(ge, 0xD56A_B555);
    #[rustfmt::skip]
    let table: [(u32, u32); 16] = [
        (lt, lt), (0, ALL), (ne, ne), (0, ALL), (ge, ge), (0, ALL), (eq, eq), (0, ALL),
        (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0),
    ];
    for mod1 in 0..16u32 {
        for imm1 in 0..2u32 {
            let mut s = reset();
            set(&mut s, 1, SETCC_VC);
            predicate(&mut s, ALL);
            set_column_config(&mut s, 2, row_mask(0b0001));
            set_column_config(&mut s, 5, row_mask(0b1000));
            fill(&mut s, 3, 0x5555_5555);
            let out = run(&mut s, &format!("TTI_SFPSETCC({imm1}, 1, 3, {mod1})"));
            assert_defined(&out);
            let want = if imm1 == 0 { table[mod1 as usize].0 } else { table[mod1 as usize].1 };
            assert_mask(flags(&s), (want & !RM) | RM, &format!("SFPSETCC Mod1={mod1} Imm1={imm1}"));
            assert_mask(use_mask(&s), ALL, "Use unchanged");
            assert_eq!(s.LReg[3], [0x5555_5555; 32], "VD is not written");
            assert!(s.FlagStack.iter().all(|st| st.is_empty()), "stack untouched");
        }
    }
}

#[test]
fn sfpsetcc_named_constants_parse_to_the_page_values() {
    for (name, v) in [
        ("SFPSETCC_MOD1_LREG_LT0", 0),
        ("SFPSETCC_MOD1_IMM_BIT0", 1),
        ("SFPSETCC_MOD1_LREG_NE0", 2),
        ("SFPSETCC_MOD1_LREG_GTE0", 4),
        ("SFPSETCC_MOD1_LREG_EQ0", 6),
        ("SFPSETCC_MOD1_CLEAR", 8),
    ] {
        assert_eq!(
            instr(&format!("TTI_SFPSETCC(0, 1, 0, {name})")),
            instr(&format!("TTI_SFPSETCC(0, 1, 0, {v})"))
        );
    }
}

#[test]
fn sfpsetcc_use_false_forces_lane_flags_false() {
    // Use=true only in lanes 0..15; LaneFlags=true everywhere (so all lanes are enabled).
    // In lanes 16..31 the page's first branch `!UseLaneFlagsForLaneEnable -> LaneFlags = false`
    // applies whatever Mod1/Imm1 say. Lane 20 (col 4 row 2) is row-masked and keeps true.
    for (mod1, imm1, hi_lanes_result) in [(4u32, 0u32, "GTE0"), (1, 1, "IMM 1"), (6, 0, "EQ0")] {
        let mut s = reset();
        set(&mut s, 1, SETCC_VC);
        set_flags(&mut s, ALL);
        set_use(&mut s, 0x0000_FFFF);
        set_column_config(&mut s, 4, row_mask(0b0100));
        assert_defined(&run(&mut s, &format!("TTI_SFPSETCC({imm1}, 1, 0, {mod1})")));
        let lo = match mod1 {
            4 => !SETCC_LT0, // GTE0
            1 => ALL,        // Imm1 = 1
            _ => SETCC_EQ0,  // EQ0
        };
        assert_mask(flags(&s), (lo & 0xFFFF) | (1 << 20), &format!("Mod1={mod1} ({hi_lanes_result})"));
        assert_mask(use_mask(&s), 0x0000_FFFF, "Use unchanged");
    }
}

#[test]
fn sfpsetcc_disabled_lanes_keep_flags_seed_row_2() {
    // `docs/spec/sfpu-blackhole.md#seed-2-flags-change-only-in-enabled-lanes`: upstream updates
    // LaneFlags only in enabled lanes. Lanes predicated off (Use=true, LaneFlags=false) stay false
    // even where the result would be true.
    let mut s = reset();
    set(&mut s, 1, SETCC_VC);
    predicate(&mut s, 0x00FF_00FF); // lanes 0..7 and 16..23 enabled
    assert_defined(&run(&mut s, "TTI_SFPSETCC(0, 1, 0, SFPSETCC_MOD1_LREG_GTE0)"));
    // GTE0 = 0xD56AB555, restricted to enabled lanes 0x00FF00FF -> 0x006A0055.
    assert_mask(flags(&s), 0x006A_0055, "GTE0 on enabled lanes only");
    let mut s = reset();
    predicate(&mut s, 0x00FF_00FF);
    assert_defined(&run(&mut s, "TTI_SFPSETCC(1, 0, 0, SFPSETCC_MOD1_IMM_BIT0)"));
    assert_mask(flags(&s), 0x00FF_00FF, "IMM 1 cannot enable disabled lanes");
}

#[test]
fn sfpsetcc_constant_registers_as_vc() {
    // LReg[9] = 0, LReg[10] = 1.0, LReg[15][lane] = 2*lane, LReg[8] = 0x3F56594B.
    let cases = [
        (9, 6, ALL),    // 0 == 0 everywhere
        (10, 0, 0),     // 1.0 = 0x3F800000 is not < 0
        (15, 2, !1u32), // 2*lane != 0 except lane 0
        (15, 6, 1),     // only lane 0 holds 0
        (8, 4, ALL),    // 0x3F56594B >= 0
        (9, 0, 0),      // 0 < 0 never
    ];
    for (vc, mod1, want) in cases {
        let mut s = reset();
        predicate(&mut s, ALL);
        assert_defined(&run(&mut s, &format!("TTI_SFPSETCC(0, {vc}, 0, {mod1})")));
        assert_mask(flags(&s), want, &format!("VC={vc} Mod1={mod1}"));
    }
}

#[test]
fn sfpsetcc_vd_8_to_11_executes_normally() {
    // SFPSETCC does not write VD; VD 8..11 passes the VD < 12 guard.
    for vd in 8..12 {
        let mut s = reset();
        set(&mut s, 1, SETCC_VC);
        predicate(&mut s, ALL);
        let out = run(&mut s, &format!("TTI_SFPSETCC(0, 1, {vd}, 0)"));
        assert_defined(&out);
        assert_mask(flags(&s), SETCC_LT0, &format!("VD={vd}"));
        assert!(s.constants_intact());
    }
}

// ------------------------------------------------------------------------------------------------
// SFPENCC (BlackholeA0/SFPENCC.md)
// ------------------------------------------------------------------------------------------------

#[derive(Clone, Copy)]
enum UseRule {
    Keep,
    Invert,
    Imm,
}

#[test]
fn sfpencc_every_mod1_and_imm2() {
    use UseRule::*;
    // Page: `if (Mod1 & EI(2)) Use = Imm2 & E(1); else if (Mod1 & EC(1)) Use = !Use;`
    // `LaneFlags = (Mod1 & RI(8)) ? Imm2 & R(2) : true`. Bit 2 of Mod1 is not looked at.
    // Tabulated by hand: (Use rule, LaneFlags from Imm2?)
    #[rustfmt::skip]
    let table: [(UseRule, bool); 16] = [
        (Keep, F), (Invert, F), (Imm, F), (Imm, F),   // 0 EU_R1, 1 EC_R1, 2 EI_R1, 3 = EI (EI first)
        (Keep, F), (Invert, F), (Imm, F), (Imm, F),   // 4..7: bit 2 ignored
        (Keep, T), (Invert, T), (Imm, T), (Imm, T),   // 8 EU_RI, 9 EC_RI, 10 EI_RI, 11 = EI
        (Keep, T), (Invert, T), (Imm, T), (Imm, T),   // 12..15
    ];
    // Initial: Use = lane bit 0 (0xAAAAAAAA), LaneFlags = lane bit 1 (0xCCCCCCCC); column 3
    // row-masked (lanes 3, 11, 19, 27). EN plays no part: every lane changes.
    for mod1 in 0..16u32 {
        for imm2 in 0..4u32 {
            let mut s = reset();
            set_use(&mut s, 0xAAAA_AAAA);
            set_flags(&mut s, 0xCCCC_CCCC);
            set_column_config(&mut s, 3, row_mask(0xF));
            s.FlagStack[7].push(e(true, false)).unwrap();
            let out = run(&mut s, &format!("TTI_SFPENCC({imm2}, 0, 0, {mod1})"));
            assert_defined(&out);
            let (ur, ri) = table[mod1 as usize];
            let want_use = match ur {
                Keep => 0xAAAA_AAAA,
                Invert => 0x5555_5555,
                Imm => {
                    if imm2 & 1 != 0 {
                        ALL
                    } else {
                        0
                    }
                }
            };
            let want_flags = if ri && imm2 & 2 == 0 { 0 } else { ALL };
            let what = format!("SFPENCC Mod1={mod1} Imm2={imm2}");
            assert_mask(use_mask(&s), want_use, &format!("{what}: Use"));
            assert_mask(flags(&s), want_flags, &format!("{what}: LaneFlags"));
            assert_eq!(s.FlagStack[7].entries(), &[e(true, false)], "{what}: stack untouched");
            assert_eq!(depth_mask(&s, 0), !(1 << 7));
        }
    }
}

#[test]
fn sfpencc_named_constants_parse_to_the_page_values() {
    assert_eq!(
        instr("TTI_SFPENCC(SFPENCC_IMM2_E | SFPENCC_IMM2_R, 0, 0, SFPENCC_MOD1_EI | SFPENCC_MOD1_RI)"),
        instr("TTI_SFPENCC(3, 0, 0, 10)")
    );
    assert_eq!(instr("TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EC)"), instr("TTI_SFPENCC(0, 0, 0, 1)"));
}

#[test]
fn sfpencc_reenables_disabled_lanes_seed_row_1() {
    // `docs/spec/sfpu-blackhole.md#seed-1-sfpencc-and-disabled-lanes`: SFPENCC has no LaneEnabled
    // check. Every lane predicated off, and column 0 row-masked entirely; SFPENCC(0,0,0,0) (EU_R1)
    // sets LaneFlags = true in every lane.
    let mut s = reset();
    predicate(&mut s, 0);
    set_column_config(&mut s, 0, row_mask(0xF));
    assert_mask(enabled(&s), 0, "all disabled");
    assert_defined(&run(&mut s, "TTI_SFPENCC(0, 0, 0, 0)"));
    assert_mask(flags(&s), ALL, "LaneFlags");
    assert_mask(use_mask(&s), ALL, "Use kept");
    // Lanes 0, 8, 16, 24 stay disabled by ROW_MASK only.
    assert_mask(enabled(&s), !0x0101_0101, "enabled");
    // EC on disabled lanes too: Use inverts everywhere.
    predicate(&mut s, 0);
    assert_defined(&run(&mut s, "TTI_SFPENCC(0, 0, 0, 1)"));
    assert_mask(use_mask(&s), 0, "EC inverted Use in disabled lanes");
}

// ------------------------------------------------------------------------------------------------
// SFPPUSHC (BlackholeA0/SFPPUSHC.md)
// ------------------------------------------------------------------------------------------------

/// Lane classes for the stack-combining tests: top.LaneFlags = bit 0, LaneFlags = bit 1,
/// Use = bit 2, top.Use = bit 3; lanes 16..31 have a second (bottom) entry {true, false}.
/// Column 3 is row-masked (lanes 3, 11, 19, 27) and predication disables lanes with Use && !LaneFlags:
/// PUSHC/POPC ignore EN, so that changes nothing.
fn stack_classes() -> State {
    let mut s = reset();
    for l in 0..LANES {
        s.LaneFlags[l] = bit(l, 1);
        s.UseLaneFlagsForLaneEnable[l] = bit(l, 2);
        let top = e(bit(l, 0), bit(l, 3));
        if l >= 16 {
            set_stack(&mut s, l, &[e(true, false), top]);
        } else {
            set_stack(&mut s, l, &[top]);
        }
    }
    set_column_config(&mut s, 3, row_mask(0xF));
    s
}

#[track_caller]
fn assert_bottoms_intact(s: &State, what: &str) {
    for l in 0..LANES {
        let want = if l >= 16 { 2 } else { 1 };
        assert_eq!(s.FlagStack[l].len(), want, "{what}: lane {l} depth");
        if l >= 16 {
            assert_eq!(s.FlagStack[l].entries()[0], e(true, false), "{what}: lane {l} bottom");
        }
    }
}

#[test]
fn sfppushc_mod1_0_pushes_in_every_lane() {
    let mut s = stack_classes();
    let before = lens(&s);
    assert_defined(&run(&mut s, "TTI_SFPPUSHC(0, 0, 0, 0)"));
    for l in 0..LANES {
        assert_eq!(s.FlagStack[l].len(), before[l] + 1, "lane {l} depth");
        // Pushed {LaneFlags = bit 1, Use = bit 2}, including row-masked / predicated-off lanes.
        assert_eq!(s.FlagStack[l].top(), Some(e(bit(l, 1), bit(l, 2))), "lane {l} pushed entry");
        assert_eq!(s.FlagStack[l].entries()[before[l] - 1], e(bit(l, 0), bit(l, 3)), "lane {l} old top");
    }
    assert_mask(flags(&s), 0xCCCC_CCCC, "LaneFlags unchanged");
    assert_mask(use_mask(&s), 0xF0F0_F0F0, "Use unchanged");
}

#[test]
fn sfppushc_mod1_1_to_12_boolean_ops() {
    for k in 1..=12u32 {
        let mut s = stack_classes();
        assert_defined(&run(&mut s, &format!("TTI_SFPPUSHC(0, 0, 0, {k})")));
        let what = format!("SFPPUSHC Mod1={k}");
        // top.LaneFlags = BooleanOp(k, A = top.LaneFlags (bit 0), B = LaneFlags (bit 1)).
        assert_mask(
            top_flags(&s),
            mask(|l| bool_op(k, bit(l, 0), bit(l, 1))),
            &format!("{what}: top.LaneFlags"),
        );
        // top.Use = Use (bit 2).
        assert_mask(top_use(&s), 0xF0F0_F0F0, &format!("{what}: top.Use"));
        assert_mask(flags(&s), 0xCCCC_CCCC, &format!("{what}: LaneFlags unchanged"));
        assert_mask(use_mask(&s), 0xF0F0_F0F0, &format!("{what}: Use unchanged"));
        assert_bottoms_intact(&s, &what);
    }
}

#[test]
fn sfppushc_boolean_op_hand_cases() {
    // A few lanes worked by hand from the page (A = top.LaneFlags, B = LaneFlags):
    // lane 1: A=1, B=0. Mod1 5 (A && !B) -> 1; Mod1 7 (!A && B) -> 0; Mod1 1 (B) -> 0; Mod1 11 -> 1.
    // lane 2: A=0, B=1. Mod1 5 -> 0; Mod1 7 -> 1; Mod1 1 -> 1; Mod1 12 (A == B) -> 0.
    for (k, lane1, lane2) in [(5, T, F), (7, F, T), (1, F, T), (11, T, T), (12, F, F), (8, F, T)] {
        let mut s = stack_classes();
        run(&mut s, &format!("TTI_SFPPUSHC(0, 0, 0, {k})"));
        assert_eq!(s.FlagStack[1].top().unwrap().LaneFlags, lane1, "Mod1={k} lane 1");
        assert_eq!(s.FlagStack[2].top().unwrap().LaneFlags, lane2, "Mod1={k} lane 2");
    }
}

#[test]
fn sfppushc_mod1_13_inverts_and_replaces_top() {
    let mut s = stack_classes();
    assert_defined(&run(&mut s, "TTI_SFPPUSHC(0, 0, 0, 13)"));
    // LaneFlags = !LaneFlags (bit 1 clear) = 0x33333333; top = {new LaneFlags, Use (bit 2)}.
    assert_mask(flags(&s), 0x3333_3333, "LaneFlags inverted in every lane");
    assert_mask(top_flags(&s), 0x3333_3333, "top.LaneFlags = new LaneFlags");
    assert_mask(top_use(&s), 0xF0F0_F0F0, "top.Use = Use");
    assert_mask(use_mask(&s), 0xF0F0_F0F0, "Use unchanged");
    assert_bottoms_intact(&s, "Mod1=13");
}

#[test]
fn sfppushc_mod1_14_and_15_replace_top_with_constants() {
    for (k, top_lf) in [(14, ALL), (15, 0)] {
        let mut s = stack_classes();
        assert_defined(&run(&mut s, &format!("TTI_SFPPUSHC(0, 0, 0, {k})")));
        assert_mask(top_flags(&s), top_lf, &format!("Mod1={k}: top.LaneFlags"));
        assert_mask(top_use(&s), ALL, &format!("Mod1={k}: top.Use = true"));
        assert_mask(flags(&s), 0xCCCC_CCCC, "LaneFlags unchanged");
        assert_mask(use_mask(&s), 0xF0F0_F0F0, "Use unchanged");
        assert_bottoms_intact(&s, &format!("Mod1={k}"));
    }
}

#[test]
fn sfppushc_eight_pushes_fill_the_stack_then_ninth_is_undefined() {
    let mut s = reset();
    // Lanes 0..7 already hold 8 entries, lanes 8..31 hold 3.
    for l in 0..LANES {
        let n = if l < 8 { 8 } else { 3 };
        let entries: Vec<_> = (0..n).map(|i| e(i % 2 == 0, true)).collect();
        set_stack(&mut s, l, &entries);
    }
    set_flags(&mut s, 0xF0F0_F0F0);
    let out = run(&mut s, "TTI_SFPPUSHC(0, 0, 0, 0)");
    assert!(!out.is_defined());
    assert_mask(out.lanes(Clause::SfppushcFullStack), 0x0000_00FF, "full-stack lanes reported");
    for l in 8..LANES {
        assert_eq!(s.FlagStack[l].len(), 4, "lane {l} pushed");
        // Pushed {LaneFlags (0xF0F0F0F0: columns 4..7), Use = false}.
        assert_eq!(s.FlagStack[l].top(), Some(e(l & 7 >= 4, false)), "lane {l} pushed entry");
    }
    for l in 0..8 {
        assert!(s.FlagStack[l].len() <= 8);
    }

    // Building up from empty: eight plain pushes are defined, the ninth is not.
    let mut s = reset();
    for i in 0..8 {
        assert_defined(&run(&mut s, "TTI_SFPPUSHC(0, 0, 0, 0)"));
        assert_eq!(lens(&s), [i + 1; 32]);
    }
    let out = run(&mut s, "TTI_SFPPUSHC(0, 0, 0, 0)");
    assert_mask(out.lanes(Clause::SfppushcFullStack), ALL, "ninth push");
}

#[test]
fn sfppushc_nonzero_mod1_on_full_stack_is_defined() {
    let mut s = reset();
    for l in 0..LANES {
        set_stack(&mut s, l, &[e(true, false); 8]);
    }
    set_flags(&mut s, 0x0000_FFFF);
    set_use(&mut s, 0x00FF_00FF);
    // Mod1 3: top.LaneFlags = true && LaneFlags; top.Use = Use.
    assert_defined(&run(&mut s, "TTI_SFPPUSHC(0, 0, 0, 3)"));
    assert_mask(top_flags(&s), 0x0000_FFFF, "top.LaneFlags");
    assert_mask(top_use(&s), 0x00FF_00FF, "top.Use");
    assert_eq!(lens(&s), [8; 32]);
}

#[test]
fn sfppushc_nonzero_mod1_on_empty_stack_is_undefined() {
    for k in 1..=15u32 {
        let mut s = reset();
        // Lanes 0..3 empty, the rest hold {false, false}.
        for l in 4..LANES {
            set_stack(&mut s, l, &[e(false, false)]);
        }
        set_use(&mut s, ALL);
        set_flags(&mut s, ALL);
        let out = run(&mut s, &format!("TTI_SFPPUSHC(0, 0, 0, {k})"));
        assert_mask(out.lanes(Clause::SfppushcEmptyStack), 0xF, &format!("Mod1={k}: empty lanes reported"));
        // Defined lanes 4..31: e.g. Mod1 14 -> {true, true}; Mod1 4 (A || B) -> false || true.
        if k == 14 || k == 4 {
            assert_mask(top_flags(&s) & !0xF, !0xF, &format!("Mod1={k} defined lanes top.LaneFlags"));
            assert_mask(top_use(&s) & !0xF, !0xF, &format!("Mod1={k} defined lanes top.Use"));
        }
    }
}

#[test]
fn sfppushc_vd_8_to_11_executes_normally() {
    let mut s = reset();
    let out = run(&mut s, "TTI_SFPPUSHC(0, 0, 11, 0)");
    assert_defined(&out);
    assert_eq!(lens(&s), [1; 32]);
    assert!(s.constants_intact());
}

// ------------------------------------------------------------------------------------------------
// SFPPOPC (BlackholeA0/SFPPOPC.md)
// ------------------------------------------------------------------------------------------------

#[test]
fn sfppopc_mod1_0_pops_in_every_lane() {
    let mut s = stack_classes();
    assert_defined(&run(&mut s, "TTI_SFPPOPC(0, 0, 0, 0)"));
    // LaneFlags = top.LaneFlags (bit 0) = 0xAAAAAAAA; Use = top.Use (bit 3) = 0xFF00FF00.
    assert_mask(flags(&s), 0xAAAA_AAAA, "LaneFlags from top");
    assert_mask(use_mask(&s), 0xFF00_FF00, "Use from top");
    assert_mask(depth_mask(&s, 0), 0x0000_FFFF, "lanes 0..15 now empty");
    assert_mask(depth_mask(&s, 1), 0xFFFF_0000, "lanes 16..31 keep the bottom");
    for l in 16..LANES {
        assert_eq!(s.FlagStack[l].top(), Some(e(true, false)));
    }
}

#[test]
fn sfppopc_mod1_0_on_empty_stack_is_undefined() {
    let mut s = reset();
    for l in 4..LANES {
        set_stack(&mut s, l, &[e(false, false), e(true, true)]);
    }
    let out = run(&mut s, "TTI_SFPPOPC(0, 0, 0, 0)");
    assert!(!out.is_defined());
    assert_mask(out.lanes(Clause::SfppopcEmptyStack), 0xF, "empty lanes reported");
    // Defined lanes popped {true, true}.
    assert_mask(flags(&s) & !0xF, !0xF, "defined lanes LaneFlags");
    assert_mask(use_mask(&s) & !0xF, !0xF, "defined lanes Use");
    assert_mask(depth_mask(&s, 1), !0xF, "defined lanes popped one entry");
}

#[test]
fn sfppopc_mod1_0_on_full_stack_is_defined() {
    let mut s = reset();
    let entries: Vec<_> = (0..8).map(|i| e(i == 7, i == 6)).collect();
    for l in 0..LANES {
        set_stack(&mut s, l, &entries);
    }
    assert_defined(&run(&mut s, "TTI_SFPPOPC(0, 0, 0, 0)"));
    assert_mask(flags(&s), ALL, "popped entry 7 {true, false}");
    assert_mask(use_mask(&s), 0, "popped entry 7 Use");
    assert_eq!(lens(&s), [7; 32]);
    assert_mask(top_use(&s), ALL, "entry 6 is now top");
}

#[test]
fn sfppopc_mod1_1_to_12_operands_swapped_vs_pushc_seed_row_4() {
    for k in 1..=12u32 {
        let mut s = stack_classes();
        assert_defined(&run(&mut s, &format!("TTI_SFPPOPC(0, 0, 0, {k})")));
        let what = format!("SFPPOPC Mod1={k}");
        // LaneFlags = BooleanOp(k, A = LaneFlags (bit 1), B = top.LaneFlags (bit 0)).
        assert_mask(flags(&s), mask(|l| bool_op(k, bit(l, 1), bit(l, 0))), &format!("{what}: LaneFlags"));
        // Use = top.Use (bit 3).
        assert_mask(use_mask(&s), 0xFF00_FF00, &format!("{what}: Use"));
        // Stack only peeked.
        assert_mask(top_flags(&s), 0xAAAA_AAAA, &format!("{what}: top.LaneFlags"));
        assert_mask(top_use(&s), 0xFF00_FF00, &format!("{what}: top.Use"));
        assert_bottoms_intact(&s, &what);
    }
}

#[test]
fn sfppopc_boolean_op_hand_cases() {
    // A = LaneFlags, B = top.LaneFlags. lane 1: LaneFlags=0, top=1; lane 2: LaneFlags=1, top=0.
    // Mod1 5 (A && !B): lane 1 -> 0 && !1 = 0; lane 2 -> 1 && !0 = 1  (seed's A=top would give 1, 0).
    // Mod1 1 (B): lane 1 -> 1; lane 2 -> 0 (LaneFlags := top.LaneFlags).
    // Mod1 7 (!A && B): lane 1 -> 1; lane 2 -> 0.
    for (k, lane1, lane2) in [(5, F, T), (1, T, F), (7, T, F), (2, F, T), (9, F, F), (6, F, T)] {
        let mut s = stack_classes();
        run(&mut s, &format!("TTI_SFPPOPC(0, 0, 0, {k})"));
        assert_eq!(s.LaneFlags[1], lane1, "Mod1={k} lane 1");
        assert_eq!(s.LaneFlags[2], lane2, "Mod1={k} lane 2");
        // Use = top.Use: lanes 1, 2 have top.Use = bit 3 = false; lane 9 (bit 3 set) -> true.
        assert!(!s.UseLaneFlagsForLaneEnable[1] && !s.UseLaneFlagsForLaneEnable[2]);
        assert!(s.UseLaneFlagsForLaneEnable[9]);
    }
}

#[test]
fn sfppopc_mod1_1_to_12_on_empty_stack_reads_false_false() {
    for k in 1..=12u32 {
        let mut s = reset();
        // Lanes 0..15 empty; lanes 16..31 hold {top.LaneFlags = bit 0, Use = true}.
        // LaneFlags = bit 1, Use = true everywhere.
        for l in 0..LANES {
            s.LaneFlags[l] = bit(l, 1);
            if l >= 16 {
                set_stack(&mut s, l, &[e(bit(l, 0), true)]);
            }
        }
        set_use(&mut s, ALL);
        let out = run(&mut s, &format!("TTI_SFPPOPC(0, 0, 0, {k})"));
        assert_defined(&out);
        let what = format!("SFPPOPC Mod1={k} empty");
        let want =
            mask(|l| if l < 16 { bool_op(k, bit(l, 1), false) } else { bool_op(k, bit(l, 1), bit(l, 0)) });
        assert_mask(flags(&s), want, &format!("{what}: LaneFlags"));
        // Empty -> Use = false; non-empty -> top.Use = true.
        assert_mask(use_mask(&s), 0xFFFF_0000, &format!("{what}: Use"));
        assert_mask(depth_mask(&s, 0), 0x0000_FFFF, &format!("{what}: still empty"));
    }
}

#[test]
fn sfppopc_mod1_13_14_15() {
    // 13: LaneFlags = !LaneFlags, Use unchanged; 14: {true, true}; 15: LaneFlags false, Use true.
    // Lanes 0..15 empty (defined for Mod1 != 0), 16..31 from stack_classes-like content.
    for (k, want_flags, want_use) in [(13u32, 0x3333_3333u32, 0xF0F0_F0F0u32), (14, ALL, ALL), (15, 0, ALL)] {
        let mut s = stack_classes();
        for l in 0..16 {
            s.FlagStack[l] = FlagStack::new();
        }
        let out = run(&mut s, &format!("TTI_SFPPOPC(0, 0, 0, {k})"));
        assert_defined(&out);
        assert_mask(flags(&s), want_flags, &format!("Mod1={k}: LaneFlags"));
        assert_mask(use_mask(&s), want_use, &format!("Mod1={k}: Use"));
        assert_mask(depth_mask(&s, 0), 0x0000_FFFF, "empty lanes stay empty");
        assert_mask(depth_mask(&s, 2), 0xFFFF_0000, "stack only peeked");
        assert_mask(top_flags(&s), 0xAAAA_0000, "top.LaneFlags unchanged");
    }
}

#[test]
fn sfppopc_nonzero_mod1_on_full_stack_is_reported_and_leaves_stack_intact() {
    // `docs/spec/sfpu-blackhole.md#sfppopc-full-stack-complex`: the page summary warns against it,
    // the TIP and model say BH fixed it.
    for k in 1..=15u32 {
        let mut s = reset();
        // Lanes 8..15 full: bottom {false, false}, then six {false, true}, top {true, true}.
        // Other lanes: single entry {true, true}. LaneFlags = true, Use = false everywhere.
        for l in 0..LANES {
            if (8..16).contains(&l) {
                let mut v = vec![e(false, false)];
                v.extend([e(false, true); 6]);
                v.push(e(true, true));
                set_stack(&mut s, l, &v);
            } else {
                set_stack(&mut s, l, &[e(true, true)]);
            }
        }
        set_flags(&mut s, ALL);
        let out = run(&mut s, &format!("TTI_SFPPOPC(0, 0, 0, {k})"));
        let what = format!("SFPPOPC Mod1={k} full");
        assert_mask(
            out.lanes(Clause::SfppopcFullStackComplex),
            0x0000_FF00,
            &format!("{what}: reported lanes"),
        );
        // Every lane sees top = {true, true} and LaneFlags = true, Use = false.
        let (want_flags, want_use) = match k {
            1..=12 => (if bool_op(k, true, true) { ALL } else { 0 }, ALL),
            13 => (0, 0),
            14 => (ALL, ALL),
            _ => (0, ALL),
        };
        assert_mask(flags(&s), want_flags, &format!("{what}: LaneFlags"));
        assert_mask(use_mask(&s), want_use, &format!("{what}: Use"));
        for l in 8..16 {
            assert_eq!(s.FlagStack[l].len(), 8, "{what}: lane {l} depth");
            assert_eq!(
                s.FlagStack[l].entries()[0],
                e(false, false),
                "{what}: lane {l} bottom not overwritten"
            );
            assert_eq!(s.FlagStack[l].top(), Some(e(true, true)), "{what}: lane {l} top");
        }
    }
}

// ------------------------------------------------------------------------------------------------
// SFPCOMPC (WormholeB0/SFPCOMPC.md)
// ------------------------------------------------------------------------------------------------

#[test]
fn sfpcompc_every_lane_class() {
    // Lane classes: bit 0 LaneFlags, bit 1 Use, bit 2 top.LaneFlags, bit 3 top.Use, bit 4 stack
    // empty (then bits 2, 3 unused and top reads {true, true}). Column 5 row-masked: no effect.
    let mut s = reset();
    for l in 0..LANES {
        s.LaneFlags[l] = bit(l, 0);
        s.UseLaneFlagsForLaneEnable[l] = bit(l, 1);
        if l < 16 {
            set_stack(&mut s, l, &[e(bit(l, 2), bit(l, 3))]);
        }
    }
    set_column_config(&mut s, 5, row_mask(0xF));
    assert_defined(&run(&mut s, "TTI_SFPCOMPC(0, 0, 0, 0)"));
    // LaneFlags = (top.Use && Use) ? top.LaneFlags && !LaneFlags : false.
    // Non-empty (l < 16): needs bits 3, 1, 2 set and bit 0 clear -> l = 0b1110 = 14.
    // Empty (l >= 16): needs Use (bit 1) and !LaneFlags (bit 0) -> l & 3 == 2 -> 18, 22, 26, 30.
    // {14} = 0x4000, {18, 22, 26, 30} = 0x44440000.
    assert_mask(flags(&s), 0x4444_4000, "SFPCOMPC LaneFlags");
    assert_mask(use_mask(&s), 0xCCCC_CCCC, "Use unchanged");
    assert_mask(depth_mask(&s, 1), 0x0000_FFFF, "stack unchanged");
    assert_mask(top_flags(&s), 0x0000_F0F0, "top.LaneFlags unchanged");
}

#[test]
fn sfpcompc_acts_on_disabled_lanes_seed_row_3() {
    // `docs/spec/sfpu-blackhole.md#seed-3-sfpcompc-has-no-lane-enable-check`: no LaneEnabled check.
    // Empty stack, Use = true, LaneFlags = false in lanes 0..15 (so those lanes are disabled): the
    // `else` branch turns them on. Lanes 16..31 (enabled) turn off. Column 2 row-masked: lanes 2,
    // 10 (disabled twice over) still flip on, lanes 18, 26 off.
    let mut s = reset();
    predicate(&mut s, 0xFFFF_0000);
    set_column_config(&mut s, 2, row_mask(0xF));
    assert_defined(&run(&mut s, "TTI_SFPCOMPC(0, 0, 0, 0)"));
    assert_mask(flags(&s), 0x0000_FFFF, "LaneFlags inverted in every lane");
}

#[test]
fn sfpcompc_needs_both_use_flags() {
    // Use false -> LaneFlags false even when top.LaneFlags && !LaneFlags would be true.
    let mut s = reset();
    set_use(&mut s, 0);
    set_flags(&mut s, 0);
    assert_defined(&run(&mut s, "TTI_SFPCOMPC(0, 0, 0, 0)"));
    assert_mask(flags(&s), 0, "Use false");
    // top.Use false (stack {true, false}), Use true, LaneFlags false -> false.
    let mut s = reset();
    predicate(&mut s, 0);
    for l in 0..LANES {
        set_stack(&mut s, l, &[e(true, l % 2 == 0)]);
    }
    assert_defined(&run(&mut s, "TTI_SFPCOMPC(0, 0, 0, 0)"));
    assert_mask(flags(&s), 0x5555_5555, "only lanes with top.Use");
}

// ------------------------------------------------------------------------------------------------
// SFPGT / SFPLE (BlackholeA0/SFPGT.md, SFPLE.md)
// ------------------------------------------------------------------------------------------------

/// (VD, VC) operand pairs; comments give VD > VC under the sign-magnitude total order.
#[rustfmt::skip]
const CMP_PAIRS: [(u32, u32); 32] = [
    (0x0000_0000, 0x8000_0000), // 0  +0 > -0                 T
    (0x8000_0000, 0x0000_0000), // 1  -0 > +0                 F
    (0x0000_0000, 0x0000_0000), // 2  +0 = +0                 F
    (0x8000_0000, 0x8000_0000), // 3  -0 = -0                 F
    (0x3F80_0000, 0x4000_0000), // 4  1.0 > 2.0               F
    (0x4000_0000, 0x3F80_0000), // 5  2.0 > 1.0               T
    (0xBF80_0000, 0xC000_0000), // 6  -1.0 > -2.0             T (two's complement would say F)
    (0xC000_0000, 0xBF80_0000), // 7  -2.0 > -1.0             F
    (0x7F80_0000, 0x7F7F_FFFF), // 8  +Inf > max normal       T
    (0x7FC0_0000, 0x7F80_0000), // 9  +NaN > +Inf             T
    (0xFFC0_0000, 0xFF80_0000), // 10 -NaN > -Inf             F
    (0xFF80_0000, 0xFFC0_0000), // 11 -Inf > -NaN             T
    (0x7FC0_0000, 0x7FC0_0001), // 12 +NaN payloads: smaller  F
    (0xFFC0_0000, 0xFFC0_0001), // 13 -NaN: bigger magnitude is smaller  T
    (0x0000_0001, 0x0000_0000), // 14 +denormal > +0          T
    (0x8000_0001, 0x8000_0000), // 15 -denormal > -0          F
    (0x8000_0000, 0x8000_0001), // 16 -0 > -denormal          T
    (0xFFFF_FFFF, 0x8000_0000), // 17 most negative > -0      F
    (0x7FFF_FFFF, 0xFFFF_FFFF), // 18 most positive > most negative  T
    (0x0000_0005, 0x0000_0003), // 19 5 > 3                   T
    (0x8000_0005, 0x8000_0003), // 20 -5 > -3                 F
    (0x8000_0003, 0x0000_0003), // 21 -3 > 3                  F
    (0x0000_0003, 0x8000_0003), // 22 3 > -3                  T
    (0x1234_5678, 0x1234_5678), // 23 equal                   F
    (0xFF80_0000, 0x7F80_0000), // 24 -Inf > +Inf             F
    (0x7F80_0000, 0xFF80_0000), // 25 +Inf > -Inf             T
    (0x3FC0_0000, 0x3FC0_0001), // 26 1.5 > 1.5+ulp           F
    (0x3FC0_0001, 0x3FC0_0000), // 27                         T
    (0xBFC0_0000, 0xBFC0_0001), // 28 -1.5 > -(1.5+ulp)       T
    (0xBFC0_0001, 0xBFC0_0000), // 29                         F
    (0xFFC0_0000, 0xFFC0_0000), // 30 equal -NaN              F
    (0x0000_0000, 0xFFFF_FFFF), // 31 +0 > most negative      T
];
/// Lanes where VD > VC: 0,5,6,8,9,11,13,14,16,18,19,22,25,27,28,31.
/// {0,5,6} = 0x61, {8,9,11} = 0xB00, {13,14} = 0x6000, {16,18,19,22} = 0x4D0000,
/// {25,27,28,31} = 0x9A000000.
const GT_MASK: u32 = 0x9A4D_6B61;
/// VD <= VC is the complement: 0x65B2949E.
const LE_MASK: u32 = !GT_MASK;

/// Predication for the compare tests: Use = true, LaneFlags = true except lanes 1,5,8,9,30,31
/// (mask !0xC0000322 = 0x3FFFFCDD); lanes 6 and 7 row-masked (col 6 and 7, row 0).
const CMP_P: u32 = 0x3FFF_FCDD;
const CMP_RM: u32 = 0x0000_00C0;
/// Enabled = CMP_P & !CMP_RM.
const CMP_EN: u32 = 0x3FFF_FC1D;
/// Lanes 0..27 hold a 2-entry stack: bottom {false, false}, top {CMP_TOP bit, true}; 28..31 empty.
const CMP_STACKED: u32 = 0x0FFF_FFFF;
const CMP_TOP: u32 = 0x06F1_9A5C;

fn cmp_setup() -> State {
    let mut s = reset();
    set(&mut s, 3, std::array::from_fn(|l| CMP_PAIRS[l].0));
    set(&mut s, 4, std::array::from_fn(|l| CMP_PAIRS[l].1));
    predicate(&mut s, CMP_P);
    set_column_config(&mut s, 6, row_mask(1));
    set_column_config(&mut s, 7, row_mask(1));
    for l in 0..28 {
        set_stack(&mut s, l, &[e(false, false), e((CMP_TOP >> l) & 1 != 0, true)]);
    }
    s
}

#[test]
fn sfpgt_operand_masks_match_total_order_oracle() {
    assert_eq!(CMP_EN, CMP_P & !CMP_RM);
    assert_eq!(LE_MASK, 0x65B2_949E);
    // IEEE totalOrder on the raw bits = the page's sign-magnitude order.
    let oracle = mask(|l| {
        let (d, c) = CMP_PAIRS[l];
        f32::from_bits(d).total_cmp(&f32::from_bits(c)) == Ordering::Greater
    });
    assert_mask(oracle, GT_MASK, "total_cmp oracle");
    let s = cmp_setup();
    assert_mask(enabled(&s), CMP_EN, "setup enable mask");
}

fn check_compare_every_mod1(op: &str, res: u32) {
    for mod1 in 0..16u32 {
        let mut s = cmp_setup();
        let before_vd = s.LReg[3];
        let out = run(&mut s, &format!("TTI_{op}(0, 4, 3, {mod1})"));
        assert_defined(&out);
        let what = format!("{op} Mod1={mod1}");
        // SET_CC (1): enabled lanes only.
        let want_flags = if mod1 & 1 != 0 { (CMP_EN & res) | (!CMP_EN & CMP_P) } else { CMP_P };
        assert_mask(flags(&s), want_flags, &format!("{what}: LaneFlags"));
        assert_mask(use_mask(&s), ALL, &format!("{what}: Use"));
        // MUTATE_STACK (2), AND or OR (4): every lane with a non-empty stack, enabled or not.
        let want_top = match (mod1 & 2 != 0, mod1 & 4 != 0) {
            (true, false) => CMP_TOP & res,
            (true, true) => (CMP_TOP | res) & CMP_STACKED,
            (false, _) => CMP_TOP,
        };
        assert_mask(top_flags(&s), want_top, &format!("{what}: top.LaneFlags"));
        assert_mask(top_use(&s), CMP_STACKED, &format!("{what}: top.Use"));
        assert_mask(depth_mask(&s, 2), CMP_STACKED, &format!("{what}: depths"));
        assert_mask(depth_mask(&s, 0), !CMP_STACKED, &format!("{what}: empty stacks stay empty"));
        for l in 0..28 {
            assert_eq!(s.FlagStack[l].entries()[0], e(false, false), "{what}: lane {l} bottom");
        }
        // SET_VD (8): -1 (0xFFFFFFFF, sign-magnitude -(2^31-1)) or 0, enabled lanes only.
        let want_vd: [u32; 32] = std::array::from_fn(|l| {
            if mod1 & 8 != 0 && (CMP_EN >> l) & 1 != 0 {
                if (res >> l) & 1 != 0 { 0xFFFF_FFFF } else { 0 }
            } else {
                before_vd[l]
            }
        });
        assert_lanes(&s.LReg[3], &want_vd, &format!("{what}: VD"));
        assert_eq!(s.LReg[4], std::array::from_fn(|l| CMP_PAIRS[l].1), "{what}: VC untouched");
    }
}

#[test]
fn sfpgt_every_mod1() {
    check_compare_every_mod1("SFPGT", GT_MASK);
}

#[test]
fn sfple_every_mod1() {
    check_compare_every_mod1("SFPLE", LE_MASK);
}

#[test]
fn sfpgt_sfple_hand_cases_mod1_15() {
    // Mod1 = 15 (all bits). Lane 0 enabled, top.LaneFlags = 0 (CMP_TOP bit 0), +0 > -0:
    //   SFPGT: VD = 0xFFFFFFFF, LaneFlags = 1, top = 0 | 1 = 1.  SFPLE: VD = 0, LaneFlags = 0, top = 0.
    // Lane 6 row-masked, +(-1.0 > -2.0): SFPGT leaves VD and LaneFlags, top = 1 (CMP_TOP bit 6 = 1).
    // Lane 5 predicated off: SFPLE (2.0 <= 1.0 false) leaves VD = 2.0, top = 0 | 0 = 0 (bit 5 = 0).
    let mut s = cmp_setup();
    run(&mut s, "TTI_SFPGT(0, 4, 3, 15)");
    assert_eq!((s.LReg[3][0], s.LaneFlags[0], s.FlagStack[0].top().unwrap().LaneFlags), (0xFFFF_FFFF, T, T));
    assert_eq!((s.LReg[3][6], s.LaneFlags[6], s.FlagStack[6].top().unwrap().LaneFlags), (0xBF80_0000, T, T));
    let mut s = cmp_setup();
    run(&mut s, "TTI_SFPLE(0, 4, 3, 15)");
    assert_eq!((s.LReg[3][0], s.LaneFlags[0], s.FlagStack[0].top().unwrap().LaneFlags), (0, F, F));
    assert_eq!((s.LReg[3][5], s.LaneFlags[5], s.FlagStack[5].top().unwrap().LaneFlags), (0x4000_0000, F, F));
}

#[test]
fn sfpgt_named_constants_parse_to_the_page_values() {
    assert_eq!(
        instr(
            "TTI_SFPGT(0, 4, 3, SFPGT_MOD1_SET_CC | SFPGT_MOD1_MUTATE_STACK | SFPGT_MOD1_MUTATE_OR | SFPGT_MOD1_SET_VD)"
        ),
        instr("TTI_SFPGT(0, 4, 3, 15)")
    );
    assert_eq!(
        instr("TTI_SFPLE(0, 4, 3, SFPLE_MOD1_MUTATE_STACK | SFPLE_MOD1_SET_VD)"),
        instr("TTI_SFPLE(0, 4, 3, 10)")
    );
}

#[test]
fn sfpgt_mutate_stack_on_empty_stack_does_nothing() {
    for op in ["SFPGT", "SFPLE"] {
        for mod1 in [2u32, 6, 3, 7] {
            let mut s = reset();
            set(&mut s, 3, std::array::from_fn(|l| CMP_PAIRS[l].0));
            set(&mut s, 4, std::array::from_fn(|l| CMP_PAIRS[l].1));
            assert_defined(&run(&mut s, &format!("TTI_{op}(0, 4, 3, {mod1})")));
            assert!(s.FlagStack.iter().all(|st| st.is_empty()), "{op} Mod1={mod1}: no entry created");
            // SET_CC with Use = false still writes the result (SFPGT has no Use check, unlike SETCC).
            if mod1 & 1 != 0 {
                let want = if op == "SFPGT" { GT_MASK } else { LE_MASK };
                assert_mask(flags(&s), want, &format!("{op} Mod1={mod1}: LaneFlags"));
            }
        }
    }
}

#[test]
fn sfpgt_sfple_set_vd_to_constant_register_is_dropped() {
    // VD = 10 (1.0 = 0x3F800000) is both the compared VD and the (dropped) destination.
    // VC per column: 0, 1.0, 2.0, -1.0, +NaN, -NaN, 0x3F7FFFFF, 0x3F800001.
    // 1.0 > VC: T F F T F T T F -> columns {0,3,5,6} = 0x69 per 8 lanes. LE is the complement.
    let vc = [0, 0x3F80_0000, 0x4000_0000, 0xBF80_0000, 0x7FC0_0000, 0xFFC0_0000, 0x3F7F_FFFF, 0x3F80_0001];
    for (op, want) in [("SFPGT", 0x6969_6969u32), ("SFPLE", 0x9696_9696)] {
        let mut s = reset();
        set(&mut s, 4, std::array::from_fn(|l| vc[l & 7]));
        predicate(&mut s, ALL);
        assert_defined(&run(&mut s, &format!("TTI_{op}(0, 4, 10, 9)"))); // SET_VD | SET_CC
        assert_mask(flags(&s), want, &format!("{op}: LaneFlags"));
        assert!(s.constants_intact(), "{op}: LReg[10] kept");
        assert_eq!(s.LReg[10], [0x3F80_0000; 32]);
    }
    // VD = 9 (zero): 0 > LReg[15] = 2*lane is false everywhere; 0 <= 2*lane everywhere.
    for (op, want) in [("SFPGT", 0u32), ("SFPLE", ALL)] {
        let mut s = reset();
        predicate(&mut s, ALL);
        assert_defined(&run(&mut s, &format!("TTI_{op}(0, 15, 9, 9)")));
        assert_mask(flags(&s), want, &format!("{op} VD=9 VC=15"));
        assert!(s.constants_intact());
    }
}

#[test]
fn sfpgt_vd_12_with_backdoor_disabled_executes_without_writing() {
    // DISABLE_BACKDOOR_LOAD set everywhere: VD = 12 passes the guard; SET_VD is dropped (VD >= 8),
    // SET_CC applies. LReg[12] = 0 (reset), VC = LReg[10] = 1.0: 0 > 1.0 false, 0 <= 1.0 true.
    for (op, want) in [("SFPGT", 0u32), ("SFPLE", ALL)] {
        let mut s = reset();
        for l in 0..LANES {
            s.LaneConfig[l] = LaneConfig::new(DBL).unwrap();
        }
        predicate(&mut s, ALL);
        fill(&mut s, 12, 0);
        let out = run(&mut s, &format!("TTI_{op}(0, 10, 12, 9)"));
        assert_defined(&out);
        assert_mask(flags(&s), want, op);
        assert_eq!(s.LReg[12], [0; 32], "{op}: VD=12 not written");
        assert!(s.LoadMacroConfig.iter().all(|c| c.InstructionTemplate == [0; 4]));
    }
}

// ------------------------------------------------------------------------------------------------
// Disabled-lane rules per instruction (the instruction pages' functional models)
// ------------------------------------------------------------------------------------------------

#[test]
fn disabled_lane_rules_per_instruction() {
    // Every lane disabled by ROW_MASK (all columns, all rows); Use = true, LaneFlags = true,
    // one stack entry {true, true}. VD = L3 = 1.0, VC = L4 = 0: 1.0 > 0.
    let base = || {
        let mut s = reset();
        for col in 0..8 {
            set_column_config(&mut s, col, row_mask(0xF));
        }
        predicate(&mut s, ALL);
        for l in 0..LANES {
            set_stack(&mut s, l, &[e(true, true)]);
        }
        fill(&mut s, 3, 0x3F80_0000);
        fill(&mut s, 4, 0);
        s
    };
    // SFPSETCC: no change (CLEAR would make LaneFlags false).
    let mut s = base();
    run(&mut s, "TTI_SFPSETCC(0, 4, 0, SFPSETCC_MOD1_CLEAR)");
    assert_mask(flags(&s), ALL, "SFPSETCC");
    // SFPGT SET_CC | SET_VD: no change; SFPLE (1.0 <= 0 false) SET_CC: no change.
    let mut s = base();
    run(&mut s, "TTI_SFPLE(0, 4, 3, 9)");
    assert_mask(flags(&s), ALL, "SFPLE SET_CC");
    assert_eq!(s.LReg[3], [0x3F80_0000; 32], "SFPLE SET_VD");
    // SFPLE MUTATE_STACK (AND with false): every lane's top changes.
    let mut s = base();
    run(&mut s, "TTI_SFPLE(0, 4, 3, 2)");
    assert_mask(top_flags(&s), 0, "SFPLE MUTATE_STACK");
    // SFPENCC RI with Imm2 = 0: LaneFlags false everywhere.
    let mut s = base();
    run(&mut s, "TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_RI)");
    assert_mask(flags(&s), 0, "SFPENCC");
    // SFPPUSHC 13: inverts LaneFlags everywhere.
    let mut s = base();
    run(&mut s, "TTI_SFPPUSHC(0, 0, 0, 13)");
    assert_mask(flags(&s), 0, "SFPPUSHC 13");
    assert_mask(top_flags(&s), 0, "SFPPUSHC 13 top");
    // SFPPOPC 15: LaneFlags = false everywhere.
    let mut s = base();
    run(&mut s, "TTI_SFPPOPC(0, 0, 0, 15)");
    assert_mask(flags(&s), 0, "SFPPOPC 15");
    // SFPCOMPC: true && !true = false everywhere.
    let mut s = base();
    run(&mut s, "TTI_SFPCOMPC(0, 0, 0, 0)");
    assert_mask(flags(&s), 0, "SFPCOMPC");
}

// ------------------------------------------------------------------------------------------------
// Backdoor loads: VD >= 12 with DISABLE_BACKDOOR_LOAD clear
// (`docs/spec/sfpu-blackhole.md#backdoor-load`)
// ------------------------------------------------------------------------------------------------

/// Columns 0..3 have DISABLE_BACKDOOR_LOAD set (they execute); columns 4..7 do not (backdoor).
const BACKDOOR_LANES: u32 = 0xF0F0_F0F0;

fn backdoor_setup(s: &mut State) {
    for col in 0..4 {
        set_column_config(s, col, DBL);
    }
}

/// Runs `text` (VD = `vd`), checks the backdoor lanes got `word` in InstructionTemplate[vd - 12]
/// and are otherwise untouched, and the other lanes' templates are untouched. Returns the state.
#[track_caller]
fn check_backdoor(mut s: State, text: &str, vd: usize, word: u32) -> State {
    backdoor_setup(&mut s);
    let before = s.clone();
    let out = run(&mut s, text);
    assert_mask(out.lanes(Clause::BackdoorLoad), BACKDOOR_LANES, &format!("{text}: reported lanes"));
    for l in 0..LANES {
        let mut want = [0u32; 4];
        if (BACKDOOR_LANES >> l) & 1 != 0 {
            want[vd - 12] = word;
            assert_eq!(lane_state(&s, l), lane_state(&before, l), "{text}: backdoor lane {l} untouched");
        }
        assert_eq!(s.LoadMacroConfig[l].InstructionTemplate, want, "{text}: lane {l} templates");
    }
    s
}

#[test]
fn sfpsetcc_backdoor() {
    // 0x7B << 24 | Imm1 0 << 12 | VC 1 << 8 | VD 12 << 4 | Mod1 8 = 0x7B0001C8.
    let mut s = reset();
    predicate(&mut s, ALL);
    let s = check_backdoor(s, "TTI_SFPSETCC(0, 1, 12, 8)", 12, 0x7B00_01C8);
    assert_mask(flags(&s), BACKDOOR_LANES, "CLEAR only in executing lanes");
}

#[test]
fn sfpencc_backdoor() {
    // 0x8A << 24 | Imm2 2 << 12 | VD 13 << 4 | Mod1 10 = 0x8A0020DA.
    let mut s = reset();
    predicate(&mut s, 0);
    let s = check_backdoor(s, "TTI_SFPENCC(2, 0, 13, 10)", 13, 0x8A00_20DA);
    // Executing lanes: Use = Imm2 & 1 = 0, LaneFlags = Imm2 & 2 = true.
    assert_mask(use_mask(&s), BACKDOOR_LANES, "Use");
    assert_mask(flags(&s), !BACKDOOR_LANES, "LaneFlags");
}

#[test]
fn sfppushc_backdoor() {
    // 0x87 << 24 | VD 14 << 4 = 0x870000E0.
    let mut s = reset();
    predicate(&mut s, 0x0000_FFFF);
    let s = check_backdoor(s, "TTI_SFPPUSHC(0, 0, 14, 0)", 14, 0x8700_00E0);
    assert_mask(depth_mask(&s, 1), !BACKDOOR_LANES, "pushed only in executing lanes");
    assert_mask(top_flags(&s), 0x0000_FFFF & !BACKDOOR_LANES, "pushed LaneFlags");
}

#[test]
fn sfppopc_backdoor() {
    // 0x88 << 24 | VD 15 << 4 | Mod1 0 = 0x880000F0.
    let mut s = reset();
    for l in 0..LANES {
        set_stack(&mut s, l, &[e(true, true)]);
    }
    let s = check_backdoor(s, "TTI_SFPPOPC(0, 0, 15, 0)", 15, 0x8800_00F0);
    assert_mask(depth_mask(&s, 0), !BACKDOOR_LANES, "popped only in executing lanes");
    assert_mask(flags(&s), !BACKDOOR_LANES, "LaneFlags from popped entry");
    assert_mask(use_mask(&s), !BACKDOOR_LANES, "Use from popped entry");
}

#[test]
fn sfpcompc_backdoor() {
    // 0x8B << 24 | VD 12 << 4 = 0x8B0000C0.
    let mut s = reset();
    predicate(&mut s, 0);
    let s = check_backdoor(s, "TTI_SFPCOMPC(0, 0, 12, 0)", 12, 0x8B00_00C0);
    // Empty stack, Use true, LaneFlags false -> true in executing lanes.
    assert_mask(flags(&s), !BACKDOOR_LANES, "LaneFlags");
}

#[test]
fn sfpgt_backdoor() {
    // 0x97 << 24 | VC 4 << 8 | VD 13 << 4 | Mod1 11 (SET_CC|MUTATE_STACK|SET_VD) = 0x970004DB.
    // Executing lanes: LReg[13] = 0 > LReg[4] = 1.0 is false -> LaneFlags false, top &= false;
    // LReg[13] not written (VD >= 8).
    let mut s = reset();
    predicate(&mut s, ALL);
    fill(&mut s, 4, 0x3F80_0000);
    fill(&mut s, 13, 0);
    for l in 0..LANES {
        set_stack(&mut s, l, &[e(true, true)]);
    }
    let s = check_backdoor(s, "TTI_SFPGT(0, 4, 13, 11)", 13, 0x9700_04DB);
    assert_mask(flags(&s), BACKDOOR_LANES, "LaneFlags");
    assert_mask(top_flags(&s), BACKDOOR_LANES, "top.LaneFlags");
    assert_eq!(s.LReg[13], [0; 32]);
}

#[test]
fn sfple_backdoor() {
    // 0x96 << 24 | VC 4 << 8 | VD 14 << 4 | Mod1 15 = 0x960004EF.
    // Executing lanes: 0 <= 1.0 true; Use = false so all lanes enabled: LaneFlags = true,
    // top |= true.
    let mut s = reset();
    fill(&mut s, 4, 0x3F80_0000);
    fill(&mut s, 14, 0);
    for l in 0..LANES {
        set_stack(&mut s, l, &[e(false, false)]);
    }
    let s = check_backdoor(s, "TTI_SFPLE(0, 4, 14, 15)", 14, 0x9600_04EF);
    assert_mask(flags(&s), !BACKDOOR_LANES, "LaneFlags");
    assert_mask(top_flags(&s), !BACKDOOR_LANES, "top.LaneFlags");
    assert_eq!(s.LReg[14], [0; 32]);
}

#[test]
fn vd_12_with_backdoor_disabled_is_defined() {
    for text in [
        "TTI_SFPSETCC(0, 1, 12, 0)",
        "TTI_SFPENCC(0, 0, 13, 0)",
        "TTI_SFPPUSHC(0, 0, 14, 0)",
        "TTI_SFPCOMPC(0, 0, 15, 0)",
    ] {
        let mut s = reset();
        for l in 0..LANES {
            s.LaneConfig[l] = LaneConfig::new(DBL).unwrap();
        }
        assert_defined(&run(&mut s, text));
        assert!(s.LoadMacroConfig.iter().all(|c| c.InstructionTemplate == [0; 4]), "{text}");
    }
}

// ------------------------------------------------------------------------------------------------
// A full if / else-if / else block
// ------------------------------------------------------------------------------------------------

#[test]
fn if_else_if_else_block() {
    // if (x < 0) L2 = 1; else if (x == 0) L2 = 2; else L2 = 3;  then L5 = 7 unconditionally.
    // x = SETCC_VC (two's complement compare). Lanes 12 (col 4 row 1, x = 0x7FFFFFFF) and
    // 23 (col 7 row 2, x = 0x87654321) are row-masked.
    const RM: u32 = (1 << 12) | (1 << 23);
    let lt = SETCC_LT0; // 0x2A954AAA
    let eq = SETCC_EQ0; // 0x81080001
    let gt = !(lt | eq); // ~0xAB9D4AAB = 0x5462B554
    let ge = !lt; // 0xD56AB555
    assert_eq!(gt, 0x5462_B554);

    let mut s = reset();
    set(&mut s, 1, SETCC_VC);
    fill(&mut s, 2, 0xDEAD_BEEF);
    set_column_config(&mut s, 4, row_mask(0b0010));
    set_column_config(&mut s, 7, row_mask(0b0100));
    let mut step_and_check = |text: &str, want_flags: u32, want_use: u32, want_depth: usize| {
        let out = run(&mut s, text);
        assert_defined(&out);
        assert_mask(flags(&s), want_flags, &format!("after {text}: LaneFlags"));
        assert_mask(use_mask(&s), want_use, &format!("after {text}: Use"));
        assert_eq!(lens(&s), [want_depth; 32], "after {text}: depth");
        s.clone()
    };
    // Every lane (EN ignored): Use = true, LaneFlags = true.
    step_and_check("TTI_SFPENCC(3, 0, 0, 10)", ALL, ALL, 0);
    // Outer push {true, true}.
    step_and_check("TTI_SFPPUSHC(0, 0, 0, 0)", ALL, ALL, 1);
    // if (x < 0): enabled lanes get x < 0; row-masked lanes keep true (lane 23 is x<0 anyway).
    step_and_check("TTI_SFPSETCC(0, 1, 0, SFPSETCC_MOD1_LREG_LT0)", lt | RM, ALL, 1);
    step_and_check("TTI_SFPLOADI(2, SFPLOADI_MOD0_USHORT, 1)", lt | RM, ALL, 1);
    // else: top = {true, true}: LaneFlags = !LaneFlags -> x >= 0, row-masked lanes false.
    step_and_check("TTI_SFPCOMPC(0, 0, 0, 0)", ge & !RM, ALL, 1);
    // Nested push {x >= 0, true}.
    step_and_check("TTI_SFPPUSHC(0, 0, 0, 0)", ge & !RM, ALL, 2);
    // if (x == 0): only x >= 0 lanes are enabled; others keep false.
    step_and_check("TTI_SFPSETCC(0, 1, 0, SFPSETCC_MOD1_LREG_EQ0)", eq, ALL, 2);
    step_and_check("TTI_SFPLOADI(2, SFPLOADI_MOD0_USHORT, 2)", eq, ALL, 2);
    // else: top = {x >= 0 (row-masked: false), true}: LaneFlags = (x >= 0) && !(x == 0) = x > 0.
    step_and_check("TTI_SFPCOMPC(0, 0, 0, 0)", gt & !RM, ALL, 2);
    step_and_check("TTI_SFPLOADI(2, SFPLOADI_MOD0_USHORT, 3)", gt & !RM, ALL, 2);
    // Pop the inner level: {x >= 0, true}; pop the outer: {true, true}.
    step_and_check("TTI_SFPPOPC(0, 0, 0, 0)", ge & !RM, ALL, 1);
    step_and_check("TTI_SFPPOPC(0, 0, 0, 0)", ALL, ALL, 0);
    // Disable predication: EI with Imm2 = 0 -> Use false, LaneFlags true.
    step_and_check("TTI_SFPENCC(0, 0, 0, SFPENCC_MOD1_EI)", ALL, 0, 0);
    let s = step_and_check("TTI_SFPLOADI(5, SFPLOADI_MOD0_USHORT, 7)", ALL, 0, 0);

    let want2: [u32; 32] = std::array::from_fn(|l| {
        let b = 1u32 << l;
        if RM & b != 0 {
            0xDEAD_BEEF
        } else if lt & b != 0 {
            1
        } else if eq & b != 0 {
            2
        } else {
            assert!(gt & b != 0);
            3
        }
    });
    // Spot checks by hand: lane 0 (+0) -> 2, lane 1 (-0) -> 1, lane 4 (+NaN) -> 3, lane 5 (-NaN) -> 1.
    assert_eq!((want2[0], want2[1], want2[4], want2[5], want2[12]), (2, 1, 3, 1, 0xDEAD_BEEF));
    assert_lanes(&s.LReg[2], &want2, "branch results");
    let want5: [u32; 32] = std::array::from_fn(|l| if RM >> l & 1 != 0 { 0 } else { 7 });
    assert_lanes(&s.LReg[5], &want5, "after the block");
}

#[test]
fn if_else_with_blackhole_stack_modes() {
    // if (x < 0) L2 = 1; else L2 = 3; with Blackhole's SFPPOPC 13 (invert LaneFlags, peek only)
    // as the `else` and SFPPOPC 0 to close. No ROW_MASK.
    let mut s = reset();
    set(&mut s, 1, SETCC_VC);
    fill(&mut s, 2, 0);
    let out = run_all(
        &mut s,
        &[
            "TTI_SFPENCC(3, 0, 0, 10)", // Use = true, LaneFlags = true
            "TTI_SFPPUSHC(0, 0, 0, 0)", // push {true, true}
            "TTI_SFPSETCC(0, 1, 0, 0)", // LaneFlags = x < 0
            "TTI_SFPLOADI(2, 2, 1)",    // x < 0 lanes
            "TTI_SFPPOPC(0, 0, 0, 13)", // LaneFlags = !(x < 0) in every lane; stack only peeked
            "TTI_SFPLOADI(2, 2, 3)",    // x >= 0 lanes
            "TTI_SFPPOPC(0, 0, 0, 0)",  // back to {true, true}
        ],
    );
    assert_defined(&out);
    let want: [u32; 32] = std::array::from_fn(|l| if (SETCC_LT0 >> l) & 1 != 0 { 1 } else { 3 });
    assert_lanes(&s.LReg[2], &want, "if/else via SFPPOPC 13");
    assert_mask(flags(&s), ALL, "restored");
    assert_eq!(lens(&s), [0; 32]);
}
