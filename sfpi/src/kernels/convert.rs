//! Conversions: int32 <-> float, and float to fp16a, fp16b, int8, uint8, int16, uint16 with the
//! library's SFPSTOCHRND calls (round to nearest).

use super::def::{InputRange, KernelDef, Numeric, OutputKind, TileInput, Ulp, both, fp32_in, out};
use crate::tile::TileFormat;
use crate::*;

/// int32 to float: SFPCAST converts sign-magnitude, so the two's complement `vInt` is made
/// sign-magnitude first (`setsgn(abs(v), v)`); round to nearest even.
fn int32_to_float() {
    let v = vInt::from(dst_reg[0]);
    dst_reg[0].set(int_to_float(setsgn(abs(v), v), 0));
}

/// float to int32, truncating toward zero: the 24-bit significand (`exman8`) shifted by
/// `exponent - 23` (`shft` with a vector of amounts), 0 below 1, negated for negative inputs.
fn float_to_int32() {
    let x = vFloat::from(dst_reg[0]);
    let e = exexp(x);
    let m = reinterpret::<vUInt>(exman8(x));
    let mut r = reinterpret::<vInt>(shft(m, e - 23));
    v_if(e.lt(0), || r.assign(0)).v_endif();
    v_if(x.lt(0.0), || r.assign(-r)).v_endif();
    dst_reg[0].set(r);
}

fn to_fp16a() {
    let x = vFloat::from(dst_reg[0]);
    dst_reg[0].set(reinterpret::<vFloat>(float_to_fp16a(x, 0)));
}

fn to_fp16b() {
    let x = vFloat::from(dst_reg[0]);
    dst_reg[0].set(reinterpret::<vFloat>(float_to_fp16b(x, 0)));
}

fn to_int8() {
    let x = vFloat::from(dst_reg[0]);
    dst_reg[0].set(float_to_int8(x, 0));
}

fn to_uint8() {
    let x = vFloat::from(dst_reg[0]);
    dst_reg[0].set(float_to_uint8(x, 0));
}

fn to_int16() {
    let x = vFloat::from(dst_reg[0]);
    dst_reg[0].set(float_to_int16(x, 0));
}

fn to_uint16() {
    let x = vFloat::from(dst_reg[0]);
    dst_reg[0].set(float_to_uint16(x, 0));
}

const HALF: &str = "SFPSTOCHRND's round-to-nearest mode (ties away from zero) is within half a unit of \
                    the value: bound 0.5; 0.25 on average for evenly spread fractions (mean bound 0.3 \
                    for sampling; 0.5 for the integer kinds, whose inputs include many exact halves)";

fn to_int(
    name: &'static str,
    description: &'static str,
    record: fn() -> Result<Kernel, KernelError>,
    lo: f64,
    hi: f64,
) -> KernelDef {
    KernelDef {
        name,
        description,
        chips: both(),
        inputs: fp32_in(
            InputRange::Uniform { lo, hi },
            &[0.0, 0.5, 1.5, 2.5, lo, hi, (lo + hi) / 2.0, if lo < 0.0 { -0.5 } else { 0.25 }],
        ),
        outputs: out(0, TileFormat::Int32, OutputKind::SignMag),
        record,
        numeric: Some(Numeric {
            oracle: |x| x[0],
            ulp: Ulp::Integer,
            max_ulp: 0.5,
            mean_ulp: 0.5,
            why: HALF,
        }),
    }
}

/// The kernels of this module.
pub fn kernels() -> Vec<KernelDef> {
    let floats = InputRange::SignedLog { lo: 1e-30, hi: 1e30 };
    let float_specials = [1.0, -1.0, 1.0009765625, 1.00048828125, 1.0039062, 3.0, 1e-30, -1e30];
    vec![
        KernelDef {
            name: "int32_to_float",
            description: "int32 to FP32, round to nearest even (SFPCAST of setsgn(abs(v), v))",
            chips: both(),
            inputs: vec![TileInput {
                base: 0,
                format: TileFormat::Int32,
                range: InputRange::Int { lo: -2_147_483_647, hi: 2_147_483_647 },
                specials: vec![
                    0.0,
                    1.0,
                    -1.0,
                    16_777_217.0,
                    -16_777_217.0,
                    2_147_483_647.0,
                    -2_147_483_647.0,
                    255.0,
                ],
            }],
            outputs: out(0, TileFormat::Fp32, OutputKind::Float),
            record: || Kernel::record("int32_to_float", int32_to_float),
            numeric: Some(Numeric {
                oracle: |x| x[0],
                ulp: Ulp::Output,
                max_ulp: 0.5,
                mean_ulp: 0.3,
                why: "SFPCAST rounds the magnitude to nearest even: within half an ULP; 0.25 on average \
                      for evenly spread fractions (bound 0.3 for sampling)",
            }),
        },
        KernelDef {
            name: "float_to_int32",
            description: "FP32 to int32, truncating toward zero (exman8 shifted by the exponent)",
            chips: both(),
            inputs: fp32_in(
                InputRange::Uniform { lo: -2_147_483_520.0, hi: 2_147_483_520.0 },
                &[
                    0.0,
                    -0.0,
                    0.5,
                    -0.5,
                    0.99999994,
                    1.0,
                    -1.0,
                    1.5,
                    -1.5,
                    16_777_217.0,
                    2_147_483_520.0,
                    -2_147_483_520.0,
                ],
            ),
            outputs: out(0, TileFormat::Int32, OutputKind::Int),
            record: || Kernel::record("float_to_int32", float_to_int32),
            numeric: Some(Numeric {
                oracle: |x| x[0].trunc(),
                ulp: Ulp::Integer,
                max_ulp: 0.0,
                mean_ulp: 0.0,
                why: "exact: shifting the significand loses only the fraction, which truncation drops",
            }),
        },
        KernelDef {
            name: "float_to_fp16a",
            description: "FP32 rounded to 10 mantissa bits (float_to_fp16a, round to nearest)",
            chips: both(),
            inputs: fp32_in(floats.clone(), &float_specials),
            outputs: out(0, TileFormat::Fp32, OutputKind::Float),
            record: || Kernel::record("float_to_fp16a", to_fp16a),
            numeric: Some(Numeric {
                oracle: |x| x[0],
                ulp: Ulp::Mantissa(10),
                max_ulp: 0.5,
                mean_ulp: 0.3,
                why: HALF,
            }),
        },
        KernelDef {
            name: "float_to_fp16b",
            description: "FP32 rounded to 7 mantissa bits (float_to_fp16b, round to nearest)",
            chips: both(),
            inputs: fp32_in(floats, &float_specials),
            outputs: out(0, TileFormat::Fp32, OutputKind::Float),
            record: || Kernel::record("float_to_fp16b", to_fp16b),
            numeric: Some(Numeric {
                oracle: |x| x[0],
                ulp: Ulp::Mantissa(7),
                max_ulp: 0.5,
                mean_ulp: 0.3,
                why: HALF,
            }),
        },
        to_int(
            "float_to_int8",
            "FP32 to int8 (sign-magnitude), float_to_int8",
            || Kernel::record("float_to_int8", to_int8),
            -127.0,
            127.0,
        ),
        to_int(
            "float_to_uint8",
            "FP32 to uint8, float_to_uint8",
            || Kernel::record("float_to_uint8", to_uint8),
            0.0,
            255.0,
        ),
        to_int(
            "float_to_int16",
            "FP32 to int16 (sign-magnitude), float_to_int16",
            || Kernel::record("float_to_int16", to_int16),
            -32767.0,
            32767.0,
        ),
        to_int(
            "float_to_uint16",
            "FP32 to uint16, float_to_uint16",
            || Kernel::record("float_to_uint16", to_uint16),
            0.0,
            65535.0,
        ),
    ]
}
