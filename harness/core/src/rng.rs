//! The harness's deterministic random numbers, shared by every instruction set's generators and
//! campaigns: a case is a function of its seed and its name alone.

/// SplitMix64: small, fast, and fully determined by its seed (no dependency, stable forever).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A generator for one named stream of `seed`, independent of the others.
    pub fn stream(seed: u64, name: &str) -> Rng {
        let mut h = 0xCBF2_9CE4_8422_2325u64; // FNV-1a over the name
        for b in name.bytes() {
            h = (h ^ b as u64).wrapping_mul(0x0100_0000_01B3);
        }
        Rng(seed ^ h)
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The next 32 bits.
    pub fn u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// A value in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u32) -> u32 {
        (self.next_u64() % n.max(1) as u64) as u32
    }

    /// One element of `items` (non-empty).
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u32) as usize]
    }

    /// A random normal FP32 with biased exponent in `lo..=hi` and random sign and mantissa.
    pub fn normal(&mut self, lo: u32, hi: u32) -> u32 {
        let e = lo + self.below(hi - lo + 1);
        (self.u32() & 0x807F_FFFF) | (e << 23)
    }
}
