//! Every copy of each vector FMA kernel (`sfpu_fastpath::simd`): the portable one and each SIMD
//! level this CPU supports (AVX2, AVX-512; NEON on AArch64, `.ci/aarch64`), each checked lane by lane against the chip's FMA model
//! (`sfpu_reference::fp::fma_model_bh` / `fma_model_wh`, the oracles), on random triples, on
//! cancelling triples, on triples whose exponents sit at the alignment, normalisation, overflow
//! and underflow boundaries, on a cube of edge values, and on 32-lane batches whose two 16-lane
//! vectors mix lane classes (ordinary, special, underflowing, exactly cancelling, negligible,
//! overflowing), which the AVX-512 kernels treat per vector (a shortcut when every lane is
//! special, a slow path when a lane may underflow).

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

/// A 32-lane FMA under test: `out[i] = fma(a[i], b[i], c[i])`.
type AnyKernel<'a> = &'a dyn Fn(&[u32; 32], &[u32; 32], &[u32; 32], &mut [u32; 32]);

/// A 32-lane batch `(a, b, c)` with each lane's class.
type Batch = ([u32; 32], [u32; 32], [u32; 32], [Class; 32]);

/// The first lane where `kernel` differs from the oracle.
fn first_mismatch(
    arch: Arch,
    kernel: AnyKernel<'_>,
    a: &[u32; 32],
    b: &[u32; 32],
    c: &[u32; 32],
) -> Option<usize> {
    let mut got = [0u32; 32];
    kernel(a, b, c, &mut got);
    (0..32).find(|&l| got[l] != fma_model(arch, a[l], b[l], c[l]))
}

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
    // Each request gets the best supported level at most the one asked for.
    let expect = if simd::neon_available() { Level::Neon } else { Level::Portable };
    assert_eq!(simd::set_level(Level::Neon), expect);
    assert_eq!(simd::level(), expect);
    assert_eq!(simd::neon_available(), cfg!(target_arch = "aarch64"));
    let expect = if simd::avx2_available() { Level::Avx2 } else { expect };
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

/// The lane classes of the mixed batches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// Finite normal operands, a product exponent well inside the range.
    Ordinary,
    /// An Inf or NaN operand, or a finite product whose exponent overflows.
    Special,
    /// A result next to exponent 0 (the underflow rules and the flush after rounding).
    Underflow,
    /// `x * y + z == 0` exactly.
    Zero,
    /// A zero or denormal factor, or a product exponent below 0.
    Negligible,
    /// A result whose exponent reaches 255 from finite, in-range operands.
    Overflow,
}

const CLASSES: [Class; 6] =
    [Class::Ordinary, Class::Special, Class::Underflow, Class::Zero, Class::Negligible, Class::Overflow];

fn fp(sign: u32, e: u32, m: u32) -> u32 {
    (sign << 31) | (e << 23) | (m & 0x007F_FFFF)
}

/// One `(x, y, z)` of `class`.
fn lane(class: Class, rng: &mut Rng) -> (u32, u32, u32) {
    let bit = |rng: &mut Rng| rng.u32() & 1;
    match class {
        Class::Ordinary => {
            let (ex, ey) = (100 + rng.u32() % 50, 100 + rng.u32() % 50);
            let ez = (ex + ey - 127 + rng.u32() % 61).saturating_sub(30).clamp(1, 254);
            (fp(bit(rng), ex, rng.u32()), fp(bit(rng), ey, rng.u32()), fp(bit(rng), ez, rng.u32()))
        }
        Class::Special => {
            let special = fp(bit(rng), 255, if bit(rng) == 0 { 0 } else { rng.u32() });
            match rng.u32() % 4 {
                0 => (special, rng.u32(), rng.u32()),
                1 => (rng.u32(), special, rng.u32()),
                2 => (rng.u32(), rng.u32(), special),
                // Finite factors whose product exponent is at least 255.
                _ => (
                    fp(bit(rng), 191 + rng.u32() % 64, rng.u32()),
                    fp(bit(rng), 191 + rng.u32() % 64, rng.u32()),
                    rng.u32(),
                ),
            }
        }
        Class::Underflow => {
            let ex = 1 + rng.u32() % 127;
            let ey = 128 + rng.u32() % 4 - ex;
            let ez = rng.u32() % 4;
            (fp(bit(rng), ex, rng.u32()), fp(bit(rng), ey, rng.u32()), fp(bit(rng), ez, rng.u32()))
        }
        Class::Zero => {
            // Three-bit mantissas: the product is exact, and z cancels it.
            let x = fp(bit(rng), 100 + rng.u32() % 50, (rng.u32() % 8) << 20);
            let y = fp(bit(rng), 100 + rng.u32() % 50, (rng.u32() % 8) << 20);
            let z = (f32::from_bits(x) * f32::from_bits(y)).to_bits() ^ 0x8000_0000;
            (x, y, z)
        }
        Class::Negligible => {
            let z = if bit(rng) == 0 { fp(bit(rng), rng.u32() % 255, rng.u32()) } else { bit(rng) << 31 };
            match rng.u32() % 3 {
                0 => (fp(bit(rng), 0, if bit(rng) == 0 { 0 } else { rng.u32() }), rng.u32() & 0xBFFF_FFFF, z),
                1 => (rng.u32() & 0xBFFF_FFFF, fp(bit(rng), 0, rng.u32()), z),
                _ => (
                    fp(bit(rng), 1 + rng.u32() % 60, rng.u32()),
                    fp(bit(rng), 1 + rng.u32() % 60, rng.u32()),
                    z,
                ),
            }
        }
        Class::Overflow => {
            let ex = 127 + rng.u32() % 127;
            let ey = 254 + 127 - ex - rng.u32() % 3;
            let s = bit(rng);
            (fp(s, ex, rng.u32()), fp(0, ey, rng.u32()), fp(s, 254 - rng.u32() % 2, rng.u32()))
        }
    }
}

/// Sets of classes (bit `i`: `CLASSES[i]`) that steer the AVX-512 kernels' per-vector choices:
/// all special (the shortcut), no special lane, special lanes among others (the merge), lanes
/// that may underflow (Blackhole's slow path) alone or among others.
const STEERING_SETS: [u32; 8] =
    [0b000010, 0b000001, 0b000011, 0b000100, 0b000101, 0b000110, 0b111101, 0b111111];

/// Mixed batches: each 16-lane vector draws its lanes from its own non-empty set of classes;
/// even batches take every pair of [`STEERING_SETS`] in turn, odd ones random sets (so every
/// combination of shortcut, slow path and per-lane merge occurs, both vectors alike and
/// different). Returns each batch with its lanes' classes.
fn mixed_batches(seed: u64, n: usize) -> Vec<Batch> {
    let mut rng = Rng(seed);
    let k = STEERING_SETS.len();
    (0..n)
        .map(|i| {
            let sets = if i % 2 == 0 {
                [STEERING_SETS[(i / 2) % k], STEERING_SETS[(i / 2 / k) % k]]
            } else {
                [1 + rng.u32() % 63, 1 + rng.u32() % 63]
            };
            let mut batch = ([0u32; 32], [0u32; 32], [0u32; 32], [Class::Ordinary; 32]);
            for l in 0..32 {
                let set: Vec<Class> = CLASSES
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| (sets[l / 16] >> i) & 1 != 0)
                    .map(|(_, &c)| c)
                    .collect();
                let class = set[(rng.u32() as usize) % set.len()];
                (batch.0[l], batch.1[l], batch.2[l]) = lane(class, &mut rng);
                batch.3[l] = class;
            }
            batch
        })
        .collect()
}

#[test]
fn every_copy_matches_the_model_on_vectors_mixing_lane_classes() {
    for arch in Arch::ALL {
        for (a, b, c, _) in mixed_batches(0x51AD_0003, 20_000) {
            check_batch(arch, &a, &b, &c);
        }
    }
}

/// The mixed batches can fail: a kernel that is right except for one lane of a class `class` in
/// a vector that also holds a lane of another class (the per-vector decisions of the AVX-512
/// kernels: shortcut, slow path, merge) is caught, for every class, on both chips.
#[test]
fn the_mixed_batches_catch_a_wrong_lane_in_a_mixed_vector() {
    let best = |arch: Arch| simd::kernel(Level::best(), arch == Arch::Wormhole).expect("the best level runs");
    let batches = mixed_batches(0x51AD_0003, 2_000);
    for arch in Arch::ALL {
        for class in CLASSES {
            let caught = batches.iter().any(|(a, b, c, classes)| {
                let planted = |a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]| {
                    best(arch)(a, b, c, out);
                    for half in 0..2 {
                        let lanes = &classes[16 * half..16 * half + 16];
                        if let Some(l) = lanes.iter().position(|&k| k == class)
                            && lanes.iter().any(|&k| k != class)
                        {
                            out[16 * half + l] ^= 1;
                        }
                    }
                };
                first_mismatch(arch, &planted, a, b, c).is_some()
            });
            assert!(caught, "{arch}: a wrong {class:?} lane in a mixed vector went unnoticed");
        }
        // And the unplanted kernel passes the same batches.
        for (a, b, c, _) in &batches {
            assert_eq!(first_mismatch(arch, &best(arch), a, b, c), None);
        }
    }
}

/// A `z` whose exponent field is 0: +0, -0 or a denormal of either sign.
fn tiny(rng: &mut Rng) -> u32 {
    match rng.u32() % 3 {
        0 => 0,
        1 => 0x8000_0000,
        _ => rng.u32() & 0x807F_FFFF,
    }
}

/// Batches whose `z` has the exponent field 0 in every lane of a vector (SFPMULI's `+0.0`,
/// SFPMUL's `LCONST_0`, or denormals: the kernels skip the alignment for such a vector) with
/// factors of every lane class, next to vectors whose `z` is not all tiny, and one tiny lane
/// among ordinary `z`s. Without the exact zero's sign (`kdiff`) or with the alignment skipped
/// for a vector with one normal `z`, this fails (checked by editing the kernels).
#[test]
fn every_copy_matches_the_model_with_a_zero_or_denormal_z() {
    let mut rng = Rng(0x51AD_0005);
    for arch in Arch::ALL {
        for i in 0..20_000 {
            let (mut a, mut b, mut c) = ([0u32; 32], [0u32; 32], [0u32; 32]);
            for l in 0..32 {
                let class = CLASSES[(rng.u32() as usize) % CLASSES.len()];
                let (x, y, z) = lane(class, &mut rng);
                (a[l], b[l]) = (x, y);
                // Batch i % 4: 0 both vectors tiny, 1 the first, 2 the second, 3 one tiny lane per
                // vector among the class's own `z`s.
                let tiny_lane = match i % 4 {
                    0 => true,
                    1 => l < 16,
                    2 => l >= 16,
                    _ => l % 16 == i / 4 % 16,
                };
                c[l] = if tiny_lane { tiny(&mut rng) } else { z };
            }
            check_batch(arch, &a, &b, &c);
        }
    }
}
