//! Both copies of each vector FMA kernel (`sfpu_fastpath::simd`): the portable one and, where the
//! CPU has AVX2, the AVX2 one, each checked lane by lane against the chip's FMA model
//! (`sfpu_reference::fp::fma_model_bh` / `fma_model_wh`, the oracles), on random triples and on a
//! cube of edge values.

use sfpu_fastpath::simd::{self, Level};
use sfpu_reference::Arch;
use sfpu_reference::fp::fma_model;

type Kernel = fn(&[u32; 32], &[u32; 32], &[u32; 32], &mut [u32; 32]);
type MaybeKernel = fn(&[u32; 32], &[u32; 32], &[u32; 32], &mut [u32; 32]) -> Option<()>;

/// The two copies of `arch`'s kernel.
fn kernels(arch: Arch) -> (Kernel, MaybeKernel) {
    match arch {
        Arch::Blackhole => (simd::fma32_portable, simd::fma32_avx2),
        Arch::Wormhole => (simd::fma32_wh_portable, simd::fma32_wh_avx2),
    }
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

/// Runs one 32-lane batch through both copies and compares each lane with the oracle.
fn check_batch(arch: Arch, a: &[u32; 32], b: &[u32; 32], c: &[u32; 32]) {
    let (portable_kernel, avx2_kernel) = kernels(arch);
    let mut portable = [0u32; 32];
    portable_kernel(a, b, c, &mut portable);
    let mut avx2 = [0u32; 32];
    let have_avx2 = avx2_kernel(a, b, c, &mut avx2).is_some();
    for l in 0..32 {
        let want = fma_model(arch, a[l], b[l], c[l]);
        let (x, y, z) = (a[l], b[l], c[l]);
        assert_eq!(portable[l], want, "{arch} portable lane {l}: 0x{x:08x} * 0x{y:08x} + 0x{z:08x}");
        if have_avx2 {
            assert_eq!(avx2[l], want, "{arch} AVX2 lane {l}: 0x{x:08x} * 0x{y:08x} + 0x{z:08x}");
        }
    }
}

#[test]
fn both_copies_match_the_model_on_random_triples() {
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
fn both_copies_match_the_model_on_the_edge_cube() {
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

#[test]
fn the_level_follows_the_cpu_and_the_request() {
    assert_eq!(simd::set_level(Level::Portable), Level::Portable);
    assert_eq!(simd::level(), Level::Portable);
    let expect = if simd::avx2_available() { Level::Avx2 } else { Level::Portable };
    assert_eq!(simd::set_level(Level::Avx2), expect);
    assert_eq!(simd::level(), expect);
}
