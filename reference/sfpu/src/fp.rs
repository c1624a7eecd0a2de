//! Floating-point helpers: the three bit-exact FMA models and the small FP32 bit-field helpers
//! that the instruction pages use.
//!
//! The FMA models transcribe tt-isa-documentation `Miscellaneous/FMA/fma.c`
//! (@ `06c5af5b8b68c9e59e698ab76b59181b7dd47222`), which writes its IEEE, Blackhole and Wormhole
//! models in one style so that their differences stand out; the three functions below keep that
//! shape, step for step, so the same holds here. Where the Blackhole model departs from IEEE 754,
//! and worked examples, are in `docs/spec/sfpu-blackhole.md#fma-examples`.
//!
//! All three compute `x * y + z` on raw FP32 bit patterns.

use crate::isa::Arch;

/// The chip's FMA model, as its pages' "IEEE754 conformance" sections select:
/// [`fma_model_bh`] on Blackhole, [`fma_model_wh`] on Wormhole.
pub fn fma_model(arch: Arch, x: u32, y: u32, z: u32) -> u32 {
    match arch {
        Arch::Blackhole => fma_model_bh(x, y, z),
        Arch::Wormhole => fma_model_wh(x, y, z),
    }
}

/// Sign bit of an FP32 pattern.
pub const SIGN: u32 = 0x8000_0000;
/// The canonical quiet NaN that the IEEE and Blackhole models return.
pub const CANONICAL_NAN: u32 = 0x7FC0_0000;
/// Positive infinity.
pub const INF: u32 = 0x7F80_0000;

/// The biased exponent field `[30:23]` of an FP32 pattern.
pub const fn exp(x: u32) -> u32 {
    (x >> 23) & 0xFF
}

/// The mantissa field `[22:0]` of an FP32 pattern.
pub const fn man(x: u32) -> u32 {
    x & 0x7F_FFFF
}

/// The sign bit `[31]` of an FP32 pattern, in place.
pub const fn sign(x: u32) -> u32 {
    x & SIGN
}

/// Count leading zeros of a non-zero `u32` (the C `__builtin_clz`); 32 for zero, where C is
/// undefined but the models never call it.
const fn clz32(x: u32) -> i32 {
    x.leading_zeros() as i32
}

/// Count leading zeros of a `u64` (the C `__builtin_clzll`).
const fn clz64(x: u64) -> i32 {
    x.leading_zeros() as i32
}

/// Unpacked operand: biased exponent and mantissa including the implicit bit.
struct Unpacked<M> {
    e: i32,
    m: M,
}

/// `fp32_unpack` of `fma_model_ieee`: denormals are normalised into a wider exponent range, so
/// the mantissa always has its leading one at bit 23 (or is zero).
fn unpack_ieee(v: u32) -> Unpacked<u64> {
    let mut e = ((v >> 23) & 255) as i32;
    let mut m = ((v & 0x7F_FFFF) ^ 0x80_0000) as u64;
    if e == 0 {
        // Convert a denormal to something closer to a normal number.
        m ^= 0x80_0000;
        e = 9 - clz32((m | 1) as u32);
        m <<= 1 - e;
    }
    Unpacked { e, m }
}

/// `fp32_unpack_no_denorms` of the Blackhole and Wormhole models: a zero or denormal input gets
/// mantissa 0 (denormals are flushed; the sign is kept separately).
fn unpack_no_denorms(v: u32) -> Unpacked<u32> {
    let e = ((v >> 23) & 255) as i32;
    let mut m = (v & 0x7F_FFFF) ^ 0x80_0000;
    if e == 0 {
        m = 0;
    }
    Unpacked { e, m }
}

/// `sticky_shift` of `fma_model_ieee`: shift right by `s`, OR-ing any shifted-out one into the
/// least significant bit; a shift of the whole width or more leaves only the sticky bit.
fn sticky_shift_u64(v: u64, s: i32) -> u64 {
    if s >= 64 {
        (v != 0) as u64
    } else {
        let shifted = v >> s;
        shifted | ((shifted << s) != v) as u64
    }
}

/// `semi_sticky_shift` of the Blackhole and Wormhole models: like `sticky_shift`, except that a
/// shift of the whole width or more gives 0, and the sticky bit is set only if the shifted value
/// is non-zero. `width` is the C variable's width (64 for the product, 32 for the addend).
fn semi_sticky_shift(v: u64, s: i32, width: i32) -> u64 {
    if s >= width {
        0
    } else {
        let shifted = v >> s;
        // For the 32-bit addend the C code shifts back in 32 bits; the value never loses
        // high bits there because it was shifted right first.
        if shifted != 0 { shifted | ((shifted << s) != v) as u64 } else { shifted }
    }
}

/// IEEE 754 binary32 fused multiply-add `x * y + z`, rounding to nearest with ties to even,
/// with every NaN result canonical (`0x7FC00000`). Denormals are fully supported.
///
/// Transcribes `fma_model_ieee` of `Miscellaneous/FMA/fma.c`.
pub fn fma_model_ieee(x: u32, y: u32, z: u32) -> u32 {
    // Unpack inputs.
    let Unpacked { e: x_e, m: x_m } = unpack_ieee(x);
    let Unpacked { e: y_e, m: y_m } = unpack_ieee(y);
    let Unpacked { e: mut z_e, m: mut z_m } = unpack_ieee(z);
    let z_sign = z & SIGN;

    // p = x * y
    let p_sign = (x ^ y) & SIGN;
    let mut p_m = x_m * y_m;
    let p_e = x_e + y_e - 23 - 127;

    // Add three extra bits of precision (guard, round, sticky).
    p_m <<= 3;
    z_m <<= 3;

    // Handle a NaN or infinite input.
    if x_e == 255 || y_e == 255 || z_e == 255 {
        if (x_e == 255 && (x_m != 0x80_0000 || y_m == 0)) // x NaN, or x Inf times y zero
            || (y_e == 255 && (y_m != 0x80_0000 || x_m == 0)) // y NaN, or y Inf times x zero
            || (z_e == 255 && z_m != 0x400_0000) // z NaN
            || (z_e == 255 && (x_e == 255 || y_e == 255) && z_sign != p_sign)
        // z Inf and x*y Inf with different signs
        {
            return CANONICAL_NAN;
        } else if z_e == 255 {
            return z; // z Inf
        } else {
            return p_sign | INF; // x*y Inf
        }
    }

    // Realign z_m to match p_m (adding 23 bits).
    z_m <<= 23;
    z_e -= 23;

    // Shortcut if p == 0.
    if p_m == 0 {
        return if z_m != 0 { z } else { z_sign & p_sign };
    }

    // r = z + p
    let mut r_e = p_e.max(z_e);
    if p_e < r_e {
        p_m = sticky_shift_u64(p_m, r_e - p_e); // discard low bits from p_m
    }
    if z_e < r_e {
        z_m = sticky_shift_u64(z_m, r_e - z_e); // discard low bits from z_m
    }
    let r_sign = if p_m >= z_m { p_sign } else { z_sign };
    if z_sign != r_sign {
        z_m = !z_m;
    }
    if p_sign != r_sign {
        p_m = !p_m;
    }
    let mut r_m = z_m.wrapping_add(p_m).wrapping_add((p_sign != z_sign) as u64);

    // Shortcut if r == 0.
    if r_m == 0 {
        return z_sign & p_sign;
    }

    // Normalise the 64-bit result to 37 zero bits, a one bit, and 26 fraction bits.
    let mut n = 37 - clz64(r_m);
    r_e += n;
    if r_e >= 255 {
        return r_sign | INF;
    }
    if r_e <= 0 {
        // Denormal or zero.
        n += 1 - r_e;
        r_e = 0;
    }
    if n <= 0 {
        r_m <<= -n;
    } else {
        r_m = sticky_shift_u64(r_m, n);
    }

    // Start reassembling the result.
    let mut r = ((r_e as u32) << 23) | ((r_m >> 3) as u32 & 0x7F_FFFF);

    // Round to nearest even.
    r += (((r_m & 7) as u32 + (r & 1)) > 4) as u32;

    r_sign | r
}

/// The FMA of the Blackhole Vector Unit (the SFPMAD family, SFPLUT, SFPLUTFP32) and of the
/// Blackhole Baby RISC-V `fma.s`: `x * y + z`, partially fused, denormals treated as zero on
/// input and flushed (keeping their sign) after rounding, NaN results always `0x7FC00000`.
///
/// Transcribes `fma_model_bh` of `Miscellaneous/FMA/fma.c`.
pub fn fma_model_bh(x: u32, y: u32, z: u32) -> u32 {
    // Unpack inputs (step 1: denormal inputs become zero).
    let Unpacked { e: x_e, m: x_m } = unpack_no_denorms(x);
    let Unpacked { e: y_e, m: y_m } = unpack_no_denorms(y);
    let Unpacked { e: z_e, m: z_m } = unpack_no_denorms(z);
    let z_sign = z & SIGN;

    // p = x * y (step 2)
    let p_sign = (x ^ y) & SIGN;
    let mut p_m = x_m as u64 * y_m as u64;
    let mut p_e = x_e + y_e - 23 - 127;

    // Add three extra bits of precision (step 3).
    p_m <<= 3;
    let mut z_m = (z_m as u64) << 3;

    // Realign p_m to match z_m, removing 23 bits (step 4).
    p_m = (p_m >> 23) | ((p_m & 0x7F_FFFF) != 0) as u64;
    p_e += 23;

    // Handle a NaN or infinite input, or an infinite x*y (step 5).
    if x_e == 255 || y_e == 255 || p_e >= 255 || z_e == 255 {
        if (x_e == 255 && (x_m != 0x80_0000 || y_m == 0)) // x NaN, or x Inf times y zero
            || (y_e == 255 && (y_m != 0x80_0000 || x_m == 0)) // y NaN, or y Inf times x zero
            || (z_e == 255 && z_m != 0x400_0000) // z NaN
            || (z_e == 255 && (x_e == 255 || y_e == 255) && z_sign != p_sign)
        // z Inf and x*y Inf with different signs
        {
            return CANONICAL_NAN;
        } else if z_e == 255 {
            return z; // z Inf
        } else {
            return p_sign | INF; // x*y Inf
        }
    }

    // Shortcut if p == 0, or if the multiply on its own would underflow (step 6).
    if p_m == 0 || p_e < 0 {
        return if z_m != 0 { z } else { z_sign & p_sign };
    }

    // r = z + p (steps 7 and 8)
    let mut r_e = p_e.max(z_e);
    if p_e < r_e {
        p_m = semi_sticky_shift(p_m, r_e - p_e, 64); // discard low bits from p_m
    }
    if z_e < r_e {
        z_m = semi_sticky_shift(z_m, r_e - z_e, 32); // discard low bits from z_m
    }
    let r_sign = if p_m >= z_m { p_sign } else { z_sign };
    // In C, z_m is a uint32_t, so its complement is taken in 32 bits; the sum is truncated to
    // the 32-bit r_m.
    let mut z_m32 = z_m as u32;
    if z_sign != r_sign {
        z_m32 = !z_m32;
    }
    if p_sign != r_sign {
        p_m = !p_m;
    }
    let mut r_m = (z_m32 as u64).wrapping_add(p_m).wrapping_add((p_sign != z_sign) as u64) as u32;

    // Shortcut if r == 0 (step 9).
    if r_m == 0 {
        return z_sign & p_sign;
    }

    // Normalise the 32-bit result to 5 zero bits, a one bit, and 26 fraction bits (step 10).
    let mut n = 5 - clz32(r_m);
    r_e += n;
    if r_e >= 255 {
        return r_sign | INF;
    }
    if r_e <= 0 {
        // Denormal or zero: only one extra position, whatever r_e was.
        n += 1;
        r_e = 0;
    }
    if n <= 0 {
        r_m <<= -n;
    } else {
        r_m = (r_m >> n) | ((r_m & (n as u32 | 1)) != 0) as u32;
    }

    // Start reassembling the result (step 11).
    let mut r = ((r_e as u32) << 23).wrapping_add((r_m >> 3) & 0x7F_FFFF);

    // Round to nearest even (step 12).
    r += (((r_m & 7) + (r & 1)) > 4) as u32;

    // Flush denormals, after rounding, preserving the sign (step 13).
    if r >> 23 == 0 {
        r = 0;
    }

    r_sign | r
}

/// The FMA of the Wormhole Vector Unit: like [`fma_model_bh`] but every zero result is `+0`,
/// NaN results are `sign | 0x7F800001` with further mantissa bits possibly leaking in, results
/// whose exponent is negative before rounding are flushed, and the normalising shift keeps only
/// the lowest shifted-out bit as sticky.
///
/// Transcribes `fma_model_wh` of `Miscellaneous/FMA/fma.c`.
pub fn fma_model_wh(x: u32, y: u32, z: u32) -> u32 {
    // Unpack inputs.
    let Unpacked { e: x_e, m: x_m } = unpack_no_denorms(x);
    let Unpacked { e: y_e, m: y_m } = unpack_no_denorms(y);
    let Unpacked { e: z_e, m: z_m } = unpack_no_denorms(z);
    let z_sign = z & SIGN;

    // p = x * y
    let p_sign = (x ^ y) & SIGN;
    let mut p_m = x_m as u64 * y_m as u64;
    let mut p_e = x_e + y_e - 23 - 127;

    // Add three extra bits of precision.
    p_m <<= 3;
    let mut z_m = (z_m as u64) << 3;

    // Realign p_m to match z_m, removing 23 bits.
    p_m = (p_m >> 23) | ((p_m & 0x7F_FFFF) != 0) as u64;
    p_e += 23;

    // Handle a NaN or infinite input, or an infinite x*y. A NaN result is not returned at once:
    // some mantissa bits of the sum can still leak into it.
    let mut nan_result = 0u32;
    if x_e == 255 || y_e == 255 || p_e >= 255 || z_e == 255 {
        if (x_e == 255 && (x_m != 0x80_0000 || y_m == 0)) // x NaN, or x Inf times y zero
            || (y_e == 255 && (y_m != 0x80_0000 || x_m == 0)) // y NaN, or y Inf times x zero
            || (z_e == 255
                && z_m == 0x400_0000
                && (x_e == 255 || y_e == 255 || p_e >= 255)
                && z_sign != p_sign)
        // z Inf and x*y Inf with different signs
        {
            nan_result = p_sign | 0x7F80_0001;
        } else if z_e == 255 && z_m != 0x400_0000 {
            nan_result = z_sign | 0x7F80_0001; // z NaN
        } else if z_e == 255 {
            return z; // z Inf
        } else {
            return p_sign | INF; // x*y Inf
        }
        if p_e > 255 {
            p_e = 255;
        }
    }

    // Shortcut if p == 0, or if the multiply on its own would underflow.
    if p_m == 0 || p_e < 0 {
        if nan_result != 0 {
            p_m = 0;
            p_e = 0;
        } else {
            return if z_m != 0 { z } else { 0 };
        }
    }

    // r = z + p
    let mut r_e = p_e.max(z_e);
    if p_e < r_e {
        p_m = semi_sticky_shift(p_m, r_e - p_e, 64);
    }
    if z_e < r_e {
        z_m = semi_sticky_shift(z_m, r_e - z_e, 32);
    }
    let r_sign = if p_m >= z_m { p_sign } else { z_sign };
    let mut z_m32 = z_m as u32;
    if z_sign != r_sign {
        z_m32 = !z_m32;
    }
    if p_sign != r_sign {
        p_m = !p_m;
    }
    let mut r_m = (z_m32 as u64).wrapping_add(p_m).wrapping_add((p_sign != z_sign) as u64) as u32;

    // Shortcut if r == 0.
    if r_m == 0 {
        return nan_result;
    }

    // Normalise the 32-bit result to 5 zero bits, a one bit, and 26 fraction bits.
    let n = 5 - clz32(r_m);
    r_e += n;
    if r_e >= 255 {
        return if nan_result != 0 { nan_result } else { r_sign | INF };
    }
    if r_e < 0 {
        // Flush blatant denormals, before rounding, discarding the sign.
        return nan_result;
    }
    if n <= 0 {
        r_m <<= -n;
    } else {
        r_m = (r_m >> n) | (r_m & 1);
    }

    // Start reassembling the result.
    let mut r = ((r_e as u32) << 23).wrapping_add((r_m >> 3) & 0x7F_FFFF);

    // Round to nearest even.
    r += (((r_m & 7) + (r & 1)) > 4) as u32;

    // Flush denormals, after rounding, discarding the sign.
    if r >> 23 == 0 {
        return nan_result;
    }

    (if nan_result != 0 { nan_result } else { r_sign }) | r
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Worked examples (`docs/spec/sfpu-blackhole.md#fma-examples`, each with both the Blackhole
    /// and the IEEE result), as `(x, y, z, bh, ieee)`.
    const SPEC_EXAMPLES: &[(u32, u32, u32, u32, u32)] = &[
        (0x7F00_0000, 0x4000_0000, 0xFF00_0000, 0x7F80_0000, 0x7F00_0000), // product overflow is final
        (0x2000_0000, 0x1F00_0000, 0x0080_0000, 0x0080_0000, 0x00A0_0000), // product underflow is final
        (0x3F80_0001, 0x3F80_0001, 0xBF80_0002, 0x3280_0000, 0x2880_0000), // partial fusion
        (0x17A8_791D, 0x2A9B_6B8C, 0x8128_A061, 0x02B7_7C2A, 0x02B7_7C2B), // 1-ulp without cancellation
        (0xBC16_B9C2, 0x8412_A431, 0x808C_AD39, 0x0080_0000, 0x0020_0000), // tiny result rounds up
        (0x04BB_45BF, 0xBB93_BCF4, 0x0098_268D, 0x8080_0000, 0x8040_0000),
        (0x27B4_A3E7, 0x1ADF_5E90, 0x8322_ED69, 0x80A9_FD1C, 0x80A9_FD1F),
    ];

    #[test]
    fn spec_worked_examples() {
        for &(x, y, z, bh, ieee) in SPEC_EXAMPLES {
            assert_eq!(fma_model_bh(x, y, z), bh, "bh {x:08x} * {y:08x} + {z:08x}");
            assert_eq!(fma_model_ieee(x, y, z), ieee, "ieee {x:08x} * {y:08x} + {z:08x}");
        }
        // The IEEE value of this one is given with FTZ/DAZ, so only the Blackhole result is exact.
        assert_eq!(fma_model_bh(0xCCBC_0FCE, 0x439D_FE8E, 0x50E8_2160), 0xC5A8_0000);
    }

    #[test]
    fn spec_wormhole_examples() {
        // `docs/spec/sfpu-wormhole.md#fma-examples-on-wormhole`, as (x, y, z, bh, wh).
        let cases: &[(u32, u32, u32, u32, u32)] = &[
            (0x8000_0000, 0x3F80_0000, 0x8000_0000, 0x8000_0000, 0x0000_0000),
            (0x8080_0000, 0x3F00_0000, 0x0000_0000, 0x8000_0000, 0x0000_0000),
            (0x7F80_0001, 0x3F80_0000, 0x0000_0000, CANONICAL_NAN, 0x7F80_0001),
            (0xFFC0_0000, 0x3F80_0000, 0x0000_0000, CANONICAL_NAN, 0xFF80_0001),
            (0x5F80_0000, 0x5F80_0000, 0xFF80_0000, 0xFF80_0000, 0x7F80_0001),
        ];
        for &(x, y, z, bh, wh) in cases {
            assert_eq!(fma_model_bh(x, y, z), bh, "bh {x:08x} * {y:08x} + {z:08x}");
            assert_eq!(fma_model_wh(x, y, z), wh, "wh {x:08x} * {y:08x} + {z:08x}");
        }
    }

    #[test]
    fn signed_zero_rules() {
        // `docs/spec/sfpu-blackhole.md#fma-examples`: `-0*1 + -0 = -0`, `x - x = +0` on Blackhole.
        assert_eq!(fma_model_bh(0x8000_0000, 0x3F80_0000, 0x8000_0000), 0x8000_0000);
        assert_eq!(fma_model_bh(0x3F80_0000, 0x4040_0000, 0xC040_0000), 0x0000_0000);
    }
}
