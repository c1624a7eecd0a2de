//! Helpers shared by the integration tests: a seeded generator, special values per format,
//! operands from named fields, and lane access.

use amx_reference::fp::Format;
use amx_reference::state::{lane, set_lane};
use amx_reference::{Chip, Field, Operand, State, vecfp};

/// SplitMix64: a small, seeded, reproducible generator (no dependency).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The §4.2 special inputs of a format: ±0, ±min/max subnormal, ±min normal, ±1, ±max finite,
/// ±Inf, ±qNaN, ±sNaN.
pub fn specials(fmt: Format) -> Vec<u64> {
    let man = fmt.man_bits();
    let positive = [
        0,                 // +0
        1,                 // min subnormal
        (1 << man) - 1,    // max subnormal
        1 << man,          // min normal
        fmt.one(),         // 1.0
        fmt.inf() - 1,     // max finite
        fmt.inf(),         // Inf
        fmt.default_nan(), // qNaN
        fmt.inf() | 1,     // sNaN
    ];
    positive.iter().flat_map(|&p| [p, p | fmt.sign_bit()]).collect()
}

/// An operand: a random pattern, a special, or a value near 1 or near the subnormal boundary
/// (where ties and carries happen), in roughly equal parts.
pub fn operand(rng: &mut Rng, fmt: Format) -> u64 {
    let bits = fmt.mask(rng.next());
    let sign = bits & fmt.sign_bit();
    match rng.below(6) {
        0 | 1 => bits,
        2 => {
            let s = specials(fmt);
            s[rng.below(s.len() as u64) as usize]
        }
        3 => sign | (fmt.one() + fmt.man(bits) % 64).wrapping_sub(32), // near ±1
        4 => sign | (fmt.man(bits) | (1 << fmt.man_bits())) >> rng.below(4), // near the subnormal boundary
        _ => sign | fmt.mask(fmt.one() + (bits >> 3) % (fmt.one() / 2)), // smallish magnitudes
    }
}

/// The operand with these fields (panics in a test on a field overflow).
pub fn op(fields: &[(Field, u64)]) -> Operand {
    Operand::from_fields(fields).expect("field values fit")
}

/// `vecfp` on a copy of `s`.
pub fn run(chip: Chip, o: Operand, s: &State) -> State {
    let mut t = s.clone();
    vecfp(&mut t, chip, o);
    t
}

/// Lane `i` of a register seen as `eb`-byte elements.
pub fn get(reg: &[u8; 64], eb: usize, i: usize) -> u64 {
    lane(reg, eb, i)
}

/// Sets lane `i` of a register seen as `eb`-byte elements.
pub fn put(reg: &mut [u8; 64], eb: usize, i: usize, v: u64) {
    set_lane(reg, eb, i, v);
}

/// Fills every lane of a register with `v`.
pub fn fill(reg: &mut [u8; 64], eb: usize, v: u64) {
    for i in 0..64 / eb {
        set_lane(reg, eb, i, v);
    }
}

/// The f32 pattern of a float (for readable expectations).
pub fn f32b(v: f32) -> u64 {
    v.to_bits() as u64
}

/// The f64 pattern of a float.
pub fn f64b(v: f64) -> u64 {
    v.to_bits()
}

/// The f16 pattern of a small positive integer `n` (1..=2048), by the binary16 layout: exponent
/// `e = floor(log2 n)`, biased by 15; the bits below the leading one are the fraction.
pub fn f16_int(n: u64) -> u64 {
    assert!((1..=2048).contains(&n));
    let e = 63 - n.leading_zeros() as u64;
    ((e + 15) << 10) | ((n - (1 << e)) << (10 - e))
}

/// The bf16 pattern of a small positive integer `n` (exact in bf16: at most 8 significant bits):
/// the top half of its f32 pattern.
pub fn bf16_int(n: u64) -> u64 {
    let bits = (n as f32).to_bits();
    assert_eq!(bits & 0xFFFF, 0, "{n} is not exact in bf16");
    (bits >> 16) as u64
}
