//! AVX2 kernels of the two FMAs ([`fma32_bh`]: [`crate::fp::fma_bh`], [`fma32_wh`]:
//! [`crate::fp::fma_wh`]), 32 lanes as four vectors of 8, written with `std::arch` intrinsics. They
//! compute `fma.c`'s `fma_model_bh` / `fma_model_wh` (`Miscellaneous/FMA/fma.c` @ `06c5af5b`) by
//! the same restatement as the AVX-512 kernels (`simd/avx512.rs`, whose module docs say why each
//! step is exact), step for step, with what AVX2 lacks done another way:
//!
//! * a lane predicate is a vector (all ones or all zeros per lane), a per-lane choice
//!   `vpblendvb`, and "every lane" a `vmovmskps` of the predicate;
//! * unsigned comparisons are `max(a, b) == a`;
//! * the 64-bit products' high and low words are put back in lane order with `vpblendd` (there is
//!   no two-source permute);
//! * the bits the alignment shifts out, `small << (32 - s)`, are one `vpsllvd` (a count of 32
//!   gives 0, as VBMI2's funnel shift does for `s = 0`);
//! * the conversion (`vcvtdq2ps`) and the IEEE FMA of the special lanes (`vfmadd`) have no
//!   embedded rounding: they round as MXCSR says, which in Rust code is always to nearest even
//!   without denormals-are-zero or flush-to-zero (Rust does not support running with another
//!   floating-point environment; the denormal inputs are zeroed here explicitly, as in the
//!   AVX-512 kernels);
//! * Blackhole's underflow rule needs the sum converted rounding toward zero (the AVX-512 kernel's
//!   second conversion): that is the conversion to nearest, one ulp less in magnitude where it
//!   rounded away from zero, which converting it back to an integer (exactly: below 2^30) and
//!   comparing magnitudes tells. The adjacent float below a float is its bit pattern minus one.
//!   Only a vector with a lane that may take the rule (a result exponent of at most 1 after
//!   rounding) does these steps, so no vector falls back to the exact integer steps of the
//!   portable [`crate::fp::fma_bh`], lane by lane.
//!
//! Control flow per vector of 8 lanes: a vector whose lanes are all special (Blackhole), or all
//! special with final results (Wormhole), skips the sum; one whose `z` has the exponent field 0
//! in every lane skips the alignment (the sum is the product); the special lanes' results are
//! merged per lane.
//!
//! `tests/it/simd.rs` checks both kernels lane by lane against `fma_model_bh` / `fma_model_wh` on
//! the same triples and mixed batches as every other level's.

use std::arch::x86_64::*;

type V = __m256i;

/// Every lane `v`.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn splat(v: i32) -> V {
    _mm256_set1_epi32(v)
}

/// `a >= b` as unsigned integers, per lane.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn ge_u(a: V, b: V) -> V {
    _mm256_cmpeq_epi32(_mm256_max_epu32(a, b), a)
}

/// `a == 0`, per lane.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn is_zero(a: V) -> V {
    _mm256_cmpeq_epi32(a, _mm256_setzero_si256())
}

/// `not(a)`.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn not(a: V) -> V {
    _mm256_xor_si256(a, _mm256_set1_epi32(-1))
}

/// Per lane: `if_set` where `m` is all ones, else `if_clear`.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn pick(m: V, if_clear: V, if_set: V) -> V {
    _mm256_blendv_epi8(if_clear, if_set, m)
}

/// One bit per lane of a predicate.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn bits(m: V) -> u32 {
    _mm256_movemask_ps(_mm256_castsi256_ps(m)) as u32
}

/// What both chips compute the same way (the AVX-512 kernels' `Fast`, predicates as vectors).
struct Fast {
    /// The exponent fields in place (`z & 0x7F80_0000`), `Ex + Ey`, `min(Ex, Ey)`.
    ez: V,
    sum_e: V,
    min_e: V,
    /// `ex != 0`, `ey != 0` (denormals are zero).
    kxn: V,
    kyn: V,
    /// Inf / NaN input or a product exponent `ex + ey - 127 >= 255`.
    kspecial: V,
    /// `ex + ey - 127 >= 255`.
    kpovf: V,
}

/// The exponent fields and the lane classes (steps 1 and 5).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn classify(x: V, y: V, z: V) -> Fast {
    let expo = splat(0x7F80_0000);
    let ex = _mm256_and_si256(x, expo);
    let ey = _mm256_and_si256(y, expo);
    let ez = _mm256_and_si256(z, expo);
    let sum_e = _mm256_add_epi32(ex, ey);
    let kinput = _mm256_cmpeq_epi32(_mm256_max_epu32(_mm256_max_epu32(ex, ey), ez), expo);
    let kpovf = ge_u(sum_e, splat(382 << 23));
    Fast {
        ez,
        sum_e,
        min_e: _mm256_min_epu32(ex, ey),
        kxn: not(is_zero(ex)),
        kyn: not(is_zero(ey)),
        kspecial: _mm256_or_si256(kinput, kpovf),
        kpovf,
    }
}

/// Whether `z`'s exponent field is 0 in every lane (zero or denormal), when [`sum`]'s `ZT` copy
/// applies.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn z_tiny(f: &Fast) -> bool {
    _mm256_testz_si256(f.ez, f.ez) != 0
}

/// Steps 2-8 in the biased exponent frame: `(S, REb, sA, kdiff)` as the AVX-512 kernels'
/// `sum` returns them (the signed sum of the aligned magnitudes relative to the sign `sA` of the
/// operand with the larger exponent, that exponent as `(re - 25) << 23`, and the lanes where the
/// signs of the product and `z` differ). `ZT`: the caller has found `z`'s exponent field 0 in
/// every lane, and the sum is `P` (the AVX-512 kernels' restatement).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn sum<const ZT: bool>(x: V, y: V, z: V, f: &Fast, wormhole: bool) -> (V, V, V, V) {
    let one = splat(1);
    // Step 6 folded into the sum: a negligible product (a zero or denormal factor, or
    // `ex + ey < 127`) is a zero product with exponent 0.
    let kok = if wormhole {
        _mm256_and_si256(_mm256_and_si256(f.kxn, f.kyn), ge_u(f.sum_e, splat(127 << 23)))
    } else {
        // `min(Ex + Ey, -min(Ex, Ey))` is `Ex + Ey` when neither exponent is 0, else 0.
        ge_u(_mm256_min_epu32(f.sum_e, _mm256_sub_epi32(_mm256_setzero_si256(), f.min_e)), splat(127 << 23))
    };
    let sum_e = if wormhole {
        // `if (p_e > 255) p_e = 255;`
        _mm256_min_epu32(f.sum_e, splat(382 << 23))
    } else {
        f.sum_e
    };
    let peb = pick(kok, splat(-25 << 23), _mm256_sub_epi32(sum_e, splat(152 << 23)));
    let ezb = _mm256_sub_epi32(f.ez, splat(25 << 23));

    // Steps 1-4: mx << 8, my << 4, mz << 3 (zero when denormal); the product `P << 12`, its
    // high word `P >> 20`, its low word the sticky bits; zero when negligible.
    let a = _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi32::<8>(x), splat(0x7FFF_FF00)), splat(i32::MIN));
    let b =
        _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi32::<4>(y), splat(0x07FF_FFF0)), splat(0x0800_0000));
    let zm = _mm256_andnot_si256(
        is_zero(f.ez),
        _mm256_or_si256(_mm256_and_si256(_mm256_slli_epi32::<3>(z), splat(0x03FF_FFF8)), splat(0x0400_0000)),
    );
    let even = _mm256_mul_epu32(a, b);
    let odd = _mm256_mul_epu32(_mm256_srli_epi64::<32>(a), _mm256_srli_epi64::<32>(b));
    let hi = _mm256_blend_epi32::<0xAA>(_mm256_srli_epi64::<32>(even), odd);
    let lo = _mm256_blend_epi32::<0xAA>(even, _mm256_slli_epi64::<32>(odd));
    let p = _mm256_and_si256(kok, _mm256_or_si256(hi, _mm256_min_epu32(lo, one)));
    let kdiff = _mm256_srai_epi32::<31>(_mm256_xor_si256(_mm256_xor_si256(x, y), z));
    if ZT {
        return (p, peb, _mm256_xor_si256(x, y), kdiff);
    }

    // Step 7: the semi-sticky shift of the operand with the smaller exponent (`kzb`: `z`'s).
    let kzb = _mm256_cmpgt_epi32(ezb, peb);
    let reb = _mm256_max_epi32(peb, ezb);
    // The count, clamped to 31 (a count of 28 or more shifts every bit out, and then the
    // semi-sticky rule adds no sticky bit).
    let s = _mm256_srli_epi32::<23>(_mm256_min_epu32(
        _mm256_abs_epi32(_mm256_sub_epi32(peb, ezb)),
        splat(31 << 23),
    ));
    let big = pick(kzb, p, zm);
    let small = pick(kzb, zm, p);
    let sh = _mm256_srlv_epi32(small, s);
    let lost = _mm256_sllv_epi32(small, _mm256_sub_epi32(splat(32), s));
    let sh = _mm256_or_si256(sh, _mm256_min_epu32(_mm256_min_epu32(sh, lost), one));

    // Step 8: the signed sum, relative to the sign of `big`.
    let mut add = _mm256_add_epi32(big, sh);
    if wormhole {
        // Wormhole's step 10 keeps bit 0 alone as its sticky bit when it shifts right by 2 (a
        // magnitude of 2^28 or more, only reached by a sum of operands of one sign).
        add = _mm256_andnot_si256(_mm256_and_si256(_mm256_srli_epi32::<27>(add), splat(2)), add);
    }
    let s_sum = pick(kdiff, add, _mm256_sub_epi32(big, sh));
    let sa = pick(kzb, _mm256_xor_si256(x, y), z);
    (s_sum, reb, sa, kdiff)
}

/// The operands of Blackhole's IEEE FMA of the special lanes, as the AVX-512 kernel's
/// `special_operands_bh` makes them: denormals are zero (for `z` too: a special lane's result does
/// not depend on a denormal `z`), an overflowing product plus a finite `z` is the infinite product
/// (`z` counts as zero), and `x` is zero in the lanes that are not special. No operand and no
/// result of the FMA is subnormal, each of which costs a microcode assist on Intel cores.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn special_operands_bh(x: V, y: V, z: V, f: &Fast) -> [__m256; 3] {
    let kzs = _mm256_cmpeq_epi32(f.ez, splat(0x7F80_0000));
    let kz0 =
        _mm256_or_si256(_mm256_cmpeq_epi32(f.ez, _mm256_setzero_si256()), _mm256_andnot_si256(kzs, f.kpovf));
    [
        _mm256_castsi256_ps(_mm256_and_si256(_mm256_and_si256(f.kxn, f.kspecial), x)),
        _mm256_castsi256_ps(_mm256_and_si256(f.kyn, y)),
        _mm256_castsi256_ps(_mm256_andnot_si256(kz0, z)),
    ]
}

/// Blackhole's step 5 on 8 lanes: a special lane's result, as the IEEE FMA of the
/// denormals-are-zero operands gives it (an overflowing product plus a finite `z` is the infinite
/// product), the canonical NaN for any NaN.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn special_bh(x: V, y: V, z: V, f: &Fast) -> V {
    let [xd, yd, zd] = special_operands_bh(x, y, z, f);
    let r = _mm256_fmadd_ps(xd, yd, zd);
    let knan = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_UNORD_Q>(r, r));
    pick(knan, _mm256_castps_si256(r), splat(0x7FC0_0000))
}

/// Blackhole's steps 6-13 on 8 lanes without the special lanes' results (the AVX-512 kernel's
/// `main_bh`, its conversion toward zero derived from the one to nearest: see the module docs).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn main_bh<const ZT: bool>(x: V, y: V, z: V, f: &Fast) -> V {
    let (s_sum, reb, sa, kdiff) = sum::<ZT>(x, y, z, f, false);
    // Steps 10-13: the magnitude rounded to 24 bits by the conversion, its exponent moved by
    // `re - 153`; `o2` is the result's magnitude plus 2^30.
    let fs = _mm256_castps_si256(_mm256_cvtepi32_ps(s_sum));
    let fs_mag = _mm256_and_si256(fs, splat(i32::MAX));
    let o2 = _mm256_add_epi32(fs_mag, reb);
    let kz = is_zero(s_sum);
    // Overflow: the exponent field saturates at 255 (±Inf).
    let mut mag =
        _mm256_andnot_si256(kz, _mm256_sub_epi32(_mm256_min_epu32(o2, splat(383 << 23)), splat(128 << 23)));
    // The underflow rule, only in a vector with a lane that may take it: a non-zero sum whose
    // exponent after rounding is at most 1 (at most 0 before rounding, the rule's case, is at
    // most 1 after it; special lanes are replaced later).
    if bits(_mm256_or_si256(_mm256_or_si256(kz, f.kspecial), ge_u(o2, splat(130 << 23)))) != 0xFF {
        // The magnitude rounded toward zero is the one rounded to nearest, one step (one ulp)
        // less where that rounded away from zero, which converting it back tells (exactly: it
        // is an integer below 2^30). Its exponent is the one before rounding: at most 0 is the
        // rule's case, and the lane is `0x0080_0000` when its mantissa field is all ones, else 0.
        let back = _mm256_cvttps_epi32(_mm256_castsi256_ps(fs));
        let kaway = _mm256_cmpgt_epi32(_mm256_abs_epi32(back), _mm256_abs_epi32(s_sum));
        let fz_mag = _mm256_add_epi32(fs_mag, kaway);
        let kunder = _mm256_andnot_si256(kz, not(ge_u(_mm256_add_epi32(fz_mag, reb), splat(129 << 23))));
        let man = splat(0x007F_FFFF);
        let kcarry = _mm256_and_si256(kunder, _mm256_cmpeq_epi32(_mm256_and_si256(fz_mag, man), man));
        mag = pick(kcarry, _mm256_andnot_si256(kunder, mag), splat(0x0080_0000));
    }
    // Step 9: an exact zero is `zs & ps`: +0 when the signs differ, else the common sign.
    let res = _mm256_or_si256(mag, _mm256_and_si256(_mm256_xor_si256(sa, fs), splat(i32::MIN)));
    _mm256_andnot_si256(_mm256_and_si256(kz, kdiff), res)
}

/// The operands of Wormhole's IEEE FMA of the special lanes (the AVX-512 kernel's
/// `special_operands_wh`): denormals and a NaN `z` are zero, a finite product whose exponent
/// overflows has `x` scaled to infinity, `x` is zero in the lanes that are not special and in
/// those special only through a NaN `z`; no operand or result is subnormal.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn special_operands_wh(x: V, y: V, z: V, f: &Fast) -> [__m256; 3] {
    let expo = splat(0x7F80_0000);
    let kznan = _mm256_cmpgt_epi32(_mm256_and_si256(z, splat(i32::MAX)), expo);
    // A lane special only through its NaN z has no invalid operation and would leave the
    // product alone (which may be subnormal): its x is zero too.
    let kxy_special = _mm256_or_si256(
        _mm256_cmpeq_epi32(_mm256_and_si256(x, expo), expo),
        _mm256_cmpeq_epi32(_mm256_and_si256(y, expo), expo),
    );
    let kz_only = _mm256_andnot_si256(_mm256_or_si256(kxy_special, f.kpovf), kznan);
    let keep_x = _mm256_andnot_si256(kz_only, _mm256_and_si256(f.kxn, f.kspecial));
    let xd = _mm256_castsi256_ps(_mm256_and_si256(keep_x, x));
    // A finite product whose exponent overflows has x >= 2: x * 2^127 is infinite (an infinite
    // or NaN x stays as it is).
    let scaled = _mm256_mul_ps(xd, _mm256_set1_ps(f32::from_bits(0x7F00_0000)));
    let xd = _mm256_blendv_ps(xd, scaled, _mm256_castsi256_ps(f.kpovf));
    let kz0 = _mm256_or_si256(kznan, _mm256_cmpeq_epi32(f.ez, _mm256_setzero_si256()));
    [xd, _mm256_castsi256_ps(_mm256_and_si256(f.kyn, y)), _mm256_castsi256_ps(_mm256_andnot_si256(kz0, z))]
}

/// Wormhole's step 5 on 8 lanes: `(special_r, knan, ksf, nan)` as the AVX-512 kernel's
/// `special_wh` returns them (the special lanes' results, the lanes with a pending NaN, the special
/// lanes without one, and the pending NaNs `sign | 0x7F80_0001`).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn special_wh(x: V, y: V, z: V, f: &Fast) -> (V, V, V, V) {
    let zero = _mm256_setzero_si256();
    if bits(f.kspecial) == 0 {
        return (zero, zero, zero, zero);
    }
    let kznan = _mm256_cmpgt_epi32(_mm256_and_si256(z, splat(i32::MAX)), splat(0x7F80_0000));
    let [xd, yd, zd] = special_operands_wh(x, y, z, f);
    let r = _mm256_fmadd_ps(xd, yd, zd);
    let kinvalid = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_UNORD_Q>(r, r));
    let knan = _mm256_or_si256(kinvalid, kznan);
    // `sign | 0x7F800001`: the product's sign for an invalid operation, else z's.
    let sign = _mm256_and_si256(pick(kinvalid, z, _mm256_xor_si256(x, y)), splat(i32::MIN));
    let nan = _mm256_and_si256(knan, _mm256_or_si256(sign, splat(0x7F80_0001)));
    (_mm256_castps_si256(r), knan, _mm256_andnot_si256(knan, f.kspecial), nan)
}

/// Wormhole's steps 6-13 on 8 lanes, with the special lanes' results of [`special_wh`].
#[inline]
#[target_feature(enable = "avx2,fma")]
fn main_wh<const ZT: bool>(x: V, y: V, z: V, f: &Fast, (special_r, knan, ksf, nan): (V, V, V, V)) -> V {
    let (s_sum, reb, sa, _) = sum::<ZT>(x, y, z, f, true);
    // Step 10: rounded to 24 bits by the conversion (`sum` has cleared the bit the hardware
    // drops).
    let fs = _mm256_castps_si256(_mm256_cvtepi32_ps(s_sum));
    let o2 = _mm256_add_epi32(_mm256_and_si256(fs, splat(i32::MAX)), reb);
    // Kept: a non-zero sum whose result exponent (after rounding) is at least 1; the others are
    // flushed (to the pending NaN or +0).
    let kgood = _mm256_andnot_si256(is_zero(s_sum), ge_u(o2, splat(129 << 23)));
    let mag = _mm256_sub_epi32(_mm256_min_epu32(o2, splat(383 << 23)), splat(128 << 23));
    let rs = _mm256_and_si256(_mm256_xor_si256(sa, fs), splat(i32::MIN));
    let sign_or_nan = pick(knan, rs, nan);
    let res = pick(kgood, nan, _mm256_or_si256(sign_or_nan, mag));
    pick(ksf, res, special_r)
}

/// Loads lanes `8 * q..8 * q + 8` of `v`.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn load(v: &[u32; 32], q: usize) -> V {
    let lanes: &[u32] = &v[8 * q..8 * q + 8];
    // SAFETY: `lanes` is 8 readable `u32`s, the 32 bytes an unaligned 256-bit load reads.
    unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) }
}

/// Loads lanes `8 * q..8 * q + 8` of the three operands, with `flip_a` and `flip_c` XORed into
/// the first and the third (SFPMAD's negations of `VA` and `VC`).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn load_operands(v: [&[u32; 32]; 3], q: usize, flip_a: u32, flip_c: u32) -> (V, V, V) {
    (
        _mm256_xor_si256(load(v[0], q), splat(flip_a as i32)),
        load(v[1], q),
        _mm256_xor_si256(load(v[2], q), splat(flip_c as i32)),
    )
}

/// Stores `x` to lanes `8 * q..8 * q + 8` of `v`.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn store(v: &mut [u32; 32], q: usize, x: V) {
    let lanes: &mut [u32] = &mut v[8 * q..8 * q + 8];
    // SAFETY: `lanes` is 8 writable `u32`s, the 32 bytes an unaligned 256-bit store writes.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), x) }
}

/// [`crate::fp::fma_bh`] over 32 lanes, 8 at a time: a vector whose lanes are all special skips
/// the sum, and one whose `z` is zero or denormal in every lane the alignment; no other shortcut
/// or slow path (the underflow rule is [`main_bh`]'s).
///
/// The operands are `a ^ flip_a`, `b` and `c ^ flip_c` lane by lane (SFPMAD's negations of `VA`
/// and `VC`, applied in registers).
///
/// Not itself a `#[target_feature]` function (those cannot be `#[inline(always)]`): it is
/// inlined into the models' copies compiled for this level (`simd::fma32_at`), where its helpers'
/// features are the copy's own, so that the whole kernel is inlined there and its operands and
/// result stay in registers; [`fma32_bh`] is the out-of-line copy.
///
/// # Safety
///
/// The CPU must support AVX2 and FMA (`super::avx2_available`).
#[inline(always)]
pub(super) unsafe fn fma32_bh_inline(
    a: &[u32; 32],
    b: &[u32; 32],
    c: &[u32; 32],
    flip_a: u32,
    flip_c: u32,
    out: &mut [u32; 32],
) {
    // SAFETY: the caller guarantees the CPU features the helpers enable (above).
    unsafe {
        for q in 0..4 {
            let (x, y, z) = load_operands([a, b, c], q, flip_a, flip_c);
            let f = classify(x, y, z);
            let special = bits(f.kspecial);
            if special == 0xFF {
                store(out, q, special_bh(x, y, z, &f));
                continue;
            }
            let mut r = if z_tiny(&f) { main_bh::<true>(x, y, z, &f) } else { main_bh::<false>(x, y, z, &f) };
            if special != 0 {
                r = pick(f.kspecial, r, special_bh(x, y, z, &f));
            }
            store(out, q, r);
        }
    }
}

/// [`fma32_bh_inline`] with the kernel's target features: out of line where the caller is not
/// compiled for this level (the dispatcher `simd::fma32_bh`, the tests).
///
/// # Safety
///
/// The CPU must support AVX2 and FMA (`super::avx2_available`).
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(super) fn fma32_bh(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    // SAFETY: this function's target features are the ones the kernel needs.
    unsafe { fma32_bh_inline(a, b, c, 0, 0, out) }
}

/// [`crate::fp::fma_wh`] over 32 lanes, 8 at a time, with the shortcuts of [`fma32_bh_inline`].
///
/// # Safety
///
/// As for [`fma32_bh_inline`].
#[inline(always)]
pub(super) unsafe fn fma32_wh_inline(
    a: &[u32; 32],
    b: &[u32; 32],
    c: &[u32; 32],
    flip_a: u32,
    flip_c: u32,
    out: &mut [u32; 32],
) {
    // SAFETY: the caller guarantees the CPU features the helpers enable (above).
    unsafe {
        for q in 0..4 {
            let (x, y, z) = load_operands([a, b, c], q, flip_a, flip_c);
            let f = classify(x, y, z);
            let s = special_wh(x, y, z, &f);
            let r = if bits(s.2) == 0xFF {
                s.0
            } else if z_tiny(&f) {
                main_wh::<true>(x, y, z, &f, s)
            } else {
                main_wh::<false>(x, y, z, &f, s)
            };
            store(out, q, r);
        }
    }
}

/// [`fma32_wh_inline`] with the kernel's target features: out of line where the caller is not
/// compiled for this level (the dispatcher `simd::fma32_wh`, the tests).
///
/// # Safety
///
/// The CPU must support AVX2 and FMA (`super::avx2_available`).
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(super) fn fma32_wh(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    // SAFETY: this function's target features are the ones the kernel needs.
    unsafe { fma32_wh_inline(a, b, c, 0, 0, out) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// As the AVX-512 kernel's test of the same name: no subnormal operand or result in the IEEE
    /// FMA of the special lanes (`simd::tests::check_special_operands`).
    #[test]
    fn special_fma_sees_no_subnormal() {
        if !crate::simd::avx2_available() {
            return;
        }
        for wormhole in [false, true] {
            crate::simd::check::check_special_operands::<8>(0x5B0B_0008, 8_000, wormhole, |v| {
                // SAFETY: the CPU has AVX2 and FMA (checked above); the loads read 8 `u32`s and
                // the stores write 8 `f32`s.
                unsafe {
                    let [x, y, z] = v.map(|a| _mm256_loadu_si256(a.as_ptr().cast()));
                    let f = classify(x, y, z);
                    let ops = if wormhole {
                        special_operands_wh(x, y, z, &f)
                    } else {
                        special_operands_bh(x, y, z, &f)
                    };
                    let mut out = [[0f32; 8]; 3];
                    for (o, v) in out.iter_mut().zip(ops) {
                        _mm256_storeu_ps(o.as_mut_ptr(), v);
                    }
                    (out, bits(f.kspecial))
                }
            });
        }
    }

    /// Blackhole's underflow rule needs no slow path (the AVX-512 kernel's test of the same name,
    /// `simd::tests::check_underflow_rule`): on triples whose results land next to exponent 0,
    /// [`main_bh`] alone gives `fma_model_bh`'s result on every lane, and those triples take the
    /// rule both ways. Without the conversion toward zero (`kunder` empty) this fails.
    #[test]
    fn blackhole_underflow_rule_without_a_slow_path() {
        if !crate::simd::avx2_available() {
            return;
        }
        crate::simd::check::check_underflow_rule::<8>(0x51AD_0008, 40_000, |v| {
            // SAFETY: the CPU has AVX2 and FMA (checked above); the loads read 8 `u32`s.
            unsafe {
                let [x, y, z] = v.map(|a| _mm256_loadu_si256(a.as_ptr().cast()));
                let f = classify(x, y, z);
                let mut out = [0u32; 8];
                _mm256_storeu_si256(out.as_mut_ptr().cast(), main_bh::<false>(x, y, z, &f));
                out
            }
        });
    }
}
