//! What both chips' SFPLOAD / SFPSTORE share, and SFPLOADI: the `Dst` views and their encodings,
//! where the 32 lanes of one access land in `Dst`, the gather and scatter with their undefined
//! cases, the RWC update, and the immediate loads.
//!
//! Implements `Dst.md` (WormholeB0 @ `093af914`, the same text on Blackhole plus its row remapping,
//! which is read here where the page says so), WormholeB0 `SFPLOADI.md` (the BlackholeA0 page is a
//! stub pointing there) and WormholeB0 `RWCs.md` (`ApplyPartialAddrMod`, read for Blackhole as
//! described below). Each chip's SFPLOAD and SFPSTORE (address computation, `MOD0_FMT_SRCB`,
//! conversion tables) are in [`super::blackhole::load_store`] and [`super::wormhole::load_store`],
//! side by side.
//!
//! Interpretations:
//! * `ApplyPartialAddrMod` on Blackhole (`docs/spec/sfpu-blackhole.md#blackhole-addrmod`): the
//!   3-bit `AddrMod` indexes the eight address-modifier slots directly (the Wormhole `+4` for
//!   `ExtraAddrModBit` / `ADDR_MOD_SET_Base` would leave the 8-slot table), the rest is the
//!   Wormhole definition without `FidelityPhase`. Reported as [`Clause::BlackholeAddrMod`] whenever
//!   `ExtraAddrModBit` or `ADDR_MOD_SET_Base` is set, i.e. exactly when the Wormhole rule would
//!   have selected a different slot. On Wormhole the page is the chip's own: two `AddrMod` bits,
//!   plus 4 under either bit.
//! * `DBG_FEATURE_DISABLE` bit 11 (`Dst.md`, unsupported functionality, on both chips): 16-bit
//!   reads give the high half of `Dst32b`, 16-bit writes go to the high half and leave the low
//!   half (which the page says receives an unpredictable value) unchanged; reported as undefined
//!   per lane.
//! * `DstRowValid` is consulted as `Dst.md` says (`Adj16` row for 16-bit accesses, `Adj32` row for
//!   32-bit ones); a read of an invalid row is undefined per lane; a store always writes 8 of the
//!   16 columns of a row, i.e. "some but not all", so a store into an invalid row is undefined per
//!   lane; validity is not changed.

use sfpu_reference::outcome::{Clause, Outcome};

use crate::state::{ALL, FastState, blend, per_lane};

/// The `Mod0` values of `SFPLOAD.md` / `SFPSTORE.md` (the same on both chips).
pub(crate) mod mod0 {
    pub const SRCB: u32 = 0;
    pub const FP16: u32 = 1;
    pub const BF16: u32 = 2;
    pub const FP32: u32 = 3;
    pub const INT32: u32 = 4;
    pub const INT8: u32 = 5;
    pub const UINT16: u32 = 6;
    pub const HI16: u32 = 7;
    pub const INT16: u32 = 8;
    pub const LO16: u32 = 9;
    pub const INT32_ALL: u32 = 10;
    pub const ZERO: u32 = 11;
    pub const INT32_SM: u32 = 12;
    pub const INT8_COMP: u32 = 13;
    pub const LO16_ONLY: u32 = 14;
    pub const HI16_ONLY: u32 = 15;
}

/// `ApplyPartialAddrMod(AddrMod)` (WormholeB0 `RWCs.md`; on Blackhole as the module docs say).
#[inline(always)]
pub fn apply_partial_addr_mod(s: &mut FastState, addr_mod: u32, out: &mut Outcome) {
    let wormhole = s.is_wormhole();
    let a = &mut s.addressing;
    let shifted = a.RWC.ExtraAddrModBit & 1 != 0 || a.ADDR_MOD_SET_Base;
    let index = if wormhole {
        // `uint3_t Index = AddrMod; if (RWC.ExtraAddrModBit || ADDR_MOD_SET_Base) Index += 4;`
        (addr_mod & 3) + if shifted { 4 } else { 0 }
    } else {
        // The reading is uncertain exactly where Wormhole's rule would pick another slot.
        if shifted {
            out.note_all(Clause::BlackholeAddrMod);
        }
        addr_mod & 7
    };
    let slot = a.ADDR_MOD[index as usize];
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

/// Blackhole's `Dst` row remapping (`DEST_ACCESS_CFG_remap_addrs`, `..._swizzle_32b`), as it
/// applies to `s`: never on Wormhole, whose `Dst.md` has none.
#[inline(always)]
fn remapping(s: &FastState) -> (bool, bool) {
    let a = &s.addressing;
    if s.is_wormhole() {
        (false, false)
    } else {
        (a.DEST_ACCESS_CFG_remap_addrs, a.DEST_ACCESS_CFG_swizzle_32b)
    }
}

/// `Adj16` (`Dst.md`): the identity, except under Blackhole's `remap_addrs`.
#[inline(always)]
fn adj16(remap: bool, r: u32) -> u32 {
    let mut r = r & 0x3FF;
    if remap {
        r = (r & 0x3C7) ^ ((r & 0x030) >> 1) ^ ((r & 0x008) << 2);
    }
    r
}

/// `Adj32` (`Dst.md`): the physical row of the high half; the low half is 8 rows further.
/// Blackhole also applies `Adj16` and `swizzle_32b` first.
#[inline(always)]
fn adj32((remap, swizzle): (bool, bool), r: u32) -> u32 {
    let mut r = adj16(remap, r);
    if swizzle {
        r = (r & 0x3F3) ^ ((r & 0x018) >> 1) ^ ((r & 0x004) << 1);
    }
    ((r & 0x1F8) << 1) | (r & 0x207)
}

/// `DstDecodeBF16` then shifted to the FP32 position is the same shuffle for the high half of
/// `DstDecodeFP32`.
#[inline(always)]
pub(crate) fn dst_decode_bf16(x: u32) -> u32 {
    (x & 0x8000) | ((x & 0xFF) << 7) | ((x >> 8) & 0x7F)
}

/// `DstEncodeBF16` (`Dst.md`).
#[inline(always)]
pub(crate) fn dst_encode_bf16(x: u32) -> u32 {
    (x & 0x8000) | ((x & 0x7F) << 8) | ((x >> 7) & 0xFF)
}

/// `DstEncodeFP16` (`Dst.md`).
#[inline(always)]
pub(crate) fn dst_encode_fp16(x: u32) -> u32 {
    (x & 0x8000) | ((x & 0x3FF) << 5) | ((x >> 10) & 0x1F)
}

/// `DstDecodeFP32` (`Dst.md`).
#[inline(always)]
pub(crate) fn dst_decode_fp32(x: u32) -> u32 {
    (dst_decode_bf16(x >> 16) << 16) | (x & 0xFFFF)
}

/// `DstEncodeFP32` (`Dst.md`).
#[inline(always)]
pub(crate) fn dst_encode_fp32(x: u32) -> u32 {
    (dst_encode_bf16(x >> 16) << 16) | (x & 0xFFFF)
}

/// `ReadFP16` (`SFPLOAD.md`, the same on both chips) for all lanes; `inf` is the lanes whose
/// `ENABLE_FP16A_INF` is set.
#[inline(always)]
pub(crate) fn read_fp16(raw: &[u32; 32], inf: u32) -> [u32; 32] {
    let mut new = [0u32; 32];
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
    new
}

/// `ToFP16` (`SFPSTORE.md`, the same on both chips).
#[inline(always)]
pub(crate) fn to_fp16(x: u32) -> u32 {
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

/// Flush a denormal to signed zero (`ToBF16` of `SFPSTORE.md`, and Blackhole's `ToFP32`, before
/// truncation).
#[inline(always)]
pub(crate) fn ftz(x: u32) -> u32 {
    if x & 0x7F80_0000 == 0 { x & 0x8000_0000 } else { x }
}

/// `SignMag11ToFP16` (`SFPSTORE.md`): the "integer 8" type, a fixed exponent of 16.
#[inline(always)]
pub(crate) fn sign_mag11_to_fp16(x: u32) -> u32 {
    ((x >> 31) << 15) | (16 << 10) | (x & 0x3FF)
}

/// Applies `f` to every lane (one straight loop the compiler vectorises).
#[inline(always)]
pub(crate) fn each(src: &[u32; 32], f: impl Fn(u32) -> u32) -> [u32; 32] {
    per_lane(|l| f(src[l]))
}

/// Where the 32 lanes of one SFPLOAD / SFPSTORE access Dst: for each of the four logical rows
/// `(Addr & ~3) + r`, the physical row of the 16-bit view (`Adj16`, or the high half of the 32-bit
/// view in the debug aliasing mode) and of the 32-bit view (`Adj32`); for each lane, which column
/// of its pair it accesses.
///
/// Lane `8 * r + j` accesses column `2 * j` or `2 * j + 1` of row `r`: the lanes of one row never
/// share a cell, and the eight physical rows of an access are distinct (`Adj16` and the swizzle
/// permute address bits; `Adj32`'s high rows have bit 3 clear, their low halves set). So a row
/// is read or written as one 16-column row whatever the column choices, with the cells chosen
/// per column: one straight loop per row that the compiler vectorises, and the same cells in the
/// same order as the pages' lane-by-lane loop.
pub(crate) struct Rows {
    logical: [u32; 4],
    phys16: [usize; 4],
    phys32: [usize; 4],
    /// The lanes that access the odd column of their pair: `Addr & 2`, or
    /// `DEST_{RD|WR}_COL_EXCHANGE` of `LaneConfig[Lane & 7]`.
    odd_col: u32,
}

/// Column pair `j` of a `Dst` row as one word: column `2 * j` in the low half.
#[inline(always)]
fn pair(cells: &[u16; 16], j: usize) -> u32 {
    cells[2 * j] as u32 | (cells[2 * j + 1] as u32) << 16
}

/// Lane `j`'s 16-bit word of a row: column `2 * j + (odd >> j & 1)`, for `j` in `0..8`.
#[inline(always)]
fn read_row(cells: &[u16; 16], odd: u32) -> [u32; 8] {
    per_lane(|j| (pair(cells, j) >> (16 * (odd >> j & 1))) & 0xFFFF)
}

/// Writes the low 16 bits of `v[j]` to column `2 * j` of a row where bit `j` of `even` is set, and
/// to column `2 * j + 1` where bit `j` of `odd` is set.
#[inline(always)]
fn write_row(cells: &mut [u16; 16], v: &[u32; 8], even: u32, odd: u32) {
    // Column `c`'s bit in `even | odd << 8`.
    const BIT: [u16; 16] =
        [1, 1 << 8, 2, 2 << 8, 4, 4 << 8, 8, 8 << 8, 16, 16 << 8, 32, 32 << 8, 64, 64 << 8, 128, 128 << 8];
    let sel = (even | odd << 8) as u16;
    for c in 0..16 {
        let keep = ((sel & BIT[c]) != 0) as u16;
        let keep = keep.wrapping_sub(1);
        cells[c] = (cells[c] & keep) | (v[c / 2] as u16 & !keep);
    }
}

impl Rows {
    /// `col_x`: the lanes whose `DEST_{RD|WR}_COL_EXCHANGE` (of `LaneConfig[Lane & 7]`) is set.
    #[inline(always)]
    pub(crate) fn new(s: &FastState, addr: u32, col_x: u32) -> Rows {
        let base = addr & !3 & 0x3FF;
        let aliased = s.addressing.DBG_FEATURE_DISABLE_bit11;
        let remap = remapping(s);
        let mut r = Rows {
            logical: [0; 4],
            phys16: [0; 4],
            phys32: [0; 4],
            odd_col: if addr & 2 != 0 { ALL } else { col_x },
        };
        for row in 0..4 {
            let lr = (base + row as u32) & 0x3FF;
            r.logical[row] = lr;
            r.phys32[row] = adj32(remap, lr) as usize;
            r.phys16[row] = if aliased { r.phys32[row] } else { adj16(remap.0, lr) as usize };
        }
        r
    }

    /// The column lane `lane` accesses.
    #[inline(always)]
    fn col(&self, lane: usize) -> u32 {
        (lane as u32 & 7) * 2 + (self.odd_col >> lane & 1)
    }

    /// The lanes whose (16-bit view, or 32-bit view) physical row is marked invalid.
    #[inline(always)]
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

    /// The raw `Dst16b` (or, if `wide`, `Dst32b`) word every lane reads, reporting the undefined
    /// reads among `lanes`.
    #[inline(always)]
    pub(crate) fn gather(&self, s: &FastState, wide: bool, lanes: u32, out: &mut Outcome) -> [u32; 32] {
        let mut raw = [0u32; 32];
        for row in 0..4 {
            let odd = self.odd_col >> (8 * row);
            let words: [u32; 8] = if wide {
                let p = self.phys32[row];
                let (hi, lo) = (read_row(&s.dst.DstBits[p], odd), read_row(&s.dst.DstBits[p + 8], odd));
                per_lane(|j| (hi[j] << 16) | lo[j])
            } else {
                read_row(&s.dst.DstBits[self.phys16[row]], odd)
            };
            raw[8 * row..8 * row + 8].copy_from_slice(&words);
        }
        out.note(Clause::DstUndefinedRowRead, self.invalid(s, wide) & lanes);
        if !wide && s.addressing.DBG_FEATURE_DISABLE_bit11 {
            out.note(Clause::DstDebugAliasing, lanes);
        }
        raw
    }

    /// Writes `enc` (a `Dst16b` word, or if `wide` a `Dst32b` word) of every lane in `lanes`,
    /// reporting the undefined writes. Row by row in row order, which is lane order (the lanes of
    /// a row touch distinct cells: see [`Rows`]).
    #[inline(always)]
    pub(crate) fn scatter(
        &self,
        s: &mut FastState,
        wide: bool,
        enc: &[u32; 32],
        lanes: u32,
        out: &mut Outcome,
    ) {
        for row in 0..4 {
            let m = (lanes >> (8 * row)) & 0xFF;
            if m == 0 {
                continue;
            }
            let odd = (self.odd_col >> (8 * row)) & 0xFF;
            let (even, odd) = (m & !odd, m & odd);
            let enc: [u32; 8] = per_lane(|j| enc[8 * row + j]);
            if wide {
                let p = self.phys32[row];
                write_row(&mut s.dst.DstBits[p], &per_lane(|j| enc[j] >> 16), even, odd);
                write_row(&mut s.dst.DstBits[p + 8], &enc, even, odd);
            } else {
                write_row(&mut s.dst.DstBits[self.phys16[row]], &enc, even, odd);
            }
        }
        out.note(Clause::DstUndefinedRowPartialWrite, self.invalid(s, wide) & lanes);
        if !wide && s.addressing.DBG_FEATURE_DISABLE_bit11 {
            out.note(Clause::DstDebugAliasing, lanes);
        }
    }

    /// SFPLOAD's second write: with `VD < 4`, `ENABLE_DEST_INDEX` and `CAPTURE_DEFAULT_DEST_INDEX`,
    /// `LReg[VD + 4] = (Row << 4) | Column` in the lanes of `lanes` that have both bits.
    #[inline(always)]
    pub(crate) fn capture_index(&self, s: &mut FastState, vd: usize, lanes: u32) {
        let lc = *s.lc();
        let capture = if vd < 4 { lc.dest_index & lc.capture_index & lanes } else { 0 };
        if capture != 0 {
            let index: [u32; 32] = per_lane(|lane| (self.logical[lane / 8] << 4) | self.col(lane));
            blend(&mut s.lreg[vd + 4], &index, capture);
        }
    }
}

/// SFPLOADI: only if `VD < 8`; in enabled lanes, Mod0 0 BF16, 1 FP16 (no special cases), 2
/// zero-extend, 4 sign-extend, 8 upper half, 10 lower half. Other Mod0 values are undefined where
/// the page's `UndefinedBehaviour()` is reached, i.e. in the enabled lanes only (it sits inside
/// `if (LaneEnabled)`); those lanes are reported and nothing is written.
#[inline(always)]
pub fn sfploadi(s: &mut FastState, vd: u32, mod0: u32, imm16: u32, out: &mut Outcome) {
    if vd >= 8 {
        return;
    }
    let vd = vd as usize;
    let m = s.enabled();
    let imm = imm16 & 0xFFFF;
    // Every mode as `(old & keep) | set`: the upper- and lower-half modes keep the other half.
    let (keep, set) = match mod0 {
        0 => (0, imm << 16),
        1 => (0, ((imm >> 15) << 31) | ((((imm >> 10) & 0x1F) + 112) << 23) | ((imm & 0x3FF) << 13)),
        2 => (0, imm),
        4 => (0, imm as u16 as i16 as i32 as u32),
        8 => (0xFFFF, imm << 16),
        10 => (0xFFFF_0000, imm),
        _ => {
            out.note(Clause::SfploadiReservedMod0, m);
            return;
        }
    };
    let reg = &mut s.lreg[vd];
    if m == ALL {
        for w in reg.iter_mut() {
            *w = (*w & keep) | set;
        }
        return;
    }
    // The lanes outside `m` keep every bit.
    let mm = crate::state::blend_mask(m);
    for l in 0..32 {
        reg[l] = (reg[l] & (keep | !mm[l])) | (set & mm[l]);
    }
}
