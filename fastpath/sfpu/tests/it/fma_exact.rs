//! Proof that the fast, branch-free FMAs (`sfpu_fastpath::fp::fma_bh` and `fma_wh`, and their
//! 32-lane forms `fma32` and `fma32_wh`) are bit-exact with the FMA models of `fma.c`,
//! `sfpu_reference::fp::fma_model_bh` and `fma_model_wh`, which are used here only as oracles.
//!
//! Blackhole: the fixed counts below (several million triples). Wormhole: the same generators
//! plus Wormhole's own edges (NaN payloads, overflowing products against infinities, results at
//! the denormal edge), about 1.3 million triples by default; the long run of at least 10^7 is
//!
//! ```text
//! SFPU_FMA_WH_TRIPLES=10000000 cargo test --release -p sfpu-fastpath --test it fma_exact::wormhole -- --nocapture
//! ```
//!
//! (`SFPU_FMA_WH_TRIPLES` is the number of random triples, spread over the generators; the edge
//! cube's 262,144 triples come on top; the test prints the count and the time.)
//!
//! Inputs: several million deterministic (fixed-seed) triples, drawn to cover every path of
//! `fma_model_bh`: uniformly random bit patterns; a cube of edge values (zeros, denormals, the
//! smallest and largest normals, powers of two, all-ones mantissas, infinities, NaNs); products
//! that overflow or underflow; results near the denormal boundary; and massive cancellation (`z`
//! within a few ulps of `-(x * y)`), where the partial fusion shows.

use sfpu_fastpath::fp::{fma_bh, fma_wh, fma32, fma32_wh};
use sfpu_reference::fp::{fma_model_bh, fma_model_wh};

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

/// Zeros, denormals, the smallest and largest normals, powers of two, all-ones mantissas,
/// infinities, NaNs and values next to rounding ties (their negations are added).
const EDGES: [u32; 32] = [
    0x0000_0000,
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

#[test]
fn edge_value_cube() {
    let mut edges = EDGES.to_vec();
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

// ------------------------------------------------------------------------------------------------
// Wormhole: the same generators (their shapes cover every path of both models), with
// Wormhole's own edges added, against `fma_model_wh`.
// ------------------------------------------------------------------------------------------------

mod wormhole {
    use super::*;

    fn check(x: u32, y: u32, z: u32) {
        let want = fma_model_wh(x, y, z);
        let got = fma_wh(x, y, z);
        assert_eq!(
            got, want,
            "fma_wh(0x{x:08x}, 0x{y:08x}, 0x{z:08x}) = 0x{got:08x}, model says 0x{want:08x}"
        );
    }

    fn check32(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32]) {
        let mut d = [0u32; 32];
        fma32_wh(a, b, c, &mut d);
        for i in 0..32 {
            let want = fma_model_wh(a[i], b[i], c[i]);
            assert_eq!(
                d[i], want,
                "fma32_wh lane {i}: (0x{:08x}, 0x{:08x}, 0x{:08x}) = 0x{:08x}, model says 0x{want:08x}",
                a[i], b[i], c[i], d[i]
            );
        }
    }

    /// Random triples to check: `SFPU_FMA_WH_TRIPLES`, or 1 million by default.
    fn total() -> u64 {
        std::env::var("SFPU_FMA_WH_TRIPLES").ok().and_then(|v| v.trim().parse().ok()).unwrap_or(1_000_000)
    }

    /// Wormhole's own edges: a NaN or infinite operand among random ones (the pending NaN then
    /// collects the rest of the sum's bits); finite products that overflow against infinities of
    /// either sign; results whose exponent lands on -1, 0 or 1 after normalisation (the flush
    /// before rounding, the hidden-bit-less exponent 0 that only a rounding carry saves); and
    /// normalising shifts by 2 whose bit 1 is set (the dropped sticky bit).
    fn wormhole_edges(r: &mut Rng) -> (u32, u32, u32) {
        let special = |r: &mut Rng| {
            let sign = r.u32() & 0x8000_0000;
            match r.below(4) {
                0 => sign | 0x7F80_0000,
                1 => sign | 0x7FC0_0000,
                2 => sign | 0x7F80_0000 | (r.u32() & 0x7F_FFFF) | 1,
                _ => sign | (r.u32() & 0x7F_FFFF),
            }
        };
        match r.below(5) {
            0 => {
                // One, two or three special operands, the others any pattern.
                let mut v = [r.u32(), r.u32(), r.u32()];
                for k in 0..3 {
                    if r.below(2) == 0 {
                        v[k] = special(r);
                    }
                }
                (v[0], v[1], v[2])
            }
            1 => {
                // A finite product past the exponent range, z infinite, NaN or huge.
                let ex = 128 + r.below(127);
                let ey = (381 - ex as i32 + r.below(12) as i32 - 2).clamp(1, 254) as u32;
                let z = match r.below(3) {
                    0 => (r.u32() & 0x8000_0000) | 0x7F80_0000,
                    1 => special(r),
                    _ => {
                        let e = 250 + r.below(5);
                        r.with_exp(e)
                    }
                };
                (r.with_exp(ex), r.with_exp(ey), z)
            }
            2 => {
                // Results near exponent 0: products of exponent 0..3 plus small z of either
                // sign (cancellation down to the edge).
                let ex = 1 + r.below(254);
                let ey = (127 + r.below(4) as i32 - ex as i32).clamp(1, 254) as u32;
                let ez = r.below(4);
                let z = r.with_exp(ez);
                (r.with_exp(ex), r.with_exp(ey), z)
            }
            3 => {
                // All-ones mantissas just below the normal range: rounding carries into it.
                let sign = r.u32() & 0x8000_0000;
                let x = 0x3F80_0000 | (r.u32() & 0x7F_FFFF);
                let y = sign | ((r.below(3)) << 23) | 0x7F_FFFF;
                let z = (r.u32() & 0x8000_0000) | (r.below(2) << 23) | (r.u32() & 0x7F_FFFF);
                (x, y, z)
            }
            _ => {
                // Same-sign sums that carry (normalising right shifts by 1 or 2).
                let e = 1 + r.below(253);
                let sign = r.u32() & 0x8000_0000;
                let x = sign | (127 << 23) | (r.u32() & 0x7F_FFFF) | 0x40_0000;
                let y = (e << 23) | 0x7F_FFFF;
                let z = sign | ((e + r.below(2)) << 23) | (r.u32() & 0x7F_FFFF);
                (x, y, z)
            }
        }
    }

    #[test]
    fn wormhole_fma_is_exact() {
        let start = std::time::Instant::now();
        let n = total();
        let mut r = Rng(0x57_0001);
        let mut count = 0u64;
        // Uniform bit patterns, 32 at a time through the 32-lane kernel (30%).
        for _ in 0..(n * 3 / 10) / 32 {
            let mut a = [0u32; 32];
            let mut b = [0u32; 32];
            let mut c = [0u32; 32];
            for i in 0..32 {
                a[i] = r.u32();
                b[i] = r.u32();
                c[i] = r.u32();
            }
            check32(&a, &b, &c);
            count += 32;
        }
        // Exponent boundaries (20%), as in `exponent_boundaries`.
        for _ in 0..n / 5 {
            let kind = r.below(4);
            let ex = r.below(256);
            let ey = match kind {
                0 => (381 - ex as i32 + r.below(9) as i32 - 4).clamp(0, 255) as u32,
                1 => (127 - ex as i32 + r.below(9) as i32 - 4).clamp(0, 255) as u32,
                2 => (127 + 1 - ex as i32 + r.below(40) as i32).clamp(0, 255) as u32,
                _ => r.below(256),
            };
            let (x, y) = (r.with_exp(ex), r.with_exp(ey));
            let pe = ex as i32 + ey as i32 - 127;
            let ez = match r.below(4) {
                0 => r.exp_near(pe, 3),
                1 => r.exp_near(pe, 30),
                2 => r.exp_near(1, 2),
                _ => r.below(256),
            };
            check(x, y, r.with_exp(ez));
            count += 1;
        }
        // Cancellation (20%), as in `cancellation`.
        for _ in 0..n / 10 {
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
            count += 2;
        }
        // Tiny results (10%), as in `tiny_results`.
        for _ in 0..n / 10 {
            let ex = r.below(256);
            let ey = (127 + r.below(30) as i32 - ex as i32).clamp(1, 254) as u32;
            let (x, y) = (r.with_exp(ex), r.with_exp(ey));
            let e = r.below(4);
            check(x, y, r.with_exp(e));
            count += 1;
        }
        // Wormhole's own edges (20%).
        for _ in 0..n / 5 {
            let (x, y, z) = wormhole_edges(&mut r);
            check(x, y, z);
            count += 1;
        }
        eprintln!(
            "fma_wh == fma_model_wh on {count} random and edge triples ({:.2} s)",
            start.elapsed().as_secs_f64()
        );
    }

    /// Every triple of the edge values of `edge_value_cube` (262,144).
    #[test]
    fn wormhole_edge_value_cube() {
        let mut edges = EDGES.to_vec();
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
}

/// Both FMA models use the factors' signs only through their XOR: negating `x` gives the bits
/// negating `y` gives (checked on the models themselves, over the edge cube and a million random
/// triples). The fast SFPMULI relies on it: its `NEGATE_VC` negates `VD`, the second factor, and
/// the fast model flips the immediate, the first, instead (`ops::mad::sfpmuli`).
#[test]
fn factor_signs_count_only_through_their_xor() {
    const S: u32 = 0x8000_0000;
    let same = |x: u32, y: u32, z: u32| {
        assert_eq!(fma_model_bh(x ^ S, y, z), fma_model_bh(x, y ^ S, z), "Blackhole {x:08x} {y:08x} {z:08x}");
        assert_eq!(fma_model_wh(x ^ S, y, z), fma_model_wh(x, y ^ S, z), "Wormhole {x:08x} {y:08x} {z:08x}");
    };
    let mut edges = EDGES.to_vec();
    let n = edges.len();
    for i in 0..n {
        edges.push(edges[i] | S);
    }
    for &x in &edges {
        for &y in &edges {
            for &z in &edges {
                same(x, y, z);
            }
        }
    }
    let mut r = Rng(0x51C0_F11B);
    for _ in 0..1_000_000 {
        let (ex, ey) = (r.below(256), r.below(256));
        let ez = r.exp_near(ex as i32 + ey as i32 - 127, 30);
        same(r.with_exp(ex), r.with_exp(ey), r.with_exp(ez));
    }
}
