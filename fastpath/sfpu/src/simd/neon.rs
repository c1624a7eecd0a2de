//! NEON (AArch64 Advanced SIMD) kernels of the two FMAs ([`fma32_bh`]: [`crate::fp::fma_bh`],
//! [`fma32_wh`]: [`crate::fp::fma_wh`]), 32 lanes as eight vectors of 4, written with `std::arch`
//! intrinsics. They compute `fma.c`'s `fma_model_bh` / `fma_model_wh` (`Miscellaneous/FMA/fma.c`
//! @ `06c5af5b`) by the same restatement as the AVX-512 and AVX2 kernels (`simd/avx512.rs`, whose
//! module docs say why each step is exact), step for step, with what NEON offers done its way:
//!
//! * a lane predicate is a vector (all ones or all zeros per lane, as NEON's comparisons give
//!   it), a per-lane choice `bsl`, "every lane" `uminv` and "some lane" `umaxv` of the predicate;
//! * the product's high words are the odd words of the two widening multiplies (`umull`,
//!   `umull2`, then `uzp2`); its low words, the sticky bits, are one `mul` (the low half of each
//!   32-bit product);
//! * the variable shifts are `ushl` by a signed count (negative: to the right); a count of 32
//!   gives 0, as VBMI2's funnel shift does for a shift of 0;
//! * the conversion (`scvtf`) and the IEEE FMA of the special lanes (`fmla`) round as FPCR says,
//!   which in Rust code is always to nearest even without flush-to-zero or default-NaN (Rust does
//!   not support running with another floating-point environment; the denormal inputs are zeroed
//!   here explicitly, as in the other kernels, and a NaN result is replaced, never kept);
//! * Blackhole's underflow rule, in a vector with a lane that may take it (a result exponent of at
//!   most 1 after rounding), as the AVX2 kernel's: the conversion toward zero is the one to nearest
//!   less one ulp in magnitude where `fcvtzs` back to an integer shows it rounded away from zero
//!   (so such a vector does not take the exact steps of the portable [`crate::fp::fma_bh`] lane
//!   by lane).
//!
//! Advanced SIMD is part of every AArch64 CPU (the `aarch64-*` targets enable `neon`), so these
//! kernels need no run-time check; the level exists so that the portable copy stays selectable.
//! `tests/it/simd.rs` checks both kernels lane by lane against `fma_model_bh` / `fma_model_wh` on the
//! same triples and mixed batches as every other level's; on an x86-64 machine they run under
//! `qemu-aarch64` (`fastpath/sfpu/README.md`, "AArch64").

use std::arch::aarch64::*;

type V = uint32x4_t;

/// Every lane `v`.
#[inline]
#[target_feature(enable = "neon")]
fn splat(v: u32) -> V {
    vdupq_n_u32(v)
}

/// The lanes as signed integers.
#[inline]
#[target_feature(enable = "neon")]
fn signed(v: V) -> int32x4_t {
    vreinterpretq_s32_u32(v)
}

/// The lanes of a signed vector as unsigned integers.
#[inline]
#[target_feature(enable = "neon")]
fn unsigned(v: int32x4_t) -> V {
    vreinterpretq_u32_s32(v)
}

/// The lanes as FP32 values.
#[inline]
#[target_feature(enable = "neon")]
fn float(v: V) -> float32x4_t {
    vreinterpretq_f32_u32(v)
}

/// The bits of FP32 lanes.
#[inline]
#[target_feature(enable = "neon")]
fn bits_of(v: float32x4_t) -> V {
    vreinterpretq_u32_f32(v)
}

/// `a >= b` as unsigned integers, per lane.
#[inline]
#[target_feature(enable = "neon")]
fn ge_u(a: V, b: V) -> V {
    vcgeq_u32(a, b)
}

/// `a == 0`, per lane.
#[inline]
#[target_feature(enable = "neon")]
fn is_zero(a: V) -> V {
    vceqzq_u32(a)
}

/// Per lane: `if_set` where `m` is all ones, else `if_clear`.
#[inline]
#[target_feature(enable = "neon")]
fn pick(m: V, if_clear: V, if_set: V) -> V {
    vbslq_u32(m, if_set, if_clear)
}

/// Whether every lane of a predicate is set.
#[inline]
#[target_feature(enable = "neon")]
fn all(m: V) -> bool {
    vminvq_u32(m) == u32::MAX
}

/// Whether some lane of a predicate is set.
#[inline]
#[target_feature(enable = "neon")]
fn any(m: V) -> bool {
    vmaxvq_u32(m) != 0
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
#[target_feature(enable = "neon")]
fn classify(x: V, y: V, z: V) -> Fast {
    let expo = splat(0x7F80_0000);
    let ex = vandq_u32(x, expo);
    let ey = vandq_u32(y, expo);
    let ez = vandq_u32(z, expo);
    let sum_e = vaddq_u32(ex, ey);
    let kinput = vceqq_u32(vmaxq_u32(vmaxq_u32(ex, ey), ez), expo);
    let kpovf = ge_u(sum_e, splat(382 << 23));
    Fast {
        ez,
        sum_e,
        min_e: vminq_u32(ex, ey),
        kxn: vtstq_u32(x, expo),
        kyn: vtstq_u32(y, expo),
        kspecial: vorrq_u32(kinput, kpovf),
        kpovf,
    }
}

/// Whether `z`'s exponent field is 0 in every lane (zero or denormal), when [`sum`]'s `ZT` copy
/// applies.
#[inline]
#[target_feature(enable = "neon")]
fn z_tiny(f: &Fast) -> bool {
    vmaxvq_u32(f.ez) == 0
}

/// Steps 2-8 in the biased exponent frame: `(S, REb, sA, kdiff)` as the AVX-512 kernels'
/// `sum` returns them (the signed sum of the aligned magnitudes relative to the sign `sA` of the
/// operand with the larger exponent, that exponent as `(re - 25) << 23`, and the lanes where the
/// signs of the product and `z` differ). `ZT`: the caller has found `z`'s exponent field 0 in
/// every lane, and the sum is `P` (the AVX-512 kernels' restatement).
#[inline]
#[target_feature(enable = "neon")]
fn sum<const ZT: bool>(x: V, y: V, z: V, f: &Fast, wormhole: bool) -> (V, V, V, V) {
    let one = splat(1);
    // Step 6 folded into the sum: a negligible product (a zero or denormal factor, or
    // `ex + ey < 127`) is a zero product with exponent 0.
    let kok = if wormhole {
        vandq_u32(vandq_u32(f.kxn, f.kyn), ge_u(f.sum_e, splat(127 << 23)))
    } else {
        // `min(Ex + Ey, -min(Ex, Ey))` is `Ex + Ey` when neither exponent is 0, else 0.
        ge_u(vminq_u32(f.sum_e, vsubq_u32(splat(0), f.min_e)), splat(127 << 23))
    };
    let sum_e = if wormhole {
        // `if (p_e > 255) p_e = 255;`
        vminq_u32(f.sum_e, splat(382 << 23))
    } else {
        f.sum_e
    };
    let peb = pick(kok, splat((-25i32 << 23) as u32), vsubq_u32(sum_e, splat(152 << 23)));
    let ezb = vsubq_u32(f.ez, splat(25 << 23));

    // Steps 1-4: mx << 8, my << 4, mz << 3 (zero when denormal); the product `P << 12`, its
    // high word `P >> 20`, its low word the sticky bits; zero when negligible.
    let a = vorrq_u32(vandq_u32(vshlq_n_u32::<8>(x), splat(0x7FFF_FF00)), splat(0x8000_0000));
    let b = vorrq_u32(vandq_u32(vshlq_n_u32::<4>(y), splat(0x07FF_FFF0)), splat(0x0800_0000));
    let zm = vbicq_u32(
        vorrq_u32(vandq_u32(vshlq_n_u32::<3>(z), splat(0x03FF_FFF8)), splat(0x0400_0000)),
        is_zero(f.ez),
    );
    let wide_lo = vreinterpretq_u32_u64(vmull_u32(vget_low_u32(a), vget_low_u32(b)));
    let wide_hi = vreinterpretq_u32_u64(vmull_high_u32(a, b));
    let hi = vuzp2q_u32(wide_lo, wide_hi);
    let lo = vmulq_u32(a, b);
    let p = vandq_u32(kok, vorrq_u32(hi, vminq_u32(lo, one)));
    let kdiff = unsigned(vshrq_n_s32::<31>(signed(veorq_u32(veorq_u32(x, y), z))));
    if ZT {
        return (p, peb, veorq_u32(x, y), kdiff);
    }

    // Step 7: the semi-sticky shift of the operand with the smaller exponent (`kzb`: `z`'s).
    let kzb = vcgtq_s32(signed(ezb), signed(peb));
    let reb = unsigned(vmaxq_s32(signed(peb), signed(ezb)));
    // The count, clamped to 31 (a count of 28 or more shifts every bit out, and then the
    // semi-sticky rule adds no sticky bit).
    let s = vshrq_n_u32::<23>(vminq_u32(
        unsigned(vabsq_s32(vsubq_s32(signed(peb), signed(ezb)))),
        splat(31 << 23),
    ));
    let big = pick(kzb, p, zm);
    let small = pick(kzb, zm, p);
    let sh = vshlq_u32(small, vnegq_s32(signed(s)));
    let lost = vshlq_u32(small, signed(vsubq_u32(splat(32), s)));
    let sh = vorrq_u32(sh, vminq_u32(vminq_u32(sh, lost), one));

    // Step 8: the signed sum, relative to the sign of `big`.
    let mut add = vaddq_u32(big, sh);
    if wormhole {
        // Wormhole's step 10 keeps bit 0 alone as its sticky bit when it shifts right by 2 (a
        // magnitude of 2^28 or more, only reached by a sum of operands of one sign).
        add = vbicq_u32(add, vandq_u32(vshrq_n_u32::<27>(add), splat(2)));
    }
    let s_sum = pick(kdiff, add, vsubq_u32(big, sh));
    let sa = pick(kzb, veorq_u32(x, y), z);
    (s_sum, reb, sa, kdiff)
}

/// `x * y + z` fused, rounded to nearest even.
#[inline]
#[target_feature(enable = "neon")]
fn fmla(x: V, y: V, z: V) -> V {
    bits_of(vfmaq_f32(float(z), float(x), float(y)))
}

/// The NaN lanes of FP32 lanes.
#[inline]
#[target_feature(enable = "neon")]
fn is_nan(r: V) -> V {
    vmvnq_u32(vceqq_f32(float(r), float(r)))
}

/// Blackhole's step 5 on 4 lanes: a special lane's result, as the IEEE FMA of the
/// denormals-are-zero operands gives it (an overflowing product plus a finite `z` is the infinite
/// product), the canonical NaN for any NaN.
#[inline]
#[target_feature(enable = "neon")]
fn special_bh(x: V, y: V, z: V, f: &Fast) -> V {
    let xd = vandq_u32(f.kxn, x);
    let yd = vandq_u32(f.kyn, y);
    let kzs = vceqq_u32(f.ez, splat(0x7F80_0000));
    let zd = vbicq_u32(z, vbicq_u32(f.kpovf, kzs));
    let r = fmla(xd, yd, zd);
    pick(is_nan(r), r, splat(0x7FC0_0000))
}

/// Blackhole's steps 6-13 on 4 lanes without the special lanes' results, the underflow rule
/// included (the AVX2 kernel's `main_bh`).
#[inline]
#[target_feature(enable = "neon")]
fn main_bh<const ZT: bool>(x: V, y: V, z: V, f: &Fast) -> V {
    let (s_sum, reb, sa, kdiff) = sum::<ZT>(x, y, z, f, false);
    // Steps 10-13: the magnitude rounded to 24 bits by the conversion, its exponent moved by
    // `re - 153`; `o2` is the result's magnitude plus 2^30.
    let fs = bits_of(vcvtq_f32_s32(signed(s_sum)));
    let fs_mag = vandq_u32(fs, splat(0x7FFF_FFFF));
    let o2 = vaddq_u32(fs_mag, reb);
    let kz = is_zero(s_sum);
    // Overflow: the exponent field saturates at 255 (±Inf).
    let mut mag = vbicq_u32(vsubq_u32(vminq_u32(o2, splat(383 << 23)), splat(128 << 23)), kz);
    // The underflow rule (the AVX2 kernel's steps), only in a vector with a lane that may take
    // it: a non-zero sum whose exponent after rounding is at most 1.
    if !all(vorrq_u32(vorrq_u32(kz, f.kspecial), ge_u(o2, splat(130 << 23)))) {
        // Rounded toward zero: one ulp less in magnitude where the conversion to nearest rounded
        // away from zero, which `fcvtzs` back to an integer (exact: below 2^30) tells.
        let back = vcvtq_s32_f32(float(fs));
        let kaway = vcgtq_s32(vabsq_s32(back), vabsq_s32(signed(s_sum)));
        let fz_mag = vaddq_u32(fs_mag, kaway);
        let kunder = vbicq_u32(vmvnq_u32(ge_u(vaddq_u32(fz_mag, reb), splat(129 << 23))), kz);
        let man = splat(0x007F_FFFF);
        let kcarry = vandq_u32(kunder, vceqq_u32(vandq_u32(fz_mag, man), man));
        mag = pick(kcarry, vbicq_u32(mag, kunder), splat(0x0080_0000));
    }
    // Step 9: an exact zero is `zs & ps`: +0 when the signs differ, else the common sign.
    let res = vorrq_u32(mag, vandq_u32(veorq_u32(sa, fs), splat(0x8000_0000)));
    vbicq_u32(res, vandq_u32(kz, kdiff))
}

/// Wormhole's step 5 on 4 lanes: `(special_r, knan, ksf, nan)` as the AVX-512 kernel's
/// `special_wh` returns them (the special lanes' results, the lanes with a pending NaN, the special
/// lanes without one, and the pending NaNs `sign | 0x7F80_0001`).
#[inline]
#[target_feature(enable = "neon")]
fn special_wh(x: V, y: V, z: V, f: &Fast) -> (V, V, V, V) {
    let zero = splat(0);
    if !any(f.kspecial) {
        return (zero, zero, zero, zero);
    }
    let xd = vandq_u32(f.kxn, x);
    // A finite product whose exponent overflows has x >= 2: x * 2^127 is infinite (an infinite
    // or NaN x stays as it is).
    let scaled = bits_of(vmulq_f32(float(xd), vdupq_n_f32(f32::from_bits(0x7F00_0000))));
    let xd = pick(f.kpovf, xd, scaled);
    let yd = vandq_u32(f.kyn, y);
    let kznan = vcgtq_u32(vandq_u32(z, splat(0x7FFF_FFFF)), splat(0x7F80_0000));
    let zd = vbicq_u32(z, kznan);
    let r = fmla(xd, yd, zd);
    let kinvalid = is_nan(r);
    let knan = vorrq_u32(kinvalid, kznan);
    // `sign | 0x7F800001`: the product's sign for an invalid operation, else z's.
    let sign = vandq_u32(pick(kinvalid, z, veorq_u32(x, y)), splat(0x8000_0000));
    let nan = vandq_u32(knan, vorrq_u32(sign, splat(0x7F80_0001)));
    (r, knan, vbicq_u32(f.kspecial, knan), nan)
}

/// Wormhole's steps 6-13 on 4 lanes, with the special lanes' results of [`special_wh`].
#[inline]
#[target_feature(enable = "neon")]
fn main_wh<const ZT: bool>(x: V, y: V, z: V, f: &Fast, (special_r, knan, ksf, nan): (V, V, V, V)) -> V {
    let (s_sum, reb, sa, _) = sum::<ZT>(x, y, z, f, true);
    // Step 10: rounded to 24 bits by the conversion (`sum` has cleared the bit the hardware
    // drops).
    let fs = bits_of(vcvtq_f32_s32(signed(s_sum)));
    let o2 = vaddq_u32(vandq_u32(fs, splat(0x7FFF_FFFF)), reb);
    // Kept: a non-zero sum whose result exponent (after rounding) is at least 1; the others are
    // flushed (to the pending NaN or +0).
    let kgood = vbicq_u32(ge_u(o2, splat(129 << 23)), is_zero(s_sum));
    let mag = vsubq_u32(vminq_u32(o2, splat(383 << 23)), splat(128 << 23));
    let rs = vandq_u32(veorq_u32(sa, fs), splat(0x8000_0000));
    let sign_or_nan = pick(knan, rs, nan);
    let res = pick(kgood, nan, vorrq_u32(sign_or_nan, mag));
    pick(ksf, res, special_r)
}

/// Lanes `4 * q..4 * q + 4` of `v`.
#[inline]
#[target_feature(enable = "neon")]
fn load(v: &[u32; 32], q: usize) -> V {
    let lanes: &[u32] = &v[4 * q..4 * q + 4];
    // SAFETY: `lanes` is 4 readable `u32`s, the 16 bytes `ld1` reads.
    unsafe { vld1q_u32(lanes.as_ptr()) }
}

/// Stores `x` to lanes `4 * q..4 * q + 4` of `v`.
#[inline]
#[target_feature(enable = "neon")]
fn store(v: &mut [u32; 32], q: usize, x: V) {
    let lanes: &mut [u32] = &mut v[4 * q..4 * q + 4];
    // SAFETY: `lanes` is 4 writable `u32`s, the 16 bytes `st1` writes.
    unsafe { vst1q_u32(lanes.as_mut_ptr(), x) }
}

/// [`crate::fp::fma_bh`] over 32 lanes, 4 at a time: a vector whose lanes are all special skips
/// the sum, and one whose `z` is zero or denormal in every lane the alignment; no other shortcut
/// or slow path (the underflow rule as the AVX2 kernel's).
///
/// # Safety
///
/// The CPU must have Advanced SIMD (every AArch64 CPU has).
#[target_feature(enable = "neon")]
pub(super) fn fma32_bh(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    for q in 0..8 {
        let (x, y, z) = (load(a, q), load(b, q), load(c, q));
        let f = classify(x, y, z);
        if all(f.kspecial) {
            store(out, q, special_bh(x, y, z, &f));
            continue;
        }
        let mut r = if z_tiny(&f) { main_bh::<true>(x, y, z, &f) } else { main_bh::<false>(x, y, z, &f) };
        if any(f.kspecial) {
            r = pick(f.kspecial, r, special_bh(x, y, z, &f));
        }
        store(out, q, r);
    }
}

/// [`crate::fp::fma_wh`] over 32 lanes, 4 at a time, with the shortcuts of [`fma32_bh`].
///
/// # Safety
///
/// As for [`fma32_bh`].
#[target_feature(enable = "neon")]
pub(super) fn fma32_wh(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    for q in 0..8 {
        let (x, y, z) = (load(a, q), load(b, q), load(c, q));
        let f = classify(x, y, z);
        let s = special_wh(x, y, z, &f);
        let r = if all(s.2) {
            s.0
        } else if z_tiny(&f) {
            main_wh::<true>(x, y, z, &f, s)
        } else {
            main_wh::<false>(x, y, z, &f, s)
        };
        store(out, q, r);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// As the AVX-512 and AVX2 kernels' test of the same name (`simd::tests::check_underflow_rule`):
    /// [`main_bh`] alone gives `fma_model_bh`'s result on every lane of triples next to exponent
    /// 0, which take Blackhole's underflow rule both ways.
    #[test]
    fn blackhole_underflow_rule_without_a_slow_path() {
        crate::simd::check::check_underflow_rule::<4>(0x51AD_0004, 80_000, |v| {
            // SAFETY: every AArch64 CPU has Advanced SIMD; the loads read 4 `u32`s of `v`, the
            // store writes the 4 of `out`.
            unsafe {
                let [x, y, z] = v.map(|a| vld1q_u32(a.as_ptr()));
                let f = classify(x, y, z);
                let mut out = [0u32; 4];
                vst1q_u32(out.as_mut_ptr(), main_bh::<false>(x, y, z, &f));
                out
            }
        });
    }
}
