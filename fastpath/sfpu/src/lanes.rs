//! Lane masks as words: bit `i` of a `u32` for lane `i` ([`LANE_BIT`]), expanded into per-lane
//! all-ones words ([`expand`]), also for a blend into memory ([`blend_mask`], which hides the mask
//! from the optimiser where masked stores are slow). A leaf below the state and the kernels; the
//! state re-exports [`expand`].

/// Bit `i` set: lane `i`. Used to expand a lane mask into per-lane all-ones words.
pub(crate) const LANE_BIT: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut i = 0;
    while i < 32 {
        t[i] = 1 << i;
        i += 1;
    }
    t
};

/// Expands a lane mask into per-lane words: all ones where the lane's bit is set, else zero.
#[inline(always)]
pub fn expand(mask: u32) -> [u32; 32] {
    let mut m = [0u32; 32];
    for i in 0..32 {
        m[i] = if mask & LANE_BIT[i] != 0 { !0 } else { 0 };
    }
    m
}

/// [`expand`] for a blend into memory: below AVX-512 the expanded mask is hidden from the
/// optimiser, which would otherwise make the blend a masked store (`vpmaskmovd`, microcoded on
/// AMD's cores: `simd::masked_stores_are_slow`), so that the register is blended and stored whole.
#[inline(always)]
pub(crate) fn blend_mask(mask: u32) -> [u32; 32] {
    let m = expand(mask);
    if crate::simd::masked_stores_are_slow() { std::hint::black_box(m) } else { m }
}
