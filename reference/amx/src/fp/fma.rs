//! The exact fused multiply-add on integer significands, used for bf16 (§5: the reference's bf16
//! route is an integer FMA; f32 → bf16 or f64 → bf16 after a float FMA double-rounds).
//!
//! Spec: `amx-vecfp.md` §2.8 "FMA" (one RNE rounding, subnormals kept, overflow to ±Inf,
//! `Inf·0` and `Inf − Inf` give the default NaN, exact zero is −0 only when both the product and
//! the addend are negative) and §3 `bf16_fma`. The algorithm is ours, not a port of the
//! emulator's: the product is formed exactly, both terms are normalised to the same bit position
//! of a `u128`, the smaller is shifted into place with a sticky bit, and the exact-or-sticky sum is
//! rounded once by [`round_pack`]. It is written for any [`Format`]; the reference uses it for
//! bf16 only, and the tests check it for all four formats.

use super::format::Format;
use super::round::round_pack;

/// The bit at which both terms' leading ones are placed: the sum of two such terms still fits
/// (bit 126), and a product of two 53-bit significands (106 bits) fits below it.
const TOP: u32 = 125;

/// `x · y + z` in `fmt` with a single RNE rounding; any NaN result is the default NaN.
pub fn fma_exact(fmt: Format, x: u64, y: u64, z: u64) -> u64 {
    let (x, y, z) = (fmt.mask(x), fmt.mask(y), fmt.mask(z));
    // NaN inputs, and the invalid operations Inf·0 and (±Inf) + (∓Inf).
    if fmt.is_nan(x) || fmt.is_nan(y) || fmt.is_nan(z) {
        return fmt.default_nan();
    }
    let p_sign = fmt.sign(x) != fmt.sign(y);
    let z_sign = fmt.sign(z);
    let (x_inf, y_inf, z_inf) = (fmt.is_inf(x), fmt.is_inf(y), fmt.is_inf(z));
    if (x_inf && fmt.is_zero(y)) || (y_inf && fmt.is_zero(x)) {
        return fmt.default_nan();
    }
    if x_inf || y_inf {
        if z_inf && z_sign != p_sign {
            return fmt.default_nan();
        }
        return if p_sign { fmt.sign_bit() | fmt.inf() } else { fmt.inf() };
    }
    if z_inf {
        return z;
    }

    // p = x · y, exactly.
    let (_, xm, xe) = fmt.unpack(x);
    let (_, ym, ye) = fmt.unpack(y);
    let (_, zm, ze) = fmt.unpack(z);
    let (pm, pe) = (xm * ym, xe + ye);
    if pm == 0 {
        // An exact zero product: the result is z, or a zero that is −0 only if both are negative.
        return if zm == 0 { if p_sign && z_sign { fmt.sign_bit() } else { 0 } } else { z };
    }
    if zm == 0 {
        return round_pack(fmt, p_sign, pm, pe);
    }

    // r = p + z. Normalise both so that the leading one is at bit TOP; then the exponents compare
    // as the magnitudes' binades do.
    let (pm, pe) = normalise(pm, pe);
    let (zm, ze) = normalise(zm, ze);
    let ((big_sign, big_m, big_e), (small_sign, small_m, small_e)) =
        if pe >= ze { ((p_sign, pm, pe), (z_sign, zm, ze)) } else { ((z_sign, zm, ze), (p_sign, pm, pe)) };
    let small_m = sticky_shift_right(small_m, big_e - small_e);
    let (r_sign, r_m) = if big_sign == small_sign {
        (big_sign, big_m + small_m)
    } else if big_m >= small_m {
        (big_sign, big_m - small_m)
    } else {
        (small_sign, small_m - big_m)
    };
    if r_m == 0 {
        return 0; // exact cancellation of non-zero terms is +0 under RNE
    }
    // When the shift above lost bits, it was by more than one place, so the sum keeps at least
    // TOP − 1 places above the sticky bit: far more than the 53 + 2 that rounding needs.
    round_pack(fmt, r_sign, r_m, big_e)
}

/// `(m, e)` rescaled so that the leading one of `m` is at bit [`TOP`]; `m` is non-zero and at
/// most 106 bits wide, so the shift is to the left.
fn normalise(m: u128, e: i32) -> (u128, i32) {
    let shift = TOP - (127 - m.leading_zeros());
    (m << shift, e - shift as i32)
}

/// `v >> s`, OR-ing a one into bit 0 if any one was shifted out ("sticky").
fn sticky_shift_right(v: u128, s: i32) -> u128 {
    if s <= 0 {
        v
    } else if s >= 128 {
        (v != 0) as u128
    } else {
        let kept = v >> s;
        kept | ((kept << s) != v) as u128
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn double_rounding_example_of_the_notes() {
        // §5: x = 0x3f81 (1 + 2^-7), y = 0x3fc0 (1.5), z = 0x8001 (−2^-133).
        // x·y = 1.5 + 1.5·2^-7 = 1.5 + 3·2^-8: between the bf16 neighbours 1.5 + 2^-7 (0x3fc1)
        // and 1.5 + 2^-6 (0x3fc2), exactly on their midpoint. The tiny negative z pulls the exact
        // sum just below the midpoint, so the correct result is 0x3fc1. Rounding the sum to f32
        // first lands on the midpoint itself, which then ties to even: 0x3fc2.
        assert_eq!(fma_exact(Format::BF16, 0x3f81, 0x3fc0, 0x8001), 0x3fc1);
        assert_eq!(fma_exact(Format::BF16, 0x3f81, 0x3fc0, 0x0001), 0x3fc2);
        assert_eq!(fma_exact(Format::BF16, 0x3f81, 0x3fc0, 0x0000), 0x3fc2); // tie to even
    }

    #[test]
    fn special_cases() {
        let f = Format::BF16;
        assert_eq!(fma_exact(f, 0x7f80, 0x0000, 0x3f80), 0x7fc0); // Inf · 0
        assert_eq!(fma_exact(f, 0x7f80, 0x3f80, 0xff80), 0x7fc0); // Inf − Inf
        assert_eq!(fma_exact(f, 0xff80, 0x3f80, 0xff80), 0xff80); // −Inf − Inf
        assert_eq!(fma_exact(f, 0x3f80, 0x3f80, 0xff80), 0xff80); // 1 − Inf
        assert_eq!(fma_exact(f, 0x8000, 0x3f80, 0x8000), 0x8000); // −0·1 + −0 = −0
        assert_eq!(fma_exact(f, 0x8000, 0x3f80, 0x0000), 0x0000); // −0 + +0 = +0
        assert_eq!(fma_exact(f, 0x3f80, 0x3f80, 0xbf80), 0x0000); // 1 − 1 = +0
        assert_eq!(fma_exact(f, 0x7f7f, 0x4000, 0x0000), 0x7f80); // overflow to +Inf
        assert_eq!(fma_exact(f, 0x0001, 0x3f00, 0x0000), 0x0000); // 2^-134 ties to +0
        assert_eq!(fma_exact(f, 0x0001, 0x3f40, 0x0000), 0x0001); // 0.75 ulp rounds up
        assert_eq!(fma_exact(f, 0xff81, 0x3f80, 0x0000), 0x7fc0); // a NaN input
    }
}
