//! Transcendental and arithmetic kernels: exp, log, reciprocal, sqrt, rsqrt, sigmoid (LUT and
//! rational forms), tanh, gelu (tanh and erf forms), written in the layer from their algorithms.
//!
//! Polynomial coefficients are not copied from anywhere: [`fit`] interpolates the function at
//! Chebyshev nodes in f64 when the kernel is recorded, and the kernels evaluate the polynomial
//! with Horner's rule on the SFPU's multiply-add.

use std::f64::consts::{FRAC_2_SQRT_PI, LN_2, LOG2_E, PI, SQRT_2};

use super::def::{InputRange, KernelDef, Numeric, OutputKind, TileInput, Ulp, both, fp32_in, out};
use crate::tile::TileFormat;
use crate::*;

/// The monomial coefficients (constant first) of the degree-`n` polynomial interpolating `f` at
/// the Chebyshev nodes of `[a, b]`, in f64.
pub fn fit(f: impl Fn(f64) -> f64, a: f64, b: f64, n: usize) -> Vec<f64> {
    let m = n + 1;
    let (mid, half) = ((a + b) / 2.0, (b - a) / 2.0);
    let nodes: Vec<f64> = (0..m).map(|k| (PI * (k as f64 + 0.5) / m as f64).cos()).collect();
    let vals: Vec<f64> = nodes.iter().map(|&t| f(mid + half * t)).collect();
    // Chebyshev coefficients in t.
    let c: Vec<f64> = (0..m)
        .map(|j| {
            let s: f64 =
                (0..m).map(|k| vals[k] * (j as f64 * (PI * (k as f64 + 0.5) / m as f64)).cos()).sum();
            s * 2.0 / m as f64 * if j == 0 { 0.5 } else { 1.0 }
        })
        .collect();
    // Sum of c_j T_j(t) as monomials in t.
    let mut poly_t = vec![0.0; m];
    let (mut t_prev, mut t_cur) = (vec![1.0], vec![0.0, 1.0]);
    for (j, cj) in c.iter().enumerate() {
        let tj = if j == 0 { &t_prev } else { &t_cur };
        for (i, v) in tj.iter().enumerate() {
            poly_t[i] += cj * v;
        }
        if j >= 1 {
            let mut next = vec![0.0; t_cur.len() + 1];
            for (i, v) in t_cur.iter().enumerate() {
                next[i + 1] += 2.0 * v;
            }
            for (i, v) in t_prev.iter().enumerate() {
                next[i] -= v;
            }
            t_prev = std::mem::replace(&mut t_cur, next);
        }
    }
    // Substitute t = (x - mid) / half.
    let mut out = vec![0.0; m];
    for (k, pk) in poly_t.iter().enumerate() {
        // (x - mid)^k / half^k = sum_i C(k, i) x^i (-mid)^(k - i) / half^k
        for (i, o) in out.iter_mut().enumerate().take(k + 1) {
            *o += pk * binomial(k, i) * (-mid).powi((k - i) as i32) / half.powi(k as i32);
        }
    }
    out
}

fn binomial(n: usize, k: usize) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// Evaluates the polynomial `c` (constant first) at `x` with Horner's rule; each step is one
/// multiply-add after SFPI's MAD generation.
pub fn horner(x: vFloat, c: &[f64]) -> vFloat {
    let Some((&last, rest)) = c.split_last() else { return vFloat::from(0.0) };
    let mut p = vFloat::from(last);
    for &k in rest.iter().rev() {
        p = p * x + k;
    }
    p
}

/// `1.5 * 2^23`: adding it rounds a float below `2^22` in magnitude to an integer in the low
/// mantissa bits.
const MAGIC: f64 = 12_582_912.0;
/// The bits of `MAGIC`.
const MAGIC_BITS: u32 = 0x4B40_0000;
/// `ln 2` split: a high part with 16 significant bits (so `n * hi` is exact for `|n| < 256`) and
/// the rest.
fn ln2_parts() -> (f64, f64) {
    let hi = f32::from_bits((LN_2 as f32).to_bits() & 0xFFFF_0000) as f64;
    (hi, LN_2 - hi)
}

/// `e^x` for `x` in `[-86, 88]`: `n = rint(x / ln 2)` by the magic-number trick, `r = x - n ln 2`
/// in two exact-product steps (Cody and Waite), `e^r` by a degree-6 polynomial on
/// `[-ln 2 / 2, ln 2 / 2]`, and the exponent of the result raised by `n` with `setexp`.
pub fn exp_core(x: vFloat) -> vFloat {
    let (hi, lo) = ln2_parts();
    let t = x * LOG2_E + MAGIC;
    let n_f = t - MAGIC;
    let n_i = reinterpret::<vInt>(t) - MAGIC_BITS as i32;
    let r = n_f * -hi + x;
    let r = n_f * -lo + r;
    let p = horner(r, &exp_poly());
    let e = exexp_nodebias(p) + n_i;
    setexp(p, e)
}

fn exp_poly() -> Vec<f64> {
    fit(f64::exp, -LN_2 / 2.0, LN_2 / 2.0, 6)
}

/// `1 / x` for `|x|` in `[2^-120, 2^120]` by Newton-Raphson: `x = m * 2^k` with `m` in
/// `[0.5, 1)`, `y0 = 48/17 - 32/17 m` (relative error at most 1/17), `iterations` steps of
/// `y = y (2 - m y)` (each squares the error), then the exponent and sign put back.
pub fn recip_core(x: vFloat, iterations: usize) -> vFloat {
    let m = setexp(abs(x), 126);
    let neg_m = -m;
    let mut y = m * (-32.0 / 17.0) + 48.0 / 17.0;
    for _ in 0..iterations {
        let t = neg_m * y + 2.0;
        y *= t;
    }
    // 1/x = (1/m) * 2^(126 - E): the result's exponent is y's plus 126 minus x's.
    let e = exexp_nodebias(y) - exexp_nodebias(x);
    let e = e + 126;
    setsgn(setexp(y, e), x)
}

/// `1 / sqrt(x)` for `x` in `[2^-100, 2^100]`: the classic initial guess
/// `0x5F3759DF - (bits >> 1)` (relative error at most 0.0344), then three Newton-Raphson steps
/// `y = y (1.5 - x/2 y^2)`.
pub fn rsqrt_core(x: vFloat) -> vFloat {
    let i = reinterpret::<vUInt>(x) >> 1u32;
    let mut y = reinterpret::<vFloat>(vUInt::from(0x5F37_59DFu32) - i);
    let nhx = x * -0.5;
    for _ in 0..3 {
        let t = y * y;
        let t = nhx * t + 1.5;
        y *= t;
    }
    y
}

fn exp_kernel() {
    let x = vFloat::from(dst_reg[0]);
    dst_reg[0].set(exp_core(x));
}

fn log_kernel() {
    let x = vFloat::from(dst_reg[0]);
    let (hi, lo) = ln2_parts();
    let mut e = exexp(x);
    let mut m = setexp(x, 127);
    v_if(m.ge(SQRT_2), || {
        m.assign(setexp(m, 126));
        e += 1;
    })
    .v_endif();
    let f = m - 1.0;
    let q = horner(
        f,
        &fit(|f: f64| if f == 0.0 { 1.0 } else { f.ln_1p() / f }, 1.0 / SQRT_2 - 1.0, SQRT_2 - 1.0, 10),
    );
    let lnm = f * q;
    let ef = int_to_float(setsgn(abs(e), e), 0);
    let mut r = ef * lo + lnm;
    r = ef * hi + r;
    v_if(x.eq(0.0), || r.assign(f32::NEG_INFINITY)).v_elseif(x.lt(0.0), || r.assign(f32::NAN)).v_endif();
    dst_reg[0].set(r);
}

fn reciprocal_kernel() {
    let x = vFloat::from(dst_reg[0]);
    dst_reg[0].set(recip_core(x, 3));
}

fn rsqrt_kernel() {
    let x = vFloat::from(dst_reg[0]);
    dst_reg[0].set(rsqrt_core(x));
}

fn sqrt_kernel() {
    let x = vFloat::from(dst_reg[0]);
    let y = rsqrt_core(x);
    dst_reg[0].set(x * y);
}

/// The 8-bit LUT coefficient (`Lut8ToFp32`'s format) nearest to `v`: `0xFF` for zero, otherwise
/// sign, `e` in 0..=7 for `2^-e`, 4 mantissa bits.
pub fn lut8_nearest(v: f64) -> u32 {
    let mut best = (0xFFu32, v.abs());
    for s in 0..2u32 {
        for e in 0..8u32 {
            for m in 0..16u32 {
                let x = (1.0 + m as f64 / 16.0) * 2f64.powi(-(e as i32)) * if s == 1 { -1.0 } else { 1.0 };
                let err = (x - v).abs();
                if err < best.1 {
                    best = ((s << 7) | (e << 4) | m, err);
                }
            }
        }
    }
    best.0
}

/// The value of an 8-bit LUT coefficient.
pub fn lut8_value(c: u32) -> f64 {
    if c == 0xFF {
        return 0.0;
    }
    let s = if c & 0x80 != 0 { -1.0 } else { 1.0 };
    s * (1.0 + (c & 0xF) as f64 / 16.0) * 2f64.powi(-(((c >> 4) & 7) as i32))
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The three SFPLUT coefficient pairs of the LUT sigmoid: least-squares lines of
/// `sigmoid(u) - 1/2` on `[0, 1)`, `[1, 2)` and `[2, 5)`, each coefficient rounded to the 8-bit
/// format; `A` in bits 15:8, `B` in bits 7:0.
pub fn sigmoid_lut_table() -> [u32; 3] {
    let seg = |a: f64, b: f64| {
        let n = 200;
        let (mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0);
        for i in 0..=n {
            let u = a + (b - a) * i as f64 / n as f64;
            let y = sigmoid(u) - 0.5;
            sx += u;
            sy += y;
            sxx += u * u;
            sxy += u * y;
        }
        let k = (n + 1) as f64;
        let slope = (k * sxy - sx * sy) / (k * sxx - sx * sx);
        let icpt = (sy - slope * sx) / k;
        (lut8_nearest(slope) << 8) | lut8_nearest(icpt)
    };
    [seg(0.0, 1.0), seg(1.0, 2.0), seg(2.0, 5.0)]
}

fn sigmoid_lut_kernel() {
    let x = vFloat::from(dst_reg[0]);
    let t = sigmoid_lut_table();
    let y = lut(x, vUInt::from(t[0]), vUInt::from(t[1]), vUInt::from(t[2]), 0);
    let mut y = y + 0.5;
    // Beyond |x| = 5 the third line overshoots: saturate there, and keep the result in [0, 1].
    v_if(x.ge(5.0), || y.assign(1.0)).v_elseif(x.le(-5.0), || y.assign(0.0)).v_endif();
    v_if(y.lt(0.0), || y.assign(0.0)).v_elseif(y.gt(1.0), || y.assign(1.0)).v_endif();
    dst_reg[0].set(y);
}

fn sigmoid_rational_kernel() {
    let x = vFloat::from(dst_reg[0]);
    let e = exp_core(-x);
    dst_reg[0].set(recip_core(e + 1.0, 3));
}

/// `tanh(x) / x` as a polynomial in `s = x^2` on `[0, 0.625^2]`.
fn tanh_small_poly() -> Vec<f64> {
    fit(|s: f64| if s == 0.0 { 1.0 } else { s.sqrt().tanh() / s.sqrt() }, 0.0, 0.390625, 6)
}

/// `tanh(x)`: an odd polynomial below `|x| = 0.625`, `1 - 2 / (e^(2|x|) + 1)` with the sign put
/// back up to 9, `±1` beyond.
pub fn tanh_core(x: vFloat) -> vFloat {
    let ax = abs(x);
    let mut r = vFloat::from(0.0);
    v_if(ax.lt(0.625), || {
        let s = x * x;
        r.assign(x * horner(s, &tanh_small_poly()));
    })
    .v_elseif(ax.lt(9.0), || {
        let e = exp_core(ax + ax);
        let q = recip_core(e + 1.0, 3);
        r.assign(setsgn(q * -2.0 + 1.0, x));
    })
    .v_else(|| r.assign(setsgn(vFloat::from(1.0), x)))
    .v_endif();
    r
}

fn tanh_kernel() {
    let x = vFloat::from(dst_reg[0]);
    dst_reg[0].set(tanh_core(x));
}

const GELU_K: f64 = 0.044715;

/// `0.5 x (1 + tanh(z))`, evaluated in f64 as `x / (1 + e^(-2z))` (the same function; the
/// direct form cancels for negative `x`, even in f64).
fn gelu_tanh_oracle(x: f64) -> f64 {
    let z = (2.0 / PI).sqrt() * (x + GELU_K * x * x * x);
    x / (1.0 + (-2.0 * z).exp())
}

/// gelu, tanh form: `0.5 x (1 + tanh(z))` with `z = sqrt(2/pi) (x + 0.044715 x^3)`, computed as
/// `x / (1 + e^(-2z))` (the same function, without the cancellation of `1 + tanh(z)` for negative
/// `x`).
fn gelu_tanh_kernel() {
    let x = vFloat::from(dst_reg[0]);
    let k2 = -2.0 * (2.0 / PI).sqrt();
    let x2 = x * x;
    let inner = x2 * GELU_K + 1.0;
    let z = (x * k2) * inner;
    let d = exp_core(z) + 1.0;
    dst_reg[0].set(x * recip_core(d, 3));
}

fn gelu_erf_oracle(x: f64) -> f64 {
    0.5 * x * erfc_f64(-x / SQRT_2)
}

/// `erfc(u) e^(u^2)` for `u >= 0`, as a function of `t = 1 / (1 + u / 2)` in `(0, 1]`.
fn erfcx_poly() -> Vec<f64> {
    fit(
        |t: f64| {
            let u = 2.0 * (1.0 / t - 1.0);
            erfc_f64(u) * (u * u).exp()
        },
        1.0 / (1.0 + 2.5),
        1.0,
        12,
    )
}

/// gelu, erf form: `x * Phi(x) = 0.5 x erfc(-x / sqrt 2)`, with
/// `erfc(u) = e^(-u^2) * P(1 / (1 + u / 2))` for `u = |x| / sqrt 2` (a polynomial fitted to
/// `erfc(u) e^(u^2)`) and `erfc(-u) = 2 - erfc(u)`.
fn gelu_erf_kernel() {
    let x = vFloat::from(dst_reg[0]);
    let u = abs(x) * std::f64::consts::FRAC_1_SQRT_2;
    let t = recip_core(u * 0.5 + 1.0, 3);
    let p = horner(t, &erfcx_poly());
    let g = exp_core(-(u * u)) * p;
    let mut c = g * 0.5;
    v_if(x.gt(0.0), || c.assign(g * -0.5 + 1.0)).v_endif();
    dst_reg[0].set(x * c);
}

/// `erfc` in f64 (W. J. Cody's rational approximations are not needed: a continued fraction
/// for large arguments and the series for small ones give f64 accuracy on the ranges used).
pub fn erfc_f64(x: f64) -> f64 {
    if x < 0.0 {
        return 2.0 - erfc_f64(-x);
    }
    if x < 2.5 {
        // erf by its Taylor series: erf(x) = 2/sqrt(pi) sum (-1)^n x^(2n+1) / (n! (2n+1)).
        let mut sum = 0.0;
        let mut p = x;
        for n in 0..200 {
            let t = p / (2 * n + 1) as f64;
            sum += t;
            if t.abs() < 1e-18 * sum.abs() {
                break;
            }
            p *= -x * x / (n + 1) as f64;
        }
        1.0 - FRAC_2_SQRT_PI * sum
    } else {
        // Lentz's continued fraction: erfc(x) = e^(-x^2)/sqrt(pi) * 1/(x + 1/2/(x + 1/(x + 3/2/(x + ..)))).
        let mut f = 0.0;
        for k in (1..200).rev() {
            f = (k as f64 / 2.0) / (x + f);
        }
        (-x * x).exp() / PI.sqrt() / (x + f)
    }
}

/// The kernels of this module.
pub fn kernels() -> Vec<KernelDef> {
    vec![
        KernelDef {
            name: "exp",
            description: "e^x: Cody-Waite reduction by n = rint(x / ln 2), degree-6 polynomial, setexp",
            chips: both(),
            inputs: fp32_in(
                InputRange::Uniform { lo: -86.0, hi: 88.0 },
                &[0.0, -0.0, 1.0, -1.0, 0.5, -86.0, 88.0, 0.34657359],
            ),
            outputs: out(0, TileFormat::Fp32, OutputKind::Float),
            record: || Kernel::record("exp", exp_kernel),
            numeric: Some(Numeric {
                oracle: |x| x[0].exp(),
                ulp: Ulp::Output,
                max_ulp: 4.0,
                mean_ulp: 1.0,
                why: "the reduction is exact up to one rounding of r (0.5 ULP of r, below 0.25 ULP of e^x \
                      since |r| <= 0.35), the polynomial's own error is below 1e-9, and six Horner \
                      multiply-adds each round once: at most about 3 ULP, bound 4",
            }),
        },
        KernelDef {
            name: "log",
            description: "ln x: x = m 2^e with m in [sqrt(1/2), sqrt 2), ln m = f q(f) for f = m - 1 \
                          (degree-10 polynomial), plus e ln 2 in two parts; -inf at 0, NaN below",
            chips: both(),
            inputs: fp32_in(
                InputRange::LogUniform { lo: 1e-30, hi: 1e30 },
                &[1.0, 2.0, 0.5, SQRT_2, 1.414_213_7, 0.5 * SQRT_2, 1e-30, 1e30, 3.0, 10.0],
            ),
            outputs: out(0, TileFormat::Fp32, OutputKind::Float),
            record: || Kernel::record("log", log_kernel),
            numeric: Some(Numeric {
                oracle: |x| x[0].ln(),
                ulp: Ulp::Output,
                max_ulp: 4.0,
                mean_ulp: 1.0,
                why: "f = m - 1 is exact (Sterbenz), f q(f) has the polynomial's error (below 1e-8) plus \
                      about 1.5 ULP of Horner rounding, e ln 2 is exact to 2^-40 with the split constant, \
                      and |ln m| <= |e ln 2| / 2 when e != 0, so the final adds cost at most 1 ULP: bound 4",
            }),
        },
        KernelDef {
            name: "reciprocal",
            description: "1/x: linear initial guess 48/17 - 32/17 m on [0.5, 1), three Newton-Raphson steps",
            chips: both(),
            inputs: fp32_in(
                InputRange::SignedLog { lo: 7.5e-37, hi: 1.3e36 },
                &[1.0, -1.0, 2.0, 0.5, 3.0, -3.0, 0.75, 1.5, 7.5e-37, 1.3e36],
            ),
            outputs: out(0, TileFormat::Fp32, OutputKind::Float),
            record: || Kernel::record("reciprocal", reciprocal_kernel),
            numeric: Some(Numeric {
                oracle: |x| 1.0 / x[0],
                ulp: Ulp::Output,
                max_ulp: 3.0,
                mean_ulp: 1.0,
                why: "the initial guess has relative error at most 1/17 and each Newton-Raphson step \
                      squares it, so after three the error is (1/17)^8 = 1.4e-10 relative, below 0.01 ULP; \
                      what is left is rounding: the last step's two roundings (m y and y t, each half an \
                      ULP, the first amplified by at most 1 in t) and setexp being exact give at most 1.5 \
                      ULP, bound 3 with margin for the earlier steps' rounding",
            }),
        },
        KernelDef {
            name: "rsqrt",
            description: "1/sqrt(x): 0x5F3759DF - (bits >> 1), three Newton-Raphson steps",
            chips: both(),
            inputs: fp32_in(
                InputRange::LogUniform { lo: 1e-30, hi: 1e30 },
                &[1.0, 4.0, 0.25, 2.0, 1e-30, 1e30],
            ),
            outputs: out(0, TileFormat::Fp32, OutputKind::Float),
            record: || Kernel::record("rsqrt", rsqrt_kernel),
            numeric: Some(Numeric {
                oracle: |x| 1.0 / x[0].sqrt(),
                ulp: Ulp::Output,
                max_ulp: 6.0,
                mean_ulp: 2.0,
                why: "the guess's relative error is at most 0.0344; each step maps e to about 1.5 e^2, \
                      so three leave 3e-11, and the result is rounding-limited: the last step's square, \
                      multiply-add and product each round once and the earlier roundings are damped: \
                      about 3 ULP, bound 6",
            }),
        },
        KernelDef {
            name: "sqrt",
            description: "sqrt(x) = x * rsqrt(x)",
            chips: both(),
            inputs: fp32_in(
                InputRange::LogUniform { lo: 1e-30, hi: 1e30 },
                &[1.0, 4.0, 0.25, 2.0, 1e-30, 1e30],
            ),
            outputs: out(0, TileFormat::Fp32, OutputKind::Float),
            record: || Kernel::record("sqrt", sqrt_kernel),
            numeric: Some(Numeric {
                oracle: |x| x[0].sqrt(),
                ulp: Ulp::Output,
                max_ulp: 7.0,
                mean_ulp: 2.0,
                why: "rsqrt's bound (6 ULP) plus the rounding of the final product: bound 7",
            }),
        },
        KernelDef {
            name: "sigmoid_lut",
            description: "sigmoid, LUT form: SFPLUT lines of sigmoid(|x|) - 1/2 on [0,1), [1,2), [2,5) with \
                          8-bit coefficients, sign kept, plus 1/2; 0 or 1 beyond |x| = 5",
            chips: both(),
            inputs: vec![TileInput {
                base: 0,
                format: TileFormat::Bf16,
                range: InputRange::Uniform { lo: -8.0, hi: 8.0 },
                specials: vec![0.0, 1.0, -1.0, 2.0, -2.0, 5.0, -5.0, 8.0, -8.0],
            }],
            outputs: out(0, TileFormat::Bf16, OutputKind::Float),
            record: || Kernel::record("sigmoid_lut", sigmoid_lut_kernel),
            numeric: Some(Numeric {
                oracle: |x| sigmoid(x[0]),
                ulp: Ulp::Output,
                max_ulp: 1500.0,
                mean_ulp: 80.0,
                why: "a coarse approximation: the lines with 8-bit coefficients are within 0.02 of \
                      sigmoid on (-5, 5), which is at most 0.02 / 2^-15 = 655 BF16 ULPs at the smallest \
                      outputs there (0.0067); beyond, 0 or 1 is within the output itself, less than 2^8 \
                      ULPs: bound 1500 (with margin for the line ends); a quarter of the range has \
                      outputs below 0.05 whose ULPs are 2^-12 or less: mean bound 80",
            }),
        },
        KernelDef {
            name: "sigmoid",
            description: "sigmoid, rational form: 1 / (1 + e^-x) with the exp kernel and three Newton-Raphson steps",
            chips: both(),
            inputs: fp32_in(
                InputRange::Uniform { lo: -30.0, hi: 30.0 },
                &[0.0, 1.0, -1.0, 30.0, -30.0, 5.0, -5.0],
            ),
            outputs: out(0, TileFormat::Fp32, OutputKind::Float),
            record: || Kernel::record("sigmoid", sigmoid_rational_kernel),
            numeric: Some(Numeric {
                oracle: |x| sigmoid(x[0]),
                ulp: Ulp::Output,
                max_ulp: 10.0,
                mean_ulp: 2.0,
                why: "e^-x within 4 ULP (exp's bound) makes 1 + e^-x within 4.5 ULP, and three \
                      Newton-Raphson steps from a 1/17 guess leave only rounding (about 3 ULP): bound 10",
            }),
        },
        KernelDef {
            name: "tanh",
            description: "tanh: odd degree-13 polynomial below |x| = 0.625, 1 - 2/(e^2|x| + 1) up to 9, ±1 beyond",
            chips: both(),
            inputs: fp32_in(
                InputRange::Uniform { lo: -12.0, hi: 12.0 },
                &[0.0, -0.0, 0.625, -0.625, 0.62499994, 9.0, -9.0, 1.0, 1e-3],
            ),
            outputs: out(0, TileFormat::Fp32, OutputKind::Float),
            record: || Kernel::record("tanh", tanh_kernel),
            numeric: Some(Numeric {
                oracle: |x| x[0].tanh(),
                ulp: Ulp::Output,
                max_ulp: 8.0,
                mean_ulp: 2.0,
                why: "below 0.625 the polynomial (error below 1e-9) costs Horner rounding, about 3 ULP; \
                      above, 2/(e+1) <= 0.45 carries exp's 4 ULP and the reciprocal's 3 ULP scaled by at \
                      most 0.45/0.55 into the result near 0.55, about 6 ULP: bound 8",
            }),
        },
        KernelDef {
            name: "gelu_tanh",
            description: "gelu, tanh form: 0.5 x (1 + tanh(sqrt(2/pi)(x + 0.044715 x^3))), as x / (1 + e^-2z)",
            chips: both(),
            inputs: fp32_in(
                InputRange::Uniform { lo: -8.0, hi: 8.0 },
                &[0.0, 1.0, -1.0, 8.0, -8.0, 3.0, -3.0],
            ),
            outputs: out(0, TileFormat::Fp32, OutputKind::Float),
            record: || Kernel::record("gelu_tanh", gelu_tanh_kernel),
            numeric: Some(Numeric {
                oracle: |x| gelu_tanh_oracle(x[0]),
                ulp: Ulp::Output,
                max_ulp: 160.0,
                mean_ulp: 8.0,
                why: "for negative x the result is x e^(2z) / (1 + e^(2z)), so an absolute error in 2z \
                      becomes a relative error of the result: 2z (|2z| <= 49.4 at |x| = 8) is computed \
                      with three roundings of at most 2^-24 relative, 3 * 49.4 = 148 ULP, plus exp's 4 and \
                      the reciprocal's 3: bound 160; the mean is dominated by |x| < 3 where |2z| < 6: \
                      bound 8",
            }),
        },
        KernelDef {
            name: "gelu_erf",
            description: "gelu, erf form: 0.5 x erfc(-x / sqrt 2), erfc(u) = e^-u^2 P(1 / (1 + u/2))",
            chips: both(),
            inputs: fp32_in(
                InputRange::Uniform { lo: -5.0, hi: 5.0 },
                &[0.0, 1.0, -1.0, 5.0, -5.0, 2.0, -2.0],
            ),
            outputs: out(0, TileFormat::Fp32, OutputKind::Float),
            record: || Kernel::record("gelu_erf", gelu_erf_kernel),
            numeric: Some(Numeric {
                oracle: |x| gelu_erf_oracle(x[0]),
                ulp: Ulp::Output,
                max_ulp: 40.0,
                mean_ulp: 4.0,
                why: "u^2 = x^2/2 is rounded, an absolute error up to 2^-24 * 12.5 that becomes the \
                      relative error of e^-u^2 (13 ULP at |x| = 5); the polynomial in t fits erfc e^u^2 \
                      to about 1e-8, and exp (4 ULP), the reciprocal (3 ULP, damped through t) and the \
                      products add about 8: bound 40",
            }),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_reproduces_a_polynomial() {
        // A cubic is interpolated exactly by a degree-3 fit.
        let c = fit(|x| 1.0 - 2.0 * x + 0.5 * x * x * x, -1.0, 3.0, 3);
        for (got, want) in c.iter().zip([1.0, -2.0, 0.0, 0.5]) {
            assert!((got - want).abs() < 1e-12, "{c:?}");
        }
    }

    #[test]
    fn erfc_against_known_values() {
        // erfc(0) = 1, erfc(1) = 0.157299207050285, erfc(3) = 2.20904969985854e-5 (tables).
        assert!((erfc_f64(0.0) - 1.0).abs() < 1e-15);
        assert!((erfc_f64(1.0) - 0.157_299_207_050_285).abs() < 1e-14);
        assert!((erfc_f64(3.0) / 2.209_049_699_858_54e-5 - 1.0).abs() < 1e-12);
        assert!((erfc_f64(-1.0) - 1.842_700_792_949_715).abs() < 1e-14);
    }

    #[test]
    fn lut8_coefficients_by_hand() {
        // 0x30 is +(1 + 0/16) * 2^-3 = 0.125; 0xA8 is -(1 + 8/16) * 2^-2 = -0.375; 0xFF is 0.
        assert_eq!(lut8_value(0x30), 0.125);
        assert_eq!(lut8_value(0xA8), -0.375);
        assert_eq!(lut8_value(0xFF), 0.0);
        assert_eq!(lut8_nearest(0.125), 0x30);
        assert_eq!(lut8_nearest(0.0), 0xFF);
    }
}
