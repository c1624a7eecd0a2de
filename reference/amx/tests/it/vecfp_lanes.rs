//! `vecfp` end to end, for where data comes from and goes: the shuffles of §2.7's examples,
//! circular windows, every lane-enable / broadcast mode of §2.4, every BMODE of §2.5 with two and
//! four iterations, M4's offset masking (§2.6), and indexed loads (§2.7).
//!
//! Expected Z rows are written out by hand from the notes' tables (the derivation is beside
//! each), never computed by the crate under test. Two ALU modes serve as probes: mode 4 with
//! x > 0 copies y's raw bits, and on M2 mode 11 (z + x) with z = 0 copies x for positive x.

use crate::common::{self, f32b, f64b, fill, get, op, put, run};
use amx_reference::vecfp::fetch::shuffle;
use amx_reference::vecfp::lanes::m4_alignment;
use amx_reference::{Chip, Field, State};

const LW_F16: u64 = 2;
const LW_F16_PAIR: u64 = 3;
const LW_F32: u64 = 4;
const LW_F64: u64 = 7;
const ALU_SELECT: u64 = 4;
const ALU_ADDX: u64 = 11;
const ALU_ADDY: u64 = 12;

/// The lanes of Z row `r` as `eb`-byte elements.
fn row(s: &State, r: usize, eb: usize) -> Vec<u64> {
    (0..64 / eb).map(|i| get(&s.Z[r], eb, i)).collect()
}

/// A register whose lane i (of `eb` bytes) holds `f(i)`.
fn reg(eb: usize, f: impl Fn(usize) -> u64) -> [u8; 64] {
    let mut r = [0; 64];
    for i in 0..64 / eb {
        put(&mut r, eb, i, f(i));
    }
    r
}

// ---- Shuffles (§2.7) ---------------------------------------------------------------------------

/// The permutation a shuffle applies, read back from lane tags.
fn perm(s: u8, eb: usize) -> Vec<u64> {
    let v = reg(eb, |i| i as u64);
    let out = shuffle(&v, s, eb);
    (0..64 / eb).map(|i| get(&out, eb, i)).collect()
}

#[test]
fn shuffles_of_the_notes_examples() {
    // EC = 8: S1 "0 4 1 5 2 6 3 7", S2 "0 2 4 6 1 3 5 7", S3 the identity (so is S0).
    assert_eq!(perm(1, 8), [0, 4, 1, 5, 2, 6, 3, 7]);
    assert_eq!(perm(2, 8), [0, 2, 4, 6, 1, 3, 5, 7]);
    assert_eq!(perm(3, 8), [0, 1, 2, 3, 4, 5, 6, 7]);
    assert_eq!(perm(0, 8), [0, 1, 2, 3, 4, 5, 6, 7]);
    // EC = 16: S2 "0 4 8 12 1 5 9 13 …", S3 "0 2 4 … 14 1 3 … 15"; S1 zips the halves.
    assert_eq!(perm(2, 4), [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15]);
    assert_eq!(perm(3, 4), [0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15]);
    assert_eq!(perm(1, 4), [0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15]);
    // EC = 32: S3 "0 4 8 … 28 1 5 … 29 2 … 3 … 31"; S1 zips the halves; S2 interleaves quarters.
    let s3: Vec<u64> = (0..4).flat_map(|q| (0..8).map(move |k| 4 * k + q)).collect();
    assert_eq!(perm(3, 2), s3);
    let s1: Vec<u64> = (0..16).flat_map(|q| [q, q + 16]).collect();
    assert_eq!(perm(1, 2), s1);
    let s2: Vec<u64> = (0..8).flat_map(|q| [q, q + 8, q + 16, q + 24]).collect();
    assert_eq!(perm(2, 2), s2);
    // eb = 1 (the notes checked it too): S1 on 64 bytes zips the 32-byte halves.
    let b1: Vec<u64> = (0..32).flat_map(|q| [q, q + 32]).collect();
    assert_eq!(perm(1, 1), b1);
}

#[test]
fn shuffles_end_to_end() {
    // Y shuffle through mode 4 (x = 1.0 > 0 copies y): Z lane j = Y lane perm[j].
    // f32, YSHUF = 2: [0 4 8 12 1 5 9 13 2 6 10 14 3 7 11 15], Y lane i = 0x100 + i.
    let mut s = State::zeroed();
    fill(&mut s.X[0], 4, f32b(1.0));
    s.Y[0] = reg(4, |i| 0x100 + i as u64);
    let t = run(Chip::M2, op(&[(Field::LW, LW_F32), (Field::ALU, ALU_SELECT), (Field::YSHUF, 2)]), &s);
    let want: Vec<u64> =
        [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15].iter().map(|i| 0x100 + i).collect();
    assert_eq!(row(&t, 0, 4), want);
    // X shuffle through mode 11 (z = 0: z + x = x): f64, XSHUF = 1: [0 4 1 5 2 6 3 7], X lane i =
    // 1 + i. XSHUF = 3 on f64 is the identity.
    let mut s = State::zeroed();
    s.X[0] = reg(8, |i| f64b(1.0 + i as f64));
    let t = run(Chip::M2, op(&[(Field::LW, LW_F64), (Field::ALU, ALU_ADDX), (Field::XSHUF, 1)]), &s);
    assert_eq!(row(&t, 0, 8), [1.0, 5.0, 2.0, 6.0, 3.0, 7.0, 4.0, 8.0].map(f64b));
    let t = run(Chip::M2, op(&[(Field::LW, LW_F64), (Field::ALU, ALU_ADDX), (Field::XSHUF, 3)]), &s);
    assert_eq!(row(&t, 0, 8), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0].map(f64b));
    // In the pair modes the shuffle works on 2-byte elements (§2.7): f16 → f32, YSHUF = 3 on
    // EC = 32: y lane j = in[perm[j]] with perm = 0 4 8 … 28 1 5 …; Y lane i = f16(i + 1) and
    // x = 1.0, so Z lane j = perm[j] + 1 in f32 at row j & 1, element j >> 1.
    let mut s = State::zeroed();
    fill(&mut s.X[0], 2, 0x3C00);
    s.Y[0] = reg(2, |i| common::f16_int(i as u64 + 1));
    let t = run(Chip::M1, op(&[(Field::LW, LW_F16_PAIR), (Field::YSHUF, 3)]), &s);
    let p: Vec<u64> = (0..4).flat_map(|q| (0..8).map(move |k| 4 * k + q)).collect();
    for j in 0..32 {
        assert_eq!(get(&t.Z[j & 1], 4, j >> 1), f32b((p[j] + 1) as f32), "lane {j}");
    }
}

// ---- Windows (§2.7) ----------------------------------------------------------------------------

/// The pool byte `b` of a recognisable fill: `(b · 7 + 3) mod 256`.
fn pool_byte(b: usize) -> u8 {
    (b * 7 + 3) as u8
}

fn filled_pool() -> [[u8; 64]; 8] {
    std::array::from_fn(|r| std::array::from_fn(|k| pool_byte(64 * r + k)))
}

#[test]
fn windows_wrap_past_byte_511() {
    // Mode 4 with x = 1.0 copies the raw Y window: Z[0] byte k = Y pool byte (YOFF + k) mod 512.
    // YOFF = 500 (f32): lanes 0..2 come from bytes 500..511 of Y[7], lane 3 on from Y[0] byte 0.
    // YOFF = 511 (f16): lane 0 straddles Y[7] byte 63 and Y[0] byte 0.
    for (lw, eb, yoff) in [(LW_F32, 4, 500), (LW_F16, 2, 511), (LW_F64, 8, 0x1C0)] {
        let mut s = State::zeroed();
        fill(&mut s.X[0], eb, [0, 0, 0x3C00, 0, f32b(1.0), 0, 0, 0, f64b(1.0)][eb]);
        s.Y = filled_pool();
        let t = run(Chip::M2, op(&[(Field::LW, lw), (Field::ALU, ALU_SELECT), (Field::YOFF, yoff)]), &s);
        let want: Vec<u8> = (0..64).map(|k| pool_byte((yoff as usize + k) % 512)).collect();
        assert_eq!(t.Z[0].to_vec(), want, "LW {lw} YOFF {yoff}");
    }
    // X window at XOFF = 504 (f64): lane 0 = X[7] lane 7, lanes 1..7 = X[0] lanes 0..6; read
    // through mode 11 (z = 0: z + x = x).
    let mut s = State::zeroed();
    s.X[7] = reg(8, |i| f64b(100.0 + i as f64));
    s.X[0] = reg(8, |i| f64b(1.0 + i as f64));
    let t = run(Chip::M2, op(&[(Field::LW, LW_F64), (Field::ALU, ALU_ADDX), (Field::XOFF, 504)]), &s);
    assert_eq!(row(&t, 0, 8), [107.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0].map(f64b));
}

// ---- Lane enable and broadcast, bit 31 = 0 (§2.4) ----------------------------------------------

/// f32 FMA with x = 2.0, y lane i = i + 1, z = 100 in every lane: an enabled lane i becomes
/// 100 + 2(i + 1) = 102 + 2i, a disabled lane keeps 100. Returns Z[0] as values.
fn enable(chip: Chip, lw: u64, alu: u64, mode: u64, n: u64, yshuf: u64) -> Vec<f64> {
    type Codec = (usize, fn(f64) -> u64, fn(u64) -> f64);
    let (eb, to_bits, from_bits): Codec = match lw {
        LW_F32 => (4, |v| f32b(v as f32), |b| f32::from_bits(b as u32) as f64),
        _ => (8, f64b, f64::from_bits),
    };
    let mut s = State::zeroed();
    fill(&mut s.X[0], eb, to_bits(2.0));
    s.Y[0] = reg(eb, |i| to_bits(i as f64 + 1.0));
    fill(&mut s.Z[0], eb, to_bits(100.0));
    let o = op(&[
        (Field::LW, lw),
        (Field::ALU, alu),
        (Field::WM_MODE, mode),
        (Field::WM_N, n),
        (Field::YSHUF, yshuf),
    ]);
    let t = run(chip, o, &s);
    (0..64 / eb).map(|i| from_bits(get(&t.Z[0], eb, i))).collect()
}

/// 102 + 2i where `on(i)`, else 100 (16 f32 lanes).
fn expect(on: impl Fn(usize) -> bool) -> Vec<f64> {
    (0..16).map(|i| if on(i) { 102.0 + 2.0 * i as f64 } else { 100.0 }).collect()
}

#[test]
fn every_writemask_mode() {
    let m2 = Chip::M2;
    // Mode 0: N = 0 all, 1 odd lanes, 2 even lanes, 6 and 31 none.
    assert_eq!(enable(m2, LW_F32, 0, 0, 0, 0), expect(|_| true));
    assert_eq!(enable(m2, LW_F32, 0, 0, 1, 0), expect(|i| i % 2 == 1));
    assert_eq!(enable(m2, LW_F32, 0, 0, 2, 0), expect(|i| i % 2 == 0));
    assert_eq!(enable(m2, LW_F32, 0, 0, 6, 0), expect(|_| false));
    assert_eq!(enable(m2, LW_F32, 0, 0, 31, 0), expect(|_| false));
    // N = 3: every lane is +0 (the ALU result is replaced).
    assert_eq!(enable(m2, LW_F32, 0, 0, 3, 0), vec![0.0; 16]);
    // N = 4: X is +0: FMA gives 100 + 0·y = 100; z + x gives 100; z + y gives 100 + (i + 1).
    assert_eq!(enable(m2, LW_F32, 0, 0, 4, 0), vec![100.0; 16]);
    assert_eq!(enable(m2, LW_F32, ALU_ADDX, 0, 4, 0), vec![100.0; 16]);
    let plus_y: Vec<f64> = (0..16).map(|i| 101.0 + i as f64).collect();
    assert_eq!(enable(m2, LW_F32, ALU_ADDY, 0, 4, 0), plus_y);
    // N = 5: Y is +0: FMA gives 100; z + x gives 102; z + y gives 100.
    assert_eq!(enable(m2, LW_F32, 0, 0, 5, 0), vec![100.0; 16]);
    assert_eq!(enable(m2, LW_F32, ALU_ADDX, 0, 5, 0), vec![102.0; 16]);
    assert_eq!(enable(m2, LW_F32, ALU_ADDY, 0, 5, 0), vec![100.0; 16]);
    // Mode 1: every lane uses Y lane N mod 16: N = 3 → y = 4 → 108; N = 19 wraps to 3 → 108.
    assert_eq!(enable(m2, LW_F32, 0, 1, 3, 0), vec![108.0; 16]);
    assert_eq!(enable(m2, LW_F32, 0, 1, 19, 0), vec![108.0; 16]);
    // … taken after the Y shuffle: S1 puts in[8 + 1] = 10 at lane 3 → 100 + 20 = 120.
    assert_eq!(enable(m2, LW_F32, 0, 1, 3, 1), vec![120.0; 16]);
    // Mode 2: n = 0 all, n = 5 lanes 0..4; N = 21 wraps to 5.
    assert_eq!(enable(m2, LW_F32, 0, 2, 0, 0), expect(|_| true));
    assert_eq!(enable(m2, LW_F32, 0, 2, 5, 0), expect(|i| i < 5));
    assert_eq!(enable(m2, LW_F32, 0, 2, 21, 0), expect(|i| i < 5));
    // Mode 3: n = 0 all, n = 5 lanes 11..15.
    assert_eq!(enable(m2, LW_F32, 0, 3, 0, 0), expect(|_| true));
    assert_eq!(enable(m2, LW_F32, 0, 3, 5, 0), expect(|i| i >= 11));
    // Mode 4: n = 0 none, n = 5 lanes 0..4. Mode 5: n = 0 none, n = 5 lanes 11..15.
    assert_eq!(enable(m2, LW_F32, 0, 4, 0, 0), expect(|_| false));
    assert_eq!(enable(m2, LW_F32, 0, 4, 5, 0), expect(|i| i < 5));
    assert_eq!(enable(m2, LW_F32, 0, 5, 0, 0), expect(|_| false));
    assert_eq!(enable(m2, LW_F32, 0, 5, 5, 0), expect(|i| i >= 11));
    // Modes 6 and 7: none, whatever N.
    for n in [0, 1, 17] {
        assert_eq!(enable(m2, LW_F32, 0, 6, n, 0), expect(|_| false));
        assert_eq!(enable(m2, LW_F32, 0, 7, n, 0), expect(|_| false));
    }
    // f64 (8 lanes): mode 2 with N = 9 → n = 1: lane 0 only; mode 5 with N = 10 → n = 2: lanes
    // 6, 7; mode 1 with N = 12 → Y lane 4 = 5 → 110 everywhere.
    let f64_expect = |on: &dyn Fn(usize) -> bool| -> Vec<f64> {
        (0..8).map(|i| if on(i) { 102.0 + 2.0 * i as f64 } else { 100.0 }).collect()
    };
    assert_eq!(enable(m2, LW_F64, 0, 2, 9, 0), f64_expect(&|i| i == 0));
    assert_eq!(enable(m2, LW_F64, 0, 5, 10, 0), f64_expect(&|i| i >= 6));
    assert_eq!(enable(m2, LW_F64, 0, 1, 12, 0), vec![110.0; 8]);
}

#[test]
fn writemask_on_f16_and_the_pair_rows() {
    // f16 (32 lanes), mode 3 with N = 31: the last 31 lanes, i.e. all but lane 0. With mode 4
    // (x = 1 > 0 copies y = 0x1111), lane 0 keeps its 0x2222.
    let mut s = State::zeroed();
    fill(&mut s.X[0], 2, 0x3C00);
    fill(&mut s.Y[0], 2, 0x1111);
    fill(&mut s.Z[0], 2, 0x2222);
    let t = run(
        Chip::M1,
        op(&[(Field::LW, LW_F16), (Field::ALU, ALU_SELECT), (Field::WM_MODE, 3), (Field::WM_N, 31)]),
        &s,
    );
    let want: Vec<u64> = (0..32).map(|i| if i == 0 { 0x2222 } else { 0x1111 }).collect();
    assert_eq!(row(&t, 0, 2), want);
    // Pair mode (f16 → f32), ZROW = 4: odd X lanes (N = 1) fill only row 5; even (N = 2) only
    // row 4 (§2.4: "odd" is the whole odd Z row). x = 1, y = 1: z + 1 = 1.0f32.
    let mut s = State::zeroed();
    fill(&mut s.X[0], 2, 0x3C00);
    fill(&mut s.Y[0], 2, 0x3C00);
    for (n, written, kept) in [(1, 5, 4), (2, 4, 5)] {
        let o = op(&[(Field::LW, LW_F16_PAIR), (Field::ZROW, 4), (Field::WM_N, n)]);
        let t = run(Chip::M2, o, &s);
        assert_eq!(row(&t, written, 4), vec![f32b(1.0); 16], "N = {n}");
        assert_eq!(row(&t, kept, 4), vec![0; 16], "N = {n}");
    }
}

#[test]
fn bit_37_is_ignored_end_to_end() {
    // Mode 0 with N = 1 and bit 37 set: still odd lanes (N is 5 bits; 33 would enable none).
    let o = op(&[(Field::LW, LW_F32), (Field::WM_N, 1)]);
    let mut s = State::zeroed();
    fill(&mut s.X[0], 4, f32b(2.0));
    s.Y[0] = reg(4, |i| f32b(i as f32 + 1.0));
    fill(&mut s.Z[0], 4, f32b(100.0));
    let t = run(Chip::M2, amx_reference::Operand(o.0 | 1 << 37), &s);
    let got: Vec<f64> = row(&t, 0, 4).iter().map(|&b| f32::from_bits(b as u32) as f64).collect();
    assert_eq!(got, expect(|i| i % 2 == 1));
}

// ---- Multi-vector mode, bit 31 = 1 (§2.5) ------------------------------------------------------

/// X[k] lane i = 16k + i + 1 and Y[k] lane i = 256 + 16k + i (f32, exact), Z zero.
fn multi_state() -> State {
    let mut s = State::zeroed();
    for k in 0..8 {
        s.X[k] = reg(4, |i| f32b((16 * k + i + 1) as f32));
        s.Y[k] = reg(4, |i| f32b((256 + 16 * k + i) as f32));
    }
    s
}

fn xs(k: usize) -> Vec<u64> {
    (0..16).map(|i| f32b((16 * k + i + 1) as f32)).collect()
}

fn ys(k: usize) -> Vec<u64> {
    (0..16).map(|i| f32b((256 + 16 * k + i) as f32)).collect()
}

fn multi(chip: Chip, s: &State, alu: u64, bmode: u64, zrow: u64, extra: &[(Field, u64)]) -> State {
    let mut fields = vec![
        (Field::LW, LW_F32),
        (Field::ALU, alu),
        (Field::MULTI, 1),
        (Field::BMODE, bmode),
        (Field::ZROW, zrow),
    ];
    fields.extend_from_slice(extra);
    run(chip, op(&fields), s)
}

/// The rows a run changed.
fn changed_rows(before: &State, after: &State) -> Vec<usize> {
    (0..64).filter(|&r| before.Z[r] != after.Z[r]).collect()
}

#[test]
fn every_bmode_two_iterations() {
    let s = multi_state();
    // ZROW = 7, FOUR = 0: rows 7 and 7 + 32 = 39.
    // BMODE 0: consecutive X and Y: z + x gives X[0], X[1]; z + y gives Y[0], Y[1].
    let t = multi(Chip::M2, &s, ALU_ADDX, 0, 7, &[]);
    assert_eq!(changed_rows(&s, &t), [7, 39]);
    assert_eq!((row(&t, 7, 4), row(&t, 39, 4)), (xs(0), xs(1)));
    let t = multi(Chip::M2, &s, ALU_ADDY, 0, 7, &[]);
    assert_eq!((row(&t, 7, 4), row(&t, 39, 4)), (ys(0), ys(1)));
    // BMODE 1: every lane of both rows is +0 (Z starts non-zero there).
    let mut nz = s.clone();
    fill(&mut nz.Z[7], 4, 0x1111_1111);
    fill(&mut nz.Z[39], 4, 0x1111_1111);
    let t = multi(Chip::M2, &nz, 0, 1, 7, &[]);
    assert_eq!((row(&t, 7, 4), row(&t, 39, 4)), (vec![0; 16], vec![0; 16]));
    assert_eq!(changed_rows(&nz, &t), [7, 39]);
    // BMODE 2: the same X register both times; Y consecutive.
    let t = multi(Chip::M2, &s, ALU_ADDX, 2, 7, &[]);
    assert_eq!((row(&t, 7, 4), row(&t, 39, 4)), (xs(0), xs(0)));
    let t = multi(Chip::M2, &s, ALU_ADDY, 2, 7, &[]);
    assert_eq!((row(&t, 7, 4), row(&t, 39, 4)), (ys(0), ys(1)));
    // BMODE 3: the same Y register both times; X consecutive.
    let t = multi(Chip::M2, &s, ALU_ADDY, 3, 7, &[]);
    assert_eq!((row(&t, 7, 4), row(&t, 39, 4)), (ys(0), ys(0)));
    let t = multi(Chip::M2, &s, ALU_ADDX, 3, 7, &[]);
    assert_eq!((row(&t, 7, 4), row(&t, 39, 4)), (xs(0), xs(1)));
    // BMODE 4: X is +0: FMA with z = 5 gives 5 + 0·y = 5; z + y still sees Y.
    let mut five = s.clone();
    fill(&mut five.Z[7], 4, f32b(5.0));
    fill(&mut five.Z[39], 4, f32b(5.0));
    let t = multi(Chip::M2, &five, 0, 4, 7, &[]);
    assert_eq!((row(&t, 7, 4), row(&t, 39, 4)), (vec![f32b(5.0); 16], vec![f32b(5.0); 16]));
    let t = multi(Chip::M2, &s, ALU_ADDY, 4, 7, &[]);
    assert_eq!((row(&t, 7, 4), row(&t, 39, 4)), (ys(0), ys(1)));
    // BMODE 5: Y is +0: FMA gives 5; z + x still sees X.
    let t = multi(Chip::M2, &five, 0, 5, 7, &[]);
    assert_eq!((row(&t, 7, 4), row(&t, 39, 4)), (vec![f32b(5.0); 16], vec![f32b(5.0); 16]));
    let t = multi(Chip::M2, &s, ALU_ADDX, 5, 7, &[]);
    assert_eq!((row(&t, 7, 4), row(&t, 39, 4)), (xs(0), xs(1)));
    // BMODE 6: X[0] lane 0 (= 1.0) to every lane of both rows, whatever XSHUF; Y consecutive:
    // FMA 0 + 1·y gives Y[0], Y[1].
    for xshuf in 0..4 {
        let t = multi(Chip::M2, &s, ALU_ADDX, 6, 7, &[(Field::XSHUF, xshuf)]);
        assert_eq!((row(&t, 7, 4), row(&t, 39, 4)), (vec![f32b(1.0); 16], vec![f32b(1.0); 16]));
    }
    let t = multi(Chip::M2, &s, 0, 6, 7, &[]);
    assert_eq!((row(&t, 7, 4), row(&t, 39, 4)), (ys(0), ys(1)));
    // BMODE 7: Y[0] lane 0 (= 256) to every lane, whatever YSHUF; X consecutive:
    // FMA 0 + x·256 gives 256·X[0], 256·X[1].
    for yshuf in 0..4 {
        let t = multi(Chip::M2, &s, ALU_ADDY, 7, 7, &[(Field::YSHUF, yshuf)]);
        assert_eq!((row(&t, 7, 4), row(&t, 39, 4)), (vec![f32b(256.0); 16], vec![f32b(256.0); 16]));
    }
    let t = multi(Chip::M2, &s, 0, 7, 7, &[]);
    let times256 =
        |k: usize| -> Vec<u64> { (0..16).map(|i| f32b(256.0 * (16 * k + i + 1) as f32)).collect() };
    assert_eq!((row(&t, 7, 4), row(&t, 39, 4)), (times256(0), times256(1)));
}

#[test]
fn four_iterations_and_offsets() {
    let s = multi_state();
    // FOUR = 1 is ZROW bit 5: ZROW = 35 → r = 35 mod 16 = 3: rows 3, 19, 35, 51 ← X[0..3].
    let t = multi(Chip::M2, &s, ALU_ADDX, 0, 35, &[]);
    assert_eq!(changed_rows(&s, &t), [3, 19, 35, 51]);
    for (j, r) in [3, 19, 35, 51].into_iter().enumerate() {
        assert_eq!(row(&t, r, 4), xs(j), "row {r}");
    }
    // Four iterations with BMODE 3: Y[0] four times; and BMODE 2 with XOFF = 448 (X[7]):
    // X[7] four times, Y[0..3] consecutive.
    let t = multi(Chip::M2, &s, ALU_ADDY, 3, 35, &[]);
    for r in [3, 19, 35, 51] {
        assert_eq!(row(&t, r, 4), ys(0));
    }
    // XOFF = 448 (X[7]), BMODE 0, four iterations: X[7], X[0], X[1], X[2] (the window wraps).
    let t = multi(Chip::M2, &s, ALU_ADDX, 0, 32 | 15, &[(Field::XOFF, 448)]);
    for (r, k) in [(15, 7), (31, 0), (47, 1), (63, 2)] {
        assert_eq!(row(&t, r, 4), xs(k), "row {r}");
    }
    // Two iterations, ZROW = 31 → rows 31, 63; YOFF = 64 → Y[1], Y[2].
    let t = multi(Chip::M2, &s, ALU_ADDY, 0, 31, &[(Field::YOFF, 64)]);
    assert_eq!(changed_rows(&s, &t), [31, 63]);
    assert_eq!((row(&t, 31, 4), row(&t, 63, 4)), (ys(1), ys(2)));
}

#[test]
fn multi_in_a_pair_mode() {
    // f16 → f32 pair, two iterations, ZROW = 3: r = 3, pairs (2, 3) and (34, 35). X[k] = 1.0,
    // Y[0] = f16 2.0, Y[1] = f16 3.0: rows 2 and 3 all 2.0f32, rows 34 and 35 all 3.0f32.
    let mut s = State::zeroed();
    fill(&mut s.X[0], 2, 0x3C00);
    fill(&mut s.X[1], 2, 0x3C00);
    fill(&mut s.Y[0], 2, 0x4000);
    fill(&mut s.Y[1], 2, 0x4200);
    let t = run(Chip::M2, op(&[(Field::LW, LW_F16_PAIR), (Field::MULTI, 1), (Field::ZROW, 3)]), &s);
    assert_eq!(changed_rows(&s, &t), [2, 3, 34, 35]);
    assert_eq!(row(&t, 2, 4), vec![f32b(2.0); 16]);
    assert_eq!(row(&t, 3, 4), vec![f32b(2.0); 16]);
    assert_eq!(row(&t, 34, 4), vec![f32b(3.0); 16]);
    assert_eq!(row(&t, 35, 4), vec![f32b(3.0); 16]);
}

#[test]
fn bit_31_on_m1_is_ignored() {
    // M1, MULTI = 1 with the writemask bits zero (mode 0, N = 0): one vector, row 7 only.
    // M2 reads BMODE 0 there: rows 7 and 39.
    let s = multi_state();
    let o = op(&[(Field::LW, LW_F32), (Field::ALU, ALU_SELECT), (Field::MULTI, 1), (Field::ZROW, 7)]);
    assert_eq!(changed_rows(&s, &run(Chip::M1, o, &s)), [7]);
    assert_eq!(changed_rows(&s, &run(Chip::M2, o, &s)), [7, 39]);
    // M1 with bits 40:32 = mode 4, N = 2: the first two lanes of row 7.
    let o = op(&[
        (Field::LW, LW_F32),
        (Field::ALU, ALU_SELECT),
        (Field::MULTI, 1),
        (Field::ZROW, 7),
        (Field::WM_MODE, 4),
        (Field::WM_N, 2),
    ]);
    let t = run(Chip::M1, o, &s);
    let mut want = vec![0; 16];
    want[0] = f32b(256.0);
    want[1] = f32b(257.0);
    assert_eq!(row(&t, 7, 4), want);
}

// ---- M4 offset masking (§2.6) ------------------------------------------------------------------

#[test]
fn m4_alignment_table() {
    // §2.6's table: (eb, ib) → (2 iterations, 4 iterations).
    let table = [
        ((2, 2), (16, 32)),
        ((2, 4), (32, 64)),
        ((4, 2), (8, 16)),
        ((4, 4), (16, 32)),
        ((8, 2), (4, 8)),
        ((8, 4), (8, 16)),
    ];
    for ((eb, ib), (two, four)) in table {
        assert_eq!(m4_alignment(true, false, 2, ib, eb), two, "eb {eb} ib {ib}");
        assert_eq!(m4_alignment(true, false, 4, ib, eb), four, "eb {eb} ib {ib}");
    }
    assert_eq!(m4_alignment(false, true, 2, 2, 4), 4); // BMODE 6/7: one element
    assert_eq!(m4_alignment(false, false, 4, 2, 2), 64); // otherwise a whole register
}

#[test]
fn m4_aligns_multi_offsets_and_m2_does_not() {
    let s = {
        let mut s = multi_state();
        s.Y = filled_pool(); // raw bytes, copied by mode 4 (every X lane is positive)
        s
    };
    // BMODE 0, YOFF = 77: M4 clears it to 64 (a whole register): rows 7, 39 = Y[1], Y[2].
    // M2 keeps 77: row 7 = Y pool bytes 77..140, row 39 = bytes 141..204.
    let t4 = multi(Chip::M4, &s, ALU_SELECT, 0, 7, &[(Field::YOFF, 77)]);
    assert_eq!((t4.Z[7], t4.Z[39]), (s.Y[1], s.Y[2]));
    let t2 = multi(Chip::M2, &s, ALU_SELECT, 0, 7, &[(Field::YOFF, 77)]);
    let bytes = |from: usize| -> Vec<u8> { (from..from + 64).map(pool_byte).collect() };
    assert_eq!((t2.Z[7].to_vec(), t2.Z[39].to_vec()), (bytes(77), bytes(141)));
    // BMODE 7, YOFF = 77 (f32): M4 aligns to one element, 76: every lane is the u32 at Y pool
    // bytes 76..79; M2 uses bytes 77..80.
    let u32_at = |b: usize| -> u64 { (0..4).map(|k| (pool_byte(b + k) as u64) << (8 * k)).sum() };
    let t4 = multi(Chip::M4, &s, ALU_SELECT, 7, 7, &[(Field::YOFF, 77)]);
    assert_eq!(row(&t4, 7, 4), vec![u32_at(76); 16]);
    assert_eq!(row(&t4, 39, 4), vec![u32_at(76); 16]);
    let t2 = multi(Chip::M2, &s, ALU_SELECT, 7, 7, &[(Field::YOFF, 77)]);
    assert_eq!(row(&t2, 7, 4), vec![u32_at(77); 16]);
    // BMODE 6, XOFF = 77 (f32), z + x: M4 aligns to 76, so every lane is X[1] lane 3 = 20.0.
    // M2 reads bytes 77..80: X[1] lane 3 is 20.0f = 0x41A0_0000 (bytes 00 00 A0 41) and lane 4
    // is 21.0f = 0x41A8_0000 (00 00 A8 41), so bytes 77..80 are 00 A0 41 00 = 0x0041_A000, a
    // positive subnormal, and 0 + it is itself.
    let s = multi_state();
    let t4 = multi(Chip::M4, &s, ALU_ADDX, 6, 7, &[(Field::XOFF, 77)]);
    assert_eq!(row(&t4, 39, 4), vec![f32b(20.0); 16]);
    let t2 = multi(Chip::M2, &s, ALU_ADDX, 6, 7, &[(Field::XOFF, 77)]);
    assert_eq!(row(&t2, 39, 4), vec![0x0041_A000; 16]);
    // Bit 31 = 0: M4 behaves like M2 (§2.6, §6): no alignment of YOFF = 77.
    let s = {
        let mut s = multi_state();
        s.Y = filled_pool();
        s
    };
    let o = op(&[(Field::LW, LW_F32), (Field::ALU, ALU_SELECT), (Field::YOFF, 77)]);
    assert_eq!(run(Chip::M4, o, &s), run(Chip::M2, o, &s));
    assert_eq!(run(Chip::M4, o, &s).Z[0].to_vec(), bytes(77));
}

#[test]
fn m4_aligns_the_indexed_operand() {
    // f32, X indexed with 2-bit indices, table X[1] (lane j = 100 + j), MULTI, two iterations
    // (rows 0 and 32), XOFF = 13; Y = 1.0 everywhere, Z = 0: Z lane = table[k] · 1 + 0.
    // Index bytes in X[0]: 8..11 = 0xE4 (LSB first: 0, 1, 2, 3), 12..15 = 0x1B (3, 2, 1, 0),
    // 16 = 0x00, 17..20 = 0x55 (1, 1, 1, 1). Each iteration reads EC·ib/8 = 4 bytes and the
    // indexed X offset steps by 64·2/32 = 4 bytes.
    let mut s = State::zeroed();
    s.X[1] = reg(4, |j| f32b(100.0 + j as f32));
    s.X[0][8..12].copy_from_slice(&[0xE4; 4]);
    s.X[0][12..16].copy_from_slice(&[0x1B; 4]);
    s.X[0][17..21].copy_from_slice(&[0x55; 4]);
    for k in 0..8 {
        fill(&mut s.Y[k], 4, f32b(1.0));
    }
    let o =
        op(&[(Field::LW, LW_F32), (Field::IDX, 1), (Field::TBL, 1), (Field::MULTI, 1), (Field::XOFF, 13)]);
    let vals = |f: &dyn Fn(usize) -> f32| -> Vec<u64> { (0..16).map(|i| f32b(f(i))).collect() };
    // M4: alignment min(64, 2 · 8·2/4) = 8, so XOFF 13 → 8: row 0 from bytes 8..11 (k = i mod 4),
    // row 32 from bytes 12..15 (k = 3 − i mod 4).
    let t4 = run(Chip::M4, o, &s);
    assert_eq!(row(&t4, 0, 4), vals(&|i| 100.0 + (i % 4) as f32));
    assert_eq!(row(&t4, 32, 4), vals(&|i| 103.0 - (i % 4) as f32));
    // M2: XOFF 13 stays: row 0 from bytes 13..16 = 1B 1B 1B 00 (lanes 0..11: 3 − i mod 4, lanes
    // 12..15: 0), row 32 from bytes 17..20 = 55 × 4 (k = 1 everywhere).
    let t2 = run(Chip::M2, o, &s);
    assert_eq!(row(&t2, 0, 4), vals(&|i| if i < 12 { 103.0 - (i % 4) as f32 } else { 100.0 }));
    assert_eq!(row(&t2, 32, 4), vec![f32b(101.0); 16]);
}

// ---- Indexed loads (§2.7) ----------------------------------------------------------------------

#[test]
fn indexed_x_with_2_bit_indices() {
    // f16 (LW 2), X indexed, 2-bit, TBL = 2: X[2] lane j = 0x3C00 + j (1 + j/1024, positive).
    // Index bytes X[0][0..8]: 0xE4 (lanes 0..3 → 0, 1, 2, 3) then 0xFF (index 3). y = 1.0, z = 0:
    // z + x·1 = x exactly.
    let mut s = State::zeroed();
    s.X[2] = reg(2, |j| 0x3C00 + j as u64);
    s.X[0][0] = 0xE4;
    s.X[0][1..8].copy_from_slice(&[0xFF; 7]);
    fill(&mut s.Y[0], 2, 0x3C00);
    let t = run(Chip::M2, op(&[(Field::LW, LW_F16), (Field::IDX, 1), (Field::TBL, 2)]), &s);
    let want: Vec<u64> = (0..32).map(|i| 0x3C00 + i.min(3)).collect();
    assert_eq!(row(&t, 0, 2), want);
}

#[test]
fn indexed_y_with_4_bit_indices_then_shuffled() {
    // f32, Y indexed, 4-bit, TBL = 3: Y[3] lane j = j + 1. Index nibbles (LSB first) 15, 14, …, 0
    // are the bytes EF CD AB 89 67 45 23 01, so y lane i = 16 − i; x = 1, z = 0.
    let mut s = State::zeroed();
    s.Y[3] = reg(4, |j| f32b(j as f32 + 1.0));
    s.Y[0][0..8].copy_from_slice(&[0xEF, 0xCD, 0xAB, 0x89, 0x67, 0x45, 0x23, 0x01]);
    fill(&mut s.X[0], 4, f32b(1.0));
    let base = [(Field::LW, LW_F32), (Field::IDX, 1), (Field::IDXY, 1), (Field::IB4, 1), (Field::TBL, 3)];
    let t = run(Chip::M1, op(&base), &s);
    assert_eq!(row(&t, 0, 4), (0..16).map(|i| f32b(16.0 - i as f32)).collect::<Vec<_>>());
    // The shuffle comes after the expansion: YSHUF = 1 gives lane j = in[(j mod 2)·8 + j/2].
    let mut fields = base.to_vec();
    fields.push((Field::YSHUF, 1));
    let t = run(Chip::M1, op(&fields), &s);
    let want: Vec<u64> = (0..16).map(|j| f32b(16.0 - ((j % 2) * 8 + j / 2) as f32)).collect();
    assert_eq!(row(&t, 0, 4), want);
}

#[test]
fn indexed_f64_4_bit_indices_wrap_mod_8() {
    // f64, X indexed, 4-bit, TBL = 5: X[5] lane j = j + 1. The window is at XOFF = 64 (X[1]):
    // nibbles 8, 9, 15, 0, 1, 2, 3, 4 (bytes 98 0F 21 43) → mod 8: 0, 1, 7, 0, 1, 2, 3, 4, so
    // x = 1, 2, 8, 1, 2, 3, 4, 5; y = 1, z = 0.
    let mut s = State::zeroed();
    s.X[5] = reg(8, |j| f64b(j as f64 + 1.0));
    s.X[1][0..4].copy_from_slice(&[0x98, 0x0F, 0x21, 0x43]);
    fill(&mut s.Y[0], 8, f64b(1.0));
    let o = op(&[(Field::LW, LW_F64), (Field::IDX, 1), (Field::IB4, 1), (Field::TBL, 5), (Field::XOFF, 64)]);
    let t = run(Chip::M2, o, &s);
    assert_eq!(row(&t, 0, 8), [1.0, 2.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0].map(f64b));
}

// ---- No-ops leave everything untouched ---------------------------------------------------------

#[test]
fn nops_touch_nothing() {
    let s = State::from_bytes(&std::array::from_fn(|i| (i * 31 + 7) as u8));
    // MBZ ≠ 0; an invalid ALU mode (2) even with the zero-output writemask (mode 0, N = 3) that
    // would otherwise zero every lane (§1.4); ALU 10 on M1.
    let cases = [
        (Chip::M2, op(&[(Field::MBZ, 4), (Field::WM_N, 3)])),
        (Chip::M1, op(&[(Field::ALU, 2), (Field::WM_N, 3)])),
        (Chip::M4, op(&[(Field::ALU, 63), (Field::MULTI, 1), (Field::BMODE, 1)])),
        (Chip::M1, op(&[(Field::ALU, 10)])),
    ];
    for (chip, o) in cases {
        assert_eq!(run(chip, o, &s), s, "{chip} {o}");
    }
    // The same writemask with a valid mode does zero every lane of row 0.
    let t = run(Chip::M2, op(&[(Field::WM_N, 3)]), &s);
    assert_eq!(t.Z[0], [0; 64]);
}
