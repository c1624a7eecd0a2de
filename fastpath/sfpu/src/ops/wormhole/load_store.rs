//! Wormhole's SFPLOAD and SFPSTORE (and the SFPLOAD part of SFPLOADMACRO): `MOD0_FMT_SRCB`
//! without Blackhole's `SFPU_DEST_FMT`, addresses without an `Sp` term (`MOD0_FMT_INT32_ALL` only
//! keeps the low two bits of the `Dst` offset), and the conversion tables: `MOD0_FMT_INT8` with a
//! 7-bit magnitude, `MOD0_FMT_INT32_SM` and `MOD0_FMT_INT8_COMP` converting between
//! sign-magnitude and two's complement, and a raw `MOD0_FMT_FP32` store.
//!
//! Implements WormholeB0 `SFPLOAD.md` (@ `1392d237`), `SFPSTORE.md` (@ `545c98a3`). The shared
//! `Dst` views and RWC update (`RWCs.md`, Wormhole's own page: two `AddrMod` bits) are in
//! [`crate::ops::load_store`]; Blackhole's versions of these two pages are
//! [`crate::ops::blackhole::load_store`], in the same shape.
//!
//! Notes: the store table's input expectations ("not containing -2^31", "in range ±1023") are
//! not `UndefinedBehavior` in the model, which defines every input (`ToSignMag(-2^31)` is
//! `0x80000000`, sign-magnitude -0); a scheduled SFPSTORE uses the `Addr` its SFPLOADMACRO
//! computed, as on Blackhole, and with no `Sp` there is nothing left unspecified about it.

use sfpu_reference::outcome::Outcome;
use sfpu_reference::state::addressing::data_format as fmt;

use crate::exec::Ctx;
use crate::ops::load_store::{
    Rows, apply_partial_addr_mod, dst_decode_bf16, dst_decode_fp32, dst_encode_bf16, dst_encode_fp16,
    dst_encode_fp32, each, ftz, mod0::*, read_fp16, sign_mag11_to_fp16, to_fp16,
};
use crate::state::{FastState, blend, per_lane};

/// Resolves `MOD0_FMT_SRCB` (`SFPLOAD.md` / `SFPSTORE.md`).
#[inline(always)]
fn resolve_srcb(s: &FastState, mod0: u32) -> u32 {
    if mod0 != SRCB {
        return mod0;
    }
    let a = &s.addressing;
    if a.ALU_ACC_CTRL_SFPU_Fp32_enabled {
        return FP32;
    }
    let f = if a.ALU_FORMAT_SPEC_REG_SrcB_override {
        a.ALU_FORMAT_SPEC_REG_SrcB_val
    } else {
        a.ALU_FORMAT_SPEC_REG1_SrcB
    };
    if [fmt::FP32, fmt::TF32, fmt::BF16, fmt::BFP8, fmt::BFP4, fmt::BFP2, fmt::INT32, fmt::INT16].contains(&f)
    {
        BF16
    } else {
        FP16
    }
}

/// The `uint10_t Addr` of SFPLOAD / SFPSTORE: `Imm10 + MATH_Offset`, plus the `Dst` offset
/// (`RWC.Dst + DEST_REGW_BASE`), of which `MOD0_FMT_INT32_ALL` keeps only the low two bits.
#[inline(always)]
fn compute_addr(s: &FastState, imm10: u32, mod0: u32) -> u32 {
    let a = &s.addressing;
    let addr = imm10 + a.DEST_TARGET_REG_CFG_MATH_Offset as u32;
    let dst_off = a.RWC.Dst as u32 + a.DEST_REGW_BASE_Base as u32;
    let off = if mod0 == INT32_ALL { dst_off & 3 } else { dst_off };
    (addr + off) & 0x3FF
}

/// `SignMagToTwosComp` (`SFPLOAD.md`).
#[inline(always)]
fn sign_mag_to_twos_comp(x: u32) -> u32 {
    let mag = x & 0x7FFF_FFFF;
    if x & 0x8000_0000 != 0 { mag.wrapping_neg() } else { mag }
}

/// `ToSignMag` (`SFPSTORE.md`).
#[inline(always)]
fn to_sign_mag(x: u32) -> u32 {
    let sign = x & 0x8000_0000;
    let mag = if sign != 0 { x.wrapping_neg() } else { x };
    sign | (mag & 0x7FFF_FFFF)
}

/// SFPLOAD (and the load part of SFPLOADMACRO). Returns the computed `Addr`.
#[inline(always)]
pub fn sfpload(s: &mut FastState, vd: u32, mod0: u32, addr_mod: u32, imm10: u32, out: &mut Outcome) -> u32 {
    let mod0 = resolve_srcb(s, mod0);
    let addr = compute_addr(s, imm10, mod0);
    if vd < 8 {
        let vd = vd as usize;
        let lc = *s.lc();
        let lanes = !lc.block_rd & if mod0 == INT32_ALL { !0 } else { s.enabled() };
        let rows = Rows::new(s, addr, lc.rd_col_x_col);
        let wide = matches!(mod0, FP32 | INT32 | INT32_ALL | INT32_SM);
        let raw = if mod0 != ZERO { rows.gather(s, wide, lanes, out) } else { [0u32; 32] };
        // Convert, all lanes at once.
        let old = &s.lreg[vd];
        let new = match mod0 {
            ZERO => [0u32; 32],
            FP32 | INT32 | INT32_ALL => each(&raw, dst_decode_fp32),
            INT32_SM => each(&raw, |x| sign_mag_to_twos_comp(dst_decode_fp32(x))),
            FP16 => read_fp16(&raw, lc.fp16a_inf),
            BF16 => each(&raw, |x| dst_decode_bf16(x) << 16),
            // SignMag8ToSignMag32: a 7-bit magnitude.
            INT8 => each(&raw, |x| ((x >> 15) << 31) | ((x >> 5) & 0x7F)),
            INT8_COMP => each(&raw, |x| sign_mag_to_twos_comp(((x >> 15) << 31) | ((x >> 5) & 0x3FF))),
            LO16_ONLY => per_lane(|l| (old[l] & 0xFFFF_0000) | raw[l]),
            HI16_ONLY => per_lane(|l| (raw[l] << 16) | (old[l] & 0xFFFF)),
            INT16 => each(&raw, |x| ((x >> 15) << 31) | (x & 0x7FFF)),
            HI16 => each(&raw, |x| x << 16),
            // UINT16 and LO16.
            _ => raw,
        };
        blend(&mut s.lreg[vd], &new, lanes);
        rows.capture_index(s, vd, lanes);
    }
    apply_partial_addr_mod(s, addr_mod, out);
    addr
}

/// SFPSTORE, regular or scheduled by SFPLOADMACRO (`cx.scheduled`: frozen address, no
/// `ApplyPartialAddrMod`, `DISABLE_BACKDOOR_LOAD` read as true).
#[inline(always)]
pub fn sfpstore(
    s: &mut FastState,
    vd: u32,
    mod0: u32,
    addr_mod: u32,
    imm10: u32,
    cx: &Ctx,
    out: &mut Outcome,
) {
    let mod0 = resolve_srcb(s, mod0);
    let vd = cx.vd(vd);
    let addr = if cx.scheduled { cx.store_addr & 0x3FF } else { compute_addr(s, imm10, mod0) };
    let lc = *s.lc();
    let en = if mod0 == INT32_ALL { !0 } else { s.enabled() };
    let lanes = !lc.block_wr & cx.g12(s, vd) & en;
    if lanes != 0 {
        let rows = Rows::new(s, addr, lc.wr_col_x_col);
        let src = &s.lreg[vd];
        let wide = matches!(mod0, FP32 | INT32 | INT32_ALL | INT32_SM | LO16 | HI16);
        // Encode, all lanes at once: one conversion, chosen once.
        let enc = match mod0 {
            FP32 | INT32 | INT32_ALL => each(src, dst_encode_fp32),
            INT32_SM => each(src, |d| dst_encode_fp32(to_sign_mag(d))),
            LO16 => each(src, |d| d.rotate_left(16)),
            HI16 => *src,
            FP16 => each(src, |d| dst_encode_fp16(to_fp16(d))),
            BF16 => each(src, |d| dst_encode_bf16(ftz(d) >> 16)),
            INT8 => each(src, |d| dst_encode_fp16(sign_mag11_to_fp16(d))),
            INT8_COMP => each(src, |d| dst_encode_fp16(sign_mag11_to_fp16(to_sign_mag(d)))),
            LO16_ONLY | UINT16 => each(src, |d| d & 0xFFFF),
            HI16_ONLY => each(src, |d| d >> 16),
            INT16 => each(src, |d| ((d >> 31) << 15) | (d & 0x7FFF)),
            // MOD0_FMT_ZERO.
            _ => [0; 32],
        };
        rows.scatter(s, wide, &enc, lanes, out);
    }
    if !cx.scheduled {
        apply_partial_addr_mod(s, addr_mod, out);
    }
}
