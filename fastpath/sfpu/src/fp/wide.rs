//! The FMAs over 32 lanes at the SIMD level in force ([`fma32`], [`fma32_wh`], [`fma32_of`]): the
//! one-lane FMAs of [`super`] through the kernels of `crate::simd`, which build on them (so they
//! live in this file of their own, above the kernels, and `fp` re-exports them).

use sfpu_reference::isa::Arch;

/// [`fma_bh`](super::fma_bh) over 32 lanes: `out[i] = a[i] * b[i] + c[i]`. Straight-line per
/// lane, no branches; the AVX-512 or AVX2 copy where the CPU has it (see [`crate::simd`]).
#[inline]
pub fn fma32(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    crate::simd::fma32_bh(a, b, c, out)
}

/// [`fma_wh`](super::fma_wh) over 32 lanes: `out[i] = a[i] * b[i] + c[i]` with Wormhole's
/// numerics (the AVX-512 or AVX2 copy where the CPU has it, as for [`fma32`]).
#[inline]
pub fn fma32_wh(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    crate::simd::fma32_wh(a, b, c, out)
}

/// The FMA of chip `arch` over 32 lanes: [`fma32`] (Blackhole) or [`fma32_wh`] (Wormhole).
#[inline]
pub fn fma32_of(arch: Arch, a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    match arch {
        Arch::Blackhole => fma32(a, b, c, out),
        Arch::Wormhole => fma32_wh(a, b, c, out),
    }
}
