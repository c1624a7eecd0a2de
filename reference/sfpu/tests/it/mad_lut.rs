//! The MAD sub-unit's arithmetic and LUT instructions: SFPMAD, SFPADD, SFPMUL, SFPADDI, SFPMULI,
//! SFPMUL24, SFPLUT and SFPLUTFP32.
//!
//! Sources: the upstream pages `BlackholeA0/<INSTR>.md` (functional models quoted in the comments),
//! the pages' modifiers and LUT coefficient formats, `Miscellaneous/FMA/fma.c` (the Blackhole FMA;
//! its worked examples: `docs/spec/sfpu-blackhole.md#fma-examples`), `VectorUnit.md` and `LReg.md`
//! (lane enable, constant registers), `docs/spec/sfpu-blackhole.md#backdoor-load`.
//!
//! Expected FMA results come from (a) the worked examples of
//! `docs/spec/sfpu-blackhole.md#fma-examples`, (b) `exact_fma`, which uses Rust's own `f32`/`f64`
//! arithmetic and refuses (panics on) any case whose exact result is not representable, so it is
//! only used where the page says the Blackhole result equals the IEEE one, and (c) hand calculation
//! written next to the assertion. SFPMUL24 uses Rust integer arithmetic for the page's multiply and
//! hand calculation for `Mul24ShiftAdd`.

use crate::common::*;
use sfpu_reference::state::{LANES, LaneConfig};
use sfpu_reference::{Clause, Kind, State};

const SIGN: u32 = 0x8000_0000;
/// The canonical NaN every FMA NaN result is (`SFPMAD.md`: "always the canonical NaN with bit
/// pattern `0x7fc00000`").
const QNAN: u32 = 0x7FC0_0000;
const PINF: u32 = 0x7F80_0000;
const NINF: u32 = 0xFF80_0000;
const MAX: u32 = 0x7F7F_FFFF;
const NMAX: u32 = 0xFF7F_FFFF;
const ONE: u32 = 0x3F80_0000;
/// `LaneConfig.DISABLE_BACKDOOR_LOAD`.
const DBL: u32 = 2;
/// `LReg[8]`, the constant 0.8373 (`docs/spec/sfpu-blackhole.md#lreg-8-value`).
const L8: u32 = 0x3F56_594B;

type Regs = [[u32; LANES]; 17];

// ------------------------------------------------------------------------------------------------
// Helpers
// ------------------------------------------------------------------------------------------------

/// An FP32 input as the MAD unit reads it: denormals are signed zero (`SFPMAD.md`: "Denormal
/// inputs are treated as if they were zero").
fn daz(x: u32) -> f32 {
    if x & 0x7F80_0000 == 0 { f32::from_bits(x & SIGN) } else { f32::from_bits(x) }
}

/// `a * b + c` for cases where the Blackhole FMA equals IEEE arithmetic: any NaN input, `Inf * 0`
/// and `Inf - Inf` give the canonical NaN; infinities follow IEEE; otherwise the exact result
/// must be a normal FP32 number or zero (so no rounding and no flushing is involved), which is
/// checked with an exact `f64` TwoSum. Zero signs follow IEEE (`x - x = +0`, `-0 + -0 = -0`), as
/// `fma_model_bh` says Blackhole does. Panics on anything else: such cases get hand-written
/// expectations instead.
fn exact_fma(a: u32, b: u32, c: u32) -> u32 {
    let (x, y, z) = (daz(a), daz(b), daz(c));
    if x.is_nan() || y.is_nan() || z.is_nan() {
        return QNAN;
    }
    let r = x * y + z;
    if r.is_nan() {
        return QNAN;
    }
    let p = x as f64 * y as f64; // exact: 24 x 24 bits
    if x.is_infinite() || y.is_infinite() || z.is_infinite() {
        assert!(
            x.is_infinite() || y.is_infinite() || p.abs() < 2f64.powi(127),
            "oracle: finite product overflow with an infinite addend ({a:08x} {b:08x} {c:08x})"
        );
        return r.to_bits();
    }
    assert!(
        p == 0.0 || (p.abs() >= 2f64.powi(-100) && p.abs() < 2f64.powi(127)),
        "oracle: product out of the safe range ({a:08x} {b:08x} {c:08x})"
    );
    let zf = z as f64;
    let s = p + zf;
    let bb = s - p;
    let err = (p - (s - bb)) + (zf - bb);
    assert!(err == 0.0, "oracle: a*b+c not exact in f64 ({a:08x} {b:08x} {c:08x})");
    assert!((s as f32) as f64 == s, "oracle: result needs rounding ({a:08x} {b:08x} {c:08x})");
    assert!(s == 0.0 || s.abs() >= 2f64.powi(-126), "oracle: denormal result ({a:08x} {b:08x} {c:08x})");
    assert!(r as f64 == s, "oracle: f32 evaluation disagrees ({a:08x} {b:08x} {c:08x})");
    r.to_bits()
}

/// Compares all 17 LRegs.
#[track_caller]
fn assert_regs(s: &State, want: &Regs, what: &str) {
    for r in 0..17 {
        assert_lanes(&s.LReg[r], &want[r], &format!("{what}: LReg[{r}]"));
    }
}

/// ORs `bits` into the LaneConfig of every lane whose column (`lane & 7`) satisfies `col`. Every
/// lane of a column gets the same value, so per-lane and per-column readings agree.
fn config_or(s: &mut State, col: impl Fn(usize) -> bool, bits: u32) {
    for l in 0..LANES {
        if col(l & 7) {
            s.LaneConfig[l] = LaneConfig::new(s.LaneConfig[l].bits() | bits).unwrap();
        }
    }
}

/// Writes to `vd` in `lane`, as the pages do: only `vd < 8` (16 is unreachable here).
fn write(want: &mut Regs, vd: usize, lane: usize, d: u32) {
    if vd < 8 {
        want[vd][lane] = d;
    }
}

/// A small integer (or -0) for register `r` in `lane`.
fn small(r: usize, lane: usize) -> u32 {
    let v = ((r * 5 + lane * 3) % 11) as f32 - 5.0;
    if v == 0.0 && lane % 2 == 1 { SIGN } else { f(v) }
}

// ------------------------------------------------------------------------------------------------
// The oracle itself against `docs/spec/sfpu-blackhole.md#fma-examples`
// ------------------------------------------------------------------------------------------------

#[test]
fn oracle_agrees_with_documented_exact_cases() {
    // `fma_model_bh`: -0*1 + -0 = -0, x - x = +0.
    assert_eq!(exact_fma(SIGN, ONE, SIGN), SIGN);
    assert_eq!(exact_fma(f(3.0), ONE, f(-3.0)), 0);
    // 2 * 3 + 1 = 7.
    assert_eq!(exact_fma(f(2.0), f(3.0), ONE), 0x40E0_0000);
    // Inf * denormal counts as Inf * 0 (`fma_model_bh`: denormal inputs are zero).
    assert_eq!(exact_fma(PINF, 1, ONE), QNAN);
}

// ------------------------------------------------------------------------------------------------
// SFPMAD / SFPADD / SFPMUL
// ------------------------------------------------------------------------------------------------

#[test]
fn sfpmad_negate_va_and_negate_vc() {
    for (mod1, want) in [
        (0, 0x40E0_0000), // 2*3 + 1 = 7
        (1, 0xC0A0_0000), // -2*3 + 1 = -5
        (2, 0x40A0_0000), // 2*3 - 1 = 5
        (3, 0xC0E0_0000), // -2*3 - 1 = -7
    ] {
        let mut s = reset();
        fill(&mut s, 0, f(2.0));
        fill(&mut s, 1, f(3.0));
        fill(&mut s, 2, f(1.0));
        let mut e = s.LReg;
        e[3] = [want; LANES];
        let out = run(&mut s, &format!("TTI_SFPMAD(0, 1, 2, 3, {mod1})"));
        assert_defined(&out);
        assert_regs(&s, &e, &format!("Mod1={mod1}"));
    }
}

/// One `(a, b, c, a*b+c)` per lane.
fn run_mad_table(table: &[(u32, u32, u32, u32)], what: &str) {
    let mut s = reset();
    for (lane, &(a, b, c, _)) in table.iter().enumerate() {
        s.LReg[0][lane] = a;
        s.LReg[1][lane] = b;
        s.LReg[2][lane] = c;
    }
    // Lanes past the table: 1 * 1 + 0 = 1.
    let mut want = [ONE; LANES];
    for lane in table.len()..LANES {
        s.LReg[0][lane] = ONE;
        s.LReg[1][lane] = ONE;
    }
    for (lane, &(.., d)) in table.iter().enumerate() {
        want[lane] = d;
    }
    let out = run(&mut s, "TTI_SFPMAD(0, 1, 2, 3, 0)");
    assert_defined(&out);
    assert_lanes(&s.LReg[3], &want, what);
}

#[test]
fn sfpmad_documented_fma_examples_and_rounding() {
    run_mad_table(
        &[
            // `docs/spec/sfpu-blackhole.md#fma-examples` (Blackhole column).
            (0x7F00_0000, 0x4000_0000, 0xFF00_0000, 0x7F80_0000), // product overflow is final
            (0x2000_0000, 0x1F00_0000, 0x0080_0000, 0x0080_0000), // product underflow is final
            (0x3F80_0001, 0x3F80_0001, 0xBF80_0002, 0x3280_0000), // not fully fused
            (0xCCBC_0FCE, 0x439D_FE8E, 0x50E8_2160, 0xC5A8_0000),
            (0x17A8_791D, 0x2A9B_6B8C, 0x8128_A061, 0x02B7_7C2A),
            (0xBC16_B9C2, 0x8412_A431, 0x808C_AD39, 0x0080_0000), // rounds up to 2^-126
            (0x04BB_45BF, 0xBB93_BCF4, 0x0098_268D, 0x8080_0000),
            (0x27B4_A3E7, 0x1ADF_5E90, 0x8322_ED69, 0x80A9_FD1C),
            (0x8000_0000, 0x3F80_0000, 0x8000_0000, 0x8000_0000), // -0*1 + -0 = -0
            (0x8080_0000, 0x3F00_0000, 0x0000_0000, 0x8000_0000), // flushed, sign kept
            (0x5F80_0000, 0x5F80_0000, 0xFF80_0000, 0xFF80_0000), // overflowing product + -Inf = z
            (0x7F80_0001, 0x3F80_0000, 0x0000_0000, QNAN),
            (0xFFC0_0000, 0x3F80_0000, 0x0000_0000, QNAN),
            // Hand: 1 + 2^-24 is a tie between 1 (even) and 1+2^-23 (odd): R = 0x4000004, R&7 = 4,
            // r&1 = 0, 4 > 4 false => 1.0.
            (ONE, ONE, 0x3380_0000, ONE),
            // Hand: (1+2^-23) + 2^-24: R = 0x4000008 + 4, r = 0x3F800001, (4 + 1) > 4 => 0x3F800002.
            (ONE, 0x3F80_0001, 0x3380_0000, 0x3F80_0002),
            // Hand: 1 + 2^-24*(1+2^-23): Z = 0x4000008 >> 24 = 4 with sticky => 5 > 4 => 0x3F800001.
            (ONE, ONE, 0x3380_0001, 0x3F80_0001),
            // Hand: 0.99999994 + 1 = 2 - 2^-24, tie between 0x3FFFFFFF (odd) and 2.0 => 0x40000000.
            (ONE, 0x3F7F_FFFF, ONE, 0x4000_0000),
        ],
        "docs/spec FMA examples",
    );
}

#[test]
fn sfpmad_special_values() {
    run_mad_table(
        &[
            (PINF, f(2.0), ONE, PINF),
            (PINF, 0, ONE, QNAN),                         // Inf * 0
            (PINF, 0x0000_0001, ONE, QNAN),               // Inf * denormal = Inf * 0
            (ONE, ONE, NINF, NINF),                       // finite + -Inf
            (PINF, ONE, NINF, QNAN),                      // Inf - Inf
            (NINF, ONE, NINF, NINF),                      // -Inf + -Inf
            (0x7F80_0001, ONE, 0, QNAN),                  // signalling NaN in
            (0xFFFF_FFFF, ONE, 0, QNAN),                  // negative NaN in, canonical NaN out
            (0, 0, 0xFFC0_0000, QNAN),                    // NaN addend
            (ONE, QNAN, PINF, QNAN),                      // NaN * 1 + Inf
            (MAX, f(2.0), 0, PINF),                       // product overflow
            (NMAX, f(2.0), 0, NINF),                      // negative product overflow
            (MAX, ONE, MAX, PINF),                        // sum overflow
            (NMAX, ONE, NMAX, NINF),                      // negative sum overflow
            (MAX, ONE, NMAX, 0),                          // x - x = +0
            (0x0040_0000, 0x7F00_0000, SIGN, 0),          // a denormal => +0 product; +0 + -0 = +0
            (0x0080_0000, ONE, 0x807F_FFFF, 0x0080_0000), // c denormal => -0; 2^-126 + -0
            (0x0080_0000, 0x3F00_0000, 0, 0),             // 2^-127 flushed to +0
            (0x8080_0000, 0x3F00_0000, SIGN, SIGN),       // -2^-127 flushed to -0
            (f(3.0), ONE, f(-3.0), 0),                    // exact cancellation => +0
            (f(-3.0), ONE, f(3.0), 0),                    // exact cancellation => +0
            (0, f(-1.0), 0, 0),                           // -0 + +0 = +0
            (0, f(-1.0), SIGN, SIGN),                     // -0 + -0 = -0
            (SIGN, SIGN, SIGN, 0),                        // +0 + -0 = +0
            (0, f(5.0), 0x807F_FFFF, 0),                  // +0 + (-denormal => -0) = +0
            (SIGN, f(5.0), 0x807F_FFFF, SIGN),            // -0 + (-denormal => -0) = -0
            (0x0000_0001, 0x0000_0001, f(3.0), f(3.0)),   // 0 * 0 + 3
            (ONE, ONE, 0x0000_0001, ONE),                 // 1 + (denormal => 0)
            (0x0080_0000, f(2.0), 0, 0x0100_0000),        // 2^-126 * 2 = 2^-125, exact
            (0x1F80_0000, 0x1F80_0000, 0, 0),             // 2^-64 * 2^-64: e_x+e_y = 126 < 127 => dropped
            (0x9F80_0000, 0x1F80_0000, SIGN, SIGN),       // dropped -product: z=-0 & p_sign=- => -0
            // 1.5*2^-64 squared = 1.125*2^-127 is dropped (e_x+e_y = 126), so the result is z,
            // whereas IEEE would give 2^-126 * 1.5625 = 0x00C80000.
            (0x1FC0_0000, 0x1FC0_0000, 0x0080_0000, 0x0080_0000),
        ],
        "special values",
    );
}

/// Registers for the Mod1 sweeps: small integers in L0..L6, `LReg[7] = lane & 15` (so
/// `INDIRECT_VA`/`INDIRECT_VD` select every register 0..15 across each half of the lanes), and
/// distinct values in the SFPCONFIG-only registers 11..14.
fn mad_sweep_state() -> State {
    let mut s = reset();
    for lane in 0..LANES {
        for r in 0..7 {
            s.LReg[r][lane] = small(r, lane);
        }
        s.LReg[7][lane] = (lane & 15) as u32; // as a value: 0 or a denormal, read as +0
        if lane & 15 == 8 {
            // INDIRECT_VA reads LReg[8] = 0.8373 here; keep a*b+c exact.
            s.LReg[5][lane] = f(if lane < 16 { 2.0 } else { -0.5 });
            s.LReg[6][lane] = if lane < 16 { 0 } else { SIGN };
        }
    }
    s.LReg[11] = [f(-1.0); LANES];
    s.LReg[12] = [f(3.0); LANES];
    s.LReg[13] = [f(-5.0); LANES];
    s.LReg[14] = [f(0.5); LANES];
    s
}

#[test]
fn sfpmad_sfpadd_sfpmul_every_mod1() {
    // SFPADD.md / SFPMUL.md: "Functional model: As per SFPMAD".
    for op in ["SFPMAD", "SFPADD", "SFPMUL"] {
        for mod1 in 0..16u32 {
            let mut s = mad_sweep_state();
            let before = s.LReg;
            let mut want = before;
            for lane in 0..LANES {
                let l7 = (before[7][lane] & 15) as usize;
                // SFPMAD.md: va = Mod1 & INDIRECT_VA ? LReg[7].u32 & 15 : VA;
                let va = if mod1 & 4 != 0 { l7 } else { 0 };
                let mut a = before[va][lane];
                let b = before[5][lane];
                let mut c = before[6][lane];
                if mod1 & 1 != 0 {
                    a ^= SIGN;
                }
                if mod1 & 2 != 0 {
                    c ^= SIGN;
                }
                let d = exact_fma(a, b, c);
                let vd = if mod1 & 8 != 0 { l7 } else { 4 };
                write(&mut want, vd, lane, d);
            }
            let out = run(&mut s, &format!("TTI_{op}(0, 5, 6, 4, {mod1})"));
            assert_defined(&out);
            assert_regs(&s, &want, &format!("{op} Mod1={mod1}"));
        }
    }
}

#[test]
fn sfpmad_indirect_va_reads_lreg7_low_bits_including_constants() {
    let mut s = reset();
    for lane in 0..LANES {
        // Low four bits select the register; the full word is also LReg[7]'s value.
        s.LReg[7][lane] = 0x4040_0000 | (lane & 15) as u32;
    }
    fill(&mut s, 0, f(4.0));
    fill(&mut s, 1, f(2.0)); // VB
    fill(&mut s, 2, 0); // VC
    fill(&mut s, 3, f(-1.5));
    fill(&mut s, 4, 0x0000_0123);
    fill(&mut s, 5, SIGN);
    fill(&mut s, 6, PINF);
    s.LReg[11] = [f(-1.0); LANES];
    s.LReg[12] = [f(3.0); LANES];
    s.LReg[13] = [f(-5.0); LANES];
    s.LReg[14] = [f(0.5); LANES];
    // a * 2.0 + 0 for each selected register:
    let by_index: [u32; 16] = [
        0x4100_0000, // L0 4.0 -> 8.0
        0x4080_0000, // L1 2.0 -> 4.0
        0,           // L2 +0 -> +0
        0xC040_0000, // L3 -1.5 -> -3.0
        0,           // L4 denormal -> +0
        0,           // L5 -0 -> -0 + +0 = +0
        PINF,        // L6 Inf -> Inf
        0x40C0_0007, // L7 0x40400007 -> exponent + 1
        0x3FD6_594B, // L8 0.8373 -> exponent + 1
        0,           // L9 = 0
        0x4000_0000, // L10 = 1.0 -> 2.0
        0xC000_0000, // L11 -1 -> -2
        0x40C0_0000, // L12 3 -> 6
        0xC120_0000, // L13 -5 -> -10
        0x3F80_0000, // L14 0.5 -> 1
        0,           // L15 = 2*lane, an integer (denormal) -> +0
    ];
    let out = run(&mut s, "TTI_SFPMAD(9, 1, 2, 3, SFPMAD_MOD1_INDIRECT_VA)");
    assert_defined(&out);
    let want: [u32; LANES] = std::array::from_fn(|l| by_index[l & 15]);
    assert_lanes(&s.LReg[3], &want, "INDIRECT_VA");
}

#[test]
fn sfpmad_indirect_vd_writes_lreg7_selected_register_and_drops_8_to_15() {
    let mut s = reset();
    for lane in 0..LANES {
        s.LReg[7][lane] = (lane & 15) as u32;
        for r in 3..7 {
            s.LReg[r][lane] = f((r * 100 + lane) as f32);
        }
    }
    fill(&mut s, 0, f(2.0));
    fill(&mut s, 1, f(3.0));
    fill(&mut s, 2, f(1.0));
    let mut want = s.LReg;
    for lane in 0..LANES {
        write(&mut want, lane & 15, lane, 0x40E0_0000); // 2*3+1 = 7; 8..15 dropped
    }
    let out = run(&mut s, "TTI_SFPMAD(0, 1, 2, 5, SFPMAD_MOD1_INDIRECT_VD)");
    assert_defined(&out);
    assert_regs(&s, &want, "INDIRECT_VD");
    assert!(s.constants_intact());
}

#[test]
fn sfpmad_backdoor_guard_uses_encoded_vd_even_with_indirect_vd() {
    // Encoded VD = 12 with INDIRECT_VD: the guard `VD < 12 || DISABLE_BACKDOOR_LOAD` uses the
    // encoded VD, the write goes to LReg[LReg[7] & 15].
    let setup = || {
        let mut s = reset();
        for lane in 0..LANES {
            s.LReg[7][lane] = (lane & 15) as u32;
        }
        fill(&mut s, 0, f(2.0));
        fill(&mut s, 1, f(3.0));
        fill(&mut s, 2, f(1.0));
        s
    };
    let text = "TTI_SFPMAD(0, 1, 2, 12, 8)";
    // DISABLE_BACKDOOR_LOAD set everywhere: executes.
    let mut s = setup();
    config_or(&mut s, |_| true, DBL);
    let mut want = s.LReg;
    for lane in 0..LANES {
        write(&mut want, lane & 15, lane, 0x40E0_0000);
    }
    let out = run(&mut s, text);
    assert_defined(&out);
    assert_regs(&s, &want, "DBL set");
    assert!(s.LoadMacroConfig.iter().all(|c| c.InstructionTemplate == [0; 4]));
    // DISABLE_BACKDOOR_LOAD clear: no register write, a backdoor load of the word instead.
    let mut s = setup();
    let want = s.LReg;
    let out = run(&mut s, text);
    assert_regs(&s, &want, "DBL clear");
    assert_eq!(out.lanes(Clause::BackdoorLoad), ALL);
    // 0x84 << 24 | VA 0 | VB 1 << 12 | VC 2 << 8 | VD 12 << 4 | Mod1 8
    assert!(s.LoadMacroConfig.iter().all(|c| c.InstructionTemplate == [0x8400_12C8, 0, 0, 0]));
}

#[test]
fn sfpadd_with_va_10_adds() {
    // SFPADD.md: VA == 10 gives VD = ±(1.0 * VB) ± VC.
    let b = [f(1.5), f(-2.0), SIGN, 0, PINF, f(1e6), f(0.25), 0x0000_0010];
    let c = [f(2.5), f(2.0), SIGN, SIGN, f(-7.0), f(-1e6), f(-0.125), SIGN];
    let want = [
        0x4080_0000, // 1.5 + 2.5 = 4
        0,           // -2 + 2 = +0
        SIGN,        // -0 + -0 = -0
        0,           // +0 + -0 = +0
        PINF,        // Inf - 7
        0,           // x - x = +0
        0x3E00_0000, // 0.25 - 0.125 = 0.125
        0,           // denormal VB => +0; +0 + -0 = +0
    ];
    let mut s = reset();
    for lane in 0..LANES {
        s.LReg[1][lane] = b[lane % 8];
        s.LReg[2][lane] = c[lane % 8];
    }
    let out = run(&mut s, "TTI_SFPADD(10, 1, 2, 3, 0)");
    assert_defined(&out);
    assert_lanes(&s.LReg[3], &std::array::from_fn(|l| want[l % 8]), "SFPADD");
    // NEGATE_VC: b - c.
    let out = run(&mut s, "TTI_SFPADD(10, 1, 2, 4, SFPMAD_MOD1_NEGATE_VC)");
    assert_defined(&out);
    let want2 = [
        0xBF80_0000, // 1.5 - 2.5 = -1
        0xC080_0000, // -2 - 2 = -4
        0,           // -0 + +0 = +0
        0,           // +0 + +0 = +0
        PINF,        // Inf + 7
        0x49F4_2400, // 1e6 + 1e6 = 2e6
        0x3EC0_0000, // 0.25 + 0.125 = 0.375
        0,           // +0 + +0
    ];
    assert_lanes(&s.LReg[4], &std::array::from_fn(|l| want2[l % 8]), "SFPADD NEGATE_VC");
}

#[test]
fn sfpmul_vc9_turns_negative_zero_products_into_positive_zero() {
    // SFPMUL.md: "-0 rather than +0 is the identity element"; with VC = 9 (+0) a -0 product
    // becomes +0, with NEGATE_VC it stays -0.
    let a = [SIGN, f(-2.0), f(-1.0), 0, 0x8000_0001, f(3.0), f(-0.5), PINF];
    let b = [f(5.0), 0, f(2.0), f(-4.0), f(9.0), f(-3.0), f(-0.5), f(-1.0)];
    let plus_zero = [0, 0, 0xC000_0000, 0, 0, 0xC110_0000, 0x3E80_0000, NINF];
    let minus_zero = [SIGN, SIGN, 0xC000_0000, SIGN, SIGN, 0xC110_0000, 0x3E80_0000, NINF];
    let mut s = reset();
    for lane in 0..LANES {
        s.LReg[0][lane] = a[lane % 8];
        s.LReg[1][lane] = b[lane % 8];
    }
    assert_defined(&run(&mut s, "TTI_SFPMUL(0, 1, 9, 2, 0)"));
    assert_defined(&run(&mut s, "TTI_SFPMUL(0, 1, 9, 3, SFPMAD_MOD1_NEGATE_VC)"));
    assert_lanes(&s.LReg[2], &std::array::from_fn(|l| plus_zero[l % 8]), "a*b + 0");
    assert_lanes(&s.LReg[3], &std::array::from_fn(|l| minus_zero[l % 8]), "a*b - 0");
}

// ------------------------------------------------------------------------------------------------
// SFPADDI / SFPMULI
// ------------------------------------------------------------------------------------------------

/// Per-lane addends/multiplicands for SFPADDI/SFPMULI: every class, values that keep the
/// results exact.
const IMM_OPERANDS: [u32; LANES] = [
    0x0000_0000,
    0x8000_0000,
    0x3F80_0000, // 1
    0xBF80_0000, // -1
    0x4040_0000, // 3
    0xC040_0000, // -3
    0x3F00_0000, // 0.5
    0x42C8_0000, // 100
    PINF,
    NINF,
    QNAN,
    0xFF80_0001, // negative signalling NaN
    0x0000_0001, // denormal
    0x8040_0000, // negative denormal
    0x4030_0000, // 2.75
    0xC480_0000, // -1024
    0x40C0_0000, // 6
    0xC0D0_0000, // -6.5
    0x3FC0_0000, // 1.5
    0x3E80_0000, // 0.25
    0x40E0_0000, // 7
    0xBE00_0000, // -0.125
    0x4140_0000, // 12
    0xC140_0000, // -12
    0x4204_0000, // 33
    0xC204_0000, // -33
    0x3F40_0000, // 0.75
    0xBF40_0000, // -0.75
    0x40A0_0000, // 5
    0xC0A0_0000, // -5
    0x447A_0000, // 1000
    0xC000_0000, // -2
];

/// Runs `TTI_{op}(imm, 2, mod1)` for every Mod1 on `IMM_OPERANDS` in LReg[2] with
/// `LReg[7] = lane & 15`, expecting `fma_of(imm << 16, c)` where `c = LReg[VD]` (negated by bit 1).
fn imm_sweep(op: &str, imm: u32, fma_of: impl Fn(u32, u32) -> u32) {
    for mod1 in 0..16u32 {
        let mut s = reset();
        s.LReg[2] = IMM_OPERANDS;
        for lane in 0..LANES {
            s.LReg[7][lane] = (lane & 15) as u32;
            s.LReg[0][lane] = f(lane as f32);
        }
        let before = s.LReg;
        let mut want = before;
        for lane in 0..LANES {
            // SFPADDI.md / SFPMULI.md: VC = VD; NEGATE_VC = 2, INDIRECT_VD = 8; bits 0 and 2 unused.
            let c = before[2][lane] ^ if mod1 & 2 != 0 { SIGN } else { 0 };
            let d = fma_of(imm << 16, c);
            let vd = if mod1 & 8 != 0 { (before[7][lane] & 15) as usize } else { 2 };
            write(&mut want, vd, lane, d);
        }
        let out = run(&mut s, &format!("TTI_{op}({imm:#x}, 2, {mod1})"));
        assert_defined(&out);
        assert_regs(&s, &want, &format!("{op}({imm:#06x}) Mod1={mod1}"));
    }
}

#[test]
fn sfpaddi_every_mod1_and_special_immediates() {
    // SFPADDI.md: d = BF16ToFP32(Imm16) * 1.0 + c.
    for imm in [0xC040, 0x4120, 0x3F80, 0x0000, 0x8000, 0x0001, 0x8001, 0x7F80, 0xFF80, 0x7FC0, 0xFF81] {
        imm_sweep("SFPADDI", imm, |i, c| exact_fma(i, ONE, c));
    }
}

#[test]
fn sfpaddi_hand_cases() {
    let cases: [(u32, u32, u32); 8] = [
        (0xC040, f(3.0), 0),                // -3 + 3 = +0
        (0x0001, SIGN, 0),                  // denormal imm => +0; +0 + -0 = +0 (IEEE: 0x00010000)
        (0x8000, SIGN, SIGN),               // -0 + -0 = -0
        (0x0000, SIGN, 0),                  // +0 + -0 = +0
        (0x7F80, NINF, QNAN),               // Inf - Inf
        (0x7F7F, MAX, PINF),                // 0x7F7F0000 + max: er >= 255 => Inf
        (0x3F80, 0x3380_0001, 0x3F80_0001), // 1 + 2^-24(1+2^-23): above the tie => up
        (0x3F80, 0x3380_0000, ONE),         // 1 + 2^-24: tie => even (1.0)
    ];
    for (imm, c, want) in cases {
        let mut s = reset();
        fill(&mut s, 4, c);
        assert_defined(&run(&mut s, &format!("TTI_SFPADDI({imm:#x}, 4, 0)")));
        assert_eq!(s.LReg[4], [want; LANES], "SFPADDI {imm:#06x} + {c:08x}");
    }
}

#[test]
fn sfpmuli_every_mod1_and_special_immediates() {
    // SFPMULI.md: d = BF16ToFP32(Imm16) * c + 0.0.
    for imm in [0xC000, 0x3E80, 0x4780, 0x3F80, 0x0000, 0x8000, 0x0001, 0x7F80, 0xFF80, 0x7FC0] {
        imm_sweep("SFPMULI", imm, |i, c| exact_fma(i, c, 0));
    }
}

#[test]
fn sfpmuli_hand_cases() {
    let cases: [(u32, u32, u32); 10] = [
        (0x3F80, SIGN, 0),           // 1 * -0 + 0 = +0 ("negative zero becomes positive")
        (0x0000, f(-3.0), 0),        // +0 * -3 = -0, + 0 = +0
        (0x8000, f(3.0), 0),         // -0 * 3 = -0, + 0 = +0
        (0x3F80, 0x807F_FFFF, 0),    // -denormal => -0, + 0 = +0
        (0x3F00, 0x8080_0000, SIGN), // -2^-127 flushed after rounding, sign kept
        (0x3F00, 0x0080_0000, 0),    // 2^-127 flushed
        (0x4000, MAX, PINF),         // product overflow
        (0x4000, NMAX, NINF),        // negative product overflow
        (0x7F7F, 0x7F7F_0000, PINF), // product overflow
        (0x7F80, 0x0000_0001, QNAN), // Inf * denormal = Inf * 0
    ];
    for (imm, c, want) in cases {
        let mut s = reset();
        fill(&mut s, 6, c);
        assert_defined(&run(&mut s, &format!("TTI_SFPMULI({imm:#x}, 6, 0)")));
        assert_eq!(s.LReg[6], [want; LANES], "SFPMULI {imm:#06x} * {c:08x}");
    }
}

#[test]
fn sfpaddi_sfpmuli_vd_12_reads_lreg12_and_indirect_vd_writes() {
    // VC = VD = 12 with DISABLE_BACKDOOR_LOAD set: c = LReg[12]; INDIRECT_VD sends the result
    // to LReg[LReg[7] & 15] (dropped for 8..15).
    for (text, d) in [
        ("TTI_SFPADDI(0x3F80, 12, 8)", 0x4060_0000),  // 1 + 2.5 = 3.5
        ("TTI_SFPMULI(0x4000, 12, 10)", 0xC0A0_0000), // 2 * -(2.5) = -5
    ] {
        let mut s = reset();
        config_or(&mut s, |_| true, DBL);
        s.LReg[12] = [f(2.5); LANES];
        for lane in 0..LANES {
            s.LReg[7][lane] = ((lane * 3) & 15) as u32;
        }
        let mut want = s.LReg;
        for lane in 0..LANES {
            write(&mut want, (lane * 3) & 15, lane, d);
        }
        assert_defined(&run(&mut s, text));
        assert_regs(&s, &want, text);
    }
}

// ------------------------------------------------------------------------------------------------
// SFPMUL24
// ------------------------------------------------------------------------------------------------

#[test]
fn sfpmul24_low_and_high_halves() {
    // (a, b, low = (a*b) & 0x7FFFFF, high = ((a&0x7FFFFF)*(b&0x7FFFFF)) >> 23), by hand.
    let cases: [(u32, u32, u32, u32); 9] = [
        // (2^23-1)^2 = 2^46 - 2^24 + 1
        (0x7F_FFFF, 0x7F_FFFF, 0x00_0001, 0x7F_FFFE),
        (0x40_0000, 0x00_0002, 0x00_0000, 0x00_0001), // 2^23
        (0x12_3456, 0x00_0001, 0x12_3456, 0x00_0000),
        // low: (2^32-1)^2 mod 2^32 = 1; high: bits 31..23 ignored => as the first case
        (0xFFFF_FFFF, 0xFFFF_FFFF, 0x00_0001, 0x7F_FFFE),
        (0x3F80_0000, 0x4000_0000, 0, 0), // low 23 bits of 1.0 and 2.0 are zero
        (0x8000_0003, 0x0000_0005, 0x00_000F, 0),
        (0x0000_1000, 0x0000_1000, 0, 2), // 2^24
        // (2^22+1)^2 = 2^44 + 2^23 + 1
        (0x40_0001, 0x40_0001, 0x00_0001, 0x20_0001),
        // 3*(2^23-1) = 3*2^23 - 3
        (0x7F_FFFF, 0x00_0003, 0x7F_FFFD, 0x00_0002),
    ];
    let mut s = reset();
    for lane in 0..LANES {
        let (a, b, _, _) = cases[lane % 9];
        s.LReg[0][lane] = a;
        s.LReg[1][lane] = b;
    }
    assert_defined(&run(&mut s, "TTI_SFPMUL24(0, 1, 9, 2, 0)"));
    assert_defined(&run(&mut s, "TTI_SFPMUL24(0, 1, 9, 3, SFPMUL24_MOD1_UPPER)"));
    assert_lanes(&s.LReg[2], &std::array::from_fn(|l| cases[l % 9].2), "low");
    assert_lanes(&s.LReg[3], &std::array::from_fn(|l| cases[l % 9].3), "high");
}

#[test]
fn sfpmul24_every_mod1() {
    // Mod1: UPPER = 1, bit 1 unused, INDIRECT_VA = 4, INDIRECT_VD = 8. VC = 9 (zero): no adjustment.
    for mod1 in 0..16u32 {
        let mut s = reset();
        for lane in 0..LANES {
            for r in 0..7 {
                s.LReg[r][lane] =
                    (0x9E37_79B9u32.wrapping_mul((r * 32 + lane + 1) as u32)) ^ (r as u32) << 29;
            }
            s.LReg[7][lane] = 0xABCD_EF00 | (lane & 15) as u32;
        }
        s.LReg[11] = [0xFFFF_FFFF; LANES];
        s.LReg[12] = [0x0040_0000; LANES];
        s.LReg[13] = [0x1234_5678; LANES];
        s.LReg[14] = [0x8000_0001; LANES];
        let before = s.LReg;
        let mut want = before;
        for lane in 0..LANES {
            let l7 = (before[7][lane] & 15) as usize;
            let va = if mod1 & 4 != 0 { l7 } else { 0 };
            let (a, b) = (before[va][lane], before[1][lane]);
            // SFPMUL24.md: UPPER: ((a & 0x7fffff) * (b & 0x7fffff)) >> 23; else (a * b) & 0x7fffff.
            let d = if mod1 & 1 != 0 {
                ((u64::from(a & 0x7F_FFFF) * u64::from(b & 0x7F_FFFF)) >> 23) as u32
            } else {
                a.wrapping_mul(b) & 0x7F_FFFF
            };
            let vd = if mod1 & 8 != 0 { l7 } else { 3 };
            write(&mut want, vd, lane, d);
        }
        let out = run(&mut s, &format!("TTI_SFPMUL24(0, 1, 9, 3, {mod1})"));
        assert_defined(&out);
        assert_regs(&s, &want, &format!("SFPMUL24 Mod1={mod1}"));
    }
}

#[test]
fn sfpmul24_nonzero_vc_applies_mul24_shift_add() {
    // LReg[0] = p (b = 1 so d = p before the adjustment), LReg[2] = z. Each expectation is the
    // page's Mul24ShiftAdd(p, z) worked by hand (p_e = 129, r_e = max(129, z_e),
    // s = (r_e - z_e) & 31, grs = ((1<<23) | z_m) << 3, p >>= (r_e - 129) & 31, then
    // p = (p + (grs >> s) + ((((grs >> s) << s) ^ grs) > 0xffff) << 16) & 0x7fffff).
    let p = 0x12_3456;
    let cases: [(u32, u32, u32); 23] = [
        (p, 0x0000_0000, p),         // c == 0: no adjustment at all
        (p, 0x8000_0000, p),         // -0: c != 0 but z_e = 0 => unchanged
        (p, 0x0000_0005, p),         // denormal: z_e = 0 => unchanged
        (p, 0x3F80_0000, p),         // z_e 127, s 2: grs>>2 = 0x1000000, masked away
        (p, 0x3F80_0001, 0x12_3458), // grs = 0x4000008, >>2 = 0x1000002 => +2
        (p, 0xBF80_0003, 0x12_345C), // sign ignored; 0x4000018 >> 2 = 0x1000006 => +6
        (p, 0x4100_0000, 0x09_1A2B), // z_e 130: p >>= 1; + 0x4000000 masked
        (p, 0x4100_0001, 0x09_1A33), // 0x91A2B + 0x4000008 => 0x091A33
        (p, 0x3DFF_FFFF, 0x32_3455), // z_e 123, s 6: 0x7FFFFF8 >> 6 = 0x1FFFFF; lost 0x38 <= 0xffff
        (p, 0x3480_2000, 0x13_345A), // z_e 105, s 24: 0x4010000 >> 24 = 4; lost 0x10000 > 0xffff => +0x10004
        (p, 0x3480_1FFF, 0x12_345A), // lost 0xFFF8 <= 0xffff => +4 only
        (p, 0x0080_0001, 0x12_345E), // z_e 1: s = 128 & 31 = 0 => + 0x4000008 => +8
        (p, 0x3100_0000, p),         // z_e 98: s = 31, 0x4000000 >> 31 = 0 => nothing added
        (p, 0x30FF_FFFF, 0x12_344E), // z_e 97: s = 32 & 31 = 0 => + 0x7FFFFF8 => -8 mod 2^23
        (p, PINF, 0),                // z_e 255: p >>= 126 & 31 = 30 => 0; + 0x4000000 masked
        (p, QNAN, 0),                // p >>= 30 => 0; + 0x6000000 masked
        (p, 0x7F80_0001, 8),         // p >>= 30 => 0; + 0x4000008 => 8
        (p, 0x4080_0000, p),         // z_e 129: s 0, + 0x4000000 masked
        (p, 0x6000_0000, 0),         // z_e 192: p >>= 63 & 31 = 31 => 0
        (p, 0x5080_0000, p),         // z_e 161: p >>= 32 & 31 = 0; + 0x4000000 masked
        (p, 0x4080_0100, 0x12_3C56), // z_e 129: + 0x4000800 => +0x800
        (0x7F_FFFF, 0x3F80_0001, 1), // 0x7FFFFF + 0x1000002 = 0x1800001 => 1
        (p, L8, 0x68_8DA1), // z_e 126, s 3: 0x6B2CA58 >> 3 = 0xD6594B, exact; (p + 0xD6594B) & 0x7FFFFF
    ];
    let mut s = reset();
    fill(&mut s, 1, 1);
    for (lane, &(p, z, _)) in cases.iter().enumerate() {
        s.LReg[0][lane] = p;
        s.LReg[2][lane] = z;
    }
    // Lanes 23..31: disabled (predicated off), with a non-zero VC.
    for lane in cases.len()..LANES {
        s.LReg[0][lane] = p;
        s.LReg[2][lane] = ONE;
        s.LReg[3][lane] = 0xDEAD_0000 + lane as u32;
    }
    let enabled = mask(|l| l < cases.len());
    predicate(&mut s, enabled);
    let mut want = s.LReg[3];
    for (lane, &(_, _, d)) in cases.iter().enumerate() {
        want[lane] = d;
    }
    let out = run(&mut s, "TTI_SFPMUL24(0, 1, 2, 3, 0)");
    assert_lanes(&s.LReg[3], &want, "Mul24ShiftAdd");
    // NonContractual: reported for the enabled lanes whose LReg[VC] != 0 (all but lane 0).
    assert_eq!(Clause::Sfpmul24NonZeroVc.kind(), Kind::NonContractual);
    assert_eq!(out.lanes(Clause::Sfpmul24NonZeroVc), enabled & !1);
    assert!(!out.is_defined());

    // VC = 8 (the constant 0.8373) in every lane: the L8 row above, everywhere.
    let mut s = reset();
    fill(&mut s, 0, p);
    fill(&mut s, 1, 1);
    let out = run(&mut s, "TTI_SFPMUL24(0, 1, 8, 3, 0)");
    assert_eq!(s.LReg[3], [0x68_8DA1; LANES]);
    assert_eq!(out.lanes(Clause::Sfpmul24NonZeroVc), ALL);
}

// ------------------------------------------------------------------------------------------------
// SFPLUT
// ------------------------------------------------------------------------------------------------

#[test]
fn sfplut_lut8_coefficient_decoding() {
    // Lut8ToFp32(x) = x == 0xff ? 0 : (x>>7)<<31 | (127 - ((x>>4)&7))<<23 | (x&15)<<19.
    let table: [(u32, u32); 16] = [
        (0x00, 0x3F80_0000), // 1
        (0x0F, 0x3FF8_0000), // 1.9375
        (0x10, 0x3F00_0000), // 0.5
        (0x28, 0x3EC0_0000), // 0.375
        (0x35, 0x3E28_0000), // 0.1640625
        (0x41, 0x3D88_0000), // 0.06640625
        (0x5A, 0x3D50_0000), // 0.05078125
        (0x6C, 0x3CE0_0000), // 0.02734375
        (0x70, 0x3C00_0000), // 0.0078125
        (0x7F, 0x3C78_0000), // 0.0151367
        (0x80, 0xBF80_0000), // -1
        (0x8F, 0xBFF8_0000), // -1.9375
        (0xA4, 0xBEA0_0000), // -0.3125
        (0xF0, 0xBC00_0000), // -0.0078125
        (0xFE, 0xBC70_0000), // -0.0146484
        (0xFF, 0x0000_0000), // 0
    ];
    let mut s = reset();
    for lane in 0..LANES {
        let byte = table[lane % 16].0;
        // |LReg[3]| = 1.0 selects LReg[1]. Lanes 0..15: slope = byte, intercept = 0xFF (0);
        // lanes 16..31: slope 0xFF (0), intercept = byte. Bits 31..16 are ignored.
        s.LReg[1][lane] = if lane < 16 { 0xA5A5_00FF | byte << 8 } else { 0x5A5A_FF00 | byte };
        s.LReg[3][lane] = if lane % 2 == 0 { ONE } else { 0xBF80_0000 };
    }
    assert_defined(&run(&mut s, "TTI_SFPLUT(4, 0, 0)"));
    // slope * 1 + 0 = slope; 0 * 1 + intercept = intercept; 0xFF both: 0 * 1 + 0 = +0.
    assert_lanes(&s.LReg[4], &std::array::from_fn(|l| table[l % 16].1), "Lut8ToFp32");
}

#[test]
fn sfplut_slope_and_intercept_hand_cases() {
    // (LReg[0], LReg[1], LReg[2], LReg[3], result); the used register is chosen by |LReg[3]|.
    let cases: [(u32, u32, u32, u32, u32); 6] = [
        (0x0028, 0xFFFF, 0xFFFF, f(0.75), 0x3F90_0000), // 1.0*0.75 + 0.375 = 1.125
        (0xFFFF, 0x9010, 0xFFFF, f(-1.5), 0xBE80_0000), // -0.5*1.5 + 0.5 = -0.25
        (0xFFFF, 0xFFFF, 0x1F8F, f(4.0), 0x3FF8_0000),  // 0.96875*4 - 1.9375 = 1.9375
        (0xFFFF, 0xFFFF, 0x7F7F, f(64.0), 0x3F7B_E000), // 0.0151367*(64+1) = 2015/2048
        (0xFFFF, 0x0000, 0xFFFF, f(1.5), 0x4020_0000),  // 1.0*1.5 + 1.0 = 2.5
        (0x0000, 0xFFFF, 0xFFFF, SIGN, ONE),            // -0 => L0: 1*0 + 1 = 1
    ];
    let mut s = reset();
    for lane in 0..LANES {
        let (l0, l1, l2, x, _) = cases[lane % 6];
        s.LReg[0][lane] = l0;
        s.LReg[1][lane] = l1;
        s.LReg[2][lane] = l2;
        s.LReg[3][lane] = x;
    }
    assert_defined(&run(&mut s, "TTI_SFPLUT(5, 0, 0)"));
    assert_lanes(&s.LReg[5], &std::array::from_fn(|l| cases[l % 6].4), "SFPLUT");
}

/// The LReg[3] inputs of the LUT sweeps, with their segment in the 3-entry tables (for both
/// SFPLUT's raw compare and SFPLUTFP32's float compare) and in the 6-entry TABLE1/TABLE2
/// (cut at 3.0 / 4.0), read off the pages' tables.
const LUT_X: [(u32, usize, usize, usize); 16] = [
    (0x8000_0000, 0, 0, 0), // -0
    (0x3EFF_FFFF, 0, 0, 0), // 0.49999997
    (0x3F00_0000, 0, 1, 1), // 0.5
    (0xBF7F_FFFF, 0, 1, 1), // -0.99999994
    (0x3F80_0000, 1, 2, 2), // 1.0
    (0xBFBF_FFFF, 1, 2, 2), // -1.4999999
    (0x3FC0_0000, 1, 3, 3), // 1.5
    (0x3FFF_FFFF, 1, 3, 3), // 1.9999999
    (0xC000_0000, 2, 4, 4), // -2.0
    (0x403F_FFFF, 2, 4, 4), // 2.9999998
    (0x4040_0000, 2, 5, 4), // 3.0
    (0xC07F_FFFF, 2, 5, 4), // -3.9999998
    (0x4080_0000, 2, 5, 5), // 4.0
    (PINF, 2, 5, 5),        // +Inf: >= every cut
    (0xFFC0_0000, 2, 5, 5), // -NaN: every float compare false; raw |x| = 0x7FC00000 >= 2.0
    (0x0000_0123, 0, 0, 0), // denormal: selects segment 0, then reads as 0 in the FMA
];

/// Expected `slope * |x| + intercept` of the LUT sweeps: lanes 0..15 have slope 0 and a
/// per-segment intercept, lanes 16..31 a per-segment slope and intercept 0; then SGN_RETAIN
/// and the destination choice.
fn lut_expect(
    before: &Regs,
    lane: usize,
    slope: u32,
    intercept: u32,
    sgn_retain: bool,
    indirect: bool,
    vd: usize,
    want: &mut Regs,
) {
    let x = LUT_X[lane % 16].0;
    let (a, c) = if lane < 16 { (0, intercept) } else { (slope, 0) };
    let mut d = exact_fma(a, x & !SIGN, c);
    if sgn_retain {
        d = (d & !SIGN) | (x & SIGN);
    }
    let vd = if indirect { (before[7][lane] & 15) as usize } else { vd };
    write(want, vd, lane, d);
}

#[test]
fn sfplut_every_mod0() {
    // Lut8 bytes per segment: slopes 1.0, -0.5, 0.125; intercepts 1.9375, -0.25, 0.75.
    let slope8 = [0x00, 0x90, 0x30];
    let slope = [ONE, 0xBF00_0000, 0x3E00_0000];
    let icpt8 = [0x0F, 0xA0, 0x18];
    let icpt = [0x3FF8_0000, 0xBE80_0000, 0x3F40_0000];
    for mod0 in 0..16u32 {
        let mut s = reset();
        for lane in 0..LANES {
            for i in 0..3 {
                s.LReg[i][lane] =
                    if lane < 16 { 0xA5A5_FF00 | icpt8[i] } else { 0x5A5A_00FF | slope8[i] << 8 };
            }
            s.LReg[3][lane] = LUT_X[lane % 16].0;
            s.LReg[7][lane] = ((lane * 7 + 3) & 15) as u32;
        }
        let before = s.LReg;
        let mut want = before;
        for lane in 0..LANES {
            let seg = LUT_X[lane % 16].1;
            // SFPLUT.md: SGN_RETAIN = 4, INDIRECT_VD = 8; bits 0 and 1 unused.
            lut_expect(&before, lane, slope[seg], icpt[seg], mod0 & 4 != 0, mod0 & 8 != 0, 6, &mut want);
        }
        let out = run(&mut s, &format!("TTI_SFPLUT(6, {mod0}, 0)"));
        assert_defined(&out);
        assert_regs(&s, &want, &format!("SFPLUT Mod0={mod0}"));
    }
}

#[test]
fn sfplut_nan_and_inf_inputs_with_sgn_retain() {
    let mut s = reset();
    fill(&mut s, 2, 0x8FFF); // slope -1.9375, intercept 0 (LReg[2]: |x| >= 2.0, Inf, NaN)
    let x = [PINF, NINF, QNAN, 0xFFC0_0001, 0x7F80_0001, f(-3.0)];
    let plain = [NINF, NINF, QNAN, QNAN, QNAN, 0xC0BA_0000]; // -1.9375 * 3 = -5.8125
    let kept = [0x7F80_0000, NINF, QNAN, 0xFFC0_0000, QNAN, 0xC0BA_0000];
    for lane in 0..LANES {
        s.LReg[3][lane] = x[lane % 6];
    }
    assert_defined(&run(&mut s, "TTI_SFPLUT(0, 0, 0)"));
    assert_defined(&run(&mut s, "TTI_SFPLUT(1, SFPLUT_MOD0_SGN_RETAIN, 0)"));
    assert_lanes(&s.LReg[0], &std::array::from_fn(|l| plain[l % 6]), "plain");
    assert_lanes(&s.LReg[1], &std::array::from_fn(|l| kept[l % 6]), "SGN_RETAIN");
    // Slope 0 (0xFF) times Inf is NaN.
    fill(&mut s, 2, 0xFF0F);
    assert_defined(&run(&mut s, "TTI_SFPLUT(4, 0, 0)"));
    assert_lanes(&s.LReg[4], &std::array::from_fn(|l| if l % 6 == 5 { 0x3FF8_0000 } else { QNAN }), "0*x");
}

// ------------------------------------------------------------------------------------------------
// SFPLUTFP32
// ------------------------------------------------------------------------------------------------

#[test]
fn sfplutfp32_lut16_coefficient_decoding() {
    // Lut16ToFp32(x) = (x>>15)<<31 | (e == 31 ? 0 : 112 + e)<<23 | (x & 0x3ff)<<13, e = (x>>10)&31.
    let table: [(u32, u32); 16] = [
        (0x3C00, 0x3F80_0000), // 1
        (0x0000, 0x3800_0000), // e = 0 is normal: 2^-15 (not zero!)
        (0x8000, 0xB800_0000), // -2^-15
        (0x0001, 0x3800_2000), // 2^-15 * (1 + 2^-10)
        (0x03FF, 0x387F_E000),
        (0x7BFF, 0x477F_E000), // 65504
        (0xC000, 0xC000_0000), // -2
        (0x3555, 0x3EAA_A000),
        (0x4900, 0x4120_0000), // 10
        (0xD380, 0xC270_0000), // -60
        (0x5640, 0x42C8_0000), // 100
        (0x0400, 0x3880_0000), // 2^-14
        (0x7C00, 0),           // "+Infinity" pattern: +0
        (0xFC00, 0),           // -0, which as either operand still gives +0 here (+0 addend)
        (0x7C01, 0),           // "NaN" pattern: denormal 0x00002000, read as 0
        (0xFFFF, 0),           // denormal 0x807FE000, read as -0
    ];
    let mut s = reset();
    for lane in 0..LANES {
        let pat = table[lane % 16].0;
        // FP16 3-entry (Mod1 = 10): |x| = 1.0 selects LReg[1]; hi16 = slope, lo16 = intercept.
        s.LReg[1][lane] = if lane < 16 { pat << 16 | 0x7C00 } else { 0x7C00 << 16 | pat };
        s.LReg[3][lane] = ONE;
        s.LReg[7][lane] = 4; // the FP16 3-entry table writes LReg[LReg[7] & 15]
    }
    assert_defined(&run(&mut s, "TTI_SFPLUTFP32(4, SFPLUTFP32_MOD1_FP16_3ENTRY_TABLE)"));
    assert_lanes(&s.LReg[4], &std::array::from_fn(|l| table[l % 16].1), "Lut16ToFp32");
    // -0 slope and -0 intercept: -0 * 1 + -0 = -0.
    fill(&mut s, 1, 0xFC00_FC00);
    assert_defined(&run(&mut s, "TTI_SFPLUTFP32(4, 10)"));
    assert_eq!(s.LReg[4], [SIGN; LANES]);
}

#[test]
fn sfplutfp32_hand_cases_per_table() {
    // (Mod1, LReg[0..3], LReg[4..7], [(x, result)]) with every coefficient non-zero.
    type Case = (u32, [u32; 3], [u32; 3], [(u32, u32); 4]);
    let cases: [Case; 4] = [
        // FP32 3-entry: slopes 2, -1, 0.25; intercepts 0.5, 3, -1.
        (
            0,
            [f(2.0), f(-1.0), f(0.25)],
            [f(0.5), f(3.0), f(-1.0)],
            [(f(0.75), 0x4000_0000), (f(-1.25), 0x3FE0_0000), (f(10.0), 0x3FC0_0000), (f(0.25), ONE)],
        ),
        // FP16 6-entry TABLE1 (cut 3.0): L0 lo/hi slopes 2, 0.5; L4 lo/hi intercepts -0.5, 1;
        // L1 1, -2 / L5 0.25, 3; L2 0.5, 0.25 / L6 1, 10.
        (
            2,
            [0x3800_4000, 0xC000_3C00, 0x3400_3800],
            [0x3C00_B800, 0x4200_3400, 0x4900_3C00],
            [(f(0.375), 0x3E80_0000), (f(0.75), 0x3FB0_0000), (f(-1.75), 0xBF00_0000), (f(3.5), 0x412E_0000)],
        ),
        // TABLE2 (cut 4.0), same registers: 3.5 now uses the lower half.
        (
            3,
            [0x3800_4000, 0xC000_3C00, 0x3400_3800],
            [0x3C00_B800, 0x4200_3400, 0x4900_3C00],
            [(f(0.25), 0), (f(1.25), 0x3FC0_0000), (f(3.5), 0x4030_0000), (f(5.0), 0x4134_0000)],
        ),
        // FP16 3-entry: L0 = 2 | 0.5, L1 = -0.5 | 3, L2 = 0.25 | -2; LReg[4..7] unused.
        (
            10,
            [0x4000_3800, 0xB800_4200, 0x3400_C000],
            [0x3C00_3C00; 3],
            [(f(0.25), ONE), (f(1.5), 0x4010_0000), (f(-8.0), 0), (f(2.5), 0xBFB0_0000)],
        ),
    ];
    // Results: 2*.75+.5=2; -1*1.25+3=1.75; .25*10-1=1.5; 2*.25+.5=1 | 2*.375-.5=.25; .5*.75+1=1.375;
    // -2*1.75+3=-.5; .25*3.5+10=10.875 | 2*.25-.5=+0; 1*1.25+.25=1.5; .5*3.5+1=2.75; .25*5+10=11.25 |
    // 2*.25+.5=1; -.5*1.5+3=2.25; .25*8-2=+0; .25*2.5-2=-1.375.
    for (mod1, lo, hi, xs) in cases {
        let mut s = reset();
        for lane in 0..LANES {
            for i in 0..3 {
                s.LReg[i][lane] = lo[i];
                s.LReg[4 + i][lane] = hi[i];
            }
            s.LReg[3][lane] = xs[lane % 4].0;
            s.LReg[7][lane] = 7;
        }
        assert_defined(&run(&mut s, &format!("TTI_SFPLUTFP32(7, {mod1})")));
        assert_lanes(&s.LReg[7], &std::array::from_fn(|l| xs[l % 4].1), &format!("Mod1={mod1}"));
    }
}

#[test]
fn sfplutfp32_every_mod1() {
    // Per-segment coefficients: FP32 / FP16 3-entry use segments i = 0, 1, 2; 6-entry uses 0..5.
    let s3 = [ONE, 0xBF00_0000, 0x3E00_0000]; // 1, -0.5, 0.125
    let s3h = [0x3C00, 0xB800, 0x3000];
    let c3 = [0x4120_0000, 0xC1A0_0000, 0x4248_0000]; // 10, -20, 50
    let c3h = [0x4900, 0xCD00, 0x5240];
    // 1, -0.5, 2, -0.25, 0.125, -4 and 10, -20, 30, -40, 50, -60.
    let s6 = [ONE, 0xBF00_0000, 0x4000_0000, 0xBE80_0000, 0x3E00_0000, 0xC080_0000];
    let s6h = [0x3C00, 0xB800, 0x4000, 0xB400, 0x3000, 0xC400];
    let c6 = [0x4120_0000, 0xC1A0_0000, 0x41F0_0000, 0xC220_0000, 0x4248_0000, 0xC270_0000];
    let c6h = [0x4900, 0xCD00, 0x4F80, 0xD100, 0x5240, 0xD380];
    const Z16: u32 = 0x7C00; // Lut16ToFp32(0x7C00) = +0
    for mod1 in 0..16u32 {
        // Mod1 decoding (SFPLUTFP32.md): bit 1 clear => FP32 3-entry; bits 1 and 3 => FP16
        // 3-entry (always LReg[LReg[7] & 15]); bit 1 only => FP16 6-entry, bit 0 = TABLE2.
        enum T {
            Fp32,
            Fp16x3,
            Fp16x6 { table2: bool },
        }
        let t = if mod1 & 2 == 0 {
            T::Fp32
        } else if mod1 & 10 == 10 {
            T::Fp16x3
        } else {
            T::Fp16x6 { table2: mod1 & 1 != 0 }
        };
        let mut s = reset();
        for lane in 0..LANES {
            let zero_slope = lane < 16;
            for i in 0..3 {
                let (li, l4i) = match t {
                    T::Fp32 => {
                        if zero_slope {
                            (0, c3[i])
                        } else {
                            (s3[i], 0)
                        }
                    }
                    T::Fp16x3 => {
                        // LReg[4..7] must be ignored: give them values that would show.
                        if zero_slope {
                            (Z16 << 16 | c3h[i], 0x3C00_3C00)
                        } else {
                            (s3h[i] << 16 | Z16, 0x3C00_3C00)
                        }
                    }
                    T::Fp16x6 { .. } => {
                        if zero_slope {
                            (Z16 << 16 | Z16, c6h[2 * i + 1] << 16 | c6h[2 * i])
                        } else {
                            (s6h[2 * i + 1] << 16 | s6h[2 * i], Z16 << 16 | Z16)
                        }
                    }
                };
                s.LReg[i][lane] = li;
                s.LReg[4 + i][lane] = l4i;
            }
            s.LReg[3][lane] = LUT_X[lane % 16].0;
            s.LReg[7][lane] = ((lane * 7 + 3) & 15) as u32;
        }
        let before = s.LReg;
        let mut want = before;
        for lane in 0..LANES {
            let (_, seg3, t1, t2) = LUT_X[lane % 16];
            let (sl, ic) = match t {
                T::Fp32 | T::Fp16x3 => (s3[seg3], c3[seg3]),
                T::Fp16x6 { table2 } => {
                    let seg = if table2 { t2 } else { t1 };
                    (s6[seg], c6[seg])
                }
            };
            let indirect = mod1 & 8 != 0; // includes every FP16 3-entry value
            lut_expect(&before, lane, sl, ic, mod1 & 4 != 0, indirect, 3, &mut want);
        }
        // Mod1Mirror only feeds the stall logic: give it a value unrelated to Mod1.
        let mirror = 15 - mod1;
        let out = run(&mut s, &format!("TTI_SFPLUTFP32(({mirror} << 12) | 3, {mod1})"));
        assert_defined(&out);
        assert_regs(&s, &want, &format!("SFPLUTFP32 Mod1={mod1}"));
    }
}

#[test]
fn sfplutfp32_fp16_3entry_writes_lreg_l7_whatever_vd() {
    // SFPLUTFP32.md: "this mode writes to LReg[LReg[7] & 15] rather than to LReg[VD]" - also
    // when the encoded VD is a constant register.
    for vd in [0, 5, 9] {
        let mut s = reset();
        fill(&mut s, 0, 0x4000_3800); // 2*|x| + 0.5
        fill(&mut s, 3, f(0.25));
        for lane in 0..LANES {
            s.LReg[7][lane] = [1, 2, 6, 11][lane % 4];
        }
        let mut want = s.LReg;
        for lane in 0..LANES {
            write(&mut want, [1, 2, 6, 11][lane % 4], lane, ONE); // 2*0.25 + 0.5
        }
        assert_defined(&run(&mut s, &format!("TTI_SFPLUTFP32({vd}, 10)")));
        assert_regs(&s, &want, &format!("VD={vd}"));
    }
}

// ------------------------------------------------------------------------------------------------
// Rules shared by all eight instructions
// ------------------------------------------------------------------------------------------------

/// One instance of each instruction (and each SFPLUTFP32 table) writing `vd` directly.
fn instances(vd: u32) -> Vec<String> {
    vec![
        format!("TTI_SFPMAD(0, 1, 2, {vd}, 3)"),
        format!("TTI_SFPADD(10, 1, 2, {vd}, 2)"),
        format!("TTI_SFPMUL(0, 1, 9, {vd}, 1)"),
        format!("TTI_SFPADDI(0x3F80, {vd}, 2)"),
        format!("TTI_SFPMULI(0xC000, {vd}, 0)"),
        format!("TTI_SFPMUL24(0, 1, 9, {vd}, 1)"),
        format!("TTI_SFPLUT({vd}, 4, 0)"),
        format!("TTI_SFPLUTFP32({vd}, 0)"),
        format!("TTI_SFPLUTFP32({vd}, 2)"),
        format!("TTI_SFPLUTFP32({vd}, 7)"),
    ]
}

/// A state where every instruction above has non-trivial operands in every lane.
fn busy_state() -> State {
    let mut s = reset();
    for lane in 0..LANES {
        for r in 0..7 {
            s.LReg[r][lane] = f((r as f32 + 1.0) * 0.25 * (lane as f32 - 15.5));
        }
        s.LReg[7][lane] = ((lane * 3) & 7) as u32;
        s.LReg[16][lane] = 0x1600_0000 | lane as u32;
    }
    for r in 11..15 {
        s.LReg[r] = [f(r as f32); LANES];
    }
    s
}

#[test]
fn writes_to_vd_8_to_15_are_dropped() {
    for vd in 8..16 {
        for text in instances(vd) {
            let mut s = busy_state();
            if vd >= 12 {
                config_or(&mut s, |_| true, DBL); // otherwise a backdoor load
            }
            let want = s.LReg;
            let out = run(&mut s, &text);
            assert_defined(&out);
            assert_regs(&s, &want, &text);
            assert!(s.LoadMacroConfig.iter().all(|c| c.InstructionTemplate == [0; 4]), "{text}");
        }
    }
}

#[test]
fn vd_12_to_15_with_backdoor_enabled_writes_the_instruction_word() {
    // (instruction, VD, word by hand from the encodings of `Diagrams/Src/Bits32.lua`)
    let cases = [
        ("TTI_SFPMAD(1, 2, 3, 12, 5)", 12, 0x8401_23C5),
        ("TTI_SFPADD(10, 2, 3, 13, 2)", 13, 0x850A_23D2),
        ("TTI_SFPMUL(1, 2, 9, 14, 3)", 14, 0x8601_29E3),
        ("TTI_SFPADDI(0x3F80, 15, 2)", 15, 0x753F_80F2), // Imm16 [23:8]
        ("TTI_SFPMULI(0x4040, 12, 0)", 12, 0x7440_40C0),
        ("TTI_SFPMUL24(1, 2, 9, 13, 1)", 13, 0x9801_29D1),
        ("TTI_SFPLUT(14, 4, 0)", 14, 0x73E4_0000), // VD [23:20], Mod0 [19:16]
        ("TTI_SFPLUTFP32((8 << 12) | 15, 2)", 15, 0x9508_00F2), // Mod1Mirror [19:16]
    ];
    const SENTINEL: u32 = 0xAAAA_AAAA;
    for (text, vd, word) in cases {
        let mut s = busy_state();
        for c in s.LoadMacroConfig.iter_mut() {
            c.InstructionTemplate = [SENTINEL; 4];
        }
        // DISABLE_BACKDOOR_LOAD set in columns 0..3 only.
        config_or(&mut s, |col| col < 4, DBL);
        let backdoor = mask(|l| l & 7 >= 4);
        let want = s.LReg;
        let out = run(&mut s, text);
        assert_eq!(out.lanes(Clause::BackdoorLoad), backdoor, "{text}");
        assert_eq!(Clause::BackdoorLoad.kind(), Kind::Unspecified);
        // In DBL lanes the instruction executes and its VD >= 12 write is dropped.
        assert_regs(&s, &want, text);
        for lane in 0..LANES {
            let mut t = [SENTINEL; 4];
            if backdoor >> lane & 1 != 0 {
                t[vd - 12] = word;
            }
            assert_eq!(s.LoadMacroConfig[lane].InstructionTemplate, t, "{text} lane {lane}");
        }
    }
}

#[test]
fn disabled_lanes_are_untouched_and_flags_unchanged() {
    let mut texts = instances(3);
    texts.extend([
        "TTI_SFPMAD(0, 1, 2, 3, 15)".to_string(),
        "TTI_SFPMUL24(0, 1, 9, 3, 13)".to_string(),
        "TTI_SFPADDI(0x4000, 5, 10)".to_string(),
        "TTI_SFPMULI(0x4000, 5, 8)".to_string(),
        "TTI_SFPLUT(3, 12, 0)".to_string(),
        "TTI_SFPLUTFP32(3, 10)".to_string(),
        "TTI_SFPLUTFP32(3, 14)".to_string(),
    ]);
    // Predication: lanes with bit pattern 0b...0110 off; ROW_MASK: column 4 rows 1 and 3
    // (lanes 12 and 28), column 0 row 0 (lane 0).
    let flag_mask = mask(|l| l % 4 != 1 && l % 4 != 2);
    for text in texts {
        let mut all_on = busy_state();
        let mut masked = busy_state();
        let before = masked.LReg;
        run(&mut all_on, &text);
        predicate(&mut masked, flag_mask);
        config_or(&mut masked, |col| col == 4, 0b1010 << 12);
        config_or(&mut masked, |col| col == 0, 0b0001 << 12);
        let flags_before = (masked.LaneFlags, masked.UseLaneFlagsForLaneEnable, masked.FlagStack);
        let enabled = mask(|l| masked.IsLaneEnabled(l));
        assert_eq!(enabled, flag_mask & !(1 << 12 | 1 << 28 | 1));
        run(&mut masked, &text);
        let mut want = before;
        for r in 0..17 {
            for lane in 0..LANES {
                if enabled >> lane & 1 != 0 {
                    want[r][lane] = all_on.LReg[r][lane];
                }
            }
        }
        assert_regs(&masked, &want, &text);
        assert_eq!(
            (masked.LaneFlags, masked.UseLaneFlagsForLaneEnable, masked.FlagStack),
            flags_before,
            "{text}"
        );
        assert_ne!(all_on.LReg, before, "{text} should change something when all lanes run");
    }
}
