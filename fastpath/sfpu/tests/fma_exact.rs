//! Proof that the fast, branch-free FMA (`sfpu_fastpath::fp::fma_bh` and its 32-lane form
//! `fma32`) is bit-exact with the Blackhole FMA model `sfpu_reference::fp::fma_model_bh`, which is
//! used here only as the oracle.
//!
//! Inputs: several million deterministic (fixed-seed) triples, drawn to cover every path of spec
//! §4.1: uniformly random bit patterns; a cube of edge values (zeros, denormals, the smallest and
//! largest normals, powers of two, all-ones mantissas, infinities, NaNs); products that overflow or
//! underflow; results near the denormal boundary; and massive cancellation (`z` within a few ulps
//! of `-(x * y)`), where the partial fusion shows.

use sfpu_fastpath::fp::{fma_bh, fma32};
use sfpu_reference::fp::fma_model_bh;

/// SplitMix64.
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
        (((self.next() >> 32) * n as u64) >> 32) as u32
    }
    /// A value with biased exponent `e` (0..=255), random sign and mantissa, the mantissa
    /// sometimes special (0, all ones, 1, top bit only).
    fn with_exp(&mut self, e: u32) -> u32 {
        let man = match self.below(8) {
            0 => 0,
            1 => 0x7F_FFFF,
            2 => 1,
            3 => 0x40_0000,
            4 => self.u32() & 0x7F_0000,
            _ => self.u32() & 0x7F_FFFF,
        };
        (self.u32() & 0x8000_0000) | ((e & 0xFF) << 23) | man
    }
    fn exp_near(&mut self, center: i32, spread: u32) -> u32 {
        let e = center + self.below(2 * spread + 1) as i32 - spread as i32;
        e.clamp(0, 255) as u32
    }
}

fn check(x: u32, y: u32, z: u32) {
    let want = fma_model_bh(x, y, z);
    let got = fma_bh(x, y, z);
    assert_eq!(got, want, "fma_bh(0x{x:08x}, 0x{y:08x}, 0x{z:08x}) = 0x{got:08x}, model says 0x{want:08x}");
}

/// Checks 32 triples at once through `fma32` and lane by lane.
fn check32(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32]) {
    let mut d = [0u32; 32];
    fma32(a, b, c, &mut d);
    for i in 0..32 {
        let want = fma_model_bh(a[i], b[i], c[i]);
        assert_eq!(
            d[i], want,
            "fma32 lane {i}: (0x{:08x}, 0x{:08x}, 0x{:08x}) = 0x{:08x}, model says 0x{want:08x}",
            a[i], b[i], c[i], d[i]
        );
    }
}

#[test]
fn uniform_random_triples() {
    let mut r = Rng(1);
    for _ in 0..2_000_000 / 32 {
        let mut a = [0u32; 32];
        let mut b = [0u32; 32];
        let mut c = [0u32; 32];
        for i in 0..32 {
            a[i] = r.u32();
            b[i] = r.u32();
            c[i] = r.u32();
        }
        check32(&a, &b, &c);
    }
}

#[test]
fn edge_value_cube() {
    let mut edges = vec![
        0x0000_0000u32,
        0x0000_0001,
        0x0040_0000,
        0x007F_FFFF,
        0x0080_0000,
        0x0080_0001,
        0x00FF_FFFF,
        0x0100_0000,
        0x1F80_0000,
        0x2000_0000,
        0x3F00_0000,
        0x3F7F_FFFF,
        0x3F80_0000,
        0x3F80_0001,
        0x3FFF_FFFF,
        0x4000_0000,
        0x4040_0000,
        0x5F00_0000,
        0x5F80_0000,
        0x7E80_0000,
        0x7EFF_FFFF,
        0x7F00_0000,
        0x7F7F_FFFF,
        0x7F80_0000,
        0x7F80_0001,
        0x7FC0_0000,
        0x7FFF_FFFF,
        0x3400_0000,
        0x3380_0000,
        0x4B00_0000,
        0x4B80_0000,
        0x3F40_0000,
    ];
    let n = edges.len();
    for i in 0..n {
        edges.push(edges[i] | 0x8000_0000);
    }
    for &x in &edges {
        for &y in &edges {
            for &z in &edges {
                check(x, y, z);
            }
        }
    }
}

#[test]
fn exponent_boundaries() {
    // Products near overflow (e_x + e_y near 381), near the "negligible product" cut
    // (e_x + e_y near 127), and results near the denormal boundary, with addends at every
    // relative scale.
    let mut r = Rng(2);
    for _ in 0..1_500_000 {
        let kind = r.below(4);
        let ex = r.below(256);
        let ey = match kind {
            0 => (381 - ex as i32 + r.below(9) as i32 - 4).clamp(0, 255) as u32,
            1 => (127 - ex as i32 + r.below(9) as i32 - 4).clamp(0, 255) as u32,
            2 => (127 + 1 - ex as i32 + r.below(40) as i32).clamp(0, 255) as u32,
            _ => r.below(256),
        };
        let x = r.with_exp(ex);
        let y = r.with_exp(ey);
        let pe = ex as i32 + ey as i32 - 127;
        let ez = match r.below(4) {
            0 => r.exp_near(pe, 3),
            1 => r.exp_near(pe, 30),
            2 => r.exp_near(1, 2),
            _ => r.below(256),
        };
        let z = r.with_exp(ez);
        check(x, y, z);
    }
}

#[test]
fn cancellation() {
    // z within a few ulps (or a few exponent steps) of -(x * y): the partially fused product's
    // 28-bit narrowing, the semi-sticky alignment and the normalisation paths all show here.
    let mut r = Rng(3);
    for _ in 0..2_000_000 {
        let e = r.exp_near(127, 60);
        let x = r.with_exp(e);
        let e = r.exp_near(127, 60);
        let y = r.with_exp(e);
        let p = (f32::from_bits(x) * f32::from_bits(y)).to_bits();
        let z = match r.below(4) {
            0 => (p ^ 0x8000_0000).wrapping_add(r.below(9).wrapping_sub(4)),
            1 => p ^ 0x8000_0000,
            2 => (p ^ 0x8000_0000).wrapping_add((r.below(5) << 23).wrapping_sub(2 << 23)),
            _ => (p ^ 0x8000_0000) ^ (r.u32() & 0xFF),
        };
        check(x, y, z);
        check(y, x, z);
    }
}

#[test]
fn tiny_results() {
    // Results that underflow after cancellation or are tiny to begin with: the mis-scaled
    // `er <= 0` normalisation, rounding up to 2^-126, and sign-preserving flushes.
    let mut r = Rng(4);
    for _ in 0..1_000_000 {
        let ex = r.below(256);
        let ey = (127 + r.below(30) as i32 - ex as i32).clamp(1, 254) as u32;
        let x = r.with_exp(ex);
        let y = r.with_exp(ey);
        let e = r.below(4);
        let z = r.with_exp(e);
        check(x, y, z);
    }
}
