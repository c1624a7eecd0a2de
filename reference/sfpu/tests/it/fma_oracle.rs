//! The FMA models against an independent oracle: Berkeley SoftFloat (through softfloat-wrapper)
//! for the IEEE model, and the IEEE model for the Blackhole model where the documentation says the
//! two agree.
//!
//! Inputs are deterministic: a fixed-seed generator, so a failure prints the triple and reruns
//! identically.

use sfpu_reference::fp::{fma_model_bh, fma_model_ieee};
use softfloat_wrapper::{F32, Float, RoundingMode};

/// SplitMix64: a small, well-known generator, so the sequence is fixed by the seed alone.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn u32(&mut self) -> u32 {
        (self.next() >> 32) as u32
    }
    fn below(&mut self, n: u32) -> u32 {
        (self.next() % n as u64) as u32
    }
    /// A random normal number with biased exponent `e` (clamped to 1..=254), random sign and
    /// mantissa.
    fn normal(&mut self, e: u32) -> u32 {
        (self.u32() & 0x807F_FFFF) | (e.clamp(1, 254) << 23)
    }
    /// A random normal number with biased exponent in `lo..lo + span`.
    fn normal_in(&mut self, lo: u32, span: u32) -> u32 {
        let e = lo + self.below(span);
        self.normal(e)
    }
}

fn softfloat_fma(x: u32, y: u32, z: u32) -> u32 {
    F32::from_bits(x).fused_mul_add(F32::from_bits(y), F32::from_bits(z), RoundingMode::TiesToEven).to_bits()
}

fn is_nan(x: u32) -> bool {
    x & 0x7F80_0000 == 0x7F80_0000 && x & 0x7F_FFFF != 0
}

/// Compares the IEEE model with SoftFloat on one triple; NaN results compare as "is a NaN" (the
/// model's NaN is canonical `0x7FC00000`, SoftFloat's default NaN differs by platform).
fn check_ieee(x: u32, y: u32, z: u32, failures: &mut Vec<String>) {
    let model = fma_model_ieee(x, y, z);
    let oracle = softfloat_fma(x, y, z);
    let same = if is_nan(oracle) { model == 0x7FC0_0000 } else { model == oracle };
    if !same && failures.len() < 20 {
        failures.push(format!(
            "fma_model_ieee(0x{x:08x}, 0x{y:08x}, 0x{z:08x}) = 0x{model:08x}, SoftFloat says 0x{oracle:08x}"
        ));
    }
}

/// Special and boundary values of every FP32 class, both signs.
fn edge_values() -> Vec<u32> {
    let magnitudes = [
        0x0000_0000, // zero
        0x0000_0001, // smallest denormal
        0x0000_0002,
        0x0040_0000, // mid denormal
        0x007F_FFFF, // largest denormal
        0x0080_0000, // smallest normal
        0x0080_0001,
        0x00FF_FFFF,
        0x0C00_0000, // 2^-103, products underflow
        0x1F80_0000, // 2^-64
        0x2000_0000,
        0x3F00_0000, // 0.5
        0x3F7F_FFFF, // just below 1
        0x3F80_0000, // 1
        0x3F80_0001, // just above 1
        0x3FFF_FFFF, // just below 2
        0x4000_0000, // 2
        0x4040_0000, // 3
        0x5F80_0000, // 2^64
        0x7E80_0000, // 2^126
        0x7F00_0000, // 2^127
        0x7F7F_FFFF, // largest normal
        0x7F80_0000, // infinity
        0x7F80_0001, // signalling NaN, smallest payload
        0x7FA0_0000, // signalling NaN
        0x7FC0_0000, // quiet NaN
        0x7FFF_FFFF, // quiet NaN, all-ones payload
    ];
    magnitudes.iter().flat_map(|&m| [m, m | 0x8000_0000]).collect()
}

#[test]
fn ieee_model_matches_softfloat_on_edge_triples() {
    let edges = edge_values();
    let mut failures = Vec::new();
    let mut count = 0;
    for &x in &edges {
        for &y in &edges {
            for &z in &edges {
                check_ieee(x, y, z, &mut failures);
                count += 1;
            }
        }
    }
    assert!(count >= 10_000, "only {count} edge triples");
    assert!(
        failures.is_empty(),
        "{} of {count} edge triples differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn ieee_model_matches_softfloat_on_random_triples() {
    let mut rng = Rng(0x5F9_C0DE);
    let mut failures = Vec::new();
    const N: usize = 1_000_000;
    for i in 0..N {
        // A mix of fully random patterns and operands steered into the interesting regions.
        let (x, y, z) = match i % 4 {
            0 => (rng.u32(), rng.u32(), rng.u32()),
            1 => {
                // Near-cancellation: z is minus the rounded product, give or take a few ulps.
                let x = rng.normal_in(100, 55);
                let y = rng.normal_in(100, 55);
                let p = (f32::from_bits(x) as f64 * f32::from_bits(y) as f64) as f32;
                let z = (-p).to_bits().wrapping_add(rng.below(9)).wrapping_sub(4);
                (x, y, z)
            }
            2 => {
                // Products near the underflow threshold (exponent sum near 127 - 150).
                let ex = 1 + rng.below(126);
                let ey = (127 + rng.below(30)).saturating_sub(ex).clamp(1, 254);
                let z = rng.normal_in(1, 40) ^ (rng.u32() & 0x8000_0000);
                (rng.normal(ex), rng.normal(ey), z)
            }
            _ => {
                // Products near the overflow threshold (exponent sum near 254 + 127).
                let ex = 127 + rng.below(127);
                let ey = (250 + rng.below(10)).saturating_sub(ex - 127).clamp(1, 254);
                let z = rng.normal_in(200, 55) ^ (rng.u32() & 0x8000_0000);
                (rng.normal(ex), rng.normal(ey), z)
            }
        };
        check_ieee(x, y, z, &mut failures);
    }
    assert!(failures.is_empty(), "random triples differ (seed 0x5F9C0DE):\n{}", failures.join("\n"));
}

/// Upstream `SFPMAD.md` § "IEEE754 conformance": "If multiplying by one or adding zero, then the
/// partially fused operation is equivalent to a standalone add or standalone multiply (handling
/// of denormals notwithstanding)". So for normal, finite operands and a normal result the Blackhole
/// model equals the IEEE model on `x * 1 + z` and `x * y + 0`.
#[test]
fn blackhole_matches_ieee_for_plain_add_and_multiply() {
    let mut rng = Rng(0xB1AC_4013);
    let normal = |v: u32| (1..=254).contains(&((v >> 23) & 0xFF));
    let mut checked = 0;
    for _ in 0..400_000 {
        let x = rng.normal_in(1, 254);
        let y = rng.normal_in(64, 128);
        let z = rng.normal_in(1, 254);
        for (a, b, c) in [(x, 0x3F80_0000, z), (x, y, 0x0000_0000)] {
            let ieee = fma_model_ieee(a, b, c);
            // Only where the IEEE result is itself normal and finite (no flush, no overflow), and
            // the product alone does not overflow (Blackhole's product overflow is final).
            let product_exp = ((a >> 23) & 0xFF) as i32 + ((b >> 23) & 0xFF) as i32 - 127;
            if !normal(ieee) || product_exp >= 255 {
                continue;
            }
            assert_eq!(fma_model_bh(a, b, c), ieee, "fma_model_bh(0x{a:08x}, 0x{b:08x}, 0x{c:08x})");
            checked += 1;
        }
    }
    assert!(checked > 500_000, "only {checked} comparisons were in the agreement region");
}

/// Both models return the canonical NaN for every NaN result, and agree on infinities, except
/// where the spec lists a difference (a finite product that overflows is final on Blackhole).
#[test]
fn blackhole_and_ieee_agree_on_special_inputs() {
    let edges = edge_values();
    let special = |v: u32| (v >> 23) & 0xFF == 0xFF;
    for &x in &edges {
        for &y in &edges {
            for &z in &edges {
                // Denormal operands are zero on Blackhole (so Inf * denormal is NaN there and Inf in
                // IEEE): `fma_model_bh` step 1; those triples are not in the agreement region.
                let denormal = |v: u32| v & 0x7F80_0000 == 0 && v & 0x7F_FFFF != 0;
                if !(special(x) || special(y) || special(z)) || denormal(x) || denormal(y) {
                    continue;
                }
                let bh = fma_model_bh(x, y, z);
                let ieee = fma_model_ieee(x, y, z);
                if is_nan(ieee) || is_nan(bh) {
                    assert_eq!(
                        (bh, ieee),
                        (0x7FC0_0000, 0x7FC0_0000),
                        "NaN for 0x{x:08x} * 0x{y:08x} + 0x{z:08x}"
                    );
                } else if special(ieee) {
                    assert_eq!(bh, ieee, "Inf for 0x{x:08x} * 0x{y:08x} + 0x{z:08x}");
                }
            }
        }
    }
}
