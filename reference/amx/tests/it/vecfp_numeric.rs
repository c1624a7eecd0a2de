//! `vecfp` end to end, for the floating-point behaviour: the zero operand per chip, every lane
//! width, the default NaN in every format, mode 1's negation order, signed zeros in min/max,
//! mode 4's pass-through, and the bf16 double-rounding example of §5.
//!
//! Every expected pattern is derived by hand from the notes (the derivation is in the comment
//! beside it), never computed by the crate under test.

use crate::common::{bf16_int, f16_int, f32b, f64b, fill, get, op, put, run};
use amx_reference::{Chip, Field, State};

// Hand-encoded constants. f16: sign | exponent (bias 15) << 10 | fraction; bf16: the top half of
// the f32 pattern; f32: bias 127.
const F16_0_25: u64 = 0x3400; // 2^-2: exponent 13
const F16_1: u64 = 0x3C00; // exponent 15
const F16_1_5: u64 = 0x3E00; // 1 + 0.5: fraction 0x200
const F16_2: u64 = 0x4000; // exponent 16
const F16_3: u64 = 0x4200; // 1.5 · 2
const F16_3_25: u64 = 0x4280; // 1.625 · 2: fraction 0.625 · 1024 = 0x280
const BF16_0_25: u64 = 0x3E80; // 0x3E80_0000 = 0.25f32
const BF16_1_5: u64 = 0x3FC0;
const BF16_2: u64 = 0x4000;
const BF16_3_25: u64 = 0x4050; // 0x4050_0000 = 3.25f32

/// Lane-width codes (§2.3).
const LW_BF16: u64 = 0;
const LW_BF16_PAIR: u64 = 1;
const LW_F16: u64 = 2;
const LW_F16_PAIR: u64 = 3;
const LW_F32: u64 = 4;
const LW_F64: u64 = 7;

#[test]
fn operand_zero_is_f16_on_m1_and_bf16_on_m2() {
    // X[0].u16[0] = 0x3C00, Y[0].u16[0] = 0x4000, Z[0].u16[0] = 0x3C00, all else 0.
    let mut s = State::zeroed();
    put(&mut s.X[0], 2, 0, 0x3C00);
    put(&mut s.Y[0], 2, 0, 0x4000);
    put(&mut s.Z[0], 2, 0, 0x3C00);
    // M1, f16: 1.0 + 1.0 · 2.0 = 3.0 = 0x4200.
    let m1 = run(Chip::M1, Default::default(), &s);
    let mut want = s.clone();
    put(&mut want.Z[0], 2, 0, F16_3);
    assert_eq!(m1, want);
    // M2 / M4, bf16: 0x3C00 is 2^(0x78 − 127) = 2^-7 and 0x4000 is 2.0, so the result is
    // 2^-7 + 2^-7 · 2 = 3 · 2^-7 = 1.5 · 2^-6: exponent field 121 = 0x79, fraction 0x40:
    // (0x79 << 7) | 0x40 = 0x3CC0. The other 31 lanes are 0 + 0 · 0 = +0: unchanged.
    for chip in [Chip::M2, Chip::M4] {
        let got = run(chip, Default::default(), &s);
        let mut want = s.clone();
        put(&mut want.Z[0], 2, 0, 0x3CC0);
        assert_eq!(got, want, "{chip}");
    }
}

/// The same-width lane widths, once each, with x = 1.5, y = 2.0, z = 0.25 in every lane of
/// X[0], Y[0] and Z[3]: z + x·y = 3.25 everywhere in Z[3], and nothing else changes.
#[test]
fn every_same_width_lane_width() {
    let cases: [(Chip, u64, usize, [u64; 4]); 10] = [
        (Chip::M2, LW_BF16, 2, [BF16_1_5, BF16_2, BF16_0_25, BF16_3_25]),
        (Chip::M1, LW_BF16, 2, [F16_1_5, F16_2, F16_0_25, F16_3_25]), // M1: LW 0 is f16
        (Chip::M1, LW_BF16_PAIR, 2, [F16_1_5, F16_2, F16_0_25, F16_3_25]), // M1: LW 1 is f16
        (Chip::M2, LW_F16, 2, [F16_1_5, F16_2, F16_0_25, F16_3_25]),
        (Chip::M2, 5, 2, [F16_1_5, F16_2, F16_0_25, F16_3_25]),
        (Chip::M2, 6, 2, [F16_1_5, F16_2, F16_0_25, F16_3_25]),
        (Chip::M4, 15, 2, [F16_1_5, F16_2, F16_0_25, F16_3_25]),
        (Chip::M2, LW_F32, 4, [f32b(1.5), f32b(2.0), f32b(0.25), 0x4050_0000]),
        // f64 3.25 = 1.625 · 2: exponent 1024 = 0x400, fraction 0.625 · 2^52 = 0xA_0000_0000_0000.
        (Chip::M2, LW_F64, 8, [f64b(1.5), f64b(2.0), f64b(0.25), 0x400A_0000_0000_0000]),
        (Chip::M1, LW_F64, 8, [f64b(1.5), f64b(2.0), f64b(0.25), 0x400A_0000_0000_0000]),
    ];
    for (chip, lw, eb, [x, y, z, r]) in cases {
        let mut s = State::zeroed();
        fill(&mut s.X[0], eb, x);
        fill(&mut s.Y[0], eb, y);
        fill(&mut s.Z[3], eb, z);
        let got = run(chip, op(&[(Field::LW, lw), (Field::ZROW, 3)]), &s);
        let mut want = s.clone();
        fill(&mut want.Z[3], eb, r);
        assert_eq!(got, want, "{chip} LW {lw}");
    }
}

/// The pair modes (§2.3): X lane i = 1.0, Y lane i = i + 1, Z = 0, ZROW = 3 (bit 0 ignored: the
/// pair is rows 2 and 3). x·y + 0 = i + 1 exactly in f32, written to row `2 | (i & 1)`, element
/// `i >> 1`: row 2 holds 1, 3, 5, …, 31 and row 3 holds 2, 4, …, 32.
#[test]
fn the_pair_lane_widths() {
    for (chip, lw, one, int) in [
        (Chip::M2, LW_BF16_PAIR, 0x3F80, bf16_int as fn(u64) -> u64),
        (Chip::M2, LW_F16_PAIR, F16_1, f16_int as fn(u64) -> u64),
        (Chip::M1, LW_F16_PAIR, F16_1, f16_int as fn(u64) -> u64),
    ] {
        let mut s = State::zeroed();
        fill(&mut s.X[0], 2, one);
        for i in 0..32 {
            put(&mut s.Y[0], 2, i, int(i as u64 + 1));
        }
        let got = run(chip, op(&[(Field::LW, lw), (Field::ZROW, 3)]), &s);
        let mut want = s.clone();
        for k in 0..16 {
            put(&mut want.Z[2], 4, k, f32b((2 * k + 1) as f32));
            put(&mut want.Z[3], 4, k, f32b((2 * k + 2) as f32));
        }
        assert_eq!(got, want, "{chip} LW {lw}");
    }
}

/// Runs one instruction with lane i of X[0], Y[0], Z[0] set from `lanes[i]` (same-width modes)
/// and returns Z[0]'s lanes.
fn lanes(chip: Chip, lw: u64, alu: u64, eb: usize, lanes: &[[u64; 3]]) -> Vec<u64> {
    let mut s = State::zeroed();
    for (i, [x, y, z]) in lanes.iter().enumerate() {
        put(&mut s.X[0], eb, i, *x);
        put(&mut s.Y[0], eb, i, *y);
        put(&mut s.Z[0], eb, i, *z);
    }
    let t = run(chip, op(&[(Field::LW, lw), (Field::ALU, alu)]), &s);
    (0..lanes.len()).map(|i| get(&t.Z[0], eb, i)).collect()
}

/// The default NaN of every format (§2.8): FMA with an sNaN x, a quiet Inf · 0, a negative NaN z
/// with a payload, and Inf − Inf: each gives exactly the canonical positive quiet NaN.
#[test]
fn default_nan_in_every_format() {
    // (chip, LW, eb, one, inf, snan, negative NaN with payload, default NaN)
    type Case = (Chip, u64, usize, u64, u64, u64, u64, u64);
    let formats: [Case; 4] = [
        (Chip::M1, LW_F16, 2, F16_1, 0x7C00, 0x7C01, 0xFE05, 0x7E00),
        (Chip::M2, LW_BF16, 2, 0x3F80, 0x7F80, 0x7F81, 0xFFC5, 0x7FC0),
        (Chip::M2, LW_F32, 4, f32b(1.0), 0x7F80_0000, 0x7F80_0001, 0xFFC0_0005, 0x7FC0_0000),
        (Chip::M2, LW_F64, 8, f64b(1.0), 0x7FF0 << 48, (0x7FF0 << 48) | 1, (0xFFF8 << 48) | 5, 0x7FF8 << 48),
    ];
    for (chip, lw, eb, one, inf, snan, nnan, dnan) in formats {
        let neg_inf = inf | 1 << (8 * eb - 1);
        let cases = [[snan, one, one], [inf, 0, one], [one, one, nnan], [inf, one, neg_inf]];
        // Modes 0 and 1 (FMA, FMS), 10, 11, 12 (mul, z + x, z + y) where the chip has them, and
        // min/max (5, 7) with a NaN operand.
        assert_eq!(lanes(chip, lw, 0, eb, &cases), vec![dnan; 4], "FMA LW {lw}");
        // FMS negates x first: (−Inf)·1 + (+Inf) is the invalid sum.
        let fms_cases = [[snan, one, one], [inf, 0, one], [one, one, nnan], [inf, one, inf]];
        assert_eq!(lanes(chip, lw, 1, eb, &fms_cases), vec![dnan; 4], "FMS LW {lw}");
        let minmax = [[snan, 0, one], [one, 0, nnan], [nnan, 0, snan]];
        assert_eq!(lanes(chip, lw, 5, eb, &minmax), vec![dnan; 3], "min LW {lw}");
        assert_eq!(lanes(chip, lw, 7, eb, &minmax), vec![dnan; 3], "max LW {lw}");
        if chip >= Chip::M2 {
            assert_eq!(lanes(chip, lw, 10, eb, &[[snan, one, 0], [inf, 0, 0]]), vec![dnan; 2], "mul");
            assert_eq!(lanes(chip, lw, 11, eb, &[[nnan, 0, one], [inf, 0, neg_inf]]), vec![dnan; 2], "z+x");
            assert_eq!(lanes(chip, lw, 12, eb, &[[0, snan, one], [0, neg_inf, inf]]), vec![dnan; 2], "z+y");
        }
    }
    // The pair modes: a NaN input widens to 0x7FC0_0000 (§2.3), and the f32 result is the f32
    // default NaN; lane 0 (x = sNaN) writes row 0 element 0, lane 1 (Inf · 0) row 1 element 0.
    for (chip, lw, snan, inf) in
        [(Chip::M2, LW_F16_PAIR, 0x7C01, 0x7C00), (Chip::M2, LW_BF16_PAIR, 0xFF81, 0x7F80)]
    {
        let mut s = State::zeroed();
        put(&mut s.X[0], 2, 0, snan);
        put(&mut s.Y[0], 2, 0, F16_1);
        put(&mut s.X[0], 2, 1, inf);
        let t = run(chip, op(&[(Field::LW, lw)]), &s);
        assert_eq!((get(&t.Z[0], 4, 0), get(&t.Z[1], 4, 0)), (0x7FC0_0000, 0x7FC0_0000), "LW {lw}");
    }
}

/// Mode 1 is fma(−x, y, z): x is negated before the multiply (§2.2, commit f3582ce).
#[test]
fn fms_negates_before_the_multiply() {
    // f32: lane 0: 1 − 2·3 = −5 = 0xC0A0_0000 (5 = 1.25 · 4: exponent 129, fraction 0x20_0000).
    // lane 1: x = +Inf, y = 0: (−Inf)·0 is invalid, the default NaN is positive 0x7FC0_0000.
    // Negating after the multiply (fnmul) would give −(NaN) = 0xFFC0_0000 here, the only
    // difference the notes record.
    // lane 2: 1 − 1·1 = +0 (exact cancellation of non-zero terms is +0 under RNE).
    // lane 3: x = +0, y = 1, z = −0: (−0)·1 + (−0) = −0 (both terms negative).
    let got = lanes(
        Chip::M2,
        LW_F32,
        1,
        4,
        &[
            [f32b(2.0), f32b(3.0), f32b(1.0)],
            [0x7F80_0000, 0, f32b(1.0)],
            [f32b(1.0), f32b(1.0), f32b(1.0)],
            [0, f32b(1.0), 0x8000_0000],
        ],
    );
    assert_eq!(got, vec![0xC0A0_0000, 0x7FC0_0000, 0, 0x8000_0000]);
    // The same −5 in f16 (0xC500: 5 = 1.25 · 4, exponent 17, fraction 0x100), bf16 (0xC0A0) and
    // f64 (0xC014_0000_0000_0000), and the positive default NaN in each.
    let f16 = lanes(Chip::M1, LW_F16, 1, 2, &[[F16_2, F16_3, F16_1], [0x7C00, 0, F16_1]]);
    assert_eq!(f16, vec![0xC500, 0x7E00]);
    let bf16 = lanes(Chip::M2, LW_BF16, 1, 2, &[[BF16_2, 0x4040, 0x3F80], [0x7F80, 0, 0x3F80]]);
    assert_eq!(bf16, vec![0xC0A0, 0x7FC0]);
    let f64 =
        lanes(Chip::M2, LW_F64, 1, 8, &[[f64b(2.0), f64b(3.0), f64b(1.0)], [0x7FF0 << 48, 0, f64b(1.0)]]);
    assert_eq!(f64, vec![0xC014_0000_0000_0000, 0x7FF8_0000_0000_0000]);
}

/// min/max are Arm FMIN/FMAX with −0 < +0 and the inputs returned bit for bit (§2.8).
#[test]
fn min_and_max_order_signed_zeros() {
    // (x, z): min(+0, −0) = −0, min(−0, +0) = −0, max of either = +0; min(−1, 2) = −1,
    // max = 2; f16 subnormals −2^-24 (0x8001) and −2^-23 (0x8002): min is the more negative.
    let f32_lanes = [
        [0, 0, 0x8000_0000],
        [0x8000_0000, 0, 0],
        [f32b(-1.0), 0, f32b(2.0)],
        [0x0000_0001, 0, 0x8000_0001], // +min subnormal vs −min subnormal
    ];
    assert_eq!(
        lanes(Chip::M2, LW_F32, 5, 4, &f32_lanes),
        vec![0x8000_0000, 0x8000_0000, f32b(-1.0), 0x8000_0001]
    );
    assert_eq!(lanes(Chip::M2, LW_F32, 7, 4, &f32_lanes), vec![0, 0, f32b(2.0), 0x0000_0001]);
    let f16_lanes = [[0x8001, 0, 0x8002], [0x0000, 0, 0x8000], [0x7C00, 0, 0x7BFF]];
    assert_eq!(lanes(Chip::M1, LW_F16, 5, 2, &f16_lanes), vec![0x8002, 0x8000, 0x7BFF]);
    assert_eq!(lanes(Chip::M1, LW_F16, 7, 2, &f16_lanes), vec![0x8001, 0x0000, 0x7C00]);
    let bf16_lanes = [[0x8000, 0, 0x0000], [0xFF80, 0, 0xFF7F]]; // −Inf vs −max finite
    assert_eq!(lanes(Chip::M2, LW_BF16, 5, 2, &bf16_lanes), vec![0x8000, 0xFF80]);
    assert_eq!(lanes(Chip::M2, LW_BF16, 7, 2, &bf16_lanes), vec![0x0000, 0xFF7F]);
    let f64_lanes = [[0x8000_0000_0000_0000, 0, 0]];
    assert_eq!(lanes(Chip::M2, LW_F64, 5, 8, &f64_lanes), vec![0x8000_0000_0000_0000]);
    assert_eq!(lanes(Chip::M2, LW_F64, 7, 8, &f64_lanes), vec![0]);
}

/// Mode 4, `x ≤ 0 ? +0 : y`: same-width modes pass y's raw bits (sNaN, sign and payload kept);
/// x ≤ 0 is true for ±0, negatives (subnormal and −Inf included) and false for every NaN (§2.2,
/// §2.8). Z starts at 0x1234 so that a written +0 shows.
#[test]
fn select_passes_y_raw_in_same_width_modes() {
    let z = 0x1234;
    let f16 = [
        [F16_1, 0x7C01, z], // x > 0: y = sNaN, kept
        [F16_1, 0xFE05, z], // y = negative NaN with payload, kept
        [0x8000, F16_1, z], // x = −0: +0
        [0x7E00, F16_2, z], // x = NaN: compare false, y
        [0xFE00, F16_2, z], // x = −NaN: compare false, y
        [0x8001, F16_2, z], // x = −min subnormal: +0
        [0xFC00, F16_2, z], // x = −Inf: +0
        [0x0001, F16_2, z], // x = +min subnormal: y
        [0x0000, F16_2, z], // x = +0: +0
    ];
    let want = vec![0x7C01, 0xFE05, 0, F16_2, F16_2, 0, 0, F16_2, 0];
    assert_eq!(lanes(Chip::M1, LW_F16, 4, 2, &f16), want);
    assert_eq!(
        lanes(Chip::M2, LW_BF16, 4, 2, &[[0x3F80, 0x7F81, z], [0xFF81, 0xFF81, z], [0x8080, 1, z]]),
        vec![0x7F81, 0xFF81, 0]
    );
    assert_eq!(
        lanes(Chip::M2, LW_F32, 4, 4, &[[f32b(1.0), 0xFF80_0001, z], [f32b(-0.5), 7, z]]),
        vec![0xFF80_0001, 0]
    );
    assert_eq!(
        lanes(Chip::M2, LW_F64, 4, 8, &[[f64b(1.0), (0x7FF0 << 48) | 1, z]]),
        vec![(0x7FF0 << 48) | 1]
    );
}

/// In the pair modes y is widened first, so a NaN y becomes 0x7FC0_0000 (§2.8).
#[test]
fn select_widens_y_in_pair_modes() {
    // Lane 0: x = 1, y = f16 sNaN → row 0 element 0 = 0x7FC0_0000. Lane 1: x = 1, y = 1.0 →
    // row 1 element 0 = 1.0f32. Lane 2: x = −1 → row 0 element 1 = +0 (Z starts non-zero).
    let mut s = State::zeroed();
    fill(&mut s.Z[0], 4, 0x1234);
    fill(&mut s.Z[1], 4, 0x1234);
    for (i, (x, y)) in [(F16_1, 0x7C01), (F16_1, F16_1), (0xBC00, F16_1)].into_iter().enumerate() {
        put(&mut s.X[0], 2, i, x);
        put(&mut s.Y[0], 2, i, y);
    }
    let t = run(Chip::M2, op(&[(Field::LW, LW_F16_PAIR), (Field::ALU, 4)]), &s);
    assert_eq!([get(&t.Z[0], 4, 0), get(&t.Z[1], 4, 0), get(&t.Z[0], 4, 1)], [0x7FC0_0000, f32b(1.0), 0]);
}

/// §5's example: x = 0x3f81, y = 0x3fc0, z = 0x8001 in bf16 (M2, LW 0). x·y = (1 + 2^-7)·1.5 =
/// 1.5 + 1.5·2^-7, exactly the midpoint between 0x3fc1 and 0x3fc2; z = −2^-133 puts the exact sum
/// just below it, so the single rounding gives 0x3fc1 (an f32 or f64 FMA followed by rounding to
/// bf16 gives 0x3fc2).
#[test]
fn bf16_double_rounding_example() {
    assert_eq!(lanes(Chip::M2, LW_BF16, 0, 2, &[[0x3f81, 0x3fc0, 0x8001]]), vec![0x3fc1]);
    // With z = +2^-133 the sum is above the midpoint: 0x3fc2.
    assert_eq!(lanes(Chip::M2, LW_BF16, 0, 2, &[[0x3f81, 0x3fc0, 0x0001]]), vec![0x3fc2]);
}

/// Modes 10, 11, 12 (M2+) and their M1 no-op.
#[test]
fn mul_and_adds() {
    // f32: x = 3, y = 5, z = 7: 10 → 15, 11 → 10, 12 → 12.
    let l = [[f32b(3.0), f32b(5.0), f32b(7.0)]];
    assert_eq!(lanes(Chip::M2, LW_F32, 10, 4, &l), vec![f32b(15.0)]);
    assert_eq!(lanes(Chip::M2, LW_F32, 11, 4, &l), vec![f32b(10.0)]);
    assert_eq!(lanes(Chip::M2, LW_F32, 12, 4, &l), vec![f32b(12.0)]);
    // On M1 they are no-ops: z stays 7.
    for alu in [10, 11, 12] {
        assert_eq!(lanes(Chip::M1, LW_F32, alu, 4, &l), vec![f32b(7.0)]);
    }
    // bf16 mul of −0 · 1 = −0 (the emulator's fma(x, y, −0) keeps the product's sign), and
    // z + x with z = −0, x = +0 is +0.
    assert_eq!(lanes(Chip::M2, LW_BF16, 10, 2, &[[0x8000, 0x3F80, 0x1234]]), vec![0x8000]);
    assert_eq!(lanes(Chip::M2, LW_BF16, 11, 2, &[[0x0000, 0, 0x8000]]), vec![0x0000]);
    // f16 multiply that rounds: (1 + 2^-10)² = 1 + 2^-9 + 2^-20 → 1 + 2^-9 = 0x3C02.
    assert_eq!(lanes(Chip::M2, LW_F16, 10, 2, &[[0x3C01, 0x3C01, 0]]), vec![0x3C02]);
}
