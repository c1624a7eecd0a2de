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
//! * **f16**: exact widening to f64 ([`f16_to_f64`]), then `x·y + z` in f64 **without** an FMA,
//!   then our own RNE narrowing ([`narrow_f16`]). The product of two 11-bit significands has 22
//!   bits, so `x·y` is exact in f64. The sum is exact too whenever the f16 result can be affected:
//!   if the product is the larger term, every non-zero bit lies between 2^31 and 2^-48 (well
//!   within 53 bits) unless the result overflows f16 anyway; if the addend is larger by more
//!   than 2^31, the product is far below half an f16 ulp of it and the f64 rounding (at most one
//!   f64 ulp of the addend) cannot reach an f16 rounding boundary. One rounding in effect, so
//!   one correct RNE. Modes 10 and 11/12 are the same route with the product alone or `x + z`
//!   (exact in f64: both terms lie between 2^16 and 2^-24). `half::f16::from_f64` is not used: it
//!   double-rounds (§5).
//! * **bf16**: round to odd (§5, the notes' fast route, not the emulator's integer FMA).
//!   `x·y` is exact in f64 (8 × 8 significand bits; the exponent range of a product of bf16
//!   values, 2^256 to 2^-266, is inside f64's). The sum `p + z` is rounded to nearest in f64 and
//!   its exact error recovered with TwoSum ([`add_round_to_odd`]); when the sum is inexact and its
//!   last bit is even, it is moved one f64 ulp toward the error, which gives the sum rounded to
//!   odd at 53 bits. Rounding that to bf16 with RNE ([`narrow_bf16`]) is the correctly rounded
//!   result because 53 ≥ 2·8 + 2 (the round-to-odd theorem; f64 is normal over the whole range
//!   involved, so the 53 bits hold at bf16's subnormal boundary too). A plain f32 or f64 FMA
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

/// 2^1008: scales an f16 bit pattern placed in an f64's low exponent bits to its value.
const TWO_POW_1008: f64 = f64::from_bits((1008 + 1023) << 52);
/// 2^112: the same for an f16 bit pattern placed in an f32.
const TWO_POW_112: f32 = f32::from_bits((112 + 127) << 23);

/// An f16 as the f64 of the same value (exact for every value; ±Inf stay ±Inf, a NaN stays a
/// NaN).
///
/// The 15 magnitude bits shifted into place form an f64 whose exponent field is the f16's (a
/// subnormal f16 becomes a subnormal f64); multiplying by 2^1008 rebiases it. A power-of-two
/// scaling with a normal result is exact, so the finite values need no normalisation loop.
#[inline(always)]
pub fn f16_to_f64(h: u16) -> f64 {
    let mag = (h & 0x7FFF) as u64;
    let finite = (f64::from_bits(mag << 42) * TWO_POW_1008).to_bits();
    let special = if mag == 0x7C00 { f64::INFINITY.to_bits() } else { F64_NAN };
    let bits = if mag >= 0x7C00 { special } else { finite };
    f64::from_bits(bits | ((h as u64 & 0x8000) << 48))
}

/// A bf16 as the f64 of the same value (exact; a bf16 is the top half of an f32).
#[inline(always)]
pub fn bf16_to_f64(h: u16) -> f64 {
    f32::from_bits((h as u32) << 16) as f64
}

/// The pair modes' widening of an f16 to f32 (§2.3): exact for every non-NaN value, subnormals
/// included; a NaN becomes `0x7FC0_0000`. Same rebiasing trick as [`f16_to_f64`], with 2^112.
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

/// `v` rounded to nearest, ties to even, into the binary format with `EB` exponent bits and `MB`
/// fraction bits (returned as its bit pattern), with gradual underflow and overflow to ±Inf; a
/// NaN gives that format's default NaN.
///
/// The significand with its implicit bit is shifted right by the number of bits the target
/// format cannot hold: `52 − MB` for a normal result, more for a subnormal one (at most 54,
/// which leaves a zero and a remainder below half). For a normal result the biased exponent is
/// added above the significand first, so a rounding carry out of the fraction increments the
/// exponent, and out of the largest exponent gives the infinity pattern: no separate overflow
/// check after rounding. Every step is a select, so it vectorises.
#[inline(always)]
pub fn narrow<const EB: u32, const MB: u32>(v: f64) -> u64 {
    let bias = (1i64 << (EB - 1)) - 1;
    let emin = 1 - bias;
    let b = v.to_bits();
    let sign = (b >> 63) << (EB + MB);
    let a = b & !(1u64 << 63);
    let e = (a >> 52) as i64 - 1023;
    let man = (a & ((1u64 << 52) - 1)) | (1u64 << 52);
    let normal = e >= emin;
    // `e - emin` < 2048 when normal, so the shift stays inside the u64.
    let t = if normal { (((e - emin) as u64) << 52).wrapping_add(man) } else { man };
    let sh = if normal { 52 - MB as i64 } else { (52 - MB as i64 + emin - e).min(54) } as u32;
    let q = t >> sh;
    let r = t & ((1u64 << sh) - 1);
    let half = 1u64 << (sh - 1);
    let up = (r > half) | ((r == half) & (q & 1 == 1));
    let q = q + up as u64;
    let inf = ((1u64 << EB) - 1) << MB;
    let default_nan = inf | (1 << (MB - 1));
    if a > 0x7FF0_0000_0000_0000 {
        default_nan
    } else if e > bias {
        sign | inf
    } else {
        sign | q
    }
}

/// [`narrow`] to f16.
#[inline(always)]
pub fn narrow_f16(v: f64) -> u16 {
    narrow::<5, 10>(v) as u16
}

/// [`narrow`] to bf16.
#[inline(always)]
pub fn narrow_bf16(v: f64) -> u16 {
    narrow::<8, 7>(v) as u16
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
pub fn add_round_to_odd(p: f64, z: f64) -> f64 {
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

/// f16 `z + x·y` (mode 0; mode 1 passes `x` with its sign flipped): one rounding, see the module
/// docs for why `x·y + z` in f64 is exact where it matters.
#[inline(always)]
pub fn f16_fma(x: u16, y: u16, z: u16) -> u16 {
    narrow_f16(f16_to_f64(x) * f16_to_f64(y) + f16_to_f64(z))
}

/// f16 `x·y` (mode 10): exact in f64, one narrowing.
#[inline(always)]
pub fn f16_mul(x: u16, y: u16) -> u16 {
    narrow_f16(f16_to_f64(x) * f16_to_f64(y))
}

/// f16 `z + a` (modes 11 and 12): exact in f64, one narrowing.
#[inline(always)]
pub fn f16_add(z: u16, a: u16) -> u16 {
    narrow_f16(f16_to_f64(z) + f16_to_f64(a))
}

/// bf16 `z + x·y` (mode 0; mode 1 passes `x` with its sign flipped): the exact product, the sum
/// rounded to odd in f64, one RNE narrowing.
#[inline(always)]
pub fn bf16_fma(x: u16, y: u16, z: u16) -> u16 {
    narrow_bf16(add_round_to_odd(bf16_to_f64(x) * bf16_to_f64(y), bf16_to_f64(z)))
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
    narrow_bf16(add_round_to_odd(bf16_to_f64(a), bf16_to_f64(z)))
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
        assert_eq!(f16_to_f64(0x0001), 2f64.powi(-24)); // min subnormal
        assert_eq!(f16_to_f64(0x03FF), 1023.0 * 2f64.powi(-24)); // max subnormal
        assert_eq!(f16_to_f64(0x0400), 2f64.powi(-14)); // min normal
        assert_eq!(f16_to_f64(0x3C00), 1.0);
        assert_eq!(f16_to_f64(0x7BFF), 65504.0);
        assert_eq!(f16_to_f64(0xFC00), f64::NEG_INFINITY);
        assert_eq!(f16_to_f64(0x8000).to_bits(), 0x8000_0000_0000_0000);
        assert!(f16_to_f64(0x7C01).is_nan() && f16_to_f64(0xFE00).is_nan());
        assert_eq!(f16_to_f32(0x0001), 0x3380_0000); // 2^-24 = 0x1.0p-24
        assert_eq!(f16_to_f32(0xC000), 0xC000_0000); // -2.0
        assert_eq!(f16_to_f32(0xFC01), F32_NAN);
        assert_eq!(bf16_to_f32(0xFF81), F32_NAN);
        assert_eq!(bf16_to_f32(0xFF80), 0xFF80_0000);
    }

    #[test]
    fn narrowing_rounds_to_nearest_even_once() {
        // §5's example of half's double rounding: 1 + 2^-11 + 2^-40 is above the midpoint
        // between 1 (0x3C00) and 1 + 2^-10 (0x3C01), so it rounds up.
        assert_eq!(narrow_f16(1.0 + 2f64.powi(-11) + 2f64.powi(-40)), 0x3C01);
        assert_eq!(narrow_f16(1.0 + 2f64.powi(-11)), 0x3C00); // tie, to even
        assert_eq!(narrow_f16(1.0 + 3.0 * 2f64.powi(-11)), 0x3C02); // tie, to even (up)
        assert_eq!(narrow_f16(65520.0), 0x7C00); // the overflow threshold is a tie to even: Inf
        assert_eq!(narrow_f16(65519.99), 0x7BFF);
        assert_eq!(narrow_f16(2f64.powi(-25)), 0x0000); // half the min subnormal: tie to 0
        assert_eq!(narrow_f16(-(2f64.powi(-25) + 2f64.powi(-60))), 0x8001);
        assert_eq!(narrow_f16(3.0 * 2f64.powi(-25)), 0x0002); // 1.5 min subnormals: tie to 2
        assert_eq!(narrow_f16(2f64.powi(-14) - 2f64.powi(-25)), 0x0400); // rounds up into the normals
        assert_eq!(narrow_f16(f64::NAN), F16_NAN);
        assert_eq!(narrow_f16(-1e300), 0xFC00);
        assert_eq!(narrow_f16(1e-300), 0x0000);
        // bf16: §5's sticky-loss example (1 + 2^-8 + 2^-40 goes up to 0x3F81).
        assert_eq!(narrow_bf16(1.0 + 2f64.powi(-8) + 2f64.powi(-40)), 0x3F81);
        assert_eq!(narrow_bf16(2f64.powi(-133)), 0x0001); // min subnormal
        assert_eq!(narrow_bf16(2f64.powi(-134)), 0x0000); // its half: tie to 0
        assert_eq!(narrow_bf16(f64::from(f32::MAX)), 0x7F80); // above the midpoint past bf16 max: Inf
        assert_eq!(narrow_bf16(-0.0), 0x8000);
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
