//! AVX-512 kernels of the two FMAs ([`fma32_bh`]: [`crate::fp::fma_bh`], [`fma32_wh`]:
//! [`crate::fp::fma_wh`]), 32 lanes as two vectors of 16, written with `std::arch` intrinsics. They
//! compute `fma.c`'s `fma_model_bh` / `fma_model_wh` (`Miscellaneous/FMA/fma.c` @ `06c5af5b`; step
//! numbers as in `fma_model_bh` of `reference/sfpu/src/fp.rs`) bit for bit, restated so that most
//! steps are one instruction. Each restatement, and why it is exact:
//!
//! * **Exponents in place.** The fields stay where they are (`x & 0x7F80_0000`), so `ex + ey`
//!   is one add; they are biased, `peb = (pe - 25) << 23` and `ezb = (ez - 25) << 23`, so that
//!   `reb = max(peb, ezb)` is what the rounding step below adds.
//! * **Negligible product (step 6) folded into the sum.** A zero or denormal factor or
//!   `ex + ey < 127` makes the product 0 with exponent 0: the sum is then `z` exactly (a normal
//!   `z` is the larger operand and nothing is shifted into it) or an exact zero, the model's
//!   results for a negligible product.
//! * **Product (steps 2-4).** `mx << 8` and `my << 4` are 32-bit values whose 64-bit product is
//!   `P << 12`: its high word is `P >> 20` and its low word is non-zero exactly when one of `P`'s
//!   low 20 bits is (the sticky bit). `vpmuludq` multiplies the even lanes and the odd lanes
//!   shifted down; two `vpermt2d` put the high and low words back in lane order.
//! * **Alignment (step 7).** `vpsrlvd` by the exponent difference (clamped to 31: a count of 28
//!   or more shifts every bit out, and then the semi-sticky rule adds nothing); the bits shifted
//!   out are `small << (32 - s)`, one `vpshrdvd`; the sticky one is ORed in only when the shifted
//!   value is non-zero (`min(min(sh, lost), 1)`).
//! * **Sum (step 8).** `big ± sh`, signed, relative to the sign of the operand with the larger
//!   exponent; the result's sign is that sign XOR the sum's.
//! * **A zero `z` skips steps 7 and 8.** When `z`'s exponent field is 0 in every lane of a vector
//!   (zeros or denormals, whose mantissa counts as zero: SFPMULI's `+0.0`, the `LCONST_0` of an
//!   SFPMUL), the sum is `P` itself, relative to the product's sign: the product is the larger
//!   operand in every lane whose sum is used (`peb >= -25 << 23`, which is `z`'s `ezb`, wherever
//!   the product is kept, and a negligible product is zero like `z`; Blackhole's special lanes,
//!   where `ex + ey` can wrap `peb`'s sign, are replaced anyway), nothing is shifted into it, and
//!   `P < 2^28` needs none of Wormhole's clearing. `kdiff` still gives an exact zero's sign.
//! * **Normalisation and rounding (steps 10-13) by one conversion.** Blackhole's normalising
//!   right shift keeps what it drops as a sticky bit (`r & 1` for `n = 1`, `r & 3 != 0` for
//!   `n = 2`): a round-to-odd to 27 bits, then round-to-nearest-even to 24. Rounding to odd at
//!   two or more bits beyond the target precision and then to nearest gives the same as rounding
//!   to nearest directly, so steps 10-13 round the integer sum `R < 2^29` to 24 bits, which is
//!   what `vcvtdq2ps` does (embedded round-to-nearest-even, independent of MXCSR). The float's
//!   exponent field is `127 + 26 + n` (plus the rounding carry), so adding `(re - 153) << 23`
//!   gives the model's `(e << 23) + mantissa` with its carry. Wormhole's right shift by 2 keeps
//!   only bit 0 as its sticky bit: the sum's bit 1 is cleared first when `R >= 2^28` (only a sum
//!   of operands of one sign gets there), then the same argument applies.
//! * **Result range.** With `o2` the magnitude plus 2^30 (result exponents -26 ..= 258 fit in a
//!   `u32` then), an exponent of 255 or more saturates to Inf (overflow before rounding and
//!   254 plus a carry give the same bits). Wormhole flushes what is below exponent 1 after
//!   rounding (its exponent 0 survives only as `0x0080_0000`, after a carry, which is also what the
//!   conversion gives).
//! * **Blackhole's underflow rule by a second conversion.** When the exponent after
//!   normalisation (before rounding) is at most 0, the model shifts by one more position only,
//!   so the leading one of `R` lands on bit 25 and the assembled word is `(R >> 3) & MAN`, below
//!   `2^23`; it survives the flush only if rounding carries it to `0x0080_0000`, which happens
//!   exactly when bits 25 to 2 of the shifted `R` are all ones (bits 25 to 3 make the word
//!   `0x7F_FFFF`, bit 2 makes the rounding go up; the sticky bit lands on bit 0 and the left
//!   shift brings in zeros). Those are the top 24 bits of `R`, which the conversion rounding
//!   toward zero keeps: the lane's magnitude is `0x0080_0000` if that float's mantissa field is
//!   all ones, else 0, with the sign of the sum. The same conversion's exponent is the one before
//!   rounding (toward zero never carries), which tells these lanes apart. So a vector with a
//!   result exponent of at most 1 needs no exact integer steps of the portable model, which run
//!   lane by lane in effect and would be most of the kernel's time in such vectors.
//! * **Exact zero (step 9).** Blackhole: `zs & ps` (+0 after a cancellation, the common sign of
//!   two zeros); Wormhole: +0 (or the pending NaN).
//! * **Specials (step 5) by the IEEE FMA of the operands with denormals as zero.** Its NaN cases
//!   are the chips' (NaN input, `Inf * 0`, `Inf - Inf`) and its infinite results the chips' final
//!   ones (`z` when `z` is infinite, else the product's sign with Inf), with two adjustments: for
//!   a finite product whose exponent overflows, Blackhole's `z` counts as zero when finite (the
//!   product then rounds to ±Inf) and Wormhole's `x` is scaled by 2^127 (to ±Inf, so that an
//!   infinite `z` of the other sign is invalid). Blackhole returns the canonical NaN for any NaN;
//!   for Wormhole the FMA's NaNs with a NaN `z` counted as zero are the invalid operations (the
//!   product's sign), a NaN `z` otherwise gives `z`'s sign, and the NaN stays pending. The FMA's
//!   operands are zero where the lane is not special (and a denormal `z` is zero), so that it never
//!   sees or gives a subnormal: Intel cores take a microcode assist for each.
//!
//! Control flow per 32 lanes: one vector of 16 after the other; when every lane of a vector is
//! special (Blackhole) or special with a final result (Wormhole) its sum is skipped, and when
//! its `z` has the exponent field 0 in every lane its alignment is; special lanes are merged per
//! lane. (Taking the two vectors one at a time rather than step by step side by side needs half
//! the registers, and the out-of-order core's window is deep enough to overlap them anyway:
//! `cargo xtask bench --ab`, 4 rounds, Wormhole's FMA family 1.039x-1.060x faster that way,
//! Blackhole's alike within the noise, on a Zen 5 host.)
//!
//! Cost model (measured on the development machine's Zen 4, 512-bit forms): add, logic, min/max,
//! blends run two per cycle; shifts, multiplies, permutes, conversions, FP multiply/FMA and
//! compares into mask registers one per cycle; the 256-bit forms run at twice those rates, the
//! same lanes per second, so 512-bit vectors halve the instruction count for nothing.
//!
//! `tests/it/simd.rs` checks both kernels lane by lane against `fma_model_bh` / `fma_model_wh` on
//! random, cancelling, exponent-boundary and edge triples and on 32-lane batches mixing lane
//! classes per vector (with a planted wrong lane per class that the batches catch);
//! the unit test `blackhole_underflow_rule_without_a_slow_path` checks the underflow rule on
//! triples that take it both ways.

use std::arch::x86_64::*;

/// `vpternlogd` truth table of `(a & b) | c`.
const AND_OR: i32 = 0xEA;
/// `vpternlogd` truth table of `a ^ b ^ c`.
const XOR3: i32 = 0x96;
/// `vpternlogd` truth table of `(a ^ b) & c`.
const XOR_AND: i32 = 0x28;
/// `vpternlogd` truth table of `b ^ c`.
const XOR_BC: i32 = 0x66;
/// `vpternlogd` truth table of `a & !(b & c)`.
const AND_NAND: i32 = 0x70;
/// `vpternlogd` truth table of `a | (b & c)`.
const OR_AND: i32 = 0xF8;
/// Embedded rounding: to nearest even, exceptions suppressed (independent of MXCSR).
const RNE: i32 = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
/// Embedded rounding: toward zero, exceptions suppressed.
const RZ: i32 = _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC;

/// The vector of ones, hidden from the optimiser: with a visible constant, LLVM rewrites
/// `min(v, 1)` (one cheap instruction) into `v != 0` as a mask turned back into a vector (three).
#[inline]
#[target_feature(enable = "avx512f")]
fn opaque_one() -> __m512i {
    let mut one = _mm512_set1_epi32(1);
    // SAFETY: an empty assembly block that only claims to change a register.
    unsafe {
        std::arch::asm!("/* {0} */", inout(zmm_reg) one, options(pure, nomem, nostack, preserves_flags))
    };
    one
}

/// What the fast kernels of both chips compute the same way.
struct Fast {
    /// The operands' exponent fields in place (`x & 0x7F80_0000`, ...) and `Ex + Ey`.
    ez: __m512i,
    sum_e: __m512i,
    /// `min(Ex, Ey)`.
    min_e: __m512i,
    /// `ex != 0`, `ey != 0`, `ez != 0` (denormals are zero).
    kxn: __mmask16,
    kyn: __mmask16,
    /// Inf / NaN input or a product exponent `ex + ey - 127 >= 255`.
    kspecial: __mmask16,
    /// `ex + ey - 127 >= 255` (also true for some lanes with an Inf / NaN factor).
    kpovf: __mmask16,
}

/// The exponent fields and the lane classes (steps 1 and 5).
#[inline]
#[target_feature(enable = "avx512f,avx512cd,avx512dq,avx512vbmi2")]
fn classify(x: __m512i, y: __m512i, z: __m512i) -> Fast {
    let expo = _mm512_set1_epi32(0x7F80_0000);
    let ex = _mm512_and_si512(x, expo);
    let ey = _mm512_and_si512(y, expo);
    let ez = _mm512_and_si512(z, expo);
    let sum_e = _mm512_add_epi32(ex, ey);
    let kinput = _mm512_cmpeq_epi32_mask(_mm512_max_epu32(_mm512_max_epu32(ex, ey), ez), expo);
    let kpovf = _mm512_cmpge_epu32_mask(sum_e, _mm512_set1_epi32(382 << 23));
    Fast {
        ez,
        sum_e,
        min_e: _mm512_min_epu32(ex, ey),
        kxn: _mm512_test_epi32_mask(x, expo),
        kyn: _mm512_test_epi32_mask(y, expo),
        kspecial: kinput | kpovf,
        kpovf,
    }
}

/// Whether `z`'s exponent field is 0 in every lane (zero or denormal: its mantissa counts as
/// zero), when [`sum`]'s `ZT` copy applies.
#[inline]
#[target_feature(enable = "avx512f,avx512cd,avx512dq,avx512vbmi2")]
fn z_tiny(f: &Fast) -> bool {
    _mm512_test_epi32_mask(f.ez, f.ez) == 0
}

/// The sum of steps 2-8 in the biased exponent frame (see the module docs): returns
/// `(S, REb, sA, kdiff)`, the signed sum `P ± Z` of the aligned 28-bit magnitudes (relative to
/// the sign of the operand with the larger exponent, `sA`), the larger exponent
/// `(re - 25) << 23`, and the lanes where the signs of the product and `z` differ.
///
/// `ZT`: the caller has found `z`'s exponent field 0 in every lane (see the module docs).
#[inline]
#[target_feature(enable = "avx512f,avx512cd,avx512dq,avx512vbmi2")]
fn sum<const ZT: bool>(
    x: __m512i,
    y: __m512i,
    z: __m512i,
    f: &Fast,
    wormhole: bool,
) -> (__m512i, __m512i, __m512i, __mmask16) {
    let one = opaque_one();
    let sign = _mm512_set1_epi32(i32::MIN);
    // Step 6 folded into the sum: a negligible product (a zero or denormal factor, or
    // `ex + ey < 127`) is a zero product with exponent 0.
    let kok = if wormhole {
        // Wormhole's special lanes (the common case of its pending NaNs) have tested the
        // exponents for zero already.
        _mm512_mask_cmpge_epu32_mask(f.kxn & f.kyn, f.sum_e, _mm512_set1_epi32(127 << 23))
    } else {
        // `min(Ex + Ey, -min(Ex, Ey))` is `Ex + Ey` when neither exponent is 0, else 0 (the
        // negated exponent field of a non-zero exponent is at least 0x8080_0000).
        _mm512_cmpge_epu32_mask(
            _mm512_min_epu32(f.sum_e, _mm512_sub_epi32(_mm512_setzero_si512(), f.min_e)),
            _mm512_set1_epi32(127 << 23),
        )
    };
    let sum_e = if wormhole {
        // `if (p_e > 255) p_e = 255;`
        _mm512_min_epu32(f.sum_e, _mm512_set1_epi32(382 << 23))
    } else {
        f.sum_e
    };
    let peb = _mm512_mask_sub_epi32(_mm512_set1_epi32(-25 << 23), kok, sum_e, _mm512_set1_epi32(152 << 23));
    let ezb = _mm512_sub_epi32(f.ez, _mm512_set1_epi32(25 << 23));
    let kzn = _mm512_test_epi32_mask(f.ez, f.ez);

    // Steps 1-4: mx << 8, my << 4, mz << 3 (zero when denormal); the product `P << 12`: its
    // high word is `P >> 20`, its low word the sticky bits; zero when negligible.
    let a =
        _mm512_ternarylogic_epi32::<AND_OR>(_mm512_slli_epi32::<8>(x), _mm512_set1_epi32(0x7FFF_FF00), sign);
    let b = _mm512_ternarylogic_epi32::<AND_OR>(
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
    let even = _mm512_mul_epu32(a, b);
    let odd = _mm512_mul_epu32(_mm512_srli_epi64::<32>(a), _mm512_srli_epi64::<32>(b));
    let idx_hi = _mm512_setr_epi32(1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31);
    let idx_lo = _mm512_setr_epi32(0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30);
    let hi = _mm512_permutex2var_epi32(even, idx_hi, odd);
    let lo = _mm512_permutex2var_epi32(even, idx_lo, odd);
    let p = _mm512_maskz_or_epi32(kok, hi, _mm512_min_epu32(lo, one));
    let kdiff = _mm512_movepi32_mask(_mm512_ternarylogic_epi32::<XOR3>(x, y, z));
    if ZT {
        // A zero `z` (see the module docs): the sum is `P`, relative to the product's sign.
        return (p, peb, _mm512_xor_si512(x, y), kdiff);
    }

    // Step 7: the semi-sticky shift of the operand with the smaller exponent.
    let kpb = _mm512_cmpge_epi32_mask(peb, ezb);
    let reb = _mm512_max_epi32(peb, ezb);
    // The count, clamped to 31 (a count of 28 or more shifts every bit out, and then the
    // semi-sticky rule adds no sticky bit).
    let s = _mm512_srli_epi32::<23>(_mm512_min_epu32(
        _mm512_abs_epi32(_mm512_sub_epi32(peb, ezb)),
        _mm512_set1_epi32(31 << 23),
    ));
    let big = _mm512_mask_blend_epi32(kpb, zm, p);
    let small = _mm512_mask_blend_epi32(kpb, p, zm);
    let sh = _mm512_srlv_epi32(small, s);
    let lost = _mm512_shrdv_epi32(_mm512_setzero_si512(), small, s);
    let sh = _mm512_or_si512(sh, _mm512_min_epu32(_mm512_min_epu32(sh, lost), one));

    // Step 8: the signed sum, relative to the sign of `big`.
    let mut add = _mm512_add_epi32(big, sh);
    if wormhole {
        // Step 10 of Wormhole: the right shift by 2 keeps bit 0 alone as its sticky bit; a
        // magnitude of 2^28 or more is a sum of operands of one sign: clear its bit 1 here, and
        // the conversion's rounding is the model's.
        add = _mm512_ternarylogic_epi32::<AND_NAND>(add, _mm512_srli_epi32::<27>(add), _mm512_set1_epi32(2));
    }
    let s_sum = _mm512_mask_sub_epi32(add, kdiff, big, sh);
    let sa = _mm512_mask_ternarylogic_epi32::<XOR_BC>(z, kpb, x, y);
    (s_sum, reb, sa, kdiff)
}

/// The operands of Blackhole's IEEE FMA of the special lanes: denormals are zero (for `z` too:
/// a special lane's result does not depend on a denormal `z`), an overflowing product plus a finite
/// `z` is the infinite product (`z` counts as zero), and `x` is zero in the lanes that are not
/// special. So no operand and no result of that FMA is subnormal: Intel cores take a microcode
/// assist for each (DAZ and FTZ are clear, and embedded rounding does not set them), which cost
/// more than a quarter of the kernel's time on such a host (`special_fma_sees_no_subnormal`).
#[inline]
#[target_feature(enable = "avx512f,avx512cd,avx512dq,avx512vbmi2")]
fn special_operands_bh(x: __m512i, y: __m512i, z: __m512i, f: &Fast) -> [__m512; 3] {
    let kzs = _mm512_cmpeq_epi32_mask(f.ez, _mm512_set1_epi32(0x7F80_0000));
    let kzn = _mm512_test_epi32_mask(f.ez, f.ez);
    [
        _mm512_castsi512_ps(_mm512_maskz_mov_epi32(f.kxn & f.kspecial, x)),
        _mm512_castsi512_ps(_mm512_maskz_mov_epi32(f.kyn, y)),
        _mm512_castsi512_ps(_mm512_maskz_mov_epi32(kzn & !(f.kpovf & !kzs), z)),
    ]
}

/// Blackhole's step 5 on 16 lanes: the result of a lane with an Inf / NaN input or an
/// overflowing product exponent, as the IEEE FMA of the denormals-are-zero operands gives it
/// (see the module docs), the canonical NaN for any NaN.
#[inline]
#[target_feature(enable = "avx512f,avx512cd,avx512dq,avx512vbmi2")]
fn special_bh(x: __m512i, y: __m512i, z: __m512i, f: &Fast) -> __m512i {
    let [x, y, z] = special_operands_bh(x, y, z, f);
    let r = _mm512_fmadd_round_ps::<RNE>(x, y, z);
    let knan = _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(r, r);
    _mm512_mask_mov_epi32(_mm512_castps_si512(r), knan, _mm512_set1_epi32(0x7FC0_0000))
}

/// Blackhole's steps 6-13 on 16 lanes without a special lane's result (see the module docs for
/// the conversions).
#[inline]
#[target_feature(enable = "avx512f,avx512cd,avx512dq,avx512vbmi2")]
fn main_bh<const ZT: bool>(x: __m512i, y: __m512i, z: __m512i, f: &Fast) -> __m512i {
    let (s_sum, reb, sa, kdiff) = sum::<ZT>(x, y, z, f, false);
    // Steps 10-13: the magnitude rounded to 24 bits by the conversion, its exponent moved by
    // `re - 153`; `o2` is the result's magnitude plus 2^30.
    let fs = _mm512_castps_si512(_mm512_cvt_roundepi32_ps::<RNE>(s_sum));
    let o2 = _mm512_add_epi32(_mm512_and_si512(fs, _mm512_set1_epi32(i32::MAX)), reb);
    let knz = _mm512_test_epi32_mask(s_sum, s_sum);
    // The underflow rule: the exponent before rounding, from the conversion toward zero, is at
    // most 0; the lane is `0x0080_0000` when that conversion's mantissa field is all ones, else 0.
    let man = _mm512_set1_epi32(0x007F_FFFF);
    let fz = _mm512_castps_si512(_mm512_cvt_roundepi32_ps::<RZ>(s_sum));
    let oz = _mm512_add_epi32(_mm512_and_si512(fz, _mm512_set1_epi32(i32::MAX)), reb);
    let kunder = _mm512_mask_cmplt_epu32_mask(knz, oz, _mm512_set1_epi32(129 << 23));
    let kcarry = _mm512_mask_cmpeq_epi32_mask(kunder, _mm512_and_si512(fz, man), man);
    // Overflow: the exponent field saturates at 255 (±Inf).
    let mag = _mm512_maskz_sub_epi32(
        knz & !kunder,
        _mm512_min_epu32(o2, _mm512_set1_epi32(383 << 23)),
        _mm512_set1_epi32(128 << 23),
    );
    let mag = _mm512_mask_mov_epi32(mag, kcarry, _mm512_set1_epi32(0x0080_0000));
    // Step 9: an exact zero is `zs & ps`: +0 when the signs differ, else the common sign.
    _mm512_maskz_ternarylogic_epi32::<OR_AND>(
        knz | !kdiff,
        mag,
        _mm512_xor_si512(sa, fs),
        _mm512_set1_epi32(i32::MIN),
    )
}

/// The operands of Wormhole's IEEE FMA of the special lanes: denormals are zero (for `z` too),
/// a NaN `z` counts as zero, a finite product whose exponent overflows has `x` scaled to infinity,
/// and `x` is zero in the lanes that are not special and in those special only through a NaN
/// `z`; no operand or result is subnormal (see [`special_operands_bh`]).
#[inline]
#[target_feature(enable = "avx512f,avx512cd,avx512dq,avx512vbmi2")]
fn special_operands_wh(x: __m512i, y: __m512i, z: __m512i, f: &Fast) -> [__m512; 3] {
    let expo = _mm512_set1_epi32(0x7F80_0000);
    let kznan = _mm512_fpclass_ps_mask::<0x81>(_mm512_castsi512_ps(z));
    // A lane special only through its NaN z (finite factors, a product exponent in range) has
    // no invalid operation, and the z counted as zero would leave the product alone, which may
    // be subnormal: its x is zero too.
    let kxy_special = _mm512_cmpeq_epi32_mask(_mm512_and_si512(x, expo), expo)
        | _mm512_cmpeq_epi32_mask(_mm512_and_si512(y, expo), expo);
    let kz_only = kznan & !(kxy_special | f.kpovf);
    let xd = _mm512_castsi512_ps(_mm512_maskz_mov_epi32(f.kxn & f.kspecial & !kz_only, x));
    // A finite product whose exponent overflows has x >= 2: x * 2^127 is infinite (an infinite
    // or NaN x stays as it is).
    let xd = _mm512_mask_mul_round_ps::<RNE>(xd, f.kpovf, xd, _mm512_set1_ps(f32::from_bits(0x7F00_0000)));
    let kzn = _mm512_test_epi32_mask(f.ez, f.ez);
    [
        xd,
        _mm512_castsi512_ps(_mm512_maskz_mov_epi32(f.kyn, y)),
        _mm512_castsi512_ps(_mm512_maskz_mov_epi32(kzn & !kznan, z)),
    ]
}

/// Wormhole's step 5 on 16 lanes: `(special_r, knan, ksf, nan)`, the special lanes' results,
/// the lanes with a pending NaN, the special lanes without one (final: `special_r`), and the
/// pending NaNs (`sign | 0x7F800001`; zero elsewhere).
///
/// The invalid operations are the NaNs of the IEEE FMA of the denormals-are-zero operands, with
/// an overflowing product made infinite and a NaN z counted as zero; its other results are the
/// final ones of the special lanes without a NaN.
#[inline]
#[target_feature(enable = "avx512f,avx512cd,avx512dq,avx512vbmi2")]
fn special_wh(x: __m512i, y: __m512i, z: __m512i, f: &Fast) -> (__m512i, __mmask16, __mmask16, __m512i) {
    let zero = _mm512_setzero_si512();
    if f.kspecial == 0 {
        return (zero, 0, 0, zero);
    }
    let kznan = _mm512_fpclass_ps_mask::<0x81>(_mm512_castsi512_ps(z));
    let [xd, yd, zd] = special_operands_wh(x, y, z, f);
    let r = _mm512_fmadd_round_ps::<RNE>(xd, yd, zd);
    let kinvalid = _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(r, r);
    let knan = kinvalid | kznan;
    // `sign | 0x7F800001`: the product's sign for an invalid operation, else z's.
    let nan = _mm512_maskz_ternarylogic_epi32::<AND_OR>(
        knan,
        _mm512_mask_blend_epi32(kinvalid, z, _mm512_xor_si512(x, y)),
        _mm512_set1_epi32(i32::MIN),
        _mm512_set1_epi32(0x7F80_0001),
    );
    (_mm512_castps_si512(r), knan, f.kspecial & !knan, nan)
}

/// Wormhole's steps 6-13 on 16 lanes, with the special lanes' results of [`special_wh`].
#[inline]
#[target_feature(enable = "avx512f,avx512cd,avx512dq,avx512vbmi2")]
fn main_wh<const ZT: bool>(
    x: __m512i,
    y: __m512i,
    z: __m512i,
    f: &Fast,
    (special_r, knan, ksf, nan): (__m512i, __mmask16, __mmask16, __m512i),
) -> __m512i {
    let (s_sum, reb, sa, _) = sum::<ZT>(x, y, z, f, true);
    // Step 10: rounded to 24 bits by the conversion (`sum` has cleared the bit the hardware
    // drops).
    let fs = _mm512_castps_si512(_mm512_cvt_roundepi32_ps::<RNE>(s_sum));
    let o2 = _mm512_add_epi32(_mm512_and_si512(fs, _mm512_set1_epi32(i32::MAX)), reb);
    // Kept: a non-zero sum whose result exponent (after rounding) is at least 1; the others are
    // flushed (to the pending NaN or +0).
    let kgood =
        _mm512_mask_cmpge_epu32_mask(_mm512_test_epi32_mask(s_sum, s_sum), o2, _mm512_set1_epi32(129 << 23));
    let mag =
        _mm512_sub_epi32(_mm512_min_epu32(o2, _mm512_set1_epi32(383 << 23)), _mm512_set1_epi32(128 << 23));
    let rs = _mm512_ternarylogic_epi32::<XOR_AND>(sa, fs, _mm512_set1_epi32(i32::MIN));
    let sign_or_nan = _mm512_mask_mov_epi32(rs, knan, nan);
    let res = _mm512_mask_or_epi32(nan, kgood, sign_or_nan, mag);
    _mm512_mask_mov_epi32(res, ksf, special_r)
}

/// Loads 16 lanes from `v[16 * half..]`.
#[inline]
#[target_feature(enable = "avx512f")]
fn load(v: &[u32; 32], half: usize) -> __m512i {
    let lanes: &[u32] = &v[16 * half..16 * half + 16];
    // SAFETY: `lanes` is 16 readable `u32`s, the 64 bytes an unaligned 512-bit load reads.
    unsafe { _mm512_loadu_epi32(lanes.as_ptr().cast()) }
}

/// Loads 16 lanes of the three operands from lane `16 * half` on, with `flip_a` and `flip_c`
/// XORed into the first and the third (SFPMAD's negations of `VA` and `VC`).
#[inline]
#[target_feature(enable = "avx512f")]
fn load_operands(v: [&[u32; 32]; 3], half: usize, flip_a: u32, flip_c: u32) -> (__m512i, __m512i, __m512i) {
    (
        _mm512_xor_si512(load(v[0], half), _mm512_set1_epi32(flip_a as i32)),
        load(v[1], half),
        _mm512_xor_si512(load(v[2], half), _mm512_set1_epi32(flip_c as i32)),
    )
}

/// Stores 16 lanes to `v[16 * half..]`.
#[inline]
#[target_feature(enable = "avx512f")]
fn store(v: &mut [u32; 32], half: usize, x: __m512i) {
    let lanes: &mut [u32] = &mut v[16 * half..16 * half + 16];
    // SAFETY: `lanes` is 16 writable `u32`s, the 64 bytes an unaligned 512-bit store writes.
    unsafe { _mm512_storeu_epi32(lanes.as_mut_ptr().cast(), x) }
}

/// [`crate::fp::fma_bh`] over 32 lanes: two vectors of 16, one after the other; a vector whose
/// lanes are all special skips the sum, one whose `z` is zero or denormal in every lane skips the
/// alignment, and one without special lanes skips their IEEE FMA; no other branch (Blackhole's
/// underflow rule included: module docs).
///
/// The operands are `a ^ flip_a`, `b` and `c ^ flip_c` lane by lane (SFPMAD's negations of `VA`
/// and `VC`, applied in registers).
///
/// Not itself a `#[target_feature]` function (those cannot be `#[inline(always)]`): it is
/// inlined into the models' copies compiled for this level (`simd::fma32_at`), where its helpers'
/// features are the copy's own, so that the whole kernel is inlined there and its operands and
/// result stay in registers (its larger helpers stay calls where the compiler chooses so);
/// [`fma32_bh`] is the out-of-line copy.
///
/// # Safety
///
/// The CPU must support AVX-512F, CD, DQ and VBMI2 (`super::avx512_available`).
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
        for half in 0..2 {
            let (x, y, z) = load_operands([a, b, c], half, flip_a, flip_c);
            let f = classify(x, y, z);
            let r = if f.kspecial == 0xFFFF {
                special_bh(x, y, z, &f)
            } else {
                let r = if z_tiny(&f) { main_bh::<true>(x, y, z, &f) } else { main_bh::<false>(x, y, z, &f) };
                if f.kspecial != 0 {
                    _mm512_mask_mov_epi32(r, f.kspecial, special_bh(x, y, z, &f))
                } else {
                    r
                }
            };
            store(out, half, r);
        }
    }
}

/// [`fma32_bh_inline`] with the kernel's target features: out of line where the caller is not
/// compiled for this level (the dispatcher `simd::fma32_bh`, the tests).
///
/// # Safety
///
/// The CPU must support AVX-512F, CD, DQ and VBMI2 (`super::avx512_available`).
#[inline]
#[target_feature(enable = "avx512f,avx512cd,avx512dq,avx512vbmi2")]
pub(super) fn fma32_bh(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    // SAFETY: this function's target features are the ones the kernel needs.
    unsafe { fma32_bh_inline(a, b, c, 0, 0, out) }
}

/// [`crate::fp::fma_wh`] over 32 lanes, two vectors of 16 one after the other as in [`fma32_bh`]
/// (a vector whose lanes are all special with final results skips the sum, one whose `z` is zero
/// or denormal in every lane the alignment).
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
        for half in 0..2 {
            let (x, y, z) = load_operands([a, b, c], half, flip_a, flip_c);
            let f = classify(x, y, z);
            let sp = special_wh(x, y, z, &f);
            let r = if sp.2 == 0xFFFF {
                sp.0
            } else if z_tiny(&f) {
                main_wh::<true>(x, y, z, &f, sp)
            } else {
                main_wh::<false>(x, y, z, &f, sp)
            };
            store(out, half, r);
        }
    }
}

/// [`fma32_wh_inline`] with the kernel's target features: out of line where the caller is not
/// compiled for this level (the dispatcher `simd::fma32_wh`, the tests).
///
/// # Safety
///
/// The CPU must support AVX-512F, CD, DQ and VBMI2 (`super::avx512_available`).
#[inline]
#[target_feature(enable = "avx512f,avx512cd,avx512dq,avx512vbmi2")]
pub(super) fn fma32_wh(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    // SAFETY: this function's target features are the ones the kernel needs.
    unsafe { fma32_wh_inline(a, b, c, 0, 0, out) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Neither chip's IEEE FMA of the special lanes sees a subnormal operand or gives a
    /// subnormal result, on triples of every operand class (`simd::tests::check_special_operands`).
    #[test]
    fn special_fma_sees_no_subnormal() {
        if !crate::simd::avx512_available() {
            return;
        }
        for wormhole in [false, true] {
            crate::simd::check::check_special_operands::<16>(0x5B0B_0016, 4_000, wormhole, |v| {
                // SAFETY: the CPU runs the AVX-512 level (checked above); the loads read 16
                // `u32`s and the stores write 16 `f32`s.
                unsafe {
                    let [x, y, z] = v.map(|a| _mm512_loadu_epi32(a.as_ptr().cast()));
                    let f = classify(x, y, z);
                    let ops = if wormhole {
                        special_operands_wh(x, y, z, &f)
                    } else {
                        special_operands_bh(x, y, z, &f)
                    };
                    let mut out = [[0f32; 16]; 3];
                    for (o, v) in out.iter_mut().zip(ops) {
                        _mm512_storeu_ps(o.as_mut_ptr(), v);
                    }
                    (out, f.kspecial as u32)
                }
            });
        }
    }

    /// Blackhole's underflow rule needs no slow path: on triples whose results land next to
    /// exponent 0, [`main_bh`] alone gives `fma_model_bh`'s result on every lane, and those
    /// triples take the rule both ways (`simd::tests::check_underflow_rule`). Without the second
    /// conversion (`kunder` empty) this fails.
    #[test]
    fn blackhole_underflow_rule_without_a_slow_path() {
        if !crate::simd::avx512_available() {
            return;
        }
        crate::simd::check::check_underflow_rule::<16>(0x51AD_0004, 20_000, |v| {
            // SAFETY: the CPU runs the AVX-512 level (checked above); the loads read 16 `u32`s.
            unsafe {
                let [x, y, z] = v.map(|a| _mm512_loadu_epi32(a.as_ptr().cast()));
                let f = classify(x, y, z);
                let mut out = [0u32; 16];
                _mm512_storeu_epi32(out.as_mut_ptr().cast(), main_bh::<false>(x, y, z, &f));
                out
            }
        });
    }
}
