//! SFPI's library calls (seed 003 § "Library"), each recording the instruction that the per-chip
//! `sfpi_lib.h` of tenstorrent/sfpi maps it to.
//!
//! | call | instruction |
//! |---|---|
//! | `exexp`, `exexp_nodebias` | SFPEXEXP (`DEBIAS` / `NODEBIAS`) |
//! | `exman8`, `exman9` | SFPEXMAN (`PAD8` / `PAD9`) |
//! | `setexp`, `setman`, `setsgn` | SFPSETEXP, SFPSETMAN, SFPSETSGN (immediate or vector form) |
//! | `addexp` | SFPDIVP2 with `SFPSDIVP2_MOD1_ADD` |
//! | `lut`, `lut_sign` | SFPLUT (`SGN_RETAIN` / `SGN_UPDATE`) |
//! | `lz`, `lz_nosgn` | SFPLZ (`CC_NONE` / `NOSGN_CC_NONE`) |
//! | `abs` | SFPABS (`FLOAT` / `INT`) |
//! | `shft` | SFPSHFT (Blackhole: logical for `vUInt`, arithmetic for `vInt`) |
//! | `vec_swap`, `vec_min_max` | SFPSWAP (`SWAP` / `VEC_MIN_MAX`) |
//! | `subvec_shflror1`, `subvec_shflshr1` | SFPSHFT2 (`SUBVEC_SHFLROR1` / `SUBVEC_SHFLSHR1`) |
//! | `subvec_transp` | SFPTRANSP |
//! | `int_to_float` | SFPCAST (`RNE` / `RNS`) |
//! | `float_to_*`, `int32_to_*` | SFPSTOCHRND |
//!
//! Where the chips differ: `shft` on a `vInt` (arithmetic) and `>>` on a `vInt` exist only on
//! Blackhole; `subvec_shflshr1` gives lane 0 of each group of eight `0` on Blackhole and, by
//! Wormhole's documented hardware bug, a value latched from the last `subvec_shflror1`'s input
//! (`docs/spec/sfpu-wormhole.md#sfpshft2-vc0-latch`); the arithmetic differs as the FMA models do.
//!
//! Departures from the seed's text, which describes Grayskull in places: `lut` selects its
//! coefficients by the input's magnitude (`|v| < 1`, `< 2`, otherwise) as Wormhole's and
//! Blackhole's SFPLUT does (`SFPLUT.md`), not by its sign, and has no `offset` (Grayskull's bias;
//! only `0` is accepted); the `round_mode = 0` conversions round to nearest with ties away from
//! zero, as SFPSTOCHRND's `NEAREST` mode does (`SFPSTOCHRND_*.md`), not to even.

#![allow(non_snake_case, reason = "SFPI's names")]

use crate::error::KernelError;
use crate::ir::{Descale, ImmForm, Op, RndConv, Src, Stmt, VType};
use crate::record::{self, Handle, with};
use crate::vector::{FloatArg, IntArg, Vector, bad_argument, imm, op1, op2, src_of, vFloat, vInt, vUInt};

fn src<V: Vector>(v: V) -> Option<Src> {
    src_of(v.handle())
}

/// `exexp(v)`: the exponent of `v`, debiased (`e - 127`).
pub fn exexp(v: vFloat) -> vInt {
    op1(src(v), |v| Op::ExExp { v, debias: true })
}

/// `exexp_nodebias(v)`: the biased exponent of `v` in bits 7:0.
pub fn exexp_nodebias(v: vFloat) -> vInt {
    op1(src(v), |v| Op::ExExp { v, debias: false })
}

/// `exman8(v)`: the mantissa with the hidden bit, padded with 8 zeros on the left.
pub fn exman8(v: vFloat) -> vInt {
    op1(src(v), |v| Op::ExMan { v, pad9: false })
}

/// `exman9(v)`: the mantissa without the hidden bit, padded with 9 zeros.
pub fn exman9(v: vFloat) -> vInt {
    op1(src(v), |v| Op::ExMan { v, pad9: true })
}

/// The second argument of `setexp` / `setman`: an immediate or a vector.
pub trait FieldArg: Copy {
    #[doc(hidden)]
    fn field(self) -> Result<u32, Option<Src>>;
}

impl FieldArg for u32 {
    fn field(self) -> Result<u32, Option<Src>> {
        Ok(self)
    }
}

impl FieldArg for i32 {
    fn field(self) -> Result<u32, Option<Src>> {
        Ok(self as u32)
    }
}

impl FieldArg for vInt {
    fn field(self) -> Result<u32, Option<Src>> {
        Err(src(self))
    }
}

impl FieldArg for vUInt {
    fn field(self) -> Result<u32, Option<Src>> {
        Err(src(self))
    }
}

/// `setexp(v, exp)`: `v` with its exponent replaced by bits 7:0 of `exp` (an immediate, or each
/// lane of a vector).
pub fn setexp(v: vFloat, exp: impl FieldArg) -> vFloat {
    let s = src(v);
    match exp.field() {
        Ok(e) => op1(s, |v| Op::SetExpImm { v, exp: e & 0xFF }),
        Err(e) => op2(s, e, |v, exp| Op::SetExpVec { v, exp }),
    }
}

/// `setman(v, man)`: `v` with its mantissa replaced by the low 23 bits of `man`. An immediate
/// whose low 11 bits are zero fits SFPSETMAN's 12-bit field; any other is loaded first.
pub fn setman(v: vFloat, man: impl FieldArg) -> vFloat {
    let s = src(v);
    match man.field() {
        Ok(m) if m & 0x7FF == 0 => op1(s, |v| Op::SetManImm { v, man12: (m >> 11) & 0xFFF }),
        Ok(m) => {
            let bits = m & 0x7F_FFFF;
            let loaded = imm(VType::Int, bits, ImmForm::for_int(bits));
            op2(s, loaded, |v, man| Op::SetManVec { v, man })
        }
        Err(m) => op2(s, m, |v, man| Op::SetManVec { v, man }),
    }
}

/// The sign argument of `setsgn`: an integer immediate (bit 0) or a vector (its sign bit).
pub trait SgnArg: Copy {
    #[doc(hidden)]
    fn sgn(self) -> Result<u32, Option<Src>>;
}

impl SgnArg for i32 {
    fn sgn(self) -> Result<u32, Option<Src>> {
        Ok(self as u32 & 1)
    }
}

impl SgnArg for vFloat {
    fn sgn(self) -> Result<u32, Option<Src>> {
        Err(src(self))
    }
}

impl SgnArg for vInt {
    fn sgn(self) -> Result<u32, Option<Src>> {
        Err(src(self))
    }
}

/// `setsgn(v, sgn)`: `v` with its sign replaced by bit 0 of an immediate or the sign bit of each
/// lane of a vector.
pub fn setsgn<V: Vector>(v: V, sgn: impl SgnArg) -> V {
    let s = src(v);
    match sgn.sgn() {
        Ok(b) => op1(s, |v| Op::SetSgnImm { v, sgn: b }),
        Err(g) => op2(s, g, |v, sgn| Op::SetSgnVec { v, sgn }),
    }
}

/// `addexp(v, exp)`: `v` with `exp` added to its 8-bit exponent (modulo 256; an exponent of 255,
/// infinity or NaN, is left alone).
pub fn addexp(v: vFloat, exp: i32) -> vFloat {
    op1(src(v), |v| Op::AddExp { v, imm8: exp as u32 & 0xFF })
}

fn lut_impl(v: vFloat, l0: vUInt, l1: vUInt, l2: vUInt, offset: i32, retain_sign: bool) -> vFloat {
    if offset != 0 {
        bad_argument(format!(
            "lut offset {offset}: Wormhole's and Blackhole's SFPLUT have no bias (Grayskull's \
             SFPLUT_MOD0_BIAS_*), so only 0 is accepted"
        ));
        return vFloat::from_handle(Handle::POISON);
    }
    let (a, b0, b1, b2) = (src(v), src(l0), src(l1), src(l2));
    match (a, b0, b1, b2) {
        (Some(v), Some(x), Some(y), Some(z)) => op1(Some(v), |v| Op::Lut { v, l: [x, y, z], retain_sign }),
        _ => vFloat::from_handle(Handle::POISON),
    }
}

/// `lut(v, l0, l1, l2, offset)`: `A * |v| + B` with the two 8-bit coefficients `A` (bits 15:8)
/// and `B` (bits 7:0) of `l0` when `|v| < 1`, `l1` when `|v| < 2`, `l2` otherwise, with the sign
/// of `v` (SFPLUT `SGN_RETAIN`). `offset` must be 0 (see the module docs).
pub fn lut(v: vFloat, l0: vUInt, l1: vUInt, l2: vUInt, offset: i32) -> vFloat {
    lut_impl(v, l0, l1, l2, offset, true)
}

/// `lut_sign(v, l0, l1, l2, offset)`: as [`lut`], keeping the sign the multiply-add gives
/// (`SGN_UPDATE`).
pub fn lut_sign(v: vFloat, l0: vUInt, l1: vUInt, l2: vUInt, offset: i32) -> vFloat {
    lut_impl(v, l0, l1, l2, offset, false)
}

/// `lz(v)`: the number of leading zeros of the 32 bits (32 for zero).
pub fn lz(v: impl Vector) -> vInt {
    op1(src(v), |v| Op::Lz { v, nosgn: false })
}

/// `lz_nosgn(v)`: leading zeros ignoring the sign bit.
pub fn lz_nosgn(v: impl Vector) -> vInt {
    op1(src(v), |v| Op::Lz { v, nosgn: true })
}

/// The types `abs` takes.
pub trait AbsArg: Vector {
    #[doc(hidden)]
    const FLOAT: bool;
}

impl AbsArg for vFloat {
    const FLOAT: bool = true;
}

impl AbsArg for vInt {
    const FLOAT: bool = false;
}

/// `abs(v)`: the absolute value (float: clears the sign, except of a negative NaN; integer: two's
/// complement negation of negative lanes, `-2^31` unchanged).
pub fn abs<V: AbsArg>(v: V) -> V {
    op1(src(v), |v| Op::Abs { v, float: V::FLOAT })
}

/// The types `shft` shifts.
pub trait ShftArg: Vector {
    #[doc(hidden)]
    const ARITH: bool;
}

impl ShftArg for vUInt {
    const ARITH: bool = false;
}

impl ShftArg for vInt {
    const ARITH: bool = true;
}

/// A shift amount: an immediate or a vector of signed amounts.
pub trait ShiftAmount: Copy {
    #[doc(hidden)]
    fn amount(self) -> Result<i32, Option<Src>>;
}

impl ShiftAmount for i32 {
    fn amount(self) -> Result<i32, Option<Src>> {
        Ok(self)
    }
}

impl ShiftAmount for vInt {
    fn amount(self) -> Result<i32, Option<Src>> {
        Err(src(self))
    }
}

/// `shft(v, amt)`: shift left by positive amounts, right by negative ones; logical for a
/// `vUInt`, arithmetic for a `vInt` (Blackhole only).
pub fn shft<V: ShftArg>(v: V, amt: impl ShiftAmount) -> V {
    let s = src(v);
    match amt.amount() {
        Ok(k) if (-2048..=2047).contains(&k) => op1(s, |v| Op::ShiftImm { v, amt: k, arith: V::ARITH }),
        Ok(k) => {
            bad_argument(format!("shift amount {k} does not fit SFPSHFT's 12-bit immediate"));
            V::from_handle(Handle::POISON)
        }
        Err(a) => op2(s, a, |v, amt| Op::ShiftVec { v, amt, arith: V::ARITH }),
    }
}

fn record_swap<V: Vector>(a: &mut V, b: &mut V, min_max: bool) {
    let (Some(Src::Val(x)), Some(Src::Val(y))) = (src(*a), src(*b)) else {
        *a = V::from_handle(Handle::POISON);
        *b = V::from_handle(Handle::POISON);
        return;
    };
    let name = if min_max { "vec_min_max" } else { "vec_swap" };
    let outs = with(|r| {
        let oa = r.tied_value(V::TYPE, x, name);
        let ob = r.tied_value(V::TYPE, y, name);
        r.push(Stmt::Swap { outs: [oa.id, ob.id], ins: [x, y], min_max });
        (oa, ob)
    });
    let (oa, ob) = outs.unwrap_or((Handle::POISON, Handle::POISON));
    *a = V::from_handle(oa);
    *b = V::from_handle(ob);
}

/// `vec_swap(a, b)`: exchanges `a` and `b` in the enabled lanes.
pub fn vec_swap<V: Vector>(a: &mut V, b: &mut V) {
    record_swap(a, b, false);
}

/// `vec_min_max(min, max)`: in each enabled lane, `min` receives the smaller and `max` the larger
/// of the two, in sign-magnitude order (`-0 < +0`; negative NaNs first, positive NaNs last),
/// which is IEEE order for other floats.
pub fn vec_min_max<V: Vector>(min: &mut V, max: &mut V) {
    record_swap(min, max, true);
}

fn cross_lane_allowed(what: &str) -> bool {
    let predicated = with(|r| r.predicated()).unwrap_or(false);
    if predicated {
        let what = format!(
            "{what} moves values between lanes; under v_if a lane could receive a value that is \
             not defined in its source lane, so it is only supported outside v_if / v_block"
        );
        record::fail(|k| KernelError::Unsupported { kernel: k.to_string(), what });
    }
    !predicated
}

/// `subvec_shflror1(v)`: within each group of eight lanes, lane `i` receives lane `i - 1`'s value
/// and lane 0 lane 7's (a rotation right by one lane).
pub fn subvec_shflror1<V: Vector>(v: V) -> V {
    if !cross_lane_allowed("subvec_shflror1") {
        return V::from_handle(Handle::POISON);
    }
    op1(src(v), |v| Op::Shfl { v, ror1: true })
}

/// `subvec_shflshr1(v)`: within each group of eight lanes, lane `i` receives lane `i - 1`'s value;
/// lane 0 receives 0 on Blackhole and, by a documented Wormhole bug, lane 7 of the input of the
/// last `subvec_shflror1` (the SFPSHFT2 `vc0` latch) on Wormhole.
pub fn subvec_shflshr1<V: Vector>(v: V) -> V {
    if !cross_lane_allowed("subvec_shflshr1") {
        return V::from_handle(Handle::POISON);
    }
    op1(src(v), |v| Op::Shfl { v, ror1: false })
}

/// `subvec_transp(a, b, c, d)`: within each column of lanes `col, col + 8, col + 16, col + 24`
/// (`col` in 0..8), transposes the 4x4 matrix (vector, row): lane `8 * j + col` of vector `i`
/// receives lane `8 * i + col` of vector `j` (SFPTRANSP). The instruction transposes `LReg[0..4]`
/// and `LReg[4..8]` at once, so no other vector value may be live across it.
pub fn subvec_transp<V: Vector>(a: &mut V, b: &mut V, c: &mut V, d: &mut V) {
    if !cross_lane_allowed("subvec_transp") {
        return;
    }
    let ins = [src(*a), src(*b), src(*c), src(*d)];
    let mut ids = [0u32; 4];
    for (i, s) in ins.iter().enumerate() {
        match s {
            Some(Src::Val(x)) => ids[i] = *x,
            _ => return,
        }
    }
    let outs = with(|r| {
        let o = ids.map(|x| r.tied_value(V::TYPE, x, "subvec_transp"));
        r.push(Stmt::Transp { outs: o.map(|h| h.id), ins: ids });
        o
    });
    if let Some(o) = outs {
        *a = V::from_handle(o[0]);
        *b = V::from_handle(o[1]);
        *c = V::from_handle(o[2]);
        *d = V::from_handle(o[3]);
    }
}

/// `int_to_float(v, round_mode)`: SFPCAST, converting the 32 bits as a *sign-magnitude* integer
/// (sign bit and 31-bit magnitude, as the instruction reads them) to FP32, rounding to nearest
/// even (`round_mode = 0`) or stochastically (`1`, SFPI's default). A negative two's complement
/// `vInt` must be made sign-magnitude first (`setsgn(abs(v), v)`).
pub fn int_to_float(v: vInt, round_mode: i32) -> vFloat {
    op1(src(v), |v| Op::Cast { v, stochastic: round_mode != 0 })
}

/// The name `sfpi_lib.h` uses for [`int_to_float`].
pub fn int32_to_float(v: vInt, round_mode: i32) -> vFloat {
    int_to_float(v, round_mode)
}

fn stochrnd(v: vFloat, conv: RndConv, round_mode: i32) -> vUInt {
    op1(src(v), |v| Op::StochRnd { v, conv, stochastic: round_mode != 0, descale: Descale::None })
}

/// `float_to_fp16a(v, round_mode)`: `v` rounded to 10 mantissa bits (kept in FP32 layout).
pub fn float_to_fp16a(v: vFloat, round_mode: i32) -> vUInt {
    stochrnd(v, RndConv::Fp16a, round_mode)
}

/// `float_to_fp16b(v, round_mode)`: `v` rounded to 7 mantissa bits (kept in FP32 layout).
pub fn float_to_fp16b(v: vFloat, round_mode: i32) -> vUInt {
    stochrnd(v, RndConv::Fp16b, round_mode)
}

/// `float_to_uint8(v, round_mode)`: 0..=255.
pub fn float_to_uint8(v: vFloat, round_mode: i32) -> vUInt {
    stochrnd(v, RndConv::Uint8, round_mode)
}

/// `float_to_int8(v, round_mode)`: -127..=127 as sign-magnitude.
pub fn float_to_int8(v: vFloat, round_mode: i32) -> vUInt {
    stochrnd(v, RndConv::Int8, round_mode)
}

/// `float_to_uint16(v, round_mode)`: 0..=65535.
pub fn float_to_uint16(v: vFloat, round_mode: i32) -> vUInt {
    stochrnd(v, RndConv::Uint16, round_mode)
}

/// `float_to_int16(v, round_mode)`: -32767..=32767 as sign-magnitude.
pub fn float_to_int16(v: vFloat, round_mode: i32) -> vUInt {
    stochrnd(v, RndConv::Int16, round_mode)
}

/// The descale of `int32_to_uint8` / `int32_to_int8`: an immediate 0..=31 or a vector.
pub trait DescaleArg: Copy {
    #[doc(hidden)]
    fn descale(self) -> Option<Descale>;
}

impl DescaleArg for u32 {
    fn descale(self) -> Option<Descale> {
        if self > 31 {
            bad_argument(format!("descale {self} does not fit SFPSTOCHRND's 5-bit immediate"));
            return None;
        }
        Some(Descale::Imm(self))
    }
}

impl DescaleArg for vUInt {
    fn descale(self) -> Option<Descale> {
        src(self).map(Descale::Vec)
    }
}

fn int32_to(v: vInt, descale: impl DescaleArg, conv: RndConv, round_mode: i32) -> vUInt {
    let s = src(v);
    let d = descale.descale();
    match (s, d) {
        (Some(v), Some(descale)) => {
            op1(Some(v), |v| Op::StochRnd { v, conv, stochastic: round_mode != 0, descale })
        }
        _ => vUInt::from_handle(Handle::POISON),
    }
}

/// `int32_to_uint8(v, descale, round_mode)`: the sign-magnitude `v` shifted right by `descale`,
/// rounded, saturated to 0..=255.
pub fn int32_to_uint8(v: vInt, descale: impl DescaleArg, round_mode: i32) -> vUInt {
    int32_to(v, descale, RndConv::Int32ToUint8, round_mode)
}

/// `int32_to_int8(v, descale, round_mode)`: as [`int32_to_uint8`], saturated to -127..=127.
pub fn int32_to_int8(v: vInt, descale: impl DescaleArg, round_mode: i32) -> vUInt {
    int32_to(v, descale, RndConv::Int32ToInt8, round_mode)
}

/// A float operand as a `vFloat` (helper for kernels written generically over operands).
pub fn vfloat(x: impl FloatArg) -> vFloat {
    match x.float_src() {
        Some(Src::Val(id)) => vFloat::from_handle(Handle { id, generation: generation() }),
        Some(Src::Const(reg)) => {
            vFloat::from_handle(crate::vector::record_value(VType::Float, Op::ConstReg(reg)))
        }
        None => vFloat::from_handle(Handle::POISON),
    }
}

/// An integer operand as a `vInt`.
pub fn vint(x: impl IntArg) -> vInt {
    match x.int_src() {
        Some(Src::Val(id)) => vInt::from_handle(Handle { id, generation: generation() }),
        Some(Src::Const(reg)) => {
            vInt::from_handle(crate::vector::record_value(VType::Int, Op::ConstReg(reg)))
        }
        None => vInt::from_handle(Handle::POISON),
    }
}

fn generation() -> u32 {
    with(|r| r.generation()).unwrap_or(0)
}
