//! AVX-512 kernels of the two FMAs, 16 lanes per vector, written with `std::arch` intrinsics
//! (the auto-vectorised copy of [`crate::fp::fma_bh`] was barely faster with AVX-512 enabled than
//! with AVX2: the compiler keeps the scalar formulation's shape, with its u64 alignment shift,
//! its clamp and its three-way right shift).
//!
//! What each kernel computes: [`fma_bh16`] is [`crate::fp::fma_bh`] and [`fma_wh16`] is
//! [`crate::fp::fma_wh`] on 16 lanes, with the same steps in the same order (the step numbers of
//! spec §4.1 are repeated here). The reformulations, each exact for the operands the FMA can see:
//!
//! * **Product.** `mx << 8` and `my << 4` are 32-bit values whose 64-bit product is `P << 12`:
//!   its high word is `P >> 20` and its low word is non-zero exactly when one of `P`'s low 20
//!   bits is (the sticky bit). `vpmuludq` multiplies the even lanes; the odd lanes are shifted
//!   down first; two blends put the high and low words back in lane order.
//! * **Alignment.** `vpsrlvd` gives 0 for counts of 32 and more, so the semi-sticky shift needs
//!   no clamp: `v >> s`, and a bit was lost when `(v >> s) << s != v`; the sticky one is ORed in
//!   only when the result is non-zero, which a shift by 32 or more never gives.
//! * **Normalisation.** With `n = 5 - lzcnt(r)` (at most 3 after the underflow adjustment),
//!   `t = r << (3 - n)` never overflows (its leading one is at bit 29 or 28) and `t >> 3` is both
//!   the left shift by `-n` and the right shift by `n`. The sticky bits the C models keep are
//!   bits of `t` below bit 3: Blackhole keeps `r & 1` (bit 2 of `t`) for `n = 1` and `r & 3`
//!   (bits 1 and 2) for `n = 2`, so the mask is 6; for `n <= 0` the low three bits of `t` are
//!   zero. (The C model's `n = 3` case, mask `r & 3`, cannot occur: it needs `n = 2` and an
//!   exponent `re + 2 <= 0`, but `re >= 0`.) Wormhole keeps `r & 1` only: bit
//!   `3 - n` of `t`, the mask `4 >> (n - 1)` (0 for `n <= 0`, where `vpsrlvd` shifts everything
//!   out).
//! * **Selects.** Each per-lane `if` of the scalar code is a mask register and a masked move;
//!   the final chain of selects is applied from the least to the most urgent case, so the most
//!   urgent wins as in the scalar `if`/`else if` chain.
//!
//! `tests/simd.rs` checks both kernels lane by lane against `fma_model_bh` / `fma_model_wh` on
//! random, cancelling and edge triples, and against the portable kernels.

use std::arch::x86_64::*;

/// `vpternlogd` truth table of `(a & b) | c`.
const AND_OR: i32 = 0xEA;
/// `vpternlogd` truth table of `a ^ b ^ c`.
const XOR3: i32 = 0x96;
/// `vpternlogd` truth table of `(a ^ b) & c`.
const XOR_AND: i32 = 0x28;

/// What both chips' FMAs compute the same way (steps 1 to 4 and the special-input tests).
struct Unpacked {
    ez: __m512i,
    /// `ex != 0`, `ey != 0`, `ez != 0` (denormals are zero).
    kxn: __mmask16,
    kyn: __mmask16,
    kzn: __mmask16,
    /// The mantissa fields are non-zero.
    kxm: __mmask16,
    kym: __mmask16,
    kzm: __mmask16,
    /// Exponent 255.
    kxs: __mmask16,
    kys: __mmask16,
    kzs: __mmask16,
    /// The sign of `z` differs from the product's.
    kdiff: __mmask16,
    /// `ps = (x ^ y) & SIGN`, `zs = z & SIGN`.
    ps: __m512i,
    zs: __m512i,
    /// The narrowed product (28 bits plus sticky) and its exponent `ex + ey - 127`.
    p: __m512i,
    pe: __m512i,
    /// `mz << 3`.
    zm: __m512i,
}

#[inline]
#[target_feature(enable = "avx512f,avx512cd")]
fn unpack(x: __m512i, y: __m512i, z: __m512i) -> Unpacked {
    let sign = _mm512_set1_epi32(i32::MIN);
    let man = _mm512_set1_epi32(0x007F_FFFF);
    let expo = _mm512_set1_epi32(0x7F80_0000);
    let ff = _mm512_set1_epi32(0xFF);
    let one = _mm512_set1_epi32(1);

    // Step 1: unpack with denormals-are-zero.
    let ex = _mm512_and_si512(_mm512_srli_epi32::<23>(x), ff);
    let ey = _mm512_and_si512(_mm512_srli_epi32::<23>(y), ff);
    let ez = _mm512_and_si512(_mm512_srli_epi32::<23>(z), ff);
    let kxn = _mm512_test_epi32_mask(x, expo);
    let kyn = _mm512_test_epi32_mask(y, expo);
    let kzn = _mm512_test_epi32_mask(z, expo);
    // mx << 8 and my << 4 (zero for a zero exponent), mz << 3.
    let a = _mm512_maskz_ternarylogic_epi32::<AND_OR>(
        kxn,
        _mm512_slli_epi32::<8>(x),
        _mm512_set1_epi32(0x7FFF_FF00),
        sign,
    );
    let b = _mm512_maskz_ternarylogic_epi32::<AND_OR>(
        kyn,
        _mm512_slli_epi32::<4>(y),
        _mm512_set1_epi32(0x07FF_FFF0),
        _mm512_set1_epi32(0x0800_0000),
    );
    let zm = _mm512_maskz_ternarylogic_epi32::<AND_OR>(
        kzn,
        _mm512_slli_epi32::<3>(z),
        _mm512_set1_epi32(0x03FF_FFF8),
        _mm512_set1_epi32(0x0400_0000),
    );
    let ps = _mm512_ternarylogic_epi32::<XOR_AND>(x, y, sign);
    let zs = _mm512_and_si512(z, sign);

    // Steps 2-4: the exact product `P << 12` per lane pair; high word `P >> 20`, sticky from
    // the low word.
    let even = _mm512_mul_epu32(a, b);
    let odd = _mm512_mul_epu32(_mm512_srli_epi64::<32>(a), _mm512_srli_epi64::<32>(b));
    let hi = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64::<32>(even), odd);
    let lo = _mm512_mask_blend_epi32(0xAAAA, even, _mm512_slli_epi64::<32>(odd));
    let p = _mm512_or_si512(hi, _mm512_min_epu32(lo, one));
    let pe = _mm512_sub_epi32(_mm512_add_epi32(ex, ey), _mm512_set1_epi32(127));

    Unpacked {
        ez,
        kxn,
        kyn,
        kzn,
        kxm: _mm512_test_epi32_mask(x, man),
        kym: _mm512_test_epi32_mask(y, man),
        kzm: _mm512_test_epi32_mask(z, man),
        kxs: _mm512_cmpeq_epi32_mask(ex, ff),
        kys: _mm512_cmpeq_epi32_mask(ey, ff),
        kzs: _mm512_cmpeq_epi32_mask(ez, ff),
        kdiff: _mm512_test_epi32_mask(_mm512_ternarylogic_epi32::<XOR3>(x, y, z), sign),
        ps,
        zs,
        p,
        pe,
        zm,
    }
}

/// Steps 7 and 8 of both models: the semi-sticky alignment of the operand with the smaller
/// exponent (`pe >= 0` here), and the magnitude sum. Returns `(re, rs, r)`.
#[inline]
#[target_feature(enable = "avx512f,avx512cd")]
fn align_add(u: &Unpacked, p: __m512i, pe: __m512i) -> (__m512i, __m512i, __m512i) {
    let one = _mm512_set1_epi32(1);
    let kpb = _mm512_cmpge_epi32_mask(pe, u.ez);
    let re = _mm512_max_epi32(pe, u.ez);
    let small = _mm512_mask_blend_epi32(kpb, p, u.zm);
    let s = _mm512_abs_epi32(_mm512_sub_epi32(pe, u.ez));
    let sh = _mm512_srlv_epi32(small, s);
    // 1 when a one was shifted out, ORed in only when the result is non-zero: `min(sh, lost)`.
    let lost = _mm512_min_epu32(_mm512_xor_si512(_mm512_sllv_epi32(sh, s), small), one);
    let sh = _mm512_or_si512(sh, _mm512_min_epu32(sh, lost));
    let pa = _mm512_mask_blend_epi32(kpb, sh, p);
    let za = _mm512_mask_blend_epi32(kpb, u.zm, sh);
    let rs = _mm512_mask_blend_epi32(_mm512_cmpge_epu32_mask(pa, za), u.zs, u.ps);
    let sum = _mm512_add_epi32(pa, za);
    let dif = _mm512_abs_epi32(_mm512_sub_epi32(pa, za));
    let r = _mm512_mask_blend_epi32(u.kdiff, sum, dif);
    (re, rs, r)
}

/// Steps 12 and 13 of both models: `(e << 23) + ((rn >> 3) & MAN)`, rounded to nearest even.
#[inline]
#[target_feature(enable = "avx512f,avx512cd")]
fn assemble_round(e: __m512i, rn: __m512i) -> __m512i {
    let one = _mm512_set1_epi32(1);
    let out = _mm512_add_epi32(
        _mm512_slli_epi32::<23>(e),
        _mm512_and_si512(_mm512_srli_epi32::<3>(rn), _mm512_set1_epi32(0x007F_FFFF)),
    );
    // `(g + lsb) > 4` as `(g + lsb + 3) >> 3` (the sum is at most 8).
    let g = _mm512_add_epi32(_mm512_and_si512(rn, _mm512_set1_epi32(7)), _mm512_and_si512(out, one));
    _mm512_add_epi32(out, _mm512_srli_epi32::<3>(_mm512_add_epi32(g, _mm512_set1_epi32(3))))
}

/// [`crate::fp::fma_bh`] on 16 lanes.
#[inline]
#[target_feature(enable = "avx512f,avx512cd")]
pub(super) fn fma_bh16(x: __m512i, y: __m512i, z: __m512i) -> __m512i {
    let zero = _mm512_setzero_si512();
    let one = _mm512_set1_epi32(1);
    let inf = _mm512_set1_epi32(0x7F80_0000);
    let u = unpack(x, y, z);

    // Step 5: Inf / NaN inputs, or a product exponent that overflowed.
    let kxy_s = u.kxs | u.kys;
    let knan =
        (u.kxs & (u.kxm | !u.kyn)) | (u.kys & (u.kym | !u.kxn)) | (u.kzs & u.kzm) | (u.kzs & kxy_s & u.kdiff);
    let kspecial = kxy_s | u.kzs | _mm512_cmpge_epi32_mask(u.pe, _mm512_set1_epi32(255));
    let special_r = _mm512_mask_mov_epi32(_mm512_or_si512(u.ps, inf), u.kzs, z);
    let special_r = _mm512_mask_mov_epi32(special_r, knan, _mm512_set1_epi32(0x7FC0_0000));

    // Step 6: negligible product (`p == 0` exactly when `x` or `y` is zero or denormal).
    let knegl = !(u.kxn & u.kyn) | _mm512_cmplt_epi32_mask(u.pe, zero);
    let zero_r = _mm512_and_si512(u.ps, z);
    let negligible_r = _mm512_mask_mov_epi32(zero_r, u.kzn, z);

    // Steps 7-8.
    let (re, rs, r) = align_add(&u, u.p, _mm512_max_epi32(u.pe, zero));

    // Step 10: normalise (see the module docs for the one shift).
    let n = _mm512_sub_epi32(_mm512_set1_epi32(5), _mm512_lzcnt_epi32(r));
    let e = _mm512_add_epi32(re, n);
    let kov = _mm512_cmpge_epi32_mask(e, _mm512_set1_epi32(255));
    // Underflow (`e <= 0`): one more position to the right, and exponent 0.
    let n = _mm512_add_epi32(n, _mm512_srli_epi32::<31>(_mm512_sub_epi32(e, one)));
    let e = _mm512_max_epi32(e, zero);
    let t = _mm512_sllv_epi32(r, _mm512_sub_epi32(_mm512_set1_epi32(3), n));
    let sticky = _mm512_min_epu32(_mm512_and_si512(t, _mm512_set1_epi32(6)), one);
    let rn = _mm512_or_si512(_mm512_srli_epi32::<3>(t), sticky);

    // Steps 11-13: assemble, round, flush after rounding.
    let out = assemble_round(e, rn);
    let out = _mm512_maskz_mov_epi32(_mm512_cmpge_epu32_mask(out, _mm512_set1_epi32(0x0080_0000)), out);
    let mut res = _mm512_or_si512(rs, out);

    res = _mm512_mask_mov_epi32(res, kov, _mm512_or_si512(rs, inf));
    res = _mm512_mask_mov_epi32(res, _mm512_testn_epi32_mask(r, r), zero_r);
    res = _mm512_mask_mov_epi32(res, knegl, negligible_r);
    _mm512_mask_mov_epi32(res, kspecial, special_r)
}

/// [`crate::fp::fma_wh`] on 16 lanes.
#[inline]
#[target_feature(enable = "avx512f,avx512cd")]
pub(super) fn fma_wh16(x: __m512i, y: __m512i, z: __m512i) -> __m512i {
    let zero = _mm512_setzero_si512();
    let one = _mm512_set1_epi32(1);
    let inf = _mm512_set1_epi32(0x7F80_0000);
    let nan_bits = _mm512_set1_epi32(0x7F80_0001);
    let c255 = _mm512_set1_epi32(255);
    let u = unpack(x, y, z);

    // Step 5: specials; a NaN stays pending.
    let kpo = _mm512_cmpge_epi32_mask(u.pe, c255);
    let kzinf = u.kzs & !u.kzm;
    let kinvalid =
        (u.kxs & (u.kxm | !u.kyn)) | (u.kys & (u.kym | !u.kxn)) | (kzinf & (u.kxs | u.kys | kpo) & u.kdiff);
    let kznan = u.kzs & u.kzm;
    let kspecial = u.kxs | u.kys | u.kzs | kpo;
    let knan = kspecial & (kinvalid | kznan);
    let nan =
        _mm512_mask_mov_epi32(_mm512_or_si512(u.zs, nan_bits), kinvalid, _mm512_or_si512(u.ps, nan_bits));
    let nan = _mm512_maskz_mov_epi32(knan, nan);
    let kspecial_final = kspecial & !knan;
    let special_r = _mm512_mask_mov_epi32(_mm512_or_si512(u.ps, inf), u.kzs, z);
    let pe = _mm512_min_epi32(u.pe, c255);

    // Step 6: negligible product; the product counts as zero under a pending NaN.
    let knegl = !(u.kxn & u.kyn) | _mm512_cmplt_epi32_mask(pe, zero);
    let negligible_r = _mm512_maskz_mov_epi32(u.kzn, z);
    let p = _mm512_maskz_mov_epi32(!knegl, u.p);
    let pe = _mm512_maskz_mov_epi32(!knegl, pe);

    // Steps 7-8.
    let (re, rs, r) = align_add(&u, p, pe);

    // Step 10: normalise; the right shift's sticky bit is `r & 1` alone.
    let n = _mm512_sub_epi32(_mm512_set1_epi32(5), _mm512_lzcnt_epi32(r));
    let e = _mm512_add_epi32(re, n);
    let kov = _mm512_cmpge_epi32_mask(e, c255);
    let kuf = _mm512_cmplt_epi32_mask(e, zero);
    let t = _mm512_sllv_epi32(r, _mm512_sub_epi32(_mm512_set1_epi32(3), n));
    let sticky_bit = _mm512_srlv_epi32(_mm512_set1_epi32(4), _mm512_sub_epi32(n, one));
    let sticky = _mm512_min_epu32(_mm512_and_si512(t, sticky_bit), one);
    let rn = _mm512_or_si512(_mm512_srli_epi32::<3>(t), sticky);

    // Steps 11-13: assemble (exponent 0 without its hidden bit), round, flush.
    let out = assemble_round(_mm512_and_si512(e, _mm512_set1_epi32(0xFF)), rn);
    let kflushed = _mm512_cmplt_epu32_mask(out, _mm512_set1_epi32(0x0080_0000));
    let sign_or_nan = _mm512_mask_mov_epi32(rs, knan, nan);
    let mut res = _mm512_or_si512(sign_or_nan, out);

    res = _mm512_mask_mov_epi32(res, kuf | kflushed, nan);
    res = _mm512_mask_mov_epi32(res, kov, _mm512_mask_mov_epi32(_mm512_or_si512(rs, inf), knan, nan));
    res = _mm512_mask_mov_epi32(res, _mm512_testn_epi32_mask(r, r), nan);
    res = _mm512_mask_mov_epi32(res, knegl & !knan, negligible_r);
    _mm512_mask_mov_epi32(res, kspecial_final, special_r)
}

/// Loads 16 lanes from `v[16 * half..]`.
#[inline]
#[target_feature(enable = "avx512f")]
fn load(v: &[u32; 32], half: usize) -> __m512i {
    let lanes: &[u32] = &v[16 * half..16 * half + 16];
    // SAFETY: `lanes` is 16 readable `u32`s, the 64 bytes an unaligned 512-bit load reads.
    unsafe { _mm512_loadu_epi32(lanes.as_ptr().cast()) }
}

/// Stores 16 lanes to `v[16 * half..]`.
#[inline]
#[target_feature(enable = "avx512f")]
fn store(v: &mut [u32; 32], half: usize, x: __m512i) {
    let lanes: &mut [u32] = &mut v[16 * half..16 * half + 16];
    // SAFETY: `lanes` is 16 writable `u32`s, the 64 bytes an unaligned 512-bit store writes.
    unsafe { _mm512_storeu_epi32(lanes.as_mut_ptr().cast(), x) }
}

/// [`crate::fp::fma_bh`] over 32 lanes.
///
/// # Safety
///
/// The CPU must support AVX-512F and AVX-512CD (`super::avx512_available`).
#[target_feature(enable = "avx512f,avx512cd")]
pub(super) fn fma32_bh(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    for h in 0..2 {
        store(out, h, fma_bh16(load(a, h), load(b, h), load(c, h)));
    }
}

/// [`crate::fp::fma_wh`] over 32 lanes.
///
/// # Safety
///
/// As for [`fma32_bh`].
#[target_feature(enable = "avx512f,avx512cd")]
pub(super) fn fma32_wh(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    for h in 0..2 {
        store(out, h, fma_wh16(load(a, h), load(b, h), load(c, h)));
    }
}
