//! Floating-point arithmetic on raw bits, as `vecfp` does it: the fixed FP environment "DN=1, RNE,
//! no flushing" (§1.1, §2.8), the default NaN, and the per-format operations the ALU modes use.
//!
//! Spec: `amx-vecfp.md` §2.8 (what must be bit-exact) and §5 (which route is exact for which
//! format). The routes, as the notes recommend for a literal reference:
//! * f32, f64: std (`f32::mul_add`, `f64::mul_add` are correctly rounded; `*` and `+` too).
//! * f16: exact widening to f64, the f64 operation, then our own correctly rounding narrowing
//!   [`round::f64_to_f16`] (not `half::f16::from_f64`, which double-rounds; §5).
//! * bf16: the integer FMA [`fma::fma_exact`] (§5 "The repo's integer bf16 FMA algorithm";
//!   written here as a generic exact FMA on integer significands).
//! * min/max, `x ≤ 0`: on bits ([`min`], [`max`], [`le_zero`]).
//!
//! CHOICE(§6, first open point; `docs/spec/amx-vecfp.md#fp-environment`): whether AMX reads FPCR
//! (RMode, FZ, FZ16, AH) is unspecified; upstream only ever ran with DN=1 and the rest at reset.
//! The model is fixed at DN=1, RNE, no flushing, and takes no FP-environment input.
//!
//! Every arithmetic result goes through [`canonicalise`]: a NaN becomes the format's default NaN,
//! because Rust has no FPCR.DN (§2.8 "Default NaN").

pub mod fma;
mod format;
pub mod round;

pub use fma::fma_exact;
pub use format::Format;
pub use round::{f64_to_f16, round_pack};

/// `r`, or the default NaN when `r` is a NaN (FPCR.DN = 1; §2.8).
pub const fn canonicalise(fmt: Format, r: u64) -> u64 {
    if fmt.is_nan(r) { fmt.default_nan() } else { r }
}

/// The exact f64 value of an f16 pattern (every f16 is an f64; NaN stays a NaN, not canonical).
pub fn f16_to_f64(x: u64) -> f64 {
    let fmt = Format::F16;
    if fmt.is_nan(x) {
        return f64::NAN;
    }
    let magnitude = if fmt.is_inf(x) {
        f64::INFINITY
    } else {
        let (_, m, e) = fmt.unpack(x);
        // m < 2^11 and 2^e are exact in f64, so is their product (e is in -24..=5).
        m as f64 * 2f64.powi(e)
    };
    if fmt.sign(x) { -magnitude } else { magnitude }
}

/// The pair modes' widening to f32 (§2.3): f16 → f32 exactly, bf16 → f32 as `bits << 16`, and a
/// NaN of either becomes `0x7FC0_0000`.
pub fn widen_to_f32(xyT: Format, x: u64) -> u64 {
    if xyT.is_nan(x) {
        return Format::F32.default_nan();
    }
    match xyT {
        Format::BF16 => (x & 0xFFFF) << 16,
        // The f64 value is an f16 value, so it is exactly an f32 too and `as f32` does not round.
        Format::F16 => (f16_to_f64(x) as f32).to_bits() as u64,
        Format::F32 | Format::F64 => x,
    }
}

/// The sign-magnitude order key of a non-NaN pattern: `-0` sorts below `+0` (§2.8 min/max).
fn order_key(fmt: Format, x: u64) -> i128 {
    let magnitude = (x & !fmt.sign_bit()) as i128;
    if fmt.sign(x) { -magnitude - 1 } else { magnitude }
}

/// Arm FMIN with DN: any NaN gives the default NaN; otherwise the numerically smaller input,
/// bit for bit, with −0 < +0 (§2.8 "min/max").
pub fn min(fmt: Format, x: u64, z: u64) -> u64 {
    if fmt.is_nan(x) || fmt.is_nan(z) {
        return fmt.default_nan();
    }
    if order_key(fmt, x) < order_key(fmt, z) { x } else { z }
}

/// Arm FMAX with DN: any NaN gives the default NaN; otherwise the numerically larger input,
/// bit for bit, with −0 < +0 (§2.8 "min/max").
pub fn max(fmt: Format, x: u64, z: u64) -> u64 {
    if fmt.is_nan(x) || fmt.is_nan(z) {
        return fmt.default_nan();
    }
    if order_key(fmt, x) > order_key(fmt, z) { x } else { z }
}

/// The ordered compare `x ≤ 0` of mode 4: true for ±0, negative numbers (subnormals and −Inf
/// included), false for every NaN (§2.2).
pub const fn le_zero(fmt: Format, x: u64) -> bool {
    !fmt.is_nan(x) && (fmt.is_zero(x) || fmt.sign(x))
}

/// `x·y + z` with one rounding (RNE), then the default NaN (§2.8 "FMA").
pub fn fma(fmt: Format, x: u64, y: u64, z: u64) -> u64 {
    let r = match fmt {
        Format::F32 => {
            let [x, y, z] = [x, y, z].map(|v| f32::from_bits(v as u32));
            x.mul_add(y, z).to_bits() as u64
        }
        Format::F64 => {
            let [x, y, z] = [x, y, z].map(f64::from_bits);
            x.mul_add(y, z).to_bits()
        }
        // §5 "f16 FMA via f64": the widened product is exact, and when the f64 sum rounds, the
        // product is far below half an f16 ulp of z, so the single narrowing is correct.
        Format::F16 => f64_to_f16(f16_to_f64(x).mul_add(f16_to_f64(y), f16_to_f64(z))),
        Format::BF16 => fma_exact(Format::BF16, x, y, z),
    };
    canonicalise(fmt, r)
}

/// `x·y` with one rounding, then the default NaN. bf16 is `fma(x, y, −0)` as §2.2 describes the
/// emulator (the same bits as a plain multiply).
pub fn mul(fmt: Format, x: u64, y: u64) -> u64 {
    let r = match fmt {
        Format::F32 => (f32::from_bits(x as u32) * f32::from_bits(y as u32)).to_bits() as u64,
        Format::F64 => (f64::from_bits(x) * f64::from_bits(y)).to_bits(),
        // The product of two f16 is exact in f64; one rounding, in the narrowing.
        Format::F16 => f64_to_f16(f16_to_f64(x) * f16_to_f64(y)),
        Format::BF16 => fma_exact(Format::BF16, x, y, Format::BF16.sign_bit()),
    };
    canonicalise(fmt, r)
}

/// `z + x` with one rounding, then the default NaN. bf16 is `fma(x, 1.0, z)` as §2.2 describes
/// the emulator (the same bits as a plain add).
pub fn add(fmt: Format, z: u64, x: u64) -> u64 {
    let r = match fmt {
        Format::F32 => (f32::from_bits(z as u32) + f32::from_bits(x as u32)).to_bits() as u64,
        Format::F64 => (f64::from_bits(z) + f64::from_bits(x)).to_bits(),
        // The sum of two f16 is exact in f64 (their bits span at most 40 places); one rounding.
        Format::F16 => f64_to_f16(f16_to_f64(z) + f16_to_f64(x)),
        Format::BF16 => fma_exact(Format::BF16, x, Format::BF16.one(), z),
    };
    canonicalise(fmt, r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_match_the_notes() {
        // §2.8 "Default NaN" table.
        assert_eq!(Format::F16.default_nan(), 0x7E00);
        assert_eq!(Format::BF16.default_nan(), 0x7FC0);
        assert_eq!(Format::F32.default_nan(), 0x7FC0_0000);
        assert_eq!(Format::F64.default_nan(), 0x7FF8_0000_0000_0000);
        // emulate.h BF16_ONE.
        assert_eq!(Format::BF16.one(), 0x3F80);
        assert_eq!(Format::F16.one(), 0x3C00);
        assert_eq!(Format::F64.one(), 1f64.to_bits());
    }

    #[test]
    fn widening() {
        // f16 0x0001 = 2^-24 exactly; 0x7BFF = 65504; bf16 0x3F81 = 0x3F81_0000.
        assert_eq!(f32::from_bits(widen_to_f32(Format::F16, 0x0001) as u32), 2f32.powi(-24));
        assert_eq!(f32::from_bits(widen_to_f32(Format::F16, 0x7BFF) as u32), 65504.0);
        assert_eq!(widen_to_f32(Format::F16, 0xFC00), 0xFF80_0000);
        assert_eq!(widen_to_f32(Format::BF16, 0x3F81), 0x3F81_0000);
        // Any NaN, sNaN and negative included, widens to the f32 default NaN.
        for nan in [0x7C01, 0xFE00, 0x7D00] {
            assert_eq!(widen_to_f32(Format::F16, nan), 0x7FC0_0000);
        }
        for nan in [0x7F81, 0xFFC0, 0xFF81] {
            assert_eq!(widen_to_f32(Format::BF16, nan), 0x7FC0_0000);
        }
    }
}
