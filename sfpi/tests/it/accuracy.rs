//! Accuracy: computed for every numerical kernel on both chips, finite, within the bound its
//! algorithm gives; the serde form; the chip difference on kernels where the chips are known to
//! differ.

use sfpi::accuracy::{Accuracy, ChipDifference, accuracy, chip_difference, ulp_error, ulp_of};
use sfpi::kernels::{InputRange, KernelDef, Numeric, OutputKind, TileInput, TileOutput, Ulp, registry};
use sfpi::tile::TileFormat;
use sfpi::*;

#[test]
fn every_numerical_kernel_is_within_its_bound_on_both_chips() {
    let mut n = 0;
    for def in registry().into_iter().filter(|d| d.numeric.is_some()) {
        for &arch in &def.chips {
            let a = accuracy(&def, arch, 2024).unwrap_or_else(|e| panic!("{} on {arch}: {e}", def.name));
            assert_eq!(a.samples, 5 * 1024, "{}", def.name);
            assert!(a.max_ulp.is_finite() && a.mean_ulp.is_finite(), "{} on {arch}: {a:?}", def.name);
            assert!(a.mean_ulp <= a.max_ulp);
            assert!(
                a.within_bound,
                "{} on {arch}: max {} (bound {}), mean {} (bound {}); worst {:?}",
                def.name,
                a.max_ulp,
                a.bound_max_ulp,
                a.mean_ulp,
                a.bound_mean_ulp,
                a.worst.first()
            );
            assert_eq!(a.histogram.iter().map(|b| b.count).sum::<u64>(), a.samples, "{}", def.name);
            assert!(a.worst.windows(2).all(|w| w[0].ulp >= w[1].ulp));
            assert_eq!(a.worst.first().map(|w| w.ulp), Some(a.max_ulp));
            n += 1;
        }
    }
    assert!(n >= 60, "{n}");
}

/// The corpus's reciprocal with `recip_core`'s iteration count changed to two.
fn reciprocal_two_steps() -> KernelDef {
    let mut def = registry().into_iter().find(|d| d.name == "reciprocal").unwrap();
    def.record = || {
        Kernel::record("reciprocal_2", || {
            let x = vFloat::from(dst_reg[0]);
            dst_reg[0].set(kernels::math::recip_core(x, 2));
        })
    };
    def
}

#[test]
fn newton_raphson_reciprocal_after_two_iterations() {
    // The initial guess 48/17 - 32/17 m has relative error at most 1/17 on [0.5, 1); each
    // Newton-Raphson step squares it, so two leave (1/17)^4 = 1.197e-5, and an ULP is at least
    // 2^-24 of the value: at most 1.197e-5 * 2^24 = 200.9 ULP before rounding. The measured error
    // must approach but not exceed that (the error is largest near m = 0.5, 0.75 and 1).
    let def = reciprocal_two_steps();
    let bound = (1.0f64 / 17.0).powi(4) * 2f64.powi(24);
    for arch in Arch::ALL {
        let a = accuracy(&def, arch, 7).unwrap();
        assert!(a.max_ulp <= bound + 4.0, "{arch}: {}", a.max_ulp);
        assert!(a.max_ulp > bound / 4.0, "{arch}: {} is suspiciously small", a.max_ulp);
    }
}

#[test]
fn newton_raphson_reciprocal_after_three_iterations_is_rounding_only() {
    // Three steps leave (1/17)^8 = 1.43e-10 relative, 0.0024 ULP: what remains is the rounding of
    // the last step (at most about 1.5 ULP), so the corpus kernel stays within 3 ULP and, being
    // correctly rounded on most inputs, has a mean well below 1.
    let def = registry().into_iter().find(|d| d.name == "reciprocal").unwrap();
    assert!((1.0f64 / 17.0).powi(8) * 2f64.powi(24) < 0.01);
    for arch in Arch::ALL {
        let a = accuracy(&def, arch, 7).unwrap();
        assert!(a.max_ulp <= 3.0, "{arch}: {}", a.max_ulp);
        assert!(a.mean_ulp < 1.0, "{arch}: {}", a.mean_ulp);
        // Most lanes are correctly rounded (within half an ULP).
        assert!(a.histogram[0].count > a.samples / 2, "{arch}: {:?}", a.histogram);
    }
}

#[test]
fn accuracy_is_deterministic_and_serialisable() {
    let def = registry().into_iter().find(|d| d.name == "exp").unwrap();
    let a = accuracy(&def, Arch::Wormhole, 3).unwrap();
    let b = accuracy(&def, Arch::Wormhole, 3).unwrap();
    assert_eq!(a, b);
    let json = serde_json::to_string(&a).unwrap();
    let back: Accuracy = serde_json::from_str(&json).unwrap();
    assert_eq!(back, a);
    for field in ["\"max_ulp\"", "\"mean_ulp\"", "\"histogram\"", "\"worst\"", "\"arch\":\"wormhole\""] {
        assert!(json.contains(field), "{field} in {json}");
    }
}

#[test]
fn ulps_by_hand() {
    // FP32 at 1.0: 2^-23; at 3.0 (exponent 1): 2^-22; BF16 at 1.0: 2^-7; a 10-bit mantissa
    // at 0.5: 2^-11; integers: 1.
    assert_eq!(ulp_of(Ulp::Output, TileFormat::Fp32, 1.0), 2f64.powi(-23));
    assert_eq!(ulp_of(Ulp::Output, TileFormat::Fp32, -3.0), 2f64.powi(-22));
    assert_eq!(ulp_of(Ulp::Output, TileFormat::Bf16, 1.0), 2f64.powi(-7));
    assert_eq!(ulp_of(Ulp::Mantissa(10), TileFormat::Fp32, 0.5), 2f64.powi(-11));
    assert_eq!(ulp_of(Ulp::Integer, TileFormat::Int32, 1e6), 1.0);
    // One FP32 ULP above 1.0 is one ULP of error; NaN against NaN none; Inf against a number
    // infinitely many.
    assert_eq!(ulp_error(Ulp::Output, TileFormat::Fp32, f32::from_bits(0x3F80_0001) as f64, 1.0), 1.0);
    assert_eq!(ulp_error(Ulp::Output, TileFormat::Fp32, f64::NAN, f64::NAN), 0.0);
    assert!(ulp_error(Ulp::Output, TileFormat::Fp32, f64::INFINITY, 1.0).is_infinite());
}

fn shuffle_kernel() {
    let w = vInt::from(dst_reg[0]);
    let v = subvec_shflror1(w);
    dst_reg[0].set(subvec_shflshr1(v) + 1);
}

#[test]
fn the_chips_differ_where_wormhole_s_shflshr1_bug_is() {
    // shflshr1 gives lane 0 of each group of eight 0 (+ 1) on Blackhole and, by Wormhole's
    // documented bug, lane 7 of the last shflror1's input (+ 1): with nonzero inputs (1..=1000)
    // that differs in exactly lanes 0, 8, 16, 24 of every row, and nowhere else.
    let def = KernelDef {
        name: "test/shfl",
        description: "",
        chips: Arch::ALL.to_vec(),
        inputs: vec![TileInput {
            base: 0,
            format: TileFormat::Int32,
            range: InputRange::Int { lo: 1, hi: 1000 },
            specials: vec![],
        }],
        outputs: vec![TileOutput { base: 0, format: TileFormat::Int32, kind: OutputKind::Int }],
        record: || Kernel::record("test/shfl", shuffle_kernel),
        numeric: None,
    };
    let d = chip_difference(&def, 9).unwrap();
    assert_eq!(d.samples, 5 * 1024);
    assert_eq!(d.differing, 5 * 32 * 4);
    for e in &d.examples {
        assert_eq!(e.blackhole, 1, "Blackhole's lane 0 of a group is 0 + 1");
        assert!((2..=1001).contains(&e.wormhole), "{e:?}");
    }
}

#[test]
fn numeric_kernels_differ_between_the_chips_by_at_most_an_ulp() {
    // The chips' FMA models differ in NaN payloads, zero signs, overflow against infinity, the
    // denormal edge, and Wormhole's normalisation sticky bit, which drops the upper of two bits
    // shifted out and can leave a result 1 ULP low
    // (`docs/spec/sfpu-wormhole.md#fma-examples-on-wormhole`). Inside the documented ranges only
    // the last can occur: a rare 1-ULP difference in a multiply-add, which a later rounding can at
    // most double.
    for def in registry().into_iter().filter(|d| d.numeric.is_some()) {
        let d = chip_difference(&def, 5).unwrap();
        assert!(d.max_ulp <= 2.0, "{}: {:?}", def.name, d.examples.first());
        assert!(d.differing * 100 <= d.samples, "{}: {} of {}", def.name, d.differing, d.samples);
    }
}

#[test]
fn the_difference_is_serialisable() {
    let def = registry().into_iter().find(|d| d.name == "exp").unwrap();
    let d = chip_difference(&def, 5).unwrap();
    let back: ChipDifference = serde_json::from_str(&serde_json::to_string(&d).unwrap()).unwrap();
    assert_eq!(back, d);
}

#[test]
fn a_kernel_without_an_oracle_has_no_accuracy() {
    let def = registry().into_iter().find(|d| d.name == "seed/silly").unwrap();
    assert!(accuracy(&def, Arch::Blackhole, 0).is_err());
    let _ = Numeric { oracle: |x| x[0], ulp: Ulp::Output, max_ulp: 0.0, mean_ulp: 0.0, why: "" };
}
