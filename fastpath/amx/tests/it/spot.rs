//! Hand-derived spot checks of the fast model: each expected value is worked out in the comment
//! beside it from the notes (`amx-vecfp.md`), never computed by the code under test.

use amx_fastpath::vecfp;
use amx_reference::{Chip, Field, Operand, State};

fn op(fields: &[(Field, u64)]) -> Operand {
    Operand::from_fields(fields).expect("fields fit")
}

fn put<const N: usize>(reg: &mut [u8; 64], lanes: [u64; N]) {
    let eb = 64 / N;
    for (i, v) in lanes.iter().enumerate() {
        reg[i * eb..(i + 1) * eb].copy_from_slice(&v.to_le_bytes()[..eb]);
    }
}

fn get<const N: usize>(reg: &[u8; 64]) -> [u64; N] {
    let eb = 64 / N;
    std::array::from_fn(|i| {
        let mut b = [0u8; 8];
        b[..eb].copy_from_slice(&reg[i * eb..(i + 1) * eb]);
        u64::from_le_bytes(b)
    })
}

fn f32s(v: [f32; 16]) -> [u64; 16] {
    v.map(|x| x.to_bits() as u64)
}

fn f64s(v: [f64; 8]) -> [u64; 8] {
    v.map(f64::to_bits)
}

/// §1.2: operand 0 is an f16 FMA into z[0] on M1 and a bf16 FMA on M2+. 0x4000 is 2.0 in both
/// formats; 2·2 + 0 = 4, which is 0x4400 in f16 (exponent 2 + 15 = 17) and 0x4080 in bf16
/// (exponent 2 + 127 = 129).
#[test]
fn operand_zero_per_chip() {
    for (chip, want) in [(Chip::M1, 0x4400), (Chip::M2, 0x4080), (Chip::M4, 0x4080)] {
        let mut s = State::zeroed();
        put(&mut s.X[0], [0x4000u64; 32]);
        put(&mut s.Y[0], [0x4000u64; 32]);
        vecfp(&mut s, chip, Operand::ZERO);
        assert_eq!(get::<32>(&s.Z[0]), [want; 32], "{chip}");
        assert!(s.Z[1..].iter().all(|r| *r == [0; 64]));
    }
}

/// §2.2: FMS is z − x·y (10 − 2·3 = 4); §2.8: Inf·0 + 1 is the default f64 NaN, and
/// min(+0, −0) = −0, max(−0, +0) = +0.
#[test]
fn fms_default_nan_and_signed_zero_min_max() {
    let mut s = State::zeroed();
    put(&mut s.X[0], f32s([2.0; 16]));
    put(&mut s.Y[0], f32s([3.0; 16]));
    put(&mut s.Z[0], f32s([10.0; 16]));
    vecfp(&mut s, Chip::M1, op(&[(Field::LW, 4), (Field::ALU, 1)]));
    assert_eq!(get::<16>(&s.Z[0]), f32s([4.0; 16]));

    let mut s = State::zeroed();
    put(&mut s.X[0], f64s([f64::INFINITY; 8]));
    put(&mut s.Z[0], f64s([1.0; 8]));
    vecfp(&mut s, Chip::M2, op(&[(Field::LW, 7)])); // Y = +0
    assert_eq!(get::<8>(&s.Z[0]), [0x7FF8_0000_0000_0000; 8]);

    let mut s = State::zeroed();
    put(&mut s.X[0], f64s([0.0; 8]));
    put(&mut s.Z[0], f64s([-0.0; 8]));
    put(&mut s.Z[1], f64s([-0.0; 8]));
    vecfp(&mut s, Chip::M2, op(&[(Field::LW, 7), (Field::ALU, 5), (Field::ZROW, 0)]));
    vecfp(&mut s, Chip::M2, op(&[(Field::LW, 7), (Field::ALU, 7), (Field::ZROW, 1)]));
    assert_eq!(get::<8>(&s.Z[0]), [0x8000_0000_0000_0000; 8]); // min(+0, −0) = −0
    assert_eq!(get::<8>(&s.Z[1]), [0; 8]); // max(+0, −0) = +0
}

/// §2.7's shuffle examples, seen through mode 11 (z + x with z = +0 is x): EC = 8, S1 gives
/// lanes 0 4 1 5 2 6 3 7 and S2 gives 0 2 4 6 1 3 5 7; EC = 16, S2 gives 0 4 8 12 1 5 9 13 ...
#[test]
fn shuffle_examples() {
    let mut s = State::zeroed();
    put(&mut s.X[0], f64s([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]));
    vecfp(&mut s, Chip::M2, op(&[(Field::LW, 7), (Field::ALU, 11), (Field::XSHUF, 1), (Field::ZROW, 0)]));
    vecfp(&mut s, Chip::M2, op(&[(Field::LW, 7), (Field::ALU, 11), (Field::XSHUF, 2), (Field::ZROW, 1)]));
    vecfp(&mut s, Chip::M2, op(&[(Field::LW, 7), (Field::ALU, 11), (Field::XSHUF, 3), (Field::ZROW, 2)]));
    assert_eq!(get::<8>(&s.Z[0]), f64s([1.0, 5.0, 2.0, 6.0, 3.0, 7.0, 4.0, 8.0]));
    assert_eq!(get::<8>(&s.Z[1]), f64s([1.0, 3.0, 5.0, 7.0, 2.0, 4.0, 6.0, 8.0]));
    assert_eq!(get::<8>(&s.Z[2]), f64s([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])); // S3 = identity for f64

    let mut s = State::zeroed();
    put(&mut s.Y[0], f32s(std::array::from_fn(|i| i as f32)));
    vecfp(&mut s, Chip::M2, op(&[(Field::LW, 4), (Field::ALU, 12), (Field::YSHUF, 2)]));
    let want = [0.0, 4.0, 8.0, 12.0, 1.0, 5.0, 9.0, 13.0, 2.0, 6.0, 10.0, 14.0, 3.0, 7.0, 11.0, 15.0];
    assert_eq!(get::<16>(&s.Z[0]), f32s(want));
}

/// §2.4: mode 1 broadcasts Y lane N mod EC (N = 17 with 16 lanes is lane 1); mode 3 with N = 3
/// enables the last 3 of 8 lanes; mode 0 N = 3 writes +0 to every lane.
#[test]
fn broadcast_and_lane_enable() {
    let mut s = State::zeroed();
    put(&mut s.Y[0], f32s(std::array::from_fn(|i| 100.0 + i as f32)));
    vecfp(&mut s, Chip::M2, op(&[(Field::LW, 4), (Field::ALU, 12), (Field::WM_MODE, 1), (Field::WM_N, 17)]));
    assert_eq!(get::<16>(&s.Z[0]), f32s([101.0; 16]));

    let mut s = State::zeroed();
    put(&mut s.X[0], f64s([1.0; 8]));
    put(&mut s.Y[0], f64s([2.0; 8]));
    put(&mut s.Z[0], f64s([7.0; 8]));
    vecfp(&mut s, Chip::M1, op(&[(Field::LW, 7), (Field::WM_MODE, 3), (Field::WM_N, 3)]));
    assert_eq!(get::<8>(&s.Z[0]), f64s([7.0, 7.0, 7.0, 7.0, 7.0, 9.0, 9.0, 9.0]));
    vecfp(&mut s, Chip::M1, op(&[(Field::LW, 7), (Field::WM_MODE, 0), (Field::WM_N, 3)]));
    assert_eq!(get::<8>(&s.Z[0]), [0; 8]);
}

/// §2.7: a window at byte 504 of X takes X[7]'s last two f32 lanes, then X[0]'s first 14. An
/// f16 window at byte 1 straddles elements: with byte k of the pool holding k mod 256, lane k
/// is bytes 2k+1, 2k+2, i.e. the f16 pattern ((2k+2) << 8) | (2k+1) (all positive finite
/// values, so z + x with z = +0 gives them back exactly).
#[test]
fn windows_wrap_and_straddle() {
    let mut s = State::zeroed();
    put(&mut s.X[7], f32s(std::array::from_fn(|i| 70.0 + i as f32)));
    put(&mut s.X[0], f32s(std::array::from_fn(|i| i as f32)));
    vecfp(&mut s, Chip::M2, op(&[(Field::LW, 4), (Field::ALU, 11), (Field::XOFF, 504)]));
    let want: [f32; 16] = std::array::from_fn(|i| if i < 2 { 84.0 + i as f32 } else { (i - 2) as f32 });
    assert_eq!(get::<16>(&s.Z[0]), f32s(want));

    let mut s = State::zeroed();
    for (k, b) in s.X.as_flattened_mut().iter_mut().enumerate() {
        *b = k as u8;
    }
    vecfp(&mut s, Chip::M2, op(&[(Field::LW, 2), (Field::ALU, 11), (Field::XOFF, 1)]));
    let want: [u64; 32] = std::array::from_fn(|k| (((2 * k + 2) as u64 & 0xFF) << 8) | (2 * k + 1) as u64);
    assert_eq!(get::<32>(&s.Z[0]), want);
}

/// §2.3: f16 → f32 pair mode with ZROW = 5 uses rows 4 and 5: X lane i (the f16 of i + 1,
/// exponent e = ⌊log2(i + 1)⌋ and fraction (i + 1 − 2^e)·2^(10−e)) times 1.0 plus 0 goes to row
/// 4 + (i & 1), f32 element i >> 1.
#[test]
fn pair_placement() {
    let f16_of = |v: u64| {
        let e = 63 - v.leading_zeros() as u64;
        ((e + 15) << 10) | ((v - (1 << e)) << (10 - e))
    };
    assert_eq!(f16_of(1), 0x3C00);
    assert_eq!(f16_of(3), 0x4200);
    let mut s = State::zeroed();
    put(&mut s.X[0], std::array::from_fn::<u64, 32, _>(|i| f16_of(i as u64 + 1)));
    put(&mut s.Y[0], [0x3C00u64; 32]);
    vecfp(&mut s, Chip::M1, op(&[(Field::LW, 3), (Field::ZROW, 5)]));
    let even: [f32; 16] = std::array::from_fn(|k| (2 * k + 1) as f32);
    let odd: [f32; 16] = std::array::from_fn(|k| (2 * k + 2) as f32);
    assert_eq!(get::<16>(&s.Z[4]), f32s(even));
    assert_eq!(get::<16>(&s.Z[5]), f32s(odd));
    assert!(s.Z.iter().enumerate().all(|(r, row)| r == 4 || r == 5 || *row == [0; 64]));
}

/// §2.5 and §2.6: two iterations with XOFF = 0x47. On M2 the windows start at bytes 71 and 135;
/// on M4 the offset is aligned to 64, so the windows are X[1] and X[2] exactly. Rows r and
/// r + 32 with ZROW = 3 (2 iterations: r = 3 mod 32).
#[test]
fn m4_aligns_multi_vector_offsets() {
    let mut s = State::zeroed();
    for r in 0..8 {
        put(&mut s.X[r], f32s(std::array::from_fn(|i| (16 * r + i) as f32)));
    }
    let o = op(&[(Field::LW, 4), (Field::ALU, 11), (Field::MULTI, 1), (Field::ZROW, 3), (Field::XOFF, 0x47)]);
    let mut m4 = s.clone();
    vecfp(&mut m4, Chip::M4, o);
    assert_eq!(get::<16>(&m4.Z[3]), f32s(std::array::from_fn(|i| (16 + i) as f32)));
    assert_eq!(get::<16>(&m4.Z[35]), f32s(std::array::from_fn(|i| (32 + i) as f32)));
    // On M2, byte 71 is f32 lane 17.75 of the pool: lane i of the first window is bytes
    // 71 + 4i.., straddling pool lanes 17 + i and 18 + i; compare with the M4 result only.
    let mut m2 = s.clone();
    vecfp(&mut m2, Chip::M2, o);
    assert_ne!(m2.Z[3], m4.Z[3]);
}

/// §2.7: f64 with 4-bit indices: index k reads table lane k mod 8. X indexed, table X[3] with
/// lanes 10 + k, indices 9 0 15 7 8 1 2 3 in the first 4 bytes of X[0] (LSB first: byte 0 =
/// 0x09, byte 1 = 0x7F, byte 2 = 0x18, byte 3 = 0x32), Y = 1.0 at byte 64, z = 0: z + x·1 = x.
#[test]
fn indexed_f64_wraps_4_bit_indices() {
    let mut s = State::zeroed();
    s.X[0][..4].copy_from_slice(&[0x09, 0x7F, 0x18, 0x32]);
    put(&mut s.X[3], f64s(std::array::from_fn(|k| 10.0 + k as f64)));
    put(&mut s.Y[1], f64s([1.0; 8]));
    let o = op(&[(Field::LW, 7), (Field::IDX, 1), (Field::TBL, 3), (Field::IB4, 1), (Field::YOFF, 64)]);
    vecfp(&mut s, Chip::M2, o);
    assert_eq!(get::<8>(&s.Z[0]), f64s([11.0, 10.0, 17.0, 17.0, 10.0, 11.0, 12.0, 13.0]));
}

/// §2.5: BMODE 6 uses X lane 0 of one register for every lane and iteration; BMODE 7 Y lane 0.
/// Four iterations (FOUR = 1, ZROW = 32 + 2): rows 2, 18, 34, 50.
#[test]
fn bmode_lane_zero_broadcasts() {
    let mut s = State::zeroed();
    for r in 0..8 {
        put(&mut s.X[r], f32s(std::array::from_fn(|i| (100 * r + i) as f32)));
        put(&mut s.Y[r], f32s([1.0; 16]));
    }
    let o = op(&[
        (Field::LW, 4),
        (Field::MULTI, 1),
        (Field::BMODE, 6),
        (Field::FOUR, 1),
        (Field::ZROW, 34),
        (Field::XOFF, 128),
    ]);
    vecfp(&mut s, Chip::M2, o);
    for r in [2, 18, 34, 50] {
        assert_eq!(get::<16>(&s.Z[r]), f32s([200.0; 16]), "row {r}"); // X[2] lane 0 = 200
    }
    let mut s2 = State::zeroed();
    for r in 0..8 {
        put(&mut s2.X[r], f32s([1.0; 16]));
        put(&mut s2.Y[r], f32s(std::array::from_fn(|i| (100 * r + i + 1) as f32)));
    }
    let o = op(&[(Field::LW, 4), (Field::MULTI, 1), (Field::BMODE, 7), (Field::ZROW, 1), (Field::YOFF, 192)]);
    vecfp(&mut s2, Chip::M2, o);
    assert_eq!(get::<16>(&s2.Z[1]), f32s([301.0; 16])); // Y[3] lane 0 = 301
    assert_eq!(get::<16>(&s2.Z[33]), f32s([301.0; 16]));
}

/// §2.8 and §5: the bf16 double-rounding example (x = 0x3f81, y = 0x3fc0, z = 0x8001: the
/// product 1.5 + 2^-7 + 2^-8 is the midpoint of 0x3FC1 and 0x3FC2 and the tiny negative z
/// decides: 0x3FC1); mode 4 passes y's raw bits (an sNaN stays 0x7C01 in f16) but the pair
/// mode's widening turns it into 0x7FC0_0000.
#[test]
fn bf16_rounding_and_select_pass_through() {
    let mut s = State::zeroed();
    put(&mut s.X[0], [0x3F81u64; 32]);
    put(&mut s.Y[0], [0x3FC0u64; 32]);
    put(&mut s.Z[0], [0x8001u64; 32]);
    vecfp(&mut s, Chip::M2, op(&[(Field::LW, 0)]));
    assert_eq!(get::<32>(&s.Z[0]), [0x3FC1; 32]);

    let mut s = State::zeroed();
    put(&mut s.X[0], [0x3C00u64; 32]); // x = 1 > 0: the result is y
    put(&mut s.Y[0], [0x7C01u64; 32]);
    vecfp(&mut s, Chip::M2, op(&[(Field::LW, 2), (Field::ALU, 4), (Field::ZROW, 0)]));
    vecfp(&mut s, Chip::M2, op(&[(Field::LW, 3), (Field::ALU, 4), (Field::ZROW, 2)]));
    assert_eq!(get::<32>(&s.Z[0]), [0x7C01; 32]);
    assert_eq!(get::<16>(&s.Z[2]), [0x7FC0_0000; 16]);
    assert_eq!(get::<16>(&s.Z[3]), [0x7FC0_0000; 16]);
}
