//! rustc_apfloat (a pure-Rust port of LLVM's APFloat, exact in every IEEE format) as a third,
//! independent oracle for the fast model's arithmetic: FMA, FMS, multiply, the two adds, min,
//! max and `x ≤ 0` select, in f16, bf16, f32, f64 and both pair modes (f16 or bf16 widened into
//! f32), through the whole instruction (`Plan::run_at`) at every SIMD level the machine has.
//!
//! Expected values: apfloat's correctly rounded RNE result (`mul_add_r`, `mul_r`, `add_r`),
//! IEEE 754-2019 `minimum`/`maximum` (NaN-propagating, −0 < +0: with the NaN canonicalised, Arm
//! FMIN/FMAX with DN, §2.8), and any NaN result replaced by the format's default NaN (§2.8).
//! Inputs: all 18³ triples of §4.2's special values, then `AMX_ORACLE_CASES` (default 40 000)
//! random triples per format and mode from [`common::Fmt::value`] (special, near 1, short
//! significands that make ties, subnormals, near overflow, random bits).

use crate::common::Rng;
use crate::common::*;
use amx_fastpath::Plan;
use amx_fastpath::simd::Level;
use amx_reference::{AluMode, Chip, Field, Operand, State};
use rustc_apfloat::ieee::{BFloat, Double, Half, Single};
use rustc_apfloat::{Float, FloatConvert, Round};

const RNE: Round = Round::NearestTiesToEven;

/// The expected bits of `alu` on `(x, y, z)` in format `F` (`fmt` for the default NaN).
fn expect<F: Float>(fmt: Fmt, alu: AluMode, x: u64, y: u64, z: u64) -> u64 {
    let (fx, fy, fz) = (F::from_bits(x as u128), F::from_bits(y as u128), F::from_bits(z as u128));
    let r = match alu {
        AluMode::Fma => fx.mul_add_r(fy, fz, RNE).value,
        AluMode::Fms => (-fx).mul_add_r(fy, fz, RNE).value,
        AluMode::Mul => fx.mul_r(fy, RNE).value,
        AluMode::AddX => fz.add_r(fx, RNE).value,
        AluMode::AddY => fz.add_r(fy, RNE).value,
        AluMode::Min => fx.minimum(fz),
        AluMode::Max => fx.maximum(fz),
        // An ordered compare: false for NaN; y's raw bits otherwise.
        AluMode::Select => return if !fx.is_nan() && fx <= F::ZERO { 0 } else { y },
    };
    if r.is_nan() { fmt.default_nan() } else { r.to_bits() as u64 }
}

/// A 16-bit X/Y value widened to f32 for a pair mode by apfloat (exact), NaN → `0x7FC0_0000`.
fn widen<F: FloatConvert<Single>>(h: u64) -> u64 {
    let v = F::from_bits(h as u128);
    if v.is_nan() {
        return 0x7FC0_0000;
    }
    let mut loses_info = false;
    let w: Single = v.convert_r(RNE, &mut loses_info).value;
    assert!(!loses_info, "widening 0x{h:04x} to f32 is exact");
    w.to_bits() as u64
}

/// One lane width under test: the LW code, the chip (M2 or M4: modes 10..12 are no-ops on M1),
/// and the formats of X/Y and Z.
#[derive(Clone, Copy, Debug)]
struct Width {
    name: &'static str,
    lw: u64,
    chip: Chip,
    xy: Fmt,
    pair: bool,
}

const WIDTHS: [Width; 6] = [
    Width { name: "f16", lw: 2, chip: Chip::M4, xy: Fmt::F16, pair: false },
    Width { name: "bf16", lw: 0, chip: Chip::M2, xy: Fmt::BF16, pair: false },
    Width { name: "f32", lw: 4, chip: Chip::M4, xy: Fmt::F32, pair: false },
    Width { name: "f64", lw: 7, chip: Chip::M2, xy: Fmt::F64, pair: false },
    Width { name: "f16->f32 pair", lw: 3, chip: Chip::M2, xy: Fmt::F16, pair: true },
    Width { name: "bf16->f32 pair", lw: 1, chip: Chip::M4, xy: Fmt::BF16, pair: true },
];

impl Width {
    /// The Z format.
    fn z(self) -> Fmt {
        if self.pair { Fmt::F32 } else { self.xy }
    }

    /// The expected Z bits of one lane (z in the Z format).
    fn expect(self, alu: AluMode, x: u64, y: u64, z: u64) -> u64 {
        match (self.xy, self.pair) {
            (Fmt::F16, false) => expect::<Half>(Fmt::F16, alu, x, y, z),
            (Fmt::BF16, false) => expect::<BFloat>(Fmt::BF16, alu, x, y, z),
            (Fmt::F32, _) => expect::<Single>(Fmt::F32, alu, x, y, z),
            (Fmt::F64, _) => expect::<Double>(Fmt::F64, alu, x, y, z),
            (Fmt::F16, true) => expect::<Single>(Fmt::F32, alu, widen::<Half>(x), widen::<Half>(y), z),
            (Fmt::BF16, true) => expect::<Single>(Fmt::F32, alu, widen::<BFloat>(x), widen::<BFloat>(y), z),
        }
    }

    /// Lanes per vector.
    fn lanes(self) -> usize {
        64 / self.xy.bytes()
    }

    /// Where lane `i`'s Z element is: (row, byte offset) (§2.3's pair placement for the pairs).
    fn zslot(self, i: usize) -> (usize, usize) {
        if self.pair { (i & 1, 4 * (i >> 1)) } else { (0, i * self.xy.bytes()) }
    }
}

fn put(bytes: &mut [u8], at: usize, v: u64, n: usize) {
    bytes[at..at + n].copy_from_slice(&v.to_le_bytes()[..n]);
}

fn get(bytes: &[u8], at: usize, n: usize) -> u64 {
    let mut b = [0u8; 8];
    b[..n].copy_from_slice(&bytes[at..at + n]);
    u64::from_le_bytes(b)
}

/// Runs `triples` through `vecfp` with `alu` in width `w` at `level`, one vector of lanes at a
/// time (X[0], Y[0], Z[0] and Z[1], offsets and ZROW 0, every lane enabled); returns the
/// mismatches as report lines.
fn run(w: Width, alu: AluMode, level: Level, triples: &[(u64, u64, u64)]) -> Vec<String> {
    let op = Operand::from_fields(&[(Field::LW, w.lw), (Field::ALU, alu.code())]).expect("fields fit");
    let plan = Plan::new(w.chip, op);
    let (eb, zb) = (w.xy.bytes(), w.z().bytes());
    let mut bad = Vec::new();
    for chunk in triples.chunks(w.lanes()) {
        let mut s = State::zeroed();
        for (i, &(x, y, z)) in chunk.iter().enumerate() {
            put(&mut s.X[0], i * eb, x, eb);
            put(&mut s.Y[0], i * eb, y, eb);
            let (row, at) = w.zslot(i);
            put(&mut s.Z[row], at, z, zb);
        }
        plan.run_at(level, &mut s);
        for (i, &(x, y, z)) in chunk.iter().enumerate() {
            let (row, at) = w.zslot(i);
            let got = get(&s.Z[row], at, zb);
            let want = w.expect(alu, x, y, z);
            if got != want && bad.len() < 20 {
                bad.push(format!(
                    "{} {alu:?} {level:?}: x=0x{x:x} y=0x{y:x} z=0x{z:x}: fast 0x{got:x}, apfloat 0x{want:x}",
                    w.name
                ));
            }
        }
    }
    bad
}

/// The triples: every combination of the special values of X/Y (and of Z in the Z format),
/// then `n` random ones.
fn triples(w: Width, n: u64, seed: u64) -> Vec<(u64, u64, u64)> {
    let (sx, sz) = (w.xy.specials(), w.z().specials());
    let mut t = Vec::new();
    for &x in &sx {
        for &y in &sx {
            for &z in &sz {
                t.push((x, y, z));
            }
        }
    }
    let mut rng = Rng::new(seed);
    for _ in 0..n {
        t.push((w.xy.value(&mut rng), w.xy.value(&mut rng), w.z().value(&mut rng)));
    }
    t
}

fn check_width(w: Width) {
    let n = cases("AMX_ORACLE_CASES", 40_000);
    let mut bad = Vec::new();
    for (k, alu) in AluMode::ALL.into_iter().enumerate() {
        let t = triples(w, n, 0xA9F1 + 16 * w.lw + k as u64);
        for level in Level::supported() {
            bad.extend(run(w, alu, level, &t));
        }
    }
    assert!(bad.is_empty(), "fast model != rustc_apfloat:\n{}", bad.join("\n"));
    eprintln!(
        "{}: 8 modes x ({} special + {n} random triples) x levels {:?} agree with apfloat",
        w.name,
        18 * 18 * 18,
        Level::supported()
    );
}

#[test]
fn f16_agrees_with_apfloat() {
    check_width(WIDTHS[0]);
}

#[test]
fn bf16_agrees_with_apfloat() {
    check_width(WIDTHS[1]);
    // The AVX2 bf16 kernel computes in f32 and sends the lanes whose f32 result is exactly a
    // bf16 midpoint (low 16 bits 0x8000) to the round-to-odd route: the triples above must
    // exercise that route too (short significands and tiny addends make such results).
    let f = |h: u64| f32::from_bits((h as u32) << 16);
    let t = triples(WIDTHS[1], cases("AMX_ORACLE_CASES", 40_000), 0xA9F1);
    let midpoints =
        t.iter().filter(|&&(x, y, z)| f(x).mul_add(f(y), f(z)).to_bits() & 0xFFFF == 0x8000).count();
    assert!(midpoints >= 100, "only {midpoints} triples reach the midpoint fallback");
    eprintln!("bf16: {midpoints} triples' f32 FMA results are bf16 midpoints (the fallback route)");
}

#[test]
fn f32_agrees_with_apfloat() {
    check_width(WIDTHS[2]);
}

#[test]
fn f64_agrees_with_apfloat() {
    check_width(WIDTHS[3]);
}

#[test]
fn f16_f32_pair_agrees_with_apfloat() {
    check_width(WIDTHS[4]);
}

#[test]
fn bf16_f32_pair_agrees_with_apfloat() {
    check_width(WIDTHS[5]);
}

/// The f32 → f16 and f64 → bf16 narrowings on their own, against apfloat's `convert_r`, on
/// values built to sit on and next to every rounding boundary (ties, the subnormal ranges, the
/// overflow thresholds) plus random bit patterns.
#[test]
fn narrowing_agrees_with_apfloat() {
    let mut rng = Rng::new(0x4A77);
    let mut bad = Vec::new();
    let to_f16 = |v: f32, bad: &mut Vec<String>| {
        let mut li = false;
        let h: Half = Single::from_bits(v.to_bits() as u128).convert_r(RNE, &mut li).value;
        let want = if h.is_nan() { 0x7E00 } else { h.to_bits() as u16 };
        let got = amx_fastpath::fp::narrow_f16(v);
        if got != want && bad.len() < 20 {
            bad.push(format!("f16 of {v:e} (0x{:08x}): fast 0x{got:04x}, apfloat 0x{want:04x}", v.to_bits()));
        }
    };
    let to_bf16 = |v: f64, bad: &mut Vec<String>| {
        let mut li = false;
        let b: BFloat = Double::from_bits(v.to_bits() as u128).convert_r(RNE, &mut li).value;
        let want = if b.is_nan() { 0x7FC0 } else { b.to_bits() as u16 };
        let got = amx_fastpath::fp::narrow_bf16(v);
        if got != want && bad.len() < 20 {
            bad.push(format!(
                "bf16 of {v:e} (0x{:016x}): fast 0x{got:04x}, apfloat 0x{want:04x}",
                v.to_bits()
            ));
        }
    };
    for _ in 0..cases("AMX_ORACLE_CASES", 40_000) * 10 {
        let r = rng.next();
        // An exponent around the target's range, and a significand that is random, a tie of the
        // target grid, or one off a tie.
        let (e32, m32) = (127 - 30 + ((r >> 40) % 50) as u32, r as u32 & 0x7F_FFFF);
        let m32 = match rng.below(3) {
            0 => m32,
            1 => (m32 & !0x1FFF) | 0x1000,
            _ => ((m32 & !0x1FFF) | 0x1000) ^ 1,
        };
        to_f16(f32::from_bits(((r >> 63) as u32) << 31 | e32 << 23 | m32), &mut bad);
        to_f16(f32::from_bits(rng.next() as u32), &mut bad);
        let (e64, m64) = (1023 - 140 + (r >> 52) % 275, r & ((1 << 52) - 1));
        let m64 = match rng.below(3) {
            0 => m64,
            1 => (m64 & !((1 << 45) - 1)) | (1 << 44),
            _ => ((m64 & !((1 << 45) - 1)) | (1 << 44)) ^ 1,
        };
        to_bf16(f64::from_bits((r & (1 << 63)) | (e64 << 52) | m64), &mut bad);
        to_bf16(f64::from_bits(rng.next()), &mut bad);
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
