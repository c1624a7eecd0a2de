//! Test helpers shared by the FMA kernels' tests (`simd/kernels.rs` and each hand-written
//! level's file): seeded draws, triples next to exponent 0, and the checks of Blackhole's
//! underflow rule and of special operands against the reference's FMA models.

use sfpu_reference::fp::fma_model_bh;

/// The 32-bit draws of a 64-bit linear congruential generator seeded with `seed`.
pub(crate) fn lcg(seed: u64) -> impl FnMut() -> u32 {
    let mut state = seed;
    move || {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (state >> 32) as u32
    }
}

/// A vector of `N` triples whose results land next to exponent 0: random mantissas and
/// signs, factor exponents summing to 128 to 131, and a `z` of exponent 0 to 3.
pub(crate) fn near_exponent_zero<const N: usize>(next: &mut impl FnMut() -> u32) -> [[u32; N]; 3] {
    let mut v = [[0u32; N]; 3];
    for l in 0..N {
        let ex = 1 + next() % 127;
        let ey = 128 + next() % 4 - ex;
        v[0][l] = (next() & 0x807F_FFFF) | (ex << 23);
        v[1][l] = (next() & 0x807F_FFFF) | (ey << 23);
        v[2][l] = (next() & 0x807F_FFFF) | ((next() % 4) << 23);
    }
    v
}

/// The check behind the AVX-512, AVX2 and NEON kernels'
/// `blackhole_underflow_rule_without_a_slow_path`: `vectors` vectors of `N` triples whose
/// results land next to exponent 0 ([`near_exponent_zero`], with some carrying cancellations)
/// go through `kernel` (the main steps alone, no special lanes among them), which must give
/// `fma_model_bh`'s result on every lane. Also asserts that the
/// triples exercise Blackhole's underflow rule both ways, judged from the exact value of
/// `x * y + z` (in `f64`: the product of two 24-bit mantissas and a `z` of nearby scale are
/// exact there), not from the kernel: lanes whose exact value is below 2^-126 but whose
/// result is ±2^-126 (the rounding carried out of the mantissa), lanes whose exact value is
/// not zero but whose result is a zero (flushed), and lanes where the result is ±2^-126
/// only through the rule (IEEE rounding to nearest of that value would not reach 2^-126).
pub(crate) fn check_underflow_rule<const N: usize>(
    seed: u64,
    vectors: usize,
    mut kernel: impl FnMut(&[[u32; N]; 3]) -> [u32; N],
) {
    let mut next = lcg(seed);
    let daz = |v: u32| if v & 0x7F80_0000 == 0 { 0.0 } else { f64::from(f32::from_bits(v)) };
    let min_normal = f64::from(f32::MIN_POSITIVE);
    let (mut carried, mut flushed, mut beyond_ieee) = (0, 0, 0);
    for _ in 0..vectors {
        let mut v = near_exponent_zero::<N>(&mut next);
        for l in 0..N {
            if next().is_multiple_of(8)
                && let Some(t) = carrying_cancellation(next(), next(), next())
            {
                [v[0][l], v[1][l], v[2][l]] = t;
            }
        }
        let got = kernel(&v);
        for l in 0..N {
            let (x, y, z) = (v[0][l], v[1][l], v[2][l]);
            let want = fma_model_bh(x, y, z);
            assert_eq!(got[l], want, "lane {l} of {v:08x?}: 0x{x:08x} * 0x{y:08x} + 0x{z:08x}");
            let exact = (daz(x) * daz(y) + daz(z)).abs();
            if want & 0x7FFF_FFFF == 0x0080_0000 && exact < min_normal {
                carried += 1;
                // IEEE rounding to nearest (to 24 bits, or to a subnormal's quantum 2^-149)
                // reaches 2^-126 only from above 2^-126 (1 - 2^-24); this margin leaves no
                // doubt about it.
                if exact < 0.75 * min_normal {
                    beyond_ieee += 1;
                }
            }
            if want & 0x7FFF_FFFF == 0 && exact != 0.0 {
                flushed += 1;
            }
        }
    }
    assert!(
        carried > 0 && flushed > 0 && beyond_ieee > 0,
        "the triples must exercise the underflow rule: {carried} carried ({beyond_ieee} beyond IEEE rounding), {flushed} flushed"
    );
}

/// A triple whose sum cancels to a magnitude `R` (`fma_model_bh`, step 8) whose leading one is on
/// bit 24 or 25 (normalised exponent -1 or 0) with its top 24 bits all ones, the case of
/// Blackhole's underflow rule in which rounding carries to 2^-126: random factors of product
/// exponent 1 (`ex + ey = 128`) whose narrowed product `P` (step 4: `(mx * my) >> 20` with a sticky
/// bit) is in `[2^27, 2^27 + 2^26)`, and the `z` of exponent 1 and the other sign with
/// `8 * mz = P - R`. `None` when no such `z` exists for these factors.
pub(crate) fn carrying_cancellation(r0: u32, r1: u32, r2: u32) -> Option<[u32; 3]> {
    let mx = 0x0080_0000 | (r0 & 0x007F_FFFF);
    let my = 0x0080_0000 | (r1 & 0x007F_FFFF);
    let prod = u64::from(mx) * u64::from(my);
    let p = (prod >> 20) as u32 | u32::from(prod & 0xF_FFFF != 0);
    let lead = 24 + (r2 & 1);
    let lo = 0x00FF_FFFF << (lead - 23);
    let hi = (2 << lead) - 1;
    if !(1 << 27..(1 << 27) + (1 << 26)).contains(&p) {
        return None;
    }
    // The largest multiple of 8 at most `p - lo` leaves `r = p - 8 * mz` in `[lo, lo + 7]`.
    let mz = (p - lo) / 8;
    let r = p - 8 * mz;
    if r > hi || !(0x0080_0000..0x0100_0000).contains(&mz) {
        return None;
    }
    let ex = 1 + (r2 >> 1) % 127;
    let ey = 128 - ex;
    Some([
        (ex << 23) | (mx & 0x007F_FFFF),
        (ey << 23) | (my & 0x007F_FFFF),
        0x8000_0000 | (1 << 23) | (mz & 0x007F_FFFF),
    ])
}

/// The check behind the AVX-512 and AVX2 kernels' `special_fma_sees_no_subnormal`:
/// `vectors` vectors of `N` triples, each operand drawn from every class (zeros, subnormals,
/// small, ordinary and large normals, infinities, NaNs), go through `operands` (the operands
/// the kernel gives its IEEE FMA of the special lanes, and its mask of special lanes). Asserts
/// that no operand is subnormal and that no lane's `mul_add` of them is; for Blackhole
/// (`wormhole` false) also that each special lane's `mul_add` is `fma_model_bh`'s result up
/// to the NaN payload (Wormhole's special results are combined with its pending NaNs after
/// the FMA: `tests/it/simd.rs` checks those). Also asserts that the triples held subnormal
/// operands and special lanes (so that the test can fail). x86 only: the NEON kernels'
/// special lanes keep their operands (the assists are an x86 cost; not measured on AArch64).
#[cfg(target_arch = "x86_64")]
pub(crate) fn check_special_operands<const N: usize>(
    seed: u64,
    vectors: usize,
    wormhole: bool,
    mut operands: impl FnMut(&[[u32; N]; 3]) -> ([[f32; N]; 3], u32),
) {
    let mut next = lcg(seed);
    let mut draw = || {
        let r = next();
        let sign = r & 0x8000_0000;
        let man = next() & 0x007F_FFFF;
        let e = match r % 7 {
            0 => return sign,
            1 => return sign | man.max(1),
            2 => 1 + next() % 20,
            3 => 100 + next() % 50,
            4 => 200 + next() % 55,
            5 => return sign | 0x7F80_0000,
            _ => return sign | 0x7F80_0000 | man.max(1),
        };
        sign | (e << 23) | man
    };
    let (mut subnormal_inputs, mut special_lanes) = (0, 0);
    for _ in 0..vectors {
        let v: [[u32; N]; 3] = std::array::from_fn(|_| std::array::from_fn(|_| draw()));
        subnormal_inputs += v.iter().flatten().filter(|&&w| w & 0x7F80_0000 == 0 && w << 1 != 0).count();
        let (ops, special) = operands(&v);
        for l in 0..N {
            let [x, y, z] = [ops[0][l], ops[1][l], ops[2][l]];
            let at = || format!("lane {l} of {v:08x?}: operands {x:e}, {y:e}, {z:e}");
            assert!(!x.is_subnormal() && !y.is_subnormal() && !z.is_subnormal(), "{}", at());
            let r = x.mul_add(y, z);
            assert!(!r.is_subnormal(), "{}: result {r:e}", at());
            if special >> l & 1 == 1 {
                special_lanes += 1;
                if wormhole {
                    continue;
                }
                let want = fma_model_bh(v[0][l], v[1][l], v[2][l]);
                let want_nan = f32::from_bits(want).is_nan();
                assert!(want_nan == r.is_nan() && (want_nan || r.to_bits() == want), "{}: {r:e}", at());
            }
        }
    }
    assert!(subnormal_inputs > 0 && special_lanes > 0, "{subnormal_inputs} {special_lanes}");
}
