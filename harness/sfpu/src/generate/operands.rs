//! Operand classes: the values lanes carry, so that one vector checks 32 different cases.
//!
//! Every pool is deterministic given the generator's [`Rng`].

use sfpu_reference::state::LANES;

pub use harness_core::rng::Rng;

/// FP32 special and boundary values of every class, both signs: 32 of them, one per lane.
pub const FP_SPECIALS: [u32; LANES] = [
    0x0000_0000,
    0x8000_0000, // ±0
    0x0000_0001,
    0x8000_0001, // ±smallest denormal
    0x007F_FFFF,
    0x807F_FFFF, // ±largest denormal
    0x0080_0000,
    0x8080_0000, // ±smallest normal
    0x7F7F_FFFF,
    0xFF7F_FFFF, // ±largest normal
    0x3F80_0000,
    0xBF80_0000, // ±1
    0x7F80_0000,
    0xFF80_0000, // ±Inf
    0x7FC0_0000,
    0xFFC0_0000, // ±quiet NaN
    0x7FC0_1234,
    0xFFD5_5555, // quiet NaNs with payloads
    0x7F80_0001,
    0xFFA0_0000, // signalling NaNs with payloads
    0x3F00_0000,
    0xBFC0_0000, // 0.5, -1.5
    0x4000_0000,
    0xC040_0000, // 2, -3
    0x3F7F_FFFF,
    0x3F80_0001, // just below and above 1
    0x4B00_0000,
    0xCB00_0001, // 2^23, -(2^23 + 2): integers at the end of the mantissa
    0x5F80_0000,
    0x1F80_0000, // 2^64, 2^-64: products overflow / underflow
    0x7E80_0000,
    0x0100_0000, // 2^126, 2^-125
];

/// Integer and sign-magnitude boundary values: 32 of them, one per lane.
pub const INT_SPECIALS: [u32; LANES] = [
    0x0000_0000,
    0x0000_0001,
    0xFFFF_FFFF,
    0x8000_0000, // 0, 1, -1, INT32_MIN (and sign-magnitude -0)
    0x7FFF_FFFF,
    0x8000_0001,
    0x0000_0002,
    0xFFFF_FFFE, // INT32_MAX, sign-magnitude -1, ±2
    0x0000_00FF,
    0x0000_0100,
    0x0000_7FFF,
    0x0000_8000, // byte and halfword edges
    0x0000_FFFF,
    0x0001_0000,
    0x00FF_FFFF,
    0x0100_0000, // 2^16 and 2^24 edges
    0x8000_007F,
    0x8000_0080,
    0x8000_00FF,
    0x8000_7FFF, // sign-magnitude negatives
    0x0000_001F,
    0x0000_0020,
    0xFFFF_FFE0,
    0xFFFF_FFDF, // shift amounts 31, 32, -32, -33
    0x5555_5555,
    0xAAAA_AAAA,
    0x1234_5678,
    0xFEDC_BA98, // bit patterns
    0x0000_0007,
    0xFFFF_FFF9,
    0x3F80_0000,
    0xBF80_0000, // ±7, and ±1.0 as integers
];

/// Shift amounts across -32..=32 (and beyond), as two's complement words.
pub fn shift_amounts(rng: &mut Rng) -> [u32; LANES] {
    std::array::from_fn(|l| match l {
        0..=16 => (l as i32 * 4 - 32) as u32, // -32, -28, ..., 32
        17 => 33,
        18 => (-33i32) as u32,
        19 => 31,
        20 => (-31i32) as u32,
        21 => 1,
        22 => (-1i32) as u32,
        23 => 64,
        _ => (rng.below(81) as i32 - 40) as u32,
    })
}

/// Random normal FP32 values with exponents around 1.0.
pub fn fp_random(rng: &mut Rng) -> [u32; LANES] {
    std::array::from_fn(|_| rng.normal(100, 154))
}

/// Random normal FP32 values over the whole exponent range.
pub fn fp_wide(rng: &mut Rng) -> [u32; LANES] {
    std::array::from_fn(|_| rng.normal(1, 254))
}

/// Random 32-bit patterns.
pub fn bits_random(rng: &mut Rng) -> [u32; LANES] {
    std::array::from_fn(|_| rng.u32())
}

/// `FP_SPECIALS` rotated by `k` lanes, so the same classes meet different partners.
pub fn rotated(values: &[u32; LANES], k: usize) -> [u32; LANES] {
    // Lane `l` takes `values[(l + k) % LANES]`.
    let mut out = *values;
    out.rotate_left(k % LANES);
    out
}

/// Operand triples `(a, b, c)` for `a * b + c` that exercise rounding: ties, near-ties, exact
/// cancellation, near-cancellation, and products at the edges of the exponent range.
pub fn fma_edges(rng: &mut Rng) -> ([u32; LANES], [u32; LANES], [u32; LANES]) {
    let mut a = [0; LANES];
    let mut b = [0; LANES];
    let mut c = [0; LANES];
    for l in 0..LANES {
        let (x, y, z) = match l % 8 {
            // 1 + 2^-24 is a tie between 1 and 1 + 2^-23: rounds to even.
            0 => (0x3F80_0000, 0x3F80_0000, 0x3380_0000 ^ (rng.below(2) << 31)),
            // (1 + 2^-23) * (1 + 2^-23) - (1 + 2^-22): the partial-fusion example of
            // `docs/spec/sfpu-blackhole.md#fma-examples`.
            1 => (0x3F80_0001, 0x3F80_0001, 0xBF80_0002),
            // Exact cancellation: x * y - x * y.
            2 => {
                let x = rng.normal(120, 134);
                let p = (f32::from_bits(x) * 2.0f32).to_bits();
                (x, 0x4000_0000, p ^ 0x8000_0000)
            }
            // Near-cancellation: z is minus the rounded product, a few ulps away.
            3 => {
                let x = rng.normal(110, 144);
                let y = rng.normal(110, 144);
                let p = (f32::from_bits(x) as f64 * f32::from_bits(y) as f64) as f32;
                (x, y, ((-p).to_bits()).wrapping_add(rng.below(7)).wrapping_sub(3))
            }
            // A product just over the overflow threshold, cancelled by z.
            4 => (0x7F00_0000, 0x4000_0000, 0xFF00_0000),
            // A product just under the underflow threshold, added to a small normal.
            5 => (0x2000_0000, 0x1F00_0000, 0x0080_0000),
            // Tiny results that round near 2^-126 (`docs/spec/sfpu-blackhole.md#fma-examples`).
            6 => (0xBC16_B9C2, 0x8412_A431, 0x808C_AD39),
            _ => (rng.normal(1, 254), rng.normal(1, 254), rng.normal(1, 254)),
        };
        a[l] = x;
        b[l] = y;
        c[l] = z;
    }
    (a, b, c)
}

/// Inputs to the piecewise-linear instructions: |x| across every segment boundary of SFPLUT and
/// SFPLUTFP32 (0.5, 1.0, 1.5, 2.0, 3.0, 4.0), both signs, and the special classes.
pub fn lut_inputs(rng: &mut Rng) -> [u32; LANES] {
    const POINTS: [f32; 14] = [0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 6.0, 100.0];
    std::array::from_fn(|l| match l {
        0..=13 => POINTS[l].to_bits(),
        14..=27 => (-POINTS[l - 14]).to_bits(),
        28 => 0x7FC0_0000,
        29 => 0xFF80_0000,
        30 => 0x0000_0001,
        _ => rng.normal(120, 130),
    })
}

/// Rounding ties for SFPSTOCHRND (`SFPSTOCHRND_*.md`) and the narrowing conversions: FP32 values
/// whose discarded bits are exactly half an ulp of the narrower format, and one ulp of FP32 either
/// side.
///
/// Lanes 0..=11: BF16 / FP16B precision (16 discarded bits, half = `0x8000`); lanes 12..=23:
/// FP16A precision (13 discarded bits, half = `0x1000`); each as four bases (random sign and
/// exponent, one base with an all-ones kept mantissa so that rounding up carries into the
/// exponent) times `half - 1, half, half + 1`. Lanes 24..=31: ties of the FP32-to-integer
/// flavours (`x.5`, and 2.5 one ulp either side), both signs, up to the UINT8 and INT16 limits.
pub fn rounding_ties(rng: &mut Rng) -> [u32; LANES] {
    let mut out = [0u32; LANES];
    for (group, (keep_mask, half)) in
        [(0xFFFF_0000u32, 0x8000u32), (0xFFFF_E000, 0x1000)].into_iter().enumerate()
    {
        for b in 0..4 {
            let base = if b == 3 {
                // All kept mantissa bits set: rounding up carries into the exponent.
                (rng.normal(120, 134) | 0x007F_FFFF) & keep_mask
            } else {
                rng.normal(100, 154) & keep_mask
            };
            for (k, lo) in [half - 1, half, half + 1].into_iter().enumerate() {
                out[group * 12 + b * 3 + k] = base | lo;
            }
        }
    }
    const INT_TIES: [u32; 8] = [
        0x3F00_0000, // 0.5
        0xBFC0_0000, // -1.5
        0x4020_0000, // 2.5
        0x401F_FFFF, // 2.5 - 1 ulp
        0x4020_0001, // 2.5 + 1 ulp
        0xC2FF_0000, // -127.5
        0x437F_8000, // 255.5
        0x46FF_FD00, // 32766.5
    ];
    out[24..].copy_from_slice(&INT_TIES);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotated_moves_lane_l_plus_k_to_lane_l() {
        let values: [u32; LANES] = std::array::from_fn(|l| 100 + l as u32);
        for k in [0, 1, 3, 31, 32, 45] {
            let r = rotated(&values, k);
            for l in 0..LANES {
                assert_eq!(r[l], 100 + ((l + k) % LANES) as u32, "k {k} lane {l}");
            }
        }
    }
}
