//! Every copy of each vector FMA kernel (`sfpu_fastpath::simd`): the portable one and each SIMD
//! level this CPU supports (AVX2, AVX-512), each checked lane by lane against the chip's FMA model
//! (`sfpu_reference::fp::fma_model_bh` / `fma_model_wh`, the oracles), on random triples, on
//! cancelling triples, on triples whose exponents sit at the alignment, normalisation, overflow
//! and underflow boundaries, and on a cube of edge values.

use sfpu_fastpath::simd::{self, Level};
use sfpu_reference::Arch;
use sfpu_reference::fp::fma_model;

/// Each level's kernel of `arch` that this CPU can run, with the level.
fn kernels(arch: Arch) -> Vec<(Level, simd::Kernel)> {
    Level::ALL.into_iter().filter_map(|l| simd::kernel(l, arch == Arch::Wormhole).map(|k| (l, k))).collect()
}

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn u32(&mut self) -> u32 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 32) as u32
    }
}

/// Edge values of every FMA path: signed zeros, denormals, the normal range's ends, 1 and its
/// neighbours, values whose products overflow or underflow, infinities, NaNs.
const EDGES: [u32; 24] = [
    0x0000_0000,
    0x8000_0000,
    0x0000_0001,
    0x807F_FFFF,
    0x0080_0000,
    0x8080_0000,
    0x7F7F_FFFF,
    0xFF7F_FFFF,
    0x3F80_0000,
    0xBF80_0000,
    0x3F80_0001,
    0xBF80_0002,
    0x3F7F_FFFF,
    0x5F80_0000,
    0x1F80_0000,
    0x2000_0000,
    0x7F00_0000,
    0x4000_0000,
    0x7F80_0000,
    0xFF80_0000,
    0x7FC0_0000,
    0xFF80_0001,
    0x7F80_0001,
    0x3400_0000,
];

/// Runs one 32-lane batch through every available copy and compares each lane with the oracle.
fn check_batch(arch: Arch, a: &[u32; 32], b: &[u32; 32], c: &[u32; 32]) {
    let want: [u32; 32] = std::array::from_fn(|l| fma_model(arch, a[l], b[l], c[l]));
    for (level, kernel) in kernels(arch) {
        let mut got = [0u32; 32];
        kernel(a, b, c, &mut got);
        for l in 0..32 {
            let (x, y, z) = (a[l], b[l], c[l]);
            assert_eq!(got[l], want[l], "{arch} {level:?} lane {l}: 0x{x:08x} * 0x{y:08x} + 0x{z:08x}");
        }
    }
}

#[test]
fn every_copy_matches_the_model_on_random_triples() {
    for arch in Arch::ALL {
        let mut rng = Rng(0x51AD_0001);
        for _ in 0..20_000 {
            let a = std::array::from_fn(|_| rng.u32());
            let b = std::array::from_fn(|_| rng.u32());
            // Half the batches cancel: c close to -(a * b) in magnitude, where the partial fusion
            // shows.
            let c = std::array::from_fn(|l| {
                let r = rng.u32();
                if r & 1 == 0 { r } else { fma_model(arch, a[l], b[l], 0) ^ 0x8000_0000 ^ (r >> 28) }
            });
            check_batch(arch, &a, &b, &c);
        }
    }
}

#[test]
fn every_copy_matches_the_model_on_the_edge_cube() {
    let n = EDGES.len();
    let triples: Vec<(u32, u32, u32)> =
        (0..n * n * n).map(|k| (EDGES[k % n], EDGES[(k / n) % n], EDGES[k / (n * n)])).collect();
    for chunk in triples.chunks(32) {
        let mut a = [0u32; 32];
        let mut b = [0u32; 32];
        let mut c = [0u32; 32];
        for (l, &(x, y, z)) in chunk.iter().enumerate() {
            (a[l], b[l], c[l]) = (x, y, z);
        }
        for arch in Arch::ALL {
            check_batch(arch, &a, &b, &c);
        }
    }
}

/// Exponents chosen so that the product's and `z`'s exponents differ by every amount from -40 to
/// 40 (the alignment shift, including counts of 32 and more), the sum lands next to exponents 0
/// and 255 (underflow, the one-position renormalisation, flush after rounding, overflow), and
/// mantissas are random, all-ones or a single bit (the sticky bits of the product, of the
/// alignment and of the normalisation).
#[test]
fn every_copy_matches_the_model_at_the_exponent_boundaries() {
    let mut rng = Rng(0x51AD_0002);
    for arch in Arch::ALL {
        for _ in 0..20_000 {
            let man = |rng: &mut Rng| match rng.u32() % 4 {
                0 => 0x007F_FFFF,
                1 => 1 << (rng.u32() % 23),
                2 => 0,
                _ => rng.u32() & 0x007F_FFFF,
            };
            let mut a = [0u32; 32];
            let mut b = [0u32; 32];
            let mut c = [0u32; 32];
            for l in 0..32 {
                let ex = 1 + rng.u32() % 254;
                // The product's exponent ex + ey - 127: near 0, near 255, or anywhere.
                let pe_target = match rng.u32() % 3 {
                    0 => (rng.u32() % 6) as i32 - 2,
                    1 => 250 + (rng.u32() % 8) as i32,
                    _ => 1 + (rng.u32() % 254) as i32,
                };
                let ey = (pe_target + 127 - ex as i32).clamp(1, 254) as u32;
                let pe = ex as i32 + ey as i32 - 127;
                let ez = (pe + (rng.u32() % 81) as i32 - 40).clamp(0, 255) as u32;
                let sx = rng.u32() & 0x8000_0000;
                let sy = rng.u32() & 0x8000_0000;
                let sz = rng.u32() & 0x8000_0000;
                a[l] = sx | (ex << 23) | man(&mut rng);
                b[l] = sy | (ey << 23) | man(&mut rng);
                c[l] = sz | (ez << 23) | man(&mut rng);
            }
            check_batch(arch, &a, &b, &c);
        }
    }
}

#[test]
fn the_level_follows_the_cpu_and_the_request() {
    let before = simd::level();
    assert_eq!(simd::set_level(Level::Portable), Level::Portable);
    assert_eq!(simd::level(), Level::Portable);
    let expect = if simd::avx2_available() { Level::Avx2 } else { Level::Portable };
    assert_eq!(simd::set_level(Level::Avx2), expect);
    assert_eq!(simd::level(), expect);
    let expect = if simd::avx512_available() { Level::Avx512 } else { expect };
    assert_eq!(simd::set_level(Level::Avx512), expect);
    assert_eq!(simd::level(), expect);
    assert_eq!(Level::best(), expect);
    assert_eq!(Level::supported().last(), Some(&expect));
    assert_eq!(Level::supported()[0], Level::Portable);
    simd::set_level(before);
}
