//! Activations and elementwise arithmetic: relu, leaky relu, elu, abs, sign, clamp, square, and
//! powers by small integers.

use super::def::{InputRange, KernelDef, Numeric, OutputKind, Ulp, both, fp32_in, out};
use super::math::{exp_core, fit, horner};
use crate::tile::TileFormat;
use crate::*;

/// leaky relu's slope.
pub const LEAKY_SLOPE: f64 = 0.01;
/// clamp's bounds.
pub const CLAMP: (f64, f64) = (-1.5, 2.5);

fn relu() {
    let mut x = vFloat::from(dst_reg[0]);
    v_if(x.lt(0.0), || x.assign(0.0)).v_endif();
    dst_reg[0].set(x);
}

fn leaky_relu() {
    let mut x = vFloat::from(dst_reg[0]);
    v_if(x.lt(0.0), || x *= LEAKY_SLOPE).v_endif();
    dst_reg[0].set(x);
}

/// `expm1(x) / x` on `[-0.5, 0]`.
fn expm1_poly() -> Vec<f64> {
    fit(|x: f64| if x == 0.0 { 1.0 } else { x.exp_m1() / x }, -0.5, 0.0, 7)
}

/// elu with alpha = 1: `x` for `x >= 0`, `e^x - 1` below, from a polynomial for `expm1` above
/// -0.5 (no cancellation) and the exp kernel below (a nested chain).
fn elu() {
    let mut x = vFloat::from(dst_reg[0]);
    v_if(x.lt(0.0), || {
        v_if(x.gt(-0.5), || {
            x.assign(x * horner(x, &expm1_poly()));
        })
        .v_else(|| {
            x.assign(exp_core(x) - 1.0);
        })
        .v_endif();
    })
    .v_endif();
    dst_reg[0].set(x);
}

fn abs_kernel() {
    let x = vFloat::from(dst_reg[0]);
    dst_reg[0].set(abs(x));
}

/// SFPSETCC tests bits, so `-0 < 0` holds (seed 003: "provided VC is neither -0 nor NaN"):
/// adding `vConst0` first turns `-0` into `+0` (`-0 + +0` is `+0` on both chips) and leaves every
/// other value alone.
fn sign() {
    let x = dst_reg[0] + vConst0;
    v_if(x.gt(0.0), || dst_reg[0].set(1.0))
        .v_elseif(x.lt(0.0), || dst_reg[0].set(-1.0))
        .v_else(|| dst_reg[0].set(0.0))
        .v_endif();
}

fn clamp() {
    let mut x = vFloat::from(dst_reg[0]);
    v_if(x.lt(CLAMP.0), || x.assign(CLAMP.0)).v_elseif(x.gt(CLAMP.1), || x.assign(CLAMP.1)).v_endif();
    dst_reg[0].set(x);
}

fn square() {
    let x = vFloat::from(dst_reg[0]);
    dst_reg[0].set(x * x);
}

/// `x^n` by binary exponentiation.
pub fn power_core(x: vFloat, n: u32) -> vFloat {
    let mut result: Option<vFloat> = None;
    let mut base = x;
    let mut k = n;
    while k > 0 {
        if k & 1 == 1 {
            result = Some(match result {
                None => base,
                Some(r) => r * base,
            });
        }
        k >>= 1;
        if k > 0 {
            base = base * base;
        }
    }
    result.unwrap_or_else(|| vFloat::from(1.0))
}

fn power<const N: u32>() {
    let x = vFloat::from(dst_reg[0]);
    dst_reg[0].set(power_core(x, N));
}

fn exact(
    name: &'static str,
    description: &'static str,
    record: fn() -> Result<Kernel, KernelError>,
    oracle: fn(&[f64]) -> f64,
    range: InputRange,
    specials: &[f64],
) -> KernelDef {
    KernelDef {
        name,
        description,
        chips: both(),
        inputs: fp32_in(range, specials),
        outputs: out(0, TileFormat::Fp32, OutputKind::Float),
        record,
        numeric: Some(Numeric {
            oracle,
            ulp: Ulp::Output,
            max_ulp: 0.0,
            mean_ulp: 0.0,
            why: "exact: no arithmetic rounds",
        }),
    }
}

/// The kernels of this module.
pub fn kernels() -> Vec<KernelDef> {
    let wide = InputRange::Uniform { lo: -100.0, hi: 100.0 };
    let sp = [0.0, -0.0, 1.0, -1.0, 100.0, -100.0, 1e-30, -1e-30];
    vec![
        exact(
            "relu",
            "max(x, 0): v_if (x < 0) x = 0",
            || Kernel::record("relu", relu),
            |x| x[0].max(0.0),
            wide.clone(),
            &sp,
        ),
        KernelDef {
            name: "leaky_relu",
            description: "x, or 0.01 x below zero",
            chips: both(),
            inputs: fp32_in(wide.clone(), &sp),
            outputs: out(0, TileFormat::Fp32, OutputKind::Float),
            record: || Kernel::record("leaky_relu", leaky_relu),
            numeric: Some(Numeric {
                oracle: |x| if x[0] < 0.0 { LEAKY_SLOPE * x[0] } else { x[0] },
                ulp: Ulp::Output,
                max_ulp: 1.0,
                mean_ulp: 0.5,
                why: "one rounded product with the slope 0.01 rounded to FP32 (0.5 ULP each): bound 1",
            }),
        },
        KernelDef {
            name: "elu",
            description: "elu (alpha 1): x, or e^x - 1 below zero (expm1 polynomial above -0.5, exp below)",
            chips: both(),
            inputs: fp32_in(
                InputRange::Uniform { lo: -20.0, hi: 20.0 },
                &[0.0, -0.0, -0.5, -0.49999997, -1.0, -20.0, 20.0, -1e-3],
            ),
            outputs: out(0, TileFormat::Fp32, OutputKind::Float),
            record: || Kernel::record("elu", elu),
            numeric: Some(Numeric {
                oracle: |x| if x[0] < 0.0 { x[0].exp_m1() } else { x[0] },
                ulp: Ulp::Output,
                max_ulp: 6.0,
                mean_ulp: 1.0,
                why: "above -0.5, x q(x) with q fitted to expm1(x)/x (error below 1e-9) costs Horner \
                      rounding, about 3 ULP; below, e^x within 4 ULP of a value at most 0.61 minus 1 gives \
                      a result of magnitude at least 0.39: 4 * 0.61/0.39 + 0.5, about 7, but e^x's ULPs are \
                      half the result's below -0.69: bound 6",
            }),
        },
        exact("abs", "|x| (SFPABS)", || Kernel::record("abs", abs_kernel), |x| x[0].abs(), wide.clone(), &sp),
        exact(
            "sign",
            "1, -1 or 0 (a v_if / v_elseif / v_else chain)",
            || Kernel::record("sign", sign),
            |x| {
                if x[0] > 0.0 {
                    1.0
                } else if x[0] < 0.0 {
                    -1.0
                } else {
                    0.0
                }
            },
            wide.clone(),
            &sp,
        ),
        exact(
            "clamp",
            "x clamped to [-1.5, 2.5]",
            || Kernel::record("clamp", clamp),
            |x| x[0].clamp(CLAMP.0, CLAMP.1),
            InputRange::Uniform { lo: -5.0, hi: 5.0 },
            &[-1.5, 2.5, 0.0, -5.0, 5.0],
        ),
        KernelDef {
            name: "square",
            description: "x * x",
            chips: both(),
            inputs: fp32_in(InputRange::SignedLog { lo: 1e-15, hi: 1e15 }, &[1.0, -1.0, 0.0, 3.0]),
            outputs: out(0, TileFormat::Fp32, OutputKind::Float),
            record: || Kernel::record("square", square),
            numeric: Some(Numeric {
                oracle: |x| x[0] * x[0],
                ulp: Ulp::Output,
                max_ulp: 0.5,
                mean_ulp: 0.3,
                why: "one product rounded to nearest: 0.5 ULP",
            }),
        },
        power_def("power3", || Kernel::record("power3", power::<3>), |x| x[0].powi(3), 2.0),
        power_def("power5", || Kernel::record("power5", power::<5>), |x| x[0].powi(5), 3.5),
        power_def("power7", || Kernel::record("power7", power::<7>), |x| x[0].powi(7), 5.0),
    ]
}

fn power_def(
    name: &'static str,
    record: fn() -> Result<Kernel, KernelError>,
    oracle: fn(&[f64]) -> f64,
    bound: f64,
) -> KernelDef {
    KernelDef {
        name,
        description: "x^n by binary exponentiation (n = 3, 5, 7)",
        chips: both(),
        inputs: fp32_in(InputRange::SignedLog { lo: 1e-5, hi: 1e5 }, &[1.0, -1.0, 2.0, -2.0, 0.0, 10.0]),
        outputs: out(0, TileFormat::Fp32, OutputKind::Float),
        record,
        numeric: Some(Numeric {
            oracle,
            ulp: Ulp::Output,
            max_ulp: bound,
            mean_ulp: bound / 2.0,
            why: "each product rounds once (0.5 ULP, a relative 2^-24 at most) and squaring an \
                  intermediate doubles its relative error: x^3 = x^2 x: 1 + 0.5 = 1.5 (bound 2); \
                  x^5 = (x^2)^2 x: 2 + 1 + 0.5 = 3.5; x^7 = (x x^2) (x^2)^2: 1 + 2 + 1 + 0.5 = 4.5 \
                  (bound 5)",
        }),
    }
}
