//! Blackhole's SFPLOAD and SFPSTORE (and the SFPLOAD part of SFPLOADMACRO): `MOD0_FMT_SRCB`
//! with the `SFPU_DEST_FMT` override, the `Sp` term of every address and the `Sp` stack of
//! `MOD0_FMT_INT32_ALL`, and the conversion tables.
//!
//! Implements BlackholeA0 `SFPLOAD.md`, `SFPSTORE.md`. The shared `Dst` views and RWC update are in
//! [`crate::ops::load_store`]; Wormhole's versions of these two pages are
//! [`crate::ops::wormhole::load_store`], in the same shape.
//!
//! Interpretation: a scheduled SFPSTORE with `MOD0_FMT_INT32_ALL`: the page replaces the whole
//! address computation, which is where the `Sp` post-increment lives, so `Sp` is not advanced
//! (reported as unspecified).

use sfpu_reference::outcome::{Clause, Outcome};
use sfpu_reference::state::addressing::data_format as fmt;

use crate::exec::Ctx;
use crate::ops::load_store::{
    Rows, apply_partial_addr_mod, dst_decode_bf16, dst_decode_fp32, dst_encode_bf16, dst_encode_fp16,
    dst_encode_fp32, each, ftz, mod0::*, read_fp16, sign_mag11_to_fp16, to_fp16,
};
use crate::state::{FastState, blend, per_lane};

/// Resolves `MOD0_FMT_SRCB` (`SFPLOAD.md` / `SFPSTORE.md`), with Blackhole's `SFPU_DEST_FMT`.
#[inline(always)]
fn resolve_srcb(s: &FastState, mod0: u32) -> u32 {
    if mod0 != SRCB {
        return mod0;
    }
    let a = &s.addressing;
    if a.ALU_ACC_CTRL_SFPU_Fp32_enabled {
        return FP32;
    }
    let mut f = if a.ALU_FORMAT_SPEC_REG_SrcB_override {
        a.ALU_FORMAT_SPEC_REG_SrcB_val
    } else {
        a.ALU_FORMAT_SPEC_REG1_SrcB
    };
    if a.SFPU_DEST_FMT_Enable {
        f = a.SFPU_DEST_FMT_Base;
    }
    if [fmt::FP32, fmt::TF32, fmt::BF16, fmt::BFP8, fmt::BFP4, fmt::BFP2, fmt::INT32, fmt::INT16].contains(&f)
    {
        BF16
    } else {
        FP16
    }
}

/// The `uint10_t Addr` of SFPLOAD (`load`) / SFPSTORE, with the `Sp` pre-decrement (load) or
/// post-increment (store) of `MOD0_FMT_INT32_ALL`.
#[inline(always)]
fn compute_addr(s: &mut FastState, imm10: u32, mod0: u32, load: bool) -> u32 {
    let a = &mut s.addressing;
    let mut addr = (imm10 + a.DEST_TARGET_REG_CFG_MATH_Offset as u32) & 0x3FF;
    let dst_off = (a.RWC.Dst as u32 + a.DEST_REGW_BASE_Base as u32) & 0x3FF;
    let incr = a.SFPU_STACK_Incr as u32;
    if mod0 == INT32_ALL {
        if load && a.RWC.Sp & 0x3FF != 0 {
            a.RWC.Sp = ((a.RWC.Sp as u32).wrapping_sub(incr) & 0x3FF) as u16;
        }
        let sp_off = (a.RWC.Sp as u32 + a.DEST_SP_BASE_Base as u32) & 0x3FF;
        addr = (addr + sp_off + (dst_off & 3)) & 0x3FF;
        if !load {
            a.RWC.Sp = ((a.RWC.Sp as u32 + incr) & 0x3FF) as u16;
        }
    } else {
        let sp_off = (a.RWC.Sp as u32 + a.DEST_SP_BASE_Base as u32) & 0x3FF;
        addr = (addr + dst_off + (sp_off & 3)) & 0x3FF;
    }
    addr
}

/// SFPLOAD (and the load part of SFPLOADMACRO). Returns the computed `Addr`.
#[inline(always)]
pub fn sfpload(s: &mut FastState, vd: u32, mod0: u32, addr_mod: u32, imm10: u32, out: &mut Outcome) -> u32 {
    let mod0 = resolve_srcb(s, mod0);
    let addr = compute_addr(s, imm10, mod0, true);
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
            FP32 | INT32 | INT32_ALL | INT32_SM => each(&raw, dst_decode_fp32),
            FP16 => read_fp16(&raw, lc.fp16a_inf),
            BF16 => each(&raw, |x| dst_decode_bf16(x) << 16),
            INT8 => each(&raw, |x| ((x >> 15) << 31) | ((x >> 5) & 0xFF)),
            INT8_COMP => each(&raw, |x| ((x >> 15) << 31) | ((x >> 5) & 0x3FF)),
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
    let addr = if cx.scheduled {
        if mod0 == INT32_ALL {
            out.note_all(Clause::LoadmacroStoreSp);
        }
        cx.store_addr & 0x3FF
    } else {
        compute_addr(s, imm10, mod0, false)
    };
    let lc = *s.lc();
    let en = if mod0 == INT32_ALL { !0 } else { s.enabled() };
    let lanes = !lc.block_wr & cx.g12(s, vd) & en;
    if lanes != 0 {
        let rows = Rows::new(s, addr, lc.wr_col_x_col);
        let src = &s.lreg[vd];
        let wide = matches!(mod0, FP32 | INT32 | INT32_ALL | INT32_SM | LO16 | HI16);
        // Encode, all lanes at once: one conversion, chosen once.
        let enc = match mod0 {
            FP32 => each(src, |d| dst_encode_fp32(ftz(d))),
            INT32 | INT32_ALL | INT32_SM => each(src, dst_encode_fp32),
            LO16 => each(src, |d| d.rotate_left(16)),
            HI16 => *src,
            FP16 => each(src, |d| dst_encode_fp16(to_fp16(d))),
            BF16 => each(src, |d| dst_encode_bf16(ftz(d) >> 16)),
            INT8 | INT8_COMP => each(src, |d| dst_encode_fp16(sign_mag11_to_fp16(d))),
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
