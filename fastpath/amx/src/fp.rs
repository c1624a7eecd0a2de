//! Lane arithmetic on raw bits: one function per ALU operation and format, each a short,
//! branch-free formula that the whole-vector kernels ([`crate::kernels`]) inline into loops the
//! compiler vectorises.
//!
//! Spec: `amx-vecfp.md` §2.2 (the ALU modes), §2.3 (the widening of the pair modes), §2.8 (what
//! must be bit-exact: the default NaN, FMA rounding and signed zeros, Arm FMIN/FMAX, the raw
//! pass-through of mode 4) and §5 (which routes are exact). The routes, and why each is exact:
//!
//! * **f32, f64**: the native operations (`mul_add`, `*`, `+`), which are IEEE 754 with one RNE
//!   rounding and keep subnormals. `mul_add` is a library call in the portable build and one
//!   `vfmadd` instruction in the build [`crate::simd`] selects on FMA-capable CPUs.
//! * **f16**: round to odd in f32. The inputs are widened exactly to f32 ([`f16_to_f32`]); the
//!   product of two 11-bit significands has 22 bits and lies between 2^-48 and 2^32, so `x·y` is
//!   exact in f32 (normal range, 24 bits). The sum `p + z` is rounded to nearest in f32, its exact
//!   error recovered with TwoSum, and the sum moved one f32 ulp toward the error when it is
//!   inexact and even: the sum rounded to odd at 24 bits ([`add_round_to_odd_f32`]). One RNE
//!   narrowing to f16 ([`narrow_f16`]) then gives the correctly rounded result: rounding to odd
//!   at p bits then to nearest at q bits equals rounding to nearest at q bits when p ≥ q + 2
//!   (Boldo and Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms using
//!   rounding to odd", 2008), and here p = 24, q = 11 (24 = 2·11 + 2 also meets the notes'
//!   stricter bound). The intermediate never underflows: every non-zero sum is a multiple of
//!   2^-48 below 2^34, inside f32's normal range, and TwoSum is exact there.
//!   Mode 10 is the exact product narrowed once; modes 11 and 12 are `x + z` and `y + z`
//!   through the same round-to-odd sum. This runs 8 lanes per AVX2 instruction where an f64
//!   route would run 4; the AVX2 level widens and narrows with F16C instead of the bit
//!   formulas. `half::f16::from_f64` is not used: it double-rounds (§5).
//! * **bf16**: round to odd (§5, the notes' fast route, not the emulator's integer FMA).
//!   `x·y` is exact in f64 (8 × 8 significand bits; the exponent range of a product of bf16
//!   values, 2^256 to 2^-266, is inside f64's). The sum `p + z` is rounded to nearest in f64 and
//!   its exact error recovered with TwoSum ([`add_round_to_odd_f64`]); when the sum is inexact and its
//!   last bit is even, it is moved one f64 ulp toward the error, which gives the sum rounded to
//!   odd at 53 bits. Rounding that to bf16 with RNE ([`narrow_bf16`]) is the correctly rounded
//!   result by the same theorem (53 ≥ 8 + 2, and ≥ 2·8 + 2 as the notes put it; f64 is normal
//!   over the whole range involved, so the 53 bits hold at bf16's subnormal boundary too). The
//!   AVX2 level ([`crate::simd`]) reaches the same bits faster with the hardware's f32 result,
//!   falling back to this route on bf16 midpoints. A plain f32 or f64 FMA
//!   followed by a narrowing double-rounds (§5 counts 41 800 and 31 987 errors in 20M).
//!   Modes 10, 11 and 12 are the product alone (exact, one narrowing), `x + z` and `y + z`
//!   through the same round-to-odd sum.
//! * **pair modes** (f16 or bf16 into f32 Z): the inputs are widened exactly to f32
//!   ([`f16_to_f32`], [`bf16_to_f32`]; a NaN becomes `0x7FC0_0000`), then everything is the f32
//!   route.
//! * **min, max, `x ≤ 0`**: integer comparisons of order keys on the bits, in every format.
//!
//! Every arithmetic result that is a NaN is replaced by the format's default NaN (§2.8: the unit
//! runs with FPCR.DN = 1); mode 4 passes `y` through with its raw bits.

/// The default NaN of f16 (§2.8).
pub const F16_NAN: u16 = 0x7E00;
/// The default NaN of bf16 (§2.8).
pub const BF16_NAN: u16 = 0x7FC0;
/// The default NaN of f32 (§2.8).
pub const F32_NAN: u32 = 0x7FC0_0000;
/// The default NaN of f64 (§2.8).
pub const F64_NAN: u64 = 0x7FF8_0000_0000_0000;

/// 2^112: scales an f16 bit pattern placed in an f32's low exponent bits to its value.
const TWO_POW_112: f32 = f32::from_bits((112 + 127) << 23);

/// A bf16 as the f64 of the same value (exact; a bf16 is the top half of an f32).
#[inline(always)]
pub fn bf16_to_f64(h: u16) -> f64 {
    f32::from_bits((h as u32) << 16) as f64
}

/// An f16 widened to f32 (the pair modes' widening of §2.3, and the first step of the f16
/// route): exact for every non-NaN value, subnormals included; a NaN becomes `0x7FC0_0000`.
///
/// The 15 magnitude bits shifted into place form an f32 whose exponent field is the f16's (a
/// subnormal f16 becomes a subnormal f32); multiplying by 2^112 rebiases it. A power-of-two
/// scaling with a normal result is exact, so no normalisation loop is needed.
#[inline(always)]
pub fn f16_to_f32(h: u16) -> u32 {
    let mag = (h & 0x7FFF) as u32;
    let sign = (h as u32 & 0x8000) << 16;
    let finite = (f32::from_bits(mag << 13) * TWO_POW_112).to_bits();
    if mag > 0x7C00 {
        F32_NAN
    } else if mag == 0x7C00 {
        sign | 0x7F80_0000
    } else {
        sign | finite
    }
}

/// The pair modes' widening of a bf16 to f32 (§2.3): `bits << 16`, a NaN becomes `0x7FC0_0000`.
#[inline(always)]
pub fn bf16_to_f32(h: u16) -> u32 {
    if h & 0x7FFF > 0x7F80 { F32_NAN } else { (h as u32) << 16 }
}

/// 2^-81: added to a magnitude below 2^-126, it rounds that magnitude to a multiple of 2^-133
/// (the ulp of 2^-81 in f64), bf16's subnormal grid.
const TWO_POW_M81: f64 = f64::from_bits((1023 - 81) << 52);

/// An f32 rounded to nearest, ties to even, to f16 (overflow to ±Inf, gradual underflow), a
/// NaN to the default f16 NaN.
///
/// Normal results (|v| ≥ 2^-14): the classic add-and-shift rounding on the bits, dropping the
/// 13 fraction bits f16 lacks (`+ 0xFFF + lsb`, then `>> 13`), with the exponent rebiased by
/// 127 − 15 afterwards; a carry out of the fraction increments the exponent, and past f16's
/// largest exponent the result is clamped to the infinity pattern. Subnormal results: adding
/// 0.5 to the magnitude makes the FPU round it to a multiple of 2^-24 (the ulp of 0.5 in f32),
/// f16's subnormal grid, with RNE; the sum's low bits are then the f16 pattern (1024 is the
/// smallest normal, 0x0400, which is right). Constant shifts and selects only: it vectorises
/// 8 lanes per AVX2 instruction.
#[inline(always)]
pub fn narrow_f16(v: f32) -> u16 {
    let b = v.to_bits();
    let sign = (b >> 16) & 0x8000;
    let a = b & 0x7FFF_FFFF;
    let normal = ((a + 0xFFF + ((a >> 13) & 1)) >> 13).wrapping_sub((127 - 15) << 10);
    let subnormal = (f32::from_bits(a) + 0.5).to_bits().wrapping_sub(0x3F00_0000);
    let r = if a >= 0x3880_0000 { normal.min(0x7C00) } else { subnormal };
    (if a > 0x7F80_0000 { F16_NAN as u32 } else { sign | r }) as u16
}

/// An f64 rounded to nearest, ties to even, to bf16 (overflow to ±Inf, gradual underflow), a
/// NaN to the default bf16 NaN. The same two paths as [`narrow_f16`]: add-and-shift dropping
/// 45 fraction bits for |v| ≥ 2^-126, the exponent rebiased by 1023 − 127; below that, adding
/// 2^-81 rounds the magnitude to bf16's subnormal grid 2^-133.
#[inline(always)]
pub fn narrow_bf16(v: f64) -> u16 {
    let b = v.to_bits();
    let sign = (b >> 48) & 0x8000;
    let a = b & 0x7FFF_FFFF_FFFF_FFFF;
    let normal = ((a + 0x0FFF_FFFF_FFFF + ((a >> 45) & 1)) >> 45).wrapping_sub((1023 - 127) << 7);
    let subnormal = (f64::from_bits(a) + TWO_POW_M81).to_bits().wrapping_sub(TWO_POW_M81.to_bits());
    let r = if a >= (1023 - 126) << 52 { normal.min(0x7F80) } else { subnormal };
    (if a > 0x7FF0_0000_0000_0000 { BF16_NAN as u64 } else { sign | r }) as u16
}

/// `p + z` rounded to odd at f32 precision, for `p`, `z` whose exact sum is a multiple of 2^-48
/// below 2^34 in magnitude (always so for f16 operands): see [`add_round_to_odd_f64`], the same
/// algorithm at 24 bits.
#[inline(always)]
pub fn add_round_to_odd_f32(p: f32, z: f32) -> f32 {
    let s = p + z;
    let bv = s - p;
    let av = s - bv;
    let err = (p - av) + (z - bv);
    let sb = s.to_bits();
    let inexact = (err != 0.0) & s.is_finite();
    let step = if (err.to_bits() ^ sb) >> 31 == 0 { 1 } else { u32::MAX };
    f32::from_bits(if inexact & (sb & 1 == 0) { sb.wrapping_add(step) } else { sb })
}

/// `p + z` rounded to odd at f64 precision, for finite or infinite `p`, `z` whose sum cannot
/// overflow f64 (always so here: |p|, |z| < 2^257).
///
/// TwoSum (Knuth; six operations, no branch) gives the rounded sum `s` and its exact error.
/// When the error is non-zero, the exact sum lies strictly between `s` and its neighbour on the
/// error's side; the odd one of those two is the round-to-odd result. If `s` is already odd it
/// is kept; otherwise it moves one ulp toward the error (in magnitude: +1 on the bits when the
/// error has the sign of `s`, −1 otherwise). An inexact `s` is never zero (both terms are
/// multiples of 2^-266 and the f64 grid is finer there), so the step never crosses zero. When `s`
/// is ±Inf or NaN the error is NaN and `s` is returned as it is.
#[inline(always)]
pub fn add_round_to_odd_f64(p: f64, z: f64) -> f64 {
    let s = p + z;
    let bv = s - p;
    let av = s - bv;
    let err = (p - av) + (z - bv);
    let sb = s.to_bits();
    let inexact = (err != 0.0) & s.is_finite();
    let step = if (err.to_bits() ^ sb) >> 63 == 0 { 1 } else { u64::MAX };
    f64::from_bits(if inexact & (sb & 1 == 0) { sb.wrapping_add(step) } else { sb })
}

/// Sign-magnitude bits to an unsigned key with the numeric order, −0 below +0 (negative
/// patterns are complemented, positive ones get the top bit).
macro_rules! ord_key {
    ($v:expr, $sign:expr) => {
        if $v & $sign != 0 { !$v } else { $v | $sign }
    };
}

macro_rules! bit_ops {
    ($t:ty, $sign:expr, $inf:expr, $nan:expr, $is_nan:ident, $min:ident, $max:ident, $select:ident, $name:literal) => {
        #[doc = concat!("Whether an ", $name, " pattern is a NaN (quiet or signalling, either sign).")]
        #[inline(always)]
        pub fn $is_nan(v: $t) -> bool {
            v & !$sign > $inf
        }

        #[doc = concat!("Mode 5, Arm FMIN with DN on ", $name, ": the default NaN if either input is a NaN, ")]
        #[doc = "otherwise the smaller input bit for bit, with −0 below +0 (§2.8)."]
        #[inline(always)]
        pub fn $min(x: $t, z: $t) -> $t {
            let pick = if ord_key!(x, $sign) <= ord_key!(z, $sign) { x } else { z };
            if $is_nan(x) | $is_nan(z) { $nan } else { pick }
        }

        #[doc = concat!("Mode 7, Arm FMAX with DN on ", $name, " (see the min function beside it).")]
        #[inline(always)]
        pub fn $max(x: $t, z: $t) -> $t {
            let pick = if ord_key!(x, $sign) >= ord_key!(z, $sign) { x } else { z };
            if $is_nan(x) | $is_nan(z) { $nan } else { pick }
        }

        #[doc = concat!("Mode 4 on ", $name, ": `x ≤ 0 ? +0 : y`, an ordered compare (true for ±0, ")]
        #[doc = "every negative number and −Inf, false for every NaN); `y` passes with its raw bits."]
        #[inline(always)]
        pub fn $select(x: $t, y: $t) -> $t {
            let le_zero = (x & !$sign == 0) | ((x & $sign != 0) & !$is_nan(x));
            if le_zero { 0 } else { y }
        }
    };
}

bit_ops!(u16, 0x8000, 0x7C00, F16_NAN, f16_is_nan, f16_min, f16_max, f16_select, "f16");
bit_ops!(u16, 0x8000, 0x7F80, BF16_NAN, bf16_is_nan, bf16_min, bf16_max, bf16_select, "bf16");
bit_ops!(u32, 0x8000_0000, 0x7F80_0000, F32_NAN, f32_is_nan, f32_min, f32_max, f32_select, "f32");
bit_ops!(
    u64,
    0x8000_0000_0000_0000,
    0x7FF0_0000_0000_0000,
    F64_NAN,
    f64_is_nan,
    f64_min,
    f64_max,
    f64_select,
    "f64"
);

/// An f32 result with any NaN replaced by the default NaN.
#[inline(always)]
pub fn canon_f32(v: f32) -> u32 {
    if v.is_nan() { F32_NAN } else { v.to_bits() }
}

/// An f64 result with any NaN replaced by the default NaN.
#[inline(always)]
pub fn canon_f64(v: f64) -> u64 {
    if v.is_nan() { F64_NAN } else { v.to_bits() }
}

/// f16 `z + x·y` (mode 0; mode 1 passes `x` with its sign flipped): the exact product in f32,
/// the sum rounded to odd, one RNE narrowing (see the module docs).
#[inline(always)]
pub fn f16_fma(x: u16, y: u16, z: u16) -> u16 {
    let p = f32::from_bits(f16_to_f32(x)) * f32::from_bits(f16_to_f32(y));
    narrow_f16(add_round_to_odd_f32(p, f32::from_bits(f16_to_f32(z))))
}

/// f16 `x·y` (mode 10): exact in f32, one narrowing.
#[inline(always)]
pub fn f16_mul(x: u16, y: u16) -> u16 {
    narrow_f16(f32::from_bits(f16_to_f32(x)) * f32::from_bits(f16_to_f32(y)))
}

/// f16 `z + a` (modes 11 and 12): the sum rounded to odd in f32, one narrowing.
#[inline(always)]
pub fn f16_add(z: u16, a: u16) -> u16 {
    narrow_f16(add_round_to_odd_f32(f32::from_bits(f16_to_f32(a)), f32::from_bits(f16_to_f32(z))))
}

/// bf16 `z + x·y` (mode 0; mode 1 passes `x` with its sign flipped): the exact product, the sum
/// rounded to odd in f64, one RNE narrowing.
#[inline(always)]
pub fn bf16_fma(x: u16, y: u16, z: u16) -> u16 {
    narrow_bf16(add_round_to_odd_f64(bf16_to_f64(x) * bf16_to_f64(y), bf16_to_f64(z)))
}

/// bf16 `x·y` (mode 10, the emulator's `fma(x, y, −0)`): exact in f64, one narrowing.
#[inline(always)]
pub fn bf16_mul(x: u16, y: u16) -> u16 {
    narrow_bf16(bf16_to_f64(x) * bf16_to_f64(y))
}

/// bf16 `z + a` (modes 11 and 12, the emulator's `fma(x, 1, z)` and `fma(1, y, z)`): the sum
/// rounded to odd in f64, one RNE narrowing.
#[inline(always)]
pub fn bf16_add(z: u16, a: u16) -> u16 {
    narrow_bf16(add_round_to_odd_f64(bf16_to_f64(a), bf16_to_f64(z)))
}

/// f32 `z + x·y` (mode 0), the native correctly rounded `mul_add`.
#[inline(always)]
pub fn f32_fma(x: u32, y: u32, z: u32) -> u32 {
    canon_f32(f32::from_bits(x).mul_add(f32::from_bits(y), f32::from_bits(z)))
}

/// f32 `x·y` (mode 10).
#[inline(always)]
pub fn f32_mul(x: u32, y: u32) -> u32 {
    canon_f32(f32::from_bits(x) * f32::from_bits(y))
}

/// f32 `z + a` (modes 11 and 12).
#[inline(always)]
pub fn f32_add(z: u32, a: u32) -> u32 {
    canon_f32(f32::from_bits(z) + f32::from_bits(a))
}

/// f64 `z + x·y` (mode 0), the native correctly rounded `mul_add`.
#[inline(always)]
pub fn f64_fma(x: u64, y: u64, z: u64) -> u64 {
    canon_f64(f64::from_bits(x).mul_add(f64::from_bits(y), f64::from_bits(z)))
}

/// f64 `x·y` (mode 10).
#[inline(always)]
pub fn f64_mul(x: u64, y: u64) -> u64 {
    canon_f64(f64::from_bits(x) * f64::from_bits(y))
}

/// f64 `z + a` (modes 11 and 12).
#[inline(always)]
pub fn f64_add(z: u64, a: u64) -> u64 {
    canon_f64(f64::from_bits(z) + f64::from_bits(a))
}

#[cfg(test)]
mod tests {
    //! Hand-derived cases of the helpers (the integration tests compare them with rustc_apfloat
    //! and the reference model).
    use super::*;

    #[test]
    fn f16_widening_is_exact_at_the_edges() {
        let f = |h| f32::from_bits(f16_to_f32(h));
        assert_eq!(f(0x0001), 2f32.powi(-24)); // min subnormal
        assert_eq!(f(0x03FF), 1023.0 * 2f32.powi(-24)); // max subnormal
        assert_eq!(f(0x0400), 2f32.powi(-14)); // min normal
        assert_eq!(f(0x3C00), 1.0);
        assert_eq!(f(0x7BFF), 65504.0);
        assert_eq!(f(0xFC00), f32::NEG_INFINITY);
        assert_eq!(f16_to_f32(0x8000), 0x8000_0000);
        assert_eq!(f16_to_f32(0x0001), 0x3380_0000); // 2^-24 = 0x1.0p-24
        assert_eq!(f16_to_f32(0xC000), 0xC000_0000); // -2.0
        assert_eq!(f16_to_f32(0xFC01), F32_NAN);
        assert_eq!(bf16_to_f32(0xFF81), F32_NAN);
        assert_eq!(bf16_to_f32(0xFF80), 0xFF80_0000);
        assert_eq!(bf16_to_f64(0x3F81), 1.0 + 2f64.powi(-7));
    }

    #[test]
    fn narrowing_rounds_to_nearest_even_once() {
        // 1 + 2^-11 + 2^-20 is above the midpoint between 1 (0x3C00) and 1 + 2^-10 (0x3C01).
        assert_eq!(narrow_f16(1.0 + 2f32.powi(-11) + 2f32.powi(-20)), 0x3C01);
        assert_eq!(narrow_f16(1.0 + 2f32.powi(-11)), 0x3C00); // tie, to even
        assert_eq!(narrow_f16(1.0 + 3.0 * 2f32.powi(-11)), 0x3C02); // tie, to even (up)
        assert_eq!(narrow_f16(65520.0), 0x7C00); // the overflow threshold is a tie to even: Inf
        assert_eq!(narrow_f16(65519.996), 0x7BFF);
        assert_eq!(narrow_f16(2f32.powi(-25)), 0x0000); // half the min subnormal: tie to 0
        assert_eq!(narrow_f16(-(2f32.powi(-25) + 2f32.powi(-40))), 0x8001);
        assert_eq!(narrow_f16(3.0 * 2f32.powi(-25)), 0x0002); // 1.5 min subnormals: tie to 2
        assert_eq!(narrow_f16(2f32.powi(-14) - 2f32.powi(-25)), 0x0400); // tie up into the normals
        assert_eq!(narrow_f16(f32::NAN), F16_NAN);
        assert_eq!(narrow_f16(f32::NEG_INFINITY), 0xFC00);
        assert_eq!(narrow_f16(-1e30), 0xFC00);
        assert_eq!(narrow_f16(1e-30), 0x0000);
        // bf16: §5's sticky-loss example (1 + 2^-8 + 2^-40 goes up to 0x3F81).
        assert_eq!(narrow_bf16(1.0 + 2f64.powi(-8) + 2f64.powi(-40)), 0x3F81);
        assert_eq!(narrow_bf16(1.0 + 2f64.powi(-8)), 0x3F80); // tie, to even
        assert_eq!(narrow_bf16(2f64.powi(-133)), 0x0001); // min subnormal
        assert_eq!(narrow_bf16(2f64.powi(-134)), 0x0000); // its half: tie to 0
        assert_eq!(narrow_bf16(-3.0 * 2f64.powi(-134)), 0x8002); // 1.5 min subnormals: tie to 2
        assert_eq!(narrow_bf16(2f64.powi(-126) - 2f64.powi(-134)), 0x0080); // tie up into the normals
        assert_eq!(narrow_bf16(f64::from(f32::MAX)), 0x7F80); // above the midpoint past bf16 max: Inf
        assert_eq!(narrow_bf16(2f64.powi(200)), 0x7F80);
        assert_eq!(narrow_bf16(-0.0), 0x8000);
        assert_eq!(narrow_bf16(f64::NAN), BF16_NAN);
    }

    #[test]
    fn bf16_fma_avoids_double_rounding() {
        // §5: x = 0x3f81, y = 0x3fc0, z = 0x8001. x·y = (1 + 2^-7)·1.5 = 1.5 + 1.5·2^-7, whose
        // bf16 neighbours are 1.5 + 2^-7 (0x3FC1) and 1.5 + 2^-6 (0x3FC2); it is their midpoint.
        // z = -2^-133 is tiny and negative, so the exact sum lies just below the midpoint and
        // rounds down to 0x3FC1 (f32 FMA then RNE sees the tie and rounds to even, 0x3FC2).
        assert_eq!(bf16_fma(0x3F81, 0x3FC0, 0x8001), 0x3FC1);
        assert_eq!(bf16_fma(0x3F81, 0x3FC0, 0x0001), 0x3FC2);
        assert_eq!(bf16_fma(0x3F81, 0x3FC0, 0x0000), 0x3FC2); // the exact tie: to even
        // Signed zeros: −0 only when product and addend are both negative.
        assert_eq!(bf16_fma(0x8000, 0x3F80, 0x8000), 0x8000);
        assert_eq!(bf16_fma(0x3F80, 0x3F80, 0xBF80), 0x0000);
        assert_eq!(bf16_fma(0x7F80, 0x0000, 0x3F80), BF16_NAN); // Inf·0
        assert_eq!(bf16_fma(0x7F80, 0x3F80, 0xFF80), BF16_NAN); // Inf − Inf
        assert_eq!(bf16_fma(0x7F7F, 0x7F7F, 0xFF7F), 0x7F80); // overflow
        assert_eq!(bf16_mul(0x8000, 0x3F80), 0x8000); // fma(−0, 1, −0) = −0
    }

    #[test]
    fn min_max_select_on_bits() {
        assert_eq!(f32_min(0x0000_0000, 0x8000_0000), 0x8000_0000); // min(+0, −0) = −0
        assert_eq!(f32_max(0x8000_0000, 0x0000_0000), 0x0000_0000);
        assert_eq!(f16_min(0x7C01, 0x3C00), F16_NAN); // signalling NaN: the default NaN
        assert_eq!(bf16_max(0x3F80, 0xFFC1), BF16_NAN);
        assert_eq!(f64_min(0xBFF0_0000_0000_0000, 0xC000_0000_0000_0000), 0xC000_0000_0000_0000);
        assert_eq!(f16_select(0x8001, 0x7C01), 0); // −subnormal ≤ 0: +0
        assert_eq!(f16_select(0xFC01, 0x7C01), 0x7C01); // NaN x: y raw, sNaN kept
        assert_eq!(bf16_select(0xFF80, 0x1234), 0); // −Inf ≤ 0
        assert_eq!(f32_select(0x0000_0001, 0xFFFF_FFFF), 0xFFFF_FFFF);
    }
}
