//! Correct rounding (round to nearest, ties to even) of an exact value to a format, and the
//! f64 → f16 narrowing built on it.
//!
//! Spec: `amx-vecfp.md` §2.8 ("Rounding mode": RNE only; subnormals kept, FZ = 0; overflow gives
//! ±Inf) and §5 (the narrowing must round once, from the exact f64, which `half::f16::from_f64`
//! does not).

use super::format::Format;

/// The pattern of `fmt` nearest to `(-1)^sign · sig · 2^exp`, ties to even; ±Inf past the
/// largest finite value; subnormals kept.
///
/// `sig · 2^exp` is taken as exact. A caller that replaced bits far below the rounding position
/// by a single "sticky" one (as [`fma_exact`](super::fma_exact) does) gets the same result, as
/// long as that one sits at least two places below the rounding position.
pub fn round_pack(fmt: Format, sign: bool, sig: u128, exp: i32) -> u64 {
    let sign_bits = if sign { fmt.sign_bit() } else { 0 };
    if sig == 0 {
        return sign_bits;
    }
    // Exponents in i64: `exp` may be any i32 without overflow below.
    let exp = exp as i64;
    let man = fmt.man_bits() as i64;
    let emin = 1 - fmt.bias() as i64; // the exponent of the smallest normal number
    let top = exp + (127 - sig.leading_zeros() as i64); // the exponent of the leading one
    // q: the exponent of the last significand bit kept (the ulp of the result).
    let mut q = top.max(emin) - man;
    let mut m: u128 = if exp >= q {
        // No bit falls below the ulp: exact. The shift is at most `man` places.
        sig << (exp - q)
    } else {
        let shift = q - exp; // 1 or more
        let (kept, rest, half) = if shift >= 129 {
            // The whole value is below 2^(q-1), half an ulp: it rounds to zero.
            (0, 0, 1)
        } else if shift == 128 {
            (0, sig, 1u128 << 127)
        } else {
            (sig >> shift, sig & ((1u128 << shift) - 1), 1u128 << (shift - 1))
        };
        let round_up = rest > half || (rest == half && kept & 1 == 1);
        kept + round_up as u128
    };
    if m >> (man + 1) != 0 {
        // Rounding carried into the next binade: m was 2^(man+1), so this shift is exact.
        m >>= 1;
        q += 1;
    }
    // The biased exponent of a normal result is q + man + bias. `((q + man + bias − 1) << man) + m`
    // is then the encoding of both normal results (m has its implicit bit) and subnormal ones
    // (q = emin − man makes the first term zero and m < 2^man).
    let biased = q + man + fmt.bias() as i64;
    if m >> man != 0 && biased >= (1 << fmt.exp_bits()) - 1 {
        return sign_bits | fmt.inf(); // overflow: RNE goes to ±Inf
    }
    let magnitude = (((biased - 1) as u64) << man) + m as u64;
    sign_bits | magnitude
}

/// f64 → f16, correctly rounded (RNE) from the exact f64; a NaN gives the f16 default NaN.
pub fn f64_to_f16(v: f64) -> u64 {
    let bits = v.to_bits();
    let f64_ = Format::F64;
    let f16_ = Format::F16;
    if f64_.is_nan(bits) {
        return f16_.default_nan();
    }
    let sign = f64_.sign(bits);
    if f64_.is_inf(bits) {
        return if sign { f16_.sign_bit() | f16_.inf() } else { f16_.inf() };
    }
    let (sign, m, e) = f64_.unpack(bits);
    round_pack(f16_, sign, m, e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f64_to_f16_cases() {
        // §5: 1 + 2^-11 + 2^-40 is above the midpoint between 0x3C00 and 0x3C01, so it rounds up;
        // half::f16::from_f64 gives 0x3C00 there.
        assert_eq!(f64_to_f16(1.0 + 2f64.powi(-11) + 2f64.powi(-40)), 0x3C01);
        // The exact midpoint 1 + 2^-11 ties to the even 0x3C00; 1 + 3·2^-11 ties up to 0x3C02.
        assert_eq!(f64_to_f16(1.0 + 2f64.powi(-11)), 0x3C00);
        assert_eq!(f64_to_f16(1.0 + 3.0 * 2f64.powi(-11)), 0x3C02);
        // 65504 is the largest f16; 65520 is the midpoint to 2^16 and ties away to Inf (the "even"
        // neighbour); just below it stays finite.
        assert_eq!(f64_to_f16(65504.0), 0x7BFF);
        assert_eq!(f64_to_f16(65520.0), 0x7C00);
        assert_eq!(f64_to_f16(65519.99), 0x7BFF);
        assert_eq!(f64_to_f16(-1e300), 0xFC00);
        // 2^-24 is the smallest subnormal, 2^-25 the midpoint to zero (ties to even: 0), and just
        // above it rounds up. -2^-26 underflows to -0.
        assert_eq!(f64_to_f16(2f64.powi(-24)), 0x0001);
        assert_eq!(f64_to_f16(2f64.powi(-25)), 0x0000);
        assert_eq!(f64_to_f16(2f64.powi(-25) * 1.0000001), 0x0001);
        assert_eq!(f64_to_f16(-(2f64.powi(-26))), 0x8000);
        assert_eq!(f64_to_f16(3.0 * 2f64.powi(-25)), 0x0002); // 1.5 ulp ties to even 2
        // The largest subnormal plus half an ulp rounds up into the smallest normal 0x0400.
        assert_eq!(f64_to_f16(1023.5 * 2f64.powi(-24)), 0x0400);
        assert_eq!(f64_to_f16(f64::MIN_POSITIVE / 4.0), 0x0000);
        assert_eq!(f64_to_f16(-0.0), 0x8000);
        assert_eq!(f64_to_f16(f64::NAN), 0x7E00);
    }

    #[test]
    fn round_pack_extremes() {
        // A value far below the f16 range rounds to a signed zero without any shift overflow.
        assert_eq!(round_pack(Format::F16, true, u128::MAX, -2000), 0x8000);
        assert_eq!(round_pack(Format::F16, false, u128::MAX, 2000), 0x7C00);
        assert_eq!(round_pack(Format::F16, false, 1u128 << 127, -152), 0x0000); // 2^-25: a tie to 0
        assert_eq!(round_pack(Format::F16, false, (1u128 << 127) + 1, -152), 0x0001);
        assert_eq!(round_pack(Format::BF16, false, 3, -1), 0x3FC0); // 1.5
        // The extreme exponents of the i32 range neither overflow nor panic.
        assert_eq!(round_pack(Format::F64, false, u128::MAX, i32::MAX), 0x7FF0_0000_0000_0000);
        assert_eq!(round_pack(Format::F64, true, u128::MAX, i32::MIN), 0x8000_0000_0000_0000);
        assert_eq!(round_pack(Format::F32, false, 1, i32::MIN), 0);
    }
}
