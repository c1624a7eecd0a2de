//! Moving data between Dst and LRegs, and immediates into LRegs: SFPLOAD, SFPLOADI, SFPSTORE, and
//! the SFPLOAD part of SFPLOADMACRO; Dst addressing, the 16-bit / 32-bit views, and the RWC update.
//!
//! Implements BlackholeA0 `SFPLOAD.md`, `SFPSTORE.md`, `Dst.md`, WormholeB0 `SFPLOADI.md` (the
//! BlackholeA0 page is a stub pointing there) and WormholeB0 `RWCs.md` (`ApplyPartialAddrMod`);
//! spec §3.30, §3.33, §4.3, §4.4, §4.11.
//!
//! Interpretations:
//! * `ApplyPartialAddrMod` on Blackhole (spec §6.3 item 23): the 3-bit `AddrMod` indexes the eight
//!   address-modifier slots directly (the Wormhole `+4` for `ExtraAddrModBit` / `ADDR_MOD_SET_Base`
//!   would leave the 8-slot table), the rest is the Wormhole definition without `FidelityPhase`.
//!   Reported as [`Clause::BlackholeAddrMod`] whenever `ExtraAddrModBit` or `ADDR_MOD_SET_Base` is
//!   set, i.e. exactly when the Wormhole rule would have selected a different slot.
//! * `DBG_FEATURE_DISABLE` bit 11 (`Dst.md`, unsupported functionality): 16-bit reads give the high
//!   half of `Dst32b`, 16-bit writes go to the high half and leave the low half (which the page
//!   says receives an unpredictable value) unchanged; reported as undefined per lane.
//! * `DstRowValid` is consulted as `Dst.md` says (`Adj16` row for 16-bit accesses, `Adj32` row for
//!   32-bit ones); a read of an invalid row is undefined per lane; a store always writes 8 of the
//!   16 columns of a row, i.e. "some but not all", so a store into an invalid row is undefined per
//!   lane; validity is not changed.
//! * A scheduled SFPSTORE with `MOD0_FMT_INT32_ALL`: the page replaces the whole address
//!   computation, which is where the `Sp` post-increment lives, so `Sp` is not advanced (reported
//!   as unspecified).

use sfpu_reference::outcome::{Clause, Outcome};
use sfpu_reference::state::addressing::data_format as fmt;

use crate::exec::Ctx;
use crate::state::FastState;

const MOD0_SRCB: u32 = 0;
const MOD0_FP16: u32 = 1;
const MOD0_BF16: u32 = 2;
const MOD0_FP32: u32 = 3;
const MOD0_INT32: u32 = 4;
const MOD0_INT8: u32 = 5;
const MOD0_UINT16: u32 = 6;
const MOD0_HI16: u32 = 7;
const MOD0_INT16: u32 = 8;
const MOD0_LO16: u32 = 9;
const MOD0_INT32_ALL: u32 = 10;
const MOD0_ZERO: u32 = 11;
const MOD0_INT32_SM: u32 = 12;
const MOD0_INT8_COMP: u32 = 13;
const MOD0_LO16_ONLY: u32 = 14;
const MOD0_HI16_ONLY: u32 = 15;

/// Resolves `MOD0_FMT_SRCB` (`SFPLOAD.md` / `SFPSTORE.md`).
fn resolve_srcb(s: &FastState, mod0: u32) -> u32 {
    if mod0 != MOD0_SRCB {
        return mod0;
    }
    let a = &s.addressing;
    if a.ALU_ACC_CTRL_SFPU_Fp32_enabled {
        return MOD0_FP32;
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
        MOD0_BF16
    } else {
        MOD0_FP16
    }
}

/// The `uint10_t Addr` of SFPLOAD (`load`) / SFPSTORE, with the `Sp` pre-decrement (load) or
/// post-increment (store) of `MOD0_FMT_INT32_ALL`.
fn compute_addr(s: &mut FastState, imm10: u32, mod0: u32, load: bool) -> u32 {
    let a = &mut s.addressing;
    let mut addr = (imm10 + a.DEST_TARGET_REG_CFG_MATH_Offset as u32) & 0x3FF;
    let dst_off = (a.RWC.Dst as u32 + a.DEST_REGW_BASE_Base as u32) & 0x3FF;
    let incr = a.SFPU_STACK_Incr as u32;
    if mod0 == MOD0_INT32_ALL {
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

/// `ApplyPartialAddrMod(AddrMod)` (WormholeB0 `RWCs.md`, read for Blackhole as described in the
/// module docs).
pub fn apply_partial_addr_mod(s: &mut FastState, addr_mod: u32, out: &mut Outcome) {
    let a = &mut s.addressing;
    let slot = a.ADDR_MOD[(addr_mod & 7) as usize];
    // The reading is uncertain exactly where Wormhole's rule would pick another slot: when
    // `ExtraAddrModBit` or `ADDR_MOD_SET_Base` is set.
    if a.RWC.ExtraAddrModBit & 1 != 0 || a.ADDR_MOD_SET_Base {
        out.note_all(Clause::BlackholeAddrMod);
    }
    let r = &mut a.RWC;
    let m6 = |v: u32| (v & 0x3F) as u16;
    let m10 = |v: u32| (v & 0x3FF) as u16;
    if slot.SrcAClear {
        r.SrcA = 0;
        r.SrcA_Cr = 0;
    } else if slot.SrcACR {
        r.SrcA_Cr = m6(r.SrcA_Cr as u32 + slot.SrcAIncr as u32);
        r.SrcA = r.SrcA_Cr;
    } else {
        r.SrcA = m6(r.SrcA as u32 + slot.SrcAIncr as u32);
    }
    if slot.SrcBClear {
        r.SrcB = 0;
        r.SrcB_Cr = 0;
    } else if slot.SrcBCR {
        r.SrcB_Cr = m6(r.SrcB_Cr as u32 + slot.SrcBIncr as u32);
        r.SrcB = r.SrcB_Cr;
    } else {
        r.SrcB = m6(r.SrcB as u32 + slot.SrcBIncr as u32);
    }
    if slot.DestClear {
        r.Dst = 0;
        r.Dst_Cr = 0;
    } else if slot.DestCToCR {
        r.Dst = m10(r.Dst as u32 + slot.DestIncr as u32);
        r.Dst_Cr = r.Dst;
    } else if slot.DestCR {
        r.Dst_Cr = m10(r.Dst_Cr as u32 + slot.DestIncr as u32);
        r.Dst = r.Dst_Cr;
    } else {
        r.Dst = m10(r.Dst as u32 + slot.DestIncr as u32);
    }
    if slot.BiasClear {
        r.ExtraAddrModBit = 0;
    } else if slot.BiasIncr & 3 != 0 {
        r.ExtraAddrModBit = r.ExtraAddrModBit.wrapping_add(1) & 1;
    }
}

/// `Adj16` (`Dst.md`).
#[inline(always)]
fn adj16(s: &FastState, r: u32) -> u32 {
    let mut r = r & 0x3FF;
    if s.addressing.DEST_ACCESS_CFG_remap_addrs {
        r = (r & 0x3C7) ^ ((r & 0x030) >> 1) ^ ((r & 0x008) << 2);
    }
    r
}

/// `Adj32` (`Dst.md`): the physical row of the high half; the low half is 8 rows further.
#[inline(always)]
fn adj32(s: &FastState, r: u32) -> u32 {
    let mut r = adj16(s, r);
    if s.addressing.DEST_ACCESS_CFG_swizzle_32b {
        r = (r & 0x3F3) ^ ((r & 0x018) >> 1) ^ ((r & 0x004) << 1);
    }
    ((r & 0x1F8) << 1) | (r & 0x207)
}

/// `DstDecodeBF16` then shifted to the FP32 position is the same shuffle for the high half of
/// `DstDecodeFP32`.
#[inline(always)]
fn dst_decode_bf16(x: u32) -> u32 {
    (x & 0x8000) | ((x & 0xFF) << 7) | ((x >> 8) & 0x7F)
}

#[inline(always)]
fn dst_encode_bf16(x: u32) -> u32 {
    (x & 0x8000) | ((x & 0x7F) << 8) | ((x >> 7) & 0xFF)
}

#[inline(always)]
fn dst_encode_fp16(x: u32) -> u32 {
    (x & 0x8000) | ((x & 0x3FF) << 5) | ((x >> 10) & 0x1F)
}

#[inline(always)]
fn dst_decode_fp32(x: u32) -> u32 {
    (dst_decode_bf16(x >> 16) << 16) | (x & 0xFFFF)
}

#[inline(always)]
fn dst_encode_fp32(x: u32) -> u32 {
    (dst_encode_bf16(x >> 16) << 16) | (x & 0xFFFF)
}

/// Where the 32 lanes of one SFPLOAD / SFPSTORE access Dst: for each of the four logical rows
/// `(Addr & ~3) + r`, the physical row of the 16-bit view (`Adj16`, or the high half of the 32-bit
/// view in the debug aliasing mode) and of the 32-bit view (`Adj32`); for each lane, its column.
struct Rows {
    logical: [u32; 4],
    phys16: [usize; 4],
    phys32: [usize; 4],
    col: [usize; 32],
}

impl Rows {
    /// `col_x`: the lanes whose `DEST_{RD|WR}_COL_EXCHANGE` (of `LaneConfig[Lane & 7]`) is set.
    fn new(s: &FastState, addr: u32, col_x: u32) -> Rows {
        let base = addr & !3 & 0x3FF;
        let aliased = s.addressing.DBG_FEATURE_DISABLE_bit11;
        let mut r = Rows { logical: [0; 4], phys16: [0; 4], phys32: [0; 4], col: [0; 32] };
        for row in 0..4 {
            let lr = (base + row as u32) & 0x3FF;
            r.logical[row] = lr;
            r.phys32[row] = adj32(s, lr) as usize;
            r.phys16[row] = if aliased { r.phys32[row] } else { adj16(s, lr) as usize };
        }
        let odd = addr & 2 != 0;
        for lane in 0..32 {
            r.col[lane] = (lane & 7) * 2 + (odd || col_x >> lane & 1 != 0) as usize;
        }
        r
    }

    /// The lanes whose (16-bit view, or 32-bit view) physical row is marked invalid.
    fn invalid(&self, s: &FastState, wide: bool) -> u32 {
        let mut m = 0;
        for row in 0..4 {
            let p = if wide { self.phys32[row] } else { self.phys16[row] };
            if !s.dst.DstRowValid[p] {
                m |= 0xFF << (8 * row);
            }
        }
        m
    }
}

/// SFPLOAD (and the load part of SFPLOADMACRO). Returns the computed `Addr`.
pub fn sfpload(s: &mut FastState, vd: u32, mod0: u32, addr_mod: u32, imm10: u32, out: &mut Outcome) -> u32 {
    let mod0 = resolve_srcb(s, mod0);
    let addr = compute_addr(s, imm10, mod0, true);
    if vd < 8 {
        let vd = vd as usize;
        let lc = *s.lc();
        let lanes = !lc.block_rd & if mod0 == MOD0_INT32_ALL { !0 } else { s.enabled() };
        let rows = Rows::new(s, addr, lc.rd_col_x_col);
        let wide = matches!(mod0, MOD0_FP32 | MOD0_INT32 | MOD0_INT32_ALL | MOD0_INT32_SM);
        // Gather the raw Dst words (all lanes; only `lanes` are used).
        let mut raw = [0u32; 32];
        if mod0 != MOD0_ZERO {
            for lane in 0..32 {
                let row = lane / 8;
                let c = rows.col[lane];
                raw[lane] = if wide {
                    let p = rows.phys32[row];
                    ((s.dst.DstBits[p][c] as u32) << 16) | s.dst.DstBits[p + 8][c] as u32
                } else {
                    s.dst.DstBits[rows.phys16[row]][c] as u32
                };
            }
            out.note(Clause::DstUndefinedRowRead, rows.invalid(s, wide) & lanes);
            if !wide && s.addressing.DBG_FEATURE_DISABLE_bit11 {
                out.note(Clause::DstDebugAliasing, lanes);
            }
        }
        // Convert, all lanes at once.
        let old = &s.lreg[vd];
        let mut new = [0u32; 32];
        match mod0 {
            MOD0_ZERO => {}
            MOD0_FP32 | MOD0_INT32 | MOD0_INT32_ALL | MOD0_INT32_SM => {
                for l in 0..32 {
                    new[l] = dst_decode_fp32(raw[l]);
                }
            }
            MOD0_FP16 => {
                let inf = lc.fp16a_inf;
                for l in 0..32 {
                    let h = raw[l];
                    let sign = h >> 15;
                    let man = (h >> 5) & 0x3FF;
                    let exp = h & 0x1F;
                    let e = if exp != 0 { exp + 112 } else { 0 };
                    let normal = (sign << 31) | (e << 23) | (man << 13);
                    let is_inf = inf >> l & 1 != 0 && exp == 0x1F && man == 0x3FF;
                    new[l] = if is_inf { (sign << 31) | 0x7F80_0000 } else { normal };
                }
            }
            MOD0_BF16 => {
                for l in 0..32 {
                    new[l] = dst_decode_bf16(raw[l]) << 16;
                }
            }
            MOD0_INT8 => {
                for l in 0..32 {
                    new[l] = ((raw[l] >> 15) << 31) | ((raw[l] >> 5) & 0xFF);
                }
            }
            MOD0_INT8_COMP => {
                for l in 0..32 {
                    new[l] = ((raw[l] >> 15) << 31) | ((raw[l] >> 5) & 0x3FF);
                }
            }
            MOD0_LO16_ONLY => {
                for l in 0..32 {
                    new[l] = (old[l] & 0xFFFF_0000) | raw[l];
                }
            }
            MOD0_HI16_ONLY => {
                for l in 0..32 {
                    new[l] = (raw[l] << 16) | (old[l] & 0xFFFF);
                }
            }
            MOD0_INT16 => {
                for l in 0..32 {
                    new[l] = ((raw[l] >> 15) << 31) | (raw[l] & 0x7FFF);
                }
            }
            MOD0_HI16 => {
                for l in 0..32 {
                    new[l] = raw[l] << 16;
                }
            }
            // UINT16 and LO16.
            _ => new = raw,
        }
        crate::state::blend(&mut s.lreg[vd], &new, lanes);
        let capture = if vd < 4 { lc.dest_index & lc.capture_index & lanes } else { 0 };
        if capture != 0 {
            let mut index = [0u32; 32];
            for lane in 0..32 {
                index[lane] = (rows.logical[lane / 8] << 4) | rows.col[lane] as u32;
            }
            crate::state::blend(&mut s.lreg[vd + 4], &index, capture);
        }
    }
    apply_partial_addr_mod(s, addr_mod, out);
    addr
}

/// SFPLOADI: only if `VD < 8`; in enabled lanes, Mod0 0 BF16, 1 FP16 (no special cases), 2
/// zero-extend, 4 sign-extend, 8 upper half, 10 lower half. Other Mod0 values are undefined where
/// the page's `UndefinedBehaviour()` is reached, i.e. in the enabled lanes only (it sits inside
/// `if (LaneEnabled)`); those lanes are reported and nothing is written.
pub fn sfploadi(s: &mut FastState, vd: u32, mod0: u32, imm16: u32, out: &mut Outcome) {
    if vd >= 8 {
        return;
    }
    let vd = vd as usize;
    let m = s.enabled();
    let imm = imm16 & 0xFFFF;
    let value = match mod0 {
        0 => imm << 16,
        1 => ((imm >> 15) << 31) | ((((imm >> 10) & 0x1F) + 112) << 23) | ((imm & 0x3FF) << 13),
        2 => imm,
        4 => imm as u16 as i16 as i32 as u32,
        8 | 10 => 0,
        _ => {
            out.note(Clause::SfploadiReservedMod0, m);
            return;
        }
    };
    let old = s.lreg[vd];
    let mut r = [0u32; 32];
    for l in 0..32 {
        r[l] = match mod0 {
            8 => (imm << 16) | (old[l] & 0xFFFF),
            10 => (old[l] & 0xFFFF_0000) | imm,
            _ => value,
        };
    }
    crate::state::blend(&mut s.lreg[vd], &r, m);
}

/// `ToFP16` (`SFPSTORE.md`).
#[inline(always)]
fn to_fp16(x: u32) -> u32 {
    let sign = x >> 31;
    let mut exp = ((x >> 23) & 0xFF) as i32 - 112;
    let mut man = x & 0x7F_FFFF;
    if exp <= 0 {
        exp = 0;
        man = 0;
    } else if exp > 31 {
        exp = 31;
        man = 0x7F_FFFF;
    }
    (sign << 15) | ((exp as u32) << 10) | (man >> 13)
}

/// Flush a denormal to signed zero (`ToBF16` / `ToFP32` of `SFPSTORE.md` before truncation).
#[inline(always)]
fn ftz(x: u32) -> u32 {
    if x & 0x7F80_0000 == 0 { x & 0x8000_0000 } else { x }
}

/// SFPSTORE, regular or scheduled by SFPLOADMACRO (`cx.scheduled`: frozen address, no
/// `ApplyPartialAddrMod`, `DISABLE_BACKDOOR_LOAD` read as true).
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
        if mod0 == MOD0_INT32_ALL {
            out.note_all(Clause::LoadmacroStoreSp);
        }
        cx.store_addr & 0x3FF
    } else {
        compute_addr(s, imm10, mod0, false)
    };
    let lc = *s.lc();
    let en = if mod0 == MOD0_INT32_ALL { !0 } else { s.enabled() };
    let lanes = !lc.block_wr & cx.g12(s, vd) & en;
    if lanes != 0 {
        let rows = Rows::new(s, addr, lc.wr_col_x_col);
        let src = &s.lreg[vd];
        // Encode, all lanes at once.
        let wide =
            matches!(mod0, MOD0_FP32 | MOD0_INT32 | MOD0_INT32_ALL | MOD0_INT32_SM | MOD0_LO16 | MOD0_HI16);
        // One conversion for all lanes, chosen once (a straight loop the compiler vectorises).
        #[inline(always)]
        fn each(src: &[u32; 32], f: impl Fn(u32) -> u32) -> [u32; 32] {
            std::array::from_fn(|l| f(src[l]))
        }
        let enc = match mod0 {
            MOD0_FP32 => each(src, |d| dst_encode_fp32(ftz(d))),
            MOD0_INT32 | MOD0_INT32_ALL | MOD0_INT32_SM => each(src, dst_encode_fp32),
            MOD0_LO16 => each(src, |d| d.rotate_left(16)),
            MOD0_HI16 => *src,
            MOD0_FP16 => each(src, |d| dst_encode_fp16(to_fp16(d))),
            MOD0_BF16 => each(src, |d| dst_encode_bf16(ftz(d) >> 16)),
            MOD0_INT8 | MOD0_INT8_COMP => {
                each(src, |d| dst_encode_fp16(((d >> 31) << 15) | (16 << 10) | (d & 0x3FF)))
            }
            MOD0_LO16_ONLY | MOD0_UINT16 => each(src, |d| d & 0xFFFF),
            MOD0_HI16_ONLY => each(src, |d| d >> 16),
            MOD0_INT16 => each(src, |d| ((d >> 31) << 15) | (d & 0x7FFF)),
            // MOD0_FMT_ZERO.
            _ => [0; 32],
        };
        // Scatter, lane by lane in lane order (later lanes win if two lanes share a cell).
        let mut m = lanes;
        while m != 0 {
            let lane = m.trailing_zeros() as usize;
            m &= m - 1;
            let row = lane / 8;
            let c = rows.col[lane];
            if wide {
                let p = rows.phys32[row];
                s.dst.DstBits[p][c] = (enc[lane] >> 16) as u16;
                s.dst.DstBits[p + 8][c] = enc[lane] as u16;
            } else {
                s.dst.DstBits[rows.phys16[row]][c] = enc[lane] as u16;
            }
        }
        out.note(Clause::DstUndefinedRowPartialWrite, rows.invalid(s, wide) & lanes);
        if !wide && s.addressing.DBG_FEATURE_DISABLE_bit11 {
            out.note(Clause::DstDebugAliasing, lanes);
        }
    }
    if !cx.scheduled {
        apply_partial_addr_mod(s, addr_mod, out);
    }
}
