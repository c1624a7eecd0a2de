//! SFPCONFIG: writes LaneConfig, LoadMacroConfig (templates, sequences, Misc) and LReg[11..14].
//!
//! Implements BlackholeA0 `SFPCONFIG.md`.
//!
//! Notes: the page's lane loop reads `LReg[0][Lane & 7]`, `UseLaneFlagsForLaneEnable[Lane & 7]`
//! and `LaneFlags[Lane & 7]` (row 0 of each column: ROW_MASK is not consulted), and a lane is
//! also skipped when `IMM16_IS_LANE_MASK` (8) is set and `Imm16` bit `2 * (Lane & 7)` is clear.
//! The `Value` of the `Misc` case is a `uint12_t` and that of the LaneConfig case a `uint18_t`,
//! so the source is truncated to those widths before the bitwise operation.

use sfpu_reference::outcome::{Clause, Outcome};

use crate::state::{FastState, columns_to_lanes, expand};

use crate::exec::Ctx;

/// The `LReg[11..14]` defaults of `MOD1_IMM16_IS_VALUE` (`SFPCONFIG.md`): -1.0, 1/512,
/// -0.67487759, -0.34484843. `LReg[12]`'s value is the one of the newest revision of the page
/// (f916ebc3); an older revision said 1/65536, so the lanes it writes are reported as unspecified
/// (`docs/spec/sfpu-blackhole.md#sfpconfig-vd12-constant`).
const CONSTANTS: [u32; 4] = [0xBF80_0000, 0x3B00_0000, 0xBF2C_C4C7, 0xBEB0_8FF9];

/// SFPCONFIG with the configuration selector `VD` (0..3 templates, 4..7 sequences, 8 Misc, 9..10
/// nothing, 11..14 LRegs, 15 LaneConfig).
#[inline(always)]
pub fn sfpconfig(s: &mut FastState, imm16: u32, vd: u32, mod1: u32, cx: &Ctx, out: &mut Outcome) {
    let vd = cx.vd(vd);
    let imm = mod1 & 1 != 0;
    if mod1 & 9 == 9 {
        out.note_all(Clause::SfpconfigMaskAndValue);
    }
    // Which lanes take part.
    let mut cols = 0xFFu32;
    if mod1 & 8 != 0 {
        let mut c = 0;
        for col in 0..8 {
            c |= ((imm16 >> (2 * col)) & 1) << col;
        }
        cols &= c;
    }
    let row0_skip = s.use_flags & !s.lane_flags & 0xFF;
    cols &= !row0_skip;
    let m = columns_to_lanes(cols) & cx.lanes;
    if m == 0 {
        return;
    }
    // LReg[0][Lane & 7] broadcast to all rows.
    let mut src = [0u32; 32];
    for l in 0..32 {
        src[l] = s.lreg[0][l & 7];
    }
    let mm = expand(m);
    let put = |dst: &mut [u32; 32], v: &[u32; 32]| {
        for l in 0..32 {
            dst[l] = (v[l] & mm[l]) | (dst[l] & !mm[l]);
        }
    };
    let op = mod1 & 6;
    let combine = |old: u32, v: u32| -> u32 {
        match op {
            0 => v,
            2 => old | v,
            4 => old & v,
            _ => old ^ v,
        }
    };
    match vd {
        0..=3 => put(&mut s.lmc.template[vd], &src),
        4..=7 => {
            let v = if imm { [imm16; 32] } else { src };
            put(&mut s.lmc.sequence[vd - 4], &v);
        }
        8 => {
            let mut v = [0u32; 32];
            for l in 0..32 {
                let val = if imm { imm16 } else { src[l] } & 0xFFF;
                v[l] = combine(s.lmc.misc[l], val) & 0xFFF;
            }
            put(&mut s.lmc.misc, &v);
        }
        9 | 10 => out.note(Clause::SfpconfigNoopVd, m),
        11..=14 => {
            let v = if imm { [CONSTANTS[vd - 11]; 32] } else { src };
            if imm && vd == 12 {
                out.note(Clause::SfpconfigVd12Constant, m);
            }
            put(&mut s.lreg[vd], &v);
        }
        15 => {
            let old = *s.lane_configs();
            let mut v = old;
            for l in 0..32 {
                if m & (1 << l) != 0 {
                    let val = if imm { imm16 } else { src[l] } & 0x3_FFFF;
                    let mut n = combine(old[l], val) & 0x3_FFFF;
                    if imm {
                        n |= old[l] & !0xFFFF;
                    }
                    v[l] = n;
                }
            }
            s.set_lane_configs(&v);
        }
        _ => {}
    }
}
